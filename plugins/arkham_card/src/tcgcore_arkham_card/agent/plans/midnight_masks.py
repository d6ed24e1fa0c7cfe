"""The heuristic agent's plan for The Midnight Masks (01120, A98).

Parley where it is cheap (A984.6: Peter Warren with 2 clues, Victoria Devereux with 5
resources, Herman Collins with 4 cards), slip away from The Masked Hunter while clues
matter (A984.2) and from Ruth Turner (she is interrogated when evaded, A984.4), spend
clues on the act to draw cultists (A983.2), attack cultists here (doom carriers first),
hunt cultists carrying 2 or more doom, then unique cultists it can parley or beat, then
gather clues for the next draw; play only useful assets (a race); resign only with the
last action before midnight (A983.5) or when the next attack would defeat it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import tcgcore

from ..codes import (
    HERMAN_COLLINS,
    PETER_WARREN,
    RUTH_TURNER,
    THE_MASKED_HUNTER,
    TIME_IS_RUNNING_SHORT,
    UNCOVERING_THE_CONSPIRACY,
    VICTORIA_DEVEREUX,
)
from ..tactics import Tactics, _Ctx, success_chance
from .base import ScenarioPlan
from .gathering import fetch_lita

__all__ = ["THE_MIDNIGHT_MASKS"]


def plan(agent: Tactics, ctx: _Ctx, choice: tcgcore.Choice,
         opts: dict[str, tcgcore.Option], engaged: list[int]) -> str | None:
    """This scenario's part of an action (the loop's ``after_shed`` hook)."""
    if ctx.me is None:
        return None
    key = _urgent(ctx, choice, opts, engaged)
    if key or engaged:
        return key
    return _cultists_here(agent, ctx, opts) or _hunt(agent, ctx, opts)


def _urgent(ctx: _Ctx, choice: tcgcore.Choice, opts: dict[str, tcgcore.Option],
            engaged: list[int]) -> str | None:
    """Resign before midnight, parley with a cultist, evade Ruth Turner or The Masked
    Hunter, or spend clues on the act to draw the next cultist."""
    panel, me = ctx.panel, ctx.me
    assert me is not None
    ag = panel["agenda"]
    doom_left = ag["threshold"] - ag["doom_in_play"]
    here = ctx.location(me["location"])
    for o in choice.options:
        if o.key.startswith("activate:") and o.label.endswith(": resign") and \
                ag["code"] == TIME_IS_RUNNING_SHORT and doom_left <= 1 and me["actions"] <= 1:
            return o.key  # midnight strikes at the next doom check
    for o in choice.options:
        if o.key.startswith("activate:") and o.label.endswith(": parley"):
            d = ctx.card(o.card)
            if d is not None and d.type_code == "enemy":
                return o.key
    for eid in engaged:
        info = panel["enemies"][str(eid)]
        d = ctx.card(eid)
        if d is None or f"evade:{eid}" not in opts:
            continue
        p_evade = success_chance(ctx.bag, ctx.skill("agility"), d.enemy_evade or 0)
        if info["code"] == RUTH_TURNER and p_evade >= 0.3:
            return f"evade:{eid}"  # Ruth Turner is interrogated when evaded
        if info["code"] == THE_MASKED_HUNTER and p_evade >= 0.35 and (
                me["clues"] > 0 or (here is not None and here["clues"] > 0)):
            return f"evade:{eid}"  # the Masked Hunter locks our clues
    for o in choice.options:
        if o.key.startswith("activate:") and not engaged:
            d = ctx.card(o.card)
            if d is not None and d.type_code == "act":
                return o.key  # draw the next cultist
    return None


def _cultists_here(agent: Tactics, ctx: _Ctx, opts: dict[str, tcgcore.Option]) -> str | None:
    """Attack an unengaged Cultist here, the one with the most doom first."""
    assert ctx.me is not None
    here = ctx.location(ctx.me["location"])
    cultists = []
    for eid in (here or {}).get("enemies", []):
        info = ctx.panel["enemies"].get(str(eid), {})
        d = ctx.card(eid)
        if d is not None and "Cultist" in d.traits and info.get("engaged", -1) < 0:
            cultists.append((-int(info.get("doom", 0)), int(eid)))
    for _, eid in sorted(cultists):
        key = agent._attack(ctx, opts, eid)
        if key:
            return key
    return None


def _can_take(agent: Tactics, ctx: _Ctx, code: str, ok: bool, evade: int) -> bool:
    """Whether a cultist is worth hunting: beatable (``ok``) or cheap to parley with."""
    me = ctx.me
    assert me is not None
    if code == PETER_WARREN:
        return ok or me["clues"] >= 2  # 2 clues
    if code == VICTORIA_DEVEREUX:
        return ok or me["resources"] >= 5  # 5 resources
    if code == HERMAN_COLLINS:
        return ok or len(ctx.hand) >= 4  # 4 cards
    if code == RUTH_TURNER:
        return ok or success_chance(ctx.bag, ctx.skill("agility"), evade) >= 0.3
    if code == THE_MASKED_HUNTER:
        return False  # it comes to us
    return ok


def _hunt(agent: Tactics, ctx: _Ctx, opts: dict[str, tcgcore.Option]) -> str | None:
    """Walk to a cultist with 2 or more doom, then to a unique one it can take, gather
    clues for the next draw, then walk to any cultist carrying doom."""
    panel, me = ctx.panel, ctx.me
    assert me is not None
    here = ctx.location(me["location"])
    hunt, doomed, heavy = set(), set(), set()
    for info in panel["enemies"].values():
        d = agent._def(info["code"])
        if d is None or "Cultist" not in d.traits or info["engaged"] >= 0:
            continue
        ok = _can_take(agent, ctx, info["code"], ctx.ready_for(d), d.enemy_evade or 0)
        doom = int(info.get("doom", 0))
        if ok and doom >= 2:
            heavy.add(info["location"])  # each doom on it brings midnight closer
        elif ok and d.is_unique:
            hunt.add(info["location"])
        elif ok and doom > 0:
            doomed.add(info["location"])
    for where in (heavy, hunt):
        if where:
            step = agent._step_toward(ctx, opts, lambda loc, w=where: loc["id"] in w)
            if step:
                return step
    n = len(panel.get("investigators") or [])
    if panel["act"]["group_clues"] < 2 * n and here is not None and here["clues"] > 0 \
            and "investigate" in opts:
        key = agent._investigate(ctx, opts, here, 0.2)
        if key:
            return key
    if doomed:
        return agent._step_toward(ctx, opts, lambda loc: loc["id"] in doomed)
    return None


def token_mods(agent: Tactics, panel: Any) -> Mapping[str, int]:
    """The reference card's symbol values (Easy/Standard, A983.4): the skull is minus the
    most doom on a Cultist in play."""
    most = 0
    for info in (panel.get("enemies") or {}).values():
        d = agent._def(info.get("code"))
        if d is not None and "Cultist" in d.traits:
            most = max(most, int(info.get("doom", 0)))
    return {"skull": -most, "cultist": -2, "tablet": -3}


#: The Midnight Masks' plan
THE_MIDNIGHT_MASKS = ScenarioPlan(
    name="The Midnight Masks", acts=frozenset({UNCOVERING_THE_CONSPIRACY}),
    after_shed=plan, before_boss=fetch_lita, resign_margin=1, race=True, token_mods=token_mods)
