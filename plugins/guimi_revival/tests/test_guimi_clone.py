"""Clone independence for Guimi Revival: a clone and its original never change each other."""

from __future__ import annotations

from tcgcore.testing import clone_independence_check


def test_clone_and_original_stay_independent() -> None:
    points = clone_independence_check("guimi_revival", seeds=range(4), every=9)
    assert points > 20
