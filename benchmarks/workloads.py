"""tcgcore's workloads: the games users run, as decisions per CPU-second.

A *runner* plays seeded games one after another and keeps its place between calls, so the
harness can interleave short samples of every workload (tcgcore's and the peers') in one
process: ``runner.run(seconds)`` plays on for that much CPU time and returns the decisions
made and the CPU seconds used (game set-up included, as users pay it).
"""

from __future__ import annotations

import os
import statistics
import time
from dataclasses import dataclass, field
from typing import Any

import tcgcore


@dataclass(frozen=True)
class Config:
    """One configuration: a game, its seat count (``None``: the game's default), its options
    and the options of its flatness games (longer games for a game whose default is short)."""

    label: str
    game: str
    players: int | None = None
    options: dict[str, Any] = field(default_factory=dict)
    flat_options: dict[str, Any] | None = None


CONFIGS = [
    Config("sparks", "sparks", flat_options={"copies": 40, "target": 1000}),
    Config("guimi_revival", "guimi_revival"),
    Config("arkham_card solo", "arkham_card", 1),
    Config("arkham_card 4p", "arkham_card", 4),
]

#: CPU seconds are read every this many decisions (a clock read costs about a microsecond)
_CHECK_EVERY = 8


def agent_name(config: Config) -> str:
    """The agent a user runs: the game's ``heuristic`` agent, or ``random`` for a game
    without one (Sparks has none)."""
    spec = tcgcore.default_registry().game(config.game)
    return "heuristic" if "heuristic" in spec.agents else "random"


class Runner:
    """Seeded games of ``config`` with ``agent`` in every seat, played on across calls.

    Game ``i`` uses match seed ``i`` and agent seeds ``31 * i + seat``; matches keep no
    event history (as :func:`tcgcore.simulate` plays them).
    """

    def __init__(self, config: Config, agent: str) -> None:
        self.config, self.agent = config, agent
        self.seed = -1
        self._new_game()

    def _new_game(self) -> None:
        self.seed += 1
        c = self.config
        self.match = tcgcore.new_match(c.game, seed=self.seed, players=c.players,
                                       keep_events=False, **c.options)
        self.agents = [tcgcore.make_agent(self.match.spec, self.agent, 31 * self.seed + s)
                       for s in range(self.match.state.num_players)]

    def run(self, seconds: float) -> tuple[int, float]:
        """Play for at least ``seconds`` of CPU time; returns ``(decisions, cpu_seconds)``."""
        clock = time.process_time
        decisions = 0
        start = clock()
        while True:
            for _ in range(_CHECK_EVERY):
                state = self.match.state
                if state.result is not None:
                    self._new_game()
                    state = self.match.state
                choice = state.pending
                assert choice is not None
                player = choice.player
                self.match.choose(player, self.agents[player].decide(self.match, choice))
                decisions += 1
            used = clock() - start
            if used >= seconds:
                return decisions, used


def midgame(config: Config, agent: str) -> tcgcore.Match[Any]:
    """The match halfway through the seeded game 2024 played by ``agent`` in every seat."""
    c = config
    full = tcgcore.new_match(c.game, seed=2024, players=c.players, keep_events=False,
                             **c.options)
    agents = [tcgcore.make_agent(full.spec, agent, 7 + s) for s in range(full.state.num_players)]
    tcgcore.play_out(full, agents)
    m = tcgcore.new_match(c.game, seed=2024, players=c.players, keep_events=False, **c.options)
    for d in full.decisions[: len(full.decisions) // 2]:
        m.choose(d.player, d.keys)
    return m


def decision_times(config: Config, agent: str, seed: int) -> list[float]:
    """One seeded game with the flatness options: the CPU seconds of each decision (the
    agent's ``decide`` and ``Match.choose``, which runs the engine to the next choice)."""
    c = config
    options = c.options if c.flat_options is None else c.flat_options
    m = tcgcore.new_match(c.game, seed=seed, players=c.players, keep_events=False, **options)
    agents = [tcgcore.make_agent(m.spec, agent, 31 * seed + s) for s in range(m.state.num_players)]
    clock = time.process_time
    out: list[float] = []
    state = m.state
    while state.result is None and len(out) < 100_000:
        choice = state.pending
        assert choice is not None
        start = clock()
        m.choose(choice.player, agents[choice.player].decide(m, choice))
        out.append(clock() - start)
    return out


#: a game shorter than this many decisions is left out of the flatness figure
FLAT_MIN_DECISIONS = 20


def flatness(config: Config, agent: str, seconds: float) -> dict[str, Any]:
    """Does a decision cost more late in a game than early?

    Plays seeded games (seeds 1000, 1001, ...) for ``seconds`` of CPU time (at least three
    games); of each game at least :data:`FLAT_MIN_DECISIONS` long, pools the CPU times of
    its first tenth of decisions and of its last tenth. ``value`` is the median of the last
    pool over the median of the first (µs per decision); lower is better, 1 is flat.
    """
    first: list[float] = []
    last: list[float] = []
    games = kept = 0
    start = time.process_time()
    while games < 3 or time.process_time() - start < seconds:
        times = decision_times(config, agent, 1000 + games)
        games += 1
        if len(times) < FLAT_MIN_DECISIONS:
            continue
        kept += 1
        tenth = len(times) // 10
        first += times[:tenth]
        last += times[-tenth:]
    if not first:
        return {"value": None, "games": games, "kept": 0}
    a, b = statistics.median(first) * 1e6, statistics.median(last) * 1e6
    return {"value": b / a, "first_us": a, "last_us": b, "games": games, "kept": kept}


def simulate_speedup(config: Config, agent: str, seconds: float, repeats: int) -> dict[str, Any]:
    """``tcgcore.simulate`` with one and with two workers, alternating, ``repeats`` times each;
    sized so one worker takes about ``seconds``. ``value``: the median over the pairs of
    (games per wall second with two workers ÷ with one). Needs two free cores, so the caller
    lifts the one-core pinning first."""
    c = config
    probe = Runner(c, agent)
    _, cpu = probe.run(0.3)
    per_game = max(probe.seed, 1)
    games = max(8, round(seconds * per_game / cpu))
    ratios: list[float] = []
    rates: dict[int, list[float]] = {1: [], 2: []}
    for r in range(repeats):
        pair: dict[int, float] = {}
        for workers in ((1, 2) if r % 2 == 0 else (2, 1)):
            t0 = time.perf_counter()
            tcgcore.simulate(c.game, games=games, players=c.players, options=c.options,
                             agents=[agent], workers=workers, keep_outcomes=False)
            pair[workers] = games / (time.perf_counter() - t0)
            rates[workers].append(pair[workers])
        ratios.append(pair[2] / pair[1])
    return {"value": statistics.median(ratios), "games": games, "ratios": ratios,
            "games_per_s_1": statistics.median(rates[1]),
            "games_per_s_2": statistics.median(rates[2]), "cpus": len(os.sched_getaffinity(0))}
