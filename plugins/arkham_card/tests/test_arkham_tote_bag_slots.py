"""Daisy's Tote Bag (01008): which hand assets a new one may displace (A203.4, A975.13).
The bag gives two more hand slots that only Tomes may fill; a Tome is offered for discard
only when the Tomes alone overfill those two bag slots."""

from __future__ import annotations

from typing import Any

from tcgcore_arkham_card import scenario
from tcgcore_arkham_card.testkit import desc, investigator, keys, kind, st
from tcgcore_arkham_card.testkit import play_card as play

DECK = ["01089"] * 6


def _discard_choice(assets: list[str], new: str) -> list[str]:
    """Daisy Walker (01002) with ``assets`` in play plays ``new`` from her hand: the codes
    of the assets the slot discard offers (sorted)."""
    m: Any = scenario(desc(investigator("01002", DECK, assets=assets, hand=[new],
                                        resources=10)))
    play(m, new)
    assert kind(m) == "slot_discard"
    codes = {f"asset:{c}": st(m).cards[c].code for c in st(m).zones["play.0"].cards}
    return sorted(codes[k] for k in keys(m))


def test_A975_13_one_tome_in_a_bag_slot_is_not_offered_when_a_third_hand_asset_arrives() -> None:
    """One Tome (Medical Texts 01035) sits in a bag slot, one of two: a third non-Tome hand
    asset overfills only the normal slots, so only the Flashlight (01087) and the Knife
    (01086) are offered, not the Tome (1 Tome < 2 bag slots)."""
    assert _discard_choice(["01008", "01087", "01086", "01035"], "01087") == \
        ["01086", "01087"]


def test_A975_13_a_fourth_tome_beyond_the_bag_makes_the_tomes_discardable_too() -> None:
    """Three Tomes and a Flashlight in play, a fourth Tome played: the four Tomes overfill
    the two bag slots (4 > 2), the overflow goes to the normal slots with the Flashlight
    (1 + 2 > 2), so every hand asset in play is offered, Tomes included."""
    assert _discard_choice(["01008", "01087", "01031", "01031", "01035"], "01035") == \
        ["01031", "01031", "01035", "01087"]


def test_A975_13_a_second_flashlight_fits_beside_a_tome_in_the_bag() -> None:
    """A Flashlight and a Tome in play, a second Flashlight played: the Tome takes a bag
    slot, the two Flashlights the two normal hand slots (2, not over 2), so nothing is
    discarded and both Flashlights are in play."""
    m: Any = scenario(desc(investigator("01002", DECK, assets=["01008", "01087", "01035"],
                                        hand=["01087"], resources=10)))
    play(m, "01087")
    assert kind(m) != "slot_discard"
    in_play = [st(m).cards[c].code for c in st(m).zones["play.0"].cards]
    assert sorted(in_play) == ["01002", "01008", "01035", "01087", "01087"]
