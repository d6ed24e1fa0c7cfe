"""An empty deck is rebuilt from the discard pile (A907.1, A907.2): the discard pile is
shuffled into a new deck. The order is checked, not only the event."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from tcgcore_arkham_card import scenario
from tcgcore_arkham_card.testkit import answer, codes_in, desc, investigator, st

import tcgcore

DISCARD = ["t_guts", "t_perception", "t_courage", "t_overpower", "t_knife"]


def _draw_from_empty_deck(seed: int) -> tcgcore.Match[Any]:
    m = scenario(desc(investigator("t_inv_guard", [], discard=list(DISCARD))), seed=seed)
    answer(m, "draw")
    return m


def _new_order(m: tcgcore.Match[Any]) -> list[str]:
    """The rebuilt deck's order from the top: the card drawn, then the deck."""
    return codes_in(m, "hand.0") + codes_in(m, "deck.0")


def test_A907_1_the_rebuilt_deck_is_the_discard_pile_shuffled() -> None:
    """A907.1: the new deck holds exactly the discard pile, in an order of the shuffle, not
    the discard pile's order; the investigator takes 1 horror (A907.2)."""
    m = _draw_from_empty_deck(seed=1)
    order = _new_order(m)
    assert sorted(order) == sorted(DISCARD) and codes_in(m, "discard.0") == []
    assert order != DISCARD
    assert st(m).inv[0].horror == 1


def test_A907_1_every_card_can_reach_every_position_of_the_rebuilt_deck() -> None:
    """A907.1 statistically: over 60 seeds each of the five discarded cards ends up at each of
    the five positions of the new deck (top included) at least once."""
    where: dict[str, set[int]] = defaultdict(set)
    orders = set()
    for seed in range(60):
        order = _new_order(_draw_from_empty_deck(seed))
        orders.add(tuple(order))
        for pos, code in enumerate(order):
            where[code].add(pos)
    assert {code: sorted(p) for code, p in where.items()} == {
        code: list(range(len(DISCARD))) for code in DISCARD}
    assert len(orders) > 30  # 120 orders are possible; a fixed or rotated order gives few


def test_A907_2_nothing_to_rebuild_from_still_costs_one_horror() -> None:
    """A907.2 at the edge: an empty deck and an empty discard pile draw nothing, and the
    investigator still takes the 1 horror; the last card of a deck is drawn without a
    rebuild and without horror."""
    m = scenario(desc(investigator("t_inv_guard", [], discard=[])))
    answer(m, "draw")
    assert codes_in(m, "hand.0") == [] and codes_in(m, "deck.0") == []
    assert st(m).inv[0].horror == 1
    m = scenario(desc(investigator("t_inv_guard", ["t_guts"], discard=["t_knife"])))
    answer(m, "draw")
    assert codes_in(m, "hand.0") == ["t_guts"] and codes_in(m, "deck.0") == []
    assert codes_in(m, "discard.0") == ["t_knife"] and st(m).inv[0].horror == 0
