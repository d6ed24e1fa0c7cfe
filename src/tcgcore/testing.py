"""Helpers every game plugin author can use in their own test suite.

The main one is :func:`random_playout_check`, the conformance check: it plays
many seeded random games to the end and, after every decision, checks that

* the match serialises and deserialises (msgpack and JSON alternately) to the
  very same state bytes, and the loaded copy continues identically;
* illegal answers (wrong seat, unknown key, wrong count) raise
  :class:`tcgcore.IllegalChoice` and leave the state byte-for-byte unchanged;
* no view leaks hidden information: swapping the identities (or the order) of
  two cards a seat cannot see does not change that seat's view, hidden cards
  carry no instance id, redacted events carry no identity, and the pending
  choice is shown only to its chooser;
* every game ends with a well-formed result and its replay verifies.

:func:`clone_independence_check` checks that :meth:`tcgcore.Match.clone` gives a
copy that shares nothing a game can change (card instances are shared, which is
safe only because every write replaces them; see :class:`tcgcore.CardInstance`).

Usage in a plugin's tests::

    from tcgcore.testing import random_playout_check

    def test_conformance():
        report = random_playout_check("my_game", seeds=range(50))
        assert report.games == 50
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import msgspec

from ._agents import Agent, RandomAgent, play_out
from ._errors import IllegalChoice
from ._match import Match, new_match, replay
from ._model import EMPTY_SLOT, CardInstance, Choice
from ._plugins import Registry
from ._views import build_view

__all__ = ["ConformanceError", "ConformanceReport", "assert_illegal_choices_atomic",
           "assert_view_hides", "clone_independence_check", "hidden_swaps",
           "random_playout_check"]


class ConformanceError(AssertionError):
    """A conformance check failed; the message names the game, seed and decision."""


@dataclass
class ConformanceReport:
    """What :func:`random_playout_check` played.

    Attributes:
        games: games played to the end.
        decisions: decisions made in all games.
        reasons: how many games ended for each result reason.
        draws: games that ended in a draw.
        longest: most decisions in one game.
    """

    games: int = 0
    decisions: int = 0
    reasons: Counter[str] = field(default_factory=Counter)
    draws: int = 0
    longest: int = 0


def _fail(game: str, seed: int, index: int, message: str) -> ConformanceError:
    return ConformanceError(f"{game} seed {seed} decision {index}: {message}")


def assert_illegal_choices_atomic(match: Match[Any]) -> None:
    """Try illegal answers to the pending choice; each must raise and change nothing.

    Raises:
        ConformanceError: an illegal answer was accepted or changed the state.
    """
    choice = match.pending
    if choice is None:
        return
    before = match.state_bytes()
    n_dec = len(match.decisions)
    attempts: list[tuple[Any, Any]] = [
        (choice.player, "\x00no-such-option"),
        (float(choice.player), choice.options[0].key),
        (choice.player, [7]),
        (choice.player, {choice.options[0].key}),
    ]
    if match.state.num_players > 1:
        attempts.append(((choice.player + 1) % match.state.num_players, choice.options[0].key))
    if choice.max < len(choice.options):
        attempts.append((choice.player, [o.key for o in choice.options[: choice.max + 1]]))
    if choice.min > 0:
        attempts.append((choice.player, []))
    if choice.max > 1:
        attempts.append((choice.player, [choice.options[0].key, choice.options[0].key]))
    for player, keys in attempts:
        try:
            match.choose(player, keys)
        except IllegalChoice:
            pass
        else:
            raise ConformanceError(f"{match.game}: illegal answer {keys!r} by seat {player} "
                                   f"to {choice.kind!r} was accepted")
        if match.state_bytes() != before or len(match.decisions) != n_dec:
            raise ConformanceError(f"{match.game}: illegal answer {keys!r} changed the state")


def _reordered(match: Match[Any], zone_ids: list[str]) -> Match[Any]:
    """A clone of ``match`` with the first and last card of each named zone swapped."""
    clone = match.clone()
    for zid in zone_ids:
        cards = clone.state.zones[zid].cards
        real = [c for c in cards if c != EMPTY_SLOT]
        i, j = cards.index(real[0]), cards.index(real[-1])
        cards[i], cards[j] = cards[j], cards[i]
    return clone


def hidden_swaps(match: Match[Any], player: int | None) -> list[tuple[str, list[str], Match[Any]]]:
    """Clones of ``match`` that differ from it only in what ``player`` may not know.

    Returns ``(what changed, zones reordered, clone)`` for (1) two hidden cards of
    different codes swapping identities, (2) the order of two cards in every zone the
    player cannot look into swapped (which also moves their instance ids), each when the
    match has them. Anything ``player`` is shown (a view, an encoding of it) must be the
    same for the match and for every clone; :func:`assert_view_hides` checks views.
    """
    state = match.state
    engine = match.engine
    out: list[tuple[str, list[str], Match[Any]]] = []
    hidden = [c for c in state.cards if not engine.can_see(player, c)]
    pair = None
    for i, a in enumerate(hidden):
        for b in hidden[i + 1:]:
            if a.code != b.code:
                pair = (a.id, b.id)
                break
        if pair:
            break
    if pair is not None:
        clone = match.clone()
        ca, cb = clone.state.cards[pair[0]], clone.state.cards[pair[1]]
        clone.engine.update_card(pair[0], code=cb.code)
        clone.engine.update_card(pair[1], code=ca.code)
        out.append((f"hidden cards {pair[0]} and {pair[1]} swap identities", [], clone))
    closed_zones = [zone.id for zone in state.zones.values()
                    if (zone.visibility == "hidden" or (
                        zone.visibility == "owner" and (player is None or player != zone.owner)))
                    and sum(1 for c in zone.cards if c != EMPTY_SLOT) >= 2]
    if closed_zones:
        out.append((f"the order of hidden zones {', '.join(closed_zones)} changes", closed_zones,
                    _reordered(match, closed_zones)))
    return out


def assert_view_hides(match: Match[Any], player: int | None) -> None:
    """Check that ``player``'s view depends on nothing ``player`` may not know.

    Swaps the codes of two hidden cards with different codes, and the order of
    two cards in every zone the player cannot look into (which also moves their
    instance ids), and requires the view to stay byte-identical. Also checks that
    hidden cards carry no id and that redacted events and the pending choice give
    nothing away.

    Raises:
        ConformanceError: describing the leak.
        EngineError: the match keeps no event history (``keep_events=False``), so its
            redacted events cannot be checked.
    """
    spec = match.spec
    state = match.state
    engine = match.engine
    enc = msgspec.msgpack.Encoder()
    view = build_view(spec, state, player)
    base = enc.encode(view)
    visible_ids = {c.id for c in state.cards if engine.can_see(player, c)}
    for zv in view.zones:
        for cv in zv.cards:
            if cv is not None and cv.id is not None and cv.id not in visible_ids:
                raise ConformanceError(f"{match.game}: view of {player} shows id of hidden card {cv.id}")
            if cv is not None and cv.id is None and cv.code is not None:
                raise ConformanceError(f"{match.game}: anonymous card with a code in zone {zv.id}")
            if cv is not None and cv.attached_to is not None and cv.attached_to not in visible_ids:
                raise ConformanceError(f"{match.game}: view of {player} names hidden card "
                                       f"{cv.attached_to} as an attachment host")
    if view.pending is not None and view.pending.player != player:
        raise ConformanceError(f"{match.game}: view of {player} shows another seat's choice")
    for what, zones, twin in hidden_swaps(match, player):
        if enc.encode(build_view(spec, twin.state, player)) == base:
            continue
        if not zones:
            raise ConformanceError(f"{match.game}: view of {player} changes when {what} (it "
                                   "leaks hidden information)")
        # when the view changes, each zone alone says which one leaks
        leaking = [zid for zid in zones
                   if enc.encode(build_view(spec, _reordered(match, [zid]).state, player)) != base]
        raise ConformanceError(
            f"{match.game}: view of {player} changes when the order of hidden zone "
            f"{', '.join(leaking) or ' and '.join(zones)} changes (it leaks hidden "
            "information)"
        )
    # 3. pending choice options refer only to cards the chooser may know
    choice: Choice | None = view.pending
    if choice is not None and player is not None:
        for opt in choice.options:
            if opt.card is None or opt.card in visible_ids:
                continue
            card = state.cards[opt.card]
            if state.zones[card.zone].owner != player:
                raise ConformanceError(
                    f"{match.game}: option {opt.key!r} of {choice.kind!r} names hidden card "
                    f"{opt.card} of another player"
                )
    # 4. redacted events
    for ev in match.events_since(max(0, state.event_count - 50), player=player):
        if not ev.visible_to(player) and (ev.card is not None or ev.code is not None or ev.secret):
            raise ConformanceError(f"{match.game}: event {ev.seq} not redacted for {player}")


def _check_result(match: Match[Any]) -> str | None:
    res = match.result
    if res is None:
        return "the game did not end"
    n = match.state.num_players
    seats = set(range(n))
    if not set(res.winners) <= seats or not set(res.losers) <= seats:
        return f"result names seats outside 0..{n - 1}: {res}"
    if set(res.winners) & set(res.losers):
        return f"a seat both won and lost: {res}"
    if res.draw and res.winners:
        return f"a draw with winners: {res}"
    if not res.reason:
        return "the result has no reason code"
    if match.pending is not None:
        return "a choice is pending after the end"
    return None


def _card_snapshot(match: Match[Any]) -> list[tuple[CardInstance, bytes]]:
    """Every card instance of the match with its encoding (the instances are kept, so
    none can be freed and replaced by another object at the same address)."""
    enc = msgspec.msgpack.encode
    return [(card, enc(card)) for card in match.state.cards]


def _changed_in_place(snapshot: list[tuple[CardInstance, bytes]]) -> str | None:
    """The first instance of ``snapshot`` whose encoding changed since, described; or
    ``None``. Card instances are immutable and a game replaces them through the engine,
    so an instance that encodes differently later had its ``counters`` mutated in place,
    which would change every clone that shares it."""
    enc = msgspec.msgpack.encode
    for card, before in snapshot:
        if enc(card) != before:
            return (f"card instance {card.id} ({card.code}) was changed in place (its counters "
                    f"map is now {dict(card.counters)!r}): change cards only through "
                    "Engine.update_card / set_counter / add_counter / remove_counter")
    return None


def random_playout_check(
    game: str,
    *,
    seeds: Iterable[int] = range(20),
    players: int | None = None,
    options: dict[str, Any] | None = None,
    registry: Registry | None = None,
    agents: Callable[[int, int], Agent] | None = None,
    max_decisions: int = 20_000,
    roundtrip: bool = True,
    check_views: bool = True,
    check_illegal: bool = True,
    check_every: int = 1,
) -> ConformanceReport:
    """Play seeded games to the end and check the engine's guarantees after every decision.

    Args:
        game: registered game name.
        seeds: one game per seed (the match seed; agents are seeded from it).
        players: seats per game (game default if ``None``).
        options: game options.
        registry: where to find the game.
        agents: ``agents(seed, seat) -> Agent``; uniform random by default.
        max_decisions: a game longer than this fails the check.
        roundtrip: save/load at every checked decision and continue from the copy.
        check_views: run :func:`assert_view_hides` for every seat and a spectator.
        check_illegal: run :func:`assert_illegal_choices_atomic`.
        check_every: run the expensive checks every this many decisions (save/load,
            views, illegal answers, and that the decision changed no card instance in
            place: instances are immutable, a ``counters`` map must be replaced, never
            mutated).

    Returns:
        A :class:`ConformanceReport`.

    Raises:
        ConformanceError: the first failed check, naming game, seed and decision.
    """
    opts = dict(options or {})
    report = ConformanceReport()
    for seed in seeds:
        a = new_match(game, seed=seed, players=players, registry=registry, **opts)
        b = new_match(game, seed=seed, players=players, registry=registry, **opts)
        n = a.state.num_players
        seat_agents = [agents(seed, s) if agents else RandomAgent(seed * 7919 + s) for s in range(n)]
        index = 0
        checks = 0
        while a.result is None:
            if index >= max_decisions:
                raise _fail(game, seed, index, f"no result after {max_decisions} decisions")
            choice = a.pending
            if choice is None:
                raise _fail(game, seed, index, "neither a result nor a pending choice")
            watched = None
            if index % check_every == 0:
                checks += 1
                watched = _card_snapshot(a)
                if roundtrip:
                    raw = b.to_json() if checks % 2 else b.to_bytes()
                    b = Match.from_bytes(raw, registry=registry)
                    if b.state_bytes() != a.state_bytes():
                        raise _fail(game, seed, index, "state differs after save and load")
                if check_illegal:
                    try:
                        assert_illegal_choices_atomic(a)
                    except ConformanceError as exc:
                        raise _fail(game, seed, index, str(exc)) from None
                if check_views:
                    try:
                        for seat in [*range(n), None]:
                            assert_view_hides(a, seat)
                    except ConformanceError as exc:
                        raise _fail(game, seed, index, str(exc)) from None
            keys = seat_agents[choice.player].decide(a, choice)
            a.choose(choice.player, keys)
            b.choose(choice.player, keys)
            if watched is not None:
                problem = _changed_in_place(watched)
                if problem:
                    raise _fail(game, seed, index, problem)
            index += 1
        if b.state_bytes() != a.state_bytes():
            raise _fail(game, seed, index, "the loaded copy ended in a different state")
        problem = _check_result(a)
        if problem:
            raise _fail(game, seed, index, problem)
        rebuilt = replay(a.replay(), registry=registry)
        if rebuilt.digest() != a.digest():
            raise _fail(game, seed, index, "replay did not reproduce the final state")
        report.games += 1
        report.decisions += index
        report.longest = max(report.longest, index)
        assert a.result is not None
        report.reasons[a.result.reason] += 1
        report.draws += a.result.draw
    return report


def clone_independence_check(
    game: str,
    *,
    seeds: Iterable[int] = range(3),
    players: int | None = None,
    options: dict[str, Any] | None = None,
    registry: Registry | None = None,
    agents: Callable[[int, int], Agent] | None = None,
    every: int = 10,
    max_decisions: int = 20_000,
) -> int:
    """Check that a clone and its original never change each other, both ways.

    Plays one seeded game per seed (uniformly random answers, or ``agents``, which
    reach later and rarer positions). At every ``every``-th decision it clones the
    match and (1) plays the clone on to the end with other, uniformly random
    answers, then checks that the original's state bytes did not change; (2) keeps a
    second clone and, when the original has played on to the end of the game,
    checks that this clone's state bytes did not change either. (3) At every decision
    it checks that no card instance was changed in place (a ``counters`` map mutated
    instead of replaced through the engine), which would reach every clone sharing it
    even where the random games happen not to show it.

    Args:
        game: registered game name.
        seeds: one game per seed (the match seed; the agents are seeded from it).
        players: seats per game (game default if ``None``).
        options: game options.
        registry: where to find the game.
        agents: ``agents(seed, seat) -> Agent`` for the original's seats; uniform
            random by default (the clones always play on with random answers).
        every: clone at every this many decisions (``>= 1``).
        max_decisions: a game (or a clone's continuation) longer than this fails.

    Returns:
        How many clone points were checked.

    Raises:
        ConformanceError: the first clone that changed its original or was changed by
            it, naming game, seed and decision.
        ValueError: ``every`` below 1.
    """
    if every < 1:
        raise ValueError(f"every must be at least 1, not {every}")
    opts = dict(options or {})
    points = 0
    for seed in seeds:
        a = new_match(game, seed=seed, players=players, registry=registry, **opts)
        n = a.state.num_players
        seat_agents = [agents(seed, s) if agents else RandomAgent(seed * 7919 + s)
                       for s in range(n)]
        kept: list[tuple[int, Match[Any], bytes]] = []
        index = 0
        while a.result is None:
            if index >= max_decisions:
                raise _fail(game, seed, index, f"no result after {max_decisions} decisions")
            choice = a.pending
            if choice is None:
                raise _fail(game, seed, index, "neither a result nor a pending choice")
            watched = _card_snapshot(a)
            if index % every == 0:
                points += 1
                before = a.state_bytes()
                twin = a.clone()
                if twin.state_bytes() != before:
                    raise _fail(game, seed, index, "the clone encodes differently")
                others = [RandomAgent(seed * 104_729 + index * 31 + s) for s in range(n)]
                if play_out(twin, others, max_decisions=max_decisions) is None:
                    raise _fail(game, seed, index, "the clone did not finish")
                if a.state_bytes() != before:
                    raise _fail(game, seed, index, _changed_in_place(watched)
                                or "playing the clone on changed the original")
                kept.append((index, a.clone(), before))
            a.choose(choice.player, seat_agents[choice.player].decide(a, choice))
            problem = _changed_in_place(watched)
            if problem:
                raise _fail(game, seed, index, problem)
            index += 1
        for at, twin, before in kept:
            if twin.state_bytes() != before:
                raise _fail(game, seed, at, "playing the original on changed its clone")
    return points
