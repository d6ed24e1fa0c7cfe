"""The engine's fast paths (issue 8) behave exactly like the slow ones they replace.

* :meth:`Match.clone` copies cards and zones field by field instead of through msgpack: the
  copy must encode to the same bytes and share nothing mutable with the original.
* :meth:`Match.choose` checks a single key with one scan: every illegal answer must still be
  refused with the same reasons, and the recorded decision must be the same.
* The data structs are ``gc=False`` (a state has no reference cycles).
"""

from __future__ import annotations

import gc
from typing import Any

import pytest

import tcgcore
from tcgcore import IllegalChoice, Match
from tcgcore.examples import sparks


def _midgame(registry: tcgcore.Registry, seed: int = 2024) -> Match[Any]:
    full = tcgcore.new_match("sparks", seed=seed, registry=registry)
    tcgcore.play_out(full, [tcgcore.RandomAgent(7), tcgcore.RandomAgent(8)])
    m = tcgcore.new_match("sparks", seed=seed, registry=registry)
    for d in full.decisions[: len(full.decisions) // 2]:
        m.choose(d.player, d.keys)
    return m


def test_clone_encodes_to_the_same_bytes_and_shares_nothing_mutable(
        registry: tcgcore.Registry) -> None:
    m = _midgame(registry)
    before = m.state_bytes()
    c = m.clone()
    assert c.state_bytes() == before and c.digest() == m.digest()
    assert c.to_bytes() == m.to_bytes()
    state: sparks.SparksState = c.state
    # every mutable part of the copy is a new object
    for mine, theirs in zip(state.cards, m.state.cards, strict=True):
        assert mine is not theirs and mine.counters is not theirs.counters
    for key, zone in state.zones.items():
        assert zone is not m.state.zones[key] and zone.cards is not m.state.zones[key].cards
    assert state.stack is not m.state.stack and state.rng is not m.state.rng
    # so changing the copy in place leaves the original alone
    state.cards[0].counters["damage"] = 3
    state.cards[1].exhausted = True
    first_zone = next(iter(state.zones.values()))
    first_zone.cards.append(0)
    state.stack.clear()
    state.rng.next64()
    assert m.state_bytes() == before
    # and playing the copy on does not touch the original either
    c2 = m.clone()
    tcgcore.play_out(c2, [tcgcore.RandomAgent(1), tcgcore.RandomAgent(2)])
    assert m.state_bytes() == before


def test_clone_plays_on_exactly_like_the_original(registry: tcgcore.Registry) -> None:
    m = _midgame(registry, seed=99)
    c = m.clone()
    agents = [tcgcore.RandomAgent(3), tcgcore.RandomAgent(4)]
    twins = [tcgcore.RandomAgent(3), tcgcore.RandomAgent(4)]
    tcgcore.play_out(m, agents)
    tcgcore.play_out(c, twins)
    assert c.digest() == m.digest() and c.decisions == m.decisions


@pytest.mark.parametrize(
    ("answer", "reason"),
    [
        ("nope", "unknown_key"),
        (["nope"], "unknown_key"),
        ([1], "unknown_key"),
        (1, "unknown_key"),
        (("card:0", "card:0"), "duplicate_key"),
    ],
)
def test_single_key_fast_path_refuses_what_the_full_check_refuses(
        registry: tcgcore.Registry, answer: Any, reason: str) -> None:
    m = tcgcore.new_match("sparks", seed=1, registry=registry)
    before = m.state_bytes()
    with pytest.raises(IllegalChoice) as info:
        m.choose(0, answer)
    assert info.value.reason == reason
    assert m.state_bytes() == before and m.decisions == []


def test_single_key_answers_record_the_same_decision(registry: tcgcore.Registry) -> None:
    a = tcgcore.new_match("sparks", seed=5, registry=registry)
    b = tcgcore.new_match("sparks", seed=5, registry=registry)
    a.choose(0, [])  # mulligan nothing
    b.choose(0, ())
    a.choose(1, [])
    b.choose(1, [])
    choice = a.pending
    assert choice is not None and choice.max == 1
    key = choice.options[0].key
    a.choose(choice.player, key)  # a bare string
    b.choose(choice.player, [key])  # a one-key list
    assert a.decisions == b.decisions and a.digest() == b.digest()
    assert a.decisions[-1].keys == [key] and a.decisions[-1].options == len(choice.options)


def test_state_structs_are_not_tracked_by_the_cycle_collector(
        registry: tcgcore.Registry) -> None:
    m = _midgame(registry)
    state = m.state
    assert not gc.is_tracked(state.cards[0])
    assert not gc.is_tracked(next(iter(state.zones.values())))
    assert not gc.is_tracked(state.stack[-1])  # a game's own step inherits it
    assert state.pending is not None and not gc.is_tracked(state.pending)
    assert not gc.is_tracked(state.pending.options[0])
    assert not gc.is_tracked(m.events_since(0)[0])
