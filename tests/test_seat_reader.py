"""The seat reader (``tcgcore.SeatReader``): every answer is the seat's view's, and nothing more.

The reader answers an agent's questions (a zone's cards, a card by the seat's alias, counts
of hidden zones, the pending choice, the game's panel facts) without building the whole
view. These tests compare each answer with ``match.view(seat)`` over many states of Guimi
Revival, Arkham (one to four investigators, every scenario) and Sparks, check that no number
the view does not show finds a card, and that both games' heuristic agents, which read
through it, still make the golden corpus's decisions.
"""

from __future__ import annotations

import json
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tcgcore
from tcgcore._identity import _alias, card_alias, sight_epoch
from tcgcore.examples import sparks

from .golden.record import CONFIGS, GAMES, dump, record


def _viewer(state: Any, seat: int | None) -> int:
    return state.num_players if seat is None else seat


def assert_reads_as_view(match: tcgcore.Match[Any], seat: int | None) -> None:
    """Every answer of ``SeatReader(match, seat)`` equals the one of ``match.view(seat)``,
    and no alias the view does not show (another card's, an earlier sight's) finds a card."""
    view = match.view(seat)
    reader = tcgcore.SeatReader(match, seat)
    state = match.state
    assert reader.zone_ids() == [zv.id for zv in view.zones]
    shown: dict[int, tuple[tcgcore.CardView, str]] = {}
    for zv in view.zones:
        assert reader.zone(zv.id) == zv
        assert reader.count(zv.id) == zv.count
        assert reader.positions(zv.id) == [c.id if c is not None else None for c in zv.cards]
        assert reader.ids(zv.id) == [c.id for c in zv.cards if c is not None and c.id is not None]
        for cv in zv.cards:
            if cv is not None and cv.id is not None:
                shown[cv.id] = (cv, zv.id)
    vi = _viewer(state, seat)
    # a fresh reader per card too: answers must not depend on what was asked before
    fresh = [reader, tcgcore.SeatReader(match, seat)]
    for cid in range(len(state.cards)):
        alias = card_alias(state, cid, seat)
        for r in fresh:
            got = r.card(alias)
            if alias in shown:
                cv, zid = shown[alias]
                assert got == cv and r.code(alias) == cv.code and r.zone_of(alias) == zid
            else:
                assert got is None and r.code(alias) is None and r.zone_of(alias) is None
        epoch = sight_epoch(state, cid, seat)
        if epoch:  # the alias the seat had before it last lost sight of the card
            old = _alias(state.seed, vi, cid, epoch - 1)
            assert old not in shown and reader.card(old) is None
    for number in (-1, 1 << 32, *range(len(state.cards))):  # instance ids find nothing
        assert reader.card(number) == (shown[number][0] if number in shown else None)
    assert reader.pending == view.pending
    assert reader.panel == view.panel
    for name, value in view.panel.items():
        assert tcgcore.SeatReader(match, seat).fact(name) == value
        assert reader.fact(name) == value
    assert tcgcore.SeatReader(match, seat).fact("no such fact", 17) == 17
    for name, value in view.panel.items():  # one entry of a list fact alone (Arkham's
        if isinstance(value, list):          # investigators[N] through its view_fact)
            alone = tcgcore.SeatReader(match, seat)
            assert [alone.fact_item(name, i) for i in range(len(value))] == value
            assert alone.fact_item(name, len(value), 17) == 17
    assert tcgcore.SeatReader(match, seat).fact_item("no such fact", 0, 17) == 17
    assert (reader.num_players, reader.active_player, reader.turn, reader.event_count) == (
        view.num_players, view.active_player, view.turn, view.event_count)
    assert (reader.waiting_for, reader.waiting_kind, reader.result) == (
        view.waiting_for, view.waiting_kind, view.result)
    assert reader.zone("no.such.zone") is None and reader.ids("no.such.zone") == []
    with pytest.raises(KeyError):
        reader.count("no.such.zone")
    assert msgspec.json.encode(reader.view()) == msgspec.json.encode(view)


#: (game, seats, options, agents) of the games the comparison samples states from
_GAMES: list[tuple[str, int | None, dict[str, Any], tuple[str, ...]]] = [
    ("guimi_revival", None, {}, ("heuristic", "heuristic")),
    ("guimi_revival", None, {"decks": ["seer", "hunter"]}, ("random", "heuristic")),
    ("arkham_card", 1, {"scenario": "01104"}, ("heuristic",)),
    ("arkham_card", 2, {"scenario": "01120"}, ("heuristic", "random")),
    ("arkham_card", 3, {"scenario": "01142"}, ("heuristic",) * 3),
    ("arkham_card", 4, {"scenario": "01104"}, ("heuristic",) * 4),
    ("arkham_card", 1, {"scenario": "01142"}, ("random",)),
    ("sparks", None, {}, ("random", "random")),
]


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize(("game", "players", "options", "agents"), _GAMES,
                         ids=[f"{g}-{p}-{'-'.join(a)}" for g, p, _, a in _GAMES])
def test_every_answer_is_the_views_in_seeded_games(
        game: str, players: int | None, options: dict[str, Any], agents: tuple[str, ...],
        seed: int) -> None:
    match = tcgcore.new_match(game, seed=seed, players=players, keep_events=False, **options)
    seats = match.state.num_players
    played = [tcgcore.make_agent(match.spec, agents[s], 31 * seed + s) for s in range(seats)]
    decisions = 0
    while match.result is None and decisions < 240:
        if decisions % 12 == 0:
            for seat in [*range(seats), None]:
                assert_reads_as_view(match, seat)
        choice = match.pending
        assert choice is not None
        match.choose(choice.player, played[choice.player].decide(match, choice))
        decisions += 1
    for seat in [*range(seats), None]:
        assert_reads_as_view(match, seat)


def _midgame(game: str, players: int | None, decisions: int) -> tcgcore.Match[Any]:
    match = tcgcore.new_match(game, seed=11, players=players, keep_events=False)
    agents = [tcgcore.make_agent(match.spec, match.spec.default_agent, s)
              for s in range(match.state.num_players)]
    for _ in range(decisions):
        choice = match.pending
        assert choice is not None
        match.choose(choice.player, agents[choice.player].decide(match, choice))
    return match


_GUIMI = _midgame("guimi_revival", None, 60)
_ARKHAM = _midgame("arkham_card", 3, 40)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(number=st.integers(min_value=-(1 << 33), max_value=1 << 33),
       which=st.sampled_from(["guimi", "arkham"]), seat=st.sampled_from([0, 1, None]))
def test_no_number_the_view_does_not_show_finds_a_card(
        number: int, which: str, seat: int | None) -> None:
    match = _GUIMI if which == "guimi" else _ARKHAM
    view = match.view(seat)
    shown = {c.id: c for zv in view.zones for c in zv.cards if c is not None and c.id is not None}
    reader = tcgcore.SeatReader(match, seat)
    assert reader.card(number) == shown.get(number)
    assert (reader.zone_of(number) is None) == (number not in shown)


def test_a_zone_the_seat_may_not_look_into_shows_only_its_count() -> None:
    match = _GUIMI
    reader = tcgcore.SeatReader(match, 0)
    hand = match.state.zones["hand.1"].cards
    assert hand
    zone = reader.zone("hand.1")
    assert zone is not None and zone.cards == [] and zone.count == len(hand)
    assert reader.count("hand.1") == len(hand) and reader.positions("hand.1") == []
    for cid in hand:  # not even by the alias the seat would have for it
        assert reader.card(card_alias(match.state, cid, 0)) is None
    own = reader.ids("hand.0")
    assert own == [card_alias(match.state, cid, 0) for cid in match.state.zones["hand.0"].cards]
    assert [reader.code(a) for a in own] == [
        match.state.cards[cid].code for cid in match.state.zones["hand.0"].cards]


def test_a_face_down_card_another_seat_controls_in_a_closed_zone_stays_hidden() -> None:
    """``can_see`` lets a card's controller see it face down; the view still does not open
    another player's hand, and neither does the reader."""
    registry = tcgcore.load_registry(load_entrypoints=False, plugins=[sparks])
    match = tcgcore.new_match("sparks", seed=5, registry=registry)
    cid = match.state.zones["hand.1"].cards[0]
    match.engine.update_card(cid, face_down=True, controller=0)
    reader = tcgcore.SeatReader(match, 0)
    assert reader.card(card_alias(match.state, cid, 0)) is None
    assert reader.positions("hand.1") == []
    assert_reads_as_view(match, 0)
    assert_reads_as_view(match, 1)


def test_a_card_is_found_only_where_the_view_lists_it_not_where_its_record_says() -> None:
    """A card another seat holds, whose own ``zone`` field names an open zone (a record out
    of step with the zone lists), is shown nowhere by the view, nor found by the reader."""
    registry = tcgcore.load_registry(load_entrypoints=False, plugins=[sparks])
    match = tcgcore.new_match("sparks", seed=5, registry=registry)
    cid = match.state.zones["hand.1"].cards[0]
    match.state.cards[cid] = msgspec.structs.replace(match.state.cards[cid], zone="discard.0")
    assert tcgcore.SeatReader(match, 0).card(card_alias(match.state, cid, 0)) is None
    assert tcgcore.SeatReader(match, 0).zone_of(card_alias(match.state, cid, 0)) is None
    assert_reads_as_view(match, 0)


def test_an_attachment_to_a_card_the_seat_cannot_see_names_no_host() -> None:
    registry = tcgcore.load_registry(load_entrypoints=False, plugins=[sparks])
    match = tcgcore.new_match("sparks", seed=5, registry=registry)
    host = match.state.zones["hand.1"].cards[0]
    guest = match.state.zones["hand.0"].cards[0]
    match.engine.move(guest, "discard.0")
    match.engine.update_card(guest, attached_to=host)
    mine = tcgcore.SeatReader(match, 0).card(card_alias(match.state, guest, 0))
    theirs = tcgcore.SeatReader(match, 1).card(card_alias(match.state, guest, 1))
    assert mine is not None and mine.attached_to is None
    assert theirs is not None and theirs.attached_to == card_alias(match.state, host, 1)
    for seat in (0, 1, None):
        assert_reads_as_view(match, seat)


def test_arkham_zones_named_after_a_card_are_read_by_the_seats_name() -> None:
    match = _ARKHAM
    reader = tcgcore.SeatReader(match, 2)
    named = [zid for zid in match.state.zones if zid.startswith("at.")]
    assert named
    for zid in named:
        seat_name = "at." + str(card_alias(match.state, int(zid[3:]), 2))
        assert seat_name in reader.zone_ids()
        zone = reader.zone(seat_name)
        assert zone is not None and zone.id == seat_name
        assert reader.zone(zid) is None  # the engine's name is not the seat's
        for cid in match.state.zones[zid].cards:
            alias = card_alias(match.state, cid, 2)
            if reader.card(alias) is not None:
                assert reader.zone_of(alias) == seat_name


def test_the_reader_follows_the_match_as_it_moves_on() -> None:
    match = _midgame("guimi_revival", None, 30)
    reader = tcgcore.SeatReader(match, 0)
    before = reader.zone("hand.0"), reader.pending, reader.panel
    agents = [tcgcore.make_agent(match.spec, "heuristic", s) for s in (0, 1)]
    for _ in range(5):
        choice = match.pending
        assert choice is not None
        match.choose(choice.player, agents[choice.player].decide(match, choice))
    view = match.view(0)
    after = reader.zone("hand.0"), reader.pending, reader.panel
    assert after == (next(z for z in view.zones if z.id == "hand.0"), view.pending, view.panel)
    assert after != before


def test_changing_what_the_reader_hands_out_changes_nothing_of_the_match() -> None:
    match = _midgame("arkham_card", 1, 20)
    digest = match.digest()
    reader = tcgcore.SeatReader(match, 0)
    for zid in reader.zone_ids():
        zone = reader.zone(zid)
        assert zone is not None
        for cv in zone.cards:
            if cv is not None:
                cv.counters["damage"] = 99
        zone.cards.clear()
    reader.panel.clear()
    pending = reader.pending
    assert pending is not None
    pending.options.clear()
    assert match.digest() == digest
    again = match.view(0).pending
    assert again is not None and again.options
    assert_reads_as_view(match, 0)


def test_a_reader_is_only_for_a_seat_of_the_match() -> None:
    match = _GUIMI
    for bad in (2, -1, "0", 0.0):
        with pytest.raises(tcgcore.SeatError):
            tcgcore.SeatReader(match, bad)  # type: ignore[arg-type]
    spectator = tcgcore.SeatReader(match, None)
    pending = match.state.pending
    assert pending is not None
    assert spectator.pending is None and spectator.waiting_for == pending.player
    seat = tcgcore.SeatReader(match, pending.player)
    assert seat.seat == pending.player and seat.pending is not None
    with pytest.raises(AttributeError):  # read-only: a reader never turns into another seat's
        seat.seat = 1 - pending.player  # type: ignore[misc]


@pytest.mark.parametrize("game", ["guimi_revival", "arkham_card"])
def test_the_game_computes_each_panel_fact_alone_as_its_whole_panel_has_it(game: str) -> None:
    match = _GUIMI if game == "guimi_revival" else _ARKHAM
    spec = match.spec
    assert spec.view_extra is not None and spec.view_fact is not None
    for seat in [*range(match.state.num_players), None]:
        panel = spec.view_extra(match.state, seat)
        assert panel and {name: spec.view_fact(match.state, seat, name) for name in panel} == panel
        with pytest.raises(KeyError):
            spec.view_fact(match.state, seat, "no such fact")


#: the golden corpus's games with a heuristic seat: the agents must play them again
_REPLAYED = [c for c in CONFIGS if "heuristic" in c.agents]


@pytest.mark.parametrize("config", _REPLAYED, ids=[c.name for c in _REPLAYED])
def test_the_heuristics_reading_through_the_reader_make_the_corpus_decisions(config: Any) -> None:
    """Both heuristics decide from a reader instead of a full view; recorded again, their
    games are the corpus's, byte for byte."""
    again = dump(record(config))
    assert json.loads(again)["decisions"]
    assert again == (GAMES / f"{config.name}.json").read_text(encoding="utf-8")
