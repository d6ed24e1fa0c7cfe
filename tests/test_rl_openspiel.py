"""tcgcore.rl.openspiel: every game as a pyspiel Python game, and OpenSpiel's ISMCTS on Guimi.

Skipped without the rl extra, unless ``TCGCORE_EXPECT_RL=1`` (as in CI) makes a missing
extra fail instead.
"""

from __future__ import annotations

import os

import pytest

if os.environ.get("TCGCORE_EXPECT_RL") != "1":
    pytest.importorskip("pyspiel", reason="needs the rl extra (pip install -e '.[rl]')")

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import tcgcore.rl.openspiel as tos


def test_every_installed_game_is_registered() -> None:
    names = set(pyspiel.registered_names())
    for name in ("tcgcore_sparks", "tcgcore_guimi_revival", "tcgcore_arkham_card"):
        assert name in names
    game = pyspiel.load_game("tcgcore_arkham_card", {"players": 2, "seed": 4})
    assert game.num_players() == 2
    kind = game.get_type()
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION


@pytest.mark.parametrize("name", ["tcgcore_sparks", "tcgcore_guimi_revival",
                                  "tcgcore_arkham_card"])
def test_random_games_through_the_pyspiel_api(name: str) -> None:
    """Strings and tensors for the acting seat at every step, legal actions only, returns
    in -1..1 at the end; a clone goes on independently."""
    game = pyspiel.load_game(name, {"seed": 2})
    rng = np.random.default_rng(0)
    state = game.new_initial_state()
    steps = 0
    while not state.is_terminal():
        player = state.current_player()
        assert 0 <= player < game.num_players()
        if steps % 4 == 0:
            assert len(state.observation_tensor(player)) == game.observation_tensor_size()
            assert (len(state.information_state_tensor(player))
                    == game.information_state_tensor_size())
            assert state.observation_string(player) in state.information_state_string(player)
        legal = state.legal_actions()
        assert legal and all(0 <= a < game.num_distinct_actions() for a in legal)
        if steps == 5:
            twin = state.clone()
            twin.apply_action(legal[0])
            assert twin.history() != state.history()
        action = int(rng.choice(legal))
        assert state.action_to_string(player, action)
        state.apply_action(action)
        steps += 1
    assert all(r in (-1.0, 0.0, 1.0) for r in state.returns())


def test_a_resampled_world_looks_the_same_to_the_seat_and_differs_elsewhere() -> None:
    """``resample_from_infostate``: the seat's strings and tensors are unchanged, other
    seats' hidden cards (and so the state) are not."""
    game = pyspiel.load_game("tcgcore_guimi_revival", {"seed": 6})
    state = game.new_initial_state()
    rng = np.random.default_rng(1)
    resample = tos.resampler(9)
    differed = 0
    for step in range(120):
        if state.is_terminal():
            break
        player = state.current_player()
        if step % 10 == 0:
            world = resample(state, player)
            assert world.information_state_string(player) == state.information_state_string(player)
            assert world.observation_tensor(player) == state.observation_tensor(player)
            assert world.legal_actions() == state.legal_actions()
            differed += str(world) != str(state) or (
                world.table.match.digest() != state.table.match.digest())
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert differed > 0


def test_openspiel_ismcts_plays_guimi_through_the_adapter() -> None:
    """OpenSpiel's own ISMCTS bot (tiny budget) answers Guimi's first decisions for seat 0
    with legal actions; random answers for seat 1. ``docs/research.md`` has the real run."""
    game = pyspiel.load_game("tcgcore_guimi_revival", {"seed": 1})
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(0),
                                           max_length=80)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=3,
                           random_state=np.random.RandomState(1))
    bot.set_resampler(tos.resampler(3))
    state = game.new_initial_state()
    rng = np.random.default_rng(2)
    searched = 0
    while not state.is_terminal() and searched < 4:
        legal = state.legal_actions()
        if state.current_player() == 0:
            action = int(bot.step(state))
            searched += len(legal) > 1
        else:
            action = int(rng.choice(legal))
        assert action in legal
        state.apply_action(action)
    assert searched == 4



def test_a_tcgcore_agent_answers_whole_choices_beside_the_openspiel_bot() -> None:
    """``Table.choose``: tcgcore's own ``ismcts`` agent (the head-to-head of
    ``examples/ismcts_guimi.py``) answers a seat's whole choice with engine keys, the
    OpenSpiel state goes on from there; a wrong answer changes nothing."""
    import tcgcore

    game = pyspiel.load_game("tcgcore_guimi_revival", {"seed": 5})
    state = game.new_initial_state()
    table = state.table
    agent = tcgcore.make_agent(table.match.spec, "ismcts:iterations=2:depth=20", 5)
    before = table.match.state_bytes()
    seat = state.current_player()
    with pytest.raises(tcgcore.IllegalChoice):
        table.choose(seat, ["no such option"])
    assert table.match.state_bytes() == before
    rng = np.random.default_rng(0)
    answered = 0
    while not state.is_terminal() and answered < 3:
        match = table.match
        assert match.pending is not None
        if state.current_player() == 0:
            decisions = len(match.decisions)
            table.choose(0, agent.decide(match, match.pending))
            assert len(match.decisions) == decisions + 1 and table.picked == []
            answered += 1
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
        if not state.is_terminal():
            assert state.legal_actions() == table.legal_actions(state.current_player())
    assert answered == 3


def test_a_resampled_world_never_keeps_what_the_seat_cannot_know() -> None:
    """``resample_with_seed`` is the game's determinisation of the seat's information set
    (``tcgcore.determinize_state``): two matches that differ only in a card the seat cannot
    see give the same worlds, so no world can carry the real hidden card (a face-down card
    alone in its zone included, which is redealt with its owner's hand and deck)."""
    game = pyspiel.load_game("tcgcore_guimi_revival", {"seed": 6})
    state = game.new_initial_state()
    rng = np.random.default_rng(3)
    for _ in range(40):
        state.apply_action(int(rng.choice(state.legal_actions())))
    player = state.current_player()
    match = state.table.match
    twin = state.clone()
    twin_match = twin.table.match
    hidden = [c for c in match.state.cards if not match.engine.can_see(player, c)]
    a, b = next((x, y) for x in hidden for y in hidden if x.code != y.code)
    twin_match.engine.update_card(a.id, code=b.code)  # swap two hidden codes in the twin
    twin_match.engine.update_card(b.id, code=a.code)
    for seed in range(3):
        world = state.resample_with_seed(player, seed)
        other = twin.resample_with_seed(player, seed)
        assert world.table.match.digest() == other.table.match.digest()


def test_the_head_to_head_example_plays_a_whole_game_with_both_searches() -> None:
    """``examples/ismcts_guimi.py --opponent ismcts`` at the smallest budget: one whole game,
    a result for the bot's seat, CPU and decisions counted for both sides."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "examples" / "ismcts_guimi.py"
    spec = importlib.util.spec_from_file_location("ismcts_guimi", path)
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    out = example.play(1, 2, seed=4, opponent="ismcts")
    assert out["games"] == 1 and out["wins"] + out["losses"] <= 1
    assert 0.0 <= out["wilson_low"] <= out["win_rate"] <= out["wilson_high"] <= 1.0
    for side in ("bot", "opponent"):
        assert out["decisions"][side] > 0 and out["cpu"][side] > 0
    with pytest.raises(ValueError, match="opponent"):
        example.play(1, 2, opponent="genius")
    with pytest.raises(ValueError, match="at least 2"):
        example.play(1, 1)
