"""Damage, horror, defeat and elimination (A701–A709); enemy attacks and the enemy
phase (hunter, patrol, elusive, massive; A417, A601–A615).

Part of the rules engine (layers in ``docs/architecture.md``): imports the shared
:mod:`.queries`, :mod:`.abilities` and :mod:`.operations`; :func:`register` puts the step
handlers on the spec :func:`.plugin.build_spec` builds.
"""

from __future__ import annotations

from typing import Final

import tcgcore
from tcgcore import Option

from .cards import CardDef
from .operations import (
    _agenda_forced,
    _enemy_enters,
    _extra_trauma_detail,
    _game_end_applies,
    _summary_detail,
    check_objective,
    discard_card,
    end_phase_limits,
    final_victory,
)
from .queries import (
    _POOL,
    BONUS_CODES,
    FORCED_CODES,
    Z_AT,
    Z_DECK,
    Z_DISCARD,
    Z_HAND,
    Z_PLAY,
    Z_THREAT,
    Eng,
    _traits,
    barricaded,
    can_enter,
    cdef,
    current_act,
    distances_from,
    dof,
    enemy_health,
    engaged_enemies,
    has_kw,
    inv_health,
    inv_sanity,
    is_enemy,
    location_by_code,
    location_of,
    name_of,
    player_order,
    prey_filter,
    prey_is_exclusive,
    seats_at,
    trigger_of_eliminated,
)
from .scenario_hooks import (
    scenario_of,
)
from .state import (
    AdvanceAct,
    AfterAttack,
    ArkhamState,
    AttackHits,
    AttackPick,
    CheckDefeat,
    DamageEnemy,
    Effects,
    Eliminate,
    ElusiveAnswer,
    ElusiveMove,
    EndEnemyPhase,
    EnemyAttack,
    EnemyAttacks,
    EnemyPhase,
    EngageCheck,
    Harm,
    HarmAnswer,
    HunterMoves,
    HunterPick,
    LeadAnswer,
    MassiveAttacks,
    MassivePick,
    MoveOne,
    MoveOneAnswer,
    TraumaAnswer,
    UpkeepPhase,
)

# ============================================================================ damage


def _soakers(state: ArkhamState, seat: int, kind: str, pending: dict[str, int]) -> list[int]:
    """Assets that can still take damage/horror (A205.1, A701.3)."""
    out = []
    cards = state.cards
    extra = state.extra_defs
    inv_card = state.inv[seat].card
    for cid in state.zones[Z_PLAY[seat]].cards:
        if cid == inv_card:
            continue
        code = cards[cid].code  # printed(state, cid), inline: printed health and sanity
        d = (extra.get(code) if extra else None) or _POOL[code]  # kept by a blank text box
        cap = d.health if kind == "damage" else d.sanity
        if cap is None:
            continue
        have = cards[cid].counters.get(kind, 0) + pending.get(f"{kind}:{cid}", 0)
        if have < cap:
            out.append(cid)
    return out


#: The "Investigator" answer of every assignment (options are frozen: shared).
_INV_OPTION: Final = Option(key="inv", label="Investigator")


def _harm(eng: Eng, step: Harm) -> None:
    """A701: assign damage and horror point by point, then place all at once."""
    state = eng.state
    seat = step.seat
    if state.inv[seat].status:
        return
    assigned = step.assigned
    for kind in ("damage", "horror"):
        total = step.damage if kind == "damage" else step.horror
        if total <= 0:
            continue  # nothing to assign (what is assigned only counts up from 0)
        if assigned:
            prefix = kind + ":"
            left = total - sum(v for k, v in assigned.items() if k.startswith(prefix))
            if left <= 0:
                continue
        else:
            left = total
        soak = _soakers(state, seat, kind, assigned)
        if not soak:
            assigned[f"{kind}:inv"] = assigned.get(f"{kind}:inv", 0) + left
            continue
        opts = [_INV_OPTION]
        opts += [Option(key=f"asset:{c}", label=name_of(state, c), card=c) for c in soak]
        eng.ask(seat, f"assign_{kind}", f"Assign {kind} point by point: who takes the next "
                f"point? ({left} of {total} left to assign)", opts,
                resume=HarmAnswer(harm=step, kind=kind))
        return
    _place_harm(eng, step)


def _harm_answer(eng: Eng, step: HarmAnswer) -> None:
    key = eng.answer[0]
    tgt = "inv" if key == "inv" else key.split(":")[1]
    k = f"{step.kind}:{tgt}"
    step.harm.assigned[k] = step.harm.assigned.get(k, 0) + 1
    eng.push(step.harm)


def _place_harm(eng: Eng, step: Harm) -> None:
    state = eng.state
    seat = step.seat
    inv = state.inv[seat]
    dmg = step.direct_damage + step.assigned.get("damage:inv", 0)
    hor = step.direct_horror + step.assigned.get("horror:inv", 0)
    # A701.6: prevention applies after assignment, before placement
    cards = state.cards
    with_bonus = None if state.extra_defs else BONUS_CODES  # cards without any: skipped
    for cid in state.zones[Z_PLAY[seat]].cards:
        if with_bonus is not None and cards[cid].code not in with_bonus:
            continue
        bonus = dof(state, cid).bonus
        if bonus:
            dmg = max(0, dmg - bonus.get("prevent_damage", 0))
            hor = max(0, hor - bonus.get("prevent_horror", 0))
    inv.damage += dmg
    inv.horror += hor
    defeated_assets = []
    strike_back: list[tcgcore.Step] = []
    for key, n in step.assigned.items():
        kind, _, tgt = key.partition(":")
        if tgt == "inv" or n <= 0:
            continue
        cid = int(tgt)
        counters = eng.add_counter(cid, kind, n).counters
        d = dof(state, cid)
        if kind == "damage" and "damaged_by_attack" in d.forced and step.source >= 0 and \
                is_enemy(state, step.source) and \
                state.cards[step.source].zone.startswith(("at.", "threat.")):
            # Guard Dog: an enemy attack that damages it takes damage back
            amount = sum(e.amount for e in d.forced["damaged_by_attack"])
            strike_back.append(DamageEnemy(enemy=step.source, amount=amount, seat=seat))
        if (d.health is not None and counters.get("damage", 0) >= d.health) or (
                d.sanity is not None and counters.get("horror", 0) >= d.sanity):
            defeated_assets.append(cid)
    eng.emit("harm_placed", player=seat, amount=dmg + hor,
             data={"damage": dmg, "horror": hor, "source": step.source,
                   "total_damage": inv.damage, "total_horror": inv.horror})
    for cid in defeated_assets:
        eng.emit("asset_defeated", player=seat, card=cid)
        discard_card(eng, cid)  # A205.2
    eng.push(CheckDefeat(seat=seat), *strike_back)


def _check_defeat(eng: Eng, step: CheckDefeat) -> None:
    """A703/A704: defeat by damage (physical) or horror (mental); both: choose."""
    state = eng.state
    seat = step.seat
    if state.inv[seat].status:
        return
    inv = state.inv[seat]
    by_dmg = inv.damage >= inv_health(state, seat)
    by_hor = inv.horror >= inv_sanity(state, seat)
    if by_dmg and by_hor:
        eng.ask(seat, "trauma", "Defeated by damage and horror: choose the trauma",
                [Option(key="physical", label="Physical trauma"),
                 Option(key="mental", label="Mental trauma")], resume=TraumaAnswer(seat=seat))
        return
    if by_dmg or by_hor:
        inv.trauma = "physical" if by_dmg else "mental"
        eng.push(Eliminate(seat=seat, reason="defeated"))


def _trauma_answer(eng: Eng, step: TraumaAnswer) -> None:
    eng.state.inv[step.seat].trauma = eng.answer[0]
    eng.push(Eliminate(seat=step.seat, reason="defeated"))


def _eliminate(eng: Eng, step: Eliminate) -> None:
    """A705: clues to the location, enemies left unengaged there (state kept) and
    re-engaging, threat cards discarded, cards removed, new lead; nobody left: A708."""
    state = eng.state
    seat = step.seat
    inv = state.inv[seat]
    if inv.status:
        return
    if not inv.limits.get("game_end_done"):
        game_end: list[tcgcore.Step] = []
        cards = state.cards
        forced = None if state.extra_defs else FORCED_CODES  # cards without any: skipped
        for cid in [*state.zones[Z_THREAT[seat]].cards, *state.zones[Z_PLAY[seat]].cards]:
            if forced is not None and cards[cid].code not in forced:
                continue
            d = dof(state, cid)
            if d.is_weakness() and "game_end" in d.forced and _game_end_applies(state, cid):
                game_end.append(Effects(seat=seat, effects=d.forced["game_end"], source=cid))
        if game_end:  # A705.2: "when the game ends" weaknesses resolve first
            inv.limits["game_end_done"] = 1
            eng.push(*game_end, Eliminate(seat=seat, reason=step.reason))
            return
    inv.status = step.reason
    loc = inv.location
    eng.emit("investigator_eliminated", player=seat, data={"reason": step.reason})
    if loc >= 0 and inv.clues:
        eng.add_counter(loc, "clues", inv.clues)  # A705.3
    inv.clues = 0
    inv.resources = 0  # A705.4
    engage_after: list[int] = []
    for cid in list(state.zones[Z_THREAT[seat]].cards):
        if is_enemy(state, cid) and loc >= 0:
            eng.move(cid, Z_AT[loc], kind="disengaged")  # A705.5 (same zone kind: kept)
            engage_after.append(cid)
        else:
            discard_card(eng, cid, eliminated=True)  # A705.7 (The Necronomicon too)
    for cid in list(state.zones[Z_PLAY[seat]].cards):
        if cid != inv.card:
            if cid in state.auras:
                state.auras.remove(cid)
            eng.move(cid, "out", kind="removed")  # A705.8
    for z in (Z_HAND[seat], Z_DECK[seat]):
        for cid in list(state.zones[z].cards):
            eng.move(cid, "removed", kind="removed")
    for cid in list(state.zones[Z_DISCARD[seat]].cards):
        eng.move(cid, "out", kind="removed")  # its discard pile leaves the game too
    _drop_triggers_of(state, seat)
    remaining = player_order(state)
    if not remaining:
        resigned = any(i.status == "resigned" for i in state.inv)
        lost = scenario_of(eng).no_resolution(state)  # A995.1: resigning does not save anyone
        if lost:
            resigned = False
        detail: dict[str, tcgcore.Scalar] = {"resolution": "R-none", "lead": state.lead,
                                              "victory": final_victory(state),
                                              "round": state.turn}
        # the campaign runner reads the outcome (A980.8): "loss" where no resolution
        # loses the scenario (The Devourer Below), otherwise "no resolution"
        detail["outcome"] = "loss" if lost else state.resolutions.get("R-none", "no resolution")
        for s, i in enumerate(state.inv):
            detail[f"status{s}"] = i.status
            if i.trauma:
                detail[f"trauma{s}"] = i.trauma
        _extra_trauma_detail(state, detail)
        _summary_detail(eng, detail)
        seats = list(range(state.num_players))
        if resigned:
            eng.end(reason="no_resolution", detail=detail)  # A708.1
        else:
            eng.end(losers=seats, reason="all_defeated", detail=detail)
        return
    for eid in engage_after:
        eng.push(EngageCheck(enemy=eid))  # A705.6
    if state.lead == seat:
        nxt = remaining[0]
        if len(remaining) == 1:
            state.lead = nxt
            eng.emit("new_lead", player=nxt)
        else:
            # A707.1: the next remaining investigator in player order names the new lead
            eng.ask(nxt, "choose_lead", "Choose the new lead investigator",
                    [Option(key=f"inv:{s}", label=cdef(state, state.inv[s].code).name)
                     for s in remaining], resume=LeadAnswer())


def _drop_triggers_of(state: ArkhamState, seat: int) -> None:
    """A705.10: the eliminated investigator's abilities that were waiting to resolve (the
    rest of an open trigger window, or collected in this step) are dropped, so nobody
    asks the eliminated seat to use one. Runs once per elimination, over the stack."""
    state.triggers = [t for t in state.triggers if not trigger_of_eliminated(state, t)]
    for step in state.stack:
        if isinstance(step, tcgcore.TriggerWindow) and step.triggers:
            step.triggers[:] = [t for t in step.triggers if not trigger_of_eliminated(state, t)]


def _lead_answer(eng: Eng, step: LeadAnswer) -> None:
    seat = int(eng.answer[0].split(":")[1])
    eng.state.lead = seat
    eng.emit("new_lead", player=seat)


# ============================================================================ enemies


def can_attack(state: ArkhamState, seat: int, eid: int) -> bool:
    """Whether enemy ``eid`` may attack investigator ``seat``: not one that cannot attack
    (A608.3), nor a non-Elite enemy while On the Lam protects the investigator this
    round (A974.6); such enemies are not listed in the attack order either."""
    return _may_attack(state, seat, dof(state, eid))


def _may_attack(state: ArkhamState, seat: int, d: CardDef) -> bool:
    """:func:`can_attack` for an enemy whose current definition ``d`` the caller has."""
    if "cannot_attack" in d.keywords:
        return False
    limits = state.inv[seat].limits
    return not (limits and limits.get("flag:on_the_lam:round") and "Elite" not in _traits(d))


def _enemy_attack(eng: Eng, step: EnemyAttack) -> None:
    """A417.4: an attack deals the enemy's damage and horror at once."""
    state = eng.state
    eid, seat = step.enemy, step.seat
    if state.inv[seat].status or not state.cards[eid].zone.startswith(("at.", "threat.")):
        return
    d = dof(state, eid)
    if not _may_attack(state, seat, d):
        return
    ev = eng.emit("enemy_attacks", player=seat, card=eid, code=d.code)
    eng.push(AttackHits(enemy=eid, seat=seat, event=ev.seq, exhaust=step.exhaust))


def _attack_hits(eng: Eng, step: AttackHits) -> None:
    """The attack lands unless a "when" effect cancelled it (A901.1)."""
    state = eng.state
    eid, seat = step.enemy, step.seat
    if step.event in state.cancelled:
        state.cancelled.remove(step.event)
        eng.emit("attack_cancelled", player=seat, card=eid)
        eng.push(AfterAttack(enemy=eid, seat=seat, exhaust=step.exhaust))
        return
    d = dof(state, eid)
    # Yithian Observer (A994.4): only an enemy with the keyword does anything there
    more = attack_extra(eng, eid, seat) if "yithian" in d.keywords else 0
    limits = state.inv[seat].limits
    other = limits.pop(f"redirect:{step.event}", -1) if limits else -1
    if other >= 0 and state.cards[other].zone.startswith(("at.", "threat.")):
        # Aquinnah (A978.9): the attack's damage goes to another enemy, the horror to you
        eng.push(DamageEnemy(enemy=other, amount=d.enemy_damage + more, seat=seat),
                 Harm(seat=seat, horror=d.enemy_horror + more, source=eid),
                 AfterAttack(enemy=eid, seat=seat, exhaust=step.exhaust))
        return
    eng.push(Harm(seat=seat, damage=d.enemy_damage + more, horror=d.enemy_horror + more,
                  source=eid),
             AfterAttack(enemy=eid, seat=seat, exhaust=step.exhaust))


def _after_attack(eng: Eng, step: AfterAttack) -> None:
    state = eng.state
    eid = step.enemy
    card = state.cards[eid]
    if not card.zone.startswith(("at.", "threat.")):
        return
    d = dof(state, eid)
    if "after_attack" in d.forced:  # Silver Twilight Acolyte
        eng.push(Effects(seat=state.lead, effects=d.forced["after_attack"], source=eid))
    keywords = d.keywords
    if "elusive" in keywords and not card.exhausted:
        eng.push(ElusiveMove(enemy=eid))  # A610.1 (it exhausts as it leaves)
        return
    if step.exhaust and "massive" not in keywords:
        eng.update_card(eid, exhausted=True)  # A417.5
        eng.emit("enemy_exhausted", card=eid, code=card.code)


def _damage_enemy(eng: Eng, step: DamageEnemy) -> None:
    """A615: damage; defeated at damage >= health; victory display or discard."""
    state = eng.state
    eid = step.enemy
    card = state.cards[eid]
    if not card.zone.startswith(("at.", "threat.")) or step.amount <= 0:
        return
    card = eng.add_counter(eid, "damage", step.amount)
    eng.emit("enemy_damaged", player=step.seat if step.seat >= 0 else None, card=eid,
             amount=step.amount)
    if card.counters["damage"] >= enemy_health(state, eid):
        code = card.code
        eng.emit("enemy_defeated", player=step.seat if step.seat >= 0 else None, card=eid,
                 code=code)
        discard_card(eng, eid, defeated=True)
        act = current_act(state)
        if act >= 0 and dof(state, act).objective == f"defeat:{code}":
            eng.push(AdvanceAct())  # A801.4
        elif act >= 0 and dof(state, act).objective.startswith("victory_unique_trait:"):
            check_objective(eng)  # A983.3


def _elusive(eng: Eng, step: ElusiveMove) -> None:
    """A610: disengage, move to a connecting location (preferring ones without
    investigators; lead chooses) and exhaust."""
    state = eng.state
    eid = step.enemy
    card = state.cards[eid]
    if not card.zone.startswith(("at.", "threat.")) or card.exhausted:
        return
    loc = location_of(state, eid)
    nbrs = [n for n in state.adj.get(str(loc), ()) if can_enter(state, n)]
    empty = [n for n in nbrs if not seats_at(state, n)]
    cands = empty or nbrs
    if not cands:
        _elusive_to(eng, eid, loc)
        return
    if len(cands) == 1:
        _elusive_to(eng, eid, cands[0])
        return
    eng.ask(state.lead, "elusive_move", f"Where does {name_of(state, eid)} go?",
            [Option(key=f"loc:{n}", label=name_of(state, n), card=n) for n in cands],
            resume=ElusiveAnswer(enemy=eid))


def _elusive_answer(eng: Eng, step: ElusiveAnswer) -> None:
    _elusive_to(eng, step.enemy, int(eng.answer[0].split(":")[1]))


def _elusive_to(eng: Eng, eid: int, loc: int) -> None:
    eng.move(eid, Z_AT[loc], kind="enemy_moved")
    eng.update_card(eid, exhausted=True)


def _enemy_phase(eng: Eng, step: EnemyPhase) -> None:
    state = eng.state
    end_phase_limits(state)  # the investigation phase ended (A978.3)
    state.phase = "enemy"
    state.active_player = state.lead
    eng.emit("phase", data={"phase": "enemy"})
    eng.push(HunterMoves(), EnemyAttacks(seats=player_order(state)), EndEnemyPhase())


def _movers(state: ArkhamState) -> list[int]:
    out = []
    for loc in state.zones["locations"].cards:
        for eid in state.zones[Z_AT[loc]].cards:
            if state.cards[eid].exhausted or not is_enemy(state, eid):
                continue
            d = dof(state, eid)
            if has_kw(d, "hunter") or d.patrol:
                out.append(eid)
    return out


def _hunter_moves(eng: Eng, step: HunterMoves) -> None:
    """3.2 (A605, A606): ready unengaged hunter/patrol enemies move one at a time, the
    lead choosing the order when several move (A605.7)."""
    state = eng.state
    pending = step.pending if step.started else _movers(state)
    pending = [e for e in pending if state.cards[e].zone.startswith("at.")
               and not state.cards[e].exhausted and any(_move_choices(state, e))]
    if not pending:
        return
    if len(pending) == 1:
        eng.push(MoveOne(enemy=pending[0]))
        return
    eng.ask(state.lead, "hunter_order", "Which enemy moves next?",
            [Option(key=f"enemy:{e}", label=name_of(state, e), card=e) for e in pending],
            resume=HunterPick(pending=pending))


def _hunter_pick(eng: Eng, step: HunterPick) -> None:
    eid = int(eng.answer[0].split(":")[1])
    eng.push(MoveOne(enemy=eid),
             HunterMoves(pending=[e for e in step.pending if e != eid], started=True))


def _move_choices(state: ArkhamState, eid: int) -> tuple[list[int], list[int]]:
    """(target investigators tied after prey, next-step locations) for one mover."""
    loc = location_of(state, eid)
    d = dof(state, eid)
    dist = distances_from(state, loc)
    if d.patrol:
        goals = [location_by_code(state, d.patrol)]
        goals = [g for g in goals if g >= 0 and g in dist]
        if not goals or loc in goals:
            return [], []
        goal = goals[0]
    else:
        seats = player_order(state)
        if prey_is_exclusive(d.prey):  # "Prey - X only" hunts only X (A607.2)
            seats = prey_filter(state, eid, seats)
        reach = [s for s in seats if state.inv[s].location in dist]
        if not reach:
            return [], []
        if any(state.inv[s].location == loc for s in reach):
            return [], []  # A605.3
        best = min(dist[state.inv[s].location] for s in reach)
        near = [s for s in reach if dist[state.inv[s].location] == best]
        near = prey_filter(state, eid, near) or near  # A605.4
        if len(near) > 1:
            return near, []
        goal = state.inv[near[0]].location
    back = distances_from(state, goal)
    here = back.get(loc)
    if here is None:
        return [], []
    steps = [n for n in state.adj.get(str(loc), ()) if back.get(n) == here - 1]
    return [], steps


def _move_one(eng: Eng, step: MoveOne) -> None:
    state = eng.state
    eid = step.enemy
    near, steps = _move_choices(state, eid)
    if near:
        eng.ask(state.lead, "hunter_target", f"Which investigator does {name_of(state, eid)} "
                "hunt?", [Option(key=f"inv:{s}", label=f"Investigator {s}") for s in near],
                resume=MoveOneAnswer(enemy=eid, what="target"))
        return
    _move_step(eng, eid, steps)


def _move_step(eng: Eng, eid: int, steps: list[int]) -> None:
    state = eng.state
    steps = [n for n in steps if not barricaded(state, eid, n)]  # A975.12
    if not steps:
        return
    if len(steps) == 1:
        _enemy_enters(eng, eid, steps[0])
        return
    eng.ask(state.lead, "hunter_path", f"Which way does {name_of(state, eid)} go?",
            [Option(key=f"loc:{n}", label=name_of(state, n), card=n) for n in steps],
            resume=MoveOneAnswer(enemy=eid, what="path"))


def _move_one_answer(eng: Eng, step: MoveOneAnswer) -> None:
    state = eng.state
    key = eng.answer[0]
    if step.what == "path":
        _enemy_enters(eng, step.enemy, int(key.split(":")[1]))
        return
    seat = int(key.split(":")[1])
    loc = location_of(state, step.enemy)
    goal = state.inv[seat].location
    back = distances_from(state, goal)
    here = back.get(loc, 0)
    _move_step(eng, step.enemy, [n for n in state.adj.get(str(loc), ()) if back.get(n) == here - 1])


def _enemy_attacks(eng: Eng, step: EnemyAttacks) -> None:
    """3.3 (A417.2): per investigator in player order, each ready engaged enemy attacks in
    the investigator's chosen order, then exhausts (A417.5)."""
    state = eng.state
    seats = [s for s in step.seats if not state.inv[s].status]
    if not seats:
        return
    seat = seats[0]
    engaged = engaged_enemies(state, seat)  # read once: nothing here changes it
    cards = state.cards
    # (not started: the ready engaged enemies; the filter below keeps their order)
    pending = [e for e in (step.pending if step.started else engaged)
               if e in engaged and not cards[e].exhausted
               and can_attack(state, seat, e)] if engaged else []  # On the Lam: not listed
    if not pending:
        eng.push(EnemyAttacks(seats=seats[1:]))
        return
    if len(pending) == 1:
        eng.push(_one_enemy_attacks(state, pending[0], seat), EnemyAttacks(seats=seats[1:]))
        return
    eng.ask(seat, "attack_order", "Which enemy attacks you next?",
            [Option(key=f"enemy:{e}", label=name_of(state, e), card=e) for e in pending],
            resume=AttackPick(seats=seats, pending=pending))


def _attack_pick(eng: Eng, step: AttackPick) -> None:
    eid = int(eng.answer[0].split(":")[1])
    eng.push(_one_enemy_attacks(eng.state, eid, step.seats[0]),
             EnemyAttacks(seats=step.seats, pending=[e for e in step.pending if e != eid],
                          started=True))


def _one_enemy_attacks(state: ArkhamState, eid: int, seat: int) -> tcgcore.Step:
    """The step for enemy ``eid``'s turn to attack in 3.3: one attack on ``seat`` that
    exhausts it (A417.5), or, for a massive enemy, its attacks on everyone at its location
    in the lead's order (A611.2)."""
    if has_kw(dof(state, eid), "massive"):
        return MassiveAttacks(enemy=eid)
    return EnemyAttack(enemy=eid, seat=seat, exhaust=True)


def _massive_attacks(eng: Eng, step: MassiveAttacks) -> None:
    """A611.2: a ready massive enemy attacks each investigator at its location that it may
    attack, one at a time in the order the lead chooses (``inv:<seat>``; no question when
    one is left), then exhausts after the last attack like any enemy (A417.5)."""
    state = eng.state
    eid = step.enemy
    card = state.cards[eid]
    if not card.zone.startswith("at.") or card.exhausted:
        return
    loc = int(card.zone[3:])
    here = seats_at(state, loc)
    if step.started:
        seats = [s for s in step.seats if s in here]
    else:
        seats = [s for s in player_order(state) if s in here]
    seats = [s for s in seats if not state.inv[s].status and can_attack(state, s, eid)]
    if not seats:
        if step.started:
            eng.update_card(eid, exhausted=True)  # after its last attack (A611.2)
            eng.emit("enemy_exhausted", card=eid, code=card.code)
        return
    if len(seats) == 1:
        eng.push(EnemyAttack(enemy=eid, seat=seats[0]),
                 MassiveAttacks(enemy=eid, seats=[], started=True))
        return
    eng.ask(state.lead, "massive_order", f"Which investigator does {name_of(state, eid)} "
            "attack next?", [Option(key=f"inv:{s}", label=dof(state, state.inv[s].card).name)
                             for s in seats],
            resume=MassivePick(enemy=eid, seats=seats))


def _massive_pick(eng: Eng, step: MassivePick) -> None:
    seat = int(eng.answer[0].split(":")[1])
    eng.push(EnemyAttack(enemy=step.enemy, seat=seat),
             MassiveAttacks(enemy=step.enemy, seats=[s for s in step.seats if s != seat],
                            started=True))


def _end_enemy_phase(eng: Eng, step: EndEnemyPhase) -> None:
    state = eng.state
    eng.emit("phase_ended", data={"phase": "enemy"})
    eng.push(*_agenda_forced(state, "enemy_phase_end"), UpkeepPhase())


def attack_extra(eng: Eng, eid: int, seat: int) -> int:
    """Yithian Observer (A994.4): discard a random card from the attacked investigator's
    hand; with none, the attack deals 1 more damage and 1 more horror (returned)."""
    state = eng.state
    if "yithian" not in dof(state, eid).keywords:
        return 0
    hand = state.zones[Z_HAND[seat]].cards
    if hand:
        discard_card(eng, hand[eng.rng.randbelow(len(hand))])
        return 0
    return 1


def register(spec: tcgcore.GameSpec[ArkhamState]) -> None:
    """Register this module's step handlers on ``spec`` (:func:`.plugin.build_spec` calls it
    once, on the spec it builds)."""
    spec.handles(Harm)(_harm)
    spec.handles(HarmAnswer)(_harm_answer)
    spec.handles(CheckDefeat)(_check_defeat)
    spec.handles(TraumaAnswer)(_trauma_answer)
    spec.handles(Eliminate)(_eliminate)
    spec.handles(LeadAnswer)(_lead_answer)
    spec.handles(EnemyAttack)(_enemy_attack)
    spec.handles(AttackHits)(_attack_hits)
    spec.handles(AfterAttack)(_after_attack)
    spec.handles(DamageEnemy)(_damage_enemy)
    spec.handles(ElusiveMove)(_elusive)
    spec.handles(ElusiveAnswer)(_elusive_answer)
    spec.handles(EnemyPhase)(_enemy_phase)
    spec.handles(HunterMoves)(_hunter_moves)
    spec.handles(HunterPick)(_hunter_pick)
    spec.handles(MoveOne)(_move_one)
    spec.handles(MoveOneAnswer)(_move_one_answer)
    spec.handles(EnemyAttacks)(_enemy_attacks)
    spec.handles(AttackPick)(_attack_pick)
    spec.handles(MassiveAttacks)(_massive_attacks)
    spec.handles(MassivePick)(_massive_pick)
    spec.handles(EndEnemyPhase)(_end_enemy_phase)
