"""Campaign mode: log, trauma, experience, deck upgrades (A951–A957)."""

from __future__ import annotations

import pytest
from tcgcore_arkham_card import (
    add_chaos_token,
    available_investigators,
    buy_card,
    check_lost,
    cross_out,
    has_entry,
    new_campaign,
    record_entry,
    record_scenario,
    replace_investigator,
    scenario_options,
)
from tcgcore_arkham_card.testkit import st

import tcgcore


def res(resolution: str = "R1", victory: int = 0, **trauma: str) -> tcgcore.Result:
    detail: dict[str, tcgcore.Scalar] = {"resolution": resolution, "victory": victory}
    detail.update(trauma)
    return tcgcore.Result(winners=[0, 1], reason="resolution", detail=detail)


def test_A951_1_A951_2_campaign_carries_over_and_keeps_difficulty() -> None:
    camp = new_campaign(["t_inv_guard", "t_inv_seeker"], difficulty="hard")
    opts = scenario_options(camp)
    m = tcgcore.new_match("arkham_card", seed=1, players=2, **opts)
    assert st(m).difficulty == "hard" and len(st(m).bag) == 17
    camp = record_scenario(camp, res("R1", 1, trauma0="physical"))
    opts2 = scenario_options(camp)
    assert opts2["difficulty"] == "hard" and opts2["trauma"] == [[1, 0], [0, 0]]
    m2 = tcgcore.new_match("arkham_card", seed=2, players=2, **opts2)
    assert st(m2).inv[0].damage == 1  # A953.2


def test_A952_1_A952_2_log_entries_and_crossing_out() -> None:
    camp = record_entry(new_campaign(["t_inv_guard"]), "the house still stands")
    assert has_entry(camp, "the house still stands")
    camp = cross_out(camp, "the house still stands")
    assert not has_entry(camp, "the house still stands")


def test_A953_1_A953_3_trauma_accumulates_and_kills() -> None:
    camp = new_campaign(["t_inv_seeker"])  # health 5
    for _ in range(4):
        camp = record_scenario(camp, res(trauma0="physical"))
    assert camp.investigators[0].physical == 4 and not camp.investigators[0].killed
    camp = record_scenario(camp, res(trauma0="physical"))
    assert camp.investigators[0].killed and "t_inv_seeker" in camp.retired


def test_A953_4_mental_trauma_drives_insane() -> None:
    camp = new_campaign(["t_inv_guard"])  # sanity 5
    for _ in range(5):
        camp = record_scenario(camp, res(trauma0="mental"))
    assert camp.investigators[0].insane


def test_A954_1_A954_2_A954_3_replacement_investigator() -> None:
    camp = new_campaign(["t_inv_seeker"])
    with pytest.raises(tcgcore.DeckError):
        replace_investigator(camp, 0, "t_inv_rogue")  # still able to play
    for _ in range(5):
        camp = record_scenario(camp, res(trauma0="physical"))
    with pytest.raises(tcgcore.DeckError):
        replace_investigator(camp, 0, "t_inv_seeker")  # A954.1: cannot be used again
    with pytest.raises(tcgcore.DeckError):
        replace_investigator(camp, 0, "t_inv_rogue", ["t_pistol2"])  # level 0 only
    new = replace_investigator(camp, 0, "t_inv_rogue")
    inv = new.investigators[0]
    assert (inv.code, inv.xp, inv.physical, inv.mental) == ("t_inv_rogue", 0, 0, 0)
    assert "t_inv_seeker" not in available_investigators(new)
    assert not check_lost(camp).lost
    camp.retired += ["t_inv_guard", "t_inv_rogue", "t_inv_mystic", "01001", "01002", "01003",
                     "01004", "01005"]
    assert available_investigators(camp) == [] and check_lost(camp).lost


def test_A955_1_A955_2_A955_3_experience_for_everyone_banked() -> None:
    camp = new_campaign(["t_inv_guard", "t_inv_seeker"])
    camp = record_scenario(camp, res("R1", victory=3, trauma1="mental"))
    assert [i.xp for i in camp.investigators] == [5, 5]  # 3 + R1 bonus 2, not divided
    camp = record_scenario(camp, res("R2", victory=1))
    assert [i.xp for i in camp.investigators] == [6, 6]


def test_A956_1_A956_3_buying_costs_level_min_one_and_keeps_size() -> None:
    camp = new_campaign(["t_inv_guard"])
    camp = record_scenario(camp, res("R1", victory=0))  # 2 xp
    size = len(camp.investigators[0].deck)
    with pytest.raises(tcgcore.DeckError):
        buy_card(camp, 0, "t_cache1")  # must name a card to remove
    camp2 = buy_card(camp, 0, "t_cache1", remove="t_guts")
    assert len(camp2.investigators[0].deck) == size and camp2.investigators[0].xp == 1
    camp3 = buy_card(camp2, 0, "t_knife", remove="t_perception")
    assert camp3.investigators[0].xp == 0  # a level-0 card still costs 1


def test_A956_2_A108_2_upgrade_pays_the_difference() -> None:
    camp = new_campaign(["t_inv_guard"])
    camp = record_scenario(camp, res("R1", victory=0))  # 2 xp
    up = buy_card(camp, 0, "t_pistol2")
    deck = up.investigators[0].deck
    assert "t_pistol2" in deck and "t_pistol" not in deck and up.investigators[0].xp == 0


def test_A956_4_A956_6_A956_7_removal_and_limits() -> None:
    camp = new_campaign(["t_inv_guard"])
    camp = record_scenario(camp, res("R1", victory=5))
    with pytest.raises(tcgcore.DeckError):
        buy_card(camp, 0, "t_knife", remove="t_w_dread")  # weaknesses stay
    camp = buy_card(camp, 0, "t_knife", remove="t_guts")  # a second copy is fine
    with pytest.raises(tcgcore.DeckError):
        buy_card(camp, 0, "t_knife", remove="t_perception")  # a third copy
    poor = new_campaign(["t_inv_guard"])
    with pytest.raises(tcgcore.DeckError):
        buy_card(poor, 0, "t_knife", remove="t_guts")  # no experience


def test_A957_1_chaos_token_added_for_the_campaign() -> None:
    camp = add_chaos_token(new_campaign(["t_inv_guard"]), "elder_thing")
    m = tcgcore.new_match("arkham_card", seed=1, players=1, **scenario_options(camp))
    assert st(m).bag.count("elder_thing") == 1 and len(st(m).bag) == 17


def test_A956_5_story_asset_joins_the_deck_without_counting() -> None:
    from tcgcore_arkham_card import earn_story_asset, validate_deck

    camp = earn_story_asset(new_campaign(["t_inv_guard"]), 0, "01117")
    opts = scenario_options(camp)
    assert "01117" in opts["decks"][0]
    assert validate_deck("t_inv_guard", opts["decks"][0]) == []
    m = tcgcore.new_match("arkham_card", seed=3, players=1, **opts)
    assert m.pending is not None


def test_A952_1_the_gathering_writes_its_log_and_lita_goes_to_the_lead() -> None:
    r = tcgcore.Result(reason="resolution", winners=[0, 1],
                       detail={"resolution": "R1", "victory": 3, "lead": 1})
    camp = record_scenario(new_campaign(["t_inv_guard", "t_inv_seeker"]), r, scenario="01104")
    assert has_entry(camp, "your house has burned to the ground")
    assert camp.investigators[1].story == ["01117"] and camp.investigators[1].mental == 1
    assert [i.xp for i in camp.investigators] == [5, 5]
    assert camp.played == ["01104:R1"]
