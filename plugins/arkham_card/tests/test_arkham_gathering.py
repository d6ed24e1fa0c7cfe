"""The Gathering (scenario 01104): setup, acts, agendas and its encounter cards, played by
the test investigators (A215, A216, A307, A308 and the cards' own rules)."""

from __future__ import annotations

from typing import Any

from tcgcore_arkham_card import new_campaign, record_scenario, scenario
from tcgcore_arkham_card.queries import skill_value
from tcgcore_arkham_card.testkit import (
    answer,
    codes_in,
    commit_none,
    enemy,
    events,
    keys,
    kind,
    loc,
    pass_until,
    result,
    st,
    who,
)

import tcgcore

DECK = ["t_guts"] * 12
HOUSE = [{"code": "01112"}, {"code": "01113"}, {"code": "01114"},
         {"code": "01115", "revealed": False}]


def inv(code: str = "t_inv_guard", where: str = "01112", **kw: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"code": code, "location": where, "deck": DECK}
    out.update(kw)
    return out


def house(*invs: dict[str, Any], **kw: Any) -> dict[str, Any]:
    d: dict[str, Any] = {"investigators": list(invs) or [inv()], "locations": HOUSE,
                         "resolutions": {"R1": "win", "R2": "win", "R3": "loss"}}
    d.update(kw)
    return d


def test_A307_2_A308_2_gathering_setup() -> None:
    m = tcgcore.new_match("arkham_card", seed=4, players=2, scenario="01104")
    answer(m)
    answer(m)
    assert st(m).scenario == "01104"
    assert len(st(m).zones["encounter"].cards) == 26
    assert sorted(codes_in(m, "setaside")) == ["01112", "01113", "01114", "01115", "01116",
                                               "01117"]
    study = loc(m, "01111")
    assert st(m).cards[study].counters == {"revealed": 1, "clues": 4}
    assert codes_in(m, "acts") == ["01108", "01109", "01110"]
    assert codes_in(m, "agendas") == ["01105", "01106", "01107"]


def test_act_1_moves_everyone_to_the_hallway_and_removes_the_study() -> None:
    m = scenario({"investigators": [inv(where="01111", clues=2)],
                  "locations": [{"code": "01111"}], "acts": ["01108", "01109"],
                  "set_aside": ["01112", "01113", "01114", "01115"],
                  "enemies": [{"code": "01160", "location": "01111", "exhausted": True}]})
    answer(m, "advance_act")
    hallway = loc(m, "01112")
    assert st(m).inv[0].location == hallway
    assert codes_in(m, "out")[-1] == "01111" and "01160" in codes_in(m, "encounter_discard")
    assert sorted(codes_in(m, "locations")) == ["01112", "01113", "01114", "01115"]
    assert f"move:{loc(m, '01115')}" not in keys(m)  # the unrevealed Parlor is a barrier
    assert f"move:{loc(m, '01113')}" in keys(m)


def test_agenda_1_lead_chooses_two_horror() -> None:
    m = scenario(house(inv(), inv("t_inv_seeker", hand=["t_guts"]), lead=1, phase="mythos",
                       round=2, agendas=["01105", "01106"], agenda_doom=2,
                       encounter_deck=["01166"]))
    assert kind(m) == "choose_effect" and who(m) == 1
    answer(m, "b")
    assert st(m).inv[1].horror == 2 and codes_in(m, "hand.1") == ["t_guts"]


def test_agenda_2_discards_until_a_ghoul_and_the_lead_draws_it() -> None:
    m = scenario(house(phase="mythos", round=2, agendas=["01106", "01107"], agenda_doom=6,
                       encounter_deck=["01166", "01163", "01160", "01162"],
                       tokens=["+1", "+1"]))
    minion = enemy(m, "01160")
    assert st(m).cards[minion].zone == "threat.0"
    assert events(m, "agenda_advanced") and codes_in(m, "agendas") == ["01107"]


def test_act_2_round_end_objective_reveals_parlor_and_spawns_the_priest() -> None:
    m = scenario(house(inv(clues=3), acts=["01109", "01110"], set_aside=["01116", "01117"]))
    answer(m, "end_turn")
    assert kind(m) == "advance_act"
    answer(m, "yes")
    priest = enemy(m, "01116")
    assert st(m).cards[priest].zone == "threat.0"
    assert "revealed" in st(m).cards[loc(m, "01115")].counters


def test_A216_1_parlor_parley_gives_lita_and_her_combat_bonus() -> None:
    parlor = [{"code": "01112"}, {"code": "01115"}]
    m = scenario({"investigators": [inv(where="01115"), inv("t_inv_seeker", where="01115")],
                  "locations": parlor, "set_aside": ["01117"], "tokens": ["0"]})
    answer(m, "inv:1")
    answer(m, f"activate:{loc(m, '01115')}:1")  # seeker: intellect 5 vs 4
    assert codes_in(m, "play.1") == ["t_inv_seeker", "01117"]
    assert skill_value(st(m), 0, "combat") == 5 and skill_value(st(m), 1, "combat") == 3
    assert f"activate:{loc(m, '01115')}:1" not in keys(m)  # nobody left to parley with


def test_defeating_the_priest_lets_the_lead_burn_the_house() -> None:
    m = scenario(house(acts=["01110"], tokens=["+1"],
                       enemies=[{"code": "01116", "engaged": 0, "damage": 4}]))
    answer(m, f"fight:{enemy(m, '01116')}")
    if kind(m) == "use_trigger":
        answer(m, "no")
    assert kind(m) == "choose_effect"
    answer(m, "a")
    assert result(m).detail["resolution"] == "R1" and result(m).winners == [0]
    assert result(m).detail["victory"] == 2


def test_agenda_3_during_act_1_or_2_is_R3_and_kills() -> None:
    m = scenario(house(inv(), inv("t_inv_seeker", where="01113"), phase="mythos", round=2,
                       agendas=["01107"], agenda_doom=9, acts=["01109"]))
    assert result(m).detail["resolution"] == "R3" and result(m).losers == [0, 1]
    camp = record_scenario(new_campaign(["t_inv_guard", "t_inv_seeker"]), result(m),
                           scenario="01104")
    assert all(i.killed for i in camp.investigators)


def test_agenda_3_during_act_3_defeats_everyone_with_physical_trauma() -> None:
    m = scenario(house(phase="mythos", round=2, agendas=["01107"], agenda_doom=9,
                       acts=["01110"]))
    assert result(m).reason == "all_defeated" and result(m).detail["trauma0"] == "physical"


def test_A418_5_agenda_3_moves_ghouls_toward_the_parlor_and_adds_doom() -> None:
    m = scenario(house(inv(where="01113"), phase="enemy", agendas=["01107"],
                       locations=[{"code": "01112"}, {"code": "01113"}, {"code": "01114"},
                                  {"code": "01115"}],
                       enemies=[{"code": "01160", "location": "01114", "exhausted": True}]))
    minion = enemy(m, "01160")
    assert st(m).cards[minion].zone == f"at.{loc(m, '01112')}"
    agenda = st(m).zones["agendas"].cards[0]
    assert st(m).cards[agenda].counters["doom"] >= 1  # a Ghoul in the Hallway at round end


def test_A418_5_only_the_current_agenda_forced_abilities_resolve() -> None:
    """With agenda 2 (01106) current and agenda 3 (01107) beneath it, agenda 3's forced
    abilities (Ghouls move toward the Parlor, doom per Ghoul) do not resolve."""
    m = scenario(house(inv(where="01113"), phase="enemy", agendas=["01106", "01107"],
                       locations=[{"code": "01112"}, {"code": "01113"}, {"code": "01114"},
                                  {"code": "01115"}],
                       enemies=[{"code": "01160", "location": "01114", "exhausted": True}]))
    assert st(m).cards[enemy(m, "01160")].zone == f"at.{loc(m, '01114')}"
    agenda = st(m).zones["agendas"].cards[0]
    assert st(m).cards[agenda].code == "01106"
    assert st(m).cards[agenda].counters["doom"] == 1  # the next mythos phase's doom only


def test_frozen_in_fear_first_move_costs_two_and_end_of_turn_test() -> None:
    m = scenario(house(inv(threat=["01164"]), tokens=["+1"], encounter_deck=["01166"]))
    answer(m, f"move:{loc(m, '01113')}")
    assert st(m).inv[0].actions == 1
    answer(m, f"move:{loc(m, '01112')}")  # only the first move costs more: turn over
    assert [e.data["skill"] for e in events(m, "test_started")] == ["willpower"]
    assert codes_in(m, "threat.0") == []  # passed the end-of-turn test
    assert st(m).turn == 2


def test_dissonant_voices_blocks_playing_cards_until_round_end() -> None:
    m = scenario(house(inv(threat=["01165"], hand=["t_cache", "t_knife"]),
                       encounter_deck=["01166"]))
    assert not [k for k in keys(m) if k.startswith("play:")]
    answer(m, "end_turn")
    pass_until(m, "action")
    assert codes_in(m, "threat.0") == [] and [k for k in keys(m) if k.startswith("play:")]


def test_crypt_chill_discards_a_chosen_asset_or_deals_two_damage() -> None:
    m = scenario(house(inv(assets=["t_knife", "t_coat"]), phase="mythos", round=2,
                       encounter_deck=["01167", "01166"], tokens=["-2"]))
    assert kind(m) == "discard_asset"
    answer(m, f"asset:{enemy(m, 't_coat')}")
    assert codes_in(m, "discard.0") == ["t_coat"]
    m2 = scenario(house(phase="mythos", round=2, encounter_deck=["01167", "01166"],
                        tokens=["-2"]))
    assert st(m2).inv[0].damage == 2


def test_A506_3_obscuring_fog_adds_shroud_then_leaves() -> None:
    m = scenario(house(inv(where="01113"), phase="mythos", round=2,
                       encounter_deck=["01168", "01166"], tokens=["+1", "+1"]))
    attic = loc(m, "01113")
    assert events(m, "attached")
    answer(m, "investigate")  # 3 + 1 = 4 vs shroud 1 + 2 = 3
    assert events(m, "test_succeeded")[-1].data["difficulty"] == 3
    assert codes_in(m, f"at.{attic}") == [] and "01168" in codes_in(m, "encounter_discard")


def test_A106_4_A106_2_encounter_cannot_play_beats_a_player_card() -> None:
    m = scenario(house(inv(threat=["01165"], hand=["t_dodge", "t_lucky"]), phase="enemy",
                       enemies=[{"code": "01160", "engaged": 0}]))
    assert kind(m) != "use_trigger" and st(m).inv[0].damage == 1
    m2 = scenario(house(inv(threat=["01165"], hand=["t_lucky"]), tokens=["-3"]))
    answer(m2, "investigate")
    commit_none(m2)  # A913.2
    assert kind(m2) != "would_fail" and events(m2, "test_failed")


def test_lita_adds_damage_against_monsters_and_r2_gives_the_lead_one_more() -> None:
    parlor = [{"code": "01112"}, {"code": "01115"}]
    m = scenario({"investigators": [inv(where="01115"), inv("t_inv_seeker", where="01115")],
                  "locations": parlor, "set_aside": ["01117"], "tokens": ["0", "+1"],
                  "enemies": [{"code": "01160", "location": "01115", "exhausted": True}]})
    answer(m, "inv:1")
    answer(m, f"activate:{loc(m, '01115')}:1")
    answer(m, "end_turn")
    answer(m, f"fight:{enemy(m, '01160')}")  # 1 + 1 (Lita) = the minion's 2 health
    if kind(m) == "use_trigger":
        answer(m, "no")
    assert "01160" in codes_in(m, "encounter_discard")
    r = tcgcore.Result(reason="resolution", winners=[0, 1],
                       detail={"resolution": "R2", "victory": 0, "lead": 1})
    camp = record_scenario(new_campaign(["t_inv_guard", "t_inv_seeker"]), r, scenario="01104")
    assert [i.xp for i in camp.investigators] == [2, 3]
