"""Clones share the immutable card instances with their original, and nothing else.

A clone and its original must never change each other: card instances are shared
(``Match.clone`` copies only the list holding them), which is safe because every
write replaces an instance instead of changing it.
"""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

import tcgcore
from tcgcore import CardInstance, EngineError
from tcgcore.testing import clone_independence_check


def _new(registry: tcgcore.Registry, seed: int = 1) -> tcgcore.Match[Any]:
    return tcgcore.new_match("sparks", seed=seed, registry=registry)


def test_sparks_clone_and_original_stay_independent(registry: tcgcore.Registry) -> None:
    points = clone_independence_check("sparks", seeds=range(6), registry=registry, every=3)
    assert points > 30


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
    with pytest.raises(TypeError):
        eng.update_card(0, colour="red")
    for method in (eng.set_counter, eng.add_counter):
        with pytest.raises(EngineError, match="no card instance"):
            method(n, "damage", 1)
    with pytest.raises(EngineError, match="no card instance"):
        eng.remove_counter(n, "damage")


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
