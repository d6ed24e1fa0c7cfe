"""The main-phase option cache gives exactly the options a fresh build gives (071-077).

``rules.main_options`` reuses one :class:`tcgcore.Option` per (action, card, slot, card code);
these tests empty the caches before each check, so a cached list must equal a freshly built
one at every main-phase choice of several random games, and a cached option is never changed
by a later match.
"""

from __future__ import annotations

import msgspec
from tcgcore_guimi_revival import rules
from tcgcore_guimi_revival.state import GuimiState

import tcgcore


def _fresh(eng: tcgcore.Engine[GuimiState], p: int) -> list[tcgcore.Option]:
    rules._OPTS.clear()
    return rules.main_options(eng, p)


def test_cached_main_options_equal_freshly_built_ones() -> None:
    checked = 0
    for seed in range(4):
        m = tcgcore.new_match("guimi_revival", seed=seed)
        agents = [tcgcore.RandomAgent(seed * 31 + s) for s in range(2)]
        while (choice := m.pending) is not None:
            if choice.kind == "main_action":
                cached = rules.main_options(m.engine, choice.player)
                fresh = _fresh(m.engine, choice.player)
                again = rules.main_options(m.engine, choice.player)  # from the refilled cache
                assert msgspec.json.encode(cached) == msgspec.json.encode(fresh)
                assert msgspec.json.encode(again) == msgspec.json.encode(fresh)
                assert [o.key for o in choice.options] == [o.key for o in fresh]
                checked += 1
            m.choose(choice.player, agents[choice.player].decide(m, choice))
    assert checked > 50


def test_two_matches_share_options_without_changing_them() -> None:
    a = tcgcore.new_match("guimi_revival", seed=11)
    b = tcgcore.new_match("guimi_revival", seed=11)
    agents_a = [tcgcore.RandomAgent(1), tcgcore.RandomAgent(2)]
    agents_b = [tcgcore.RandomAgent(1), tcgcore.RandomAgent(2)]
    tcgcore.play_out(a, agents_a)
    rules._OPTS.clear()
    tcgcore.play_out(b, agents_b)
    assert a.digest() == b.digest() and a.decisions == b.decisions
