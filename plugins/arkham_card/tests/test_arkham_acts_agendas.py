"""Mythos, upkeep, acts and agendas (A212, A213, A402, A417, A418, A801–A804)."""

from __future__ import annotations

from tcgcore_arkham_card import scenario
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
    pending,
    result,
    st,
)

DECK = ["t_guts"] * 12


def inv(code: str = "t_inv_guard", **kw: object) -> dict[str, object]:
    return investigator(code, DECK, **kw)


def test_A402_1_A213_1_mythos_places_one_doom_on_current_agenda() -> None:
    m = scenario(desc(inv(), phase="mythos", round=2, agendas=["t_agenda_long",
                                                               "t_agenda_short"]))
    top = st(m).zones["agendas"].cards[0]
    assert st(m).cards[top].code == "t_agenda_long"  # A213.1
    assert st(m).cards[top].counters["doom"] == 1


def test_A402_3_doom_off_play_does_not_count() -> None:
    m = scenario(desc(inv(), phase="mythos", round=2, agendas=["t_agenda_short"],
                      agenda_doom=1, encounter_discard=["t_ghoul"]))
    assert m.result is None


def test_A402_4_A705_9_eliminated_investigators_draw_no_encounter_cards() -> None:
    m = scenario({"investigators": [inv(location="t_loc_vault"),
                                    inv("t_inv_seeker", location="t_loc_vault")],
                  "locations": [{"code": "t_loc_vault"}],
                  "encounter_deck": ["t_voices", "t_voices"]})
    answer(m, "inv:0")
    answer(m, f"activate:{loc(m, 't_loc_vault')}:0")
    pass_until(m, "action")  # seat 1's turn
    answer(m, "end_turn")
    pass_until(m, "action")  # round 2
    assert len(st(m).zones["encounter"].cards) == 1


def test_A418_1_to_A418_3_upkeep_readies_draws_and_pays() -> None:
    m = scenario(desc(inv(assets=[{"code": "t_knife", "exhausted": True}], deck=["t_guts"]),
                      phase="upkeep"))
    knife = enemy(m, "t_knife")
    assert not st(m).cards[knife].exhausted
    assert codes_in(m, "hand.0") == ["t_guts"] and st(m).inv[0].resources == 6
    assert st(m).inv[0].actions == 3


def test_A418_4_hand_size_eight_only_in_upkeep() -> None:
    m = scenario(desc(inv(hand=["t_guts"] * 9)))
    answer(m, "draw")
    assert len(st(m).zones["hand.0"].cards) == 10  # more than 8 outside upkeep
    pass_until(m, "hand_size")
    assert pending(m).min == pending(m).max == 3
    answer(m, *keys(m)[:3])
    assert len(st(m).zones["hand.0"].cards) == 8


def test_A801_1_A801_2_A801_3_free_group_clue_spending() -> None:
    m = scenario(desc(inv(clues=1), inv("t_inv_seeker", clues=2),
                      acts=["t_act_clues"], enemies=[{"code": "t_ghoul", "engaged": 0}]))
    answer(m, "inv:0")
    assert "advance_act" in keys(m)
    answer(m, "advance_act")
    assert kind(m) == "spend_clues" and pending(m).min == pending(m).max == 2
    answer(m, "clue:1:1", "clue:1:2")  # the group decides who pays
    assert not events(m, "enemy_attacks")  # free: no attack of opportunity
    assert result(m).detail["resolution"] == "R1"
    assert result(m).winners == [0, 1]  # A101.1
    spent = [(e.player, e.amount) for e in events(m, "clues_spent")]
    assert spent == [(1, 2)]


def test_A801_1_not_enough_clues_no_option() -> None:
    m = scenario(desc(inv(clues=0), acts=["t_act_clues"]))
    assert "advance_act" not in keys(m)


def test_A801_4_round_end_objective_at_a_location() -> None:
    m = scenario(desc(inv(location="t_loc_b", clues=1), acts=["t_act_barrier"]))
    assert "advance_act" not in keys(m)
    answer(m, "end_turn")
    assert kind(m) == "advance_act"
    answer(m, "yes")
    assert result(m).detail["resolution"] == "R1"


def test_A801_4_objective_on_defeat() -> None:
    m = scenario(desc(inv(), tokens=["+1"], acts=["t_act2"],
                      enemies=[{"code": "t_boss", "engaged": 0, "damage": 2}]))
    answer(m, f"fight:{enemy(m, 't_boss')}")
    assert kind(m) == "use_trigger"  # the guard's reaction
    answer(m, "no")
    assert result(m).detail["resolution"] == "R1"
    assert result(m).detail["victory"] == 2


def test_A802_2_card_doom_that_can_advance() -> None:
    m = scenario(desc(inv(), phase="mythos", round=2, agendas=["t_agenda_short",
                                                               "t_agenda_long"],
                      encounter_deck=["t_omen"]))
    # 1 (step 1.2) + 1 from the omen = 2 < 3: nothing yet
    assert codes_in(m, "agendas")[0] == "t_agenda_short"
    m2 = scenario(desc(inv(), phase="mythos", round=2, agendas=["t_agenda1", "t_agenda_long"],
                       agenda_doom=2, encounter_deck=["t_omen"]))
    assert codes_in(m2, "agendas") == ["t_agenda_long"]
    assert events(m2, "agenda_advanced")


def test_A803_1_advancing_removes_all_doom_and_resolves_the_back() -> None:
    m = scenario(desc(inv(), phase="mythos", round=2, agendas=["t_agenda1", "t_agenda_long"],
                      agenda_doom=2, enemies=[{"code": "t_ghoul", "location": "t_loc_d",
                                               "doom": 1}]))
    ghoul = enemy(m, "t_ghoul")
    assert codes_in(m, "agendas") == ["t_agenda_long"]
    assert "doom" not in st(m).cards[ghoul].counters
    assert st(m).inv[0].horror == 1  # the b side: each investigator takes 1 horror


def test_A803_2_act_advance_keeps_doom_and_resolves_the_back() -> None:
    m = scenario({"investigators": [inv(clues=2)],
                  "locations": [{"code": "t_loc_a"}, {"code": "t_loc_vault", "doom": 1}],
                  "acts": ["t_act1", "t_act2"], "set_aside": ["t_boss"]})
    answer(m, "advance_act")
    assert codes_in(m, "acts") == ["t_act2"]
    assert st(m).cards[loc(m, "t_loc_vault")].counters["doom"] == 1
    boss = enemy(m, "t_boss")
    assert st(m).cards[boss].zone == f"at.{loc(m, 't_loc_vault')}"


def test_A803_3_A804_1_resolution_ends_the_scenario() -> None:
    m = scenario(desc(inv(), phase="mythos", round=2, agendas=["t_agenda_short"],
                      agenda_doom=2))
    assert result(m).reason == "resolution"
    assert result(m).detail["resolution"] == "R2" and result(m).losers == [0]


def test_A211_6_victory_locations_without_clues_count_at_the_end() -> None:
    m = scenario({"investigators": [inv(location="t_loc_cellar", clues=1)],
                  "locations": [{"code": "t_loc_cellar", "clues": 0},
                                {"code": "t_loc_foyer", "revealed": False}],
                  "acts": ["t_act_clues"]})
    answer(m, "advance_act")
    assert m.result is not None and m.result.detail["victory"] == 1


def test_A801_1_the_panel_shows_an_act_without_a_clue_threshold_as_needing_0() -> None:
    """The public panel's clues needed (A801.1): 0 for an act that advances otherwise
    (t_act2, t_act_none), printed clues times investigators for a clue act (t_act1: 2)."""
    from tcgcore_arkham_card.plugin import view_extra

    for act, need in (("t_act_none", 0), ("t_act2", 0), ("t_act1", 4)):
        m = scenario(desc(inv(), inv("t_inv_seeker"), acts=[act]))
        assert view_extra(st(m), 0)["act"]["clues_needed"] == need


def test_A801_4_round_end_objective_asks_with_more_clues_than_needed_not_with_fewer() -> None:
    """Test Act: The Door needs 1 clue per investigator in Room B when the round ends: with 2
    it asks to spend and advance, with 0 it does not ask (the exact 1 is tested above)."""
    m = scenario(desc(inv(location="t_loc_b", clues=2), acts=["t_act_barrier"]))
    answer(m, "end_turn")
    assert kind(m) == "advance_act"
    m0 = scenario(desc(inv(location="t_loc_b", clues=0), acts=["t_act_barrier"]))
    answer(m0, "end_turn")
    assert kind(m0) == "action" and st(m0).turn == 2


def test_A418_4_every_investigator_over_hand_size_discards_in_turn() -> None:
    """Two investigators each hold 10 cards after the upkeep draw: the first discards 2, then
    the second is asked too, and both end with 8."""
    m = scenario(desc(inv(hand=["t_guts"] * 9), inv("t_inv_seeker", hand=["t_guts"] * 9),
                      phase="upkeep"))
    assert kind(m) == "hand_size" and pending(m).player == 0
    answer(m, *keys(m)[:2])
    assert kind(m) == "hand_size" and pending(m).player == 1
    answer(m, *keys(m)[:2])
    assert [len(st(m).zones[f"hand.{s}"].cards) for s in (0, 1)] == [8, 8]
