"""Clone independence for Arkham: a clone and its original never change each other."""

from __future__ import annotations

import pytest

from tcgcore.testing import clone_independence_check


@pytest.mark.parametrize("players", [1, 4])
@pytest.mark.parametrize("scenario", ["test", "01104", "01120", "01142"])
def test_clone_and_original_stay_independent(players: int, scenario: str) -> None:
    points = clone_independence_check("arkham_card", seeds=range(3), players=players,
                                      options={"scenario": scenario}, every=3)
    assert points > 8
