"""Clones share the immutable card instances with their original, and nothing else.

A clone and its original must never change each other: card instances are shared
(``Match.clone`` copies only the list holding them), which is safe because every
write replaces an instance instead of changing it.
"""

from __future__ import annotations

import types
from typing import Any

import msgspec
import pytest

import tcgcore
from tcgcore import CardInstance, EngineError
from tcgcore.testing import ConformanceError, clone_independence_check, random_playout_check


def _new(registry: tcgcore.Registry, seed: int = 1) -> tcgcore.Match[Any]:
    return tcgcore.new_match("sparks", seed=seed, registry=registry)


def test_sparks_clone_and_original_stay_independent(registry: tcgcore.Registry) -> None:
    points = clone_independence_check("sparks", seeds=range(6), registry=registry, every=3)
    assert points > 30


def test_clone_check_refuses_a_bad_interval(registry: tcgcore.Registry) -> None:
    with pytest.raises(ValueError, match="every must be at least 1"):
        clone_independence_check("sparks", seeds=range(1), registry=registry, every=0)


def test_card_instances_are_frozen(registry: tcgcore.Registry) -> None:
    m = _new(registry)
    card: CardInstance = m.state.cards[0]
    with pytest.raises(AttributeError):
        card.exhausted = True  # type: ignore[misc]
    with pytest.raises(AttributeError):
        card.zone = "discard.0"  # type: ignore[misc]
    assert m.state.cards[0] is card and not card.exhausted


def test_update_card_replaces_the_instance(registry: tcgcore.Registry) -> None:
    m = _new(registry)
    eng = m.engine
    old = m.state.cards[3]
    twin = m.clone()
    new = eng.update_card(3, exhausted=True, counters={"damage": 2})
    assert m.state.cards[3] is new and new is not old
    assert new.exhausted and new.counters == {"damage": 2}
    assert not old.exhausted and old.counters == {}  # a held reference keeps the old values
    assert twin.state.cards[3] is old  # the clone still has the old instance
    assert msgspec.structs.replace(old, exhausted=True, counters={"damage": 2}) == new


def test_update_card_errors(registry: tcgcore.Registry) -> None:
    eng = _new(registry).engine
    n = len(eng.state.cards)
    with pytest.raises(EngineError, match="no card instance"):
        eng.update_card(n, exhausted=True)
    with pytest.raises(EngineError, match="no card instance"):
        eng.update_card(-1, exhausted=True)
    with pytest.raises(EngineError, match="id of a card"):
        eng.update_card(0, id=1)
    with pytest.raises(EngineError, match="'colour' is not a field"):
        eng.update_card(0, colour="red")
    for method in (eng.set_counter, eng.add_counter):
        with pytest.raises(EngineError, match="no card instance"):
            method(n, "damage", 1)
    with pytest.raises(EngineError, match="no card instance"):
        eng.remove_counter(n, "damage")
    with pytest.raises(EngineError, match="no card instance 'x'"):
        eng.update_card("x", exhausted=True)  # type: ignore[arg-type]


@pytest.mark.parametrize(("changes", "message"), [
    ({"exhausted": "yes"}, "exhausted must be a bool"),
    ({"face_down": 1}, "face_down must be a bool"),
    ({"controller": 2}, r"controller must be a seat \(0\.\.1\), not 2"),  # 2 seats: 0 and 1
    ({"owner": 1}, None),  # the last seat is a seat
    ({"attached_to": 0}, None),  # the first card is a card
    ({"attached_to": -1}, "attached_to must be a card instance id"),
    ({"code": "spark3"}, None),  # a code is a non-empty string
    ({"owner": True}, "owner must be a seat"),
    ({"attached_to": 10_000}, "attached_to must be a card instance id"),
    ({"code": ""}, "code must be a card code"),
    ({"zone": "no_such_zone"}, "no zone 'no_such_zone'"),
    ({"zone": "discard.1"}, "does not hold card 0: move a card with Engine.move"),
    ({"counters": {"doom": "1"}}, "counters must map"),
    ({"counters": [("doom", 1)]}, "counters must map"),
    ({"exhausted": True, "controller": -1}, "controller must be a seat"),
])
def test_update_card_refuses_bad_values_and_changes_nothing(
        registry: tcgcore.Registry, changes: dict[str, Any], message: str | None) -> None:
    m = _new(registry)
    before = m.state_bytes()
    card = m.state.cards[0]
    if message is None:  # the boundary on the legal side: accepted
        new = m.engine.update_card(0, **changes)
        assert all(getattr(new, k) == v for k, v in changes.items())
        return
    with pytest.raises(EngineError, match=message):
        m.engine.update_card(0, **changes)
    assert m.state_bytes() == before and m.state.cards[0] is card


def test_update_card_attaches_only_to_a_card_that_exists(registry: tcgcore.Registry) -> None:
    """attached_to: the last card instance is a card, the id after it is not."""
    m = _new(registry)
    last = len(m.state.cards) - 1
    assert m.engine.update_card(0, attached_to=last).attached_to == last
    with pytest.raises(EngineError, match="attached_to must be a card instance id"):
        m.engine.update_card(0, attached_to=last + 1)


def test_counter_helpers_refuse_bad_names_and_values(registry: tcgcore.Registry) -> None:
    m = _new(registry)
    before = m.state_bytes()
    for method in (m.engine.set_counter, m.engine.add_counter):
        with pytest.raises(EngineError, match="needs a counter name"):
            method(0, "doom", "3")  # type: ignore[arg-type]
        with pytest.raises(EngineError, match="needs a counter name"):
            method(0, 7, 1)  # type: ignore[arg-type]
    assert m.state_bytes() == before


def test_update_card_keeps_a_copy_of_the_counters_it_is_given(registry: tcgcore.Registry) -> None:
    m = _new(registry)
    mine = {"doom": 1}
    twin = m.clone()
    new = m.engine.update_card(0, counters=mine)
    mine["doom"] = 9  # the caller goes on using its own map
    assert new.counters == {"doom": 1} and twin.state.cards[0].counters == {}
    proxy = m.engine.update_card(1, counters=types.MappingProxyType({"uses": 2}))
    assert type(proxy.counters) is dict and m.to_bytes()  # still encodes


def test_a_counters_map_mutated_in_place_is_caught(
        registry: tcgcore.Registry, monkeypatch: pytest.MonkeyPatch) -> None:
    """The conformance checks notice a game that writes into a counters map instead of
    replacing it (mypy would flag it; an untyped plugin would not know)."""
    real_move = tcgcore.Engine.move

    def sloppy_move(self: tcgcore.Engine[Any], card_id: int, *args: Any,
                    **kwargs: Any) -> tcgcore.Event:
        event = real_move(self, card_id, *args, **kwargs)
        if self.state.cards[card_id].zone.startswith("discard"):
            counters: Any = self.state.cards[card_id].counters
            counters["visits"] = counters.get("visits", 0) + 1  # in place: wrong
        return event

    monkeypatch.setattr(tcgcore.Engine, "move", sloppy_move)
    with pytest.raises(ConformanceError, match="changed in place"):
        clone_independence_check("sparks", seeds=range(3), registry=registry, every=50)
    with pytest.raises(ConformanceError, match="changed in place"):
        random_playout_check("sparks", seeds=range(3), registry=registry, roundtrip=False,
                             check_views=False, check_illegal=False)


def test_counter_helpers_build_new_maps(registry: tcgcore.Registry) -> None:
    m = _new(registry)
    eng = m.engine
    first = eng.set_counter(2, "doom", 1)
    second = eng.add_counter(2, "damage", 3)
    assert second.counters == {"doom": 1, "damage": 3}
    assert list(second.counters) == ["doom", "damage"]  # a new counter goes last
    assert first.counters == {"doom": 1}  # the earlier map was not touched
    third = eng.set_counter(2, "doom", 0)  # kept at 0, in its place
    assert list(third.counters.items()) == [("doom", 0), ("damage", 3)]
    assert eng.add_counter(2, "damage", -5).counters["damage"] == -2  # not clamped
    assert eng.add_counter(2, "uses", 2).counters["uses"] == 2  # from 0 when absent
    fourth = eng.remove_counter(2, "doom")
    assert fourth.counters == {"damage": -2, "uses": 2} and m.state.cards[2] is fourth
    assert eng.remove_counter(2, "doom") is fourth  # nothing to remove: unchanged


def test_move_and_flip_replace_the_instance(registry: tcgcore.Registry) -> None:
    m = _new(registry)
    eng = m.engine
    cid = eng.zone("hand.0").cards[0]
    before = m.state.cards[cid]
    twin = m.clone()
    eng.move(cid, "discard.0")
    after = m.state.cards[cid]
    assert after is not before and after.zone == "discard.0" and before.zone == "hand.0"
    eng.flip(cid, face_down=True)
    assert m.state.cards[cid].face_down and not after.face_down
    assert twin.state.cards[cid] is before and twin.state.cards[cid].zone == "hand.0"


def test_instances_compare_and_encode_as_before(registry: tcgcore.Registry) -> None:
    card = CardInstance(id=0, code="x", owner=0, controller=0, zone="hand.0",
                        counters={"damage": 1})
    raw = msgspec.msgpack.encode(card)
    assert raw == b"\x99\x00\xa1x\x00\x00\xa6hand.0\xc2\xc2\x81\xa6damage\x01\xc0"
    back = msgspec.msgpack.decode(raw, type=CardInstance)
    assert back == card and type(back.counters) is dict
