"""Clone independence for Guimi Revival: a clone and its original never change each other."""

from __future__ import annotations

from tcgcore_guimi_revival.agents import HeuristicAgent

from tcgcore.testing import clone_independence_check


def test_clone_and_original_stay_independent() -> None:
    points = clone_independence_check("guimi_revival", seeds=range(4), every=9)
    assert points > 20


def test_clone_and_original_stay_independent_in_heuristic_games() -> None:
    """Heuristic players reach promotions, ascension and long battles more often."""
    points = clone_independence_check("guimi_revival", seeds=range(2), every=15,
                                      agents=lambda seed, seat: HeuristicAgent(seed * 2 + seat))
    assert points > 10
