"""Determinisation: a complete state that one seat cannot tell from the real one.

Search agents for games of hidden information (``tcgcore._search``) cannot look at the
real state: they play on **determinisations**, complete states drawn at random among those
consistent with what their seat may know. :func:`determinize` draws one.

What the seat may know (its *information set*) is read from the engine's visibility
facts, the same ones :func:`tcgcore.Match.view` uses, and nothing else:

* a card the seat can see where it is now (``Engine.can_see``: a face-up card in a
  public zone or in one of the seat's own owner-only zones, a face-down card it
  controls), and a card shown to the seat by its own pending choice (a search of its
  own deck), stays exactly as it is: instance id, code, zone, position;
* every place stays: each zone keeps its number of cards and, position by position,
  the physical facts the view shows of an unidentified card (facing, exhaustion,
  controller, counters);
* every other card is *unseen*. Unseen cards are grouped into **pools** (by default one
  per owner: the cards a player brought are interchangeable to the other seats, and a
  seat's own deck order is unknown to itself); within a pool the codes (with their
  owner) are dealt at random over the pool's places, and the pool's instance ids are
  laid on the places in increasing order, so that neither where an id is nor which code
  it carries says anything about the real state. So
  the sample depends only on the places, the set of unseen ids of each pool and the
  multiset of codes in it, never on which unseen card is where: swapping two unseen
  cards of a pool, or reordering a hidden deck, leaves every sample unchanged;
* "seen" is what the seat sees *now*: a card it saw once and then lost sight of (a
  card revealed and put into a hand or shuffled into a deck) is unseen again, as the
  engine's identity rules have it (it gets a fresh alias, so the seat's view cannot
  follow it). A game that wants such memory in its samples keeps it in its own
  ``sample_extra`` hook;
* the multiset of a pool's codes is assumed known (each player's deck list); a game
  whose players do not know it replaces the pool's codes in ``sample_extra``;
* unseen cards attached to a card, or with a card attached to them, are kept where
  they are (their link is part of the board);
* the state's random generator is re-seeded from the caller's generator, so the
  future draws of the sample (shuffles, chaos tokens, encounter cards) are not the
  real ones;
* everything else (the stack of steps, waiting triggers, the game's own fields) is copied
  as it is: the core cannot tell which of a game's fields hold hidden facts. A game that
  keeps a hidden fact there (a card code, the id of a hidden card) redeals or clears it
  in ``sample_extra``; as far as their state types show, Guimi Revival and Arkham
  Horror keep none but the forced chaos tokens of Arkham's scenario builder.

Games refine this with two optional :class:`tcgcore.GameSpec` hooks: ``sample_pool(state,
seat, zone, owner) -> pool name or None`` names the pool of an unseen card from its
zone and owner only (``None`` keeps it in place: a zone whose contents the rules make
known, such as the act deck), and ``sample_extra(state, seat, rng)`` adjusts the game's
own fields of the sample (and must read only what ``seat`` may know).
"""

from __future__ import annotations

from typing import Any, TypeVar

from ._model import EMPTY_SLOT, CardInstance, GameState
from ._rng import Rng

__all__ = ["determinize", "determinize_state"]

S = TypeVar("S", bound=GameState[Any])


def determinize_state(spec: GameSpec[S], state: S, seat: int, rng: Rng) -> S:
    """A copy of ``state`` with the cards ``seat`` cannot see redealt (see the module text).

    Args:
        spec: the game of ``state``.
        state: the real state (unchanged).
        seat: the observer, ``0 <= seat < state.num_players``.
        rng: the caller's generator; the sample's randomness comes only from it (it is
            advanced), so one seed gives one sequence of samples.

    Returns:
        A new state whose view for ``seat`` equals the real one, with a fresh random
        generator. The pending choice is kept as it is: when it waits on another seat,
        its options may name cards the sample redealt, so such a sample is for reading
        (and for searching from ``seat``'s next decision), and only a sample for the seat
        the choice waits on loads as a save.

    Raises:
        SeatError: ``seat`` is not a seat of the match.
    """
    if type(seat) is not int or not 0 <= seat < state.num_players:
        raise SeatError(f"seat {seat!r} is not a seat of this match "
                        f"(0..{state.num_players - 1})")
    sample = copy_state(spec, state)
    real_cards = state.cards
    cards = sample.cards
    zones = sample.zones
    keep: set[int] = set()
    for card in real_cards:
        if card.attached_to is not None:
            keep.add(card.id)
            keep.add(card.attached_to)
    pending = state.pending
    if pending is not None and pending.player == seat:
        keep.update(o.card for o in pending.options if o.card is not None)
    pool_of = spec.sample_pool
    # pool name -> (places as (zone id, index), unseen instance ids there)
    pools: dict[str, tuple[list[tuple[str, int]], list[int]]] = {}
    named: dict[int, tuple[list[tuple[str, int]], list[int]] | None] = {}  # by owner, per zone
    for zone in state.zones.values():
        vis = zone.visibility
        # every card is unseen in a hidden zone or another seat's owner-only zone, except a
        # face-down one the seat controls; elsewhere only the face-down cards of others
        closed = vis == "hidden" or (vis == "owner" and zone.owner != seat)
        named.clear()
        zid = zone.id
        for index, cid in enumerate(zone.cards):
            if cid == EMPTY_SLOT or cid in keep:
                continue
            card = real_cards[cid]
            if closed:
                if card.face_down and card.controller == seat and vis != "hidden":
                    continue
            elif not card.face_down or card.controller == seat:
                continue
            owner = card.owner
            if owner in named:
                got = named[owner]
            else:
                name = (pool_of(sample, seat, zone, owner) if pool_of is not None
                        else f"owner.{owner}")
                got = None if name is None else pools.setdefault(name, ([], []))
                named[owner] = got
            if got is not None:
                got[0].append((zid, index))
                got[1].append(cid)
    for name in sorted(pools):
        places, ids = pools[name]
        faces = sorted((real_cards[cid].code, real_cards[cid].owner) for cid in ids)
        ids = sorted(ids)  # laid on the places in order: a function of what the seat knows
        rng.shuffle(faces)
        # the physical facts of each place, read before any instance is replaced
        shells = [real_cards[state.zones[z].cards[i]] for z, i in places]
        for (zone_id, index), cid, (code, owner), shell in zip(places, ids, faces, shells, strict=True):
            cards[cid] = CardInstance(id=cid, code=code, owner=owner,
                                      controller=shell.controller, zone=zone_id,
                                      face_down=shell.face_down, exhausted=shell.exhausted,
                                      counters=shell.counters)
            zones[zone_id].cards[index] = cid
    sample.rng = Rng.from_seed(rng.next64())
    extra = spec.sample_extra
    if extra is not None:
        extra(sample, seat, rng)
    return sample


def determinize(match: Match[S], seat: int, rng: Rng) -> Match[S]:
    """A new match on a determinisation of ``match`` for ``seat`` (:func:`determinize_state`).

    The sample keeps no event history and no decisions (it is for search, not for
    replays); ``match`` is not changed. The rules of what the sample keeps and what it
    redeals are in the module text of ``tcgcore._determinize``.

    Args:
        match: the real match.
        seat: the observer.
        rng: the caller's generator (advanced).

    Raises:
        SeatError: ``seat`` is not a seat of the match.
    """
    state = determinize_state(match.spec, match.state, seat, rng)
    return Match(match.spec, state, seed=match.seed, players=match.players,
                 options=dict(match.options), decisions=[], plugins=dict(match.plugins),
                 registry=match.registry, keep_events=False)


# Imported last, at run time too (the match module imports the agents, which import this).
from ._errors import SeatError  # noqa: E402
from ._match import Match, copy_state  # noqa: E402
from ._spec import GameSpec  # noqa: E402
