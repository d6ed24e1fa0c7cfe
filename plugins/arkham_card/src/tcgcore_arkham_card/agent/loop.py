"""The heuristic agent's decision loop (:class:`HeuristicAgent`): one handler per kind of
choice, and the plan of an action (:meth:`HeuristicAgent._action`) with the current
scenario's plan (:data:`.plans.PLANS`) hooked in at fixed points."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import tcgcore

from ..cards import CardDef
from .codes import LITA_CHANTLER
from .plans import DEFAULT_PLAN, PLANS
from .plans.base import ScenarioPlan
from .tactics import Tactics, _Codes, _Ctx, _Panel, success_chance

__all__ = ["HeuristicAgent"]


class HeuristicAgent(Tactics):
    """A sensible solo or team investigator for the Night of the Zealot scenarios."""

    def decide(self, match: tcgcore.Match[Any], choice: tcgcore.Choice) -> list[str]:
        """Answer ``choice`` for its seat: decided on what the seat may know (its
        :class:`tcgcore.SeatReader`), whose pending choice names cards as the view does
        (the seat's aliases), then translated back to the engine's keys
        (:meth:`tcgcore.Match.engine_keys`)."""
        reader = tcgcore.SeatReader(match, choice.player)
        shown = reader.pending
        if shown is None:  # not this seat's choice: nothing to decide from
            return [o.key for o in choice.options[:max(choice.min, 1)]]
        answer = self._decide(reader, shown)
        engine = match.pending
        if engine is None or len(engine.options) != len(shown.options):
            return list(match.engine_keys(choice.player, answer))
        # the seat's options are the engine's, in the same order (Match.engine_keys
        # without building the seat's choice a second time)
        to_engine = {o.key: e.key for o, e in zip(shown.options, engine.options, strict=True)}
        return [to_engine.get(k, "\x00" + k) for k in answer]

    def _decide(self, reader: tcgcore.SeatReader, choice: tcgcore.Choice) -> list[str]:
        ctx = _Ctx(self, _Panel(reader), choice.player, _Codes(reader),
                   reader.ids(f"hand.{choice.player}"))
        handler = getattr(self, "_" + choice.kind, None)
        keys: list[str] | None = handler(ctx, choice) if handler is not None else None
        if keys is None:
            keys = [o.key for o in choice.options[:max(choice.min, 1)]][:max(choice.min, 1)]
            if choice.min == 0 and choice.kind not in ("use_trigger",):
                keys = [] if choice.max != 1 or any(o.key == "pass" for o in choice.options) \
                    else keys
            if any(o.key == "pass" for o in choice.options) and choice.min <= 1:
                keys = ["pass"]
        return keys

    # ------------------------------------------------------------------ choices
    def _mulligan(self, ctx: _Ctx, choice: tcgcore.Choice) -> list[str]:
        out = []
        for o in choice.options:
            d = ctx.card(o.card)
            if d is None:
                continue
            if d.type_code == "skill" or (d.cost or 0) >= 5:
                out.append(o.key)
        return out

    def _use_trigger(self, ctx: _Ctx, choice: tcgcore.Choice) -> list[str]:
        return ["yes"]

    def _sure_gamble(self, ctx: _Ctx, choice: tcgcore.Choice) -> list[str]:
        return [choice.options[0].key]  # a negative modifier turned positive

    def _lend_ability(self, ctx: _Ctx, choice: tcgcore.Choice) -> list[str]:
        return ["use"]  # Police Badge for the investigator whose turn it is

    def _choose_skill(self, ctx: _Ctx, choice: tcgcore.Choice) -> list[str]:
        return ["skill:intellect"]  # Encyclopedia: the agent mostly investigates

    def _statue_use(self, ctx: _Ctx, choice: tcgcore.Choice) -> list[str]:
        return ["use"]  # Grotesque Statue: the better of 2 tokens (listed first after)

    def _wendy_redraw(self, ctx: _Ctx, choice: tcgcore.Choice) -> list[str]:
        """Wendy Adams: give up the cheapest card to redraw an auto-fail or a -3 or worse."""
        token = choice.options[0].label.partition(" ")[2]
        bad = token == "auto_fail" or (token.startswith("-") and token[1:].isdigit()
                                       and int(token) <= -3)
        cards = [o for o in choice.options if o.key != "pass"]
        if not bad or not cards:
            return ["pass"]
        cheapest = min(cards, key=lambda o: (getattr(ctx.card(o.card), "cost", 0) or 0, o.key))
        return [cheapest.key]

    def _advance_act(self, ctx: _Ctx, choice: tcgcore.Choice) -> list[str]:
        return ["no"] if self._wait_for_boss(ctx) else ["yes"]

    def _wait_for_boss(self, ctx: _Ctx) -> bool:
        """Hold the act back while the enemy its advance brings would beat us and the
        agenda leaves time to get ready (draw weapons, gain resources)."""
        act = self._def(ctx.panel["act"]["code"])
        if act is None:
            return False
        boss = next((e.code for e in act.back if e.op == "spawn_set_aside"), "")
        bd = self._def(boss)
        if bd is None or bd.type_code != "enemy":
            return False
        ag = ctx.panel["agenda"]
        agenda = self._def(ag["code"])
        doom_left = ag["threshold"] - ag["doom_in_play"]
        if agenda is not None and agenda.stage == 3 and doom_left <= 7:
            return False
        if ctx.panel["round"] >= 14 or ctx.ready_for(bd):
            return False
        return ctx.ready_for(bd, with_hand=True)  # worth waiting to play a weapon

    def _trauma(self, ctx: _Ctx, choice: tcgcore.Choice) -> list[str]:
        return ["physical"]

    def _choose_effect(self, ctx: _Ctx, choice: tcgcore.Choice) -> list[str]:
        labels = {o.key: o.label.lower() for o in choice.options}
        if "test willpower" in labels.get("a", "") and "agility" in labels.get("b", ""):
            return ["a"] if ctx.skill("willpower") >= ctx.skill("agility") else ["b"]
        if "heal 1 damage" in labels.get("a", "") and ctx.me is not None:
            return ["a"] if ctx.me["health"] - ctx.me["damage"] <= \
                ctx.me["sanity"] - ctx.me["horror"] else ["b"]
        if "doom" in labels.get("a", "") and "horror" in labels.get("b", "") and \
                ctx.me is not None:  # Offer of Power: doom brings the end closer
            return ["b"] if ctx.me["sanity"] - ctx.me["horror"] > 2 else ["a"]
        if "burn" in labels.get("a", ""):
            # burn the house (Resolution 1): the lead takes 1 mental trauma but the group
            # earns Lita Chantler (A216.2), whom The Devourer Below's Resolution 3 needs
            # and who helps against its Monsters; keeping the house (R2) earns nobody
            return ["a"]
        if "horror" in labels.get("b", "") and ctx.me is not None:
            left = ctx.me["sanity"] - ctx.me["horror"]
            return ["b"] if left >= 7 and len(ctx.hand) >= 4 else ["a"]
        return ["a"]

    def _slot_discard(self, ctx: _Ctx, choice: tcgcore.Choice) -> list[str]:
        return [min(choice.options, key=lambda o: (ctx.code(o.card or -1) == LITA_CHANTLER,
                                                   ctx.cost(o.card))).key]

    _discard_asset = _slot_discard

    def _hand_size(self, ctx: _Ctx, choice: tcgcore.Choice) -> list[str]:
        ranked = sorted(choice.options, key=lambda o: -ctx.cost(o.card))
        return [o.key for o in ranked[:choice.min]]

    def _spend_clues(self, ctx: _Ctx, choice: tcgcore.Choice) -> list[str]:
        return [o.key for o in choice.options[:choice.min]]

    def _assign(self, ctx: _Ctx, choice: tcgcore.Choice) -> list[str]:
        kind = choice.kind[len("assign_"):]
        me = ctx.me
        room = 99 if me is None else (me["health"] - me["damage"] if kind == "damage"
                                      else me["sanity"] - me["horror"])
        best: tuple[int, str] | None = None
        for o in choice.options:
            if not o.key.startswith("asset:"):
                continue
            if ctx.code(o.card or -1) == LITA_CHANTLER and room > 1:
                continue  # keep Lita Chantler alive (The Devourer Below's Resolution 3)
            d = ctx.card(o.card)
            cap = (d.health if kind == "damage" else d.sanity) if d is not None else None
            info: dict[str, Any] = next(
                (a for a in (me or {}).get("assets", []) if a["id"] == o.card), {})
            left = (cap or 0) - int(info.get(kind, 0))
            # soak with sturdy assets first; sacrifice an ally only when it matters
            score = left * 10 - ctx.cost(o.card)
            full = (me or {}).get("sanity" if kind == "horror" else "health", 9)
            if left > 1 or room <= 3 or (kind == "horror" and full <= 6 and left >= 1) or (
                    d is not None and d.type_code == "asset" and not d.slot.startswith("Ally")):
                if best is None or score > best[0]:
                    best = (score, o.key)
        if best is not None:
            return [best[1]]
        return ["inv"] if any(o.key == "inv" for o in choice.options) else [choice.options[0].key]

    _assign_damage = _assign
    _assign_horror = _assign

    def _choose_enemy(self, ctx: _Ctx, choice: tcgcore.Choice) -> list[str]:
        def score(o: tcgcore.Option) -> tuple[int, int]:
            e = ctx.enemy(o.card)
            if e is None:
                return (0, 0)
            left = e["health"] - e["damage"]
            d = ctx.card(o.card)
            return (0 if e.get("engaged") == ctx.seat else 1, left - 3 * ((d.victory or 0)
                                                                           if d else 0))
        return [min(choice.options, key=score).key]

    def _commit(self, ctx: _Ctx, choice: tcgcore.Choice) -> list[str]:
        test = ctx.panel.get("test") or {}
        if not test:
            return []
        skill, diff = test["skill"], test["difficulty"]
        mine = test["seat"] == ctx.seat
        value = int(test.get("base", 0))
        chosen: list[str] = []
        cands = []
        for o in choice.options:
            d = ctx.card(o.card)
            if d is None:
                continue
            icons = d.icons(skill)
            keep = d.type_code in ("asset", "event") and self._worth_playing(ctx, d)
            cands.append((0 if d.type_code == "skill" else 1, -icons, o.key, icons, keep))
        cands.sort()
        for _, _, key, icons, keep in cands:
            now = success_chance(ctx.bag, value, diff)
            if now >= (0.8 if mine else 0.7):
                break
            if keep and now >= 0.4:
                continue
            gain = success_chance(ctx.bag, value + icons, diff) - now
            if gain < (0.1 if not keep else 0.25):
                continue
            chosen.append(key)
            value += icons
            if not mine:
                break
        return chosen[:choice.max]

    def _fast_window(self, ctx: _Ctx, choice: tcgcore.Choice) -> list[str]:
        test = ctx.panel.get("test") or {}
        if not test or test["seat"] != ctx.seat or ctx.me is None:
            return ["pass"]
        value = int(test.get("base", 0))
        if success_chance(ctx.bag, value, test["difficulty"]) >= 0.75 or \
                ctx.me["resources"] < 2:
            return ["pass"]
        for o in choice.options:
            if o.key.startswith("fast:"):
                d = ctx.card(o.card)
                idx = int(o.key.split(":")[2])
                if d is not None and idx < len(d.abilities):
                    ab = d.abilities[idx]
                    if any(e.op == "test_bonus" and e.skill in ("", test["skill"])
                           for e in ab.effects):
                        return [o.key]
        return ["pass"]

    def _would_fail(self, ctx: _Ctx, choice: tcgcore.Choice) -> list[str]:
        test = ctx.panel.get("test") or {}
        if test and int(test.get("value", 0)) + 2 >= test["difficulty"]:
            for o in choice.options:
                if o.key != "pass":
                    return [o.key]
        return ["pass"]

    # ------------------------------------------------------------------ the turn
    def _action(self, ctx: _Ctx, choice: tcgcore.Choice) -> list[str]:
        """An action, in order of priority: advance the act; the scenario's first moves;
        resign or fall back (:meth:`_retreat`); shed a weakness; the scenario's moves;
        heal; a fast ability that finishes an enemy; before a boss, the scenario's
        preparation; engaged enemies; help a teammate; then the objective
        (:meth:`_objective`) and exploring (:meth:`_explore`)."""
        me, panel = ctx.me, ctx.panel
        opts = {o.key: o for o in choice.options}
        if me is None:
            return [choice.options[0].key]
        if "advance_act" in opts:
            return ["advance_act"]
        plan = self.plan(panel)
        act = self._def(panel["act"]["code"])
        boss_stage = act is not None and act.objective.startswith("defeat:")
        engaged = [int(e) for e, info in panel["enemies"].items() if info["engaged"] == ctx.seat]
        key = plan.first(self, ctx, choice, opts, engaged) if plan.first else None
        key = key or self._retreat(ctx, choice, opts, plan, act)
        if key is None and not engaged:
            key = self._shed_weakness(ctx, choice)
        if key is None and plan.after_shed is not None:
            key = plan.after_shed(self, ctx, choice, opts, engaged)
        key = key or self._heal(ctx, choice, engaged) or self._fast_damage(ctx, opts)
        if key is None and boss_stage and plan.before_boss is not None:
            key = plan.before_boss(self, ctx, choice, opts, engaged)
        if key is None and engaged:
            key = self._handle_enemies(ctx, opts, engaged)
        if key is None and self.TEAM:
            key = self._help_team(ctx, opts, engaged)
        return [key or self._objective(ctx, choice, opts, plan, act, engaged)]

    def _retreat(self, ctx: _Ctx, choice: tcgcore.Choice, opts: dict[str, tcgcore.Option],
                 plan: ScenarioPlan, act: CardDef | None) -> str | None:
        """Resign when the final agenda is about to run out, when close to defeat or when
        the boss cannot be beaten (never where resigning loses); at a boss stage in
        trouble, fall back toward a location where one may resign (the Parlor), taking
        the attacks of opportunity if they can be survived, and only with an action left
        to resign once there (a hunter follows and attacks again in the enemy phase)."""
        me, panel = ctx.me, ctx.panel
        assert me is not None
        ag = panel["agenda"]
        resign = [o.key for o in choice.options if o.key.startswith("activate:")
                  and o.label.endswith(": resign")]
        agenda = self._def(ag["code"])
        final_agenda = agenda is not None and agenda.stage == 3
        doom_left = ag["threshold"] - ag["doom_in_play"]
        hurt = max((e["enemy"].enemy_damage, e["enemy"].enemy_horror)
                   for e in ctx.threats()) if ctx.threats() else (1, 1)
        margin = plan.resign_margin  # an encounter card can finish us too
        near_death = (me["health"] - me["damage"] <= hurt[0] + margin) or \
            (me["sanity"] - me["horror"] <= hurt[1] + margin)
        boss_stage = act is not None and act.objective.startswith("defeat:")
        weak = act is not None and boss_stage and not self._can_beat_boss(ctx, act)
        if not plan.may_resign:
            resign, weak = [], False
        if resign and ((final_agenda and doom_left <= 1) or near_death or weak):
            return resign[0]
        if boss_stage and (near_death or weak):
            aoo = [t["enemy"] for t in ctx.threats() if t["engaged"] == ctx.seat]
            dmg = sum(d.enemy_damage for d in aoo)
            hor = sum(d.enemy_horror for d in aoo)
            if (not aoo or me["actions"] >= 2) and \
                    me["health"] - me["damage"] > dmg and me["sanity"] - me["horror"] > hor:
                return self._step_toward(ctx, opts, lambda loc: ctx.can_resign_at(loc["code"]))
        return None

    def _objective(self, ctx: _Ctx, choice: tcgcore.Choice, opts: dict[str, tcgcore.Option],
                   plan: ScenarioPlan, act: CardDef | None, engaged: list[int]) -> str:
        """Free plays that help now; at a boss stage, parley for an ally or attack the
        act's target here; clues while the act needs them and the odds are good; a card
        worth playing; gather at the act's location once the clues are in hand."""
        me, panel = ctx.me, ctx.panel
        assert me is not None
        here = ctx.location(me["location"])
        for o in choice.options:
            if o.key.startswith("fastplay:"):
                d = ctx.card(o.card)
                if d is not None and any(e.op == "discover_clues" for e in d.effects) and \
                        here and here["clues"] > 0:
                    return o.key
                if d is not None and d.type_code == "asset":
                    return o.key
        if act is not None and act.objective.startswith("defeat:"):
            parley = [o.key for o in choice.options if o.key.startswith("activate:")
                      and o.label.endswith(": parley")]
            if parley and ctx.skill("intellect") >= 3 and not engaged:
                return parley[0]  # Lita Chantler: +1 combat, +1 damage on Monsters
            target = act.objective.split(":", 1)[1]
            for eid, info in panel["enemies"].items():
                if info["code"] == target and int(eid) in (here or {}).get("enemies", []):
                    key = self._attack(ctx, opts, int(eid))
                    if key:
                        return key
        need_clues = panel["act"]["clues_needed"] > panel["act"]["group_clues"]
        if need_clues and here is not None and here["clues"] > 0 and "investigate" in opts:
            key = self._investigate(ctx, opts, here, 0.55)
            if key:
                return key
        key = self._play(ctx, choice, engaged, race=plan.race)
        if key:
            return key
        goal = None
        if act is not None and act.objective.startswith("round_end_at:") and \
                panel["act"]["group_clues"] >= panel["act"]["clues_needed"]:
            goal = act.objective.split(":", 1)[1]
        if goal is not None and (self._wait_for_boss(ctx) or
                                 (here is not None and here["code"] == goal)):
            return self._idle(ctx, opts)
        if goal is not None:
            step = self._step_toward(ctx, opts, lambda loc: loc["code"] == goal)
            if step:
                return step
        return self._explore(ctx, opts, act, here)

    def _explore(self, ctx: _Ctx, opts: dict[str, tcgcore.Option], act: CardDef | None,
                 here: dict[str, Any] | None) -> str:
        """Investigate here or move toward promising clues (unrevealed places, or clues
        at a fair chance), else toward the act's target, else draw or gain resources."""
        panel = ctx.panel
        def promising(loc: dict[str, Any]) -> bool:
            if not loc["revealed"]:
                d = self._def(loc["code"])
                return d is None or not d.cannot_enter_unrevealed
            return loc["clues"] > 0 and ctx.investigate_chance(loc["shroud"]) >= 0.3
        step = self._step_toward(ctx, opts, lambda loc: promising(loc) and not loc["enemies"])
        if step is None:
            step = self._step_toward(ctx, opts, promising)
        if here is not None and here["clues"] > 0 and "investigate" in opts:
            key = self._investigate(ctx, opts, here, 0.3 if step else 0.1)
            if key:
                return key
        if step:
            return step
        if act is not None and act.objective.startswith("defeat:"):
            target = act.objective.split(":", 1)[1]
            step = self._step_toward(ctx, opts, lambda loc: any(
                panel["enemies"].get(str(e), {}).get("code") == target for e in loc["enemies"]))
            if step:
                return step
        return self._idle(ctx, opts)

    # ------------------------------------------------------------------ the scenario
    def plan(self, panel: Any) -> ScenarioPlan:
        """The plan of the scenario being played, found by the act's code
        (:data:`.plans.PLANS`), else the default plan (The Gathering's)."""
        act = (panel.get("act") or {}).get("code")
        for plan in PLANS:
            if act in plan.acts:
                return plan
        return DEFAULT_PLAN

    def scenario_bag(self, panel: Any) -> dict[str, int]:
        """The public bag with the symbol tokens valued as the scenario's plan says."""
        return _scenario_bag(self, panel)

    def enemy_bonus(self, panel: Any) -> int:
        """Fight and evade the scenario adds to every enemy right now."""
        return self.plan(panel).enemy_bonus(panel)


def _scenario_bag(agent: HeuristicAgent, panel: Any) -> dict[str, int]:
    """The public bag with the symbol tokens turned into the modifiers the current
    scenario's reference card gives them right now (the plan's ``token_mods``); a
    scenario without them keeps the symbols and :func:`success_chance` estimates them."""
    bag: dict[str, int] = panel.get("chaos_bag") or {}
    mods: Mapping[str, int] | None = agent.plan(panel).token_mods(agent, panel)
    if mods is None:
        return bag
    out: dict[str, int] = {}
    for tok, n in bag.items():
        key = f"{mods[tok]:+d}" if tok in mods else tok
        out[key] = out.get(key, 0) + n
    return out
