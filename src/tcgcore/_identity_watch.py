"""Following a seat's card ids over a whole game (:class:`IdentityWatch`), the check
behind :func:`tcgcore.testing.random_playout_check`'s ``check_identity``: a card a seat lost
sight of must not come back under an id it can link. Exported from :mod:`tcgcore.testing`."""

from __future__ import annotations

from typing import Any

from ._errors import ConformanceError
from ._identity import alias_at, card_alias, zone_alias, zone_card
from ._match import Match
from ._model import Event

__all__ = ["CARD_LIKE_DATA_KEYS", "IdentityWatch"]


#: event data field names that name a card in most games; a field of these names holding
#: a card instance id that the game does not list in ``GameSpec.card_data_keys`` is
#: reported by :class:`IdentityWatch` (it would reach seats as a raw instance id)
CARD_LIKE_DATA_KEYS = frozenset({
    "card", "target", "source", "attacker", "defender", "blocker",
    "enemy", "location", "host", "other", "attached_to", "order"})


def _zone_names_card(zone_id: str, state: Any) -> bool:
    """Whether a zone id ends in ``.<n>`` with ``n`` a card instance id that is no seat
    (``at.12``; not ``hand.0``): a zone named after a card."""
    _head, dot, tail = zone_id.rpartition(".")
    return bool(dot) and tail.isdigit() and state.num_players <= int(tail) < len(state.cards)


class IdentityWatch:
    """Follows what every seat (and a spectator) is shown of card identity over a game.

    Call :meth:`check` after every decision (or every few): it reads each viewer's view,
    its seat-facing pending choice and its events since the last call, and fails when

    * a card id a viewer is shown is not that viewer's alias of the card in that place
      (an instance id, or another viewer's alias, reached a seat);
    * a key of the seat-facing choice still spells its card's instance id;
    * one alias named two different cards for one viewer;
    * a card a viewer saw, then lost sight of (it was not visible at a later check),
      comes back under the alias it had before (the link the aliases exist to break);
    * a card named in an event's ``data`` (a field of ``GameSpec.card_data_keys``) is not
      the viewer's alias of that moment, or is named at all although the viewer could
      not identify it then; a field of :data:`CARD_LIKE_DATA_KEYS` the game does not
      list holds a card instance id; a zone id in a view or event (``src``/``dst``)
      embeds a card instance id (``at.12``) instead of the viewer's alias;
    * ``events_since(n)`` without ``player`` gives more than the spectator's events.

    Args:
        match: the match to watch (it must keep its events).
    """

    def __init__(self, match: Match[Any]) -> None:
        self.match = match
        n = match.state.num_players
        self.viewers: list[int | None] = [*range(n), None]
        self._last: list[dict[int, int]] = [{} for _ in self.viewers]  # card -> alias
        self._lost: list[set[int]] = [set() for _ in self.viewers]
        self._names: list[dict[int, int]] = [{} for _ in self.viewers]  # alias -> card
        self._since = match.state.event_count - len(match.events_since(0, player="all"))
        self.links_checked = 0

    def _saw(self, i: int, card: int, alias: int, where: str) -> None:
        game = self.match.game
        viewer = self.viewers[i]
        named = self._names[i].setdefault(alias, card)
        if named != card:
            raise ConformanceError(f"{game}: alias {alias} of viewer {viewer} names two "
                                   f"cards ({named} and {card}, {where})")
        if card in self._lost[i]:
            self.links_checked += 1
            if self._last[i].get(card) == alias:
                raise ConformanceError(
                    f"{game}: viewer {viewer} lost sight of card {card} and sees it again "
                    f"under the same id {alias} ({where}): it can link the card across "
                    "a place it could not see")
            self._lost[i].discard(card)
        self._last[i][card] = alias

    def _check_event_refs(self, i: int, ev: Event, raw: Event) -> None:
        """The cards ``raw`` names outside ``card`` reach viewer ``i`` as its aliases of
        that moment, and only when it could identify them then."""
        match = self.match
        state = match.state
        game = match.game
        viewer = self.viewers[i]
        v = state.num_players if viewer is None else viewer
        keys = match.spec.card_data_keys
        for name in (CARD_LIKE_DATA_KEYS - keys) & raw.data.keys():
            value = raw.data[name]
            if type(value) is int and 0 <= value < len(state.cards):
                raise ConformanceError(
                    f"{game}: event {raw.seq} ({raw.kind}) data {name!r} holds card "
                    f"instance {value}; list {name!r} in GameSpec.card_data_keys so seats "
                    "see their aliases")
        for where in ("src", "dst"):
            zid = getattr(ev, where)
            if zid is not None and zone_card(match.spec.card_zone_prefixes, zid) is None \
                    and _zone_names_card(zid, state):
                raise ConformanceError(f"{game}: event {raw.seq} {where} {zid!r} names a card "
                                       "by its instance id")
        lists: dict[str, list[str]] = {}
        for where, cid, seen, epochs in raw.refs or ():
            want = alias_at(state, cid, viewer, epochs)
            if where in ("@src", "@dst"):
                got = ev.src if where == "@src" else ev.dst
                zid = (raw.src if where == "@src" else raw.dst) or ""
                if got != zid[:len(zid) - len(str(cid))] + str(want):
                    raise ConformanceError(f"{game}: event {raw.seq} shows viewer {viewer} "
                                           f"zone {got!r}, not named after its alias {want}")
                continue
            if type(raw.data.get(where)) is int:
                shown = ev.data.get(where)
                if seen >> v & 1:
                    if shown != want:
                        raise ConformanceError(
                            f"{game}: event {raw.seq} ({raw.kind}) data {where!r} shows "
                            f"viewer {viewer} card id {shown}, not its alias {want}")
                    self._saw(i, cid, want, f"event {raw.seq} data {where!r}")
                elif shown is not None:
                    raise ConformanceError(
                        f"{game}: event {raw.seq} ({raw.kind}) data {where!r} names card "
                        f"{cid} to viewer {viewer}, which could not identify it")
            elif seen >> v & 1:
                lists.setdefault(where, []).append(str(want))
                self._saw(i, cid, want, f"event {raw.seq} data {where!r}")
            else:
                lists.setdefault(where, [])
        for where, parts in lists.items():
            if ev.data.get(where) != ",".join(parts):
                raise ConformanceError(
                    f"{game}: event {raw.seq} ({raw.kind}) data {where!r} shows viewer "
                    f"{viewer} {ev.data.get(where)!r}, not its aliases {','.join(parts)!r}")

    def check(self) -> None:
        """Check what every viewer is shown now (see the class text).

        Raises:
            ConformanceError: describing the first problem.
        """
        match = self.match
        state = match.state
        game = match.game
        everything = match.events_since(self._since, player="all")
        public = match.events_since(self._since)
        if [e.seq for e in public] != [e.seq for e in everything] or any(
                not ev.visible_to(None) and (e.card is not None or e.code is not None
                                             or bool(e.secret))
                for e, ev in zip(public, everything, strict=True)):
            raise ConformanceError(f"{game}: events_since without a player gives more than "
                                   "the spectator's events")
        engine = match.engine
        for i, viewer in enumerate(self.viewers):
            # events, in order (they happened before the present view)
            mine = match.events_since(self._since, player=viewer)
            for ev, raw in zip(mine, everything, strict=True):
                if ev.sight is not None or ev.refs is not None:
                    raise ConformanceError(f"{game}: a seat-facing event carries sight epochs")
                self._check_event_refs(i, ev, raw)
                if ev.card is None:
                    continue
                if raw.card is None:
                    raise ConformanceError(f"{game}: event {ev.seq} names a card it has not")
                want = alias_at(state, raw.card, viewer, raw.sight)
                if ev.card != want:
                    raise ConformanceError(f"{game}: event {ev.seq} shows viewer {viewer} "
                                           f"card id {ev.card}, not its alias {want}")
                self._saw(i, raw.card, ev.card, f"event {ev.seq}")
            view = match.view(viewer)
            visible: set[int] = set()
            prefixes = match.spec.card_zone_prefixes
            for zone, zv in zip(state.zones.values(), view.zones, strict=True):
                want_id = zone_alias(state, zone.id, viewer, prefixes)
                if zv.id != want_id or (want_id == zone.id and _zone_names_card(zone.id, state)):
                    raise ConformanceError(
                        f"{game}: view of {viewer} names zone {zone.id} as {zv.id!r}: a zone "
                        "named after a card must be named after the viewer's alias (list its "
                        "prefix in GameSpec.card_zone_prefixes)")
                if not zv.cards:
                    continue
                for cid, cv in zip(zone.cards, zv.cards, strict=True):
                    if cv is None or cv.id is None:
                        continue
                    want = card_alias(state, cid, viewer)
                    if cv.id != want:
                        raise ConformanceError(f"{game}: view of {viewer} shows card {cid} "
                                               f"in {zone.id} as {cv.id}, not its alias {want}")
                    host = state.cards[cid].attached_to
                    if cv.attached_to is not None and (
                            host is None or cv.attached_to != card_alias(state, host, viewer)):
                        raise ConformanceError(f"{game}: view of {viewer} names the host of "
                                               f"card {cid} by an id that is not its alias")
                    visible.add(cid)
                    self._saw(i, cid, cv.id, f"zone {zone.id}")
            pending = state.pending
            if viewer is not None and pending is not None and pending.player == viewer:
                shown = match.seat_choice(viewer)
                assert shown is not None
                for opt, raw_opt in zip(shown.options, pending.options, strict=True):
                    for name in match.spec.card_data_keys & raw_opt.data.keys():
                        raw_value = raw_opt.data[name]
                        if type(raw_value) is int and 0 <= raw_value < len(state.cards) \
                                and opt.data[name] != card_alias(state, raw_value, viewer):
                            raise ConformanceError(f"{game}: option {opt.key!r} data "
                                                   f"{name!r} is not the seat's alias")
                    if raw_opt.card is None:
                        continue
                    want = card_alias(state, raw_opt.card, viewer)
                    if opt.card != want:
                        raise ConformanceError(f"{game}: option {opt.key!r} names card "
                                               f"{raw_opt.card} as {opt.card}, not {want}")
                    if str(raw_opt.card) in opt.key.split(":") and want != raw_opt.card and \
                            opt.key == raw_opt.key:
                        raise ConformanceError(f"{game}: seat key {opt.key!r} spells the "
                                               f"instance id of its card {raw_opt.card}")
                    if engine.can_see(viewer, state.cards[raw_opt.card]):
                        self._saw(i, raw_opt.card, want, f"option {opt.key!r}")
            for cid, _alias in self._last[i].items():
                if cid not in visible:
                    self._lost[i].add(cid)
        self._since = state.event_count
