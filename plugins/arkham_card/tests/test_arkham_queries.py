"""Scenario tests of reads of the state in :mod:`tcgcore_arkham_card.queries`: massive
enemies counted as engaged, Haunted in a scenario with cards of its own, the act panel
without an act, ability conditions at their thresholds."""

from __future__ import annotations

from typing import Any

from tcgcore_arkham_card import scenario
from tcgcore_arkham_card.plugin import view_extra
from tcgcore_arkham_card.queries import skill_value
from tcgcore_arkham_card.testkit import desc, enemy, investigator, keys, loc, st

DECK = ["t_guts"] * 6


def inv(code: str = "t_inv_guard", **kw: Any) -> dict[str, Any]:
    return investigator(code, DECK, **kw)


def test_A412_1_only_a_ready_massive_enemy_at_your_location_may_be_evaded() -> None:
    """A412.1 with Massive (A611.1): a ready massive enemy at the investigator's location
    counts as engaged with them, so it may be evaded; an exhausted one does not, so it may
    not (it may still be fought, A413.1)."""
    for exhausted in (False, True):
        m = scenario(desc(inv(), enemies=[{"code": "t_brute", "location": "t_loc_a",
                                           "exhausted": exhausted}]))
        brute = enemy(m, "t_brute")
        assert (f"evade:{brute}" in keys(m)) is not exhausted
        assert f"fight:{brute}" in keys(m)


def test_haunted_lowers_each_skill_by_1_also_with_scenario_described_cards() -> None:
    """A Haunted treachery in the threat area gives -1 to each skill (the ``haunted``
    keyword), also in a scenario whose cards are its own (counted without the pool's code
    lookup): willpower 3 becomes 2, exactly one less."""
    haunt = {"code": "x_haunt", "name": "Haunt", "type_code": "treachery",
             "keywords": ["haunted"]}
    plain = scenario(desc(inv(), cards=[haunt]))
    haunted = scenario(desc(inv(threat=["x_haunt"]), cards=[haunt]))
    for skill in ("willpower", "intellect", "combat", "agility"):
        assert skill_value(st(haunted), 0, skill) == skill_value(st(plain), 0, skill) - 1


def test_A801_1_the_panel_needs_0_clues_when_there_is_no_act() -> None:
    """The public panel's clues needed (A801.1) with no act in play: 0, not a threshold."""
    m = scenario(desc(inv(), inv("t_inv_seeker"), acts=[]))
    panel = view_extra(st(m), 0)["act"]
    assert panel["code"] is None and panel["clues_needed"] == 0


def test_A981_3_downtown_heals_from_one_horror_on() -> None:
    """Downtown 01131 (Arkham Asylum): "Action: heal 3 horror" needs a horrified
    investigator (condition ``horrified``): offered with exactly 1 horror, not with 0."""
    for horror, offered in ((0, False), (1, True)):
        m = scenario({"investigators": [inv(location="01131", horror=horror)],
                      "locations": [{"code": "01131"}]})
        downtown = loc(m, "01131")
        assert (f"activate:{downtown}:0" in keys(m)) is offered


def test_A981_3_an_unknown_ability_condition_is_never_met() -> None:
    """An ability condition the rules do not know is false (documented in
    ``condition_met``): a scenario card's action with condition ``moonlit`` is not offered,
    the same action with condition ``deck`` (cards in deck) is."""
    def lamp(cond: str) -> dict[str, Any]:
        return {"code": "x_lamp", "name": "Lamp", "type_code": "asset", "cost": 0,
                "abilities": [{"kind": "action", "condition": cond,
                               "effects": [{"op": "gain_resources", "amount": 1}]}]}

    for cond, offered in (("moonlit", False), ("deck", True)):
        m = scenario(desc(inv(assets=["x_lamp"]), cards=[lamp(cond)]))
        assert (f"activate:{enemy(m, 'x_lamp')}:0" in keys(m)) is offered
