"""Enemies: spawn, engagement, keywords, defeat (A209, A601–A615)."""

from __future__ import annotations

from tcgcore_arkham_card import scenario
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
    who,
)

DECK = ["t_guts"] * 6


def inv(code: str = "t_inv_guard", **kw: object) -> dict[str, object]:
    return investigator(code, DECK, **kw)


def mythos(*cards: str, invs: list[dict[str, object]] | None = None,
           locations: list[str] | None = None, **kw: object) -> dict[str, object]:
    d = desc(*(invs or [inv()]), phase="mythos", round=2, encounter_deck=list(cards), **kw)
    if locations:
        d["locations"] = [{"code": c} for c in locations]
    return d


def test_A601_1_spawn_at_named_location() -> None:
    m = scenario(mythos("t_stalker", locations=["t_loc_a", "t_loc_cellar"]))
    assert where(m, enemy(m, "t_stalker")) == loc(m, "t_loc_cellar")


def test_A601_2_no_spawn_location_in_play_discards() -> None:
    m = scenario(mythos("t_stalker", "t_voices"))
    assert codes_in(m, "encounter_discard")[0] == "t_stalker"
    assert events(m, "spawn_failed")


def test_A601_3_no_instruction_engages_the_drawer() -> None:
    m = scenario(mythos("t_ghoul", "t_voices", invs=[inv(), inv("t_inv_seeker")]))
    assert st(m).cards[enemy(m, "t_ghoul")].zone == "threat.0"


def test_A601_4_aloof_spawns_unengaged_at_drawers_location() -> None:
    m = scenario(mythos("t_shade"))
    assert st(m).cards[enemy(m, "t_shade")].zone == f"at.{loc(m, 't_loc_a')}"


def test_A209_2_A110_1_health_per_investigator() -> None:
    m = scenario(desc(inv(), inv("t_inv_seeker"), enemies=[{"code": "t_boss",
                                                           "location": "t_loc_d"}]))
    assert enemy_health(st(m), enemy(m, "t_boss")) == 6


def test_A209_3_engaged_enemy_is_at_investigators_location() -> None:
    m = scenario(desc(inv(location="t_loc_c"), enemies=[{"code": "t_ghoul", "engaged": 0}]))
    assert where(m, enemy(m, "t_ghoul")) == loc(m, "t_loc_c")


def test_A602_1_investigator_arriving_is_engaged() -> None:
    m = scenario(desc(inv(), enemies=[{"code": "t_ghoul", "location": "t_loc_b"}]))
    answer(m, f"move:{loc(m, 't_loc_b')}")
    assert st(m).cards[enemy(m, "t_ghoul")].zone == "threat.0"


def test_A602_2_A103_2_lead_breaks_an_engagement_tie() -> None:
    m = scenario(desc(inv(), inv("t_inv_seeker"), phase="upkeep",
                      enemies=[{"code": "t_ghoul", "location": "t_loc_a", "exhausted": True}]))
    assert kind(m) == "engage_target" and who(m) == 0
    answer(m, "inv:1")
    assert st(m).cards[enemy(m, "t_ghoul")].zone == "threat.1"


def test_A607_1_prey_chooses_among_investigators() -> None:
    m = scenario(desc(inv("t_inv_seeker"), inv(), phase="enemy",
                      enemies=[{"code": "t_boss", "location": "t_loc_b"}]))
    assert st(m).cards[enemy(m, "t_boss")].zone == "threat.1"  # highest combat


def test_A607_2_prey_only_ignores_others() -> None:
    m = scenario(desc(inv(), inv("t_inv_seeker", location="t_loc_c"), phase="enemy",
                      cards=[{"code": "x_mob", "name": "Mob", "type_code": "enemy",
                              "enemy_fight": 1, "health": 1, "enemy_evade": 1,
                              "enemy_damage": 1, "keywords": ["hunter"], "prey": "only:1"}],
                      enemies=[{"code": "x_mob", "location": "t_loc_a", "exhausted": False}]))
    mob = enemy(m, "x_mob")
    assert st(m).cards[mob].zone != "threat.0"
    assert where(m, mob) in (loc(m, "t_loc_b"), loc(m, "t_loc_c"))


def test_A602_3_engaged_enemy_does_not_switch() -> None:
    m = scenario(desc(inv(), inv("t_inv_seeker", location="t_loc_b"),
                      enemies=[{"code": "t_ghoul", "engaged": 0}]))
    answer(m, "inv:1")
    answer(m, f"move:{loc(m, 't_loc_a')}")
    assert st(m).cards[enemy(m, "t_ghoul")].zone == "threat.0"


def test_A602_4_A418_2_exhausted_enemy_engages_once_it_readies() -> None:
    m = scenario(desc(inv(), enemies=[{"code": "t_ghoul", "location": "t_loc_a",
                                       "exhausted": True}]))
    ghoul = enemy(m, "t_ghoul")
    assert st(m).cards[ghoul].zone.startswith("at.")
    answer(m, "end_turn")
    assert st(m).cards[ghoul].zone == "threat.0" and not st(m).cards[ghoul].exhausted


def test_A605_3_A417_1_hunters_with_investigators_or_exhausted_stay() -> None:
    m = scenario(desc(inv(), phase="enemy",
                      enemies=[{"code": "t_rat", "location": "t_loc_c", "exhausted": True},
                               {"code": "t_rat", "engaged": 0}]))
    assert where(m, enemy(m, "t_rat", 0)) == loc(m, "t_loc_c")


def test_A605_4_equidistant_targets_lead_chooses() -> None:
    m = scenario(desc(inv(), inv("t_inv_seeker", location="t_loc_c"), phase="enemy",
                      enemies=[{"code": "t_rat", "location": "t_loc_b"}]))
    assert kind(m) == "hunter_target"
    answer(m, "inv:1")
    assert st(m).cards[enemy(m, "t_rat")].zone == "threat.1"


def test_A605_5_two_shortest_paths_lead_chooses() -> None:
    m = scenario({"investigators": [inv(location="t_loc_d")], "phase": "enemy",
                  "locations": [{"code": "t_loc_a", "connections": ["t_loc_b", "t_loc_c"]},
                                {"code": "t_loc_b", "connections": ["t_loc_d"]},
                                {"code": "t_loc_c", "connections": ["t_loc_d"]},
                                {"code": "t_loc_d"}],
                  "enemies": [{"code": "t_rat", "location": "t_loc_a"}]})
    assert kind(m) == "hunter_path"
    answer(m, f"loc:{loc(m, 't_loc_c')}")
    assert where(m, enemy(m, "t_rat")) == loc(m, "t_loc_c")


def test_A605_7_lead_orders_several_movers() -> None:
    m = scenario(desc(inv(), phase="enemy",
                      enemies=[{"code": "t_rat", "location": "t_loc_c"},
                               {"code": "t_rat", "location": "t_loc_d"}]))
    assert kind(m) == "hunter_order"
    answer(m, f"enemy:{enemy(m, 't_rat', 1)}")
    assert where(m, enemy(m, "t_rat", 0)) == loc(m, "t_loc_b")
    assert where(m, enemy(m, "t_rat", 1)) == loc(m, "t_loc_c")


def test_A606_1_A606_2_patrol_moves_toward_its_target() -> None:
    m = scenario({"investigators": [inv(location="t_loc_garden")], "phase": "enemy",
                  "locations": [{"code": c} for c in ("t_loc_foyer", "t_loc_library",
                                                      "t_loc_vault", "t_loc_garden")],
                  "enemies": [{"code": "t_warden", "location": "t_loc_vault"},
                              {"code": "t_warden", "location": "t_loc_foyer"}]})
    assert where(m, enemy(m, "t_warden", 0)) == loc(m, "t_loc_library")
    assert where(m, enemy(m, "t_warden", 1)) == loc(m, "t_loc_foyer")


def test_A609_1_alert_attacks_on_failed_evasion_without_exhausting() -> None:
    m = scenario(desc(inv(), tokens=["auto_fail"], enemies=[{"code": "t_stalker",
                                                             "engaged": 0}]))
    stalker = enemy(m, "t_stalker")
    answer(m, f"evade:{stalker}")
    pass_until(m, "action")
    assert [e.card for e in events(m, "enemy_attacks")] == [stalker]
    assert not st(m).cards[stalker].exhausted


def test_A610_1_A610_2_elusive_leaves_after_attacking() -> None:
    m = scenario(desc(inv(), inv("t_inv_seeker", location="t_loc_c"), phase="enemy",
                      enemies=[{"code": "t_shade", "engaged": 0}]))
    shade = enemy(m, "t_shade")
    pass_until(m, "turn_order")
    assert where(m, shade) != loc(m, "t_loc_a")


def test_A610_1_elusive_leaves_after_being_attacked() -> None:
    m = scenario(desc(inv(), tokens=["auto_fail"], enemies=[{"code": "t_shade", "engaged": 0}]))
    shade = enemy(m, "t_shade")
    answer(m, f"fight:{shade}")
    assert where(m, shade) == loc(m, "t_loc_b") and st(m).cards[shade].exhausted


def test_A610_3_exhausted_elusive_stays() -> None:
    m = scenario(desc(inv(), tokens=["auto_fail"],
                      enemies=[{"code": "t_shade", "engaged": 0, "exhausted": True}]))
    shade = enemy(m, "t_shade")
    answer(m, f"fight:{shade}")
    assert where(m, shade) == loc(m, "t_loc_a")


def test_A611_1_A611_2_massive_engages_everyone_and_attacks_each() -> None:
    m = scenario(desc(inv(), inv("t_inv_seeker"), phase="enemy",
                      enemies=[{"code": "t_brute", "location": "t_loc_a"}]))
    brute = enemy(m, "t_brute")
    pass_until(m, "turn_order")
    assert [e.player for e in events(m, "enemy_attacks")] == [0, 1]
    assert st(m).cards[brute].zone.startswith("at.")


def test_A611_5_massive_attack_of_opportunity_only_on_provoker() -> None:
    m = scenario(desc(inv(), inv("t_inv_seeker"), enemies=[{"code": "t_brute",
                                                           "location": "t_loc_a"}]))
    answer(m, "inv:0")
    answer(m, "resource")
    assert [e.player for e in events(m, "enemy_attacks")] == [0]
    assert st(m).inv[0].damage == 2 and st(m).inv[1].damage == 0


def test_A612_1_A612_2_surge_draws_another() -> None:
    m = scenario(mythos("t_surge", "t_voices"))
    assert codes_in(m, "threat.0") == ["t_voices"]
    assert st(m).inv[0].resources == 4


def test_A402_4_A104_2_encounter_draws_in_player_order() -> None:
    m = scenario(mythos("t_voices", "t_ghoul", invs=[inv(), inv("t_inv_seeker")], lead=1))
    assert codes_in(m, "threat.1") == ["t_voices"] and codes_in(m, "threat.0") == ["t_ghoul"]


def test_A615_1_A615_3_defeated_enemy_with_victory_to_victory_display() -> None:
    m = scenario(desc(inv(), tokens=["+1"], enemies=[{"code": "t_stalker", "engaged": 0,
                                                       "damage": 2}]))
    answer(m, f"fight:{enemy(m, 't_stalker')}")
    assert codes_in(m, "victory") == ["t_stalker"]


def test_A615_2_A109_2_tokens_leave_with_the_enemy() -> None:
    m = scenario(desc(inv(), tokens=["+1"], encounter_deck=["t_voices"],
                      enemies=[{"code": "t_rat", "engaged": 0, "doom": 2}]))
    rat = enemy(m, "t_rat")
    answer(m, f"fight:{rat}")
    assert st(m).cards[rat].zone == "encounter_discard" and st(m).cards[rat].counters == {}


def test_A615_2_A208_3_defeated_weakness_enemy_to_owners_discard() -> None:
    m = scenario(desc(inv(deck=["t_w_stalker", *DECK]), tokens=["+1", "+1"]))
    answer(m, "draw")
    stalker = enemy(m, "t_w_stalker")
    assert st(m).cards[stalker].zone == "threat.0"  # A208.2: a drawn weakness enemy spawns
    pass_until(m, "action")
    answer(m, f"fight:{stalker}")
    answer(m, f"fight:{stalker}")
    assert st(m).cards[stalker].zone == "discard.0"


def test_keys_stable_public() -> None:
    m = scenario(desc(inv(), enemies=[{"code": "t_ghoul", "engaged": 0}]))
    assert all(":" not in k or k.split(":")[0] in ("move", "fight", "evade", "engage", "play",
                                                   "activate", "fastplay", "fast")
               for k in keys(m))


def test_A608_3_an_enemy_that_cannot_attack_never_retaliates() -> None:
    m = scenario(desc(inv(), tokens=["auto_fail", "auto_fail"], cards=[
        {"code": "x_shy", "name": "Shy Thing", "type_code": "enemy", "enemy_fight": 2,
         "health": 3, "enemy_evade": 2, "enemy_damage": 1,
         "keywords": ["retaliate", "alert", "cannot_attack"]}],
        enemies=[{"code": "x_shy", "engaged": 0}]))
    shy = enemy(m, "x_shy")
    answer(m, f"fight:{shy}")
    answer(m, f"evade:{shy}")
    assert not events(m, "enemy_attacks")
    assert (st(m).inv[0].damage, st(m).inv[0].horror) == (0, 0)


def test_A901_1_when_effect_cancels_the_attack() -> None:
    m = scenario(desc(inv(hand=["t_dodge"]), phase="enemy",
                      enemies=[{"code": "t_ghoul", "engaged": 0}]))
    assert kind(m) == "use_trigger"
    answer(m, "yes")
    assert events(m, "attack_cancelled") and st(m).inv[0].damage == 0
    assert codes_in(m, "discard.0") == ["t_dodge"]


def test_A612_1_surge_chain_is_bounded_when_every_card_surges() -> None:
    m = scenario(mythos("t_surge"))
    assert kind(m) == "action" and len(events(m, "encounter_drawn")) == 31


def test_A601_5_spawning_at_a_location_counts_as_entering_it() -> None:
    cards = [{"code": "x_trap", "name": "Trap Room", "type_code": "location", "shroud": 1,
              "clues": 0, "symbol": "t", "connections": ["a"],
              "forced": {"enemy_enters": [{"op": "doom_agenda", "amount": 1}]}},
             {"code": "x_lurk", "name": "Lurker", "type_code": "enemy", "enemy_fight": 1,
              "health": 1, "enemy_evade": 1, "spawn": "x_trap"}]
    m = scenario(desc(inv(), phase="mythos", round=2, cards=cards,
                      locations=[{"code": "t_loc_a"}, {"code": "x_trap"}],
                      encounter_deck=["x_lurk"]))
    agenda = st(m).zones["agendas"].cards[0]
    assert st(m).cards[agenda].counters["doom"] == 1 + 1  # step 1.2, then the trap


def test_A615_5_a_discarded_enemy_is_not_defeated() -> None:
    m = scenario({"investigators": [inv(location="01111", clues=2)],
                  "locations": [{"code": "01111"}], "acts": ["01108", "01109"],
                  "set_aside": ["01112", "01113", "01114", "01115"],
                  "enemies": [{"code": "t_stalker", "location": "01111", "exhausted": True}]})
    answer(m, "advance_act")
    assert codes_in(m, "victory") == [] and "t_stalker" in codes_in(m, "encounter_discard")
    assert kind(m) == "action" and not events(m, "enemy_defeated")


def test_A605_2_hunter_moves_toward_the_nearest_investigator_not_the_farthest() -> None:
    """A605.2: rooms A-B-C-D in a row, the lead in A (two away), the other investigator in D
    (one away) and a hunter in C: it moves into D and engages the nearer investigator."""
    m = scenario(desc(inv(), inv("t_inv_seeker", location="t_loc_d"), phase="enemy",
                      enemies=[{"code": "t_rat", "location": "t_loc_c"}]))
    rat = enemy(m, "t_rat")
    assert st(m).cards[rat].zone == "threat.1"
    assert st(m).inv[1].location == loc(m, "t_loc_d")
    assert st(m).inv[0].location == loc(m, "t_loc_a")


def test_A605_2_hunter_engages_the_nearer_lead_rather_than_the_farther_investigator() -> None:
    """A605.2: a hunter in B, the lead one away in A and the other investigator two away in D:
    it moves into A and engages the lead (towards D it would stop in C)."""
    m = scenario(desc(inv(), inv("t_inv_seeker", location="t_loc_d"), phase="enemy",
                      enemies=[{"code": "t_rat", "location": "t_loc_b"}]))
    assert st(m).cards[enemy(m, "t_rat")].zone == "threat.0"


def test_A417_5_enemy_is_exhausted_after_its_enemy_phase_attack() -> None:
    """A417.5: each enemy that attacks in the enemy phase is exhausted afterwards (the state,
    seen while the second enemy's attack waits for a choice), not only announced."""
    m = scenario(desc(inv(assets=["t_charm"]), phase="enemy",
                      enemies=[{"code": "t_ghoul", "engaged": 0},
                               {"code": "t_ghoul", "engaged": 0}]))
    first, second = enemy(m, "t_ghoul", 0), enemy(m, "t_ghoul", 1)
    assert kind(m) == "attack_order"
    answer(m, f"enemy:{first}")
    assert kind(m) == "assign_horror"  # the first attack, before it is over
    assert not st(m).cards[first].exhausted
    answer(m, "inv")
    assert kind(m) == "assign_horror"  # the second attack waits; the first is done
    assert st(m).cards[first].exhausted and not st(m).cards[second].exhausted
    assert st(m).cards[first].zone == "threat.0"  # exhausted, still engaged (A417.5)
    answer(m, "inv")
    assert st(m).inv[0].horror == 2 and st(m).inv[0].damage == 2


def test_A605_2_distances_count_connections_from_the_start() -> None:
    """A605.2: distances are the number of connections to cross, 0 at the start."""
    from tcgcore_arkham_card.queries import distances_from

    m = scenario(desc(inv()))
    rooms = [loc(m, c) for c in ("t_loc_a", "t_loc_b", "t_loc_c", "t_loc_d")]
    assert distances_from(st(m), rooms[0]) == dict(zip(rooms, range(4), strict=True))
    assert distances_from(st(m), rooms[2])[rooms[2]] == 0


def test_A605_6_an_unrevealed_barrier_cannot_be_entered() -> None:
    """A605.6: a location that cannot be entered while unrevealed can be once revealed; an
    ordinary location can be entered either way."""
    from tcgcore_arkham_card.queries import can_enter

    gate = {"code": "x_gate", "name": "Gate", "type_code": "location", "shroud": 1,
            "clues": 0, "cannot_enter_unrevealed": True}
    for revealed in (False, True):
        m = scenario({"investigators": [inv()], "cards": [gate],
                      "locations": [{"code": "t_loc_a"},
                                    {"code": "x_gate", "revealed": revealed},
                                    {"code": "t_loc_b", "revealed": revealed}]})
        assert can_enter(st(m), loc(m, "x_gate")) is revealed
        assert can_enter(st(m), loc(m, "t_loc_b"))


def test_A606_1_patrol_toward_a_target_whatever_its_place_and_not_without_one() -> None:
    """A606.1: the patrol target need not be the first location put into play; a patrol enemy
    whose target is not in play stays where it is."""
    rooms = ("t_loc_garden", "t_loc_library", "t_loc_vault", "t_loc_foyer")
    m = scenario({"investigators": [inv(location="t_loc_garden")], "phase": "enemy",
                  "locations": [{"code": c} for c in rooms],
                  "enemies": [{"code": "t_warden", "location": "t_loc_vault"}]})
    assert loc(m, "t_loc_foyer") != 0
    assert where(m, enemy(m, "t_warden")) == loc(m, "t_loc_library")
    m = scenario({"investigators": [inv(location="t_loc_garden")], "phase": "enemy",
                  "locations": [{"code": c} for c in rooms[:3]],
                  "enemies": [{"code": "t_warden", "location": "t_loc_vault"}]})
    assert where(m, enemy(m, "t_warden")) == loc(m, "t_loc_vault")


def test_A604_2_an_engaged_aloof_enemy_can_be_fought() -> None:
    """Aloof (A604.2) keeps only an unengaged enemy out of the fight targets: the Test Shade
    engaged with the other investigator here may be fought (A413.1), with a fight event
    (Test Backstab) too, which is then worth playing (A904.2); unengaged it may not be."""
    m = scenario(desc(inv(hand=["t_backstab"]), inv("t_inv_seeker"),
                      enemies=[{"code": "t_shade", "engaged": 1}]))
    answer(m, "inv:0")
    assert f"fight:{enemy(m, 't_shade')}" in keys(m)
    assert f"play:{enemy(m, 't_backstab')}" in keys(m)
    m2 = scenario(desc(inv(), enemies=[{"code": "t_shade", "location": "t_loc_a"}]))
    assert f"fight:{enemy(m2, 't_shade')}" not in keys(m2)
