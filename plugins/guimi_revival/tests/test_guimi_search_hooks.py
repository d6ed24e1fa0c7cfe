"""Guimi Revival's determinisation and search hooks (search_hooks.py): pools of the extra deck
(033) and of the face-down Revival Beyonder (051.1); the evaluation of unfinished games."""

from __future__ import annotations

from tcgcore_guimi_revival import search_hooks

import tcgcore
from tcgcore import RandomAgent, Rng, determinize


def _match(steps: int) -> tcgcore.Match:  # type: ignore[type-arg]
    match = tcgcore.new_match("guimi_revival", seed=7, keep_events=False)
    tcgcore.play_out(match, [RandomAgent(1), RandomAgent(2)], max_decisions=steps)
    return match


def test_revival_beyonder_stays_a_revival_beyonder_051_1() -> None:
    match = _match(0)  # setup: both RBs face down (051.1)
    state = match.state
    for seat in (0, 1):
        rb = state.cards[state.rb[1 - seat]]
        assert rb.face_down and not match.engine.can_see(seat, rb)
        sample = determinize(match, seat, Rng.from_seed(seat)).state
        assert sample.cards[sample.rb[1 - seat]].code == rb.code


def test_pools_033() -> None:
    state = _match(10).state
    zones = state.zones
    assert search_hooks.sample_pool(state, 0, zones["extra.1"], 1) == "extra.1"
    assert search_hooks.sample_pool(state, 0, zones["hand.1"], 1) == "main.1"
    assert search_hooks.sample_pool(state, 0, zones["deck.1"], 1) == "main.1"


def test_evaluation_favours_the_seat_further_up_its_sequence_086_1() -> None:
    state = _match(10).state
    even = search_hooks.evaluate(state, 0)
    assert 0 < even < 1
    assert abs(even + search_hooks.evaluate(state, 1) - 1) < 1e-9
    state.sequence[0] -= 2
    assert search_hooks.evaluate(state, 0) > even
    state.corruption[0] += 5
    assert search_hooks.evaluate(state, 0) < search_hooks.evaluate(state, 1) + 0.5
