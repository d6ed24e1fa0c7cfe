"""Scenario tests of the shared state changes of :mod:`tcgcore_arkham_card.operations`:
the group's clue payment, readying at the end of a turn, the agenda's forced abilities,
"when the game ends" weaknesses, surge gained in a skill test's result, a revealed
location's clue count and the result's facts per investigator. Each checks the state (or
the words a person reads), at the boundary the rule draws."""

from __future__ import annotations

from typing import Any

from tcgcore_arkham_card import scenario
from tcgcore_arkham_card.testkit import (
    answer,
    codes_in,
    desc,
    enemy,
    events,
    investigator,
    kind,
    loc,
    st,
)

import tcgcore

DECK = ["t_guts"] * 6


def inv(code: str = "t_inv_guard", **kw: Any) -> dict[str, Any]:
    return investigator(code, DECK, **kw)


def _result(m: tcgcore.Match[Any]) -> tcgcore.Result:
    assert m.result is not None, "the match has not ended"
    return m.result


def test_A801_3_only_one_investigator_holds_clues_so_they_are_taken_without_a_question() -> None:
    """A801.3: the group pays 2 clues for the act; only investigator 1 holds any (3), so
    there is one way to pay: no ``spend_clues`` choice, 2 clues come off investigator 1 and
    the one without clues keeps 0. The result names each investigator with the resolution."""
    m = scenario(desc(inv(clues=0), inv("t_inv_seeker", clues=3), acts=["t_act_clues"],
                      enemies=[{"code": "t_ghoul", "engaged": 0}]))
    answer(m, "inv:0")
    answer(m, "advance_act")
    assert kind(m) != "spend_clues"
    assert [i.clues for i in st(m).inv] == [0, 1]
    detail = _result(m).detail
    assert detail["resolution"] == "R1"
    assert detail["Test Guardian"] == "R1" and detail["Test Seeker"] == "R1"


def test_A994_6_ready_at_turn_end_also_in_a_scenario_with_its_own_cards() -> None:
    """A994.6 (Umôrdhoth's "ready at the end of each investigator's turn"): an exhausted
    enemy with ``ready_turn_end`` readies when the turn ends, also when the scenario
    describes cards of its own (the lookup by code is skipped then: the enemy is one of them)."""
    beast = {"code": "x_beast", "name": "Beast", "type_code": "enemy", "enemy_fight": 9,
             "health": 9, "enemy_evade": 9, "keywords": ["ready_turn_end"]}
    m = scenario(desc(inv(), inv("t_inv_seeker"), cards=[beast],
                      enemies=[{"code": "x_beast", "location": "t_loc_d", "exhausted": True}]))
    beast_id = enemy(m, "x_beast")
    assert st(m).cards[beast_id].exhausted
    answer(m, "inv:0")
    answer(m, "end_turn")
    assert not st(m).cards[beast_id].exhausted


def test_A418_5_a_scenario_agendas_forced_ability_at_the_end_of_the_enemy_phase() -> None:
    """RR 3.4 / A418.5: the current agenda's forced ability "at the end of the enemy phase"
    resolves also for an agenda the scenario describes (not in the card pool): 2 resources
    for the lead, before upkeep's 1 (5 + 2 + 1 = 8; without the ability 6)."""
    agenda = {"code": "x_agenda", "name": "Long Night", "type_code": "agenda", "stage": 1,
              "doom": 9, "forced": {"enemy_phase_end": [{"op": "gain_resources", "amount": 2}]}}
    m = scenario(desc(inv(resources=5), agendas=["x_agenda"], cards=[agenda]))
    answer(m, "end_turn")
    assert st(m).turn == 2
    assert st(m).inv[0].resources == 8


def test_A974_1_cover_up_without_clues_gives_no_trauma_when_the_game_ends() -> None:
    """Cover Up 01007 (A974.1): "when the game ends, if there are any clues on Cover Up,
    suffer 1 mental trauma". Put in the threat area with no clues on it, the game ends (the
    agenda runs out) with no extra trauma; with clues on it the trauma comes (the test of
    Cover Up in test_arkham_core_cards)."""
    m = scenario(desc(inv("01001", threat=["01007"]), agendas=["t_agenda_short"],
                      agenda_doom=2))
    cover = enemy(m, "01007")
    assert st(m).cards[cover].counters.get("clues", 0) == 0
    answer(m, "end_turn")
    detail = _result(m).detail
    assert detail["resolution"] == "R2"
    assert "extra_trauma0" not in detail


def test_A612_2_surge_gained_in_a_failed_tests_result_draws_the_next_card() -> None:
    """A612.2: a treachery whose revelation is a test with surge only on failure (nothing on
    success) gains surge when the test fails: after it resolves, the next encounter card is
    drawn (Voices, into the threat area)."""
    trap = {"code": "x_trap", "name": "Trap", "type_code": "treachery",
            "revelation": [{"op": "test", "skill": "willpower", "difficulty": 9,
                            "on_fail": [{"op": "surge"}]}]}
    m = scenario(desc(inv(), phase="mythos", round=2, cards=[trap], tokens=["0"],
                      encounter_deck=["x_trap", "t_voices", "t_voices"]))
    if kind(m) == "commit":
        answer(m)
    assert "x_trap" in codes_in(m, "encounter_discard")
    assert codes_in(m, "threat.0") == ["t_voices"]
    assert codes_in(m, "encounter") == ["t_voices"]


def test_A211_2_a_location_without_clues_is_revealed_with_0_clues() -> None:
    """A211.2/A211.3: a location printed without clues is revealed with none: the log reads
    "... is revealed with 0 clue(s)" (the event's amount is the clues on it)."""
    room = {"code": "x_room", "name": "Bare Room", "type_code": "location", "shroud": 1,
            "clues": 0, "symbol": "r", "connections": ["t_loc_a"]}
    m = scenario({"investigators": [inv()], "cards": [room],
                  "locations": [{"code": "t_loc_a"}, {"code": "x_room", "revealed": False}]})
    bare = loc(m, "x_room")
    answer(m, f"move:{bare}")
    assert st(m).inv[0].location == bare
    assert st(m).cards[bare].counters.get("clues", 0) == 0
    revealed = [e for e in events(m, "location_revealed") if e.card == bare]
    assert [e.amount for e in revealed] == [0]
