"""Hostile input: every bad input gets a typed error and changes nothing."""

from __future__ import annotations

import io
from typing import Any

import msgspec
import pytest

import tcgcore
from tcgcore import IllegalChoice, Match, Option, Step, Trigger
from tcgcore.cli import main
from tcgcore.examples import sparks

from .helpers import skip_mulligans


def _new(registry: tcgcore.Registry, seed: int = 1, **options: Any) -> Match[Any]:
    return tcgcore.new_match("sparks", seed=seed, registry=registry, **options)


@pytest.mark.parametrize("seat", [0.0, False, "0", None])
def test_seat_must_be_an_int(registry: tcgcore.Registry, seat: Any) -> None:
    m = _new(registry)
    before = m.to_bytes()
    with pytest.raises(IllegalChoice) as info:
        m.choose(seat, [])
    assert info.value.reason == "wrong_player"
    assert "a seat is an int" in str(info.value)  # says what is wrong, not "wrong seat"
    assert m.to_bytes() == before


@pytest.mark.parametrize("answer", [None, 5, b"card:1", {"card:1"}, {"card:1": 1}, [[1]], [None]])
def test_answers_must_be_strings_in_a_list_or_tuple(registry: tcgcore.Registry, answer: Any) -> None:
    m = _new(registry)
    before = m.to_bytes()
    with pytest.raises(IllegalChoice):
        m.choose(0, answer)
    assert m.to_bytes() == before


def test_tuple_answers_work(registry: tcgcore.Registry) -> None:
    m = _new(registry)
    m.choose(0, ())
    assert m.pending is not None and m.pending.player == 1


def test_ask_after_end_is_an_engine_error(registry: tcgcore.Registry) -> None:
    eng = _new(registry).engine
    eng.state.pending = None
    eng.end(draw=True, reason="test")
    with pytest.raises(tcgcore.EngineError, match="after the match ended"):
        eng.ask(0, "x", "?", [Option(key="a", label="A")], resume=sparks.StartRound())


def test_views_hand_out_copies(registry: tcgcore.Registry) -> None:
    m = _new(registry)
    view = m.view(0)
    assert view.pending is not None
    view.pending.options.clear()
    assert m.pending is not None and len(m.pending.options) == 3
    event = m.events_since(0, player="all")[0]
    with pytest.raises(AttributeError):
        event.kind = "hacked"  # type: ignore[misc]


def test_attachment_host_hidden_from_those_who_cannot_see_it(registry: tcgcore.Registry) -> None:
    m = _new(registry)
    state = m.state
    hidden = state.zones["hand.0"].cards[0]
    public = state.zones["deck.0"].cards[0]
    m.engine.move(public, "discard.0")
    m.engine.update_card(public, attached_to=hidden)
    mine = next(z for z in m.view(0).zones if z.id == "discard.0").cards[0]
    theirs = next(z for z in m.view(1).zones if z.id == "discard.0").cards[0]
    assert mine is not None and mine.attached_to == tcgcore.card_alias(state, hidden, 0)
    assert theirs is not None and theirs.attached_to is None


def test_declined_trigger_of_a_hidden_card_stays_hidden(registry: tcgcore.Registry) -> None:
    m = _new(registry)
    card = m.state.zones["hand.0"].cards[0]
    m.state.pending = None
    m.state.stack = [sparks.Mulligan(player=1), tcgcore.TriggerOptIn(
        trigger=Trigger(id="t", player=0, ability="secret_power", source=card, optional=True))]
    m.state.answer = ["no"]
    m.engine.run()
    declined = next(e for e in m.events_since(0, player="all") if e.kind == "trigger_declined")
    assert declined.visible_to(0) and not declined.visible_to(1)
    redacted = next(e for e in m.events_since(0, player=1) if e.kind == "trigger_declined")
    assert redacted.card is None and redacted.secret == {}


def test_triggers_collected_during_setup_resolve_first(registry: tcgcore.Registry) -> None:
    class Marker(Step, tag="test.marker"):
        pass

    m = _new(registry)
    eng = m.engine
    seen: list[str] = []
    spec = tcgcore.GameSpec(name="t", version="1.0.0", state_type=sparks.SparksState,
                            setup=lambda e, o: None,
                            resolve_trigger=lambda e, t: seen.append(t.ability))

    @spec.handles(Marker)
    def _marker(e: Any, step: Marker) -> None:
        seen.append("first step")
        e.end(draw=True, reason="done")

    engine = tcgcore.Engine(spec, m.state)
    m.state.pending = None
    m.state.stack = [Marker()]
    m.state.triggers = [Trigger(id="s", player=0, ability="setup trigger")]
    engine.run()
    assert seen == ["setup trigger", "first step"]
    assert eng is not None


def test_replay_records_with_hostile_options_and_no_digest(registry: tcgcore.Registry) -> None:
    m = _new(registry, seed=3)
    record = m.replay()
    for options in ({"seed": 5}, {"registry": 1}, {"logger": "x"}):
        bad = msgspec.structs.replace(record, options=options)
        with pytest.raises(tcgcore.ReplayDivergence, match="cannot be created"):
            tcgcore.replay(bad, registry=registry)
    with pytest.raises(tcgcore.ReplayDivergence):
        tcgcore.replay(msgspec.structs.replace(record, seed=-1), registry=registry)
    with pytest.raises(tcgcore.StateDecodeError, match="no final digest"):
        tcgcore.replay(msgspec.structs.replace(record, digest=""), registry=registry)
    for junk in ("text", None, 12):
        with pytest.raises(tcgcore.StateDecodeError):
            tcgcore.replay(junk, registry=registry)  # type: ignore[arg-type]


def test_deep_nesting_is_a_decode_error(registry: tcgcore.Registry) -> None:
    deep = b'{"format":1,"x":' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    with pytest.raises(tcgcore.StateDecodeError):
        Match.from_bytes(deep, registry=registry)
    with pytest.raises(tcgcore.StateDecodeError):
        tcgcore.ReplayRecord.from_bytes(deep)
    with pytest.raises(tcgcore.StateDecodeError):
        Match.from_json(None, registry=registry)  # type: ignore[arg-type]


def _edit_state(registry: tcgcore.Registry, **changes: Any) -> bytes:
    m = _new(registry)
    doc = msgspec.json.decode(m.to_json())
    doc["state"].update(changes)
    return msgspec.json.encode(doc)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"num_players": 5}, "seats"),
        ({"active_player": 9}, "active_player: 9"),
        ({"event_count": -100}, "event_count: -100"),
        ({"pending": {"player": 5, "kind": "x", "prompt": "?", "options": [{"key": "a", "label": "A"}]}},
         "pending.player: 5"),
        ({"pending": {"player": 0, "kind": "x", "prompt": "?", "options": [], "min": 1}}, "asks"),
        ({"stack": []}, "no step waits"),
        ({"result": {"reason": "x"}}, "both"),
    ],
)
def test_inconsistent_saves_are_refused(
    registry: tcgcore.Registry, changes: dict[str, Any], message: str
) -> None:
    with pytest.raises(tcgcore.StateDecodeError, match=message):
        Match.from_json(_edit_state(registry, **changes), registry=registry)


def test_card_in_two_zones_is_refused(registry: tcgcore.Registry) -> None:
    m = _new(registry)
    doc = msgspec.json.decode(m.to_json())
    zones = doc["state"]["zones"]
    zones["hand.1"]["cards"].append(zones["hand.0"]["cards"][0])
    with pytest.raises(tcgcore.StateDecodeError, match="is in both"):
        Match.from_json(msgspec.json.encode(doc), registry=registry)


@pytest.mark.parametrize("seat", [2, -1, 1.5, "0"])
def test_bad_seats_for_views_and_events(registry: tcgcore.Registry, seat: Any) -> None:
    m = _new(registry)
    with pytest.raises(tcgcore.SeatError):
        m.view(seat)
    if seat != "0":
        with pytest.raises(tcgcore.SeatError):
            m.events_since(0, player=seat)
    with pytest.raises(tcgcore.SeatError):
        m.events_since(0, player="ALL")  # type: ignore[arg-type]


def test_bad_seed_and_arguments_are_options_errors(registry: tcgcore.Registry) -> None:
    for seed in (-1, 2**64, 1.0):
        with pytest.raises(tcgcore.OptionsError, match="seed"):
            tcgcore.new_match("sparks", seed=seed, registry=registry)  # type: ignore[arg-type]
    with pytest.raises(tcgcore.OptionsError):
        tcgcore.new_match(["sparks"], seed=1, registry=registry)  # type: ignore[arg-type]
    with pytest.raises(tcgcore.OptionsError):
        tcgcore.new_match("sparks", seed=1, registry="x")  # type: ignore[arg-type]


def test_injected_logger_receives_decisions_without_global_config(
    registry: tcgcore.Registry,
) -> None:
    calls: list[dict[str, Any]] = []

    class Recorder:
        def debug(self, event: str, **kw: Any) -> None:
            calls.append({"event": event, **kw})

    m = tcgcore.new_match("sparks", seed=1, registry=registry, logger=Recorder())
    skip_mulligans(m)
    assert [c["kind"] for c in calls] == ["mulligan", "mulligan"]


def _cli(*argv: str) -> int:
    return main(list(argv), out=io.StringIO())


def test_cli_hostile_arguments(tmp_path: Any) -> None:
    assert _cli("play", "sparks", "--seed", str(2**64 - 1), "--max-decisions", "3") == 0
    assert _cli("play", "sparks", "-o", "seed=5") == 2
    assert _cli("play", "sparks", "-o", "registry=1") == 2
    assert _cli("play", "sparks", "--save", str(tmp_path)) == 2
    assert _cli("play", "sparks", "--save", str(tmp_path / "no" / "x.json")) == 2
    with pytest.raises(SystemExit):
        _cli("--log-level", "loud", "games")
    with pytest.raises(SystemExit):
        _cli("play", "sparks", "--max-decisions", "-3")


def test_unknown_card_code_in_a_save_is_refused(registry: tcgcore.Registry) -> None:
    m = _new(registry)
    doc = msgspec.json.decode(m.to_json())
    doc["state"]["cards"][0][1] = "dragon"
    with pytest.raises(tcgcore.StateDecodeError, match="unknown code 'dragon'"):
        Match.from_json(msgspec.json.encode(doc), registry=registry)


def test_move_index_out_of_range(registry: tcgcore.Registry) -> None:
    m = _new(registry)
    card = m.state.zones["hand.0"].cards[0]
    before = m.state_bytes()
    for index in (-1, 99):
        with pytest.raises(tcgcore.EngineError, match="no position"):
            m.engine.move(card, "deck.0", index=index)
    assert m.state_bytes() == before


def test_negative_card_ids_are_unknown_cards() -> None:
    """``-1`` is not "the last card": card lookups and moves refuse it with EngineError and
    leave the state alone (in a slotted zone -1 also marks an empty slot)."""
    m = tcgcore.new_match("sparks", seed=1)
    eng = m.engine
    before = m.state_bytes()
    with pytest.raises(tcgcore.EngineError, match="no card instance -1"):
        eng.card(-1)
    zone = next(iter(m.state.zones))
    with pytest.raises(tcgcore.EngineError, match="no card instance -1"):
        eng.move(-1, zone)
    assert m.state_bytes() == before


def test_bad_simulate_arguments_are_options_errors(registry: tcgcore.Registry) -> None:
    """simulate checks its seeds like new_match: every game's seed is a match seed, so no
    seed wraps around 2**64 (a report never names a seed new_match refuses)."""
    for seed, games in ((-1, 3), (2**64 - 2, 3), (2**64, 1)):
        with pytest.raises(tcgcore.OptionsError, match="2\\*\\*64"):
            tcgcore.simulate("sparks", games=games, seed=seed, registry=registry)
    not_ints: list[Any] = ["1", True, 1.0]
    for not_int in not_ints:
        with pytest.raises(tcgcore.OptionsError, match="seed must be an int"):
            tcgcore.simulate("sparks", games=2, seed=not_int, registry=registry)
    with pytest.raises(tcgcore.OptionsError, match="options must be a dict"):
        tcgcore.simulate("sparks", games=2, options=[1], registry=registry)  # type: ignore[arg-type]
    last = tcgcore.simulate("sparks", games=2, seed=2**64 - 2, registry=registry)
    assert last.games == 2
    # a single agent name given as a str is one name, not a sequence of letters
    assert tcgcore.simulate("sparks", games=2, agents="random", registry=registry).games == 2


def test_bad_load_and_event_arguments_are_tcgcore_errors(registry: tcgcore.Registry) -> None:
    m = _new(registry)
    with pytest.raises(tcgcore.OptionsError, match="int event number"):
        m.events_since("0", player="all")  # type: ignore[arg-type]
    with pytest.raises(tcgcore.OptionsError, match="registry must be"):
        Match.from_bytes(m.to_bytes(), registry="x")  # type: ignore[arg-type]
    with pytest.raises(tcgcore.StateDecodeError, match="not a tcgcore save"):
        Match.from_json('{"format":1}\ud800', registry=registry)


@pytest.mark.parametrize("where", ["seq", "event_count", "option"])
def test_a_json_save_with_an_integer_beyond_msgpack_is_refused(registry: tcgcore.Registry,
                                                               where: str) -> None:
    """JSON has no integer range; a loaded match is cloned, saved and digested as msgpack
    (-2**63 .. 2**64-1), so a bigger integer is refused at load instead of breaking later."""
    m = _new(registry)
    doc = msgspec.json.decode(m.to_json())
    if where == "seq":
        doc["state"]["pending"]["seq"] = 2**64
    elif where == "event_count":
        doc["state"]["event_count"] = 2**70
    else:
        doc["options"]["huge"] = -(2**63) - 1
    with pytest.raises(tcgcore.StateDecodeError, match="out of range"):
        Match.from_json(msgspec.json.encode(doc), registry=registry)


def test_replay_verify_checks_the_recorded_result_and_format(registry: tcgcore.Registry) -> None:
    m = _new(registry)
    tcgcore.play_out(m, [tcgcore.RandomAgent(1), tcgcore.RandomAgent(2)])
    record = m.replay()
    assert m.result is not None and tcgcore.replay(record, registry=registry).result == m.result
    forged = msgspec.structs.replace(record, result=tcgcore.Result(
        winners=m.result.losers, losers=m.result.winners, reason="forged"))
    with pytest.raises(tcgcore.ReplayDivergence, match="result"):
        tcgcore.replay(forged, registry=registry)
    tcgcore.replay(forged, registry=registry, verify=False)  # not verified: replays
    with pytest.raises(tcgcore.FormatVersionError, match="format 99"):
        tcgcore.replay(msgspec.structs.replace(record, format=99), registry=registry)


def test_a_replay_record_built_with_wrong_field_types_is_refused(
        registry: tcgcore.Registry) -> None:
    """A ReplayRecord built in Python is checked as its bytes would be: a field of the wrong
    type is a StateDecodeError naming the field, an unencodable one too; a registry that is
    not a Registry is an OptionsError."""
    m = _new(registry)
    tcgcore.play_out(m, [tcgcore.RandomAgent(1), tcgcore.RandomAgent(2)])
    record = m.replay()
    for field, value in (("format", "1"), ("decisions", None), ("options", None),
                         ("game_version", None), ("seed", -1.5), ("players", "2")):
        bad = msgspec.structs.replace(record, **{field: value})
        with pytest.raises(tcgcore.StateDecodeError, match=field):
            tcgcore.replay(bad, registry=registry)
    looped: dict[str, Any] = {}
    looped["x"] = looped
    for options in ({"x": object()}, looped, {1: 2}):
        with pytest.raises(tcgcore.StateDecodeError, match="not valid"):
            tcgcore.replay(msgspec.structs.replace(record, options=options), registry=registry)
    with pytest.raises(tcgcore.FormatVersionError, match="format 99"):
        tcgcore.replay(msgspec.structs.replace(record, format=99), registry=registry)
    # bytes in the options stay bytes, as a msgpack save keeps them
    from tcgcore._match import _checked_record
    raw = msgspec.structs.replace(record, options={"x": b"ab", "y": bytearray(b"c")})
    assert _checked_record(raw).options == {"x": b"ab", "y": b"c"}
    with pytest.raises(tcgcore.OptionsError, match="registry must be"):
        tcgcore.replay(record, registry=1)  # type: ignore[arg-type]
    with pytest.raises(tcgcore.OptionsError, match="verify must be"):
        tcgcore.replay(record, registry=registry, verify="no")  # type: ignore[arg-type]
    # a seed msgpack cannot hold is the match's own error, as it was before the check
    with pytest.raises(tcgcore.ReplayDivergence, match="seed must be in"):
        tcgcore.replay(msgspec.structs.replace(record, seed=2**70), registry=registry)
    assert tcgcore.replay(record, registry=registry).digest() == m.digest()


def test_an_option_integer_beyond_msgpack_is_refused_at_creation(
        registry: tcgcore.Registry) -> None:
    """A match is saved, cloned and digested as msgpack: an option it could not hold is
    refused when the match is created, not at its first save."""
    with pytest.raises(tcgcore.OptionsError, match="target must be"):  # the game's check first
        tcgcore.new_match("sparks", seed=1, registry=registry, target=2**70)

    class Quiet(tcgcore.GameState[tcgcore.CoreStep]):
        pass

    def setup(eng: tcgcore.Engine[Any], options: dict[str, Any]) -> None:
        eng.end(reason="done")  # reads no option

    spec = tcgcore.GameSpec(name="quiet", version="1.0.0", state_type=Quiet, setup=setup)
    plugin = type("QuietPlugin", (), {"tcgcore_games": tcgcore.hookimpl(lambda: [spec])})
    reg = tcgcore.load_registry(load_entrypoints=False, plugins=[plugin])
    assert tcgcore.new_match("quiet", seed=1, registry=reg, note=2**64 - 1).to_bytes()
    with pytest.raises(tcgcore.OptionsError, match="out of range"):
        tcgcore.new_match("quiet", seed=1, registry=reg, note=2**70)
