"""Arkham Horror's determinisation and search hooks (search_hooks.py): the encounter deck is
its own pool, set-aside and removed cards stay, forced chaos-token reveals are not the sample's,
and the evaluation of unfinished scenarios."""

from __future__ import annotations

from tcgcore_arkham_card import search_hooks

import tcgcore
from tcgcore import RandomAgent, Rng, determinize


def _match() -> tcgcore.Match:  # type: ignore[type-arg]
    match = tcgcore.new_match("arkham_card", seed=3, keep_events=False)
    tcgcore.play_out(match, [RandomAgent(1)], max_decisions=10)
    return match


def test_pools() -> None:
    state = _match().state
    zones = state.zones
    assert search_hooks.sample_pool(state, 0, zones["encounter"], 0) == "encounter.encounter"
    assert search_hooks.sample_pool(state, 0, zones["deck.0"], 0) == "player.0"
    assert search_hooks.sample_pool(state, 0, zones["removed"], 0) is None


def test_forced_chaos_tokens_are_not_the_samples() -> None:
    match = _match()
    match.state.next_tokens = ["skull", "-1"]
    sample = determinize(match, 0, Rng.from_seed(1))
    assert sample.state.next_tokens == []
    assert match.state.next_tokens == ["skull", "-1"]
    assert sample.state.bag == match.state.bag  # the bag's contents are public


def test_evaluation_rises_with_acts_and_falls_with_damage() -> None:
    state = _match().state
    base = search_hooks.evaluate(state, 0)
    state.act_advanced += 1
    assert search_hooks.evaluate(state, 0) > base
    state.inv[0].damage += 5
    assert search_hooks.evaluate(state, 0) < base + 0.2
