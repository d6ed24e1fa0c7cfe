"""What the ``ismcts`` agent costs and how strong it is (``docs/agents.md``).

``measure(quick)`` returns ``{"rows": [{"name", "value", "unit"}, ...]}``: for Guimi
Revival and Arkham Horror (The Gathering, one investigator), the median over decision
points of the search's iterations per CPU second and CPU time per decision at a fixed
budget, and of one determinisation (``tcgcore.determinize``) and one clone. Method: the
decision points are every fifth decision with more than one option of heuristic-played
games (seeds 1.., 4 games, or 2 when ``quick``); at each, a fresh agent (seed 0, 100
iterations, or 40 when ``quick``, random rollouts of at most 20 decisions scored by the
game's ``evaluate``) decides once, timed with ``time.process_time``; samples and clones are
timed 50 at a time. Figures are medians of those per-point values.

``python benchmarks/measure_search.py --strength guimi_revival --games 40 --seconds 0.1``
plays the search against the game's heuristic, seats alternating, and prints the search's
score with its Wilson 95 % interval; ``--scenario-wins arkham_card --games 20 --players 1``
compares the scenario wins of the heuristic and of the search on the same seeds.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from typing import Any

import tcgcore
from tcgcore import ISMCTSAgent, Match, determinize, make_agent, play_out, wilson_interval

#: the games measured and the options of their matches
GAMES: dict[str, dict[str, Any]] = {"guimi_revival": {}, "arkham_card": {}}


def _points(game: str, games: int) -> list[Match[Any]]:
    """Clones of the match at every fifth decision with a real choice of heuristic games."""
    out: list[Match[Any]] = []
    for seed in range(1, games + 1):
        match = tcgcore.new_match(game, seed=seed, keep_events=False, **GAMES[game])
        seats = match.state.num_players
        agents = [make_agent(match.spec, "heuristic", seed * 10 + s) for s in range(seats)]
        count = 0
        while match.result is None and count < 3000:
            choice = match.pending
            assert choice is not None
            if len(choice.options) > 1 and count % 5 == 0:
                out.append(match.clone())
            match.choose(choice.player, agents[choice.player].decide(match, choice))
            count += 1
    return out


def _timed(fn: Any, repeat: int) -> float:
    start = time.process_time()
    for _ in range(repeat):
        fn()
    return (time.process_time() - start) / repeat


def measure(quick: bool = False) -> dict[str, Any]:
    """The search's figures (see the module text); ``quick`` measures fewer points."""
    rows: list[dict[str, Any]] = []
    iterations = 40 if quick else 100
    for game in GAMES:
        points = _points(game, 2 if quick else 4)
        if quick:
            points = points[::3]
        rates, per_decision, samples, clones = [], [], [], []
        for match in points:
            choice = match.pending
            assert choice is not None
            agent = ISMCTSAgent(0, iterations=iterations, depth=20)
            start = time.process_time()
            agent.decide(match, choice)
            spent = time.process_time() - start
            per_decision.append(spent)
            rates.append(agent.last_iterations / spent if spent > 0 else 0.0)
            rng = tcgcore.Rng.from_seed(1)
            seat = choice.player
            samples.append(_timed(lambda m=match, s=seat, r=rng: determinize(m, s, r), 50))
            clones.append(_timed(match.clone, 50))
        short = game.split("_")[0]
        rows += [
            {"name": f"{short}.ismcts_iterations_per_second",
             "value": round(statistics.median(rates), 1), "unit": "iterations/s"},
            {"name": f"{short}.ismcts_cpu_per_decision_{iterations}_iterations",
             "value": round(statistics.median(per_decision) * 1e3, 2), "unit": "ms"},
            {"name": f"{short}.determinize", "value": round(statistics.median(samples) * 1e6, 1),
             "unit": "us"},
            {"name": f"{short}.clone", "value": round(statistics.median(clones) * 1e6, 1),
             "unit": "us"},
            {"name": f"{short}.decision_points", "value": len(points), "unit": "count"},
        ]
    return {"rows": rows}


class _Timed:
    """The search agent, with the CPU time of its decisions added up."""

    def __init__(self) -> None:
        self.search: ISMCTSAgent | None = None
        self.cpu = 0.0
        self.decisions = 0

    def decide(self, match: Match[Any], choice: tcgcore.Choice) -> list[str]:
        assert self.search is not None
        start = time.process_time()
        keys = self.search.decide(match, choice)
        self.cpu += time.process_time() - start
        self.decisions += 1
        return keys


def strength(game: str, games: int, seconds: float, rollout: str = "random",
             depth: int = 20, opponents: str = "tree", first: int = 1) -> dict[str, Any]:
    """Play ``games`` games of the search (``seconds`` of CPU a decision) against the game's
    heuristic, seats alternating (match seeds first..first+games-1, the search in seat
    ``seed % 2``); the search's score (a win 1, a
    draw 0.5) with the Wilson 95 % interval of its wins, and the CPU per search decision."""
    wins = draws = 0
    timer = _Timed()
    for i in range(first - 1, first - 1 + games):
        match = tcgcore.new_match(game, seed=1 + i, keep_events=False, **GAMES[game])
        me = (1 + i) % 2
        timer.search = ISMCTSAgent(i, iterations=None, seconds=seconds, rollout=rollout,
                                   depth=depth, opponents=opponents)
        other = make_agent(match.spec, "heuristic", 1000 + i)
        agents: list[Any] = [other, other]
        agents[me] = timer
        result = play_out(match, agents)
        assert result is not None
        wins += me in result.winners
        draws += result.draw
        how = "won" if me in result.winners else "drew" if result.draw else "lost"
        print(f"seed {i + 1}: seat {me} {how} ({result.reason}, {len(match.decisions)} "
              f"decisions)", file=sys.stderr, flush=True)
    decisions, cpu = timer.decisions, timer.cpu
    _, low, high = wilson_interval(wins, games)
    return {"game": game, "games": games, "wins": wins, "draws": draws,
            "score": (wins + 0.5 * draws) / games, "wilson95": [low, high],
            "cpu_per_decision_s": cpu / max(decisions, 1), "decisions": decisions}


def scenario_wins(game: str, games: int, seconds: float, players: int = 1,
                  depth: int = 20, rollout: str = "random") -> dict[str, Any]:
    """Arkham: scenario wins (resolution R1 or R2) of ``games`` matches (seeds 1..games,
    ``players`` investigators) played by the heuristic and, on the same seeds, by the search
    (``seconds`` of CPU a decision) in every seat; rates with Wilson 95 % intervals."""
    out: dict[str, Any] = {"game": game, "games": games, "players": players}
    for name in ("heuristic", "ismcts"):
        won = 0
        for seed in range(1, games + 1):
            match = tcgcore.new_match(game, seed=seed, players=players, keep_events=False)
            agents: list[Any] = [
                ISMCTSAgent(seed * 10 + s, iterations=None, seconds=seconds, depth=depth,
                            rollout=rollout)
                if name == "ismcts" else make_agent(match.spec, "heuristic", seed * 10 + s)
                for s in range(players)]
            result = play_out(match, agents)
            assert result is not None
            resolution = str(result.detail.get("resolution", ""))
            won += resolution in ("R1", "R2")
            print(f"{name} seed {seed}: {resolution} ({result.reason})", file=sys.stderr,
                  flush=True)
        out[name] = wilson_interval(won, games)
    return out


def main(argv: list[str] | None = None) -> int:
    """``--strength GAME`` plays the strength check; otherwise prints :func:`measure`."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else "")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--strength", metavar="GAME")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seconds", type=float, default=0.1)
    parser.add_argument("--rollout", default="random")
    parser.add_argument("--depth", type=int, default=20)
    parser.add_argument("--opponents", default="tree")
    parser.add_argument("--first", type=int, default=1, help="first match seed")
    parser.add_argument("--scenario-wins", metavar="GAME")
    parser.add_argument("--players", type=int, default=1)
    args = parser.parse_args(argv)
    if args.scenario_wins:
        print(scenario_wins(args.scenario_wins, args.games, args.seconds, args.players,
                            args.depth, args.rollout))
    elif args.strength:
        print(strength(args.strength, args.games, args.seconds, args.rollout, args.depth,
                       args.opponents, args.first))
    else:
        for row in measure(args.quick)["rows"]:
            print(f"{row['name']:48} {row['value']:>12} {row['unit']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
