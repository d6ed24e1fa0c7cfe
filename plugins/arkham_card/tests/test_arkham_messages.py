"""Texts a person reads: log lines of card moves, deck and option error messages.

These change words only; the game itself (states, option keys, digests) is the same.
"""

from __future__ import annotations

import pytest
from tcgcore_arkham_card.cards import find_scenario, scenario_list
from tcgcore_arkham_card.decks import load_deck
from tcgcore_arkham_card.plugin import describe
from tcgcore_arkham_card.scenario_setup import scenario_names

import tcgcore


def _log(seed: int = 2) -> list[str]:
    match = tcgcore.new_match("arkham_card", seed=seed)
    agent = match.spec.agents[match.spec.default_agent]
    tcgcore.play_out(match, [agent(seed + s) for s in range(match.state.num_players)],
                     max_decisions=400)
    return [describe(match.state, ev) for ev in match.events_since(0, player="all")]


def test_card_moves_read_as_sentences() -> None:
    """Bookkeeping lines say what happened to the card, never ``WHO kind CARD``."""
    lines = _log()
    text = "\n".join(lines)
    for raw in (" asset played ", " entered play ", " moved ", " deck imported",
                " test ended", "phase ended", " ability used ", " enemy engaged "):
        assert raw not in text, raw
    assert "Roland Banks's deck is ready (33 cards)" in text
    assert "Roland Banks's deck is shuffled" in text
    assert any(line.endswith("enters Roland Banks's play area") for line in lines)
    assert any("Roland Banks now controls " in line for line in lines)
    assert any(line.startswith("  · End of the ") for line in lines)


def test_a_move_of_an_unknown_kind_names_both_zones() -> None:
    match = tcgcore.new_match("arkham_card", seed=1)
    event = tcgcore.Event(seq=0, kind="misplaced", player=0, code="01020",
                          src="hand.0", dst="encounter_discard")
    assert describe(match.state, event) == ("Machete (misplaced) goes from Roland Banks's hand "
                                            "to the encounter discard pile")
    moved = tcgcore.Event(seq=1, kind="moved", player=0, src="deck.0", dst="aside.0")
    assert describe(match.state, moved) == ("  · A card goes from Roland Banks's deck to Roland "
                                            "Banks's set-aside cards")


def test_a_guimi_toml_deck_is_described_not_quoted() -> None:
    text = '# my Guimi deck\nrevival = "rb_seer"\n\n[main]\nseer_b9 = 2\n'
    with pytest.raises(tcgcore.DeckError) as info:
        load_deck(text, "seat 0")
    assert "looks like a TOML (Guimi) deck list" in str(info.value)
    assert "rb_seer" not in str(info.value)
    with pytest.raises(tcgcore.DeckError, match="an ArkhamDB deck is a JSON object"):
        load_deck("[1, 2]")
    with pytest.raises(tcgcore.DeckError, match="'nobody' is neither a starter deck"):
        load_deck("nobody")


def test_same_investigator_twice_names_the_seats() -> None:
    with pytest.raises(tcgcore.OptionsError, match=r"seats 0 and 1 got the same investigator's "
                                                   r"deck \(Roland Banks\)"):
        tcgcore.new_match("arkham_card", seed=1, players=2,
                          decks=["roland", "roland"])
    with pytest.raises(tcgcore.OptionsError, match=r"repeats an investigator \(Daisy Walker, "
                                                   r"seats 0 and 1\)"):
        tcgcore.new_match("arkham_card", seed=1, players=2,
                          investigators=["01002", "01002"])


def test_scenarios_by_name_in_any_case() -> None:
    codes = scenario_names()
    for name, code in (("The Gathering", "01104"), ("gathering", "01104"),
                       ("THE MIDNIGHT MASKS", "01120"), ("midnight_masks", "01120"),
                       ("devourer below", "01142"), ("01142", "01142")):
        assert find_scenario(name, codes) == code, name
    assert find_scenario("nowhere", codes) is None and find_scenario("", codes) is None
    named = tcgcore.new_match("arkham_card", seed=4, scenario="The Gathering")
    coded = tcgcore.new_match("arkham_card", seed=4, scenario="01104")
    assert named.state.scenario == "01104" and named.view(0).zones == coded.view(0).zones
    with pytest.raises(tcgcore.OptionsError) as info:
        tcgcore.new_match("arkham_card", seed=1, scenario="innsmouth")
    assert scenario_list(codes) in str(info.value)
    assert "01104 (The Gathering), 01120 (The Midnight Masks), 01142 (The Devourer Below)" \
        in str(info.value)
