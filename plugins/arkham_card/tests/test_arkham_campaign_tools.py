"""Campaign state files, the AI upgrade policy and ArkhamDB deck export (A979)."""

from __future__ import annotations

import json

import pytest
from tcgcore_arkham_card import card_pool
from tcgcore_arkham_card.campaign import (
    Campaign,
    CampaignInvestigator,
    new_campaign,
    record_scenario,
    scenario_options,
)
from tcgcore_arkham_card.campaign_tools import (
    CAMPAIGN_VERSION,
    export_deck,
    load_campaign,
    save_campaign,
    upgrade_policy,
)
from tcgcore_arkham_card.decks import DeckList, deck_problems, parse_deck, starter_deck

import tcgcore


def _starter(name: str) -> list[str]:
    deck = starter_deck(name)
    out: list[str] = []
    for code, n in deck.slots.items():
        out += ["01096" if code == "01000" else code] * n
    return out


def _roland(xp: int) -> Campaign:
    camp = new_campaign(["01001"], decks=[_starter("roland")])
    camp.investigators[0].xp = xp
    return camp


def test_A979_1_state_file_round_trip_and_version() -> None:
    camp = _roland(3)
    camp.log.append("your house is still standing")
    camp.investigators[0].mental = 1
    data = save_campaign(camp, ["01120", "01142"])
    back, remaining = load_campaign(data)
    assert back == camp and remaining == ["01120", "01142"]
    raw = json.loads(data)
    assert raw["version"] == CAMPAIGN_VERSION and raw["format"] == "tcgcore-arkham-campaign"
    raw["version"] = 99
    with pytest.raises(tcgcore.OptionsError, match="version 99"):
        load_campaign(json.dumps(raw))
    with pytest.raises(tcgcore.OptionsError):
        load_campaign(b"not json")
    with pytest.raises(tcgcore.OptionsError):
        load_campaign(json.dumps({"format": "other"}))


def test_A979_2_upgrade_policy_is_legal_and_deterministic() -> None:
    camp = _roland(10)
    up = upgrade_policy(camp, 0)
    inv = up.investigators[0]
    pool = card_pool()
    assert inv.xp < 10 and len(inv.deck) == len(camp.investigators[0].deck)
    # upgrades of cards already in the deck come first: Beat Cop (2), Magnifying Glass (1)
    assert "01028" in inv.deck and "01018" not in inv.deck
    assert "01040" in inv.deck and "01030" not in inv.deck
    assert any((pool[c].xp or 0) >= 3 for c in inv.deck)  # then the highest level affordable
    slots: dict[str, int] = {}
    for c in inv.deck:
        slots[c] = slots.get(c, 0) + 1
    assert deck_problems(DeckList(investigator="01001", slots=slots)) == []
    assert upgrade_policy(camp, 0) == up  # deterministic
    assert upgrade_policy(_roland(0), 0) == _roland(0)  # nothing to spend
    dead = _roland(5)
    dead.investigators[0].killed = True
    assert upgrade_policy(dead, 0) == dead


def test_A979_3_export_deck_is_an_arkhamdb_list() -> None:
    camp = upgrade_policy(_roland(4), 0)
    camp.investigators[0].story.append("01117")
    text = export_deck(camp, 0)
    deck = parse_deck(text)
    assert deck.investigator == "01001"
    assert sum(deck.slots.values()) == len(camp.investigators[0].deck) + 1
    assert deck.slots["01117"] == 1
    assert json.loads(text)["xp"] == camp.investigators[0].xp


def test_A979_4_gathering_then_upgrade_save_and_resume() -> None:
    camp = new_campaign(["01001"], decks=[_starter("roland")])
    opts = scenario_options(camp, "01104")
    m = tcgcore.new_match("arkham_card", seed=5, players=1, **opts)
    tcgcore.play_out(m, [tcgcore.make_agent(m.spec, "heuristic", 5)], max_decisions=3000)
    assert m.result is not None
    camp = record_scenario(camp, m.result, scenario="01104")
    assert camp.played and camp.played[0].startswith("01104:")
    camp = upgrade_policy(camp, 0)
    back, remaining = load_campaign(save_campaign(camp, ["01104"]))
    assert back == camp and remaining == ["01104"]
    m2 = tcgcore.new_match("arkham_card", seed=6, players=1,
                           **scenario_options(back, remaining[0]))
    assert m2.pending is not None


def test_campaign_investigator_struct_defaults() -> None:
    inv = CampaignInvestigator(code="01001", deck=[])
    assert inv.xp == 0 and not inv.killed
