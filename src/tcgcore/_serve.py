"""A JSON-lines protocol for front ends in any language (``tcgcore serve --stdio``).

One request per line on stdin, one response per line on stdout, in order. Every request is a
JSON object with an ``op`` and optionally an ``id`` that the response echoes. A response is
``{"id": ..., "ok": true, ...}`` or ``{"id": ..., "ok": false, "error": {"code", "message"}}``.
``docs/protocol.md`` documents every operation with an example. The same :class:`Server`
answers the web table's pages (``tcgcore._web._hub.Hub`` subclasses it), so both transports
share the card catalogue (``catalogue``), the option targets of a seat's choice
(:func:`option_target`) and the pushed updates (``subscribe``: unsolicited
``{"type": "update", ...}`` lines after each accepted decision, :meth:`Server.update_for`).

A bad request (malformed JSON, unknown op, wrong types, a wrong token, an illegal choice, an
unknown match id) gets an error response and changes nothing; the session goes on. ``create``
and ``load`` hand out one secret token per seat (and an admin token for saves): a request that
views or acts as a seat must present that seat's token, so a front end holding one seat cannot
see or play another. Tokens come from :mod:`secrets` (outside the game logic, which stays
deterministic).

The server trusts only saves it made: ``save`` returns the save with a ``signature``, an
HMAC-SHA256 of its bytes under the server's key (a per-process secret, or the key the operator
gives, so that saves outlive the process); ``load`` takes a save whose signature verifies, and
anything else (unsigned, signed by another key, edited) only with the operator's admin token.
Every loaded save is still checked for meaning (``tcgcore._validate``).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import os
import secrets
import time
from collections.abc import Callable
from typing import Any, BinaryIO, Literal

import msgspec

from ._errors import (
    FormatVersionError,
    GameMismatchError,
    IllegalChoice,
    OptionsError,
    StateDecodeError,
    StepLimitError,
    UnknownGameError,
)
from ._identity import seat_event, zone_alias
from ._match import Match, _create
from ._model import Choice, Event, Option, Scalar
from ._plugins import Registry, default_registry
from ._presentation import LANGUAGES, card_catalogue, table_layout
from ._terminal import describe_event
from ._views import View

__all__ = ["PROTOCOL_VERSION", "ProtocolError", "Server", "Subscription", "TargetedOption",
           "serve_stdio"]

#: Version of the JSON-lines protocol (``hello`` reports it).
PROTOCOL_VERSION = 1

#: Longest request line accepted, in bytes (saves travel base64-encoded inside requests).
MAX_LINE = 32 * 1024 * 1024

#: Most matches one session keeps at a time (``close`` frees them).
MAX_MATCHES = 1000

#: Largest save ``load`` accepts, in bytes once decoded (refused as ``too_large``).
MAX_SAVE = 4 * 1024 * 1024

#: Most engine steps one ``choose`` may run to the next choice; more is refused as
#: ``step_limit`` and the match is left as it was.
MAX_STEPS = 200_000

#: Most events one ``events`` response carries; ``next`` says where to go on.
MAX_EVENTS = 5_000

#: Requests one session may make: a bucket of ``RATE_BURST`` requests refilled at
#: ``RATE_PER_SECOND`` (refused as ``rate_limited``; nothing changes).
RATE_PER_SECOND = 1000.0
RATE_BURST = 5_000

#: Environment variables an operator sets for ``tcgcore serve``: the key saves are signed
#: with (any text; default a per-process secret) and the admin token that allows loading a save
#: this server did not sign (default none: such saves are refused).
KEY_ENV = "TCGCORE_SERVE_KEY"
ADMIN_ENV = "TCGCORE_SERVE_ADMIN_TOKEN"


def sign_save(key: bytes, data: bytes) -> str:
    """The keyed digest a save carries: hex HMAC-SHA256 of the save's bytes under ``key``."""
    return hmac.new(key, data, hashlib.sha256).hexdigest()


class ProtocolError(Exception):
    """A request the server refuses; becomes ``{"ok": false, "error": {...}}``.

    Attributes:
        code: stable machine-readable error code (see ``docs/protocol.md``).
        extra: more fields for the error object (``reason`` of an illegal choice).
    """

    def __init__(self, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.code = code
        self.extra = extra


# ---------------------------------------------------------------- request shapes


class _Op(msgspec.Struct, kw_only=True):
    op: str


class _Create(msgspec.Struct, kw_only=True):
    game: str
    seed: int | None = None
    players: int | None = None
    options: dict[str, Any] = {}


class _MatchRef(msgspec.Struct, kw_only=True):
    match: str


class _SeatReq(msgspec.Struct, kw_only=True):
    match: str
    seat: int
    token: str


class _ViewReq(msgspec.Struct, kw_only=True):
    match: str
    seat: int | None = None
    token: str | None = None


class _Choose(msgspec.Struct, kw_only=True):
    match: str
    seat: int
    token: str
    keys: str | list[str]
    seq: int | None = None


class _Events(msgspec.Struct, kw_only=True):
    match: str
    since: int = 0
    seat: int | None = None
    token: str | None = None


class _AdminReq(msgspec.Struct, kw_only=True):
    match: str
    admin_token: str
    format: Literal["msgpack", "json"] = "msgpack"


class _Catalogue(msgspec.Struct, kw_only=True):
    game: str | None = None
    match: str | None = None
    codes: list[str]
    lang: str = "en"


class _Unsubscribe(msgspec.Struct, kw_only=True):
    match: str
    seat: int | None = None


class _Load(msgspec.Struct, kw_only=True):
    data: str
    format: Literal["msgpack", "json"] = "msgpack"
    game: str | None = None
    signature: str | None = None
    admin_token: str | None = None


# ---------------------------------------------------------------- option targets


class TargetedOption(Option, kw_only=True, omit_defaults=True, frozen=True):
    """An :class:`Option` as the protocol sends it to a seat, with what it points at.

    Attributes:
        target: ``card`` (the viewer's alias of the option's card, equal to ``card``),
            ``zone`` (the viewer's id of the zone the option points at) and ``slot`` (the
            index in that zone's ``cards`` as the viewer's view lists them: a slot number
            in a slotted zone), each present only when known; ``{}`` (left out of the JSON)
            when the option names no card and no place. See :func:`option_target`.
    """

    target: dict[str, Scalar] = {}


def option_target(match: Match[Any], option: Option, seat_card: int | None,
                  viewer: int) -> dict[str, Scalar]:
    """What one option of the pending choice points at, as seat ``viewer`` may know it.

    Derived from the engine's ``option`` (``card``, ``data``) for every game alike:

    * ``card``: ``seat_card``, the viewer's alias of the option's card (its ``card`` in
      the seat's choice), when the option names a card;
    * ``zone`` and ``slot`` from the option's data when the game puts a place there (a
      ``zone`` id, text; a ``slot``, an int); otherwise where the option's card is now: its
      zone (named as the viewer's view names it, ``at.<alias>`` for a zone named after a
      card) and its index in that zone's cards, given only when the viewer's view lists
      that zone's cards (a public zone, or the viewer's own hand or play area). A card in a
      deck, or in another seat's hand, gets no zone and no slot: its place there is hidden.

    Never an engine instance id, and nothing the viewer's view does not already show.
    """
    state = match.state
    prefixes = match.spec.card_zone_prefixes
    target: dict[str, Scalar] = {}
    if seat_card is not None:
        target["card"] = seat_card
    data = option.data
    zone_id, slot = data.get("zone"), data.get("slot")
    if type(zone_id) is str or type(slot) is int:
        if type(zone_id) is str:
            target["zone"] = zone_alias(state, zone_id, viewer, prefixes)
        if type(slot) is int:
            target["slot"] = slot
        return target
    card = option.card
    if card is None or not 0 <= card < len(state.cards):
        return target
    zone = state.zones.get(state.cards[card].zone)
    if zone is None or zone.visibility == "hidden" or (
            zone.visibility == "owner" and zone.owner != viewer):
        return target
    try:
        index = zone.cards.index(card)
    except ValueError:
        return target
    target["zone"] = zone_alias(state, zone.id, viewer, prefixes)
    target["slot"] = index
    return target


def seat_choice_with_targets(match: Match[Any], seat: int) -> Choice | None:
    """``match.seat_choice(seat)`` with every option a :class:`TargetedOption`."""
    shown = match.seat_choice(seat)
    pending = match.state.pending
    if shown is None or pending is None:
        return shown
    options: list[Option] = [
        TargetedOption(key=opt.key, label=opt.label, card=opt.card, data=opt.data,
                       target=option_target(match, engine_opt, opt.card, seat))
        for opt, engine_opt in zip(shown.options, pending.options, strict=True)]
    return msgspec.structs.replace(shown, options=options)


def view_with_targets(match: Match[Any], seat: int | None) -> View:
    """``match.view(seat)`` whose pending choice carries option targets."""
    view = match.view(seat)
    if seat is None or view.pending is None:
        return view
    return msgspec.structs.replace(view, pending=seat_choice_with_targets(match, seat))


# ---------------------------------------------------------------- server


class Subscription:
    """One seat (or the spectator, ``seat`` ``None``) of one match that gets pushed updates,
    and the number of the next event it has not been sent."""

    __slots__ = ("match_id", "next_event", "seat", "token")

    def __init__(self, match_id: str, seat: int | None, token: str | None) -> None:
        self.match_id = match_id
        self.seat = seat
        self.token = token
        self.next_event = 0


class _Entry:
    """One match of the session, its tokens and its (omniscient) event history."""

    __slots__ = ("admin", "events", "first_event", "match", "tokens")

    def __init__(self, match: Match[Any]) -> None:
        self.match = match
        self.tokens = [secrets.token_urlsafe(18) for _ in range(match.state.num_players)]
        self.admin = secrets.token_urlsafe(18)
        events = match.events_since(0, player="all")
        self.first_event = match.state.event_count - len(events)
        self.events: list[Event] = list(events)

    def record_events(self) -> None:
        """Append the events the match emitted since the last call to the session history."""
        have = self.first_event + len(self.events)
        self.events.extend(self.match.events_since(have, player="all"))


def _convert(payload: dict[str, Any], shape: type[Any]) -> Any:
    try:
        return msgspec.convert(payload, shape)
    except msgspec.ValidationError as exc:
        raise ProtocolError("bad_request", str(exc)) from None


def _status(match: Match[Any]) -> dict[str, Any]:
    pending = match.pending
    return {
        "waiting_for": pending.player if pending is not None else None,
        "waiting_kind": pending.kind if pending is not None else None,
        "seq": pending.seq if pending is not None else None,
        "result": match.result,
        "event_count": match.state.event_count,
        "turn": match.state.turn,
        "active_player": match.state.active_player,
    }


class Server:
    """The protocol's state: the session's matches, keyed by match id.

    :meth:`handle_line` turns one request line into one response line; it never raises.

    Args:
        registry: where to find games (default: installed plugins).
        max_matches: most matches kept at once.
        save_key: the key ``save`` signs with and ``load`` verifies (bytes or text);
            default: :data:`KEY_ENV` if set, else a per-process secret (saves then load only
            in this process without the admin token).
        admin_token: the operator's token that lets ``load`` take a save this server did
            not sign; default: :data:`ADMIN_ENV` if set, else none (such saves are refused).
        max_save: largest save ``load`` decodes, in bytes.
        max_steps: most engine steps one request runs (``Engine.step_limit``).
        max_events: most events one ``events`` response holds.
        rate: ``(per_second, burst)`` of the session's request bucket; ``None``: no limit.
        clock: seconds as a float for the rate limit (default :func:`time.monotonic`).
    """

    def __init__(self, registry: Registry | None = None, *, max_matches: int = MAX_MATCHES,
                 save_key: bytes | str | None = None, admin_token: str | None = None,
                 max_save: int = MAX_SAVE, max_steps: int = MAX_STEPS,
                 max_events: int = MAX_EVENTS,
                 rate: tuple[float, int] | None = (RATE_PER_SECOND, RATE_BURST),
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.registry = registry if registry is not None else default_registry()
        self.max_matches = max_matches
        self.max_save = max_save
        self.max_steps = max_steps
        self.max_events = max_events
        self._rate = rate
        self._clock = clock
        self._tokens_left = float(rate[1]) if rate is not None else 0.0
        self._refilled = clock()
        key = save_key if save_key is not None else os.environ.get(KEY_ENV)
        if isinstance(key, str):
            key = key.encode()
        self._key: bytes = key if key else secrets.token_bytes(32)
        self._admin_token = admin_token if admin_token is not None else os.environ.get(ADMIN_ENV)
        self.matches: dict[str, _Entry] = {}
        self.closed = False
        self.subscriptions: dict[str, dict[int | None, Subscription]] = {}
        self.outbox: list[dict[str, Any]] = []
        self._next_id = 1
        self._enc = msgspec.json.Encoder()
        self._ops: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
            "hello": self.op_hello,
            "games": self.op_games,
            "create": self.op_create,
            "status": self.op_status,
            "view": self.op_view,
            "pending": self.op_pending,
            "choose": self.op_choose,
            "events": self.op_events,
            "catalogue": self.op_catalogue,
            "subscribe": self.op_subscribe,
            "unsubscribe": self.op_unsubscribe,
            "save": self.op_save,
            "load": self.op_load,
            "replay": self.op_replay,
            "close": self.op_close,
            "bye": self.op_bye,
        }

    @property
    def ops(self) -> list[str]:
        """The operation names this server answers."""
        return list(self._ops)

    # ---- dispatch
    def handle_line(self, line: bytes | str) -> bytes:
        """Answer one request line; returns the response as one JSON line (no newline)."""
        try:
            request = msgspec.json.decode(line)
        except (msgspec.DecodeError, RecursionError, ValueError) as exc:
            return self._encode({"id": None, "ok": False,
                                 "error": {"code": "bad_json", "message": f"not JSON: {exc}"}})
        return self._encode(self.handle(request))

    def handle(self, request: Any) -> dict[str, Any]:
        """Answer one decoded request (a dict); returns the response object."""
        rid = request.get("id") if isinstance(request, dict) else None
        try:
            if not isinstance(request, dict):
                raise ProtocolError("bad_request",
                                    f"a request is a JSON object, got {type(request).__name__}")
            self._spend()
            op = _convert(request, _Op).op
            handler = self._ops.get(op)
            if handler is None:
                raise ProtocolError("unknown_op",
                                    f"unknown op {op!r}; known ops: {', '.join(self._ops)}")
            body = handler(request)
        except ProtocolError as exc:
            return {"id": rid, "ok": False,
                    "error": {"code": exc.code, "message": str(exc), **exc.extra}}
        except Exception as exc:  # the session must survive anything, even a plugin bug
            return {"id": rid, "ok": False,
                    "error": {"code": "internal", "message": f"{type(exc).__name__}: {exc}"}}
        return {"id": rid, "ok": True, **body}

    def _encode(self, response: dict[str, Any]) -> bytes:
        try:
            return self._enc.encode(response)
        except (TypeError, msgspec.EncodeError) as exc:  # an id that is not plain JSON data
            return self._enc.encode({"id": None, "ok": False, "error": {
                "code": "internal", "message": f"cannot encode the response: {exc}"}})

    # ---- helpers
    def _spend(self) -> None:
        """Take one request from the session's bucket (see ``rate``).

        Raises:
            ProtocolError: ``rate_limited`` when the bucket is empty (nothing is done).
        """
        if self._rate is None:
            return
        per_second, burst = self._rate
        now = self._clock()
        self._tokens_left = min(float(burst),
                                self._tokens_left + max(0.0, now - self._refilled) * per_second)
        self._refilled = now
        if self._tokens_left < 1.0:
            raise ProtocolError("rate_limited", f"more than {per_second:g} requests a second "
                                                f"(bursts of {burst}); try again shortly")
        self._tokens_left -= 1.0

    def _entry(self, match_id: str) -> _Entry:
        entry = self.matches.get(match_id)
        if entry is None:
            raise ProtocolError("unknown_match", f"no match {match_id!r} in this session")
        return entry

    def _seat(self, entry: _Entry, seat: int | None, token: str | None) -> int | None:
        """Check the seat and its token; ``None`` (spectator) needs no token."""
        if seat is None:
            return None
        n = entry.match.state.num_players
        if not 0 <= seat < n:
            raise ProtocolError("bad_seat", f"no seat {seat} in a {n}-seat match (0..{n - 1})")
        if token is None or not hmac.compare_digest(token.encode(), entry.tokens[seat].encode()):
            raise ProtocolError("forbidden", f"wrong or missing token for seat {seat}")
        return seat

    def _admin(self, entry: _Entry, token: str) -> None:
        if not hmac.compare_digest(token.encode(), entry.admin.encode()):
            raise ProtocolError("forbidden", "wrong admin_token")

    def _register(self, match: Match[Any]) -> dict[str, Any]:
        if len(self.matches) >= self.max_matches:
            raise ProtocolError("limit", f"this session already holds {self.max_matches} matches; "
                                         "close some first")
        match_id = f"m{self._next_id}"
        self._next_id += 1
        entry = _Entry(match)
        self.matches[match_id] = entry
        return {"match": match_id, "game": match.game, "seed": match.seed,
                "players": match.state.num_players, "tokens": list(entry.tokens),
                "admin_token": entry.admin, "status": _status(match)}

    # ---- operations
    def op_hello(self, req: dict[str, Any]) -> dict[str, Any]:
        """``hello``: protocol version, tcgcore version and the ops."""
        from . import __version__
        return {"protocol": PROTOCOL_VERSION, "tcgcore": __version__, "ops": self.ops}

    def op_games(self, req: dict[str, Any]) -> dict[str, Any]:
        """``games``: the installed games."""
        reg = self.registry
        rows = []
        for name in reg.names():
            spec = reg.game(name)
            rows.append({"name": name, "version": spec.version, "description": spec.description,
                         "players": list(spec.players), "default_players": spec.default_players})
        return {"games": rows}

    def op_create(self, req: dict[str, Any]) -> dict[str, Any]:
        """``create``: a new match; returns its id and the seat tokens."""
        r = _convert(req, _Create)
        seed = r.seed if r.seed is not None else secrets.randbits(63)
        if len(self.matches) >= self.max_matches:
            raise ProtocolError("limit", f"this session already holds {self.max_matches} matches")
        try:
            match = _create(r.game, seed=seed, players=r.players, registry=self.registry,
                            logger=None, options=dict(r.options))
        except UnknownGameError as exc:
            raise ProtocolError("unknown_game", str(exc)) from None
        except OptionsError as exc:
            raise ProtocolError("bad_options", str(exc)) from None
        return self._register(match)

    def op_status(self, req: dict[str, Any]) -> dict[str, Any]:
        """``status``: public facts (whom the match waits for, result, event count)."""
        r = _convert(req, _MatchRef)
        return {"status": _status(self._entry(r.match).match)}

    def op_view(self, req: dict[str, Any]) -> dict[str, Any]:
        """``view``: a seat's view (with its pending choice), or the spectator view."""
        r = _convert(req, _ViewReq)
        entry = self._entry(r.match)
        seat = self._seat(entry, r.seat, r.token)
        return {"view": view_with_targets(entry.match, seat)}

    def op_pending(self, req: dict[str, Any]) -> dict[str, Any]:
        """``pending``: the choice this seat must answer now, or null."""
        r = _convert(req, _SeatReq)
        entry = self._entry(r.match)
        seat = self._seat(entry, r.seat, r.token)
        assert seat is not None
        return {"choice": seat_choice_with_targets(entry.match, seat),
                "status": _status(entry.match)}

    def op_choose(self, req: dict[str, Any]) -> dict[str, Any]:
        """``choose``: answer the pending choice as a seat; the match runs to the next one."""
        r = _convert(req, _Choose)
        entry = self._entry(r.match)
        seat = self._seat(entry, r.seat, r.token)
        assert seat is not None
        match = entry.match
        pending = match.pending
        if r.seq is not None and (pending is None or pending.seq != r.seq):
            raise ProtocolError("illegal_choice",
                                f"choice {r.seq} is no longer pending "
                                f"(now {pending.seq if pending else 'none'})", reason="stale")
        backup = match.clone()
        match.engine.step_limit = self.max_steps
        try:
            match.answer(seat, r.keys)  # the keys of the seat's own view of the choice
        except IllegalChoice as exc:  # nothing changed
            raise ProtocolError("illegal_choice", str(exc), reason=exc.reason) from None
        except StepLimitError as exc:  # too much work for one request: as it was
            entry.match = backup
            raise ProtocolError("step_limit", f"the answer needs more than {self.max_steps} "
                                              f"engine steps; the match was restored ({exc})"
                                ) from None
        except Exception as exc:  # a plugin bug: put the match back as it was
            entry.match = backup
            raise ProtocolError("engine_error", f"the game failed on this answer and the match was "
                                                f"restored: {type(exc).__name__}: {exc}") from None
        entry.record_events()
        self.notify(r.match)
        return {"status": _status(match)}

    def op_events(self, req: dict[str, Any]) -> dict[str, Any]:
        """``events``: events from number ``since`` on, redacted for the seat (or a spectator)."""
        r = _convert(req, _Events)
        entry = self._entry(r.match)
        seat = self._seat(entry, r.seat, r.token)
        if r.since < 0:
            raise ProtocolError("bad_request", "since must be 0 or more")
        start = max(0, r.since - entry.first_event)
        state = entry.match.state
        chunk = entry.events[start:start + self.max_events]
        events = [seat_event(state, ev, seat) for ev in chunk]
        return {"events": events, "first": entry.first_event,
                "next": entry.first_event + min(len(entry.events), start + len(chunk))}

    def op_catalogue(self, req: dict[str, Any]) -> dict[str, Any]:
        """``catalogue``: printed facts of card codes of a game (``game``, or the game of
        ``match``), in ``lang``; the same for every seat, never about an instance."""
        r = _convert(req, _Catalogue)
        if len(r.codes) > 500 or any(len(c) > 64 for c in r.codes):
            raise ProtocolError("bad_request", "catalogue takes at most 500 card codes of at "
                                               "most 64 characters")
        if r.lang not in LANGUAGES:
            raise ProtocolError("bad_request", f"lang must be one of {', '.join(LANGUAGES)}")
        if r.game is None:
            if r.match is None:
                raise ProtocolError("bad_request", "catalogue needs a game (or a match)")
            game = self._entry(r.match).match.game
        else:
            game = r.game
        try:
            spec = self.registry.game(game)
        except UnknownGameError as exc:
            raise ProtocolError("unknown_game", str(exc)) from None
        return {"cards": card_catalogue(spec, r.codes, r.lang)}

    def op_subscribe(self, req: dict[str, Any]) -> dict[str, Any]:
        """``subscribe``: push this seat's updates (or the spectator's) after every accepted
        decision of the match; the first update (the whole view and log) follows at once."""
        r = _convert(req, _ViewReq)
        entry = self._entry(r.match)
        seat = self._seat(entry, r.seat, r.token)
        sub = Subscription(r.match, seat, r.token if seat is not None else None)
        self.subscriptions.setdefault(r.match, {})[seat] = sub
        self.outbox.append(self.update_for(sub))
        return {"match": r.match, "seat": seat}

    def op_unsubscribe(self, req: dict[str, Any]) -> dict[str, Any]:
        """``unsubscribe``: stop the pushes of a seat (or the spectator) of a match."""
        r = _convert(req, _Unsubscribe)
        self._entry(r.match)
        subs = self.subscriptions.get(r.match, {})
        if r.seat not in subs:
            raise ProtocolError("bad_request", f"seat {r.seat} of {r.match!r} is not subscribed")
        del subs[r.seat]
        return {}

    def update_for(self, sub: Any) -> dict[str, Any]:
        """The update pushed to a subscriber (``sub``: ``match_id``, ``seat``, ``token``,
        ``next_event``; its ``next_event`` moves on): ``{"type": "update", "match", "seat",
        "view", "layout", "events", "log", "game", "title", "reset"}``: the seat's view (as
        ``view`` answers), the game's table layout of that view
        (:func:`tcgcore.table_layout`, ``None`` for a game without the hook), its events
        since the last update (as ``events``), their log lines, and ``reset`` true when the
        log starts from the session's first event."""
        entry = self._entry(sub.match_id)
        since = sub.next_event
        ref = {"match": sub.match_id, "seat": sub.seat, "token": sub.token}
        spec, state = entry.match.spec, entry.match.state
        try:  # the operations themselves (not handle: an update spends no request)
            view = self.op_view(ref)
            layout = table_layout(spec, view["view"])
            events = self.op_events({**ref, "since": since})
            log = [line for line in (describe_event(spec, state, ev) for ev in events["events"])
                   if line.strip()]
        except ProtocolError as exc:
            return {"type": "error", "match": sub.match_id, "seat": sub.seat,
                    "error": {"code": exc.code, "message": str(exc), **exc.extra}}
        except Exception as exc:  # a game's hook failed: the decision stands, this push fails
            return {"type": "error", "match": sub.match_id, "seat": sub.seat,
                    "error": {"code": "internal", "message": f"{type(exc).__name__}: {exc}"}}
        sub.next_event = events["next"]
        return {"type": "update", "match": sub.match_id, "seat": sub.seat, "view": view["view"],
                "layout": layout, "events": events["events"], "log": log, "game": entry.match.game,
                "title": spec.title, "reset": since == 0}

    def notify(self, match_id: str) -> None:
        """Queue in :attr:`outbox` an update for every subscriber of ``match_id``."""
        for sub in list(self.subscriptions.get(match_id, {}).values()):
            self.outbox.append(self.update_for(sub))

    def take_updates(self) -> list[dict[str, Any]]:
        """The queued updates, oldest first; the queue is then empty."""
        out, self.outbox = self.outbox, []
        return out

    def op_save(self, req: dict[str, Any]) -> dict[str, Any]:
        """``save``: the whole match (hidden information included), admin token required."""
        r = _convert(req, _AdminReq)
        entry = self._entry(r.match)
        self._admin(entry, r.admin_token)
        match = entry.match
        if r.format == "json":
            text = match.to_json()
            return {"format": "json", "data": text.decode(), "signature": sign_save(self._key, text)}
        data = match.to_bytes()
        return {"format": "msgpack", "data": base64.b64encode(data).decode(),
                "signature": sign_save(self._key, data)}

    def op_replay(self, req: dict[str, Any]) -> dict[str, Any]:
        """``replay``: the replay record so far, admin token required."""
        r = _convert(req, _AdminReq)
        entry = self._entry(r.match)
        self._admin(entry, r.admin_token)
        record = entry.match.replay()
        if r.format == "json":
            return {"format": "json", "data": record.to_json().decode()}
        return {"format": "msgpack", "data": base64.b64encode(record.to_bytes()).decode()}

    def op_load(self, req: dict[str, Any]) -> dict[str, Any]:
        """``load``: continue a saved match as a new match id with fresh tokens."""
        r = _convert(req, _Load)
        # base64 is 4 bytes per 3; refuse before decoding anything
        if len(r.data) > (self.max_save if r.format == "json" else (self.max_save + 2) // 3 * 4):
            raise ProtocolError("too_large", f"a save of more than {self.max_save} bytes")
        if r.format == "json":
            data = r.data.encode()
        else:
            try:
                data = base64.b64decode(r.data, validate=True)
            except (binascii.Error, ValueError) as exc:
                raise ProtocolError("bad_request", f"data is not base64: {exc}") from None
        if len(data) > self.max_save:  # (a JSON text of multi-byte characters)
            raise ProtocolError("too_large", f"a save of more than {self.max_save} bytes")
        self._trust(data, r.signature, r.admin_token)
        if len(self.matches) >= self.max_matches:
            raise ProtocolError("limit", f"this session already holds {self.max_matches} matches")
        try:
            if r.format == "json":
                match = Match.from_json(data, registry=self.registry, game=r.game)
            else:
                match = Match.from_bytes(data, registry=self.registry, game=r.game)
        except UnknownGameError as exc:
            raise ProtocolError("unknown_game", str(exc)) from None
        except (FormatVersionError, GameMismatchError) as exc:
            raise ProtocolError("incompatible", str(exc)) from None
        except StateDecodeError as exc:
            raise ProtocolError("bad_save", str(exc)) from None
        return self._register(match)

    def _trust(self, data: bytes, signature: str | None, admin_token: str | None) -> None:
        """Refuse a save this server did not sign, unless the operator's admin token is given.

        Raises:
            ProtocolError: ``forbidden``, before the save is decoded.
        """
        if signature is not None and hmac.compare_digest(
                signature.encode(), sign_save(self._key, data).encode()):
            return
        operator = self._admin_token
        if operator and admin_token is not None and hmac.compare_digest(
                admin_token.encode(), operator.encode()):
            return
        raise ProtocolError("forbidden", "this server did not sign this save: loading an unsigned "
                                         "or foreign save needs the operator's admin_token")

    def op_close(self, req: dict[str, Any]) -> dict[str, Any]:
        """``close``: forget a match (admin token required)."""
        r = _convert(req, _AdminReq)
        entry = self._entry(r.match)
        self._admin(entry, r.admin_token)
        del self.matches[r.match]
        self.subscriptions.pop(r.match, None)
        return {}

    def op_bye(self, req: dict[str, Any]) -> dict[str, Any]:
        """``bye``: end the session after this response."""
        self.closed = True
        return {}


def serve_stdio(inp: BinaryIO, out: BinaryIO, registry: Registry | None = None) -> int:
    """Run the protocol on binary streams until end of input or ``bye``; returns 0.

    Blank lines are ignored; a line longer than :data:`MAX_LINE` bytes is answered with a
    ``bad_request`` error and skipped. The updates of subscribed seats (``subscribe``) are
    written after the response of the request that caused them, one line each.
    """
    server = Server(registry)
    while not server.closed:
        line = inp.readline(MAX_LINE + 1)
        if not line:
            break
        if len(line) > MAX_LINE and not line.endswith(b"\n"):
            while True:  # skip the rest of the over-long line
                rest = inp.readline(MAX_LINE)
                if not rest or rest.endswith(b"\n"):
                    break
            response = server._encode({"id": None, "ok": False, "error": {
                "code": "bad_request", "message": f"request longer than {MAX_LINE} bytes"}})
        elif not line.strip():
            continue
        else:
            response = server.handle_line(line)
        out.write(response + b"\n")
        for update in server.take_updates():
            out.write(server._encode(update) + b"\n")
        out.flush()
    return 0

