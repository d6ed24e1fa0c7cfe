"""Event cards in the main phase: one from hand, one activation, quick events set first
(rules.md 7.4: 074.1, 074.9, 074.10, 074.12, 074.13; rulings R10 and R32)."""

from __future__ import annotations

from tcgcore_guimi_revival.testing import (
    build,
    codes,
    covers,
    find,
    game,
    ids,
    keys,
    pick,
    player,
    until,
)

SET_BEFORE = {"face_down": True}  # a face-down event with no set turn: set before the scenario


def _set(code: str) -> dict[str, object]:
    return {"code": code, **SET_BEFORE}


@covers("seer_ev_vision", "marauder_ev_theft")
def test_074_9_one_activation_per_turn_set_first_then_from_hand() -> None:
    """074.9 (R10): after a set Vision of the Future is activated, no second event can be
    activated that turn, from hand or set; setting one from hand is still allowed (074.1)."""
    m = build(game(player(spirit_world=[_set("seer_ev_vision"), _set("seer_ev_vision")],
                          hand=["marauder_ev_theft", "seer_b9"]),
                   player("rb_hunter", units=["", "", "hunter_it_trap", ""])))
    first, second = ids(m, "spirit.0")
    hand = len(ids(m, "hand.0"))
    pick(m, f"flip:{first}", "main_action")
    assert len(ids(m, "hand.0")) == hand + 2  # its draw 2 happened
    assert m.state.events_activated[0] == 1
    theft = find(m, "marauder_ev_theft", "hand.0")
    assert f"event:{theft}:up" not in keys(m)  # the second event of the issue: refused
    assert f"flip:{second}" not in keys(m)
    assert f"event:{theft}:set" in keys(m)  # putting one into the Spirit World is separate
    pick(m, f"event:{theft}:set")
    assert m.state.cards[theft].face_down and m.state.events_played[0] == 1


@covers("seer_ev_vision")
def test_074_9_activation_from_hand_blocks_a_set_one() -> None:
    """074.1, 074.9 (R10): an event activated from hand is the turn's activation and its
    from-hand event; a set event cannot be activated after it."""
    m = build(game(player(spirit_world=[_set("seer_ev_vision")], hand=["seer_ev_vision",
                                                                        "seer_b9"])))
    set_one = ids(m, "spirit.0")[0]
    from_hand = find(m, "seer_ev_vision", "hand.0")
    assert f"flip:{set_one}" in keys(m)
    pick(m, f"event:{from_hand}:up")
    assert codes(m, "underworld.0") == ["seer_ev_vision"]
    assert f"flip:{set_one}" not in keys(m)
    assert not any(k.startswith("event:") for k in keys(m))


@covers("seer_ev_vision", "seer_ev_tarot")
def test_074_9_setting_from_hand_leaves_the_activation() -> None:
    """074.1, 074.9, 074.12 (R10): setting an event from hand uses the from-hand event only; an
    event set in an earlier turn may still be activated that turn, and the limits reset on
    the player's next turn."""
    m = build(game(player(sequence=6, spirit_world=[_set("seer_ev_vision")],
                          hand=["seer_ev_tarot", "seer_b9"])))
    old = ids(m, "spirit.0")[0]
    tarot = find(m, "seer_ev_tarot")
    pick(m, f"event:{tarot}:set")
    assert f"flip:{old}" in keys(m) and f"flip:{tarot}" not in keys(m)  # 074.12: not this turn
    pick(m, f"flip:{old}")
    assert m.state.events_activated[0] == 1 and m.state.events_played[0] == 1
    pick(m, "end")
    until(m, "main_action")
    while m.state.active_player != 0:
        pick(m, "end")
        until(m, "main_action")
    assert m.state.events_activated[0] == 0 and f"flip:{tarot}" in keys(m)


@covers("seer_ev_figurine")
def test_074_10_quick_event_is_set_first_by_default() -> None:
    """074.10, 074.6 (R10): by default a quick event in hand can only be set; the variant
    ``quick_event_from_hand = allowed`` also offers activating it from hand."""
    desc = game(player(hand=["seer_ev_figurine"], units=["seer_b9", "", "", ""]))
    m = build(desc)
    fig = find(m, "seer_ev_figurine")
    assert f"event:{fig}:up" not in keys(m) and f"event:{fig}:set" in keys(m)
    m = build(desc, quick_event_from_hand="allowed")
    assert f"event:{fig}:up" in keys(m)
    pick(m, f"event:{fig}:up")
    pick(m, f"card:{find(m, 'seer_b9')}", "effect_target")
    assert m.state.cards[find(m, "seer_b9")].counters.get("unhittable") == 1
    assert m.state.events_activated[0] == 1


@covers("sleepless_ev_requiem", "sleepless_ev_moon")
def test_074_13_an_event_that_could_do_nothing_is_only_set() -> None:
    """074.13, 012.6 (R32): Requiem moves face-down status cards; with none, activating it is
    not offered (setting it is), with one it is; a continuous event is always offered."""
    desc = game(player("rb_sleepless", sequence=6,
                       hand=["sleepless_ev_requiem", "sleepless_ev_moon"]))
    m = build(desc)
    req, moon = find(m, "sleepless_ev_requiem"), find(m, "sleepless_ev_moon")
    assert f"event:{req}:up" not in keys(m) and f"event:{req}:set" in keys(m)
    assert f"event:{moon}:up" in keys(m)
    m = build(game(player("rb_sleepless", hand=["sleepless_ev_requiem"],
                          status=[{"code": "hunter_b9", "face_down": True}])))
    req = find(m, "sleepless_ev_requiem")
    pick(m, f"event:{req}:up")
    assert codes(m, "status.0") == [] and "hunter_b9" in codes(m, "underworld.0")
