"""Run tcgcore's benchmarks; write benchmarks/results/latest.json and docs/performance.md.

Usage (from the repository root, in the project's virtualenv)::

    python benchmarks/run.py                       # everything, default repeats
    python benchmarks/run.py --quick               # fewer repeats and games, for a look
    python benchmarks/run.py --configs sparks      # one configuration

See benchmarks/README.md for what each figure means.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import pickle
import platform
import statistics
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

import tcgcore
from tcgcore import _logging

sys.path.insert(0, str(Path(__file__).resolve().parent))
import peers

ROOT = Path(__file__).resolve().parent.parent

#: label -> (game, players, options, long-game options for the flatness figure)
CONFIGS: dict[str, tuple[str, int | None, dict[str, Any], dict[str, Any]]] = {
    "sparks": ("sparks", None, {}, {"copies": 40, "target": 1000}),
    "guimi_revival": ("guimi_revival", None, {}, {}),
    "arkham_card solo": ("arkham_card", 1, {}, {}),
    "arkham_card 4p": ("arkham_card", 4, {}, {}),
}

TARGETS = {
    "guimi_revival": 20_000,
    "arkham_card solo": 10_000,
}


def _playouts(game: str, players: int | None, options: dict[str, Any], agent: str,
              seconds: float, seed0: int) -> tuple[float, float]:
    """Play games for about ``seconds``; return (decisions/s, games/s)."""
    decisions = games = 0
    start = time.perf_counter()
    seed = seed0
    while time.perf_counter() - start < seconds:
        m = tcgcore.new_match(game, seed=seed, players=players, **options)
        agents = [tcgcore.make_agent(m.spec, agent, seed * 31 + s)
                  for s in range(m.state.num_players)]
        tcgcore.play_out(m, agents, max_decisions=200_000)
        decisions += len(m.decisions)
        games += 1
        seed += 1
    elapsed = time.perf_counter() - start
    return decisions / elapsed, games / elapsed


def _spread(values: list[float]) -> dict[str, float]:
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def _midgame(game: str, players: int | None, options: dict[str, Any]) -> tcgcore.Match[Any]:
    """A match stopped halfway through a seeded random game."""
    full = tcgcore.new_match(game, seed=2024, players=players, **options)
    agents = [tcgcore.RandomAgent(7 + s) for s in range(full.state.num_players)]
    tcgcore.play_out(full, agents)
    m = tcgcore.new_match(game, seed=2024, players=players, **options)
    for d in full.decisions[: len(full.decisions) // 2]:
        m.choose(d.player, d.keys)
    return m


def _per_call_us(fn: Any, min_time: float = 0.2, repeats: int = 3) -> float:
    """Best of ``repeats`` timings of a loop long enough to take ``min_time`` seconds."""
    n = 1
    while True:
        start = time.perf_counter()
        for _ in range(n):
            fn()
        elapsed = time.perf_counter() - start
        if elapsed >= min_time / repeats:
            break
        n *= 2
    best = elapsed
    for _ in range(repeats - 1):
        start = time.perf_counter()
        for _ in range(n):
            fn()
        best = min(best, time.perf_counter() - start)
    return best / n * 1e6


def _flatness(game: str, players: int | None, options: dict[str, Any]) -> dict[str, Any] | None:
    """Per-decision time of the first tenth of a long game over that of the last tenth."""
    m = tcgcore.new_match(game, seed=77, players=players, **options)
    agents = [tcgcore.RandomAgent(11 + s) for s in range(m.state.num_players)]
    times: list[float] = []
    while m.result is None and len(times) < 50_000:
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
    return {"decisions": len(times), "first_over_last": first / last if last else None}


def _one_match_peak_kib(game: str, players: int | None, options: dict[str, Any]) -> float:
    tracemalloc.start()
    m = tcgcore.new_match(game, seed=5, players=players, **options)
    tcgcore.play_out(m, [tcgcore.RandomAgent(s) for s in range(m.state.num_players)])
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak / 1024


_SIM_SCRIPT = """
import json, resource, sys, tcgcore
game, players, options = sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3])
total = int(sys.argv[4])
rss = {}
done = 0
for checkpoint in (total // 10, total):
    tcgcore.simulate(game, games=checkpoint - done, seed=done, players=players, options=options,
                     keep_outcomes=False)
    done = checkpoint
    rss[checkpoint] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps(rss))
"""


def _simulation_memory(game: str, players: int | None, options: dict[str, Any],
                       games: int) -> dict[str, Any]:
    """Peak RSS (KiB) of one worker after a tenth of ``games`` and after all of them."""
    out = subprocess.run(
        [sys.executable, "-c", _SIM_SCRIPT, game, json.dumps(players), json.dumps(options),
         str(games)], capture_output=True, text=True, check=True)
    rss = {int(k): v for k, v in json.loads(out.stdout).items()}
    first, last = sorted(rss)
    return {"games": games, "peak_rss_kib_after_tenth": rss[first], "peak_rss_kib_after_all": rss[last],
            "growth_ratio": rss[last] / rss[first]}


def _logging_overhead(game: str, players: int | None, options: dict[str, Any],
                      seconds: float) -> float:
    """Throughput lost to the disabled-logging check, as a fraction (0.01 = 1 %)."""
    real = _logging.debug_enabled
    with_check = []
    without = []
    import tcgcore._match as match_module
    for _ in range(5):  # interleaved, so machine noise hits both sides alike
        with_check.append(_playouts(game, players, options, "random", seconds, 0)[0])
        match_module.debug_enabled = lambda: False
        try:
            without.append(_playouts(game, players, options, "random", seconds, 0)[0])
        finally:
            match_module.debug_enabled = real
    return 1 - statistics.median(with_check) / statistics.median(without)


def _simulate_throughput(game: str, players: int | None, options: dict[str, Any],
                         games: int) -> dict[str, float]:
    out = {}
    for workers in (1, 2):
        start = time.perf_counter()
        tcgcore.simulate(game, games=games, seed=0, players=players, options=options,
                         workers=workers, keep_outcomes=False)
        out[f"workers_{workers}_games_per_s"] = games / (time.perf_counter() - start)
    out["speedup_2_over_1"] = out["workers_2_games_per_s"] / out["workers_1_games_per_s"]
    return out


def bench_config(label: str, repeats: int, seconds: float, sim_games: int,
                 mem_games: int) -> dict[str, Any]:
    game, players, options, long_options = CONFIGS[label]
    spec = tcgcore.default_registry().game(game)
    probe = tcgcore.new_match(game, seed=0, players=players, **options)
    if probe.result is not None and probe.result.reason == "skeleton":
        return {"skipped": "the game is a skeleton"}
    result: dict[str, Any] = {}
    runs = [_playouts(game, players, options, "random", seconds, 1000 * r) for r in range(repeats)]
    result["random_playout"] = {"decisions_per_s": _spread([r[0] for r in runs]),
                                "games_per_s": _spread([r[1] for r in runs])}
    if "heuristic" in spec.agents:
        runs = [_playouts(game, players, options, "heuristic", seconds, 1000 * r)
                for r in range(repeats)]
        result["heuristic_playout"] = {"decisions_per_s": _spread([r[0] for r in runs]),
                                       "games_per_s": _spread([r[1] for r in runs])}
    mid = _midgame(game, players, options)
    codecs = mid.spec.codecs
    state = mid.state
    mp = codecs.mp_enc.encode(state)
    js = codecs.json_enc.encode(state)
    record = mid.replay()
    start = time.perf_counter()
    tcgcore.replay(record)
    replay_time = time.perf_counter() - start
    clone_us = _per_call_us(mid.clone)
    deepcopy_us = _per_call_us(lambda: copy.deepcopy(state), 0.1)
    result.update({
        "midgame_cards": len(state.cards),
        "midgame_decision": len(mid.decisions),
        "clone_us": clone_us,
        "encode_msgpack_us": _per_call_us(lambda: codecs.mp_enc.encode(state)),
        "decode_msgpack_us": _per_call_us(lambda: codecs.mp_dec.decode(mp)),
        "encode_json_us": _per_call_us(lambda: codecs.json_enc.encode(state)),
        "decode_json_us": _per_call_us(lambda: codecs.json_dec.decode(js)),
        "size_msgpack_bytes": len(mp),
        "size_json_bytes": len(js),
        "view_us": _per_call_us(lambda: mid.view(0)),
        "replay_decisions_per_s": len(record.decisions) / replay_time if replay_time else None,
        "deepcopy_us": deepcopy_us,
        "pickle_roundtrip_us": _per_call_us(lambda: pickle.loads(pickle.dumps(state, 5)), 0.1),
        "clone_speedup_vs_deepcopy": deepcopy_us / clone_us,
        "flatness": _flatness(game, players, {**options, **long_options}),
        "one_match_peak_kib": _one_match_peak_kib(game, players, options),
        "logging_off_overhead": _logging_overhead(game, players, options, seconds / 2),
        "simulate": _simulate_throughput(game, players, options, sim_games),
        "simulation_memory": _simulation_memory(game, players, options, mem_games),
    })
    return result


def _fmt(x: Any, spec: str = ",.0f") -> str:
    return "n/a" if x is None else format(x, spec)


#: (label, how to read it from a configuration's results, higher is better)
_COMPARED: list[tuple[str, tuple[str, ...], bool]] = [
    ("random playout decisions/s (median)", ("random_playout", "decisions_per_s", "median"), True),
    ("heuristic playout decisions/s (median)", ("heuristic_playout", "decisions_per_s", "median"),
     True),
    ("replay verify decisions/s", ("replay_decisions_per_s",), True),
    ("clone µs", ("clone_us",), False),
    ("encode msgpack µs", ("encode_msgpack_us",), False),
    ("decode msgpack µs", ("decode_msgpack_us",), False),
    ("view µs", ("view_us",), False),
    ("clone × faster than deepcopy", ("clone_speedup_vs_deepcopy",), True),
]


def _dig(r: dict[str, Any], path: tuple[str, ...]) -> float | None:
    value: Any = r
    for part in path:
        if not isinstance(value, dict) or part not in value:
            return None
        value = value[part]
    return float(value) if isinstance(value, (int, float)) else None


def _comparison(results: dict[str, Any], baseline: dict[str, Any]) -> list[str]:
    """A before/after table: each figure of this run beside the baseline run's, with the ratio
    (> 1 means better now)."""
    lines = [
        "",
        "## Before and after (this run against the baseline run)",
        "",
        f"Baseline: {baseline.get('label') or 'earlier run'}, run {baseline.get('when', '?')}"
        f"{' (quick mode)' if baseline.get('quick') else ''}. Ratio > 1 means better now. Each "
        "figure is one short measurement per run, so on a shared machine single ratios swing "
        "far either way; read the table for large, consistent changes only, and prefer "
        "interleaved measurements (see the notes above, when present).",
        "",
        "| configuration | figure | before | after | ratio |",
        "| --- | --- | --- | --- | --- |",
    ]
    for label, r in results["configs"].items():
        b = baseline.get("configs", {}).get(label)
        if not b or "skipped" in r or "error" in r:
            continue
        for name, path, higher in _COMPARED:
            new, old = _dig(r, path), _dig(b, path)
            if new is None or old is None or not new or not old:
                continue
            ratio = new / old if higher else old / new
            fmt = ",.0f" if old >= 100 else ".1f"
            lines.append(f"| {label} | {name} | {old:{fmt}} | {new:{fmt}} | {ratio:.2f}× |")
    return lines


def _markdown(results: dict[str, Any], baseline: dict[str, Any] | None = None,
              notes: str = "") -> str:
    m = results["machine"]
    lines = [
        "# Performance",
        "",
        "Latest figures from `python benchmarks/run.py` (method: `benchmarks/README.md`). These",
        "machines are noisy: compare figures from one run with each other (ratios), not across runs.",
        "",
        f"Machine: {m['platform']}, Python {m['python']}, {m['cpus']} CPUs; run {results['when']}"
        f"{' (quick mode)' if results.get('quick') else ''}"
        f"{'; load average ' + format(results['load'], '.1f') if results.get('load') else ''}.",
        "",
    ]
    if notes.strip():
        lines += [notes.strip(), ""]
    lines += [
        "## Throughput (one core, uniformly random agents)",
        "",
        "| configuration | decisions/s median (min–max) | games/s | heuristic decisions/s "
        "| replay verify dec/s | flatness (first/last tenth) |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    configs = results["configs"]
    for label, r in configs.items():
        if "skipped" in r or "error" in r:
            lines.append(f"| {label} | {r.get('skipped') or r.get('error')} | | | | |")
            continue
        d = r["random_playout"]["decisions_per_s"]
        g = r["random_playout"]["games_per_s"]
        h = r.get("heuristic_playout", {}).get("decisions_per_s", {}).get("median")
        flat = (r["flatness"] or {}).get("first_over_last")
        lines.append(
            f"| {label} | {d['median']:,.0f} ({d['min']:,.0f}–{d['max']:,.0f}) | {g['median']:,.1f} "
            f"| {_fmt(h)} | {_fmt(r['replay_decisions_per_s'])} | {_fmt(flat, '.2f')} |"
        )
    lines += [
        "",
        "## State copies and serialisation (mid-game state)",
        "",
        "| configuration | cards | clone µs | deepcopy µs | clone × faster | pickle round trip µs "
        "| encode / decode msgpack µs | encode / decode JSON µs | msgpack / JSON bytes | view µs |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for label, r in configs.items():
        if "skipped" in r or "error" in r:
            continue
        lines.append(
            f"| {label} | {r['midgame_cards']} | {r['clone_us']:.1f} | {r['deepcopy_us']:.0f} "
            f"| {r['clone_speedup_vs_deepcopy']:.0f} | {r['pickle_roundtrip_us']:.0f} "
            f"| {r['encode_msgpack_us']:.1f} / {r['decode_msgpack_us']:.1f} "
            f"| {r['encode_json_us']:.1f} / {r['decode_json_us']:.1f} "
            f"| {r['size_msgpack_bytes']:,} / {r['size_json_bytes']:,} | {r['view_us']:.1f} |"
        )
    lines += [
        "",
        "## Memory, logging, workers",
        "",
        "| configuration | one match peak KiB | simulation peak RSS KiB (after 1/10 → all games) "
        "| logging-off overhead | simulate games/s 1 → 2 workers (speed-up) |",
        "| --- | --- | --- | --- | --- |",
    ]
    for label, r in configs.items():
        if "skipped" in r or "error" in r:
            continue
        sm = r["simulation_memory"]
        sim = r["simulate"]
        lines.append(
            f"| {label} | {r['one_match_peak_kib']:,.0f} | {sm['peak_rss_kib_after_tenth']:,} → "
            f"{sm['peak_rss_kib_after_all']:,} ({sm['games']:,} games) "
            f"| {r['logging_off_overhead']:+.1%} | {sim['workers_1_games_per_s']:,.1f} → "
            f"{sim['workers_2_games_per_s']:,.1f} ({sim['speedup_2_over_1']:.2f}×) |"
        )
    lines += ["", "## Peers, measured in the same run", ""]
    ps = results["peers"]
    for name in ("openspiel", "rlcard"):
        p = ps.get(name, {})
        if "skipped" in p:
            lines.append(f"- {name}: skipped ({p['skipped']})")
            continue
        for game, fig in p.items():
            rate = fig.get("decisions_per_s") or fig.get("steps_per_s")
            extra = ""
            if "clone_us" in fig:
                extra = f", clone {fig['clone_us']:.1f} µs"
            if "serialize_us" in fig:
                extra += (f", serialize {fig['serialize_us']:.1f} µs / deserialize "
                          f"{fig['deserialize_us']:.1f} µs")
            unit = "decisions/s" if "decisions_per_s" in fig else "env steps/s"
            lines.append(f"- {name} {game}: {rate:,.0f} {unit}{extra}")
    ratio_lines = []
    for label, r in configs.items():
        if "random_playout" not in r:
            continue
        ours = r["random_playout"]["decisions_per_s"]["median"]
        for name, p in ps.items():
            if "skipped" in p:
                continue
            for game, fig in p.items():
                rate = fig.get("decisions_per_s") or fig.get("steps_per_s")
                if rate:
                    ratio_lines.append(f"| {label} | {name} {game} | {ours / rate:.2f} |")
    if ratio_lines:
        lines += ["", "| tcgcore configuration | peer | tcgcore ÷ peer throughput |",
                  "| --- | --- | --- |", *ratio_lines]
    lines += ["", "## Targets", "", "| target | figure | met |", "| --- | --- | --- |"]
    for label, goal in TARGETS.items():
        r = configs.get(label, {})
        if "random_playout" in r:
            got = r["random_playout"]["decisions_per_s"]["median"]
            lines.append(f"| {label} random playout ≥ {goal:,} decisions/s | {got:,.0f} "
                         f"| {'yes' if got >= goal else 'no'} |")
    for label, r in configs.items():
        if "clone_us" not in r:
            continue
        flat = (r["flatness"] or {}).get("first_over_last")
        lines += [
            f"| {label} clone ≤ 50 µs and ≥ 20× deepcopy | {r['clone_us']:.1f} µs, "
            f"{r['clone_speedup_vs_deepcopy']:.0f}× "
            f"| {'yes' if r['clone_us'] <= 50 and r['clone_speedup_vs_deepcopy'] >= 20 else 'no'} |",
            f"| {label} encode ≤ 25 µs, decode ≤ 50 µs | {r['encode_msgpack_us']:.1f} / "
            f"{r['decode_msgpack_us']:.1f} µs "
            f"| {'yes' if r['encode_msgpack_us'] <= 25 and r['decode_msgpack_us'] <= 50 else 'no'} |",
            f"| {label} flatness ≥ 0.8 | {_fmt(flat, '.2f')} "
            f"| {'yes' if flat is not None and flat >= 0.8 else 'no'} |",
            f"| {label} logging off < 2 % | {r['logging_off_overhead']:+.1%} "
            f"| {'yes' if r['logging_off_overhead'] < 0.02 else 'no'} |",
            f"| {label} 2 workers ≥ 1.8× | {r['simulate']['speedup_2_over_1']:.2f}× "
            f"| {'yes' if r['simulate']['speedup_2_over_1'] >= 1.8 else 'no'} |",
        ]
    if baseline is not None:
        lines += _comparison(results, baseline)
    lines += [
        "",
        "Notes: flatness is the mean per-decision time of the first tenth of a long game divided by",
        "the last tenth (1.0 means no slowdown). Mid-game means halfway through a seeded random game.",
        "The 2-worker speed-up needs both cores idle; on a shared machine it reads low.",
        "",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--configs", nargs="*", default=None,
                        help=f"configurations to run (default all: {', '.join(CONFIGS)})")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds per playout repeat")
    parser.add_argument("--sim-games", type=int, default=200, help="games for the worker figure")
    parser.add_argument("--mem-games", type=int, default=10_000,
                        help="games for the simulation memory figure")
    parser.add_argument("--quick", action="store_true",
                        help="repeats 2, 0.5 s, 40 simulated games, 1,000 memory games")
    parser.add_argument("--no-peers", action="store_true")
    parser.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "latest.json"))
    parser.add_argument("--markdown", default=str(ROOT / "docs" / "performance.md"))
    parser.add_argument("--baseline", default=None,
                        help="an earlier results JSON; adds a before/after table")
    parser.add_argument("--notes", default=str(ROOT / "benchmarks" / "notes.md"),
                        help="hand-written notes copied into the markdown (if the file exists)")
    parser.add_argument("--label", default="",
                        help="a name for this run, stored in the JSON (e.g. 'before issue 8')")
    parser.add_argument("--render-only", action="store_true",
                        help="measure nothing: rewrite the markdown from the --out JSON "
                             "(after editing the notes)")
    args = parser.parse_args(argv)
    if args.render_only:
        return _render(args, json.loads(Path(args.out).read_text()))
    if args.quick:
        args.repeats, args.seconds, args.sim_games, args.mem_games = 2, 0.5, 40, 1_000
    installed = set(tcgcore.games())
    labels = args.configs or [k for k, v in CONFIGS.items() if v[0] in installed]
    results: dict[str, Any] = {
        "when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "quick": args.quick,
        "machine": {"platform": platform.platform(), "python": sys.version.split()[0],
                    "cpus": os.cpu_count()},
        "label": args.label,
        "load": os.getloadavg()[0] if hasattr(os, "getloadavg") else None,
        "configs": {},
        "peers": {},
    }
    for label in labels:
        print(f"benchmarking {label} …", file=sys.stderr)
        try:
            results["configs"][label] = bench_config(label, args.repeats, args.seconds,
                                                     args.sim_games, args.mem_games)
        except tcgcore.TcgcoreError as exc:
            results["configs"][label] = {"error": str(exc)}
    if not args.no_peers:
        print("benchmarking peers …", file=sys.stderr)
        results["peers"] = {"openspiel": peers.openspiel(args.seconds / 2),
                            "rlcard": peers.rlcard(args.seconds / 2)}
    if hasattr(os, "getloadavg"):  # the busier of the start and the end
        results["load"] = max(results["load"] or 0.0, os.getloadavg()[0])
    if args.baseline:
        results["baseline"] = args.baseline
    Path(args.out).write_text(json.dumps(results, indent=2) + "\n")
    return _render(args, results)


def _render(args: argparse.Namespace, results: dict[str, Any]) -> int:
    """Write the markdown for ``results`` (with the baseline and the notes, when given)."""
    base_path = args.baseline or results.get("baseline")
    baseline = json.loads(Path(base_path).read_text()) if base_path else None
    notes_path = Path(args.notes)
    notes = notes_path.read_text() if args.notes and notes_path.is_file() else ""
    text = _markdown(results, baseline, notes)
    Path(args.markdown).write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
