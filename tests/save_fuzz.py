"""A seeded fuzzer for saved matches: mutate saves, load them, play on (run by test_save_fuzz.py).

Property: a mutated save either fails to load with a typed :class:`tcgcore.StateDecodeError`
(or another :class:`tcgcore.TcgcoreError`), or it loads and can be played on: 40 steps of
views, events, a random legal answer, ``to_bytes``, ``to_json``, ``clone`` and reload raise
nothing but :class:`tcgcore.IllegalChoice` (never, for legal answers) and never hang.

Mutations (each on a save of one of the three games, taken at a random decision of a seeded
random game): byte flips of the msgpack or JSON save, truncation, a field spliced from another
save of the same game or of another game, a shuffled list, a field set to an edge value
(integers at and past the msgpack limits, empty and odd strings, wrong types), and deep nesting.

Run as a script (``python tests/save_fuzz.py SAVES_PER_GAME SEED``) it caps its own address
space (``resource.RLIMIT_AS``: what it uses after building the base saves plus 256 MiB), so an
allocation past the cap is a ``MemoryError`` counted as a failure, and prints one summary line
per game plus a JSON line with the counts.
"""

from __future__ import annotations

import json
import random
import signal
import sys
import time
import traceback
from collections import Counter
from collections.abc import Iterator
from typing import Any

import msgspec

import tcgcore
from tcgcore import Match

#: The games fuzzed and the seats and options of their base games.
GAMES: tuple[tuple[str, int, dict[str, Any]], ...] = (
    ("sparks", 2, {}),
    ("guimi_revival", 2, {}),
    ("arkham_card", 2, {}),
    ("arkham_card", 4, {}),
)

#: Steps played on every save that loads.
STEPS = 40

#: Seconds one mutated save may take (load and all its steps) before it counts as a hang.
HANG_SECONDS = 10

#: Memory a run may add to what it holds after building the base saves.
MEMORY_CAP = 256 * 1024 * 1024

_EDGE_INTS = (0, 1, -1, 2, 7, 182, 2**31, -(2**31) - 1, 2**34, 2**53 + 1, 2**63 - 1, -(2**63),
              2**64 - 1)
_EDGE_JSON_INTS = (2**64, -(2**63) - 1, 10**30)
_EDGE_VALUES: tuple[Any, ...] = (*_EDGE_INTS, "", "x", "skill ", "card:x", "card:-1",
                                 "card:99999", "eeemies_forced", "deck.9", True, False, None,
                                 [], {}, [0], {"x": 1}, 0.5)


class Hang(Exception):
    """A mutated save took longer than :data:`HANG_SECONDS`."""


def _on_alarm(signum: int, frame: Any) -> None:
    raise Hang(f"more than {HANG_SECONDS} s")


def base_saves(rng: random.Random, game: str, players: int, options: dict[str, Any],
               games: int = 3) -> list[Match[Any]]:
    """Matches of ``game`` stopped at random decisions of seeded random games."""
    out: list[Match[Any]] = []
    for _ in range(games):
        seed = rng.randrange(2**32)
        trial = tcgcore.new_match(game, seed=seed, players=players, **options)
        length = 0
        while trial.pending is not None and length < 400:
            _random_answer(random.Random(seed * 1000 + length), trial)
            length += 1
        match = tcgcore.new_match(game, seed=seed, players=players, **options)
        stops = sorted(random.Random(seed).sample(range(length), min(5, length)))
        step = 0
        for stop in stops:
            while step < stop:
                _random_answer(random.Random(seed * 1000 + step), match)
                step += 1
            out.append(match.clone())
    return out


def _random_answer(rng: random.Random, match: Match[Any]) -> None:
    choice = match.pending
    assert choice is not None
    keys = choice.keys
    hi = min(choice.max, len(keys))
    count = rng.randint(choice.min, hi) if hi >= choice.min else choice.min
    match.choose(choice.player, rng.sample(keys, count))


# ------------------------------------------------------------------ tree mutations


def _paths(tree: Any, prefix: tuple[Any, ...] = (), depth: int = 0) -> Iterator[tuple[Any, ...]]:
    """Every path into a decoded msgpack/JSON tree (dict keys and list indexes)."""
    yield prefix
    if depth > 40:
        return
    if isinstance(tree, dict):
        for key, value in tree.items():
            yield from _paths(value, (*prefix, key), depth + 1)
    elif isinstance(tree, list):
        for i, value in enumerate(tree):
            yield from _paths(value, (*prefix, i), depth + 1)


def _get(tree: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        tree = tree[part]
    return tree


def _set(tree: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    _get(tree, path[:-1])[path[-1]] = value
    return tree


def _nest(depth: int) -> Any:
    value: Any = 0
    for i in range(depth):
        value = [value] if i % 2 else {"a": value}
    return value


def mutate_tree(rng: random.Random, tree: Any, same: list[Any], other: list[Any],
                json_ok: bool) -> tuple[str, Any]:
    """One structured mutation of a decoded state; returns its name and the new tree."""
    if rng.random() < 0.2 and isinstance(tree, dict) and isinstance(tree.get("pending"), dict):
        return _mutate_pending(rng, tree, same)
    paths = list(_paths(tree))
    path = rng.choice(paths[1:] or paths)
    kind = rng.choice(("splice_same", "splice_same", "splice_other", "shuffle", "set", "set",
                       "set_int", "nudge", "nudge", "nudge", "nest", "drop"))
    if kind in ("splice_same", "splice_other"):
        donor = rng.choice(same if kind == "splice_same" else other)
        donor_paths = list(_paths(donor))
        if kind == "splice_same":
            try:
                return kind, _set(tree, path, _copy(_get(donor, path)))
            except (KeyError, IndexError, TypeError):
                pass
        return kind, _set(tree, path, _copy(_get(donor, rng.choice(donor_paths))))
    if kind == "shuffle":
        lists = [p for p in paths if isinstance(_get(tree, p), list) and len(_get(tree, p)) > 1]
        if lists:
            rng.shuffle(_get(tree, rng.choice(lists)))
        return kind, tree
    if kind == "set_int":
        ints = [p for p in paths if type(_get(tree, p)) is int]
        pool = _EDGE_INTS + (_EDGE_JSON_INTS if json_ok else ())
        if ints:
            return kind, _set(tree, rng.choice(ints), rng.choice(pool))
        return kind, tree
    if kind == "nudge":  # a nearby value: what passes a shape check most often
        leaves = [p for p in paths if type(_get(tree, p)) in (int, str, bool)]
        if leaves:
            where = rng.choice(leaves)
            value = _get(tree, where)
            if type(value) is int:
                new: Any = value + rng.choice((-2, -1, 1, 2, 10))
            elif type(value) is bool:
                new = not value
            else:
                new = _get(tree, rng.choice([p for p in leaves
                                             if type(_get(tree, p)) is str] or [where]))
            return kind, _set(tree, where, new)
        return kind, tree
    if kind == "nest":
        return kind, _set(tree, path, _nest(rng.choice((50, 200, 2000))))
    if kind == "drop":
        parent = _get(tree, path[:-1])
        if isinstance(parent, (dict, list)) and path:
            del parent[path[-1]]
        return kind, tree
    return kind, _set(tree, path, rng.choice(_EDGE_VALUES))


def _mutate_pending(rng: random.Random, tree: dict[str, Any], same: list[Any]
                    ) -> tuple[str, Any]:
    """A mutation of the pending choice that keeps its shape: an option (key, card, data)
    or the kind, seat or bounds taken from another save's pending choice of the same game,
    or a number inside a key moved to another card, so that the step under it must tell
    whether it can read every option."""
    pending = tree["pending"]
    donors = [s["pending"] for s in same if isinstance(s, dict) and isinstance(s.get("pending"),
                                                                              dict)]
    options = pending.get("options") or []
    what = rng.choice(("option", "option", "key_number", "kind", "player", "bounds", "card"))
    donor = rng.choice(donors) if donors else pending
    if what == "option" and options and donor.get("options"):
        options[rng.randrange(len(options))] = _copy(rng.choice(donor["options"]))
    elif what == "key_number" and options:
        opt = options[rng.randrange(len(options))]
        parts = str(opt.get("key", "")).split(":")
        numbered = [i for i, part in enumerate(parts) if part.isdigit()]
        if numbered:
            parts[rng.choice(numbered)] = str(rng.choice((0, 1, 2, 5, 17, 40, 99, 150, 999)))
            opt["key"] = ":".join(parts)
    elif what == "card" and options:
        opt = options[rng.randrange(len(options))]
        opt["card"] = rng.choice((None, 0, 1, 3, 30, 77, 120))
    elif what in ("kind", "player") and what in donor:
        pending[what] = donor[what]
    elif what == "bounds":
        pending["min"], pending["max"] = rng.choice(((0, 0), (0, 1), (1, 1), (0, 9), (2, 2),
                                                     (donor.get("min", 1), donor.get("max", 1))))
    return "pending_" + what, tree


def _copy(value: Any) -> Any:
    return msgspec.msgpack.decode(msgspec.msgpack.encode(value))


def mutated_save(rng: random.Random, saves: list[bytes], states: list[Any],
                 others: list[Any]) -> tuple[str, bytes]:
    """One mutated save (msgpack or JSON bytes) and the name of its mutation."""
    i = rng.randrange(len(saves))
    data = saves[i]
    kind = rng.choice(("flip", "flip_json", "truncate", "tree", "tree", "tree", "tree",
                       "tree_json", "tree_json", "tree2", "tree2"))
    if kind == "flip":
        buf = bytearray(data)
        for _ in range(rng.randint(1, 3)):
            buf[rng.randrange(len(buf))] = rng.randrange(256)
        return kind, bytes(buf)
    if kind == "truncate":
        return kind, data[:rng.randrange(len(data))]
    envelope = msgspec.msgpack.decode(data)
    if kind == "flip_json":
        text = bytearray(msgspec.json.encode(envelope))
        pos = rng.randrange(len(text))
        text[pos] = rng.choice(b'0123456789abcdefghijklmnopqrstuvwxyz{}[]":,-. ')
        return kind, bytes(text)
    state = _copy(states[i])
    as_json = kind == "tree_json"
    rounds = 2 if kind == "tree2" else 1
    names = []
    for _ in range(rounds):
        name, state = mutate_tree(rng, state, states, others, as_json)
        names.append(name)
    if as_json:
        envelope["state"] = None
        shell = msgspec.json.encode(envelope)
        try:
            state_text = json.dumps(state)
        except (ValueError, RecursionError):
            state_text = "null"
        return "json:" + "+".join(names), shell.replace(b'"state":null', b'"state":' +
                                                        state_text.encode(), 1)
    try:
        raw = msgspec.msgpack.encode(state)
    except (OverflowError, RecursionError, TypeError):
        raw = msgspec.msgpack.encode(None)
    envelope["state"] = msgspec.Raw(raw)
    return "+".join(names), msgspec.msgpack.encode(envelope)


# ------------------------------------------------------------------ playing on


def play_on(rng: random.Random, match: Match[Any]) -> None:
    """Up to :data:`STEPS` steps of everything a front end does with a loaded match."""
    seats = range(match.state.num_players)
    for step in range(STEPS):
        match.view(None)
        for seat in seats:
            match.view(seat)
        match.events_since(0, player=None)
        choice = match.pending
        if choice is not None:
            match.events_since(0, player=choice.player)
            _random_answer(rng, match)
        data = match.to_bytes() if step % 2 else match.to_json()
        copy = match.clone()
        again = Match.from_bytes(data)
        if again.state_bytes() != match.state_bytes() or copy.digest() != match.digest():
            raise AssertionError("a reloaded or cloned match differs from the original")
        if choice is None:
            break


def run(saves_per_game: int, seed: int, games: tuple[tuple[str, int, dict[str, Any]], ...]
        = GAMES, cap: bool = True) -> dict[str, Any]:
    """Fuzz every game; returns counts per game and the failures found."""
    rng = random.Random(seed)
    bases: dict[tuple[str, int], list[Match[Any]]] = {}
    for game, players, options in games:
        bases[(game, players)] = base_saves(rng, game, players, options)
    decoded = {key: [msgspec.msgpack.decode(m.state_bytes()) for m in ms]
               for key, ms in bases.items()}
    if cap:
        _cap_memory()
    signal.signal(signal.SIGALRM, _on_alarm)
    report: dict[str, Any] = {"games": {}, "failures": []}
    for (game, players), matches in bases.items():
        counts: Counter[str] = Counter()
        saves = [m.to_bytes() for m in matches]
        others = [s for key, states in decoded.items() if key[0] != game for s in states]
        started = time.perf_counter()
        for n in range(saves_per_game):
            kind, data = mutated_save(rng, saves, decoded[(game, players)], others)
            counts["tried"] += 1
            signal.alarm(HANG_SECONDS)
            stage = "load"
            try:
                try:
                    match = Match.from_bytes(data)
                except tcgcore.TcgcoreError:
                    counts["rejected"] += 1
                    continue
                counts["loaded"] += 1
                stage = "play"
                play_on(random.Random(n), match)
            except Hang as exc:
                counts["hangs"] += 1
                report["failures"].append([game, n, kind, stage, f"hang: {exc}"])
            except Exception as exc:  # every untyped error is what the fuzzer counts
                counts["typed" if isinstance(exc, tcgcore.TcgcoreError) else "untyped"] += 1
                where = traceback.extract_tb(exc.__traceback__)[-1]
                report["failures"].append(
                    [game, n, kind, stage, f"{type(exc).__name__}: {str(exc)[:200]} "
                                           f"({where.filename.rsplit('/', 1)[-1]}:{where.lineno})"])
            finally:
                signal.alarm(0)
        report["games"][f"{game}/{players}"] = {
            **counts, "seconds": round(time.perf_counter() - started, 1)}
    return report


def _cap_memory() -> None:
    import resource
    with open("/proc/self/status") as fh:
        vm = next(int(line.split()[1]) * 1024 for line in fh if line.startswith("VmSize:"))
    limit = vm + MEMORY_CAP
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def main(argv: list[str]) -> int:
    saves_per_game = int(argv[1]) if len(argv) > 1 else 300
    seed = int(argv[2]) if len(argv) > 2 else 22
    report = run(saves_per_game, seed)
    for name, counts in report["games"].items():
        print(f"{name}: tried {counts.get('tried', 0)}, loaded {counts.get('loaded', 0)}, "
              f"rejected {counts.get('rejected', 0)}, failed after loading "
              f"{counts.get('typed', 0) + counts.get('untyped', 0)} "
              f"(untyped {counts.get('untyped', 0)}), hangs {counts.get('hangs', 0)}, "
              f"{counts.get('seconds')} s")
    for failure in report["failures"][:60]:
        print("FAIL", *failure)
    print(json.dumps({"games": report["games"], "failures": len(report["failures"])}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
