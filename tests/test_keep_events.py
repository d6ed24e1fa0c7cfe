"""Matches that keep no event history (``keep_events=False``).

Events are history, not state: a match created with ``keep_events=False`` still builds
every event (the game's trigger collector sees each one) but drops it afterwards. The
state, decisions, digests, results and saves must be those of a match that keeps its
events, decision for decision; only :meth:`Match.events_since` is refused, with a typed
error. Clones inherit the setting; :func:`tcgcore.simulate` uses it.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tcgcore
from tcgcore import EngineError, Match, OptionsError


def _lockstep(kept: Match[Any], dropped: Match[Any], agent_seed: int) -> int:
    """Drive both matches with the same random decisions; assert they never differ."""
    n = kept.state.num_players
    agents = [tcgcore.RandomAgent(agent_seed + s) for s in range(n)]
    decisions = 0
    assert dropped.state_bytes() == kept.state_bytes()
    while kept.result is None:
        choice = kept.pending
        assert choice is not None and dropped.pending == choice
        keys = agents[choice.player].decide(kept, choice)
        kept.choose(choice.player, keys)
        dropped.choose(choice.player, keys)
        decisions += 1
        assert dropped.digest() == kept.digest()
        assert dropped.state.event_count == kept.state.event_count
    assert dropped.result == kept.result
    assert dropped.to_bytes() == kept.to_bytes()
    assert dropped.replay().to_bytes() == kept.replay().to_bytes()
    return decisions


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**64 - 1), agent_seed=st.integers(0, 2**32))
def test_no_history_plays_the_same_match_byte_for_byte(seed: int, agent_seed: int) -> None:
    registry = tcgcore.load_registry(load_entrypoints=False, plugins=[_sparks()])
    kept = tcgcore.new_match("sparks", seed=seed, registry=registry)
    dropped = tcgcore.new_match("sparks", seed=seed, registry=registry, keep_events=False)
    assert kept.keeps_events and not dropped.keeps_events
    assert _lockstep(kept, dropped, agent_seed) > 0


@pytest.mark.parametrize("game, players", [("guimi_revival", None), ("arkham_card", 1),
                                           ("arkham_card", 4)])
def test_no_history_plays_the_same_match_in_the_shipped_games(game: str,
                                                              players: int | None) -> None:
    """Both shipped games collect triggers from events (Arkham: forced abilities and
    reactions, A902): dropping events after collection changes nothing."""
    if game not in tcgcore.games():
        pytest.skip(f"{game} is not installed")
    for seed in range(3):
        kept = tcgcore.new_match(game, seed=seed, players=players)
        dropped = tcgcore.new_match(game, seed=seed, players=players, keep_events=False)
        assert _lockstep(kept, dropped, 100 + seed) > 0


def test_events_since_is_refused_without_history(registry: tcgcore.Registry) -> None:
    m = tcgcore.new_match("sparks", seed=1, registry=registry, keep_events=False)
    before = m.to_bytes()
    for player in ("all", 0, None):
        with pytest.raises(EngineError, match="keeps no event history"):
            m.events_since(0, player=player)
    with pytest.raises(tcgcore.SeatError):  # a bad seat is named first, as with history
        m.events_since(0, player=99)
    assert m.to_bytes() == before
    kept = tcgcore.new_match("sparks", seed=1, registry=registry)
    assert kept.events_since(0, player="all")  # setup events are there by default


def test_clones_inherit_the_setting(registry: tcgcore.Registry) -> None:
    for keep in (True, False):
        m = tcgcore.new_match("sparks", seed=5, registry=registry, keep_events=keep)
        c = m.clone()
        assert c.keeps_events is keep and c.state_bytes() == m.state_bytes()
        if keep:
            assert c.events_since(0, player="all") == []  # a clone's history starts empty
            tcgcore.play_out(c, [tcgcore.RandomAgent(1), tcgcore.RandomAgent(2)])
            assert c.events_since(0, player="all") and m.events_since(0, player="all")


def test_loading_may_drop_history_too(registry: tcgcore.Registry) -> None:
    m = tcgcore.new_match("sparks", seed=9, registry=registry)
    tcgcore.play_out(m, [tcgcore.RandomAgent(1), tcgcore.RandomAgent(2)], max_decisions=5)
    for load, data in ((Match.from_bytes, m.to_bytes()), (Match.from_json, m.to_json())):
        loaded = load(data, registry=registry, keep_events=False)
        assert not loaded.keeps_events and loaded.state_bytes() == m.state_bytes()
        assert load(data, registry=registry).keeps_events


def test_a_match_without_history_holds_no_event(registry: tcgcore.Registry) -> None:
    """The point of the setting: nothing keeps the events (the list a match keeps them in
    is internal; read here to show that none are held, not only that none are shown)."""
    m = tcgcore.new_match("sparks", seed=3, registry=registry, keep_events=False)
    tcgcore.play_out(m, [tcgcore.RandomAgent(1), tcgcore.RandomAgent(2)])
    assert m.state.event_count > 0 and len(m._events) == 0
    assert len(m.clone()._events) == 0


def test_replay_may_drop_history(registry: tcgcore.Registry) -> None:
    m = tcgcore.new_match("sparks", seed=4, registry=registry)
    tcgcore.play_out(m, [tcgcore.RandomAgent(1), tcgcore.RandomAgent(2)])
    again = tcgcore.replay(m.replay(), registry=registry, keep_events=False)
    assert not again.keeps_events and again.to_bytes() == m.to_bytes()
    assert tcgcore.replay(m.replay(), registry=registry).keeps_events


@pytest.mark.parametrize("bad", [None, 0, 1, "no", "False"])
def test_keep_events_must_be_a_bool(registry: tcgcore.Registry, bad: Any) -> None:
    with pytest.raises(OptionsError, match="keep_events must be True or False"):
        tcgcore.new_match("sparks", seed=1, registry=registry, keep_events=bad)
    good = tcgcore.new_match("sparks", seed=1, registry=registry)
    saved = good.to_bytes()
    with pytest.raises(OptionsError, match="keep_events must be True or False"):
        Match.from_bytes(saved, registry=registry, keep_events=bad)
    with pytest.raises(OptionsError, match="keep_events must be True or False"):
        tcgcore.replay(good.replay(), registry=registry, keep_events=bad)
    with pytest.raises(OptionsError, match="keep_events must be True or False"):
        tcgcore.simulate("sparks", games=2, registry=registry, keep_events=bad)
    with pytest.raises(OptionsError, match="keep_events must be True or False"):
        Match(good.spec, good.state, seed=1, players=2, options={}, decisions=[],
              plugins={}, registry=registry, keep_events=bad)


class _EventReader:
    """An agent that reads the match's events before answering (a card counter)."""

    def __init__(self, seed: int) -> None:
        self.inner = tcgcore.RandomAgent(seed)

    def decide(self, match: Match[Any], choice: tcgcore.Choice) -> list[str]:
        match.events_since(0, player=choice.player)
        return self.inner.decide(match, choice)


def test_simulate_drops_history_unless_an_agent_needs_it(
        registry: tcgcore.Registry, monkeypatch: pytest.MonkeyPatch) -> None:
    spec = registry.game("sparks")
    monkeypatch.setitem(spec.agents, "reader", _EventReader)
    with pytest.raises(EngineError, match="keep_events=True"):
        tcgcore.simulate("sparks", games=2, registry=registry, agents=["reader"])
    kept = tcgcore.simulate("sparks", games=4, seed=2, registry=registry, agents=["reader"],
                            keep_events=True)
    plain = tcgcore.simulate("sparks", games=4, seed=2, registry=registry, agents=["random"])
    assert kept.outcomes == plain.outcomes  # reading events changes no game


def test_simulate_reports_what_history_keeping_games_give(registry: tcgcore.Registry) -> None:
    """:func:`tcgcore.simulate` keeps no events; its outcomes are those of ordinary
    matches driven by the same agents."""
    report = tcgcore.simulate("sparks", games=6, seed=11, registry=registry, workers=1)
    assert report.games == 6
    for outcome in report.outcomes:
        m = tcgcore.new_match("sparks", seed=(11 + outcome.index) % 2**64, registry=registry)
        agents = [tcgcore.make_agent(m.spec, "random", _agent_seed(11, outcome.index, s))
                  for s in range(2)]
        tcgcore.play_out(m, agents)
        assert m.result is not None
        assert len(m.decisions) == outcome.decisions
        assert list(m.result.winners) == outcome.winners and m.result.reason == outcome.reason


def _agent_seed(seed: int, index: int, seat: int) -> int:
    from tcgcore._simulate import _agent_seed as agent_seed  # the seeds simulate gives agents

    return agent_seed(seed, index, seat)


def _sparks() -> Any:
    from tcgcore.examples import sparks

    return sparks
