"""Scenario tests of what an investigator may activate in :mod:`tcgcore_arkham_card.abilities`:
a uses cost at exactly the uses left, Aloof with scenario-described cards and when engaged
with the first seat, an ability judged by its first effect, an enemy blanked by Mind Wipe
next to one that is not."""

from __future__ import annotations

from typing import Any

from tcgcore_arkham_card import scenario
from tcgcore_arkham_card.testkit import answer, desc, enemy, investigator, keys, kind, loc, st

DECK = ["t_guts"] * 6


def inv(code: str = "t_inv_guard", **kw: Any) -> dict[str, Any]:
    return investigator(code, DECK, **kw)


def test_A107_uses_cost_payable_with_exactly_the_uses_left() -> None:
    """An ability that spends 1 use is offered while the asset holds exactly 1 use, and no
    longer once it holds none (a uses cost, A981.3 / RR "Uses")."""
    lamp = {"code": "x_lamp", "name": "Lamp", "type_code": "asset", "cost": 0,
            "uses": {"type": "charge", "count": 1},
            "abilities": [{"kind": "action", "uses": 1,
                           "effects": [{"op": "gain_resources", "amount": 1}]}]}
    m = scenario(desc(inv(assets=["x_lamp"]), cards=[lamp]))
    lamp_id = enemy(m, "x_lamp")
    assert m.state.cards[lamp_id].counters.get("uses") == 1
    key = f"activate:{lamp_id}:0"
    assert key in keys(m)
    m.choose(0, key)
    assert m.state.cards[lamp_id].counters.get("uses", 0) == 0
    assert key not in keys(m)


def test_A604_2_an_unengaged_aloof_enemy_the_scenario_describes_cannot_be_fought() -> None:
    """Aloof (A604.2) on an enemy the scenario describes (not in the card pool): unengaged
    at the investigator's location it is no fight target, so the Test Pistol's fight
    ability (A904.2: no target, no use) is not offered; engaged with them, it is."""
    shy = {"code": "x_shy", "name": "Shy Thing", "type_code": "enemy", "enemy_fight": 1,
           "health": 1, "enemy_evade": 1, "keywords": ["aloof"]}
    for where, offered in (({"location": "t_loc_a"}, False), ({"engaged": 0}, True)):
        m = scenario(desc(inv(assets=["t_pistol"]), cards=[shy],
                          enemies=[{"code": "x_shy", **where}]))
        if not offered:
            assert f"fight:{enemy(m, 'x_shy')}" not in keys(m)
        assert (f"activate:{enemy(m, 't_pistol')}:0" in keys(m)) is offered


def test_A604_2_an_aloof_enemy_engaged_with_the_first_seat_can_be_fought() -> None:
    """Aloof (A604.2) keeps only an unengaged enemy out of the fight targets: the Test Shade
    engaged with investigator 0 (seat 0, not "no seat") is a target of the Test Pistol's
    fight ability."""
    m = scenario(desc(inv(assets=["t_pistol"]), enemies=[{"code": "t_shade", "engaged": 0}]))
    assert f"fight:{enemy(m, 't_shade')}" in keys(m)
    assert f"activate:{enemy(m, 't_pistol')}:0" in keys(m)


def test_A978_9_a_return_to_hand_ability_is_judged_by_its_first_effect() -> None:
    """Magnifying Glass (1)'s rule (A978.9): an ability whose first effect returns the card
    to hand is offered only where no clues are left, also when more effects follow it."""
    glass = {"code": "x_glass", "name": "Glass", "type_code": "asset", "cost": 0,
             "abilities": [{"kind": "fast", "effects": [
                 {"op": "return_to_hand"}, {"op": "gain_resources", "amount": 1}]}]}
    for clues, offered in ((2, False), (0, True)):
        m = scenario(desc(inv(assets=["x_glass"]), cards=[glass],
                          locations=[{"code": "t_loc_a", "clues": clues}]))
        assert (f"fast:{enemy(m, 'x_glass')}:0" in keys(m)) is offered


def test_A978_6_mind_wipe_01068_blanks_one_enemy_and_the_next_keeps_its_ability() -> None:
    """Mind Wipe (01068) played as the investigation phase begins blanks the first of two
    Talkers at the location (A978.6): its parley ability is no longer offered, while the
    second Talker, listed after it at the same location, still offers its own."""
    talker = {"code": "x_talker", "name": "Talker", "type_code": "enemy", "enemy_fight": 1,
              "health": 1, "enemy_evade": 1,
              "abilities": [{"kind": "action", "action": "parley",
                             "effects": [{"op": "gain_resources", "amount": 1}]}]}
    m = scenario(desc(inv("01004", hand=["01068"], resources=3), phase="investigation",
                      cards=[talker],
                      enemies=[{"code": "x_talker", "location": "t_loc_a", "exhausted": True},
                               {"code": "x_talker", "location": "t_loc_a", "exhausted": True}]))
    first, second = enemy(m, "x_talker", 0), enemy(m, "x_talker", 1)
    assert st(m).zones[f"at.{loc(m, 't_loc_a')}"].cards == [first, second]
    answer(m, "yes")
    assert kind(m) == "choose_enemy"
    answer(m, f"enemy:{first}")
    assert "blank" in st(m).cards[first].counters
    assert kind(m) == "action" and st(m).phase == "investigation"
    assert f"activate:{first}:0" not in keys(m)
    assert f"activate:{second}:0" in keys(m)
