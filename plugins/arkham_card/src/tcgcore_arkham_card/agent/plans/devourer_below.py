"""The heuristic agent's plan for The Devourer Below (01142, A99).

Never resign (it loses, A995.1); gather Act 1's clues quickly, each investigator walking
to one fixed target (the best investigate chance less 0.15 per step, enemies and entry
tests such as Arkham Woods counted) so nobody ping-pongs through the Main Path, and
investigate Twisting Paths rather than fight its exit test; play Lita Chantler at once
(saving resources for her), otherwise at most one weapon, booster or ally a turn (never
one that places doom, never one that would push Lita out); kill doom-carrying enemies it
can finish, heal at Quiet Glade, walk to the Ritual Site for Act 2 with two clues in hand
while the agenda allows (a fragile investigator leaves the entering, and Last Rites'
enemies, to a sturdier teammate), use Act 3's action whenever it has a clue (before
fighting when one attack of opportunity is survivable), investigate for Act 3's clues at
any chance rather than idle, take attacks of opportunity rather than trade hopeless blows
while the ritual is at stake; once Umôrdhoth is in play, Lita's holder brings her to it
(Resolution 3, A994.6), the others keep away, and without Lita it is attacked.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import tcgcore

from ...cards import CardDef
from ..codes import (
    DEVOURER_BELOW_ACTS,
    DISRUPTING_THE_RITUAL,
    INTO_THE_DARKNESS,
    INVESTIGATING_THE_TRAIL,
    LITA_CHANTLER,
    QUIET_GLADE,
    RITUAL_SITE,
    THE_RITUAL_BEGINS,
    UMORDHOTH,
    VENGEANCE_AWAITS,
)
from ..tactics import Tactics, _Ctx, success_chance
from .base import ScenarioPlan
from .gathering import fetch_lita

__all__ = ["THE_DEVOURER_BELOW"]

_Opts = dict[str, tcgcore.Option]


def plan(agent: Tactics, ctx: _Ctx, choice: tcgcore.Choice, opts: _Opts,
         engaged: list[int]) -> str | None:
    """Clues for act 1, then the Ritual Site, then act 3's action (A993.4–A993.6); once
    Umôrdhoth is in play Lita's holder goes to give her up (A994.6), the others keep away
    from it, and without Lita it is attacked (the loop's ``first`` hook)."""
    panel, me = ctx.panel, ctx.me
    if me is None:
        return None
    act_code = panel["act"]["code"]
    umor = [int(e) for e, i in panel["enemies"].items() if i["code"] == UMORDHOTH]
    acts = {o.key: ctx.card(o.card) for o in choice.options if o.key.startswith("activate:")}
    key = _lita_first(agent, ctx, choice, opts, engaged, bool(umor))
    if key is None and umor:
        key = _umordhoth(agent, ctx, opts, engaged, umor[0])
    if key is not None:
        return key
    key, engaged = _engaged(agent, ctx, opts, engaged, acts)
    if key is not None or engaged:
        return key
    key = _between_fights(agent, ctx, choice, opts, engaged, acts, bool(umor))
    if key is None and act_code == INTO_THE_DARKNESS:
        key = _into_the_darkness(agent, ctx, opts)
    if key is None and act_code == DISRUPTING_THE_RITUAL and me["clues"] == 0:
        key = _a_clue_for_the_ritual(agent, ctx, opts, engaged)
    if key is None:
        key = _walk_for_clues(agent, ctx, opts)
    return key


def _lita_first(agent: Tactics, ctx: _Ctx, choice: tcgcore.Choice, opts: _Opts,
                engaged: list[int], umor: bool) -> str | None:
    """Shed a weakness (not with Umôrdhoth in play), play Lita Chantler, or save up for
    her."""
    me = ctx.me
    assert me is not None
    shed = agent._shed_weakness(ctx, choice)
    if shed and not umor:
        return shed
    for o in choice.options:
        if o.key.startswith("play:") and ctx.code(o.card or -1) == LITA_CHANTLER:
            return o.key  # Lita in play: +1 combat here, and Resolution 3 (A994.6)
    lita_hand = any(ctx.code(c) == LITA_CHANTLER for c in ctx.hand)
    lita = agent._def(LITA_CHANTLER)
    if lita_hand and not engaged and "resource" in opts and \
            me["resources"] < ((lita.cost if lita is not None else 0) or 0):
        return "resource"  # save up for her
    return None


def _umordhoth(agent: Tactics, ctx: _Ctx, opts: _Opts, engaged: list[int],
               umor: int) -> str | None:
    """Umôrdhoth in play: give Lita up to it (Resolution 3) rather than lose a fight, bring
    her to it, keep away from it when another holds her, attack it when nobody does."""
    panel, me = ctx.panel, ctx.me
    assert me is not None
    here = ctx.location(me["location"])
    info = panel["enemies"][str(umor)]
    lita = [k for k, o in opts.items() if k.startswith("activate:") and o.card == umor]
    hurt = me["health"] - me["damage"] <= 3 or me["sanity"] - me["horror"] <= 3
    if lita and (hurt or info["health"] - info["damage"] > 3):
        return lita[0]  # R3 rather than a lost fight (A994.6)
    holders = [i["seat"] for i in panel.get("investigators") or []
               if not i.get("status") and any(a["code"] == LITA_CHANTLER
                                              for a in i.get("assets", []))]
    if ctx.seat in holders:
        step = agent._step_toward(ctx, opts, lambda loc: umor in loc["enemies"])
        if step:
            return step  # bring Lita to it
    elif holders:
        if here is not None and umor in here["enemies"] and not engaged:
            step = agent._step_toward(ctx, opts, lambda loc: umor not in loc["enemies"])
            if step:
                return step  # keep away and leave it to Lita's holder
    elif here is not None and umor in here["enemies"]:
        key = agent._attack(ctx, opts, umor)
        if key:
            return key
    return None


def _engaged(agent: Tactics, ctx: _Ctx, opts: _Opts, engaged: list[int],
             acts: dict[str, CardDef | None]) -> tuple[str | None, list[int]]:
    """Engaged enemies in acts 2 and 3: the ritual first (one attack of opportunity), slip
    away, or take the attacks; otherwise deal with them. Returns the key (or ``None``) and
    the enemies still to be dealt with (none once the attacks are to be taken)."""
    me, act_code = ctx.me, ctx.panel["act"]["code"]
    assert me is not None
    if engaged and act_code == DISRUPTING_THE_RITUAL and me["clues"] > 0:
        dmg = sum(getattr(ctx.card(e), "enemy_damage", 0) for e in engaged)
        hor = sum(getattr(ctx.card(e), "enemy_horror", 0) for e in engaged)
        if me["health"] - me["damage"] > 2 * dmg + 1 and \
                me["sanity"] - me["horror"] > 2 * hor + 1:
            for key, d in acts.items():  # the ritual first: one attack of opportunity
                if d is not None and d.code == DISRUPTING_THE_RITUAL:
                    return key, engaged
    if engaged and act_code in (INTO_THE_DARKNESS, DISRUPTING_THE_RITUAL):
        for eid in engaged:  # slip away toward the ritual rather than trade blows
            d = ctx.card(eid)
            if d is not None and f"evade:{eid}" in opts and success_chance(
                    ctx.bag, ctx.skill("agility"),
                    (d.enemy_evade or 0) + ctx.enemy_bonus) >= 0.45:
                return f"evade:{eid}", engaged
        if not agent._worth_fighting(ctx, opts, engaged) and \
                agent._can_take_hits(ctx, engaged):
            engaged = []  # the ritual matters more: take the attacks of opportunity
    if engaged:
        return agent._handle_enemies(ctx, opts, engaged), engaged
    return None, engaged


def _between_fights(agent: Tactics, ctx: _Ctx, choice: tcgcore.Choice, opts: _Opts,
                    engaged: list[int], acts: dict[str, CardDef | None],
                    umor: bool) -> str | None:
    """Nothing engaged: help a teammate, heal at Quiet Glade, finish a doom carrier here,
    play one card a turn, or take act 3's action."""
    panel, me = ctx.panel, ctx.me
    assert me is not None
    act_code = panel["act"]["code"]
    here = ctx.location(me["location"])
    if agent.TEAM:
        team = agent._help_team(ctx, opts, engaged)
        if team:
            return team
    for key, d in acts.items():
        if d is not None and d.code == QUIET_GLADE and (
                me["damage"] >= 2 or me["horror"] >= 2 or
                me["health"] - me["damage"] <= 3 or me["sanity"] - me["horror"] <= 3):
            return key
    for eid in sorted((here or {}).get("enemies", []),
                      key=lambda e: -int(panel["enemies"].get(str(e), {}).get("doom", 0))):
        info = panel["enemies"].get(str(eid), {})
        if int(info.get("doom", 0)) > 0 and info["health"] - info["damage"] <= 2:
            hit = agent._attack(ctx, opts, int(eid))  # its doom leaves with it
            if hit:
                return hit
    if not umor and act_code != DISRUPTING_THE_RITUAL and me["actions"] >= 3:
        play = agent._play(ctx, choice, engaged, race=True)  # one weapon or ally a turn
        if play:
            return play
    if act_code == DISRUPTING_THE_RITUAL:
        for key, d in acts.items():
            if d is not None and d.code == DISRUPTING_THE_RITUAL and me["clues"] > 0:
                return key  # the act's action can be taken anywhere
    return None


def _into_the_darkness(agent: Tactics, ctx: _Ctx, opts: _Opts) -> str | None:
    """Act 2: stock up on clues (act 3 spends one per attempt, A993.6) while the agenda
    allows, then walk to the Ritual Site unless a sturdier teammate can enter it."""
    panel, me = ctx.panel, ctx.me
    assert me is not None
    here = ctx.location(me["location"])
    if here is not None and here["code"] == RITUAL_SITE:
        return None
    ag = panel["agenda"]
    time_left = ag["code"] != VENGEANCE_AWAITS or ag["threshold"] - ag["doom_in_play"] >= 3
    want = agent.DB_CLUES if time_left else 1
    if me["clues"] < want and here is not None and here["clues"] > 0 and \
            "investigate" in opts:  # a clue now saves a trip for act 3
        key = agent._investigate(ctx, opts, here, 0.45 if me["clues"] else 0.3)
        if key:
            return key
    if me["clues"] < want and time_left:
        step = agent._step_toward(ctx, opts, lambda loc: loc["revealed"] and loc[
            "clues"] > 0 and loc["code"] != RITUAL_SITE and not loc["enemies"] and
            agent._loc_chance(ctx, loc) >= 0.45)
        if step:
            return step
    # Last Rites spawns its enemies on whoever enters (A993.5): leave that to a
    # sturdier teammate while the agenda allows
    def fragile(inv: dict[str, Any]) -> bool:
        return bool(inv["health"] - inv["damage"] <= 3 or
                    inv["sanity"] - inv["horror"] <= 3)
    sturdier = any(not i.get("status") and i["seat"] != ctx.seat and not fragile(i)
                   for i in panel.get("investigators") or [])
    if not (fragile(me) and sturdier and time_left):
        return agent._step_toward(ctx, opts, lambda loc: loc["code"] == RITUAL_SITE)
    return None


def _a_clue_for_the_ritual(agent: Tactics, ctx: _Ctx, opts: _Opts,
                           engaged: list[int]) -> str | None:
    """Act 3 without a clue: every attempt needs one of one's own, so any chance of one
    beats idling (the Ritual Site refills each round, A993.5)."""
    me = ctx.me
    assert me is not None
    here = ctx.location(me["location"])
    if here is not None and here["clues"] > 0 and "investigate" in opts:
        if agent._loc_chance(ctx, here) < 0.25:
            team = agent._help_team(ctx, opts, engaged, eager=True)
            if team:
                return team
        key = agent._investigate(ctx, opts, here, 0.05)
        if key:
            return key
    step = agent._step_toward(ctx, opts, lambda loc: loc["clues"] > 0 and
                              agent._loc_chance(ctx, loc) >= 0.3)
    return step or agent._step_toward(ctx, opts, lambda loc: loc["code"] == RITUAL_SITE)


def _walk_for_clues(agent: Tactics, ctx: _Ctx, opts: _Opts) -> str | None:
    """Act 1 (and act 3 without a clue): one target for the whole walk, the best chance
    less 0.15 per step away (an enemy there costs 0.2), so that leaving a place never
    makes the place just left look better again (no ping-pong through the Main Path)."""
    panel, me = ctx.panel, ctx.me
    assert me is not None
    act_code = panel["act"]["code"]
    need = act_code == INVESTIGATING_THE_TRAIL and \
        panel["act"]["clues_needed"] > panel["act"]["group_clues"]
    if not (need or (act_code == DISRUPTING_THE_RITUAL and me["clues"] == 0)):
        return None
    here = ctx.location(me["location"])
    dist = agent._distances(ctx)
    locs = {loc["id"]: loc for loc in panel["locations"]}
    d_here = agent._def(here["code"]) if here is not None else None
    sticky = d_here is not None and "before_leave" in d_here.forced  # Twisting Paths
    best: tuple[float, int] | None = None
    for lid, n in dist.items():
        loc = locs[lid]
        if loc["code"] == RITUAL_SITE and act_code != DISRUPTING_THE_RITUAL:
            continue  # entering the Ritual Site moves the act on
        if loc["revealed"] and loc["clues"] <= 0:
            continue
        val = agent._loc_chance(ctx, loc) if loc["revealed"] else 0.45
        val -= 0.15 * n + (0.2 if loc["enemies"] and n else 0.0) + \
            (0.1 if sticky and n else 0.0) + \
            (0.5 * agent._entry_cost(ctx, loc["code"]) if n else 0.0) + \
            (0.15 * agent._leave_cost(ctx, loc["code"]) if n else 0.0)
        if best is None or (val, -n, -lid) > (best[0], -dist[best[1]], -best[1]):
            best = (val, lid)
    if best is None:
        return None
    if here is not None and best[1] == here["id"]:
        return agent._investigate(ctx, opts, here, 0.0) if "investigate" in opts else None
    target = best[1]
    return agent._step_toward(ctx, opts, lambda loc: loc["id"] == target)


def token_mods(agent: Tactics, panel: Any) -> Mapping[str, int]:
    """The reference card's symbol values (Easy/Standard, A995.2–A995.4): the skull is
    minus the Monsters in play, the Elder Thing -5 (-7 while an Ancient One is in play)."""
    monsters, ancient = 0, False
    for info in (panel.get("enemies") or {}).values():
        d = agent._def(info.get("code"))
        if d is not None:
            monsters += "Monster" in d.traits
            ancient = ancient or "Ancient One" in d.traits
    return {"skull": -monsters, "cultist": -2, "tablet": -3,
            "elder_thing": -7 if ancient else -5}


def enemy_bonus(panel: Any) -> int:
    """The Ritual Begins (A993.2): every enemy +1 fight and +1 evade."""
    return 1 if (panel.get("agenda") or {}).get("code") == THE_RITUAL_BEGINS else 0


#: The Devourer Below's plan
THE_DEVOURER_BELOW = ScenarioPlan(
    name="The Devourer Below", acts=frozenset(DEVOURER_BELOW_ACTS), first=plan,
    before_boss=fetch_lita, may_resign=False, race=True, token_mods=token_mods,
    enemy_bonus=enemy_bonus)
