"""The data model: everything a match is made of, as msgspec Structs.

A match state is one tree of Structs with no object references: cards are named
by integer instance ids, zones by string ids, players by seat numbers (0-based).
That is what makes a state cheap to copy (``tcgcore._match.copy_state``: the card
instances are immutable and shared, the zones, each a few scalars plus one list, are
copied directly, everything else goes through a msgpack round trip), safe to save at
any decision point, and identical on every machine.

The encoded form (save format 1) is deliberately plain: a :class:`CardInstance` is a
msgpack array of all nine fields (``array_like``: no field names; msgspec writes
default values of an array too), a :class:`Zone` a map. Decoding is dominated by
allocating one object per card and per string (and the empty ``counters`` dict of
each card), not by the typed validation: on a 4-seat Arkham mid-game state (175
cards, 40 zones) the typed decode of the cards list costs the same as an untyped
decode of the same bytes, an ``array_like`` zone decodes no faster than the map,
cards as maps with one-letter keys and defaults left out cost 5 % more instructions
(4 % fewer with a shared read-only empty ``counters``), and only integer card codes
and zone ids (a change to the public fields) would gain much, so the format has
stayed as it is.

Because a state holds no object references it has no reference cycles, so the
structs here (and every :class:`Step` subclass, which inherits the setting) are
declared ``gc=False``: the cycle collector does not track them, which makes
creating, copying and decoding them cheaper. A game must therefore never make a
step, option, event or trigger refer to itself (it holds data only anyway).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final, Generic, Literal, TypeVar

import msgspec

from ._rng import Rng

__all__ = [
    "ALL_PLAYERS",
    "EMPTY_SLOT",
    "CardInstance",
    "Choice",
    "Event",
    "GameState",
    "Option",
    "Result",
    "Scalar",
    "SeatCards",
    "Step",
    "Trigger",
    "Visibility",
    "Zone",
]

#: Value types allowed in the free-form ``data`` maps of events, triggers and options.
Scalar = str | int | bool | None

#: Bit mask meaning "every player" in :attr:`Event.seen_by`.
ALL_PLAYERS: Final = -1

#: The card id stored in an empty position of a slotted zone.
EMPTY_SLOT: Final = -1

#: Who may see the identity of a face-up card in a zone.
#:
#: * ``"public"``: everybody (board, discard pile, Spirit World …);
#: * ``"owner"``: only the zone's owner (a hand);
#: * ``"hidden"``: nobody (a deck).
Visibility = Literal["public", "owner", "hidden"]


class Step(msgspec.Struct, tag_field="step", kw_only=True, omit_defaults=True, gc=False):
    """Base class of a unit of pending work on the engine's stack.

    A game defines one subclass per kind of work, each with an explicit, stable
    ``tag`` (it is written into saves), for example::

        class DrawPhase(tcgcore.Step, tag="sparks.draw_phase"):
            player: int

    and registers a handler for it with :meth:`tcgcore.GameSpec.handles`. Steps
    must hold only data (ids, numbers, strings, lists of those).
    """


class CardInstance(msgspec.Struct, kw_only=True, omit_defaults=True, array_like=True, gc=False,
                   frozen=True):
    """One physical card in a match; immutable.

    A card instance is never changed in place: setting an attribute raises
    ``AttributeError``, and the ``counters`` map must never be mutated either (it is
    typed as a read-only ``Mapping``). To change a card, a game replaces the whole
    instance in ``GameState.cards`` through the engine (:meth:`Engine.update_card`,
    :meth:`Engine.set_counter`, :meth:`Engine.add_counter`,
    :meth:`Engine.remove_counter`, or :meth:`Engine.move` / :meth:`Engine.flip`),
    each of which returns the new instance. That is what lets a clone of a match
    share the card instances with the original (:func:`tcgcore._match.copy_state`
    copies only the list of pointers). A reference to an instance taken before a
    write goes on showing the old values: re-read ``state.cards[id]`` (or use the
    returned instance) after changing a card.

    Attributes:
        id: stable instance id, equal to the card's index in ``GameState.cards``.
        code: the card definition's id in the game's card pool.
        owner: seat of the player who brought the card.
        controller: seat of the player who controls it now.
        zone: id of the zone the card is in.
        face_down: the card is face down; only its controller may look at it.
        exhausted: the card is exhausted (tapped, 横置).
        counters: named counters on the card (damage, doom, clues, uses …); a
            read-only map (decoded as a ``dict``; never mutate it, build a new one).
        attached_to: instance id of the card this one is attached to, if any.
    """

    id: int
    code: str
    owner: int
    controller: int
    zone: str
    face_down: bool = False
    exhausted: bool = False
    counters: Mapping[str, int] = {}
    attached_to: int | None = None


class Zone(msgspec.Struct, kw_only=True, omit_defaults=True, gc=False):
    """An area that holds cards.

    Attributes:
        id: unique zone id, by convention ``"<kind>"`` for shared zones and
            ``"<kind>.<seat>"`` for per-player zones (``"hand.0"``).
        kind: what sort of zone this is (``"hand"``, ``"deck"``, ``"units"`` …).
        owner: the owning seat, or ``None`` for a shared zone.
        visibility: who sees face-up cards here (see :data:`Visibility`).
        ordered: whether position matters (a deck) or not (a hand).
        capacity: the most cards the zone holds, or ``None`` for no limit.
        slotted: a positional zone: ``cards`` always has ``capacity`` entries and
            :data:`EMPTY_SLOT` marks an empty position.
        cards: card instance ids; index 0 is the top of an ordered zone.
    """

    id: str
    kind: str
    owner: int | None = None
    visibility: Visibility = "public"
    ordered: bool = True
    capacity: int | None = None
    slotted: bool = False
    cards: list[int] = []


class Option(msgspec.Struct, kw_only=True, omit_defaults=True, frozen=True, gc=False):
    """One answer a player may give to a :class:`Choice`.

    Attributes:
        key: stable string key (what :meth:`tcgcore.Match.choose` takes). A key
            is built from public facts or the chooser's own knowledge, never from
            hidden information of another player.
        label: short human-readable text.
        card: instance id of the card this option is about, if any.
        data: extra facts for front ends and agents.

    Options are frozen: once asked, a choice's options never change, so a game may reuse
    one option instance in many choices (Guimi Revival caches its main-phase options).
    Hosts and agents must treat an option as read-only, its ``data`` map included (a
    shared instance is part of every match that offers it); a game that shares options
    between matches shares only options whose ``data`` is empty.
    """

    key: str
    label: str
    card: int | None = None
    data: dict[str, Scalar] = {}


class Choice(msgspec.Struct, kw_only=True, omit_defaults=True, gc=False):
    """A decision the engine waits for.

    Attributes:
        player: the seat that must decide.
        kind: what sort of decision (``"mulligan"``, ``"main_action"``,
            ``"order_triggers"``, ``"use_trigger"`` …), stable per game.
        prompt: human-readable question.
        options: the legal answers, each with a unique key.
        min: fewest keys to choose (0 allows choosing none).
        max: most keys to choose.
        seq: running number of this choice in the match (0 for the first).
    """

    player: int
    kind: str
    prompt: str
    options: list[Option]
    min: int = 1
    max: int = 1
    seq: int = 0

    def option(self, key: str) -> Option:
        """Return the option with ``key``.

        Raises:
            KeyError: if no option has that key.
        """
        for opt in self.options:
            if opt.key == key:
                return opt
        raise KeyError(key)

    @property
    def keys(self) -> list[str]:
        """The option keys, in order."""
        return [o.key for o in self.options]


class Result(msgspec.Struct, kw_only=True, omit_defaults=True, gc=False):
    """How a match ended.

    Attributes:
        winners: seats that won (empty on a draw or a cooperative loss).
        losers: seats that lost.
        draw: the match ended in a draw.
        reason: a stable reason code chosen by the game (``"deck_out"`` …).
        detail: extra facts (scores, resolution number …).
    """

    winners: list[int] = []
    losers: list[int] = []
    draw: bool = False
    reason: str = ""
    detail: dict[str, Scalar] = {}


class Event(msgspec.Struct, kw_only=True, omit_defaults=True, frozen=True, gc=False):
    """A record of something that happened, in order.

    The identity fields (``card``, ``code`` and ``secret``) are shown only to
    players in :attr:`seen_by`; :meth:`tcgcore.Match.events_since` blanks them for
    everybody else. ``data`` is public.

    Attributes:
        seq: running number of the event in the match, from 0.
        kind: what happened (``"moved"``, ``"shuffled"``, ``"revealed"``, or a
            game's own kind such as ``"attack_hit"``).
        player: the seat the event is about, if any.
        card: card instance id, if the event is about one card.
        code: that card's definition code.
        src: zone the card left, for moves.
        dst: zone the card entered, for moves.
        amount: a number the event is about (damage dealt, cards drawn …).
        data: public facts.
        secret: facts only the players in ``seen_by`` may know.
        seen_by: bit mask of seats that may see the identity fields (bit ``i``
            for seat ``i``), or :data:`ALL_PLAYERS`.
        sight: the card's sight epochs when the event happened (one per seat, then the
            spectator; ``None`` when all were 0), from which a seat's alias of ``card``
            is computed; engine-internal, never part of what a seat receives
            (see ``tcgcore._identity``).
        refs: the other cards the event names (in ``data`` fields the game lists in
            ``GameSpec.card_data_keys``, and in ``src``/``dst`` zone ids made of one of
            its ``card_zone_prefixes`` and a card id), as they were when the event
            happened: ``(where, card, seen, epochs)`` with ``where`` the data field (or
            ``"@src"``/``"@dst"``), ``seen`` the viewer bits (seats, then the spectator)
            that could identify the card, ``epochs`` its sight epochs; engine-internal
            like ``sight``: a seat's copy names these cards by its aliases instead.
    """

    seq: int
    kind: str
    player: int | None = None
    card: int | None = None
    code: str | None = None
    src: str | None = None
    dst: str | None = None
    amount: int | None = None
    data: dict[str, Scalar] = {}
    secret: dict[str, Scalar] = {}
    seen_by: int = ALL_PLAYERS
    sight: tuple[int, ...] | None = None
    refs: tuple[tuple[str, int, int, tuple[int, ...]], ...] | None = None

    def visible_to(self, player: int | None) -> bool:
        """Whether ``player`` (``None`` for a spectator) may see the identity fields."""
        if self.seen_by == ALL_PLAYERS:
            return True
        if player is None:
            return False
        return bool(self.seen_by >> player & 1)

    def redacted_for(self, player: int | None) -> Event:
        """This event as ``player`` (``None`` for a spectator) may read it.

        Returns the event itself when the player may see its identity fields,
        otherwise a copy with ``card``, ``code`` and ``secret`` blanked.
        """
        if self.visible_to(player):
            return self
        return msgspec.structs.replace(self, card=None, code=None, secret={})


class Trigger(msgspec.Struct, kw_only=True, omit_defaults=True, gc=False):
    """A triggered ability waiting in a timing window.

    A game's trigger collector creates these from events; the engine orders them
    by the game's policy, asks players to opt in or to order them, and hands each
    to the game's trigger resolver.

    Attributes:
        id: unique within its window, for choice keys (``"t<event>.<n>"``).
        player: the seat that controls the ability.
        ability: the game's name for the ability (used to resolve it).
        source: instance id of the card with the ability, if any.
        timing: ``"when"`` (before the event's outcome) or ``"after"``; informational:
            the engine resolves a window's triggers in the order of the game's
            policy, and a "when" trigger is "when" because the game emits its event
            before carrying out the outcome.
        optional: the controller may decline it.
        label: human-readable description for choices.
        priority: ordering key for policies that sort (higher goes first).
        event: seq of the event that triggered it.
        data: anything else the resolver needs.
    """

    id: str
    player: int
    ability: str
    source: int | None = None
    timing: Literal["when", "after"] = "after"
    optional: bool = False
    label: str = ""
    priority: int = 0
    event: int = -1
    data: dict[str, Scalar] = {}


StepT = TypeVar("StepT", bound=Step)


class GameState(msgspec.Struct, Generic[StepT], kw_only=True):
    """The engine's part of every game's state.

    A game subclasses it, naming the union of its step types (which must include
    :data:`tcgcore.CoreStep`) and adding its own fields, all with defaults::

        class SparksState(tcgcore.GameState[tcgcore.CoreStep | DrawPhase | ...]):
            scores: list[int] = []

    Attributes:
        num_players: number of seats.
        seed: the seed the match was created with.
        rng: the match's random generator (never shown in views).
        cards: every card instance, indexed by instance id.
        zones: every zone by id.
        stack: pending steps; the last element runs next.
        pending: the choice the engine waits for, or ``None``.
        answer: the keys of the last answered choice, while its resume step runs.
        result: the result once the match is over.
        triggers: triggers collected since the last step began (a timing window
            is opened for them when that step ends).
        active_player: seat whose turn it is (game-maintained).
        turn: turn or round number (game-maintained).
        event_count: number of events emitted so far.
        choice_count: number of choices asked so far.
        sight: sight epochs, ``num_players + 1`` per card (each seat, then the
            spectator) at index ``card * (num_players + 1) + viewer``; the engine bumps
            an epoch when that viewer loses sight of the card, and a seat sees a card
            under an alias of (instance id, epoch); missing entries are 0. Never shown.
    """

    num_players: int
    seed: int
    rng: Rng
    cards: list[CardInstance] = []
    zones: dict[str, Zone] = {}
    stack: list[StepT] = []
    pending: Choice | None = None
    answer: list[str] | None = None
    result: Result | None = None
    triggers: list[Trigger] = []
    active_player: int = 0
    turn: int = 0
    event_count: int = 0
    choice_count: int = 0
    sight: list[int] = []


class SeatCards(msgspec.Struct, kw_only=True, array_like=True, omit_defaults=True):
    """What one seat did with its cards in one game, as a game's ``card_usage`` hook reads it
    from the final state and the full event log (card codes, each listed once).

    Attributes:
        deck: the codes in the seat's deck (what it could have drawn).
        drawn: codes drawn at any time, the opening hand included.
        opening: codes in the opening hand (after any mulligan).
        played: codes played or put to use (as the game counts it).
    """

    deck: list[str] = []
    drawn: list[str] = []
    opening: list[str] = []
    played: list[str] = []
