"""Card identity in what a seat receives: per-viewer aliases (docs/architecture.md, "Card
identity in views"), seat-facing choices, and events that give secrets only on request."""

from __future__ import annotations

from typing import Any

import pytest

import tcgcore
from tcgcore import _identity
from tcgcore.testing import ConformanceError, IdentityWatch, random_playout_check

from .helpers import give_hand, skip_mulligans


def _ids(view: tcgcore.View, zone: str) -> list[int | None]:
    return [c.id for z in view.zones if z.id == zone for c in z.cards if c is not None]


def test_a_card_that_comes_back_from_a_hidden_zone_gets_a_new_id() -> None:
    m = tcgcore.new_match("sparks", seed=5)
    cid = m.state.zones["deck.0"].cards[0]
    m.engine.move(cid, "discard.0")
    seen = _ids(m.view(1), "discard.0")[-1]
    m.engine.move(cid, "deck.0", index=0)  # out of everybody's sight
    m.engine.move(cid, "discard.0")  # and back
    again = _ids(m.view(1), "discard.0")[-1]
    assert seen is not None and again is not None and again != seen


def test_a_seat_follows_a_card_while_it_stays_in_its_sight() -> None:
    m = tcgcore.new_match("sparks", seed=5)
    cid = m.state.zones["hand.0"].cards[0]
    before = tcgcore.card_alias(m.state, cid, 0)
    m.engine.move(cid, "discard.0")  # from its own hand to a public zone: still in sight
    assert _ids(m.view(0), "discard.0")[-1] == before
    spectator = _ids(m.view(None), "discard.0")[-1]
    m.engine.move(cid, "hand.0")  # the spectator loses sight, seat 0 does not
    assert tcgcore.card_alias(m.state, cid, 0) == before
    assert tcgcore.card_alias(m.state, cid, None) != spectator


def test_a_face_down_card_is_not_recognised_when_it_is_turned_up() -> None:
    m = tcgcore.new_match("sparks", seed=5)
    cid = give_hand(m, 0, ["flare", "spark3", "spark4"])[0]
    m.engine.move(cid, "arena.0")
    seen = tcgcore.card_alias(m.state, cid, 1)
    m.engine.flip(cid, face_down=True)
    m.engine.flip(cid, face_down=False)
    assert tcgcore.card_alias(m.state, cid, 1) != seen


def test_ids_do_not_follow_deck_list_order() -> None:
    a = tcgcore.new_match("sparks", seed=1)
    b = tcgcore.new_match("sparks", seed=2)
    ids_a = [tcgcore.card_alias(a.state, c, 0) for c in range(len(a.state.cards))]
    ids_b = [tcgcore.card_alias(b.state, c, 0) for c in range(len(b.state.cards))]
    assert sum(x == y for x, y in zip(ids_a, ids_b, strict=True)) == 0
    assert all(x != c for c, x in enumerate(ids_a))
    assert len(set(ids_a)) == len(ids_a)  # one alias per card for one viewer
    other = [tcgcore.card_alias(a.state, c, 1) for c in range(len(a.state.cards))]
    assert not set(other) & set(ids_a)  # two seats' aliases do not match either


def test_alias_permutation_is_invertible_and_pure() -> None:
    for card, epoch in [(0, 0), (5, 3), (65535, 65535), (1234, 7)]:
        alias = _identity._permute(99, 2, card, epoch)
        assert _identity._unalias(99, 2, alias) == (card, epoch)
        assert _identity._alias(99, 2, card, epoch) == alias


def test_events_since_gives_the_spectators_events_unless_a_seat_or_all_is_named() -> None:
    m = tcgcore.new_match("sparks", seed=7)
    drawn = m.events_since(0)[1]
    assert drawn.kind == "drawn" and drawn.code is None and drawn.card is None
    assert m.events_since(0, player="all")[1].code is not None
    mine = m.events_since(0, player=0)[1]
    assert mine.code == m.events_since(0, player="all")[1].code
    assert mine.card == tcgcore.card_alias(m.state, m.events_since(0, player="all")[1].card or 0, 0)
    assert all(e.sight is None for e in m.events_since(0, player=0))


def test_a_seat_answers_with_the_keys_its_view_shows() -> None:
    m = tcgcore.new_match("sparks", seed=5)
    skip_mulligans(m)
    choice = m.pending
    assert choice is not None
    shown = m.view(choice.player).pending
    assert shown is not None and shown == m.seat_choice(choice.player)
    seat_key = shown.options[0].key
    engine_key = choice.options[0].key
    assert seat_key != engine_key and shown.options[0].card == tcgcore.card_alias(
        m.state, choice.options[0].card or 0, choice.player)
    assert m.engine_keys(choice.player, seat_key) == [engine_key]
    before = m.state_bytes()
    with pytest.raises(tcgcore.IllegalChoice) as err:
        m.answer(choice.player, engine_key)  # the engine's key is not the seat's
    assert err.value.reason == "unknown_key" and m.state_bytes() == before
    with pytest.raises(tcgcore.IllegalChoice):
        m.answer(1 - choice.player, seat_key)
    m.answer(choice.player, seat_key)
    assert m.decisions[-1].keys == [engine_key]  # replays record the engine's keys


def test_no_card_is_linked_across_a_hidden_zone_in_random_games() -> None:
    report = random_playout_check("sparks", seeds=range(8), roundtrip=False,
                                  check_illegal=False)
    assert report.games == 8


def test_the_identity_watch_catches_a_card_linked_across_a_hidden_zone(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from tcgcore import _engine

    monkeypatch.setattr(_engine, "_lose_sight", lambda state, card, losers: None)
    with pytest.raises(ConformanceError, match="same id"):
        for seed in range(10):
            m = tcgcore.new_match("sparks", seed=seed)
            watch = IdentityWatch(m)
            agent = tcgcore.RandomAgent(seed)
            while m.result is None:
                watch.check()
                choice = m.pending
                assert choice is not None
                m.choose(choice.player, agent.decide(m, choice))


def test_the_identity_watch_catches_an_instance_id_in_a_view(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from tcgcore import _views

    def leaky(seed: int, viewer: int) -> dict[int, int]:
        return {}

    monkeypatch.setattr(_views, "_alias", lambda seed, viewer, card, epoch: card)
    monkeypatch.setattr(_views, "alias_table", leaky)
    m = tcgcore.new_match("sparks", seed=3)
    with pytest.raises(ConformanceError, match="not its alias"):
        IdentityWatch(m).check()


def _serve(server: Any, **req: Any) -> dict[str, Any]:
    out: dict[str, Any] = server.handle(req)
    return out


def test_serve_speaks_the_seats_ids() -> None:
    from tcgcore._serve import Server

    server = Server()
    made = _serve(server, op="create", game="sparks", seed=4)
    match, tokens = made["match"], made["tokens"]
    entry = server.matches[match]
    choice = entry.match.pending
    assert choice is not None
    seat = choice.player
    got = _serve(server, op="pending", match=match, seat=seat, token=tokens[seat])
    shown = got["choice"]
    assert shown is not None and shown.options[0].key != choice.options[0].key
    assert _serve(server, op="choose", match=match, seat=seat, token=tokens[seat],
                  keys=[shown.options[0].key])["ok"]
    assert entry.match.decisions[-1].keys == [choice.options[0].key]
    events = _serve(server, op="events", match=match, since=0)["events"]
    assert all(e.code is None for e in events if e.kind == "drawn")  # the spectator's
