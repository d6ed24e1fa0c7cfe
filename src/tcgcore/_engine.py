"""The step-queue engine and its timing windows (the game definition is in ``_spec.py``).

How a decision flows (see ``docs/architecture.md``):

1. :meth:`Match.choose` validates the answer against the pending :class:`Choice`
   (nothing changes if it is illegal), stores the keys in ``state.answer`` and
   calls :meth:`Engine.run`.
2. :meth:`Engine.run` pops the top :class:`Step` of ``state.stack`` and calls the
   handler the game registered for its type. The first step popped after a
   choice is the *resume step* the asking handler pushed; it reads
   :attr:`Engine.answer`.
3. Handlers change the state only through plain assignment and the engine's
   helpers (:meth:`Engine.move`, :meth:`Engine.emit`, :meth:`Engine.push`,
   :meth:`Engine.ask`, :meth:`Engine.end` …). Every emitted event is offered to
   the game's trigger collector; collected :class:`Trigger` objects wait in
   ``state.triggers``.
4. When a handler returns and triggers are waiting, the engine pushes a
   :class:`TriggerWindow` step for them, so they resolve before anything the
   handler queued (after a resume step, if the handler asked a choice).
5. The loop stops when a handler asks a choice or ends the match.
"""

from __future__ import annotations

import operator
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Final, Generic, TypeAlias, TypeVar

import msgspec

from ._errors import EngineError, StepLimitError
from ._identity import can_see as _can_see
from ._identity import event_refs as _event_refs
from ._identity import lose_sight as _lose_sight
from ._identity import sight_snapshot as _sight_snapshot
from ._model import (
    ALL_PLAYERS,
    EMPTY_SLOT,
    CardInstance,
    Choice,
    Event,
    GameState,
    Option,
    Result,
    Scalar,
    Step,
    Trigger,
    Visibility,
    Zone,
)
from ._rng import Rng
from ._trigger_steps import ResolveTrigger, TriggerOptIn, TriggerPick, TriggerWindow

_replace: Final = msgspec.structs.replace


__all__ = [
    "Engine",
    "TriggerPolicy",
    "active_player_first",
    "decided_by",
    "highest_priority_first",
]

S = TypeVar("S", bound=GameState[Any])


#: A trigger ordering policy: given the waiting triggers of a window, return the
#: seat that decides and the triggers that may resolve next.
TriggerPolicy: TypeAlias = Callable[["Engine[Any]", list[Trigger]], tuple[int, list[Trigger]]]


def active_player_first(eng: Engine[Any], triggers: list[Trigger]) -> tuple[int, list[Trigger]]:
    """Policy: the active player's triggers first, then the next seats in turn order.

    The player whose triggers go next picks the order among their own.
    """
    n = eng.state.num_players
    ap = eng.state.active_player
    for offset in range(n):
        seat = (ap + offset) % n
        pool = [t for t in triggers if t.player == seat]
        if pool:
            return seat, pool
    return triggers[0].player, list(triggers)


def highest_priority_first(eng: Engine[Any], triggers: list[Trigger]) -> tuple[int, list[Trigger]]:
    """Policy: triggers with the highest :attr:`Trigger.priority` first (e.g. agility order).

    Ties between seats go to the active player first; a seat orders its own ties.
    """
    top = max(t.priority for t in triggers)
    pool = [t for t in triggers if t.priority == top]
    return active_player_first(eng, pool)


def decided_by(seat_of: Callable[[Engine[Any]], int]) -> TriggerPolicy:
    """Policy factory: one seat (for example the lead investigator) orders every trigger.

    Args:
        seat_of: returns the deciding seat for the current state.
    """

    def policy(eng: Engine[Any], triggers: list[Trigger]) -> tuple[int, list[Trigger]]:
        return seat_of(eng), list(triggers)

    return policy


# --------------------------------------------------------------------------- engine


#: ``Engine.step_limit`` when nobody set one: more steps than any run takes
_NO_STEP_LIMIT: Final = 1 << 62


class Engine(Generic[S]):
    """The object handlers work through: the state plus the operations every game uses.

    One engine wraps one state; it holds no game data of its own except the
    event sink of the current session (events are history, not state).

    Attributes:
        spec: the game definition.
        state: the live game state (mutated in place).
        step_limit: most steps one :meth:`run` may take before a choice or the end
            (default: no limit); a host sets it to bound the work of one request.
    """

    __slots__ = ("_sink", "spec", "state", "step_limit")

    def __init__(self, spec: GameSpec[S], state: S,
                 sink: list[Event] | deque[Event] | None = None) -> None:
        self.spec = spec
        self.state = state
        # where events go: the match's history, or a deque of length 0 that drops them
        self._sink: list[Event] | deque[Event] = sink if sink is not None else []
        self.step_limit: int = _NO_STEP_LIMIT

    # ---- queue and choices
    @property
    def rng(self) -> Rng:
        """The match's random generator (part of the state)."""
        return self.state.rng

    def push(self, *steps: Step) -> None:
        """Queue steps so that the first argument runs first, before anything queued earlier."""
        if len(steps) == 1:
            self.state.stack.append(steps[0])
        else:
            self.state.stack.extend(reversed(steps))

    def ask(
        self,
        player: int,
        kind: str,
        prompt: str,
        options: Sequence[Option],
        *,
        resume: Step,
        min: int = 1,
        max: int = 1,
    ) -> None:
        """Stop and wait for ``player`` to choose; then run ``resume`` with the answer.

        The engine loop stops after the current handler returns. When the answer
        arrives the resume step runs first and reads :attr:`answer`.

        Args:
            player: deciding seat.
            kind: stable decision kind.
            prompt: the question, for people.
            options: legal answers, unique keys.
            resume: the step that receives the answer.
            min, max: how many keys may be chosen.

        Raises:
            EngineError: if a choice is already pending, option keys repeat, or
                ``min``/``max`` cannot be satisfied.
        """
        state = self.state
        if state.result is not None:
            raise EngineError(f"{self.spec.name}: asked {kind!r} after the match ended")
        if state.pending is not None:
            raise EngineError(
                f"{self.spec.name}: asked {kind!r} while {state.pending.kind!r} is pending"
            )
        opts = list(options)
        count = len(opts)
        if count > 1 and len(set(map(_option_key, opts))) != count:
            raise EngineError(f"{self.spec.name}: choice {kind!r} has repeated option keys")
        if min < 0 or max < min or min > count:
            raise EngineError(
                f"{self.spec.name}: choice {kind!r} asks {min}..{max} of {count} options"
            )
        state.pending = Choice(
            player=player,
            kind=kind,
            prompt=prompt,
            options=opts,
            min=min,
            max=max,
            seq=state.choice_count,
        )
        state.choice_count += 1
        state.stack.append(resume)

    @property
    def answer(self) -> list[str]:
        """The keys of the choice being resumed.

        Raises:
            EngineError: when read outside a resume step.
        """
        ans = self.state.answer
        if ans is None:
            raise EngineError(f"{self.spec.name}: a step read the answer but no choice was answered")
        return ans

    def end(
        self,
        *,
        winners: Iterable[int] = (),
        losers: Iterable[int] = (),
        draw: bool = False,
        reason: str,
        detail: Mapping[str, Scalar] | None = None,
    ) -> Result:
        """End the match. Later calls in the same step keep the first result.

        Emits a ``"game_over"`` event.
        """
        state = self.state
        if state.result is not None:
            return state.result
        result = Result(
            winners=sorted(winners),
            losers=sorted(losers),
            draw=draw,
            reason=reason,
            detail=dict(detail or {}),
        )
        state.result = result
        state.pending = None
        self.emit("game_over", data={"reason": reason, "draw": draw})
        return result

    # ---- events
    def emit(
        self,
        kind: str,
        *,
        player: int | None = None,
        card: int | None = None,
        code: str | None = None,
        src: str | None = None,
        dst: str | None = None,
        amount: int | None = None,
        data: dict[str, Scalar] | None = None,
        secret: dict[str, Scalar] | None = None,
        seen_by: int = ALL_PLAYERS,
    ) -> Event:
        """Record an event and offer it to the game's trigger collector.

        See :class:`Event` for the fields. ``seen_by`` limits who sees ``card``,
        ``code`` and ``secret``.
        """
        state = self.state
        spec = self.spec
        refs = _event_refs(state, spec.card_data_keys, spec.card_zone_prefixes, data, src,
                           dst) if (data and spec.card_data_keys) or (
                               spec.card_zone_prefixes and (src or dst)) else None
        snap = None
        if card is not None and type(card) is int and 0 <= card < len(state.cards):
            snap = _sight_snapshot(state, card)
            # a viewer shown this card's identity who cannot see the card where it is
            # loses sight of it (its alias changes when it sees the card again)
            inst = state.cards[card]
            zone = state.zones.get(inst.zone)
            if zone is not None:
                now = _mask(state.num_players, inst, zone)
                if now != ALL_PLAYERS:
                    losers = seen_by & ~now & ((2 << state.num_players) - 1)
                    if losers:
                        _lose_sight(state, card, losers)
        event = Event(
            seq=state.event_count,
            kind=kind,
            player=player,
            card=card,
            code=code,
            src=src,
            dst=dst,
            amount=amount,
            data=data if data is not None else {},
            secret=secret if secret is not None else {},
            seen_by=seen_by,
            sight=snap,
            refs=refs,
        )
        state.event_count += 1
        self._sink.append(event)
        collect = spec.collect_triggers
        if collect is not None:
            kinds = spec.trigger_kinds
            if kinds is None or kind in kinds:
                self._collect(collect, event)
        return event

    def _collect(self, collect: Callable[[Engine[Any], Event], Iterable[Trigger]],
                 event: Event) -> None:
        """Ask the game's collector for triggers of ``event``; queue them with ids and event seq."""
        found = collect(self, event)
        if found:
            waiting = self.state.triggers
            seq = event.seq
            for n, trig in enumerate(found):
                if not trig.id:
                    trig.id = f"t{seq}.{n}"
                trig.event = seq
                waiting.append(trig)

    # ---- cards and zones
    def card(self, card_id: int) -> CardInstance:
        """Return a card instance by id.

        Raises:
            EngineError: if no card has that id.
        """
        if type(card_id) is not int or card_id < 0:  # -1 would name the last card
            raise EngineError(f"no card instance {card_id!r}")
        try:
            return self.state.cards[card_id]
        except IndexError:
            raise EngineError(f"no card instance {card_id}") from None

    def update_card(self, card_id: int, **changes: Any) -> CardInstance:
        """Change fields of a card: replace its instance with an updated copy.

        Card instances are immutable (see :class:`CardInstance`); this is the way a
        game changes one, for example ``eng.update_card(cid, exhausted=True)`` or
        ``eng.update_card(cid, counters={})``. The new instance takes the old one's
        place in ``state.cards``; references to the old instance keep the old values.

        Args:
            card_id: the card instance.
            **changes: new values by field name (``code``, ``owner``, ``controller``,
                ``face_down``, ``exhausted``, ``counters`` (any mapping of counter
                names to ints; the engine stores a copy), ``attached_to``; ``zone`` only
                from a scenario builder that has already put the card in that zone's
                ``cards`` list (and taken it out of the old one), since :meth:`move` is
                how a card changes zone).

        Returns:
            The new instance.

        Raises:
            EngineError: unknown card; a change of ``id``; a name that is not a field of
                :class:`CardInstance`; a value of the wrong type (a non-bool flag, an owner
                or controller that is not a seat, ``attached_to`` that is not a card, an
                empty code, counters that are not ``str -> int``), a zone the match
                does not have or whose ``cards`` list does not hold the card. Nothing
                changes when it raises.
        """
        card = self.card(card_id)
        for name, value in changes.items():
            problem = _card_change_problem(self.state, card_id, name, value)
            if problem:
                raise EngineError(f"update_card({card_id}): {problem}")
        if "counters" in changes:  # a copy: the caller may go on using the map it passed
            changes["counters"] = dict(changes["counters"])
        new = self.state.cards[card_id] = _replace(card, **changes)
        if new.face_down != card.face_down or new.controller != card.controller:
            state = self.state
            zone = state.zones.get(new.zone)
            if zone is not None:  # turned face down here: those who saw it lose sight
                n = state.num_players
                before = _mask(n, card, zone) & ((2 << n) - 1)
                losers = before & ~_mask(n, new, zone)
                if losers:
                    _lose_sight(state, card_id, losers)
        return new

    def set_counter(self, card_id: int, name: str, value: int) -> CardInstance:
        """Set counter ``name`` of a card to ``value`` (kept even when it is 0).

        Builds a new counters map (an existing counter keeps its position in it, a new
        one goes last, as an assignment to a ``dict`` would) and replaces the instance.

        Returns:
            The new instance.

        Raises:
            EngineError: unknown card; a name that is not a str or a value that is not
                an int (nothing changes).
        """
        card = self.card(card_id)
        if type(name) is not str or type(value) is not int:
            raise EngineError(f"set_counter({card_id}): needs a counter name (str) and an int, "
                              f"not {name!r}, {value!r}")
        counters = dict(card.counters)
        counters[name] = value
        new = _replace(card, counters=counters)
        self.state.cards[card_id] = new
        return new

    def add_counter(self, card_id: int, name: str, amount: int) -> CardInstance:
        """Add ``amount`` (may be negative) to counter ``name`` of a card, from 0 if absent.

        The result is stored as it is (a counter that reaches 0, or goes below,
        stays in the map; games clamp or remove it themselves).

        Returns:
            The new instance; ``new.counters[name]`` is the new value.

        Raises:
            EngineError: unknown card; a name that is not a str or an amount that is
                not an int (nothing changes).
        """
        card = self.card(card_id)
        if type(name) is not str or type(amount) is not int:
            raise EngineError(f"add_counter({card_id}): needs a counter name (str) and an int, "
                              f"not {name!r}, {amount!r}")
        counters = dict(card.counters)
        counters[name] = counters.get(name, 0) + amount
        new = _replace(card, counters=counters)
        self.state.cards[card_id] = new
        return new

    def remove_counter(self, card_id: int, name: str) -> CardInstance:
        """Remove counter ``name`` from a card; nothing changes if it has none.

        Returns:
            The (possibly new) instance.

        Raises:
            EngineError: unknown card.
        """
        card = self.card(card_id)
        if name not in card.counters:
            return card
        counters = {k: v for k, v in card.counters.items() if k != name}
        new = _replace(card, counters=counters)
        self.state.cards[card_id] = new
        return new

    def zone(self, zone_id: str) -> Zone:
        """Return a zone by id.

        Raises:
            EngineError: if no zone has that id.
        """
        try:
            return self.state.zones[zone_id]
        except KeyError:
            raise EngineError(f"no zone {zone_id!r}") from None

    def add_zone(
        self,
        zone_id: str,
        kind: str,
        *,
        owner: int | None = None,
        visibility: Visibility = "public",
        ordered: bool = True,
        capacity: int | None = None,
        slotted: bool = False,
    ) -> Zone:
        """Create a zone (during setup).

        Raises:
            EngineError: if the id is taken, or a slotted zone has no capacity.
        """
        if zone_id in self.state.zones:
            raise EngineError(f"zone {zone_id!r} already exists")
        if slotted and capacity is None:
            raise EngineError(f"slotted zone {zone_id!r} needs a capacity")
        zone = Zone(
            id=zone_id,
            kind=kind,
            owner=owner,
            visibility=visibility,
            ordered=ordered,
            capacity=capacity,
            slotted=slotted,
            cards=[EMPTY_SLOT] * capacity if slotted and capacity is not None else [],
        )
        self.state.zones[zone_id] = zone
        return zone

    def add_card(
        self,
        code: str,
        owner: int,
        zone_id: str,
        *,
        face_down: bool = False,
        slot: int | None = None,
    ) -> CardInstance:
        """Create a card instance at the bottom of a zone (or in ``slot``); no event.

        Raises:
            EngineError: if the zone does not exist, is full, or the slot is taken.
        """
        state = self.state
        zone = state.zones.get(zone_id)
        if zone is None:
            zone = self.zone(zone_id)  # raises the right error
        cards = state.cards
        card_id = len(cards)
        card = CardInstance(
            id=card_id, code=code, owner=owner, controller=owner, zone=zone_id,
            face_down=face_down,
        )
        if slot is None and not zone.slotted and zone.capacity is None:
            zone.cards.append(card_id)  # the common case of _insert: the end of an open zone
        else:
            self._insert(zone, card_id, None, slot)
        cards.append(card)
        return card

    def can_see(self, player: int | None, card: CardInstance) -> bool:
        """Whether ``player`` may know the identity of ``card`` where it is now.

        Rules: nobody sees into a hidden zone; a face-down card is seen by its
        controller only; a face-up card in a public zone by everybody; in an
        owner zone by the zone's owner. ``None`` is a spectator (public only).
        """
        zone = self.state.zones[card.zone]
        return _can_see(player, card, zone)

    def seen_mask(self, card: CardInstance) -> int:
        """Bit mask of seats that may see ``card`` where it is now (:data:`ALL_PLAYERS` if all)."""
        zone = self.state.zones[card.zone]
        return _mask(self.state.num_players, card, zone)

    def move(
        self,
        card_id: int,
        to_zone: str,
        *,
        index: int | None = None,
        slot: int | None = None,
        face_down: bool | None = None,
        controller: int | None = None,
        reveal: bool = False,
        kind: str = "moved",
        data: dict[str, Scalar] | None = None,
        reset: bool | None = None,
    ) -> Event:
        """Move one card to a zone and emit a move event; the one move every game uses.

        (The hot path of every game: it appends to an open zone without going through
        the general insertion, and builds its event itself instead of calling
        :meth:`emit`; the event is the one ``emit`` would build.)

        Args:
            card_id: the card instance.
            to_zone: destination zone id.
            index: position in an ordered zone, 0 = top; ``None`` = bottom/end.
            slot: position in a slotted zone; ``None`` = first empty slot.
            face_down: new facing; ``None`` keeps it.
            controller: new controller; ``None`` keeps it.
            reveal: show the card to every player even if both zones hide it.
            kind: event kind (``"moved"``; games may say ``"drawn"`` …).
            data: public event facts.
            reset: clear exhaustion, counters and attachment; ``None`` (default)
                clears them when the destination zone is of another kind than
                the source (a card leaving play forgets its state; a card moving
                between two zones of one kind keeps it).

        Returns:
            The emitted event; its identity fields are visible to the seats that
            could see the card before or after the move (or to all if revealed).

        Raises:
            EngineError: unknown card or zone, full zone, taken slot; ``face_down``,
                ``reveal`` or ``reset`` not a bool (``None`` where allowed), ``controller``
                not a seat. The match is unchanged then.
        """
        state = self.state
        # the annotations promise these types; a plugin's bug must not reach a save
        fd: object = face_down
        ctl: object = controller
        rv: object = reveal
        rs: object = reset
        if (fd is not None and type(fd) is not bool) or (
                ctl is not None and (type(ctl) is not int
                                     or not 0 <= controller < state.num_players)) or (  # type: ignore[operator]
                type(rv) is not bool) or (rs is not None and type(rs) is not bool):
            raise EngineError(_move_argument_problem(state, fd, ctl, rv, rs))
        zones = state.zones
        try:
            if card_id < 0:
                raise IndexError(card_id)
            card = state.cards[card_id]
            dst = zones[to_zone]
        except (IndexError, KeyError):
            card = self.card(card_id)  # raises the right error
            dst = self.zone(to_zone)
        src = zones[card.zone]
        # before = _mask(n, card, src), inline (every move reads it twice)
        vis = src.visibility
        if vis == "hidden":
            before = 0
        elif card.face_down:
            before = 1 << card.controller
        elif vis == "public":
            before = ALL_PLAYERS
        else:
            before = 0 if src.owner is None else 1 << src.owner
        # remove first so a move inside one zone works
        src_cards = src.cards
        pos = src_cards.index(card_id)
        if src.slotted:
            src_cards[pos] = EMPTY_SLOT
        else:
            del src_cards[pos]
        if index is None and not dst.slotted and dst.capacity is None:
            dst.cards.append(card_id)  # the common case of _insert: the end of an open zone
        else:
            try:
                self._insert(dst, card_id, index, slot)
            except EngineError:
                # put it back where it was: the move did not happen
                if src.slotted:
                    src_cards[pos] = card_id
                else:
                    src_cards.insert(pos, card_id)
                raise
        # card instances are immutable: build the moved one and put it in its place (the
        # constructor with every field is cheaper than msgspec.structs.replace)
        if face_down is None:
            face_down = card.face_down
        if controller is None:
            controller = card.controller
        if reset if reset is not None else src.kind != dst.kind:
            card = CardInstance(id=card_id, code=card.code, owner=card.owner,
                                controller=controller, zone=to_zone, face_down=face_down,
                                counters={} if card.counters else card.counters)
        else:
            card = CardInstance(id=card_id, code=card.code, owner=card.owner,
                                controller=controller, zone=to_zone, face_down=face_down,
                                exhausted=card.exhausted, counters=card.counters,
                                attached_to=card.attached_to)
        state.cards[card_id] = card
        # after = _mask(n, card, dst); seen = _union(n, before, after, reveal), inline
        vis = dst.visibility
        if vis == "hidden":
            after = 0
        elif card.face_down:
            after = 1 << card.controller
        elif vis == "public":
            after = ALL_PLAYERS
        else:
            after = 0 if dst.owner is None else 1 << dst.owner
        # (every seat seeing it is not everybody: a spectator sees only public cards)
        seen = ALL_PLAYERS if reveal or before == ALL_PLAYERS or after == ALL_PLAYERS \
            else before | after
        # the card's sight epochs as the event's viewers knew it; then every viewer that
        # saw it (before, or in this event) and cannot see it now loses sight of it
        sight = state.sight
        width = state.num_players + 1
        snap = tuple(sight[card_id * width:card_id * width + width]) \
            if card_id * width < len(sight) else None
        spec = self.spec
        refs = _event_refs(state, spec.card_data_keys, spec.card_zone_prefixes, data,
                           src.id, to_zone) if spec.card_zone_prefixes or (
                               data and spec.card_data_keys) else None
        if after != ALL_PLAYERS:
            losers = seen & ~after & ((1 << width) - 1)
            if losers:
                _lose_sight(state, card_id, losers)
        # what emit(kind, player=…, card=…, code=…, src=…, dst=…, data=…, seen_by=…) builds;
        # then what emit does with it (count, record, offer to the collector), inline
        seq = state.event_count
        event = Event(
            seq=seq,
            kind=kind,
            player=card.controller,
            card=card_id,
            code=card.code,
            src=src.id,
            dst=to_zone,
            data=data if data is not None else {},
            seen_by=seen,
            sight=snap,
            refs=refs,
        )
        state.event_count = seq + 1
        self._sink.append(event)
        collect = spec.collect_triggers
        if collect is not None:
            kinds = spec.trigger_kinds
            if kinds is None or kind in kinds:
                self._collect(collect, event)
        return event

    def flip(self, card_id: int, *, face_down: bool, kind: str | None = None) -> Event:
        """Turn a card face up or face down where it is, and emit an event.

        Args:
            card_id: the card instance.
            face_down: the new facing.
            kind: event kind; default ``"revealed"`` (face up) or ``"turned_down"``.

        Returns:
            The event; its identity is visible to the seats that could see the
            card before or after the flip (everybody, when revealed in a public zone).

        Raises:
            EngineError: unknown card, or ``face_down`` not a bool (the match is unchanged).
        """
        state = self.state
        fd: object = face_down  # the annotation promises a bool; a plugin's bug must not reach a save
        if type(fd) is not bool:
            raise EngineError(f"flip: face_down must be True or False, not {fd!r}")
        card = self.card(card_id)
        zone = state.zones[card.zone]
        n = state.num_players
        before = _mask(n, card, zone)
        card = self.state.cards[card_id] = _replace(card, face_down=face_down)
        seen = _union(n, before, _mask(n, card, zone), False)
        return self.emit(kind or ("turned_down" if face_down else "revealed"),
                         player=card.controller, card=card_id, code=card.code, src=zone.id,
                         seen_by=seen)

    def shuffle(self, zone_id: str) -> None:
        """Shuffle a zone with the match RNG and emit ``"shuffled"`` (no card identities)."""
        zone = self.zone(zone_id)
        self.state.rng.shuffle(zone.cards)
        self.emit("shuffled", player=zone.owner, src=zone_id, amount=len(zone.cards))

    def _insert(self, zone: Zone, card_id: int, index: int | None, slot: int | None) -> None:
        cards = zone.cards
        if zone.slotted:
            if slot is None:
                try:
                    slot = cards.index(EMPTY_SLOT)
                except ValueError:
                    raise EngineError(f"zone {zone.id!r} has no empty slot") from None
            if not 0 <= slot < len(cards):
                raise EngineError(f"zone {zone.id!r} has no slot {slot}")
            if cards[slot] != EMPTY_SLOT:
                raise EngineError(f"slot {slot} of zone {zone.id!r} is taken")
            cards[slot] = card_id
            return
        if zone.capacity is not None and len(cards) >= zone.capacity:
            raise EngineError(f"zone {zone.id!r} is full ({zone.capacity})")
        if index is None:
            cards.append(card_id)
        elif 0 <= index <= len(cards):
            cards.insert(index, card_id)
        else:
            raise EngineError(f"zone {zone.id!r} has no position {index} (0..{len(cards)})")

    # ---- running
    def run(self) -> None:
        """Run steps until a choice is pending or the match is over.

        Raises:
            EngineError: if the stack runs dry with no choice and no result, or a
                step type has no handler.
            StepLimitError: more than ``step_limit`` steps ran.
        """
        state = self.state
        stack = state.stack
        left = self.step_limit
        handlers = self.spec.handlers
        if state.triggers and state.pending is None and state.result is None:
            # triggers collected outside a step (during setup, or by a scenario builder)
            stack.append(TriggerWindow(triggers=state.triggers))
            state.triggers = []
        pop = stack.pop
        handler_of = handlers.get
        while state.pending is None and state.result is None:
            if not stack:
                raise EngineError(
                    f"{self.spec.name}: no pending work, no choice and no result"
                )
            left -= 1
            if left < 0:
                raise StepLimitError(f"{self.spec.name}: more than {self.step_limit} steps "
                                     "without a choice")
            step = pop()
            handler = handler_of(type(step))
            if handler is None:
                raise EngineError(f"{self.spec.name}: no handler for step {type(step).__name__}")
            handler(self, step)
            if state.answer is not None:  # only the resume step may read the answer
                state.answer = None
            if state.triggers:
                window = TriggerWindow(triggers=state.triggers)
                state.triggers = []
                if _asked(state):
                    stack.insert(len(stack) - 1, window)
                else:
                    stack.append(window)


_option_key: Final = operator.attrgetter("key")


def _card_change_problem(state: GameState[Any], card_id: int, name: str,
                         value: Any) -> str | None:
    """What is wrong with setting field ``name`` of card instance ``card_id`` to
    ``value``, or ``None`` (see :meth:`Engine.update_card`)."""
    if name in ("face_down", "exhausted"):
        return None if type(value) is bool else f"{name} must be a bool, not {value!r}"
    if name in ("owner", "controller"):
        if type(value) is int and 0 <= value < state.num_players:
            return None
        return f"{name} must be a seat (0..{state.num_players - 1}), not {value!r}"
    if name == "attached_to":
        if value is None or (type(value) is int and 0 <= value < len(state.cards)):
            return None
        return f"attached_to must be a card instance id or None, not {value!r}"
    if name == "code":
        return None if type(value) is str and value else f"code must be a card code, not {value!r}"
    if name == "zone":
        zone = state.zones.get(value) if type(value) is str else None
        if zone is None:
            return f"no zone {value!r}"
        if card_id not in zone.cards:  # the zone lists say where a card is (move keeps both)
            return (f"zone {value!r} does not hold card {card_id}: move a card with "
                    "Engine.move (a scenario builder edits the zone's cards list first)")
        return None
    if name == "counters":
        if isinstance(value, Mapping) and all(
                type(k) is str and type(v) is int for k, v in value.items()):
            return None
        return f"counters must map counter names (str) to int, not {value!r}"
    if name == "id":
        return "the id of a card cannot change"
    return (f"{name!r} is not a field of a card instance (fields: code, owner, controller, "
            "zone, face_down, exhausted, counters, attached_to)")


def _move_argument_problem(state: GameState[Any], face_down: object, controller: object,
                           reveal: object, reset: object) -> str:
    """What is wrong with the facing, controller, reveal or reset given to
    :meth:`Engine.move` (called only when something is)."""
    if face_down is not None and type(face_down) is not bool:
        return f"move: face_down must be True, False or None, not {face_down!r}"
    if type(reveal) is not bool:
        return f"move: reveal must be True or False, not {reveal!r}"
    if reset is not None and type(reset) is not bool:
        return f"move: reset must be True, False or None, not {reset!r}"
    return (f"move: controller must be a seat (0..{state.num_players - 1}) or None, "
            f"not {controller!r}")


def _asked(state: GameState[Any]) -> bool:
    # a function, so the type checker does not keep the loop condition's narrowing
    return state.pending is not None


def _union(n: int, before: int, after: int, reveal: bool) -> int:
    """Seats that saw a card before or after a change (ALL_PLAYERS when that is everybody,
    spectators included: every seat seeing a card in their own zones is not everybody)."""
    if reveal or before == ALL_PLAYERS or after == ALL_PLAYERS:
        return ALL_PLAYERS
    return before | after


def _mask(n: int, card: CardInstance, zone: Zone) -> int:
    vis = zone.visibility
    if vis == "hidden":
        return 0
    if card.face_down:
        return 1 << card.controller
    if vis == "public":
        return ALL_PLAYERS
    return 0 if zone.owner is None else 1 << zone.owner


# --------------------------------------------------------------------------- trigger windows


def _window(eng: Engine[Any], step: TriggerWindow) -> None:
    triggers = step.triggers
    if not triggers:
        return
    decider, pool = eng.spec.trigger_policy(eng, triggers)
    if eng.spec.forced_first:
        forced = [t for t in pool if not t.optional]
        if forced:
            pool = forced
    if len(pool) == 1:
        _take(eng, triggers, pool[0])
        return
    cards = eng.state.cards
    options = []
    for t in pool:
        if t.source is not None and not eng.can_see(decider, cards[t.source]):
            # the decider may not see the card (another player's hand): neither its id nor
            # a label naming it is shown, only whose ability it is
            options.append(Option(key=t.id, label=f"P{t.player}: an ability of a card "
                                                   "you cannot see"))
        else:
            options.append(Option(key=t.id, label=t.label or t.ability, card=t.source))
    eng.ask(
        decider,
        "order_triggers",
        "Choose which triggered ability resolves next",
        options,
        resume=TriggerPick(triggers=triggers),
    )


def _pick(eng: Engine[Any], step: TriggerPick) -> None:
    key = eng.answer[0]
    for trig in step.triggers:
        if trig.id == key:
            _take(eng, step.triggers, trig)
            return
    raise EngineError(f"trigger {key!r} is not in its window")


def _take(eng: Engine[Any], triggers: list[Trigger], chosen: Trigger) -> None:
    rest = [t for t in triggers if t is not chosen]
    if rest:
        eng.push(TriggerWindow(triggers=rest))
    if chosen.optional:
        eng.ask(
            chosen.player,
            "use_trigger",
            f"Use {chosen.label or chosen.ability}?",
            [Option(key="yes", label="Yes", card=chosen.source), Option(key="no", label="No")],
            resume=TriggerOptIn(trigger=chosen),
        )
    else:
        eng.push(ResolveTrigger(trigger=chosen))


def _opt_in(eng: Engine[Any], step: TriggerOptIn) -> None:
    if eng.answer == ["yes"]:
        _resolve(eng, ResolveTrigger(trigger=step.trigger))
    else:
        trig = step.trigger
        seen = ALL_PLAYERS
        if trig.source is not None:
            seen = eng.seen_mask(eng.card(trig.source)) | (1 << trig.player)
        eng.emit("trigger_declined", player=trig.player, card=trig.source,
                 secret={"ability": trig.ability}, seen_by=seen)


def _resolve(eng: Engine[Any], step: ResolveTrigger) -> None:
    resolver = eng.spec.resolve_trigger
    if resolver is None:
        raise EngineError(f"{eng.spec.name}: triggers were collected but no resolver is set")
    resolver(eng, step.trigger)


_CORE_HANDLERS: Final[dict[type[Step], Callable[[Engine[Any], Any], None]]] = {
    TriggerWindow: _window,
    TriggerPick: _pick,
    TriggerOptIn: _opt_in,
    ResolveTrigger: _resolve,
}


# The game definition, at run time too (after everything above, which _spec imports): so that
# typing.get_type_hints resolves the engine's annotations, as it did when GameSpec lived here.
from ._spec import GameSpec  # noqa: E402
