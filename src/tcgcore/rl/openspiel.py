"""Every tcgcore game as an OpenSpiel game (a pyspiel Python game).

Importing this module registers each installed game as ``tcgcore_<game>``::

    import pyspiel
    import tcgcore.rl.openspiel
    game = pyspiel.load_game("tcgcore_guimi_revival", {"seed": 3})

Parameters: ``seed`` (the match seed of every ``new_initial_state()``) and ``players``.
Actions are the single-pick action ids of :class:`tcgcore.rl.Table` (the game's
``action_layout``, or the option's position; ``stop`` last). Observation and information-state
strings and tensors come from the seat's :class:`tcgcore.View` only (the tensor is the
:class:`tcgcore.rl.Encoder` vector; the information state adds the seat's own past actions to
the string, and is the same tensor).

Chance is **sampled**, not explicit: the games draw and shuffle with the match's own seeded
generator inside their rules (``ChanceMode.SAMPLED_STOCHASTIC``), so there are no chance
nodes. A clone of a state carries the generator, so an algorithm that searches clones of the
true state (plain MCTS) sees the real deck order and future draws: treat it as a
perfect-information baseline. :meth:`TcgState.resample_from_infostate` makes a world the seat
cannot tell from the real one (see there), which is what ISMCTS needs; algorithms that need
explicit chance outcomes and their probabilities (CFR and other tree-walking solvers,
expectiminimax) do not apply.
"""

from __future__ import annotations

from typing import Any

import msgspec
import numpy as np
import pyspiel

import tcgcore
from tcgcore import Registry, Rng, determinize_state

from ._table import DEFAULT_MAX_ACTIONS, Encoder, Table, build_encoder

__all__ = ["PlayoutEvaluator", "TcgGame", "TcgObserver", "TcgState", "game_name", "register",
           "resampler"]

#: a loose bound OpenSpiel asks for (the games end by their rules, far earlier)
MAX_GAME_LENGTH = 100_000

_JSON = msgspec.json.Encoder()
#: zone kinds whose hidden cards form one pool per owner when a world is resampled


def game_name(game: str) -> str:
    """The OpenSpiel short name of a tcgcore game: ``tcgcore_<game>``."""
    return f"tcgcore_{game}"


class _Box:
    """Holds a state's :class:`Table`; OpenSpiel clones a Python state by deep-copying its
    attributes, and this copies the match with :meth:`tcgcore.Match.clone` instead."""

    def __init__(self, table: Table, history: list[tuple[int, int]]) -> None:
        self.table = table
        self.history = history  # (seat, action) of every action applied

    def __deepcopy__(self, memo: dict[int, Any]) -> _Box:
        return _Box(self.table.clone(), list(self.history))


class TcgGame(pyspiel.Game):
    """A tcgcore game as a pyspiel game (one class per registered game, see :func:`register`)."""

    tcg_game = ""
    tcg_registry: Registry | None = None

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        spec = (self.tcg_registry or tcgcore.default_registry()).game(self.tcg_game)
        self.seed = int(params.get("seed", 0))
        self.players = int(params.get("players", spec.default_players))
        probe = self._match()
        self.encoder: Encoder = build_encoder(probe, DEFAULT_MAX_ACTIONS)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.encoder.num_actions, max_chance_outcomes=0,
            num_players=self.players, min_utility=-1.0, max_utility=1.0,
            max_game_length=MAX_GAME_LENGTH)
        super().__init__(_game_type(self.tcg_game, spec.players), info,
                         {"seed": self.seed, "players": self.players})

    def _match(self) -> tcgcore.Match[Any]:
        return tcgcore.new_match(self.tcg_game, seed=self.seed, players=self.players,
                                 registry=self.tcg_registry, keep_events=False)

    def new_initial_state(self) -> TcgState:
        """A new match with the game's ``seed``, at its first decision."""
        return TcgState(self, Table(self._match(), self.encoder))

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> TcgObserver:
        """The observer for observations (default) or information states (perfect recall)."""
        recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return TcgObserver(self.encoder, perfect_recall=recall)


class TcgState(pyspiel.State):
    """A match in progress, seen through OpenSpiel (its actions are single picks)."""

    def __init__(self, game: TcgGame, table: Table) -> None:
        super().__init__(game)
        self._box = _Box(table, [])

    @property
    def table(self) -> Table:
        """The match with its picks in progress."""
        return self._box.table

    def current_player(self) -> int:
        """The seat to act, or ``pyspiel.PlayerId.TERMINAL``."""
        actor = self._box.table.actor
        return int(pyspiel.PlayerId.TERMINAL) if actor is None else actor

    def _legal_actions(self, player: int) -> list[int]:
        return self._box.table.legal_actions(player)

    def _apply_action(self, action: int) -> None:
        box = self._box
        seat = box.table.actor
        assert seat is not None, "the match is over"
        box.table.act(seat, int(action))
        box.history.append((seat, int(action)))

    def _action_to_string(self, player: int, action: int) -> str:
        if action == self._box.table.encoder.stop_id:
            return "stop"
        option = self._box.table.option_for(player, action) if player >= 0 else None
        return option.label or option.key if option is not None else f"action {action}"

    def is_terminal(self) -> bool:
        """Whether the match has ended."""
        return self._box.table.match.result is not None

    def returns(self) -> list[float]:
        """+1 a winner, -1 a loser, 0 otherwise, per seat (all 0 before the end)."""
        return self._box.table.returns()

    def __str__(self) -> str:
        match = self._box.table.match
        return "\n".join(tcgcore.render_board(match.spec, match.view(None)))

    def resample_with_seed(self, player: int, seed: int) -> TcgState:
        """A copy of this state that ``player`` cannot tell from it: the game's own
        determinisation of ``player``'s information set (:func:`tcgcore.determinize_state`):
        every card ``player`` may not see is redealt over the places ``player`` cannot see,
        in the pools the game defines (by default one per owner, so a lone face-down card
        is redealt with its owner's hand and deck), and the match's generator is reseeded
        from ``seed``, so future draws differ too. ``player``'s view, and so its strings and
        tensors, stay the same.
        """
        twin: TcgState = self.clone()
        match = twin._box.table.match
        state = match.state
        sample = determinize_state(match.spec, state, player, Rng.from_seed(seed % 2**64))
        for field in state.__struct_fields__:  # the twin's match takes the sample in place
            setattr(state, field, getattr(sample, field))
        return twin

    def resample_from_infostate(self, player: int, sampler: Any) -> TcgState:
        """OpenSpiel's hook for ISMCTS: :meth:`resample_with_seed` with a seed drawn from
        ``sampler`` (a callable giving a float in [0, 1)); see :func:`resampler` for a
        seeded, repeatable alternative."""
        return self.resample_with_seed(player, int(sampler() * 2**53))


class TcgObserver:
    """OpenSpiel's observer: ``tensor``/``dict`` from the seat's encoded view and strings
    from the view itself (JSON), plus the seat's own past actions for information states."""

    def __init__(self, encoder: Encoder, *, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(encoder.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: TcgState, player: int) -> None:
        """Fill ``tensor`` with ``player``'s encoded view of ``state``."""
        self.tensor[:] = state.table.observe(player)[0]

    def string_from(self, state: TcgState, player: int) -> str:
        """``player``'s view as JSON (with its own actions so far, for information states)."""
        table = state.table
        view, choice, _ = table.sees(player)
        text = _JSON.encode(view).decode()
        picks = ",".join(str(k) for k in table.picked)
        if choice is not None:
            text += f" picks[{picks}]"
        if self.perfect_recall:
            own = ",".join(str(a) for seat, a in state._box.history if seat == player)
            text += f" mine[{own}]"
        return text


def _game_type(game: str, seats: tuple[int, int]) -> Any:
    return pyspiel.GameType(
        short_name=game_name(game), long_name=f"tcgcore {game}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=seats[1], min_num_players=seats[0],
        provides_information_state_string=True, provides_information_state_tensor=True,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification={"seed": 0, "players": seats[0]},
        default_loadable=True, provides_factored_observation_string=False)


_REGISTERED: set[str] = set()


def register(registry: Registry | None = None) -> list[str]:
    """Register every game of ``registry`` (installed plugins by default) with OpenSpiel,
    once per name; returns the OpenSpiel names (``tcgcore_<game>``)."""
    reg = registry if registry is not None else tcgcore.default_registry()
    names = []
    for game in reg.names():
        name = game_name(game)
        names.append(name)
        if name in _REGISTERED:
            continue
        spec = reg.game(game)
        cls = type(f"TcgGame_{game}", (TcgGame,), {"tcg_game": game, "tcg_registry": registry})
        pyspiel.register_game(_game_type(game, spec.players), cls)
        _REGISTERED.add(name)
    return names


def resampler(seed: int) -> Any:
    """A seeded resampling callback for ``ISMCTSBot.set_resampler``: each call gives
    :meth:`TcgState.resample_with_seed` the next seed of a :class:`tcgcore.Rng`."""
    rng = Rng.from_seed(seed)

    def resample(state: TcgState, player: int) -> TcgState:
        return state.resample_with_seed(player, rng.next64())

    return resample


class PlayoutEvaluator:
    """An evaluator for OpenSpiel's MCTS and ISMCTS bots that plays random playouts on the
    match itself (:class:`tcgcore.RandomAgent` for every seat, no observations built), which
    is several times faster than OpenSpiel's ``RandomRolloutEvaluator`` stepping through the
    adapter. Picks already made in a multi-pick choice are not carried into the playout.
    The prior is uniform over the legal actions.

    Args:
        seed: seeds the playouts' agents (each playout gets the next seeds).
        playouts: playouts averaged per evaluation.
    """

    def __init__(self, seed: int = 0, playouts: int = 1) -> None:
        self.rng = Rng.from_seed(seed)
        self.playouts = playouts

    def evaluate(self, state: TcgState) -> Any:
        """Mean returns (one per seat) of ``playouts`` random playouts from ``state``."""
        total = np.zeros(state.get_game().num_players())
        for _ in range(self.playouts):
            match = state.table.match.clone()
            agents = [tcgcore.RandomAgent(self.rng.next64()) for _ in range(total.size)]
            result = tcgcore.play_out(match, agents)
            if result is not None:
                total += [1.0 if s in result.winners else -1.0 if s in result.losers else 0.0
                          for s in range(total.size)]
        return total / self.playouts

    def prior(self, state: TcgState) -> list[tuple[int, float]]:
        """Uniform over the legal actions."""
        legal = state.legal_actions(state.current_player())
        return [(a, 1.0 / len(legal)) for a in legal]


register()
