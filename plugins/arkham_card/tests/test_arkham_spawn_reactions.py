"""Reactions to a spawn and automatic evasion, with another enemy about: Disc of Itzamna
(01041, "When a non-Elite enemy spawns at your location, discard Disc of Itzamna: discard
that enemy") discards the enemy that spawned, and Stray Cat (01076, evade a non-Elite
enemy) leaves an Elite one engaged (A412.3)."""

from __future__ import annotations

from typing import Any

from tcgcore_arkham_card import scenario
from tcgcore_arkham_card.testkit import activate_card as activate
from tcgcore_arkham_card.testkit import answer, codes_in, desc, enemy, investigator, kind, st

DECK = ["01089"] * 6


def _disc(rat: dict[str, Any]) -> Any:
    """Daisy Walker (01002) with Disc of Itzamna; the mythos phase draws a Ghoul that spawns
    at her location, where the Rat (``rat``) already is; she uses the Disc."""
    m = scenario(desc(investigator("01002", DECK, assets=["01041"]), phase="mythos", round=2,
                      encounter_deck=["t_ghoul"], enemies=[{"code": "t_rat", **rat}]))
    assert kind(m) == "use_trigger"
    answer(m, "yes")
    return m


def test_01041_disc_of_itzamna_discards_the_spawned_enemy_not_the_engaged_one() -> None:
    """The Rat is engaged with Daisy: the Ghoul is discarded, the Rat stays engaged."""
    m = _disc({"engaged": 0})
    assert codes_in(m, "encounter_discard") == ["t_ghoul"]
    assert st(m).cards[enemy(m, "t_rat")].zone == "threat.0"


def test_01041_disc_of_itzamna_discards_the_spawned_enemy_not_one_already_there() -> None:
    """The Rat is at her location, exhausted and unengaged: the Ghoul is discarded, the Rat
    stays where it is."""
    m = _disc({"location": "t_loc_a", "exhausted": True})
    assert codes_in(m, "encounter_discard") == ["t_ghoul"]
    assert st(m).cards[enemy(m, "t_rat")].zone.startswith("at.")


def test_01076_stray_cat_evades_the_non_elite_enemy_and_leaves_the_elite_one_engaged() -> None:
    """Roland Banks (01001) is engaged with the Ghoul Priest (01116, Elite) and a Ghoul;
    discarding Stray Cat evades the Ghoul only: it is exhausted and at the location, the
    Priest stays engaged and ready."""
    m = scenario(desc(investigator("01001", DECK, assets=["01076"]),
                      enemies=[{"code": "01116", "engaged": 0},
                               {"code": "t_ghoul", "engaged": 0}]))
    activate(m, "01076")
    ghoul, priest = st(m).cards[enemy(m, "t_ghoul")], st(m).cards[enemy(m, "01116")]
    assert ghoul.zone.startswith("at.") and ghoul.exhausted
    assert priest.zone == "threat.0" and not priest.exhausted
