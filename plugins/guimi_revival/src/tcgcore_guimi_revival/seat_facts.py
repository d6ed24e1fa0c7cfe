"""What the Guimi heuristic knows at one decision: its seat's zones, cards, definitions and the
per-seat sums a strength needs, each read once through the seat's :class:`tcgcore.SeatReader`
(never the match's state) and kept until the decision is made (:class:`Seen`)."""

from __future__ import annotations

from functools import cached_property
from typing import Any

from tcgcore import Match, SeatReader

from .cards import CardDef, get_pool

__all__ = ["Seen", "agility"]


class Seen:
    """What one decision may use: the seat's reader (:class:`tcgcore.SeatReader`), asked
    lazily, each answer kept for the rest of the decision.

    Each visible card's definition is looked up once, each zone is read once, and the
    per-seat sums that every strength and agility needs (the digested characteristics of a
    seat's stack, the static strength of its continuous events) are added up once, so a
    late decision does not walk the same piles again for every card it weighs. The lists
    handed out are the memo itself: callers do not change them.
    """

    def __init__(self, match: Match[Any], seat: int) -> None:
        self.reader = SeatReader(match, seat)
        self.seat = seat
        self.opp = 1 - seat
        pool_name: str = getattr(match.state, "pool", "builtin")  # a public match option
        self.defs: dict[str, CardDef] = get_pool(pool_name).cards
        #: each identified card's definition, looked up once (``d`` runs very often)
        self._defs: dict[int | None, CardDef | None] = {None: None}
        self._strength: dict[int, int] = {}
        self._ids: dict[str, list[int]] = {}
        self._slots: dict[int, list[int | None]] = {}
        self._cards: dict[int, Any] = {}
        self._beyonders: dict[int, list[int]] = {}
        self._stack_bonus: dict[int, tuple[int, int]] = {}
        self._static: dict[int, int] = {}
        self._ready: dict[int, list[int]] = {}

    @cached_property
    def players(self) -> list[dict[str, Any]]:
        """The public panels of both seats (``view.panel["players"]``), read when first used."""
        players: list[dict[str, Any]] = self.reader.fact("players", [{}, {}])
        return players

    @cached_property
    def phase(self) -> str:
        """The phase (``view.panel["phase"]``), read when first used."""
        phase: str = self.reader.fact("phase", "")
        return phase

    def code(self, cid: int | None) -> str | None:
        """The code of a card the seat identifies (``None`` otherwise)."""
        return self.reader.code(cid) if cid is not None else None

    def where(self, cid: int | None) -> str:
        """The zone the seat sees a card in (``""`` for a card it does not identify)."""
        got = self.reader.zone_of(cid) if cid is not None else None
        return got if got is not None else ""

    def _card(self, cid: int | None) -> Any:
        """The seat's :class:`tcgcore.CardView` of a card (``None``: not identified)."""
        if cid is None:
            return None
        cards = self._cards
        got = cards.get(cid, cards)
        if got is cards:
            got = cards[cid] = self.reader.card(cid)
        return got

    def tapped(self, cid: int | None) -> bool:
        """Whether a card the seat identifies is tapped."""
        cv = self._card(cid)
        return cv is not None and bool(cv.exhausted)

    def counters(self, cid: int | None) -> dict[str, int]:
        """A card's counters as the seat sees them (``{}`` for a card it does not identify)."""
        cv = self._card(cid)
        return cv.counters if cv is not None else {}

    def zone_size(self, zone: str) -> int:
        """Entries the seat sees in a zone (the view's ``len(zone.cards)``)."""
        return len(self.reader.positions(zone))

    def d(self, cid: int | None) -> CardDef | None:
        """The definition of a card the seat identifies (``None`` otherwise)."""
        defs = self._defs
        got = defs.get(cid, defs)
        if got is defs:
            code = self.reader.code(cid) if cid is not None else None
            got = defs[cid] = self.defs.get(code) if code is not None else None
        return got  # type: ignore[return-value]

    def seq(self, p: int) -> int:
        return int(self.players[p].get("sequence", 9))

    def ids(self, zone: str) -> list[int]:
        """The ids of the cards the seat identifies in ``zone``, top first (read once)."""
        got = self._ids.get(zone)
        if got is None:
            got = self._ids[zone] = self.reader.ids(zone)
        return got

    def slots(self, p: int) -> list[int | None]:
        """``p``'s unit slots as the seat sees them (read once)."""
        got = self._slots.get(p)
        if got is None:
            got = self._slots[p] = self.reader.positions(f"units.{p}")
        return got

    def rb(self, p: int) -> int | None:
        ids = self.ids(f"revival.{p}")
        return ids[0] if ids else None

    def rb_path(self, p: int) -> str | None:
        for zone in (f"revival.{p}", f"underworld.{p}", f"astral.{p}"):
            for cid in self.ids(zone):
                d = self.d(cid)
                if d is not None and d.card_type == "revival_beyonder":
                    return d.pathway
        return None

    def stack_bonus(self, p: int) -> tuple[int, int]:
        """The (strength, agility) that the digested characteristics of ``p``'s stack (its
        face-up cards) add to ``p``'s RB, added up once."""
        got = self._stack_bonus.get(p)
        if got is None:
            strength = agility = 0
            for sc in self.ids(f"stack.{p}"):
                sd = self.d(sc)
                if sd is not None and sd.characteristic is not None:
                    strength += sd.characteristic.strength
                    agility += sd.characteristic.agility
            got = self._stack_bonus[p] = (strength, agility)
        return got

    def static_strength(self, p: int) -> int:
        """The strength ``p``'s continuous events in the Spirit World add to each of
        ``p``'s characters (their ``static_strength`` effects), added up once."""
        got = self._static.get(p)
        if got is None:
            got = 0
            for sw in self.ids(f"spirit.{p}"):
                sd = self.d(sw)
                if sd is not None and sd.event_kind == "continuous":
                    for ab in sd.abilities:
                        for e in ab.effects:
                            if e.op == "static_strength":
                                got += e.amount
            self._static[p] = got
        return got

    def strength(self, cid: int) -> int:
        """Strength as far as this seat can see it (printed, digested characteristics,
        battle counters, continuous events); computed once per card and decision."""
        got = self._strength.get(cid)
        if got is None:
            got = self._strength[cid] = self._strength_now(cid)
        return got

    def _strength_now(self, cid: int) -> int:
        d = self.d(cid)
        if d is None:
            return 0
        zone = self.where(cid)
        p = int(zone.rsplit(".", 1)[1]) if "." in zone else self.seat
        value = d.strength
        if d.card_type == "revival_beyonder":
            value += self.stack_bonus(p)[0]
        ctr = self.counters(cid)
        value += ctr.get("bp_str", 0) - ctr.get("bp_weak", 0)
        value += self.static_strength(p)
        return max(0, value)

    def beyonders(self, p: int) -> list[int]:
        """``p``'s Beyonder cards in its unit slots, as the seat sees them (found once)."""
        got = self._beyonders.get(p)
        if got is None:
            got = []
            for cid in self.slots(p):
                d = self.d(cid)
                if cid is not None and d is not None and d.is_beyonder:
                    got.append(cid)
            self._beyonders[p] = got
        return got

    def late(self) -> bool:
        """Whether the deck race (133.1) is close: this seat's main deck is not clearly the
        larger one, so cards should not be taken from it without need."""
        mine = int(self.players[self.seat].get("deck", 0))
        theirs = int(self.players[self.opp].get("deck", 0))
        return mine < 8 or (mine < 14 and mine <= theirs + 2)

    def mad(self, p: int) -> bool:
        return bool(self.players[p].get("mad"))

    def interceptors(self, p: int, target: int | None) -> list[int]:
        """``p``'s characters that could intercept an attack on ``target``: its untapped
        Beyonder cards that are not mad (112.7), then its RB when it is untapped and ``p``
        is not mad; ``target`` itself left out."""
        ready = self._ready.get(p)
        if ready is None:
            ready = [c for c in self.beyonders(p) if not self.tapped(c)
                     and not self.counters(c).get("mad")]
            rb = self.rb(p)
            if rb is not None and not self.mad(p) and not self.tapped(rb):
                ready.append(rb)
            self._ready[p] = ready
        return [c for c in ready if c != target]


def agility(s: Seen, cid: int) -> int:
    """A character's agility as ``s`` can see it: printed, plus the digested characteristics
    of an RB (the face-up cards of its stack)."""
    d = s.d(cid)
    if d is None:
        return 0
    value = d.agility
    if d.card_type == "revival_beyonder":
        zone = s.where(cid)
        p = int(zone.rsplit(".", 1)[1]) if "." in zone else s.seat
        value += s.stack_bonus(p)[1]
    return value
