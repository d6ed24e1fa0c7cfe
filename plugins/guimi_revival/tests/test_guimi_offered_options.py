"""Options that cannot change the game are not offered; a search that finds nothing says so
(rules.md 012.6, 075.3, 075.4, 074.13; ruling R32)."""

from __future__ import annotations

from tcgcore_guimi_revival.plugin import describe
from tcgcore_guimi_revival.testing import build, codes, covers, find, game, ids, keys, pick, player

FD = {"code": "hunter_b9", "face_down": True}


@covers("rb_seer", "seer_b6")
def test_075_3_klein_offers_only_abilities_that_can_act() -> None:
    """075.3, 012.6 (R32): Klein Moretti's heal is not offered with no face-down status card,
    and his search for the next sequence's Beyonder (a Faceless at sequence 7) is not offered
    while no Faceless is left in his Underworld or main deck; each is offered once it could
    act."""
    rb_heal, rb_seek = 0, 1
    m = build(game(player(sequence=7, deck=["marauder_b9"] * 10, hand=["seer_b9"])))
    rb = m.state.rb[0]
    assert f"ignite:{rb}:{rb_heal}" not in keys(m) and f"ignite:{rb}:{rb_seek}" not in keys(m)
    m = build(game(player(sequence=7, deck=["marauder_b9"] * 9 + ["seer_b6"], status=[FD])))
    assert f"ignite:{rb}:{rb_heal}" in keys(m) and f"ignite:{rb}:{rb_seek}" in keys(m)
    pick(m, f"ignite:{rb}:{rb_seek}")
    pick(m, "code:seer_b6", "effect_target")
    assert "seer_b6" in codes(m, "spirit.0")
    m = build(game(player(sequence=7, deck=["marauder_b9"] * 10, underworld=["seer_b6"])))
    assert f"ignite:{rb}:{rb_seek}" in keys(m)
    # a full Spirit World: the characteristic could not be placed (034.2)
    m = build(game(player(sequence=7, deck=["seer_b6"] * 3,
                          spirit_world=["seer_ev_tarot"] * 7)))
    assert f"ignite:{rb}:{rb_seek}" not in keys(m)


@covers("seer_b8", "seer_b5")
def test_075_3_unit_abilities_that_cannot_act() -> None:
    """075.3 (R32): Clown's "move this card into your Spirit World" is not offered with a
    full Spirit World; Marionettist's "tap an opponent's untapped Beyonder" is not offered
    when the opponent has none."""
    m = build(game(player(units=["seer_b8", "", "", ""], spirit_world=["seer_ev_tarot"] * 7)))
    assert not any(k.startswith("ignite:") for k in keys(m))
    m = build(game(player(units=["seer_b8", "", "", ""])))
    assert f"ignite:{find(m, 'seer_b8')}:0" in keys(m)
    m = build(game(player(sequence=5, units=["seer_b5", "", "", ""]),
                   player("rb_hunter", units=[{"code": "hunter_b9", "tapped": True}, "", "", ""])))
    b5 = find(m, "seer_b5")
    assert f"ignite:{b5}:0" not in keys(m) and f"ignite:{b5}:1" in keys(m)


@covers("seer_b9")
def test_075_4_a_search_that_finds_nothing_says_so() -> None:
    """075.4 (R32): Seer's "search your deck for a potion" when played, with no potion of the
    pathway left, logs that it found nothing (in words, not effect names) and shuffles."""
    m = build(game(player(hand=["seer_b9"], deck=["marauder_b9"] * 6)))
    start = m.state.event_count
    pick(m, f"play:{find(m, 'seer_b9')}:0")
    events = m.events_since(start, player=0)
    failed = [e for e in events if e.kind == "search_failed"]
    assert len(failed) == 1
    assert describe(m.state, failed[0]).strip() == "P0 searches the main deck and finds nothing"
    assert any(e.kind == "shuffled" for e in events)
    lines = [describe(m.state, e) for e in events if e.kind == "effect"]
    assert lines and all("search_potion" not in line for line in lines)
    assert "search the deck for a potion" in lines[0]


@covers("seer_ev_figurine")
def test_012_6_quick_window_leaves_out_a_quick_event_that_cannot_act() -> None:
    """012.6, 074.13 (R32): in a quick-event window a set Divine Figurine (one of your
    Beyonders cannot be hit) is not offered while its owner has no Beyonder; the window is
    still offered, so it tells the opponent nothing (074.8)."""
    desc = game(player(hand=["seer_b9"]), player("rb_hunter", spirit_world=[
        {"code": "seer_ev_figurine", "face_down": True}]))
    m = build(desc)
    pick(m, f"play:{find(m, 'seer_b9')}:0", "main_action")
    assert m.pending is not None and m.pending.kind == "quick_event"
    assert keys(m) == ["pass"]
    m = build(game(player(hand=["seer_b9"]), player("rb_hunter", units=["hunter_b9", "", "", ""],
                                                    spirit_world=[{"code": "seer_ev_figurine",
                                                                   "face_down": True}])))
    pick(m, f"play:{find(m, 'seer_b9')}:0", "main_action")
    fig = ids(m, "spirit.1")[0]
    assert keys(m) == [f"quick:{fig}", "pass"]


@covers("seer_b2")
def test_034_2_set_extra_into_a_full_spirit_world_offers_no_target() -> None:
    """034.2 (R4): the Miracle Invoker's "set an extra-deck card" asks
    for no target while the Spirit World holds 7 cards; the extra deck is untouched. With 6
    it asks."""
    for full, asked in ((7, False), (6, True)):
        m = build(game(player(sequence=2, hand=["seer_b2"], extra=["uniq_seer"],
                              spirit_world=["seer_ev_tarot"] * full)))
        pick(m, f"play:{find(m, 'seer_b2')}:0", "main_action")
        assert (m.pending is not None and m.pending.kind == "effect_target") == asked
        if not asked:
            assert codes(m, "extra.0") == ["uniq_seer"] and len(ids(m, "spirit.0")) == 7
