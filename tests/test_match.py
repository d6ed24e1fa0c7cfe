"""The match facade: choices, results, events, saves, loads and replays."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

import tcgcore
from tcgcore import IllegalChoice, Match
from tcgcore.examples import sparks

from .helpers import skip_mulligans


def _new(registry: tcgcore.Registry, seed: int = 1, **options: Any) -> Match[sparks.SparksState]:
    return tcgcore.new_match("sparks", seed=seed, registry=registry, **options)


def test_new_match_runs_to_first_choice(registry: tcgcore.Registry) -> None:
    m = _new(registry)
    assert m.result is None
    choice = m.pending
    assert choice is not None
    assert (choice.player, choice.kind, choice.min, choice.max) == (0, "mulligan", 0, 3)
    assert len(choice.options) == 3
    assert all(o.key.startswith("card:") and o.label for o in choice.options)


@pytest.mark.parametrize(
    ("player", "keys", "reason"),
    [
        (1, [], "wrong_player"),
        (0, ["nope"], "unknown_key"),
        (0, ["card:0", "card:0"], "duplicate_key"),
    ],
)
def test_illegal_choices_raise_and_change_nothing(
    registry: tcgcore.Registry, player: int, keys: list[str], reason: str
) -> None:
    m = _new(registry)
    before = m.to_bytes()
    if reason == "duplicate_key":
        key = m.pending.options[0].key  # type: ignore[union-attr]
        keys = [key, key]
    with pytest.raises(IllegalChoice) as info:
        m.choose(player, keys)
    assert info.value.reason == reason
    assert issubclass(type(info.value), ValueError)
    assert m.to_bytes() == before


def test_count_limits(registry: tcgcore.Registry) -> None:
    m = _new(registry)
    skip_mulligans(m)
    choice = m.pending
    assert choice is not None and choice.kind == "set_card"
    before = m.to_bytes()
    with pytest.raises(IllegalChoice) as few:
        m.choose(choice.player, [])
    assert few.value.reason == "too_few"
    with pytest.raises(IllegalChoice) as many:
        m.choose(choice.player, choice.keys[:2])
    assert many.value.reason == "too_many"
    # the same key twice on a one-key choice names the repeat, not the count
    assert choice.max == 1
    with pytest.raises(IllegalChoice) as twice:
        m.choose(choice.player, [choice.keys[0], choice.keys[0]])
    assert twice.value.reason == "duplicate_key" and "repeated" in str(twice.value)
    assert m.to_bytes() == before


def test_choose_after_end_and_messages(registry: tcgcore.Registry) -> None:
    m = _new(registry, target=1)
    tcgcore.play_out(m, [tcgcore.RandomAgent(1), tcgcore.RandomAgent(2)])
    assert m.result is not None and m.pending is None
    with pytest.raises(IllegalChoice, match="over") as info:
        m.choose(0, "card:1")
    assert info.value.reason == "game_over"


def test_result_shape(registry: tcgcore.Registry) -> None:
    m = _new(registry, seed=4)
    result = tcgcore.play_out(m, [tcgcore.RandomAgent(3), tcgcore.RandomAgent(4)])
    assert result is not None
    assert result.reason in ("points", "exhausted")
    if not result.draw:
        assert len(result.winners) == 1 and result.losers == [1 - result.winners[0]]


def test_options_are_validated(registry: tcgcore.Registry) -> None:
    with pytest.raises(tcgcore.OptionsError, match="unknown option"):
        _new(registry, colour="red")
    with pytest.raises(tcgcore.OptionsError, match="target"):
        _new(registry, target=0)
    with pytest.raises(tcgcore.OptionsError, match="players"):
        tcgcore.new_match("sparks", seed=1, players=3, registry=registry)
    with pytest.raises(tcgcore.OptionsError, match="JSON"):
        _new(registry, target=object())
    with pytest.raises(ValueError, match="seed"):
        tcgcore.new_match("sparks", seed=-5, registry=registry)


def test_unknown_game_is_clear(registry: tcgcore.Registry) -> None:
    with pytest.raises(tcgcore.UnknownGameError, match=r"'chess'.*sparks"):
        tcgcore.new_match("chess", seed=1, registry=registry)


def test_same_seed_same_decisions_same_bytes(registry: tcgcore.Registry) -> None:
    runs = []
    for _ in range(2):
        m = _new(registry, seed=99)
        tcgcore.play_out(m, [tcgcore.RandomAgent(5), tcgcore.RandomAgent(6)])
        runs.append((m.to_bytes(), m.digest()))
    assert runs[0] == runs[1]
    other = _new(registry, seed=100)
    tcgcore.play_out(other, [tcgcore.RandomAgent(5), tcgcore.RandomAgent(6)])
    assert other.digest() != runs[0][1]


@pytest.mark.parametrize("fmt", ["msgpack", "json"])
def test_round_trip_at_every_decision(registry: tcgcore.Registry, fmt: str) -> None:
    m = _new(registry, seed=8)
    agents = [tcgcore.RandomAgent(1), tcgcore.RandomAgent(2)]
    while m.result is None:
        data = m.to_bytes() if fmt == "msgpack" else m.to_json()
        loaded = (Match.from_bytes(data, registry=registry) if fmt == "msgpack"
                  else Match.from_json(data, registry=registry))
        assert loaded.state_bytes() == m.state_bytes()
        assert loaded.decisions == m.decisions
        choice = m.pending
        assert choice is not None
        keys = agents[choice.player].decide(m, choice)
        m.choose(choice.player, keys)
        loaded.choose(choice.player, keys)
        assert loaded.state_bytes() == m.state_bytes()


def test_a_save_encodes_the_decisions_as_the_envelope_does(registry: tcgcore.Registry) -> None:
    """``to_bytes`` keeps each decision's encoding from one save to the next: the bytes are
    the plain envelope's at every decision, on the match, on its clones and on a loaded copy
    (past 15 and 65,535 decisions the array header changes size; 15 is reached here)."""
    from tcgcore._match import FORMAT_VERSION, _Envelope

    def plain(match: Match[Any]) -> bytes:
        raw = match.spec.codecs.mp_enc.encode(match.state)
        env = _Envelope(format=FORMAT_VERSION, game=match.spec.name, game_version=match.spec.version,
                        plugins=match.plugins, seed=match.seed, players=match.players,
                        options=match.options, decisions=match.decisions, meta=match.meta,
                        state=msgspec.Raw(raw))
        return msgspec.msgpack.encode(env)

    m = _new(registry, seed=8)
    agents = [tcgcore.RandomAgent(1), tcgcore.RandomAgent(2)]
    while m.result is None:
        assert m.to_bytes() == plain(m)
        assert m.clone().to_bytes() == plain(m)
        loaded = Match.from_bytes(m.to_bytes(), registry=registry)
        assert loaded.to_bytes() == plain(m)
        choice = m.pending
        assert choice is not None
        m.choose(choice.player, agents[choice.player].decide(m, choice))
    assert len(m.decisions) > 15 and m.to_bytes() == plain(m)


def test_a_save_of_65535_and_of_65536_decisions_has_the_envelopes_array_header(
        registry: tcgcore.Registry) -> None:
    """msgpack writes an array of up to 65,535 items with a 2-byte length, a longer one with
    a 4-byte length: the saved decisions' header changes exactly there."""
    from tcgcore._match import FORMAT_VERSION, _Envelope

    m = _new(registry, seed=8)
    for count in (65535, 65536):
        decisions = [tcgcore.Decision(i % 2, [f"card:{i % 7}"], "mulligan", 3)
                     for i in range(count)]
        big = Match(m.spec, m.state, seed=m.seed, players=m.players, options=m.options,
                    decisions=decisions, plugins=m.plugins, registry=registry)
        raw = big.spec.codecs.mp_enc.encode(big.state)
        plain = msgspec.msgpack.encode(_Envelope(
            format=FORMAT_VERSION, game=big.spec.name, game_version=big.spec.version,
            plugins=big.plugins, seed=big.seed, players=big.players, options=big.options,
            decisions=decisions, meta=big.meta, state=msgspec.Raw(raw)))
        assert big.to_bytes() == plain
        assert Match.from_bytes(plain, registry=registry).decisions == decisions


def test_a_clone_has_its_own_sight_epochs(registry: tcgcore.Registry) -> None:
    m = _new(registry, seed=3)
    c = m.clone()
    assert c.state.sight == m.state.sight and c.state.sight is not m.state.sight
    before = m.state_bytes()
    c.state.sight.append(7)
    assert m.state_bytes() == before


def test_json_save_is_readable(registry: tcgcore.Registry) -> None:
    doc = msgspec.json.decode(_new(registry).to_json())
    assert doc["format"] == tcgcore.FORMAT_VERSION
    assert doc["game"] == "sparks" and doc["game_version"] == "1.0.0"
    assert doc["seed"] == 1 and "tcgcore" in doc["plugins"]
    assert doc["state"]["pending"]["kind"] == "mulligan"


def test_corrupt_and_truncated_bytes(registry: tcgcore.Registry) -> None:
    good = _new(registry).to_bytes()
    for bad in (b"", b"\x00\x01garbage", good[: len(good) // 2], good[:-3]):
        with pytest.raises(tcgcore.StateDecodeError):
            Match.from_bytes(bad, registry=registry)
    with pytest.raises(tcgcore.StateDecodeError):
        Match.from_json(b'{"format": 1, "game": "sparks"', registry=registry)
    with pytest.raises(tcgcore.StateDecodeError, match="expected bytes"):
        Match.from_bytes("text", registry=registry)  # type: ignore[arg-type]


def _edit_json(data: bytes, **changes: object) -> bytes:
    doc = msgspec.json.decode(data)
    doc.update(changes)
    return msgspec.json.encode(doc)


def test_newer_format_wrong_game_and_incompatible_version(registry: tcgcore.Registry) -> None:
    good = _new(registry).to_json()
    with pytest.raises(tcgcore.FormatVersionError, match="format 99"):
        Match.from_json(_edit_json(good, format=99), registry=registry)
    with pytest.raises(tcgcore.GameMismatchError, match="expected a 'guimi_revival' save"):
        Match.from_json(good, registry=registry, game="guimi_revival")
    with pytest.raises(tcgcore.UnknownGameError):
        Match.from_json(_edit_json(good, game="chess"), registry=registry)
    with pytest.raises(tcgcore.GameMismatchError, match=r"2\.0\.0"):
        Match.from_json(_edit_json(good, game_version="2.0.0"), registry=registry)
    # a compatible minor version loads
    assert Match.from_json(_edit_json(good, game_version="1.9.0"), registry=registry).pending


def test_schema_violations_and_broken_invariants(registry: tcgcore.Registry) -> None:
    good = msgspec.json.decode(_new(registry).to_json())
    bad_type = dict(good, state=dict(good["state"], turn="three"))
    with pytest.raises(tcgcore.StateDecodeError, match="turn"):
        Match.from_json(msgspec.json.encode(bad_type), registry=registry)
    cards = list(good["state"]["cards"])
    cards[0] = list(cards[0])
    cards[0][4] = "nowhere"  # the zone field of an array-like card
    bad_zone = dict(good, state=dict(good["state"], cards=cards))
    with pytest.raises(tcgcore.StateDecodeError, match=r"cards\[0\]\.zone: .nowhere."):
        Match.from_json(msgspec.json.encode(bad_zone), registry=registry)


def test_clone_is_independent(registry: tcgcore.Registry) -> None:
    m = _new(registry, seed=3)
    c = m.clone()
    assert c.state_bytes() == m.state_bytes()
    choice = m.pending
    assert choice is not None
    c.choose(choice.player, [])
    assert c.state_bytes() != m.state_bytes()
    assert m.pending is not None and m.pending.kind == "mulligan" and len(m.decisions) == 0


def test_replay_verifies_and_reports_divergence(registry: tcgcore.Registry) -> None:
    m = _new(registry, seed=12)
    tcgcore.play_out(m, [tcgcore.RandomAgent(1), tcgcore.RandomAgent(2)])
    record = m.replay()
    assert tcgcore.replay(record, registry=registry).digest() == m.digest()
    for data in (record.to_bytes(), record.to_json()):
        assert tcgcore.replay(data, registry=registry).digest() == record.digest
    # a changed decision: the first divergent index is reported
    decisions = list(record.decisions)
    decisions[5] = tcgcore.Decision(player=decisions[5].player, keys=["card:999"],
                                    kind=decisions[5].kind, options=decisions[5].options)
    broken = msgspec.structs.replace(record, decisions=decisions)
    with pytest.raises(tcgcore.ReplayDivergence) as info:
        tcgcore.replay(broken, registry=registry)
    assert info.value.index == 5
    # every decision replays but the final digest differs: no index
    other = msgspec.structs.replace(record, digest="0" * 32)
    with pytest.raises(tcgcore.ReplayDivergence) as final:
        tcgcore.replay(other, registry=registry)
    assert final.value.index is None


def test_replay_refuses_other_major_version(registry: tcgcore.Registry) -> None:
    m = _new(registry)
    record = msgspec.structs.replace(m.replay(), game_version="3.0.0")
    with pytest.raises(tcgcore.GameMismatchError, match=r"3\.0\.0"):
        tcgcore.replay(record, registry=registry)
    with pytest.raises(tcgcore.FormatVersionError):
        tcgcore.ReplayRecord.from_bytes(msgspec.json.encode(
            dict(msgspec.json.decode(m.replay().to_json()), format=7)))
    with pytest.raises(tcgcore.StateDecodeError):
        tcgcore.ReplayRecord.from_bytes(b"\xc1\xc1")


def test_events_since_is_incremental(registry: tcgcore.Registry) -> None:
    m = _new(registry, seed=2)
    first = m.events_since(0, player="all")
    assert [e.seq for e in first] == list(range(len(first)))
    n = m.state.event_count
    skip_mulligans(m)
    later = m.events_since(n, player="all")
    assert later and later[0].seq == n
    assert m.events_since(m.state.event_count, player="all") == []
    loaded = Match.from_bytes(m.to_bytes(), registry=registry)
    assert loaded.events_since(0, player="all") == []  # history before a load is not kept


def test_a_choice_takes_exactly_min_and_exactly_max_keys(registry: tcgcore.Registry) -> None:
    m = _new(registry, seed=6)
    choice = m.pending
    assert choice is not None and (choice.min, choice.max) == (0, 3)
    m.choose(0, tuple(choice.keys))  # all three: exactly max
    assert m.decisions == [tcgcore.Decision(0, list(choice.keys), "mulligan", 3)]
    second = m.pending
    assert second is not None and second.player == 1
    m.choose(1, [])  # none: exactly min
    assert m.decisions[-1] == tcgcore.Decision(1, [], "mulligan", 3)
    setc = m.pending
    assert setc is not None and (setc.min, setc.max) == (1, 1)
    m.choose(setc.player, [setc.keys[-1]])  # one key in a list: the fast path
    assert m.decisions[-1].keys == [setc.keys[-1]]


def _pending_with(m: Match[Any], count: int) -> list[str]:
    """Give the pending choice ``count`` options (its handler never runs: every answer in
    these tests is refused)."""
    choice = m.pending
    assert choice is not None
    options = [tcgcore.Option(key=f"k{i}", label=f"option {i}") for i in range(count)]
    m.state.pending = msgspec.structs.replace(choice, options=options, min=1, max=2)
    return [o.key for o in options]


def test_an_unknown_key_lists_at_most_twenty_options(registry: tcgcore.Registry) -> None:
    m = _new(registry)
    keys = _pending_with(m, 20)
    with pytest.raises(IllegalChoice) as twenty:
        m.choose(0, ["k0", "nope"])
    assert twenty.value.reason == "unknown_key"
    assert str(twenty.value).endswith(f"(options: {', '.join(keys)})")
    keys = _pending_with(m, 21)
    for answer in (["nope"], ["k0", "nope"]):
        with pytest.raises(IllegalChoice) as more:
            m.choose(0, answer)
        assert str(more.value).endswith(f"(options: {', '.join(keys[:20])} …)")
    with pytest.raises(IllegalChoice) as seat:  # the seat-facing path words it the same way
        m.answer(0, "nope")
    assert seat.value.reason == "unknown_key"
    assert str(seat.value).endswith(f"(options: {', '.join(keys[:20])} …)")
    keys = _pending_with(m, 20)
    with pytest.raises(IllegalChoice) as seat20:
        m.answer(0, "nope")
    assert str(seat20.value).endswith(f"(options: {', '.join(keys)})")


def test_a_card_shown_to_its_chooser_out_of_its_sight_is_forgotten_after_the_answer(
        registry: tcgcore.Registry) -> None:
    m = _new(registry, seed=3)
    choice = m.pending
    assert choice is not None and choice.player == 0
    in_deck = m.state.zones["deck.0"].cards[0]  # seat 0 cannot see its own deck
    in_hand = choice.options[0].card
    assert in_hand is not None
    shown = tcgcore.Option(key="peek", label="a card of the deck", card=in_deck)
    m.state.pending = msgspec.structs.replace(choice, options=[*choice.options, shown])
    before = {(c, v): tcgcore.card_alias(m.state, c, v)
              for c in (in_deck, in_hand) for v in (0, 1, None)}
    m.choose(0, [])
    assert tcgcore.card_alias(m.state, in_deck, 0) != before[(in_deck, 0)]
    for key, alias in before.items():
        if key != (in_deck, 0):  # only the chooser lost sight, only of the deck card
            assert tcgcore.card_alias(m.state, *key) == alias
    second = m.pending  # the same for the second seat
    assert second is not None and second.player == 1
    theirs = m.state.zones["deck.1"].cards[0]
    m.state.pending = msgspec.structs.replace(second, options=[
        *second.options, tcgcore.Option(key="peek", label="a card of the deck", card=theirs)])
    seen = {v: tcgcore.card_alias(m.state, theirs, v) for v in (0, 1, None)}
    m.choose(1, [])
    assert tcgcore.card_alias(m.state, theirs, 1) != seen[1]
    assert tcgcore.card_alias(m.state, theirs, 0) == seen[0]


def test_seats_views_and_events_check_the_seat(registry: tcgcore.Registry) -> None:
    m = _new(registry)
    assert m.view(None).viewer is None and m.view(1).viewer == 1
    for bad in (-1, 2, True, "0"):
        with pytest.raises(tcgcore.SeatError, match=r"seats are 0\.\.1"):
            m.view(bad)  # type: ignore[arg-type]
        with pytest.raises(tcgcore.SeatError):
            m.seat_choice(bad)  # type: ignore[arg-type]
    with pytest.raises(tcgcore.SeatError, match="'everyone'"):
        m.events_since(0, player="everyone")  # type: ignore[arg-type]
    with pytest.raises(tcgcore.OptionsError):
        m.events_since(1.0)  # type: ignore[arg-type]


def test_events_since_counts_from_the_first_event_after_a_load(registry: tcgcore.Registry) -> None:
    m = _new(registry, seed=2)
    skip_mulligans(m)
    loaded = Match.from_bytes(m.to_bytes(), registry=registry)
    base = loaded.state.event_count
    assert base > 3
    for _ in range(2):  # both seats set a card: the clash makes several events
        choice = loaded.pending
        assert choice is not None
        loaded.choose(choice.player, choice.keys[0])
    new = loaded.events_since(0, player="all")
    assert len(new) > 2 and new[0].seq == base
    assert loaded.events_since(base + 1, player="all") == new[1:]
    assert loaded.events_since(-5, player="all") == new
    assert [e.seq for e in loaded.events_since(base, player=0)] == [e.seq for e in new]


def _seat_and_engine_choice(m: Match[Any]) -> tuple[tcgcore.Choice, tcgcore.Choice]:
    """Seat 0's pending choice in its own key space and in the engine's."""
    shown = m.seat_choice(0)
    choice = m.pending
    assert shown is not None and choice is not None
    return shown, choice


def test_engine_keys_translate_known_seat_keys_and_spoil_the_rest(
        registry: tcgcore.Registry) -> None:
    m = _new(registry, seed=5)
    shown, choice = _seat_and_engine_choice(m)
    seat_key = shown.options[1].key
    assert m.engine_keys(0, seat_key) == [choice.options[1].key]
    assert m.engine_keys(0, ("nope", seat_key)) == ["\x00nope", choice.options[1].key]
    assert m.engine_keys(0, [7]) == [7]  # type: ignore[list-item]  # choose refuses it
    assert m.engine_keys(1, seat_key) == ["\x00" + seat_key]  # not seat 1's choice
    assert m.engine_keys(0, 5) == 5  # type: ignore[arg-type]


def test_a_match_says_what_it_waits_for(registry: tcgcore.Registry) -> None:
    m = _new(registry, seed=4)
    assert repr(m) == "<Match sparks seed=4 waiting for seat 0>"
    tcgcore.play_out(m, [tcgcore.RandomAgent(3), tcgcore.RandomAgent(4)])
    assert repr(m) == "<Match sparks seed=4 over>"
    assert m.keeps_events and m.game == "sparks"


def test_one_key_is_refused_where_the_count_excludes_one(registry: tcgcore.Registry) -> None:
    m = _new(registry)
    choice = m.pending
    assert choice is not None
    before = m.to_bytes()
    for low, high, reason in ((2, 3, "too_few"), (0, 0, "too_many")):
        m.state.pending = msgspec.structs.replace(choice, min=low, max=high)
        for answer in (choice.keys[0], [choice.keys[0]]):
            with pytest.raises(IllegalChoice) as info:
                m.choose(0, answer)
            assert info.value.reason == reason
    m.state.pending = choice
    assert m.to_bytes() == before


def test_the_seat_facing_refusal_names_the_seats_keys_not_the_engines(
        registry: tcgcore.Registry) -> None:
    m = _new(registry, seed=5)
    shown, choice = _seat_and_engine_choice(m)
    with pytest.raises(IllegalChoice) as info:
        m.answer(0, "nope")
    text = str(info.value)
    assert info.value.reason == "unknown_key" and "not an option key of seat 0" in text
    assert text.endswith(f"(options: {', '.join(o.key for o in shown.options)})")
    listed = set(text.rsplit("(options: ", 1)[1].rstrip(")").split(", "))
    assert not listed & {o.key for o in choice.options}  # no instance id given away
    with pytest.raises(IllegalChoice) as wrong:
        m.choose("0", choice.keys[0])  # type: ignore[arg-type]
    assert "a seat is an int (0..1)" in str(wrong.value)


def test_a_key_that_is_not_a_string_is_refused_before_anything_reads_it(
        registry: tcgcore.Registry) -> None:
    m = _new(registry)
    choice = m.pending
    assert choice is not None
    before = m.to_bytes()
    for answer in ([["x"], choice.keys[0]], [choice.keys[0], {"k": 1}], [7]):
        with pytest.raises(IllegalChoice, match="option keys are strings") as info:
            m.choose(0, answer)  # type: ignore[arg-type]
        assert info.value.reason == "unknown_key"
    assert m.to_bytes() == before


def test_the_first_card_shown_out_of_sight_is_forgotten_too(registry: tcgcore.Registry) -> None:
    seed = next(s for s in range(100)
                if 0 in _new(registry, seed=s).state.zones["deck.0"].cards)
    m = _new(registry, seed=seed)
    choice = m.pending
    assert choice is not None and choice.player == 0
    m.state.pending = msgspec.structs.replace(choice, options=[
        *choice.options, tcgcore.Option(key="peek", label="card 0 of the deck", card=0)])
    before = tcgcore.card_alias(m.state, 0, 0)
    m.choose(0, [])
    assert tcgcore.card_alias(m.state, 0, 0) != before


# ---------------------------------------------------------------- saves: what a load checks


def test_a_digest_is_blake2b_128_of_the_state_in_hex(registry: tcgcore.Registry) -> None:
    import hashlib

    m = _new(registry, seed=7)
    raw = m.spec.codecs.mp_enc_det.encode(m.state)
    assert m.digest() == hashlib.blake2b(raw, digest_size=16).hexdigest()
    assert len(m.digest()) == 32 and int(m.digest(), 16) >= 0


def test_format_0_and_below_are_refused_as_format_1_loads(registry: tcgcore.Registry) -> None:
    good = _new(registry).to_json()
    record = _new(registry).replay().to_json()
    assert Match.from_json(_edit_json(good, format=1), registry=registry).pending is not None
    for fmt in (0, -1):
        with pytest.raises(tcgcore.FormatVersionError, match=f"save format {fmt} is not"):
            Match.from_json(_edit_json(good, format=fmt), registry=registry)
        with pytest.raises(tcgcore.FormatVersionError, match=f"replay format {fmt} is not"):
            tcgcore.ReplayRecord.from_bytes(_edit_json(record, format=fmt))


def test_a_refused_file_is_named_as_a_save_or_a_replay_in_its_format(
        registry: tcgcore.Registry) -> None:
    with pytest.raises(tcgcore.StateDecodeError, match=r"not a tcgcore save \(msgpack\)"):
        Match.from_bytes(b"\xc1\xc1", registry=registry)
    with pytest.raises(tcgcore.StateDecodeError, match=r"not a tcgcore save \(JSON\)"):
        Match.from_bytes(b'{"format": "one"}', registry=registry)
    with pytest.raises(tcgcore.StateDecodeError, match=r"not a tcgcore replay \(msgpack\)"):
        tcgcore.ReplayRecord.from_bytes(b"\xc1\xc1")
    with pytest.raises(tcgcore.StateDecodeError, match=r"not a tcgcore replay \(JSON\)"):
        tcgcore.ReplayRecord.from_bytes(b'{"format": "one"}')
    m = _new(registry)
    with pytest.raises(tcgcore.StateDecodeError, match=r"expected a save, found a 'replay'"):
        Match.from_bytes(m.replay().to_bytes(), registry=registry)
    with pytest.raises(tcgcore.StateDecodeError, match=r"expected a replay, found a 'match'"):
        tcgcore.ReplayRecord.from_bytes(m.to_bytes())
    # past the head: a state that does not decode names the save's game and format
    doc = msgspec.json.decode(m.to_json())
    doc["state"]["turn"] = "three"
    with pytest.raises(tcgcore.StateDecodeError, match=r"corrupt sparks save \(JSON\)"):
        Match.from_json(msgspec.json.encode(doc), registry=registry)
    raw = msgspec.msgpack.decode(m.to_bytes())
    raw["state"] = msgspec.msgpack.encode({"turn": "three"})
    bad = msgspec.msgpack.encode({**raw, "state": msgspec.Raw(raw["state"])})
    with pytest.raises(tcgcore.StateDecodeError, match=r"corrupt sparks save \(msgpack\)"):
        Match.from_bytes(bad, registry=registry)


def test_json_is_sniffed_when_its_brace_is_within_the_first_64_bytes(
        registry: tcgcore.Registry) -> None:
    good = _new(registry).to_json()
    loaded = Match.from_bytes(b" " * 63 + good, registry=registry)
    assert loaded.state_bytes() == Match.from_json(good, registry=registry).state_bytes()
    with pytest.raises(tcgcore.StateDecodeError, match=r"\(msgpack\)"):
        Match.from_bytes(b" " * 64 + good, registry=registry)


def test_a_loaded_match_keeps_the_registry_it_was_loaded_from(registry: tcgcore.Registry) -> None:
    data = _new(registry).to_bytes()
    assert Match.from_bytes(data, registry=registry).registry is registry
    assert Match.from_json(_new(registry).to_json(), registry=registry).registry is registry


@pytest.mark.parametrize("field, value", [("seed", 2), ("players", 3)])
def test_a_save_whose_envelope_and_state_disagree_on_one_fact_is_refused(
        registry: tcgcore.Registry, field: str, value: int) -> None:
    good = _new(registry, seed=1).to_json()
    with pytest.raises(tcgcore.StateDecodeError, match="envelope and state disagree"):
        Match.from_json(_edit_json(good, **{field: value}), registry=registry)


# ---------------------------------------------------------------- replays: what a replay checks


def _record_of_three(registry: tcgcore.Registry) -> tcgcore.ReplayRecord:
    m = _new(registry, seed=12)
    skip_mulligans(m)  # decisions 0 and 1: the mulligans (3 options each)
    choice = m.pending
    assert choice is not None
    m.choose(choice.player, choice.keys[0])
    return m.replay()


@pytest.mark.parametrize("change, words", [
    ({"kind": "set_card"}, "recorded seat 1 'set_card' with 3 options"),
    ({"options": 4}, "recorded seat 1 'mulligan' with 4 options"),
    ({"player": 0}, "recorded seat 0 'mulligan' with 3 options"),
])
def test_replay_stops_at_a_decision_made_at_another_kind_seat_or_option_count(
        registry: tcgcore.Registry, change: dict[str, Any], words: str) -> None:
    record = _record_of_three(registry)
    decisions = list(record.decisions)
    assert (decisions[1].player, decisions[1].kind, decisions[1].options) == (1, "mulligan", 3)
    decisions[1] = msgspec.structs.replace(decisions[1], **change)  # the keys stay legal
    with pytest.raises(tcgcore.ReplayDivergence, match=words) as info:
        tcgcore.replay(msgspec.structs.replace(record, decisions=decisions), registry=registry)
    assert info.value.index == 1


def test_replay_of_decisions_without_kind_checks_only_their_keys(
        registry: tcgcore.Registry) -> None:
    record = _record_of_three(registry)
    bare = [tcgcore.Decision(d.player, d.keys) for d in record.decisions]
    again = tcgcore.replay(msgspec.structs.replace(record, decisions=bare), registry=registry)
    assert again.digest() == record.digest and again.registry is registry


def test_a_replay_whose_match_cannot_be_created_diverges_at_decision_0(
        registry: tcgcore.Registry) -> None:
    record = _record_of_three(registry)
    with pytest.raises(tcgcore.ReplayDivergence, match="cannot be created") as info:
        tcgcore.replay(msgspec.structs.replace(record, options={"colour": "red"}), registry=registry)
    assert info.value.index == 0


def test_a_face_down_card_shown_to_its_chooser_is_forgotten_unless_the_chooser_controls_it(
        registry: tcgcore.Registry) -> None:
    """_forget_shown for face-down cards: one in a hidden zone (even the chooser's own) or
    one another seat controls in a public zone leaves the chooser's sight; one the chooser
    controls in a public zone stays."""
    m = _new(registry, seed=3)
    choice = m.pending
    assert choice is not None and choice.player == 0
    eng = m.engine
    in_deck, theirs, mine = m.state.zones["deck.0"].cards[:3]
    eng.update_card(in_deck, face_down=True)  # seat 0's own, in its hidden deck
    eng.move(theirs, "discard.1", face_down=True, controller=1)
    eng.move(mine, "discard.0", face_down=True, controller=0)
    shown = [tcgcore.Option(key=f"peek{i}", label="a card", card=c)
             for i, c in enumerate((in_deck, theirs, mine))]
    bare = tcgcore.Option(key="none", label="no card")  # an option without a card first
    m.state.pending = msgspec.structs.replace(choice, options=[*choice.options, bare, *shown])
    before = {c: tcgcore.card_alias(m.state, c, 0) for c in (in_deck, theirs, mine)}
    m.choose(0, [])
    assert tcgcore.card_alias(m.state, in_deck, 0) != before[in_deck]
    assert tcgcore.card_alias(m.state, theirs, 0) != before[theirs]
    assert tcgcore.card_alias(m.state, mine, 0) == before[mine]


def test_events_since_without_a_number_gives_every_event_from_the_first(
        registry: tcgcore.Registry) -> None:
    m = _new(registry, seed=2)
    every = m.events_since(player="all")
    assert every and every[0].seq == 0 and every == m.events_since(0, player="all")
    assert [e.seq for e in m.events_since()] == [e.seq for e in every]
