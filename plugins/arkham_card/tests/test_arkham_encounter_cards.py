"""Encounter cards of The Gathering played against their printed text in the house of The
Gathering (Hallway 01112, Attic 01113, Cellar 01114, Parlor 01115): Flesh-Eater 01118 and
Icy Ghoul 01119 (spawn instructions, A601.1, A601.2; victory, A615.3) and Swarm of Rats
01159 (hunter, A605.1)."""

from __future__ import annotations

from typing import Any

from tcgcore_arkham_card import scenario
from tcgcore_arkham_card.testkit import answer, codes_in, enemy, kind, loc, st, where

DECK = ["t_guts"] * 12
HOUSE = [{"code": "01112"}, {"code": "01113"}, {"code": "01114"},
         {"code": "01115", "revealed": False}]


def _house(**kw: Any) -> dict[str, Any]:
    d: dict[str, Any] = {"investigators": [{"code": "t_inv_guard", "location": "01112",
                                            "deck": DECK}],
                         "locations": HOUSE}
    d.update(kw)
    return d


def test_A601_1_flesh_eater_spawns_in_the_attic_and_icy_ghoul_in_the_cellar() -> None:
    """Flesh-Eater 01118 ("Spawn – Attic") and Icy Ghoul 01119 ("Spawn – Cellar"), drawn in
    the mythos phase by the investigator in the Hallway, spawn at their locations,
    unengaged."""
    m = scenario(_house(phase="mythos", round=2, encounter_deck=["01118"]))
    assert where(m, enemy(m, "01118")) == loc(m, "01113")
    assert not st(m).cards[enemy(m, "01118")].zone.startswith("threat.")
    m = scenario(_house(phase="mythos", round=2, encounter_deck=["01119"]))
    assert where(m, enemy(m, "01119")) == loc(m, "01114")


def test_A601_2_flesh_eater_without_its_attic_is_discarded() -> None:
    """With the Attic not in play, Flesh-Eater 01118 finds no spawn location and is
    discarded."""
    m = scenario(_house(phase="mythos", round=2, encounter_deck=["01118"],
                        locations=[{"code": "01112"}, {"code": "01114"}]))
    assert codes_in(m, "encounter_discard") == ["01118"]


def test_A615_3_icy_ghoul_defeated_goes_to_the_victory_display() -> None:
    """Icy Ghoul 01119 (health 4, victory 1) with 3 damage, hit for 1: victory display."""
    m = scenario(_house(tokens=["+1"], enemies=[{"code": "01119", "engaged": 0,
                                                 "damage": 3}]))
    answer(m, f"fight:{enemy(m, '01119')}")
    assert codes_in(m, "victory") == ["01119"]


def test_A605_1_swarm_of_rats_hunts_the_investigator() -> None:
    """Swarm of Rats 01159 (Hunter) in the Cellar moves to the Hallway and engages the
    investigator there in the enemy phase."""
    m = scenario(_house(phase="enemy", enemies=[{"code": "01159", "location": "01114"}]))
    rats = enemy(m, "01159")
    assert st(m).cards[rats].zone == "threat.0" and where(m, rats) == loc(m, "01112")
    assert any(e.kind == "enemy_engaged" and e.card == rats
               for e in m.events_since(0, player="all"))


def test_A210_1_grasping_hands_deals_a_damage_per_point_failed() -> None:
    """Grasping Hands 01162: agility (3) test; Test Guardian (agility 2) with a -2 token
    fails by 3 and takes 3 damage."""
    m = scenario(_house(phase="mythos", round=2, tokens=["-2"], encounter_deck=["01162"]))
    assert st(m).inv[0].damage == 3 and st(m).inv[0].horror == 0
    assert codes_in(m, "encounter_discard") == ["01162"]


def test_A210_1_rotting_remains_deals_a_horror_per_point_failed() -> None:
    """Rotting Remains 01163: willpower (3) test; willpower 3 with a -1 token fails by 1:
    1 horror; with +0 it succeeds: nothing."""
    m = scenario(_house(phase="mythos", round=2, tokens=["-1"], encounter_deck=["01163"]))
    assert st(m).inv[0].horror == 1 and st(m).inv[0].damage == 0
    m = scenario(_house(phase="mythos", round=2, tokens=["0"], encounter_deck=["01163"]))
    assert st(m).inv[0].horror == 0


def test_A402_2_ancient_evils_places_doom_that_can_advance_the_agenda() -> None:
    """Ancient Evils 01166: 1 doom on the current agenda, which can make it advance: What's
    Going On?! (01105, 3 doom) with 1 doom gets 1 from the mythos step and 1 from Ancient
    Evils and advances to Rise of the Ghouls (01106)."""
    m = scenario(_house(phase="mythos", round=2, agendas=["01105", "01106"], agenda_doom=1,
                        encounter_deck=["01166", "01163", "01163"], tokens=["+1"] * 3))
    assert codes_in(m, "agendas")[0] == "01106"
    assert kind(m) == "choose_effect"  # agenda 1b's choice, while Ancient Evils resolves
    answer(m, "b")  # the lead takes 2 horror
    assert st(m).inv[0].horror == 2
    assert "01166" in codes_in(m, "encounter_discard")
