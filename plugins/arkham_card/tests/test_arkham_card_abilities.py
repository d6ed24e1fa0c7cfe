"""Abilities of the core player cards that were once only partly modelled (A975.9,
A975.11–A975.15, A978.9) and of the core cards without an ability test elsewhere, each
played in a small described scenario."""

from __future__ import annotations

from typing import Any

from tcgcore_arkham_card import scenario
from tcgcore_arkham_card.queries import skill_value
from tcgcore_arkham_card.testkit import (
    activate_card as activate,
)
from tcgcore_arkham_card.testkit import (
    answer,
    codes_in,
    commit_none,
    desc,
    enemy,
    events,
    investigator,
    keys,
    kind,
    loc,
    pass_until,
    pending,
    st,
    where,
)
from tcgcore_arkham_card.testkit import (
    play_card as play,
)

DECK = ["01089"] * 6


def inv(code: str = "01001", **kw: Any) -> dict[str, Any]:
    return investigator(code, kw.pop("deck", DECK), **kw)


def in_hand(m: Any, code: str, seat: int = 0) -> int:
    return next(c for c in st(m).zones[f"hand.{seat}"].cards if st(m).cards[c].code == code)


def first_turn(m: Any, seat: int = 0) -> None:
    """With several investigators the lead picks who acts first."""
    if kind(m) == "turn_order":
        answer(m, f"inv:{seat}")


# ------------------------------------------------------------------ A975.11


def test_A975_11_first_aid_heals_another_investigator_here() -> None:
    m = scenario(desc(inv(assets=["01019"], damage=1), inv("01002", damage=2, horror=1)))
    first_turn(m)
    activate(m, "01019")  # heal damage
    assert kind(m) == "choose_investigator" and keys(m) == ["inv:0", "inv:1"]
    answer(m, "inv:1")
    assert st(m).inv[1].damage == 1 and st(m).inv[0].damage == 1
    assert st(m).cards[enemy(m, "01019")].counters["uses"] == 2
    activate(m, "01019", 1)  # heal horror: only Daisy has horror, no question
    assert st(m).inv[1].horror == 0


def test_A975_11_old_book_of_lore_searches_the_chosen_investigators_deck() -> None:
    m = scenario(desc(inv(assets=["01031"]),
                      inv("01002", deck=["01089", "01090", "01091", "01092"])))
    first_turn(m)
    activate(m, "01031")
    answer(m, "inv:1")
    assert m.pending is not None and m.pending.player == 1  # they choose among the top 3
    answer(m, next(o.key for o in m.pending.options  # (A909.1)
                   if o.card is not None and st(m).cards[o.card].code == "01089"))
    assert codes_in(m, "hand.1") == ["01089"] and len(codes_in(m, "deck.1")) == 3
    assert codes_in(m, "hand.0") == []
    assert st(m).cards[enemy(m, "01031")].exhausted


def test_A975_11_medical_texts_heals_or_hurts_the_chosen_investigator() -> None:
    m = scenario(desc(inv(assets=["01035"]), inv("01002", damage=2), tokens=["0"]))
    first_turn(m)
    activate(m, "01035")
    answer(m, "inv:1")
    pass_until(m, "action")
    assert st(m).inv[1].damage == 1  # intellect 3 vs 2: healed
    m2 = scenario(desc(inv(assets=["01035"]), inv("01002", damage=2), tokens=["auto_fail"]))
    first_turn(m2)
    activate(m2, "01035")
    answer(m2, "inv:1")
    pass_until(m2, "action")
    assert st(m2).inv[1].damage == 3 and st(m2).inv[0].damage == 0  # failed: 1 damage


def test_A975_11_an_investigator_elsewhere_cannot_be_chosen() -> None:
    m = scenario(desc(inv(assets=["01019"], damage=1), inv("01002", damage=2,
                                                           location="t_loc_b")))
    first_turn(m)
    activate(m, "01019")  # Daisy is not at your location: no question
    assert st(m).inv[0].damage == 0 and st(m).inv[1].damage == 2


# ------------------------------------------------------------------ A975.12


def test_A975_12_barricade_stops_non_elite_enemies_and_goes_when_someone_leaves() -> None:
    m = scenario(desc(inv(hand=["01038"]), phase="investigation",
                      enemies=[{"code": "t_rat", "location": "t_loc_b"}]))
    play(m, "01038")
    room_a = loc(m, "t_loc_a")
    assert "01038" in codes_in(m, f"at.{room_a}")
    answer(m, "end_turn")
    pass_until(m, "action")  # enemy phase: the hunter cannot come in
    assert where(m, enemy(m, "t_rat")) == loc(m, "t_loc_b")
    answer(m, f"move:{loc(m, 't_loc_b')}")
    assert "01038" in codes_in(m, "discard.0")  # an investigator left it


def test_A975_12_barricade_does_not_stop_an_elite_enemy() -> None:
    m = scenario(desc(inv(hand=["01038"]), tokens=["0"] * 5,
                      enemies=[{"code": "t_boss", "location": "t_loc_b"}]))
    play(m, "01038")
    answer(m, "end_turn")
    pass_until(m, "action")
    assert where(m, enemy(m, "t_boss")) == loc(m, "t_loc_a")


# ------------------------------------------------------------------ A975.13


def test_A975_13_on_the_lam_only_after_the_turn_begins() -> None:
    """On the Lam 01010: "play after your turn begins": offered as the turn begins, not
    once an action has been taken."""
    m = scenario(desc(inv("01003", hand=["01010"])))
    lam = enemy(m, "01010")
    assert f"fastplay:{lam}" in keys(m)
    answer(m, "resource")
    assert f"fastplay:{lam}" not in keys(m)


def test_A975_13_hospital_debts_takes_two_resources_a_round() -> None:
    m = scenario(desc(inv("01003", threat=["01011"], resources=5)))
    activate(m, "01011")
    activate(m, "01011")
    debts = enemy(m, "01011")
    assert st(m).cards[debts].counters["resources"] == 2 and st(m).inv[0].resources == 3
    assert not any(k.startswith(f"fast:{debts}:") for k in keys(m))  # twice per round
    answer(m, "end_turn")
    pass_until(m, "action")  # next round: again
    assert any(k.startswith(f"fast:{debts}:") for k in keys(m))


def test_A975_13_wendys_amulet_plays_the_top_event_of_the_discard_pile() -> None:
    m = scenario(desc(inv("01005", assets=["01014"], discard=["01089", "01088"], resources=1)))
    cache = enemy(m, "01088")
    assert f"play:{cache}" in keys(m)  # Emergency Cache, on top of the discard pile
    answer(m, f"play:{cache}")
    assert st(m).inv[0].resources == 1 + 3
    assert codes_in(m, "deck.0")[-1] == "01088"  # to the bottom of the deck (forced)
    assert codes_in(m, "discard.0") == ["01089"]
    m2 = scenario(desc(inv("01005", assets=["01014"], discard=["01088", "01089"])))
    assert f"play:{enemy(m2, '01088')}" not in keys(m2)  # not the topmost card


def test_A975_13_daisys_tote_bag_slots_take_only_tomes() -> None:
    m = scenario(desc(inv("01002", assets=["01008", "01087", "01086", "01035"],
                          hand=["01031", "01087"], resources=10)))
    play(m, "01031")  # a Tome: fits in the bag's slots
    assert st(m).cards[enemy(m, "01031")].zone == "play.0"
    play(m, "01087")  # a second Flashlight: the two normal hand slots are full
    assert kind(m) == "slot_discard"
    in_play = {st(m).cards[c].code: c for c in st(m).zones["play.0"].cards}
    assert sorted(keys(m)) == sorted([f"asset:{in_play['01087']}",
                                      f"asset:{in_play['01086']}"])  # not the Tomes


# ------------------------------------------------------------------ A975.14


def test_A975_14_dynamite_blast_hits_a_connecting_location() -> None:
    m = scenario(desc(inv(hand=["01024"], resources=5), inv("01002", location="t_loc_b"),
                      enemies=[{"code": "t_ghoul", "location": "t_loc_b"}]))
    first_turn(m)
    play(m, "01024")
    room_b = loc(m, "t_loc_b")
    assert kind(m) == "choose_location" and keys(m)[0] == f"location:{loc(m, 't_loc_a')}"
    answer(m, f"location:{room_b}")
    pass_until(m, "action")  # (Roland's reaction to the defeat is declined)
    assert "t_ghoul" in codes_in(m, "encounter_discard")
    assert st(m).inv[1].damage == 3 and st(m).inv[0].damage == 0


def test_A975_14_elusive_moves_to_any_revealed_location_without_enemies() -> None:
    m = scenario(desc(inv("01003", hand=["01050"]),
                      enemies=[{"code": "t_ghoul", "engaged": 0},
                               {"code": "t_rat", "location": "t_loc_c", "exhausted": True}]))
    play(m, "01050")
    room_d = loc(m, "t_loc_d")
    assert f"location:{room_d}" in keys(m)  # not connecting to room A
    assert f"location:{loc(m, 't_loc_c')}" not in keys(m)
    assert "stay" not in keys(m)  # Elusive 01050: the move is part of the card
    answer(m, f"location:{room_d}")
    assert st(m).inv[0].location == room_d
    assert where(m, enemy(m, "t_ghoul")) == loc(m, "t_loc_a")


def test_A975_14_elusive_stays_only_with_nowhere_to_go() -> None:
    """Elusive 01050 with every other location holding an enemy: nothing to ask, the
    investigator stays and the enemy engages again."""
    m = scenario(desc(inv("01003", hand=["01050"]), enemies=[
        {"code": "t_ghoul", "engaged": 0},
        *({"code": "t_rat", "location": r, "exhausted": True}
          for r in ("t_loc_b", "t_loc_c", "t_loc_d"))]))
    play(m, "01050")
    assert kind(m) != "choose_location"
    assert st(m).inv[0].location == loc(m, "t_loc_a")
    assert events(m, "disengaged")  # disengaged, but a ready enemy here engages again (A602.1)
    assert st(m).cards[enemy(m, "t_ghoul")].zone == "threat.0"


def test_A975_14_scrying_reorders_the_top_of_a_chosen_deck() -> None:
    m = scenario(desc(inv("01004", assets=["01061"], deck=["01089", "01090", "01091", "01092"]),
                      encounter_deck=["t_grasp", "t_dread", "t_omen", "t_surge"]))
    activate(m, "01061")
    assert kind(m) == "scry_deck" and keys(m) == ["deck:0", "deck:encounter"]
    answer(m, "deck:encounter")
    assert kind(m) == "scry_order" and len(keys(m)) == 3
    answer(m, f"card:{enemy(m, 't_omen')}")
    answer(m, f"card:{enemy(m, 't_grasp')}")
    assert codes_in(m, "encounter") == ["t_omen", "t_grasp", "t_dread", "t_surge"]
    assert st(m).cards[enemy(m, "01061")].counters["uses"] == 2
    m2 = scenario(desc(inv("01004", assets=["01061"], deck=["01089", "01090", "01091"])))
    activate(m2, "01061")  # only one deck: no deck question
    answer(m2, f"card:{enemy(m2, '01091')}")
    answer(m2, f"card:{enemy(m2, '01090')}")
    assert codes_in(m2, "deck.0") == ["01091", "01090", "01089"]


# ------------------------------------------------------------------ A975.15


def test_A975_15_wendy_discards_a_card_to_redraw_a_token_once_per_test() -> None:
    m = scenario(desc(inv("01005", hand=["01089", "01090"]), tokens=["auto_fail", "0", "-4"],
                      locations=[{"code": "t_loc_a", "clues": 2}]))
    answer(m, "investigate")
    answer(m)  # commit nothing
    assert kind(m) == "wendy_redraw" and keys(m)[0] == "pass"
    answer(m, f"card:{enemy(m, '01090')}")
    assert "01090" in codes_in(m, "discard.0")
    assert events(m, "token_cancelled")[0].data["token"] == "auto_fail"
    assert kind(m) != "wendy_redraw"  # once per test
    assert st(m).inv[0].clues == 1  # intellect 3 + 0 vs 2
    answer(m, "investigate")
    commit_none(m)  # A913.2
    assert kind(m) == "wendy_redraw"  # a new test: she may again
    answer(m, "pass")
    assert events(m, "test_failed")


def test_A975_15_wendy_needs_a_card_in_hand() -> None:
    m = scenario(desc(inv("01005"), tokens=["auto_fail"], locations=[{"code": "t_loc_a",
                                                                      "clues": 2}]))
    answer(m, "investigate")
    assert kind(m) != "wendy_redraw" and events(m, "test_failed")


# ------------------------------------------------------------------ A975 other abilities


def test_A975_8_skill_value_helper_still_counts_bonuses() -> None:
    m = scenario(desc(inv("01002", assets=["01033"])))
    assert skill_value(st(m), 0, "intellect") == 5 + 1  # Dr. Milan Christopher
    assert pending(m).kind == "action"


# ------------------------------------------------------------------ core cards (A975)


def _value(m: Any) -> int:
    ev = (events(m, "test_succeeded") + events(m, "test_failed"))[-1]
    return int(str(ev.data["value"]))


def test_A975_10_dodge_cancels_an_attack() -> None:
    m = scenario(desc(inv(hand=["01023"], resources=1), phase="enemy",
                      enemies=[{"code": "t_ghoul", "engaged": 0}]))
    pass_until(m, "use_trigger")
    answer(m, "yes")
    pass_until(m, "action")
    assert st(m).inv[0].damage == 0 and st(m).inv[0].resources < 1 + 1 + 1
    assert "01023" in codes_in(m, "discard.0")


def test_A975_8_magnifying_glass_is_fast_and_helps_investigating() -> None:
    m = scenario(desc(inv(hand=["01030"]), tokens=["0"]))
    play(m, "01030")
    assert st(m).inv[0].actions == 3  # fast: no action spent
    answer(m, "investigate")
    assert _value(m) == 3 + 1


def test_A975_1_each_pay_one_boost() -> None:
    # (card, investigator, action key, ability index, skill value without it)
    cases = [("01034", "01002", "investigate", 0, 5), ("01062", "01004", "investigate", 1, 2),
             ("01049", "01003", "fight", 0, 3), ("01077", "01005", "evade", 1, 4)]
    for code, who, action, idx, base in cases:
        foes = [] if action == "investigate" else [{"code": "t_ghoul", "engaged": 0}]
        m = scenario(desc(inv(who, assets=[code], resources=2), tokens=["0"], enemies=foes))
        key = action if action == "investigate" else f"{action}:{enemy(m, 't_ghoul')}"
        answer(m, key)
        assert kind(m) == "fast_window", code
        answer(m, f"fast:{enemy(m, code)}:{idx}")
        assert st(m).inv[0].resources == 1, code
        pass_until(m, "action")
        assert _value(m) == base + 1, code


def test_A975_8_working_a_hunch_discovers_a_clue() -> None:
    m = scenario(desc(inv("01002", hand=["01037"], resources=2)))
    play(m, "01037")
    assert st(m).inv[0].clues == 1 and st(m).inv[0].actions == 3


def test_A975_4_switchblade_extra_damage_on_a_wide_success() -> None:
    m = scenario(desc(inv(assets=["01044"], hand=["01091"]), tokens=["+1", "+1"],
                      enemies=[{"code": "01116", "engaged": 0}]))
    activate(m, "01044")  # combat 4 + 1 vs 4: by 1, 1 damage
    answer(m)
    priest = enemy(m, "01116")
    assert st(m).cards[priest].counters["damage"] == 1
    activate(m, "01044")
    answer(m, f"commit:{enemy(m, '01091')}")  # 4 + 2 + 1 = 7 vs 4: by 3, 2 damage
    assert st(m).cards[priest].counters["damage"] == 1 + 2


def test_A975_8_burglary_gains_resources_instead_of_a_clue() -> None:
    m = scenario(desc(inv("01003", assets=["01045"], resources=0), tokens=["0"]))
    activate(m, "01045")
    assert st(m).inv[0].resources == 3 and st(m).inv[0].clues == 0
    assert st(m).cards[enemy(m, "01045")].exhausted


def test_A978_4_leo_de_luca_gives_an_action() -> None:
    m = scenario(desc(inv("01003", assets=["01048"])))
    assert st(m).inv[0].actions == 4


def test_A975_8_backstab_fights_with_agility_for_two_more_damage() -> None:
    m = scenario(desc(inv("01003", hand=["01051"], resources=3), tokens=["0"],
                      enemies=[{"code": "01116", "engaged": 0}]))
    play(m, "01051")  # agility 4 vs 4
    assert st(m).cards[enemy(m, "01116")].counters["damage"] == 1 + 2


def test_A975_8_forbidden_knowledge_trades_horror_for_a_resource() -> None:
    m = scenario(desc(inv("01004", assets=["01058"], resources=0)))
    activate(m, "01058")
    fk = enemy(m, "01058")
    assert st(m).inv[0].resources == 1 and st(m).inv[0].horror == 1
    assert st(m).cards[fk].counters["uses"] == 3 and st(m).cards[fk].exhausted


def test_A978_9_holy_rosary_and_leather_coat_boost_and_soak() -> None:
    m = scenario(desc(inv("01004", assets=["01059", "01072"]), phase="enemy",
                      enemies=[{"code": "01116", "engaged": 0}]))
    assert skill_value(st(m), 0, "willpower") == 5 + 1
    seen: set[str] = set()
    while kind(m) != "action":
        if kind(m) in ("assign_damage", "assign_horror"):
            seen.update(keys(m))
            answer(m, next(k for k in keys(m) if k.startswith("asset:")))
        else:
            answer(m, "no" if "no" in keys(m) else keys(m)[0])
    assert {f"asset:{enemy(m, '01072')}", f"asset:{enemy(m, '01059')}"} <= seen
    assert codes_in(m, "discard.0") == ["01072", "01059"]  # both soaked their limit
    assert st(m).inv[0].damage == 0 and st(m).inv[0].horror == 0


def test_A975_3_fearless_heals_horror_on_success() -> None:
    m = scenario(desc(inv("01004", assets=["01060"], hand=["01067"], horror=2), tokens=["0"],
                      enemies=[{"code": "t_ghoul", "engaged": 0}]))
    activate(m, "01060")  # Shrivelling: a willpower test
    answer(m, f"commit:{enemy(m, '01067')}")
    pass_until(m, "action")
    assert st(m).inv[0].horror == 1


def test_A975_2_scavenging_takes_an_item_back() -> None:
    m = scenario(desc(inv("01002", assets=["01073"], discard=["01086"]), tokens=["0"]))
    answer(m, "investigate")  # intellect 5 vs 2: by 3
    if kind(m) == "use_trigger":
        answer(m, "yes")
    assert "01086" in codes_in(m, "hand.0")
    assert st(m).cards[enemy(m, "01073")].exhausted


def test_A507_3_lucky_turns_a_near_miss_into_a_success() -> None:
    m = scenario(desc(inv(hand=["01080"], resources=1), tokens=["-2"]))
    answer(m, "investigate")  # intellect 3 - 2 vs 2: would fail
    commit_none(m)  # A913.2
    assert kind(m) == "would_fail"
    answer(m, f"play:{enemy(m, '01080')}")
    assert st(m).inv[0].clues == 1 and "01080" in codes_in(m, "discard.0")


def test_A975_3_survival_instinct_disengages_the_others_and_may_move() -> None:
    m = scenario(desc(inv("01003", hand=["01081"]), tokens=["0"],
                      enemies=[{"code": "t_ghoul", "engaged": 0},
                               {"code": "t_rat", "engaged": 0}]))
    answer(m, f"evade:{enemy(m, 't_ghoul')}")
    answer(m, f"commit:{enemy(m, '01081')}")
    assert kind(m) == "disengage" and keys(m) == ["disengage", "keep"]  # optional (01081)
    answer(m, "disengage")
    assert kind(m) == "choose_location" and "stay" in keys(m)
    room_b = loc(m, "t_loc_b")
    answer(m, f"location:{room_b}")
    assert st(m).inv[0].location == room_b
    assert where(m, enemy(m, "t_rat")) == loc(m, "t_loc_a")


def test_A107_3_unexpected_courage_once_per_test() -> None:
    m = scenario(desc(inv(hand=["01093", "01093"]), tokens=["0"]))
    answer(m, "investigate")
    answer(m, *[f"commit:{c}" for c in st(m).zones["hand.0"].cards])
    assert _value(m) == 3 + 2 and len(codes_in(m, "hand.0")) == 1


def test_A975_8_knife_two_ways_to_fight() -> None:
    m = scenario(desc(inv(assets=["01086"]), tokens=["0", "0"],
                      enemies=[{"code": "01116", "engaged": 0}]))
    activate(m, "01086", 0)
    assert _value(m) == 4 + 1 and st(m).cards[enemy(m, "01116")].counters["damage"] == 1
    activate(m, "01086", 1)  # discard it: +2 and +1 damage
    assert _value(m) == 4 + 2 and st(m).cards[enemy(m, "01116")].counters["damage"] == 1 + 2
    assert "01086" in codes_in(m, "discard.0")


def test_A975_8_flashlight_lowers_the_shroud() -> None:
    m = scenario(desc(inv(assets=["01087"]), tokens=["-3"]))
    activate(m, "01087")  # intellect 3 - 3 = 0 vs shroud 2 - 2 = 0
    assert st(m).inv[0].clues == 1 and st(m).cards[enemy(m, "01087")].counters["uses"] == 2


def test_A975_8_emergency_cache_gains_three() -> None:
    m = scenario(desc(inv(hand=["01088"], resources=0)))
    play(m, "01088")
    assert st(m).inv[0].resources == 3


def test_A975_3_skill_cards_draw_on_success() -> None:
    for code, action in (("01090", "investigate"), ("01091", "fight"), ("01092", "evade")):
        m = scenario(desc(inv("01005", hand=[code], deck=["01088"]), tokens=["+1"],
                          enemies=[{"code": "t_ghoul", "engaged": 0}]))
        key = action if action == "investigate" else f"{action}:{enemy(m, 't_ghoul')}"
        answer(m, key)
        answer(m, f"commit:{enemy(m, code)}")
        pass_until(m, "action")
        assert "01088" in codes_in(m, "hand.0"), code
    m = scenario(desc(inv("01004", assets=["01060"], hand=["01089"], deck=["01088"]),
                      tokens=["0"], enemies=[{"code": "t_ghoul", "engaged": 0}]))
    activate(m, "01060")  # Shrivelling tests willpower
    answer(m, f"commit:{enemy(m, '01089')}")
    pass_until(m, "action")
    assert "01088" in codes_in(m, "hand.0")


# ------------------------------------------------------------------ experience cards (A978)


def test_A978_9_magnifying_glass_1_returns_to_hand_where_no_clues_are_left() -> None:
    m = scenario(desc(inv(assets=["01040"]), locations=[{"code": "t_loc_a", "clues": 1}]))
    glass = enemy(m, "01040")
    assert f"fast:{glass}:0" not in keys(m)  # clues are left here
    m2 = scenario(desc(inv(assets=["01040"]), locations=[{"code": "t_loc_a", "clues": 0}]))
    glass = enemy(m2, "01040")
    answer(m2, f"fast:{glass}:0")
    assert "01040" in codes_in(m2, "hand.0") and st(m2).inv[0].actions == 3


def test_A978_9_disc_of_itzamna_only_for_non_elite_spawns_here() -> None:
    m = scenario(desc(inv("01002", assets=["01041"]), phase="mythos", round=2,
                      encounter_deck=["t_boss"]))
    assert kind(m) != "use_trigger"  # an Elite enemy
    m2 = scenario(desc(inv("01002", assets=["01041"]), phase="mythos", round=2,
                       encounter_deck=["t_ghoul"]))
    answer(m2, "no")  # declined: it stays engaged
    assert st(m2).cards[enemy(m2, "t_ghoul")].zone == "threat.0"
    assert "01041" in codes_in(m2, "play.0")


def test_A978_9_encyclopedia_boosts_the_chosen_investigators_chosen_skill() -> None:
    m = scenario(desc(inv("01002", assets=["01042"]), inv()))
    first_turn(m)
    activate(m, "01042")
    answer(m, "inv:1")
    assert kind(m) == "choose_skill" and pending(m).player == 0
    assert keys(m) == ["skill:willpower", "skill:intellect", "skill:combat", "skill:agility"]
    answer(m, "skill:agility")
    assert skill_value(st(m), 1, "agility") == 2 + 2
    assert skill_value(st(m), 0, "agility") == 2


def test_A978_9_cryptic_research_the_chosen_investigator_draws_three() -> None:
    m = scenario(desc(inv("01002", hand=["01043"]), inv(deck=["01088"] * 4)))
    first_turn(m)
    play(m, "01043")
    answer(m, "inv:1")
    assert codes_in(m, "hand.1") == ["01088"] * 3 and codes_in(m, "hand.0") == []


def test_A978_9_extra_ammunition_on_a_firearm_here() -> None:
    m = scenario(desc(inv(hand=["01026"], assets=["01016"]), inv("01003", assets=["01016"])))
    first_turn(m)
    play(m, "01026")
    theirs = st(m).zones["play.1"].cards[-1]
    assert kind(m) == "choose_asset" and len(keys(m)) == 2
    answer(m, f"asset:{theirs}")
    assert st(m).cards[theirs].counters["uses"] == 4 + 3


def test_A978_4_police_badge_gives_the_active_investigator_two_actions() -> None:
    m = scenario(desc(inv("01003"), inv(assets=["01027"])))
    first_turn(m, 0)  # Skids's turn; Roland holds the badge
    badge = enemy(m, "01027")
    key = f"lend:1:{badge}:0"
    assert key in keys(m)
    answer(m, key)
    assert kind(m) == "lend_ability" and pending(m).player == 1
    answer(m, "use")
    assert st(m).inv[0].actions == 3 + 2 and "01027" in codes_in(m, "discard.1")
    m2 = scenario(desc(inv("01003"), inv(assets=["01027"], location="t_loc_b")))
    first_turn(m2, 0)
    assert not any(k.startswith("lend:") for k in keys(m2))  # not at your location


def test_A978_5_sure_gamble_only_after_a_negative_token() -> None:
    m = scenario(desc(inv("01003", hand=["01056"], resources=3), tokens=["0"]))
    answer(m, "investigate")
    commit_none(m)  # A913.2
    assert kind(m) != "sure_gamble" and st(m).inv[0].clues == 1
    m2 = scenario(desc(inv("01003", hand=["01056"], resources=3), tokens=["-1"]))
    answer(m2, "investigate")  # 3 - 1 would already succeed: it may still be played
    commit_none(m2)  # A913.2
    assert kind(m2) == "sure_gamble" and keys(m2)[-1] == "pass"
    answer(m2, "pass")
    assert events(m2, "test_succeeded")[0].data["value"] == 2


def test_A978_7_grotesque_statue_may_be_declined_or_keep_the_worse_token() -> None:
    m = scenario(desc(inv("01004", assets=["01071"]), tokens=["-4", "+1"]))
    answer(m, "investigate")
    answer(m, "pass")  # one token, no charge spent
    statue = enemy(m, "01071")
    assert st(m).cards[statue].counters["uses"] == 4 and events(m, "test_failed")
    m2 = scenario(desc(inv("01004", assets=["01071"]), tokens=["-4", "+1"]))
    answer(m2, "investigate")
    answer(m2, "use")
    answer(m2, "token:1")  # the tester's choice, even the worse one
    assert events(m2, "test_failed")[0].data["tokens"] == "-4:-4"


def test_A978_9_aquinnah_sends_the_attack_damage_to_another_enemy() -> None:
    m = scenario(desc(inv("01005", assets=["01082"]), phase="enemy",
                      enemies=[{"code": "01116", "engaged": 0},
                               {"code": "t_ghoul", "location": "t_loc_a", "exhausted": True}]))
    while kind(m) != "use_trigger":
        answer(m, keys(m)[0])
    answer(m, "yes")
    pass_until(m, "action")
    aq = enemy(m, "01082")
    assert st(m).inv[0].damage == 0
    hit = events(m, "enemy_damaged")[0]  # the Ghoul Priest's 2 damage
    assert hit.card == enemy(m, "t_ghoul") and hit.amount == 2
    assert st(m).cards[aq].counters.get("horror") == 1
    assert st(m).inv[0].horror + sum(
        st(m).cards[c].counters.get("horror", 0) for c in st(m).zones["play.0"].cards) == 2 + 1


def test_A978_9_close_call_ignores_elite_enemies() -> None:
    m = scenario(desc(inv("01003", hand=["01083"], resources=3), tokens=["+1"],
                      enemies=[{"code": "t_boss", "engaged": 0}]))
    answer(m, f"evade:{enemy(m, 't_boss')}")  # agility 4 + 1 vs 3
    answer(m)
    assert kind(m) != "use_trigger" and "01083" in codes_in(m, "hand.0")


def test_A978_6_mind_wipe_chooses_among_enemies_here() -> None:
    m = scenario(desc(inv("01004", hand=["01068"], resources=3), phase="enemy",
                      enemies=[{"code": "t_stalker", "engaged": 0},
                               {"code": "t_ghoul", "location": "t_loc_a", "exhausted": True}]))
    answer(m, "yes")
    assert kind(m) == "choose_enemy"
    answer(m, f"enemy:{enemy(m, 't_ghoul')}")
    assert st(m).cards[enemy(m, "t_ghoul")].counters.get("blank")
    assert not st(m).cards[enemy(m, "t_stalker")].counters.get("blank")


def test_A975_13_wendys_amulet_also_takes_events_played_when_failing() -> None:
    m = scenario(desc(inv("01005", assets=["01014"], hand=["01080"], resources=1),
                      tokens=["-2"]))
    answer(m, "investigate")
    commit_none(m)  # A913.2
    answer(m, "pass")  # Wendy keeps the token
    answer(m, f"play:{enemy(m, '01080')}")  # Lucky!: 3 - 2 + 2 vs 2
    assert st(m).inv[0].clues == 1
    assert codes_in(m, "deck.0")[-1] == "01080" and "01080" not in codes_in(m, "discard.0")


def test_A978_6_mind_wipes_blank_is_taken_off_when_the_round_ends() -> None:
    """Mind Wipe (01068) blanks the Ghoul at the start of the enemy phase; when the round ends
    the blank counter comes off the card (the next round's state holds no trace of it)."""
    m = scenario(desc(inv("01004", hand=["01068"], resources=3), phase="enemy",
                      enemies=[{"code": "t_stalker", "engaged": 0},
                               {"code": "t_ghoul", "location": "t_loc_a", "exhausted": True}]))
    answer(m, "yes")
    ghoul = enemy(m, "t_ghoul")
    answer(m, f"enemy:{ghoul}")
    assert "blank" in st(m).cards[ghoul].counters
    while kind(m) != "action":
        answer(m, "inv" if "inv" in keys(m) else "no")
    assert st(m).turn == 2 and "blank" not in st(m).cards[ghoul].counters


def test_A978_6_shuffle_enemy_back_without_a_trigger_card_takes_an_exhausted_enemy() -> None:
    """A described event with ``shuffle_enemy_back`` and no target (the general path, not
    Close Call's evaded enemy) takes the first exhausted non-Elite enemy at the location: a
    ready aloof Shade first in the room stays, the exhausted Ghoul after it goes back."""
    sweep = {"code": "x_sweep", "name": "Test Sweep", "type_code": "event", "cost": 0,
             "effects": [{"op": "shuffle_enemy_back"}]}
    m = scenario(desc(inv("t_inv_guard", hand=["x_sweep"]), cards=[sweep],
                      enemies=[{"code": "t_shade", "location": "t_loc_a"},
                               {"code": "t_ghoul", "location": "t_loc_a", "exhausted": True}]))
    shade, ghoul = enemy(m, "t_shade"), enemy(m, "t_ghoul")
    assert st(m).zones[f"at.{loc(m, 't_loc_a')}"].cards == [shade, ghoul]
    play(m, "x_sweep")
    assert st(m).cards[ghoul].zone == "encounter"
    assert st(m).cards[shade].zone == f"at.{loc(m, 't_loc_a')}"
