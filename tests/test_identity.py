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


def _alias_reference(seed: int, viewer: int, card: int, epoch: int) -> int:
    """The alias permutation written out plainly (module text of ``tcgcore._identity``):
    six Feistel rounds over (16-bit id, 16-bit epoch), each round's four byte tables cut
    in order from one SHAKE-256 output keyed by the seed and the viewer."""
    import hashlib

    raw = hashlib.shake_256(b"tcgcore.alias" + seed.to_bytes(8, "little")
                            + viewer.to_bytes(2, "little")).digest(6 * 1024)
    left, right = card % 65536, epoch % 65536
    for r in range(6):
        a, b, c, d = (raw[r * 1024 + 256 * k:r * 1024 + 256 * (k + 1)] for k in range(4))
        f = (a[right % 256] ^ b[right // 256]) + 256 * (c[right % 256] ^ d[right // 256])
        left, right = right, left ^ f
    return left * 65536 + right


def test_aliases_are_the_documented_permutation_of_id_and_sight_epoch() -> None:
    # a pure function of the seed and the sight epochs: the same on any machine and after
    # a reload, so a front end that reconnects keeps following the cards it saw
    m = tcgcore.new_match("sparks", seed=2**64 - 3)
    cid = m.state.zones["deck.0"].cards[0]
    m.engine.move(cid, "discard.0")
    m.engine.move(cid, "deck.0")  # out of everybody's sight: epoch 1
    for viewer, index in ((0, 0), (1, 1), (None, 2)):
        for card in range(len(m.state.cards)):
            epoch = 1 if card == cid else 0
            assert tcgcore.card_alias(m.state, card, viewer) == _alias_reference(
                m.state.seed, index, card, epoch)
    for card, epoch in [(0, 0), (65535, 65535), (300, 2), (7, 65535)]:
        assert _identity._permute(12345, 3, card, epoch) == _alias_reference(12345, 3, card, epoch)


def test_card_alias_names_only_ids_the_alias_space_holds() -> None:
    m = tcgcore.new_match("sparks", seed=1)
    assert tcgcore.card_alias(m.state, 65535, 0) == _alias_reference(1, 0, 65535, 0)
    for bad in (65536, -1):
        with pytest.raises(ValueError, match=r"outside 0\.\.65535"):
            tcgcore.card_alias(m.state, bad, 0)


def test_each_viewer_gets_one_alias_per_card_also_after_many_views() -> None:
    m = tcgcore.new_match("sparks", seed=3)
    tcgcore.play_out(m, [tcgcore.RandomAgent(1), tcgcore.RandomAgent(2)], max_decisions=20)
    for viewer in (0, 1, None):
        for _ in range(2):  # the second pass reads the memo the first one filled
            ids = [tcgcore.card_alias(m.state, c, viewer) for c in range(len(m.state.cards))]
            assert len(set(ids)) == len(ids)
            shown = [c.id for z in m.view(viewer).zones for c in z.cards
                     if c is not None and c.id is not None]
            assert len(set(shown)) == len(shown) and set(shown) <= set(ids)
    choice = m.pending
    assert choice is not None and any(o.card is not None for o in choice.options)
    seat = m.seat_choice(choice.player)  # read through the memo the loops above filled
    assert seat is not None
    assert [o.card for o in seat.options] == [
        None if o.card is None else tcgcore.card_alias(m.state, o.card, choice.player)
        for o in choice.options]


def test_losing_sight_changes_the_alias_only_for_the_viewers_that_lost_it() -> None:
    m = tcgcore.new_match("sparks", seed=5)
    cid = m.state.zones["deck.1"].cards[0]
    m.engine.move(cid, "discard.1")
    before = {v: tcgcore.card_alias(m.state, cid, v) for v in (0, 1, None)}
    m.engine.move(cid, "hand.1")  # seat 1 keeps sight of its own hand; seat 0, spectator lose it
    assert tcgcore.card_alias(m.state, cid, 1) == before[1]
    assert tcgcore.card_alias(m.state, cid, 0) != before[0]
    assert tcgcore.card_alias(m.state, cid, None) != before[None]
    for other in range(len(m.state.cards)):  # the cards no one lost sight of keep epoch 0
        if other != cid:
            for v, index in ((0, 0), (1, 1), (None, 2)):
                assert tcgcore.card_alias(m.state, other, v) == _alias_reference(
                    5, index, other, 0)
    m.engine.move(cid, "discard.1")
    for v in (0, None):  # back in sight: named by the new alias, not the old one
        assert tcgcore.card_alias(m.state, cid, v) == _alias_reference(
            5, 2 if v is None else v, cid, 1)


@pytest.mark.parametrize("parity", [0, 1])
def test_events_name_cards_by_the_alias_of_when_they_happened(parity: int) -> None:
    m = tcgcore.new_match("sparks", seed=5)
    cid = next(c for c in m.state.zones["deck.1"].cards if c % 2 == parity)
    start = m.state.event_count
    m.engine.move(cid, "discard.1")
    m.engine.move(cid, "deck.1", index=0)
    m.engine.move(cid, "discard.1")
    m.engine.emit("looked_at", card=cid)  # a game's own event about the card, seen by all
    m.engine.move(cid, "hand.1")  # seat 0 and the spectator lose sight of it again
    m.engine.emit("looked_at", card=cid)
    raw = m.events_since(start, player="all")
    assert [e.kind for e in raw] == ["moved", "moved", "moved", "looked_at", "moved",
                                     "looked_at"]
    for viewer, index in ((0, 0), (1, 1), (None, 2)):
        seen = m.events_since(start, player=viewer)
        assert seen[0].card == _alias_reference(5, index, cid, 0)
        assert seen[0].code == m.state.cards[cid].code
        # everybody saw it go into the deck: still the alias it had before it went
        assert seen[1].card == seen[0].card and seen[1].code == seen[0].code
        assert seen[2].card == _alias_reference(5, index, cid, 1)
        assert seen[3].card == seen[2].card and seen[4].card == seen[2].card
        assert seen[5].card == _alias_reference(5, index, cid, 1 if viewer == 1 else 2)
        assert all(e.sight is None for e in seen)
    # shown to everybody while in seat 1's hand: the others lose sight of it once more
    assert tcgcore.card_alias(m.state, cid, 0) == _alias_reference(5, 0, cid, 3)


def _crafted_choice(m: tcgcore.Match[Any], options: list[tcgcore.Option]) -> None:
    """Put a pending choice of seat 0 with the given options in place (read-only tests
    of the seat-facing translation)."""
    m.state.pending = tcgcore.Choice(player=0, kind="pick", prompt="Pick", options=options,
                                     min=0, max=2, seq=41)


def test_a_seat_key_replaces_only_the_first_part_that_spells_the_card() -> None:
    m = tcgcore.new_match("sparks", seed=31337)  # a seed no other test memoises first
    m.engine.move(12, "discard.1")
    m.engine.move(12, "deck.1", index=0)  # seat 0 lost sight of card 12 once
    last = len(m.state.cards) - 1  # past the sight record: epoch 0
    assert last > 12
    _crafted_choice(m, [
        tcgcore.Option(key="pick:12:12", label="twice", card=12),
        tcgcore.Option(key="x12:12", label="later part", card=12),
        tcgcore.Option(key="120:3", label="a longer number", card=12),
        tcgcore.Option(key="use", label="no number", card=12, data={"amount": 2}),
        tcgcore.Option(key="pass", label="no card"),
        tcgcore.Option(key=f"last:{last}", label="the last card", card=last),
    ])
    shown = m.seat_choice(0)
    assert shown is not None
    a = tcgcore.card_alias(m.state, 12, 0)
    assert a == _alias_reference(31337, 0, 12, 1)
    z = _alias_reference(31337, 0, last, 0)
    assert [o.key for o in shown.options] == [f"pick:{a}:12", f"x12:{a}", "120:3", "use", "pass",
                                              f"last:{z}"]
    assert [o.card for o in shown.options] == [a, a, a, a, None, z]
    assert [o.label for o in shown.options] == ["twice", "later part", "a longer number",
                                                "no number", "no card", "the last card"]
    assert [o.data for o in shown.options] == [{}, {}, {}, {"amount": 2}, {}, {}]
    assert (shown.player, shown.kind, shown.prompt, shown.min, shown.max, shown.seq) == (
        0, "pick", "Pick", 0, 2, 41)
    assert m.engine_keys(0, [f"pick:{a}:12", "pass"]) == ["pick:12:12", "pass"]
    assert m.seat_choice(1) is None and m.view(1).pending is None


def test_a_seat_key_that_would_repeat_another_option_key_keeps_the_engine_key() -> None:
    m = tcgcore.new_match("sparks", seed=5)
    a = tcgcore.card_alias(m.state, 12, 0)
    _crafted_choice(m, [tcgcore.Option(key=str(a), label="a key spelled like the alias"),
                        tcgcore.Option(key="12", label="card 12", card=12)])
    shown = m.seat_choice(0)
    assert shown is not None and [o.key for o in shown.options] == [str(a), "12"]
    assert m.engine_keys(0, ["12"]) == ["12"] and m.engine_keys(0, [str(a)]) == [str(a)]


def test_card_ids_in_option_data_become_the_seats_aliases(monkeypatch: pytest.MonkeyPatch) -> None:
    m = tcgcore.new_match("sparks", seed=5)
    monkeypatch.setattr(m.spec, "card_data_keys", frozenset({"target", "cards", "bad"}))
    n = len(m.state.cards)
    hidden = m.state.zones["hand.1"].cards[0]  # a card seat 0 cannot see: still aliased
    data: dict[str, str | int | bool | None] = {
        "target": 3, "cards": f"0,4, -1,x,{n},{hidden}", "bad": True, "amount": 7}
    _crafted_choice(m, [tcgcore.Option(key="go", label="Go", data=data),
                        tcgcore.Option(key="far", label="Far", data={"target": n}),
                        tcgcore.Option(key="none", label="None", data={"amount": 1})])
    shown = m.seat_choice(0)
    assert shown is not None
    alias = [tcgcore.card_alias(m.state, c, 0) for c in (3, 0, 4, hidden)]
    assert shown.options[0].data == {"target": alias[0],
                                     "cards": f"{alias[1]},{alias[2]},-1,{alias[3]}",
                                     "bad": True, "amount": 7}  # a flag is no card
    assert shown.options[1].data == {"target": None}  # no such card
    assert shown.options[2].data == {"amount": 1}
    assert m.state.pending is not None and m.state.pending.options[0].data == data  # unchanged


def test_a_seat_is_told_the_code_of_a_card_an_event_shows_it() -> None:
    # Sparks' ability events name their card without its code: a seat that may see the
    # card is given the code (to name it), a seat that may not gets neither
    m = tcgcore.new_match("sparks", seed=1)
    tcgcore.play_out(m, [tcgcore.RandomAgent(1), tcgcore.RandomAgent(2)])
    raw = [e for e in m.events_since(0, player="all") if e.kind == "ability"]
    assert raw and all(e.code is None and e.card is not None for e in raw)
    for viewer in (0, 1, None):
        seen = [e for e in m.events_since(0, player=viewer) if e.kind == "ability"]
        for before, after in zip(raw, seen, strict=True):
            if before.visible_to(viewer):
                assert before.card is not None
                assert after.code == m.state.cards[before.card].code
            else:
                assert after.card is None and after.code is None


def test_the_sight_record_holds_at_most_one_epoch_per_card_and_viewer() -> None:
    # the state does not grow with the game: at most one epoch per (card, viewer)
    m = tcgcore.new_match("sparks", seed=1)
    width = m.state.num_players + 1
    last = len(m.state.cards) - 1
    for cid in (0, 5, 3, last, 3, last):
        owner = m.state.cards[cid].owner
        m.engine.move(cid, f"discard.{owner}")
        m.engine.move(cid, f"deck.{owner}")  # out of everybody's sight
        assert 0 < len(m.state.sight) <= len(m.state.cards) * width


def test_card_named_finds_a_card_by_instance_id_or_by_any_alias_up_to_its_epoch() -> None:
    m = tcgcore.new_match("sparks", seed=9)
    state = m.state
    n = len(state.cards)
    width = state.num_players + 1
    assert tcgcore.card_named(state, 0) == 0 and tcgcore.card_named(state, n - 1) == n - 1
    for bad in (-1, 1 << 32, (1 << 32) + 5):
        assert tcgcore.card_named(state, bad) is None
    cid = 5
    state.sight[:] = (state.sight + [0] * (cid * width))[:cid * width]  # card 5 has no record
    for v in range(width):
        viewer = v if v < state.num_players else None
        assert _identity.sight_epoch(state, cid, viewer) == 0
        assert tcgcore.card_named(state, _identity._alias(state.seed, v, cid, 0)) == cid
        assert tcgcore.card_named(state, _identity._alias(state.seed, v, cid, 1)) is None
    _identity.lose_sight(state, cid, 1 << 1)  # seat 1 twice
    _identity.lose_sight(state, cid, 1 << 1)
    assert _identity.sight_epoch(state, cid, 1) == 2 and _identity.sight_epoch(state, cid, 0) == 0
    for epoch in (0, 1, 2):  # an alias seat 1 had before names the card too
        assert tcgcore.card_named(state, _identity._alias(state.seed, 1, cid, epoch)) == cid
    assert tcgcore.card_named(state, _identity._alias(state.seed, 1, cid, 3)) is None
    assert tcgcore.card_named(state, _identity._alias(state.seed, 0, cid, 1)) is None
    past_end = _identity._alias(state.seed, 0, n, 0)  # a card id the match does not have
    assert tcgcore.card_named(state, past_end) is None


def test_moves_into_and_out_of_a_zone_named_after_a_card_name_it_by_each_seats_alias(
        monkeypatch: pytest.MonkeyPatch) -> None:
    m = tcgcore.new_match("sparks", seed=5)
    monkeypatch.setattr(m.spec, "card_zone_prefixes", ("at.",))
    state = m.state
    loc = state.zones["deck.0"].cards[0]
    m.engine.move(loc, "discard.0")
    m.engine.add_zone(f"at.{loc}", "location")
    guest = state.zones["deck.1"].cards[0]
    start = state.event_count
    m.engine.move(guest, f"at.{loc}")
    m.engine.move(guest, "discard.1")
    for viewer in (0, 1, None):
        into, out = m.events_since(start, player=viewer)
        named = f"at.{tcgcore.card_alias(state, loc, viewer)}"
        assert (into.dst, out.src) == (named, named) and named != f"at.{loc}"
        assert into.refs is None and out.refs is None
    raw_in, raw_out = m.events_since(start, player="all")
    assert (raw_in.dst, raw_out.src) == (f"at.{loc}", f"at.{loc}")


def test_card_named_reads_only_numbers_an_alias_can_be() -> None:
    m = tcgcore.new_match("sparks", seed=9)
    state = m.state
    aliases = {c: tcgcore.card_alias(state, c, 0) for c in range(len(state.cards))}
    high = next(c for c, a in aliases.items() if a >= 1 << 31)
    assert tcgcore.card_named(state, aliases[high]) == high  # an alias of 32 bits
    for alias in aliases.values():  # beyond 32 bits: no alias, whatever the low bits
        assert tcgcore.card_named(state, (1 << 32) + alias) is None
        assert tcgcore.card_named(state, alias - (1 << 32)) is None


def test_an_event_a_seat_may_not_see_reaches_it_without_card_code_or_secret() -> None:
    m = tcgcore.new_match("sparks", seed=5)
    state = m.state
    width = state.num_players + 1
    cid = max(state.zones["hand.0"].cards)
    state.sight[:] = (state.sight + [0] * (cid * width))[:cid * width]  # no record: no sight
    start = state.event_count
    only_0 = 1 << 0
    m.engine.emit("peek", card=cid, seen_by=only_0)
    m.engine.emit("named", code="spark3", seen_by=only_0)
    m.engine.emit("told", secret={"n": 1}, seen_by=only_0)
    raw = m.events_since(start, player="all")
    assert raw[0].sight is None and raw[0].card == cid
    for viewer in (1, None):
        for ev in m.events_since(start, player=viewer):
            assert (ev.card, ev.code, ev.secret, ev.sight) == (None, None, {}, None), ev
    mine = m.events_since(start, player=0)
    assert mine[0].card == tcgcore.card_alias(state, cid, 0) and mine[1].code == "spark3"
    assert mine[2].secret == {"n": 1}


def test_a_face_down_card_is_seen_by_its_controller_only_wherever_it_is() -> None:
    m = tcgcore.new_match("sparks", seed=5)
    cid = m.state.zones["deck.1"].cards[0]
    m.engine.move(cid, "discard.1", face_down=True, controller=0)
    card = m.state.cards[cid]
    zone = m.state.zones["discard.1"]
    assert [_identity.can_see(v, card, zone) for v in (0, 1, None)] == [True, False, False]
    assert [m.engine.can_see(v, card) for v in (0, 1, None)] == [True, False, False]


def test_card_named_reads_the_aliases_of_the_seats_and_the_spectator_only() -> None:
    m = tcgcore.new_match("sparks", seed=9)
    state = m.state
    n = state.num_players
    for cid in range(len(state.cards)):
        assert tcgcore.card_named(state, _identity._alias(state.seed, n, cid, 0)) == cid
        beyond = _identity._alias(state.seed, n + 1, cid, 0)  # no such viewer
        assert tcgcore.card_named(state, beyond) is None


def test_card_named_refuses_2_to_the_32_even_where_the_alias_0_names_a_card() -> None:
    """2**32 has the low 32 bits of the alias 0: a match whose seat 0 alias 0 stands for one
    of its cards (at an epoch the card has reached) must still not read 2**32 as that card."""
    cards = len(tcgcore.new_match("sparks", seed=0).state.cards)
    seed = next(s for s in range(200_000) if _identity._unalias(s, 0, 0)[0] < cards)
    m = tcgcore.new_match("sparks", seed=seed)
    state = m.state
    cid, epoch = _identity._unalias(seed, 0, 0)
    width = state.num_players + 1
    state.sight[:] = (state.sight + [0] * ((cid + 1) * width))[:max(len(state.sight),
                                                                    (cid + 1) * width)]
    state.sight[cid * width] = epoch  # seat 0 has lost sight of the card `epoch` times
    assert _identity._alias(seed, 0, cid, epoch) == 0
    assert tcgcore.card_named(state, 0) == 0  # an instance id first
    assert tcgcore.card_named(state, 1 << 32) is None


def test_card_alias_ignores_the_memo_of_another_epoch_of_the_card() -> None:
    m = tcgcore.new_match("sparks", seed=31)
    state = m.state
    for v, viewer in ((0, 0), (1, 1), (2, None)):
        _identity._alias(state.seed, v, 3, 0xFFFF)  # the memo holds epoch 65535 of card 3
        assert _identity.sight_epoch(state, 3, viewer) == 0
        assert tcgcore.card_alias(state, 3, viewer) == _alias_reference(state.seed, v, 3, 0)


def test_an_event_naming_no_card_of_the_match_gets_no_code() -> None:
    m = tcgcore.new_match("sparks", seed=5)
    n = len(m.state.cards)
    start = m.state.event_count
    m.engine.emit("odd", card=n)
    for viewer in (0, 1, None):
        (ev,) = m.events_since(start, player=viewer)
        assert ev.code is None
