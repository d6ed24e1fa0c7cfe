"""The seat reader: an agent's read-only questions about what one seat may know, answered lazily.

``match.view(seat)`` builds the whole view (every zone, every card the seat may identify,
the game's whole panel) although an agent deciding one choice asks about a few zones, a
few cards and a few panel facts. :class:`SeatReader` answers those questions one at a time,
from the match's state, with the view's answers: the same cards by the same aliases
(:func:`tcgcore.card_alias`), the same counts of hidden zones, the same zone names (a zone
named after a card by the seat's alias of it), the same pending choice and the same panel
facts. It shows nothing the seat's view would not: a card is found by an id only when the
view lists it under that id, and a zone the seat may not look into gives only its count.
``tests/test_seat_reader.py`` compares every answer with the full view over many states of
each game.
"""

from __future__ import annotations

from typing import Any

import msgspec

from ._identity import _alias, _unalias, alias_table, seat_choice, zone_card
from ._identity import can_see as _can_see
from ._match import Match
from ._model import EMPTY_SLOT, Choice, GameState, Result, Zone
from ._views import CardView, View, ZoneView, build_view

__all__ = ["SeatReader"]

_ENC = msgspec.msgpack.Encoder()
_RESULT_DEC = msgspec.msgpack.Decoder(Result)

#: the memo of the inverse permutation: (seed, viewer) -> {alias: (instance id, epoch)};
#: a pure function of the seed and viewer (as ``_identity``'s forward memo), bounded
_UNALIASED: dict[tuple[int, int], dict[int, tuple[int, int]]] = {}

_MISSING: Any = object()
_NO_ITEM: Any = object()  # view_fact does not answer an item name: read the whole fact



def _unaliased(seed: int, viewer: int) -> dict[int, tuple[int, int]]:
    table = _UNALIASED.get((seed, viewer))
    if table is None:
        if len(_UNALIASED) >= 512:
            _UNALIASED.clear()
        table = _UNALIASED[(seed, viewer)] = {}
    elif len(table) >= 1 << 16:
        table.clear()
    return table


class SeatReader:
    """What seat ``seat`` of ``match`` may know now, read one question at a time.

    Each answer is the one ``match.view(seat)`` gives, computed when asked, from the
    match's state (nothing is built for a zone, card or panel fact nobody asks about):

    * :meth:`zone_ids`, :meth:`zone`, :meth:`count`, :meth:`ids` and :meth:`positions`: the
      zones by the ids the view gives them (a zone named after a card, such as Arkham's
      ``at.<location>``, by the seat's alias of that card); a zone the seat may not look
      into shows only its count;
    * :meth:`card`, :meth:`code` and :meth:`zone_of`: a card by the id the view shows it
      under (the seat's alias), or ``None`` when the view shows no card under that id;
    * :attr:`pending`: the pending choice in the seat's key space when the seat must answer
      it (``view.pending``); :attr:`waiting_for`, :attr:`waiting_kind`, :attr:`turn`,
      :attr:`active_player`, :attr:`event_count`, :attr:`num_players`, :attr:`result`:
      the view's public facts;
    * :meth:`fact` and :attr:`panel`: the game's panel (``view.panel``, the game's
      ``view_extra``), one fact at a time where the game computes facts alone
      (``GameSpec.view_fact``), else the whole panel once.

    ``seat`` may be ``None`` for the spectator (public facts only, no pending choice). The
    reader never changes the match. Its answers are memoised while the match keeps its
    state object, event count and pending choice; once any of them changes (a decision, an
    event, a load) the next question starts afresh. A change that moves none of them (a
    scenario builder editing zones by hand) needs a new reader. What it hands out is built
    for the reader (a change to it changes neither the match nor a view), but a zone, card
    or panel handed out twice is the same object.

    Raises:
        SeatError: ``seat`` is not a seat of the match (nor ``None``).
    """

    __slots__ = ("_cards", "_choice", "_events", "_facts", "_found", "_known", "_match", "_names",
                 "_panel", "_pending", "_positions", "_seat", "_state", "_zones")

    def __init__(self, match: Match[Any], seat: int | None) -> None:
        if seat is not None:
            match._check_seat(seat)
        self._match = match
        self._seat = seat
        self._reset()

    # ------------------------------------------------------------------ freshness
    def _reset(self) -> None:
        state: GameState[Any] = self._match.state
        self._state = state
        self._events = state.event_count
        self._pending = state.pending
        self._zones: dict[str, ZoneView | None] = {}
        self._positions: dict[str, list[int | None]] = {}
        self._found: dict[int, int | None] = {}  # the seat's ids -> instance ids (or None)
        self._cards: dict[int, CardView | None] = {}
        self._known: dict[int, int] = {}  # alias -> instance id, for aliases this reader made
        self._names: dict[str, str] | None = None  # the seat's zone ids -> the engine's
        self._facts: dict[str, Any] = {}
        self._panel: dict[str, Any] | None = None
        self._choice: Any = _MISSING  # Choice | None once read

    def _now(self) -> GameState[Any]:
        """The match's state, after forgetting every memo if the match moved on."""
        state: GameState[Any] = self._match.state
        if (state is not self._state or state.event_count != self._events
                or state.pending is not self._pending):
            self._reset()
        return state

    def _vi(self) -> int:
        return self._state.num_players if self._seat is None else self._seat

    # ------------------------------------------------------------------ public facts
    @property
    def seat(self) -> int | None:
        """The seat read for (``None``: the spectator)."""
        return self._seat

    @property
    def num_players(self) -> int:
        """Seats in the match (``view.num_players``)."""
        return int(self._now().num_players)

    @property
    def active_player(self) -> int:
        """The active seat (``view.active_player``)."""
        return int(self._now().active_player)

    @property
    def turn(self) -> int:
        """The turn number (``view.turn``)."""
        return int(self._now().turn)

    @property
    def event_count(self) -> int:
        """Events so far (``view.event_count``)."""
        return int(self._now().event_count)

    @property
    def waiting_for(self) -> int | None:
        """The seat the match waits on, ``None`` once it is over (``view.waiting_for``)."""
        pending = self._now().pending
        return pending.player if pending is not None else None

    @property
    def waiting_kind(self) -> str | None:
        """The kind of the decision waited on (``view.waiting_kind``)."""
        pending = self._now().pending
        return pending.kind if pending is not None else None

    @property
    def result(self) -> Result | None:
        """A copy of the result, ``None`` until the match ends (``view.result``)."""
        result = self._now().result
        return _RESULT_DEC.decode(_ENC.encode(result)) if result is not None else None

    @property
    def pending(self) -> Choice | None:
        """The pending choice as the seat sees it (cards and keys by its aliases), or
        ``None`` unless the seat must answer it: ``view.pending``. Answer it with
        :meth:`tcgcore.Match.answer`, or translate its keys with
        :meth:`tcgcore.Match.engine_keys`."""
        state = self._now()
        if self._choice is _MISSING:
            got = None
            if self._seat is not None:
                seat = seat_choice(state, self._seat, self._match.spec.card_data_keys)
                got = seat[0] if seat is not None else None
            self._choice = got
        choice: Choice | None = self._choice
        return choice

    # ------------------------------------------------------------------ the game's panel
    @property
    def panel(self) -> dict[str, Any]:
        """The game's whole panel for the seat (``view.panel``: the game's ``view_extra``;
        ``{}`` for a game without one), computed once per state."""
        self._now()
        if self._panel is None:
            spec = self._match.spec
            extra = spec.view_extra
            self._panel = extra(self._state, self._seat) if extra is not None else {}
        return self._panel

    def fact(self, name: str, default: Any = None) -> Any:
        """One fact of the game's panel: ``view.panel.get(name, default)``.

        Computed alone when the game gives ``GameSpec.view_fact`` (one panel entry at a
        time), else read from :attr:`panel` (the whole panel, computed once).
        """
        self._now()
        if self._panel is not None:
            return self._panel.get(name, default)
        facts = self._facts
        got = facts.get(name, _MISSING)
        if got is _MISSING:
            spec = self._match.spec
            one = spec.view_fact
            if one is None:
                return self.panel.get(name, default)
            try:
                got = one(self._state, self._seat, name)
            except KeyError:
                got = _MISSING
            facts[name] = got
        return default if got is _MISSING else got

    def fact_item(self, name: str, index: int, default: Any = None) -> Any:
        """One entry of a list fact of the game's panel: ``view.panel[name][index]``, or
        ``default`` when the panel has no such fact or the list no such entry.

        Computed alone when the game's ``GameSpec.view_fact`` answers the name
        ``"name[index]"`` (one entry of a list fact: Arkham's ``investigators[2]``), else
        taken from :meth:`fact`; an agent that needs one seat's entry pays for that one.
        """
        self._now()
        one = self._match.spec.view_fact
        if self._panel is None and one is not None:
            key = f"{name}[{index}]"
            facts = self._facts
            got = facts.get(key, _MISSING)
            if got is _MISSING:
                try:
                    got = one(self._state, self._seat, key)
                except KeyError:
                    got = _NO_ITEM
                facts[key] = got
            if got is not _NO_ITEM:
                return got
        whole = self.fact(name)
        if isinstance(whole, list) and 0 <= index < len(whole):
            return whole[index]
        return default

    # ------------------------------------------------------------------ zones
    def _seat_name(self, zid: str) -> str:
        """``zid`` as the seat's view names it (see ``build_view``)."""
        prefixes = self._match.spec.card_zone_prefixes
        if not prefixes:
            return zid
        state = self._state
        named = zone_card(prefixes, zid)
        if named is None or named >= len(state.cards):
            return zid
        return zid[:len(zid) - len(str(named))] + str(self._alias(named))

    def _engine_zone(self, zone_id: str) -> str | None:
        """The engine's id of the zone the seat's view calls ``zone_id`` (``None``: the
        view has no zone of that id)."""
        prefixes = self._match.spec.card_zone_prefixes
        zones = self._state.zones
        if not prefixes or not zone_id.startswith(prefixes):
            return zone_id if zone_id in zones else None
        names = self._names
        if names is None:
            names = self._names = {}
            for zid in zones:
                if zid.startswith(prefixes):
                    names[self._seat_name(zid)] = zid
        return names.get(zone_id)

    def zone_ids(self) -> list[str]:
        """Every zone's id as the view gives it, in creation order (``view.zones``)."""
        self._now()
        return [self._seat_name(zid) for zid in self._state.zones]

    def _hidden(self, zone: Zone) -> bool:
        """Whether the seat may not look into ``zone`` (the view lists only its count)."""
        vis = zone.visibility
        return vis == "hidden" or (vis == "owner" and (self._seat is None or
                                                       self._seat != zone.owner))

    def count(self, zone_id: str) -> int:
        """How many cards the zone holds (``ZoneView.count``; empty slots not counted).

        Raises:
            KeyError: the view has no zone of that id.
        """
        self._now()
        zid = self._engine_zone(zone_id)
        if zid is None:
            raise KeyError(zone_id)
        zone = self._state.zones[zid]
        cards = zone.cards
        if not zone.slotted and self._hidden(zone):
            return len(cards)  # as the view counts a zone it does not open
        return len(cards) - cards.count(EMPTY_SLOT)

    def positions(self, zone_id: str) -> list[int | None]:
        """One entry per entry of the view's ``ZoneView.cards``, top first: the card's id
        (the seat's alias), or ``None`` for an empty slot or a card the seat may not
        identify (a face-down card of another player); ``[]`` for a zone the seat may not
        look into, or that the view does not have."""
        return list(self._positions_of(zone_id))

    def ids(self, zone_id: str) -> list[int]:
        """The ids (the seat's aliases) of the cards the seat identifies in the zone, top
        first: the view's ``[c.id for c in zone.cards if c is not None and c.id is not
        None]``; ``[]`` for a zone the seat may not look into, or that the view does not
        have."""
        return [c for c in self._positions_of(zone_id) if c is not None]

    def _positions_of(self, zone_id: str) -> list[int | None]:
        """:meth:`positions`, memoised (the memo itself: never hand it out)."""
        self._now()
        got = self._positions.get(zone_id)
        if got is not None:
            return got
        out: list[int | None] = []
        zid = self._engine_zone(zone_id)
        zone = self._state.zones[zid] if zid is not None else None
        if zone is not None and not self._hidden(zone):
            # the aliases as :meth:`_alias` makes them, inlined; a card listed here is one
            # :meth:`_look_up` finds under its alias (when the card's zone is this zone), so
            # the answer is remembered for :meth:`code`, :meth:`card` and :meth:`zone_of`
            state = self._state
            cards = state.cards
            seat = -1 if self._seat is None else self._seat
            vi = self._vi()
            width = state.num_players + 1
            sight = state.sight
            n_sight = len(sight)
            seed = state.seed
            table = alias_table(seed, vi)
            known = self._known
            found = self._found
            add = out.append
            for cid in zone.cards:
                if cid == EMPTY_SLOT:
                    add(None)
                    continue
                card = cards[cid]
                if card.face_down and seat != card.controller:
                    add(None)
                    continue
                i = cid * width + vi
                epoch = sight[i] if i < n_sight else 0
                alias = table.get(cid << 16 | epoch)
                if alias is None:
                    alias = _alias(seed, vi, cid, epoch)
                known[alias] = cid
                if card.zone == zid and alias not in found:
                    found[alias] = cid
                add(alias)
        self._positions[zone_id] = out
        return out

    def zone(self, zone_id: str) -> ZoneView | None:
        """The view's :class:`tcgcore.ZoneView` of that id, or ``None`` when the view has
        no zone of that id."""
        self._now()
        zones = self._zones
        if zone_id in zones:
            return zones[zone_id]
        zid = self._engine_zone(zone_id)
        got: ZoneView | None = None
        if zid is not None:
            zone = self._state.zones[zid]
            if self._hidden(zone):
                got = ZoneView(id=zone_id, kind=zone.kind, owner=zone.owner,
                               visibility=zone.visibility, count=self.count(zone_id))
            else:
                shown: list[CardView | None] = []
                count = 0
                for cid in zone.cards:
                    if cid == EMPTY_SLOT:
                        shown.append(None)
                        continue
                    count += 1
                    shown.append(self._card_view(cid))
                got = ZoneView(id=zone_id, kind=zone.kind, owner=zone.owner,
                               visibility=zone.visibility, count=count, cards=shown)
        zones[zone_id] = got
        return got

    # ------------------------------------------------------------------ cards
    def _alias(self, cid: int) -> int:
        """The seat's alias of card ``cid`` now (remembered for :meth:`card`)."""
        state = self._state
        vi = self._vi()
        i = cid * (state.num_players + 1) + vi
        sight = state.sight
        epoch = sight[i] if i < len(sight) else 0
        got = alias_table(state.seed, vi).get(cid << 16 | epoch)
        if got is None:
            got = _alias(state.seed, vi, cid, epoch)
        self._known[got] = cid
        return got

    def _card_view(self, cid: int) -> CardView:
        """Card ``cid`` as the view shows it in a zone the seat may look into."""
        state = self._state
        card = state.cards[cid]
        counters = card.counters
        seat = self._seat
        if card.face_down and (seat is None or seat != card.controller):
            if counters:
                return CardView(face_down=True, exhausted=card.exhausted,
                                controller=card.controller, counters=dict(counters))
            return CardView(face_down=True, exhausted=card.exhausted,
                            controller=card.controller)
        host = card.attached_to
        if host is not None:
            host_card = state.cards[host]
            host = (self._alias(host)
                    if _can_see(seat, host_card, state.zones[host_card.zone]) else None)
        if counters:
            return CardView(id=self._alias(cid), code=card.code, face_down=card.face_down,
                            exhausted=card.exhausted, controller=card.controller,
                            counters=dict(counters), attached_to=host)
        return CardView(id=self._alias(cid), code=card.code, face_down=card.face_down,
                        exhausted=card.exhausted, controller=card.controller,
                        attached_to=host)

    def _instance(self, card_id: int) -> int | None:
        """The instance id of the card the view shows under ``card_id``, or ``None``
        (memoised per state)."""
        if type(card_id) is not int:
            return None
        found = self._found
        if card_id in found:
            return found[card_id]
        got = found[card_id] = self._look_up(card_id)
        return got

    def _look_up(self, card_id: int) -> int | None:
        state = self._state
        cid = self._known.get(card_id)
        if cid is None:
            if not 0 <= card_id < 1 << 32:
                return None
            vi = self._vi()
            memo = _unaliased(state.seed, vi)
            pair = memo.get(card_id)
            if pair is None:
                pair = memo[card_id] = _unalias(state.seed, vi, card_id)
            cid, epoch = pair
            if cid >= len(state.cards):
                return None
            i = cid * (state.num_players + 1) + vi
            sight = state.sight
            if epoch != (sight[i] if i < len(sight) else 0):
                return None  # an alias of an earlier sight of the card
        card = state.cards[cid]
        zone = state.zones.get(card.zone)
        if zone is None or self._hidden(zone) or cid not in zone.cards:
            return None
        if card.face_down and (self._seat is None or self._seat != card.controller):
            return None
        return cid

    def card(self, card_id: int) -> CardView | None:
        """The view's :class:`tcgcore.CardView` of the card it shows under ``card_id``
        (the seat's alias), or ``None`` when the view shows no card under that id (a card
        the seat may not identify, an alias from an earlier sight of a card, any other
        number)."""
        self._now()
        cards = self._cards
        if type(card_id) is not int:
            return None
        if card_id in cards:
            return cards[card_id]
        cid = self._instance(card_id)
        got = self._card_view(cid) if cid is not None else None
        if cid is not None:
            cards[card_id] = got
        return got

    def code(self, card_id: int) -> str | None:
        """The card code of the card the view shows under ``card_id``, or ``None``."""
        self._now()
        cid = self._instance(card_id)
        return self._state.cards[cid].code if cid is not None else None

    def zone_of(self, card_id: int) -> str | None:
        """The id (as the view gives it) of the zone the view shows the card ``card_id``
        in, or ``None`` when the view shows no card under that id."""
        self._now()
        cid = self._instance(card_id)
        return self._seat_name(self._state.cards[cid].zone) if cid is not None else None

    # ------------------------------------------------------------------ the whole view
    def view(self) -> View:
        """The seat's full view (``match.view(seat)``), for anything the reader does not
        answer."""
        state = self._now()
        return build_view(self._match.spec, state, self._seat)
