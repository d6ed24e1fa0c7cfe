"""Views and event redaction never leak hidden information."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tcgcore
from tcgcore._terminal import omniscient_view
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


def _ids_in(view: tcgcore.View) -> dict[str, list[int | None]]:
    return {z.id: [c.id if c is not None else None for c in z.cards] for z in view.zones}


def test_a_hand_is_counted_only_for_the_spectator_and_the_other_seat(
        registry: tcgcore.Registry) -> None:
    m = tcgcore.new_match("sparks", seed=5, registry=registry)
    for viewer in (1, None):
        hand = _zone(m.view(viewer), "hand.0")
        assert hand.visibility == "owner" and hand.owner == 0
        assert hand.count == 3 and hand.cards == []
    own = _zone(m.view(0), "hand.0")
    assert own.count == 3 and len(own.cards) == 3


def test_slotted_zones_show_empty_slots_and_count_only_cards(registry: tcgcore.Registry) -> None:
    m = tcgcore.new_match("sparks", seed=5, registry=registry)
    eng = m.engine
    arena = _zone(m.view(1), "arena.0")
    assert arena.cards == [None] and arena.count == 0
    eng.add_zone("vault", "vault", owner=0, visibility="hidden", capacity=3, slotted=True)
    eng.add_zone("shelf", "shelf", owner=0, capacity=3, slotted=True)
    kept = eng.add_card("spark3", 0, "vault", slot=1)
    shown = eng.add_card("spark4", 0, "shelf", slot=2)
    for viewer in (0, 1, None):
        vault = _zone(m.view(viewer), "vault")
        assert vault.count == 1 and vault.cards == []  # a hidden zone: its cards, not its slots
        shelf = _zone(m.view(viewer), "shelf")
        assert shelf.count == 1 and shelf.cards[:2] == [None, None]
        last = shelf.cards[2]
        assert last is not None and last.code == "spark4"
        assert last.id == tcgcore.card_alias(m.state, shown.id, viewer)
    everything = omniscient_view(m)
    vault = _zone(everything, "vault")
    assert vault.count == 1 and [c.id if c else None for c in vault.cards] == [None, kept.id, None]


def test_every_card_a_viewer_sees_is_named_by_its_alias_after_losing_sight(
        registry: tcgcore.Registry) -> None:
    m = tcgcore.new_match("sparks", seed=11, registry=registry)
    eng = m.engine
    moved = m.state.zones["deck.1"].cards[:3]
    first = []
    for cid in moved:  # public, hidden again (a new alias for everyone), public again
        eng.move(cid, "discard.1")
        first.append(_zone(m.view(0), "discard.1").cards[-1])
        eng.move(cid, "deck.1", index=0)
        eng.move(cid, "discard.1")
    again = _zone(m.view(0), "discard.1").cards[-3:]
    assert all(a is not None and b is not None and a.id != b.id
               for a, b in zip(first, again, strict=True))
    for viewer in (0, 1, None):
        view = m.view(viewer)
        for zone in view.zones:
            if not zone.cards:
                continue
            for cid, card in zip(m.state.zones[zone.id].cards, zone.cards, strict=True):
                assert (card is None) == (cid == -1)
                if card is not None and card.code is not None:
                    assert card.id == tcgcore.card_alias(m.state, cid, viewer)
                    assert card.code == m.state.cards[cid].code
        discard = _zone(view, "discard.1")
        assert [c.id for c in discard.cards if c] == [
            tcgcore.card_alias(m.state, cid, viewer) for cid in m.state.zones["discard.1"].cards]


def test_an_attached_card_names_its_host_only_when_the_viewer_sees_the_host(
        registry: tcgcore.Registry) -> None:
    m = tcgcore.new_match("sparks", seed=5, registry=registry)
    eng = m.engine
    public_host, hidden_host, guest, guest2 = m.state.zones["deck.0"].cards[:4]
    eng.move(public_host, "discard.0")
    eng.move(guest, "discard.0")
    eng.move(guest2, "discard.0")
    eng.update_card(guest, attached_to=public_host)
    eng.update_card(guest2, attached_to=hidden_host)  # the host stays in the deck
    for viewer in (0, 1, None):
        cards = {c.code and c.id: c for c in _zone(m.view(viewer), "discard.0").cards if c}
        on_public = cards[tcgcore.card_alias(m.state, guest, viewer)]
        on_hidden = cards[tcgcore.card_alias(m.state, guest2, viewer)]
        assert on_public.attached_to == tcgcore.card_alias(m.state, public_host, viewer)
        assert on_hidden.attached_to is None
    everything = {c.id: c for c in _zone(omniscient_view(m), "discard.0").cards if c}
    assert everything[guest].attached_to == public_host
    assert everything[guest2].attached_to == hidden_host


def test_a_hidden_card_keeps_its_physical_facts_in_the_view(registry: tcgcore.Registry) -> None:
    m = tcgcore.new_match("sparks", seed=5, registry=registry)
    cid = give_hand(m, 0, ["flare", "spark3", "spark4"])[0]
    skip_mulligans(m)
    m.choose(0, f"card:{cid}")  # set face down in arena.0
    m.engine.update_card(cid, exhausted=True)
    m.engine.set_counter(cid, "heat", 2)
    theirs = _zone(m.view(1), "arena.0").cards[0]
    assert theirs == tcgcore.CardView(face_down=True, exhausted=True, controller=0,
                                      counters={"heat": 2})
    mine = _zone(m.view(0), "arena.0").cards[0]
    assert mine is not None and mine.code == "flare" and mine.exhausted
    assert mine.counters == {"heat": 2} and mine.controller == 0 and mine.face_down
    mine.counters["heat"] = 9  # a copy: editing a view changes nothing
    assert m.state.cards[cid].counters == {"heat": 2}


def test_the_omniscient_view_names_instance_ids_and_copies_the_pending_choice(
        registry: tcgcore.Registry) -> None:
    m = tcgcore.new_match("sparks", seed=5, registry=registry)
    everything = omniscient_view(m)
    assert everything.viewer is None
    for zone in everything.zones:
        assert zone.count == len([c for c in m.state.zones[zone.id].cards if c != -1])
        assert [c.id if c else -1 for c in zone.cards] == m.state.zones[zone.id].cards
    assert everything.pending == m.pending and everything.pending is not m.pending
    assert m.view(None).pending is None and m.view(1).pending is None
    assert everything.waiting_for == 0 and everything.waiting_kind == "mulligan"


def test_the_view_reports_the_public_counters_panel_and_result(registry: tcgcore.Registry) -> None:
    m = tcgcore.new_match("sparks", seed=5, registry=registry)
    tcgcore.play_out(m, [tcgcore.RandomAgent(1), tcgcore.RandomAgent(2)], max_decisions=9)
    view = m.view(1)
    state = m.state
    assert (view.game, view.viewer, view.num_players) == ("sparks", 1, 2)
    assert (view.active_player, view.turn, view.event_count) == (
        state.active_player, state.turn, state.event_count)
    assert view.panel == m.spec.view_extra(state, 1) and view.panel  # type: ignore[misc]
    assert view.result is None
    tcgcore.play_out(m, [tcgcore.RandomAgent(1), tcgcore.RandomAgent(2)])
    final = m.view(0)
    assert final.result == m.result and final.result is not m.result
    assert final.pending is None and final.waiting_for is None and final.waiting_kind is None


def test_views_omit_the_fields_at_their_protocol_defaults(registry: tcgcore.Registry) -> None:
    # docs/protocol.md: `count` defaults to 0, `face_down` and `exhausted` to false; fields
    # equal to their default are omitted, so a client reads a missing field as its default
    m = tcgcore.new_match("sparks", seed=5, registry=registry)
    cid = m.state.zones["deck.0"].cards[0]
    m.engine.move(cid, "discard.0")
    raw = msgspec.json.decode(msgspec.json.encode(m.view(1)))
    zones = {z["id"]: z for z in raw["zones"]}
    assert zones["discard.0"]["cards"] == [
        {"id": tcgcore.card_alias(m.state, cid, 1), "code": m.state.cards[cid].code,
         "controller": 0}]
    assert zones["discard.1"] == {"id": "discard.1", "kind": "discard", "owner": 1}
    assert zones["hand.0"] == {"id": "hand.0", "kind": "hand", "owner": 0,
                               "visibility": "owner", "count": 3}
    # nor the view's own fields: no pending choice for this seat, no result yet
    assert "pending" not in raw and "result" not in raw and raw["waiting_for"] == 0


def test_view_records_are_built_by_field_name() -> None:
    # keyword-only fields: a record built positionally would silently depend on field order
    records: list[tuple[Any, tuple[Any, ...]]] = [
        (tcgcore.CardView, (1,)), (tcgcore.ZoneView, ("deck.0", "deck")),
        (tcgcore.View, ("sparks", 0, 2, 0, 1, 0))]  # every field it needs, in order
    for record, args in records:
        with pytest.raises(TypeError):
            record(*args)


def test_a_host_is_named_by_the_alias_of_its_epoch_also_past_the_sight_record(
        registry: tcgcore.Registry) -> None:
    from tcgcore import _identity

    m = tcgcore.new_match("sparks", seed=23, registry=registry)
    eng, state = m.engine, m.state
    width = state.num_players + 1
    host = next(c for c in state.zones["deck.0"].cards
                if c % 2 == 0 and c >= 2 and 2 * c < len(state.cards))
    guest = next(c for c in state.zones["deck.0"].cards if c != host)
    eng.move(guest, "discard.0")  # before the host's zone in the view
    eng.move(host, "discard.1")
    eng.update_card(guest, attached_to=host)

    def host_shown(viewer: int) -> int | None:
        alias = tcgcore.card_alias(state, guest, viewer)
        card = next(c for c in _zone(m.view(viewer), "discard.0").cards if c and c.id == alias)
        return card.attached_to

    # the sight record ends where the host's would start: seat 0 reads past its end
    state.sight[:] = (state.sight + [0] * (host * width))[:host * width]
    assert len(state.sight) == host * width
    assert host_shown(0) == tcgcore.card_alias(state, host, 0)
    # seat 0 loses sight of the host: a new epoch, whose alias is not in the memo yet,
    # while the aliases a wrong memo key would find (cards 2h and h/2) are
    for viewer in (0, 1):
        _identity._MEMO.pop((state.seed, viewer), None)
        for c in (host, 2 * host, host // 2):
            _identity.lose_sight(state, c, 1 << viewer)
        for c in (2 * host, host // 2):
            tcgcore.card_alias(state, c, viewer)
        assert host_shown(viewer) == tcgcore.card_alias(state, host, viewer)


def test_a_zone_named_after_a_card_takes_the_viewers_alias_of_its_epoch(
        registry: tcgcore.Registry, monkeypatch: pytest.MonkeyPatch) -> None:
    from tcgcore import _identity

    m = tcgcore.new_match("sparks", seed=23, registry=registry)
    monkeypatch.setattr(m.spec, "card_zone_prefixes", ("at.",))
    state = m.state
    card = next(c for c in state.zones["deck.1"].cards if c % 2 == 0)
    m.engine.add_zone(f"at.{card}", "location")
    m.engine.add_zone(f"at.{len(state.cards)}", "location")  # no such card: left as it is
    width = state.num_players + 1
    # the sight record ends where the card's would start: seat 0 reads past its end
    state.sight[:] = (state.sight + [0] * (card * width))[:card * width]
    assert m.view(0).zones[-2].id == f"at.{tcgcore.card_alias(state, card, 0)}"
    _identity.lose_sight(state, card, 1 << 1)  # seat 1 only: a new epoch, not in the memo
    for viewer in (0, 1, None):
        v = state.num_players if viewer is None else viewer
        _identity._MEMO.pop((state.seed, v), None)
        for other in (2 * card, card // 2):  # what a wrong memo key would find
            _identity._alias(state.seed, v, other, _identity.sight_epoch(state, card, viewer))
        names = [z.id for z in m.view(viewer).zones]
        assert f"at.{tcgcore.card_alias(state, card, viewer)}" in names
        assert f"at.{len(state.cards)}" in names
    assert tcgcore.card_alias(state, card, 1) != _identity._alias(state.seed, 1, card, 0)
