"""Research interfaces: every tcgcore game as a PettingZoo environment (and OpenSpiel game).

Needs the optional ``rl`` extra (``pip install -e ".[rl]"``: PettingZoo, Gymnasium, numpy;
OpenSpiel for :mod:`tcgcore.rl.openspiel`)::

    import tcgcore.rl
    env = tcgcore.rl.env("sparks", seed=0, agents={1: "random"})   # seat 1 plays itself
    env.reset()
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        action = None if terminated or truncated else int(obs["action_mask"].nonzero()[0][0])
        env.step(action)

Observations come from the acting seat's :class:`tcgcore.View` only; see ``docs/research.md``.
"""

from __future__ import annotations

try:
    import gymnasium  # noqa: F401
    import numpy  # noqa: F401
    import pettingzoo  # noqa: F401
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError(f"tcgcore.rl needs the optional 'rl' extra (pip install -e \".[rl]\" "
                      f"from a tcgcore checkout): {exc}") from exc

from ._pettingzoo import GymEnv, TcgEnv, agent_name, env, gym_env
from ._table import DEFAULT_MAX_ACTIONS, Encoder, Table, build_encoder

__all__ = ["DEFAULT_MAX_ACTIONS", "Encoder", "GymEnv", "Table", "TcgEnv", "agent_name",
           "build_encoder", "env", "gym_env"]
