"""Per-player views: what one seat (or a spectator) may know, and nothing more.

A view never contains the RNG state, the identity of a card the viewer cannot
see, or any card's instance id: a hidden card is an anonymous placeholder (or only
counted), and a card the viewer sees is named by the viewer's alias of it
(``tcgcore._identity``), which changes each time the viewer loses sight of the card,
so a card that was revealed and then hidden cannot be recognised when it comes back.
Omniscient views (replays, debugging) use instance ids.
"""

from __future__ import annotations

from typing import Any

import msgspec

from ._identity import _alias, alias_table, seat_choice, zone_card
from ._identity import can_see as _can_see
from ._model import EMPTY_SLOT, Choice, GameState, Result, Visibility
from ._spec import GameSpec

__all__ = ["CardView", "View", "ZoneView", "build_view"]

# views hand out copies, so a front end editing a view cannot change the match
_ENC = msgspec.msgpack.Encoder()
_CHOICE_DEC = msgspec.msgpack.Decoder(Choice)
_RESULT_DEC = msgspec.msgpack.Decoder(Result)


class CardView(msgspec.Struct, kw_only=True, omit_defaults=True):
    """A card as one viewer sees it.

    ``id`` and ``code`` are ``None`` for a card the viewer may not identify
    (a face-down card of another player); facing, exhaustion and counters are
    physical facts and stay visible. ``id`` (and ``attached_to``) is the viewer's
    alias of the card (see :func:`tcgcore.card_alias`), the id the viewer's options
    and events use too; an omniscient view gives instance ids.
    """

    id: int | None = None
    code: str | None = None
    face_down: bool = False
    exhausted: bool = False
    controller: int | None = None
    counters: dict[str, int] = {}
    attached_to: int | None = None


class ZoneView(msgspec.Struct, kw_only=True, omit_defaults=True):
    """A zone as one viewer sees it.

    Attributes:
        count: number of cards in the zone (always public).
        cards: the cards, top first; empty when the viewer may not look into
            the zone at all (a deck, another player's hand). ``None`` marks an
            empty slot of a slotted zone.
    """

    id: str
    kind: str
    owner: int | None = None
    visibility: Visibility = "public"
    count: int = 0
    cards: list[CardView | None] = []


class View(msgspec.Struct, kw_only=True, omit_defaults=True):
    """Everything one seat may know about a match at this moment.

    Attributes:
        game: game name.
        viewer: the seat, or ``None`` for a spectator.
        zones: every zone, in creation order.
        pending: the pending choice, only when the viewer must answer it, in the
            viewer's key space (cards by alias; answer it with
            :meth:`tcgcore.Match.answer`).
        waiting_for: the seat being waited on, and ``waiting_kind`` its
            decision kind (public facts).
        panel: the game's own public/private facts for this viewer.
    """

    game: str
    viewer: int | None
    num_players: int
    active_player: int
    turn: int
    event_count: int
    zones: list[ZoneView] = []
    pending: Choice | None = None
    waiting_for: int | None = None
    waiting_kind: str | None = None
    result: Result | None = None
    panel: dict[str, Any] = {}


def build_view(spec: GameSpec[Any], state: GameState[Any], viewer: int | None, *,
               omniscient: bool = False) -> View:
    """Compute the view of ``state`` for ``viewer`` (``None`` = spectator).

    With ``omniscient=True`` every zone is open and every card identified, and the
    pending choice is included whoever must answer it (replays and debugging,
    never for players); panel facts are then the spectator's.
    """
    cards = state.cards
    zones_by_id = state.zones
    zones: list[ZoneView] = []
    append_zone = zones.append
    # the viewer's aliases: _alias(seed, viewer, id, epoch), epochs read inline
    seed = state.seed
    width = state.num_players + 1
    vi = state.num_players if viewer is None else viewer
    sight = state.sight
    known = len(sight)
    table = alias_table(seed, vi)
    table_get = table.get
    # can_see inlined on the hot loop: a seat sees its own face-down cards; face-up
    # cards in a public zone, or in an owner zone it owns (``_identity.can_see``)
    me = -1 if viewer is None else viewer
    prefixes = () if omniscient else spec.card_zone_prefixes

    def zone_name(zid: str) -> str:  # a zone named after a card: after the viewer's alias
        named = zone_card(prefixes, zid)
        if named is None or named >= len(cards):
            return zid
        i = named * width + vi
        epoch = sight[i] if i < known else 0
        got = table_get(named << 16 | epoch)
        return zid[:len(zid) - len(str(named))] + str(
            got if got is not None else _alias(seed, vi, named, epoch))

    for zone in zones_by_id.values():
        vis = zone.visibility
        zid = zone_name(zone.id) if prefixes else zone.id
        if not omniscient and (vis == "hidden" or (vis == "owner" and me != zone.owner)):
            count = sum(1 for c in zone.cards if c != EMPTY_SLOT) if zone.slotted else len(zone.cards)
            append_zone(ZoneView(id=zid, kind=zone.kind, owner=zone.owner, visibility=vis,
                                 count=count))
            continue
        shown: list[CardView | None] = []
        add = shown.append
        count = 0
        # a face-up card here is seen: the zone is public or the viewer's own
        for cid in zone.cards:
            if cid == EMPTY_SLOT:
                add(None)
                continue
            count += 1
            card = cards[cid]
            counters = card.counters
            if omniscient or (me == card.controller if card.face_down else True):
                host = card.attached_to
                if host is not None and not omniscient:
                    host_card = cards[host]
                    if not _can_see(viewer, host_card, zones_by_id[host_card.zone]):
                        host = None
                if omniscient:
                    ident = cid
                else:
                    i = cid * width + vi
                    epoch = sight[i] if i < known else 0
                    got = table_get(cid << 16 | epoch)
                    ident = got if got is not None else _alias(seed, vi, cid, epoch)
                    if host is not None:
                        i = host * width + vi
                        epoch = sight[i] if i < known else 0
                        got = table_get(host << 16 | epoch)
                        host = got if got is not None else _alias(seed, vi, host, epoch)
                if counters:
                    add(CardView(id=ident, code=card.code, face_down=card.face_down,
                                 exhausted=card.exhausted, controller=card.controller,
                                 counters=dict(counters), attached_to=host))
                else:
                    add(CardView(id=ident, code=card.code, face_down=card.face_down,
                                 exhausted=card.exhausted, controller=card.controller,
                                 attached_to=host))
            elif counters:
                add(CardView(face_down=True, exhausted=card.exhausted,
                             controller=card.controller, counters=dict(counters)))
            else:
                add(CardView(face_down=True, exhausted=card.exhausted,
                             controller=card.controller))
        append_zone(ZoneView(id=zid, kind=zone.kind, owner=zone.owner, visibility=vis,
                             count=count, cards=shown))
    pending = state.pending
    mine: Choice | None = None
    if pending is not None:
        if omniscient:
            mine = _CHOICE_DEC.decode(_ENC.encode(pending))
        elif viewer is not None and pending.player == viewer:
            seat = seat_choice(state, viewer, spec.card_data_keys)
            mine = seat[0] if seat is not None else None
    panel = spec.view_extra(state, viewer) if spec.view_extra is not None else {}
    return View(
        game=spec.name,
        viewer=viewer,
        num_players=state.num_players,
        active_player=state.active_player,
        turn=state.turn,
        event_count=state.event_count,
        zones=zones,
        pending=mine,
        waiting_for=pending.player if pending is not None else None,
        waiting_kind=pending.kind if pending is not None else None,
        result=_RESULT_DEC.decode(_ENC.encode(state.result)) if state.result is not None else None,
        panel=panel,
    )
