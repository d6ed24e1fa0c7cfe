"""Timing, triggers, limits, uniqueness, slots, decks (A107, A108, A203, A901–A911)."""

from __future__ import annotations

from tcgcore_arkham_card import scenario
from tcgcore_arkham_card.plugin import spec
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
    who,
)

import tcgcore

DECK = ["t_guts"] * 12


def inv(code: str = "t_inv_guard", **kw: object) -> dict[str, object]:
    return investigator(code, DECK, **kw)


def test_A902_1_A903_1_forced_first_and_lead_orders_simultaneous_effects() -> None:
    assert spec.forced_first
    m = scenario({"investigators": [inv(location="t_loc_foyer", clues=2),
                                    inv("t_inv_seeker", location="t_loc_foyer")],
                  "locations": [{"code": "t_loc_foyer"}, {"code": "t_loc_cellar"}],
                  "acts": ["t_act_move"], "lead": 1,
                  "cards": [{"code": "t_act_move", "name": "Move Act", "type_code": "act",
                             "clues": 1,
                             "back": [{"op": "move_all_to", "code": "t_loc_cellar"}]}]})
    answer(m, "inv:0")
    answer(m, "advance_act")
    # both investigators entered the cellar at once: two forced abilities, the lead orders
    assert kind(m) == "order_triggers" and who(m) == 1
    answer(m, keys(m)[1])
    assert [i.damage for i in st(m).inv] == [1, 1]


def test_A904_1_A107_1_A910_1_reaction_once_per_round() -> None:
    m = scenario(desc(inv(), tokens=["+1", "+1", "+1"],
                      locations=[{"code": "t_loc_a", "clues": 3}],
                      enemies=[{"code": "t_rat", "engaged": 0}, {"code": "t_rat", "engaged": 0}]))
    answer(m, f"fight:{enemy(m, 't_rat', 0)}")
    assert kind(m) == "use_trigger"
    answer(m, "yes")
    assert st(m).inv[0].clues == 1
    answer(m, f"fight:{enemy(m, 't_rat', 1)}")
    assert kind(m) == "action"  # limit used this round
    assert st(m).inv[0].clues == 1


def test_A904_2_unplayable_event_without_effect() -> None:
    m = scenario(desc(inv(hand=["t_hunch", "t_blast"], resources=9),
                      locations=[{"code": "t_loc_a", "clues": 0}]))
    assert not [k for k in keys(m) if k.startswith(("play:", "fastplay:"))]


def test_A905_2_fast_event_in_a_turn_without_an_action() -> None:
    m = scenario(desc(inv(hand=["t_hunch"])))
    for _ in range(2):
        answer(m, "resource")
    answer(m, f"fastplay:{enemy(m, 't_hunch')}")
    assert st(m).inv[0].actions == 1 and st(m).inv[0].clues == 1


def test_A907_2_deck_runs_out_mid_draw() -> None:
    m = scenario(desc(inv(deck=["t_guts"], discard=["t_perception"], hand=["x_draw2"]),
                      cards=[{"code": "x_draw2", "name": "Draw Two", "type_code": "event",
                              "cost": 0, "effects": [{"op": "draw_cards", "amount": 2}]}]))
    answer(m, f"play:{enemy(m, 'x_draw2')}")
    assert sorted(codes_in(m, "hand.0")) == ["t_guts", "t_perception"]
    assert st(m).inv[0].horror == 1


def test_A908_1_empty_encounter_deck_reshuffles_discard() -> None:
    m = scenario(desc(inv(), phase="mythos", round=2, encounter_discard=["t_voices"]))
    assert codes_in(m, "threat.0") == ["t_voices"]
    assert events(m, "encounter_reshuffled")


def test_A418_5_round_end_discards_a_threat_treachery() -> None:
    m = scenario(desc(inv(threat=["t_voices"]), encounter_deck=["t_omen"]))
    answer(m, "end_turn")
    assert codes_in(m, "threat.0") == []
    # discarded, then reshuffled into the emptied encounter deck (A908.1)
    assert codes_in(m, "encounter") == ["t_voices"]


def test_A108_1_unique_title_in_play_blocks_another() -> None:
    m = scenario(desc(inv(hand=["t_friend"]), inv("t_inv_seeker", assets=["t_friend"])))
    answer(m, "inv:0")
    assert f"play:{enemy(m, 't_friend', 0)}" not in keys(m)


def test_A203_1_A203_4_slot_overflow_discards_a_chosen_asset() -> None:
    m = scenario(desc(inv(hand=["t_dog"], assets=["t_friend"])))
    answer(m, f"play:{enemy(m, 't_dog')}")
    assert kind(m) == "slot_discard"
    answer(m, keys(m)[0])
    assert codes_in(m, "play.0") == ["t_inv_guard", "t_dog"]
    assert codes_in(m, "discard.0") == ["t_friend"]


def test_A203_2_hand_x2_fills_both_hand_slots() -> None:
    m = scenario(desc(inv(hand=["t_bat"], assets=["t_knife", "t_lamp"])))
    answer(m, f"play:{enemy(m, 't_bat')}")
    assert kind(m) == "slot_discard" and len(keys(m)) == 2
    answer(m, keys(m)[0])
    assert kind(m) == "slot_discard"
    answer(m, keys(m)[0])
    assert codes_in(m, "play.0") == ["t_inv_guard", "t_bat"]


def test_A203_2_A203_4_a_hand_x2_asset_in_play_is_offered_once() -> None:
    """A card holding both hand slots is one card to discard, not two options with the
    same key (the overflow list is built with an explicit membership check, which a
    generator inside ``list.extend`` only happens to honour in CPython)."""
    m = scenario(desc(inv(hand=["t_knife"], assets=["t_bat"])))
    answer(m, f"play:{enemy(m, 't_knife')}")
    assert kind(m) == "slot_discard"
    assert keys(m) == [f"asset:{enemy(m, 't_bat')}"]
    answer(m, keys(m)[0])
    assert codes_in(m, "play.0") == ["t_inv_guard", "t_knife"]
    assert codes_in(m, "discard.0") == ["t_bat"]


def test_A203_3_slotless_assets_are_unlimited() -> None:
    m = scenario(desc(inv(hand=["t_training"], assets=["t_focus", "t_training"])))
    answer(m, f"play:{enemy(m, 't_training', 0)}")
    assert codes_in(m, "play.0").count("t_training") == 2


def test_A112_1_A202_1_asset_bonus_to_a_skill() -> None:
    from tcgcore_arkham_card.queries import skill_value

    m = scenario(desc(inv(assets=["t_friend"])))
    assert skill_value(st(m), 0, "intellect") == 4
    assert codes_in(m, "play.0") == ["t_inv_guard", "t_friend"]


def test_A206_1_event_resolves_then_discarded() -> None:
    m = scenario(desc(inv(hand=["t_cache"])))
    answer(m, f"play:{enemy(m, 't_cache')}")
    assert st(m).inv[0].resources == 8 and codes_in(m, "discard.0") == ["t_cache"]


def test_A416_3_fight_event_is_a_fight_action() -> None:
    m = scenario(desc(inv(hand=["t_backstab"]), tokens=["0"],
                      enemies=[{"code": "t_ghoul", "engaged": 0}, {"code": "t_rat",
                                                                   "engaged": 0}]))
    answer(m, f"play:{enemy(m, 't_backstab')}")
    answer(m, f"enemy:{enemy(m, 't_ghoul')}")
    pass_until(m, "action")
    assert not events(m, "enemy_attacks")  # fight: no attack of opportunity
    assert events(m, "test_started")[0].data["skill"] == "agility"
    assert codes_in(m, "encounter_discard") == ["t_ghoul"]  # 1 + 2 damage


def test_A106_3_unknown_partial_effects_still_resolve() -> None:
    m = scenario(desc(inv(hand=["x_mix"]), cards=[{
        "code": "x_mix", "name": "Mix", "type_code": "event", "cost": 0,
        "effects": [{"op": "discover_clues", "amount": 1}, {"op": "gain_resources",
                                                            "amount": 1}]}],
        locations=[{"code": "t_loc_a", "clues": 0}]))
    answer(m, f"play:{enemy(m, 'x_mix')}")
    assert st(m).inv[0].resources == 6


def test_views_hide_hands_and_show_public_panels() -> None:
    m = scenario(desc(inv(hand=["t_guts"]), inv("t_inv_seeker", hand=["t_perception"])))
    v1 = m.view(1)
    hand0 = next(z for z in v1.zones if z.id == "hand.0")
    assert hand0.count == 1 and hand0.cards == []
    panel = v1.panel
    assert panel["agenda"]["threshold"] == 50 and panel["chaos_bag"]["skull"] == 2
    # cards in the panel are named by the viewer's ids, as in the zones (A913)
    assert panel["locations"][0]["connections"] == [
        tcgcore.card_alias(st(m), loc(m, "t_loc_b"), 1)]
    assert isinstance(m.view(None), tcgcore.View)


def test_front_end_hooks() -> None:
    assert spec.card_name is not None and spec.card_name("01116") == "Ghoul Priest"
    assert spec.card_text is not None and "health 5/inv" in (spec.card_text("01116") or "")
    assert spec.find_card is not None and spec.find_card("ghoul priest") == "01116"
    m = scenario(desc(inv()))
    assert spec.render_panel is not None and spec.render_panel(m.view(0))[0].startswith("Round")
    assert spec.validate_state is not None and spec.validate_state(st(m)) is None
    restored = tcgcore.Match.from_bytes(m.to_bytes())
    assert restored.digest() == m.digest()


def test_A901_3_nested_reaction_finishes_before_the_event_does() -> None:
    m = scenario(desc(inv(hand=["t_blast"], resources=4),
                      locations=[{"code": "t_loc_a", "clues": 1}],
                      enemies=[{"code": "t_ghoul", "engaged": 0}]))
    blast = enemy(m, "t_blast")
    answer(m, f"play:{blast}")
    assert kind(m) == "use_trigger"  # the guard's reaction, nested inside the event
    assert st(m).cards[blast].zone == "resolving"
    answer(m, "yes")
    kinds = [e.kind for e in events(m) if e.kind in ("enemy_defeated", "clues_discovered")
             or (e.kind == "discarded" and e.card == blast)]
    assert kinds == ["enemy_defeated", "clues_discovered", "discarded"]


def test_A904_3_a_used_ability_counts_even_if_its_effect_comes_to_nothing() -> None:
    card = {"code": "x_lens", "name": "Lens", "type_code": "asset", "cost": 0,
            "abilities": [{"kind": "fast", "limit": "round",
                           "effects": [{"op": "discover_clues", "amount": 1}]}]}
    m = scenario(desc(inv(assets=["x_lens"]), cards=[card],
                      locations=[{"code": "t_loc_a", "clues": 0}]))
    lens = enemy(m, "x_lens")
    answer(m, f"fast:{lens}:0")
    assert st(m).inv[0].clues == 0
    assert f"fast:{lens}:0" not in keys(m)


def test_A911_1_an_effect_cannot_put_a_second_unique_copy_into_play() -> None:
    take = {"code": "x_call", "name": "Call", "type_code": "event", "cost": 0,
            "effects": [{"op": "take_control", "code": "t_friend"}]}
    m = scenario(desc(inv(hand=["x_call"]), inv("t_inv_seeker", assets=["t_friend"]),
                      set_aside=["t_friend"], cards=[take]))
    answer(m, "inv:0")
    answer(m, f"play:{enemy(m, 'x_call')}")
    assert codes_in(m, "setaside") == ["t_friend"] and codes_in(m, "play.0") == ["t_inv_guard"]
