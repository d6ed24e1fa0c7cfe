"""The ``tcgcore`` command line: list games, play (agents and humans), replays, the protocol.

Usage::

    tcgcore games [--json]
    tcgcore play GAME [--seed N] [--agents A,B] [--option KEY=VALUE ...] [--json] [--save FILE]
    tcgcore play GAME --human SEAT [SEAT ...] [--allow-undo] [--save FILE]
    tcgcore play --resume FILE [--human SEAT ...]   (default: the seats that were human)
    tcgcore replay FILE [--seat N|all|none]     step through a replay
    tcgcore replay FILE --verify [--json]       only check its digest
    tcgcore serve --stdio                       JSON-lines protocol (docs/protocol.md)
    tcgcore web [--host H] [--port P] [--db F]  the web table in a browser (docs/web.md)
    tcgcore deck check GAME FILE [--pool FILE] [--json]   every deck-building problem of a deck file
    tcgcore simulate GAME [--games N] [--agents A,B] [--workers K] [--rules OPTION=VALUE ...]
                     [--backend local|ray] [--address ADDR] [--runtime-env JSON]
                                                many seeded agent games (N defaults to 100)
    tcgcore balance GAME [--games N] [--decks A,B,...] [--agents A,B] [--pool FILE] [--out DIR]
                     [--seed S] [--workers W] [--backend local|ray] [--rules OPTION=VALUE ...]
                     [--compare-pool FILE] [--compare-rules OPTION=VALUE ...]
                                                the balance lab: report.md and report.html in DIR

``--pool FILE`` (play, simulate, deck check, balance) is the game option ``pool``: for Guimi
Revival, a card file whose cards add to or replace the built-in ones.

``--deck`` and ``--decks`` are the same option: each takes one deck or several separated by
commas, and may be repeated; the decks go to the seats in the order given (an existing file
whose name has a comma is kept whole).

Exit codes: 0 success, 1 a replay did not verify (or the input ended before a
human match did), or ``deck check`` found the deck illegal or the file is not a deck list
at all (missing, empty, binary, wrong format: one line naming the file and the problem),
2 bad input (unknown game, bad option, unreadable file). When the reader of standard
output goes away (``tcgcore play GAME --json | head``) the command stops quietly with 0.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

import msgspec

from . import _logging
from ._agents import Agent, make_agent
from ._balance import balance, balance_ab
from ._build import compiled_modules
from ._errors import OptionsError, ReplayDivergence, TcgcoreError
from ._match import Match, ReplayRecord, _create, replay
from ._model import Event
from ._plugins import default_registry
from ._progress import ProgressLine
from ._serve import serve_stdio
from ._simulate import simulate
from ._terminal import (
    AUTO_PASS_MODES,
    ReplayStepper,
    TerminalUI,
    check_replay,
    describe_event,
    log_header,
)

#: A ``check_deck`` line with this prefix is a notice, not a problem (see GameSpec).
NOTICE = "notice: "

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


def _seat_number(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"a seat is 0 or more, got {value}")
    return value


def _non_negative(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, got {value}")
    return value


def _describe(match: Match[Any], event: Event) -> str:
    return describe_event(match.spec, match.state, event)


def _cmd_games(args: argparse.Namespace, out: TextIO, inp: TextIO) -> int:
    reg = default_registry()
    rows = [{"name": n, "version": reg.game(n).version, "description": reg.game(n).description,
             "players": list(reg.game(n).players),
             "compiled": compiled_modules(*reg.game_packages(n))}
            for n in reg.names()]
    if args.json:
        out.write(json.dumps(rows, indent=2) + "\n")
    else:
        for row in rows:
            lo, hi = row["players"]
            seats = f"{lo}" if lo == hi else f"{lo}-{hi}"
            count = len(row["compiled"])
            compiled = f" [compiled: {count} module{'s' * (count != 1)}]" if count else ""
            out.write(f"{row['name']:<16} {row['version']:<8} {seats:>4} players  "
                      f"{row['description']}{compiled}\n")
    return 0


def _agent_seed(match: Match[Any], seat: int) -> int:
    # a fresh match keeps the historical seeds; a resumed one mixes in how far it got
    return (match.seed * 1_000_003 + seat + 7_919 * len(match.decisions)) % 2**64


def _deck_value(entry: str) -> str:
    """A deck named on the command line: a file's text (so saves carry the deck), else the name.

    Raises:
        OptionsError: the file (or stdin, ``-``) is not a text deck list (binary, empty,
            unreadable), naming the file as ``deck check`` does.
    """
    if entry == "-" or Path(entry).is_file():
        text, problem = _deck_text(entry, sys.stdin)
        if problem:
            raise OptionsError(f"--deck {'<stdin>' if entry == '-' else entry}: {problem}")
        return text
    return entry


def _deck_entries(args: argparse.Namespace) -> list[str]:
    """The ``--deck``/``--decks`` entries in seat order (names, files or ``-``)."""
    return [d for group in (args.decks or [])
            for d in ([group] if Path(group).is_file() else group.split(",")) if d]


def _with_deck_files(exc: OptionsError, args: argparse.Namespace) -> OptionsError:
    """``exc`` with a last line naming the deck files behind the ``decks`` option (the game
    only sees their text), or ``exc`` itself when no deck came from a file."""
    files = [(seat, "<stdin>" if d == "-" else d) for seat, d in enumerate(_deck_entries(args))
             if d == "-" or Path(d).is_file()]
    if not files:
        return exc
    named = ", ".join(f"seat {seat}: {name}" for seat, name in files)
    return OptionsError(f"{exc}\n(deck files: {named})")


def _game_options(args: argparse.Namespace) -> dict[str, Any]:
    """Game options from ``-o``, ``--rules``, ``--deck``/``--decks``, ``--scenario`` and
    ``--difficulty``."""
    options = dict(args.option or [])
    options.update(dict(getattr(args, "rules", None) or []))
    decks = _deck_entries(args)
    if decks:
        options["decks"] = [_deck_value(d) for d in decks]
    if getattr(args, "scenario", None):
        options["scenario"] = args.scenario
    if getattr(args, "difficulty", None):
        options["difficulty"] = args.difficulty
    if getattr(args, "pool", None):
        options["pool"] = _pool_path(args.pool)
    return options


def _pool_path(file: str) -> str:
    """A ``--pool`` file as an absolute path (worker processes and saves find it anywhere).

    Raises:
        OptionsError: no such file.
    """
    path = Path(file)
    if not path.is_file():
        raise OptionsError(f"--pool {file}: no such file")
    return str(path.resolve())


def _players(args: argparse.Namespace, options: dict[str, Any]) -> int | None:
    """Seats: ``--players``, else one per ``--deck`` when several decks are given to a game
    whose seat count can vary."""
    if args.players is not None:
        return int(args.players)
    decks = options.get("decks")
    if isinstance(decks, list) and len(decks) > 1:
        lo, hi = default_registry().game(args.game).players
        if lo < hi and lo <= len(decks) <= hi:
            return len(decks)
    return None


def _deck_text(file: str, inp: TextIO) -> tuple[str, str]:
    """A deck file's text, or ``("", problem)`` when it cannot be read as a text deck list
    (missing, a folder, unreadable, not UTF-8, empty). A UTF-8 byte-order mark is dropped."""
    if file == "-":
        text = inp.read()
    else:
        path = Path(file)
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            return "", "no such file"
        except IsADirectoryError:
            return "", "is a folder, not a deck file"
        except OSError as exc:
            return "", f"cannot read the file ({exc.strerror or exc})"
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            return "", (f"not a text deck list (byte {exc.start} is not UTF-8; "
                        "binary file?)")
    if not text.strip():
        return "", "empty file (no deck list)"
    return text, ""


#: ``format`` field of a game's campaign file -> the game whose ``campaign`` command reads it
_CAMPAIGN_FORMATS = {"tcgcore-arkham-campaign": "arkham_card"}


def _read_match_file(file: str, command: str) -> bytes:
    """The bytes of a save or replay file named on the command line.

    Raises:
        TcgcoreError: ``FILE: no such file`` (or folder / unreadable), or the file is a
            game's campaign file, which ``tcgcore campaign GAME … --resume FILE`` continues.
    """
    path = Path(file)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise TcgcoreError(f"{file}: no such file") from None
    except IsADirectoryError:
        raise TcgcoreError(f"{file}: is a folder, not a {command} file") from None
    except OSError as exc:
        raise TcgcoreError(f"{file}: cannot read the file ({exc.strerror or exc})") from None
    if data.lstrip()[:1] == b"{":
        try:
            fmt = json.loads(data).get("format")
        except (ValueError, AttributeError, RecursionError):  # not a campaign file: the
            fmt = None  # save or replay reader says what is wrong with it
        game = _CAMPAIGN_FORMATS.get(fmt) if isinstance(fmt, str) else None
        if game is not None:
            raise TcgcoreError(
                f"{file} is a saved {game} campaign (format {fmt}), not a match save or "
                f"replay: continue it with 'tcgcore campaign {game} CAMPAIGN --resume {file}' "
                f"(see 'tcgcore campaign {game} --help')")
    return data


def _cmd_deck_check(args: argparse.Namespace, out: TextIO, inp: TextIO) -> int:
    spec = default_registry().game(args.game)
    if spec.check_deck is None:
        raise TcgcoreError(f"{args.game} has no deck lists to check")
    source = "<stdin>" if args.file == "-" else args.file
    text, unreadable = _deck_text(args.file, inp)
    if args.pool and spec.check_deck_with is None:
        raise TcgcoreError(f"{args.game} takes no card pool (--pool) for its decks")
    if unreadable:
        lines = [unreadable]
    elif args.pool:
        assert spec.check_deck_with is not None
        lines = spec.check_deck_with(text, source, {"pool": _pool_path(args.pool)})
    else:
        lines = spec.check_deck(text, source)
    notices = [line[len(NOTICE):] for line in lines if line.startswith(NOTICE)]
    problems = [line for line in lines if not line.startswith(NOTICE)]
    if args.json:
        report: dict[str, Any] = {"legal": not problems, "problems": problems}
        if notices:
            report["notices"] = notices
        out.write(json.dumps(report) + "\n")
        return 1 if problems else 0
    if len(problems) == 1:  # one line, naming the file once
        line = problems[0]
        out.write(f"{line if line.startswith(source + ': ') else f'{source}: {line}'}\n")
    elif problems:
        out.write(f"{source}: {len(problems)} problem(s)\n")
        for problem in problems:
            out.write(f"  - {problem}\n")
    else:
        out.write(f"{source}: legal {args.game} deck\n")
    for notice in notices:
        out.write(f"{source}: note: {notice}\n")
    return 1 if problems else 0


def _cmd_campaign(args: argparse.Namespace, out: TextIO, inp: TextIO) -> int:
    spec = default_registry().game(args.game)
    if spec.campaign_runner is None:
        raise TcgcoreError(f"{args.game} has no campaigns")
    return spec.campaign_runner(list(args.args), out, inp)


def _add_game_option_flags(p: argparse.ArgumentParser) -> None:
    p.add_argument("-o", "--option", action="append", type=_parse_option, metavar="KEY=VALUE",
                   help="a game option (VALUE parsed as JSON when it can be)")
    p.add_argument("--rules", action="append", type=_parse_option, metavar="OPTION=VALUE",
                   help="a rules option (a game option; repeatable)")
    p.add_argument("--decks", "--deck", dest="decks", action="append", metavar="A,B",
                   help="decks by name or file, one per seat in order: comma-separated and/or "
                        "repeated; --deck and --decks are the same option ('-' reads stdin; "
                        "option 'decks')")
    p.add_argument("--scenario", default=None, help="the game's scenario (option 'scenario')")
    p.add_argument("--difficulty", default=None, help="difficulty (option 'difficulty')")
    p.add_argument("--pool", default=None, metavar="FILE",
                   help="a card pool file (option 'pool'; Guimi Revival: cards that add to or "
                        "replace the built-in ones)")


def _cmd_play(args: argparse.Namespace, out: TextIO, inp: TextIO) -> int:
    options = _game_options(args)
    if args.save:
        target = Path(args.save)
        if target.is_dir() or not target.parent.is_dir():
            raise OSError(f"cannot write the replay to {args.save!r}: not a file in an existing folder")
    humans: list[int] = args.human or []
    if humans and args.json:
        raise TcgcoreError("--json is for agent matches; human play is text only")
    if args.allow_undo and not humans:
        raise TcgcoreError("--allow-undo needs a --human seat")
    if args.resume:
        if options or args.players is not None or args.seed is not None:
            raise TcgcoreError("--resume continues a saved match: its seed, seats and options "
                               "come from the save")
        match = Match.from_bytes(_read_match_file(args.resume, "save"), game=args.game)
        if not humans:
            humans = [int(s) for s in match.meta.get("human_seats", [])]
    elif args.game is None:
        raise TcgcoreError("name the GAME to play (see 'tcgcore games'), or --resume FILE")
    else:
        seed = 1 if args.seed is None else args.seed
        try:
            match = _create(args.game, seed=seed, players=_players(args, options),
                            registry=None, logger=None, options=options)
        except OptionsError as exc:
            raise _with_deck_files(exc, args) from exc
    names = args.agents.split(",") if args.agents else [match.spec.default_agent]
    n = match.state.num_players
    if len(names) == 1:
        names = names * n
    if len(names) != n:
        raise TcgcoreError(f"--agents names {len(names)} agents for {n} seats")
    agents: list[Agent] = [make_agent(match.spec, name, _agent_seed(match, seat))
                           for seat, name in enumerate(names)]
    if humans:
        ui = TerminalUI(match, humans=humans,
                        agents={s: a for s, a in enumerate(agents) if s not in humans},
                        inp=inp, out=out, allow_undo=args.allow_undo, replay_path=args.save,
                        auto_pass=args.auto_pass,
                        agent_names={s: f"the {name} agent" for s, name in enumerate(names)})
        return ui.run()
    if not args.json:
        out.write("\n".join(log_header(match, {s: f"the {name} agent"
                                               for s, name in enumerate(names)})) + "\n")
    enc = msgspec.json.Encoder()
    seen = 0
    decisions = 0

    def flush() -> None:
        nonlocal seen
        for ev in match.events_since(seen, player="all"):
            if args.json:
                out.write(enc.encode({"type": "event", "event": ev}).decode() + "\n")
            else:
                line = _describe(match, ev)
                if line.strip():
                    out.write(line + "\n")
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
            out.write(f"  P{choice.player} {choice.kind.replace('_', ' ')}: {labels}\n")
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
        elif result.winners:
            summary = "winner(s): " + ", ".join(f"P{w}" for w in result.winners)
        else:
            summary = "no winner"
        reason = result.reason.replace("_", " ")
        out.write(f"result: {summary} ({reason}) after {decisions} decisions\n")
    return 0


def _perspective(text: str) -> int | str | None:
    low = text.lower()
    if low in ("all", "omniscient"):
        return "all"
    if low in ("none", "spectator"):
        return None
    try:
        return int(low)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a seat number, 'all' or 'none', got {text!r}") from None


def _json_object(text: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise argparse.ArgumentTypeError(f"expected a JSON object, got {text!r}: {exc}") from None
    if not isinstance(value, dict):
        raise argparse.ArgumentTypeError(f"expected a JSON object, got {text!r}")
    return value


def _cmd_simulate(args: argparse.Namespace, out: TextIO, inp: TextIO) -> int:
    options = _game_options(args)
    spec = default_registry().game(args.game)
    agents = args.agents.split(",") if args.agents is not None else [spec.default_agent]
    if args.outcomes and not args.json:
        raise OptionsError("--outcomes adds every game to the JSON report: use it with --json")
    if args.backend != "ray" and (args.address is not None or args.runtime_env is not None):
        raise OptionsError("--address and --runtime-env belong to --backend ray")
    try:
        report = simulate(args.game, games=args.games, seed=args.seed,
                          players=_players(args, options), options=options, agents=agents,
                          workers=args.workers,
                          progress=None if args.quiet or args.json else ProgressLine(),
                          keep_outcomes=args.json and args.outcomes, backend=args.backend,
                          address=args.address, runtime_env=args.runtime_env)
    except OptionsError as exc:
        raise _with_deck_files(exc, args) from exc
    if args.json:
        out.write(msgspec.json.encode(report).decode() + "\n")
    else:
        out.write(report.table() + "\n")
    return 0


def _cmd_balance(args: argparse.Namespace, out: TextIO, inp: TextIO) -> int:
    options = dict(args.option or [])
    options.update(dict(args.rules or []))
    decks = _deck_entries(args)  # names or files: the lab names a file's deck by the file
    if args.scenario:
        options["scenario"] = args.scenario
    if args.difficulty:
        options["difficulty"] = args.difficulty
    if args.pool:
        options["pool"] = _pool_path(args.pool)
    agents = args.agents.split(",") if args.agents else None
    common: dict[str, Any] = dict(games=args.games, decks=decks, agents=agents, options=options,
                                  seed=args.seed, workers=args.workers, backend=args.backend,
                                  address=args.address, min_sample=args.min_sample,
                                  progress=not args.quiet, out=args.out)
    compare: dict[str, Any] = dict(args.compare_rules or [])
    if args.compare_pool:
        compare["pool"] = _pool_path(args.compare_pool)
    if compare:
        ab = balance_ab(args.game, b=compare, **common)
        out.write(ab.markdown() + "\n")
    else:
        rep = balance(args.game, **common)
        out.write(rep.markdown() + "\n")
    out.write(f"report written to {Path(args.out).resolve()}/report.html and report.md\n")
    return 0


def _cmd_replay(args: argparse.Namespace, out: TextIO, inp: TextIO) -> int:
    data = _read_match_file(args.file, "replay")
    record = ReplayRecord.from_bytes(data)
    if not (args.verify or args.json):
        return _step_replay(record, args, out, inp)
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


def _step_replay(record: ReplayRecord, args: argparse.Namespace, out: TextIO, inp: TextIO) -> int:
    reg = default_registry()
    installed = reg.plugin_versions(record.game)  # raises UnknownGameError for a missing game
    problem, index = check_replay(record, reg)
    for dist, version in sorted(record.plugins.items()):
        if installed.get(dist) != version:
            out.write(f"note: recorded with {dist} {version}, installed: "
                      f"{installed.get(dist, 'not installed')}\n")
    if problem is not None:
        out.write(f"replay does NOT verify: {problem}\n")
    else:
        out.write(f"replay verified: {record.game} {record.game_version}, seed {record.seed}, "
                  f"{len(record.decisions)} decisions\n")
    perspective = args.seat
    if isinstance(perspective, int) and not 0 <= perspective < record.players:
        raise TcgcoreError(f"--seat {perspective}: the replay has seats 0..{record.players - 1}")
    stepper = ReplayStepper(record, inp=inp, out=out, registry=reg, perspective=perspective,
                            limit=index)
    code = stepper.run()
    return 1 if problem is not None else code


def _cmd_serve(args: argparse.Namespace, out: TextIO, inp: TextIO) -> int:
    if not args.stdio:
        raise TcgcoreError("serve needs --stdio (the only transport so far)")
    in_bin = getattr(inp, "buffer", None)
    out_bin = getattr(out, "buffer", None)
    if in_bin is None or out_bin is None:
        raise TcgcoreError("serve --stdio needs binary standard streams")
    out.flush()
    return serve_stdio(in_bin, out_bin)


def _cmd_web(args: argparse.Namespace, out: TextIO, inp: TextIO) -> int:
    try:
        from ._web import run
    except ImportError as exc:
        raise TcgcoreError(f"tcgcore web needs the web extra (pip install 'tcgcore[web]'): "
                           f"{exc}") from None
    return run(host=args.host, port=args.port, db=args.db, lang=args.lang, out=out)


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

    p_play = sub.add_parser("play", help="play a match: agents, or people with --human")
    p_play.add_argument("game", nargs="?", default=None,
                        help="the game (optional with --resume)")
    p_play.add_argument("--seed", type=int, default=None, help="match seed (default 1)")
    p_play.add_argument("--players", type=int, default=None, help="number of seats")
    p_play.add_argument("--agents", default=None,
                        help="comma-separated agent names per seat (default: the game's default agent)")
    _add_game_option_flags(p_play)
    p_play.add_argument("--json", action="store_true", help="JSON-lines event stream")
    p_play.add_argument("--save", metavar="FILE",
                        help="write the replay record (msgpack; JSON if FILE ends in .json)")
    p_play.add_argument("--max-decisions", type=_non_negative, default=None,
                        help="stop after this many decisions")
    p_play.add_argument("-v", "--verbose", action="store_true", help="also print each decision")
    p_play.add_argument("--human", type=_seat_number, nargs="+", metavar="SEAT",
                        help="seats played by people in this terminal (hot-seat when several)")
    p_play.add_argument("--auto-pass", choices=AUTO_PASS_MODES, default="smart",
                        help="optional windows of human seats: smart (stop only when there is "
                             "something to play; the default), always (pass them all), never "
                             "(ask every time)")
    p_play.add_argument("--resume", metavar="FILE",
                        help="continue a match saved with the 'save FILE' command")
    p_play.add_argument("--allow-undo", action="store_true",
                        help="let the single human seat take decisions back (AI opponents only)")
    p_play.set_defaults(func=_cmd_play)

    p_sim = sub.add_parser("simulate", help="play many seeded games with agents and tabulate them")
    p_sim.add_argument("game")
    p_sim.add_argument("--games", type=int, default=100, help="how many games (default 100)")
    p_sim.add_argument("--seed", type=int, default=0, help="base seed: game i uses seed+i")
    p_sim.add_argument("--players", type=int, default=None)
    p_sim.add_argument("--agents", default=None,
                       help="comma-separated agent names, one for all seats or one per seat")
    p_sim.add_argument("--workers", type=int, default=None,
                       help="worker processes (default 1); with --backend ray, the chunks run "
                            "at once (default: every CPU of the cluster)")
    p_sim.add_argument("--backend", choices=("local", "ray"), default="local",
                       help="where the games run: this machine's processes (default) or a Ray "
                            "cluster (needs the ray extra; docs/distributed.md)")
    p_sim.add_argument("--address", default=None, metavar="ADDR",
                       help="with --backend ray: the cluster to join (default: RAY_ADDRESS, "
                            "else a local cluster started for the run)")
    p_sim.add_argument("--runtime-env", type=_json_object, default=None, metavar="JSON",
                       help="with --backend ray: a Ray runtime environment for the game tasks, "
                            "as a JSON object (e.g. '{\"pip\": [\"tcgcore-guimi-revival\"]}')")
    _add_game_option_flags(p_sim)
    p_sim.add_argument("--json", action="store_true", help="machine-readable report")
    p_sim.add_argument("--outcomes", action="store_true", help="with --json: every game's outcome")
    p_sim.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    p_sim.set_defaults(func=_cmd_simulate)

    p_bal = sub.add_parser("balance", help="the balance lab: a designer's report of many games "
                                           "(docs/balance.md)")
    p_bal.add_argument("game")
    p_bal.add_argument("--games", type=int, default=100,
                       help="games per run: per ordered deck pair, or in all (default 100)")
    p_bal.add_argument("--seed", type=int, default=0, help="base seed: game i of every run uses seed+i")
    p_bal.add_argument("--agents", default=None,
                       help="comma-separated agent names, one for all seats or one per seat")
    p_bal.add_argument("--workers", type=int, default=None, help="worker processes (default 1)")
    p_bal.add_argument("--backend", choices=("local", "ray"), default="local",
                       help="where the games run (ray: docs/distributed.md)")
    p_bal.add_argument("--address", default=None, metavar="ADDR",
                       help="with --backend ray: the cluster to join")
    _add_game_option_flags(p_bal)
    p_bal.add_argument("--out", default="balance-report", metavar="DIR",
                       help="the folder of report.md, report.html and the plots "
                            "(default ./balance-report)")
    p_bal.add_argument("--min-sample", type=int, default=20, metavar="N",
                       help="the smallest sample a card figure is shown for (default 20)")
    p_bal.add_argument("--compare-pool", default=None, metavar="FILE",
                       help="A/B: play the same seeds again with this card pool as B")
    p_bal.add_argument("--compare-rules", action="append", type=_parse_option,
                       metavar="OPTION=VALUE", help="A/B: B changes this rules option (repeatable)")
    p_bal.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    p_bal.set_defaults(func=_cmd_balance)

    p_deck = sub.add_parser("deck", help="deck lists: check one against a game's rules")
    deck_sub = p_deck.add_subparsers(dest="deck_command", required=True)
    p_check = deck_sub.add_parser("check", help="report every deck-building problem of a deck file")
    p_check.add_argument("game")
    p_check.add_argument("file", help="the deck list file ('-' for stdin)")
    p_check.add_argument("--pool", default=None, metavar="FILE",
                         help="check against this card pool file (the game's 'pool' option)")
    p_check.add_argument("--json", action="store_true")
    p_check.set_defaults(func=_cmd_deck_check)

    p_camp = sub.add_parser("campaign", help="play a game's campaign (its own arguments follow)")
    p_camp.add_argument("game")
    p_camp.add_argument("args", nargs=argparse.REMAINDER,
                        help="the campaign and its options (see 'tcgcore campaign GAME --help')")
    p_camp.set_defaults(func=_cmd_campaign)

    p_replay = sub.add_parser("replay", help="step through a saved replay, or verify it")
    p_replay.add_argument("file")
    p_replay.add_argument("--verify", action="store_true",
                          help="only check that it reproduces its final digest")
    p_replay.add_argument("--json", action="store_true",
                          help="verify and print the result as JSON")
    p_replay.add_argument("--seat", type=_perspective, default="all", metavar="N|all|none",
                          help="look as this seat while stepping (default: all, omniscient)")
    p_replay.set_defaults(func=_cmd_replay)

    p_serve = sub.add_parser(
        "serve", help="answer the JSON-lines protocol (docs/protocol.md)",
        epilog="Environment: TCGCORE_SERVE_KEY signs saves (default: a per-process secret); "
               "TCGCORE_SERVE_ADMIN_TOKEN lets 'load' take a save this server did not sign.")
    p_serve.add_argument("--stdio", action="store_true",
                         help="requests on stdin, responses on stdout, one JSON object per line")
    p_serve.set_defaults(func=_cmd_serve)

    p_web = sub.add_parser(
        "web", help="serve the web table: lobby, invite links, tables in a browser (docs/web.md)",
        epilog="Needs the web extra. Environment: TCGCORE_SERVE_KEY signs saves.")
    p_web.add_argument("--host", default="127.0.0.1",
                       help="address to listen on (default 127.0.0.1: this machine only)")
    p_web.add_argument("--port", type=_non_negative, default=8000, help="port (0: any free one)")
    p_web.add_argument("--db", default="tcgcore-web.sqlite3",
                       help="SQLite file the matches are kept in (default tcgcore-web.sqlite3)")
    p_web.add_argument("--lang", default=None, choices=["en", "zh_Hans", "zh_Hant"],
                       help="interface language of a page that asks for none (default: the "
                            "browser's language, else English)")
    p_web.set_defaults(func=_cmd_web)
    return parser


def _silence_stdout() -> None:
    """Point standard output at the null device, so the interpreter's final flush of the
    unwritten rest does not fail again on the closed pipe."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


def main(argv: Sequence[str] | None = None, out: TextIO | None = None,
         inp: TextIO | None = None) -> int:
    """Run the CLI; returns the exit code.

    Args:
        argv: the arguments (default: ``sys.argv[1:]``).
        out: where to write (default: standard output).
        inp: where people type (``play --human``, ``replay`` stepping, ``serve``;
            default: standard input).
    """
    stream = out if out is not None else sys.stdout
    source = inp if inp is not None else sys.stdin
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.log_level:
        _logging.configure_cli_logging(args.log_level)
    try:
        code: int = args.func(args, stream, source)
        if stream is sys.stdout:
            stream.flush()
    except BrokenPipeError:  # the reader went away (``tcgcore play … | head``): stop quietly
        if stream is sys.stdout:
            _silence_stdout()
        return 0
    except (TcgcoreError, ValueError, OSError) as exc:
        sys.stderr.write(f"tcgcore: error: {exc}\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write("tcgcore: interrupted\n")
        return 130
    return code


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
