"""Turn options through the general path, the one taken when a scenario description defines
cards of its own (``cards``): On the Lam's timing and unique assets (A108.1, A202, A975.13)."""

from __future__ import annotations

from typing import Any

from tcgcore_arkham_card import scenario
from tcgcore_arkham_card.testkit import answer, desc, enemy, investigator, keys, st

DECK = ["t_guts"] * 6

#: A card only the description defines: with it the rules look every definition up by card
#: (the general path) instead of using the tables built from the card pool.
_OWN_CARD: dict[str, Any] = {"code": "x_note", "name": "Scribbled Note",
                             "type_code": "treachery",
                             "revelation": [{"op": "lose_resources", "amount": 1}]}


def _own(*invs: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return desc(*invs, cards=[_OWN_CARD], **extra)


def test_A975_13_with_scenario_cards_on_the_lam_waits_for_no_action_but_an_asset_does_not() -> None:
    """On the Lam 01010 is played only as the turn begins, before an action; an ordinary
    asset (Test Knife, cost 1) stays playable after an action (A202: only its cost limits
    it). Checked with scenario-defined cards in play, so through the general path."""
    m = scenario(_own(investigator("01003", DECK, hand=["01010", "t_knife"])))
    assert st(m).extra_defs
    lam, knife = enemy(m, "01010"), enemy(m, "t_knife")
    assert f"fastplay:{lam}" in keys(m) and f"play:{knife}" in keys(m)
    answer(m, "resource")
    assert st(m).inv[0].actions == 2
    assert f"fastplay:{lam}" not in keys(m)
    assert f"play:{knife}" in keys(m)
    answer(m, f"play:{knife}")
    assert knife in st(m).zones["play.0"].cards


def test_A108_1_with_scenario_cards_a_second_copy_of_a_unique_asset_is_not_offered() -> None:
    """Test Librarian is unique: while one copy is in play, the copy in hand is not offered;
    with none in play it is (general path, scenario-defined cards in play)."""
    blocked = scenario(_own(investigator("t_inv_guard", DECK, hand=["t_friend"],
                                         assets=["t_friend"])))
    assert st(blocked).extra_defs
    in_hand = st(blocked).zones["hand.0"].cards[0]
    assert st(blocked).cards[in_hand].code == "t_friend"
    assert st(blocked).inv[0].resources >= 3
    assert f"play:{in_hand}" not in keys(blocked)
    free = scenario(_own(investigator("t_inv_guard", DECK, hand=["t_friend"])))
    assert f"play:{enemy(free, 't_friend')}" in keys(free)
