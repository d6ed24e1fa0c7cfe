"""The ``tcgcore`` command line: list games, let agents play a match, verify replays.

Usage::

    tcgcore games [--json]
    tcgcore play GAME [--seed N] [--agents A,B] [--option KEY=VALUE ...] [--json] [--save FILE]
    tcgcore replay FILE --verify [--json]

Exit codes: 0 success, 1 a replay did not verify, 2 bad input (unknown game,
bad option, unreadable file).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

import msgspec

from . import _logging
from ._agents import make_agent
from ._errors import ReplayDivergence, TcgcoreError
from ._match import Match, ReplayRecord, _create, replay
from ._model import Event
from ._plugins import default_registry

__all__ = ["main"]


def _parse_option(text: str) -> tuple[str, Any]:
    key, sep, raw = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, got {text!r}")
    try:
        value: Any = json.loads(raw)
    except json.JSONDecodeError:
        value = raw
    return key, value


def _non_negative(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, got {value}")
    return value


def _describe(match: Match[Any], event: Event) -> str:
    if match.spec.describe_event is not None:
        return match.spec.describe_event(match.state, event)
    parts = [event.kind]
    if event.player is not None:
        parts.append(f"P{event.player}")
    if event.code is not None:
        parts.append(event.code)
    if event.src or event.dst:
        parts.append(f"{event.src} -> {event.dst}")
    if event.amount is not None:
        parts.append(str(event.amount))
    if event.data:
        parts.append(json.dumps(event.data, sort_keys=True))
    return " ".join(parts)


def _cmd_games(args: argparse.Namespace, out: TextIO) -> int:
    reg = default_registry()
    rows = [{"name": n, "version": reg.game(n).version, "description": reg.game(n).description,
             "players": list(reg.game(n).players)} for n in reg.names()]
    if args.json:
        out.write(json.dumps(rows, indent=2) + "\n")
    else:
        for row in rows:
            lo, hi = row["players"]
            seats = f"{lo}" if lo == hi else f"{lo}-{hi}"
            out.write(f"{row['name']:<16} {row['version']:<8} {seats:>4} players  "
                      f"{row['description']}\n")
    return 0


def _cmd_play(args: argparse.Namespace, out: TextIO) -> int:
    options = dict(args.option or [])
    if args.save:
        target = Path(args.save)
        if target.is_dir() or not target.parent.is_dir():
            raise OSError(f"cannot write the replay to {args.save!r}: not a file in an existing folder")
    match = _create(args.game, seed=args.seed, players=args.players, registry=None, logger=None,
                    options=options)
    names = args.agents.split(",") if args.agents else ["random"]
    n = match.state.num_players
    if len(names) == 1:
        names = names * n
    if len(names) != n:
        raise TcgcoreError(f"--agents names {len(names)} agents for {n} seats")
    agents = [make_agent(match.spec, name, (args.seed * 1_000_003 + seat) % 2**64)
              for seat, name in enumerate(names)]
    enc = msgspec.json.Encoder()
    seen = 0
    decisions = 0

    def flush() -> None:
        nonlocal seen
        for ev in match.events_since(seen):
            if args.json:
                out.write(enc.encode({"type": "event", "event": ev}).decode() + "\n")
            else:
                out.write(_describe(match, ev) + "\n")
        seen = match.state.event_count

    flush()
    while match.result is None:
        choice = match.pending
        assert choice is not None
        if args.max_decisions is not None and decisions >= args.max_decisions:
            break
        keys = agents[choice.player].decide(match, choice)
        if args.json:
            out.write(enc.encode({"type": "decision", "player": choice.player,
                                  "kind": choice.kind, "keys": keys}).decode() + "\n")
        elif args.verbose:
            labels = ", ".join(choice.option(k).label for k in keys) or "(nothing)"
            out.write(f"  P{choice.player} {choice.kind}: {labels}\n")
        match.choose(choice.player, keys)
        decisions += 1
        flush()
    result = match.result
    if args.save:
        record = match.replay()
        path = Path(args.save)
        path.write_bytes(record.to_json() if path.suffix == ".json" else record.to_bytes())
    if args.json:
        out.write(enc.encode({"type": "result", "result": result, "decisions": decisions,
                              "digest": match.digest()}).decode() + "\n")
    elif result is None:
        out.write(f"stopped after {decisions} decisions (no result yet)\n")
    else:
        if result.draw:
            summary = "draw"
        else:
            summary = "winner(s): " + ", ".join(f"P{w}" for w in result.winners)
        out.write(f"result: {summary} ({result.reason}) after {decisions} decisions\n")
    return 0


def _cmd_replay(args: argparse.Namespace, out: TextIO) -> int:
    data = Path(args.file).read_bytes()
    record = ReplayRecord.from_bytes(data)
    try:
        match = replay(record, verify=True)
    except ReplayDivergence as exc:
        if args.json:
            out.write(json.dumps({"ok": False, "index": exc.index, "error": str(exc)}) + "\n")
        else:
            out.write(f"replay does NOT verify: {exc}\n")
        return 1
    if args.json:
        out.write(json.dumps({"ok": True, "game": record.game, "decisions": len(record.decisions),
                              "digest": match.digest()}) + "\n")
    else:
        out.write(f"replay verified: {record.game} {record.game_version}, seed {record.seed}, "
                  f"{len(record.decisions)} decisions, digest {match.digest()}\n")
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (exposed for documentation and tests)."""
    parser = argparse.ArgumentParser(prog="tcgcore", description=__doc__.split("\n")[0])
    parser.add_argument("--log-level", default=None, type=str.lower,
                        choices=["debug", "info", "warning", "error"],
                        help="send tcgcore's structured log to stderr at this level (debug, info)")
    sub = parser.add_subparsers(dest="command", required=True)

    p_games = sub.add_parser("games", help="list the installed games")
    p_games.add_argument("--json", action="store_true", help="machine-readable output")
    p_games.set_defaults(func=_cmd_games)

    p_play = sub.add_parser("play", help="let agents play a match to the end and print the log")
    p_play.add_argument("game")
    p_play.add_argument("--seed", type=int, default=1, help="match seed (default 1)")
    p_play.add_argument("--players", type=int, default=None, help="number of seats")
    p_play.add_argument("--agents", default=None,
                        help="comma-separated agent names per seat (default: random)")
    p_play.add_argument("-o", "--option", action="append", type=_parse_option, metavar="KEY=VALUE",
                        help="a game option (VALUE parsed as JSON when it can be)")
    p_play.add_argument("--json", action="store_true", help="JSON-lines event stream")
    p_play.add_argument("--save", metavar="FILE",
                        help="write the replay record (msgpack; JSON if FILE ends in .json)")
    p_play.add_argument("--max-decisions", type=_non_negative, default=None,
                        help="stop after this many decisions")
    p_play.add_argument("-v", "--verbose", action="store_true", help="also print each decision")
    p_play.set_defaults(func=_cmd_play)

    p_replay = sub.add_parser("replay", help="verify a saved replay")
    p_replay.add_argument("file")
    p_replay.add_argument("--verify", action="store_true",
                          help="only check that it reproduces its final digest (the default)")
    p_replay.add_argument("--json", action="store_true")
    p_replay.set_defaults(func=_cmd_replay)
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run the CLI; returns the exit code."""
    stream = out if out is not None else sys.stdout
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.log_level:
        _logging.configure_cli_logging(args.log_level)
    try:
        code: int = args.func(args, stream)
    except (TcgcoreError, ValueError, OSError) as exc:
        sys.stderr.write(f"tcgcore: error: {exc}\n")
        return 2
    return code


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
