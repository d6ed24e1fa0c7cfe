"""Clone independence for Arkham: a clone and its original never change each other."""

from __future__ import annotations

import pytest
from tcgcore_arkham_card import HeuristicAgent

from tcgcore.testing import clone_independence_check


@pytest.mark.parametrize("players", [1, 4])
@pytest.mark.parametrize("scenario", ["test", "01104", "01120", "01142"])
def test_clone_and_original_stay_independent(players: int, scenario: str) -> None:
    points = clone_independence_check("arkham_card", seeds=range(3), players=players,
                                      options={"scenario": scenario}, every=3)
    assert points > 8


@pytest.mark.parametrize("players", [1, 3])
def test_clone_and_original_stay_independent_in_heuristic_games(players: int) -> None:
    """Heuristic investigators fight, investigate and advance acts: later, rarer positions."""
    points = clone_independence_check(
        "arkham_card", seeds=range(2), players=players, every=6,
        agents=lambda seed, seat: HeuristicAgent(seed * 4 + seat))
    assert points > 8
