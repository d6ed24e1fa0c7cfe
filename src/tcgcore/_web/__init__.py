"""``tcgcore web``: the web table (an ASGI application on Starlette, served by uvicorn).

Pages: the lobby (``/``) creates matches and loads saves; the table (``/table/<match>``) shows
one seat's view, pushed over a WebSocket (``/ws``) after every change. A seat's secret travels
only in the fragment of its invite link (``#s=<seat>&t=<secret>``), which browsers never send
to a server; the page sends it once, in its ``join`` message. Everything after ``join`` is a
request of the ``serve`` protocol (``docs/protocol.md``), answered by :class:`._hub.Hub`.
``docs/web.md`` describes the pages, the limits and the presentation hook.

Needs the optional ``web`` extra (``pip install "tcgcore[web]"``).
"""

from __future__ import annotations

import base64
import binascii
import socket
import sqlite3
import sys
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import msgspec
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from .._plugins import Registry
from .._presentation import LANGUAGES
from .._serve import ProtocolError
from ._hub import HUMAN, Connection, Hub
from ._i18n import LANGUAGE_NAMES, catalogue, pick_language
from ._store import Store

__all__ = ["MAX_MESSAGE", "RATE_BURST", "RATE_PER_SECOND", "create_app", "run"]

STATIC = Path(__file__).parent / "static"

#: Longest WebSocket message or HTTP body accepted, in bytes (a save travels inside one).
MAX_MESSAGE = 4 * 1024 * 1024
#: Requests a page may send per second on average, and in one burst.
RATE_PER_SECOND = 10.0
RATE_BURST = 30
#: A page that keeps sending past its rate this many times is disconnected.
RATE_STRIKES = 50

_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self'; "
                               "script-src 'self'; connect-src 'self'; frame-ancestors 'none'",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-store",
}


class _Bucket:
    """A token bucket: ``take()`` is False when the page sends faster than its rate."""

    __slots__ = ("level", "stamp", "strikes")

    def __init__(self) -> None:
        self.level = float(RATE_BURST)
        self.stamp = time.monotonic()
        self.strikes = 0

    def take(self) -> bool:
        now = time.monotonic()
        self.level = min(float(RATE_BURST), self.level + (now - self.stamp) * RATE_PER_SECOND)
        self.stamp = now
        if self.level < 1.0:
            self.strikes += 1
            return False
        self.level -= 1.0
        return True


def _same_origin(origin: str | None, host: str | None) -> bool:
    """A browser's ``Origin`` must name the server's own host and port (clients that are not
    browsers send none and are let through: they could not be stopped by it anyway)."""
    if origin is None:
        return True
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and host is not None and parts.netloc == host


def _json(data: Any, status: int = 200) -> Response:
    return Response(msgspec.json.encode(data), status_code=status, media_type="application/json",
                    headers=_HEADERS)


def create_app(db: str = ":memory:", *, registry: Registry | None = None, lang: str | None = None,
               save_key: bytes | str | None = None) -> Starlette:
    """The web table as an ASGI application.

    Args:
        db: the SQLite file matches are kept in (``":memory:"``: for this process only).
        registry: where to find games (default: installed plugins).
        lang: the interface language a page gets when it asks for none (one of
            :data:`tcgcore._presentation.LANGUAGES`); ``None``: the browser's
            ``Accept-Language``, else English.
        save_key: the key saves are signed with (default: ``TCGCORE_SERVE_KEY``, else a
            per-process secret).
    """
    hub = Hub(Store(db), registry, save_key=save_key)
    server_lang = lang if lang in LANGUAGES else None
    default_lang = server_lang or "en"

    def page(name: str) -> Response:
        return FileResponse(STATIC / name, headers=_HEADERS)

    async def lobby(request: Request) -> Response:
        return page("lobby.html")

    async def table(request: Request) -> Response:
        if request.path_params["match"] not in hub.matches:
            return Response("no such match", status_code=404, headers=_HEADERS)
        return page("table.html")

    async def replay_page(request: Request) -> Response:
        if request.path_params["match"] not in hub.matches:
            return Response("no such match", status_code=404, headers=_HEADERS)
        return page("table.html")

    async def replay_step(request: Request) -> Response:
        try:
            step = int(request.query_params.get("step", "0"))
        except ValueError:
            step = -1
        try:
            return _json(hub.replay_step(request.path_params["match"], step))
        except ProtocolError as exc:
            return error(exc)

    async def catalogue_http(request: Request) -> Response:
        """The ``catalogue`` request for pages without a WebSocket (the replay viewer)."""
        entry = hub.matches.get(request.path_params["match"])
        codes = [c for c in request.query_params.get("codes", "").split(",") if c]
        try:
            if entry is None:
                raise ProtocolError("unknown_match", "no such match")
            answer = hub.op_catalogue({"game": entry.match.game, "codes": codes,
                                       "lang": request.query_params.get("lang", default_lang)})
        except ProtocolError as exc:
            return error(exc)
        return _json({"ok": True, **answer})

    async def favicon(request: Request) -> Response:
        return Response(status_code=204, headers=_HEADERS)

    async def strings(request: Request) -> Response:
        chosen = pick_language(request.query_params.get("lang"),
                               request.headers.get("accept-language"), server_lang)
        return _json({"lang": chosen, "languages": LANGUAGE_NAMES, "messages": catalogue(chosen)})

    async def games(request: Request) -> Response:
        rows = hub.op_games({})["games"]
        for row in rows:
            spec = hub.registry.game(row["name"])
            row["agents"] = sorted({"random", "ismcts", *spec.agents})
            row["default_agent"] = spec.default_agent
        return _json({"games": rows, "human": HUMAN})

    async def body(request: Request) -> Any:
        if not _same_origin(request.headers.get("origin"), request.headers.get("host")):
            raise ProtocolError("forbidden", "cross-origin request")
        raw = await request.body()
        if len(raw) > MAX_MESSAGE:
            raise ProtocolError("bad_request", f"request longer than {MAX_MESSAGE} bytes")
        try:
            return msgspec.json.decode(raw)
        except msgspec.DecodeError as exc:
            raise ProtocolError("bad_json", f"not JSON: {exc}") from None

    def error(exc: ProtocolError) -> Response:
        status = 403 if exc.code == "forbidden" else 400
        return _json({"ok": False, "error": {"code": exc.code, "message": str(exc)}}, status)

    async def create(request: Request) -> Response:
        try:
            req = await body(request)
            if not isinstance(req, dict) or not isinstance(req.get("game"), str):
                raise ProtocolError("bad_request", "name the game")
            options = req.get("options") or {}
            seats = req.get("seats") or []
            players = req.get("players")
            seed = req.get("seed")
            if not isinstance(options, dict) or not isinstance(seats, list) or \
                    not all(isinstance(s, str) for s in seats) or \
                    (players is not None and type(players) is not int) or \
                    (seed is not None and type(seed) is not int):
                raise ProtocolError("bad_request", "options is an object, seats a list of "
                                                   "'human' or agent names, players and seed numbers")
            if not seats:
                spec = hub.registry.game(req["game"]) if req["game"] in hub.registry.names() else None
                n = players if players is not None else (spec.default_players if spec else 2)
                seats = [HUMAN] * n
            if players is None:
                players = len(seats)
            answer = hub.create_match(req["game"], players=players, seed=seed, options=options,
                                      seats=seats)
        except ProtocolError as exc:
            return error(exc)
        hub.kick(answer["match"])
        return _json({"ok": True, **answer})

    async def load(request: Request) -> Response:
        try:
            req = await body(request)
            if not isinstance(req, dict) or not isinstance(req.get("data"), str):
                raise ProtocolError("bad_request", "load needs data (the save, base64)")
            try:
                data = base64.b64decode(req["data"], validate=True)
            except (binascii.Error, ValueError) as exc:
                raise ProtocolError("bad_request", f"data is not base64: {exc}") from None
            signature = req.get("signature")
            answer = hub.load_match(data, signature if isinstance(signature, str) else None)
        except ProtocolError as exc:
            return error(exc)
        hub.kick(answer["match"])
        return _json({"ok": True, **answer})

    async def ws(websocket: WebSocket) -> None:
        if not _same_origin(websocket.headers.get("origin"), websocket.headers.get("host")):
            await websocket.close(code=1008)
            return
        await websocket.accept()
        bucket = _Bucket()
        conn: Connection | None = None

        async def send(data: bytes) -> None:
            await websocket.send_text(data.decode())

        try:
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    return
                text = message.get("text")
                if not isinstance(text, str):  # the protocol is text frames of JSON
                    await websocket.close(code=1003)
                    return
                if not bucket.take():
                    if bucket.strikes > RATE_STRIKES:
                        await websocket.close(code=1008)
                        return
                    await send(hub._encode({"id": None, "ok": False, "error": {
                        "code": "rate_limited", "message": "too many requests; slow down"}}))
                    continue
                if len(text) > MAX_MESSAGE:
                    await websocket.close(code=1009)
                    return
                try:
                    request = msgspec.json.decode(text)
                except msgspec.DecodeError as exc:
                    await send(hub._encode({"id": None, "ok": False, "error": {
                        "code": "bad_json", "message": f"not JSON: {exc}"}}))
                    continue
                if conn is None:
                    conn = _join(request, send)
                    if conn is None:
                        await send(hub._encode({"type": "error", "error": {
                            "code": "forbidden", "message": "join with a match, and a seat "
                            "with its secret (or none, to watch)"}}))
                        await websocket.close(code=1008)
                        return
                    hub.join(conn)
                    await send(hub._encode({"type": "joined", "match": conn.match_id,
                                            "seat": conn.seat, "admin": conn.admin is not None}))
                    await send(hub._encode(hub.update_for(conn)))
                    hub.kick(conn.match_id)  # a restored match may be waiting on an agent
                    continue
                await _request(conn, request, send)
        except WebSocketDisconnect:
            pass
        finally:
            if conn is not None:
                hub.leave(conn)

    def _join(request: Any, send: Any) -> Connection | None:
        if not isinstance(request, dict) or request.get("op") != "join":
            return None
        match_id, seat, token = request.get("match"), request.get("seat"), request.get("token")
        admin = request.get("admin")
        lang = request.get("lang")
        if not isinstance(match_id, str) or match_id not in hub.matches:
            return None
        entry = hub.matches[match_id]
        if seat is not None:
            try:
                hub._seat(entry, seat if type(seat) is int else -1,
                          token if isinstance(token, str) else None)
            except ProtocolError:
                return None
        if admin is not None:
            try:
                hub._admin(entry, admin if isinstance(admin, str) else "")
            except ProtocolError:
                return None
        return Connection(send, match_id, seat, token if seat is not None else None,
                          admin, lang if lang in LANGUAGES else default_lang)

    async def _request(conn: Connection, request: Any, send: Any) -> None:
        if isinstance(request, dict) and request.get("op") == "lang":
            if request.get("lang") in LANGUAGES:
                conn.lang = request["lang"]
            await send(hub._encode({"id": request.get("id"), "ok": True, "lang": conn.lang}))
            return
        if isinstance(request, dict) and request.get("op") == "undo":
            async with hub.lock(conn.match_id):
                try:
                    hub.undo(conn.match_id, conn.seat if conn.seat is not None else -1)
                except ProtocolError as exc:
                    await send(hub._encode({"id": request.get("id"), "ok": False, "error": {
                        "code": exc.code, "message": str(exc)}}))
                    return
                await send(hub._encode({"id": request.get("id"), "ok": True}))
                await hub.push(conn.match_id)
            return
        if isinstance(request, dict) and request.get("op") == "choose":
            async with hub.lock(conn.match_id):
                answer = hub.page_request(conn, request)
                await send(hub._encode(answer))
                if answer.get("ok"):
                    await hub.after_decision(conn.match_id)
            return
        await send(hub._encode(hub.page_request(conn, request)))

    routes = [
        Route("/", lobby),
        Route("/table/{match}", table),
        Route("/replay/{match}", replay_page),
        Route("/api/replay/{match}", replay_step),
        Route("/api/catalogue/{match}", catalogue_http),
        Route("/favicon.ico", favicon),
        Route("/api/strings", strings),
        Route("/api/games", games),
        Route("/api/matches", create, methods=["POST"]),
        Route("/api/load", load, methods=["POST"]),
        WebSocketRoute("/ws", ws),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes)
    app.state.hub = hub
    return app


def run(host: str = "127.0.0.1", port: int = 8000, db: str = "tcgcore-web.sqlite3",
        lang: str | None = None, out: Any = None) -> int:
    """Serve the web table until interrupted; prints the lobby's address first.

    ``port`` 0 picks a free port. Binding another host than the loopback one says so: the
    invite links carry the seats' secrets over plain HTTP, so put a TLS proxy in front.
    """
    import uvicorn

    stream = out if out is not None else sys.stdout
    try:
        app = create_app(db, lang=lang)
    except sqlite3.Error as exc:
        raise OSError(f"cannot use {db!r} as the match database: {exc}") from None
    for problem in app.state.hub.restore_problems:
        stream.write(f"tcgcore web: match {problem} (not restored)\n")
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(128)  # connections wait in the backlog until uvicorn accepts them
    bound = sock.getsockname()[1]
    if host not in ("127.0.0.1", "::1", "localhost"):
        stream.write(f"tcgcore web: serving on {host}, not only this machine: invite links carry "
                     "seat secrets, use HTTPS through a proxy\n")
    shown = f"[{host}]" if ":" in host else host
    stream.write(f"tcgcore web: lobby at http://{shown}:{bound}/ (matches in {db})\n")
    stream.flush()
    from uvicorn.config import WS_PROTOCOLS

    ws = "websockets-sansio" if "websockets-sansio" in WS_PROTOCOLS else "websockets"
    config = uvicorn.Config(app, log_level="warning", ws_max_size=MAX_MESSAGE, ws=ws,
                            lifespan="off")
    server = uvicorn.Server(config)
    server.run(sockets=[sock])
    return 0

