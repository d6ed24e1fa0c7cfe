"""Skill tests ST.1–ST.8, committing, chaos tokens (A207, A214, A215, A501–A509, A906)."""

from __future__ import annotations

from typing import Any

from tcgcore_arkham_card import scenario
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
    st,
    who,
)

import tcgcore

DECK = ["t_guts"] * 6


def inv(code: str = "t_inv_guard", **kw: object) -> dict[str, object]:
    return investigator(code, DECK, **kw)


def test_A501_1_A506_1_value_is_skill_plus_icons_plus_tokens() -> None:
    m = scenario(desc(inv(hand=["t_perception", "t_courage"]), tokens=["-2"]))
    answer(m, "investigate")
    answer(m, *keys(m))  # A503.1: the tester commits any number
    res = events(m, "test_succeeded")[0]
    assert res.data["value"] == 3 + 2 + 2 - 2  # A207.2 matching, A503.2 wild


def test_A503_2_only_matching_or_wild_icons_can_be_committed() -> None:
    m = scenario(desc(inv(hand=["t_perception", "t_overpower", "t_courage", "t_knife"]),
                      tokens=["0"]))
    answer(m, "investigate")
    names = {st(m).cards[int(k.split(":")[1])].code for k in keys(m)}
    assert names == {"t_perception", "t_courage"}


def test_A503_3_A207_1_an_asset_with_a_matching_icon_can_be_committed() -> None:
    m = scenario(desc(inv(hand=["t_knife"]), tokens=["0"],
                      enemies=[{"code": "t_ghoul", "engaged": 0}]))
    answer(m, f"fight:{enemy(m, 't_ghoul')}")
    knife = enemy(m, "t_knife")
    assert keys(m) == [f"commit:{knife}"]
    answer(m, f"commit:{knife}")
    assert events(m, "test_succeeded")[0].data["value"] == 5
    assert codes_in(m, "discard.0") == ["t_knife"]  # not played: discarded at ST.8
    assert st(m).inv[0].resources == 5  # A503.1: committing is free


def test_A503_5_investigators_elsewhere_cannot_commit() -> None:
    m = scenario(desc(inv(), inv("t_inv_seeker", location="t_loc_b", hand=["t_perception"]),
                      tokens=["0"]))
    answer(m, "inv:0")
    answer(m, "investigate")
    assert kind(m) == "action" and who(m) == 0


def test_A107_3_max_one_copy_committed_per_test() -> None:
    m = scenario(desc(inv(hand=["t_perception", "t_perception"]), tokens=["0"]))
    answer(m, "investigate")
    answer(m, *keys(m))
    assert codes_in(m, "discard.0") == ["t_perception"]
    assert codes_in(m, "hand.0").count("t_perception") == 1


def test_A502_1_A906_1_player_windows_around_commit() -> None:
    m = scenario(desc(inv(assets=["t_training"], hand=["t_overpower"]), tokens=["0"],
                      enemies=[{"code": "t_ghoul", "engaged": 0}]))
    answer(m, f"fight:{enemy(m, 't_ghoul')}")
    assert kind(m) == "fast_window"  # after ST.1
    training = enemy(m, "t_training")
    answer(m, f"fast:{training}:0")  # A905.3 fast asset ability, pay 1
    assert kind(m) == "fast_window"
    answer(m, "pass")
    assert kind(m) == "commit"
    answer(m)
    assert kind(m) == "fast_window"  # after ST.2
    answer(m, "pass")
    assert events(m, "test_succeeded")[0].data["value"] == 5
    assert st(m).inv[0].resources == 4


def test_A504_1_A505_1_A215_1_skull_counts_ghouls_here() -> None:
    m = scenario(desc(inv(), tokens=["skull"],
                      enemies=[{"code": "t_ghoul", "engaged": 0},
                               {"code": "t_ghoul", "location": "t_loc_a", "exhausted": True}]))
    answer(m, "investigate")
    assert events(m, "test_failed")[0].data["value"] == 3 - 2


def test_A215_2_A505_4_cultist_fail_costs_one_horror_in_st7() -> None:
    m = scenario(desc(inv(), tokens=["cultist"]))
    answer(m, "investigate")  # intellect 3 - 1 = 2 vs shroud 2: success, no horror
    assert st(m).inv[0].horror == 0
    m2 = scenario(desc(inv(location="t_loc_vault"), tokens=["cultist"], difficulty="easy",
                       locations=[{"code": "t_loc_vault"}]))
    answer(m2, "investigate")  # 2 vs shroud 4: fail
    assert st(m2).inv[0].horror == 1
    seqs = [e.kind for e in events(m2) if e.kind in ("test_failed", "harm_placed",
                                                      "test_ended")]
    assert seqs == ["test_failed", "harm_placed", "test_ended"]


def test_A215_3_tablet_with_ghoul_here_deals_damage() -> None:
    m = scenario(desc(inv(), tokens=["tablet"], enemies=[{"code": "t_ghoul", "engaged": 0}]))
    answer(m, "resource")
    answer(m, "investigate")
    assert st(m).inv[0].damage >= 1


def test_A214_1_A215_1_hard_side_of_the_reference_card() -> None:
    m = scenario(desc(inv(), tokens=["skull"], difficulty="hard"))
    answer(m, "investigate")
    assert events(m, "test_failed")[0].data["value"] == 1


def test_A214_3_A504_2_A215_2_hard_cultist_reveals_another_and_sums() -> None:
    m = scenario(desc(inv(location="t_loc_vault"), tokens=["cultist", "-1"], difficulty="hard",
                      locations=[{"code": "t_loc_vault"}]))
    answer(m, "investigate")
    test = events(m, "test_failed")[0]
    assert test.data["value"] == 3 + 0 - 1
    assert [e.data["token"] for e in events(m, "token_revealed")] == ["cultist", "-1"]
    assert st(m).inv[0].horror == 2


def test_A505_2_elder_sign_uses_the_investigator_card() -> None:
    m = scenario(desc(inv("t_inv_rogue"), tokens=["elder_sign"],
                      locations=[{"code": "t_loc_a", "clues": 1}]))
    answer(m, "investigate")
    assert events(m, "test_succeeded")[0].data["value"] == 3 + 2
    assert st(m).inv[0].resources == 7
    m2 = scenario(desc(inv(location="t_loc_vault"), tokens=["elder_sign"],
                       locations=[{"code": "t_loc_vault", "clues": 2}]))
    answer(m2, "investigate")  # guardian: +1 per clue on the location
    assert events(m2, "test_succeeded")[0].data["value"] == 3 + 2


def test_A505_3_A507_2_auto_fail_sets_skill_to_zero() -> None:
    m = scenario(desc(inv(hand=["t_perception"]), tokens=["auto_fail"]))
    answer(m, "investigate")
    answer(m, *keys(m))
    res = events(m, "test_failed")[0]
    assert res.data["value"] == 0 and res.amount == -2


def test_A506_2_A112_1_modified_skill_never_below_zero() -> None:
    m = scenario(desc(inv(), tokens=["-8"], encounter_deck=["t_grasp"], phase="mythos",
                      round=2))
    assert events(m, "test_failed")[0].data["value"] == 0
    assert st(m).inv[0].damage == 3  # A507.1: failed by 3, 1 damage per point


def test_A207_3_skill_text_applies_when_committed() -> None:
    m = scenario(desc(inv(hand=["t_perception"], deck=["t_overpower"]), tokens=["0"]))
    answer(m, "investigate")
    answer(m, *keys(m))
    assert codes_in(m, "hand.0") == ["t_overpower"]  # drew on success


def test_A508_1_results_then_A509_1_discard() -> None:
    m = scenario(desc(inv(hand=["t_perception"]), tokens=["0"],
                      locations=[{"code": "t_loc_a", "clues": 1}]))
    answer(m, "investigate")
    answer(m, *keys(m))
    kinds = [e.kind for e in events(m) if e.kind in ("clues_discovered", "discarded",
                                                      "test_ended")]
    assert kinds == ["clues_discovered", "discarded", "test_ended"]


def test_A504_3_A507_2_automatic_success_reveals_no_token() -> None:
    m = scenario(desc(inv(assets=["x_charm"]), tokens=["auto_fail"], cards=[
        {"code": "x_charm", "name": "Sure Thing", "type_code": "asset", "cost": 0,
         "abilities": [{"kind": "fast", "exhaust": True, "effects": [
             {"op": "auto_succeed"}, {"op": "test_bonus", "skill": "intellect"}]}]}],
        locations=[{"code": "t_loc_vault"}, {"code": "t_loc_a"}]))
    answer(m, "investigate")
    assert kind(m) == "fast_window"
    answer(m, keys(m)[0])
    answer(m, "pass") if kind(m) == "fast_window" else None
    assert not events(m, "token_revealed")
    res = events(m, "test_succeeded")[0]
    assert res.data["difficulty"] == 0


def test_doubled_negative_modifier_when_evading() -> None:
    m = scenario(desc(inv("t_inv_rogue"), tokens=["-2"],
                      enemies=[{"code": "t_nightgaunt", "engaged": 0}]))
    answer(m, f"evade:{enemy(m, 't_nightgaunt')}")
    assert events(m, "test_failed")[0].data["value"] == 0  # 4 - 2 x 2
    assert st(m).cards[enemy(m, "t_nightgaunt")].zone == "threat.0"  # still engaged


def test_A507_3_when_you_would_fail_play_a_card() -> None:
    m = scenario(desc(inv(hand=["t_lucky"]), tokens=["-2"]))
    answer(m, "investigate")  # 3 - 2 = 1 < 2: would fail
    commit_none(m)  # A913.2
    assert kind(m) == "would_fail"
    answer(m, f"play:{enemy(m, 't_lucky')}")
    assert events(m, "test_succeeded") and not events(m, "test_failed")
    assert codes_in(m, "discard.0") == ["t_lucky"] and st(m).inv[0].resources == 4


def test_A509_2_A909_1_after_this_test_search_and_shuffle() -> None:
    m = scenario(desc(inv(), tokens=["skull"], difficulty="hard",
                      encounter_deck=["t_omen", "t_ghoul", "t_omen"]))
    answer(m, "investigate")  # 3 - 2 = 1 < 2
    ghoul = enemy(m, "t_ghoul")
    assert st(m).cards[ghoul].zone == "threat.0"
    ended = events(m, "test_ended")[0].seq
    assert next(e for e in events(m, "shuffled") if e.src == "encounter").seq > ended


_GAUNT = {"code": "x_gaunt", "name": "Gaunt", "type_code": "enemy", "enemy_fight": 1,
          "health": 3, "enemy_evade": 1, "enemy_damage": 1, "enemy_horror": 1,
          "keywords": ["double_negative_evade"], "text": "Negative token modifiers double "
          "while evading it."}


def _evade_gaunt(token: str, evade: int) -> tcgcore.Match[Any]:
    """The Test Guardian (agility 2) evades an engaged Gaunt of evade ``evade``."""
    m = scenario(desc(inv(), tokens=[token], cards=[dict(_GAUNT, enemy_evade=evade)],
                      enemies=[{"code": "x_gaunt", "engaged": 0}]))
    answer(m, f"evade:{enemy(m, 'x_gaunt')}")
    return m


def _evaded(m: tcgcore.Match[Any]) -> bool:
    gaunt = st(m).cards[enemy(m, "x_gaunt")]
    return gaunt.exhausted and gaunt.zone.startswith("at.")


def test_double_negative_evade_doubles_a_negative_token_at_the_threshold() -> None:
    """Double-negative evade: agility 2 with -1 is 1 (would tie evade 1 and succeed), doubled
    to 0: the evasion fails and the enemy stays engaged and ready."""
    m = _evade_gaunt("-1", 1)
    assert not _evaded(m)
    assert st(m).cards[enemy(m, "x_gaunt")].zone == "threat.0"
    assert events(m, "test_failed")[0].data["value"] == 0


def test_double_negative_evade_leaves_positive_and_zero_tokens_alone() -> None:
    """Double-negative evade doubles only negative modifiers: agility 2 with +1 is 3, which
    fails against evade 4 (doubled it would be 4 and succeed); 0 stays 2 and ties evade 2."""
    m = _evade_gaunt("+1", 4)
    assert not _evaded(m)
    assert events(m, "test_failed")[0].data["value"] == 3
    m = _evade_gaunt("+1", 3)
    assert _evaded(m)  # 3 against 3: A507.2 ties succeed
    m = _evade_gaunt("0", 2)
    assert _evaded(m)


def test_double_negative_evade_does_not_double_when_fighting_it() -> None:
    """The doubling is for evading only: a fight (combat 4, -1) is 3, which ties fight 3."""
    m = scenario(desc(inv(), tokens=["-1"], cards=[dict(_GAUNT, enemy_fight=3)],
                      enemies=[{"code": "x_gaunt", "engaged": 0}]))
    answer(m, f"fight:{enemy(m, 'x_gaunt')}")
    assert st(m).cards[enemy(m, "x_gaunt")].counters.get("damage", 0) == 1


def _skull_value(effect: dict[str, object], **extra: Any) -> int:
    """The Test Guardian (intellect 3) investigates with a skull whose effect is ``effect``;
    the value of the test (A505.1: the token's modifier, with X as the effect counts it)."""
    investigators = extra.pop("investigators", [inv()])
    m = scenario(desc(*investigators, tokens=["skull"], token_effects={"skull": effect},
                      **extra))
    answer(m, "investigate")
    commit_none(m)
    res = events(m, "test_succeeded") + events(m, "test_failed")
    assert len(res) == 1
    value = res[0].data["value"]
    assert type(value) is int
    return value


def test_A505_1_a_token_x_counts_the_testers_horror() -> None:
    assert _skull_value({"x": "horror_self"}, investigators=[inv(horror=2)]) == 3 - 2
    assert _skull_value({"x": "horror_self", "x_sign": 1},
                        investigators=[inv(horror=2)]) == 3 + 2
    assert _skull_value({"x": "horror_self", "modifier": -1},
                        investigators=[inv(horror=1)]) == 3 - 1 - 1


def test_A505_1_A402_2_a_token_x_counts_the_doom_in_play() -> None:
    assert _skull_value({"x": "doom_in_play"}, agenda_doom=1,
                        locations=[{"code": "t_loc_a", "doom": 1}]) == 3 - 2
    assert _skull_value({"x": "doom_in_play"}) == 3


def test_A995_2_a_token_x_counts_enemies_with_a_trait_anywhere_in_play() -> None:
    ghouls = [{"code": "t_ghoul", "engaged": 0}, {"code": "t_ghoul", "location": "t_loc_d"}]
    assert _skull_value({"x": "enemies_trait_in_play:Ghoul"}, enemies=ghouls) == 3 - 2
    assert _skull_value({"x": "enemies_trait_in_play:Cultist"}, enemies=ghouls) == 3
    assert _skull_value({"x": "enemies_trait_in_play:Ghoul"}, set_aside=["t_ghoul"]) == 3


def test_A983_4_a_token_x_counts_the_most_doom_on_one_enemy_with_a_trait() -> None:
    ghouls = [{"code": "t_ghoul", "engaged": 0, "doom": 1},
              {"code": "t_ghoul", "location": "t_loc_d", "doom": 2}]
    assert _skull_value({"x": "max_doom_trait:Ghoul"}, enemies=ghouls) == 3 - 2
    assert _skull_value({"x": "max_doom_trait:Ghoul"}) == 3


def test_A505_1_a_token_x_counts_clues_here_with_its_fixed_modifier() -> None:
    assert _skull_value({"x": "clues_here", "modifier": -1},
                        locations=[{"code": "t_loc_a", "clues": 1}]) == 3 - 1 - 1
    # room A is the first card of the scenario (id 0); room B, where the tester now
    # stands, is not: the clues of either count
    assert _skull_value({"x": "clues_here"}, investigators=[inv(location="t_loc_b")],
                        locations=[{"code": "t_loc_a", "clues": 0},
                                   {"code": "t_loc_b", "clues": 2}]) == 3 - 2
    assert _skull_value({"x": "enemies_trait:Ghoul", "x_sign": 1},
                        enemies=[{"code": "t_ghoul", "engaged": 0}]) == 3 + 1


_BARE = {"code": "x_bare", "name": "Bare Room", "type_code": "location", "shroud": 0,
         "clues": 1, "symbol": "x"}


def test_A507_2_a_value_of_zero_ties_difficulty_zero_and_succeeds() -> None:
    """Shroud 0: intellect 3 with -3 is 0, which ties the difficulty and succeeds (A507.2);
    with -4 the value stays 0 (A506.2) and still ties."""
    for token in ("-3", "-4"):
        m = scenario(desc(inv(location="x_bare"), tokens=[token], cards=[_BARE],
                          locations=[{"code": "x_bare"}]))
        answer(m, "investigate")
        res = events(m, "test_succeeded")
        assert res and res[0].data["value"] == 0 and res[0].data["difficulty"] == 0
        assert res[0].amount == 0 and st(m).inv[0].clues == 1  # A508.1: the clue is found


def test_A507_2_succeeding_by_the_margin_over_the_difficulty() -> None:
    m = scenario(desc(inv(hand=["t_perception"]), tokens=["+1"]))
    answer(m, "investigate")
    answer(m, *keys(m))
    res = events(m, "test_succeeded")[0]
    assert res.data["value"] == 3 + 2 + 1 and res.amount == 6 - 2  # margin: value - shroud
    assert res.data["base"] == 3 and res.data["icons"] == 2 and res.data["tokens"] == "+1:+1"


def test_A504_3_an_automatic_success_needs_no_value_against_the_difficulty() -> None:
    """Sure Thing: investigating a shroud-6 room with intellect 3 (+1) succeeds anyway; the
    margin counts from difficulty 0 (A507.2)."""
    deep = {"code": "x_deep", "name": "Deep Room", "type_code": "location", "shroud": 6,
            "clues": 1, "symbol": "d"}
    charm = {"code": "x_charm", "name": "Sure Thing", "type_code": "asset", "cost": 0,
             "abilities": [{"kind": "fast", "exhaust": True, "effects": [
                 {"op": "auto_succeed"}, {"op": "test_bonus", "skill": "intellect"}]}]}
    m = scenario(desc(inv(location="x_deep", assets=["x_charm"]), tokens=["auto_fail"],
                      cards=[deep, charm], locations=[{"code": "x_deep"}]))
    answer(m, "investigate")
    assert kind(m) == "fast_window"
    answer(m, keys(m)[0])
    answer(m, "pass") if kind(m) == "fast_window" else None
    res = events(m, "test_succeeded")
    assert res and not events(m, "test_failed")
    value = res[0].data["value"]
    assert type(value) is int and value < 6
    assert res[0].amount == value and st(m).inv[0].clues == 1


def test_A506_1_a_fight_reports_no_investigate_bonus() -> None:
    m = scenario(desc(inv(), tokens=["0"], enemies=[{"code": "t_ghoul", "engaged": 0}]))
    answer(m, f"fight:{enemy(m, 't_ghoul')}")
    commit_none(m)
    res = (events(m, "test_succeeded") + events(m, "test_failed"))[0]
    assert res.data["bonus"] == 0 and res.data["kind"] == "fight"
    assert res.data["value"] == res.data["base"] == 4


def test_double_negative_evade_doubles_exactly_once() -> None:
    """The Test Rogue (agility 4) evading a Gaunt of evade 2 with -1: doubled to -2 the value
    is 2, which ties and evades (tripled it would be 1 and fail)."""
    m = scenario(desc(inv("t_inv_rogue"), tokens=["-1"], cards=[dict(_GAUNT, enemy_evade=2)],
                      enemies=[{"code": "x_gaunt", "engaged": 0}]))
    answer(m, f"evade:{enemy(m, 'x_gaunt')}")
    assert _evaded(m)
    assert events(m, "test_succeeded")[0].data["value"] == 4 - 2
