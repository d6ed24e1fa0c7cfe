"""Running the web table for tests: in this process (a uvicorn thread, so a test can read the
server's matches) or as a ``tcgcore web`` process (to kill it), plus a WebSocket client."""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tcgcore._identity import can_see


def web_extra_or_skip() -> None:
    """Skip the calling module without the web extra, unless ``TCGCORE_EXPECT_WEB=1`` (CI)."""
    import os

    import pytest
    if os.environ.get("TCGCORE_EXPECT_WEB") == "1":
        import babel  # noqa: F401
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
        import websockets  # noqa: F401
        return
    for name in ("starlette", "uvicorn", "websockets", "babel"):
        pytest.importorskip(name, reason="the web extra is not installed (pip install -e '.[web]'; "
                                         "TCGCORE_EXPECT_WEB=1 makes this fail)")


class InProcess:
    """``create_app`` served by uvicorn in a thread; ``hub`` is the server's :class:`Hub`."""

    def __init__(self, db: str = ":memory:") -> None:
        import uvicorn

        from tcgcore._web import MAX_MESSAGE, create_app
        self.app = create_app(db)
        self.hub = self.app.state.hub
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        from uvicorn.config import WS_PROTOCOLS
        ws = "websockets-sansio" if "websockets-sansio" in WS_PROTOCOLS else "websockets"
        config = uvicorn.Config(self.app, log_level="warning", ws_max_size=MAX_MESSAGE, ws=ws,
                                lifespan="off")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]},
                                       daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("the web server did not start")
            time.sleep(0.02)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)


@contextmanager
def in_process(db: str = ":memory:") -> Iterator[InProcess]:
    server = InProcess(db)
    try:
        yield server
    finally:
        server.stop()


class Process:
    """``tcgcore web --port 0 --db DB`` as a child process."""

    def __init__(self, db: Path) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tcgcore", "web", "--port", "0", "--db", str(db)],
            stdout=subprocess.PIPE, text=True)
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        found = re.search(r"http://[^/\s]+", line)
        if found is None:
            self.proc.kill()
            raise RuntimeError(f"tcgcore web said {line!r}")
        self.url = found.group(0)

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(10)
        if self.proc.stdout is not None:
            self.proc.stdout.close()


def post(url: str, body: Any, origin: str | None = None) -> Any:
    """POST JSON, return the decoded answer (error answers too)."""
    headers = {"Content-Type": "application/json"}
    if origin is not None:
        headers["Origin"] = origin
    req = urllib.request.Request(url, data=json.dumps(body).encode(), headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=30) as res:
            return json.loads(res.read())
    except urllib.error.HTTPError as exc:
        return json.loads(exc.read())


def open_ws(base: str, origin: str | None = None) -> Any:
    """A WebSocket connection to the server's ``/ws`` (entered as a context, as websockets
    asks; close it with ``.close()``)."""
    from websockets.sync.client import connect
    from websockets.typing import Origin
    ws_url = base.replace("http://", "ws://") + "/ws"
    return connect(ws_url, origin=Origin(origin or base), open_timeout=20, proxy=None,
                   max_size=None).__enter__()


class Page:
    """A WebSocket client joined as one seat (or a spectator), keeping every frame received."""

    def __init__(self, base: str, match: str, seat: int | None, token: str | None,
                 origin: str | None = None, admin: str | None = None) -> None:
        self.ws = open_ws(base, origin)
        self.frames: list[str] = []
        self.view: dict[str, Any] | None = None
        self.log: list[str] = []
        self.ws.send(json.dumps({"op": "join", "match": match, "seat": seat, "token": token,
                                 "admin": admin}))
        joined = self.recv()
        assert joined.get("type") == "joined", joined
        self.wait_update()

    def recv(self, timeout: float = 30) -> dict[str, Any]:
        text = self.ws.recv(timeout=timeout)
        assert isinstance(text, str)
        self.frames.append(text)
        msg: dict[str, Any] = json.loads(text)
        if msg.get("type") == "update":
            self.view = msg["view"]
            self.log.extend(msg["log"])
        return msg

    def wait_update(self, timeout: float = 30) -> dict[str, Any]:
        while True:
            msg = self.recv(timeout)
            if msg.get("type") == "update":
                return msg

    def drain(self, quiet: float = 0.05) -> None:
        """Read every frame that arrives until none has for ``quiet`` seconds."""
        while True:
            try:
                self.recv(timeout=quiet)
            except TimeoutError:
                return

    def request(self, req: dict[str, Any]) -> dict[str, Any]:
        """Send a protocol request, return its answer (updates on the way are kept)."""
        rid = int(time.monotonic_ns() % 10**9)
        self.ws.send(json.dumps({**req, "id": rid}))
        while True:
            msg = self.recv()
            if msg.get("id") == rid:
                return msg

    def close(self) -> None:
        self.ws.close()


def hidden_codes(hub: Any, match_id: str, seat: int, known: set[str]) -> set[str]:
    """Codes ``seat`` may know now (added to ``known``: the cards it sees or saw, its own
    deck list, cards its events and choices showed it), and the codes of the cards it cannot
    see now and never could: the hidden cards its frames must never name."""
    entry = hub.matches[match_id]
    state = entry.match.state
    for card in state.cards:  # what it sees, and its own deck list
        if card.owner == seat or can_see(seat, card, state.zones[card.zone]):
            known.add(card.code)
    for ev in entry.events:
        if ev.code is not None and ev.visible_to(seat):
            known.add(ev.code)
    pending = state.pending
    if pending is not None and pending.player == seat:
        for opt in pending.options:
            if opt.card is not None:
                known.add(state.cards[opt.card].code)
    return {c.code for c in state.cards if not can_see(seat, c, state.zones[c.zone])} - known


def guimi_leak_words(hidden: set[str], known: set[str]) -> set[str]:
    """What would name a hidden Guimi card: its code (as a JSON string) and its English and
    Chinese names, except a name found in a known card's text ("Faceless" in "Faceless
    Potion", the pathway "Red Priest" in a card of that pathway) or a Source's or pathway's
    name, which is no leak."""
    from tcgcore_guimi_revival.cards import get_pool, load_pathways
    from tcgcore_guimi_revival.plugin import card_text
    defs = get_pool("builtin").cards
    names = {defs[c].name_en for c in hidden} | {defs[c].name_zh for c in hidden}
    shown = [card_text(c) or "" for c in known]
    tables = load_pathways()  # Sources and pathways are public words, some shared with cards
    shown += [f"{d.name_en} {d.name_zh}" for d in tables.sources.values()]
    shown += [f"{d.name_en} {d.name_zh}" for d in tables.pathways.values()]
    return {f'"{c}"' for c in hidden} | {n for n in names if not any(n in other for other in shown)}
