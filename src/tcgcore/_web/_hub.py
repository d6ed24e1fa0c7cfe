"""The web table's matches: the ``serve`` protocol (:class:`tcgcore._serve.Server`) plus seats
played by agents, pushes to connected pages and persistence.

Every request a page sends over its WebSocket is a request of the JSON-lines protocol
(``docs/protocol.md``); the hub fills in the match, seat and token the connection joined with
(so a page can only act as its own seat) and lets :meth:`Server.handle` answer it. After every
accepted decision the hub stores it (:mod:`._store`), lets agent seats answer, and pushes to
each page its own seat's view and events, computed by the same protocol operations.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

import msgspec

from .._agents import Agent, make_agent
from .._errors import IllegalChoice, OptionsError, TcgcoreError, UnknownGameError
from .._identity import seat_event
from .._match import Match, _create
from .._plugins import Registry
from .._presentation import table_layout
from .._serve import ProtocolError, Server, _Entry
from .._terminal import describe_event
from .._views import build_view
from ._store import MatchRow, Store

__all__ = ["HUMAN", "WS_OPS", "Connection", "Hub"]

#: The seat kind of a person (any other seat kind is an agent name for ``make_agent``).
HUMAN = "human"

#: Protocol operations a page may send over its WebSocket (the others create, load and close
#: matches, which the lobby does over HTTP).
WS_OPS = frozenset({"hello", "games", "status", "view", "pending", "choose", "events",
                    "catalogue", "save", "replay"})

Send = Callable[[bytes], Awaitable[None]]


class Connection:
    """One joined page: its match, seat (``None``: spectator), token, language and the
    number of the next event it has not been sent."""

    __slots__ = ("admin", "lang", "match_id", "next_event", "seat", "send", "token")

    def __init__(self, send: Send, match_id: str, seat: int | None, token: str | None,
                 admin: str | None, lang: str) -> None:
        self.send = send
        self.match_id = match_id
        self.seat = seat
        self.token = token
        self.admin = admin
        self.lang = lang
        self.next_event = 0


class Hub(Server):
    """The serve protocol's server, holding the web table's matches.

    Args:
        store: where matches are kept (every match of it is restored now).
        registry: where to find games (default: installed plugins).
        save_key: the key saves are signed with (see :class:`Server`).
    """

    def __init__(self, store: Store, registry: Registry | None = None, *,
                 save_key: bytes | str | None = None) -> None:
        # every page of the server is one protocol session here: the web table limits each
        # page by itself (tcgcore._web), so the protocol's session-wide request bucket would
        # let one page starve the others (rate=None)
        super().__init__(registry, save_key=save_key, rate=None)
        self.store = store
        self.seats: dict[str, list[str]] = {}
        self.agents: dict[str, dict[int, Agent]] = {}
        self.connections: dict[str, list[Connection]] = {}
        self.locks: dict[str, asyncio.Lock] = {}
        self.restore_problems: list[str] = []
        self._tasks: set[asyncio.Task[None]] = set()
        self._replays: dict[str, Match[Any]] = {}
        for row in store.rows():
            try:
                self._restore(row)
            except (TcgcoreError, ValueError, msgspec.DecodeError) as exc:
                self.restore_problems.append(f"{row.id}: {exc}")

    # ---- matches
    def _install(self, match_id: str, match: Match[Any], tokens: list[str], admin: str,
                 seats: list[str]) -> None:
        entry = _Entry(match)
        entry.tokens = tokens
        entry.admin = admin
        self.matches[match_id] = entry
        self.seats[match_id] = seats
        self.agents[match_id] = {
            seat: make_agent(match.spec, kind, (match.seed * 1_000_003 + seat) % 2**64)
            for seat, kind in enumerate(seats) if kind != HUMAN}
        self.connections.setdefault(match_id, [])

    def create_match(self, game: str, *, players: int | None, seed: int | None,
                     options: dict[str, Any], seats: list[str]) -> dict[str, Any]:
        """A new match with one player kind per seat (``"human"`` or an agent name).

        Returns ``{"match", "tokens", "admin_token", "seats"}``.

        Raises:
            ProtocolError: ``unknown_game``, ``bad_options`` (a bad option, deck, seat count
                or agent name) or ``limit``.
        """
        if len(self.matches) >= self.max_matches:
            raise ProtocolError("limit", f"this server already holds {self.max_matches} matches")
        try:
            match = _create(game, seed=seed if seed is not None else secrets.randbits(63),
                            players=players, registry=self.registry, logger=None,
                            options=dict(options))
            n = match.state.num_players
            if len(seats) != n:
                raise OptionsError(f"{game}: {len(seats)} seat players given for {n} seats")
            for kind in seats:
                if kind != HUMAN:
                    make_agent(match.spec, kind, 0)
        except UnknownGameError as exc:
            raise ProtocolError("unknown_game", str(exc)) from None
        except (OptionsError, TcgcoreError, ValueError) as exc:
            raise ProtocolError("bad_options", str(exc)) from None
        match.meta["web_seats"] = list(seats)
        return self._add(match, seats)

    def _add(self, match: Match[Any], seats: list[str]) -> dict[str, Any]:
        match_id = secrets.token_hex(6)
        tokens = [secrets.token_urlsafe(18) for _ in range(match.state.num_players)]
        admin = secrets.token_urlsafe(18)
        self._install(match_id, match, tokens, admin, seats)
        self.store.add(match_id, match, tokens, admin, seats)
        return {"match": match_id, "tokens": tokens, "admin_token": admin, "seats": seats}

    def load_match(self, data: bytes, signature: str | None) -> dict[str, Any]:
        """A signed save (``save``'s answer) as a new match with new secrets; its seats are
        played as when it was saved (people, unless the save names agents).

        Raises:
            ProtocolError: as the protocol's ``load`` (``forbidden``, ``bad_save``, ...).
        """
        import base64
        answer = self.op_load({"data": base64.b64encode(data).decode(), "signature": signature})
        temp_id = answer["match"]
        match = self.matches.pop(temp_id).match
        n = match.state.num_players
        seats = match.meta.get("web_seats")
        if not (isinstance(seats, list) and len(seats) == n and all(isinstance(s, str) for s in seats)):
            seats = [HUMAN] * n
        return self._add(match, list(seats))

    def _restore(self, row: MatchRow) -> None:
        saved = Match.from_bytes(row.save, registry=self.registry, game=row.game)
        match: Match[Any] = saved
        try:
            rebuilt = _create(row.game, seed=saved.seed, players=saved.players,
                              registry=self.registry, logger=None, options=dict(saved.options))
            for seat, keys in row.decisions:
                rebuilt.choose(seat, keys)
            rebuilt.meta.update(saved.meta)
            if len(row.decisions) != len(saved.decisions) or rebuilt.digest() == saved.digest():
                match = rebuilt
        except (TcgcoreError, ValueError):
            match = saved
        self._install(row.id, match, row.tokens, row.admin, row.seats)

    def replay_step(self, match_id: str, step: int) -> dict[str, Any]:
        """The replay viewer: the spectator's view of ``match_id`` after its first ``step``
        decisions, and the spectator's log up to there. Public facts only until the match
        has ended, so any page may step through any match.

        Returns ``{"type": "replay", "view", "layout", "log", "step", "steps", "over",
        "game", "title", "seats"}``; ``over``: the last step of a finished match, whose view
        is the omniscient one (every seat's cards, the hidden ones included), since nothing
        is secret once the match has ended.

        Raises:
            ProtocolError: ``unknown_match``, or ``bad_request`` for a step outside
                ``0..steps``.
        """
        entry = self._entry(match_id)
        decisions = entry.match.decisions
        if not 0 <= step <= len(decisions):
            raise ProtocolError("bad_request", f"step must be 0..{len(decisions)}")
        match = self._replays.get(match_id)
        if match is None or len(match.decisions) > step:  # a step back: re-play from the start
            src = entry.match
            match = _create(src.game, seed=src.seed, players=src.players, registry=self.registry,
                            logger=None, options=dict(src.options))
        while len(match.decisions) < step:
            d = decisions[len(match.decisions)]
            match.choose(d.player, d.keys)
        self._replays[match_id] = match
        if len(self._replays) > 32:  # keep a few viewers' matches, not every one ever asked
            self._replays.pop(next(iter(self._replays)))
        state = match.state
        events = [seat_event(state, ev, None) for ev in match.events_since(0, player="all")]
        log = [line for line in (describe_event(match.spec, state, ev) for ev in events)
               if line.strip()]
        over = step == len(decisions) and match.result is not None
        # after the end every seat's cards are shown; before it only public facts
        view = build_view(match.spec, state, None, omniscient=True) if over else match.view(None)
        return {"type": "replay", "view": view, "layout": table_layout(match.spec, view),
                "log": log, "step": step, "over": over,
                "steps": len(decisions), "game": match.game, "title": match.spec.title,
                "seats": self.seats.get(match_id, [])}

    def can_undo(self, match_id: str, seat: int | None) -> bool:
        """Undo is for a match with one person (solo, or against agents only), as in the
        terminal: taking a decision back never changes what another person was shown. The
        seat must have decided at least once."""
        seats = self.seats.get(match_id, [])
        if seat is None or [s for s, kind in enumerate(seats) if kind == HUMAN] != [seat]:
            return False
        entry = self.matches.get(match_id)
        return entry is not None and any(d.player == seat for d in entry.match.decisions)

    def undo(self, match_id: str, seat: int) -> None:
        """Take back ``seat``'s last decision (and the agents' after it): the match is re-played
        from its seed up to that choice, stored, and its agents start afresh.

        Raises:
            ProtocolError: ``forbidden`` when :meth:`can_undo` says no.
        """
        if not self.can_undo(match_id, seat):
            raise ProtocolError("forbidden", "undo is only for the one person of a match "
                                             "against agents, after a decision of theirs")
        entry = self._entry(match_id)
        old = entry.match
        decisions = old.decisions
        cut = max(i for i, d in enumerate(decisions) if d.player == seat)
        match = _create(old.game, seed=old.seed, players=old.players, registry=self.registry,
                        logger=None, options=dict(old.options))
        for d in decisions[:cut]:
            match.choose(d.player, d.keys)
        match.meta.update(old.meta)
        self._install(match_id, match, entry.tokens, entry.admin, self.seats[match_id])
        self.store.truncate(match_id, match)
        for conn in self.connections.get(match_id, []):
            conn.next_event = 0

    def lock(self, match_id: str) -> asyncio.Lock:
        """The lock that orders decisions of one match."""
        lock = self.locks.get(match_id)
        if lock is None:
            lock = self.locks[match_id] = asyncio.Lock()
        return lock

    # ---- protocol
    def page_request(self, conn: Connection, request: Any) -> dict[str, Any]:
        """Answer one request of a joined page: its match, seat and token are the
        connection's, whatever the request says."""
        if not isinstance(request, dict):
            return self.handle(request)
        op = request.get("op")
        if op not in WS_OPS:
            return {"id": request.get("id"), "ok": False, "error": {
                "code": "unknown_op", "message": f"a page may send only {', '.join(sorted(WS_OPS))}"}}
        req = dict(request)
        entry = self.matches.get(conn.match_id)
        req["match"] = conn.match_id
        if op == "catalogue":
            req["game"] = entry.match.game if entry is not None else None
            req.setdefault("lang", conn.lang)
        elif op in ("save", "replay"):
            req["admin_token"] = conn.admin or ""
        else:
            req["seat"] = conn.seat
            req["token"] = conn.token
        return self.handle(req)

    def update_for(self, sub: Any) -> dict[str, Any]:
        """The push a page gets after a change: the protocol's update
        (:meth:`Server.update_for`: ``{"type": "update", "match", "seat", "view", "events",
        "log", "game", "title", "reset"}``) plus the web table's ``seats`` (who plays each)
        and ``can_undo``; ``reset``: the log starts again from the session's first event,
        after a join or an undo."""
        update = super().update_for(sub)
        if update["type"] == "update":
            update["seats"] = self.seats.get(sub.match_id, [])
            update["can_undo"] = self.can_undo(sub.match_id, sub.seat)
        return update

    async def push(self, match_id: str) -> None:
        """Send every page of ``match_id`` its update (a page that fails is dropped)."""
        for conn in list(self.connections.get(match_id, [])):
            try:
                await conn.send(self._encode(self.update_for(conn)))
            except Exception:  # a closed socket: forget it
                self.leave(conn)

    def join(self, conn: Connection) -> None:
        """Add a page to its match's pushes."""
        self.connections.setdefault(conn.match_id, []).append(conn)

    def leave(self, conn: Connection) -> None:
        """Remove a page from the pushes."""
        pages = self.connections.get(conn.match_id, [])
        if conn in pages:
            pages.remove(conn)

    async def after_decision(self, match_id: str) -> None:
        """Store the match, push, then let agent seats answer (storing and pushing after each)."""
        entry = self._entry(match_id)
        self.store.record(match_id, entry.match)
        await self.push(match_id)
        await self.run_agents(match_id)

    def kick(self, match_id: str) -> None:
        """Let agent seats of ``match_id`` answer in the background (under the match's lock),
        so a request that created or joined a match need not wait for them."""
        async def go() -> None:
            async with self.lock(match_id):
                await self.run_agents(match_id)
        task = asyncio.get_running_loop().create_task(go())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def run_agents(self, match_id: str) -> None:
        """Let agents answer while the match waits on an agent seat."""
        entry = self._entry(match_id)
        agents = self.agents.get(match_id, {})
        while True:
            match = entry.match
            choice = match.pending
            if match.result is not None or choice is None or choice.player not in agents:
                return
            agent = agents[choice.player]
            keys = await asyncio.to_thread(agent.decide, match, choice)
            try:
                match.choose(choice.player, keys)
            except IllegalChoice:  # an agent bug: leave the seat waiting
                return
            entry.record_events()
            self.store.record(match_id, match)
            await self.push(match_id)
