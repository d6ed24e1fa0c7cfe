"""Run tcgcore's benchmarks; write benchmarks/results/latest.json and docs/performance.md.

Usage (from the repository root, in the project's virtualenv)::

    python benchmarks/run.py                       # everything, default repeats
    python benchmarks/run.py --quick               # fewer repeats and games, for a look
    python benchmarks/run.py --configs sparks      # one configuration (to partial.json / .md)

See benchmarks/README.md for what each figure means.
"""

from __future__ import annotations

import argparse
import copy
import gc
import json
import math
import os
import pickle
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

import tcgcore

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


def _cpu_s() -> float:
    """CPU seconds used by this process (all its threads; children excluded)."""
    return time.process_time()


def _playouts(game: str, players: int | None, options: dict[str, Any], agent: str,
              seconds: float, seed0: int, keep_events: bool = False) -> dict[str, float]:
    """Play seeded games until ``seconds`` of this process's CPU time have passed.

    Matches keep no event history unless ``keep_events`` (as :func:`tcgcore.simulate`
    plays them; ``True`` is what a plain ``new_match`` does).
    Returns decisions and games per CPU-second (the one-core throughput, insensitive to
    other processes on the machine) and per wall-clock second (what a user waits for).
    """
    decisions = games = 0
    stat0, cpu0, wall0 = _proc_stat(), _cpu_s(), time.perf_counter()
    seed = seed0
    while _cpu_s() - cpu0 < seconds:
        m = tcgcore.new_match(game, seed=seed, players=players, keep_events=keep_events,
                              **options)
        agents = [tcgcore.make_agent(m.spec, agent, seed * 31 + s)
                  for s in range(m.state.num_players)]
        tcgcore.play_out(m, agents, max_decisions=200_000)
        decisions += len(m.decisions)
        games += 1
        seed += 1
    cpu, wall = _cpu_s() - cpu0, time.perf_counter() - wall0
    out = {"decisions_per_cpu_s": decisions / cpu, "games_per_cpu_s": games / cpu,
           "decisions_per_s": decisions / wall, "games_per_s": games / wall}
    others = _others_cores(stat0, _proc_stat(), cpu, wall)
    if others is not None:
        out["others_and_steal_cores"] = others
    return out


def _others_cores(stat0: list[int] | None, stat1: list[int] | None, own_cpu_s: float,
                  wall: float) -> float | None:
    """Cores that other processes used, plus cores the hypervisor stole, over ``wall``
    seconds between two /proc/stat readings (``own_cpu_s``: what this process used)."""
    if not stat0 or not stat1 or wall <= 0:
        return None
    tck = os.sysconf("SC_CLK_TCK")
    d = [b - a for a, b in zip(stat0, stat1, strict=True)]
    busy = (d[0] + d[1] + d[2] + d[5] + d[6]) / tck  # user nice system irq softirq
    steal = (d[7] if len(d) > 7 else 0) / tck
    return max(0.0, busy - own_cpu_s) / wall + steal / wall


def _spread(values: list[float]) -> dict[str, float]:
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def _quartiles(values: list[float]) -> dict[str, float]:
    """Median and quartiles (inclusive method), plus the count."""
    if len(values) < 2:
        v = values[0]
        return {"median": v, "q1": v, "q3": v, "n": len(values)}
    q1, q2, q3 = statistics.quantiles(values, n=4, method="inclusive")
    return {"median": q2, "q1": q1, "q3": q3, "n": len(values)}


def _playout_figures(runs: list[dict[str, float]]) -> dict[str, dict[str, float]]:
    return {key: _spread([r[key] for r in runs]) for key in runs[0]}


def _midgame(game: str, players: int | None, options: dict[str, Any]) -> tcgcore.Match[Any]:
    """A match stopped halfway through a seeded random game."""
    full = tcgcore.new_match(game, seed=2024, players=players, **options)
    agents = [tcgcore.RandomAgent(7 + s) for s in range(full.state.num_players)]
    tcgcore.play_out(full, agents)
    m = tcgcore.new_match(game, seed=2024, players=players, **options)
    for d in full.decisions[: len(full.decisions) // 2]:
        m.choose(d.player, d.keys)
    return m


def _loop_size(fn: Any, min_time: float) -> int:
    """How many calls of ``fn`` take at least ``min_time`` wall-clock seconds (a power of 2)."""
    n = 1
    while True:
        start = time.perf_counter()
        for _ in range(n):
            fn()
        if time.perf_counter() - start >= min_time:
            return n
        n *= 2


class _MicroRounds:
    """Per-call wall-clock µs of several small operations, timed in interleaved rounds that
    may be spread over a configuration's run.

    ``fns`` maps a figure's name to ``(function, loop seconds)``; each loop is sized once
    (:func:`_loop_size`). Each round of :meth:`run` times one loop of every function in
    turn, so a slow moment of this noisy host spoils one round of every figure rather than
    all the rounds of one figure; calling :meth:`run` at several points of a long
    measurement (see :func:`bench_config`) means a slow spell must last minutes to spoil
    every round."""

    def __init__(self, fns: dict[str, tuple[Any, float]]) -> None:
        self.fns = fns
        self.sizes = {name: _loop_size(fn, t) for name, (fn, t) in fns.items()}
        self.times: dict[str, list[float]] = {name: [] for name in fns}

    def run(self, rounds: int) -> None:
        """Time ``rounds`` more interleaved rounds."""
        for _ in range(rounds):
            for name, (fn, _t) in self.fns.items():
                n = self.sizes[name]
                start = time.perf_counter()
                for _ in range(n):
                    fn()
                self.times[name].append((time.perf_counter() - start) / n * 1e6)

    def figures(self) -> dict[str, dict[str, float]]:
        """Per name, ``best`` (the fastest round: what the code costs when the host lets it
        run, the usual reading of a micro-benchmark), ``median`` and ``worst`` over the
        rounds so far, and ``rounds``."""
        return {name: {"best": min(v), "median": statistics.median(v), "worst": max(v),
                       "rounds": len(v)}
                for name, v in self.times.items()}


def _micro_us(fns: dict[str, tuple[Any, float]], rounds: int) -> dict[str, dict[str, float]]:
    """:class:`_MicroRounds` of ``fns``, ``rounds`` rounds in a row, summarised."""
    timer = _MicroRounds(fns)
    timer.run(rounds)
    return timer.figures()


#: interleaved rounds of the clone, codec, save, view, deepcopy and pickle timings, taken in
#: groups of this many at three points of a configuration's run (before the playouts, after
#: them, after the flatness games): nine in all
_MICRO_GROUP = 3
_MICRO_ROUNDS = 3 * _MICRO_GROUP


#: a game joins the flatness pool when it is at least this long (a tenth of it is 2 decisions)
_FLAT_MIN_DECISIONS = 20


def _timed_game(game: str, players: int | None, options: dict[str, Any],
                seed: int) -> list[tuple[str, float, int]]:
    """One seeded random game: per decision, the answered choice's ``kind``, the CPU time
    of ``Match.choose`` (validation, recording and the engine run up to the next choice;
    the agents' own time excluded) and the number of events the engine emitted meanwhile
    (a measure of how much rules work the decision set off)."""
    m = tcgcore.new_match(game, seed=seed, players=players, **options)
    agents = [tcgcore.RandomAgent(seed * 7 + 11 + s) for s in range(m.state.num_players)]
    out: list[tuple[str, float, int]] = []
    clock = time.process_time
    state = m.state
    overhead = _clock_overhead_s()
    while m.result is None and len(out) < 50_000:
        choice = m.pending
        assert choice is not None
        keys = agents[choice.player].decide(m, choice)
        events = state.event_count
        start = clock()
        m.choose(choice.player, keys)
        elapsed = clock() - start - overhead  # what the two clock reads add to every figure
        out.append((choice.kind, elapsed if elapsed > 0.0 else 0.0, state.event_count - events))
    return out


_CLOCK_OVERHEAD: list[float] = []


def _clock_overhead_s() -> float:
    """CPU seconds that ``start = process_time(); ...; process_time() - start`` adds to what
    it times: the least mean gap between two back-to-back reads over five rounds of 2,000
    (about a microsecond here, a few per cent of a cheap decision; left in, it would pull
    every flatness ratio towards 1). Measured once per process."""
    if not _CLOCK_OVERHEAD:
        clock = time.process_time
        best = math.inf
        for _ in range(5):
            total = 0.0
            for _ in range(2000):
                a = clock()
                total += clock() - a
            best = min(best, total / 2000)
        _CLOCK_OVERHEAD.append(best)
    return _CLOCK_OVERHEAD[0]


def _flatness(game: str, players: int | None, options: dict[str, Any], seconds: float,
              min_games: int) -> dict[str, Any] | None:
    """Does a decision cost more late in a game than early? (see benchmarks/README.md)

    Plays seeded random games (seeds 0, 1, …) for ``seconds`` of CPU time and at least
    ``min_games`` games, keeps the longest quarter (each at least ``_FLAT_MIN_DECISIONS``
    long), and pools the first tenth and the last tenth of each kept game, leaving out the
    game's final decision (its engine run ends and resolves the game, a one-off cost that
    does not grow with the game; reported apart as ``final_decision_us``). ``raw`` is the
    mean CPU time per decision of the pooled first tenths over that of the pooled last
    tenths; ``mix_adjusted`` compares like with like: for each choice kind present in both
    pools, its mean cost in each pool, weighted by the kind's share of all decisions of the
    kept games (so both sides get the same mix of kinds), first over last. Below 1 means
    decisions get dearer as the game grows. ``per_event`` is the pooled CPU time per event
    emitted, first tenths over last tenths: whether a unit of rules work gets dearer as the
    state and its history grow (``events_per_decision_first_last`` shows whether late
    decisions set off more work). ``by_kind`` breaks the comparison down per choice kind
    compared (share of decisions, µs per decision and events per decision in each pool), to
    show where a growth comes from. ``work_matched`` is the mix-adjusted formula over cells
    of one kind and one number of events emitted (:func:`_work_matched`);
    ``history_free_over_full`` replays each kept game's last tenth with and without the
    match's history (:func:`_history_pair`). Each of the three ratios has a 90 % bootstrap
    interval over the kept games. ``None`` if no game was long enough.
    """
    try:
        return _flatness_frozen(game, players, options, seconds, min_games)
    finally:
        gc.unfreeze()


def _flatness_frozen(game: str, players: int | None, options: dict[str, Any], seconds: float,
                     min_games: int) -> dict[str, Any] | None:
    """:func:`_flatness`, which unfreezes the garbage collector after it: before each timed
    game this calls :func:`gc.freeze`, which sets every object alive then (the figures of
    the games before, the modules) aside from later collections. Without it, the full
    collections that a game's allocations set off scanned the benchmark's own growing
    lists too: a pause of milliseconds against a tenth of a game that costs a few hundred
    µs, landing at random, which widened the 90 % intervals three- to tenfold. The game's
    own objects are still collected as usual."""
    games: list[list[tuple[str, float, int]]] = []
    cpu0 = _cpu_s()
    seed = 0
    while len(games) < min_games or _cpu_s() - cpu0 < seconds:
        gc.freeze()
        games.append(_timed_game(game, players, options, seed))
        seed += 1
        if seed >= 100_000:
            break
    lengths = sorted(len(g) for g in games)
    cut = max(_FLAT_MIN_DECISIONS, lengths[(3 * len(lengths)) // 4])
    kept_seeds = [s for s, g in enumerate(games) if len(g) >= cut]
    kept = [games[s] for s in kept_seeds]
    if not kept:
        return {"games_played": len(games), "longest": lengths[-1], "games_pooled": 0,
                "raw_first_over_last": None, "mix_adjusted_first_over_last": None}
    # per kept game and kind: [CPU time, count] in its first tenth and in its last tenth
    per_game: list[dict[str, list[float]]] = []
    share: dict[str, int] = {}
    # CPU time and events emitted, summed over the pooled first tenths and last tenths
    work = [0.0, 0, 0.0, 0]
    # events per kind in the pooled first tenths ([0]) and last tenths ([1])
    kind_events: dict[str, list[int]] = {}
    # the same cells, split further by the number of events the decision set off
    per_game_work: list[dict[str, list[float]]] = []
    share_work: dict[str, int] = {}
    for g in kept:
        body = g[:-1]  # the final decision's run ends and resolves the game: a one-off cost
        tenth = len(body) // 10
        sums: dict[str, list[float]] = {}
        sums_work: dict[str, list[float]] = {}
        for pos, part in ((0, body[:tenth]), (2, body[-tenth:])):
            for kind, t, events in part:
                cell = sums.setdefault(kind, [0.0, 0.0, 0.0, 0.0])
                cell[pos] += t
                cell[pos + 1] += 1
                cell = sums_work.setdefault(f"{kind}/{events}", [0.0, 0.0, 0.0, 0.0])
                cell[pos] += t
                cell[pos + 1] += 1
                work[pos] += t
                work[pos + 1] += events
                kind_events.setdefault(kind, [0, 0])[pos // 2] += events
        per_game.append(sums)
        per_game_work.append(sums_work)
        for kind, _, events in body:
            share[kind] = share.get(kind, 0) + 1
            key = f"{kind}/{events}"
            share_work[key] = share_work.get(key, 0) + 1
    total = sum(share.values())
    raw, mix, common = _flat_ratios(per_game, share, total)
    matched, matched_share = _work_matched(per_game_work, share_work, total)
    # how far the mix-adjusted figure moves when the kept games are resampled (bootstrap)
    rng = random.Random(0)
    boot = sorted(x for x in (_flat_ratios([rng.choice(per_game) for _ in per_game], share, total)[1]
                              for _ in range(_FLAT_BOOTSTRAP)) if x is not None)
    boot_work = sorted(
        x for x in (_work_matched([rng.choice(per_game_work) for _ in per_game_work], share_work,
                                  total)[0] for _ in range(_FLAT_BOOTSTRAP)) if x is not None)
    cells = [c for g in per_game for c in g.values()]
    pooled = _pool(per_game)
    # where a growth comes from: each kind compared, by its weight in the mix-adjusted figure
    by_kind = {
        kind: {"share": share[kind] / total,
               "first_us": pooled[kind][0] / pooled[kind][1] * 1e6,
               "last_us": pooled[kind][2] / pooled[kind][3] * 1e6,
               "decisions_first_last": [int(pooled[kind][1]), int(pooled[kind][3])],
               "events_per_decision_first_last": [kind_events[kind][0] / pooled[kind][1],
                                                  kind_events[kind][1] / pooled[kind][3]]}
        for kind in sorted(common, key=lambda k: -share[k])
    }
    first_n, last_n = sum(c[1] for c in cells), sum(c[3] for c in cells)
    # the same late decisions from the same board, without the history that led to it
    history: list[tuple[float, float]] = []
    history_error = None
    try:
        for s in kept_seeds:
            gc.freeze()
            history.append(_history_pair(game, players, options, s, len(games[s])))
    except Exception as exc:  # the other flatness figures are kept; the run exits with 1
        history, history_error = [], _one_line(f"{type(exc).__name__}: {exc}")
    boot_history = sorted(x for x in (_history_ratio([rng.choice(history) for _ in history])
                                      for _ in range(_FLAT_BOOTSTRAP)) if x is not None)
    return {
        **({"history_error": history_error} if history_error else {}),
        "games_played": len(games),
        "games_pooled": len(kept),
        "min_decisions_pooled": cut,
        "longest": lengths[-1],
        "decisions_pooled": total,
        "first_tenth_us": sum(c[0] for c in cells) / first_n * 1e6,
        "last_tenth_us": sum(c[2] for c in cells) / last_n * 1e6,
        "final_decision_us": statistics.fmean(g[-1][1] for g in kept) * 1e6,
        "raw_first_over_last": raw,
        "mix_adjusted_first_over_last": mix,
        "mix_adjusted_interval_90": ([boot[len(boot) // 20], boot[-(len(boot) // 20) - 1]]
                                     if len(boot) >= 20 else None),
        "clock_overhead_us": _clock_overhead_s() * 1e6,
        "work_matched_first_over_last": matched,
        "work_matched_interval_90": ([boot_work[len(boot_work) // 20],
                                      boot_work[-(len(boot_work) // 20) - 1]]
                                     if len(boot_work) >= 20 else None),
        "work_matched_share": matched_share,
        "kinds_compared": common,
        "kinds_compared_share": sum(share[k] for k in common) / total,
        # how much rules work a decision sets off early and late, and the cost per unit of it
        "events_per_decision_first_last": [work[1] / first_n, work[3] / last_n],
        "per_event_first_over_last": ((work[0] / work[1]) / (work[2] / work[3])
                                      if work[1] and work[3] and work[2] else None),
        "by_kind": by_kind,
        "history_free_over_full": _history_ratio(history),
        "history_interval_90": ([boot_history[len(boot_history) // 20],
                                 boot_history[-(len(boot_history) // 20) - 1]]
                                if len(boot_history) >= 20 else None),
    }


def _history_pair(game: str, players: int | None, options: dict[str, Any], seed: int,
                  length: int) -> tuple[float, float]:
    """(CPU s without history, CPU s with the full history) of one seeded game's last tenth.

    Plays the game of :func:`_timed_game` (same seed, same random agents, so the same
    decisions; ``length`` of them) with every event kept, up to the start of the last tenth
    of its decisions (the final decision left out, as in :func:`_flatness`). There it makes
    a copy: the state of :meth:`tcgcore.Match.clone` (the same, byte for byte) in a new
    :class:`tcgcore.Match` with an empty event history and no decisions. Each later
    decision is then answered in both, each ``choose`` timed on its own (less the clock
    overhead). Which match goes first alternates every decision, and which one the agent
    reads to decide alternates every two: the match the agent has just read is warm in the
    CPU's caches, which made it about 4 % faster when the agent always read the same one.
    The two matches must end with equal state bytes. What the match keeps outside its
    state and reads again (its events, its decisions) shows as the first figure falling
    below the second. Anything kept inside the state is copied with it, so it does not
    show here; the work-matched figure sees that."""
    m = tcgcore.new_match(game, seed=seed, players=players, **options)
    agents = [tcgcore.RandomAgent(seed * 7 + 11 + s) for s in range(m.state.num_players)]
    body = length - 1
    start = body - body // 10
    clock = time.process_time
    overhead = _clock_overhead_s()
    fresh: tcgcore.Match[Any] | None = None
    times = [0.0, 0.0]  # fresh, full
    for i in range(body):
        if i == start:  # the same state, no event history and no decisions
            twin = m.clone()
            fresh = tcgcore.Match(twin.spec, twin.state, seed=twin.seed, players=twin.players,
                                  options=twin.options, decisions=[], plugins=twin.plugins,
                                  registry=twin.registry, meta=twin.meta, keep_events=True)
        reader = fresh if fresh is not None and i % 4 >= 2 else m
        choice = reader.pending
        assert choice is not None
        keys = agents[choice.player].decide(reader, choice)
        if fresh is None:
            m.choose(choice.player, keys)
            continue
        order = ((1, m), (0, fresh)) if i % 2 else ((0, fresh), (1, m))
        for side, match in order:
            t0 = clock()
            match.choose(choice.player, keys)
            elapsed = clock() - t0 - overhead
            times[side] += elapsed if elapsed > 0.0 else 0.0
    if fresh is not None and fresh.state_bytes() != m.state_bytes():
        raise AssertionError(f"{game} seed {seed}: the copy and the match diverged")
    return times[0], times[1]


def _history_ratio(pairs: list[tuple[float, float]]) -> float | None:
    """Pooled CPU time without history over that with it (see :func:`_history_pair`)."""
    full = sum(p[1] for p in pairs)
    return sum(p[0] for p in pairs) / full if full else None


#: fewer pooled games than this give no yes/no flatness verdict (a few games' figure, and its
#: bootstrap interval over those few games, say little)
_FLAT_MIN_POOLED = 10

#: bootstrap resamples for the flatness interval
_FLAT_BOOTSTRAP = 400


def _pool(per_game: list[dict[str, list[float]]]) -> dict[str, list[float]]:
    """Per choice kind, the kept games' cells summed: [first-tenth CPU s, first-tenth
    decisions, last-tenth CPU s, last-tenth decisions]."""
    pooled: dict[str, list[float]] = {}
    for g in per_game:
        for kind, cell in g.items():
            acc = pooled.setdefault(kind, [0.0, 0.0, 0.0, 0.0])
            for i in range(4):
                acc[i] += cell[i]
    return pooled


def _flat_ratios(per_game: list[dict[str, list[float]]], share: dict[str, int],
                 total: int) -> tuple[float | None, float | None, list[str]]:
    """(raw, mix-adjusted, kinds compared) of pooled games (see :func:`_flatness`)."""
    pooled = _pool(per_game)
    first_t = sum(c[0] for c in pooled.values())
    first_n = sum(c[1] for c in pooled.values())
    last_t = sum(c[2] for c in pooled.values())
    last_n = sum(c[3] for c in pooled.values())
    raw = (first_t / first_n) / (last_t / last_n) if first_n and last_n and last_t else None
    common = sorted(k for k, c in pooled.items() if c[1] and c[3])
    f_mix = sum(share[k] / total * pooled[k][0] / pooled[k][1] for k in common)
    l_mix = sum(share[k] / total * pooled[k][2] / pooled[k][3] for k in common)
    return raw, (f_mix / l_mix if common and l_mix else None), common


#: the work-matched figure gives no verdict when its cells cover less than this share of
#: the pooled games' decisions (it would speak for a few kinds of decision only)
_FLAT_MATCHED_MIN_SHARE = 0.5

#: a (kind, events) cell joins the work-matched figure with at least this many decisions in
#: each pool (a thinner cell would weigh one decision's noise by the cell's whole share)
_FLAT_MATCHED_MIN = 3


def _work_matched(per_game: list[dict[str, list[float]]], share: dict[str, int],
                  total: int) -> tuple[float | None, float]:
    """(work-matched ratio, share of all decisions it covers) of pooled games: the
    mix-adjusted figure of :func:`_flat_ratios` over cells of the same choice kind *and* the
    same number of events emitted (keys ``"kind/events"``), each cell with at least
    :data:`_FLAT_MATCHED_MIN` decisions in both pools, weighted by its share of the covered
    decisions. It compares a late decision with an early one that set off as much rules
    work, so what is left is what a larger state and a longer history cost the engine."""
    pooled = _pool(per_game)
    common = [k for k, c in pooled.items()
              if c[1] >= _FLAT_MATCHED_MIN and c[3] >= _FLAT_MATCHED_MIN]
    covered = sum(share[k] for k in common)
    if not covered or not total:
        return None, 0.0
    f = sum(share[k] * pooled[k][0] / pooled[k][1] for k in common)
    last = sum(share[k] * pooled[k][2] / pooled[k][3] for k in common)
    return (f / last if last else None), covered / total


def _one_match_peak_kib(game: str, players: int | None, options: dict[str, Any]) -> float:
    tracemalloc.start()
    m = tcgcore.new_match(game, seed=5, players=players, **options)
    tcgcore.play_out(m, [tcgcore.RandomAgent(s) for s in range(m.state.num_players)])
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak / 1024


_SIM_SCRIPT = """
import gc, json, resource, sys, tcgcore
game, players, options = sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3])
total = int(sys.argv[4])
marks = {}
checkpoints = sorted({max(1, total // 10), max(1, total // 2), total})

def rss_kib():
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * resource.getpagesize() // 1024
    except OSError:  # not Linux: the peak is the best there is
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss

def progress(done, _total):
    while checkpoints and done >= checkpoints[0]:
        checkpoints.pop(0)
        gc.collect()
        marks[done] = {"blocks": sys.getallocatedblocks(), "rss_kib": rss_kib(),
                       "peak_rss_kib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}

tcgcore.simulate(game, games=total, seed=0, players=players, options=options,
                 keep_outcomes=False, progress=progress)
print(json.dumps(marks))
"""

#: a simulation "grows with games" when it holds more than this many more allocated blocks
#: per game over the second half of its games (keeping each game's outcome would hold 8-10
#: blocks a game; bounded caches that are still filling hold a fraction of one)
_MEM_BLOCKS_PER_GAME = 1.0

#: fewer games than this give no verdict: the games' bounded caches are still filling
#: (Guimi's option cache reads 9 blocks a game over the second half of 200 games, 1.3 of 600,
#: 0.07 of 10,000)
_MEM_MIN_GAMES = 2000


def _simulation_memory(game: str, players: int | None, options: dict[str, Any],
                       games: int) -> dict[str, Any]:
    """What one worker process holds as it plays ``games`` games with ``tcgcore.simulate``
    (``keep_outcomes=False``, as a long simulation runs), sampled after a tenth, half and
    all of them (after a garbage collection, each sample at the end of the first chunk
    reaching the mark): the interpreter's allocated memory blocks
    (``sys.getallocatedblocks``: exact, and blind to how the allocator lays them out), the
    current RSS and the peak RSS, in KiB. ``blocks_per_game_second_half`` is the growth in
    blocks per game from half to all; ``grows`` compares it with
    :data:`_MEM_BLOCKS_PER_GAME` (``None``, no verdict, below :data:`_MEM_MIN_GAMES`
    games). ``rss_growth_kib`` is the current RSS after all minus
    after a tenth (the peak RSS is reached while the modules load, so it hides growth)."""
    out = subprocess.run(
        [sys.executable, "-c", _SIM_SCRIPT, game, json.dumps(players), json.dumps(options),
         str(games)], capture_output=True, text=True, check=False)
    if out.returncode:
        tail = (out.stderr.strip().splitlines() or ["no output"])[-1]
        return {"games": games, "error": f"the worker failed: {tail}"}
    marks = {int(k): v for k, v in json.loads(out.stdout).items()}
    done = sorted(marks)
    tenth, half, last = done[0], done[len(done) // 2] if len(done) > 2 else done[0], done[-1]
    first, mid, end = marks[tenth], marks[half], marks[last]
    per_game = ((end["blocks"] - mid["blocks"]) / (last - half)) if last > half else None
    return {"games": games, "checkpoints": done,
            "blocks_after_tenth": first["blocks"], "blocks_after_half": mid["blocks"],
            "blocks_after_all": end["blocks"], "blocks_per_game_second_half": per_game,
            "grows": (None if per_game is None or games < _MEM_MIN_GAMES
                      else per_game > _MEM_BLOCKS_PER_GAME),
            "rss_kib_after_tenth": first["rss_kib"], "rss_kib_after_all": end["rss_kib"],
            "rss_growth_kib": end["rss_kib"] - first["rss_kib"],
            "peak_rss_kib_after_tenth": first["peak_rss_kib"],
            "peak_rss_kib_after_all": end["peak_rss_kib"]}


def _play_seeds(game: str, players: int | None, options: dict[str, Any],
                seeds: range) -> tuple[float, int]:
    """CPU seconds and decisions of uniformly random games with the given seeds."""
    decisions = 0
    start = _cpu_s()
    for seed in seeds:
        m = tcgcore.new_match(game, seed=seed, players=players, **options)
        tcgcore.play_out(m, [tcgcore.RandomAgent(seed * 31 + s) for s in range(m.state.num_players)],
                         max_decisions=200_000)
        decisions += len(m.decisions)
    return _cpu_s() - start, decisions


def _ns_per_call(fn: Any, calls: int = 200_000) -> float:
    """Best of five CPU-time loops of ``calls`` calls, in ns per call."""
    best = math.inf
    for _ in range(5):
        start = _cpu_s()
        for _ in range(calls):
            fn()
        best = min(best, _cpu_s() - start)
    return best / calls * 1e9


def _logging_overhead(game: str, players: int | None, options: dict[str, Any], rounds: int,
                      games_per_round: int, decisions_per_cpu_s: float) -> dict[str, Any]:
    """CPU time that the disabled-logging check costs, as a fraction (0.01 = 1 %).

    ``Match._answer`` asks ``self._log is not None or debug_enabled()`` once per decision.
    Paired games: every seeded game is played four times in a row in this process, as
    shipped (A) and with ``debug_enabled`` (as ``tcgcore._match`` sees it) replaced by the
    builtin ``bool`` (B: a C call returning False, the cheapest stand-in the call site
    allows), in the order A B B A or B A A B (alternating), which cancels both a steady drift
    and any advantage of playing a game second; a round sums ``games_per_round`` games, and
    its overhead is its CPU-time ratio A / B minus 1. Pairing single games keeps both sides
    within milliseconds of each other, so the machine's drift hits both alike. Also a direct
    estimate: the CPU cost of one ``debug_enabled()`` call beyond a ``bool()`` call (in a
    tight loop, so with warm caches), times decisions per CPU-second.
    """
    import tcgcore._match as match_module

    names = match_module.__dict__  # the module's globals, where ``_answer`` finds the check
    real = names["debug_enabled"]
    ratios = []
    decisions_checked = 0
    for r in range(rounds):
        times = {False: 0.0, True: 0.0}
        counts = {False: 0, True: 0}
        for i in range(games_per_round):
            seed = 10_000 + r * games_per_round + i
            abba = (False, True, True, False) if (r + i) % 2 == 0 else (True, False, False, True)
            for patched in abba:
                if patched:
                    names["debug_enabled"] = bool
                try:
                    cpu, decisions = _play_seeds(game, players, options, range(seed, seed + 1))
                finally:
                    names["debug_enabled"] = real
                times[patched] += cpu
                counts[patched] += decisions
        assert counts[True] == counts[False], "the patch changed the games"
        decisions_checked += counts[False]
        ratios.append(times[False] / times[True] - 1)
    check_ns = _ns_per_call(real) - _ns_per_call(bool)
    return {
        "paired": _quartiles(ratios),
        "games_per_round": games_per_round,
        "decisions": decisions_checked,
        "check_ns_per_decision": check_ns,
        "direct_estimate": check_ns * 1e-9 * decisions_per_cpu_s,
    }


def _proc_stat() -> list[int] | None:
    """The machine-wide CPU counters of /proc/stat (jiffies), or None where there is none."""
    try:
        with open("/proc/stat") as f:
            return [int(x) for x in f.readline().split()[1:]]
    except (OSError, ValueError):
        return None


def _own_cpu_s() -> float:
    """CPU seconds of this process and of its children that have been waited for."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def _timed_simulation(game: str, players: int | None, options: dict[str, Any], games: int,
                      workers: int) -> dict[str, float | None]:
    """One ``simulate`` run: games per wall second, the CPU it used (this process and its
    workers), and what the rest of the machine did meanwhile (cores busy with other
    processes, cores stolen by the hypervisor, the load average)."""
    tck = os.sysconf("SC_CLK_TCK")
    stat0, own0, wall0 = _proc_stat(), _own_cpu_s(), time.perf_counter()
    tcgcore.simulate(game, games=games, seed=0, players=players, options=options,
                     workers=workers, keep_outcomes=False)
    wall, own, stat1 = time.perf_counter() - wall0, _own_cpu_s() - own0, _proc_stat()
    others = steal = None
    if stat0 and stat1:
        d = [b - a for a, b in zip(stat0, stat1, strict=True)]
        busy = (d[0] + d[1] + d[2] + d[5] + d[6]) / tck  # user nice system irq softirq
        others = max(0.0, busy - own) / wall
        steal = (d[7] if len(d) > 7 else 0) / tck / wall
    return {"games_per_s": games / wall, "cpu_s": own, "others_cores": others,
            "steal_cores": steal, "load": os.getloadavg()[0] if hasattr(os, "getloadavg") else None}


#: the 2-worker figure is read only when other processes and the hypervisor took at most
#: this many cores during the median 2-worker run
_IDLE_ENOUGH_CORES = 0.15


def _simulate_throughput(game: str, players: int | None, options: dict[str, Any],
                         games_per_cpu_s: float, seconds: float, repeats: int) -> dict[str, Any]:
    """``tcgcore.simulate`` with 1 and 2 workers, sized so that one worker takes about
    ``seconds``; ``repeats`` rounds, each running both in alternating order."""
    games = max(20, round(games_per_cpu_s * seconds))
    runs: dict[int, list[dict[str, float | None]]] = {1: [], 2: []}
    for r in range(repeats):
        for workers in ((1, 2) if r % 2 == 0 else (2, 1)):
            runs[workers].append(_timed_simulation(game, players, options, games, workers))
    speedups = [b["games_per_s"] / a["games_per_s"]  # type: ignore[operator]
                for a, b in zip(runs[1], runs[2], strict=True)]
    work = [b["cpu_s"] / a["cpu_s"]  # type: ignore[operator]
            for a, b in zip(runs[1], runs[2], strict=True)]
    busy = [(x["others_cores"] or 0.0) + (x["steal_cores"] or 0.0) for x in runs[2]]
    busy_1 = [(x["others_cores"] or 0.0) + (x["steal_cores"] or 0.0) for x in runs[1]]
    known = runs[2][0]["others_cores"] is not None
    out: dict[str, Any] = {
        "games": games,
        "repeats": repeats,
        "workers_1_games_per_s": statistics.median(x["games_per_s"] for x in runs[1]),  # type: ignore[type-var]
        "workers_2_games_per_s": statistics.median(x["games_per_s"] for x in runs[2]),  # type: ignore[type-var]
        "speedup_2_over_1": statistics.median(speedups),
        "speedups": speedups,
        "cpu_work_2_over_1": statistics.median(work),
        "others_and_steal_cores_during_2_workers": busy if known else None,
        "others_and_steal_cores_during_1_worker": busy_1 if known else None,
        "load_during_2_workers": [x["load"] for x in runs[2]],
        "idle_enough": (max(statistics.median(busy), statistics.median(busy_1))
                        <= _IDLE_ENOUGH_CORES) if known else None,
        "runs": runs,
    }
    return out


class FigureError(Exception):
    """One figure of a configuration failed: ``figure`` names it, ``partial`` holds the
    figures measured before it (kept in the results), ``cause`` is the exception."""

    def __init__(self, figure: str, partial: dict[str, Any], cause: BaseException) -> None:
        super().__init__(f"{figure}: {type(cause).__name__}: {cause}")
        self.figure = figure
        self.partial = partial
        self.cause = cause


#: the replay-verification figure repeats the replay for at least this much CPU time ...
_REPLAY_MIN_CPU_S = 0.2
#: ... and at least this many times
_REPLAY_MIN_REPEATS = 5


def _replay_rates(record: Any) -> dict[str, Any]:
    """Decisions per CPU-second and per wall-clock second of ``tcgcore.replay(record)``: the
    replay repeated until it has used at least :data:`_REPLAY_MIN_CPU_S` of CPU time and at
    least :data:`_REPLAY_MIN_REPEATS` times (one replay of a mid-game record takes well
    under a millisecond, too short to time once); the medians over the repeats."""
    n = len(record.decisions)
    cpu_rates: list[float] = []
    wall_rates: list[float] = []
    repeats = 0
    start = _cpu_s()
    while repeats < _REPLAY_MIN_REPEATS or _cpu_s() - start < _REPLAY_MIN_CPU_S:
        cpu0, wall0 = _cpu_s(), time.perf_counter()
        tcgcore.replay(record)
        cpu, wall = _cpu_s() - cpu0, time.perf_counter() - wall0
        repeats += 1
        if cpu > 0:  # a clock too coarse for one call gives no sample, not a division by zero
            cpu_rates.append(n / cpu)
        if wall > 0:
            wall_rates.append(n / wall)
    return {"replay_decisions_per_s": statistics.median(wall_rates) if wall_rates else None,
            "replay_decisions_per_cpu_s": statistics.median(cpu_rates) if cpu_rates else None,
            "replay_repeats": repeats, "replay_decisions": n}


def _micro_figures(micro: _MicroRounds, mid: Any, mp: bytes, js: bytes,
                   saved: bytes) -> dict[str, Any]:
    """The clone, codec, save, view, deepcopy and pickle figures of the rounds so far (the
    fastest round of each; ``micro_rounds`` keeps best, median and worst), with the mid-game
    state's sizes."""
    rounds = micro.figures()
    best = {name: f["best"] for name, f in rounds.items()}
    return {
        "midgame_cards": len(mid.state.cards),
        "midgame_decision": len(mid.decisions),
        "clone_us": best["clone_us"],
        "encode_msgpack_us": best["encode_msgpack_us"],
        "decode_msgpack_us": best["decode_msgpack_us"],
        "encode_json_us": best["encode_json_us"],
        "decode_json_us": best["decode_json_us"],
        "size_msgpack_bytes": len(mp),
        "size_json_bytes": len(js),
        # the public save and load of the whole match (envelope with the header and the
        # decisions list around the state; loading also checks versions and validates the
        # state)
        "save_to_bytes_us": best["save_to_bytes_us"],
        "load_from_bytes_us": best["load_from_bytes_us"],
        "save_bytes": len(saved),
        "view_us": best["view_us"],
        "deepcopy_us": best["deepcopy_us"],
        "pickle_roundtrip_us": best["pickle_roundtrip_us"],
        "clone_speedup_vs_deepcopy": best["deepcopy_us"] / best["clone_us"],
        # every round of the figures above (best, median, worst): how steady the host was
        "micro_rounds": rounds,
    }


def bench_config(label: str, repeats: int, seconds: float, sizes: dict[str, Any]) -> dict[str, Any]:
    """Every figure of one configuration, measured one after the other.

    Raises:
        FigureError: a figure failed; it carries the figures measured before it.
    """
    game, players, options, long_options = CONFIGS[label]
    result: dict[str, Any] = {}
    figure = "setup"
    try:
        spec = tcgcore.default_registry().game(game)
        probe = tcgcore.new_match(game, seed=0, players=players, **options)
        if probe.result is not None and probe.result.reason == "skeleton":
            return {"skipped": "the game is a skeleton"}
        figure = "midgame_match"  # the match the replay, clone, codec and view figures use
        mid = _midgame(game, players, options)
        codecs = mid.spec.codecs
        state = mid.state
        mp = codecs.mp_enc.encode(state)
        js = codecs.json_enc.encode(state)
        record = mid.replay()
        saved = mid.to_bytes()
        figure = "clone_codecs_view"
        micro = _MicroRounds({
            "clone_us": (mid.clone, 0.04),
            "encode_msgpack_us": (lambda: codecs.mp_enc.encode(state), 0.04),
            "decode_msgpack_us": (lambda: codecs.mp_dec.decode(mp), 0.04),
            "encode_json_us": (lambda: codecs.json_enc.encode(state), 0.04),
            "decode_json_us": (lambda: codecs.json_dec.decode(js), 0.04),
            "save_to_bytes_us": (mid.to_bytes, 0.04),
            "load_from_bytes_us": (lambda: tcgcore.Match.from_bytes(saved), 0.04),
            "view_us": (lambda: mid.view(0), 0.04),
            "deepcopy_us": (lambda: copy.deepcopy(state), 0.02),
            "pickle_roundtrip_us": (lambda: pickle.loads(pickle.dumps(state, 5)), 0.02),
        })
        micro.run(_MICRO_GROUP)  # the first of three groups of rounds (see _MICRO_GROUP)
        result.update(_micro_figures(micro, mid, mp, js, saved))
        # random playouts as simulate plays them (no event history), alternated run by run
        # with playouts from the same starting seeds keeping every event (a plain new_match),
        # which goes first in every other pair, so the two compare fairly
        figure = "random_playout"
        runs: list[dict[str, float]] = []
        kept: list[dict[str, float]] = []
        for r in range(repeats):
            for keep in ((False, True) if r % 2 == 0 else (True, False)):
                (kept if keep else runs).append(
                    _playouts(game, players, options, "random", seconds, 1000 * r,
                              keep_events=keep))
        cost = statistics.median(
            a["decisions_per_cpu_s"] / b["decisions_per_cpu_s"]
            for a, b in zip(runs, kept, strict=True)) - 1
        result["random_playout"] = _playout_figures(runs)
        result["random_playout_keeping_events"] = _playout_figures(kept)
        result["keeping_events_cost"] = cost
        if "heuristic" in spec.agents:
            figure = "heuristic_playout"
            runs = [_playouts(game, players, options, "heuristic", seconds, 1000 * r)
                    for r in range(repeats)]
            result["heuristic_playout"] = _playout_figures(runs)
        dec_cpu = result["random_playout"]["decisions_per_cpu_s"]["median"]
        games_cpu = result["random_playout"]["games_per_cpu_s"]["median"]
        figure = "replay"
        result.update(_replay_rates(record))
        figure = "clone_codecs_view"
        micro.run(_MICRO_GROUP)  # the second group
        result.update(_micro_figures(micro, mid, mp, js, saved))
        figure = "flatness_pooled"
        result["flatness_pooled"] = _flatness(game, players, {**options, **long_options},
                                              sizes["flatness_s"], sizes["flatness_min_games"])
        figure = "clone_codecs_view"
        micro.run(_MICRO_GROUP)  # the third group
        result.update(_micro_figures(micro, mid, mp, js, saved))
        figure = "one_match_peak_kib"
        result["one_match_peak_kib"] = _one_match_peak_kib(game, players, options)
        figure = "logging_off"
        round_games = max(1, round(games_cpu * sizes["logging_round_s"] / 2))  # each game twice a side
        result["logging_off"] = _logging_overhead(game, players, options, sizes["logging_rounds"],
                                                  round_games, dec_cpu)
        # the old single-figure field, now the paired median (kept for --baseline comparisons)
        result["logging_off_overhead"] = result["logging_off"]["paired"]["median"]
        figure = "simulate"
        result["simulate"] = _simulate_throughput(game, players, options, games_cpu,
                                                  sizes["sim_s"], sizes["sim_repeats"])
        figure = "simulation_memory"
        result["simulation_memory"] = _simulation_memory(
            game, players, options,
            sizes["mem_games"] if sizes["mem_s"] is None else
            min(sizes["mem_games"], max(200, round(games_cpu * sizes["mem_s"]))))
        if "error" in result["simulation_memory"]:  # the worker process failed
            raise RuntimeError(result["simulation_memory"]["error"])
    except Exception as exc:  # keep what was measured; the caller reports the failure
        raise FigureError(figure, result, exc) from exc
    return result


def _fmt(x: Any, spec: str = ",.0f") -> str:
    return "n/a" if x is None else format(x, spec)


#: (label, how to read it from a configuration's results, higher is better); a path that
#: starts with ``@kept`` reads the random playouts of matches keeping their events, one that
#: starts with ``@sim`` the playouts without event history, one that starts with ``@replay``
#: the replay figures of files that repeated the replay (see :func:`_dig`)
_COMPARED: list[tuple[str, tuple[str, ...], bool]] = [
    ("random playout decisions per CPU-second, no event history (median)",
     ("@sim", "random_playout", "decisions_per_cpu_s", "median"), True),
    ("random playout decisions per CPU-second, events kept (median)",
     ("@kept", "decisions_per_cpu_s", "median"), True),
    ("random playout decisions/s, wall clock, events kept (median)",
     ("@kept", "decisions_per_s", "median"), True),
    ("heuristic playout decisions per CPU-second, no event history (median)",
     ("@sim", "heuristic_playout", "decisions_per_cpu_s", "median"), True),
    ("replay verify decisions per CPU-second (median of repeats)",
     ("@replay", "replay_decisions_per_cpu_s"), True),
    ("replay verify decisions/s, wall clock (median of repeats)",
     ("@replay", "replay_decisions_per_s"), True),
    ("clone µs", ("clone_us",), False),
    ("state codec encode msgpack µs", ("encode_msgpack_us",), False),
    ("state codec decode msgpack µs", ("decode_msgpack_us",), False),
    ("save Match.to_bytes µs", ("save_to_bytes_us",), False),
    ("load Match.from_bytes µs", ("load_from_bytes_us",), False),
    ("view µs", ("view_us",), False),
    ("clone × faster than deepcopy", ("clone_speedup_vs_deepcopy",), True),
]


def _dig(r: Any, path: tuple[str, ...]) -> float | None:
    """The figure at ``path`` in one configuration's results, or ``None``.

    ``("@kept", ...)`` reads the random playouts keeping every event: their own entry, or
    ``random_playout`` in result files from before playouts dropped event history (those
    kept it). ``("@sim", ...)`` reads the rest of the path only in files whose playouts keep
    no event history (``random_playout_keeping_events`` present), so that no figure is
    compared with one measured the other way. ``("@replay", ...)`` reads the rest only in
    files that repeated the replay (``replay_repeats`` present): older files timed a single
    sub-millisecond replay, which is noise. Anything that is not a finite number where a
    figure should be (a hand-edited or damaged file) reads as ``None``."""
    if not isinstance(r, dict):
        return None
    value: Any = r
    if path and path[0] == "@kept":
        value = r.get("random_playout_keeping_events", r.get("random_playout"))
        path = path[1:]
    elif path and path[0] == "@sim":
        if "random_playout_keeping_events" not in r:
            return None
        path = path[1:]
    elif path and path[0] == "@replay":
        if "replay_repeats" not in r:
            return None
        path = path[1:]
    for part in path:
        if not isinstance(value, dict) or part not in value:
            return None
        value = value[part]
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    try:
        number = float(value)
    except OverflowError:  # an integer too large for a float
        return None
    return number if math.isfinite(number) else None


def _comparison(results: dict[str, Any], baseline: dict[str, Any]) -> list[str]:
    """A before/after table: each figure of this run beside the baseline run's, with the ratio
    (> 1 means better now)."""
    base_configs = baseline.get("configs")
    if not isinstance(base_configs, dict):
        base_configs = {}
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
        b = base_configs.get(label)
        # a configuration that failed part-way is compared on the figures it has
        if not isinstance(b, dict) or not isinstance(r, dict) or "skipped" in r:
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
        "Throughput is measured in CPU time of the benchmark process (`time.process_time`), which",
        "other processes on the machine disturb far less than the wall clock (wall-clock figures",
        "beside them); CPU time still rises when another process keeps the other core busy",
        "(shared caches), by up to a quarter here, so the tables say how busy the machine was.",
        "",
        f"Machine: {m['platform']}, Python {m['python']}, {m['cpus']} CPUs; run {results['when']}"
        f"{' (quick mode)' if results.get('quick') else ''}"
        f"{'; load average ' + format(results['load'], '.1f') if results.get('load') else ''}.",
        "",
    ]
    compiled = m.get("compiled_modules")
    if compiled:  # older results files do not say; they ran interpreted
        lines += [f"Compiled modules in this run (mypyc): {', '.join(f'`{c}`' for c in compiled)}; "
                  "every other module ran interpreted.", ""]
    configs = results["configs"]
    failed = {label: r for label, r in configs.items() if "error" in r}
    if failed:  # under the machine line, before the notes
        lines += ["**Failed.** " + "; ".join(
            f"{label}: {_cell(r['error'])}" for label, r in failed.items())
            + ". The figures measured before the failure are shown; the later ones are "
            "missing.", ""]
    if notes.strip():
        lines += [notes.strip(), ""]
    # a configuration that failed part-way has the figures measured before the failure
    measured = [r for r in configs.values() if "random_playout" in r]
    # result files from before CPU time was measured hold wall-clock figures only
    cpu = [("decisions_per_cpu_s" in r["random_playout"]) for r in measured]
    if cpu and not any(cpu):
        lines += ["This result file predates the CPU-time figures: every throughput figure "
                  "below is per **wall-clock** second.", ""]
    elif not all(cpu):
        lines += ["Some configurations of this file have no CPU-time figures: their cells are "
                  "marked *(wall clock)*.", ""]
    unit = "CPU-second" if all(cpu) else "wall-clock second" if not any(cpu) else "CPU-second"
    lines += [
        "## Throughput (one core, in the benchmark process)",
        "",
        "Playouts run as `tcgcore.simulate` runs them: matches created with "
        "`keep_events=False`, which keep no event history (the games, decisions and states are "
        "those of matches that keep it). The column \"events kept\" plays from the same starting "
        "seeds with plain `new_match` matches, which keep every event for `events_since`, in "
        "pairs with the first column's runs (each side first in every other pair; each run lasts "
        "a fixed CPU time, so the faster side plays more games); its last figure is what "
        "dropping the history gains (median of the paired ratios).",
        "",
        f"| configuration | random: decisions per {unit}, median (min–max) | games per {unit} "
        f"| random, events kept: decisions per {unit}, median (no-history gain) "
        "| random: decisions per wall-clock second, median "
        f"| heuristic: decisions per {unit} | replay verify: decisions per {unit} "
        "| other processes + steal during the random runs, cores (max) |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for label, r in configs.items():
        if "random_playout" not in r:
            why = r.get("skipped") or r.get("error") or "not measured"
            lines.append(f"| {label} | {_cell(why)} | | | | | | |")
            continue
        rp = r["random_playout"]
        has_cpu = "decisions_per_cpu_s" in rp
        mark = "" if has_cpu or not any(cpu) else " (wall clock)"
        d = rp["decisions_per_cpu_s"] if has_cpu else rp["decisions_per_s"]
        g = rp["games_per_cpu_s"] if has_cpu else rp["games_per_s"]
        hp = r.get("heuristic_playout", {})
        h = (hp.get("decisions_per_cpu_s" if has_cpu else "decisions_per_s") or {}).get("median")
        replay = r.get("replay_decisions_per_cpu_s" if has_cpu else "replay_decisions_per_s")
        kp = r.get("random_playout_keeping_events")
        kept = ("same as the first column (this file's playouts kept events)" if kp is None else
                f"{kp['decisions_per_cpu_s']['median']:,.0f} "
                f"({r['keeping_events_cost']:+.1%})")
        lines.append(
            f"| {label} | {d['median']:,.0f} ({d['min']:,.0f}–{d['max']:,.0f}){mark} "
            f"| {g['median']:,.1f}{mark} | {kept} "
            f"| {rp['decisions_per_s']['median']:,.0f} | {_fmt(h)}{mark if h is not None else ''} "
            f"| {_fmt(replay)}{mark if replay is not None else ''} "
            f"| {_fmt((rp.get('others_and_steal_cores') or {}).get('max'), '.2f')} |"
        )
    lines += [
        "",
        "## Flatness (does a decision cost more as the game grows?)",
        "",
        "Seeded random games (long-game options where listed in the README), the longest quarter "
        "pooled; CPU time of `Match.choose` per decision in the first and the last tenth of each "
        "game (the game-ending final decision left out; its cost is shown apart). Raw: mean of "
        "the pooled first tenths ÷ mean of the pooled last tenths. "
        "Mix-adjusted: the same per choice kind, for kinds present in both tenths, each weighted by "
        "its share of all pooled decisions. Below 1 means late decisions cost more. The interval: "
        "5th–95th percentile of the mix-adjusted figure over 400 resamples of the pooled games. "
        "Events per decision: how many events the engine emitted per decision in each tenth (how "
        "much rules work a decision set off); per event: CPU time per emitted event, first tenth "
        "÷ last tenth (near 1 when the engine does not get slower per unit of work as the state "
        "and its history grow, whatever the game does more of late). Work-matched: the "
        "mix-adjusted figure over cells of one choice kind *and* one number of events emitted "
        "(cells with at least 3 decisions in each tenth; their share of all pooled decisions in "
        "brackets): a late decision compared with an early one that set off as much rules work. "
        "Without history: the last tenth's decisions of each pooled game answered both in the "
        "match that played the game (every event kept) and in a copy made at the start of the "
        "last tenth (same state, no events or decisions kept), CPU time of the copy ÷ CPU time "
        "of the match (near 1 when nothing the match has done before costs a later decision). "
        "The target's verdict reads the work-matched and without-history figures "
        "(`benchmarks/README.md`, \"Reading the flatness target\").",
        "",
        "| configuration | games played → pooled (each ≥ decisions) | µs per decision first / last "
        "tenth | final decision µs | raw | mix-adjusted (90 % bootstrap interval) "
        "| kinds compared (share of decisions) | events per decision first / last tenth "
        "| per event: first ÷ last | work-matched (90 % interval; share) "
        "| without history (90 % interval) |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for label, r in configs.items():
        f = r.get("flatness_pooled")
        if not f:
            continue
        if not f["games_pooled"]:
            lines.append(f"| {label} | {f['games_played']} → 0 (longest {f['longest']}) | | | n/a "
                         "| n/a | | | | n/a | n/a |")
            continue
        lines.append(
            f"| {label} | {f['games_played']} → {f['games_pooled']} (≥ {f['min_decisions_pooled']}) "
            f"| {f['first_tenth_us']:.1f} / {f['last_tenth_us']:.1f} | {f['final_decision_us']:.0f} "
            f"| {_fmt(f['raw_first_over_last'], '.2f')} "
            f"| {_fmt(f['mix_adjusted_first_over_last'], '.3f')}{_interval(f)} "
            f"| {len(f['kinds_compared'])} ({_floor_pct(f['kinds_compared_share'])}) "
            f"| {_events_pair(f)} | {_fmt(f.get('per_event_first_over_last'), '.2f')} "
            f"| {_work_matched_cell(f)} | {_history_cell(f)} |"
        )
    growing = {label: r["flatness_pooled"] for label, r in configs.items()
               if (r.get("flatness_pooled") or {}).get("by_kind")
               and (r["flatness_pooled"]["mix_adjusted_first_over_last"] or 1.0) < 0.8}
    if growing:
        lines += [
            "",
            "Where the growth comes from, for each configuration whose mix-adjusted figure is below "
            "0.8: the choice kinds "
            "compared, largest share first (µs per decision and events per decision, first "
            "tenth → last tenth; first-tenth counts of a few decisions are noisy).",
            "",
            "| configuration | choice kind | share | µs per decision first → last | first ÷ last "
            "| events per decision first → last | decisions pooled first / last |",
            "| --- | --- | --- | --- | --- | --- | --- |",
        ]
        for label, f in growing.items():
            for kind, k in f["by_kind"].items():
                if k["share"] < 0.01:
                    continue
                ev = k["events_per_decision_first_last"]
                n = k["decisions_first_last"]
                lines.append(
                    f"| {label} | {kind} | {k['share']:.0%} | {k['first_us']:.0f} → "
                    f"{k['last_us']:.0f} | {k['first_us'] / k['last_us']:.2f} "
                    f"| {ev[0]:.1f} → {ev[1]:.1f} | {n[0]:,} / {n[1]:,} |")
    lines += [
        "",
        "## State copies and serialisation (mid-game match)",
        "",
        "State codec: the game's msgspec encoders and decoders of the state alone "
        "(`spec.codecs.mp_enc` / `mp_dec`, `json_enc` / `json_dec`), what `Match.clone` "
        "round-trips; the issue's encode / decode targets are read on these. Save / load: the "
        "public `Match.to_bytes()` / `Match.from_bytes()` of the whole match (a versioned envelope "
        "with the header and the list of decisions around the state; loading also checks the "
        "format and game versions and validates the state), and the size of the save.",
        "",
        "| configuration | cards | clone µs | deepcopy µs | clone × faster | pickle round trip µs "
        "| state codec encode / decode msgpack µs | state codec encode / decode JSON µs "
        "| state msgpack / JSON bytes | save `to_bytes` / load `from_bytes` µs (save bytes) "
        "| view µs |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for label, r in configs.items():
        if "clone_us" not in r:
            continue
        save = (f"{r['save_to_bytes_us']:.1f} / {r['load_from_bytes_us']:.1f} "
                f"({r['save_bytes']:,})" if "save_to_bytes_us" in r else "n/a")
        lines.append(
            f"| {label} | {r['midgame_cards']} | {r['clone_us']:.1f} | {r['deepcopy_us']:,.0f} "
            f"| {r['clone_speedup_vs_deepcopy']:.0f} | {r['pickle_roundtrip_us']:,.0f} "
            f"| {r['encode_msgpack_us']:.1f} / {r['decode_msgpack_us']:.1f} "
            f"| {r['encode_json_us']:.1f} / {r['decode_json_us']:.1f} "
            f"| {r['size_msgpack_bytes']:,} / {r['size_json_bytes']:,} | {save} "
            f"| {r['view_us']:.1f} |"
        )
    lines += [
        "",
        "## Memory and logging",
        "",
        "Logging off: each seeded game played four times in a row, CPU time, as shipped (A) and "
        "with the `debug_enabled()` check replaced by a builtin returning False (B), in the order "
        "A B B A or B A A B; rounds of such games; the median of the per-round overheads with "
        "quartiles. "
        "Direct: CPU cost of one check beyond that stand-in (tight loop) × decisions per "
        "CPU-second.",
        "",
        "Simulation memory: what the one worker process that plays the games with "
        "`simulate(..., keep_outcomes=False)` holds after a tenth, half and all of them: "
        "allocated blocks (`sys.getallocatedblocks`, after a garbage collection) and their "
        "growth per game over the second half (keeping each game's outcome would add 8–10), "
        "and the resident size now (RSS, KiB; the interpreter and the imported modules "
        "dominate it). Older files have the peak RSS only, which the module loading sets and "
        "which therefore hides growth.",
        "",
        "| configuration | one match peak KiB | simulation worker: blocks after 1/10 → 1/2 → all "
        "(per game, second half); RSS KiB after 1/10 → all "
        "| logging off: paired median (quartiles; rounds × games) | logging off: direct (ns per "
        "decision) |",
        "| --- | --- | --- | --- | --- |",
    ]
    for label, r in configs.items():
        if not any(k in r for k in ("one_match_peak_kib", "logging_off", "logging_off_overhead",
                                    "simulation_memory")):
            continue
        memory = _memory_cell(r.get("simulation_memory"))
        lo = r.get("logging_off")
        if "logging_off" not in r and "logging_off_overhead" not in r:
            paired = direct = "n/a"
        elif lo:
            p = lo["paired"]
            paired = (f"{p['median']:+.2%} ({p['q1']:+.2%} … {p['q3']:+.2%}; {p['n']} × "
                      f"{lo['games_per_round']})")
            direct = f"{lo['direct_estimate']:+.2%} ({lo['check_ns_per_decision']:.0f} ns)"
        else:
            paired, direct = f"{r['logging_off_overhead']:+.1%}", "n/a"
        lines.append(
            f"| {label} | {_fmt(r.get('one_match_peak_kib'))} | {memory} | {paired} | {direct} |"
        )
    lines += [
        "",
        "## Workers (`tcgcore.simulate`, wall clock)",
        "",
        "Games sized so that one worker takes a few seconds; 1- and 2-worker runs alternate, "
        "medians shown. CPU work: CPU seconds of the 2-worker run (parent and workers) ÷ those of "
        "the 1-worker run. Others: cores used by other processes plus cores stolen by the "
        "hypervisor during the 1-worker and the 2-worker runs (from /proc/stat, medians); the "
        f"speed-up can only be read when both are ≤ {_IDLE_ENOUGH_CORES} cores.",
        "",
        "| configuration | games per run × rounds | 1 → 2 workers games/s | speed-up median (min–max) "
        "| CPU work 2 ÷ 1 | others + steal, cores, 1 / 2 workers (max load) | readable |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for label, r in configs.items():
        if "simulate" not in r:
            continue
        sim = r["simulate"]
        if "speedups" not in sim:  # a result file from before these fields
            lines.append(f"| {label} | | {sim['workers_1_games_per_s']:,.1f} → "
                         f"{sim['workers_2_games_per_s']:,.1f} | {sim['speedup_2_over_1']:.2f}× "
                         "| | | |")
            continue
        busy = sim["others_and_steal_cores_during_2_workers"]
        busy_1 = sim.get("others_and_steal_cores_during_1_worker")
        loads = [x for x in sim["load_during_2_workers"] if x is not None]
        machine = (f"{statistics.median(busy_1):.2f} / {statistics.median(busy):.2f}"
                   if busy and busy_1 else "unknown")
        if loads:
            machine += f" (load {max(loads):.1f})"
        readable = {True: "yes", False: "no: machine busy", None: "unknown"}[sim["idle_enough"]]
        lines.append(
            f"| {label} | {sim['games']:,} × {sim['repeats']} | {sim['workers_1_games_per_s']:,.1f} → "
            f"{sim['workers_2_games_per_s']:,.1f} | {_near(sim['speedup_2_over_1'], 1.8, 2)}× "
            f"({min(sim['speedups']):.2f}–{max(sim['speedups']):.2f}) "
            f"| {sim['cpu_work_2_over_1']:.2f} | {machine} | {readable} |"
        )
    lines += ["", "## Peers, measured in the same run", ""]
    ps = results.get("peers") or {}
    for name in ("openspiel", "rlcard"):
        p = ps.get(name, {})
        if "skipped" in p:
            lines.append(f"- {name}: skipped ({p['skipped']})")
            continue
        if "error" in p:
            lines.append(f"- {name}: failed ({_cell(p['error'])})")
            continue
        for game, fig in p.items():
            if "error" in fig:
                lines.append(f"- {name} {game}: failed ({_cell(fig['error'])})")
                continue
            rate = fig.get("decisions_per_s") or fig.get("steps_per_s")
            extra = ""
            if "clone_us" in fig:
                extra = f", clone {fig['clone_us']:.1f} µs"
            if "serialize_us" in fig:
                extra += (f", serialize {fig['serialize_us']:.1f} µs / deserialize "
                          f"{fig['deserialize_us']:.1f} µs")
            unit = "decisions/s" if "decisions_per_s" in fig else "env steps/s"
            lines.append(f"- {name} {game}: {rate:,.0f} {unit} (wall clock){extra}")
    ratio_lines = []
    for label, r in configs.items():
        if "random_playout" not in r:
            continue
        ours = r["random_playout"]["decisions_per_s"]["median"]
        for name, p in ps.items():
            if "skipped" in p or "error" in p:
                continue
            for game, fig in p.items():
                rate = fig.get("decisions_per_s") or fig.get("steps_per_s")
                if rate:
                    ratio_lines.append(f"| {label} | {name} {game} | {ours / rate:.2f} |")
    if ratio_lines:
        lines += ["", "Peers are timed by the wall clock, so these ratios use tcgcore's wall-clock "
                  "figures from the same run. The ratios compare different games (a decision "
                  "in one is not the work of a step in another): they show orders of magnitude "
                  "only.", "",
                  "| tcgcore configuration | peer | tcgcore ÷ peer throughput (wall clock) |",
                  "| --- | --- | --- |", *ratio_lines]
    host = peers.host_speed(ps)
    lines += _host_lines(host)
    lines += _targets(configs)
    if baseline is not None:
        lines += _comparison(results, baseline)
    lines += [
        "",
        "Notes: mid-game means halfway through a seeded random game. Flatness, logging and the "
        "worker figures are defined in `benchmarks/README.md`.",
        "",
    ]
    return "\n".join(lines)


def _one_line(x: Any) -> str:
    """Free text (an error message) on one line."""
    return " ".join(str(x).split())


def _cell(x: Any) -> str:
    """Free text (an error message) made safe for one Markdown table cell or line."""
    return _one_line(x).replace("|", "\\|")


def _events_pair(f: dict[str, Any]) -> str:
    pair = f.get("events_per_decision_first_last")
    return f"{pair[0]:.1f} / {pair[1]:.1f}" if pair else "n/a"


def _memory_cell(sm: dict[str, Any] | None) -> str:
    """The simulation memory figure: blocks and RSS (older files: the peak RSS only)."""
    if sm is None:
        return "n/a"
    if "error" in sm:
        return f"{_cell(sm['error'])} ({sm['games']:,} games)"
    if "blocks_after_all" not in sm:  # a file from before the blocks were counted
        return (f"peak RSS {sm['peak_rss_kib_after_tenth']:,} → {sm['peak_rss_kib_after_all']:,} "
                f"({sm['games']:,} games; "
                f"{sm['peak_rss_kib_after_all'] - sm['peak_rss_kib_after_tenth']:+,} KiB)")
    per = sm["blocks_per_game_second_half"]
    per_text = "n/a" if per is None else f"{per:+.2f}"
    return (f"{sm['blocks_after_tenth']:,} → {sm['blocks_after_half']:,} → "
            f"{sm['blocks_after_all']:,} ({per_text} per game); RSS {sm['rss_kib_after_tenth']:,} "
            f"→ {sm['rss_kib_after_all']:,} ({sm['rss_growth_kib']:+,} KiB; {sm['games']:,} games)")


def _verdict_90(iv: list[float]) -> str:
    """The verdict on a 90 % interval against the 0.8 flatness bar."""
    return ("yes" if iv[0] >= 0.8 else "no" if iv[1] < 0.8 else
            "not measurable now (the interval straddles 0.8)")


def _flatness_target_row(label: str, f: dict[str, Any]) -> str:
    """The targets-table row of one configuration's ``flatness_pooled`` figures.

    The verdict reads the work-matched figure and the without-history figure (our reading
    of the issue's target, benchmarks/README.md "Reading the flatness target"): *yes* when
    both 90 % intervals lie at or above 0.8 and the work-matched cells cover at least
    :data:`_FLAT_MATCHED_MIN_SHARE` of the decisions, *no* when either interval lies wholly
    below, otherwise *not measurable* (also when an interval is missing or the coverage is
    short, whatever the other figure reads). A *yes* names the raw and mix-adjusted figures
    that are below 0.8. Result files written before the without-history figure existed (no
    ``history_free_over_full`` key) are read on the mix-adjusted figure, as they were then."""
    if not f["games_pooled"]:
        return (f"| {label} flatness ≥ 0.8 | no game of ≥ {_FLAT_MIN_DECISIONS} decisions "
                "| not measurable |")
    mix = f["mix_adjusted_first_over_last"]
    mix_text = "n/a" if mix is None else f"{mix:.3f}"
    raw = f"raw {_fmt(f['raw_first_over_last'], '.2f')}"
    games = f"{f['games_pooled']} game{'s' if f['games_pooled'] != 1 else ''}"
    if "history_free_over_full" not in f:  # a file from before the without-history figure
        name = "mix-adjusted"
        wm = f.get("work_matched_first_over_last")
        mix_iv = f.get("mix_adjusted_interval_90")
        if mix is None:
            shown, met = "n/a", "not measurable"
        else:
            shown = _near(mix, 0.8, 3) + (f", 90 % interval {_near(mix_iv[0], 0.8, 3)}–"
                                          f"{_near(mix_iv[1], 0.8, 3)}" if mix_iv else "")
            met = ("yes" if mix >= 0.8 else "no") if mix_iv is None else _verdict_90(mix_iv)
        others = raw + ("" if wm is None else f"; work-matched {wm:.3f}")
    else:
        name = "work-matched; same board without history"
        wm, wm_iv = f.get("work_matched_first_over_last"), f.get("work_matched_interval_90")
        hist, hist_iv = f["history_free_over_full"], f.get("history_interval_90")
        share = f.get("work_matched_share") or 0.0
        shown = ("work-matched n/a" if wm is None else
                 _near(wm, 0.8, 3) + ("" if wm_iv is None else
                                      f", 90 % interval {_near(wm_iv[0], 0.8, 3)}–"
                                      f"{_near(wm_iv[1], 0.8, 3)}")
                 + f" over {_floor_pct(share)} of decisions")
        shown += ("; without history n/a" if hist is None else
                  f"; without history {_near(hist, 0.8, 3)}" + (
                      "" if hist_iv is None else
                      f" ({_near(hist_iv[0], 0.8, 3)}–{_near(hist_iv[1], 0.8, 3)})"))
        others = f"mix-adjusted {mix_text}, {raw}"
        if wm_iv is None or hist_iv is None:
            failed = f.get("history_error")
            met = (f"not measurable (the without-history figure failed: {failed})" if failed
                   else "not measurable (a figure has no interval)")
        elif share < _FLAT_MATCHED_MIN_SHARE:
            met = (f"not measurable (the work-matched cells cover only {_floor_pct(share)} "
                   "of the decisions)")
        else:
            verdicts = {_verdict_90(wm_iv), _verdict_90(hist_iv)}
            below = [f"{figure} {x:.3f}" if figure == "mix-adjusted" else f"{figure} {x:.2f}"
                     for figure, x in (("raw", f["raw_first_over_last"]), ("mix-adjusted", mix))
                     if x is not None and x < 0.8]
            met = ("no" if "no" in verdicts else
                   "not measurable now (an interval straddles 0.8)" if verdicts != {"yes"} else
                   "yes" if not below else
                   f"yes on our reading ({' and '.join(below)}, which also "
                   f"count{'s' if len(below) == 1 else ''} the extra rules work of the game's "
                   f"late turns, {'is' if len(below) == 1 else 'are'} below 0.8)")
    if f["games_pooled"] < _FLAT_MIN_POOLED:
        met = (f"not measurable: only {games} pooled; run longer with --flat-seconds")
    return f"| {label} flatness ≥ 0.8 ({name}) | {shown} ({others}; {games}) | {met} |"


def _history_cell(f: dict[str, Any]) -> str:
    """The history figure and its interval; ``n/a`` in older files."""
    x = f.get("history_free_over_full")
    if x is None:
        return "n/a"
    iv = f.get("history_interval_90")
    return f"{x:.3f}" + (f" ({iv[0]:.3f}–{iv[1]:.3f})" if iv else "")


def _work_matched_cell(f: dict[str, Any]) -> str:
    """The work-matched flatness figure, its interval and coverage; ``n/a`` in older files."""
    x = f.get("work_matched_first_over_last")
    if x is None:
        return "n/a"
    iv = f.get("work_matched_interval_90")
    inner = f"{iv[0]:.3f}–{iv[1]:.3f}; " if iv else ""
    return f"{x:.3f} ({inner}{_floor_pct(f.get('work_matched_share', 0.0))})"


def _interval(f: dict[str, Any]) -> str:
    iv = f.get("mix_adjusted_interval_90")
    return f" ({iv[0]:.3f}–{iv[1]:.3f})" if iv else ""


def _floor_pct(share: float) -> str:
    """A share as a percentage with one decimal, rounded down (99.97 % is not shown as 100 %)."""
    return f"{math.floor(share * 1000 + 1e-9) / 10:.1f} %"


def _near(x: float, limit: float, digits: int, spec: str = "f", scale: float = 1.0) -> str:
    """``x × scale`` formatted with at least ``digits`` decimals, and more (up to 3 more) when
    needed so that the shown figure lies on the same side of ``limit × scale`` as ``x`` (a
    figure shown as 0.80 must not be 0.798 below a 0.8 target)."""
    v, lim = x * scale, limit * scale
    for d in range(digits, digits + 4):
        shown = round(v, d)
        if (shown >= lim) == (v >= lim) and (shown <= lim) == (v <= lim):
            break
    return format(v, f"{spec[:-1]}.{d}{spec[-1]}")


def _host_lines(host: dict[str, Any] | None) -> list[str]:
    """The "host speed" section: the peers of this run against their anchor figures
    (:func:`peers.host_speed`); nothing when no peer with an anchor ran."""
    if host is None:
        return []
    lines = ["", "## This host's speed, read on the peers", "",
             "The throughput targets were set beside anchor figures measured on this kind of "
             "machine (the issue quotes RLCard uno at about 54,000 steps/s and the pure-Python "
             "OpenSpiel games at 22,000–75,000 decisions/s). The peers of this run against "
             "those figures (a range covers a group of games reported as one range):", "",
             "| peer | this run (wall clock) | anchor | this run ÷ anchor |",
             "| --- | --- | --- | --- |"]
    for row in host["peers"]:
        low, high = row["anchor"]
        r_lo, r_hi = row["ratio"]
        anchor = f"{low:,.0f}" if low == high else f"{low:,.0f}–{high:,.0f}"
        ratio = f"{r_lo:.2f}" if low == high else f"{r_lo:.2f}–{r_hi:.2f}"
        lines.append(f"| {row['peer']} | {row['measured']:,.0f} | {anchor} | {ratio} |")
    factor = host["factor"]
    if factor is not None:
        lines += ["", f"Host factor {factor:.2f}: the median of the peers with a single anchor "
                  f"figure ({', '.join(host['basis'])}). A wall-clock ratio from one short sample "
                  "per peer, against anchors measured another day: context for reading the "
                  "absolute figures, not a reading of the host's phase, and not applied to "
                  "any target."]
    return lines


def _targets(configs: dict[str, Any]) -> list[str]:
    """The targets of issue #8, each met / not met / not measurable now."""
    lines = ["", "## Targets", "", "| target | figure | met |", "| --- | --- | --- |"]
    for label, goal in TARGETS.items():
        r = configs.get(label, {})
        if "random_playout" in r:
            rp = r["random_playout"]
            if "decisions_per_cpu_s" in rp:
                # one core's throughput: decisions per second of the core's time given to the
                # process; the wall-clock figure beside it shows how much others took meanwhile
                got = rp["decisions_per_cpu_s"]["median"]
                wall = rp["decisions_per_s"]["median"]
                others = (rp.get("others_and_steal_cores") or {}).get("max")
                busy = f", others took up to {others:.2f} cores" if others is not None else ""
                kp = r.get("random_playout_keeping_events")
                how = ("" if kp is None else
                       " without event history, as `simulate` plays (keeping every event: "
                       f"{kp['decisions_per_cpu_s']['median']:,.0f})")
                lines.append(f"| {label} random playout ≥ {goal:,} decisions/s on one core "
                             f"| {_near(got, goal, 0, ',f')} per CPU-second{how} ({wall:,.0f} "
                             f"per wall-clock second"
                             f"{busy}) | {'yes' if got >= goal else 'no'} |")
            else:  # a result file from before CPU time was measured
                got = rp["decisions_per_s"]["median"]
                lines.append(f"| {label} random playout ≥ {goal:,} decisions/s "
                             f"| {_near(got, goal, 0, ',f')} per wall-clock second (this file has "
                             f"no CPU-time figures) | {'yes' if got >= goal else 'no'} |")
    for label, r in configs.items():
        if "clone_us" not in r:
            continue
        enc, dec = r["encode_msgpack_us"], r["decode_msgpack_us"]
        save = (f"; public save `to_bytes` / load `from_bytes` {r['save_to_bytes_us']:.1f} / "
                f"{r['load_from_bytes_us']:.1f} µs, not the target's figure"
                if "save_to_bytes_us" in r else "")
        rounds = r.get("micro_rounds")
        if rounds:  # the best round decides; the median round shows how steady the host was
            n = rounds["clone_us"]["rounds"]
            clone_med = f" (median of {n} rounds {rounds['clone_us']['median']:.1f})"
            codec_med = (f" (medians {rounds['encode_msgpack_us']['median']:.1f} / "
                         f"{rounds['decode_msgpack_us']['median']:.1f})")
        else:  # a result file from before the interleaved rounds: best of three loops
            clone_med = codec_med = ""
        lines += [
            f"| {label} clone ≤ 50 µs and ≥ 20× deepcopy | {_near(r['clone_us'], 50, 1)} µs"
            f"{clone_med}, {_near(r['clone_speedup_vs_deepcopy'], 20, 0)}× "
            f"| {'yes' if r['clone_us'] <= 50 and r['clone_speedup_vs_deepcopy'] >= 20 else 'no'} |",
            f"| {label} encode ≤ 25 µs, decode ≤ 50 µs (state codec, msgpack) "
            f"| {_near(enc, 25, 1)} / {_near(dec, 50, 1)} µs{codec_med}{save} "
            f"| {'yes' if enc <= 25 and dec <= 50 else 'no'} |",
        ]
        f = r.get("flatness_pooled")
        if f is not None:
            lines.append(_flatness_target_row(label, f))
        lo = r.get("logging_off")
        if lo:
            p = lo["paired"]
            if p["q3"] < 0.02:
                met = "yes"
            elif p["q1"] >= 0.02:
                met = "no"
            elif p["median"] < 0.02 and lo["direct_estimate"] < 0.01:
                # the paired rounds are too noisy to decide alone; the direct measurement of
                # the check itself is far below the bar and the paired median agrees
                met = "yes (direct estimate; the paired quartiles are wide)"
            else:
                met = "not measurable now (noise: the quartiles straddle 2 %)"
            lines.append(f"| {label} logging off < 2 % | {_near(p['median'], 0.02, 2, '+f', 100)} % "
                         f"(quartiles {_near(p['q1'], 0.02, 2, '+f', 100)} % … "
                         f"{_near(p['q3'], 0.02, 2, '+f', 100)} %; direct "
                         f"{_near(lo['direct_estimate'], 0.01, 2, '+f', 100)} %) | {met} |")
        elif "logging_off_overhead" in r:  # a result file from before the paired measurement
            lines.append(f"| {label} logging off < 2 % "
                         f"| {_near(r['logging_off_overhead'], 0.02, 2, '+f', 100)} % (unpaired) "
                         f"| {'yes' if r['logging_off_overhead'] < 0.02 else 'no'} |")
        sm = r.get("simulation_memory")
        if sm is not None and "grows" in sm:
            per = sm["blocks_per_game_second_half"]
            grows = sm["grows"]
            verdict = (f"not measurable (fewer than {_MEM_MIN_GAMES:,} games)" if grows is None
                       else "no" if grows else "yes")
            lines.append(
                f"| {label} simulation memory does not grow with games "
                f"| {'n/a' if per is None else f'{per:+.2f}'} allocated blocks per game over "
                f"the second half of {sm['games']:,} games (RSS {sm['rss_growth_kib']:+,} KiB "
                f"from a tenth to all) "
                f"| {verdict} |")
        elif sm is not None and "error" in sm:
            lines.append(f"| {label} simulation memory does not grow with games "
                         f"| {_cell(sm['error'])} | not measured |")
        sim = r.get("simulate")
        if sim is None:  # the configuration failed before this figure
            continue
        s = sim["speedup_2_over_1"]
        if sim.get("idle_enough") is True:
            met = "yes" if s >= 1.8 else "no"
        elif sim.get("idle_enough") is False:
            busy = max(statistics.median(sim["others_and_steal_cores_during_2_workers"]),
                       statistics.median(sim.get("others_and_steal_cores_during_1_worker") or [0.0]))
            met = f"not measurable now (machine busy: {busy:.2f} cores taken by others)"
        else:
            met = "not measurable (the machine's load was not recorded)"
        lines.append(f"| {label} 2 workers ≥ 1.8× | {_near(s, 1.8, 2)}× | {met} |")
    for label, r in configs.items():  # a configuration that failed: its targets not measured
        if "error" not in r:
            continue
        at = r.get("failed_figure")
        why = f"failed at `{at}`" if at else "failed"
        for key, name in _TARGET_FIGURES:
            if key in r or (key == "random_playout" and label not in TARGETS):
                continue
            lines.append(f"| {label} {name} | not measured: the run of this configuration {why} "
                         f"| not measured |")
    return lines


#: the figure (results key) each target row reads, and the row's name
_TARGET_FIGURES: list[tuple[str, str]] = [
    ("random_playout", "random playout"),
    ("clone_us", "clone, encode and decode"),
    ("flatness_pooled", "flatness ≥ 0.8"),
    ("logging_off", "logging off < 2 %"),
    ("simulation_memory", "simulation memory does not grow with games"),
    ("simulate", "2 workers ≥ 1.8×"),
]


#: the full run's sizes and --quick's; an explicit flag wins over both
_FULL_SIZES: dict[str, Any] = {
    "repeats": 5, "seconds": 2.0, "sim_seconds": 6.0, "sim_repeats": 3, "flat_seconds": 10.0,
    "flat_games": 40, "log_rounds": 30, "log_round_seconds": 0.15, "mem_games": 10_000,
    "mem_seconds": None,
}
_QUICK_SIZES: dict[str, Any] = {
    "repeats": 2, "seconds": 0.5, "sim_seconds": 2.0, "sim_repeats": 2, "flat_seconds": 3.0,
    "flat_games": 12, "log_rounds": 12, "log_round_seconds": 0.1, "mem_games": 1_000,
    "mem_seconds": 5.0,
}


def _positive_int(text: str) -> int:
    """An argparse type: an integer ≥ 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number ≥ 1, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def _positive_float(text: str) -> float:
    """An argparse type: a finite number of seconds > 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds > 0, got {text!r}") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"must be a number of seconds > 0, got {text}")
    return value


class ResultsError(Exception):
    """A results JSON (``--baseline``, or ``--out`` with ``--render-only``) that cannot be used."""


def _load_results(path: str, what: str, *, full: bool) -> dict[str, Any]:
    """Read a results JSON written by this script and check its shape.

    ``full``: the file must be renderable (``machine``, ``when``, ``configs``); otherwise
    (a baseline) a JSON object with a ``configs`` object of objects is enough.

    Raises:
        ResultsError: the file is missing, unreadable, not JSON or of the wrong shape.
    """
    try:
        text = Path(path).read_text()
    except OSError as exc:
        raise ResultsError(f"{what} {path}: cannot read it ({exc.strerror or exc})") from None
    except UnicodeDecodeError:
        raise ResultsError(f"{what} {path}: not a text file") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ResultsError(f"{what} {path}: not valid JSON ({exc.msg}, line {exc.lineno})") from None
    if not isinstance(data, dict):
        raise ResultsError(f"{what} {path}: expected a JSON object written by benchmarks/run.py, "
                           f"found a {type(data).__name__}")
    if not isinstance(data.get("configs"), dict):
        raise ResultsError(f"{what} {path}: no \"configs\" object; not a results file of "
                           "benchmarks/run.py")
    for label, figures in data["configs"].items():
        # what rendering reads of each configuration (the before/after table reads only
        # numbers inside it, and leaves out whatever is missing or not a number)
        if not isinstance(figures, dict):
            raise ResultsError(f"{what} {path}: configs[{label!r}] is not an object (found "
                               f"{type(figures).__name__}); not a results file of "
                               "benchmarks/run.py")
    if full:
        machine = data.get("machine")
        if (not isinstance(machine, dict)
                or not all(k in machine for k in ("platform", "python", "cpus"))):
            raise ResultsError(f"{what} {path}: no \"machine\" object (platform, python, cpus); "
                               "not a results file of benchmarks/run.py")
        if not isinstance(data.get("when"), str):
            raise ResultsError(f"{what} {path}: no \"when\" field; not a results file of "
                               "benchmarks/run.py")
        if not isinstance(data.get("peers", {}), dict):
            raise ResultsError(f"{what} {path}: \"peers\" is not an object")
    return data


def _unwritable(path: str) -> str | None:
    """Why ``path`` cannot be written now (None when it can): a directory, a missing parent
    directory, an existing file that cannot be opened for writing, or a directory in which
    no file can be created.

    It tries rather than asks: ``os.access`` answers for the real user and says yes to root
    on directories that still refuse a new file (pseudo file systems, immutable or
    root-squashed directories), and a full run would measure for minutes before failing.
    An existing file is opened for appending (which changes nothing in it); for a new one,
    a probe file is created beside it and removed.
    """
    p = Path(path)
    if p.is_dir():
        return "is a directory"
    parent = p.parent
    if not parent.is_dir():
        return f"the directory {parent} does not exist"
    if p.exists():  # writing it truncates it in place: the directory's rights do not matter
        try:
            fd = os.open(p, os.O_WRONLY | os.O_APPEND | os.O_NONBLOCK)
        except OSError as exc:
            return f"the file is not writable ({exc.strerror or exc})"
        os.close(fd)
        return None
    try:
        fd, probe = tempfile.mkstemp(prefix=".tcgcore-bench-probe-", dir=parent)
    except OSError as exc:
        return f"the directory {parent} is not writable ({exc.strerror or exc})"
    os.close(fd)
    try:
        os.unlink(probe)
    except OSError:
        pass
    return None


def _same_file(a: str, b: str) -> bool:
    """Whether two paths name one file (after resolving symlinks; hard links too, when both
    exist)."""
    if os.path.realpath(a) == os.path.realpath(b):
        return True
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def _read_notes(path: str) -> str:
    """The text of a notes file (UTF-8 text).

    Raises:
        ResultsError: missing, a directory, unreadable, or not UTF-8 text.
    """
    try:
        data = Path(path).read_bytes()
    except IsADirectoryError:
        raise ResultsError(f"--notes {path}: is a directory") from None
    except FileNotFoundError:
        raise ResultsError(f"--notes {path}: no such file") from None
    except OSError as exc:
        raise ResultsError(f"--notes {path}: cannot read it ({exc.strerror or exc})") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = "\0"
    if "\0" in text:
        raise ResultsError(f"--notes {path}: not a UTF-8 text file")
    return text


def _write_or_fall_back(path: str, text: str, what: str) -> bool:
    """Write ``text`` to ``path``; on failure say so in one line, write it to a file in the
    temporary directory instead (when possible) and say where. True when ``path`` was written."""
    try:
        Path(path).write_text(text)
        return True
    except OSError as exc:
        reason = exc.strerror or str(exc)
    fd, fallback = tempfile.mkstemp(prefix="tcgcore-bench-", suffix=Path(path).suffix or ".txt")
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
    except OSError as exc:
        print(f"error: cannot write the {what} to {path} ({reason}), nor to {fallback} "
              f"({exc.strerror or exc})", file=sys.stderr)
        return False
    print(f"error: cannot write the {what} to {path} ({reason}); wrote it to {fallback} instead",
          file=sys.stderr)
    return False


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--configs", nargs="*", default=None, metavar="LABEL",
                        help=f"configurations to run (default all: {', '.join(map(repr, CONFIGS))}; "
                             "quote labels with spaces); fewer than all write partial.json and "
                             "partial.md under benchmarks/results by default")
    parser.add_argument("--repeats", type=_positive_int, default=None,
                        help="playout repeats (default 5; --quick 2)")
    parser.add_argument("--seconds", type=_positive_float, default=None,
                        help="CPU seconds per playout repeat (default 2; --quick 0.5)")
    parser.add_argument("--sim-seconds", type=_positive_float, default=None,
                        help="size the worker figure so that one worker takes about this long "
                             "(default 6; --quick 2)")
    parser.add_argument("--sim-repeats", type=_positive_int, default=None,
                        help="rounds of (1 worker, 2 workers), alternating (default 3; --quick 2)")
    parser.add_argument("--flat-seconds", type=_positive_float, default=None,
                        help="CPU seconds of games for the flatness figure (default 10; --quick 3)")
    parser.add_argument("--flat-games", type=_positive_int, default=None,
                        help="at least this many games for the flatness figure "
                             "(default 40; --quick 12)")
    parser.add_argument("--log-rounds", type=_positive_int, default=None,
                        help="paired rounds for the logging-off figure (default 30; --quick 12)")
    parser.add_argument("--log-round-seconds", type=_positive_float, default=None,
                        help="CPU seconds of games per side of a logging round "
                             "(default 0.15; --quick 0.1)")
    parser.add_argument("--mem-games", type=_positive_int, default=None,
                        help="at most this many games for the simulation memory figure "
                             "(default 10,000; --quick 1,000)")
    parser.add_argument("--mem-seconds", type=_positive_float, default=None,
                        help="... and at most about this many CPU seconds of them (at least 200 "
                             "games); default: no cap, so a full run plays all --mem-games "
                             "(the issue's 10,000-game simulation; minutes for the larger games); "
                             "--quick 5")
    parser.add_argument("--quick", action="store_true",
                        help="smaller default sizes: repeats 2 of 0.5 s, workers sized to 2 s × 2 "
                             "rounds, flatness 3 s, 12 logging rounds of 0.1 s, memory 1,000 "
                             "games or 5 s (flags given explicitly win)")
    parser.add_argument("--no-peers", action="store_true",
                        help="skip the peer engines (OpenSpiel, RLCard)")
    parser.add_argument("--out", default=None,
                        help="where to write the results JSON (with --render-only: read it); "
                             "default benchmarks/results/latest.json, or quick.json with --quick, "
                             "or partial.json with --configs naming fewer than all")
    parser.add_argument("--markdown", default=None,
                        help="where to write the Markdown report (not the --out file); default "
                             "docs/performance.md, or benchmarks/results/quick.md with --quick, "
                             "or benchmarks/results/partial.md with --configs naming fewer than "
                             "all (a quick look or a partial run does not replace the recorded "
                             "figures)")
    parser.add_argument("--baseline", default=None,
                        help="an earlier results JSON; adds a before/after table")
    parser.add_argument("--notes", default=None,
                        help="hand-written notes (UTF-8 text) copied into the markdown; default "
                             "benchmarks/notes.md when it exists; '' for none")
    parser.add_argument("--label", default="",
                        help="a name for this run, stored in the JSON (e.g. 'before issue 8')")
    parser.add_argument("--render-only", action="store_true",
                        help="measure nothing: rewrite the markdown from the --out JSON "
                             "(after editing the notes)")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Parse ``argv``, check every input and output up front, measure, write, summarise.

    Exit status: 0 done; 1 the run finished but something went wrong after measuring began
    (a configuration's figure failed, the report could not be rendered, or a file could not be
    written where asked and went to the temporary directory instead, when possible); 2 bad
    arguments or input files (nothing measured).
    """
    parser = _parser()
    args = parser.parse_args(argv)
    if args.configs is not None:
        if args.render_only:
            parser.error("--configs: not with --render-only (it renders every configuration "
                         "of the --out file)")
        unknown = [c for c in args.configs if c not in CONFIGS]
        if unknown:
            parser.error(f"--configs: unknown configuration {unknown[0]!r}; valid: "
                         f"{', '.join(map(repr, CONFIGS))} (quote labels with spaces)")
        if not args.configs:
            parser.error(f"--configs: name at least one of {', '.join(map(repr, CONFIGS))}")
        args.configs = list(dict.fromkeys(args.configs))  # each once, in the order given
    # a run of some configurations only is not the record: written beside it, like --quick
    partial = args.configs is not None and set(args.configs) != set(CONFIGS)
    results_dir = ROOT / "benchmarks" / "results"
    defaulted = []
    if args.out is None:
        name = "quick.json" if args.quick else "partial.json" if partial else "latest.json"
        args.out = str(results_dir / name)
        defaulted.append(args.out)
    if args.markdown is None:
        args.markdown = str(results_dir / "quick.md" if args.quick
                            else results_dir / "partial.md" if partial
                            else ROOT / "docs" / "performance.md")
        defaulted.append(args.markdown)
    if args.notes is None:  # the default notes file is optional
        default_notes = ROOT / "benchmarks" / "notes.md"
        args.notes = str(default_notes) if default_notes.exists() else ""
    if _same_file(args.out, args.markdown):
        parser.error(f"--markdown {args.markdown}: the same file as --out {args.out}; the "
                     "report would overwrite the results JSON")
    for flag, other, what in (("--baseline", args.baseline, "baseline run"),
                              ("--notes", args.notes, "hand-written notes")):
        if other and _same_file(other, args.markdown):
            parser.error(f"--markdown {args.markdown}: the same file as {flag} {other}; the "
                         f"report would overwrite the {what}")
        if other and not args.render_only and _same_file(other, args.out):
            parser.error(f"--out {args.out}: the same file as {flag} {other}; the results "
                         f"would overwrite the {what}")
    baseline: dict[str, Any] | None = None
    try:
        notes = _read_notes(args.notes) if args.notes else ""
        if args.baseline:
            baseline = _load_results(args.baseline, "--baseline", full=False)
        loaded = (_load_results(args.out, "--out", full=True) if args.render_only else None)
    except ResultsError as exc:
        parser.error(str(exc))
    outputs = [("--markdown", args.markdown)] + ([] if args.render_only else [("--out", args.out)])
    for flag, path in outputs:
        why = _unwritable(path)
        if why:
            parser.error(f"{flag} {path}: cannot write there ({why})")
    if loaded is not None:
        return _render(args, loaded, baseline, parser, notes)
    if partial and not args.quick and defaulted:
        print(f"note: --configs names only some configurations: writing {' and '.join(defaulted)}"
              " (ignored by git), not the recorded figures; give --out / --markdown to choose",
              file=sys.stderr)
    for key, value in (_QUICK_SIZES if args.quick else _FULL_SIZES).items():
        if getattr(args, key) is None:
            setattr(args, key, value)
    sizes = {"sim_s": args.sim_seconds, "sim_repeats": args.sim_repeats,
             "flatness_s": args.flat_seconds, "flatness_min_games": args.flat_games,
             "logging_rounds": args.log_rounds, "logging_round_s": args.log_round_seconds,
             "mem_games": args.mem_games, "mem_s": args.mem_seconds}
    installed = set(tcgcore.games())
    labels = args.configs or [k for k, v in CONFIGS.items() if v[0] in installed]
    results: dict[str, Any] = {
        "when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "quick": args.quick,
        "machine": {"platform": platform.platform(), "python": sys.version.split()[0],
                    "cpus": os.cpu_count()},
        "label": args.label,
        "sizes": {"repeats": args.repeats, "seconds": args.seconds, **sizes},
        "load": os.getloadavg()[0] if hasattr(os, "getloadavg") else None,
        "configs": {},
        "peers": {},
    }
    failed = False
    for label in labels:
        print(f"benchmarking {label} …", file=sys.stderr)
        if CONFIGS[label][0] not in installed:
            results["configs"][label] = {"skipped": f"the game {CONFIGS[label][0]!r} is not installed"}
            continue
        # one broken figure must lose neither the figures measured before it nor the other
        # configurations: keep them, say so now, and exit with status 1 at the end
        try:
            results["configs"][label] = bench_config(label, args.repeats, args.seconds, sizes)
            broken = (results["configs"][label].get("flatness_pooled") or {}).get("history_error")
            if broken:
                failed = True
                print(f"error: {label}: the without-history flatness figure failed ({broken}); "
                      "the other figures are kept", file=sys.stderr)
        except FigureError as exc:
            failed = True
            why = _one_line(f"{type(exc.cause).__name__}: {exc.cause}")
            results["configs"][label] = {**exc.partial, "error": f"{exc.figure}: {why}",
                                         "failed_figure": exc.figure}
            print(f"error: {label}: the figure {exc.figure} failed ({why}); the figures "
                  "measured before it are kept", file=sys.stderr)
        except Exception as exc:
            failed = True
            why = _one_line(f"{type(exc).__name__}: {exc}")
            results["configs"][label] = {"error": why, "failed_figure": None}
            print(f"error: {label}: failed ({why})", file=sys.stderr)
    if not args.no_peers:
        print("benchmarking peers …", file=sys.stderr)
        for engine, measure in (("openspiel", peers.openspiel), ("rlcard", peers.rlcard)):
            try:
                results["peers"][engine] = measure(args.seconds / 2)
            except Exception as exc:  # a broken peer install loses none of our figures
                results["peers"][engine] = {"error": _one_line(f"{type(exc).__name__}: {exc}")}
        for engine, figures in results["peers"].items():
            broken = ([("", figures["error"])] if "error" in figures else
                      [(f" {game}", fig["error"]) for game, fig in figures.items()
                       if isinstance(fig, dict) and "error" in fig])
            for game, why in broken:
                failed = True
                print(f"error: peer {engine}{game}: failed ({why}); the other figures are kept",
                      file=sys.stderr)
    if hasattr(os, "getloadavg"):  # the busier of the start and the end
        results["load"] = max(results["load"] or 0.0, os.getloadavg()[0])
    results["machine"]["compiled_modules"] = compiled_modules()
    if args.baseline:
        results["baseline"] = args.baseline
    json_ok = _write_or_fall_back(args.out, json.dumps(results, indent=2) + "\n", "results JSON")
    status = _render(args, results, baseline, parser, notes, json_written=json_ok)
    return 1 if failed or not json_ok else status


def compiled_modules() -> list[str]:
    """The imported tcgcore and game-plugin modules that ran compiled (for example the
    optional mypyc build of the Arkham rules, README "Compiled Arkham rules"), sorted; empty
    when everything ran interpreted (:func:`tcgcore.compiled_modules`). Recorded with each
    run, since a compiled build changes the figures."""
    return tcgcore.compiled_modules()


#: what rendering a damaged or hand-edited results file may raise
_RENDER_ERRORS = (KeyError, TypeError, ValueError, AttributeError, IndexError, OverflowError,
                  ZeroDivisionError)


def _render(args: argparse.Namespace, results: dict[str, Any], baseline: dict[str, Any] | None,
            parser: argparse.ArgumentParser, notes: str, *, json_written: bool = False) -> int:
    """Write the markdown for ``results`` (with the baseline and the notes, when given) and
    print a short summary: what was written where, and the targets.

    With ``--render-only`` a file that cannot be rendered is a bad input (exit status 2,
    naming the file at fault: the baseline when the report renders without it, else the
    ``--out`` file). After measuring (``json_written``: whether the results JSON reached
    ``--out``), a failure to render is reported and gives status 1, never 2: a bad baseline
    leaves the report without its before/after table, a failure in the results themselves
    leaves no report (the figures are in the JSON).
    """
    base_path = args.baseline or results.get("baseline")
    base_name = f"--baseline {args.baseline}"
    if baseline is None and isinstance(base_path, str) and base_path:
        # a baseline named inside a results file: optional, so a missing one is only a warning
        base_name = f"baseline {base_path} (named in the results)"
        try:
            baseline = _load_results(base_path, "baseline (named in the results)", full=False)
        except ResultsError as exc:
            print(f"warning: {exc}; no before/after table", file=sys.stderr)
    status = 0
    text: str | None
    try:
        text = _markdown(results, baseline, notes)
    except _RENDER_ERRORS as exc:
        why = f"{type(exc).__name__}: {exc}"
        text = None
        if baseline is not None:  # is the baseline at fault? then the results render alone
            try:
                text = _markdown(results, None, notes)
            except _RENDER_ERRORS:
                text = None
        if args.render_only:
            bad = base_name if text is not None else f"--out {args.out}"
            parser.error(f"{bad}: cannot render it ({why}); not a complete results file of "
                         "benchmarks/run.py?")
        where = (args.out if json_written else "the temporary file named above")
        if text is None:
            print(f"error: cannot render the Markdown report of this run ({why}); no report "
                  f"written; the measured figures are in {where}", file=sys.stderr)
            if json_written:
                print(f"wrote {args.out}")
            return 1
        print(f"error: {base_name}: cannot render the before/after table ({why}); the report "
              "has none", file=sys.stderr)
        status = 1
    ok = _write_or_fall_back(args.markdown, text, "Markdown report")
    wrote = [path for path, done in ((args.markdown, ok), (args.out, json_written)) if done]
    if wrote:  # only what reached the asked path; a fallback was named on stderr
        print("wrote " + " and ".join(wrote))
    print("\n".join(_targets(results["configs"])[1:]))
    return status if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
