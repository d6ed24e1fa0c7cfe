"""``tcgcore serve --stdio``: the JSON-lines protocol, through a real process and in-process."""

from __future__ import annotations

import base64
import io
import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest

import tcgcore
from tcgcore import _serve
from tcgcore._serve import Server, serve_stdio
from tcgcore.examples import sparks

DOC = Path(__file__).resolve().parents[1] / "docs" / "protocol.md"


class Session:
    """A ``tcgcore serve --stdio`` process: send a request, read its one-line response."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tcgcore", "serve", "--stdio"], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)
        self.count = 0

    def raw(self, line: str) -> dict[str, Any]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        answer = self.proc.stdout.readline()
        assert answer, f"the server died: {self.proc.stderr.read() if self.proc.stderr else ''}"
        response: dict[str, Any] = json.loads(answer)
        return response

    def __call__(self, op: str, **fields: Any) -> dict[str, Any]:
        self.count += 1
        response = self.raw(json.dumps({"id": self.count, "op": op, **fields}))
        assert response["id"] == self.count
        return response

    def close(self) -> int:
        """Close stdin (end of the session), wait for the exit code, close the pipes."""
        if self.proc.stdin is not None and not self.proc.stdin.closed:
            self.proc.stdin.close()
        code = self.proc.wait(timeout=30)
        for stream in (self.proc.stdout, self.proc.stderr):
            if stream is not None:
                stream.close()
        return code


@pytest.fixture
def session() -> Iterator[Session]:
    s = Session()
    yield s
    s.close()


def _error(response: dict[str, Any], code: str) -> dict[str, Any]:
    assert response["ok"] is False, response
    error: dict[str, Any] = response["error"]
    assert error["code"] == code, error
    assert isinstance(error["message"], str) and error["message"]
    return error


def test_a_whole_match_over_the_protocol(session: Session) -> None:
    hello = session("hello")
    assert hello["ok"] and hello["protocol"] == 1 and "choose" in hello["ops"]
    names = [g["name"] for g in session("games")["games"]]
    assert "sparks" in names
    created = session("create", game="sparks", seed=7, options={"target": 2})
    assert created["ok"] and created["players"] == 2 and len(set(created["tokens"])) == 2
    match, tokens = created["match"], created["tokens"]
    assert all(len(t) >= 20 for t in [*tokens, created["admin_token"]])
    decisions = 0
    while True:
        status = session("status", match=match)["status"]
        if status["result"] is not None:
            break
        seat = status["waiting_for"]
        other = session("pending", match=match, seat=1 - seat, token=tokens[1 - seat])
        assert other["choice"] is None
        choice = session("pending", match=match, seat=seat, token=tokens[seat])["choice"]
        assert choice["player"] == seat and choice.get("seq", 0) == status["seq"]
        keys: Any = [] if choice.get("min", 1) == 0 else choice["options"][0]["key"]
        answer = session("choose", match=match, seat=seat, token=tokens[seat], keys=keys,
                         seq=status["seq"])
        assert answer["ok"], answer
        decisions += 1
    assert decisions > 4 and status["waiting_for"] is None
    assert session("choose", match=match, seat=0, token=tokens[0], keys="x")["error"]["reason"] in (
        "game_over", "wrong_player")
    record = session("replay", match=match, admin_token=created["admin_token"])
    replayed = tcgcore.replay(base64.b64decode(record["data"]))
    assert replayed.result is not None and len(replayed.decisions) == decisions
    assert session.close() == 0


def test_views_and_events_hide_the_other_seat(session: Session) -> None:
    created = session("create", game="sparks", seed=3)
    match, tokens = created["match"], created["tokens"]
    view0 = session("view", match=match, seat=0, token=tokens[0])["view"]
    view1 = session("view", match=match, seat=1, token=tokens[1])["view"]
    spectator = session("view", match=match)["view"]
    hand0 = {z["id"]: z for z in view0["zones"]}["hand.0"]
    assert [c["code"] for c in hand0["cards"]] and view0["pending"]["kind"] == "mulligan"
    assert {z["id"]: z for z in view1["zones"]}["hand.0"].get("cards", []) == []
    assert "pending" not in view1 and view1["waiting_for"] == 0
    assert spectator["viewer"] is None and "pending" not in spectator
    ev1 = session("events", match=match, seat=1, token=tokens[1])
    assert ev1["first"] == 0 and ev1["next"] == created["status"]["event_count"]
    p0_draws = [e for e in ev1["events"] if e["kind"] == "drawn" and e["player"] == 0]
    p1_draws = [e for e in ev1["events"] if e["kind"] == "drawn" and e["player"] == 1]
    assert len(p0_draws) == 3 and all("code" not in e and "card" not in e for e in p0_draws)
    assert all("code" in e for e in p1_draws)
    later = session("events", match=match, since=ev1["next"] - 1)
    assert [e["seq"] for e in later["events"]] == [ev1["next"] - 1]
    assert all("code" not in e for e in session("events", match=match)["events"]
               if e["kind"] == "drawn")


def test_bad_requests_never_kill_the_session_or_change_the_match(session: Session) -> None:
    created = session("create", game="sparks", seed=5)
    match, tokens, admin = created["match"], created["tokens"], created["admin_token"]
    before = session("save", match=match, admin_token=admin)["data"]

    _error(session.raw("this is not json"), "bad_json")
    _error(session.raw('{"op": "create", "game": '), "bad_json")
    _error(session.raw("[" * 100_000 + "]" * 100_000), "bad_json")
    _error(session.raw("[1, 2, 3]"), "bad_request")
    _error(session.raw('"hello"'), "bad_request")
    _error(session.raw('{"id": 5}'), "bad_request")
    assert session.raw('{"id": {"any": ["json"]}, "op": "status", "match": "nope"}')["id"] == {
        "any": ["json"]}
    _error(session("frobnicate"), "unknown_op")
    _error(session("op"), "unknown_op")
    _error(session("create", game=7), "bad_request")
    _error(session("create", game="sparks", seed="7"), "bad_request")
    _error(session("create", game="sparks", seed=True), "bad_request")
    _error(session("create", game="sparks", seed=-1), "bad_options")
    _error(session("create", game="sparks", seed=1, options={"colour": "red"}), "bad_options")
    _error(session("create", game="sparks", seed=1, players=5), "bad_options")
    _error(session("create", game="chess", seed=1), "unknown_game")
    _error(session("view", match="m999", seat=0, token=tokens[0]), "unknown_match")
    _error(session("view", match=match, seat="0", token=tokens[0]), "bad_request")
    _error(session("view", match=match, seat=0), "forbidden")
    _error(session("view", match=match, seat=1, token=tokens[0]), "forbidden")
    _error(session("view", match=match, seat=0, token=tokens[0].upper()), "forbidden")
    _error(session("view", match=match, seat=2, token=tokens[0]), "bad_seat")
    _error(session("pending", match=match, seat=0), "bad_request")
    _error(session("choose", match=match, seat=0, token=tokens[1], keys=[]), "forbidden")
    _error(session("choose", match=match, seat=0, token=tokens[0], keys=5), "bad_request")
    _error(session("choose", match=match, seat=0, token=tokens[0], keys=[1]), "bad_request")
    assert _error(session("choose", match=match, seat=1, token=tokens[1], keys=[]),
                  "illegal_choice")["reason"] == "wrong_player"
    assert _error(session("choose", match=match, seat=0, token=tokens[0], keys="card:999"),
                  "illegal_choice")["reason"] == "unknown_key"
    assert _error(session("choose", match=match, seat=0, token=tokens[0], keys=["a", "a"]),
                  "illegal_choice")["reason"] == "duplicate_key"
    assert _error(session("choose", match=match, seat=0, token=tokens[0], keys=[], seq=4),
                  "illegal_choice")["reason"] == "stale"
    _error(session("events", match=match, since=-1), "bad_request")
    _error(session("events", match=match, seat=0, token="guess"), "forbidden")
    _error(session("save", match=match, admin_token=tokens[0]), "forbidden")
    _error(session("save", match=match, admin_token=admin, format="xml"), "bad_request")
    _error(session("replay", match=match, admin_token="x"), "forbidden")
    _error(session("close", match=match, admin_token=tokens[1]), "forbidden")
    _error(session("load", data="!!!not base64"), "bad_request")
    _error(session("load", data=base64.b64encode(b"\x93\x01\x02\x03").decode()), "forbidden")
    _error(session("load", data=before, game="guimi_revival"), "forbidden")

    assert session("save", match=match, admin_token=admin)["data"] == before
    assert session("hello")["ok"] and session.close() == 0


def test_save_load_and_close(session: Session) -> None:
    created = session("create", game="sparks", seed=9)
    match, tokens, admin = created["match"], created["tokens"], created["admin_token"]
    assert session("choose", match=match, seat=0, token=tokens[0], keys=[])["ok"]
    for fmt in ("msgpack", "json"):
        saved = session("save", match=match, admin_token=admin, format=fmt)
        assert saved["format"] == fmt
        loaded = session("load", data=saved["data"], format=fmt, game="sparks",
                         signature=saved["signature"])
        assert loaded["ok"] and loaded["match"] != match and loaded["status"]["waiting_for"] == 1
        assert set(loaded["tokens"]).isdisjoint(tokens)
        # the copy continues independently, with its own tokens
        copy_view = session("view", match=loaded["match"], seat=1, token=loaded["tokens"][1])
        orig_view = session("view", match=match, seat=1, token=tokens[1])
        assert copy_view["view"] == orig_view["view"]
        _error(session("view", match=loaded["match"], seat=1, token=tokens[1]), "forbidden")
        events = session("events", match=loaded["match"])
        assert events["first"] == loaded["status"]["event_count"] and events["events"] == []
        assert session("close", match=loaded["match"], admin_token=loaded["admin_token"])["ok"]
        _error(session("status", match=loaded["match"]), "unknown_match")
    saved_file = base64.b64decode(session("save", match=match, admin_token=admin)["data"])
    assert tcgcore.Match.from_bytes(saved_file).pending is not None
    assert session("bye")["ok"]
    assert session.proc.wait(timeout=30) == 0
    assert session.proc.stdout is not None and session.proc.stdout.read() == ""


def test_a_plugin_failure_restores_the_match(monkeypatch: pytest.MonkeyPatch,
                                             registry: tcgcore.Registry) -> None:
    server = Server(registry)
    created = server.handle({"op": "create", "game": "sparks", "seed": 4})
    match, tokens = created["match"], created["tokens"]
    for seat in (0, 1):
        assert server.handle({"op": "choose", "match": match, "seat": seat,
                              "token": tokens[seat], "keys": []})["ok"]
    entry = server.matches[match]
    before = entry.match.to_bytes()

    def boom(eng: tcgcore.Engine[Any], step: Any) -> None:
        eng.emit("half_done")
        raise RuntimeError("plugin bug")

    step_type: type[tcgcore.Step] = sparks.SetCardAnswer
    monkeypatch.setitem(sparks.spec.handlers, step_type, boom)
    pending = entry.match.pending
    assert pending is not None
    shown = entry.match.seat_choice(pending.player)
    assert shown is not None
    response = server.handle({"op": "choose", "match": match, "seat": pending.player,
                              "token": tokens[pending.player], "keys": shown.options[0].key})
    assert response["error"]["code"] == "engine_error" and "plugin bug" in response["error"]["message"]
    assert server.matches[match].match.to_bytes() == before
    monkeypatch.undo()
    assert server.handle({"op": "choose", "match": match, "seat": pending.player,
                          "token": tokens[pending.player], "keys": shown.options[0].key})["ok"]
    events = server.handle({"op": "events", "match": match, "since": 0})
    seqs = [e.seq for e in events["events"]]
    assert seqs == list(range(len(seqs))) and "half_done" not in {e.kind for e in events["events"]}


def test_limits_and_long_lines(monkeypatch: pytest.MonkeyPatch, registry: tcgcore.Registry) -> None:
    server = Server(registry, max_matches=1)
    assert server.handle({"op": "create", "game": "sparks", "seed": 1})["ok"]
    assert server.handle({"op": "create", "game": "sparks", "seed": 1})["error"]["code"] == "limit"
    monkeypatch.setattr(_serve, "MAX_LINE", 64)
    inp = io.BytesIO(b'{"id": 1, "op": "hello", "pad": "' + b"x" * 200 + b'"}\n'
                     b"\n"
                     b'{"id": 2, "op": "hello"}\n'
                     b'{"id": 3, "op": "bye"}\n'
                     b'{"id": 4, "op": "hello"}\n')
    out = io.BytesIO()
    assert serve_stdio(inp, out, registry) == 0
    lines = [json.loads(x) for x in out.getvalue().splitlines()]
    assert [x["id"] for x in lines] == [None, 2, 3]
    assert lines[0]["error"]["code"] == "bad_request" and "longer than 64" in lines[0]["error"]["message"]


def test_serve_needs_stdio() -> None:
    proc = subprocess.run([sys.executable, "-m", "tcgcore", "serve"], capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 2 and "--stdio" in proc.stderr


# ---------------------------------------------------------------- docs/protocol.md


def _doc_sections() -> dict[str, list[Any]]:
    text = DOC.read_text()
    sections: dict[str, list[Any]] = {}
    for part in re.split(r"^##+ ", text, flags=re.M)[1:]:
        title = part.split("\n", 1)[0].strip().strip("`")
        blocks = re.findall(r"```json\n(.*?)\n```", part, flags=re.S)
        sections[title] = [json.loads(b) for b in blocks]
    return sections


def test_protocol_doc_covers_every_op_with_real_shapes(registry: tcgcore.Registry) -> None:
    sections = _doc_sections()
    server = Server()
    assert set(server.ops) <= set(sections), set(server.ops) - set(sections)
    # one live session, run through the documented requests (tokens filled in)
    created = server.handle({"op": "create", "game": "sparks", "seed": 7, "options": {"target": 3}})
    real: dict[str, dict[str, Any]] = {"create": created}
    tokens, admin = created["tokens"], created["admin_token"]
    saved = server.handle({"op": "save", "match": "m1", "admin_token": admin})
    for op in server.ops:
        examples = sections[op]
        assert len(examples) >= 2 and len(examples) % 2 == 0, op
        for request, documented in zip(examples[::2], examples[1::2], strict=True):
            assert request["op"] == op and documented["id"] == request["id"]
            if op in real:
                response = real[op]
            else:
                live = dict(request)
                if "token" in live:
                    live["token"] = tokens[live["seat"]]
                if "admin_token" in live:
                    live["admin_token"] = admin
                if op == "load":
                    live["data"] = saved["data"]
                    live["signature"] = saved["signature"]
                if op == "close":
                    live["match"] = "m1"
                response = server.handle(live)
            if documented["ok"]:
                assert response["ok"], (op, response)
                assert set(documented) - {"id"} == set(response) - {"id"}, op
            else:
                assert not response["ok"] and response["error"]["code"] == documented["error"]["code"]
                assert set(response["error"]) == set(documented["error"]), op


def test_protocol_doc_lists_every_error_code() -> None:
    source = Path(_serve.__file__).read_text()
    codes = set(re.findall(r'ProtocolError\(\s*"([a-z_]+)"', source))
    codes |= set(re.findall(r'"code": "([a-z_]+)"', source))
    table = DOC.read_text().split("## Error codes", 1)[1]
    assert codes and {c for c in codes if f"| `{c}` |" not in table} == set()


def test_the_server_loads_only_saves_it_signed_without_the_admin_token(
        registry: tcgcore.Registry) -> None:
    server = Server(registry, admin_token="operator-secret")
    created = server.handle({"op": "create", "game": "sparks", "seed": 4})
    saved = server.handle({"op": "save", "match": created["match"],
                           "admin_token": created["admin_token"]})
    data, signature = saved["data"], saved["signature"]
    assert server.handle({"op": "load", "data": data, "signature": signature})["ok"]
    for request in ({"op": "load", "data": data},  # unsigned
                    {"op": "load", "data": data, "signature": "0" * 64},  # foreign
                    {"op": "load", "data": data, "admin_token": "guess"}):  # wrong token
        response = server.handle(request)
        assert not response["ok"] and response["error"]["code"] == "forbidden", request
    raw = bytearray(base64.b64decode(data))
    raw[-3] ^= 1  # an edited save no longer matches its signature
    edited = base64.b64encode(bytes(raw)).decode()
    assert server.handle({"op": "load", "data": edited, "signature": signature})["error"][
        "code"] == "forbidden"
    # the operator's admin token lets a foreign save in; it is still checked for meaning
    assert server.handle({"op": "load", "data": data, "admin_token": "operator-secret"})["ok"]
    other = Server(registry)  # another process: another key, and no admin token configured
    assert other.handle({"op": "load", "data": data, "signature": signature})["error"][
        "code"] == "forbidden"
    shared = Server(registry, save_key="operator key")
    again = Server(registry, save_key="operator key")
    made = shared.handle({"op": "create", "game": "sparks", "seed": 4})
    kept = shared.handle({"op": "save", "match": made["match"], "admin_token": made["admin_token"]})
    assert again.handle({"op": "load", "data": kept["data"], "signature": kept["signature"]})["ok"]


def test_a_crafted_trigger_seat_is_refused_before_it_can_cost_memory(
        registry: tcgcore.Registry) -> None:
    match = tcgcore.new_match("sparks", seed=1, registry=registry)
    doc = msgspec.json.decode(match.to_json())
    doc["state"]["triggers"] = [{"id": "t1.0", "player": 2**34, "ability": "ember_draw"}]
    server = Server(registry, admin_token="op")
    response = server.handle({"op": "load", "data": msgspec.json.encode(doc).decode(),
                              "format": "json", "admin_token": "op"})
    assert response["error"]["code"] == "bad_save"
    assert "triggers[0].player: 17179869184 is not a seat" in response["error"]["message"]


def test_a_save_over_the_size_limit_is_refused_before_it_is_decoded(
        registry: tcgcore.Registry) -> None:
    server = Server(registry, admin_token="operator-secret", max_save=512)
    created = server.handle({"op": "create", "game": "sparks", "seed": 4})
    saved = server.handle({"op": "save", "match": created["match"],
                           "admin_token": created["admin_token"]})
    assert len(base64.b64decode(saved["data"])) > 512
    for request in ({"op": "load", "data": saved["data"], "signature": saved["signature"]},
                    {"op": "load", "data": "A" * 4096, "admin_token": "operator-secret"},
                    {"op": "load", "format": "json", "data": "{" * 600}):
        _error(server.handle(request), "too_large")
    roomy = Server(registry, save_key="k", max_save=1 << 20)
    made = roomy.handle({"op": "create", "game": "sparks", "seed": 4})
    kept = roomy.handle({"op": "save", "match": made["match"], "admin_token": made["admin_token"]})
    assert roomy.handle({"op": "load", "data": kept["data"], "signature": kept["signature"]})["ok"]


def test_an_answer_over_the_step_budget_is_refused_and_the_match_restored(
        registry: tcgcore.Registry) -> None:
    server = Server(registry, max_steps=1)
    created = server.handle({"op": "create", "game": "sparks", "seed": 4})
    match_id, tokens = created["match"], created["tokens"]
    before = server.matches[match_id].match.to_bytes()
    seat = created["status"]["waiting_for"]
    choice = server.handle({"op": "pending", "match": match_id, "seat": seat,
                            "token": tokens[seat]})["choice"]
    keys = [o.key for o in choice.options][:choice.min]  # (in-process: a Choice)
    error = _error(server.handle({"op": "choose", "match": match_id, "seat": seat,
                                  "token": tokens[seat], "keys": keys}), "step_limit")
    assert "more than 1 engine steps" in error["message"]
    assert server.matches[match_id].match.to_bytes() == before
    server.max_steps = _serve.MAX_STEPS
    assert server.handle({"op": "choose", "match": match_id, "seat": seat,
                          "token": tokens[seat], "keys": keys})["ok"]


def test_requests_over_the_sessions_rate_are_refused_until_the_bucket_refills(
        registry: tcgcore.Registry) -> None:
    now = [100.0]
    server = Server(registry, rate=(10.0, 3), clock=lambda: now[0])
    assert all(server.handle({"op": "hello"})["ok"] for _ in range(3))
    _error(server.handle({"op": "hello"}), "rate_limited")
    now[0] += 0.15  # one request's worth of refill (and a half)
    assert server.handle({"op": "hello"})["ok"]
    _error(server.handle({"op": "hello"}), "rate_limited")
    now[0] += 60.0  # the bucket holds at most its burst
    assert all(server.handle({"op": "hello"})["ok"] for _ in range(3))
    _error(server.handle({"op": "hello"}), "rate_limited")


def test_one_events_response_holds_at_most_max_events(registry: tcgcore.Registry) -> None:
    server = Server(registry, max_events=2)
    created = server.handle({"op": "create", "game": "sparks", "seed": 4})
    got: list[int] = []
    since = 0
    while True:
        page = server.handle({"op": "events", "match": created["match"], "since": since})
        assert len(page["events"]) <= 2
        got += [e.seq for e in page["events"]]
        if page["next"] == since:
            break
        since = page["next"]
    assert got == list(range(server.matches[created["match"]].match.state.event_count))


# ---------------------------------------------------------------- catalogue, targets, pushes


def test_catalogue_over_stdio_is_the_web_tables_answer(session: Session) -> None:
    """``catalogue`` over ``serve --stdio``: printed facts of codes by game or by match, in the
    language asked (Guimi's Chinese names from its data); unknown codes are left out."""
    created = session("create", game="guimi_revival", seed=2, options={"decks": ["seer", "hunter"]})
    view = session("view", match=created["match"], seat=0, token=created["tokens"][0])["view"]
    codes = [c["code"] for z in view["zones"] for c in z.get("cards", []) if c and c.get("code")]
    assert codes
    by_match = session("catalogue", match=created["match"], codes=[*codes, "no-such-card"])
    by_game = session("catalogue", game="guimi_revival", codes=codes, lang="en")
    assert by_match["cards"] == by_game["cards"] and set(by_game["cards"]) == set(codes)
    spec = tcgcore.default_registry().game("guimi_revival")
    expected = json.loads(msgspec.json.encode(tcgcore.card_catalogue(spec, codes, "zh_Hans")))
    assert session("catalogue", game="guimi_revival", codes=codes, lang="zh_Hans")["cards"] == expected
    assert all(card["lang"] == "zh_Hans" for card in expected.values())
    _error(session("catalogue", game="guimi_revival", codes=codes, lang="fr"), "bad_request")
    _error(session("catalogue", game="chess", codes=codes), "unknown_game")
    _error(session("catalogue", match="m99", codes=codes), "unknown_match")
    _error(session("catalogue", codes=codes), "bad_request")
    _error(session("catalogue", game="sparks", codes=["x"] * 501), "bad_request")


def _play_checking_targets(game: str, seed: int, options: dict[str, Any],
                           decisions: int) -> int:
    """Play a seeded match through a ``Server`` (random legal answers) and check every
    option target of every pending choice against the deciding seat's own view; returns the
    number of targets with a zone."""
    import random

    from tcgcore._identity import card_alias
    server = Server(tcgcore.default_registry(), rate=None)
    created = server.handle({"op": "create", "game": game, "seed": seed, "options": options})
    assert created["ok"], created
    mid, tokens = created["match"], created["tokens"]
    match = server.matches[mid].match
    rng = random.Random(seed)
    placed = 0
    for _ in range(decisions):
        engine = match.pending
        if match.result is not None or engine is None:
            break
        seat = engine.player
        ref = {"match": mid, "seat": seat, "token": tokens[seat]}
        choice = server.handle({"op": "pending", **ref})["choice"]
        view = server.handle({"op": "view", **ref})["view"]
        assert view.pending == choice
        zones = {z.id: z for z in view.zones}
        for shown, inner in zip(choice.options, engine.options, strict=True):
            target = json.loads(msgspec.json.encode(shown)).get("target", {})
            if inner.card is None:
                assert "card" not in target
            else:
                # the seat's alias, exactly the option's card; never the instance id
                alias = card_alias(match.state, inner.card, seat)
                assert target["card"] == shown.card == alias
            if "zone" not in target:
                assert "slot" not in target or "zone" in inner.data or "slot" in inner.data
                if inner.card is not None and "zone" not in inner.data:
                    zone = match.state.zones[match.state.cards[inner.card].zone]
                    assert zone.visibility == "hidden" or (
                        zone.visibility == "owner" and zone.owner != seat), (game, shown)
                continue
            placed += 1
            zone_view = zones[target["zone"]]  # a zone id of the seat's own view
            assert zone_view.visibility == "public" or zone_view.owner == seat
            if "zone" in inner.data:  # a destination the game names: Guimi plays to an empty
                assert zone_view.cards[target["slot"]] is None, (game, shown)  # slot (073.1)
                continue
            there = zone_view.cards[target["slot"]]
            assert there is not None
            # the seat's view shows this card there, or another seat's face-down card
            assert there.id == shown.card or (there.id is None and there.code is None
                                              and there.face_down), (game, shown, there)
        keys = [o.key for o in rng.sample(engine.options,
                                          rng.randint(engine.min, min(engine.max,
                                                                      len(engine.options))))]
        match.choose(seat, keys)
    return placed


@pytest.mark.parametrize(("game", "options"), [
    ("sparks", {}),
    ("guimi_revival", {"decks": ["seer", "hunter"]}),
    ("arkham_card", {}),
])
def test_option_targets_name_cards_and_places_the_seat_may_know(
        game: str, options: dict[str, Any]) -> None:
    """Every option of a choice the protocol sends names its card by the seat's alias (the
    option's own ``card``, never the engine's instance id) and its zone and slot only where
    the seat's view lists that zone's cards, pointing at that very card (or at another
    seat's face-down card); a card in a deck or another seat's hand has no place."""
    placed = sum(_play_checking_targets(game, seed, options, 300) for seed in range(3))
    assert placed > 20


def test_option_targets_from_option_data() -> None:
    """A game that puts a place in an option's data (``zone``, ``slot``) gets it as the
    target, the zone named as the seat's view names it."""
    from tcgcore._model import Option
    from tcgcore._serve import option_target
    match = tcgcore.new_match("arkham_card", seed=1)
    state = match.state
    cid = len(state.cards) - 1  # a zone named after a card (Arkham's at.<location>)
    location = f"at.{cid}"
    got = option_target(match, Option(key="go", label="Go", data={"zone": location}), None, 0)
    assert got == {"zone": f"at.{tcgcore.card_alias(state, cid, 0)}"}
    assert f"at.{cid}" != got["zone"]
    assert option_target(match, Option(key="s", label="S", data={"slot": 2}), None, 0) == {"slot": 2}
    assert option_target(match, Option(key="n", label="N"), None, 0) == {}


class PushSession(Session):
    """A ``serve --stdio`` process whose pushed lines are kept apart from the responses."""

    def __init__(self) -> None:
        super().__init__()
        self.updates: list[dict[str, Any]] = []

    def raw(self, line: str) -> dict[str, Any]:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        return self.read_response()

    def read_line(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        answer = self.proc.stdout.readline()
        assert answer, "the server died"
        got: dict[str, Any] = json.loads(answer)
        return got

    def read_response(self) -> dict[str, Any]:
        while True:
            got = self.read_line()
            if "type" not in got:
                return got
            self.updates.append(got)


def test_a_subscribed_seat_gets_an_update_line_after_each_accepted_decision() -> None:
    """``subscribe`` over stdio: the first update follows at once; then after each accepted
    ``choose`` (of any seat) one update line per subscriber, after that response, with the
    seat's view as ``view`` answers it and exactly its events since the last update; a
    refused answer pushes nothing; ``unsubscribe`` stops them."""
    s = PushSession()
    try:
        created = s("create", game="sparks", seed=7, options={"target": 3})
        mid, tokens = created["match"], created["tokens"]
        _error(s("subscribe", match=mid, seat=1, token=tokens[0]), "forbidden")
        assert s("subscribe", match=mid, seat=1, token=tokens[1]) == {
            "id": s.count, "ok": True, "match": mid, "seat": 1}
        first = s.read_line()
        assert first["type"] == "update" and first["reset"] is True and first["seat"] == 1
        assert first["view"] == s("view", match=mid, seat=1, token=tokens[1])["view"]
        assert [e["seq"] for e in first["events"]] == list(range(created["status"]["event_count"]))
        assert s("subscribe", match=mid)["seat"] is None
        watcher_first = s.read_line()
        assert watcher_first["seat"] is None and "pending" not in watcher_first["view"]
        seen = len(first["events"])
        for _ in range(4):  # (the match goes on after these: a target of 3 clashes)
            status = s("status", match=mid)["status"]
            if status["result"] is not None:
                break
            seat = status["waiting_for"]
            choice = s("pending", match=mid, seat=seat, token=tokens[seat])["choice"]
            keys = [] if choice.get("min", 1) == 0 else [choice["options"][0]["key"]]
            _error(s("choose", match=mid, seat=seat, token=tokens[seat], keys=["nope"]),
                   "illegal_choice")
            assert s.updates == []
            assert s("choose", match=mid, seat=seat, token=tokens[seat], keys=keys)["ok"]
            mine, watcher = s.read_line(), s.read_line()
            assert (mine["seat"], watcher["seat"]) == (1, None)
            assert mine["view"] == s("view", match=mid, seat=1, token=tokens[1])["view"]
            assert watcher["view"] == s("view", match=mid)["view"]
            events = s("events", match=mid, since=seen, seat=1, token=tokens[1])["events"]
            assert mine["events"] == events and mine["reset"] is False
            assert all("code" not in e for e in watcher["events"] if e["kind"] == "drawn")
            seen += len(events)
        assert s("unsubscribe", match=mid, seat=1)["ok"] and s("unsubscribe", match=mid)["ok"]
        _error(s("unsubscribe", match=mid), "bad_request")
        status = s("status", match=mid)["status"]
        seat = status["waiting_for"]
        choice = s("pending", match=mid, seat=seat, token=tokens[seat])["choice"]
        keys = [] if choice.get("min", 1) == 0 else [choice["options"][0]["key"]]
        assert s("choose", match=mid, seat=seat, token=tokens[seat], keys=keys)["ok"]
        assert s("hello")["ok"] and s.updates == []
    finally:
        s.close()


def test_the_documented_update_has_the_fields_the_server_pushes(registry: tcgcore.Registry) -> None:
    text = DOC.read_text().split("## Pushed updates", 1)[1].split("\n## ", 1)[0]
    documented = json.loads(re.findall(r"```json\n(.*?)\n```", text, flags=re.S)[0])
    server = Server(registry)
    created = server.handle({"op": "create", "game": "sparks", "seed": 7, "options": {"target": 3}})
    tokens = created["tokens"]
    server.handle({"op": "choose", "match": "m1", "seat": 0, "token": tokens[0], "keys": []})
    server.handle({"op": "subscribe", "match": "m1", "seat": 1, "token": tokens[1]})
    server.take_updates()
    server.handle({"op": "choose", "match": "m1", "seat": 1, "token": tokens[1], "keys": []})
    (update,) = server.take_updates()
    real = json.loads(msgspec.json.encode(update))
    assert set(real) == set(documented)
    assert set(real["view"]) == set(documented["view"])
    assert real["events"] == documented["events"] and real["log"] == documented["log"]


def test_option_targets_keep_hidden_places_hidden(registry: tcgcore.Registry) -> None:
    """Options about cards the chooser may not place: a card of its own deck and of the other
    seat's hand get their card id only (a position there would tell the deck's order or the
    hand's); another seat's face-down card in a public zone gets its zone and slot, where the
    chooser's view shows a face-down card with no id and no code."""
    from tcgcore._model import Choice, Option
    server = Server(registry)
    created = server.handle({"op": "create", "game": "sparks", "seed": 4})
    mid, tokens = created["match"], created["tokens"]
    match = server.matches[mid].match
    state = match.state
    own_deck = state.zones["deck.0"].cards[2]
    own_hand = state.zones["hand.0"].cards[1]
    their_hand = state.zones["hand.1"].cards[0]
    their_set = state.zones["hand.1"].cards[1]
    match.engine.move(their_set, "arena.1", face_down=True)
    cards = (own_deck, own_hand, their_hand, their_set)
    state.pending = Choice(player=0, kind="probe", prompt="Pick one", seq=state.pending.seq if
                           state.pending else 0,
                           options=[Option(key=f"card:{c}", label="a card", card=c) for c in cards])
    ref = {"match": mid, "seat": 0, "token": tokens[0]}
    choice = json.loads(msgspec.json.encode(server.handle({"op": "pending", **ref})["choice"]))
    view = json.loads(msgspec.json.encode(server.handle({"op": "view", **ref})["view"]))
    targets = [o["target"] for o in choice["options"]]
    aliases = [tcgcore.card_alias(state, c, 0) for c in cards]
    assert [t["card"] for t in targets] == aliases and not set(aliases) & set(cards)
    assert targets[0] == {"card": aliases[0]} and targets[2] == {"card": aliases[2]}
    hand = state.zones["hand.0"].cards
    assert targets[1] == {"card": aliases[1], "zone": "hand.0", "slot": hand.index(own_hand)}
    assert targets[3] == {"card": aliases[3], "zone": "arena.1", "slot": 0}
    arena = {z["id"]: z for z in view["zones"]}["arena.1"]
    assert arena["cards"][0] == {"face_down": True, "controller": 1}
    assert view["pending"] == choice


def test_a_push_that_fails_leaves_the_accepted_decision_accepted(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A subscriber's update that cannot be built (a game hook raising, say) becomes an
    error update for that subscriber; the ``choose`` that caused it still answers ok."""
    registry = tcgcore.load_registry(load_entrypoints=False, plugins=[sparks])
    server = Server(registry)
    created = server.handle({"id": 1, "op": "create", "game": "sparks", "seed": 7})
    mid, tokens = created["match"], created["tokens"]
    assert server.handle({"id": 2, "op": "subscribe", "match": mid})["ok"]
    server.take_updates()
    seat = created["status"]["waiting_for"]
    choice = server.handle({"id": 3, "op": "pending", "match": mid, "seat": seat,
                            "token": tokens[seat]})["choice"]
    keys = [] if choice.min == 0 else [choice.options[0].key]

    def broken(req: dict[str, Any]) -> dict[str, Any]:
        raise RuntimeError("a panel hook failed")

    monkeypatch.setattr(server, "op_view", broken)
    answer = server.handle({"id": 4, "op": "choose", "match": mid, "seat": seat,
                            "token": tokens[seat], "keys": keys})
    assert answer["ok"] is True
    [update] = server.take_updates()
    assert update["type"] == "error" and update["error"]["code"] == "internal"
    assert "a panel hook failed" in update["error"]["message"]
