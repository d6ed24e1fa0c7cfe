"""The regression table of the reference notes, one scenario test per row (rule numbers
from docs/arkham_card/rules.md)."""

from __future__ import annotations

from typing import Any

from tcgcore_arkham_card import scenario
from tcgcore_arkham_card.state import SkillTest
from tcgcore_arkham_card.testkit import (
    answer,
    codes_in,
    desc,
    enemy,
    events,
    keys,
    kind,
    loc,
    pass_until,
    pending,
    result,
    st,
    where,
    who,
)

import tcgcore

DECK = ["t_guts", "t_guts", "t_guts", "t_guts"]


def _test(m: tcgcore.Match[Any]) -> SkillTest:
    t = st(m).test
    assert t is not None
    return t


def test_A417_3_hunter_that_moved_in_attacks_in_3_3_regression_3171() -> None:
    m = scenario(desc({"code": "t_inv_guard", "location": "t_loc_a", "deck": DECK},
                      phase="enemy", enemies=[{"code": "t_rat", "location": "t_loc_b"}]))
    rat = enemy(m, "t_rat")
    kinds = [e.kind for e in events(m) if e.card == rat]
    assert kinds.index("enemy_moved") < kinds.index("enemy_engaged") < kinds.index(
        "enemy_attacks") < kinds.index("enemy_exhausted")
    assert st(m).inv[0].damage == 1


def test_A603_1_A603_2_engaged_enemies_follow_and_stay_engaged_regression_4597_155() -> None:
    m = scenario(desc({"code": "t_inv_guard", "location": "t_loc_a", "deck": DECK},
                      enemies=[{"code": "t_ghoul", "engaged": 0},
                               {"code": "t_brute", "location": "t_loc_a"}]))
    ghoul, brute = enemy(m, "t_ghoul"), enemy(m, "t_brute")
    engaged_before = len(events(m, "enemy_engaged"))
    answer(m, f"move:{loc(m, 't_loc_b')}")
    assert kind(m) == "attack_order"  # A416.1: both attack
    answer(m, f"enemy:{ghoul}")
    assert st(m).inv[0].location == loc(m, "t_loc_b")
    assert where(m, ghoul) == loc(m, "t_loc_b")
    assert st(m).cards[ghoul].zone == "threat.0"
    assert len(events(m, "enemy_engaged")) == engaged_before  # never re-engaged
    assert where(m, brute) == loc(m, "t_loc_a")  # A611.3 massive stays


def test_A605_1_hunter_far_away_moves_one_step_regression_1584_2854() -> None:
    m = scenario(desc({"code": "t_inv_guard", "location": "t_loc_a", "deck": DECK},
                      phase="enemy", enemies=[{"code": "t_rat", "location": "t_loc_d"}]))
    assert where(m, enemy(m, "t_rat")) == loc(m, "t_loc_c")


def test_A417_2_A104_2_attacks_in_player_order_each_investigator_finishes_regression_3316() -> None:
    m = scenario(desc({"code": "t_inv_guard", "location": "t_loc_a", "deck": DECK},
                      {"code": "t_inv_seeker", "location": "t_loc_b", "deck": DECK},
                      phase="enemy",
                      enemies=[{"code": "t_ghoul", "engaged": 0}, {"code": "t_rat", "engaged": 0},
                               {"code": "t_ghoul", "engaged": 1}, {"code": "t_rat", "engaged": 1}]))
    assert kind(m) == "attack_order" and who(m) == 0
    rat0 = enemy(m, "t_rat", 0)
    answer(m, f"enemy:{rat0}")
    assert kind(m) == "attack_order" and who(m) == 1
    attacks = events(m, "enemy_attacks")
    assert [e.player for e in attacks] == [0, 0]
    assert attacks[0].card == rat0  # the investigator chose the order


def test_A608_1_retaliate_on_failed_attack_even_by_auto_fail_regression_4793() -> None:
    m = scenario(desc({"code": "t_inv_guard", "location": "t_loc_a", "deck": DECK},
                      enemies=[{"code": "t_stalker", "engaged": 0}], tokens=["auto_fail"]))
    stalker = enemy(m, "t_stalker")
    answer(m, f"fight:{stalker}")
    pass_until(m, "action")
    attacks = [e for e in events(m, "enemy_attacks") if e.card == stalker]
    assert len(attacks) == 1
    assert not st(m).cards[stalker].exhausted  # A608.4: no exhaust
    failed = events(m, "test_failed")[0].seq
    assert attacks[0].seq > failed  # after the results


def test_A608_2_no_retaliate_from_exhausted_enemy_regression_2045() -> None:
    m = scenario(desc({"code": "t_inv_guard", "location": "t_loc_a", "deck": DECK},
                      enemies=[{"code": "t_stalker", "location": "t_loc_a", "exhausted": True}],
                      tokens=["auto_fail"]))
    stalker = enemy(m, "t_stalker")
    answer(m, f"fight:{stalker}")
    pass_until(m, "action")
    assert events(m, "test_failed")
    assert not events(m, "enemy_attacks")
    assert st(m).inv[0].damage == 0 and st(m).cards[stalker].exhausted


def test_A608_1_successful_attack_never_retaliates() -> None:
    m = scenario(desc({"code": "t_inv_guard", "location": "t_loc_a", "deck": DECK},
                      enemies=[{"code": "t_stalker", "engaged": 0}], tokens=["+1"]))
    answer(m, f"fight:{enemy(m, 't_stalker')}")
    pass_until(m, "action")
    assert events(m, "test_succeeded") and not events(m, "enemy_attacks")
    assert (st(m).inv[0].damage, st(m).inv[0].horror) == (0, 0)


def test_A613_1_A613_2_peril_only_drawer_commits_regression_1211() -> None:
    m = scenario(desc({"code": "t_inv_guard", "location": "t_loc_a", "hand": ["t_guts"],
                       "deck": DECK},
                      {"code": "t_inv_seeker", "location": "t_loc_a", "hand": ["t_guts"],
                       "deck": DECK},
                      phase="mythos", round=2, encounter_deck=["t_peril", "t_dread"],
                      tokens=["0", "0"]))
    assert kind(m) == "commit" and who(m) == 0
    assert _test(m).peril
    answer(m, pending(m).keys[0])  # the drawer may commit to its own peril test
    # the other investigator was not asked: next commit belongs to seat 1's own test
    assert kind(m) == "commit" and who(m) == 1
    assert _test(m).seat == 1 and not _test(m).peril
    assert st(m).peril == -1  # A613.1: peril ended with its card


def test_A503_4_A102_2_non_peril_test_lets_others_commit_one() -> None:
    m = scenario(desc({"code": "t_inv_guard", "location": "t_loc_a", "hand": ["t_guts"],
                       "deck": DECK},
                      {"code": "t_inv_seeker", "location": "t_loc_a",
                       "hand": ["t_guts", "t_courage"], "deck": DECK},
                      phase="mythos", round=2, encounter_deck=["t_dread", "t_dread"],
                      tokens=["0", "0"]))
    answer(m)  # seat 0 commits nothing
    assert kind(m) == "commit" and who(m) == 1
    assert pending(m).max == 1


def test_A402_2_A614_1_doom_on_enemies_counts_regression_1097() -> None:
    m = scenario(desc(phase="mythos", round=2, agendas=["t_agenda_short"], agenda_doom=1,
                      enemies=[{"code": "t_ghoul", "location": "t_loc_c", "doom": 1}]))
    assert result(m).detail["resolution"] == "R2"


def test_A614_1_defeated_enemy_takes_its_doom_regression_1539() -> None:
    m = scenario(desc({"code": "t_inv_guard", "location": "t_loc_a", "deck": DECK},
                      agendas=["t_agenda_short"], agenda_doom=1, tokens=["+1"],
                      encounter_deck=["t_voices"],
                      enemies=[{"code": "t_ghoul", "engaged": 0, "doom": 1, "damage": 1}]))
    answer(m, f"fight:{enemy(m, 't_ghoul')}")
    pass_until(m, "action")
    assert codes_in(m, "encounter_discard") == ["t_ghoul"]
    answer(m, "end_turn")
    pass_until(m, "action")  # round 2: 2 doom on the agenda, none elsewhere
    assert st(m).turn == 2 and m.result is None
    assert codes_in(m, "agendas") == ["t_agenda_short"]
    agenda = st(m).zones["agendas"].cards[0]
    assert st(m).cards[agenda].counters["doom"] == 2


def test_A802_1_agenda_advances_only_in_step_1_3_regression_1539() -> None:
    m = scenario(desc({"code": "t_inv_guard", "location": "t_loc_a", "deck": DECK},
                      agendas=["t_agenda_short"], agenda_doom=3))
    assert m.result is None and codes_in(m, "agendas") == ["t_agenda_short"]
    answer(m, "end_turn")
    assert result(m).detail["resolution"] == "R2"  # A802.3


def test_A705_5_A705_6_eliminated_investigators_enemies_reengage_regression_3772_437() -> None:
    m = scenario({
        "investigators": [{"code": "t_inv_guard", "location": "t_loc_vault", "deck": DECK},
                          {"code": "t_inv_seeker", "location": "t_loc_vault", "deck": DECK}],
        "locations": [{"code": "t_loc_vault"}, {"code": "t_loc_garden"}],
        "enemies": [{"code": "t_ghoul", "engaged": 0, "damage": 1}],
    })
    answer(m, "inv:0")
    vault = loc(m, "t_loc_vault")
    answer(m, f"activate:{vault}:0")  # resign: no attack of opportunity (A415.1)
    ghoul = enemy(m, "t_ghoul")
    assert not events(m, "enemy_attacks")
    assert st(m).inv[0].status == "resigned"
    assert st(m).cards[ghoul].zone == "threat.1"
    assert st(m).cards[ghoul].counters["damage"] == 1  # state kept


def test_A705_5_exhausted_enemy_stays_unengaged_at_location() -> None:
    m = scenario({
        "investigators": [{"code": "t_inv_guard", "location": "t_loc_vault", "deck": DECK},
                          {"code": "t_inv_seeker", "location": "t_loc_vault", "deck": DECK}],
        "locations": [{"code": "t_loc_vault"}],
        "enemies": [{"code": "t_ghoul", "engaged": 0, "exhausted": True}],
    })
    answer(m, "inv:0")
    answer(m, f"activate:{loc(m, 't_loc_vault')}:0")
    ghoul = enemy(m, "t_ghoul")
    assert st(m).cards[ghoul].zone == f"at.{loc(m, 't_loc_vault')}"
    assert st(m).cards[ghoul].exhausted


def test_A701_3_no_overassignment_to_assets_regression_97() -> None:
    m = scenario(desc({"code": "t_inv_guard", "location": "t_loc_a", "deck": DECK,
                       "assets": [{"code": "t_coat", "damage": 1}]},
                      phase="enemy", enemies=[{"code": "t_brute", "location": "t_loc_a"}]))
    coat = enemy(m, "t_coat")
    assert kind(m) == "assign_damage"
    assert keys(m) == ["inv", f"asset:{coat}"]
    answer(m, f"asset:{coat}")
    # the coat is full: the second point goes to the investigator without a question
    assert st(m).inv[0].damage == 1
    assert st(m).cards[coat].zone == "discard.0"  # A205.2


def test_A702_1_direct_horror_cannot_be_soaked_regression_4437() -> None:
    m = scenario(desc({"code": "t_inv_guard", "location": "t_loc_a",
                       "deck": ["t_w_dread", *DECK], "assets": ["t_charm"]}))
    answer(m, "draw")
    assert kind(m) == "action"
    assert st(m).inv[0].horror == 1
    assert codes_in(m, "discard.0") == ["t_w_dread"]  # A208.3


def test_A205_1_asset_without_health_takes_no_damage_regression_5085() -> None:
    m = scenario(desc({"code": "t_inv_guard", "location": "t_loc_a", "deck": DECK,
                       "assets": ["t_pistol"]},
                      phase="enemy", enemies=[{"code": "t_rat", "engaged": 0}]))
    assert st(m).inv[0].damage == 1
    assert not [e for e in events(m) if e.kind == "harm_placed" and e.data["damage"] == 0]


def test_A701_4_enemy_attack_horror_may_go_on_an_ally_regression_87() -> None:
    m = scenario(desc({"code": "t_inv_guard", "location": "t_loc_a", "deck": DECK,
                       "assets": ["t_charm"]},
                      phase="enemy", enemies=[{"code": "t_ghoul", "engaged": 0}]))
    charm = enemy(m, "t_charm")
    assert kind(m) == "assign_horror"
    answer(m, f"asset:{charm}")
    assert st(m).cards[charm].counters["horror"] == 1
    assert st(m).inv[0].horror == 0 and st(m).inv[0].damage == 1


def test_A907_1_empty_deck_reshuffles_then_one_horror_after_draw_regression_1440() -> None:
    m = scenario(desc({"code": "t_inv_guard", "location": "t_loc_a",
                       "discard": ["t_guts", "t_perception"]}))
    answer(m, "draw")
    kinds = [e.kind for e in events(m) if e.kind in ("deck_reset", "drawn", "harm_placed")]
    assert kinds == ["deck_reset", "drawn", "harm_placed"]
    assert st(m).inv[0].horror == 1
    assert len(st(m).zones["hand.0"].cards) == 1 and len(st(m).zones["deck.0"].cards) == 1


def test_A508_2_A509_1_committed_cards_discarded_at_st8_regression_1206() -> None:
    m = scenario(desc({"code": "t_inv_guard", "location": "t_loc_a",
                       "hand": ["t_perception"], "deck": DECK}, tokens=["0"]))
    answer(m, "investigate")
    perception = enemy(m, "t_perception")
    answer(m, f"commit:{perception}")
    seq = [(e.kind, e.card) for e in events(m) if e.kind in ("drawn", "discarded",
                                                             "clues_discovered")]
    drawn = next(i for i, (k, _) in enumerate(seq) if k == "drawn")
    discarded = next(i for i, (k, c) in enumerate(seq) if k == "discarded" and c == perception)
    assert drawn < discarded
    assert codes_in(m, "discard.0") == ["t_perception"]
