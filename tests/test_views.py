"""Views and event redaction never leak hidden information."""

from __future__ import annotations

from typing import Any

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tcgcore
from tcgcore.examples import sparks
from tcgcore.testing import assert_view_hides

from .helpers import give_hand, skip_mulligans


def _registry() -> tcgcore.Registry:
    return tcgcore.load_registry(load_entrypoints=False, plugins=[sparks])


def _zone(view: tcgcore.View, zone_id: str) -> tcgcore.ZoneView:
    return next(z for z in view.zones if z.id == zone_id)


def test_own_hand_visible_opponent_hand_counted_only(registry: tcgcore.Registry) -> None:
    m = tcgcore.new_match("sparks", seed=5, registry=registry)
    v0 = m.view(0)
    assert [c.id for c in _zone(v0, "hand.0").cards if c] == [
        tcgcore.card_alias(m.state, cid, 0) for cid in m.state.zones["hand.0"].cards]
    opp = _zone(v0, "hand.1")
    assert opp.count == 3 and opp.cards == []
    deck = _zone(v0, "deck.0")
    assert deck.count == 9 and deck.cards == []  # own deck is hidden too
    assert v0.pending is not None and v0.pending.kind == "mulligan"
    v1 = m.view(1)
    assert v1.pending is None and v1.waiting_for == 0 and v1.waiting_kind == "mulligan"


def test_view_has_no_rng_state(registry: tcgcore.Registry) -> None:
    m = tcgcore.new_match("sparks", seed=5, registry=registry)
    raw = msgspec.json.encode(m.view(0))
    assert b"rng" not in raw
    for word in m.state.rng.s:
        assert str(word).encode() not in raw


def test_face_down_card_is_anonymous_to_the_opponent(registry: tcgcore.Registry) -> None:
    m = tcgcore.new_match("sparks", seed=5, registry=registry)
    cid = give_hand(m, 0, ["flare", "spark3", "spark4"])[0]
    skip_mulligans(m)
    m.choose(0, f"card:{cid}")  # set face down
    mine = _zone(m.view(0), "arena.0").cards[0]
    theirs = _zone(m.view(1), "arena.0").cards[0]
    spectator = _zone(m.view(None), "arena.0").cards[0]
    assert mine is not None and mine.id == tcgcore.card_alias(m.state, cid, 0)
    assert mine.code == "flare"
    assert theirs is not None and theirs.id is None and theirs.code is None and theirs.face_down
    assert spectator is not None and spectator.id is None
    set_event = next(e for e in m.events_since(0, player="all") if e.kind == "set")
    assert set_event.visible_to(0) and not set_event.visible_to(1)


def test_revealed_then_shuffled_card_cannot_be_tracked(registry: tcgcore.Registry) -> None:
    m = tcgcore.new_match("sparks", seed=5, registry=registry)
    eng = m.engine
    cid = m.state.zones["hand.0"].cards[0]
    eng.move(cid, "discard.0")  # public: everyone learns its id
    eng.move(cid, "deck.0")
    eng.shuffle("deck.0")
    for seat in (0, 1, None):
        view = m.view(seat)
        ids = {c.id for z in view.zones for c in z.cards if c is not None}
        assert cid not in ids
        assert_view_hides(m, seat)
    shuffled = m.events_since(0, player=1)[-1]
    assert shuffled.kind == "shuffled" and shuffled.card is None


def test_view_rejects_unknown_seat(registry: tcgcore.Registry) -> None:
    m = tcgcore.new_match("sparks", seed=5, registry=registry)
    for bad in (2, -1):
        try:
            m.view(bad)
        except ValueError as exc:
            assert "seat" in str(exc)
        else:  # pragma: no cover
            raise AssertionError("no error")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**64 - 1), steps=st.integers(0, 40))
def test_views_leak_nothing_at_any_point(seed: int, steps: int) -> None:
    reg = _registry()
    m: tcgcore.Match[Any] = tcgcore.new_match("sparks", seed=seed, registry=reg)
    agents = [tcgcore.RandomAgent(seed % 1000), tcgcore.RandomAgent(seed % 997)]
    tcgcore.play_out(m, agents, max_decisions=steps)
    for seat in (0, 1, None):
        assert_view_hides(m, seat)
        for ev in m.events_since(0, player=seat):
            if not ev.visible_to(seat):
                assert ev.card is None and ev.code is None and not ev.secret
