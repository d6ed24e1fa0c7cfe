"""tcgcore.rl: every game as a PettingZoo AEC environment (the optional rl extra).

Skipped without the extra, unless ``TCGCORE_EXPECT_RL=1`` (as in CI) makes a missing extra
fail instead.
"""

from __future__ import annotations

import os
from typing import Any

import pytest

if os.environ.get("TCGCORE_EXPECT_RL") != "1":
    pytest.importorskip("pettingzoo", reason="needs the rl extra (pip install -e '.[rl]')")

import numpy as np
from pettingzoo.test import api_test, seed_test

import tcgcore
import tcgcore.rl as rl
from tcgcore.testing import hidden_swaps

#: (game, env keywords): every game of the repository; Arkham solo and with two seats
GAMES: list[tuple[str, dict[str, Any]]] = [
    ("sparks", {}),
    ("guimi_revival", {}),
    ("arkham_card", {"players": 1}),
    ("arkham_card", {"players": 2}),
]
IDS = ["sparks", "guimi_revival", "arkham_card-1", "arkham_card-2"]

# PettingZoo warns about any Dict observation space (its own classic games, which use the
# same {"observation", "action_mask"} layout, are exempted by name) and about the mask of a
# seat that has nothing to decide being all zeros; neither is a fault here.
DICT_OBS_WARNINGS = [
    "ignore:Observation is not a NumPy array:UserWarning",
    "ignore:Observation space for each agent probably should be:UserWarning",
    "ignore:Action mask numpy array is all zeros:UserWarning",
]


def _first_legal(obs: dict[str, Any]) -> int:
    return int(np.flatnonzero(obs["action_mask"])[0])


@pytest.mark.parametrize(("game", "kw"), GAMES, ids=IDS)
@pytest.mark.filterwarnings(*DICT_OBS_WARNINGS)
def test_pettingzoo_api_test_passes(game: str, kw: dict[str, Any]) -> None:
    api_test(rl.env(game, seed=5, **kw), num_cycles=300)


@pytest.mark.parametrize(("game", "kw"), GAMES, ids=IDS)
def test_pettingzoo_seed_test_passes(game: str, kw: dict[str, Any]) -> None:
    seed_test(lambda: rl.env(game, seed=11, **kw), num_cycles=300)


def _play(env: rl.TcgEnv, seed: int) -> dict[str, float]:
    """Play one episode with the first legal action; return each agent's final reward."""
    env.reset(seed=seed)
    final: dict[str, float] = {}
    for agent in env.agent_iter(100_000):
        obs, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            final[agent] = float(reward)
            env.step(None)
        else:
            env.step(_first_legal(obs))
    return final


@pytest.mark.parametrize(("game", "kw"), GAMES, ids=IDS)
def test_observations_ignore_what_the_seat_may_not_know(game: str, kw: dict[str, Any]) -> None:
    """At many decision points of seeded games, every seat's observation and mask stay the
    same when hidden facts change (two hidden cards swap codes, hidden zones are reordered:
    the conformance harness's swaps), including in the middle of a multi-pick choice; and
    the same swaps do change the observation of a seat that sees those cards."""
    env = rl.env(game, seed=0, **kw)
    checked = changed = 0
    for seed in (1, 2):
        env.reset(seed=seed)
        table = env.table
        assert table is not None
        rng = np.random.default_rng(seed)
        step = 0
        while table.actor is not None and step < 400:
            if step % 3 == 0:
                match = table.match
                seats = range(match.state.num_players)
                base = {s: table.observe(s) for s in seats}
                for seat in seats:
                    for _what, _zones, twin in hidden_swaps(match, seat):
                        other = rl.Table(twin, env.encoder)
                        other.picked = list(table.picked)
                        obs, mask = other.observe(seat)
                        assert np.array_equal(obs, base[seat][0]), (game, seed, step, seat, _what)
                        assert np.array_equal(mask, base[seat][1])
                        checked += 1
                        changed += any(not np.array_equal(other.observe(s)[0], base[s][0])
                                       for s in seats if s != seat)
            actor = table.actor
            legal = table.legal_actions(actor)
            table.act(actor, int(rng.choice(legal)))
            step += 1
    assert checked > 20
    if game != "arkham_card":  # (Arkham's swapped cards lie in decks that nobody sees)
        assert changed > 0  # the swaps are real: a seat that sees the cards notices them


def test_a_multi_select_choice_is_a_sequence_of_single_picks() -> None:
    """Sparks' mulligan (0..3 cards): each step picks one card by its code, ``stop`` ends
    the choice early, and the match receives all the picked keys at once."""
    env = rl.env("sparks", seed=4)
    env.reset(seed=4)
    assert env.table is not None
    match = env.table.match
    choice = match.pending
    assert choice is not None and choice.kind == "mulligan" and choice.player == 0
    obs = env.observe("player_0")
    stop = env.encoder.stop_id
    assert obs["action_mask"][stop] == 1  # choosing none is allowed
    first = _first_legal(obs)
    env.step(first)
    assert match.pending is choice and match.decisions == []  # nothing answered yet
    obs = env.observe("player_0")
    assert obs["observation"][env.encoder.names.index("picked_count")] == 1
    env.step(stop)
    assert len(match.decisions) == 1 and len(match.decisions[0].keys) == 1
    assert env.agent_selection == "player_1"


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    env = rl.env("sparks", seed=2)
    env.reset()
    assert env.table is not None
    before = env.table.match.state_bytes()
    masked = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"] == 0)[0])
    with pytest.raises(tcgcore.IllegalChoice):
        env.step(masked)
    assert env.table.match.state_bytes() == before and env.table.picked == []


def test_bound_seats_play_themselves_and_rewards_are_final() -> None:
    env = rl.env("guimi_revival", seed=3, agents={1: "random"})
    assert env.possible_agents == ["player_0"]
    final = _play(env, 3)
    result = env.match.result
    assert result is not None
    expected = 1.0 if 0 in result.winners else -1.0 if 0 in result.losers else 0.0
    assert final == {"player_0": expected}


def test_a_seat_may_be_bound_to_an_agent_object() -> None:
    """An Agent given as an object answers for its seat as it is (not re-seeded)."""
    agent = tcgcore.RandomAgent(12)
    env = rl.env("sparks", seed=2, agents={0: agent})
    assert env.possible_agents == ["player_1"]
    final = _play(env, 2)
    assert set(final) == {"player_1"}
    assert any(d.player == 0 for d in env.match.decisions)


def test_a_cooperative_game_shares_its_reward() -> None:
    """Arkham's result names every investigator together, so both seats get the same."""
    final = _play(rl.env("arkham_card", seed=1, players=2), 1)
    assert set(final) == {"player_0", "player_1"} and len(set(final.values())) == 1
    assert next(iter(final.values())) in (1.0, -1.0, 0.0)


def test_the_gymnasium_wrapper_is_one_line() -> None:
    genv = rl.gym_env("sparks", seat=1, opponents="random", seed=8)
    obs, info = genv.reset(seed=8)
    total, done, steps = 0.0, False, 0
    while not done:
        obs, reward, terminated, truncated, info = genv.step(_first_legal(obs))
        assert np.array_equal(info["action_mask"], obs["action_mask"])
        total += reward
        done = terminated or truncated
        steps += 1
    assert total in (1.0, -1.0, 0.0) and steps > 3
    assert genv.observation_space.contains(obs)


def test_the_gymnasium_wrapper_names_a_seat_it_cannot_play() -> None:
    """A seat the match does not have, or one the opponents bind, is a SeatError naming it
    (not "every seat is bound")."""
    for seat in (2, -1):
        with pytest.raises(tcgcore.SeatError, match=f"no seat {seat}"):
            rl.gym_env("sparks", seat=seat)
    with pytest.raises(tcgcore.SeatError, match="binds seat 0"):
        rl.gym_env("sparks", seat=0, opponents={0: "random", 1: "random"})
    assert rl.gym_env("sparks", seat=0, opponents={1: "random"}).agent == "player_0"


def test_render_prints_the_acting_seats_board_as_the_terminal_does() -> None:
    env = rl.env("sparks", seed=6)
    env.reset()
    text = env.render()
    assert isinstance(text, str)
    assert env.table is not None
    match = env.table.match
    assert text.splitlines() == tcgcore.render_board(match.spec, match.view(0))
    assert "you are P0" in text and "P1's hand: 3 cards (hidden)" in text


def test_the_generic_layout_names_every_feature_and_never_an_instance_id() -> None:
    """Guimi and Arkham use the core's generic encoding; its names match its size, and an
    option's features come from its key without digits and its card's code."""
    for game in ("guimi_revival", "arkham_card"):
        env = rl.env(game, seed=0)
        enc = env.encoder
        assert enc.obs_layout is None and enc.act_layout is None
        assert len(enc.names) == enc.size and enc.num_actions == rl.DEFAULT_MAX_ACTIONS + 1
        env.reset()
        obs = env.observe(env.agent_selection)
        assert env.observation_space(env.agent_selection).contains(obs)
        assert obs["action_mask"].sum() >= 1


def test_truncation_after_max_steps() -> None:
    env = rl.env("guimi_revival", seed=1, max_steps=5)
    env.reset()
    for _agent in env.agent_iter(100):
        obs, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else _first_legal(obs))
    assert env.agents == [] and env.match.result is None


def test_the_loop_in_docs_research_runs(capsys: pytest.CaptureFixture[str]) -> None:
    """docs/research.md's twenty-line PettingZoo loop, as printed there."""
    from pathlib import Path

    text = (Path(__file__).resolve().parent.parent / "docs" / "research.md").read_text()
    code = text.split("## A PettingZoo loop", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    assert len(code.strip().splitlines()) <= 20
    exec(compile(code, "docs/research.md", "exec"), {})
    out = capsys.readouterr().out
    assert "player_0 won" in out and "you are P0" in out


def test_a_layout_that_breaks_its_promise_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    """An action id outside the layout, or a feature count other than the names', raises
    EngineError naming the game."""
    from tcgcore.examples import sparks

    monkeypatch.setattr(sparks.spec, "action_layout", lambda seats: tcgcore.ActionLayout(
        names=("only",), action_id=lambda view, option: 5))
    env = rl.env("sparks", seed=0)
    env.reset()
    with pytest.raises(tcgcore.EngineError, match="sparks: action_layout gave id 5"):
        env.observe(env.agent_selection)
    monkeypatch.setattr(sparks.spec, "action_layout", None)
    monkeypatch.setattr(sparks.spec, "observation_layout", lambda seats: tcgcore.ObservationLayout(
        names=("a", "b"), encode=lambda view: [1.0]))
    env = rl.env("sparks", seed=0)
    env.reset()
    with pytest.raises(tcgcore.EngineError, match="observation_layout gave 1 features"):
        env.observe(env.agent_selection)
