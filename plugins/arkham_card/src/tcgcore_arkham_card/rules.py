"""The arkham_card rules engine: helpers, step handlers and the :data:`spec`.

Sections, in order: state queries (card definitions, locations, enemies, skills, doom);
setup flow (mulligan); rounds and the mythos phase (encounter draws, spawn, engagement);
the investigation phase (turn order, actions, attacks of opportunity, play, activate);
skill tests (ST.1–ST.8: commit, windows, tokens, results); the effect language
(:class:`~tcgcore_arkham_card.cards.Effect` ops); damage, defeat and elimination; enemy
attacks and the enemy phase (hunter, patrol, elusive, massive); upkeep and the end of the
round; acts and agendas; triggered abilities (collector and resolver for the core's
trigger windows, ordered by the lead).

Every piece of pending work is a tagged :mod:`~tcgcore_arkham_card.state` step; every
decision is an ``eng.ask`` whose resume step reads ``eng.answer``. Rule numbers in
comments refer to ``docs/arkham_card/rules.md`` (A-numbers).
"""

from __future__ import annotations

from collections import deque
from typing import Any

import tcgcore
from tcgcore import Engine, Event, Option, Trigger

from .cards import SKILLS, Ability, CardDef, Effect, card_pool
from .state import (
    ActionChosen,
    AdvanceAct,
    AdvanceAgenda,
    AfterAttack,
    AooPick,
    ApplyResults,
    ArkhamState,
    AssetDiscardAnswer,
    AttackHits,
    AttackPick,
    AttacksOfOpportunity,
    BeginRound,
    CheckDefeat,
    ChooseAnswer,
    ChooseEnemyAnswer,
    CommitAnswer,
    CommitStep,
    DamageEnemy,
    DetermineResult,
    DoActivate,
    DoDraw,
    DoEngage,
    DoMove,
    DoPlay,
    DoResign,
    DrawEncounter,
    Effects,
    Eliminate,
    ElusiveAnswer,
    ElusiveMove,
    EncounterDraws,
    EndEnemyPhase,
    EndPeril,
    EndRound,
    EndTest,
    EndTurn,
    EnemyAttack,
    EnemyAttacks,
    EnemyPhase,
    EngageAnswer,
    EngageCheck,
    FinishTreachery,
    HandSize,
    HandSizeAnswer,
    Harm,
    HarmAnswer,
    HunterMoves,
    HunterPick,
    InvestigationPhase,
    LeadAnswer,
    MoveOne,
    MoveOneAnswer,
    Mulligan,
    MulliganAnswer,
    MythosPhase,
    NextTurn,
    ObjectiveAnswer,
    ResolveEncounter,
    RevealToken,
    RoundEndObjective,
    SkillTest,
    SlotAnswer,
    SpawnAnswer,
    SpawnAt,
    SpendCluesAnswer,
    StartTest,
    TestWindow,
    TestWindowAnswer,
    TraumaAnswer,
    TurnAction,
    TurnPick,
    UpkeepPhase,
    WouldFailAnswer,
)

GAME = "arkham_card"
HAND_SIZE = 8
#: Safety bound on chained surge draws (an encounter deck made only of surge cards would
#: otherwise never stop); far above anything a real deck produces.
MAX_SURGE = 30
SLOT_LIMITS: dict[str, int] = {"hand": 2, "arcane": 2, "accessory": 1, "body": 1, "ally": 1}
Eng = Engine[ArkhamState]

# ============================================================================ helpers


_POOL = card_pool()


def cdef(state: ArkhamState, code: str) -> CardDef:
    """The definition of ``code`` (scenario-supplied definitions first).

    Raises:
        KeyError: unknown code.
    """
    extra = state.extra_defs
    if extra:
        d = extra.get(code)
        if d is not None:
            return d
    return _POOL[code]


def dof(state: ArkhamState, cid: int) -> CardDef:
    """The definition of card instance ``cid``."""
    code = state.cards[cid].code
    extra = state.extra_defs
    if extra:
        d = extra.get(code)
        if d is not None:
            return d
    return _POOL[code]


def playing(state: ArkhamState, seat: int) -> bool:
    """Whether ``seat`` has not been eliminated (A705.9)."""
    return not state.inv[seat].status


def player_order(state: ArkhamState) -> list[int]:
    """Seats still playing, from the lead in seating order (A104.1, A705.9)."""
    n = state.num_players
    return [s for s in ((state.lead + k) % n for k in range(n)) if not state.inv[s].status]


def location_of(state: ArkhamState, cid: int) -> int:
    """Location id of an enemy/treachery in an ``at.`` or ``threat.`` zone (-1 if none)."""
    zone = state.cards[cid].zone
    if zone.startswith("at."):
        return int(zone[3:])
    if zone.startswith("threat."):
        return state.inv[int(zone[7:])].location
    return -1


def seats_at(state: ArkhamState, loc: int) -> list[int]:
    """Investigators still playing at location ``loc``, in player order."""
    invs = state.inv
    n = len(invs)
    lead = state.lead
    out = []
    for k in range(n):
        s = (lead + k) % n
        inv = invs[s]
        if inv.location == loc and not inv.status:
            out.append(s)
    return out


def is_enemy(state: ArkhamState, cid: int) -> bool:
    return dof(state, cid).type_code == "enemy"


def has_kw(d: CardDef, kw: str) -> bool:
    return kw in d.keywords


def enemies_at(state: ArkhamState, loc: int) -> list[int]:
    """Every enemy at ``loc``: unengaged ones and those engaged with investigators there."""
    out = [c for c in state.zones[f"at.{loc}"].cards if is_enemy(state, c)]
    for s in seats_at(state, loc):
        out.extend(c for c in state.zones[f"threat.{s}"].cards if is_enemy(state, c))
    return out


def engaged_enemies(state: ArkhamState, seat: int) -> list[int]:
    """Enemies engaged with ``seat``: its threat area plus ready massive enemies at its
    location (A611.1)."""
    out = [c for c in state.zones[f"threat.{seat}"].cards if is_enemy(state, c)]
    loc = state.inv[seat].location
    if loc >= 0:
        for c in state.zones[f"at.{loc}"].cards:
            card = state.cards[c]
            if not card.exhausted and is_enemy(state, c) and has_kw(dof(state, c), "massive"):
                out.append(c)
    return out


def engaged_seat(state: ArkhamState, eid: int) -> int:
    """Seat whose threat area holds enemy ``eid`` (-1 if unengaged)."""
    zone = state.cards[eid].zone
    return int(zone[7:]) if zone.startswith("threat.") else -1


def enemy_health(state: ArkhamState, eid: int) -> int:
    """Printed health, multiplied per investigator (A110.1, A209.2)."""
    d = dof(state, eid)
    hp = d.health or 0
    return hp * state.num_players if d.health_per_investigator else hp


def skill_value(state: ArkhamState, seat: int, skill: str) -> int:
    """Base skill plus constant bonuses of assets the investigator controls (A112.1)."""
    inv = state.inv[seat]
    base = int(getattr(cdef(state, inv.code), "skill_" + skill))
    for cid in state.zones[f"play.{seat}"].cards:
        if cid != inv.card:
            b = dof(state, cid).bonus.get(skill)
            if b:
                base += b
    if state.auras:
        # "investigators at your location get +1 <skill>" (e.g. Lita Chantler)
        for cid in state.auras:
            zone = state.cards[cid].zone
            if zone.startswith("play.") and \
                    state.inv[int(zone[5:])].location == inv.location:
                base += dof(state, cid).bonus_here.get(skill, 0)
    return base


def inv_health(state: ArkhamState, seat: int) -> int:
    return cdef(state, state.inv[seat].code).health or 0


def inv_sanity(state: ArkhamState, seat: int) -> int:
    return cdef(state, state.inv[seat].code).sanity or 0


def current_agenda(state: ArkhamState) -> int:
    cards = state.zones["agendas"].cards
    return cards[0] if cards else -1


def current_act(state: ArkhamState) -> int:
    cards = state.zones["acts"].cards
    return cards[0] if cards else -1


_PLAY_ZONE_PREFIXES = ("at.", "threat.", "play.")


def doom_in_play(state: ArkhamState) -> int:
    """All doom on the agenda and on every other card in play (A402.2, A402.3)."""
    total = 0
    cards = state.cards
    for zid, zone in state.zones.items():
        if zid in ("locations", "agendas") or zid.startswith(_PLAY_ZONE_PREFIXES):
            for cid in zone.cards:
                if cid >= 0:
                    total += cards[cid].counters.get("doom", 0)
    return total


def agenda_threshold(state: ArkhamState) -> int:
    ag = current_agenda(state)
    return (dof(state, ag).doom or 0) if ag >= 0 else 0


def act_threshold(state: ArkhamState) -> int:
    """Clues needed to advance the current act, per investigator multiplied (A801.1)."""
    act = current_act(state)
    if act < 0:
        return 0
    d = dof(state, act)
    if d.clues is None:
        return 0
    return d.clues if d.clues_fixed else d.clues * state.num_players


def is_revealed(state: ArkhamState, loc: int) -> bool:
    return state.cards[loc].counters.get("revealed", 0) == 1


def shroud(state: ArkhamState, loc: int) -> int:
    base = dof(state, loc).shroud or 0
    for c in state.zones[f"at.{loc}"].cards:
        base += dof(state, c).bonus.get("shroud", 0)
    return max(0, base)


def rebuild_adjacency(state: ArkhamState) -> None:
    """Recompute connections between locations in play (A211.5); called when the set of
    locations in play changes."""
    locs = list(state.zones["locations"].cards)
    by_symbol: dict[str, list[int]] = {}
    by_code: dict[str, int] = {}
    for loc in locs:
        d = dof(state, loc)
        if d.symbol:
            by_symbol.setdefault(d.symbol, []).append(loc)
        by_code[d.code] = loc
    adj: dict[str, list[int]] = {}
    for loc in locs:
        d = dof(state, loc)
        targets: list[int] = []
        for ref in d.connections:
            if ref in by_code:
                targets.append(by_code[ref])
            targets.extend(by_symbol.get(ref, []))
        adj[str(loc)] = sorted({t for t in targets if t != loc})
    # connections are symmetric
    for key, targets in list(adj.items()):
        loc = int(key)
        for t in targets:
            back = adj[str(t)]
            if loc not in back:
                back.append(loc)
                back.sort()
    state.adj = adj


def distances_from(state: ArkhamState, start: int) -> dict[int, int]:
    """BFS distances (connections) from ``start`` over locations in play (A605.2)."""
    dist = {start: 0}
    queue = deque([start])
    adj = state.adj
    while queue:
        cur = queue.popleft()
        for nxt in adj.get(str(cur), ()):
            if nxt not in dist:
                dist[nxt] = dist[cur] + 1
                queue.append(nxt)
    return dist


def can_enter(state: ArkhamState, loc: int) -> bool:
    """Whether a location may be entered (an unrevealed barrier cannot; A605.6)."""
    return not (dof(state, loc).cannot_enter_unrevealed and not is_revealed(state, loc))


def location_by_code(state: ArkhamState, code: str) -> int:
    for loc in state.zones["locations"].cards:
        if state.cards[loc].code == code:
            return loc
    return -1


def name_of(state: ArkhamState, cid: int) -> str:
    return dof(state, cid).name


def prey_filter(state: ArkhamState, eid: int, seats: list[int]) -> list[int]:
    """Narrow candidate investigators by the enemy's prey (A607.1).

    Prey strings: ``"highest:<skill>"``, ``"lowest:<skill>"``, ``"most:clues"``,
    ``"lowest:remaining_health"``, ``"only:<seat>"``.
    """
    prey = dof(state, eid).prey
    if not prey or len(seats) <= 1:
        if prey.startswith("only:"):
            return [s for s in seats if str(s) == prey[5:]]
        return seats
    kind, _, what = prey.partition(":")
    if kind == "only":
        return [s for s in seats if str(s) == what]

    def score(s: int) -> int:
        inv = state.inv[s]
        if what == "clues":
            return inv.clues
        if what == "remaining_health":
            return inv_health(state, s) - inv.damage
        if what in SKILLS:
            return skill_value(state, s, what)
        return 0

    scores = {s: score(s) for s in seats}
    best = max(scores.values()) if kind in ("highest", "most") else min(scores.values())
    return [s for s in seats if scores[s] == best]


def draw_cards(eng: Eng, seat: int, count: int) -> None:
    """Draw ``count`` cards; an empty deck is reset from the discard pile and the
    investigator takes 1 horror after the whole draw (A907.1, A907.2)."""
    state = eng.state
    deck = state.zones[f"deck.{seat}"]
    emptied = False
    drawn: list[int] = []
    for _ in range(count):
        if not deck.cards:
            discard = state.zones[f"discard.{seat}"]
            emptied = True
            if not discard.cards:
                break
            for cid in list(discard.cards):
                eng.move(cid, f"deck.{seat}")
            eng.shuffle(f"deck.{seat}")
            eng.emit("deck_reset", player=seat)
        cid = deck.cards[0]
        eng.move(cid, f"hand.{seat}", kind="drawn")
        drawn.append(cid)
    if emptied:
        eng.push(Harm(seat=seat, horror=1))
    # weaknesses drawn take effect at once (A208.2); pushed so they resolve after the draw
    for cid in reversed(drawn):
        d = dof(state, cid)
        if d.is_weakness() and d.type_code in ("treachery", "enemy"):
            eng.push(ResolveEncounter(seat=seat, card=cid))


def place_clues(state: ArkhamState, loc: int) -> None:
    d = dof(state, loc)
    if d.clues:
        n = d.clues if d.clues_fixed else d.clues * state.num_players
        state.cards[loc].counters["clues"] = state.cards[loc].counters.get("clues", 0) + n


def reveal_location(eng: Eng, loc: int) -> None:
    """Reveal a location and place its clues, once (A211.2–A211.4)."""
    state = eng.state
    card = state.cards[loc]
    if card.counters.get("revealed", 0):
        return
    card.counters["revealed"] = 1
    place_clues(state, loc)
    eng.emit("location_revealed", card=loc, code=card.code,
             amount=card.counters.get("clues", 0))


def enter_location(eng: Eng, seat: int, loc: int, *, reveal: bool = True) -> None:
    """Put an investigator at ``loc`` (engaged enemies come along, A603.1), reveal it,
    emit ``entered`` (forced "after you enter" abilities) and check engagement (A602.1)."""
    state = eng.state
    inv = state.inv[seat]
    inv.location = loc
    if reveal:
        reveal_location(eng, loc)
    eng.emit("entered", player=seat, card=loc, code=state.cards[loc].code)
    for eid in state.zones[f"at.{loc}"].cards:
        if is_enemy(state, eid):
            eng.push(EngageCheck(enemy=eid))


def add_doom(eng: Eng, cid: int, amount: int) -> None:
    counters = eng.state.cards[cid].counters
    counters["doom"] = counters.get("doom", 0) + amount
    eng.emit("doom_placed", card=cid, code=eng.state.cards[cid].code, amount=amount)


def discard_card(eng: Eng, cid: int, *, defeated: bool = False) -> None:
    """Send a card that leaves play to the discard pile it belongs in (A208.3, A615.2)."""
    state = eng.state
    card = state.cards[cid]
    d = dof(state, cid)
    if cid in state.auras:
        state.auras.remove(cid)
    if d.type_code in ("enemy", "treachery") and not d.is_weakness():
        if defeated and d.victory is not None and d.type_code == "enemy":
            eng.move(cid, "victory", kind="to_victory")
        else:
            eng.move(cid, "encounter_discard", kind="discarded")
    elif is_player_card(d):
        eng.move(cid, f"discard.{card.owner}", kind="discarded")
    else:
        eng.move(cid, "out", kind="removed")


def is_player_card(d: CardDef) -> bool:
    """Player cards (assets, events, skills, weaknesses) go to their owner's discard pile;
    story assets and scenario cards do not (A113.2, A208.3)."""
    return (d.type_code in ("asset", "event", "skill") and not d.encounter_code) or \
        d.is_weakness()


def gain_clues(eng: Eng, seat: int, amount: int) -> None:
    """Discover ``amount`` clues at the investigator's location (A109.3)."""
    state = eng.state
    inv = state.inv[seat]
    if inv.location < 0:
        return
    counters = state.cards[inv.location].counters
    got = min(amount, counters.get("clues", 0))
    if got <= 0:
        return
    counters["clues"] -= got
    inv.clues += got
    eng.emit("clues_discovered", player=seat, card=inv.location, amount=got)


def pick_token(eng: Eng) -> str:
    """Draw a chaos token at random (or the next forced token of a test scenario)."""
    state = eng.state
    if state.next_tokens:
        return state.next_tokens.pop(0)
    return state.bag[eng.rng.randbelow(len(state.bag))]


def end_with(eng: Eng, resolution: str) -> None:
    """End the scenario with a resolution (A804.1)."""
    state = eng.state
    seats = list(range(state.num_players))
    outcome = state.resolutions.get(resolution, "win")
    detail: dict[str, tcgcore.Scalar] = {
        "resolution": resolution, "outcome": outcome, "mode": state.mode, "lead": state.lead,
        "victory": final_victory(state), "round": state.turn,
    }
    for s, inv in enumerate(state.inv):
        detail[f"status{s}"] = inv.status or "playing"
        if inv.trauma:
            detail[f"trauma{s}"] = inv.trauma
    _extra_trauma_detail(state, detail)
    if outcome == "win":
        eng.end(winners=seats, reason="resolution", detail=detail)
    else:
        eng.end(losers=seats, reason="resolution", detail=detail)


def _extra_trauma_detail(state: ArkhamState, detail: dict[str, tcgcore.Scalar]) -> None:
    """Trauma from "when the game ends" effects, ``extra_trauma<seat>`` = ``"mental,..."``."""
    per: dict[str, list[str]] = {}
    for item in state.extra_trauma:
        seat, _, kind = item.partition(":")
        if kind.startswith("xp"):
            key = f"xp_adjust{seat}"
            detail[key] = int(detail.get(key, 0) or 0) + int(kind[2:])
            continue
        per.setdefault(seat, []).append(kind)
    for seat, kinds in per.items():
        detail[f"extra_trauma{seat}"] = ",".join(kinds)


def victory_total(state: ArkhamState) -> int:
    """Victory points in the victory display (A955.1)."""
    return sum(dof(state, c).victory or 0 for c in state.zones["victory"].cards)


def final_victory(state: ArkhamState) -> int:
    """Victory at the end of the scenario: the victory display plus each revealed location
    in play with Victory X and no clues on it (RR: Victory Display)."""
    total = victory_total(state)
    for loc in state.zones["locations"].cards:
        d = dof(state, loc)
        counters = state.cards[loc].counters
        if d.victory and counters.get("revealed") and not counters.get("clues"):
            total += d.victory
    return total


def run_effects(eng: Eng, seat: int, effects: tuple[Effect, ...], source: int = -1,
                margin: int = 0) -> None:
    if effects:
        eng.push(Effects(seat=seat, effects=effects, source=source, margin=margin))


# ============================================================================ spec


def _setup(eng: Eng, options: dict[str, Any]) -> None:
    from .scenario_setup import setup

    setup(eng, options)


def _lead(eng: Engine[Any]) -> int:
    state: ArkhamState = eng.state
    return state.lead


spec: tcgcore.GameSpec[ArkhamState] = tcgcore.GameSpec(
    name=GAME,
    version="0.1.0",
    state_type=ArkhamState,
    setup=_setup,
    players=(1, 4),
    default_players=1,
    description="Arkham Horror: The Card Game (詭鎮奇談：卡牌版), cooperative, 1-4 investigators",
    trigger_policy=tcgcore.decided_by(_lead),
    forced_first=True,
)

# ============================================================================ setup flow


@spec.handles(Mulligan)
def _mulligan(eng: Eng, step: Mulligan) -> None:
    state = eng.state
    hand = state.zones[f"hand.{step.seat}"].cards
    opts = [Option(key=f"card:{c}", label=name_of(state, c), card=c) for c in hand]
    eng.ask(step.seat, "mulligan", "Choose cards to set aside and redraw (one mulligan)",
            opts, min=0, max=len(opts), resume=MulliganAnswer(seat=step.seat))


@spec.handles(MulliganAnswer)
def _mulligan_answer(eng: Eng, step: MulliganAnswer) -> None:
    # A305.1-A305.3: set aside, draw replacements (weaknesses set aside again), shuffle in
    state = eng.state
    seat = step.seat
    chosen = [int(k.split(":")[1]) for k in eng.answer]
    for cid in chosen:
        eng.move(cid, f"aside.{seat}")
    from .scenario_setup import draw_opening

    draw_opening(eng, seat, len(chosen))
    for cid in list(state.zones[f"aside.{seat}"].cards):
        eng.move(cid, f"deck.{seat}")
    eng.shuffle(f"deck.{seat}")
    state.inv[seat].mulliganed = True
    eng.emit("mulligan", player=seat, amount=len(chosen))


# ============================================================================ rounds


@spec.handles(BeginRound)
def _begin_round(eng: Eng, step: BeginRound) -> None:
    state = eng.state
    state.turn += 1
    eng.emit("round_started", amount=state.turn)
    if state.turn == 1:
        eng.push(InvestigationPhase())  # A401.2: no mythos phase in round 1
    else:
        eng.push(MythosPhase())


@spec.handles(MythosPhase)
def _mythos(eng: Eng, step: MythosPhase) -> None:
    state = eng.state
    state.phase = "mythos"
    eng.emit("phase", data={"phase": "mythos"})
    ag = current_agenda(state)
    if ag >= 0:
        add_doom(eng, ag, 1)  # A402.1
    steps: list[tcgcore.Step] = []
    if ag >= 0 and doom_in_play(state) >= agenda_threshold(state):  # A402.2
        steps.append(AdvanceAgenda())
    steps += [EncounterDraws(seats=player_order(state)), InvestigationPhase()]
    eng.push(*steps)


@spec.handles(EncounterDraws)
def _encounter_draws(eng: Eng, step: EncounterDraws) -> None:
    # A402.4: in player order, each resolves completely before the next
    state = eng.state
    seats = [s for s in step.seats if playing(state, s)]
    if not seats:
        return
    eng.push(DrawEncounter(seat=seats[0]), EncounterDraws(seats=seats[1:]))


def _refill_encounter(eng: Eng) -> None:
    """A908.1: an empty encounter deck is reshuffled from its discard pile."""
    state = eng.state
    if not state.zones["encounter"].cards and state.zones["encounter_discard"].cards:
        for cid in list(state.zones["encounter_discard"].cards):
            eng.move(cid, "encounter")
        eng.shuffle("encounter")
        eng.emit("encounter_reshuffled")


@spec.handles(DrawEncounter)
def _draw_encounter(eng: Eng, step: DrawEncounter) -> None:
    state = eng.state
    if not playing(state, step.seat):
        return
    _refill_encounter(eng)
    deck = state.zones["encounter"].cards
    if not deck:
        return
    cid = deck[0]
    eng.move(cid, "resolving", kind="encounter_drawn", data={"seat": step.seat})
    _refill_encounter(eng)
    eng.push(ResolveEncounter(seat=step.seat, card=cid, depth=step.depth))


@spec.handles(ResolveEncounter)
def _resolve_encounter(eng: Eng, step: ResolveEncounter) -> None:
    """Resolve a drawn encounter card or weakness: treachery revelation (A210.1), enemy
    spawn (A601), surge (A612.1) and peril (A613)."""
    state = eng.state
    cid, seat = step.card, step.seat
    d = dof(state, cid)
    if state.cards[cid].zone != "resolving":
        eng.move(cid, "resolving", kind="revealed")
    after: list[tcgcore.Step] = []
    if has_kw(d, "peril"):
        state.peril = seat
        after.append(EndPeril(card=cid))
    if has_kw(d, "surge") and step.depth < MAX_SURGE:
        after.append(DrawEncounter(seat=seat, depth=step.depth + 1))
    if d.type_code == "enemy":
        eng.push(SpawnAt(enemy=cid, seat=seat), *after)
    else:
        eng.push(Effects(seat=seat, effects=d.revelation, source=cid),
                 FinishTreachery(card=cid, seat=seat), *after)


@spec.handles(EndPeril)
def _end_peril(eng: Eng, step: EndPeril) -> None:
    eng.state.peril = -1  # A613.1


@spec.handles(FinishTreachery)
def _finish_treachery(eng: Eng, step: FinishTreachery) -> None:
    state = eng.state
    card = state.cards[step.card]
    if card.zone != "resolving":
        return  # it went to a threat area or was attached
    d = dof(state, step.card)
    if d.victory is not None and not d.is_weakness():
        eng.move(step.card, "victory", kind="to_victory")  # A615.4
    else:
        discard_card(eng, step.card)


@spec.handles(SpawnAt)
def _spawn(eng: Eng, step: SpawnAt) -> None:
    """A601: spawn at the named location (discarded if none in play), else engaged with
    the drawer (aloof: at the drawer's location unengaged)."""
    state = eng.state
    eid = step.enemy
    d = dof(state, eid)
    seat = step.seat
    if d.spawn:
        fits = _spawn_fits(state, d.spawn)
        if not fits:
            eng.emit("spawn_failed", card=eid, code=state.cards[eid].code)
            discard_card(eng, eid)  # A601.2
            return
        if len(fits) > 1:  # A601.1: the lead chooses
            eng.ask(state.lead, "spawn_location", f"Where does {d.name} spawn?",
                    [Option(key=f"loc:{x}", label=name_of(state, x), card=x) for x in fits],
                    resume=SpawnAnswer(enemy=eid))
            return
        _spawn_at_location(eng, eid, fits[0])
        return
    if seat < 0 or not playing(state, seat) or state.inv[seat].location < 0:
        discard_card(eng, eid)
        return
    loc = state.inv[seat].location
    if has_kw(d, "aloof") or has_kw(d, "massive"):
        eng.move(eid, f"at.{loc}", kind="spawned", data={"location": loc})  # A601.4
    else:
        eng.move(eid, f"threat.{seat}", kind="spawned", data={"location": loc})  # A601.3
        eng.emit("enemy_engaged", player=seat, card=eid)


def _spawn_fits(state: ArkhamState, spawn: str) -> list[int]:
    """Locations in play that fit a spawn instruction: a location code, ``"empty"`` (any
    location without investigators) or ``"trait:<Trait>"``."""
    locs = state.zones["locations"].cards
    if spawn == "empty":
        return [x for x in locs if not seats_at(state, x)]
    if spawn.startswith("trait:"):
        trait = spawn[6:]
        return [x for x in locs if trait in _traits(dof(state, x))]
    x = location_by_code(state, spawn)
    return [x] if x >= 0 else []


def _spawn_at_location(eng: Eng, eid: int, loc: int) -> None:
    eng.move(eid, f"at.{loc}", kind="spawned", data={"location": loc})
    eng.push(EngageCheck(enemy=eid))
    _enemy_entered(eng, eid, loc)  # A601.5: spawning there is entering it


def _enemy_entered(eng: Eng, eid: int, loc: int) -> None:
    """Announce that an enemy entered a location (forced "enemy_enters" abilities)."""
    eng.emit("enemy_entered", card=loc, code=eng.state.cards[loc].code,
             data={"enemy": eid})


@spec.handles(SpawnAnswer)
def _spawn_answer(eng: Eng, step: SpawnAnswer) -> None:
    _spawn_at_location(eng, step.enemy, int(eng.answer[0].split(":")[1]))


@spec.handles(EngageCheck)
def _engage_check(eng: Eng, step: EngageCheck) -> None:
    """A602.1/A602.2: a ready unengaged non-aloof enemy engages an investigator at its
    location; prey chooses, then the lead breaks ties."""
    state = eng.state
    eid = step.enemy
    card = state.cards[eid]
    if not card.zone.startswith("at.") or card.exhausted:
        return
    d = dof(state, eid)
    if has_kw(d, "aloof") or has_kw(d, "massive"):
        return
    loc = int(card.zone[3:])
    cands = prey_filter(state, eid, seats_at(state, loc))
    if not cands:
        return
    if len(cands) == 1:
        _engage(eng, eid, cands[0])
        return
    eng.ask(state.lead, "engage_target", f"Which investigator does {d.name} engage?",
            [Option(key=f"inv:{s}", label=f"Investigator {s}") for s in cands],
            resume=EngageAnswer(enemy=eid))


@spec.handles(EngageAnswer)
def _engage_answer(eng: Eng, step: EngageAnswer) -> None:
    _engage(eng, step.enemy, int(eng.answer[0].split(":")[1]))


def _engage(eng: Eng, eid: int, seat: int) -> None:
    if eng.state.cards[eid].zone == f"threat.{seat}":
        return
    eng.move(eid, f"threat.{seat}", kind="engaged")
    eng.emit("enemy_engaged", player=seat, card=eid)


# ============================================================================ investigation


@spec.handles(InvestigationPhase)
def _investigation(eng: Eng, step: InvestigationPhase) -> None:
    state = eng.state
    state.phase = "investigation"
    for inv in state.inv:
        inv.acted = False
    eng.emit("phase", data={"phase": "investigation"})
    eng.push(NextTurn())


@spec.handles(NextTurn)
def _next_turn(eng: Eng, step: NextTurn) -> None:
    """A403.2: the lead names the next investigator to take a turn."""
    state = eng.state
    remaining = [s for s in player_order(state) if not state.inv[s].acted]
    if not remaining:
        state.turn_seat = -1
        eng.push(EnemyPhase())
        return
    if len(remaining) == 1:
        _start_turn(eng, remaining[0])
        return
    eng.ask(state.lead, "turn_order", "Which investigator takes the next turn?",
            [Option(key=f"inv:{s}", label=cdef(state, state.inv[s].code).name)
             for s in remaining], resume=TurnPick())


@spec.handles(TurnPick)
def _turn_pick(eng: Eng, step: TurnPick) -> None:
    _start_turn(eng, int(eng.answer[0].split(":")[1]))


def _start_turn(eng: Eng, seat: int) -> None:
    state = eng.state
    state.turn_seat = seat
    state.active_player = seat
    inv = state.inv[seat]
    extra = 0
    special: list[str] = []
    for c in state.zones[f"play.{seat}"].cards:  # the investigator card and its assets
        for key, n in dof(state, c).bonus.items():
            if key == "actions":
                extra += n
            elif key.startswith("action:"):
                special += [key[7:]] * n  # e.g. "action:Tome": 1 (Daisy Walker)
    inv.actions = 3 + extra  # A404.1, A404.3
    inv.special_actions = special
    for key in [k for k in inv.limits if k.endswith(":turn")]:
        del inv.limits[key]
    eng.emit("turn_started", player=seat)
    eng.push(TurnAction(seat=seat))


def _ability_payable(state: ArkhamState, seat: int, cid: int, ab: Ability) -> bool:
    card = state.cards[cid]
    if ab.exhaust and card.exhausted:
        return False
    if ab.uses and card.counters.get("uses", 0) < ab.uses:
        return False
    if ab.resources and state.inv[seat].resources < ab.resources:
        return False
    if ab.limit:
        used = state.group_limits if ab.limit.startswith("group") else state.inv[seat].limits
        if used.get(f"{cid}:{ab.limit}", 0) >= 1:  # A107.1, A107.2, A910.1
            return False
    return True


def _fight_targets(state: ArkhamState, seat: int) -> list[int]:
    """A413.1/A604.2: enemies at your location; unengaged aloof enemies excluded."""
    loc = state.inv[seat].location
    out = []
    for eid in enemies_at(state, loc):
        if engaged_seat(state, eid) < 0 and has_kw(dof(state, eid), "aloof"):
            continue
        out.append(eid)
    return out


def _evade_targets(state: ArkhamState, seat: int) -> list[int]:
    """A412.1: enemies engaged with you (ready massive enemies included)."""
    return engaged_enemies(state, seat)


def card_cost(state: ArkhamState, cid: int) -> int:
    return max(0, dof(state, cid).cost or 0)


def _unique_blocked(state: ArkhamState, d: CardDef) -> bool:
    """A108.1/A911.1: a unique title already in play blocks another copy."""
    if not d.is_unique:
        return False
    for s in range(state.num_players):
        for cid in state.zones[f"play.{s}"].cards:
            if dof(state, cid).title == d.title:
                return True
    return False


def _threat_keyword(state: ArkhamState, seat: int, kw: str) -> bool:
    """Whether a card in the investigator's threat area has keyword ``kw``."""
    cards = state.zones[f"threat.{seat}"].cards
    return bool(cards) and any(kw in dof(state, c).keywords for c in cards)


def _action_cost(state: ArkhamState, seat: int, kind: str) -> int:
    """Actions an action costs: 1, or 2 for the first move/fight/evade each round while a
    "frozen" card (Frozen in Fear) is in the threat area."""
    if kind in ("move", "fight", "evade") and _threat_keyword(state, seat, "frozen") and \
            not state.inv[seat].limits.get("frozen:round"):
        return 2
    return 1


def _can_play(state: ArkhamState, seat: int, cid: int, *, fast_only: bool) -> bool:
    d = dof(state, cid)
    if d.type_code not in ("asset", "event") or d.play_when:
        return False
    if _threat_keyword(state, seat, "no_play"):
        return False  # Dissonant Voices: you cannot play assets or events
    if d.fast != fast_only:
        return False
    if state.inv[seat].resources < card_cost(state, cid):
        return False
    if d.type_code == "asset" and _unique_blocked(state, d):
        return False
    if d.type_code == "event":
        return _event_useful(state, seat, d)
    return True


def _event_useful(state: ArkhamState, seat: int, d: CardDef) -> bool:
    """A904.2: an event needs the potential to change the game state."""
    if d.play_action == "fight":
        return bool(_fight_targets(state, seat))
    if d.play_action == "evade":
        return bool(_evade_targets(state, seat))
    if d.play_action == "investigate":
        return True
    return any(_effect_useful(state, seat, e) for e in d.effects)


def _effect_useful(state: ArkhamState, seat: int, e: Effect) -> bool:
    loc = state.inv[seat].location
    if e.op == "discover_clues":
        return loc >= 0 and state.cards[loc].counters.get("clues", 0) > 0
    if e.op == "damage_enemy":
        return bool(enemies_at(state, loc))
    if e.op == "test_bonus":
        return False
    if e.op == "auto_evade":
        return bool(engaged_enemies(state, seat))
    return True


def turn_options(state: ArkhamState, seat: int) -> list[Option]:
    """The options of an investigator's turn: every legal action, [free] and fast
    option, and ``end_turn`` (A404, A801.2, A905)."""
    inv = state.inv[seat]
    opts: list[Option] = []
    loc = inv.location
    has_action = inv.actions > 0
    if has_action:
        opts.append(Option(key="draw", label="Draw a card"))
        opts.append(Option(key="resource", label="Gain a resource"))
        if loc >= 0:
            opts.append(Option(key="investigate", label="Investigate", card=loc))
            two = inv.actions >= 2 or not _threat_keyword(state, seat, "frozen")
            for nxt in state.adj.get(str(loc), ()):
                if can_enter(state, nxt) and (two or _action_cost(state, seat, "move") == 1):
                    opts.append(Option(key=f"move:{nxt}", label=f"Move to {name_of(state, nxt)}",
                                       card=nxt))
            here = enemies_at(state, loc)
            if here:
                fight_ok = two or _action_cost(state, seat, "fight") == 1
                engage_opts: list[Option] = []
                for eid in here:
                    d = dof(state, eid)
                    engaged_to = engaged_seat(state, eid)
                    if fight_ok and not (engaged_to < 0 and "aloof" in d.keywords):
                        opts.append(Option(key=f"fight:{eid}", label=f"Fight {d.name}",
                                           card=eid))
                    if engaged_to != seat and "massive" not in d.keywords:
                        engage_opts.append(Option(key=f"engage:{eid}",
                                                  label=f"Engage {d.name}", card=eid))
                opts += engage_opts
            for eid in _evade_targets(state, seat) if here else ():
                if not two and _action_cost(state, seat, "evade") > 1:
                    break
                opts.append(Option(key=f"evade:{eid}", label=f"Evade {name_of(state, eid)}",
                                   card=eid))
    fast_plays: list[Option] = []
    for cid in state.zones[f"hand.{seat}"].cards:
        d = dof(state, cid)
        if d.fast:
            if _can_play(state, seat, cid, fast_only=True):
                fast_plays.append(Option(key=f"fastplay:{cid}", label=f"Play {d.name} (fast)",
                                         card=cid))
        elif has_action and _can_play(state, seat, cid, fast_only=False):
            opts.append(Option(key=f"play:{cid}", label=f"Play {d.name}", card=cid))
    fast_abilities: list[Option] = []
    for cid, idx, ab in _activatables(state, seat, ""):
        if ab.kind == "action":
            if has_action or _special_action_for(state, seat, cid) >= 0:
                opts.append(Option(key=f"activate:{cid}:{idx}",
                                   label=f"{name_of(state, cid)}: {ab.action or 'ability'}",
                                   card=cid))
        elif ab.kind == "fast" and not any(e.op == "test_bonus" for e in ab.effects):
            fast_abilities.append(Option(key=f"fast:{cid}:{idx}",
                                         label=f"{name_of(state, cid)} (fast)", card=cid))
    opts += fast_plays
    opts += fast_abilities
    act = current_act(state)
    if act >= 0 and not dof(state, act).objective:
        need = act_threshold(state)
        if need > 0 and sum(i.clues for i in state.inv if not i.status) >= need:
            opts.append(Option(key="advance_act", label="Spend clues to advance the act",
                               card=act))
    opts.append(Option(key="end_turn", label="End turn"))
    return opts


def _activatables(state: ArkhamState, seat: int, kind: str) -> list[tuple[int, int, Ability]]:
    """Abilities of ``kind`` (``""``: action and fast) the investigator may trigger now
    (A407.1): its own cards, its location and cards at it, the current act and agenda."""
    inv = state.inv[seat]
    sources: list[int] = [c for c in state.zones[f"play.{seat}"].cards]
    loc = inv.location
    if loc >= 0:
        sources.append(loc)
        sources.extend(state.zones[f"at.{loc}"].cards)
        for s in seats_at(state, loc):
            sources.extend(c for c in state.zones[f"threat.{s}"].cards)
    for z in ("acts", "agendas"):
        top = state.zones[z].cards
        if top:
            sources.append(top[0])
    out: list[tuple[int, int, Ability]] = []
    for cid in sources:
        d = dof(state, cid)
        if not d.abilities:
            continue
        if d.type_code == "location" and not is_revealed(state, cid):
            continue
        for idx, ab in enumerate(d.abilities):
            if (ab.kind != kind if kind else ab.kind == "reaction") or \
                    not _ability_payable(state, seat, cid, ab):
                continue
            if ab.action == "fight" and not _fight_targets(state, seat):
                continue
            if ab.action == "evade" and not _evade_targets(state, seat):
                continue
            if ab.action == "parley" and d.type_code == "enemy" and location_of(state, cid) != loc:
                continue
            if ab.effects and all(e.op == "take_control" for e in ab.effects) and not any(
                    state.cards[x].code == e.code for e in ab.effects
                    for x in state.zones["setaside"].cards):
                continue  # A904.2: nothing left to take control of
            out.append((cid, idx, ab))
    return out


@spec.handles(TurnAction)
def _turn_action(eng: Eng, step: TurnAction) -> None:
    state = eng.state
    seat = step.seat
    if not playing(state, seat) or state.inv[seat].acted:
        eng.push(NextTurn())
        return
    opts = turn_options(state, seat)
    if len(opts) == 1:
        eng.push(EndTurn(seat=seat))  # A403.3: no actions left and nothing free to do
        return
    inv = state.inv[seat]
    eng.ask(seat, "action", f"Choose an action ({inv.actions} left)", opts,
            resume=ActionChosen(seat=seat))


def _provokes(kind: str) -> bool:
    """A416.1/A416.3: every action but fight, evade, parley and resign provokes."""
    return kind not in ("fight", "evade", "parley", "resign")


def _special_action_for(state: ArkhamState, seat: int, cid: int) -> int:
    """Index of a restricted additional action that may pay for activating ``cid``."""
    special = state.inv[seat].special_actions
    if special:
        traits = _traits(dof(state, cid))
        for i, trait in enumerate(special):
            if trait in traits:
                return i
    return -1


def _spend_action(eng: Eng, seat: int, kind: str, card: int = -1) -> None:
    state = eng.state
    if card >= 0:
        i = _special_action_for(state, seat, card)
        if i >= 0:  # A404.3: the first action of that kind uses the restricted action
            del state.inv[seat].special_actions[i]
            eng.emit("action_taken", player=seat, data={"action": kind, "special": True})
            if _provokes(kind) and engaged_enemies(state, seat):
                eng.push(AttacksOfOpportunity(seat=seat))
            return
    cost = _action_cost(state, seat, kind)
    if cost > 1:
        state.inv[seat].limits["frozen:round"] = 1
    state.inv[seat].actions = max(0, state.inv[seat].actions - cost)
    eng.emit("action_taken", player=seat, data={"action": kind})
    if _provokes(kind) and engaged_enemies(state, seat):
        eng.push(AttacksOfOpportunity(seat=seat))  # A416.2: after costs, before effect


@spec.handles(ActionChosen)
def _action_chosen(eng: Eng, step: ActionChosen) -> None:
    state = eng.state
    seat = step.seat
    key = eng.answer[0]
    head, _, rest = key.partition(":")
    inv = state.inv[seat]
    follow = TurnAction(seat=seat)
    if key == "end_turn":
        eng.push(EndTurn(seat=seat))
        return
    if key == "advance_act":
        eng.push(AdvanceAct(), follow)
        _spend_group_clues(eng, seat, act_threshold(state))
        return
    if head == "fastplay":
        cid = int(rest)
        eng.push(DoPlay(seat=seat, card=cid), follow)
        return
    if head == "fast":
        cid_s, idx_s = rest.split(":")
        eng.push(DoActivate(seat=seat, card=int(cid_s), index=int(idx_s)), follow)
        return
    # every remaining option spends one action (A404.1); the action's steps run after
    # any attacks of opportunity (pushed first, so they run first)
    if head == "draw":
        eng.push(DoDraw(seat=seat), follow)
        _spend_action(eng, seat, "draw")
    elif head == "resource":
        eng.push(Effects(seat=seat, effects=(Effect(op="gain_resources", amount=1),)), follow)
        _spend_action(eng, seat, "resource")
    elif head == "investigate":
        test = SkillTest(seat=seat, skill="intellect", difficulty=shroud(state, inv.location),
                         kind="investigate", target=inv.location)
        eng.push(StartTest(test=test), follow)
        _spend_action(eng, seat, "investigate")
    elif head == "move":
        eng.push(DoMove(seat=seat, location=int(rest)), follow)
        _spend_action(eng, seat, "move")
    elif head == "fight":
        eid = int(rest)
        eng.push(StartTest(test=_fight_test(state, seat, eid, -1, "combat", 0, 0)), follow)
        _spend_action(eng, seat, "fight")
    elif head == "evade":
        eid = int(rest)
        eng.push(StartTest(test=_evade_test(state, seat, eid, -1, "agility", 0)), follow)
        _spend_action(eng, seat, "evade")
    elif head == "engage":
        eng.push(DoEngage(seat=seat, enemy=int(rest)), follow)
        _spend_action(eng, seat, "engage")
    elif head == "play":
        cid = int(rest)
        d = dof(state, cid)
        eng.push(DoPlay(seat=seat, card=cid), follow)
        _spend_action(eng, seat, d.play_action or "play")
    elif head == "activate":
        cid_s, idx_s = rest.split(":")
        cid, idx = int(cid_s), int(idx_s)
        ab = dof(state, cid).abilities[idx]
        eng.push(DoActivate(seat=seat, card=cid, index=idx), follow)
        _spend_action(eng, seat, ab.action or "activate", card=cid)


def _fight_test(state: ArkhamState, seat: int, eid: int, source: int, skill: str,
                bonus: int, dmg: int) -> SkillTest:
    d = dof(state, eid)
    return SkillTest(seat=seat, skill=skill, difficulty=max(0, d.enemy_fight or 0), kind="fight",
                     target=eid, source=source, skill_bonus=bonus, damage_bonus=dmg,
                     ready_target=not state.cards[eid].exhausted)


def _evade_test(state: ArkhamState, seat: int, eid: int, source: int, skill: str,
                bonus: int) -> SkillTest:
    d = dof(state, eid)
    return SkillTest(seat=seat, skill=skill, difficulty=max(0, d.enemy_evade or 0), kind="evade",
                     target=eid, source=source, skill_bonus=bonus,
                     ready_target=not state.cards[eid].exhausted,
                     double_negative=has_kw(d, "double_negative_evade"))


def _spend_group_clues(eng: Eng, seat: int, need: int, seats: list[int] | None = None) -> None:
    """A801.3: the group spends clues. When several investigators could contribute and
    there is more than one way to pay, the lead (for the group) picks exactly ``need`` of
    the clues held (keys ``clue:<seat>:<n>``); otherwise they are simply taken. Call it
    after pushing what follows the payment: the question's resume runs first."""
    state = eng.state
    order = seats if seats is not None else [seat] + [s for s in player_order(state) if s != seat]
    holders = [s for s in order if state.inv[s].clues > 0]
    if len(holders) > 1 and sum(state.inv[s].clues for s in holders) > need:
        opts = [Option(key=f"clue:{s}:{k}", label=f"Investigator {s}: clue {k}")
                for s in holders for k in range(1, state.inv[s].clues + 1)]
        eng.ask(state.lead, "spend_clues", f"Choose the {need} clues the group spends",
                opts, min=need, max=need, resume=SpendCluesAnswer())
        return
    _take_clues(eng, order, need)


@spec.handles(SpendCluesAnswer)
def _spend_clues_answer(eng: Eng, step: SpendCluesAnswer) -> None:
    state = eng.state
    per: dict[int, int] = {}
    for key in eng.answer:
        s = int(key.split(":")[1])
        per[s] = per.get(s, 0) + 1
    for s, n in sorted(per.items()):
        state.inv[s].clues -= n
        eng.emit("clues_spent", player=s, amount=n)


def _take_clues(eng: Eng, order: list[int], need: int) -> None:
    state = eng.state
    for s in order:
        if need <= 0:
            break
        take = min(need, state.inv[s].clues)
        state.inv[s].clues -= take
        need -= take
        if take:
            eng.emit("clues_spent", player=s, amount=take)


@spec.handles(EndTurn)
def _end_turn(eng: Eng, step: EndTurn) -> None:
    state = eng.state
    inv = state.inv[step.seat]
    inv.acted = True  # A403.4
    inv.actions = 0
    eng.emit("turn_ended", player=step.seat)
    ends: list[tcgcore.Step] = []
    for cid in state.zones[f"threat.{step.seat}"].cards:
        d = dof(state, cid)
        if "turn_end" in d.forced:
            ends.append(Effects(seat=step.seat, effects=d.forced["turn_end"], source=cid))
    eng.push(*ends, NextTurn())


@spec.handles(AttacksOfOpportunity)
def _aoo(eng: Eng, step: AttacksOfOpportunity) -> None:
    """A416: each ready engaged enemy attacks once, in the investigator's chosen order,
    without exhausting; massive enemies attack only the provoker (A611.5)."""
    state = eng.state
    seat = step.seat
    if not playing(state, seat):
        return
    pending = step.pending if step.started else [
        e for e in engaged_enemies(state, seat) if not state.cards[e].exhausted]
    pending = [e for e in pending if not state.cards[e].exhausted
               and e in engaged_enemies(state, seat)]
    if not pending:
        return
    if len(pending) == 1:
        eng.push(EnemyAttack(enemy=pending[0], seat=seat))
        return
    eng.ask(seat, "attack_order", "Which enemy attacks you next?",
            [Option(key=f"enemy:{e}", label=name_of(state, e), card=e) for e in pending],
            resume=AooPick(seat=seat, pending=pending))


@spec.handles(AooPick)
def _aoo_pick(eng: Eng, step: AooPick) -> None:
    eid = int(eng.answer[0].split(":")[1])
    rest = [e for e in step.pending if e != eid]
    eng.push(EnemyAttack(enemy=eid, seat=step.seat),
             AttacksOfOpportunity(seat=step.seat, pending=rest, started=True))


@spec.handles(DoDraw)
def _do_draw(eng: Eng, step: DoDraw) -> None:
    if playing(eng.state, step.seat):
        draw_cards(eng, step.seat, step.count)


@spec.handles(DoMove)
def _do_move(eng: Eng, step: DoMove) -> None:
    state = eng.state
    if not playing(state, step.seat):
        return
    src = state.inv[step.seat].location
    eng.emit("moved_location", player=step.seat, card=step.location, data={"from": src})
    enter_location(eng, step.seat, step.location)  # A409.1, A603.1 (engaged enemies follow)


@spec.handles(DoEngage)
def _do_engage(eng: Eng, step: DoEngage) -> None:
    state = eng.state
    if not playing(state, step.seat):
        return
    if location_of(state, step.enemy) == state.inv[step.seat].location:
        _engage(eng, step.enemy, step.seat)  # A411.1


@spec.handles(DoResign)
def _do_resign(eng: Eng, step: DoResign) -> None:
    if playing(eng.state, step.seat):
        eng.push(Eliminate(seat=step.seat, reason="resigned"))  # A415.1


# ---------------------------------------------------------------------------- play


def _slot_overflow(state: ArkhamState, seat: int, d: CardDef) -> list[int]:
    """Assets that must be discarded before ``d`` fits (A203.4): candidates sharing an
    over-full slot, or [] when it fits."""
    need = d.slots()
    if not need:
        return []
    used: dict[str, int] = {}
    holders: dict[str, list[int]] = {}
    for cid in state.zones[f"play.{seat}"].cards:
        for s in dof(state, cid).slots():
            used[s] = used.get(s, 0) + 1
            holders.setdefault(s, []).append(cid)
    out: list[int] = []
    for s in dict.fromkeys(need):  # ordered: option order must not depend on hashing
        if used.get(s, 0) + need.count(s) > SLOT_LIMITS.get(s, 99):
            out.extend(c for c in holders.get(s, []) if c not in out)
    return out


@spec.handles(DoPlay)
def _do_play(eng: Eng, step: DoPlay) -> None:
    """A408/A202/A206: pay the cost and play an asset or event."""
    state = eng.state
    seat, cid = step.seat, step.card
    if not playing(state, seat) or state.cards[cid].zone != f"hand.{seat}":
        return
    d = dof(state, cid)
    cost = card_cost(state, cid)
    if state.inv[seat].resources < cost:
        return
    state.inv[seat].resources -= cost
    if d.type_code == "asset":
        eng.move(cid, "resolving", kind="played")
        _put_asset(eng, seat, cid)
        return
    eng.move(cid, "resolving", kind="played")
    after = FinishTreachery(card=cid, seat=seat)  # discards the event afterwards
    eng.push(after)
    if d.play_action == "fight":
        _ask_enemy(eng, seat, _fight_targets(state, seat),
                   ChooseEnemyAnswer(seat=seat, mode="event", source=cid))
    elif d.play_action == "evade":
        _ask_enemy(eng, seat, _evade_targets(state, seat),
                   ChooseEnemyAnswer(seat=seat, mode="event", source=cid))
    elif d.play_action == "investigate":
        loc = state.inv[seat].location
        test = SkillTest(seat=seat, skill=d.play_skill or "intellect",
                         difficulty=shroud(state, loc), kind="investigate", target=loc,
                         source=cid, skill_bonus=d.play_skill_bonus)
        eng.push(StartTest(test=test))
    else:
        run_effects(eng, seat, d.effects, cid)


def _ask_enemy(eng: Eng, seat: int, targets: list[int], resume: ChooseEnemyAnswer) -> None:
    """Choose one enemy (no question when only one fits), then continue with ``resume``."""
    state = eng.state
    if not targets:
        return
    if len(targets) == 1:
        _enemy_chosen(eng, resume, targets[0])
        return
    eng.ask(seat, "choose_enemy", "Choose an enemy",
            [Option(key=f"enemy:{e}", label=name_of(state, e), card=e) for e in targets],
            resume=resume)


@spec.handles(ChooseEnemyAnswer)
def _choose_enemy_answer(eng: Eng, step: ChooseEnemyAnswer) -> None:
    _enemy_chosen(eng, step, int(eng.answer[0].split(":")[1]))


def _enemy_chosen(eng: Eng, step: ChooseEnemyAnswer, eid: int) -> None:
    state = eng.state
    seat = step.seat
    if step.mode == "damage":
        eng.push(DamageEnemy(enemy=eid, amount=step.amount, seat=seat))
        return
    src = step.source
    d = dof(state, src)
    if step.mode == "event":
        action, skill, bonus, dmg = d.play_action, d.play_skill, d.play_skill_bonus, \
            d.play_damage_bonus
    else:
        ab = d.abilities[step.index]
        action, skill, bonus, dmg = ab.action, ab.skill, ab.skill_bonus, ab.damage_bonus
    if action == "fight":
        eng.push(StartTest(test=_fight_test(state, seat, eid, src, skill or "combat", bonus,
                                            dmg)))
    elif action == "evade":
        eng.push(StartTest(test=_evade_test(state, seat, eid, src, skill or "agility",
                                            bonus)))


def _put_asset(eng: Eng, seat: int, cid: int) -> None:
    state = eng.state
    d = dof(state, cid)
    over = _slot_overflow(state, seat, d)
    if over:
        eng.ask(seat, "slot_discard", f"Discard an asset to make room for {d.name}",
                [Option(key=f"asset:{c}", label=name_of(state, c), card=c) for c in over],
                resume=SlotAnswer(seat=seat, card=cid))
        return
    eng.move(cid, f"play.{seat}", kind="entered_play")
    if d.uses is not None:
        state.cards[cid].counters["uses"] = d.uses.count  # A204.1
    eng.emit("asset_played", player=seat, card=cid, code=d.code)


@spec.handles(SlotAnswer)
def _slot_answer(eng: Eng, step: SlotAnswer) -> None:
    discard_card(eng, int(eng.answer[0].split(":")[1]))
    _put_asset(eng, step.seat, step.card)


@spec.handles(DoActivate)
def _do_activate(eng: Eng, step: DoActivate) -> None:
    """A407: pay an ability's costs and resolve it."""
    state = eng.state
    seat, cid = step.seat, step.card
    if not playing(state, seat):
        return
    d = dof(state, cid)
    ab = d.abilities[step.index]
    if not _ability_payable(state, seat, cid, ab):
        return
    card = state.cards[cid]
    if ab.exhaust:
        card.exhausted = True
    if ab.uses:
        card.counters["uses"] = card.counters.get("uses", 0) - ab.uses
    if ab.resources:
        state.inv[seat].resources -= ab.resources
    if ab.limit:
        key = f"{cid}:{ab.limit}"
        used = state.group_limits if ab.limit.startswith("group") else state.inv[seat].limits
        used[key] = used.get(key, 0) + 1
    eng.emit("ability_used", player=seat, card=cid, code=card.code, data={"index": step.index})
    if ab.discard:
        discard_card(eng, cid)
    if ab.action == "resign":
        eng.push(DoResign(seat=seat))
    elif ab.action in ("fight", "evade"):
        targets = _fight_targets(state, seat) if ab.action == "fight" else \
            _evade_targets(state, seat)
        _ask_enemy(eng, seat, targets, ChooseEnemyAnswer(seat=seat, mode="ability", source=cid,
                                                         index=step.index))
    elif ab.action == "investigate":
        loc = state.inv[seat].location
        test = SkillTest(seat=seat, skill=ab.skill or "intellect",
                         difficulty=max(0, shroud(state, loc) + ab.shroud_mod),
                         kind="investigate", target=loc, source=cid, skill_bonus=ab.skill_bonus)
        eng.push(StartTest(test=test))
    elif ab.action == "parley" and ab.skill:
        test = SkillTest(seat=seat, skill=ab.skill, difficulty=ab.difficulty, kind="parley",
                         source=cid, target=cid, on_success=ab.effects)
        eng.push(StartTest(test=test))
    else:
        run_effects(eng, seat, ab.effects, cid)


# ============================================================================ skill tests


@spec.handles(StartTest)
def _start_test(eng: Eng, step: StartTest) -> None:
    """ST.1 (A502.1): set skill and difficulty; then commits, windows, token, result."""
    state = eng.state
    test = step.test
    if state.test is not None:
        state.deferred_tests.append(test)  # A501.2: tests do not nest
        return
    if not playing(state, test.seat):
        return
    if test.kind in ("fight", "evade") and location_of(state, test.target) != \
            state.inv[test.seat].location:
        return
    if state.peril == test.seat:
        test.peril = True
    loc = state.inv[test.seat].location
    others = [] if test.peril else [s for s in seats_at(state, loc) if s != test.seat]
    test.commit_seats = [test.seat, *others]
    state.test = test
    eng.emit("test_started", player=test.seat,
             data={"skill": test.skill, "difficulty": test.difficulty, "kind": test.kind})
    eng.push(TestWindow(seats=[test.seat]), CommitStep(),
             TestWindow(seats=[test.seat]), RevealToken(), DetermineResult(),
             ApplyResults(), EndTest())


def _committable(state: ArkhamState, seat: int, test: SkillTest) -> list[int]:
    """A503.2/A503.3/A107.3: cards with a matching or wild icon; Max 1 per test."""
    out = []
    committed_titles = [dof(state, c).title for c in test.committed]
    for cid in state.zones[f"hand.{seat}"].cards:
        d = dof(state, cid)
        if d.is_weakness() or d.icons(test.skill) <= 0:
            continue
        if d.max_per_test and committed_titles.count(d.title) >= d.max_per_test:
            continue
        out.append(cid)
    return out


@spec.handles(CommitStep)
def _commit(eng: Eng, step: CommitStep) -> None:
    """ST.2: the tester commits any number, each other investigator at the location one
    (A503.1, A503.4); peril blocks the others (A613.1)."""
    state = eng.state
    test = state.test
    if test is None:
        return
    while test.commit_seats:
        seat = test.commit_seats.pop(0)
        if not playing(state, seat):
            continue
        cards = _committable(state, seat, test)
        if not cards:
            continue
        most = len(cards) if seat == test.seat else 1
        eng.ask(seat, "commit", f"Commit cards to the {test.skill} test?",
                [Option(key=f"commit:{c}", label=name_of(state, c), card=c) for c in cards],
                min=0, max=most, resume=CommitAnswer(seat=seat))
        return


@spec.handles(CommitAnswer)
def _commit_answer(eng: Eng, step: CommitAnswer) -> None:
    state = eng.state
    test = state.test
    if test is None:
        return
    chosen = [int(k.split(":")[1]) for k in eng.answer]
    d_titles: list[str] = [dof(state, c).title for c in test.committed]
    for cid in chosen:
        d = dof(state, cid)
        if d.max_per_test and d_titles.count(d.title) >= d.max_per_test:
            continue  # A107.3 (several copies chosen at once)
        d_titles.append(d.title)
        eng.move(cid, "committed", kind="committed", reveal=True)
        test.committed.append(cid)
    if test.commit_seats:
        eng.push(CommitStep())


def _window_options(state: ArkhamState, seat: int) -> list[Option]:
    """Fast options that can matter during the current test (A906.1): [free] abilities
    that boost the tested skill."""
    test = state.test
    if test is None:
        return []
    if test.peril and seat != test.seat:
        return []
    opts: list[Option] = []
    for cid, idx, ab in _activatables(state, seat, "fast"):
        for e in ab.effects:
            if e.op == "test_bonus" and e.skill == test.skill and seat == test.seat:
                opts.append(Option(key=f"fast:{cid}:{idx}",
                                   label=f"{name_of(state, cid)}: +{e.amount} {e.skill}",
                                   card=cid))
                break
    return opts


@spec.handles(TestWindow)
def _test_window(eng: Eng, step: TestWindow) -> None:
    state = eng.state
    for i, seat in enumerate(step.seats):
        opts = _window_options(state, seat)
        if opts:
            eng.ask(seat, "fast_window", "Use a fast ability before the token is revealed?",
                    [*opts, Option(key="pass", label="Pass")],
                    resume=TestWindowAnswer(seats=step.seats[i:]))
            return


@spec.handles(TestWindowAnswer)
def _test_window_answer(eng: Eng, step: TestWindowAnswer) -> None:
    key = eng.answer[0]
    if key == "pass":
        if len(step.seats) > 1:
            eng.push(TestWindow(seats=step.seats[1:]))
        return
    _, cid_s, idx_s = key.split(":")
    eng.push(DoActivate(seat=step.seats[0], card=int(cid_s), index=int(idx_s)),
             TestWindow(seats=step.seats))


@spec.handles(RevealToken)
def _reveal_token(eng: Eng, step: RevealToken) -> None:
    """ST.3/ST.4 (A504, A505): reveal a token and resolve its effect."""
    state = eng.state
    test = state.test
    if test is None or test.auto:
        return  # A504.3: an automatic result reveals no token
    token = pick_token(eng)
    test.tokens.append(token)
    eng.emit("token_revealed", player=test.seat, data={"token": token})
    eff = _token_effect(state, test.seat, token)
    if eff is not None:
        if eff.reveal_another:
            eng.push(RevealToken())
        if eff.on_reveal and (not eff.if_trait_here or _trait_here(state, test.seat,
                                                                     eff.if_trait_here)):
            run_effects(eng, test.seat, eff.on_reveal)


def _token_effect(state: ArkhamState, seat: int, token: str) -> Any:
    if token == "elder_sign":
        return cdef(state, state.inv[seat].code).elder_sign
    return state.tokens.get(token)


def _trait_here(state: ArkhamState, seat: int, trait: str) -> int:
    loc = state.inv[seat].location
    return sum(1 for e in enemies_at(state, loc) if trait in _traits(dof(state, e)))


def _traits(d: CardDef) -> list[str]:
    return [t.strip() for t in d.traits.split(".") if t.strip()]


def token_modifier(state: ArkhamState, seat: int, token: str) -> int:
    """The skill modifier of one revealed token (A505.1, A505.2)."""
    if token.lstrip("+-").isdigit():
        return int(token)
    eff = _token_effect(state, seat, token)
    if eff is None:
        return 0
    mod = int(eff.modifier)
    x = str(eff.x)
    if x:
        if x.startswith("enemies_trait:"):
            mod += int(eff.x_sign) * _trait_here(state, seat, x.split(":", 1)[1])
        elif x == "clues_here":
            loc = state.inv[seat].location
            mod += int(eff.x_sign) * (state.cards[loc].counters.get("clues", 0) if loc >= 0 else 0)
        elif x == "doom_in_play":
            mod += int(eff.x_sign) * doom_in_play(state)
    return mod


@spec.handles(DetermineResult)
def _determine(eng: Eng, step: DetermineResult) -> None:
    """ST.5/ST.6 (A506, A507): modified skill (floor 0), success if >= difficulty;
    auto-fail counts the skill as 0 and always fails (A505.3)."""
    state = eng.state
    test = state.test
    if test is None:
        return
    _compute(state, test)
    if not test.success and not test.auto_fail and test.auto != "fail":
        opts = _would_fail_options(state, test.seat)
        if opts:  # A507.3: "when you would fail" before the result is set
            eng.ask(test.seat, "would_fail", "The test would fail: play a card?",
                    [*opts, Option(key="pass", label="Let it fail")],
                    resume=WouldFailAnswer())
            return
    _announce(eng, test)


def _compute(state: ArkhamState, test: SkillTest) -> None:
    auto_fail = test.auto == "fail" or any(
        t == "auto_fail" or bool(getattr(_token_effect(state, test.seat, t), "auto_fail",
                                         False)) for t in test.tokens)
    value = skill_value(state, test.seat, test.skill) + test.skill_bonus
    for cid in test.committed:
        value += dof(state, cid).icons(test.skill)
    for tok in test.tokens:
        mod = token_modifier(state, test.seat, tok)
        if mod < 0 and test.double_negative:
            mod *= 2  # doubling applies to the token's own modifier
        value += mod
    value = max(0, value)
    if auto_fail:
        value = 0
    test.auto_fail = auto_fail
    test.value = value
    diff = 0 if test.auto == "success" else max(0, test.difficulty)  # A507.2
    test.success = (not auto_fail) and value >= diff
    test.margin = value - diff


def _announce(eng: Eng, test: SkillTest) -> None:
    diff = 0 if test.auto == "success" else max(0, test.difficulty)
    eng.emit("test_succeeded" if test.success else "test_failed", player=test.seat,
             amount=test.margin, data={"value": test.value, "difficulty": diff,
                                       "kind": test.kind})


def _would_fail_options(state: ArkhamState, seat: int) -> list[Option]:
    inv = state.inv[seat]
    out: list[Option] = []
    if _threat_keyword(state, seat, "no_play"):
        return out  # A106.4: the encounter card's "cannot play" wins
    for cid in state.zones[f"hand.{seat}"].cards:
        d = dof(state, cid)
        if d.play_when == "would_fail" and inv.resources >= card_cost(state, cid):
            out.append(Option(key=f"play:{cid}", label=f"Play {d.name}", card=cid))
    return out


@spec.handles(WouldFailAnswer)
def _would_fail_answer(eng: Eng, step: WouldFailAnswer) -> None:
    state = eng.state
    test = state.test
    if test is None:
        return
    key = eng.answer[0]
    if key == "pass":
        _announce(eng, test)
        return
    cid = int(key.split(":")[1])
    d = dof(state, cid)
    state.inv[test.seat].resources -= card_cost(state, cid)
    eng.move(cid, "resolving", kind="played")
    for e in d.effects:
        if e.op == "test_bonus":
            test.skill_bonus += e.amount
    discard_card(eng, cid)
    eng.push(DetermineResult())


@spec.handles(ApplyResults)
def _apply_results(eng: Eng, step: ApplyResults) -> None:
    """ST.7 (A508): apply results; committed cards are still committed (A508.2)."""
    state = eng.state
    test = state.test
    if test is None or not playing(state, test.seat):
        return
    seat = test.seat
    steps: list[tcgcore.Step] = []
    fail_by = max(0, -test.margin) if not test.success else 0
    if test.success:
        if test.kind == "investigate":
            steps.append(Effects(seat=seat, effects=(Effect(op="discover_clues", amount=1),),
                                 source=test.source))
            if test.target >= 0:
                for cid in state.zones[f"at.{test.target}"].cards:
                    fx = dof(state, cid).forced.get("after_investigated")
                    if fx:
                        steps.append(Effects(seat=seat, effects=fx, source=cid))
        elif test.kind == "fight":
            extra = 0
            if state.auras and "Monster" in _traits(dof(state, test.target)):
                # Lita Chantler: attacks on Monsters at her location deal +1 damage
                loc = state.inv[seat].location
                for cid in state.auras:
                    zone = state.cards[cid].zone
                    if zone.startswith("play.") and state.inv[int(zone[5:])].location == loc:
                        extra += dof(state, cid).bonus_here.get("monster_damage", 0)
            steps.append(DamageEnemy(enemy=test.target, amount=1 + test.damage_bonus + extra,
                                     seat=seat))
        elif test.kind == "evade":
            steps.append(Effects(seat=seat, effects=(Effect(op="evaded", amount=test.target),)))
        if test.on_success:
            steps.append(Effects(seat=seat, effects=test.on_success, source=test.source))
        for cid in test.committed:
            d = dof(state, cid)
            if d.on_success:
                steps.append(Effects(seat=state.cards[cid].owner, effects=d.on_success,
                                     source=cid))
    else:
        if test.on_fail:
            steps.append(Effects(seat=seat, effects=test.on_fail, source=test.source,
                                 margin=fail_by))
        if test.kind == "fight":
            target = test.target
            other = engaged_seat(state, target)
            if other >= 0 and other != seat and not has_kw(dof(state, target), "massive"):
                # A413.3: the attack's damage goes to the investigator engaged with it
                steps.append(Harm(seat=other, damage=1 + test.damage_bonus, source=test.source))
    for tok in test.tokens:
        eff = _token_effect(state, seat, tok)
        if eff is None:
            continue
        if test.success and eff.on_success:
            steps.append(Effects(seat=seat, effects=eff.on_success))
        if not test.success and eff.on_fail:
            steps.append(Effects(seat=seat, effects=eff.on_fail, margin=fail_by))
    if not test.success and test.ready_target and test.target >= 0:
        d = dof(state, test.target)
        if test.kind == "fight" and has_kw(d, "retaliate"):
            steps.append(EnemyAttack(enemy=test.target, seat=seat))  # A608.1
        if test.kind == "evade" and has_kw(d, "alert"):
            steps.append(EnemyAttack(enemy=test.target, seat=seat))  # A609.1
    if test.kind == "fight" and test.ready_target and has_kw(dof(state, test.target), "elusive"):
        steps.append(ElusiveMove(enemy=test.target))  # A610.1
    if steps:
        eng.push(*steps)


@spec.handles(EndTest)
def _end_test(eng: Eng, step: EndTest) -> None:
    """ST.8 (A509.1): committed cards to their owners' discard piles, tokens back."""
    state = eng.state
    test = state.test
    if test is None:
        return
    for cid in test.committed:
        if state.cards[cid].zone == "committed":
            discard_card(eng, cid)
    eng.emit("test_ended", player=test.seat,
             data={"success": test.success, "tokens": ",".join(test.tokens)})
    state.test = None
    if not test.success:
        after = [e for t in test.tokens for e in getattr(_token_effect(state, test.seat, t),
                                                         "after_fail", ())]
        if after:
            eng.push(Effects(seat=test.seat, effects=tuple(after)))
    if state.deferred_tests:
        eng.push(StartTest(test=state.deferred_tests.pop(0)))


# ============================================================================ effects


@spec.handles(Effects)
def _effects(eng: Eng, step: Effects) -> None:
    """Resolve the first effect, then the rest (anything the first pushes runs first)."""
    state = eng.state
    if not step.effects:
        return
    first, rest = step.effects[0], step.effects[1:]
    if rest:
        eng.push(Effects(seat=step.seat, effects=rest, source=step.source, margin=step.margin))
    seat = step.seat
    if seat >= 0 and not playing(state, seat) and first.op not in (
            "resolution", "put_into_play", "move_all_to", "spawn_set_aside", "remove_location",
            "doom_agenda", "suffer_trauma", "xp", "resolution_by_act", "kill_unresigned",
            "discard_until_trait", "move_trait_toward", "doom_per_trait_at", "choose",
            "discard_enemies_at", "discard_random"):
        return
    _one_effect(eng, seat, first, step.source, step.margin)


def _one_effect(eng: Eng, seat: int, e: Effect, source: int, margin: int) -> None:
    state = eng.state
    op = e.op
    targets = [seat]
    if e.target == "each":
        targets = player_order(state)
    elif e.target == "lead":
        targets = [state.lead]
    if op in ("damage", "horror", "direct_damage", "direct_horror"):
        for s in reversed(targets):
            eng.push(_harm_of(s, op, e.amount, source))
    elif op in ("damage_per_fail", "horror_per_fail"):
        amount = e.amount * margin
        if amount > 0:
            eng.push(_harm_of(seat, op[:-9], amount, source))
    elif op == "test":
        eng.push(StartTest(test=SkillTest(seat=seat, skill=e.skill, difficulty=e.difficulty,
                                          kind="effect", source=source, on_success=e.on_success,
                                          on_fail=e.on_fail)))
    elif op == "doom_agenda":
        ag = current_agenda(state)
        if ag >= 0:
            add_doom(eng, ag, e.amount)
            if e.can_advance and doom_in_play(state) >= agenda_threshold(state):
                eng.push(AdvanceAgenda())  # A802.2
    elif op == "doom_self" and source >= 0:
        add_doom(eng, source, e.amount)
    elif op == "gain_resources":
        for s in targets:
            state.inv[s].resources += e.amount
            eng.emit("resource_gained", player=s, amount=e.amount)
    elif op == "lose_resources":
        for s in targets:
            state.inv[s].resources = max(0, state.inv[s].resources - e.amount)
    elif op == "draw_cards":
        for s in reversed(targets):
            eng.push(DoDraw(seat=s, count=e.amount))
    elif op == "discover_clues":
        gain_clues(eng, seat, e.amount)
    elif op == "heal_damage":
        state.inv[seat].damage = max(0, state.inv[seat].damage - e.amount)
    elif op == "heal_horror":
        state.inv[seat].horror = max(0, state.inv[seat].horror - e.amount)
    elif op == "lose_actions":
        state.inv[seat].actions = max(0, state.inv[seat].actions - e.amount)
    elif op == "test_bonus":
        if state.test is not None:
            state.test.skill_bonus += e.amount
    elif op == "auto_succeed":
        if state.test is not None and not state.test.tokens:
            state.test.auto = "success"
    elif op == "search_encounter":
        _search_encounter(eng, seat, e.trait)
    elif op == "suffer_trauma":
        state.extra_trauma.append(f"{seat}:{e.code}")
    elif op == "xp":
        state.extra_trauma.append(f"{seat}:xp{e.amount:+d}")  # read by campaigns
    elif op in ("take_investigate", "perform_investigate"):
        loc = state.inv[seat].location
        if loc >= 0:
            eng.push(StartTest(test=SkillTest(seat=seat, skill="intellect",
                                              difficulty=shroud(state, loc),
                                              kind="investigate", target=loc, source=source)))
            if op == "take_investigate" and engaged_enemies(state, seat):
                eng.push(AttacksOfOpportunity(seat=seat))  # A416.7: taking provokes
    elif op == "damage_enemy":
        targets_e = enemies_at(state, state.inv[seat].location)
        _ask_enemy(eng, seat, targets_e, ChooseEnemyAnswer(seat=seat, amount=e.amount))
    elif op == "evaded":
        _evade_enemy(eng, seat, e.amount)
    elif op == "auto_evade":
        for eid in engaged_enemies(state, seat):  # A412.3: no test, not "successful"
            loc = location_of(state, eid)
            if not state.cards[eid].zone.startswith("at."):
                eng.move(eid, f"at.{loc}", kind="disengaged")
            state.cards[eid].exhausted = True
            eng.emit("enemy_auto_evaded", player=seat, card=eid)
    elif op == "resolution":
        end_with(eng, e.code)
    elif op == "put_into_play":
        for code in e.codes:
            for cid in list(state.zones["setaside"].cards):
                if state.cards[cid].code == code:
                    eng.move(cid, "locations", kind="put_into_play")
                    break
        rebuild_adjacency(state)
    elif op == "choose":
        who = state.lead if e.target == "lead" else seat
        labels = list(e.codes) or ["First", "Second"]
        eng.ask(who, "choose_effect", "Choose one", [Option(key="a", label=labels[0]),
                                                     Option(key="b", label=labels[1])],
                resume=ChooseAnswer(seat=who, a=e.on_success, b=e.on_fail, source=source))
    elif op == "discard_random":
        for s in targets:
            hand = state.zones[f"hand.{s}"].cards
            if hand:
                discard_card(eng, hand[eng.rng.randbelow(len(hand))])
    elif op == "discard_until_trait":
        _discard_until_trait(eng, state.lead, e.trait)
    elif op == "discard_enemies_at":
        loc = location_by_code(state, e.code)
        if loc >= 0:
            for eid in enemies_at(state, loc):
                discard_card(eng, eid)
    elif op == "move_trait_toward":
        goal = location_by_code(state, e.code)
        if goal >= 0:
            back = distances_from(state, goal)
            for loc in list(state.zones["locations"].cards):
                for eid in list(state.zones[f"at.{loc}"].cards):
                    if is_enemy(state, eid) and e.trait in _traits(dof(state, eid)) and \
                            loc != goal and loc in back:
                        nxt = [n for n in state.adj.get(str(loc), ())
                               if back.get(n) == back[loc] - 1 and can_enter(state, n)]
                        if nxt:
                            _enemy_enters(eng, eid, nxt[0])
    elif op == "doom_per_trait_at":
        ag = current_agenda(state)
        count = 0
        for code in e.codes:
            loc = location_by_code(state, code)
            if loc >= 0:
                count += sum(1 for x in enemies_at(state, loc)
                             if e.trait in _traits(dof(state, x)))
        if ag >= 0 and count:
            add_doom(eng, ag, count)
    elif op == "resolution_by_act":
        act = current_act(state)
        act_code = state.cards[act].code if act >= 0 else ""
        for item in e.codes:
            key, _, res = item.partition(":")
            if key in (act_code, "*"):
                if res == "defeat_unresigned":
                    _defeat_each(eng)
                elif res.endswith("+kill"):
                    for s, i in enumerate(state.inv):
                        if i.status != "resigned":
                            state.extra_trauma.append(f"{s}:killed")  # The Gathering R3
                    end_with(eng, res[:-5])
                else:
                    end_with(eng, res)
                break
    elif op == "kill_unresigned":
        for s, i in enumerate(state.inv):
            if i.status != "resigned":
                state.extra_trauma.append(f"{s}:killed")
    elif op == "discard_asset_or_damage":
        assets = [c for c in state.zones[f"play.{seat}"].cards if c != state.inv[seat].card]
        if not assets:
            eng.push(Harm(seat=seat, damage=e.amount, source=source))
        elif len(assets) == 1:
            discard_card(eng, assets[0])
        else:
            eng.ask(seat, "discard_asset", "Choose an asset to discard",
                    [Option(key=f"asset:{c}", label=name_of(state, c), card=c) for c in assets],
                    resume=AssetDiscardAnswer(seat=seat))
    elif op == "take_control":
        # A216.1: a story asset enters play only when a scenario card says so
        for cid in list(state.zones["setaside"].cards):
            if state.cards[cid].code == e.code:
                if _unique_blocked(state, dof(state, cid)):
                    break  # A911.1: a second copy of a unique title stays where it was
                eng.move(cid, f"play.{seat}", kind="entered_play", controller=seat)
                if dof(state, cid).bonus_here:
                    state.auras.append(cid)
                break
    elif op == "reveal_location":
        loc = location_by_code(state, e.code)
        if loc >= 0:
            reveal_location(eng, loc)
    elif op == "move_all_to":
        loc = location_by_code(state, e.code)
        if loc >= 0:
            for s in player_order(state):
                enter_location(eng, s, loc)
    elif op == "spawn_set_aside":
        loc = location_by_code(state, e.target)
        for cid in list(state.zones["setaside"].cards):
            if state.cards[cid].code == e.code and loc >= 0:
                eng.move(cid, f"at.{loc}", kind="spawned", data={"location": loc})
                eng.push(EngageCheck(enemy=cid))
                break
    elif op == "remove_location":
        loc = location_by_code(state, e.code)
        if loc >= 0:
            for cid in list(state.zones[f"at.{loc}"].cards):
                discard_card(eng, cid)
            eng.move(loc, "out", kind="removed")
            rebuild_adjacency(state)
    elif op == "threat_area":
        if source >= 0 and state.cards[source].zone == "resolving":
            eng.move(source, f"threat.{seat}", kind="threat_area")
    elif op == "attach_location":
        loc = state.inv[seat].location
        if source >= 0 and loc >= 0 and not any(
                state.cards[c].code == state.cards[source].code
                for c in state.zones[f"at.{loc}"].cards):  # limit 1 per location
            eng.move(source, f"at.{loc}", kind="attached")
    elif op == "discard_self":
        if source >= 0 and state.cards[source].zone.startswith(_PLAY_ZONE_PREFIXES):
            discard_card(eng, source)
    elif op == "surge":
        eng.push(DrawEncounter(seat=seat))
    elif op == "draw_encounter":
        eng.push(DrawEncounter(seat=seat))
    else:  # pragma: no cover - data validated by tests
        raise tcgcore.EngineError(f"{GAME}: unknown effect op {op!r}")


@spec.handles(ChooseAnswer)
def _choose_answer(eng: Eng, step: ChooseAnswer) -> None:
    chosen = step.a if eng.answer[0] == "a" else step.b
    run_effects(eng, step.seat, chosen, step.source)


@spec.handles(AssetDiscardAnswer)
def _asset_discard_answer(eng: Eng, step: AssetDiscardAnswer) -> None:
    discard_card(eng, int(eng.answer[0].split(":")[1]))


def _defeat_each(eng: Eng) -> None:
    """Each investigator who has not resigned is defeated with 1 physical trauma."""
    state = eng.state
    for s in reversed(player_order(state)):
        state.inv[s].trauma = "physical"
        eng.push(Eliminate(seat=s, reason="defeated"))


def _discard_until_trait(eng: Eng, seat: int, trait: str) -> None:
    """Shuffle the encounter discard pile into the deck, then discard from the top until
    an enemy with ``trait`` is discarded; ``seat`` draws that enemy."""
    state = eng.state
    for cid in list(state.zones["encounter_discard"].cards):
        eng.move(cid, "encounter")
    eng.shuffle("encounter")
    while state.zones["encounter"].cards:
        cid = state.zones["encounter"].cards[0]
        d = dof(state, cid)
        if d.type_code == "enemy" and trait in _traits(d):
            eng.move(cid, "resolving", kind="encounter_drawn", data={"seat": seat})
            eng.push(ResolveEncounter(seat=seat, card=cid))
            break
        eng.move(cid, "encounter_discard", kind="discarded")
    _refill_encounter(eng)


def _search_encounter(eng: Eng, seat: int, trait: str) -> None:
    """Search the encounter deck and discard pile for an enemy with ``trait``, draw it,
    then shuffle the deck (A909.1)."""
    state = eng.state
    found = -1
    for zid in ("encounter", "encounter_discard"):
        for cid in state.zones[zid].cards:
            d = dof(state, cid)
            if d.type_code == "enemy" and trait in _traits(d):
                found = cid
                break
        if found >= 0:
            break
    eng.shuffle("encounter")
    if found >= 0:
        eng.move(found, "resolving", kind="encounter_drawn", data={"seat": seat})
        eng.push(ResolveEncounter(seat=seat, card=found))


def _harm_of(seat: int, kind: str, amount: int, source: int) -> Harm:
    h = Harm(seat=seat, source=source)
    setattr(h, kind, amount)
    return h


def _evade_enemy(eng: Eng, seat: int, eid: int) -> None:
    """A412.2: disengage, put at the location, exhaust."""
    state = eng.state
    loc = location_of(state, eid)
    if loc < 0:
        return
    if not state.cards[eid].zone.startswith("at."):
        eng.move(eid, f"at.{loc}", kind="disengaged")
    state.cards[eid].exhausted = True
    eng.emit("enemy_evaded", player=seat, card=eid)


# ============================================================================ damage


def _soakers(state: ArkhamState, seat: int, kind: str, pending: dict[str, int]) -> list[int]:
    """Assets that can still take damage/horror (A205.1, A701.3)."""
    out = []
    for cid in state.zones[f"play.{seat}"].cards:
        if cid == state.inv[seat].card:
            continue
        d = dof(state, cid)
        cap = d.health if kind == "damage" else d.sanity
        if cap is None:
            continue
        have = state.cards[cid].counters.get(kind, 0) + pending.get(f"{kind}:{cid}", 0)
        if have < cap:
            out.append(cid)
    return out


@spec.handles(Harm)
def _harm(eng: Eng, step: Harm) -> None:
    """A701: assign damage and horror point by point, then place all at once."""
    state = eng.state
    seat = step.seat
    if not playing(state, seat):
        return
    assigned = step.assigned
    for kind in ("damage", "horror"):
        total = getattr(step, kind)
        done = sum(v for k, v in assigned.items() if k.startswith(kind + ":"))
        left = total - done
        if left <= 0:
            continue
        soak = _soakers(state, seat, kind, assigned)
        if not soak:
            assigned[f"{kind}:inv"] = assigned.get(f"{kind}:inv", 0) + left
            continue
        opts = [Option(key="inv", label="Investigator")]
        opts += [Option(key=f"asset:{c}", label=name_of(state, c), card=c) for c in soak]
        eng.ask(seat, f"assign_{kind}", f"Assign 1 {kind} ({left} left)", opts,
                resume=HarmAnswer(harm=step, kind=kind))
        return
    _place_harm(eng, step)


@spec.handles(HarmAnswer)
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
    for cid in state.zones[f"play.{seat}"].cards:
        bonus = dof(state, cid).bonus
        if bonus:
            dmg = max(0, dmg - bonus.get("prevent_damage", 0))
            hor = max(0, hor - bonus.get("prevent_horror", 0))
    inv.damage += dmg
    inv.horror += hor
    defeated_assets = []
    for key, n in step.assigned.items():
        kind, _, tgt = key.partition(":")
        if tgt == "inv" or n <= 0:
            continue
        cid = int(tgt)
        counters = state.cards[cid].counters
        counters[kind] = counters.get(kind, 0) + n
        d = dof(state, cid)
        if (d.health is not None and counters.get("damage", 0) >= d.health) or (
                d.sanity is not None and counters.get("horror", 0) >= d.sanity):
            defeated_assets.append(cid)
    eng.emit("harm_placed", player=seat, amount=dmg + hor,
             data={"damage": dmg, "horror": hor, "source": step.source})
    for cid in defeated_assets:
        eng.emit("asset_defeated", player=seat, card=cid)
        discard_card(eng, cid)  # A205.2
    eng.push(CheckDefeat(seat=seat))


@spec.handles(CheckDefeat)
def _check_defeat(eng: Eng, step: CheckDefeat) -> None:
    """A703/A704: defeat by damage (physical) or horror (mental); both: choose."""
    state = eng.state
    seat = step.seat
    if not playing(state, seat):
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


@spec.handles(TraumaAnswer)
def _trauma_answer(eng: Eng, step: TraumaAnswer) -> None:
    eng.state.inv[step.seat].trauma = eng.answer[0]
    eng.push(Eliminate(seat=step.seat, reason="defeated"))


@spec.handles(Eliminate)
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
        for cid in [*state.zones[f"threat.{seat}"].cards, *state.zones[f"play.{seat}"].cards]:
            d = dof(state, cid)
            if d.is_weakness() and "game_end" in d.forced:
                game_end.append(Effects(seat=seat, effects=d.forced["game_end"], source=cid))
        if game_end:  # A705.2: "when the game ends" weaknesses resolve first
            inv.limits["game_end_done"] = 1
            eng.push(*game_end, Eliminate(seat=seat, reason=step.reason))
            return
    inv.status = step.reason
    loc = inv.location
    eng.emit("investigator_eliminated", player=seat, data={"reason": step.reason})
    if loc >= 0 and inv.clues:
        c = state.cards[loc].counters
        c["clues"] = c.get("clues", 0) + inv.clues  # A705.3
    inv.clues = 0
    inv.resources = 0  # A705.4
    engage_after: list[int] = []
    for cid in list(state.zones[f"threat.{seat}"].cards):
        if is_enemy(state, cid) and loc >= 0:
            eng.move(cid, f"at.{loc}", kind="disengaged")  # A705.5 (same zone kind: kept)
            engage_after.append(cid)
        else:
            discard_card(eng, cid)  # A705.7
    for cid in list(state.zones[f"play.{seat}"].cards):
        if cid != inv.card:
            if cid in state.auras:
                state.auras.remove(cid)
            eng.move(cid, "out", kind="removed")  # A705.8
    for z in (f"hand.{seat}", f"deck.{seat}"):
        for cid in list(state.zones[z].cards):
            eng.move(cid, "removed", kind="removed")
    for cid in list(state.zones[f"discard.{seat}"].cards):
        eng.move(cid, "out", kind="removed")  # its discard pile leaves the game too
    remaining = player_order(state)
    if not remaining:
        resigned = any(i.status == "resigned" for i in state.inv)
        detail: dict[str, tcgcore.Scalar] = {"resolution": "R-none", "lead": state.lead,
                                              "victory": final_victory(state),
                                              "round": state.turn}
        for s, i in enumerate(state.inv):
            detail[f"status{s}"] = i.status
            if i.trauma:
                detail[f"trauma{s}"] = i.trauma
        _extra_trauma_detail(state, detail)
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


@spec.handles(LeadAnswer)
def _lead_answer(eng: Eng, step: LeadAnswer) -> None:
    seat = int(eng.answer[0].split(":")[1])
    eng.state.lead = seat
    eng.emit("new_lead", player=seat)


# ============================================================================ enemies


@spec.handles(EnemyAttack)
def _enemy_attack(eng: Eng, step: EnemyAttack) -> None:
    """A417.4: an attack deals the enemy's damage and horror at once."""
    state = eng.state
    eid, seat = step.enemy, step.seat
    if not playing(state, seat) or not state.cards[eid].zone.startswith(("at.", "threat.")):
        return
    d = dof(state, eid)
    if has_kw(d, "cannot_attack"):
        return  # A608.3: an enemy that cannot attack makes no attack
    ev = eng.emit("enemy_attacks", player=seat, card=eid, code=d.code)
    eng.push(AttackHits(enemy=eid, seat=seat, event=ev.seq, exhaust=step.exhaust))


@spec.handles(AttackHits)
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
    eng.push(Harm(seat=seat, damage=d.enemy_damage, horror=d.enemy_horror, source=eid),
             AfterAttack(enemy=eid, seat=seat, exhaust=step.exhaust))


@spec.handles(AfterAttack)
def _after_attack(eng: Eng, step: AfterAttack) -> None:
    state = eng.state
    eid = step.enemy
    card = state.cards[eid]
    if not card.zone.startswith(("at.", "threat.")):
        return
    d = dof(state, eid)
    if has_kw(d, "elusive") and not card.exhausted:
        eng.push(ElusiveMove(enemy=eid))  # A610.1 (it exhausts as it leaves)
        return
    if step.exhaust and not has_kw(d, "massive"):
        card.exhausted = True  # A417.5
        eng.emit("enemy_exhausted", card=eid, code=card.code)


@spec.handles(DamageEnemy)
def _damage_enemy(eng: Eng, step: DamageEnemy) -> None:
    """A615: damage; defeated at damage >= health; victory display or discard."""
    state = eng.state
    eid = step.enemy
    card = state.cards[eid]
    if not card.zone.startswith(("at.", "threat.")) or step.amount <= 0:
        return
    card.counters["damage"] = card.counters.get("damage", 0) + step.amount
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


@spec.handles(ElusiveMove)
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


@spec.handles(ElusiveAnswer)
def _elusive_answer(eng: Eng, step: ElusiveAnswer) -> None:
    _elusive_to(eng, step.enemy, int(eng.answer[0].split(":")[1]))


def _elusive_to(eng: Eng, eid: int, loc: int) -> None:
    eng.move(eid, f"at.{loc}", kind="enemy_moved")
    eng.state.cards[eid].exhausted = True


@spec.handles(EnemyPhase)
def _enemy_phase(eng: Eng, step: EnemyPhase) -> None:
    state = eng.state
    state.phase = "enemy"
    state.active_player = state.lead
    eng.emit("phase", data={"phase": "enemy"})
    eng.push(HunterMoves(), EnemyAttacks(seats=player_order(state)), EndEnemyPhase())


def _movers(state: ArkhamState) -> list[int]:
    out = []
    for loc in state.zones["locations"].cards:
        for eid in state.zones[f"at.{loc}"].cards:
            if state.cards[eid].exhausted or not is_enemy(state, eid):
                continue
            d = dof(state, eid)
            if has_kw(d, "hunter") or d.patrol:
                out.append(eid)
    return out


@spec.handles(HunterMoves)
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


@spec.handles(HunterPick)
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
        if d.prey.startswith("only:"):
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


@spec.handles(MoveOne)
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
    if not steps:
        return
    if len(steps) == 1:
        _enemy_enters(eng, eid, steps[0])
        return
    eng.ask(state.lead, "hunter_path", f"Which way does {name_of(state, eid)} go?",
            [Option(key=f"loc:{n}", label=name_of(state, n), card=n) for n in steps],
            resume=MoveOneAnswer(enemy=eid, what="path"))


@spec.handles(MoveOneAnswer)
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


def _enemy_enters(eng: Eng, eid: int, loc: int) -> None:
    state = eng.state
    if not can_enter(state, loc):
        return  # A605.6
    eng.move(eid, f"at.{loc}", kind="enemy_moved", data={"location": loc})
    eng.push(EngageCheck(enemy=eid))  # A602.1
    _enemy_entered(eng, eid, loc)


@spec.handles(EnemyAttacks)
def _enemy_attacks(eng: Eng, step: EnemyAttacks) -> None:
    """3.3 (A417.2): per investigator in player order, each ready engaged enemy attacks in
    the investigator's chosen order, then exhausts (A417.5)."""
    state = eng.state
    seats = [s for s in step.seats if playing(state, s)]
    if not seats:
        return
    seat = seats[0]
    pending = step.pending if step.started else [
        e for e in engaged_enemies(state, seat) if not state.cards[e].exhausted]
    engaged = engaged_enemies(state, seat)
    pending = [e for e in pending if e in engaged and not state.cards[e].exhausted]
    if not pending:
        eng.push(EnemyAttacks(seats=seats[1:]))
        return
    if len(pending) == 1:
        eng.push(EnemyAttack(enemy=pending[0], seat=seat, exhaust=True),
                 EnemyAttacks(seats=seats[1:]))
        return
    eng.ask(seat, "attack_order", "Which enemy attacks you next?",
            [Option(key=f"enemy:{e}", label=name_of(state, e), card=e) for e in pending],
            resume=AttackPick(seats=seats, pending=pending))


@spec.handles(AttackPick)
def _attack_pick(eng: Eng, step: AttackPick) -> None:
    eid = int(eng.answer[0].split(":")[1])
    eng.push(EnemyAttack(enemy=eid, seat=step.seats[0], exhaust=True),
             EnemyAttacks(seats=step.seats, pending=[e for e in step.pending if e != eid],
                          started=True))


@spec.handles(EndEnemyPhase)
def _end_enemy_phase(eng: Eng, step: EndEnemyPhase) -> None:
    state = eng.state
    # A611.2: massive enemies exhaust after their last attack of the phase
    for loc in state.zones["locations"].cards:
        for eid in state.zones[f"at.{loc}"].cards:
            if is_enemy(state, eid) and has_kw(dof(state, eid), "massive") and seats_at(state, loc):
                state.cards[eid].exhausted = True
    eng.emit("phase_ended", data={"phase": "enemy"})
    eng.push(*_agenda_forced(state, "enemy_phase_end"), UpkeepPhase())


def _agenda_forced(state: ArkhamState, when: str) -> list[tcgcore.Step]:
    """Forced abilities of the current agenda and act for a timing point (RR step 3.4, A418.5)."""
    out: list[tcgcore.Step] = []
    for cid in (current_agenda(state), current_act(state)):
        if cid >= 0:
            effects = dof(state, cid).forced.get(when)
            if effects:
                out.append(Effects(seat=state.lead, effects=effects, source=cid))
    return out


# ============================================================================ upkeep


@spec.handles(UpkeepPhase)
def _upkeep(eng: Eng, step: UpkeepPhase) -> None:
    """A418: reset, ready everything, draw 1 and gain 1 each, hand size, round end."""
    state = eng.state
    state.phase = "upkeep"
    eng.emit("phase", data={"phase": "upkeep"})
    readied: list[int] = []
    for zid, zone in state.zones.items():
        if zid.startswith(_PLAY_ZONE_PREFIXES):
            for cid in zone.cards:
                if cid >= 0 and state.cards[cid].exhausted:
                    state.cards[cid].exhausted = False  # A418.2
                    readied.append(cid)
    seats = player_order(state)
    for s in seats:
        state.inv[s].limits = {k: v for k, v in state.inv[s].limits.items()
                               if not k.endswith((":round", ":turn", ":phase"))}
    state.group_limits = {k: v for k, v in state.group_limits.items()
                          if not k.endswith(("_round", "_turn", "_phase"))}
    steps: list[tcgcore.Step] = [EngageCheck(enemy=c) for c in readied if is_enemy(state, c)]
    steps += [DoDraw(seat=s) for s in seats]
    steps += [Effects(seat=s, effects=(Effect(op="gain_resources", amount=1),)) for s in seats]
    eng.push(*steps, HandSize(seats=seats), EndRound())  # A418.3-A418.5


@spec.handles(HandSize)
def _hand_size(eng: Eng, step: HandSize) -> None:
    state = eng.state
    for i, seat in enumerate(step.seats):
        if not playing(state, seat):
            continue
        hand = state.zones[f"hand.{seat}"].cards
        excess = len(hand) - HAND_SIZE
        if excess > 0:
            eng.ask(seat, "hand_size", f"Discard {excess} card(s) down to {HAND_SIZE}",
                    [Option(key=f"card:{c}", label=name_of(state, c), card=c) for c in hand],
                    min=excess, max=excess, resume=HandSizeAnswer(seats=step.seats[i:]))
            return


@spec.handles(HandSizeAnswer)
def _hand_size_answer(eng: Eng, step: HandSizeAnswer) -> None:
    for key in eng.answer:
        discard_card(eng, int(key.split(":")[1]))
    if len(step.seats) > 1:
        eng.push(HandSize(seats=step.seats[1:]))


@spec.handles(EndRound)
def _end_round(eng: Eng, step: EndRound) -> None:
    """A418.5: round-end effects (objectives, "until end of round" treacheries)."""
    state = eng.state
    steps: list[tcgcore.Step] = []
    for zid in [z for z in state.zones if z.startswith(("threat.", "at."))]:
        for cid in list(state.zones[zid].cards):
            d = dof(state, cid)
            if d.type_code == "treachery" and "round_end" in d.forced:
                steps.append(Effects(seat=_seat_of_zone(zid, state), effects=d.forced["round_end"],
                                     source=cid))
    eng.emit("round_ended", amount=state.turn)
    steps += _agenda_forced(state, "round_end")
    eng.push(*steps, RoundEndObjective(), BeginRound())


def _seat_of_zone(zid: str, state: ArkhamState) -> int:
    return int(zid[7:]) if zid.startswith("threat.") else state.lead


@spec.handles(RoundEndObjective)
def _round_end_objective(eng: Eng, step: RoundEndObjective) -> None:
    """An Objective "when the round ends, investigators at X may spend clues" (A801.4)."""
    state = eng.state
    act = current_act(state)
    if act < 0:
        return
    obj = dof(state, act).objective
    if not obj.startswith("round_end_at:"):
        return
    loc = location_by_code(state, obj.split(":", 1)[1])
    seats = seats_at(state, loc) if loc >= 0 else []
    need = act_threshold(state)
    if not seats or sum(state.inv[s].clues for s in seats) < need:
        return
    eng.ask(state.lead, "advance_act", "Spend clues to advance the act?",
            [Option(key="yes", label="Spend and advance"), Option(key="no", label="Not now")],
            resume=ObjectiveAnswer())


@spec.handles(ObjectiveAnswer)
def _objective_answer(eng: Eng, step: ObjectiveAnswer) -> None:
    state = eng.state
    if eng.answer[0] != "yes":
        return
    act = current_act(state)
    loc = location_by_code(state, dof(state, act).objective.split(":", 1)[1])
    seats = seats_at(state, loc)
    eng.push(AdvanceAct())
    _spend_group_clues(eng, seats[0], act_threshold(state), seats)


# ============================================================================ act / agenda


@spec.handles(AdvanceAgenda)
def _advance_agenda(eng: Eng, step: AdvanceAgenda) -> None:
    """A803.1: remove all doom in play, flip, resolve the b side, next agenda."""
    state = eng.state
    ag = current_agenda(state)
    if ag < 0:
        return
    for zid, zone in state.zones.items():
        if zid in ("locations", "agendas") or zid.startswith(_PLAY_ZONE_PREFIXES):
            for cid in zone.cards:
                if cid >= 0 and "doom" in state.cards[cid].counters:
                    del state.cards[cid].counters["doom"]
    eng.emit("agenda_advanced", card=ag, code=state.cards[ag].code)
    eng.move(ag, "out", kind="flipped")
    run_effects(eng, state.lead, dof(state, ag).back, ag)


@spec.handles(AdvanceAct)
def _advance_act(eng: Eng, step: AdvanceAct) -> None:
    """A803.2: flip the act, resolve its b side, next act."""
    state = eng.state
    act = current_act(state)
    if act < 0:
        return
    state.act_advanced += 1
    eng.emit("act_advanced", card=act, code=state.cards[act].code)
    eng.move(act, "out", kind="flipped")
    run_effects(eng, state.lead, dof(state, act).back, act)


# ============================================================================ triggers


def collect(eng: Eng, event: Event) -> list[Trigger]:
    """Forced abilities and reactions an event triggers (A902): location "after you
    enter" forced effects, investigator reactions "after you defeat an enemy"."""
    state = eng.state
    found: list[Trigger] = []
    kind = event.kind
    if kind == "entered" and event.card is not None and event.player is not None:
        d = dof(state, event.card)
        if "after_enter" in d.forced:
            found.append(Trigger(id="", player=event.player, ability="forced:after_enter",
                                 source=event.card, label=f"{d.name}: forced"))
    elif kind == "enemy_attacks" and event.player is not None:
        # "when" an enemy attacks an investigator at your location: fast cards such as
        # the test Dodge may cancel it (A901.1); peril blocks the others (A613.1)
        loc = state.inv[event.player].location
        for s in seats_at(state, loc):
            if (state.peril >= 0 and s != state.peril) or _threat_keyword(state, s, "no_play"):
                continue  # peril (A613.1); an encounter "cannot play" wins (A106.2, A106.4)
            for cid in state.zones[f"hand.{s}"].cards:
                d = dof(state, cid)
                if d.play_when == "enemy_attacks" and \
                        state.inv[s].resources >= card_cost(state, cid):
                    found.append(Trigger(id="", player=s, ability=f"play_when:{cid}",
                                         source=cid, optional=True, timing="when",
                                         label=f"Investigator {s}: play a card from hand"))
    elif kind == "enemy_entered" and event.card is not None:
        d = dof(state, event.card)
        if "enemy_enters" in d.forced:
            found.append(Trigger(id="", player=state.lead, ability="forced:enemy_enters",
                                 source=event.card, label=f"{d.name}: forced"))
    elif kind == "enemy_defeated" and event.player is not None:
        seat = event.player
        if playing(state, seat):
            inv = state.inv[seat]
            d = cdef(state, inv.code)
            for idx, ab in enumerate(d.abilities):
                if ab.kind == "reaction" and ab.trigger == "after_defeat_enemy":
                    if not _ability_payable(state, seat, inv.card, ab):
                        continue
                    found.append(Trigger(id="", player=seat, ability=f"reaction:{idx}",
                                         source=inv.card, optional=True,
                                         label=f"{d.name}: reaction"))
    return found


def resolve(eng: Eng, trigger: Trigger) -> None:
    """Carry out one forced ability or reaction."""
    state = eng.state
    src = trigger.source if trigger.source is not None else -1
    if trigger.ability == "forced:after_enter" and src >= 0:
        run_effects(eng, trigger.player, dof(state, src).forced["after_enter"], src)
    elif trigger.ability == "forced:enemy_enters" and src >= 0:
        run_effects(eng, trigger.player, dof(state, src).forced["enemy_enters"], src)
    elif trigger.ability.startswith("play_when:") and src >= 0:
        seat = trigger.player
        card = state.cards[src]
        if card.zone != f"hand.{seat}" or state.inv[seat].resources < card_cost(state, src):
            return
        d = dof(state, src)
        state.inv[seat].resources -= card_cost(state, src)
        eng.move(src, "resolving", kind="played")
        rest = tuple(e for e in d.effects if e.op != "cancel_attack")
        if len(rest) != len(d.effects):
            state.cancelled.append(trigger.event)
        eng.push(Effects(seat=seat, effects=rest, source=src),
                 FinishTreachery(card=src, seat=seat))
    elif trigger.ability.startswith("reaction:") and src >= 0:
        idx = int(trigger.ability.split(":")[1])
        ab = dof(state, src).abilities[idx]
        if ab.limit:
            key = f"{src}:{ab.limit}"
            lim = state.inv[trigger.player].limits
            lim[key] = lim.get(key, 0) + 1
        run_effects(eng, trigger.player, ab.effects, src)
    eng.emit("ability", player=trigger.player, card=trigger.source,
             data={"ability": trigger.ability})


spec.collect_triggers = collect
spec.trigger_kinds = frozenset({"entered", "enemy_defeated", "enemy_attacks", "enemy_entered"})
spec.resolve_trigger = resolve
