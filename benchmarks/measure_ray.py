"""The Ray backend of ``tcgcore.simulate``: speed-up with workers, overhead against the local
pool, and games per core-hour (the figures ``docs/distributed.md`` plans with).

Usage (repository root, a virtualenv with the ``ray`` extra)::

    python benchmarks/measure_ray.py            # writes benchmarks/results/ray.json
    python benchmarks/measure_ray.py --quick    # 200 games instead of 2,000, printed only

Inside ``benchmarks/run.py`` (``measure(quick)``) it plays one round of 600 games (20 with
``--quick``), which keeps the harness's full run under 15 minutes; a single round moves by
several points, so its rows carry no target (the targets are read on the medians of a run
of its own, ``docs/distributed.md``); without Ray it is skipped.

Method: one local Ray cluster of two CPUs is started and warmed up (a run of 20 games, so
each worker process has loaded the plugins, as a session's first run does once); that
start-up is timed apart and reported as its own row, since a user pays it once per session,
not per game. Then the same seeded Guimi Revival heuristic-vs-heuristic games are played
three times, wall-clock timed: on Ray with one chunk at a time (``workers=1``), on Ray with
two (``workers=2``), and with the local pool's two worker processes (``workers=2``). The
speed-up is the first time over the second (target at least 1.7); the overhead per game is
the Ray time over the local pool's for the same games and workers, minus one (target under
5 %), read twice: on wall-clock time, and on the CPU time of every process of the run (this
one, the pool's workers, the Ray cluster's processes), which another program's load does
not change. Both include what the cluster's own processes use while the games play (it
grows with the run's time, so it is a cost per game). Each run's report is checked to be
the local pool's. Run alone, the three timed runs are repeated in rounds (``--repeat``,
default 5), each round with a new cluster, and each figure is the median over the rounds;
inside the harness it is one round. Games per core-hour are measured apart, in this process,
on CPU time (so another process's load does not count), for each game and agent.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import tcgcore

ROOT = Path(__file__).resolve().parent.parent

#: (label, game, players, agent, games in a full run): games per core-hour of these
RATES: tuple[tuple[str, str, int | None, str, int], ...] = (
    ("sparks random", "sparks", None, "random", 2_000),
    ("guimi_revival heuristic", "guimi_revival", None, "heuristic", 200),
    ("guimi_revival random", "guimi_revival", None, "random", 200),
    ("arkham_card solo heuristic", "arkham_card", 1, "heuristic", 40),
    ("arkham_card 4p heuristic", "arkham_card", 4, "heuristic", 10),
)


def _tree_cpu() -> float:
    """CPU seconds of this process, its reaped children (the local pool's workers once it
    shut down) and its living descendants (a local Ray cluster's head processes, raylet
    and workers), read from /proc."""
    own = time.process_time()
    reaped = resource.getrusage(resource.RUSAGE_CHILDREN)
    total = own + reaped.ru_utime + reaped.ru_stime
    tick = os.sysconf("SC_CLK_TCK")
    parents: dict[int, int] = {}
    times: dict[int, float] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            parents[int(entry)] = int(fields[1])
            times[int(entry)] = (int(fields[11]) + int(fields[12])) / tick
    frontier, seen = [os.getpid()], set()
    while frontier:
        parent = frontier.pop()
        for pid, ppid in parents.items():
            if ppid == parent and pid not in seen:
                seen.add(pid)
                frontier.append(pid)
    return total + sum(times[pid] for pid in seen)


def _timed(**kwargs: Any) -> tuple[float, float, tcgcore.SimulationReport]:
    """Wall-clock and CPU seconds (see :func:`_tree_cpu`) of one run, and its report."""
    cpu, start = _tree_cpu(), time.perf_counter()
    report = tcgcore.simulate("guimi_revival", agents=["heuristic"], keep_outcomes=False,
                              **kwargs)
    wall = time.perf_counter() - start
    return wall, _tree_cpu() - cpu, report


def _per_core_hour(game: str, players: int | None, agent: str, games: int) -> float:
    start = time.process_time()
    tcgcore.simulate(game, games=games, players=players, agents=[agent], workers=1,
                     keep_outcomes=False)
    return games / (time.process_time() - start) * 3600


def _round(games: int) -> dict[str, float]:
    """One round of the three timed runs, on a new local cluster of 2 CPUs: seconds of
    start-up, of Ray with 1 and 2 workers, of the local pool, and CPU seconds of the two
    2-worker runs."""
    start = time.perf_counter()
    with tcgcore.ray_session(workers=2) as cpus:
        if cpus != 2:
            raise RuntimeError(f"expected a local cluster of 2 CPUs, got {cpus}")
        _timed(games=20, backend="ray", workers=2)  # warm-up: each worker loads the plugins
        started = time.perf_counter() - start
        ray_1, _, r1 = _timed(games=games, backend="ray", workers=1)
        ray_2, ray_cpu, r2 = _timed(games=games, backend="ray", workers=2)
    local_2, local_cpu, lr = _timed(games=games, workers=2)
    if not r1 == r2 == lr:
        raise RuntimeError("the Ray and local reports differ")
    return {"start_up": started, "ray_1": ray_1, "ray_2": ray_2, "local_2": local_2,
            "ray_2_cpu": ray_cpu, "local_2_cpu": local_cpu}


def measure(quick: bool, games: int | None = None, repeat: int = 1) -> dict[str, Any]:
    """Measure; returns ``{"rows": [{"name", "value", "unit", "target"}, ...], ...}`` with
    the raw times of every round beside (``target`` is a string such as ``">= 1.7"``, or
    ``None``). ``games``: Guimi games per timed run (default 600, 20 when ``quick``: the
    harness's sizes); ``repeat``: rounds, each figure the median over them (with fewer than
    three, the rows carry no target). Without Ray the
    answer has no rows and says why under ``"skipped"``."""
    try:
        import ray  # noqa: F401
    except ImportError as exc:
        return {"rows": [], "skipped": f"Ray is not installed ({exc})"}
    if games is None:
        games = 20 if quick else 600
    rounds = [_round(games) for _ in range(max(1, repeat))]

    def median(figure: Callable[[dict[str, float]], float]) -> float:
        return statistics.median(figure(r) for r in rounds)

    def goal(target: str) -> str | None:
        # a single round moves by several points: the targets are read on medians of rounds
        return target if len(rounds) >= 3 else None

    rows: list[dict[str, Any]] = [
        {"name": f"Ray speed-up, 2 workers over 1 ({games:,} Guimi heuristic games)",
         "value": round(median(lambda r: r["ray_1"] / r["ray_2"]), 3), "unit": "x",
         "target": goal(">= 1.7")},
        {"name": f"Ray overhead per game over the local pool (2 workers, {games:,} games)",
         "value": round(median(lambda r: 100 * (r["ray_2"] / r["local_2"] - 1)), 2),
         "unit": "%", "target": goal("< 5")},
        {"name": f"Ray CPU time per game over the local pool's (2 workers, {games:,} games)",
         "value": round(median(lambda r: 100 * (r["ray_2_cpu"] / r["local_2_cpu"] - 1)), 2),
         "unit": "%", "target": goal("< 5")},
        {"name": "Ray session start-up: a local cluster of 2 CPUs and its warm-up run "
         "(once per session, not in the figures above)",
         "value": round(median(lambda r: r["start_up"]), 2), "unit": "s", "target": None},
        {"name": "Ray, 1 worker", "value": round(median(lambda r: r["ray_1"]) / games * 1000, 3),
         "unit": "ms/game", "target": None},
        {"name": "Ray, 2 workers", "value": round(median(lambda r: r["ray_2"]) / games * 1000, 3),
         "unit": "ms/game", "target": None},
        {"name": "local pool, 2 workers",
         "value": round(median(lambda r: r["local_2"]) / games * 1000, 3), "unit": "ms/game",
         "target": None},
    ]
    for label, game, players, agent, full in RATES:
        n = max(2, full // 10) if quick else full
        rows.append({"name": f"games per core-hour: {label}",
                     "value": round(_per_core_hour(game, players, agent, n)),
                     "unit": "games/core-h", "target": None})
    return {"rows": rows, "games": games, "rounds": len(rounds), "seconds": rounds}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="200 games; print, do not write")
    ap.add_argument("--repeat", type=int, default=5,
                    help="rounds of the timed runs; each figure is their median (default 5)")
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "ray.json"))
    args = ap.parse_args(argv)
    result = measure(args.quick, 200 if args.quick else 2_000, args.repeat)
    for row in result["rows"]:
        target = f" (target {row['target']})" if row["target"] else ""
        print(f"{row['name']}: {row['value']} {row['unit']}{target}")
    if not args.quick:
        import ray

        result["when"] = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
        result["machine"] = {"python": platform.python_version(), "ray": ray.__version__,
                             "platform": platform.platform()}
        Path(args.out).write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
        print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
