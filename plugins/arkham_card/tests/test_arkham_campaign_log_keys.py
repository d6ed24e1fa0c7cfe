"""Campaign-log keys across Night of the Zealot (A952.3, A980.7): each entry a scenario
writes is recorded by :func:`record_scenario`, handed to the next scenario by
:func:`scenario_options`, and read by that scenario's setup.

Every test goes the way the campaign runner goes: a scenario result (as the engine
reports it) -> ``record_scenario`` -> ``scenario_options`` -> ``new_match``.
"""

from __future__ import annotations

from typing import Any

import pytest
from tcgcore_arkham_card.campaign import (
    Campaign,
    has_entry,
    record_scenario,
    scenario_options,
)
from tcgcore_arkham_card.campaign_runner import start_campaign
from tcgcore_arkham_card.log_keys import (
    GOT_AWAY,
    HOUSE_BURNED,
    HOUSE_STANDING,
    PAST_MIDNIGHT,
    PRIEST_ALIVE,
)

import tcgcore

GHOUL_PRIEST = "01116"


def _result(resolution: str, **detail: tcgcore.Scalar) -> tcgcore.Result:
    return tcgcore.Result(winners=[], reason="resolution",
                          detail={"resolution": resolution, "victory": 0, "lead": 0, **detail})


def _after_gathering(resolution: str) -> Campaign:
    camp = start_campaign(["roland", "agnes"], seed=5)
    return record_scenario(camp, _result(resolution), scenario="01104")


def _match(camp: Campaign, scenario: str, seed: int = 0) -> tcgcore.Match[Any]:
    m = tcgcore.new_match("arkham_card", seed=seed, players=len(camp.investigators),
                          **scenario_options(camp, scenario))
    while m.pending is not None and m.pending.kind == "mulligan":
        m.choose(m.pending.player, [])
    return m


def _codes(m: tcgcore.Match[Any], zone: str) -> list[str]:
    state: Any = m.state
    return [state.cards[c].code for c in state.zones[zone].cards]


def _start(m: tcgcore.Match[Any]) -> set[str]:
    state: Any = m.state
    return {state.cards[i.location].code for i in state.inv}


@pytest.mark.parametrize("resolution", ["R-none", "R2", "R3"])
def test_A952_3_house_standing_starts_the_midnight_masks_at_your_house(resolution: str) -> None:
    camp = _after_gathering(resolution)
    assert has_entry(camp, HOUSE_STANDING) and not has_entry(camp, HOUSE_BURNED)
    m = _match(camp, "01120")
    assert _start(m) == {"01124"} and "01124" in _codes(m, "locations")


def test_A952_3_burned_house_starts_the_midnight_masks_at_rivertown() -> None:
    camp = _after_gathering("R1")
    assert has_entry(camp, HOUSE_BURNED)
    m = _match(camp, "01120")
    assert _start(m) == {"01125"} and "01124" not in _codes(m, "locations")


@pytest.mark.parametrize("resolution,alive", [("R-none", True), ("R1", False), ("R2", False),
                                              ("R3", True)])
def test_A952_3_ghoul_priest_alive_is_shuffled_into_both_later_scenarios(
        resolution: str, alive: bool) -> None:
    camp = _after_gathering(resolution)
    assert has_entry(camp, PRIEST_ALIVE) == alive
    for scenario in ("01120", "01142"):
        assert (GHOUL_PRIEST in _codes(_match(camp, scenario), "encounter")) == alive


def test_A952_2_A952_3_ghoul_priest_crossed_out_in_the_midnight_masks() -> None:
    camp = _after_gathering("R-none")
    camp = record_scenario(camp, _result("R1", cross_out=PRIEST_ALIVE), scenario="01120")
    assert not has_entry(camp, PRIEST_ALIVE) and PRIEST_ALIVE in camp.crossed
    assert PRIEST_ALIVE not in scenario_options(camp, "01142")["log"]
    assert GHOUL_PRIEST not in _codes(_match(camp, "01142"), "encounter")


@pytest.mark.parametrize("got_away,doom", [(0, 0), (1, 1), (2, 1), (3, 2), (4, 2), (5, 3),
                                           (6, 3)])
def test_A952_3_cultists_who_got_away_set_the_devourer_below_starting_doom(
        got_away: int, doom: int) -> None:
    codes = ["01121b", "01137", "01138", "01139", "01140", "01141"][:got_away]
    interrogated = [c for c in ("01137", "01138", "01139", "01140", "01141")
                    if c not in codes]
    log = "; ".join([f"cultists we interrogated: {c}" for c in interrogated]
                    + [f"{GOT_AWAY}{c}" for c in codes])
    camp = record_scenario(_after_gathering("R2"), _result("R1", log=log), scenario="01120")
    assert sum(e.startswith(GOT_AWAY) for e in camp.log) == got_away
    m = _match(camp, "01142")
    state: Any = m.state
    agenda = state.zones["agendas"].cards[0]
    assert state.cards[agenda].code == "01143"
    assert state.cards[agenda].counters.get("doom", 0) == doom


def test_A952_3_past_midnight_costs_two_cards_of_the_opening_hand() -> None:
    base = _after_gathering("R2")
    late = record_scenario(base, _result("R2", log=PAST_MIDNIGHT), scenario="01120")
    assert has_entry(late, PAST_MIDNIGHT)
    early = record_scenario(base, _result("R1"), scenario="01120")
    for seat in (0, 1):
        assert len(_codes(_match(late, "01142"), f"hand.{seat}")) == \
            len(_codes(_match(early, "01142"), f"hand.{seat}")) - 2


def test_A957_1_the_elder_thing_token_stays_for_the_rest_of_the_campaign() -> None:
    camp = start_campaign(["roland"], seed=2)
    m = _match(camp, "01142")
    state: Any = m.state
    assert state.bag.count("elder_thing") == 1
    tcgcore.play_out(m, {0: tcgcore.RandomAgent(1)}, max_decisions=20000)
    assert m.result is not None
    after = record_scenario(camp, m.result, scenario="01142")
    assert after.chaos_add == ["elder_thing"]
    again: Any = _match(after, "01142").state
    assert again.bag.count("elder_thing") == 1  # not added twice


def test_A956_8_a_weakness_gained_in_a_scenario_stays_in_the_deck() -> None:
    camp = start_campaign(["roland"], seed=2)
    size = len(camp.investigators[0].deck)
    after = record_scenario(camp, _result("R3", deck_add0="01096"), scenario="01142")
    assert after.investigators[0].deck.count("01096") == \
        camp.investigators[0].deck.count("01096") + 1
    assert len(after.investigators[0].deck) == size + 1
    assert "01096" in _codes(_match(after, "01120"), "deck.0") + _codes(
        _match(after, "01120"), "hand.0")


def test_A952_3_lita_earned_in_the_gathering_is_in_the_later_decks() -> None:
    camp = _after_gathering("R1")
    assert camp.investigators[0].story == ["01117"]
    options = scenario_options(camp, "01142")
    assert "01117" in options["decks"][0]
    m = _match(camp, "01142")
    assert "01117" in _codes(m, "deck.0") + _codes(m, "hand.0")
