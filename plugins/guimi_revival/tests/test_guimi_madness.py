"""Corruption, madness, death, revival and the end of the game (rules.md sections 1.8, 11
and 13)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tcgcore_guimi_revival.plugin import describe
from tcgcore_guimi_revival.state import GuimiState
from tcgcore_guimi_revival.testing import (
    advance,
    build,
    codes,
    find,
    finish_round,
    game,
    ids,
    keys,
    pick,
    player,
)

import tcgcore

POOL = str(Path(__file__).parent / "data" / "test_pool.toml")
Match = tcgcore.Match[GuimiState]
FD = {"code": "assassin_b9", "face_down": True}
FU = {"code": "hunter_b9", "face_down": False}


def hunter(**kw: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"deck": ["assassin_b9"] * 20}
    out.update(kw)
    return player("rb_hunter", **out)


def hit_rb(p1: dict[str, Any], bonus: int = 0, **opts: Any) -> Match:
    """p0's strong unit hits p1's RB once (``bonus`` extra checks); returns after the
    damage step (or the end of the game)."""
    unit: dict[str, Any] = {"code": "t_strong", "counters": {"bonus_dmg": bonus} if bonus else {}}
    m = build(game(player(units=[unit, "", "", ""]), p1, phase="battle"), pool=POOL, **opts)
    pick(m, f"attack:{m.state.rb[1]}", "attack")
    finish_round(m)
    return m


def went_mad(m: Match, p: int) -> list[str]:
    return [str(e.data["why"]) for e in m.events_since(0, player="all")
            if e.kind == "went_mad" and e.player == p]


def test_112_1a_three_corruption_in_one_damage_step() -> None:
    """112.1, 112.1a, 111.1, 111.2: 3 or more corruption in one damage step drives the RB mad;
    the total is kept."""
    m = hit_rb(hunter(), bonus=1)
    assert m.state.corruption[1] == 4
    assert went_mad(m, 1) == ["three_in_damage_step"]


def test_112_1a_exactly_three_corruption_in_one_damage_step_is_enough() -> None:
    """112.1a at its threshold: one check of 1 corruption (same pathway, lower sequence) and one
    of 2 make exactly 3 in one damage step: the RB goes mad. Two checks of 1 make 2: it does
    not."""
    m = hit_rb(hunter(sequence=8, deck=["hunter_b7", "assassin_b9"] + ["assassin_b8"] * 10),
               bonus=1)
    assert m.state.corruption[1] == 3
    assert m.state.mad[1] == 1
    assert went_mad(m, 1) == ["three_in_damage_step"]
    m = hit_rb(hunter(sequence=8, deck=["hunter_b7", "hunter_b7"] + ["assassin_b8"] * 10),
               bonus=1)
    assert m.state.corruption[1] == 2
    assert m.state.mad[1] == 0
    assert went_mad(m, 1) == []


def test_112_1a_counts_each_players_damage_step_from_zero() -> None:
    """112.1a for the first player's RB too: the damage step's count starts at 0 for both
    players, so exactly 3 corruption (1 + 2) drives seat 0's RB mad."""
    unit: dict[str, Any] = {"code": "t_strong", "counters": {"bonus_dmg": 1}}

    def hit_first_seat(top: list[str]) -> Match:
        p0 = player("rb_hunter", sequence=8, deck=top + ["assassin_b8"] * 10)
        m = build(game(p0, player(units=[unit, "", "", ""]), phase="battle", active=1),
                  pool=POOL)
        pick(m, f"attack:{m.state.rb[0]}", "attack")
        finish_round(m)
        return m

    m = hit_first_seat(["hunter_b7", "assassin_b9"])
    assert m.state.corruption[0] == 3
    assert m.state.mad[0] and went_mad(m, 0) == ["three_in_damage_step"]
    m = hit_first_seat(["hunter_b7", "hunter_b7"])
    assert m.state.corruption[0] == 2 and m.state.mad[0] == 0


def test_112_1b_fifth_face_down_card() -> None:
    """112.1b, 035.2: the fifth face-down status card drives the RB mad."""
    m = hit_rb(hunter(status=[FD] * 4))
    assert went_mad(m, 1) == ["face_down_5"]
    assert m.state.mad[1] == 1
    m = hit_rb(hunter(status=[FD] * 3))  # the fourth face-down card: not yet
    assert went_mad(m, 1) == [] and m.state.mad[1] == 0


def test_018_1_death_first_then_mad_while_dead_loses() -> None:
    """018.1, 112.1c, 113.1, 131.1: the seventh face-down card kills the RB and then drives it
    mad while dead: its controller loses."""
    m = hit_rb(hunter(status=[FD] * 6, mad=0))
    assert m.result is not None and m.result.losers == [1]
    assert m.result.reason == "mad_while_dead"


def test_018_2_madness_first_option() -> None:
    """018.2: with ``state_check_order = madness_first`` the RB goes mad, then dies: no loss."""
    m = hit_rb(hunter(status=[FD] * 6), state_check_order="madness_first")
    assert m.result is None and m.state.dead[1] and m.state.mad[1]


def test_112_5_no_madness_while_mad() -> None:
    """112.5: a madness trigger while mad has no effect."""
    m = hit_rb(hunter(status=[FD] * 4, mad=1), bonus=1)
    assert went_mad(m, 1) == []


def test_112_1e_effect_madness_and_112_6_duration() -> None:
    """112.1e, 112.6, 068.1: an effect drives the opponent's RB mad; the madness lasts until
    the end of that player's next turn that begins afterwards."""
    m = build(game(player(), hunter(hand=["ev_frenzy"], sequence=4), active=1), pool=POOL)
    pick(m, f"event:{find(m, 'ev_frenzy')}:up")
    st = m.state
    assert st.mad[0] == 1
    finish_round(m)  # battle phase: still mad
    assert st.mad[0] and st.round == 2
    for _ in range(200):
        if st.active_player == 1:
            break
        assert st.mad[0]
        advance(m)
    assert st.mad[0] == 0
    assert any(e.kind == "madness_ended" for e in m.events_since(0, player="all"))


def test_112_3_mad_rb_cannot_ignite() -> None:
    """112.3, 075.1: a mad RB cannot activate 【起】 abilities."""
    m = build(game(player(mad=1)), pool=POOL)
    assert f"ignite:{m.state.rb[0]}:0" not in keys(m)


def test_113_4_dead_rb_corruption_and_loss() -> None:
    """113.4, 113.5, 062.1, 131.1, 135.1: a dead RB receives 1 corruption at the start of its
    controller's turns; at 3 while dead it goes mad and its controller loses at once."""
    m = build(game(player(dead=True), phase="start"), pool=POOL)
    assert m.state.dead_corruption[0] == 1 and m.state.corruption[0] == 1
    assert m.state.mad[0] == 0 and m.result is None  # 1 while dead: not yet
    m = build(game(player(dead=True, dead_corruption=1), phase="start"), pool=POOL)
    assert m.state.dead_corruption[0] == 2 and m.state.mad[0] == 0 and m.result is None
    m = build(game(player(dead=True, dead_corruption=2), phase="start"), pool=POOL)
    assert m.result is not None and m.result.losers == [0] and m.result.reason == "mad_while_dead"
    assert m.pending is None


def test_131_2_defeat_on_death_option() -> None:
    """131.2, 113.2: with ``defeat_condition = death`` the player loses when the RB dies."""
    m = hit_rb(hunter(status=[FU] * 6), defeat_condition="death")
    assert m.result is not None and m.result.losers == [1] and m.result.reason == "death"


def test_114_1_revival() -> None:
    """114.1, 114.2, 114.3, 114.4: a revival effect returns a dead RB; the effect's own text
    removes status cards; the while-dead counter resets; madness stays."""
    p0 = player(dead=True, dead_corruption=2, mad=1, hand=["ev_return"],
                status=[FU] * 7, stack=["seer_potion8"])
    m = build(game(p0), pool=POOL)
    pick(m, f"event:{find(m, 'ev_return')}:up")
    st = m.state
    assert not st.dead[0] and st.cards[st.rb[0]].zone == "revival.0"
    assert len(ids(m, "status.0")) == 4 and st.dead_corruption[0] == 0 and st.mad[0] == 1
    assert codes(m, "stack.0") == ["seer_potion8"]
    m = build(game(p0), pool=POOL, dead_corruption_count="whole_game")
    pick(m, f"event:{find(m, 'ev_return')}:up")
    assert m.state.dead_corruption[0] == 2


def test_133_1_deck_out_loses() -> None:
    """133.1: drawing from an empty main deck loses."""
    m = build(game(player(deck=[]), phase="draw"), pool=POOL)
    assert m.result is not None and m.result.losers == [0] and m.result.reason == "deck_out"


def test_134_2_simultaneous_losses_in_damage_step_draw() -> None:
    """134.1, 134.2, 133.2: both RBs' checks find empty decks in one damage step: a draw; with
    ``damage_step_losses = sequential`` the first loss ends the game."""
    desc = game(player(units=["t_strong", "", "", ""], deck=[]),
                hunter(units=["t_strong", "", "", ""], deck=[]), phase="battle")
    for opt, draw in (("simultaneous", True), ("sequential", False)):
        m = build(desc, pool=POOL, damage_step_losses=opt)
        for _ in range(10):
            if m.pending is None:
                break
            ch = m.pending
            rb = m.state.rb[1 - ch.player]
            index = getattr(m.state.stack[-1], "index", 0)
            unit = ch.kind == "attack" and m.state.attack_order[index] not in m.state.rb
            pick(m, f"attack:{rb}" if unit else ([] if ch.min == 0 else "pass"))
        assert m.result is not None
        assert m.result.draw == draw, opt


def test_112_2_persistent_thresholds_option() -> None:
    """112.2, 113.1: with ``threshold_checks = while_at_or_above`` an RB with 5 face-down
    status cards goes mad at a state check, and one with 7 status cards dies."""
    m = build(game(player(status=[FD] * 5)), pool=POOL, threshold_checks="while_at_or_above")
    assert m.state.mad[0]
    m = build(game(player(status=[FU] * 7)), pool=POOL, threshold_checks="while_at_or_above")
    assert m.state.dead[0]


def test_112_2_persistent_thresholds_are_not_reached_one_card_below() -> None:
    """112.2, 113.1 one below each threshold: 4 face-down status cards do not drive the RB
    mad and 6 status cards do not kill it."""
    m = build(game(player(status=[FD] * 4)), pool=POOL, threshold_checks="while_at_or_above")
    assert m.state.mad[0] == 0
    m = build(game(player(status=[FU] * 6)), pool=POOL, threshold_checks="while_at_or_above")
    assert not m.state.dead[0] and m.state.cards[m.state.rb[0]].zone == "revival.0"


def test_103_3_a_face_up_damage_check_gives_no_corruption() -> None:
    """103.3, 111.1: a damage check of the RB's own pathway at its sequence or higher goes face
    up and gives no corruption: no corruption is received or announced."""
    m = hit_rb(hunter(deck=["hunter_b9"] * 12))
    assert m.state.corruption[1] == 0 and len(ids(m, "status.1")) == 1
    assert [e for e in m.events_since(0, player=1) if e.kind == "corruption"] == []
    assert m.state.mad[1] == 0
    # five face-down cards and a face-up sixth: no madness, the face-up one is not the fifth
    m = hit_rb(hunter(deck=["hunter_b9"] * 12, status=[FD] * 5))
    assert len(ids(m, "status.1")) == 6 and m.state.mad[1] == 0


def test_view_panel_shows_public_counters() -> None:
    """111.1, 031.3: the view panel shows corruption, madness, death and zone counts."""
    m = hit_rb(hunter(), bonus=1)
    panel = m.view(0).panel["players"][1]
    assert panel["corruption"] == 4 and panel["mad"] and panel["status"] == 2
    assert panel["status_face_down"] == 2 and not panel["dead"]


def test_112_7_a_beyonder_card_driven_mad_by_an_effect() -> None:
    """112.7, 112.1e, 112.3, 112.5, 112.6 (R27): an effect drives the opponent's Beyonder card
    mad; it cannot be chosen again, cannot use its 【起】 in its controller's next turn, and
    stops being mad at the end of that turn."""
    m = build(game(player(hand=["t_ev_madden_unit", "seer_b9"]),
                   player("rb_hunter", units=["hunter_b9", "", "seer_b8", ""])), pool=POOL)
    target, other = find(m, "seer_b8"), find(m, "hunter_b9")
    pick(m, f"event:{find(m, 't_ev_madden_unit')}:up")
    assert sorted(keys(m)) == sorted([f"card:{other}", f"card:{target}"])
    pick(m, f"card:{target}", "effect_target")
    assert m.state.cards[target].counters.get("mad") == 1
    assert any(e.kind == "went_mad" and e.card == target for e in m.events_since(0, player="all"))
    assert m.state.mad == [0, 0]  # the RBs are untouched
    pick(m, "end")
    while m.pending is not None and not (m.pending.kind == "main_action"
                                         and m.pending.player == 1):
        advance(m)
    assert m.state.cards[target].counters.get("mad") == 2
    assert f"ignite:{target}:0" not in keys(m)  # 112.3: no 【起】 (draw a card)
    pick(m, "end")
    ended = [e for e in m.events_since(0, player="all") if e.kind == "madness_ended"]
    assert [e.card for e in ended] == [target]
    assert "mad" not in m.state.cards[target].counters


def test_112_5_a_beyonder_card_with_other_counters_is_not_mad() -> None:
    """112.5, 112.7: only the ``mad`` counter makes a Beyonder card mad: a unit carrying
    another counter (+100 strength this battle phase) can still be driven mad."""
    m = build(game(player(hand=["t_ev_madden_unit"]),
                   player("rb_hunter", units=[{"code": "hunter_b9", "counters": {"bp_str": 100}},
                                              "", "", ""])), pool=POOL)
    target = find(m, "hunter_b9")
    pick(m, f"event:{find(m, 't_ev_madden_unit')}:up")
    assert keys(m) == [f"card:{target}"]
    pick(m, f"card:{target}", "effect_target")
    assert m.state.cards[target].counters.get("mad")  # 1, or 2 once its controller's turn began
    assert any(e.kind == "went_mad" and e.card == target for e in m.events_since(0, player="all"))


def test_112_7_mad_beyonder_card_cannot_support_or_intercept() -> None:
    """112.7, 112.3, 095.1, 095.2 (R27): a mad back-row Beyonder card is offered neither to
    intercept an attack on its side nor to support its side's attack; it can still attack."""
    mad = {"code": "seer_b8", "counters": {"mad": 1}}
    m = build(game(player(units=["t_strong", "", "", ""]),
                   player("rb_hunter", units=["hunter_b9", "", mad, "seer_b9"]),
                   phase="battle"), pool=POOL)
    b8, b9, hb9 = find(m, "seer_b8"), find(m, "seer_b9"), find(m, "hunter_b9")
    seen = set()
    for _ in range(40):
        ch = m.pending
        if ch is None or m.state.round > 1:
            break
        if ch.kind == "attack" and ch.player == 0 and f"attack:{hb9}" in keys(m):
            pick(m, f"attack:{hb9}")
        elif ch.kind == "intercept":
            assert f"card:{b8}" not in keys(m) and f"card:{b9}" in keys(m)
            seen.add("intercept")
            m.choose(ch.player, [])
        elif ch.kind == "attack" and ch.player == 1:
            attacker = ch.options[0].data.get("attacker")
            pick(m, f"attack:{m.state.rb[0]}" if attacker == hb9 else "pass")
        elif ch.kind == "support":
            assert f"card:{b8}" not in keys(m) and f"card:{b9}" in keys(m)
            seen.add("support")
            m.choose(ch.player, [])
        else:
            advance(m)
    assert seen == {"intercept", "support"}
def test_113_1_the_seventh_status_card_kills_the_sixth_does_not() -> None:
    """113.1 at its threshold: a hit that brings the status zone to 6 cards leaves the RB
    alive; one that brings it to 7 kills it (face-up cards, so no madness interferes)."""
    m = hit_rb(hunter(status=[FU] * 5))
    assert len(ids(m, "status.1")) == 6
    assert not m.state.dead[1] and m.result is None
    m = hit_rb(hunter(status=[FU] * 6), defeat_condition="death")
    assert len(ids(m, "status.1")) == 7
    assert m.state.dead[1] and m.result is not None and m.result.losers == [1]
    rb = m.state.cards[m.state.rb[1]]
    assert rb.zone == "underworld.1" and not rb.face_down  # 113.2, 031.5: face up


def test_112_1_the_log_says_in_words_why_an_rb_goes_mad() -> None:
    """112.1a, 112.1b: the log line of an RB going mad gives the reason in words, never the
    internal reason name of the event."""
    for m, words, name in ((hit_rb(hunter(), bonus=1), "3 or more corruption in one damage step",
                            "three_in_damage_step"),
                           (hit_rb(hunter(status=[FD] * 4)), "5 face-down status cards",
                            "face_down_5")):
        mad = [e for e in m.events_since(0, player="all") if e.kind == "went_mad" and e.player == 1]
        assert len(mad) == 1
        line = describe(m.state, mad[0])
        assert words in line and name not in line, line
