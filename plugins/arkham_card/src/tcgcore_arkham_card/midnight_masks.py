"""The Midnight Masks (scenario 01120) and the card ops its encounter sets use (A981–A985).

The scenario file ``data/scenario_01120.json`` lists what every game shares (the seven
fixed locations, the agendas, the act, the encounter deck, the set-aside Masked Hunter,
the reference card). This module adds what a data file cannot say:

* :func:`setup_midnight`: the random Downtown and Southside, all locations revealed, the
  starting location from the campaign log, the Acolytes by player count, the Ghoul
  Priest, and the separate Cultist deck (zone ``cultists``, hidden) (A981);
* :func:`scenario_op`: the effect ops of the Midnight Masks cards and of the Dark Cult,
  Nightgaunts and Locked Doors sets (names in :data:`OPS`);
* :func:`write_log`: the campaign-log output (A985.5).

:data:`MIDNIGHT_MASKS` is the scenario's :class:`~tcgcore_arkham_card.scenario_hooks.Scenario`:
the effects module reaches :func:`scenario_op` through it, the end of the game
:func:`write_log`, the scenario setup :func:`setup_midnight`. The constant abilities its
cards use are generic rules, keyed by card data: the Masked Hunter's clue block and the
ability conditions (:func:`.queries.clues_blocked`, :func:`.queries.condition_met`), Your
House's spawn redirect (:func:`.rules.spawn_redirect`), the act objective
(:func:`.operations.check_objective`) and the Skull's doom count
(:func:`.queries.max_doom_on_trait`).

All state lives in :class:`~tcgcore_arkham_card.state.ArkhamState`; randomness comes from
``eng.rng`` only.
"""

from __future__ import annotations

from typing import Final

import tcgcore
from tcgcore import Option

from . import log_keys
from .card_choices import (
    search_pick,
)
from .cards import Effect
from .operations import (
    SCENARIO_OWNER,
    _add_location,
    _spend_group_clues,
    add_doom,
    check_objective,
    enemies_forced,
    enter_location,
    gain_surge,
    reveal_location,
    run_effects,
)
from .queries import (
    CULTIST_ZONE,
    Z_AT,
    Z_DECK,
    Z_HAND,
    Z_THREAT,
    Eng,
    _enemies_in_play,
    _spenders,
    _traits,
    _with_trait,
    clues_blocked,
    current_agenda,
    distances_from,
    dof,
    engaged_enemies,
    is_enemy,
    location_by_code,
    location_of,
    player_order,
    prey_filter,
    rebuild_adjacency,
    unique_trait_in_victory,
)
from .scenario_hooks import (
    Scenario,
)
from .state import (
    ArkhamState,
    EngageAnswer,
    EngageCheck,
    HandSizeAnswer,
    MidnightAnswer,
    ResolveEncounter,
    RevealToken,
    SkillTest,
    StartTest,
)

__all__ = ["CULTIST_DECK", "HUNTER", "MIDNIGHT_MASKS", "OPS", "SCENARIO",
           "scenario_op", "setup_midnight", "write_log"]

#: The scenario code.
SCENARIO: Final = "01120"
#: The Masked Hunter: the enemy on the back of agenda 01121 (set aside at setup).
HUNTER: Final = "01121b"
#: The Cult of Umôrdhoth cards forming the separate Cultist deck (A981.5).
CULTIST_DECK: Final = ("01137", "01138", "01139", "01140", "01141")
_DOWNTOWN: Final = ("01130", "01131")
_SOUTHSIDE: Final = ("01126", "01127")
_YOUR_HOUSE, _RIVERTOWN, _GRAVEYARD = "01124", "01125", "01133"
_ACOLYTE: Final = "01169"
_GHOUL_PRIEST: Final = "01116"
BURNED: Final = log_keys.HOUSE_BURNED
PRIEST_ALIVE: Final = log_keys.PRIEST_ALIVE
INTERROGATED: Final = log_keys.INTERROGATED
GOT_AWAY: Final = log_keys.GOT_AWAY
MIDNIGHT: Final = log_keys.PAST_MIDNIGHT

#: Effect ops implemented here.
OPS: Final = frozenset({"doom_nearest_trait", "doom_each_trait", "heal_self", "to_victory",
                 "discard_to_victory", "clues_to_victory", "draw_cultist", "cultist_draw",
                 "spawn_set_aside_prey", "spend_clue_or_damage", "spend_clue", "false_lead",
                 "clues_to_location", "wings_of_darkness", "attach_most_clues", "move_to",
                 "gain_clues", "search_top_any", "enemies_forced", "spawn_redirect",
                 "reveal_token"})


# ---------------------------------------------------------------------------- setup


def setup_midnight(eng: Eng) -> None:
    """A981.1–A981.7: finish the setup of The Midnight Masks after the generic part
    (the scenario file's locations, decks and starting location) has run.

    Picks one Downtown and one Southside with the match RNG, reveals every location,
    removes Your House and starts everyone at Rivertown when the log says the house
    burned, builds the shuffled Cultist deck (zone ``cultists``), spawns one Acolyte
    (with 1 doom) per investigator beyond the first at Southside, Downtown and the
    Graveyard, and shuffles the Ghoul Priest into the encounter deck while the log
    says he is alive.
    """
    state = eng.state
    n = state.num_players
    for pair in (_DOWNTOWN, _SOUTHSIDE):
        _add_location(eng, pair[eng.rng.randbelow(2)], "locations")  # A981.2
    rebuild_adjacency(state)
    for loc in list(state.zones["locations"].cards):
        reveal_location(eng, loc)  # A981.3
    start = location_by_code(state, _YOUR_HOUSE)
    if BURNED in state.campaign_log:  # A981.4
        house = start
        start = location_by_code(state, _RIVERTOWN)
        eng.move(house, "out", kind="removed")
        rebuild_adjacency(state)
    for s in range(n):
        state.inv[s].location = start
    eng.add_zone(CULTIST_ZONE, "encounter", visibility="hidden")
    for code in CULTIST_DECK:
        eng.add_card(code, SCENARIO_OWNER, CULTIST_ZONE)
    eng.shuffle(CULTIST_ZONE)  # A981.5
    spots = ["name:Southside", "name:Downtown", _GRAVEYARD][:max(0, n - 1)]
    for spot in spots:  # A981.6
        acolyte = next((c for c in state.zones["encounter"].cards
                        if state.cards[c].code == _ACOLYTE), -1)
        loc = _location_named(state, spot)
        if acolyte < 0 or loc < 0:
            continue
        eng.move(acolyte, Z_AT[loc], kind="spawned", data={"location": loc})
        add_doom(eng, acolyte, 1)
    if PRIEST_ALIVE in state.campaign_log:  # A981.7
        eng.add_card(_GHOUL_PRIEST, SCENARIO_OWNER, "encounter")
    eng.shuffle("encounter")


def _location_named(state: ArkhamState, spot: str) -> int:
    """A location in play by code or by ``name:<Name>`` (-1: none)."""
    if spot.startswith("name:"):
        for loc in state.zones["locations"].cards:
            if dof(state, loc).name == spot[5:]:
                return loc
        return -1
    return location_by_code(state, spot)


# ---------------------------------------------------------------------------- queries


# ---------------------------------------------------------------------------- ops


def scenario_op(eng: Eng, seat: int, e: Effect, source: int, margin: int) -> None:
    """Resolve one effect op of :data:`OPS` for ``seat`` (``source``: the card; ``margin``:
    the amount a test failed by, for per-point effects).

    Raises:
        tcgcore.EngineError: an op not in :data:`OPS`.
    """
    state = eng.state
    op = e.op
    inv = state.inv[seat] if 0 <= seat < len(state.inv) else None
    if op in ("doom_nearest_trait", "doom_each_trait"):  # A984.3, A983.4
        cands = _with_trait(state, e.trait)
        if not cands:
            if e.on_fail:
                run_effects(eng, seat, e.on_fail, source)
            return
        if op == "doom_nearest_trait":
            here = inv.location if inv is not None else -1
            dist = distances_from(state, here) if here >= 0 else {}
            best = min(dist.get(location_of(state, x), 99) for x in cands)
            cands = [x for x in cands if dist.get(location_of(state, x), 99) == best]
            if len(cands) > 1:  # the lead breaks the tie
                eng.ask(state.lead, "choose_enemy", "Which nearest Cultist gets the doom?",
                        [Option(key=f"card:{x}", label=dof(state, x).name, card=x)
                         for x in cands], resume=MidnightAnswer(op="doom", seat=seat,
                                                                amount=e.amount))
                return
        for x in cands:
            add_doom(eng, x, e.amount)
    elif op == "reveal_token":
        eng.push(RevealToken())
    elif op == "heal_self" and source >= 0:  # A984.5 "Wolf-Man" Drew
        c = state.cards[source].counters
        if c.get("damage", 0) > 0:
            eng.set_counter(source, "damage", max(0, c["damage"] - e.amount))
    elif op == "to_victory" and source >= 0:
        _to_victory(eng, seat, source)
    elif op == "discard_to_victory" and inv is not None:  # A984.6 Herman Collins
        hand = state.zones[Z_HAND[seat]].cards
        if len(hand) < e.amount:
            return
        run_effects(eng, seat, (Effect(op="to_victory"),), source)
        eng.ask(seat, "hand_size", f"Choose {e.amount} cards to discard",
                [Option(key=f"card:{c}", label=dof(state, c).name, card=c) for c in hand],
                min=e.amount, max=e.amount, resume=HandSizeAnswer(seats=[seat]))
    elif op == "clues_to_victory" and inv is not None:  # A984.6 Peter Warren
        if inv.clues < e.amount or clues_blocked(state, seat):
            return
        inv.clues -= e.amount
        eng.emit("clues_spent", player=seat, amount=e.amount)
        _to_victory(eng, seat, source)
    elif op == "draw_cultist":  # A983.2: the act's action
        spenders = _spenders(state)
        need = e.amount * state.num_players
        if sum(state.inv[s].clues for s in spenders) < need:
            return
        run_effects(eng, seat, (Effect(op="cultist_draw"),), source)
        first = seat if seat in spenders else spenders[0]
        _spend_group_clues(eng, first, need, [first] + [s for s in spenders if s != first])
    elif op == "cultist_draw":
        zone = state.zones.get(CULTIST_ZONE)
        if zone is None or not zone.cards or inv is None:
            return
        cid = zone.cards[0]
        eng.move(cid, "resolving", kind="encounter_drawn", data={"seat": seat})
        eng.push(ResolveEncounter(seat=seat, card=cid))
    elif op == "spawn_set_aside_prey":  # A983.1 The Masked Hunter
        cid = next((c for c in state.zones["setaside"].cards if state.cards[c].code == e.code), -1)
        seats = player_order(state)
        if cid < 0 or not seats:
            return
        cands = prey_filter(state, cid, seats)
        if len(cands) == 1:
            loc = state.inv[cands[0]].location
            eng.move(cid, Z_THREAT[cands[0]], kind="spawned", data={"location": loc})
            eng.emit("enemy_engaged", player=cands[0], card=cid)
            return
        eng.ask(state.lead, "engage_target", f"Which investigator does {dof(state, cid).name} "
                "engage?", [Option(key=f"inv:{s}", label=dof(state, state.inv[s].card).name)
                            for s in cands],
                resume=EngageAnswer(enemy=cid))
    elif op == "spend_clue_or_damage" and inv is not None:  # A984.7 Hunting Shadow
        if inv.clues > 0 and not clues_blocked(state, seat):
            run_effects(eng, seat, (Effect(
                op="choose", codes=("Spend 1 clue", f"Take {e.amount} damage"),
                on_success=(Effect(op="spend_clue", amount=1),),
                on_fail=(Effect(op="damage", amount=e.amount),)),), source)
        else:
            run_effects(eng, seat, (Effect(op="damage", amount=e.amount),), source)
    elif op == "spend_clue" and inv is not None:
        took = min(inv.clues, e.amount)
        inv.clues -= took
        if took:
            eng.emit("clues_spent", player=seat, amount=took)
    elif op == "false_lead" and inv is not None:  # A984.8
        if inv.clues == 0:  # it gains surge: the next card comes after it (A612.2)
            gain_surge(eng, seat, source)
            return
        eng.push(StartTest(test=SkillTest(
            seat=seat, skill=e.skill, difficulty=e.difficulty, kind="effect", source=source,
            on_fail=(Effect(op="clues_to_location", target="per_fail", amount=1),))))
    elif op == "clues_to_location" and inv is not None:  # False Lead, the Tablet token
        amount = inv.clues if e.amount < 0 else e.amount
        if e.target == "per_fail":
            amount = e.amount * margin
        amount = min(amount, inv.clues)
        if amount > 0 and inv.location >= 0:
            inv.clues -= amount
            eng.add_counter(inv.location, "clues", amount)
            eng.emit("clues_placed", player=seat, card=inv.location, amount=amount)
    elif op == "wings_of_darkness" and inv is not None:  # A985.2
        old = inv.location
        for eid in engaged_enemies(state, seat):
            if e.trait not in _traits(dof(state, eid)) and old >= 0:
                eng.move(eid, Z_AT[old], kind="disengaged")
        central = [x for x in state.zones["locations"].cards if e.code in _traits(dof(state, x))]
        if central and central[0] != old:
            enter_location(eng, seat, central[0])
        elif old >= 0:
            for eid in state.zones[Z_AT[old]].cards:
                if is_enemy(state, eid):
                    eng.push(EngageCheck(enemy=eid))
    elif op == "attach_most_clues" and source >= 0:  # A985.3 Locked Door
        code = state.cards[source].code
        free = [x for x in state.zones["locations"].cards
                if not any(state.cards[c].code == code for c in state.zones[Z_AT[x]].cards)]
        if free:
            most = max(state.cards[x].counters.get("clues", 0) for x in free)
            tied = [x for x in free if state.cards[x].counters.get("clues", 0) == most]
            if len(tied) == 1:
                eng.move(source, Z_AT[tied[0]], kind="attached")
                return
            eng.ask(state.lead, "spawn_location", f"Where does {dof(state, source).name} go?",
                    [Option(key=f"card:{x}", label=dof(state, x).name, card=x) for x in tied],
                    resume=MidnightAnswer(op="attach", seat=seat, source=source))
    elif op == "move_to" and inv is not None:  # the Graveyard
        loc = location_by_code(state, e.code)
        if loc >= 0 and loc != inv.location:
            enter_location(eng, seat, loc)
    elif op == "gain_clues" and inv is not None:  # Northside: from the token pool
        inv.clues += e.amount
        eng.emit("clues_gained", player=seat, amount=e.amount)
    elif op == "search_top_any" and inv is not None:  # Miskatonic University
        deck = state.zones[Z_DECK[seat]].cards
        top = list(deck[:e.amount])
        found = [c for c in top if set(e.codes) & set(_traits(dof(state, c)))
                 and not dof(state, c).is_weakness()]
        eng.emit("looked", player=seat, amount=len(top))
        search_pick(eng, seat, found, "hand")  # the investigator chooses
    elif op == "enemies_forced":  # A982.3 (Wizard of the Order)
        enemies_forced(eng, e.code)
    elif op == "spawn_redirect":
        return  # a constant read by rules._spawn (spawn_redirect)
    else:
        raise tcgcore.EngineError(f"arkham_card: unknown effect op {op!r}")


def _midnight_answer(eng: Eng, step: MidnightAnswer) -> None:
    """The lead's tie-break: doom on the chosen enemy, or the attachment placed."""
    cid = int(eng.answer[0].split(":")[1])
    if step.op == "doom":
        add_doom(eng, cid, step.amount)
    elif step.op == "attach" and eng.state.cards[step.source].zone == "resolving":
        eng.move(step.source, Z_AT[cid], kind="attached")


def _to_victory(eng: Eng, seat: int, cid: int) -> None:
    """Add an enemy in play to the victory display (A984.6), then check the objective."""
    state = eng.state
    if not state.cards[cid].zone.startswith(("at.", "threat.")):
        return
    eng.move(cid, "victory", kind="to_victory", data={"seat": seat})
    check_objective(eng)


# ---------------------------------------------------------------------------- results


def write_log(state: ArkhamState, resolution: str) -> None:
    """A985.5: the campaign-log output of The Midnight Masks (idempotent).

    ``state.log_out`` gets ``"cultists we interrogated: <code>"`` for each unique Cultist
    enemy in the victory display and ``"cultists who got away: <code>"`` for each one
    still in play or in the Cultist deck, plus The Masked Hunter (``01121b``) while
    agenda 1 is current (R1 and no resolution); R2 adds ``"it is past midnight"``. The
    Ghoul Priest in the victory display crosses out ``"the Ghoul Priest is still alive"``.
    """
    if state.scenario != SCENARIO:
        return
    caught = unique_trait_in_victory(state, "Cultist")
    out: list[str] = [INTERROGATED + c for c in caught]
    away: set[str] = set()
    for eid in _enemies_in_play(state):
        d = dof(state, eid)
        if d.is_unique and "Cultist" in _traits(d):
            away.add(d.code)
    zone = state.zones.get(CULTIST_ZONE)
    if zone is not None:
        away.update(state.cards[c].code for c in zone.cards)
    ag = current_agenda(state)
    if resolution != "R2" and ag >= 0 and state.cards[ag].code == "01121" and \
            HUNTER not in caught:
        away.add(HUNTER)
    out += [GOT_AWAY + c for c in sorted(away)]
    if resolution == "R2":
        out.append(MIDNIGHT)
    for entry in out:
        if entry not in state.log_out:
            state.log_out.append(entry)
    if any(state.cards[c].code == _GHOUL_PRIEST for c in state.zones["victory"].cards) and \
            PRIEST_ALIVE not in state.cross_out:
        state.cross_out.append(PRIEST_ALIVE)


def register(spec: tcgcore.GameSpec[ArkhamState]) -> None:
    """Register this module's step handlers on ``spec`` (:func:`.plugin.build_spec` calls it
    once, on the spec it builds)."""
    spec.handles(MidnightAnswer)(_midnight_answer)


#: The Midnight Masks' hooks into the generic rules (:mod:`.scenario_hooks`).
MIDNIGHT_MASKS: Final = Scenario(code=SCENARIO, name="The Midnight Masks", setup=setup_midnight,
                                 write_log=write_log, ops=OPS, effect=scenario_op)
