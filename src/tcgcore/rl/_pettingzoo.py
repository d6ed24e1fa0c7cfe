"""Every tcgcore game as a PettingZoo AEC environment, and a one-seat Gymnasium wrapper."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import gymnasium
import numpy as np
from pettingzoo import AECEnv

import tcgcore
from tcgcore import Agent, Match, Registry, render_board

from ._table import DEFAULT_MAX_ACTIONS, Encoder, Table, build_encoder, seat_view

__all__ = ["GymEnv", "TcgEnv", "agent_name", "env", "gym_env"]

#: what a seat may be bound to: an agent's name (``"random"`` or one of the game's agents,
#: seeded from each episode's match seed) or an agent object (used as it is)
AgentSpec = str | Agent

ObsDict = dict[str, Any]


def agent_name(seat: int) -> str:
    """The PettingZoo agent name of a seat: ``player_0``, ``player_1`` …"""
    return f"player_{seat}"


class TcgEnv(AECEnv):
    """A tcgcore game as a PettingZoo AEC environment (made by :func:`env`).

    Agents are the seats not bound to an automatic player, named ``player_<seat>``;
    ``agent_selection`` is the seat the pending choice waits for. An observation is
    ``{"observation": float32[size], "action_mask": int8[actions]}``, computed from that
    seat's :class:`tcgcore.View` only (see :class:`tcgcore.rl.Encoder`); the mask is all
    zeros for a seat that need not act. Actions are ``Discrete(actions)`` ids; a choice of
    several keys takes one pick per step and the last id, ``stop``, ends it early. Rewards
    come at the end: +1 for a winner, -1 for a loser, 0 for a draw (a co-operative game's
    result names every seat, so its reward is shared). Episode ``k`` after ``reset(seed=s)``
    plays match seed ``s + k``; ``reset()`` without a seed goes on to the next one. Game
    options are fixed when the environment is made; ``reset``'s ``options`` are ignored.
    """

    def __init__(self, game: str, *, seed: int = 0, options: Mapping[str, Any] | None = None,
                 agents: Mapping[int, AgentSpec] | None = None, players: int | None = None,
                 max_actions: int = DEFAULT_MAX_ACTIONS, max_steps: int | None = None,
                 render_mode: str | None = None, registry: Registry | None = None) -> None:
        super().__init__()
        self.game = game
        self.game_options = dict(options or {})
        self._players = players
        self._registry = registry
        self._base_seed = seed
        self._episode = 0
        self.max_steps = max_steps
        if render_mode not in (None, "human", "ansi"):
            raise tcgcore.OptionsError(f"render_mode must be None, 'human' or 'ansi', "
                                       f"got {render_mode!r}")
        self.render_mode = render_mode
        probe = self._new_match(seed)
        self.num_seats = probe.state.num_players
        self._bound_specs = dict(agents or {})
        for seat in self._bound_specs:
            if type(seat) is not int or not 0 <= seat < self.num_seats:
                raise tcgcore.SeatError(f"agents: no seat {seat!r} in a {self.num_seats}-seat "
                                        f"{game} match")
        free = [s for s in range(self.num_seats) if s not in self._bound_specs]
        if not free:
            raise tcgcore.OptionsError("agents: every seat is bound; leave at least one free")
        self.encoder: Encoder = build_encoder(probe, max_actions)
        self.possible_agents = [agent_name(s) for s in free]
        self._seat = {agent_name(s): s for s in free}
        obs_space = gymnasium.spaces.Dict({
            "observation": gymnasium.spaces.Box(self.encoder.low, self.encoder.high,
                                                (self.encoder.size,), np.float32),
            "action_mask": gymnasium.spaces.Box(0, 1, (self.encoder.num_actions,), np.int8),
        })
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: gymnasium.spaces.Discrete(self.encoder.num_actions)
                              for a in self.possible_agents}
        self.metadata = {"name": f"tcgcore_{game}_v0", "render_modes": ["human", "ansi"],
                         "is_parallelizable": False}
        self.table: Table | None = None
        self._steps = 0

    def _new_match(self, seed: int) -> Match[Any]:
        return tcgcore.new_match(self.game, seed=seed, players=self._players,
                                 registry=self._registry, keep_events=False,
                                 **self.game_options)

    def _bind(self, match: Match[Any], seed: int) -> dict[int, Agent]:
        bound: dict[int, Agent] = {}
        for seat, spec in self._bound_specs.items():
            bound[seat] = (tcgcore.make_agent(match.spec, spec, (seed * 7919 + seat) % 2**64)
                           if isinstance(spec, str) else spec)
        return bound

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """The (shared) observation space: a Dict of ``observation`` and ``action_mask``."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """``Discrete(actions)``: the game's action ids and ``stop`` last."""
        return self.action_spaces[agent]

    @property
    def match(self) -> Match[Any]:
        """The current episode's match (read it; the environment drives it)."""
        if self.table is None:
            raise tcgcore.EngineError("call reset() first")
        return self.table.match

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start the next episode (match seed ``seed``, or the next of the current series)."""
        if seed is not None:
            self._base_seed, self._episode = seed, 0
        match_seed = (self._base_seed + self._episode) % 2**64
        self._episode += 1
        match = self._new_match(match_seed)
        self.table = Table(match, self.encoder, self._bind(match, match_seed))
        self._steps = 0
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._after_move()

    def _after_move(self) -> None:
        table = self.table
        assert table is not None
        actor = table.actor
        if actor is None:
            returns = table.returns()
            for a in self.agents:
                self.rewards[a] = returns[self._seat[a]]
                self.terminations[a] = True
            self.agent_selection = self.agents[0]
        elif self.max_steps is not None and self._steps >= self.max_steps:
            for a in self.agents:
                self.truncations[a] = True
            self.agent_selection = agent_name(actor)
        else:
            self.agent_selection = agent_name(actor)

    def observe(self, agent: str) -> ObsDict:
        """``agent``'s observation now: its encoded view and action mask."""
        if self.table is None:
            raise tcgcore.EngineError("call reset() first")
        obs, mask = self.table.observe(self._seat[agent])
        return {"observation": obs, "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Play ``action`` for ``agent_selection`` (``None`` for an agent whose episode is
        over, as PettingZoo requires).

        Raises:
            tcgcore.IllegalChoice: the action is masked out (nothing changes).
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise tcgcore.IllegalChoice(f"{agent} must act; None is only for a finished agent",
                                        reason="unknown_key")
        table = self.table
        assert table is not None
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        table.act(self._seat[agent], int(action))
        self._steps += 1
        self._after_move()
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The acting seat's board (the last actor's once the match is over), as the
        terminal draws it: printed for ``render_mode="human"``, returned otherwise."""
        if self.table is None:
            return None
        seat = self._seat.get(self.agent_selection, 0) if self.agents else 0
        text = "\n".join(render_board(self.table.match.spec, seat_view(self.table.match, seat)))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release (no windows, no processes)."""


def env(game: str, *, seed: int = 0, options: Mapping[str, Any] | None = None,
        agents: Mapping[int, AgentSpec] | None = None, players: int | None = None,
        max_actions: int = DEFAULT_MAX_ACTIONS, max_steps: int | None = None,
        render_mode: str | None = None, registry: Registry | None = None) -> TcgEnv:
    """A PettingZoo AEC environment for any installed game.

    Args:
        game: a registered game name (``tcgcore.games()``).
        seed: the first episode's match seed (``reset(seed=…)`` starts a new series).
        options: the game's options (as for :func:`tcgcore.new_match`).
        agents: seats played automatically, ``{seat: "random" | agent name | Agent}``;
            the other seats are the environment's agents.
        players: seats (the game's default when ``None``).
        max_actions: how many options of one choice the generic action space reaches
            (ignored when the game has an ``action_layout``).
        max_steps: truncate an episode after this many steps (``None``: play to the end).
        render_mode: ``None``/``"ansi"`` (``render()`` returns the board) or ``"human"``
            (prints it).
        registry: where to find the game (installed plugins by default).

    Raises:
        UnknownGameError, OptionsError, SeatError: as :func:`tcgcore.new_match`, or for a
            bad ``agents`` map (every seat bound, a seat that does not exist).
    """
    return TcgEnv(game, seed=seed, options=options, agents=agents, players=players,
                  max_actions=max_actions, max_steps=max_steps, render_mode=render_mode,
                  registry=registry)


class GymEnv(gymnasium.Env[ObsDict, int]):
    """One seat of a game as a Gymnasium environment, the other seats bound to agents
    (made by :func:`gym_env`). Observations and actions are those of :class:`TcgEnv`;
    ``info["action_mask"]`` repeats the mask. The reward is the seat's final +1/-1/0."""

    metadata = {"render_modes": ["human", "ansi"]}

    def __init__(self, aec: TcgEnv) -> None:
        if len(aec.possible_agents) != 1:
            raise tcgcore.OptionsError("a Gymnasium environment needs exactly one free seat, "
                                       f"got {len(aec.possible_agents)}")
        self.aec = aec
        self.agent = aec.possible_agents[0]
        self.observation_space = aec.observation_space(self.agent)
        self.action_space = aec.action_space(self.agent)
        self.render_mode = aec.render_mode

    def _out(self) -> tuple[ObsDict, float, bool, bool, dict[str, Any]]:
        obs, reward, term, trunc, info = self.aec.last()
        return obs, float(reward), bool(term), bool(trunc), {**info,
                                                             "action_mask": obs["action_mask"]}

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[ObsDict, dict[str, Any]]:
        """Start an episode; returns the first observation and info."""
        super().reset(seed=seed)
        self.aec.reset(seed=seed)
        obs, _, _, _, info = self._out()
        return obs, info

    def step(self, action: int) -> tuple[ObsDict, float, bool, bool, dict[str, Any]]:
        """Play one action; returns observation, reward, terminated, truncated, info."""
        self.aec.step(action)
        return self._out()

    def render(self) -> str | None:
        """The seat's board, as :meth:`TcgEnv.render`."""
        return self.aec.render()


def gym_env(game: str, *, seat: int = 0, opponents: AgentSpec | Mapping[int, AgentSpec] = "random",
            seed: int = 0, options: Mapping[str, Any] | None = None, players: int | None = None,
            max_actions: int = DEFAULT_MAX_ACTIONS, max_steps: int | None = None,
            render_mode: str | None = None) -> GymEnv:
    """``seat`` of ``game`` as a single-agent Gymnasium environment; every other seat is
    played by ``opponents`` (one agent spec for all of them, or one per seat).

    Raises:
        OptionsError, SeatError: as :func:`env`; ``SeatError`` also for a ``seat`` the
            match does not have, or one that ``opponents`` binds to an agent.
    """
    seats = players if players is not None else tcgcore.default_registry().game(game).default_players
    if type(seat) is not int or not 0 <= seat < seats:
        raise tcgcore.SeatError(f"seat: no seat {seat!r} in a {seats}-seat {game} match")
    bound = (dict(opponents) if isinstance(opponents, Mapping)
             else {s: opponents for s in range(seats) if s != seat})
    if seat in bound:
        raise tcgcore.SeatError(f"opponents binds seat {seat}, the environment's own seat")
    return GymEnv(env(game, seed=seed, options=options, agents=bound, players=players,
                      max_actions=max_actions, max_steps=max_steps, render_mode=render_mode))

