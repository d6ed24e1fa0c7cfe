"""Promotion, rituals, the reward, sequence 0 and the Great Old One (rules.md section 8)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tcgcore_guimi_revival.state import GuimiState
from tcgcore_guimi_revival.testing import (
    build,
    codes,
    find,
    finish_round,
    game,
    ids,
    keys,
    pick,
    player,
    until,
)

import tcgcore

POOL = str(Path(__file__).parent / "data" / "test_pool.toml")
Match = tcgcore.Match[GuimiState]


def _promo(p0: dict[str, Any], **opts: Any) -> Match:
    return build(game(p0, phase="promotion1"), pool=POOL, **opts)


def test_082_1_candidates_are_exactly_one_higher_of_the_pathway() -> None:
    """082.1, 081.1, 028.1, 028.3: a face-up characteristic of the RB's pathway and sequence
    current - 1; promotion is optional."""
    m = _promo(player(spirit_world=["seer_potion8", "seer_potion7", "marauder_potion8",
                                    {"code": "seer_potion8", "face_down": True}, "ev_blessing"]))
    good = find(m, "seer_potion8", "spirit.0")
    assert keys(m) == [f"promote:{good}", "pass"]
    pick(m, "pass")
    assert m.state.sequence[0] == 9


def test_084_1_promotion_without_check_and_reward() -> None:
    """084.1, 085.1, 086.1, 023.2, 033.1, 087.1, 121.1, 083.1, 036.3: the characteristic goes face down
    on top of the stack; no check with no undigested characteristic; the RB takes its
    sequence; the reward sets an extra-deck card face down and draws one, in either order."""
    m = _promo(player(spirit_world=["seer_potion8"], extra=["x_gift", "slate"],
                      stack=["seer_potion9"]))
    pot = find(m, "seer_potion8")
    pick(m, f"promote:{pot}", "promotion")
    st = m.state
    assert st.sequence[0] == 8
    assert ids(m, "stack.0")[0] == pot and st.cards[pot].face_down
    assert not any(e.kind == "revealed" and e.data.get("why") == "promotion_check"
                   for e in m.events_since(0, player="all"))
    pick(m, "set_first", "reward_order")
    slate = find(m, "slate")
    pick(m, f"extra:{slate}", "reward_pick")
    assert st.cards[slate].zone == "spirit.0" and st.cards[slate].face_down
    assert len(ids(m, "hand.0")) == 1


def test_087_2_reward_once_per_turn() -> None:
    """087.2, 067.1, 085.3: a second successful promotion in promotion phase 2 earns nothing."""
    m = _promo(player(spirit_world=["seer_potion8", "seer_potion7"], extra=["x_gift"],
                      deck=["marauder_b9", "seer_potion9", "marauder_b9", "marauder_b9"]))
    pick(m, f"promote:{find(m, 'seer_potion8')}")
    pick(m, "draw_first", "reward_order")
    pick(m, f"extra:{find(m, 'x_gift')}", "reward_pick")
    assert len(ids(m, "hand.0")) == 1
    until(m, "main_action")
    pick(m, "end")
    until(m, "promotion")
    pick(m, f"promote:{find(m, 'seer_potion7')}")
    assert m.state.sequence[0] == 7  # checked: the top card was a potion
    assert m.pending is None or m.pending.kind not in ("reward_order", "reward_pick")
    assert len(ids(m, "hand.0")) == 1


def test_087_3_reward_with_empty_extra_deck_still_draws() -> None:
    """087.3: with no extra-deck card only the draw happens (no reward choice)."""
    m = _promo(player(spirit_world=["seer_potion8"]))
    pick(m, f"promote:{find(m, 'seer_potion8')}")
    assert len(ids(m, "hand.0")) == 1
    assert m.pending is not None and m.pending.kind == "main_action"


def test_087_3_a_spirit_world_of_seven_before_the_promotion_is_not_full_for_the_reward() -> None:
    """087.3, 034.1 at the threshold: with seven cards in the Spirit World the promotion takes
    the characteristic out, six are left and the reward still sets an extra-deck card there
    (the Spirit World is full again) and draws."""
    m = _promo(player(spirit_world=["seer_potion8"] + ["ev_blessing"] * 6, extra=["x_gift"]))
    pick(m, f"promote:{find(m, 'seer_potion8')}")
    assert len(ids(m, "spirit.0")) == 6
    pick(m, "set_first", "reward_order")
    pick(m, f"extra:{find(m, 'x_gift')}", "reward_pick")
    assert len(ids(m, "spirit.0")) == 7 and m.state.cards[find(m, "x_gift")].face_down
    assert len(ids(m, "hand.0")) == 1


def test_085_5_failed_check_madness_and_placement() -> None:
    """085.1, 085.2, 085.3, 085.4, 085.5, 081.2, 112.1d, 016.4: with an undigested
    characteristic the check reveals the top card; a card of another pathway fails: the RB
    goes mad, the sequence stays, the characteristic is still placed, the revealed card goes
    to the bottom."""
    m = _promo(player(sequence=8, spirit_world=["seer_potion7"],
                      stack=[{"code": "seer_potion8", "face_down": True}],
                      deck=["marauder_b8", "seer_b9"]))
    pot = find(m, "seer_potion7")
    pick(m, f"promote:{pot}")
    st = m.state
    assert st.sequence[0] == 8 and st.mad[0] == 1
    assert ids(m, "stack.0")[0] == pot and st.cards[pot].face_down
    assert codes(m, "deck.0") == ["seer_b9", "marauder_b8"]
    assert any(e.kind == "promotion_failed" for e in m.events_since(0, player="all"))
    assert m.pending is not None and m.pending.kind == "main_action"


def test_085_3_same_pathway_card_passes_check() -> None:
    """085.3, 013.4: a card of the RB's pathway with sequence number >= the RB's passes."""
    m = _promo(player(sequence=8, spirit_world=["seer_potion7"],
                      stack=[{"code": "seer_potion8", "face_down": True}],
                      deck=["seer_b8", "marauder_b9"]))
    pick(m, f"promote:{find(m, 'seer_potion7')}")
    assert m.state.sequence[0] == 7 and m.state.mad[0] == 0


def test_081_3_dead_rb_cannot_promote_and_option() -> None:
    """081.3: no promotion while dead; ``dead_rb_can_promote = yes`` allows it."""
    p0 = player(dead=True, spirit_world=["seer_potion8"])
    m = _promo(p0)
    assert m.pending is not None and m.pending.kind == "main_action"
    m = _promo(p0, dead_rb_can_promote="yes")
    assert m.pending is not None and m.pending.kind == "promotion"


def test_082_2_sequence_0_makes_no_promotions() -> None:
    """082.2: an RB at sequence 0 makes no further promotion attempts."""
    m = _promo(player(sequence=0, spirit_world=["seer_potion1"]))
    assert m.pending is not None and m.pending.kind == "main_action"


def test_083_1_rituals_for_5_to_1() -> None:
    """083.1, 083.3, 083.4, 024.4: promotion to 5 needs a ritual whose condition holds; the
    potion's own ritual counts."""
    m = _promo(player(sequence=6, spirit_world=["seer_potion5"]))
    assert any(k.startswith("promote:") for k in keys(m))
    m = _promo(player(sequence=6, spirit_world=["t_seer_potion5_hard"]))
    assert not any(k.startswith("promote:") for k in keys(m))


def test_083_2_ritual_on_controlled_potion_in_unit_zone() -> None:
    """083.2, 083.5: a ritual printed on a potion in the unit zone counts and is not used up."""
    m = _promo(player(sequence=6, spirit_world=["t_seer_potion5_hard"],
                      units=["seer_potion5", "", "", ""]))
    pick(m, f"promote:{find(m, 't_seer_potion5_hard')}")
    assert m.state.sequence[0] == 5 and find(m, "seer_potion5", "units.0") >= 0


def test_083_3_blasphemy_rituals_need_a_slate() -> None:
    """083.3, 127.1, 128.1: Blasphemy Card rituals count only with a face-up Slate."""
    m = _promo(player(sequence=6, spirit_world=["t_seer_potion5_hard", "bcard_seer"]))
    assert not any(k.startswith("promote:") for k in keys(m))
    m = _promo(player(sequence=6, spirit_world=["t_seer_potion5_hard", "bcard_seer"],
                      units=["slate", "", "", ""]))
    assert any(k.startswith("promote:") for k in keys(m))
    m = _promo(player(sequence=6, spirit_world=["t_seer_potion5_hard", "slate"]))
    assert any(k.startswith("promote:") for k in keys(m))  # the slate's own ritual


def test_028_5_characteristic_keeps_ritual_option() -> None:
    """028.5: a characteristic keeps its printed ritual; with the option ``no`` it does not."""
    p0 = player(sequence=6, spirit_world=["seer_potion5"])
    assert any(k.startswith("promote:") for k in keys(_promo(p0)))
    m = _promo(p0, characteristic_keeps_ritual="no")
    assert not any(k.startswith("promote:") for k in keys(m))


SEQ0 = ["god_seer", "g0_seer", "t_potion_seer1b", "t_potion_seer1c", "uniq_seer"]


def test_088_1_promotion_to_sequence_0() -> None:
    """088.1-088.5, 123.1, 123.2, 124.1: three sequence-1 characteristics, the Uniqueness face
    up and the God card's apotheosis ritual; the God card is absorbed; the rest stays."""
    m = _promo(player(sequence=1, spirit_world=SEQ0))
    god = find(m, "god_seer")
    assert keys(m) == [f"promote:{god}", "pass"]
    pick(m, f"promote:{god}")
    assert m.state.sequence[0] == 0
    assert sorted(codes(m, "spirit.0")) == sorted(SEQ0[1:])


def test_088_2_missing_requirements_block_sequence_0() -> None:
    """088.2, 088.3, 088.4: without the third sequence-1 characteristic, the Uniqueness, or
    the ritual condition, no promotion to 0."""
    for missing in ("t_potion_seer1c", "uniq_seer"):
        sw = [c for c in SEQ0 if c != missing]
        m = _promo(player(sequence=1, spirit_world=sw))
        assert not any(k.startswith("promote:") for k in keys(m)), missing


GOO = ["g0_marauder", "uniq_seer", "src_sefirah_castle"]


def test_089_1_great_old_one_ascension_wins() -> None:
    """089.1, 089.2, 089.3, 089.4, 089.5, 089.6, 132.1, 099.3, 124.1, 125.1, 036.2, 023.4: an
    RB at sequence 0 with an adjacent sequence-1 characteristic, its Uniqueness and its
    Source face up may begin the ascension; it slumbers in the Astral World and wins after
    the next round's battle phase."""
    m = _promo(player(sequence=0, spirit_world=GOO, units=["seer_b9", "", "", ""]))
    assert "ascend" in keys(m)
    pick(m, "ascend")
    st = m.state
    assert st.cards[st.rb[0]].zone == "astral.0" and st.ascend_round[0] == 1
    assert len(ids(m, "stack.0")) == 0 and st.sequence[0] == 0
    until(m, "attack")
    assert st.rb[0] not in st.attack_order  # 089.5
    assert all(o.card != st.rb[0] for o in m.pending.options)  # type: ignore[union-attr]
    finish_round(m)
    assert m.result is None and st.round == 2
    finish_round(m)
    result = m.state.result
    assert result is not None
    assert result.winners == [0] and result.reason == "great_old_one"


def test_089_3_automatic_ascension_option() -> None:
    """089.3: with ``ascension_start = automatic`` the ascension begins without a choice."""
    m = _promo(player(sequence=0, spirit_world=GOO), ascension_start="automatic")
    assert m.state.ascend_round[0] == 1


def test_089_3_automatic_ascension_begins_once_and_completes_after_round_2() -> None:
    """089.3, 089.5, 089.6 with ``ascension_start = automatic``: the state checks begin the
    ascension once; the slumbering RB is not on the field, so later checks leave its start
    round (1) alone and it wins after round 2's battle phase."""
    m = _promo(player(sequence=0, spirit_world=GOO), ascension_start="automatic")
    for _ in range(2):
        finish_round(m)
    began = [e for e in m.events_since(0, player="all") if e.kind == "ascension_began"]
    assert len(began) == 1 and m.state.ascend_round[0] == 1
    assert m.result is not None and m.result.winners == [0]
    assert m.result.reason == "great_old_one"


def test_089_7_recheck_option() -> None:
    """089.7: by default requirements are not checked again; with ``ascension_recheck = yes``
    a lost requirement cancels the ascension and the RB returns."""
    for recheck, expect in (("no", "great_old_one"), ("yes", None)):
        m = _promo(player(sequence=0, spirit_world=GOO), ascension_recheck=recheck)
        pick(m, "ascend")
        m.engine.move(find(m, "uniq_seer"), "underworld.0")  # test manipulation
        for _ in range(2):
            finish_round(m)
        if expect is None:
            rb = m.state.cards[m.state.rb[0]]
            assert m.state.ascend_round[0] == -1 and rb.zone == "revival.0"
            assert not rb.face_down  # 031.5: the field is face up
        else:
            assert m.result is not None and m.result.reason == expect


def test_089_8_lone_source_option() -> None:
    """089.8, 089.2: Wheel of Fortune has no adjacent pathway; ``waive_adjacent`` lets it
    ascend."""
    p0 = player("rb_monster", sequence=0, spirit_world=["uniq_monster", "src_key_of_light"])
    m = _promo(p0)
    assert m.pending is not None and m.pending.kind == "main_action"
    m = _promo(p0, lone_source_ascension="waive_adjacent")
    assert "ascend" in keys(m)


def test_132_2_double_ascension_is_a_draw() -> None:
    """132.2: both ascensions completing at the same battle phase is a draw."""
    desc = game(player(sequence=0, ascend_round=1),
                player("rb_hunter", sequence=0, ascend_round=1), phase="battle", round=2)
    m = build(desc, pool=POOL)
    finish_round(m)
    assert m.result is not None
    assert m.result.draw and m.result.reason == "double_ascension"


def test_089_5_slumbering_rb_gets_no_turn_corruption() -> None:
    """089.5, 081.3: a slumbering RB receives no start-of-turn corruption and cannot promote."""
    m = build(game(player(sequence=0, ascend_round=1, spirit_world=["seer_potion8"]),
                   phase="start", round=1), pool=POOL)
    assert m.state.corruption[0] == 0
    assert m.pending is None or m.pending.kind != "promotion"
