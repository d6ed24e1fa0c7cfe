"""tcgcore's benchmark: the workloads users run, beside peer engines, in one process.

    python benchmarks/run.py            # full run (about 10 minutes): results/latest.json and
                                        # the figures block of docs/performance.md
    python benchmarks/run.py --quick    # under 30 s: results/quick.json, nothing else written

Method (benchmarks/README.md): throughput is decisions per CPU-second on one pinned core,
sampled in interleaved rounds (every tcgcore and peer workload once per round); per-call
figures are medians of interleaved batches; flatness compares the last tenth of heuristic
games with the first; simulate runs with one and two workers on every core. Any
``benchmarks/measure_*.py`` with ``measure(quick: bool) -> dict`` is run last and reported.
"""

from __future__ import annotations

import argparse
import datetime
import importlib.metadata
import importlib.util
import json
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import micro  # noqa: E402
import peers  # noqa: E402
import report  # noqa: E402
import workloads  # noqa: E402

import tcgcore  # noqa: E402


@dataclass(frozen=True)
class Sizes:
    """How long each part runs (CPU seconds unless stated)."""

    rounds: int = 7            # interleaved throughput rounds (the issue asks for at least 5)
    sample_s: float = 2.0      # one workload's sample in a round
    batches: int = 21          # per-call batches
    batch_s: float = 0.01      # one batch of calls
    flatness_s: float = 20.0   # heuristic games timed per configuration
    simulate_s: float = 5.0    # one worker's wall seconds per simulate run
    simulate_repeats: int = 3  # simulate pairs (one worker, two workers) per configuration


FULL = Sizes()
QUICK = Sizes(rounds=3, sample_s=0.1, batches=5, batch_s=0.002, flatness_s=0.2,
              simulate_s=0.15, simulate_repeats=1)


def _proc_stat() -> list[int] | None:
    """The machine's CPU tick counters (first line of /proc/stat), or ``None`` elsewhere."""
    try:
        with open("/proc/stat", encoding="ascii") as f:
            return [int(x) for x in f.readline().split()[1:]]
    except OSError:
        return None


def _others_cores(stat0: list[int] | None, stat1: list[int] | None, own_cpu_s: float,
                  wall_s: float) -> float | None:
    """Cores other processes (and the hypervisor, as steal) used between two readings."""
    if not stat0 or not stat1 or wall_s <= 0:
        return None
    d = [b - a for a, b in zip(stat0, stat1, strict=True)]
    busy = (d[0] + d[1] + d[2] + d[5] + d[6] + (d[7] if len(d) > 7 else 0)) / os.sysconf("SC_CLK_TCK")
    return max(0.0, busy - own_cpu_s) / wall_s


def _children_cpu_s() -> float:
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def throughput(named: dict[str, tuple[str, Any]], rounds: int, sample_s: float,
               log: Callable[[str], None]) -> dict[str, dict[str, Any]]:
    """Interleaved rounds of every runner (``{name: (agent, runner)}``); per workload its
    ``samples`` (decisions per CPU-second), their ``median`` and, when the reference peer ran,
    ``ratio``: the median over the rounds of the workload's sample ÷ the reference's."""
    for _, runner in named.values():
        runner.run(min(sample_s, 0.05))  # warm-up: imports, caches, first games
    samples: dict[str, list[float]] = {name: [] for name in named}
    order = list(named)
    for r in range(rounds):
        shift = r % len(order)
        for name in order[shift:] + order[:shift]:
            decisions, cpu = named[name][1].run(sample_s)
            samples[name].append(decisions / cpu)
        log(f"round {r + 1}/{rounds} done")
    ref = samples.get(peers.REFERENCE)
    out: dict[str, dict[str, Any]] = {}
    for name, values in samples.items():
        row: dict[str, Any] = {"agent": named[name][0], "median": statistics.median(values),
                               "samples": values}
        if ref:
            row["ratio"] = statistics.median(v / w for v, w in zip(values, ref, strict=True))
        out[name] = row
    return out


def extra_modules(folder: Path = HERE) -> list[Path]:
    """The extra measurement modules: ``measure_*.py`` in ``folder``, by name."""
    return sorted(folder.glob("measure_*.py"))


def run_extra(path: Path, quick: bool) -> dict[str, Any]:
    """Import ``path`` and call its ``measure(quick)``; a failure is ``{"error": "..."}``.

    The answer must be a dict with a ``rows`` list of dicts, each with ``name`` (str),
    ``value`` (number or ``None``) and ``unit`` (str), and optionally ``target`` (``"≥ 1.8"``,
    ``"<= 40"``) and ``note``; it may also carry a ``note`` (str) for the report.
    """
    try:
        spec = importlib.util.spec_from_file_location(f"tcgcore_bench_{path.stem}", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        out = module.measure(quick)
        if not isinstance(out, dict) or not isinstance(out.get("rows"), list):
            raise TypeError("measure() must return a dict with a 'rows' list")
        for row in out["rows"]:
            if not (isinstance(row, dict) and isinstance(row.get("name"), str)
                    and isinstance(row.get("unit"), str) and "value" in row):
                raise TypeError(f"a row needs name, value and unit: {row!r}"[:160])
        return dict(out)
    except Exception as exc:
        return {"error": peers._why(exc)}


def measure(sizes: Sizes, configs: list[workloads.Config], with_peers: bool,
            extras: list[Path], quick: bool,
            progress: Callable[[str], None] = lambda s: print(s, file=sys.stderr)) -> dict[str, Any]:
    """Every figure, as the results file holds them (see benchmarks/README.md)."""
    wall0, stat0, cpu0, load0 = time.perf_counter(), _proc_stat(), _children_cpu_s(), os.getloadavg()[0]

    def log(text: str) -> None:
        progress(f"{time.perf_counter() - wall0:6.1f} s  {text}")

    cpus = sorted(os.sched_getaffinity(0))
    pinned = cpus[-1]
    errors: list[str] = []
    named: dict[str, tuple[str, Any]] = {}
    agents = {c.label: workloads.agent_name(c) for c in configs}
    for c in configs:
        names = [agents[c.label]] + (["random"] if agents[c.label] != "random" else [])
        for agent in names:
            named[f"{c.label} {agent}"] = (agent, workloads.Runner(c, agent))
    missing: dict[str, str] = {}
    peer_runners: dict[str, Any] = {}
    if with_peers:
        peer_runners, missing = peers.runners()
        named.update({name: ("random", r) for name, r in peer_runners.items()})
    os.sched_setaffinity(0, {pinned})
    try:
        log(f"throughput: {len(named)} workloads × {sizes.rounds} rounds of {sizes.sample_s} s")
        rates = throughput(named, sizes.rounds, sizes.sample_s, log)
        per_call: dict[str, dict[str, float]] = {}
        flat: dict[str, dict[str, Any]] = {}
        for c in configs:
            try:
                mid = workloads.midgame(c, agents[c.label])
                per_call[c.label] = {**micro.per_call_us(micro.match_calls(mid), sizes.batches,
                                                         sizes.batch_s),
                                     "decision": len(mid.decisions)}
                log(f"per call: {c.label} done")
                flat[c.label] = workloads.flatness(c, agents[c.label], sizes.flatness_s)
                log(f"flatness: {c.label} done")
            except Exception as exc:
                errors.append(f"{c.label}: {peers._why(exc)}")
        for name, runner in peer_runners.items():
            if hasattr(runner, "midgame_calls"):
                try:
                    per_call[name] = micro.per_call_us(runner.midgame_calls(), sizes.batches,
                                                       sizes.batch_s)
                except Exception as exc:
                    errors.append(f"{name} per call: {peers._why(exc)}")
    finally:
        os.sched_setaffinity(0, cpus)
    sim: dict[str, dict[str, Any]] = {}
    for c in configs:
        try:
            sim[c.label] = workloads.simulate_speedup(c, agents[c.label], sizes.simulate_s,
                                                      sizes.simulate_repeats)
            log(f"simulate: {c.label} done")
        except Exception as exc:
            errors.append(f"{c.label} simulate: {peers._why(exc)}")
    extra = {path.stem: run_extra(path, quick) for path in extras}
    errors += [f"{name}: {out['error']}" for name, out in extra.items() if "error" in out]
    wall = time.perf_counter() - wall0
    results: dict[str, Any] = {
        "schema": 1,
        "when": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "quick": quick,
        "duration_s": wall,
        "host": {"platform": platform.platform(), "python": platform.python_version(),
                 "cpus": len(cpus), "pinned_cpu": pinned, "load_start": load0,
                 "load_end": os.getloadavg()[0],
                 "others_cores": _others_cores(stat0, _proc_stat(), _children_cpu_s() - cpu0, wall),
                 "compiled_modules": tcgcore.compiled_modules()},
        "versions": {"tcgcore": importlib.metadata.version("tcgcore"), **peers.versions()},
        "sizes": asdict(sizes),
        "throughput": rates,
        "per_call_us": per_call,
        "flatness": flat,
        "simulate": sim,
        "not_available": missing,
        "extras": extra,
        "errors": errors,
    }
    results["targets"] = report.targets(results)
    return results


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--quick", action="store_true", help="small sizes (under 30 s); writes quick.json")
    p.add_argument("--no-peers", action="store_true", help="leave out RLCard and OpenSpiel")
    p.add_argument("--configs", nargs="+", metavar="LABEL",
                   choices=[c.label for c in workloads.CONFIGS], help="only these configurations")
    p.add_argument("--out", type=Path, help="results JSON (default results/latest.json, "
                                            "results/quick.json with --quick)")
    p.add_argument("--docs", type=Path, help="Markdown file whose figures block is rewritten "
                                             "(default docs/performance.md; none with --quick)")
    p.add_argument("--render-only", action="store_true",
                   help="measure nothing: rewrite the --docs figures from the --out JSON")
    return p


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    out = args.out or HERE / "results" / ("quick.json" if args.quick else "latest.json")
    docs = args.docs or (None if args.quick else ROOT / "docs" / "performance.md")
    if args.render_only:
        results = json.loads(out.read_text(encoding="utf-8"))
    else:
        configs = [c for c in workloads.CONFIGS if not args.configs or c.label in args.configs]
        results = measure(QUICK if args.quick else FULL, configs, not args.no_peers,
                          extra_modules(), args.quick)
        out.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    if docs is not None:
        report.render_into(docs, results)
    print(f"{results['duration_s']:.0f} s; wrote {out}" + (f" and {docs}" if docs else ""))
    for row in results["targets"]:
        print(f"  {row['target']}: {report._num(row['today'], 2)} "
              f"({report._verdict(row['met']).strip('*')})")
    for error in results["errors"]:
        print(f"  failed: {error}", file=sys.stderr)
    return 1 if results["errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
