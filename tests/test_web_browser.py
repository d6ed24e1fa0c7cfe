"""The web table in a real browser: Playwright for Python driving Debian's Chromium
(``/usr/bin/chromium``; Playwright never downloads a browser here).

Two browser contexts play a whole Sparks match by clicking; a person plays a whole Guimi match
against an agent; an Arkham investigator plays a round; a page reloads and reconnects to the
same seat; a seat's page and its WebSocket frames never hold the other seat's hidden cards; the
Chinese interface renders.
Screenshots of each table go to ``TCGCORE_TEST_OUTPUT`` (default ``test-output/web``).

Skipped without Playwright, Chromium or the web extra, unless ``TCGCORE_EXPECT_BROWSER=1`` (CI)
turns the skip into a failure."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .web_server import InProcess, guimi_leak_words, hidden_codes, in_process, post, web_extra_or_skip

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]

if os.environ.get("TCGCORE_EXPECT_BROWSER") == "1":
    import playwright.sync_api  # noqa: F401  (CI: a missing Playwright fails here)
    assert Path(CHROMIUM).is_file(), f"{CHROMIUM} is missing (apt-get install chromium)"
else:
    pytest.importorskip("playwright.sync_api", reason="Playwright is not installed "
                        "(pip install playwright; TCGCORE_EXPECT_BROWSER=1 makes this fail)")
    if not Path(CHROMIUM).is_file():
        pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium; TCGCORE_EXPECT_BROWSER=1 "
                    "makes this fail)", allow_module_level=True)
web_extra_or_skip()

from playwright.sync_api import Browser, Page, sync_playwright  # noqa: E402

OUT = Path(os.environ.get("TCGCORE_TEST_OUTPUT", Path(__file__).parent.parent / "test-output" / "web"))


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def server() -> Iterator[InProcess]:
    with in_process() as srv:
        yield srv


def _shot(page: Page, name: str) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(OUT / f"{name}.png"), full_page=True)


def _open(browser: Browser, url: str, frames: list[str] | None = None) -> Page:
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    if frames is not None:
        page.on("websocket", lambda ws: ws.on(
            "framereceived", lambda payload: frames.append(payload if isinstance(payload, str)
                                                           else payload.decode())))
    page.goto(url)
    page.wait_for_selector("#conn[data-state=online]")
    page.wait_for_function("() => document.querySelector('#choice') && "
                           "(document.querySelector('#choice').children.length > 0)")
    assert not errors, errors
    setattr(page, "_errors", errors)  # noqa: B010
    return page


def _lobby_links(browser: Browser, base: str, game: str, seats: list[str],
                 options: dict[str, Any] | None = None) -> tuple[list[str], Page]:
    """Create a match by filling in the lobby; returns the seat links shown and the lobby."""
    page = browser.new_context(viewport={"width": 1200, "height": 900}).new_page()
    page.goto(base + "/")
    page.wait_for_selector("#create")
    page.select_option("#game", game)
    page.fill("#players", str(len(seats)))
    page.dispatch_event("#players", "change")
    page.fill("#seed", "7")
    if options:
        page.fill("#options", json.dumps(options))
    for seat, kind in enumerate(seats):
        page.select_option(f".seat-kind[data-seat='{seat}']", kind)
    page.click("#create")
    page.wait_for_selector("#created")
    links = [a.get_attribute("href") or "" for a in page.query_selector_all(".seat-link")]
    return links, page


def _answer(page: Page, last: bool = False) -> None:
    """Answer the page's pending choice by clicking: the first (``last``: the last) option of
    a one-of choice, else the first (last) ``min`` options and the confirm button; waits for
    the next choice."""
    box = page.locator("#choice")
    seq = box.get_attribute("data-seq")
    low = int(box.get_attribute("data-min") or "1")
    high = int(box.get_attribute("data-max") or "1")
    options = page.locator("#choice button.option")
    count = options.count()
    if low == 1 and high == 1:
        (options.last if last else options.first).click()
    else:
        for i in range(low):
            options.nth(count - 1 - i if last else i).click()
        page.click("#confirm")
    page.wait_for_function("s => document.querySelector('#choice').dataset.seq !== s", arg=seq)


def _mine(page: Page) -> bool:
    count: int = page.locator("#prompt").count()
    return count > 0


def _over(page: Page) -> bool:
    count: int = page.locator("#result").count()
    return count > 0


def test_two_browser_contexts_play_a_whole_sparks_match(browser: Browser, server: InProcess) -> None:
    links, lobby = _lobby_links(browser, server.url, "sparks", ["human", "human"])
    assert len(links) == 2 and all("#s=" in link and "&t=" in link for link in links)
    _shot(lobby, "lobby")
    pages = [_open(browser, link) for link in links]
    reloaded = False
    for _ in range(500):
        if all(_over(p) for p in pages):
            break
        for page in pages:
            page.wait_for_function("() => document.querySelector('#prompt') || "
                                   "document.querySelector('#result') || "
                                   "document.querySelector('#waiting')")
        turn = [p for p in pages if _mine(p)]
        if not turn:
            pages[0].wait_for_timeout(50)
            continue
        _answer(turn[0])
        if not reloaded and len(server.hub.matches[next(iter(server.hub.matches))].match.decisions) == 6:
            _shot(pages[0], "sparks-table")
            pages[0].reload()  # same link, same seat: the page joins again
            pages[0].wait_for_selector("#conn[data-state=online]")
            pages[0].evaluate("T.ws.close()")  # a dropped connection comes back by itself
            pages[0].wait_for_selector("#conn[data-state=offline]", timeout=5000)
            pages[0].wait_for_selector("#conn[data-state=online]")
            assert "seat 0" in (pages[0].text_content("#status") or "")
            reloaded = True
    assert reloaded and all(_over(p) for p in pages)
    assert "Game over" in (pages[1].text_content("#result") or "")
    _shot(pages[1], "sparks-over")
    pages[1].click("#replay-link")  # the replay viewer: public views after each decision
    pages[1].wait_for_selector("#replay-step")
    assert "0 of" in (pages[1].text_content("#replay-step") or "")
    pages[1].click("#replay-last")
    pages[1].wait_for_selector("#choice #result")
    pages[1].click("#replay-prev")
    pages[1].wait_for_function("() => !document.querySelector('#choice #result')")
    _shot(pages[1], "sparks-replay")
    for page in pages:
        assert not getattr(page, "_errors"), getattr(page, "_errors")  # noqa: B009


def test_a_guimi_match_to_the_end_against_an_agent_hides_the_agents_cards(
        browser: Browser, server: InProcess) -> None:
    """A person clicks through a whole Guimi match against the random agent (always the last
    option, which ends a match in a few dozen decisions); the person's page (its text and every
    WebSocket frame it receives) never names a card of the agent's it has not seen."""
    made = post(server.url + "/api/matches", {"game": "guimi_revival", "seed": 3,
                                              "seats": ["human", "random"],
                                              "options": {"decks": ["seer", "hunter"]}})
    assert made["ok"], made
    mid = made["match"]
    frames: list[str] = []
    page = _open(browser, f"{server.url}/table/{mid}#s=0&t={made['tokens'][0]}", frames)
    known: set[str] = set()
    checked = 0
    hidden_seen: set[str] = set()
    shot = targets = False
    for step in range(3000):
        if _over(page):
            break
        page.wait_for_function("() => document.querySelector('#prompt') || "
                               "document.querySelector('#result')")
        if step % 3 == 0:
            page.wait_for_timeout(100)  # the catalogue answers arrive
            hidden = hidden_codes(server.hub, mid, 0, known)
            hidden_seen |= hidden
            words = guimi_leak_words(hidden, known)
            text = page.content()
            bad = [w for w in words if w in text]
            if bad:
                i = text.index(bad[0])
                raise AssertionError((bad, step, text[max(0, i - 1500):i + 200]))
            for frame in frames[checked:]:
                flat = json.dumps(json.loads(frame), ensure_ascii=False)
                bad = [w for w in words if w in flat]
                if bad:
                    i = flat.index(bad[0])
                    raise AssertionError((bad, flat[max(0, i - 700):i + 200]))
            checked = len(frames)
        if step >= 12 and not shot and page.locator("#tableau .card.slot [data-label=strength]").count():
            # the Guimi layout: front and back rows, each unit with its current strength
            rows = page.text_content("#tableau") or ""
            assert "front row" in rows and "back row" in rows and "Spirit World" in rows
            assert "strength" in rows and "agility" in rows
            _shot(page, "guimi-table")
            shot = True
        if not targets and page.locator("#choice button.option", has_text=" to F1").count():
            # a play option's target (its zone and slot) outlines that empty slot of the row
            page.wait_for_selector("#tableau .card.slot.target[data-slot='0']")
            targets = True
        if _over(page):
            break
        _answer(page, last=True)
    assert _over(page)
    assert hidden_seen and shot and targets
    assert not getattr(page, "_errors")  # noqa: B009


def test_the_chinese_interface_renders_with_guimi_cards_in_chinese(
        browser: Browser, server: InProcess) -> None:
    made = post(server.url + "/api/matches", {"game": "guimi_revival", "seed": 5,
                                              "seats": ["human", "human"],
                                              "options": {"decks": ["seer", "hunter"]}})
    page = _open(browser, f"{server.url}/table/{made['match']}?lang=zh_Hans#s=0&t={made['tokens'][0]}")
    page.wait_for_function("() => document.querySelector('.card .name') && "
                           "/[\\u4e00-\\u9fff]/.test(document.querySelector('.card .name').textContent)")
    assert "对局记录" in (page.text_content("aside") or "")
    tableau = page.text_content("#tableau") or ""  # the game's layout: corruption, front row
    assert "污染" in tableau and "前排" in tableau and "灵界" in tableau
    assert "手牌" in (page.text_content("#board") or "")
    _shot(page, "guimi-table-zh")
    page.select_option("#lang", "zh_Hant")
    page.wait_for_function("() => document.body.textContent.includes('對局紀錄')")
    page.select_option("#lang", "en")
    page.wait_for_function("() => document.body.textContent.includes('Game log')")
    assert not getattr(page, "_errors")  # noqa: B009


def _click_label(page: Page, prefix: str) -> bool:
    """Click the option whose label starts with ``prefix`` (True), if the page offers one."""
    box = page.locator("#choice")
    seq = box.get_attribute("data-seq")
    button = page.locator("#choice button.option").filter(has_text=prefix).first
    if button.count() == 0:
        return False
    button.click()
    page.wait_for_function("s => document.querySelector('#choice').dataset.seq !== s", arg=seq)
    return True


def _panel_round(server: InProcess, mid: str) -> int:
    panel = server.hub.matches[mid].match.view(None).panel
    value: int = panel["round"]
    return value


def test_an_arkham_round_by_clicking(browser: Browser, server: InProcess) -> None:
    """One investigator through a whole round in the browser: the mulligan, an investigation
    with a card committed to its test, a move where the location has an exit, the end of the
    turn, then the enemy and upkeep phases and the next round's mythos phase."""
    made = post(server.url + "/api/matches", {"game": "arkham_card", "seed": 2, "seats": ["human"]})
    assert made["ok"], made
    mid = made["match"]
    page = _open(browser, f"{server.url}/table/{mid}#s=0&t={made['tokens'][0]}")
    page.wait_for_function("() => document.querySelectorAll('.card .name').length > 3")
    page.hover(".kind-hand .card")
    page.wait_for_function("() => document.querySelector('#detail pre') && "
                           "document.querySelector('#detail pre').textContent.length > 10")
    _answer(page)  # mulligan: keep the hand
    assert _click_label(page, "Investigate")
    assert "Commit cards" in (page.text_content("#prompt") or "")
    # the layout's skill test line: skill, whose test, difficulty and the total before the token
    test = server.hub.matches[mid].match.view(0).panel["test"]
    line = page.text_content("#tableau .block-text:has(h3)") or ""
    assert "intellect test of" in line and f"against {test['difficulty']}: {test['base']}" in line
    page.locator("#choice button.option").first.click()
    assert page.locator("#confirm").is_enabled()
    committed = int(server.hub.matches[mid].match.state.event_count)
    seq = page.locator("#choice").get_attribute("data-seq")
    page.click("#confirm")
    page.wait_for_function("s => document.querySelector('#choice').dataset.seq !== s", arg=seq)
    assert server.hub.matches[mid].match.state.event_count > committed
    moved = False
    for _ in range(200):
        if _panel_round(server, mid) >= 2 or _over(page):
            break
        page.wait_for_function("() => document.querySelector('#prompt') || "
                               "document.querySelector('#result')")
        if not moved and _click_label(page, "Move to"):
            moved = True
            continue
        if not _click_label(page, "End turn"):
            _answer(page)
    assert _panel_round(server, mid) >= 2  # (the first scenario's Study has no exit to move by)
    # the game's layout: locations with shroud and clues, act and agenda, the chaos bag
    assert page.locator("#tableau .map-node").count() >= 1
    tableau = page.text_content("#tableau") or ""
    assert "Study" in tableau and "shroud" in tableau and "doom" in tableau and "chaos bag" in tableau
    log = page.text_content("#log") or ""
    assert "Mythos" in log or "mythos" in log, log[-2000:]
    _shot(page, "arkham-round")
    assert not getattr(page, "_errors")  # noqa: B009


def test_the_arkham_map_draws_lines_between_connected_locations(
        browser: Browser, server: InProcess) -> None:
    """The Midnight Masks (01120) puts several connected locations into play: the layout's map
    draws one SVG line per connection, a node per location with its shroud and clues, and the
    act and agenda; in Traditional Chinese the terms are the rules summary's."""
    made = post(server.url + "/api/matches", {"game": "arkham_card", "seed": 4, "seats": ["human"],
                                              "options": {"scenario": "01120"}})
    assert made["ok"], made
    mid = made["match"]
    page = _open(browser, f"{server.url}/table/{mid}#s=0&t={made['tokens'][0]}")
    _answer(page)  # mulligan: keep the hand; the locations are put into play after it
    page.wait_for_function("() => document.querySelectorAll('#tableau .map-lines line').length >= 2")
    panel = server.hub.matches[mid].match.view(0).panel
    edges = {frozenset((loc["id"], c)) for loc in panel["locations"] for c in loc["connections"]}
    assert page.locator("#tableau .map-lines line").count() == len(edges)
    assert page.locator("#tableau .map-node").count() == len(panel["locations"])
    tableau = page.text_content("#tableau") or ""
    assert "shroud" in tableau and "clues" in tableau and "agenda" in tableau
    _shot(page, "arkham-table")
    zh = _open(browser, f"{server.url}/table/{mid}?lang=zh_Hant#s=0&t={made['tokens'][0]}")
    zh.wait_for_function("() => document.querySelectorAll('#tableau .map-node').length > 0 && "
                         "document.querySelector('#tableau').textContent.includes('線索')")
    text = zh.text_content("#tableau") or ""
    assert "混亂袋" in text and "密謀" in text and "場景" in text  # chaos bag, agenda, act
    _shot(zh, "arkham-table-zh")
    assert not getattr(page, "_errors") and not getattr(zh, "_errors")  # noqa: B009
