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
from ._errors import ConformanceError, IllegalChoice
from ._identity import card_alias
from ._identity_watch import CARD_LIKE_DATA_KEYS, IdentityWatch
from ._match import Match, new_match, replay
from ._model import EMPTY_SLOT, CardInstance, Choice
from ._plugins import Registry
from ._views import build_view

__all__ = ["CARD_LIKE_DATA_KEYS", "ConformanceError", "ConformanceReport", "IdentityWatch",
           "assert_illegal_choices_atomic", "assert_view_hides", "clone_independence_check",
           "hidden_responder_check", "hidden_swaps", "hidden_twin", "random_playout_check"]


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
    # the ids a viewer may be shown are its aliases of the cards it sees (never instance ids)
    card_of = {card_alias(state, c.id, player): c.id for c in state.cards}
    visible_ids = {a for a, cid in card_of.items() if engine.can_see(player, state.cards[cid])}
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
            if opt.card not in card_of:
                raise ConformanceError(f"{match.game}: option {opt.key!r} of {choice.kind!r} "
                                       f"names {opt.card}, which is no alias of seat {player}")
            card = state.cards[card_of[opt.card]]
            zone = state.zones[card.zone]
            # a deck's cards may be shown to the chooser (a search, scrying the top cards);
            # another player's hand may not
            if zone.visibility == "owner" and zone.owner != player:
                raise ConformanceError(
                    f"{match.game}: option {opt.key!r} of {choice.kind!r} names hidden card "
                    f"{card.id} of another player"
                )
    # 4. redacted events
    for ev in match.events_since(max(0, state.event_count - 50), player=player):
        if not ev.visible_to(player) and (ev.card is not None or ev.code is not None or ev.secret):
            raise ConformanceError(f"{match.game}: event {ev.seq} not redacted for {player}")


def hidden_responder_check(
    game: str,
    *,
    seeds: Iterable[int] = range(10),
    players: int | None = None,
    options: dict[str, Any] | None = None,
    registry: Registry | None = None,
    responders: Iterable[str] | None = None,
    every: int = 7,
    horizon: int = 30,
    neutral: Iterable[str] = ("no", "pass"),
    max_decisions: int = 5_000,
) -> int:
    """Check that no decision tells another seat what a seat holds in hand.

    Plays seeded random games. Every ``every`` decisions, for each seat with a card in
    an owner-only zone (its hand), it makes a twin of the match in which one of those
    cards and one of that seat's cards in a hidden zone (its deck) swap identities
    (so the seat's deck list stays the same, and nobody else can tell the twins apart).
    With ``responders`` (card codes of the game's hidden responders, such as Arkham's
    Dodge) the swap puts a responder into the hand whenever the seat's hidden zones
    hold one; without, it swaps the first such pair it finds. Both twins then play on
    in lockstep for up to ``horizon`` decisions: the other seats answer alike, and the
    swapped seat answers alike while its two choices have the same keys; when they
    differ it takes a ``neutral`` key (``no``, ``pass``) if both offer one, and the
    comparison ends otherwise (the seat's own different play may reveal its card).
    After every step, every other seat's and the spectator's view, seat-facing
    pending choice and events must be byte-identical in the twins.

    Returns:
        How many twin pairs were compared.

    Raises:
        ConformanceError: naming game, seed, decision and the first difference.
    """
    opts = dict(options or {})
    wanted = set(responders) if responders is not None else None
    enc = msgspec.msgpack.Encoder()
    pairs = 0

    def seen_by_others(m: Match[Any], seat: int, since: int) -> dict[str, bytes]:
        parts: dict[str, bytes] = {}
        for other in [*range(m.state.num_players), None]:
            if other == seat:
                continue
            who = "the spectator" if other is None else f"seat {other}"
            parts[f"{who}'s view"] = enc.encode(build_view(m.spec, m.state, other))
            parts[f"{who}'s choice"] = enc.encode(
                m.seat_choice(other) if other is not None else None)
            parts[f"{who}'s events"] = enc.encode(m.events_since(since, player=other))
        return parts

    for seed in seeds:
        a = new_match(game, seed=seed, players=players, registry=registry, **opts)
        n = a.state.num_players
        agent = RandomAgent(seed * 7919 + 1)
        index = 0
        while a.result is None and index < max_decisions:
            if index % every == 0:
                for seat in range(n):
                    swapped = _swapped_twin(a, seat, wanted)
                    if swapped is None:
                        continue
                    twin, pair = swapped
                    pairs += 1
                    problem = _lockstep(a.clone(), twin, seat, pair, horizon, tuple(neutral),
                                        seen_by_others, seed * 31 + index)
                    if problem:
                        raise _fail(game, seed, index, f"seat {seat}'s hidden card shows: "
                                                       f"{problem}")
            choice = a.pending
            assert choice is not None
            a.choose(choice.player, agent.decide(a, choice))
            index += 1
    return pairs


def hidden_twin(match: Match[Any], seat: int) -> Match[Any]:
    """A clone of ``match`` that differs from it only in facts ``seat`` cannot know.

    In each determinisation pool (the game's ``sample_pool``, by default one per owner;
    see :func:`tcgcore.determinize`), two unseen cards with different codes in different
    places swap places, and every hidden zone whose cards are all redealt is reversed.
    What ``seat`` sees (``twin.view(seat)``) is unchanged, so anything fair to that seat,
    a determinisation or an agent's decision, must come out the same on both.
    """
    twin = match.clone()
    state = twin.state
    eng = twin.engine
    unseen = [cid for zone in state.zones.values() for cid in zone.cards
              if cid != EMPTY_SLOT and not eng.can_see(seat, state.cards[cid])]
    pool_of = match.spec.sample_pool
    by_pool: dict[str | None, list[int]] = {}
    for cid in unseen:
        card = state.cards[cid]
        zone = state.zones[card.zone]
        name = pool_of(state, seat, zone, card.owner) if pool_of else str(card.owner)
        by_pool.setdefault(name, []).append(cid)
    by_pool.pop(None, None)
    for ids in by_pool.values():
        pair = next(((a, b) for a in ids for b in ids
                     if state.cards[a].zone != state.cards[b].zone
                     and state.cards[a].code != state.cards[b].code
                     and state.cards[a].attached_to is None
                     and state.cards[b].attached_to is None), None)
        if pair is None:
            continue
        a, b = pair
        za, zb = state.zones[state.cards[a].zone], state.zones[state.cards[b].zone]
        ia, ib = za.cards.index(a), zb.cards.index(b)
        za.cards[ia], zb.cards[ib] = b, a
        ca, cb = state.cards[a], state.cards[b]
        eng.update_card(a, zone=cb.zone)
        eng.update_card(b, zone=ca.zone)
    for zone in state.zones.values():
        if zone.visibility == "hidden" and not zone.slotted and all(
                pool_of is None or pool_of(state, seat, zone, state.cards[c].owner) is not None
                for c in zone.cards):
            zone.cards.reverse()
    return twin


def _swapped_twin(match: Match[Any], seat: int, wanted: set[str] | None
                  ) -> tuple[Match[Any], tuple[int, int]] | None:
    """A clone in which a card of ``seat``'s own hand and one of its hidden cards swap
    identities (see :func:`hidden_responder_check`) and the two cards, or ``None`` if
    there is no such pair."""
    state = match.state
    hand: list[int] = []
    hidden: list[int] = []
    for zone in state.zones.values():
        for cid in zone.cards:
            if cid == EMPTY_SLOT or state.cards[cid].owner != seat:
                continue
            if zone.visibility == "owner" and zone.owner == seat and \
                    not state.cards[cid].face_down:
                hand.append(cid)
            elif zone.visibility == "hidden":
                hidden.append(cid)
    for h in hand:
        for d in hidden:
            ch, cd = state.cards[h].code, state.cards[d].code
            if ch == cd:
                continue
            if wanted is not None and cd not in wanted and ch not in wanted:
                continue
            twin = match.clone()
            twin.engine.update_card(h, code=cd)
            twin.engine.update_card(d, code=ch)
            return twin, (h, d)
    return None


def _lockstep(a: Match[Any], b: Match[Any], seat: int, pair: tuple[int, int], horizon: int,
              neutral: tuple[str, ...],
              observe: Callable[[Match[Any], int, int], dict[str, bytes]],
              agent_seed: int) -> str | None:
    """Play two twins on alike and return the first observable difference, or ``None``
    (also when the swapped seat plays one of the two swapped cards, or the game shows
    one to another seat: then the card is shown, which the rules allow)."""
    since = a.state.event_count
    agent = RandomAgent(agent_seed)
    for step in range(horizon):
        others = [o for o in [*range(a.state.num_players), None] if o != seat]
        if any(m.engine.can_see(o, m.state.cards[c]) for m in (a, b) for c in pair
               for o in others) or any(
                ev.card in pair and any(ev.visible_to(o) for o in others)
                for m in (a, b) for ev in m.events_since(since, player="all")):
            return None  # the game itself showed a swapped card (a random discard …)
        seen_a, seen_b = observe(a, seat, since), observe(b, seat, since)
        if seen_a != seen_b:
            what = next(k for k in seen_a if seen_a[k] != seen_b[k])
            return f"{what} differs after {step} decisions"
        ca, cb = a.pending, b.pending
        if ca is None or cb is None:
            return None if ca is None and cb is None else "one twin ended, the other did not"
        if ca.player != cb.player:
            return f"after {step} decisions one twin waits for seat {ca.player}, the other " \
                   f"for seat {cb.player}"
        if ca.keys == cb.keys:
            keys = agent.decide(a, ca)
            if ca.player == seat and any(ca.option(k).card in pair for k in keys):
                return None  # the seat plays (commits, discards …) a swapped card
        elif ca.player == seat:
            common = [k for k in neutral if k in ca.keys and k in cb.keys]
            if not common:
                return None  # the seat plays differently: what follows may show its card
            keys = [common[0]]
        else:
            return f"seat {ca.player}'s options differ after {step} decisions"
        a.choose(ca.player, keys)
        b.choose(cb.player, keys)
    return None


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
    check_identity: bool = True,
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
        check_identity: follow every viewer's card ids with an :class:`IdentityWatch`
            (no instance id reaches a seat, no card is linked across a place the
            viewer could not see, ``events_since`` gives secrets only on request).
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
        watch = IdentityWatch(a) if check_identity else None
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
                if watch is not None:
                    try:
                        watch.check()
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
