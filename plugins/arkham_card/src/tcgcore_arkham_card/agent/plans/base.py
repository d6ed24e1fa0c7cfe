"""What a scenario plan gives the heuristic agent's decision loop (:class:`ScenarioPlan`).

The loop (:meth:`.loop.HeuristicAgent._action`) calls a plan's hooks at fixed points of
each action: ``first`` before resigning is weighed, ``after_shed`` once a weakness has been
shed, ``before_boss`` before engaged enemies are dealt with while the act's objective is
to defeat an enemy. Each hook gets ``(agent, ctx, choice, opts, engaged)`` and returns an
option key or ``None`` (the loop goes on).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import tcgcore

from ..tactics import Tactics, _Ctx

__all__ = ["Hook", "ScenarioPlan"]

#: a plan's hook: ``(agent, ctx, choice, options by key, engaged enemy ids) -> key | None``
Hook = Callable[[Tactics, _Ctx, tcgcore.Choice, dict[str, tcgcore.Option], list[int]],
                "str | None"]


def _no_mods(agent: Tactics, panel: Any) -> Mapping[str, int] | None:
    return None


def _no_bonus(panel: Any) -> int:
    return 0


@dataclass(frozen=True)
class ScenarioPlan:
    """One scenario's plan for the heuristic agent.

    ``acts``: the act (or agenda back) codes during which the plan applies (the empty
    default plan applies otherwise); ``may_resign``: whether resigning can ever help
    (The Devourer Below: it loses, A995.1); ``resign_margin``: extra harm counted when
    judging "close to defeat" (an encounter card can finish us too); ``race``: every
    action counts, so only assets that fight, investigate, raise a skill or soak harm are
    played; ``token_mods(agent, panel)``: the symbol tokens' values on the scenario's
    reference card right now, or ``None`` to estimate them; ``enemy_bonus(panel)``:
    fight and evade added to every enemy."""

    name: str
    acts: frozenset[str] = frozenset()
    first: Hook | None = None
    after_shed: Hook | None = None
    before_boss: Hook | None = None
    may_resign: bool = True
    resign_margin: int = 0
    race: bool = False
    token_mods: Callable[[Tactics, Any], Mapping[str, int] | None] = _no_mods
    enemy_bonus: Callable[[Any], int] = _no_bonus
