"""General concepts (rules.md section 1) and effects."""

from __future__ import annotations

from pathlib import Path

import pytest
from tcgcore_guimi_revival.testing import (
    build,
    codes,
    find,
    finish_round,
    game,
    keys,
    new_match,
    pick,
    player,
    registry,
    until,
)

import tcgcore

POOL = str(Path(__file__).parent / "data" / "test_pool.toml")


def test_011_1_two_players_only() -> None:
    """011.1: exactly two players."""
    with pytest.raises(tcgcore.OptionsError):
        tcgcore.new_match("guimi_revival", seed=0, players=3, registry=registry())
    assert new_match(0).state.num_players == 2


def test_012_3_partial_effect() -> None:
    """012.3, 035.3: an effect that can only partly happen does as much as it can (heal 2 with one
    face-down status card)."""
    m = build(game(player(hand=["ev_calm"], status=[{"code": "marauder_b9", "face_down": True},
                                                    "seer_b9"])), pool=POOL)
    pick(m, f"event:{find(m, 'ev_calm')}:up")
    assert codes(m, "status.0") == ["seer_b9"]
    assert "marauder_b9" in codes(m, "underworld.0")


def test_012_2_forbid_beats_allow_and_015_1_owner_zones() -> None:
    """012.2, 102.6: a protected item cannot be chosen by a destroy effect; 015.1, 031.2: a
    destroyed card goes to its owner's Underworld."""
    p1 = player("rb_hunter", units=["", "", {"code": "it_charm", "counters": {"protect": 1}},
                                    "it_mirror"])
    m = build(game(player(hand=["ev_shatter"]), p1), pool=POOL)
    pick(m, f"event:{find(m, 'ev_shatter')}:up")
    assert keys(m) == [f"card:{find(m, 'it_mirror')}"]
    pick(m, f"card:{find(m, 'it_mirror')}", "effect_target")
    assert codes(m, "underworld.1") == ["it_mirror"]


def test_097_4_target_gone_no_hit_and_017_3_field() -> None:
    """097.4, 017.3: if the target left the field before the hit is determined, no hit."""
    m = build(game(player(units=["t_strong", "", "", ""]),
                   player("rb_hunter", units=["", "", "", "it_charm"]), phase="battle"),
              pool=POOL)
    item = find(m, "it_charm")
    pick(m, f"attack:{item}", "attack")
    assert m.pending is not None and m.pending.kind == "intercept"
    m.engine.move(item, "underworld.1")  # test manipulation: the target leaves the field
    pick(m, [])
    assert any(e.kind == "missed" and e.data["target"] == item for e in m.events_since(0, player="all"))


def test_effect_ops() -> None:
    """027.3 effects: strength/weaken last this battle phase; untap; destroy an event; Spirit
    World to hand; corrupt; revive could do nothing for a living RB, so it is not offered
    (074.13, R32)."""
    from tcgcore_guimi_revival.rules import strength

    m = build(game(player(hand=["ev_dispel"], units=[{"code": "t_strong", "tapped": True},
                                                     "", "", ""]),
                   player("rb_hunter", spirit_world=["ev_blessing"])), pool=POOL)
    pick(m, f"event:{find(m, 'ev_dispel')}:up")
    pick(m, f"card:{find(m, 'ev_blessing')}", "effect_target")
    assert codes(m, "underworld.1") == ["ev_blessing"]
    pick(m, f"ignite:{find(m, 't_strong')}:0")  # untap
    assert not m.state.cards[find(m, "t_strong")].exhausted
    m = build(game(player(hand=["t_ev_spirit"], spirit_world=["ev_blessing"])), pool=POOL)
    pick(m, f"event:{find(m, 't_ev_spirit')}:up")
    pick(m, f"card:{find(m, 'ev_blessing')}", "effect_target")
    assert "ev_blessing" in codes(m, "hand.0")
    m = build(game(player(hand=["ev_whisper"], sequence=6)), pool=POOL)
    pick(m, f"event:{find(m, 'ev_whisper')}:up")
    assert m.state.corruption[1] == 1
    m = build(game(player(hand=["ev_return"])), pool=POOL)
    assert f"event:{find(m, 'ev_return')}:up" not in keys(m)
    assert f"event:{find(m, 'ev_return')}:set" in keys(m)
    m2 = build(game(player(hand=["ev_hex"]), player("rb_hunter", units=["hunter_b9", "", "", ""])),
               pool=POOL, quick_event_from_hand="allowed")
    pick(m2, f"event:{find(m2, 'ev_hex')}:up")
    pick(m2, f"card:{find(m2, 'hunter_b9')}", "effect_target")
    assert strength(m2.engine, find(m2, "hunter_b9")) == 0
    finish_round(m2)
    assert strength(m2.engine, find(m2, "hunter_b9")) == 300


def test_recur_event_and_quick_in_battle() -> None:
    """102.3 as an effect, and a quick event used in an attack's window (074.8)."""
    m = build(game(player(hand=["t_ev_recur"], underworld=["seer_b9"])), pool=POOL)
    pick(m, f"event:{find(m, 't_ev_recur')}:up")
    pick(m, f"card:{find(m, 'seer_b9')}:0", "effect_target")
    assert m.state.cards[find(m, "seer_b9")].exhausted
    m = build(game(player(units=["t_weak", "", "", ""]),
                   player("rb_hunter", units=["hunter_b9", "", "", ""],
                          spirit_world=[{"code": "ev_ward", "face_down": True}]),
                   phase="battle"), pool=POOL)
    until(m, "quick_event")
    pick(m, "pass")
    until(m, "attack")
    assert m.pending is not None
