"""Scenario tests of the round structure and trigger collection in
:mod:`tcgcore_arkham_card.rules`: doom removed from the first card when the agenda
advances, a spawn by trait, Ward of Protection's window for the second seat and only for
a treachery, a response card that can no longer be played when its window resolves."""

from __future__ import annotations

from typing import Any

from tcgcore_arkham_card import scenario
from tcgcore_arkham_card.testkit import (
    answer,
    codes_in,
    commit_none,
    desc,
    enemy,
    investigator,
    kind,
    loc,
    pending,
    st,
    where,
    who,
)

DECK = ["t_guts"] * 6


def inv(code: str = "t_inv_guard", **kw: Any) -> dict[str, Any]:
    return investigator(code, DECK, **kw)


def test_A803_1_advancing_the_agenda_removes_the_doom_on_card_0() -> None:
    """A803.1: all doom in play is removed when the agenda advances, also the doom on the
    first location (card id 0)."""
    m = scenario(desc(inv(), phase="mythos", round=2, agendas=["t_agenda1", "t_agenda_long"],
                      agenda_doom=2, locations=[{"code": "t_loc_a", "doom": 1}]))
    room = loc(m, "t_loc_a")
    assert room == 0
    assert codes_in(m, "agendas") == ["t_agenda_long"]
    assert "doom" not in st(m).cards[room].counters


def test_A601_1_an_enemy_spawns_at_the_location_with_its_spawn_trait() -> None:
    """A601.1 with "Spawn - Woods." (``trait:Woods``): the enemy drawn spawns at the one
    location with the trait."""
    woods = {"code": "x_woods", "name": "Dark Woods", "type_code": "location", "shroud": 1,
             "clues": 0, "symbol": "w", "traits": "Woods.", "connections": ["t_loc_a"]}
    lurker = {"code": "x_lurker", "name": "Lurker", "type_code": "enemy", "enemy_fight": 1,
              "health": 1, "enemy_evade": 1, "spawn": "trait:Woods"}
    m = scenario({"investigators": [inv()], "phase": "mythos", "round": 2,
                  "cards": [woods, lurker], "encounter_deck": ["x_lurker", "t_omen"],
                  "locations": [{"code": "t_loc_a"}, {"code": "x_woods"}]})
    assert where(m, enemy(m, "x_lurker")) == loc(m, "x_woods")


def test_A975_10_ward_of_protection_opens_for_the_second_seat_and_only_for_a_treachery() -> None:
    """Ward of Protection 01065 ("when you draw a non-weakness treachery"): investigator 1
    drawing Test Omen in the mythos phase is offered the Ward (their own window); an
    enemy drawn (Test Ghoul) offers no Ward window."""
    m = scenario(desc(inv(), inv("01004", hand=["01065"]), phase="mythos", round=2,
                      encounter_deck=["t_ghoul", "t_omen"]))
    assert kind(m) == "use_trigger" and who(m) == 1
    m2 = scenario(desc(inv("01004", hand=["01065"]), phase="mythos", round=2,
                       encounter_deck=["t_ghoul"]))
    assert kind(m2) != "use_trigger"
    assert codes_in(m2, "hand.0") == ["01065"]


def test_A913_1_evidence_01022_is_not_played_once_unaffordable_or_out_of_hand() -> None:
    """Evidence! (01022, cost 1, "after you defeat an enemy"): its window opens when the Goat
    is defeated with 1 resource left, but the Goat's forced "when defeated" ability (A902.1:
    forced first) then takes that resource, or discards the card from hand. Answering yes
    to the window afterwards plays nothing: the card stays where it is, the resources
    stay as they are and no clue is discovered."""
    for forced, resources, zone in (({"op": "lose_resources", "amount": 1}, 0, "hand.0"),
                                    ({"op": "discard_random", "amount": 1}, 1, "discard.0")):
        goat = {"code": "x_goat", "name": "Goat", "type_code": "enemy", "enemy_fight": 1,
                "health": 1, "enemy_evade": 1, "forced": {"defeated_here": [forced]}}
        m = scenario(desc(inv(hand=["01022"], resources=1), cards=[goat], tokens=["0"],
                          enemies=[{"code": "x_goat", "engaged": 0}]))
        answer(m, f"fight:{enemy(m, 'x_goat')}")
        commit_none(m)
        assert kind(m) == "order_triggers"
        assert (st(m).inv[0].resources, codes_in(m, zone)) == (resources, ["01022"])
        (evidence,) = [o.key for o in pending(m).options if "Evidence" in o.label]
        answer(m, evidence)
        answer(m, "yes")
        assert (st(m).inv[0].resources, codes_in(m, zone)) == (resources, ["01022"])
        assert st(m).inv[0].clues == 0
