"""Investigation phase, turns and actions (A403–A416)."""

from __future__ import annotations

from tcgcore_arkham_card import scenario
from tcgcore_arkham_card.testkit import (
    answer,
    codes_in,
    commit_none,
    desc,
    enemy,
    events,
    keys,
    kind,
    loc,
    pass_until,
    st,
    where,
    who,
)

DECK = ["t_guts"] * 6


def guard(**kw: object) -> dict[str, object]:
    out: dict[str, object] = {"code": "t_inv_guard", "location": "t_loc_a", "deck": DECK}
    out.update(kw)
    return out


def test_A403_1_A403_2_lead_picks_turn_order_each_takes_one_turn() -> None:
    m = scenario(desc(guard(), {"code": "t_inv_seeker", "location": "t_loc_a", "deck": DECK}))
    assert kind(m) == "turn_order" and who(m) == 0
    assert keys(m) == ["inv:0", "inv:1"]
    answer(m, "inv:1")
    assert who(m) == 1 and kind(m) == "action"
    answer(m, "end_turn")  # A403.3: unused actions are lost
    assert st(m).inv[1].acted and st(m).inv[1].actions == 0  # A403.4
    assert who(m) == 0 and kind(m) == "action"
    answer(m, "end_turn")
    assert st(m).phase != "investigation" or st(m).turn == 2


def test_A404_1_A406_1_A109_1_three_actions_then_the_turn_ends() -> None:
    m = scenario(desc(guard()))
    for _ in range(3):
        answer(m, "resource")
    assert st(m).inv[0].resources == 9  # 5 + 3 actions + 1 in upkeep (A418.3)
    assert st(m).turn == 2  # the turn ended by itself and the round moved on


def test_A404_2_basic_actions_offered() -> None:
    m = scenario(desc(guard(hand=["t_knife"]), enemies=[{"code": "t_ghoul", "engaged": 0},
                                                      {"code": "t_rat", "location": "t_loc_a",
                                                       "exhausted": True}]))
    ks = set(keys(m))
    ghoul, rat = enemy(m, "t_ghoul"), enemy(m, "t_rat")
    knife = enemy(m, "t_knife")
    assert {"draw", "resource", "investigate", f"move:{loc(m, 't_loc_b')}", f"play:{knife}",
            f"fight:{ghoul}", f"fight:{rat}", f"engage:{rat}", f"evade:{ghoul}",
            "end_turn"} <= ks
    assert f"evade:{rat}" not in ks  # A412.1: only engaged enemies
    assert f"engage:{ghoul}" not in ks  # A411.1: not an enemy already engaged with you


def test_A404_3_additional_action_from_an_asset() -> None:
    m = scenario(desc(guard(assets=["t_leo"])))
    assert st(m).inv[0].actions == 4


def test_A405_1_draw_action() -> None:
    m = scenario(desc(guard(deck=["t_perception", "t_guts"])))
    answer(m, "draw")
    assert codes_in(m, "hand.0") == ["t_perception"]


def test_A407_1_A204_1_A106_1_activate_spends_uses() -> None:
    m = scenario(desc(guard(hand=["t_lamp"]), tokens=["0"]))
    answer(m, f"play:{enemy(m, 't_lamp')}")
    lamp = enemy(m, "t_lamp")
    assert st(m).cards[lamp].counters["uses"] == 3
    answer(m, f"activate:{lamp}:0")
    assert st(m).cards[lamp].counters["uses"] == 2
    assert events(m, "test_started")[-1].data["difficulty"] == 0  # shroud 2 - 2


def test_A204_2_no_uses_left_no_ability() -> None:
    m = scenario(desc(guard(assets=[{"code": "t_lamp", "uses": 0}])))
    assert not [k for k in keys(m) if k.startswith("activate:")]
    assert codes_in(m, "play.0") == ["t_inv_guard", "t_lamp"]


def test_A416_3_A413_2_weapon_fight_ability_provokes_nothing() -> None:
    m = scenario(desc(guard(assets=["t_pistol"]), tokens=["+1"],
                      enemies=[{"code": "t_ghoul", "engaged": 0}, {"code": "t_rat", "engaged": 0}]))
    pistol = enemy(m, "t_pistol")
    answer(m, f"activate:{pistol}:0")
    assert kind(m) == "choose_enemy"
    answer(m, f"enemy:{enemy(m, 't_ghoul')}")
    pass_until(m, "action")
    assert not events(m, "enemy_attacks")
    # A413.2: 1 damage + 1 from the weapon defeats the 2-health ghoul
    assert codes_in(m, "encounter_discard") == ["t_ghoul"]


def test_A408_1_A904_2_play_pays_cost_and_needs_enough_resources() -> None:
    m = scenario(desc(guard(hand=["t_pistol", "t_leo"], resources=3)))
    pistol, leo = enemy(m, "t_pistol"), enemy(m, "t_leo")
    assert f"play:{leo}" not in keys(m)
    answer(m, f"play:{pistol}")
    assert st(m).inv[0].resources == 0 and codes_in(m, "play.0")[-1] == "t_pistol"


def test_A409_1_A211_2_A211_3_move_reveals_and_places_clues() -> None:
    m = scenario({"investigators": [guard()],
                  "locations": [{"code": "t_loc_a"}, {"code": "t_loc_b", "revealed": False}]})
    b = loc(m, "t_loc_b")
    assert "revealed" not in st(m).cards[b].counters
    answer(m, f"move:{b}")
    assert st(m).inv[0].location == b
    assert st(m).cards[b].counters == {"revealed": 1, "clues": 2}
    answer(m, f"move:{loc(m, 't_loc_a')}")
    answer(m, f"move:{b}")
    assert st(m).cards[b].counters["clues"] == 2  # A211.4: clues placed once


def test_A605_6_A211_5_unrevealed_barrier_cannot_be_entered() -> None:
    m = scenario({"investigators": [guard()],
                  "locations": [{"code": "t_loc_a"}, {"code": "t_loc_barrier", "revealed": False}]})
    assert f"move:{loc(m, 't_loc_barrier')}" not in keys(m)
    assert st(m).adj[str(loc(m, "t_loc_a"))] == [loc(m, "t_loc_barrier")]


def test_A410_1_A410_2_investigate_equal_to_shroud_succeeds() -> None:
    m = scenario({"investigators": [guard()], "tokens": ["-1"],
                  "locations": [{"code": "t_loc_a", "clues": 2}]})
    answer(m, "investigate")  # intellect 3 - 1 = 2 = shroud 2
    assert st(m).inv[0].clues == 1 and st(m).cards[loc(m, "t_loc_a")].counters["clues"] == 1


def test_A109_3_no_clue_to_discover() -> None:
    m = scenario({"investigators": [guard()], "tokens": ["+1"],
                  "locations": [{"code": "t_loc_a", "clues": 0}]})
    answer(m, "investigate")
    assert events(m, "test_succeeded") and st(m).inv[0].clues == 0


def test_A411_1_engage_an_enemy_engaged_with_another_investigator() -> None:
    m = scenario(desc(guard(), {"code": "t_inv_seeker", "location": "t_loc_a", "deck": DECK},
                      enemies=[{"code": "t_ghoul", "engaged": 1}]))
    answer(m, "inv:0")
    ghoul = enemy(m, "t_ghoul")
    answer(m, f"engage:{ghoul}")
    assert st(m).cards[ghoul].zone == "threat.0"


def test_A412_2_successful_evade_exhausts_and_disengages() -> None:
    m = scenario(desc(guard(), tokens=["+1"], enemies=[{"code": "t_ghoul", "engaged": 0}]))
    ghoul = enemy(m, "t_ghoul")
    answer(m, f"evade:{ghoul}")  # agility 2 + 1 >= 2
    assert st(m).cards[ghoul].exhausted
    assert st(m).cards[ghoul].zone == f"at.{loc(m, 't_loc_a')}"
    assert events(m, "enemy_evaded")


def test_A412_3_automatic_evasion_is_not_a_successful_evasion() -> None:
    m = scenario(desc(guard(hand=["t_distraction"]), enemies=[{"code": "t_ghoul", "engaged": 0}]))
    answer(m, f"play:{enemy(m, 't_distraction')}")
    ghoul = enemy(m, "t_ghoul")
    assert st(m).cards[ghoul].exhausted and not events(m, "enemy_evaded")
    assert events(m, "enemy_auto_evaded") and not events(m, "test_started")


def test_A413_1_A413_3_failed_attack_hits_the_engaged_investigator() -> None:
    m = scenario(desc(guard(), {"code": "t_inv_seeker", "location": "t_loc_a", "deck": DECK},
                      tokens=["auto_fail"], enemies=[{"code": "t_ghoul", "engaged": 1}]))
    answer(m, "inv:0")
    answer(m, f"fight:{enemy(m, 't_ghoul')}")
    assert st(m).inv[1].damage == 1 and st(m).inv[0].damage == 0


def test_A611_4_failed_attack_on_massive_hurts_nobody() -> None:
    m = scenario(desc(guard(), {"code": "t_inv_seeker", "location": "t_loc_a", "deck": DECK},
                      tokens=["auto_fail"], enemies=[{"code": "t_brute", "location": "t_loc_a"}]))
    answer(m, "inv:0")
    answer(m, f"fight:{enemy(m, 't_brute')}")
    assert st(m).inv[1].damage == 0


def test_A604_1_A604_2_unengaged_aloof_enemy_cannot_be_fought_or_evaded() -> None:
    m = scenario(desc(guard(), enemies=[{"code": "t_shade", "location": "t_loc_a"}]))
    shade = enemy(m, "t_shade")
    assert st(m).cards[shade].zone.startswith("at.")  # A604.1: never engages by itself
    assert f"fight:{shade}" not in keys(m) and f"evade:{shade}" not in keys(m)
    answer(m, f"engage:{shade}")  # A604.1: engaged through the engage action
    assert f"fight:{shade}" in keys(m) and f"evade:{shade}" in keys(m)


def test_A414_1_parley_does_not_provoke() -> None:
    m = scenario(desc(guard(location="t_loc_c"), tokens=["0"],
                      enemies=[{"code": "t_ghoul", "engaged": 0}]))
    answer(m, f"activate:{loc(m, 't_loc_c')}:0")
    assert not events(m, "enemy_attacks")
    assert st(m).inv[0].resources == 7


def test_A416_1_A416_2_A416_6_attack_of_opportunity_before_the_effect() -> None:
    m = scenario(desc(guard(deck=["t_perception"]), enemies=[{"code": "t_ghoul", "engaged": 0}]))
    answer(m, "draw")
    ev = [e.kind for e in events(m) if e.kind in ("enemy_attacks", "drawn", "action_taken")]
    assert ev == ["action_taken", "enemy_attacks", "drawn"]
    assert not st(m).cards[enemy(m, "t_ghoul")].exhausted


def test_A416_3_fight_evade_resign_do_not_provoke() -> None:
    m = scenario(desc(guard(), tokens=["auto_fail", "auto_fail"],
                      enemies=[{"code": "t_ghoul", "engaged": 0}, {"code": "t_rat", "engaged": 0}]))
    answer(m, f"fight:{enemy(m, 't_ghoul')}")
    answer(m, f"evade:{enemy(m, 't_rat')}")
    assert not events(m, "enemy_attacks")
    assert (st(m).inv[0].damage, st(m).inv[0].horror) == (0, 0)  # nothing attacked unannounced


def test_A416_4_A905_1_fast_play_does_not_provoke() -> None:
    m = scenario(desc(guard(hand=["t_hunch"]), enemies=[{"code": "t_ghoul", "engaged": 0}]))
    answer(m, f"fastplay:{enemy(m, 't_hunch')}")
    assert not events(m, "enemy_attacks")
    assert st(m).inv[0].clues == 1 and st(m).inv[0].actions == 3


def test_A417_6_exhausted_enemies_make_no_attack_of_opportunity() -> None:
    m = scenario(desc(guard(), enemies=[{"code": "t_ghoul", "engaged": 0, "exhausted": True}]))
    answer(m, "resource")
    assert not events(m, "enemy_attacks")
    assert where(m, enemy(m, "t_ghoul")) == loc(m, "t_loc_a")


def test_A416_7_taking_an_action_provokes_performing_does_not() -> None:
    cards = [{"code": "x_take", "name": "Take", "type_code": "event", "cost": 0, "fast": True,
              "effects": [{"op": "take_investigate"}]},
             {"code": "x_perform", "name": "Perform", "type_code": "event", "cost": 0,
              "fast": True, "effects": [{"op": "perform_investigate"}]}]
    m = scenario(desc(guard(hand=["x_take", "x_perform"]), cards=cards, tokens=["0", "0"],
                      enemies=[{"code": "t_ghoul", "engaged": 0}]))
    answer(m, f"fastplay:{enemy(m, 'x_perform')}")
    commit_none(m)  # A913.2: the other card is still in hand
    assert not events(m, "enemy_attacks")
    assert (st(m).inv[0].damage, st(m).inv[0].horror) == (0, 0)
    answer(m, f"fastplay:{enemy(m, 'x_take')}")
    assert len(events(m, "enemy_attacks")) == 1
    assert (st(m).inv[0].damage, st(m).inv[0].horror) == (1, 1)  # the Ghoul's attack, once


def test_A404_3_restricted_additional_action_is_used_first() -> None:
    cards = [{"code": "x_reader", "name": "Reader", "type_code": "investigator",
              "skill_willpower": 3, "skill_intellect": 5, "skill_combat": 2,
              "skill_agility": 2, "health": 5, "sanity": 9, "bonus": {"action:Tome": 1}},
             {"code": "x_tome", "name": "Tome", "type_code": "asset", "cost": 0,
              "traits": "Item. Tome.", "abilities": [
                  {"kind": "action", "effects": [{"op": "gain_resources", "amount": 1}]}]}]
    m = scenario(desc({"code": "x_reader", "location": "t_loc_a", "deck": DECK,
                       "assets": ["x_tome"]}, cards=cards))
    tome = enemy(m, "x_tome")
    answer(m, f"activate:{tome}:0")
    assert st(m).inv[0].actions == 3 and st(m).inv[0].special_actions == []
    answer(m, f"activate:{tome}:0")
    assert st(m).inv[0].actions == 2


def test_A108_a_fast_ability_that_boosts_a_test_waits_for_a_test() -> None:
    """Test Focus (fast: +1 intellect for this skill test) is not offered among a turn's
    options, where there is no test to boost, but is in an investigation's test window."""
    m = scenario(desc(guard(assets=["t_focus"]), tokens=["0"]))
    focus = enemy(m, "t_focus")
    assert kind(m) == "action"
    assert keys(m) == ["draw", "resource", "investigate", f"move:{loc(m, 't_loc_b')}",
                       "end_turn"]
    answer(m, "investigate")
    assert kind(m) == "fast_window" and keys(m) == [f"fast:{focus}:0", "pass"]
