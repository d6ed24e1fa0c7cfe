"""Run tcgcore's benchmarks and write benchmarks/results/latest.json and docs/performance.md.

Usage (from the repository root, in the project's virtualenv)::

    python benchmarks/run.py                 # every installed game, default repeats
    python benchmarks/run.py --games sparks --repeats 3 --seconds 1

Figures per game: random-playout decisions/s and games/s (median, min, max over repeats),
clone / encode / decode of a mid-game state in µs (msgpack and JSON), encoded size, view(seat) in µs,
replay verification in decisions/s, flatness (per-decision cost of the last tenth of a long game
divided by the first tenth), and copy.deepcopy / pickle on the same state for comparison.
"""

from __future__ import annotations

import argparse
import copy
import json
import pickle
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import tcgcore

ROOT = Path(__file__).resolve().parent.parent
LONG_OPTIONS: dict[str, dict[str, Any]] = {"sparks": {"copies": 40, "target": 1000}}


def _playouts(game: str, seconds: float, seed0: int) -> tuple[float, float]:
    """Play random games for about `seconds`; return (decisions/s, games/s)."""
    decisions = games = 0
    start = time.perf_counter()
    seed = seed0
    while time.perf_counter() - start < seconds:
        m = tcgcore.new_match(game, seed=seed)
        n = m.state.num_players
        agents = [tcgcore.RandomAgent(seed * 31 + s) for s in range(n)]
        tcgcore.play_out(m, agents, max_decisions=100_000)
        decisions += len(m.decisions)
        games += 1
        seed += 1
    elapsed = time.perf_counter() - start
    return decisions / elapsed, games / elapsed


def _midgame(game: str) -> tcgcore.Match[Any]:
    """A match stopped halfway through a random game of the same seed."""
    full = tcgcore.new_match(game, seed=2024)
    agents = [tcgcore.RandomAgent(7 + s) for s in range(full.state.num_players)]
    tcgcore.play_out(full, agents)
    m = tcgcore.new_match(game, seed=2024)
    for d in full.decisions[: len(full.decisions) // 2]:
        m.choose(d.player, d.keys)
    return m


def _per_call_us(fn: Any, min_time: float = 0.2) -> float:
    n = 1
    while True:
        start = time.perf_counter()
        for _ in range(n):
            fn()
        elapsed = time.perf_counter() - start
        if elapsed >= min_time:
            return elapsed / n * 1e6
        n *= 2


def _flatness(game: str) -> float | None:
    options = LONG_OPTIONS.get(game, {})
    m = tcgcore.new_match(game, seed=77, **options)
    agents = [tcgcore.RandomAgent(11 + s) for s in range(m.state.num_players)]
    times: list[float] = []
    while m.result is None and len(times) < 20_000:
        choice = m.pending
        assert choice is not None
        keys = agents[choice.player].decide(m, choice)
        start = time.perf_counter()
        m.choose(choice.player, keys)
        times.append(time.perf_counter() - start)
    if len(times) < 50:
        return None
    tenth = len(times) // 10
    first = statistics.mean(times[:tenth])
    last = statistics.mean(times[-tenth:])
    return first / last if last else None  # >= 1 means the end is as fast as the start


def bench_game(game: str, repeats: int, seconds: float) -> dict[str, Any]:
    runs = [_playouts(game, seconds, seed0=1000 * r) for r in range(repeats)]
    dps = [r[0] for r in runs]
    gps = [r[1] for r in runs]
    mid = _midgame(game)
    codecs = mid.spec.codecs
    state = mid.state
    mp = codecs.mp_enc.encode(state)
    js = codecs.json_enc.encode(state)
    replay_record = mid.replay()
    replay_start = time.perf_counter()
    tcgcore.replay(replay_record)
    replay_time = time.perf_counter() - replay_start
    clone_us = _per_call_us(mid.clone)
    deepcopy_us = _per_call_us(lambda: copy.deepcopy(state), 0.1)
    return {
        "random_playout": {
            "decisions_per_s": {"median": statistics.median(dps), "min": min(dps), "max": max(dps)},
            "games_per_s": {"median": statistics.median(gps), "min": min(gps), "max": max(gps)},
        },
        "midgame_cards": len(state.cards),
        "clone_us": clone_us,
        "encode_msgpack_us": _per_call_us(lambda: codecs.mp_enc.encode(state)),
        "decode_msgpack_us": _per_call_us(lambda: codecs.mp_dec.decode(mp)),
        "encode_json_us": _per_call_us(lambda: codecs.json_enc.encode(state)),
        "decode_json_us": _per_call_us(lambda: codecs.json_dec.decode(js)),
        "size_msgpack_bytes": len(mp),
        "size_json_bytes": len(js),
        "view_us": _per_call_us(lambda: mid.view(0)),
        "replay_decisions_per_s": len(replay_record.decisions) / replay_time if replay_time else None,
        "deepcopy_us": deepcopy_us,
        "pickle_roundtrip_us": _per_call_us(lambda: pickle.loads(pickle.dumps(state, 5)), 0.1),
        "clone_speedup_vs_deepcopy": deepcopy_us / clone_us,
        "flatness_first_over_last": _flatness(game),
    }


def _markdown(results: dict[str, Any]) -> str:
    lines = [
        "# Performance",
        "",
        "Latest figures from `python benchmarks/run.py` (see `benchmarks/README.md`). These machines",
        "are noisy: compare figures from one run with each other, not across runs.",
        "",
        f"Machine: {results['machine']['platform']}, Python {results['machine']['python']}, "
        f"{results['machine']['cpus']} CPUs; run at {results['when']}.",
        "",
        "| game | decisions/s (median, min–max) | games/s | clone µs | × faster than deepcopy "
        "| encode/decode msgpack µs | encode/decode JSON µs | size msgpack B | view µs "
        "| replay dec/s | flatness |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for game, r in results["games"].items():
        if "error" in r:
            lines.append(f"| {game} | error: {r['error']} | | | | | | | | | |")
            continue
        d = r["random_playout"]["decisions_per_s"]
        g = r["random_playout"]["games_per_s"]
        flat = r["flatness_first_over_last"]
        lines.append(
            f"| {game} | {d['median']:,.0f} ({d['min']:,.0f}–{d['max']:,.0f}) | {g['median']:,.1f} "
            f"| {r['clone_us']:.1f} | {r['clone_speedup_vs_deepcopy']:.0f} "
            f"| {r['encode_msgpack_us']:.1f} / {r['decode_msgpack_us']:.1f} "
            f"| {r['encode_json_us']:.1f} / {r['decode_json_us']:.1f} | {r['size_msgpack_bytes']:,} "
            f"| {r['view_us']:.1f} | {r['replay_decisions_per_s'] or 0:,.0f} "
            f"| {'n/a' if flat is None else f'{flat:.2f}'} |"
        )
    lines += [
        "",
        "Flatness is the mean per-decision time of the first tenth of a long game divided by that of",
        "the last tenth (1.0 = no slowdown as the game grows). Mid-game means halfway through a",
        "seeded random game.",
        "",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", nargs="*", default=None, help="games to measure (default: all)")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds per playout repeat")
    parser.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "latest.json"))
    parser.add_argument("--markdown", default=str(ROOT / "docs" / "performance.md"))
    args = parser.parse_args(argv)
    games = args.games or tcgcore.games()
    results: dict[str, Any] = {
        "when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "machine": {"platform": platform.platform(), "python": sys.version.split()[0],
                    "cpus": __import__("os").cpu_count()},
        "games": {},
    }
    for game in games:
        print(f"benchmarking {game} …", file=sys.stderr)
        try:
            results["games"][game] = bench_game(game, args.repeats, args.seconds)
        except tcgcore.TcgcoreError as exc:
            results["games"][game] = {"error": str(exc)}
    Path(args.out).write_text(json.dumps(results, indent=2) + "\n")
    Path(args.markdown).write_text(_markdown(results))
    print(_markdown(results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
