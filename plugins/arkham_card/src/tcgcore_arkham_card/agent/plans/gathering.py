"""The heuristic agent's plan for The Gathering (01104): the default plan, which the
other scenarios' plans build on.

Its act 3 is a boss fight (defeat the Ghoul Priest): before it the agent wins Lita
Chantler over at the Parlor (:func:`fetch_lita`, any scenario with a boss act does the
same). In the last act the lead burns the house (Resolution 1, the loop's
``choose_effect``): the group earns Lita, whom The Devourer Below needs (A216.2).
"""

from __future__ import annotations

from typing import Any

import tcgcore

from ..codes import LITA_CHANTLER
from ..tactics import Tactics, _Ctx, success_chance
from .base import ScenarioPlan

__all__ = ["THE_GATHERING", "fetch_lita", "lita_parley"]


def lita_parley(agent: Tactics, code: str) -> int | None:
    """The difficulty of a location's parley that gives control of Lita Chantler
    (the Parlor, A216.1), or ``None``."""
    d = agent._def(code)
    for ab in d.abilities if d is not None else ():
        if ab.action == "parley" and any(e.op == "take_control" and e.code == LITA_CHANTLER
                                         for e in ab.effects):
            return ab.difficulty
    return None


def fetch_lita(agent: Tactics, ctx: _Ctx, choice: tcgcore.Choice,
               opts: dict[str, tcgcore.Option], engaged: list[int]) -> str | None:
    """Before the boss fight, win Lita Chantler over (+1 combat and +1 damage against
    Monsters at her location): parley at the Parlor (no attacks of opportunity,
    A416.3), or walk there while nothing is engaged."""
    invs = ctx.panel.get("investigators") or []
    if any(a["code"] == LITA_CHANTLER for i in invs for a in i.get("assets", [])):
        return None
    here = ctx.location((ctx.me or {}).get("location", -1))
    diff = lita_parley(agent, here["code"]) if here is not None else None
    if diff is not None:
        for o in choice.options:
            if o.key.startswith("activate:") and o.label.endswith(": parley") and \
                    success_chance(ctx.bag, ctx.skill("intellect"), diff) >= 0.2:
                return o.key
        return None
    if engaged:
        return None
    def parlor(loc: dict[str, Any]) -> bool:
        diff = lita_parley(agent, loc["code"]) if loc["revealed"] else None
        return diff is not None and success_chance(ctx.bag, ctx.skill("intellect"),
                                                   diff) >= 0.3
    return agent._step_toward(ctx, opts, parlor)


#: The Gathering's plan (and the default for a scenario without one)
THE_GATHERING = ScenarioPlan(name="The Gathering", before_boss=fetch_lita)
