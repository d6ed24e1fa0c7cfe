"""The arkham_card round structure: the mulligan, rounds and the mythos phase (encounter
draws, spawn, engagement), upkeep and the end of the round, acts and agendas, and the
triggered abilities (:func:`collect` and :func:`resolve`, the core's trigger window hooks,
ordered by the lead).

The rules engine is split by concept into layers; a module imports only from the layers
below it, and :func:`.plugin.build_spec` assembles the spec from each module's
``register`` function:

1. :mod:`.queries` (state queries: card definitions, zones, locations, enemies, skills,
   doom) and :mod:`.scenario_hooks` (the :class:`~.scenario_hooks.Scenario` interface);
2. :mod:`.abilities` (what a seat may activate, play or respond with) and
   :mod:`.operations` (shared state changes: draw, reveal, enter, discard, doom, clues,
   surge, spawn, the end of the scenario);
3. :mod:`.card_choices` (player cards' choices), then the scenario modules
   :mod:`.midnight_masks` and :mod:`.devourer_below`;
4. the step-handling modules: :mod:`.skill_tests` (ST.1–ST.8), :mod:`.actions` (the
   investigation phase), :mod:`.enemies` (damage, defeat, the enemy phase),
   :mod:`.effects` (the :class:`~tcgcore_arkham_card.cards.Effect` ops),
   :mod:`.scenario_setup`, and this module.

Every piece of pending work is a tagged :mod:`~tcgcore_arkham_card.state` step; every
decision is an ``eng.ask`` whose resume step reads ``eng.answer``. Rule numbers in
comments refer to ``docs/arkham_card/rules.md`` (A-numbers).
"""

from __future__ import annotations

from typing import Any, Final

import tcgcore
from tcgcore import Engine, Event, Option, Trigger

from . import card_choices as _card_choices
from .abilities import (
    GAIN_ONE,
    _ability_payable,
    _hand_plays,
    _owns_play_when,
    _threat_keyword,
    amulet_event,
    card_cost,
    reaction_codes,
)
from .operations import (
    _MYTHOS_END,
    _agenda_forced,
    _discover,
    _engage,
    _may_gain_surge,
    _refill_encounter,
    _spawn_at_location,
    _spend_group_clues,
    add_doom,
    discard_card,
    end_phase_limits,
    run_effects,
)
from .queries import (
    _PLAY_ZONE_PREFIXES,
    ENEMY_ZONE_PREFIXES,
    FORCED_CODES,
    HAND_SIZE,
    MAX_SURGE,
    Z_AT,
    Z_DECK,
    Z_HAND,
    Z_PLAY,
    Z_THREAT,
    Eng,
    _traits,
    act_threshold,
    agenda_threshold,
    current_act,
    current_agenda,
    dof,
    enemies_at,
    has_kw,
    is_enemy,
    lethal,
    location_by_code,
    name_of,
    player_order,
    prey_filter,
    seats_at,
    trigger_of_eliminated,
    zone_ids,
)
from .scenario_hooks import (
    resolve_scenario_trigger,
    scenario_triggers,
)
from .scenario_setup import draw_opening
from .state import (
    AdvanceAct,
    AdvanceAgenda,
    ArkhamState,
    BeginRound,
    DiscoverClues,
    DoDraw,
    DrawEncounter,
    Effects,
    EncounterDraws,
    EndPeril,
    EndRound,
    EngageAnswer,
    EngageCheck,
    FinishTreachery,
    GainedSurge,
    HandSize,
    HandSizeAnswer,
    InvestigationPhase,
    Mulligan,
    MulliganAnswer,
    MythosPhase,
    ObjectiveAnswer,
    ResolveEncounter,
    RoundEndObjective,
    SpawnAnswer,
    SpawnAt,
    UpkeepPhase,
)

# ============================================================================ trigger order


def lead_seat(eng: Engine[Any]) -> int:
    """The lead investigator, who orders simultaneous triggers (A902.2; the spec's
    ``trigger_policy``)."""
    state: ArkhamState = eng.state
    return state.lead


# ============================================================================ setup flow


def _mulligan(eng: Eng, step: Mulligan) -> None:
    state = eng.state
    hand = state.zones[Z_HAND[step.seat]].cards
    opts = [Option(key=f"card:{c}", label=name_of(state, c), card=c) for c in hand]
    eng.ask(step.seat, "mulligan", "Choose cards to set aside and redraw (one mulligan)",
            opts, min=0, max=len(opts), resume=MulliganAnswer(seat=step.seat))


def _mulligan_answer(eng: Eng, step: MulliganAnswer) -> None:
    # A305.1-A305.3: set aside, draw replacements (weaknesses set aside again), shuffle in
    state = eng.state
    seat = step.seat
    chosen = [int(k.split(":")[1]) for k in eng.answer]
    for cid in chosen:
        eng.move(cid, f"aside.{seat}")
    draw_opening(eng, seat, len(chosen))
    for cid in list(state.zones[f"aside.{seat}"].cards):
        eng.move(cid, Z_DECK[seat])
    eng.shuffle(Z_DECK[seat])
    state.inv[seat].mulliganed = True
    eng.emit("mulligan", player=seat, amount=len(chosen))


# ============================================================================ rounds


def _begin_round(eng: Eng, step: BeginRound) -> None:
    state = eng.state
    state.turn += 1
    eng.emit("round_started", amount=state.turn)
    if state.turn == 1:
        eng.push(InvestigationPhase())  # A401.2: no mythos phase in round 1
    else:
        eng.push(MythosPhase())


def _mythos(eng: Eng, step: MythosPhase) -> None:
    state = eng.state
    end_phase_limits(state)  # the upkeep phase ended
    state.phase = "mythos"
    eng.emit("phase", data={"phase": "mythos"})
    ag = current_agenda(state)
    in_play = add_doom(eng, ag, 1) if ag >= 0 else 0  # A402.1
    steps: list[tcgcore.Step] = []
    if ag >= 0 and in_play >= agenda_threshold(state):  # A402.2
        steps.append(AdvanceAgenda())
    steps += [EncounterDraws(seats=player_order(state)),
              Effects(seat=state.lead, effects=_MYTHOS_END),  # A982.3
              InvestigationPhase()]
    eng.push(*steps)


def _encounter_draws(eng: Eng, step: EncounterDraws) -> None:
    # A402.4: in player order, each resolves completely before the next
    state = eng.state
    invs = state.inv
    seats: list[int] = []  # a plain loop: no comprehension call
    for s in step.seats:
        if not invs[s].status:
            seats.append(s)
    if not seats:
        return
    eng.push(DrawEncounter(seat=seats[0]), EncounterDraws(seats=seats[1:]))


def _draw_encounter(eng: Eng, step: DrawEncounter) -> None:
    state = eng.state
    if state.inv[step.seat].status:
        return
    _refill_encounter(eng)
    deck = state.zones["encounter"].cards
    if not deck:
        return
    cid = deck[0]
    eng.move(cid, "resolving", kind="encounter_drawn", data={"seat": step.seat})
    _refill_encounter(eng)
    eng.push(ResolveEncounter(seat=step.seat, card=cid, depth=step.depth))


def _resolve_encounter(eng: Eng, step: ResolveEncounter) -> None:
    """Resolve a drawn encounter card or weakness: treachery revelation (A210.1), enemy
    spawn (A601), surge (A612.1) and peril (A613)."""
    state = eng.state
    cid, seat = step.card, step.seat
    d = dof(state, cid)
    if state.cards[cid].zone != "resolving":
        eng.move(cid, "resolving", kind="revealed")
    after: list[tcgcore.Step] = []
    if -1 - cid in state.cancelled:  # its revelation was cancelled (Ward of Protection)
        state.cancelled.remove(-1 - cid)
        eng.emit("revelation_cancelled", player=seat, card=cid, code=d.code)
        eng.push(FinishTreachery(card=cid, seat=seat))
        return
    if has_kw(d, "peril"):
        state.peril = seat
        after.append(EndPeril(card=cid))
    if has_kw(d, "surge") and step.depth < MAX_SURGE:
        after.append(DrawEncounter(seat=seat, depth=step.depth + 1))
    elif seat >= 0 and _may_gain_surge(d.revelation):  # A612.2 (at the cap: only clears)
        after.append(GainedSurge(seat=seat, card=cid, depth=step.depth + 1))
    if d.type_code == "enemy":
        eng.push(SpawnAt(enemy=cid, seat=seat), *after)
    else:
        eng.push(Effects(seat=seat, effects=d.revelation, source=cid),
                 FinishTreachery(card=cid, seat=seat), *after)


def _discover_clues(eng: Eng, step: DiscoverClues) -> None:
    """A974.1: after the "would discover" window, the clues come off Cover Up if its
    reaction was used, otherwise from the location (re-read: the window may change both)."""
    state = eng.state
    seat = step.seat
    inv = state.inv[seat]
    if inv.status or inv.location < 0:
        return
    if step.event in state.cancelled:
        state.cancelled.remove(step.event)
        took = min(step.amount, state.cards[step.cover].counters.get("clues", 0))
        if took > 0:
            eng.add_counter(step.cover, "clues", -took)
            eng.emit("clues_covered", player=seat, card=step.cover, amount=took)
        return
    got = min(step.amount, state.cards[inv.location].counters.get("clues", 0))
    if got > 0:
        _discover(eng, seat, got)


def _gained_surge(eng: Eng, step: GainedSurge) -> None:
    """A612.2: the card has left play; if it gained surge, its drawer draws the next card
    (unless the chain is at :data:`MAX_SURGE`). The card's surge mark is cleared either way."""
    limits = eng.state.inv[step.seat].limits
    if limits and limits.pop(f"surge:{step.card}", 0) and step.depth <= MAX_SURGE:
        eng.push(DrawEncounter(seat=step.seat, depth=step.depth))


def _end_peril(eng: Eng, step: EndPeril) -> None:
    eng.state.peril = -1  # A613.1


def _finish_treachery(eng: Eng, step: FinishTreachery) -> None:
    state = eng.state
    card = state.cards[step.card]
    if card.zone != "resolving":
        return  # it went to a threat area or was attached
    d = dof(state, step.card)
    if d.victory is not None and not d.is_weakness():
        eng.move(step.card, "victory", kind="to_victory")  # A615.4
    elif d.type_code == "event" and step.seat >= 0 and state.cards[step.card].owner == \
            step.seat and any("amulet_events" in dof(state, c).keywords
                              for c in state.zones[Z_PLAY[step.seat]].cards):
        # Wendy's Amulet (A975.13): a played event goes to the bottom of the deck
        eng.move(step.card, Z_DECK[step.seat], kind="to_deck_bottom")
    else:
        discard_card(eng, step.card)


def spawn_redirect(state: ArkhamState, code: str) -> int:
    """A982.1: a location in play whose forced ``spawn_redirect`` names ``code`` (Your
    House and the Ghoul Priest); -1 when none."""
    for loc in state.zones["locations"].cards:
        for e in dof(state, loc).forced.get("spawn_redirect", ()):
            if e.code == code:
                return loc
    return -1


def _spawn(eng: Eng, step: SpawnAt) -> None:
    """A601: spawn at the named location (discarded if none in play), else engaged with
    the drawer (aloof: at the drawer's location unengaged)."""
    state = eng.state
    eid = step.enemy
    d = dof(state, eid)
    seat = step.seat
    redirect = spawn_redirect(state, state.cards[eid].code)
    if redirect >= 0:  # Your House and the Ghoul Priest (A982.1)
        _spawn_at_location(eng, eid, redirect)
        return
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
    if seat < 0 or state.inv[seat].status or state.inv[seat].location < 0:
        discard_card(eng, eid)
        return
    loc = state.inv[seat].location
    if has_kw(d, "aloof") or has_kw(d, "massive"):
        eng.move(eid, Z_AT[loc], kind="spawned", data={"location": loc})  # A601.4
    else:
        eng.move(eid, Z_THREAT[seat], kind="spawned", data={"location": loc})  # A601.3
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
    if spawn.startswith("name:"):  # "Spawn - Downtown" (A984.1)
        return [x for x in locs if dof(state, x).name == spawn[5:]]
    x = location_by_code(state, spawn)
    return [x] if x >= 0 else []


def _spawn_answer(eng: Eng, step: SpawnAnswer) -> None:
    _spawn_at_location(eng, step.enemy, int(eng.answer[0].split(":")[1]))


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
            [Option(key=f"inv:{s}", label=dof(state, state.inv[s].card).name) for s in cands],
            resume=EngageAnswer(enemy=eid))


def _engage_answer(eng: Eng, step: EngageAnswer) -> None:
    _engage(eng, step.enemy, int(eng.answer[0].split(":")[1]))


# ============================================================================ upkeep


def _upkeep(eng: Eng, step: UpkeepPhase) -> None:
    """A418: reset, ready everything, draw 1 and gain 1 each, hand size, round end."""
    state = eng.state
    state.phase = "upkeep"
    eng.emit("phase", data={"phase": "upkeep"})
    readied: list[int] = []
    cards = state.cards
    zones = state.zones
    for zid in zone_ids(state, _PLAY_ZONE_PREFIXES):
        for cid in zones[zid].cards:
            if cid >= 0 and cards[cid].exhausted:
                eng.update_card(cid, exhausted=False)  # A418.2
                readied.append(cid)
    seats = player_order(state)
    for s in seats:
        inv = state.inv[s]
        if inv.limits:  # an empty one stays empty
            inv.limits = {k: v for k, v in inv.limits.items()
                          if not k.endswith((":round", ":turn", ":phase"))}
    for card in cards:
        counters = card.counters
        if counters and "blank" in counters:
            eng.remove_counter(card.id, "blank")  # Mind Wipe ends (A978.6)
    if state.group_limits:
        state.group_limits = {k: v for k, v in state.group_limits.items()
                              if not k.endswith(("_round", "_turn", "_phase",
                                                 ":round", ":turn", ":phase"))}
    steps: list[tcgcore.Step] = []  # plain loops: no comprehension calls
    for c in readied:
        if is_enemy(state, c):
            steps.append(EngageCheck(enemy=c))
    for s in seats:
        steps.append(DoDraw(seat=s))
    for s in seats:
        steps.append(Effects(seat=s, effects=GAIN_ONE))
    eng.push(*steps, HandSize(seats=seats), EndRound())  # A418.3-A418.5


def _hand_size(eng: Eng, step: HandSize) -> None:
    state = eng.state
    for i, seat in enumerate(step.seats):
        if state.inv[seat].status:
            continue
        hand = state.zones[Z_HAND[seat]].cards
        excess = len(hand) - HAND_SIZE
        if excess > 0:
            eng.ask(seat, "hand_size", f"Discard {excess} card(s) down to {HAND_SIZE}",
                    [Option(key=f"card:{c}", label=name_of(state, c), card=c) for c in hand],
                    min=excess, max=excess, resume=HandSizeAnswer(seats=step.seats[i:]))
            return


def _hand_size_answer(eng: Eng, step: HandSizeAnswer) -> None:
    for key in eng.answer:
        discard_card(eng, int(key.split(":")[1]))
    if len(step.seats) > 1:
        eng.push(HandSize(seats=step.seats[1:]))


def _end_round(eng: Eng, step: EndRound) -> None:
    """A418.5: round-end effects (objectives, "until end of round" treacheries)."""
    state = eng.state
    steps: list[tcgcore.Step] = []
    cards = state.cards
    forced = None if state.extra_defs else FORCED_CODES
    zones = state.zones
    for zid in zone_ids(state, ENEMY_ZONE_PREFIXES):  # nothing below changes the zones
        for cid in zones[zid].cards:
            if forced is not None and cards[cid].code not in forced:
                continue  # no forced ability at all
            d = dof(state, cid)
            if d.type_code in ("treachery", "enemy") and "round_end" in d.forced:
                steps.append(Effects(seat=_seat_of_zone(zid, state), effects=d.forced["round_end"],
                                     source=cid))
    for loc in state.zones["locations"].cards:  # Ritual Site (A992.6)
        if forced is not None and cards[loc].code not in forced:
            continue
        fx = dof(state, loc).forced.get("round_end")
        if fx:
            steps.append(Effects(seat=state.lead, effects=fx, source=loc))
    eng.emit("round_ended", amount=state.turn)
    steps += _agenda_forced(state, "round_end")
    eng.push(*steps, RoundEndObjective(), BeginRound())


def _seat_of_zone(zid: str, state: ArkhamState) -> int:
    return int(zid[7:]) if zid.startswith("threat.") else state.lead


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
                    eng.remove_counter(cid, "doom")
    eng.emit("agenda_advanced", card=ag, code=state.cards[ag].code)
    eng.move(ag, "out", kind="flipped")
    run_effects(eng, state.lead, dof(state, ag).back, ag)


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
    kind = event.kind
    state = eng.state
    if kind == "phase":  # the most frequent: only player cards' "after a phase begins"
        if not state.extra_defs and not _owns_play_when(state, "phase_begins"):
            return []  # nobody's deck list has such a card (public): no window (A913.1)
        return _card_choices.card_triggers(eng, event)
    # the scenarios' encounter cards first (A994.5, A994.7: The Devourer Below's)
    found = scenario_triggers(eng, event)
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
            found += _hand_plays(state, s, "enemy_attacks", "")  # A913.1
    elif kind == "clues_would_discover" and event.player is not None and \
            event.card is not None:  # Cover Up (A974.1): a reaction, so it may be declined
        found.append(Trigger(id="", player=event.player, ability="cover_up",
                             source=event.card, optional=True, timing="when",
                             label=f"{name_of(state, event.card)}: reaction"))
    elif kind == "enemy_entered" and event.card is not None:
        d = dof(state, event.card)
        if "enemy_enters" in d.forced:
            found.append(Trigger(id="", player=state.lead, ability="forced:enemy_enters",
                                 source=event.card, label=f"{d.name}: forced"))
    elif kind == "encounter_drawn" and event.card is not None:
        # Ward of Protection: "when you draw a treachery that is not a weakness"
        seat = int(str((event.data or {}).get("seat", -1)))
        d = dof(state, event.card)
        if seat >= 0 and not state.inv[seat].status and d.type_code == "treachery" and \
                not d.is_weakness() and not _threat_keyword(state, seat, "no_play"):
            found += _hand_plays(state, seat, "treachery_drawn", f":{event.card}")
    elif kind == "test_failed" and event.player is not None:
        # "Look what I found!": after you fail an investigation by 2 or less
        seat = event.player
        if (event.data or {}).get("kind") == "investigate" and (event.amount or 0) >= -2 and \
                not state.inv[seat].status and not _threat_keyword(state, seat, "no_play"):
            found += _hand_plays(state, seat, "failed_investigate_by2", "")
    elif kind == "harm_placed" and event.player is not None:
        seat = event.player
        data = event.data or {}
        # A703.3: an investigator whose damage or horror now reaches the limit is defeated
        # at once; none of their "after you take damage/horror" abilities resolve (their
        # CheckDefeat runs next). Psychosis and Hypochondria feed each other until then.
        if not state.inv[seat].status and not lethal(state, seat):
            hits: list[str] = []  # plain: no comprehension call
            if int(data.get("damage", 0) or 0) > 0:
                hits.append("damage")
            if int(data.get("horror", 0) or 0) > 0:
                hits.append("horror")
            cards = state.cards
            pooled = not state.extra_defs  # then cards without forced abilities are skipped
            for k in hits:
                for cid in state.zones[Z_THREAT[seat]].cards:
                    if pooled and cards[cid].code not in FORCED_CODES:
                        continue
                    if f"after_{k}" in dof(state, cid).forced:  # Psychosis, Hypochondria
                        found.append(Trigger(id="", player=seat, ability=f"forced:after_{k}",
                                             source=cid, label=f"{name_of(state, cid)}: forced"))
            inv = state.inv[seat]
            if "horror" in hits and (not pooled or
                                     cards[inv.card].code in reaction_codes("after_horror")):
                d = dof(state, inv.card)  # blank under Stubborn Detective
                for idx, ab in enumerate(d.abilities):
                    if ab.kind == "reaction" and ab.trigger == "after_horror" and \
                            _ability_payable(state, seat, inv.card, ab) and \
                            enemies_at(state, inv.location):
                        found.append(Trigger(id="", player=seat, ability=f"reaction:{idx}",
                                             source=inv.card, optional=True,
                                             label=f"{d.name}: reaction"))
    elif kind == "played" and event.player is not None and event.card is not None:
        seat = event.player
        d = dof(state, event.card)
        if d.type_code == "event" and not state.inv[seat].status:
            cards = state.cards
            pooled = not state.extra_defs  # then cards without forced abilities are skipped
            for cid in state.zones[Z_PLAY[seat]].cards:
                if pooled and cards[cid].code not in FORCED_CODES:
                    continue
                fx = dof(state, cid).forced
                for key in fx:
                    if key.startswith("after_play:") and key[11:] in _traits(d):
                        found.append(Trigger(id="", player=seat, ability=f"forced:{key}",
                                             source=cid, optional=True,
                                             label=f"{name_of(state, cid)}: reaction"))
    elif kind == "enemy_defeated" and event.player is not None:
        seat = event.player
        if not state.inv[seat].status:
            if not _threat_keyword(state, seat, "no_play"):  # Evidence! (A913.1)
                found += _hand_plays(state, seat, "after_defeat_enemy", "", timing="after")
            inv = state.inv[seat]
            d = dof(state, inv.card)  # blank under Stubborn Detective
            for idx, ab in enumerate(d.abilities):
                if ab.kind == "reaction" and ab.trigger == "after_defeat_enemy":
                    if not _ability_payable(state, seat, inv.card, ab):
                        continue
                    found.append(Trigger(id="", player=seat, ability=f"reaction:{idx}",
                                         source=inv.card, optional=True,
                                         label=f"{d.name}: reaction"))
    if kind in ("enemy_evaded", "enemy_auto_evaded") and event.card is not None and \
            "after_evaded" in dof(state, event.card).forced:
        # Ruth Turner (A984.4): a forced trigger, so it resolves before any reaction or
        # play such as Close Call at the same moment (A902.1)
        found.append(Trigger(id="", player=event.player if event.player is not None
                             else state.lead, ability="forced:after_evaded",
                             source=event.card, label=f"{name_of(state, event.card)}: forced"))
    if kind in _CARD_TRIGGER_KINDS:  # player cards reacting to enemies and phases (A978.9)
        found += _card_choices.card_triggers(eng, event)
    return found


_CARD_TRIGGER_KINDS: Final = frozenset({"spawned", "enemy_attacks", "enemy_evaded", "enemy_auto_evaded",
                                 "phase"})


def resolve(eng: Eng, trigger: Trigger) -> None:
    """Carry out one forced ability or reaction."""
    state = eng.state
    if trigger_of_eliminated(state, trigger):
        return  # A705.10: an eliminated investigator's abilities no longer resolve
    src = trigger.source if trigger.source is not None else -1
    if resolve_scenario_trigger(eng, trigger):
        pass
    elif trigger.ability == "forced:after_enter" and src >= 0:
        run_effects(eng, trigger.player, dof(state, src).forced["after_enter"], src)
    elif trigger.ability == "forced:enemy_enters" and src >= 0:
        run_effects(eng, trigger.player, dof(state, src).forced["enemy_enters"], src)
    elif trigger.ability.startswith("forced:") and src >= 0:
        fx = dof(state, src).forced.get(trigger.ability[7:])
        if fx and state.cards[src].zone.startswith(_PLAY_ZONE_PREFIXES):
            run_effects(eng, trigger.player, fx, src)
    elif trigger.ability == "cover_up" and src >= 0:
        state.cancelled.append(trigger.event)  # the discovery comes off Cover Up (A974.1)
    elif trigger.ability.startswith("pass_when:"):
        return  # a response window the seat could only pass (A913.1): nothing happens
    elif trigger.ability.startswith("play_when:") and src >= 0:
        seat = trigger.player
        card = state.cards[src]
        if (card.zone != Z_HAND[seat] and src != amulet_event(state, seat)) \
                or state.inv[seat].resources < card_cost(state, src):
            return  # no longer in hand (nor on top of the discard pile, A975.13)
        d = dof(state, src)
        state.inv[seat].resources -= card_cost(state, src)
        eng.move(src, "resolving", kind="played")
        rest = tuple(e for e in d.effects if e.op not in ("cancel_attack", "cancel_revelation"))
        if any(e.op == "cancel_attack" for e in d.effects):
            state.cancelled.append(trigger.event)
        parts = trigger.ability.split(":")
        if len(parts) > 2 and any(e.op == "cancel_revelation" for e in d.effects):
            state.cancelled.append(-1 - int(parts[2]))  # Ward of Protection
        if len(parts) > 2:  # the card the play reacts to (Close Call, A978.6)
            rest = _card_choices.with_trigger_card(rest, int(parts[2]))
        eng.push(Effects(seat=seat, effects=rest, source=src),
                 FinishTreachery(card=src, seat=seat))
    elif trigger.ability.startswith("reaction:") and src >= 0:
        parts = trigger.ability.split(":")
        ab = dof(state, src).abilities[int(parts[1])]
        if ab.limit:
            key = f"{src}:{ab.limit}"
            lim = state.inv[trigger.player].limits
            lim[key] = lim.get(key, 0) + 1
        if len(parts) > 2:  # a player card's reaction to an enemy (A978.9)
            _card_choices.card_reaction(eng, trigger.player, src, ab, int(parts[2]),
                                        trigger.event)
        else:
            run_effects(eng, trigger.player, ab.effects, src)
    eng.emit("ability", player=trigger.player, card=trigger.source,
             data={"ability": trigger.ability})


#: the event kinds :func:`collect` answers itself (``GameSpec.trigger_kinds`` adds the
#: scenarios' :attr:`~.scenario_hooks.Scenario.trigger_kinds`)
TRIGGER_KINDS: Final = frozenset({"entered", "enemy_defeated", "enemy_attacks", "enemy_entered",
                                  "harm_placed", "played", "encounter_drawn", "test_failed",
                                  "clues_would_discover"}) | _CARD_TRIGGER_KINDS


def register(spec: tcgcore.GameSpec[ArkhamState]) -> None:
    """Register this module's step handlers on ``spec`` (:func:`.plugin.build_spec` calls it
    once, on the spec it builds)."""
    spec.handles(Mulligan)(_mulligan)
    spec.handles(MulliganAnswer)(_mulligan_answer)
    spec.handles(BeginRound)(_begin_round)
    spec.handles(MythosPhase)(_mythos)
    spec.handles(EncounterDraws)(_encounter_draws)
    spec.handles(DrawEncounter)(_draw_encounter)
    spec.handles(ResolveEncounter)(_resolve_encounter)
    spec.handles(DiscoverClues)(_discover_clues)
    spec.handles(GainedSurge)(_gained_surge)
    spec.handles(EndPeril)(_end_peril)
    spec.handles(FinishTreachery)(_finish_treachery)
    spec.handles(SpawnAt)(_spawn)
    spec.handles(SpawnAnswer)(_spawn_answer)
    spec.handles(EngageCheck)(_engage_check)
    spec.handles(EngageAnswer)(_engage_answer)
    spec.handles(UpkeepPhase)(_upkeep)
    spec.handles(HandSize)(_hand_size)
    spec.handles(HandSizeAnswer)(_hand_size_answer)
    spec.handles(EndRound)(_end_round)
    spec.handles(RoundEndObjective)(_round_end_objective)
    spec.handles(ObjectiveAnswer)(_objective_answer)
    spec.handles(AdvanceAgenda)(_advance_agenda)
    spec.handles(AdvanceAct)(_advance_act)
