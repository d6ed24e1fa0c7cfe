"""The heuristic agent's generic tactics: odds of a skill test from the public chaos bag,
what one decision may look at (:class:`_Ctx`, read through the seat's
:class:`tcgcore.SeatReader`), and the moves every scenario plan is built from (attacking,
evading, investigating, walking, playing cards, helping a teammate). Names no scenario;
the only card named is Lita Chantler (:data:`.codes.LITA_CHANTLER`), whom every plan keeps
alive and in her slot.
"""

from __future__ import annotations

from collections import deque
from functools import cached_property
from typing import Any

import tcgcore

from ..cards import CardDef, card_pool
from .codes import LITA_CHANTLER

__all__ = ["Tactics", "success_chance"]

_SYMBOL_MOD = {"skull": -2, "cultist": -1, "tablet": -2, "elder_thing": -2}


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


class Tactics:
    """The agent's generic moves (each returns an option key or ``None``); the decision
    loop (:class:`.loop.HeuristicAgent`) and the scenario plans (:mod:`.plans`) use them."""

    #: Clues each investigator gathers before stepping onto the Ritual Site (A993.5).
    DB_CLUES = 2
    TEAM = True

    def __init__(self, seed: int = 0) -> None:
        self.rng = tcgcore.Rng.from_seed(seed)
        self.pool = card_pool()

    def _def(self, code: str | None) -> CardDef | None:
        return self.pool.get(code) if code else None

    def scenario_bag(self, panel: Any) -> dict[str, int]:
        """The public bag with symbol tokens valued for the scenario (here: as they
        are; the decision loop values them with the current scenario plan)."""
        bag: dict[str, int] = panel.get("chaos_bag") or {}
        return bag

    def enemy_bonus(self, panel: Any) -> int:
        """Fight and evade added to every enemy (here: none; the decision loop asks the
        current scenario plan)."""
        return 0

    def _worth_playing(self, ctx: _Ctx, d: CardDef) -> bool:
        if d.type_code == "asset":
            return not d.is_weakness()
        return bool(d.effects) or bool(d.play_action)

    def _help_team(self, ctx: _Ctx, opts: dict[str, tcgcore.Option],
                   engaged: list[int], eager: bool = False) -> str | None:
        """Team play: a free investigator who fights better than a teammate takes on the
        enemies engaged with that teammate. Here it attacks one outright when the odds
        are good (a miss would hit the teammate, A413.3, unless it is massive, A611.4),
        or engages it first (A415) when the teammate is fragile; otherwise it walks
        toward a teammate in trouble up to two locations away. Returns an option key or
        ``None``."""
        if engaged:
            return None
        me, panel = ctx.me, ctx.panel
        n = ctx.investigator_count()
        if me is None or n < 2:
            return None
        mate_of = ctx.investigator  # a teammate's entry, built only for one worth helping
        mine = ctx.best_fight()
        here_targets: list[tuple[int, int]] = []
        far: set[int] = set()
        for eid, info in panel["enemies"].items():
            seat = info["engaged"]
            if seat < 0 or seat == ctx.seat or seat >= n or (mate := mate_of(seat)) is None \
                    or mate.get("status"):
                continue
            d = self._def(info["code"])
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
            mate = mate_of(info["engaged"])
            assert mate is not None
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

    def _fast_damage(self, ctx: _Ctx, opts: dict[str, tcgcore.Option]) -> str | None:
        """A fast ability that deals damage to an enemy here (Beat Cop): used when the
        enemy it would hit (the one :meth:`_choose_enemy` picks) is finished by it and
        is worth it (engaged with us, carrying doom or worth victory points); one that
        does not discard its card is used on any such enemy."""
        if not any(key.startswith("fast:") for key in opts):
            return None  # nothing to use: the location is not read
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
                if d.slot.startswith("Ally") and any(a["code"] == LITA_CHANTLER
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


class _Panel:
    """The seat's panel (``view.panel``) read fact by fact through its reader: ``panel[name]``
    and ``panel.get(name, default)`` as on the view's dict; :meth:`investigator` reads one
    seat's entry of the ``investigators`` fact alone (``SeatReader.fact_item``), which is
    what most decisions need."""

    __slots__ = ("_reader",)

    def __init__(self, reader: tcgcore.SeatReader) -> None:
        self._reader = reader

    def __getitem__(self, name: str) -> Any:
        got = self.get(name, _ABSENT)
        if got is _ABSENT:
            raise KeyError(name)
        return got

    def get(self, name: str, default: Any = None) -> Any:
        if name == "investigators":
            n = self.investigator_count()
            return [self.investigator(s) for s in range(n)] if n else default
        return self._reader.fact(name, default)

    def investigator_count(self) -> int:
        """``len(panel.get("investigators") or [])``: every seat has an investigator once
        they are chosen, and the panel is empty before."""
        if self.investigator(0) is None:
            return 0
        return self._reader.num_players

    def investigator(self, seat: int) -> dict[str, Any] | None:
        """``(panel.get("investigators") or [])[seat]``, or ``None`` when there is no such
        entry."""
        got: dict[str, Any] | None = self._reader.fact_item("investigators", seat)
        return got


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

    def __init__(self, agent: Tactics, panel: Any, seat: int, codes: Any,
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
        return self.investigator(self.seat)

    def investigator(self, seat: int) -> dict[str, Any] | None:
        """Seat ``seat``'s entry of the panel's ``investigators`` (``None``: no such entry);
        through the agent's reader only that entry is built."""
        one = getattr(self.panel, "investigator", None)
        if one is not None:
            got: dict[str, Any] | None = one(seat)
            return got
        invs = self.panel.get("investigators") or []
        entry: dict[str, Any] | None = invs[seat] if 0 <= seat < len(invs) else None
        return entry

    def investigator_count(self) -> int:
        """How many entries the panel's ``investigators`` has."""
        count = getattr(self.panel, "investigator_count", None)
        if count is not None:
            return int(count())
        return len(self.panel.get("investigators") or [])

    @cached_property
    def bag(self) -> dict[str, int]:
        """The chaos bag's public contents, symbols valued for the scenario."""
        return self.agent.scenario_bag(self.panel)

    @cached_property
    def enemy_bonus(self) -> int:
        """Fight and evade the scenario adds to every enemy (The Devourer Below's The
        Ritual Begins, A993.2), as the agent's scenario plan says."""
        return self.agent.enemy_bonus(self.panel)

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

    @cached_property
    def _locations(self) -> dict[int, dict[str, Any]]:
        """The panel's locations by id (the first of an id), indexed once."""
        by_id: dict[int, dict[str, Any]] = {}
        for loc in self.panel.get("locations", []):
            by_id.setdefault(loc["id"], loc)
        return by_id

    def location(self, lid: int) -> dict[str, Any] | None:
        """A copy of the panel's entry of location ``lid`` (``None``: no such location)."""
        loc = self._locations.get(lid)
        return dict(loc) if loc is not None else None

    def skill(self, name: str) -> int:
        return int(self.me["skills"][name]) if self.me is not None else 0

    def inv_bonus(self) -> int:
        return int(self.me.get("investigate_bonus", 0)) if self.me is not None else 0
