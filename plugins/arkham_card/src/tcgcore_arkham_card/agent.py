"""The heuristic investigator agent (``spec.agents["heuristic"]``, the default agent).

It decides from what its seat may know only, read through a :class:`tcgcore.SeatReader`
(the answers of ``match.view(seat)``, each computed when asked) — the public panel
(:func:`.plugin.view_extra`), the zones the seat may see (its own hand) and the printed card
definitions — never from hidden cards, deck order or the chaos bag's next token. Success
chances are estimated from the bag's public contents. Ties are broken in a fixed order (the
agent keeps its own seeded :class:`tcgcore.Rng` and never touches the match's), so a game is
reproducible from the match seed and the agent seed.

Plan, in order of priority on each action: advance the act when the clues are there;
resign when the final agenda is about to run out (or when close to defeat at a resign
location); deal with engaged enemies (fight when the chance and the payoff are good,
evade otherwise, and neither when both are hopeless); defeat the Ghoul Priest in act 3
(winning Lita Chantler over at the Parlor first when the parley has a fair chance);
play useful assets and events; investigate for clues; move toward clues (or to the act's
objective location when the group has the clues); otherwise draw or gain resources.
A fast ability that deals damage (Beat Cop) finishes an enemy worth it. In a team, a free
investigator who fights better takes on an enemy engaged with a teammate in trouble
(attacking it when a miss would not hurt the teammate much, A413.3, engaging it
otherwise) or walks up to two locations to help. Falling back to resign from the Ghoul
Priest is only tried with an action left to resign on arrival. Allies soak horror for an
investigator with 6 sanity or less; Lita Chantler never soaks harm unless the next point
would defeat her holder. In The Gathering's last act the lead burns the house
(Resolution 1): the group earns Lita Chantler (A216.2), whom The Devourer Below needs.

Symbol tokens are valued with the current scenario's reference card where it depends on
public facts (The Midnight Masks: doom on Cultists; The Devourer Below: Monsters in play,
and the Elder Thing's extra token while Umôrdhoth is in play), and enemies get The Ritual
Begins' +1 fight and evade.

The Midnight Masks (A98): parley where it is cheap (Peter Warren with 2 clues, Victoria
Devereux with 5 resources, Herman Collins with 4 cards), evade Ruth Turner (she is
interrogated) and The Masked Hunter while clues matter, spend clues on the act as soon as
the group can, attack Cultists here (doom carriers first), hunt cultists carrying 2 or
more doom, then unique cultists it can parley or beat, then gather clues; only useful
assets are played; it resigns only with the last action before midnight or when the next
attack would defeat it.

The Devourer Below (A99): never resign (it loses); gather Act 1's clues quickly, each
investigator walking to one fixed target (the best investigate chance less 0.15 per step,
enemies and entry tests such as Arkham Woods 01150 counted) so nobody ping-pongs through
the Main Path, and investigating Twisting Paths rather than fighting its exit test; play
Lita Chantler at once (saving resources for her), otherwise at most one weapon, booster or
ally a turn (never one that places doom, never one that would push Lita out); kill
doom-carrying enemies it can finish, heal at Quiet Glade, walk to the Ritual Site for Act
2 with two clues in hand while the agenda allows (a fragile investigator leaves the
entering, and Last Rites' enemies, to a sturdier teammate), use Act 3's action whenever it
has a clue (the better of willpower and agility; before fighting when one attack of
opportunity is survivable), investigate for Act 3's clues at any chance rather than idle,
take attacks of opportunity rather than trade hopeless blows while the ritual is at stake;
once Umôrdhoth is in play, Lita's holder brings her to it (Resolution 3), the others keep
away, and without Lita it is attacked.
"""

from __future__ import annotations

from collections import deque
from functools import cached_property
from typing import Any

import tcgcore

from .cards import CardDef, card_pool

__all__ = ["HeuristicAgent", "success_chance"]

_SYMBOL_MOD = {"skull": -2, "cultist": -1, "tablet": -2, "elder_thing": -2}
#: The Devourer Below's acts (01145b: Umôrdhoth's side of agenda 3); resigning there loses.
_DB_ACTS = ("01146", "01147", "01148", "01145b")
#: Lita Chantler (01117), the story ally The Devourer Below's Resolution 3 needs (A994.6).
_LITA = "01117"


def success_chance(bag: dict[str, int], value: int, difficulty: int) -> float:
    """Chance that ``value`` plus one token from ``bag`` (public contents) reaches
    ``difficulty``; symbol tokens are estimated, auto-fail never succeeds and the elder
    sign counts as +1."""
    total = sum(bag.values())
    if total <= 0:
        return 1.0 if value >= difficulty else 0.0
    ok = 0
    for tok, n in bag.items():
        if tok == "auto_fail":
            continue
        if tok == "elder_sign":
            mod = 1
        elif tok in _SYMBOL_MOD:
            mod = _SYMBOL_MOD[tok]
        else:
            try:
                mod = int(tok)
            except ValueError:
                mod = -2
        if max(0, value + mod) >= difficulty:
            ok += n
    return ok / total


class HeuristicAgent:
    """A sensible solo or team investigator for scenarios like The Gathering."""

    #: Clues each investigator gathers before stepping onto the Ritual Site (A993.5).
    DB_CLUES = 2
    TEAM = True

    def __init__(self, seed: int = 0) -> None:
        self.rng = tcgcore.Rng.from_seed(seed)
        self.pool = card_pool()

    # ------------------------------------------------------------------ helpers
    def _def(self, code: str | None) -> CardDef | None:
        return self.pool.get(code) if code else None

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
        return [min(choice.options, key=lambda o: (ctx.code(o.card or -1) == _LITA,
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
            if ctx.code(o.card or -1) == _LITA and room > 1:
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
    def _worth_playing(self, ctx: _Ctx, d: CardDef) -> bool:
        if d.type_code == "asset":
            return not d.is_weakness()
        return bool(d.effects) or bool(d.play_action)

    def _action(self, ctx: _Ctx, choice: tcgcore.Choice) -> list[str]:
        me, panel = ctx.me, ctx.panel
        opts = {o.key: o for o in choice.options}
        if me is None:
            return [choice.options[0].key]
        if "advance_act" in opts:
            return ["advance_act"]
        here = ctx.location(me["location"])
        ag = panel["agenda"]
        act_code = panel["act"]["code"]
        act = self._def(act_code)
        resign = [o.key for o in choice.options if o.key.startswith("activate:")
                  and o.label.endswith(": resign")]
        agenda = self._def(ag["code"])
        final_agenda = agenda is not None and agenda.stage == 3
        doom_left = ag["threshold"] - ag["doom_in_play"]
        hurt = max((e["enemy"].enemy_damage, e["enemy"].enemy_horror)
                   for e in ctx.threats()) if ctx.threats() else (1, 1)
        margin = 1 if act_code == "01123" else 0  # an encounter card can finish us too
        near_death = (me["health"] - me["damage"] <= hurt[0] + margin) or \
            (me["sanity"] - me["horror"] <= hurt[1] + margin)
        boss_stage = act is not None and act.objective.startswith("defeat:")
        weak = act is not None and boss_stage and not self._can_beat_boss(ctx, act)
        db = self._devourer_below(ctx, choice, opts)  # scenario 01142 (A99)
        if db:
            return [db]
        if act_code in _DB_ACTS:
            resign, weak = [], False  # resigning there kills everyone (A995.1)
        if resign and ((final_agenda and doom_left <= 1) or near_death or weak):
            return [resign[0]]
        engaged = [int(e) for e, info in panel["enemies"].items() if info["engaged"] == ctx.seat]
        if boss_stage and (near_death or weak):
            # fall back to a location where one may resign (the Parlor), taking the
            # attacks of opportunity if they can be survived
            aoo = [t["enemy"] for t in ctx.threats() if t["engaged"] == ctx.seat]
            dmg = sum(d.enemy_damage for d in aoo)
            hor = sum(d.enemy_horror for d in aoo)
            # only with an action left to resign once there: a hunter follows and
            # attacks again in the enemy phase
            if (not aoo or me["actions"] >= 2) and \
                    me["health"] - me["damage"] > dmg and me["sanity"] - me["horror"] > hor:
                step = self._step_toward(ctx, opts, lambda loc: ctx.can_resign_at(loc["code"]))
                if step:
                    return [step]
        shed = self._shed_weakness(ctx, choice) if not engaged else None
        if shed:
            return [shed]
        mm = self._midnight_masks(ctx, choice, opts, engaged)  # scenario 01120 (A98)
        if mm:
            return [mm]
        heal = self._heal(ctx, choice, engaged)
        if heal:
            return [heal]
        zap = self._fast_damage(ctx, opts)
        if zap:
            return [zap]
        lita = self._fetch_lita(ctx, choice, opts, engaged) if boss_stage else None
        if lita:
            return [lita]
        # 1. engaged enemies
        if engaged:
            key = self._handle_enemies(ctx, opts, engaged)
            if key:
                return [key]
        if self.TEAM:
            team = self._help_team(ctx, opts, engaged)
            if team:
                return [team]
        # 2. free plays that help now
        for o in choice.options:
            if o.key.startswith("fastplay:"):
                d = ctx.card(o.card)
                if d is not None and any(e.op == "discover_clues" for e in d.effects) and \
                        here and here["clues"] > 0:
                    return [o.key]
                if d is not None and d.type_code == "asset":
                    return [o.key]
        # 3. act 3: the Ghoul Priest
        if boss_stage and act is not None:
            parley = [o.key for o in choice.options if o.key.startswith("activate:")
                      and o.label.endswith(": parley")]
            if parley and ctx.skill("intellect") >= 3 and not engaged:
                return [parley[0]]  # Lita Chantler: +1 combat, +1 damage on Monsters
            target = act.objective.split(":", 1)[1]
            for eid, info in panel["enemies"].items():
                if info["code"] == target and int(eid) in (here or {}).get("enemies", []):
                    key = self._attack(ctx, opts, int(eid))
                    if key:
                        return [key]
        # 4. clues first when the act still needs them and the odds are good
        need_clues = panel["act"]["clues_needed"] > panel["act"]["group_clues"]
        if need_clues and here is not None and here["clues"] > 0 and "investigate" in opts:
            inv_key = self._investigate(ctx, opts, here, 0.55)
            if inv_key:
                return [inv_key]
        # 5. play assets / useful events
        key = self._play(ctx, choice, engaged, race=act_code == "01123" or
                         act_code in _DB_ACTS)
        if key:
            return [key]
        # 5. act 2-like objectives: gather at the location once the clues are in hand
        goal = None
        if act is not None and act.objective.startswith("round_end_at:") and \
                panel["act"]["group_clues"] >= panel["act"]["clues_needed"]:
            goal = act.objective.split(":", 1)[1]
        if goal is not None and self._wait_for_boss(ctx):
            return [self._idle(ctx, opts)]
        if goal is not None:
            if here is not None and here["code"] == goal:
                return [self._idle(ctx, opts)]
            step = self._step_toward(ctx, opts, lambda loc: loc["code"] == goal)
            if step:
                return [step]
        # 6. investigate (7. or move toward clues)
        def promising(loc: dict[str, Any]) -> bool:
            if not loc["revealed"]:
                d = self._def(loc["code"])
                return d is None or not d.cannot_enter_unrevealed
            return loc["clues"] > 0 and ctx.investigate_chance(loc["shroud"]) >= 0.3
        step = self._step_toward(ctx, opts, lambda loc: promising(loc) and not loc["enemies"])
        if step is None:
            step = self._step_toward(ctx, opts, promising)
        if here is not None and here["clues"] > 0 and "investigate" in opts:
            inv_key = self._investigate(ctx, opts, here, 0.3 if step else 0.1)
            if inv_key:
                return [inv_key]
        if step:
            return [step]
        if act is not None and act.objective.startswith("defeat:"):
            target = act.objective.split(":", 1)[1]
            step = self._step_toward(ctx, opts, lambda loc: any(
                panel["enemies"].get(str(e), {}).get("code") == target for e in loc["enemies"]))
            if step:
                return [step]
        return [self._idle(ctx, opts)]

    def _devourer_below(self, ctx: _Ctx, choice: tcgcore.Choice,
                        opts: dict[str, tcgcore.Option]) -> str | None:
        """The Devourer Below (A99): clues for act 1, then the Ritual Site, then act 3's
        action (A993.4–A993.6); once Umôrdhoth is in play Lita's holder goes to give her
        up (A994.6), the others keep away from it, and without Lita it is attacked."""
        panel, me = ctx.panel, ctx.me
        act_code = panel["act"]["code"]
        if act_code not in _DB_ACTS or me is None:
            return None
        here = ctx.location(me["location"])
        engaged = [int(e) for e, info in panel["enemies"].items() if info["engaged"] == ctx.seat]
        umor = [int(e) for e, i in panel["enemies"].items() if i["code"] == "01157"]
        acts = {o.key: ctx.card(o.card) for o in choice.options if o.key.startswith("activate:")}
        shed = self._shed_weakness(ctx, choice)
        if shed and not umor:
            return shed
        for o in choice.options:
            if o.key.startswith("play:") and ctx.code(o.card or -1) == _LITA:
                return o.key  # Lita in play: +1 combat here, and Resolution 3 (A994.6)
        lita_hand = any(ctx.code(c) == _LITA for c in ctx.hand)
        if lita_hand and not engaged and "resource" in opts and \
                me["resources"] < (self._def(_LITA).cost or 0):  # type: ignore[union-attr]
            return "resource"  # save up for her
        if umor:
            info = panel["enemies"][str(umor[0])]
            lita = [k for k, o in opts.items() if k.startswith("activate:") and o.card == umor[0]]
            hurt = me["health"] - me["damage"] <= 3 or me["sanity"] - me["horror"] <= 3
            if lita and (hurt or info["health"] - info["damage"] > 3):
                return lita[0]  # R3 rather than a lost fight (A994.6)
            holders = [i["seat"] for i in panel.get("investigators") or []
                       if not i.get("status") and any(a["code"] == _LITA
                                                      for a in i.get("assets", []))]
            if ctx.seat in holders:
                step = self._step_toward(ctx, opts, lambda loc: umor[0] in loc["enemies"])
                if step:
                    return step  # bring Lita to it
            elif holders:
                if here is not None and umor[0] in here["enemies"] and not engaged:
                    step = self._step_toward(ctx, opts, lambda loc: umor[0] not in loc["enemies"])
                    if step:
                        return step  # keep away and leave it to Lita's holder
            elif here is not None and umor[0] in here["enemies"]:
                key = self._attack(ctx, opts, umor[0])
                if key:
                    return key
        if engaged and act_code == "01148" and me["clues"] > 0:
            dmg = sum(getattr(ctx.card(e), "enemy_damage", 0) for e in engaged)
            hor = sum(getattr(ctx.card(e), "enemy_horror", 0) for e in engaged)
            if me["health"] - me["damage"] > 2 * dmg + 1 and \
                    me["sanity"] - me["horror"] > 2 * hor + 1:
                for key, d in acts.items():  # the ritual first: one attack of opportunity
                    if d is not None and d.code == "01148":
                        return key
        if engaged and act_code in ("01147", "01148"):
            for eid in engaged:  # slip away toward the ritual rather than trade blows
                d = ctx.card(eid)
                if d is not None and f"evade:{eid}" in opts and success_chance(
                        ctx.bag, ctx.skill("agility"),
                        (d.enemy_evade or 0) + ctx.enemy_bonus) >= 0.45:
                    return f"evade:{eid}"
            if not self._worth_fighting(ctx, opts, engaged) and self._can_take_hits(ctx, engaged):
                engaged = []  # the ritual matters more: take the attacks of opportunity
        if engaged:
            return self._handle_enemies(ctx, opts, engaged)
        if self.TEAM:
            team = self._help_team(ctx, opts, engaged)
            if team:
                return team
        for key, d in acts.items():
            if d is not None and d.code == "01155" and (
                    me["damage"] >= 2 or me["horror"] >= 2 or
                    me["health"] - me["damage"] <= 3 or me["sanity"] - me["horror"] <= 3):
                return key  # Quiet Glade
        for eid in sorted((here or {}).get("enemies", []),
                          key=lambda e: -int(panel["enemies"].get(str(e), {}).get("doom", 0))):
            info = panel["enemies"].get(str(eid), {})
            if int(info.get("doom", 0)) > 0 and info["health"] - info["damage"] <= 2:
                key = self._attack(ctx, opts, int(eid))  # its doom leaves with it
                if key:
                    return key
        if not umor and act_code != "01148" and me["actions"] >= 3:
            key = self._play(ctx, choice, engaged, race=True)  # one weapon or ally a turn
            if key:
                return key
        if act_code == "01148":
            for key, d in acts.items():
                if d is not None and d.code == "01148" and me["clues"] > 0:
                    return key  # the act's action can be taken anywhere
        if act_code == "01147" and (here is None or here["code"] != "01156"):
            # act 3 spends a clue per attempt (A993.6): stock up while the agenda allows
            ag = panel["agenda"]
            time_left = ag["code"] != "01145" or ag["threshold"] - ag["doom_in_play"] >= 3
            want = self.DB_CLUES if time_left else 1
            if me["clues"] < want and here is not None and here["clues"] > 0 and \
                    "investigate" in opts:  # a clue now saves a trip for act 3
                key = self._investigate(ctx, opts, here, 0.45 if me["clues"] else 0.3)
                if key:
                    return key
            if me["clues"] < want and time_left:
                step = self._step_toward(ctx, opts, lambda loc: loc["revealed"] and loc[
                    "clues"] > 0 and loc["code"] != "01156" and not loc["enemies"] and
                    self._loc_chance(ctx, loc) >= 0.45)
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
                step = self._step_toward(ctx, opts, lambda loc: loc["code"] == "01156")
                if step:
                    return step
        if act_code == "01148" and me["clues"] == 0:
            # every attempt at act 3 needs a clue of one's own: any chance of one beats
            # idling (the Ritual Site refills each round, A993.5)
            if here is not None and here["clues"] > 0 and "investigate" in opts:
                if self._loc_chance(ctx, here) < 0.25:
                    team = self._help_team(ctx, opts, engaged, eager=True)
                    if team:
                        return team
                key = self._investigate(ctx, opts, here, 0.05)
                if key:
                    return key
            step = self._step_toward(ctx, opts, lambda loc: loc["clues"] > 0 and
                                     self._loc_chance(ctx, loc) >= 0.3)
            step = step or self._step_toward(ctx, opts, lambda loc: loc["code"] == "01156")
            if step:
                return step
        need = act_code == "01146" and \
            panel["act"]["clues_needed"] > panel["act"]["group_clues"]
        if need or (act_code == "01148" and me["clues"] == 0):
            # one target for the whole walk: the best chance less 0.15 per step away
            # (an enemy there costs 0.2), so that leaving a place never makes the place
            # just left look better again (no ping-pong through the Main Path)
            dist = self._distances(ctx)
            locs = {loc["id"]: loc for loc in panel["locations"]}
            d_here = self._def(here["code"]) if here is not None else None
            sticky = d_here is not None and "before_leave" in d_here.forced  # Twisting Paths
            best: tuple[float, int] | None = None
            for lid, n in dist.items():
                loc = locs[lid]
                if loc["code"] == "01156" and act_code != "01148":
                    continue  # entering the Ritual Site moves the act on
                if loc["revealed"] and loc["clues"] <= 0:
                    continue
                val = self._loc_chance(ctx, loc) if loc["revealed"] else 0.45
                val -= 0.15 * n + (0.2 if loc["enemies"] and n else 0.0) + \
                    (0.1 if sticky and n else 0.0) + \
                    (0.5 * self._entry_cost(ctx, loc["code"]) if n else 0.0) + \
                    (0.15 * self._leave_cost(ctx, loc["code"]) if n else 0.0)
                if best is None or (val, -n, -lid) > (best[0], -dist[best[1]], -best[1]):
                    best = (val, lid)
            if best is None:
                return None
            if here is not None and best[1] == here["id"]:
                if "investigate" in opts:
                    return self._investigate(ctx, opts, here, 0.0)
                return None
            target = best[1]
            return self._step_toward(ctx, opts, lambda loc: loc["id"] == target)
        return None

    def _help_team(self, ctx: _Ctx, opts: dict[str, tcgcore.Option],
                   engaged: list[int], eager: bool = False) -> str | None:
        """Team play: a free investigator who fights better than a teammate takes on the
        enemies engaged with that teammate. Here it attacks one outright when the odds
        are good (a miss would hit the teammate, A413.3, unless it is massive, A611.4),
        or engages it first (A415) when the teammate is fragile; otherwise it walks
        toward a teammate in trouble up to two locations away. Returns an option key or
        ``None``."""
        me, panel = ctx.me, ctx.panel
        invs = panel.get("investigators") or []
        if me is None or engaged or len(invs) < 2:
            return None
        mine = ctx.best_fight()
        here_targets: list[tuple[int, int]] = []
        far: set[int] = set()
        for eid, info in panel["enemies"].items():
            seat = info["engaged"]
            if seat < 0 or seat == ctx.seat or seat >= len(invs) or invs[seat].get("status"):
                continue
            d = self._def(info["code"])
            mate = invs[seat]
            if d is None or d.type_code != "enemy":
                continue
            theirs = max([int(mate["skills"]["combat"])] + [
                int(mate["skills"][ab.skill or "combat"]) + ab.skill_bonus
                for a in mate.get("assets", []) for ab in getattr(self._def(a["code"]),
                                                                  "abilities", ())
                if ab.action == "fight" and (not ab.uses or a.get("uses", 0) > 0)])
            fight = (d.enemy_fight or 0) + ctx.enemy_bonus
            trouble = success_chance(ctx.bag, theirs, fight) < 0.5 or \
                mate["health"] - mate["damage"] <= 2 * d.enemy_damage + 1 or \
                mate["sanity"] - mate["horror"] <= 2 * d.enemy_horror + 1
            if eager:  # a poor investigator frees the one who gathers the clues
                if mine < theirs or success_chance(ctx.bag, mine, fight) < 0.5:
                    continue
            elif mine < theirs + 1 or not trouble:
                continue
            if f"fight:{eid}" in opts or f"engage:{eid}" in opts:
                here_targets.append((info["health"] - info["damage"], int(eid)))
            else:
                far.add(int(info["location"]) if info.get("location") is not None else -1)
        for _, eid in sorted(here_targets):
            info, d = panel["enemies"][str(eid)], ctx.card(eid)
            assert d is not None
            mate = invs[info["engaged"]]
            p = success_chance(ctx.bag, mine, (d.enemy_fight or 0) + ctx.enemy_bonus)
            safe = "massive" in d.keywords or p >= 0.65 or \
                mate["health"] - mate["damage"] > 2 + d.enemy_damage
            if safe:
                key = self._attack(ctx, opts, eid, least=0.35)
                if key:
                    return key
            if f"engage:{eid}" in opts and me["health"] - me["damage"] > 2 * d.enemy_damage \
                    and me["sanity"] - me["horror"] > 2 * d.enemy_horror and p >= 0.3:
                return f"engage:{eid}"
        d_here = self._def((ctx.location(me["location"]) or {}).get("code"))
        sticky = d_here is not None and "before_leave" in d_here.forced  # Twisting Paths
        if far and me["actions"] >= 2 and not sticky and not eager:
            locs = {loc["id"]: loc for loc in panel["locations"]}
            start = me["location"]
            near = set(locs.get(start, {}).get("connections", []))
            two = near | {n for m in near for n in locs.get(m, {}).get("connections", [])}
            if far & two:
                return self._step_toward(ctx, opts, lambda loc: loc["id"] in far)
        return None

    def _shed_weakness(self, ctx: _Ctx, choice: tcgcore.Choice) -> str | None:
        """Play a weakness event that harms its holder each turn it stays in hand (Dark
        Memory 01013: 1 doom once instead of 2 horror every turn), unless that doom would
        advance the agenda now."""
        ag = ctx.panel["agenda"]
        if ag["threshold"] - ag["doom_in_play"] < 2:
            return None
        for o in choice.options:
            d = ctx.card(o.card) if o.key.startswith("play:") else None
            if d is not None and d.type_code == "event" and d.is_weakness() and \
                    "in_hand_end_turn" in d.forced:
                return o.key
        return None

    def _distances(self, ctx: _Ctx) -> dict[int, int]:
        """Steps from this investigator's location to every location it can reach."""
        me = ctx.me
        locs = {loc["id"]: loc for loc in ctx.panel["locations"]}
        if me is None or me["location"] not in locs:
            return {}
        dist = {me["location"]: 0}
        queue = deque([me["location"]])
        while queue:
            cur = queue.popleft()
            for nxt in locs[cur]["connections"]:
                if nxt in locs and nxt not in dist:
                    dist[nxt] = dist[cur] + 1
                    queue.append(nxt)
        return dist

    def _loc_chance(self, ctx: _Ctx, loc: dict[str, Any]) -> float:
        """Best chance to investigate ``loc`` (its own skill-swapping investigate action
        counted, e.g. Old House with willpower, A992.4)."""
        best = ctx.investigate_chance(loc["shroud"])
        d = self._def(loc["code"])
        for ab in d.abilities if d is not None else ():
            if ab.action == "investigate" and ab.skill:
                best = max(best, success_chance(ctx.bag, ctx.skill(ab.skill) + ctx.inv_bonus(),
                                                loc["shroud"] + ab.shroud_mod))
        return best

    def _lita_parley(self, code: str) -> int | None:
        """The difficulty of a location's parley that gives control of Lita Chantler
        (the Parlor, A216.1), or ``None``."""
        d = self._def(code)
        for ab in d.abilities if d is not None else ():
            if ab.action == "parley" and any(e.op == "take_control" and e.code == _LITA
                                             for e in ab.effects):
                return ab.difficulty
        return None

    def _fetch_lita(self, ctx: _Ctx, choice: tcgcore.Choice, opts: dict[str, tcgcore.Option],
                    engaged: list[int]) -> str | None:
        """Before the boss fight, win Lita Chantler over (+1 combat and +1 damage against
        Monsters at her location): parley at the Parlor (no attacks of opportunity,
        A416.3), or walk there while nothing is engaged."""
        invs = ctx.panel.get("investigators") or []
        if any(a["code"] == _LITA for i in invs for a in i.get("assets", [])):
            return None
        here = ctx.location((ctx.me or {}).get("location", -1))
        diff = self._lita_parley(here["code"]) if here is not None else None
        if diff is not None:
            for o in choice.options:
                if o.key.startswith("activate:") and o.label.endswith(": parley") and \
                        success_chance(ctx.bag, ctx.skill("intellect"), diff) >= 0.2:
                    return o.key
            return None
        if engaged:
            return None
        def parlor(loc: dict[str, Any]) -> bool:
            diff = self._lita_parley(loc["code"]) if loc["revealed"] else None
            return diff is not None and success_chance(ctx.bag, ctx.skill("intellect"),
                                                       diff) >= 0.3
        return self._step_toward(ctx, opts, parlor)

    def _fast_damage(self, ctx: _Ctx, opts: dict[str, tcgcore.Option]) -> str | None:
        """A fast ability that deals damage to an enemy here (Beat Cop): used when the
        enemy it would hit (the one :meth:`_choose_enemy` picks) is finished by it and
        is worth it (engaged with us, carrying doom or worth victory points); one that
        does not discard its card is used on any such enemy."""
        here = ctx.location((ctx.me or {}).get("location", -1))
        if here is None or not here["enemies"]:
            return None
        for key, o in opts.items():
            if not key.startswith("fast:"):
                continue
            src = ctx.card(o.card)
            idx = int(key.split(":")[2])
            if src is None or idx >= len(src.abilities):
                continue
            ab = src.abilities[idx]
            amount = sum(e.amount or 1 for e in ab.effects if e.op == "damage_enemy")
            if not amount:
                continue
            def score(eid: int) -> tuple[int, int]:
                info, d = ctx.panel["enemies"].get(str(eid), {}), ctx.card(eid)
                left = int(info.get("health", 0)) - int(info.get("damage", 0))
                return (0 if info.get("engaged") == ctx.seat else 1,
                        left - 3 * ((d.victory or 0) if d else 0))
            target = min((int(e) for e in here["enemies"]), key=score)
            info, d = ctx.panel["enemies"].get(str(target), {}), ctx.card(target)
            if d is None or not info:
                continue
            left = info["health"] - info["damage"]
            worth = info.get("engaged") == ctx.seat or int(info.get("doom", 0)) > 0 or \
                bool(d.victory)
            if worth and (left <= amount or not ab.discard):
                return key
        return None

    def _worth_fighting(self, ctx: _Ctx, opts: dict[str, tcgcore.Option],
                        engaged: list[int]) -> bool:
        """Whether one of the engaged enemies can be evaded or beaten with a fair chance
        (a hit for at least half its remaining health at 40 %)."""
        for eid in engaged:
            info, d = ctx.panel["enemies"][str(eid)], ctx.card(eid)
            if d is None:
                continue
            if success_chance(ctx.bag, ctx.skill("agility"),
                              (d.enemy_evade or 0) + ctx.enemy_bonus) >= 0.3:
                return True
            left = info["health"] - info["damage"]
            if left <= 2 and success_chance(ctx.bag, ctx.best_fight(),
                                            (d.enemy_fight or 0) + ctx.enemy_bonus) >= 0.4:
                return True
        return False

    def _can_take_hits(self, ctx: _Ctx, engaged: list[int]) -> bool:
        """Whether this investigator survives two rounds of attacks from ``engaged``."""
        me = ctx.me
        if me is None:
            return False
        dmg = hor = 0
        for eid in engaged:
            d = ctx.card(eid)
            if d is not None:
                dmg += d.enemy_damage
                hor += d.enemy_horror
        return bool(me["health"] - me["damage"] > 2 * dmg and
                    me["sanity"] - me["horror"] > 2 * hor)

    def _midnight_masks(self, ctx: _Ctx, choice: tcgcore.Choice,
                        opts: dict[str, tcgcore.Option], engaged: list[int]) -> str | None:
        """The Midnight Masks (A98): parley where it is cheap (A984.6), slip away from The
        Masked Hunter while clues matter (A984.2) and from Ruth Turner (A984.4), spend
        clues on the act to draw cultists (A983.2), attack cultists here (doom carriers
        first), gather clues for the next draw, hunt the cultists it can interrogate or
        beat, and resign only with the last action before midnight (A983.5)."""
        panel, me = ctx.panel, ctx.me
        if panel["act"]["code"] != "01123" or me is None:
            return None
        ag = panel["agenda"]
        doom_left = ag["threshold"] - ag["doom_in_play"]
        here = ctx.location(me["location"])
        for o in choice.options:
            if o.key.startswith("activate:") and o.label.endswith(": resign") and \
                    ag["code"] == "01122" and doom_left <= 1 and me["actions"] <= 1:
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
            if info["code"] == "01141" and p_evade >= 0.3:
                return f"evade:{eid}"  # Ruth Turner is interrogated when evaded
            if info["code"] == "01121b" and p_evade >= 0.35 and (
                    me["clues"] > 0 or (here is not None and here["clues"] > 0)):
                return f"evade:{eid}"  # the Masked Hunter locks our clues
        for o in choice.options:
            if o.key.startswith("activate:") and not engaged:
                d = ctx.card(o.card)
                if d is not None and d.type_code == "act":
                    return o.key  # draw the next cultist
        if engaged:
            return None
        cultists = []
        for eid in (here or {}).get("enemies", []):
            info = panel["enemies"].get(str(eid), {})
            d = ctx.card(eid)
            if d is not None and "Cultist" in d.traits and info.get("engaged", -1) < 0:
                cultists.append((-int(info.get("doom", 0)), int(eid)))
        for _, eid in sorted(cultists):
            key = self._attack(ctx, opts, eid)
            if key:
                return key
        hunt, doomed, heavy = set(), set(), set()
        for info in panel["enemies"].values():
            d = self._def(info["code"])
            if d is None or "Cultist" not in d.traits or info["engaged"] >= 0:
                continue
            code = info["code"]
            ok = ctx.ready_for(d)
            if code == "01139":
                ok = ok or me["clues"] >= 2  # Peter Warren: 2 clues
            elif code == "01140":
                ok = ok or me["resources"] >= 5  # Victoria Devereux: 5 resources
            elif code == "01138":
                ok = ok or len(ctx.hand) >= 4  # Herman Collins: 4 cards
            elif code == "01141":
                ok = ok or success_chance(ctx.bag, ctx.skill("agility"),
                                          d.enemy_evade or 0) >= 0.3  # Ruth Turner
            elif code == "01121b":
                ok = False  # the Masked Hunter comes to us
            doom = int(info.get("doom", 0))
            if ok and doom >= 2:
                heavy.add(info["location"])  # each doom on it brings midnight closer
            elif ok and d.is_unique:
                hunt.add(info["location"])
            elif ok and doom > 0:
                doomed.add(info["location"])
        if heavy:
            step = self._step_toward(ctx, opts, lambda loc: loc["id"] in heavy)
            if step:
                return step
        if hunt:
            step = self._step_toward(ctx, opts, lambda loc: loc["id"] in hunt)
            if step:
                return step
        n = len(panel.get("investigators") or [])
        if panel["act"]["group_clues"] < 2 * n and here is not None and here["clues"] > 0 \
                and "investigate" in opts:
            key = self._investigate(ctx, opts, here, 0.2)
            if key:
                return key
        if doomed:
            return self._step_toward(ctx, opts, lambda loc: loc["id"] in doomed)
        return None

    def _can_beat_boss(self, ctx: _Ctx, act: CardDef) -> bool:
        """Whether the best attack at hand gives a fair chance against the act's target."""
        target = self._def(act.objective.split(":", 1)[1])
        if target is None:
            return True
        bonus = 0
        for a in (ctx.me or {}).get("assets", []):
            d = self._def(a["code"])
            if d is None:
                continue
            for ab in d.abilities:
                if ab.action == "fight" and (not ab.uses or a.get("uses", 0) > 0):
                    bonus = max(bonus, ab.skill_bonus + (ctx.skill(ab.skill) - ctx.skill("combat")
                                                         if ab.skill else 0))
        return success_chance(ctx.bag, ctx.skill("combat") + bonus, target.enemy_fight or 0) >= 0.4

    def _heal(self, ctx: _Ctx, choice: tcgcore.Choice, engaged: list[int]) -> str | None:
        me = ctx.me
        assert me is not None
        if engaged:
            return None
        need = {"heal_horror": me["horror"] >= max(1, me["sanity"] - 3),
                "heal_damage": me["damage"] >= max(1, me["health"] - 3)}
        for o in choice.options:
            if not o.key.startswith("activate:"):
                continue
            d = ctx.card(o.card)
            idx = int(o.key.split(":")[2])
            if d is None or idx >= len(d.abilities):
                continue
            ab = d.abilities[idx]
            ops = {e.op for e in ab.effects}
            if any(need.get(op) for op in ops):
                return o.key
            if "discard_self" in ops and d.type_code == "treachery":
                return o.key  # Haunted, Psychosis, Hypochondria
        return None

    def _idle(self, ctx: _Ctx, opts: dict[str, tcgcore.Option]) -> str:
        if "draw" in opts and len(ctx.hand) < 5:
            return "draw"
        if "resource" in opts:
            return "resource"
        if "draw" in opts:
            return "draw"
        return "end_turn"

    def _attack(self, ctx: _Ctx, opts: dict[str, tcgcore.Option], eid: int,
                least: float = 0.25) -> str | None:
        info = ctx.panel["enemies"].get(str(eid))
        d = ctx.card(eid)
        if info is None or d is None:
            return None
        fight = (d.enemy_fight or 0) + ctx.enemy_bonus
        best: tuple[float, str] | None = None
        for key, o in opts.items():
            dmg = 1
            if key == f"fight:{eid}":
                bonus, skill = 0, "combat"
            elif key.startswith("activate:"):
                src = ctx.card(o.card)
                idx = int(key.split(":")[2])
                if src is None or idx >= len(src.abilities):
                    continue
                ab = src.abilities[idx]
                if ab.action != "fight":
                    continue
                bonus, skill, dmg = ab.skill_bonus, ab.skill or "combat", 1 + ab.damage_bonus
                if ab.discard and dmg > 1:
                    dmg -= 1  # keep a discard-to-use weapon for when it matters
            elif key.startswith("play:"):
                src = ctx.card(o.card)
                if src is None or src.play_action != "fight":
                    continue
                bonus, skill, dmg = src.play_skill_bonus, src.play_skill or "combat", \
                    1 + src.play_damage_bonus
            else:
                continue
            p = success_chance(ctx.bag, ctx.skill(skill) + bonus, fight)
            score = p * dmg
            if best is None or score > best[0]:
                best = (score, key)
        if best is None or best[0] < least:
            return None
        return best[1]

    def _handle_enemies(self, ctx: _Ctx, opts: dict[str, tcgcore.Option],
                        engaged: list[int]) -> str | None:
        for eid in sorted(engaged, key=lambda e: ctx.panel["enemies"][str(e)]["health"]
                          - ctx.panel["enemies"][str(e)]["damage"]):
            key = self._attack(ctx, opts, eid)
            d = ctx.card(eid)
            if d is not None and "retaliate" in d.keywords and f"evade:{eid}" in opts:
                # evade a retaliating enemy first, then attack it while it is exhausted
                p_fight = success_chance(ctx.bag, ctx.best_fight(),
                                         (d.enemy_fight or 0) + ctx.enemy_bonus)
                p_evade = success_chance(ctx.bag, ctx.skill("agility"),
                                         (d.enemy_evade or 0) + ctx.enemy_bonus)
                if p_evade >= 0.5 and p_fight < 0.75:
                    return f"evade:{eid}"
            if key and d is not None:
                p_fight = success_chance(ctx.bag, ctx.skill("combat") + 1,
                                         (d.enemy_fight or 0) + ctx.enemy_bonus)
                p_evade = success_chance(ctx.bag, ctx.skill("agility"),
                                         (d.enemy_evade or 0) + ctx.enemy_bonus)
                if p_fight >= 0.45 or p_fight >= p_evade:
                    return key
            if key:
                return f"evade:{eid}" if f"evade:{eid}" in opts else key
            if f"evade:{eid}" in opts and d is not None:
                p_evade = success_chance(ctx.bag, ctx.skill("agility"),
                                         (d.enemy_evade or 0) + ctx.enemy_bonus)
                p_fight = success_chance(ctx.bag, ctx.best_fight(),
                                         (d.enemy_fight or 0) + ctx.enemy_bonus)
                if p_evade >= 0.1 and p_evade >= p_fight:
                    return f"evade:{eid}"
                fight = self._attack(ctx, opts, eid, least=0.1)
                if fight:
                    return fight  # a long shot beats a hopeless evasion
                if p_evade >= 0.1:
                    return f"evade:{eid}"
        return None

    def _investigate(self, ctx: _Ctx, opts: dict[str, tcgcore.Option],
                     here: dict[str, Any], least: float = 0.3) -> str | None:
        shroud = here["shroud"]
        best = ("investigate", success_chance(ctx.bag, ctx.skill("intellect") + ctx.inv_bonus(),
                                              shroud))
        for key, o in opts.items():
            if key.startswith("activate:"):
                src = ctx.card(o.card)
                idx = int(key.split(":")[2])
                if src is None or idx >= len(src.abilities):
                    continue
                ab = src.abilities[idx]
                if ab.action == "investigate":
                    if ab.no_clue:
                        continue
                    p = success_chance(ctx.bag, ctx.skill(ab.skill or "intellect") +
                                       ab.skill_bonus + ctx.inv_bonus(), shroud + ab.shroud_mod)
                    if p > best[1] + 0.1:
                        best = (key, p)
        return best[0] if best[1] >= least else None

    def _play(self, ctx: _Ctx, choice: tcgcore.Choice, engaged: list[int],
              race: bool = False) -> str | None:
        """A card worth playing now; with ``race`` (a scenario where every action
        counts) only assets that fight, investigate, raise a skill or soak harm."""
        me = ctx.me
        assert me is not None
        here = ctx.location(me["location"])
        for o in choice.options:
            if not o.key.startswith("play:"):
                continue
            d = ctx.card(o.card)
            if d is None:
                continue
            if d.type_code == "asset":
                if d.is_weakness():
                    continue
                if d.slot.startswith("Ally") and any(a["code"] == _LITA
                                                     for a in me.get("assets", [])):
                    continue  # never push Lita out of the ally slot
                if race and any(e.op == "doom_self" for effs in (*d.forced.values(),
                                                                  d.effects) for e in effs):
                    continue  # its doom brings the agenda closer (Arcane Initiate)
                if race and not (d.bonus or d.bonus_here or
                                 (d.health or 0) + (d.sanity or 0) >= 3 or
                                 any(ab.action in ("fight", "investigate")
                                     for ab in d.abilities)):
                    continue
                if me["actions"] >= 1:
                    return o.key
            elif d.type_code == "event":
                if d.play_action == "fight" and engaged:
                    continue  # handled by the attack choice
                ops = {e.op for e in d.effects}
                if "gain_resources" in ops and me["resources"] <= 3:
                    return o.key
                if "discover_clues" in ops and here and here["clues"] > 0:
                    return o.key
                if ("damage_enemy" in ops or "blast" in ops) and engaged:
                    return o.key
        return None

    def _step_toward(self, ctx: _Ctx, opts: dict[str, tcgcore.Option],
                     want: Any) -> str | None:
        me = ctx.me
        assert me is not None
        locs = {loc["id"]: loc for loc in ctx.panel["locations"]}
        start = me["location"]
        if start not in locs:
            return None
        prev: dict[int, int] = {start: start}
        dist: dict[int, int] = {start: 0}
        queue = deque([start])
        hits: list[int] = []
        while queue:
            cur = queue.popleft()
            if hits and dist[cur] > dist[hits[0]]:
                break
            if cur != start and want(locs[cur]):
                hits.append(cur)
                continue
            for nxt in locs[cur]["connections"]:
                if nxt in locs and nxt not in prev:
                    prev[nxt] = cur
                    dist[nxt] = dist[cur] + 1
                    queue.append(nxt)
        if not hits:
            return None
        # among the nearest: fewest other investigators there, then the entry cost that
        # hurts the sturdier of health and sanity least
        found = min(hits, key=lambda lid: (len(locs[lid]["investigators"]),
                                           self._entry_cost(ctx, locs[lid]["code"]), lid))
        while prev[found] != start:
            found = prev[found]
        key = f"move:{found}"
        return key if key in opts else None


    def _leave_cost(self, ctx: _Ctx, code: str) -> float:
        """Expected actions lost to a test that can cancel leaving ``code`` (Twisting
        Paths, 01151): ``1 / p - 1`` for a pass chance ``p`` (capped at 5)."""
        d = self._def(code)
        cost = 0.0
        for e in d.forced.get("before_leave", ()) if d is not None else ():
            if e.op == "test" and e.skill:
                p = success_chance(ctx.bag, ctx.skill(e.skill), e.difficulty or 0)
                cost += min(5.0, 1 / p - 1) if p > 0 else 5.0
        return cost

    def _entry_cost(self, ctx: _Ctx, code: str) -> float:
        d = self._def(code)
        me = ctx.me
        if d is None or me is None:
            return 0.0
        cost = 0.0
        for e in d.forced.get("after_enter", ()):
            effs, weight = [e], 1.0
            if e.op == "test" and e.skill:  # e.g. Arkham Woods (01150): harm on a failure
                effs = list(e.on_fail)
                weight = 1.0 - success_chance(ctx.bag, ctx.skill(e.skill), e.difficulty or 0)
            for f in effs:
                if f.op in ("damage", "direct_damage"):
                    cost += weight * f.amount / max(1, me["health"] - me["damage"])
                elif f.op in ("horror", "direct_horror"):
                    cost += weight * f.amount / max(1, me["sanity"] - me["horror"])
        return cost


def _scenario_bag(agent: HeuristicAgent, panel: dict[str, Any]) -> dict[str, int]:
    """The public bag with the symbol tokens turned into the modifiers the current
    scenario's reference card gives them right now (Easy/Standard values, A983.4 for The
    Midnight Masks, A995.2–A995.4 for The Devourer Below); other scenarios keep the
    symbols and :func:`success_chance` estimates them."""
    bag: dict[str, int] = panel.get("chaos_bag") or {}
    act = (panel.get("act") or {}).get("code")
    if act == "01123":
        most = 0
        for info in (panel.get("enemies") or {}).values():
            d = agent._def(info.get("code"))
            if d is not None and "Cultist" in d.traits:
                most = max(most, int(info.get("doom", 0)))
        mods = {"skull": -most, "cultist": -2, "tablet": -3}
    elif act in _DB_ACTS:
        monsters, ancient = 0, False
        for info in (panel.get("enemies") or {}).values():
            d = agent._def(info.get("code"))
            if d is not None:
                monsters += "Monster" in d.traits
                ancient = ancient or "Ancient One" in d.traits
        mods = {"skull": -monsters, "cultist": -2, "tablet": -3,
                "elder_thing": -7 if ancient else -5}
    else:
        return bag
    out: dict[str, int] = {}
    for tok, n in bag.items():
        key = f"{mods[tok]:+d}" if tok in mods else tok
        out[key] = out.get(key, 0) + n
    return out


class _Panel:
    """The seat's panel (``view.panel``) read fact by fact through its reader: ``panel[name]``
    and ``panel.get(name, default)`` as on the view's dict."""

    __slots__ = ("_reader",)

    def __init__(self, reader: tcgcore.SeatReader) -> None:
        self._reader = reader

    def __getitem__(self, name: str) -> Any:
        got = self._reader.fact(name, _ABSENT)
        if got is _ABSENT:
            raise KeyError(name)
        return got

    def get(self, name: str, default: Any = None) -> Any:
        return self._reader.fact(name, default)


_ABSENT: Any = object()


class _Codes:
    """The codes of the cards the seat identifies, by id (alias), read through its reader:
    ``codes.get(card_id)`` as on a dict of the view's cards (``None`` for any other id)."""

    __slots__ = ("_reader",)

    def __init__(self, reader: tcgcore.SeatReader) -> None:
        self._reader = reader

    def get(self, card_id: int) -> str | None:
        return self._reader.code(card_id)


class _Ctx:
    """What one decision may look at: the panel, its own seat, visible card codes (read
    through the seat's :class:`tcgcore.SeatReader` when deciding)."""

    def __init__(self, agent: HeuristicAgent, panel: Any, seat: int, codes: Any,
                 hand: list[int]) -> None:
        """``panel``: the seat's panel (a :class:`_Panel`, or the view's dict); ``codes``: the
        codes of the cards the seat identifies by id (a :class:`_Codes`, or a dict);
        ``hand``: the seat's hand, card ids top first."""
        self.agent = agent
        self.panel = panel
        self.seat = seat
        self.codes = codes
        self.hand = hand

    # read when first used: a decision that needs none of them reads no panel fact

    @cached_property
    def me(self) -> dict[str, Any] | None:
        """This seat's investigator panel (``None`` before investigators are chosen)."""
        invs = self.panel.get("investigators") or []
        me: dict[str, Any] | None = invs[self.seat] if self.seat < len(invs) else None
        return me

    @cached_property
    def bag(self) -> dict[str, int]:
        """The chaos bag's public contents, symbols valued for the scenario."""
        return _scenario_bag(self.agent, self.panel)

    @cached_property
    def enemy_bonus(self) -> int:
        """The Ritual Begins (01144, A993.2): every enemy +1 fight and +1 evade."""
        return 1 if (self.panel.get("agenda") or {}).get("code") == "01144" else 0

    def code(self, cid: int | None) -> str | None:
        """The code of a card the seat identifies (``None`` otherwise)."""
        code: str | None = self.codes.get(cid) if cid is not None else None
        return code

    def cost(self, cid: int | None) -> int:
        d = self.card(cid)
        return (d.cost or 0) if d is not None else 0

    def card(self, cid: int | None) -> CardDef | None:
        if cid is None:
            return None
        code = self.code(cid)
        if code is None:
            info = self.panel.get("enemies", {}).get(str(cid))
            code = info["code"] if info else None
        return self.agent._def(code)

    def enemy(self, cid: int | None) -> dict[str, Any] | None:
        if cid is None:
            return None
        info: dict[str, Any] | None = self.panel.get("enemies", {}).get(str(cid))
        return info

    def threats(self) -> list[dict[str, Any]]:
        """Ready enemies at (or engaged with) this investigator, with their definitions."""
        if self.me is None:
            return []
        out = []
        for eid, info in self.panel.get("enemies", {}).items():
            d = self.agent._def(info["code"])
            if d is not None and (info["engaged"] == self.seat or (
                    info.get("location") == self.me["location"] and not info.get("exhausted"))):
                out.append({"id": int(eid), "enemy": d, **info})
        return out

    def best_fight(self, with_hand: bool = False) -> int:
        """Combat value with the best fight ability in play (and in hand)."""
        best = self.skill("combat")
        if self.me is None:
            return best
        cards = list(self.me.get("assets", []))
        if with_hand:
            for cid in self.hand:
                code = self.code(cid)
                d = self.agent._def(code)
                if d is not None and d.type_code == "asset":
                    cards.append({"code": code, "uses": d.uses.count if d.uses else 0})
        for a in cards:
            d = self.agent._def(a["code"])
            for ab in d.abilities if d is not None else ():
                if ab.action == "fight" and (not ab.uses or a.get("uses", 0) > 0):
                    best = max(best, self.skill(ab.skill or "combat") + ab.skill_bonus)
        return best

    def ready_for(self, enemy: CardDef, with_hand: bool = False) -> bool:
        """Fair odds against ``enemy``: a 45% hit chance and two of its attacks survivable."""
        if self.me is None:
            return True
        me = self.me
        tough = me["health"] - me["damage"] > 2 * enemy.enemy_damage and \
            me["sanity"] - me["horror"] > 2 * enemy.enemy_horror
        return tough and success_chance(self.bag, self.best_fight(with_hand),
                                        (enemy.enemy_fight or 0) + self.enemy_bonus) >= 0.45

    def investigate_chance(self, shroud: int) -> float:
        """Best chance to investigate against ``shroud`` with what is in play."""
        best = self.skill("intellect") + self.inv_bonus() - shroud
        for a in (self.me or {}).get("assets", []):
            d = self.agent._def(a["code"])
            for ab in d.abilities if d is not None else ():
                if ab.action == "investigate" and not ab.no_clue and \
                        (not ab.uses or a.get("uses", 0) > 0):
                    best = max(best, self.skill(ab.skill or "intellect") + ab.skill_bonus +
                               self.inv_bonus() - max(0, shroud + ab.shroud_mod))
        return success_chance(self.bag, best, 0) if best >= 0 else \
            success_chance(self.bag, 0, -best)

    def can_resign_at(self, code: str) -> bool:
        d = self.agent._def(code)
        return d is not None and any(ab.action == "resign" for ab in d.abilities)

    def location(self, lid: int) -> dict[str, Any] | None:
        for loc in self.panel.get("locations", []):
            if loc["id"] == lid:
                return dict(loc)
        return None

    def skill(self, name: str) -> int:
        return int(self.me["skills"][name]) if self.me is not None else 0

    def inv_bonus(self) -> int:
        return int(self.me.get("investigate_bonus", 0)) if self.me is not None else 0
