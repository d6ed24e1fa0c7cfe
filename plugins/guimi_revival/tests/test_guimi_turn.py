"""Rounds, turns, phases and main-phase actions (rules.md sections 6 and 7)."""

from __future__ import annotations

from pathlib import Path

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


def test_061_1_round_is_two_turns_then_battle() -> None:
    """061.1, 061.2, 061.3, 061.4, 015.2, 015.3, 063.1: first player's turn, second player's
    turn, the shared battle phase, then the next round starts with the first player's draw."""
    m = build(game(phase="start", first_player=1), pool=POOL)
    until(m, "attack")  # drives through both turns (ends main phases)
    finish_round(m)
    evs = [e for e in m.events_since(0, player="all") if e.kind in ("turn_started", "battle_started",
                                                           "round_started", "drawn")]
    kinds = [(e.kind, e.player) for e in evs]
    assert kinds[:2] == [("turn_started", 1), ("drawn", 1)]
    assert kinds.index(("turn_started", 0)) < kinds.index(("battle_started", None))
    assert kinds.index(("battle_started", None)) < kinds.index(("round_started", None))
    after = kinds[kinds.index(("round_started", None)) + 1:]
    assert after[:2] == [("turn_started", 1), ("drawn", 1)]


def test_064_1_untap_own_cards_and_option() -> None:
    """064.1, 016.1: the revival phase untaps only the turn player's cards; ``untap_scope =
    all`` untaps both players' cards."""
    desc = game(player(units=[{"code": "seer_b9", "tapped": True}, "", "", ""], rb_tapped=True),
                player("rb_hunter", units=[{"code": "hunter_b9", "tapped": True}, "", "", ""]),
                phase="revival")
    m = build(desc, pool=POOL)
    st = m.state
    assert not st.cards[find(m, "seer_b9")].exhausted and not st.cards[st.rb[0]].exhausted
    assert st.cards[find(m, "hunter_b9")].exhausted
    m = build(desc, pool=POOL, untap_scope="all")
    assert not m.state.cards[find(m, "hunter_b9")].exhausted


def test_064_2_revival_promotion_and_end_phase_effects() -> None:
    """064.2, 065.1, 067.1, 068.1, 069.1, 027.2: timed abilities happen in their phase."""
    desc = game(player(units=["t_revival", "t_promo", "t_endp", ""]), phase="revival")
    m = build(desc, pool=POOL)
    # revival (1) + promotion phase 1 (1) by the first main action
    assert len(ids(m, "hand.0")) == 2
    pick(m, "end", "main_action")
    # promotion phase 2 (1) and end phase (1)
    assert len(ids(m, "hand.0")) == 4


def test_072_1_rank_gate() -> None:
    """072.1, 072.2, 014.1, 013.2: low always; mid needs sequence <= 6; high <= 4; angel <= 2; events
    are gated too."""
    hand = ["seer_b6", "seer_b4", "seer_b2", "t_ev_mid", "t_ev_high", "t_ev_angel", "seer_b9"]
    for seq, allowed in ((7, {"seer_b9"}), (6, {"seer_b9", "seer_b6", "t_ev_mid"}),
                         (4, {"seer_b9", "seer_b6", "t_ev_mid", "seer_b4", "t_ev_high"}),
                         (2, set(hand))):
        m = build(game(player(sequence=seq, hand=hand)), pool=POOL)
        playable = {m.state.cards[o.card].code for o in m.pending.options  # type: ignore[union-attr]
                    if o.key.startswith(("play:", "event:")) and o.card is not None}
        assert playable == allowed, seq


def test_072_4_dead_rb_keeps_sequence_for_gate() -> None:
    """072.4, 113.4: a dead RB's sequence still gates plays."""
    m = build(game(player(sequence=4, dead=True, hand=["seer_b4"])), pool=POOL)
    assert any(k.startswith("play:") for k in keys(m))


def test_073_1_play_into_empty_slots_only() -> None:
    """073.1, 073.2, 032.2, 034.3, 066.1: cards are played face up, untapped, into empty slots only."""
    m = build(game(player(units=["seer_b9", "", "seer_b8", ""], hand=["seer_b7"])), pool=POOL)
    cid = find(m, "seer_b7")
    plays = [k for k in keys(m) if k.startswith("play:")]
    assert plays == [f"play:{cid}:1", f"play:{cid}:3"]
    pick(m, f"play:{cid}:3")
    assert m.state.zones["units.0"].cards[3] == cid
    assert not m.state.cards[cid].exhausted and not m.state.cards[cid].face_down


def test_073_3_played_beyonder_attacks_same_round() -> None:
    """073.3: a Beyonder may attack in the battle phase of the round it was played."""
    m = build(game(player(), player("rb_hunter", hand=["hunter_b9"]), active=1), pool=POOL)
    cid = find(m, "hunter_b9")
    pick(m, f"play:{cid}:0")
    until(m, "attack")
    assert cid in m.state.attack_order


def test_on_play_ability() -> None:
    """027.2: an on-play ability happens when the card is played from hand."""
    m = build(game(player(hand=["t_onplay"])), pool=POOL)
    pick(m, f"play:{find(m, 't_onplay')}:0")
    assert codes(m, "hand.0") == ["marauder_b9"]


def test_074_1_one_event_per_turn_and_074_4_normal_to_underworld() -> None:
    """074.1, 074.2, 074.4, 034.4: one event from hand per turn; a normal event resolves in the
    own Spirit World and goes to the Underworld."""
    m = build(game(player(hand=["ev_insight", "ev_calm"])), pool=POOL)
    pick(m, f"event:{find(m, 'ev_insight')}:up")
    assert codes(m, "underworld.0") == ["ev_insight"]
    assert len(ids(m, "hand.0")) == 3
    assert not any(k.startswith("event:") for k in keys(m))


def test_074_3_full_spirit_world_blocks_events() -> None:
    """074.3, 034.1: no events from hand while the Spirit World holds 7 cards."""
    m = build(game(player(hand=["ev_insight"], spirit_world=["seer_b9"] * 7)), pool=POOL)
    assert not any(k.startswith("event:") for k in keys(m))


def test_074_5_continuous_event_stays_and_applies() -> None:
    """074.5, 027.3: a continuous event stays face up and keeps applying (+100 strength)."""
    from tcgcore_guimi_revival.rules import strength

    m = build(game(player(hand=["ev_blessing"], units=["seer_b9", "", "", ""])), pool=POOL)
    unit = find(m, "seer_b9")
    assert strength(m.engine, unit) == 300
    pick(m, f"event:{find(m, 'ev_blessing')}:up")
    assert codes(m, "spirit.0") == ["ev_blessing"]
    assert strength(m.engine, unit) == 400
    assert strength(m.engine, m.state.rb[0]) == 600


def _quick_setup(**kw: object) -> tcgcore.Match:  # type: ignore[type-arg]
    desc = game(player(hand=["t_ev_qdraw", "seer_b9"]), player("rb_hunter", hand=["hunter_b9"]),
                **kw)
    return build(desc, pool=POOL)


def test_074_6_quick_event_set_then_used_in_opponents_turn() -> None:
    """074.4, 074.6, 074.7, 074.8, 074.9, 016.3, 012.4: a set quick event cannot be used in the turn it
    was set; it can be used at a window of the opponent's turn, once per turn; it then goes to
    the Underworld."""
    m = _quick_setup()
    q = find(m, "t_ev_qdraw")
    pick(m, f"event:{q}:set")
    assert m.state.cards[q].face_down
    assert m.pending is not None and m.pending.player == 0  # no window for itself
    pick(m, "end")
    until(m, "quick_event")
    assert m.pending is not None
    assert m.pending.player == 0
    assert m.state.active_player == 1
    hand = len(ids(m, "hand.0"))
    pick(m, f"quick:{q}")
    assert codes(m, "underworld.0") == ["t_ev_qdraw"] and len(ids(m, "hand.0")) == hand + 1
    assert m.state.events_played[0] == 1


def test_074_11_quick_event_in_same_round_battle_and_option() -> None:
    """074.11: a quick event set this round may be used in this round's battle phase; with
    ``quick_event_same_round_battle = forbidden`` it may not."""
    desc = game(player(spirit_world=[{"code": "t_ev_qdraw", "face_down": True,
                                      "counters": {"set_turn": 2, "set_round": 1}}]),
                phase="battle")
    m = build(desc, pool=POOL)
    assert m.pending is not None and m.pending.kind == "quick_event"
    m = build(desc, pool=POOL, quick_event_same_round_battle="forbidden")
    assert m.pending is not None and m.pending.kind != "quick_event"


def test_074_11_a_card_set_this_round_leaves_an_older_set_card_usable() -> None:
    """074.11 with ``quick_event_same_round_battle = forbidden``: the quick event set this
    round is left out of the battle window, and one set before it, listed after it in the
    Spirit World, is still offered."""
    desc = game(player(spirit_world=[
        {"code": "t_ev_qdraw", "face_down": True, "counters": {"set_turn": 2, "set_round": 1}},
        {"code": "t_ev_qdraw", "face_down": True}]), phase="battle")
    m = build(desc, pool=POOL, quick_event_same_round_battle="forbidden")
    new, old = ids(m, "spirit.0")
    assert m.pending is not None and m.pending.kind == "quick_event"
    assert keys(m) == [f"quick:{old}", "pass"]
    pick(m, f"quick:{old}")
    assert codes(m, "underworld.0") == ["t_ev_qdraw"] and m.state.cards[new].face_down


def test_074_10_quick_from_hand_option() -> None:
    """074.10 (R10): a quick event is never activated from hand, only set; with the variant
    ``quick_event_from_hand = allowed`` it may also be activated from hand in its owner's main
    phase, and that counts as the turn's event (074.9)."""
    m = _quick_setup()
    q = find(m, "t_ev_qdraw")
    assert f"event:{q}:up" not in keys(m) and f"event:{q}:set" in keys(m)
    m = build(game(player(hand=["t_ev_qdraw", "ev_insight"], spirit_world=[
        {"code": "ev_calm", "face_down": True}],
        status=[{"code": "marauder_b9", "face_down": True}])),
        pool=POOL, quick_event_from_hand="allowed")
    q = find(m, "t_ev_qdraw")
    assert f"event:{q}:up" in keys(m)
    pick(m, f"event:{q}:up")
    assert m.state.events_activated[0] == 1
    assert not any(k.startswith(("event:", "flip:")) for k in keys(m))


def test_074_12_set_normal_event_later_and_option() -> None:
    """074.12, 074.9: a set normal event can be activated in a later own main phase (not
    counted toward 074.1); with ``set_event_activation = cannot_set`` it cannot be set."""
    m = build(game(player(hand=["ev_insight", "ev_calm"])), pool=POOL)
    ev = find(m, "ev_insight")
    pick(m, f"event:{ev}:set")
    assert f"flip:{ev}" not in keys(m)
    for _ in range(30):
        if f"flip:{ev}" in keys(m):
            break
        until(m, "main_action")
        if f"flip:{ev}" not in keys(m):
            pick(m, "end")
    pick(m, f"flip:{ev}")
    assert codes(m, "underworld.0") == ["ev_insight"]
    assert any(k.startswith("event:") for k in keys(m))
    m = build(game(player(hand=["ev_insight"])), pool=POOL, set_event_activation="cannot_set")
    assert f"event:{find(m, 'ev_insight')}:set" not in keys(m)


def test_075_1_ignition_once_per_turn() -> None:
    """075.1, 075.2, 027.1: 【起】 abilities of units and the RB, once per turn each."""
    m = build(game(player(units=["seer_b8", "", "", ""],
                          status=[{"code": "marauder_b9", "face_down": True}])), pool=POOL)
    unit = find(m, "seer_b8")
    rb = m.state.rb[0]
    assert f"ignite:{unit}:0" in keys(m) and f"ignite:{rb}:0" in keys(m)
    pick(m, f"ignite:{unit}:0")
    assert codes(m, "hand.0") == ["marauder_b9"]
    assert f"ignite:{unit}:0" not in keys(m)


def test_076_1_potion_activation() -> None:
    """076.1, 076.2, 076.4, 012.1: a potion in a unit slot moves face up into the Spirit World
    and becomes a characteristic; a potion in hand can only be played."""
    from tcgcore_guimi_revival.rules import is_characteristic

    m = build(game(player(units=["seer_potion8", "", "", ""], hand=["seer_potion9"])), pool=POOL)
    pot = find(m, "seer_potion8")
    in_hand = find(m, "seer_potion9")
    assert f"potion:{in_hand}" not in keys(m)
    pick(m, f"potion:{pot}")
    assert m.state.cards[pot].zone == "spirit.0" and not m.state.cards[pot].face_down
    assert is_characteristic(m.engine, pot)


def test_076_3_full_spirit_world_keeps_potion() -> None:
    """076.3, 034.2: with a full Spirit World the potion cannot move (no activation offered)."""
    m = build(game(player(units=["seer_potion8", "", "", ""], spirit_world=["ev_ward"] * 7)),
              pool=POOL)
    assert not any(k.startswith("potion:") for k in keys(m))


def test_077_1_move_and_swap_units() -> None:
    """077.1, 077.2, 077.3, 077.4, 032.3: units move to empty slots or swap, keep their tapped
    state; the RB never moves; no option puts an own unit into the Underworld."""
    m = build(game(player(units=[{"code": "seer_b9", "tapped": True}, "seer_b8", "", ""])),
              pool=POOL)
    a, b = find(m, "seer_b9"), find(m, "seer_b8")
    assert all(not k.startswith("move:" + str(m.state.rb[0])) for k in keys(m))
    pick(m, f"move:{a}:1")
    assert m.state.zones["units.0"].cards[:2] == [b, a]
    assert m.state.cards[a].exhausted
    pick(m, f"move:{a}:3")
    assert m.state.zones["units.0"].cards == [b, tcgcore.EMPTY_SLOT, tcgcore.EMPTY_SLOT, a]
    assert all(k.split(":")[0] in ("move", "ignite", "end") for k in keys(m))


def test_077_5_moves_without_a_cap_but_no_arrangement_twice() -> None:
    """077.1, 077.5 (R9): units move and swap any number of times, but a move or swap that
    would recreate an arrangement of the unit zone already seen in this main phase is not
    offered; the next main phase starts afresh."""
    m = build(game(player(units=["seer_b9", "seer_b8", "", ""])), pool=POOL)
    a, b = find(m, "seer_b9"), find(m, "seer_b8")
    e = tcgcore.EMPTY_SLOT
    seen = {tuple(m.state.zones["units.0"].cards)}
    moves = 0
    while True:  # take every offered move, always the first: a walk through arrangements
        offered = [k for k in keys(m) if k.startswith("move:")]
        for k in offered:
            _, cid, t = k.split(":")
            units = list(m.state.zones["units.0"].cards)
            s = units.index(int(cid))
            units[s], units[int(t)] = units[int(t)], units[s]
            assert tuple(units) not in seen, k  # never back to a seen arrangement
        if not offered:
            break
        pick(m, offered[0])
        seen.add(tuple(m.state.zones["units.0"].cards))
        moves += 1
    assert moves > 4  # the old cap of four moves is gone
    assert len(seen) == moves + 1 <= 12  # two units in four slots: 12 arrangements
    assert m.state.zones["units.0"].cards.count(e) == 2 and {a, b} <= set(
        m.state.zones["units.0"].cards)
    # back and forth: after F1 -> F2, the move F2 -> F1 would recreate the start
    m = build(game(player(units=["seer_b9", "", "", ""])), pool=POOL)
    a = find(m, "seer_b9")
    pick(m, f"move:{a}:1")
    assert f"move:{a}:0" not in keys(m) and f"move:{a}:2" in keys(m)
    pick(m, "end")
    until(m, "main_action")  # the opponent's main phase, then ours again next round
    while m.state.active_player != 0:
        pick(m, "end")
        until(m, "main_action")
    assert f"move:{a}:0" in keys(m)


def test_071_2_opponent_only_answers_quick_windows() -> None:
    """071.1, 071.2: during a main phase only the turn player acts, except quick windows."""
    m = build(game(player(hand=["seer_b9", "seer_b8"]),
                   player("rb_hunter", spirit_world=[{"code": "t_ev_qdraw", "face_down": True}])),
              pool=POOL)
    seen = []
    for _ in range(3):
        assert m.pending is not None
        seen.append((m.pending.player, m.pending.kind))
        if m.pending.kind == "quick_event":
            pick(m, "pass")
        else:
            pick(m, next(k for k in keys(m) if k.startswith("play:")))
    assert all(kind == "quick_event" for p, kind in seen if p == 1)
    assert (1, "quick_event") in seen


def test_031_4_no_hand_size_limit() -> None:
    """031.4: no maximum hand size; nothing is discarded at the end phase."""
    m = build(game(player(hand=["seer_b9"] * 12), phase="end"), pool=POOL)
    assert len(ids(m, "hand.0")) == 12


def test_074_8_window_offer_reveals_nothing() -> None:
    """074.8, 031.3: a window is offered for any set event (even a normal one, with only
    ``pass``), so the offer does not reveal what the set card is."""
    m = build(game(player(hand=["seer_b9"]), player("rb_hunter", spirit_world=[
        {"code": "ev_insight", "face_down": True}])), pool=POOL)
    pick(m, "end", "main_action")
    assert m.pending is not None and m.pending.kind == "quick_event"
    assert keys(m) == ["pass"]


def test_069_1_turn_player_orders_simultaneous_timed_effects() -> None:
    """069.1, 012.5: several revival-phase effects: the turn player picks the order."""
    m = build(game(player(units=["t_revival", "seer_b4", "", ""],
                          status=[{"code": "marauder_b9", "face_down": True}]),
                   phase="revival"), pool=POOL)
    assert m.pending is not None and m.pending.kind == "order_effects"
    heal = find(m, "seer_b4")
    pick(m, f"card:{heal}")
    assert codes(m, "status.0") == []
    assert len(ids(m, "hand.0")) == 1
    assert m.pending is not None
    assert m.pending.kind == "main_action"
