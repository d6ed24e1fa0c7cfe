"""The web table (``tcgcore web``): lobby, WebSocket pushes, agents, saves, persistence, limits
and what each seat's frames carry. Real servers (uvicorn in a thread, or a ``tcgcore web``
process) and real WebSocket clients; the browser tests are in ``test_web_browser.py``.

Skipped without the ``web`` extra unless ``TCGCORE_EXPECT_WEB=1`` (CI)."""

from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path
from typing import Any

import pytest

from .web_server import (
    Page,
    Process,
    guimi_leak_words,
    hidden_codes,
    in_process,
    open_ws,
    post,
    web_extra_or_skip,
)

web_extra_or_skip()

from websockets.exceptions import ConnectionClosed, InvalidStatus  # noqa: E402

import tcgcore  # noqa: E402
from tcgcore._views import build_view  # noqa: E402


def _create(base: str, **body: Any) -> dict[str, Any]:
    answer: dict[str, Any] = post(base + "/api/matches", body)
    assert answer["ok"], answer
    return answer


def _first_keys(view: dict[str, Any]) -> list[str]:
    """The first legal answer: the first ``min`` options (a choice's defaults are left out
    of its JSON: ``min`` and ``max`` 1, ``seq`` 0)."""
    pend = view["pending"]
    return [o["key"] for o in pend["options"][: pend.get("min", 1)]]


def _play(pages: dict[int, Page], limit: int = 2000) -> dict[str, Any]:
    """Answer every pending choice with its first legal keys until the match ends; each page
    reads all its pushes. Returns the final view of seat 0."""
    for _ in range(limit):
        for page in pages.values():
            page.drain()
        view = next(iter(pages.values())).view
        assert view is not None
        if view.get("result"):
            return view
        seat = view["waiting_for"]
        page = pages[seat]
        assert page.view is not None and page.view["pending"] is not None
        answer = page.request({"op": "choose", "keys": _first_keys(page.view),
                               "seq": page.view["pending"].get("seq", 0)})
        assert answer["ok"], answer
        page.wait_update()
    raise AssertionError("the match did not end")


def test_sparks_played_over_websockets_against_an_agent() -> None:
    """A lobby match with a person and the random agent: the person's page gets its view and
    log pushed after every change, the agent answers by itself, and the match ends."""
    with in_process() as srv:
        games = json.loads(__import__("urllib.request").request.urlopen(srv.url + "/api/games").read())
        assert {"sparks", "guimi_revival", "arkham_card"} <= {g["name"] for g in games["games"]}
        assert all("ismcts" in g["agents"] for g in games["games"])
        made = _create(srv.url, game="sparks", seed=5, seats=["human", "random"])
        page = Page(srv.url, made["match"], 0, made["tokens"][0])
        assert page.view is not None and page.view["viewer"] == 0
        assert page.view["pending"]["prompt"]
        final = _play({0: page})
        assert final["result"]["winners"] or final["result"]["draw"]
        assert any("draws" in line for line in page.log)
        page.close()


def test_replay_viewer_steps_through_the_spectators_views() -> None:
    """``/api/replay/<match>?step=N`` is the spectator's view after N decisions (the same as
    a spectator saw live) with the spectator's log so far; steps back re-play from the seed."""
    import urllib.request
    with in_process() as srv:
        made = _create(srv.url, game="sparks", seed=5, seats=["random", "random"])
        mid = made["match"]
        deadline = time.monotonic() + 30
        while srv.hub.matches[mid].match.result is None and time.monotonic() < deadline:
            time.sleep(0.05)
        match = srv.hub.matches[mid].match
        assert match.result is not None
        steps = len(match.decisions)

        def step(n: int) -> dict[str, Any]:
            with urllib.request.urlopen(f"{srv.url}/api/replay/{mid}?step={n}") as res:
                got: dict[str, Any] = json.loads(res.read())
            return got

        last = step(steps)
        assert last["steps"] == steps and last["view"]["result"]["winners"] == match.result.winners
        # the end shows every seat's cards (the omniscient view); before it, public facts only
        assert last["over"] and last["view"] == json.loads(tcgcore_json(
            build_view(match.spec, match.state, None, omniscient=True)))
        assert not step(steps - 1)["over"]
        early = step(3)
        again = step(2)
        assert early["view"] != again["view"] and len(again["log"]) < len(early["log"])
        assert "pending" not in early["view"]
        with pytest.raises(urllib.error.HTTPError):
            step(steps + 1)


def test_replay_frames_hide_every_unseen_card_until_the_end() -> None:
    """The replay viewer of a finished Guimi match: at every step before the end, the frame
    (view and layout) holds no code of a card the spectator could not see at that step (hands,
    decks, face-down cards); at the end it shows them (every seat's cards)."""
    import urllib.request
    with in_process() as srv:
        made = _create(srv.url, game="guimi_revival", seed=11, seats=["random", "random"])
        mid = made["match"]
        deadline = time.monotonic() + 120
        while srv.hub.matches[mid].match.result is None and time.monotonic() < deadline:
            time.sleep(0.1)
        src = srv.hub.matches[mid].match
        assert src.result is not None
        steps = len(src.decisions)
        replay = tcgcore.new_match("guimi_revival", seed=src.seed, **dict(src.options))
        checked = 0
        for n in range(steps + 1):
            if n:
                d = src.decisions[n - 1]
                replay.choose(d.player, d.keys)
            if n % 7 and n != steps:
                continue
            with urllib.request.urlopen(f"{srv.url}/api/replay/{mid}?step={n}") as res:
                frame = json.loads(res.read())
            seen = {c.code for z in replay.view(None).zones for c in z.cards if c and c.code}
            hidden = {c.code for c in replay.state.cards if c.code} - seen
            text = json.dumps({"view": frame["view"], "layout": frame["layout"]})
            leaked = {code for code in hidden if f'"{code}"' in text}
            if n < steps:
                assert not frame["over"] and leaked == set(), (n, leaked)
                checked += 1
            else:
                assert frame["over"] and hidden and leaked, "the end shows the hidden cards"
        assert checked > 5


def tcgcore_json(value: Any) -> bytes:
    import msgspec
    return msgspec.json.encode(value)


def test_join_needs_the_seats_own_secret_and_a_page_acts_only_as_its_seat() -> None:
    with in_process() as srv:
        made = _create(srv.url, game="sparks", seed=1, seats=["human", "human"])
        for seat, token in ((0, made["tokens"][1]), (1, "x" * 24), (0, None), (5, made["tokens"][0])):
            ws = open_ws(srv.url)
            ws.send(json.dumps({"op": "join", "match": made["match"], "seat": seat, "token": token}))
            assert json.loads(ws.recv(timeout=10))["error"]["code"] == "forbidden"
            with pytest.raises(ConnectionClosed):
                ws.recv(timeout=10)
        p0 = Page(srv.url, made["match"], 0, made["tokens"][0])
        p1 = Page(srv.url, made["match"], 1, made["tokens"][1])
        watcher = Page(srv.url, made["match"], None, None)
        assert watcher.view is not None and "pending" not in watcher.view
        # the match waits on seat 0; seat 1 naming seat 0 (and its token) still acts as seat 1
        assert p0.view is not None and p0.view["waiting_for"] == 0
        other = p1.request({"op": "choose", "seat": 0, "token": made["tokens"][0],
                            "keys": _first_keys(p0.view)})
        assert other["error"]["code"] == "illegal_choice"
        assert srv.hub.matches[made["match"]].match.decisions == []
        assert watcher.request({"op": "choose", "keys": []})["error"]["code"] in (
            "bad_request", "forbidden")
        assert p0.request({"op": "create", "game": "sparks"})["error"]["code"] == "unknown_op"
        assert p0.request({"op": "save"})["error"]["code"] == "forbidden"
        for page in (p0, p1, watcher):
            page.close()


def test_cross_origin_websocket_and_post_are_refused() -> None:
    with in_process() as srv:
        made = _create(srv.url, game="sparks", seed=1, seats=["human", "human"])
        with pytest.raises(InvalidStatus):
            Page(srv.url, made["match"], 0, made["tokens"][0], origin="http://evil.example")
        refused = post(srv.url + "/api/matches", {"game": "sparks"}, origin="http://evil.example")
        assert refused["error"]["code"] == "forbidden"


def test_rate_and_size_limits() -> None:
    from tcgcore._web import MAX_MESSAGE, RATE_BURST
    with in_process() as srv:
        made = _create(srv.url, game="sparks", seed=1, seats=["human", "human"])
        page = Page(srv.url, made["match"], 0, made["tokens"][0])
        for _ in range(RATE_BURST + 10):
            page.ws.send(json.dumps({"op": "status"}))
        codes = []
        for _ in range(RATE_BURST + 10):
            msg = page.recv()
            codes.append(msg.get("error", {}).get("code"))
        assert "rate_limited" in codes
        page.close()
        page = Page(srv.url, made["match"], 0, made["tokens"][0])
        page.ws.send("x" * (MAX_MESSAGE + 10))
        with pytest.raises(ConnectionClosed):
            page.recv()
        page = Page(srv.url, made["match"], 0, made["tokens"][0])
        page.ws.send(b'{"op": "status"}')  # binary frames are not the protocol
        with pytest.raises(ConnectionClosed):
            page.recv()


def test_card_catalogue_through_the_presentation_hook() -> None:
    with in_process() as srv:
        made = _create(srv.url, game="guimi_revival", seed=2, seats=["human", "human"],
                       options={"decks": ["seer", "hunter"]})
        page = Page(srv.url, made["match"], 0, made["tokens"][0])
        assert page.view is not None
        codes = [c["code"] for z in page.view["zones"] for c in z.get("cards", []) if c and c.get("code")]
        en = page.request({"op": "catalogue", "codes": codes, "lang": "en"})["cards"]
        zh = page.request({"op": "catalogue", "codes": codes, "lang": "zh_Hans"})["cards"]
        spec = tcgcore.default_registry().game("guimi_revival")
        for code in codes:
            assert en[code]["name"] and en[code]["name"] in spec.card_name(code)  # type: ignore[misc]
            assert zh[code]["name"] != en[code]["name"] and zh[code]["lang"] == "zh_Hans"
        beyonders = [c for c in en.values() if "strength" in c.get("stats", {})]
        assert beyonders and all("agility" in c["stats"] for c in beyonders)
        arkham = tcgcore.default_registry().game("arkham_card")
        info = tcgcore.card_info(arkham, "01116", "en")  # Ghoul Priest: an enemy's numbers
        assert info is not None and {"fight", "evade", "damage", "horror"} <= set(info.stats)
        machete = tcgcore.card_info(arkham, "01020", "en")
        assert machete is not None and machete.cost == "3" and "combat" in machete.icons
        # a game without the hook (Sparks): its card_name and card_text hooks
        from tcgcore.examples.sparks import CARDS
        sparks = tcgcore.default_registry().game("sparks")
        code = next(iter(CARDS))
        assert sparks.card_info is None
        got = tcgcore.card_catalogue(sparks, [code, "no-such-card"], "zh_Hans")
        assert list(got) == [code] and got[code].name == CARDS[code][0]
        assert got[code].text == sparks.card_text(code)  # type: ignore[misc]
        page.close()


def test_frames_of_a_seat_never_carry_the_other_seats_hidden_cards() -> None:
    """Guimi with different decks: every frame seat 0 receives (views with their
    choices, events, log lines) is free of the codes and names of seat 1's cards it has not seen."""
    with in_process() as srv:
        made = _create(srv.url, game="guimi_revival", seed=11, seats=["human", "human"],
                       options={"decks": ["seer", "hunter"]})
        mid = made["match"]
        pages = {s: Page(srv.url, mid, s, made["tokens"][s]) for s in (0, 1)}
        known: set[str] = set()
        checked = 0
        forbidden_seen = set()
        for _ in range(60):
            for page in pages.values():
                page.drain()
            hidden = hidden_codes(srv.hub, mid, 0, known)
            forbidden_seen |= hidden
            words = guimi_leak_words(hidden, known)
            for frame in pages[0].frames[checked:]:
                flat = json.dumps(json.loads(frame), ensure_ascii=False)
                leaked = [w for w in words if w in flat]
                assert not leaked, leaked
            checked = len(pages[0].frames)
            view = pages[0].view
            assert view is not None
            if view.get("result"):
                break
            page = pages[view["waiting_for"]]
            assert page.view is not None
            answer = page.request({"op": "choose", "keys": _first_keys(page.view)})
            assert answer["ok"], answer
        assert forbidden_seen, "the test saw no hidden card of seat 1"


def test_save_and_resume_from_the_admin_link() -> None:
    with in_process() as srv:
        made = _create(srv.url, game="sparks", seed=3, seats=["human", "human"])
        p0 = Page(srv.url, made["match"], 0, made["tokens"][0])
        assert p0.view is not None
        p0.request({"op": "choose", "keys": []})
        admin = Page(srv.url, made["match"], None, None, admin=made["admin_token"])
        save = admin.request({"op": "save"})
        assert save["ok"] and save["signature"]
        resumed = post(srv.url + "/api/load", {"data": save["data"], "signature": save["signature"]})
        assert resumed["ok"] and resumed["match"] != made["match"]
        assert set(resumed["tokens"]).isdisjoint(made["tokens"])
        before = srv.hub.matches[made["match"]].match
        after = srv.hub.matches[resumed["match"]].match
        assert after.digest() == before.digest()
        forged = post(srv.url + "/api/load", {"data": save["data"], "signature": "0" * 64})
        assert forged["error"]["code"] == "forbidden"


def _wait_decisions(base: str, page: Page, n: int) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        status = page.request({"op": "status"})["status"]
        if status["result"] is not None or (status["seq"] is not None and status["seq"] >= n):
            return
        time.sleep(0.05)


def test_a_killed_server_restarts_with_every_match_at_its_last_decision(tmp_path: Path) -> None:
    """SIGKILL mid-game: the restarted server has every match at its last accepted decision,
    under the same links (match ids and seat secrets), with its log re-played."""
    db = tmp_path / "web.sqlite3"
    server = Process(db)
    try:
        sparks = _create(server.url, game="sparks", seed=9, seats=["human", "human"])
        guimi = _create(server.url, game="guimi_revival", seed=4, seats=["human", "random"],
                        options={"decks": ["seer", "hunter"]})
        statuses = {}
        for made, steps in ((sparks, 7), (guimi, 5)):
            pages = {s: Page(server.url, made["match"], s, made["tokens"][s])
                     for s, kind in enumerate(made["seats"]) if kind == "human"}
            for _ in range(steps):
                for page in pages.values():
                    page.drain()
                view = pages[0].view
                assert view is not None
                page = pages[view["waiting_for"]]
                assert page.view is not None
                assert page.request({"op": "choose", "keys": _first_keys(page.view)})["ok"]
            for page in pages.values():
                page.drain(0.3)
            statuses[made["match"]] = (pages[0].view, pages[0].request({"op": "status"})["status"])
            for page in pages.values():
                page.close()
        os.kill(server.proc.pid, signal.SIGKILL)
        server.proc.wait(10)
    finally:
        server.kill()
    again = Process(db)
    try:
        for made in (sparks, guimi):
            page = Page(again.url, made["match"], 0, made["tokens"][0])
            old_view, old_status = statuses[made["match"]]
            assert page.request({"op": "status"})["status"] == old_status
            assert page.view == old_view
            assert page.log, "the log is re-played from the decisions"
            page.close()
    finally:
        again.kill()


def test_interface_catalogues_cover_every_message_of_the_pages() -> None:
    """Every ``_()``/``N_()`` message of the page scripts is in the template and translated in
    both Chinese catalogues; the server hands a page its language's catalogue."""
    from babel.messages.extract import extract_from_dir

    from tcgcore._web._i18n import LOCALE_DIR, catalogue, pick_language
    static = LOCALE_DIR.parent / "static"
    found = {msg for _f, _l, msg, _c, _x in extract_from_dir(
        str(static), method_map=[("**.js", "javascript")], keywords={"_": None, "N_": None})}
    assert len(found) > 50
    for lang in ("zh_Hans", "zh_Hant"):
        table = catalogue(lang)
        assert found <= set(table), sorted(found - set(table))
    assert catalogue("zh_Hans")["Game log"] != catalogue("zh_Hant")["Game log"]
    assert pick_language(None, "zh-TW,zh;q=0.8") == "zh_Hant"
    assert pick_language(None, "zh-CN") == "zh_Hans"
    assert pick_language("zh_Hant", "en") == "zh_Hant"
    assert pick_language("xx", None) == "en"
    with in_process() as srv:
        import urllib.request
        with urllib.request.urlopen(srv.url + "/api/strings?lang=zh_Hans") as res:
            got = json.loads(res.read())
        assert got["lang"] == "zh_Hans" and got["messages"]["Create match"] == "创建对局"


def test_pages_load_nothing_from_outside_the_server() -> None:
    """No CDN and no build step: the pages' assets are plain files of the package, and none
    of them names another host; every page is served with a same-origin policy."""
    from tcgcore._web import STATIC
    for path in STATIC.iterdir():
        text = path.read_text(encoding="utf-8")
        assert "http://" not in text and "https://" not in text and "//cdn" not in text, path.name
    with in_process() as srv:
        import urllib.request
        with urllib.request.urlopen(srv.url + "/") as res:
            assert "default-src 'self'" in res.headers["Content-Security-Policy"]
            assert b"/static/lobby.js" in res.read()


def test_tcgcore_web_listens_on_this_machine_unless_told() -> None:
    from tcgcore.cli import build_parser
    args = build_parser().parse_args(["web"])
    assert (args.host, args.port, args.lang) == ("127.0.0.1", 8000, None)
    args = build_parser().parse_args(["web", "--host", "0.0.0.0", "--port", "0", "--db", "x.db",
                                      "--lang", "zh_Hant"])
    assert (args.host, args.port, args.db, args.lang) == ("0.0.0.0", 0, "x.db", "zh_Hant")


def test_undo_for_the_one_person_of_a_match_against_agents(tmp_path: Path) -> None:
    """A person against an agent takes a decision back: the match goes back to that choice
    (re-played from the seed), is stored so, and the page's log starts again; a match of two
    people has no undo."""
    db = tmp_path / "undo.sqlite3"
    with in_process(str(db)) as srv:
        made = _create(srv.url, game="sparks", seed=4, seats=["human", "random"])
        mid = made["match"]
        page = Page(srv.url, mid, 0, made["tokens"][0])
        assert page.view is not None
        first = page.view["pending"]
        assert page.request({"op": "choose", "keys": _first_keys(page.view)})["ok"]
        page.wait_update()
        page.drain(0.3)
        assert page.view["pending"] != first
        assert page.request({"op": "undo"})["ok"]
        update = page.wait_update()
        assert update["reset"] and page.view["pending"] == first
        assert srv.hub.matches[mid].match.decisions == []
        two = _create(srv.url, game="sparks", seed=4, seats=["human", "human"])
        other = Page(srv.url, two["match"], 0, two["tokens"][0])
        assert other.request({"op": "undo"})["error"]["code"] == "forbidden"
        page.close()
        other.close()
    with in_process(str(db)) as srv:  # stored as undone
        assert srv.hub.matches[mid].match.decisions == []


def test_tcgcore_web_names_a_database_it_cannot_open(tmp_path: Path) -> None:
    import subprocess
    import sys
    done = subprocess.run([sys.executable, "-m", "tcgcore", "web", "--port", "0", "--db",
                           str(tmp_path / "missing" / "x.db")], capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == 2 and "cannot use" in done.stderr and "x.db" in done.stderr


def test_a_pages_push_is_the_stdio_update_and_its_choices_carry_targets() -> None:
    """One protocol: the update a page is pushed has the fields of the update ``subscribe``
    pushes over ``serve --stdio`` plus the web table's ``seats`` and ``can_undo``; its view's
    choice names each option's card, zone and slot (``target``) as ``view`` does for stdio."""
    from tcgcore._serve import Server
    with in_process() as srv:
        made = _create(srv.url, game="guimi_revival", seed=3, seats=["human", "human"],
                       options={"decks": ["seer", "hunter"]})
        mid = made["match"]
        seat = srv.hub.matches[mid].match.pending.player
        page = Page(srv.url, mid, seat, made["tokens"][seat])
        update = json.loads(page.frames[-1])
        server = Server(tcgcore.default_registry())
        created = server.handle({"op": "create", "game": "sparks", "seed": 1})
        server.handle({"op": "subscribe", "match": created["match"], "seat": 0,
                       "token": created["tokens"][0]})
        (stdio,) = server.take_updates()
        assert set(update) == set(stdio) | {"seats", "can_undo"}
        assert (update["match"], update["seat"], update["reset"]) == (mid, seat, True)
        assert page.request({"op": "view"})["view"] == update["view"]
        options = update["view"]["pending"]["options"]
        with_card = [o for o in options if "card" in o]
        assert with_card and all(o["target"]["card"] == o["card"] for o in with_card)
        zones = {z["id"]: z for z in update["view"]["zones"]}
        for option in with_card:
            target = option["target"]
            if "zone" in target:
                assert zones[target["zone"]]["cards"][target["slot"]]["id"] == option["card"]
        page.close()
