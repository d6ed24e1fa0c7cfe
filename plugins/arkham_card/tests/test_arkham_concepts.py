"""Game concepts and the remaining card-type rules (A1, A2, A4 phase order)."""

from __future__ import annotations

import pytest
from tcgcore_arkham_card import card_pool, scenario, validate_deck
from tcgcore_arkham_card.queries import enemy_health
from tcgcore_arkham_card.testkit import (
    answer,
    codes_in,
    desc,
    enemy,
    events,
    investigator,
    keys,
    kind,
    loc,
    pass_until,
    st,
    where,
)

import tcgcore

DECK = ["t_guts"] * 12


def inv(code: str = "t_inv_guard", **kw: object) -> dict[str, object]:
    return investigator(code, DECK, **kw)


def test_A105_1_A208_1_card_types_and_weakness_subtypes() -> None:
    pool = card_pool()
    types = {d.type_code for d in pool.values()}
    assert {"investigator", "asset", "event", "skill", "enemy", "treachery", "location", "act",
            "agenda"} <= types
    assert pool["t_w_dread"].is_weakness() and pool["t_w_stalker"].is_weakness()
    assert not pool["t_guts"].is_weakness()


def test_A201_2_A201_3_deckbuilding_is_checked() -> None:
    good = ["t_knife", "t_knife", "t_lamp", "t_lamp", "t_cache", "t_cache", "t_guts", "t_guts",
            "t_perception", "t_perception", "t_overpower", "t_overpower", "t_dexterity",
            "t_dexterity", "t_courage", "t_courage", "t_bat", "t_bat", "t_coat", "t_coat",
            "t_hunch", "t_hunch", "t_w_dread"]
    assert validate_deck("t_inv_guard", good) == []
    assert validate_deck("t_inv_guard", [*good, "t_knife"]) != []
    with pytest.raises(tcgcore.DeckError, match="copies"):
        tcgcore.new_match("arkham_card", seed=1, players=1,
                          decks=[["t_knife"] * 3 + good[3:]])


def test_A110_2_eliminated_investigators_still_count() -> None:
    m = scenario({"investigators": [inv(location="t_loc_vault"),
                                    inv("t_inv_seeker", location="t_loc_vault")],
                  "locations": [{"code": "t_loc_vault"}],
                  "enemies": [{"code": "t_boss", "location": "t_loc_vault", "exhausted": True}]})
    answer(m, "inv:0")
    answer(m, f"activate:{loc(m, 't_loc_vault')}:0")
    assert enemy_health(st(m), enemy(m, "t_boss")) == 6


def test_A106_2_A605_6_cannot_enter_is_absolute_for_hunters() -> None:
    m = scenario({"investigators": [inv(location="t_loc_a")], "phase": "enemy",
                  "locations": [{"code": "t_loc_a", "connections": ["t_loc_barrier"]},
                                {"code": "t_loc_barrier", "revealed": False,
                                 "connections": ["t_loc_b"]},
                                {"code": "t_loc_b", "connections": []}],
                  "enemies": [{"code": "t_rat", "location": "t_loc_b"}]})
    assert where(m, enemy(m, "t_rat")) == loc(m, "t_loc_b")  # A605.2 path counted, A605.6 blocked


def test_A111_1_an_exhausted_card_cannot_pay_an_exhaust_cost() -> None:
    m = scenario(desc(inv(assets=["x_purse"]), cards=[
        {"code": "x_purse", "name": "Purse", "type_code": "asset", "cost": 0,
         "abilities": [{"kind": "fast", "exhaust": True,
                        "effects": [{"op": "gain_resources", "amount": 1}]}]}]))
    purse = enemy(m, "x_purse")
    answer(m, f"fast:{purse}:0")
    assert st(m).inv[0].resources == 6 and st(m).cards[purse].exhausted
    assert f"fast:{purse}:0" not in keys(m)


def test_A203_1_two_different_slot_icons_fill_one_of_each() -> None:
    m = scenario(desc(inv(hand=["x_staff"], assets=["t_knife", "t_lamp"]), cards=[
        {"code": "x_staff", "name": "Staff", "type_code": "asset", "cost": 0,
         "slot": "Hand. Arcane"}]))
    answer(m, f"play:{enemy(m, 'x_staff')}")
    assert kind(m) == "slot_discard" and len(keys(m)) == 2  # only the hand slot overflows


def test_A209_1_enemy_values_in_the_public_panel() -> None:
    m = scenario(desc(inv(), enemies=[{"code": "t_ghoul", "engaged": 0, "damage": 1}]))
    panel = m.view(0).panel["enemies"][str(tcgcore.card_alias(m.state, enemy(m, "t_ghoul"), 0))]
    assert {k: panel[k] for k in ("code", "health", "damage", "engaged")} == {
        "code": "t_ghoul", "health": 2, "damage": 1, "engaged": 0}
    d = card_pool()["t_ghoul"]
    assert (d.enemy_fight, d.enemy_evade, d.enemy_damage, d.enemy_horror) == (2, 2, 1, 1)


def test_A210_1_treachery_resolves_then_is_discarded() -> None:
    m = scenario(desc(inv(), phase="mythos", round=2, encounter_deck=["t_grasp", "t_omen"],
                      tokens=["+1"]))
    assert codes_in(m, "encounter_discard") == ["t_grasp"] and events(m, "test_succeeded")


def test_A211_1_A212_1_unrevealed_locations_and_current_act() -> None:
    m = tcgcore.new_match("arkham_card", seed=2, players=1, scenario="test")
    answer(m)  # the mulligan comes before the scenario's own setup (A301.1)
    assert st(m).cards[st(m).zones["acts"].cards[0]].code == "t_act1"
    unrevealed = [c for c in st(m).zones["locations"].cards
                  if "revealed" not in st(m).cards[c].counters]
    assert len(unrevealed) == 4


def test_A214_2_a_symbol_means_what_the_scenario_says() -> None:
    m = scenario(desc(inv(), tokens=["skull"], token_effects={"skull": {"modifier": 3}}))
    answer(m, "investigate")
    assert events(m, "test_succeeded")[0].data["value"] == 6


def test_A216_1_story_asset_enters_play_by_scenario_instruction() -> None:
    m = scenario(desc(inv(location="t_loc_c"), set_aside=["t_story_ally"], tokens=["0"],
                      cards=[{"code": "t_loc_c", "name": "Room C", "type_code": "location",
                              "shroud": 2, "clues": 1, "symbol": "c", "connections": ["b"],
                              "abilities": [{"kind": "action", "action": "parley",
                                             "skill": "intellect", "difficulty": 2,
                                             "effects": [{"op": "take_control",
                                                          "code": "t_story_ally"}]}]}]))
    answer(m, f"activate:{loc(m, 't_loc_c')}:0")
    assert codes_in(m, "play.0") == ["t_inv_guard", "t_story_ally"]
    from tcgcore_arkham_card.queries import skill_value

    assert skill_value(st(m), 0, "combat") == 5


def test_A301_1_A401_1_phases_in_order() -> None:
    m = scenario(desc(inv()))
    answer(m, "end_turn")
    phases = [e.data["phase"] for e in events(m, "phase")]
    assert phases == ["investigation", "enemy", "upkeep", "mythos", "investigation"]
    assert [e.amount for e in events(m, "round_started")] == [2]


def test_A416_5_each_enemy_one_attack_of_opportunity_per_action() -> None:
    m = scenario(desc(inv(), enemies=[{"code": "t_ghoul", "engaged": 0},
                                      {"code": "t_rat", "engaged": 0}]))
    answer(m, "resource")
    answer(m, keys(m)[0])
    assert sorted(e.card or 0 for e in events(m, "enemy_attacks")) == sorted(
        [enemy(m, "t_ghoul"), enemy(m, "t_rat")])
    assert (st(m).inv[0].damage, st(m).inv[0].horror) == (2, 1)  # Ghoul 1/1 and Rat 1/0, once


def test_A417_4_A417_5_A417_7_enemy_phase_steps() -> None:
    m = scenario(desc(inv(), enemies=[{"code": "t_ghoul", "engaged": 0}]))
    answer(m, "resource")  # attack of opportunity: no exhaust (A417.7)
    assert not st(m).cards[enemy(m, "t_ghoul")].exhausted
    answer(m, "end_turn")
    pass_until(m, "action")
    attacks = events(m, "enemy_attacks")
    assert len(attacks) == 2
    harm = next(e for e in events(m, "harm_placed") if e.seq > attacks[1].seq)
    assert harm.data["damage"] == 1 and harm.data["horror"] == 1  # at the same time
    assert events(m, "enemy_exhausted")


def test_A615_4_treachery_with_victory_goes_to_victory_display() -> None:
    m = scenario(desc(inv(), phase="mythos", round=2, encounter_deck=["x_curse", "t_omen"],
                      cards=[{"code": "x_curse", "name": "Curse", "type_code": "treachery",
                              "victory": 1, "revelation": [{"op": "lose_resources",
                                                            "amount": 1}]}]))
    assert codes_in(m, "victory") == ["x_curse"]


def test_A703_2_defeat_checked_after_each_placement() -> None:
    m = scenario(desc(inv(damage=8, deck=[]), inv("t_inv_seeker", deck=DECK)))
    answer(m, "inv:0")
    answer(m, "draw")  # empty deck and discard: 1 horror, not lethal
    assert st(m).inv[0].status == ""
    m2 = scenario(desc(inv(horror=4, deck=[]), inv("t_inv_seeker", deck=DECK)))
    answer(m2, "inv:0")
    answer(m2, "draw")
    assert st(m2).inv[0].status == "defeated"


def test_A901_2_after_abilities_resolve_once_the_event_is_over() -> None:
    m = scenario(desc(inv(), tokens=["+1"], locations=[{"code": "t_loc_a", "clues": 1}],
                      enemies=[{"code": "t_rat", "engaged": 0}]))
    answer(m, f"fight:{enemy(m, 't_rat')}")
    assert kind(m) == "use_trigger"
    assert codes_in(m, "encounter_discard") == ["t_rat"]  # the defeat already happened


def test_A601_1_several_fitting_locations_lead_chooses() -> None:
    m = scenario(desc(inv(), inv("t_inv_seeker"), phase="mythos", round=2,
                      encounter_deck=["x_lurker", "t_omen"],
                      cards=[{"code": "x_lurker", "name": "Lurker", "type_code": "enemy",
                              "enemy_fight": 1, "health": 1, "enemy_evade": 1,
                              "spawn": "empty"}]))
    assert kind(m) == "spawn_location" and len(keys(m)) == 3
    answer(m, f"loc:{loc(m, 't_loc_c')}")
    assert where(m, enemy(m, "x_lurker")) == loc(m, "t_loc_c")


def test_A107_2_group_limit_counts_for_everyone() -> None:
    card = {"code": "x_well", "name": "Well", "type_code": "location", "shroud": 1, "clues": 0,
            "symbol": "w", "abilities": [{"kind": "action", "limit": "group_game",
                                          "effects": [{"op": "gain_resources", "amount": 2}]}]}
    m = scenario({"investigators": [inv(location="x_well"), inv("t_inv_seeker",
                                                               location="x_well")],
                  "locations": [{"code": "x_well"}], "cards": [card]})
    well = loc(m, "x_well")
    answer(m, "inv:0")
    answer(m, f"activate:{well}:0")
    answer(m, "end_turn")
    assert f"activate:{well}:0" not in keys(m)


def test_A501_2_a_test_started_during_a_test_waits() -> None:
    m = scenario(desc(inv(hand=["x_echo"]), tokens=["0", "0"], cards=[
        {"code": "x_echo", "name": "Echo", "type_code": "skill", "skill_intellect": 1,
         "on_success": [{"op": "test", "skill": "willpower", "difficulty": 1}]}]))
    answer(m, "investigate")
    answer(m, f"commit:{enemy(m, 'x_echo')}")
    kinds = [(e.kind, e.data.get("skill")) for e in events(m)
             if e.kind in ("test_started", "test_ended")]
    assert kinds == [("test_started", "intellect"), ("test_ended", None),
                     ("test_started", "willpower"), ("test_ended", None)]


def test_A208_2_a_weakness_of_the_scenario_takes_effect_when_drawn() -> None:
    """A208.2: a weakness drawn takes effect at once, also one the scenario defines (not in
    the card pool): the revelation resolves and the card is discarded, not kept in hand."""
    hex_card = {"code": "x_hex", "name": "Hex", "type_code": "treachery",
                "subtype_code": "weakness", "revelation": [{"op": "lose_resources", "amount": 2}]}
    m = scenario(desc(investigator("t_inv_guard", ["x_hex", "t_guts"]), cards=[hex_card]))
    answer(m, "draw")
    assert st(m).inv[0].resources == 3
    assert codes_in(m, "hand.0") == [] and codes_in(m, "discard.0") == ["x_hex"]


def test_A208_2_a_weakness_drawn_before_an_ordinary_card_in_one_draw_takes_effect() -> None:
    """A208.2 for each card of one draw: Cryptic Research (01043) draws three, the weakness
    first; it resolves although the last cards drawn are ordinary ones."""
    m = scenario(desc(investigator("t_inv_guard", ["t_w_dread", "t_guts", "t_guts"],
                                   hand=["01043"])))
    answer(m, f"fastplay:{enemy(m, '01043')}")
    assert st(m).inv[0].horror == 1  # Test Dread's revelation: 1 direct horror
    assert codes_in(m, "hand.0") == ["t_guts", "t_guts"]
    assert "t_w_dread" in codes_in(m, "discard.0")
