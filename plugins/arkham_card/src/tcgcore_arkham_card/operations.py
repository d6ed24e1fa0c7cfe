"""The shared state changes of the arkham_card rules: drawing, revealing and entering
locations, doom, discarding, clues, surge, spawning and engaging, act objectives, enemies'
forced abilities at a moment and readying at the end of a turn, the end of the scenario.

Above :mod:`.queries` and :mod:`.scenario_hooks` (beside :mod:`.abilities`), below every
step-handling module. Scenario rules reach in only through
:func:`.scenario_hooks.scenario_of` (a revealed location, the campaign-log output at the
end).
"""

from __future__ import annotations

from typing import Any, Final

import tcgcore
from tcgcore import Option

from .cards import CardDef, Effect, load_scenario
from .queries import (
    _PLAY_ZONE_PREFIXES,
    _POOL,
    ENEMY_CODES,
    ENEMY_ZONE_PREFIXES,
    FORCED_CODES,
    Z_AT,
    Z_DECK,
    Z_DISCARD,
    Z_HAND,
    Z_PLAY,
    Z_THREAT,
    Eng,
    _in_play_with,
    agenda_threshold,
    barricaded,
    can_enter,
    cdef,
    clues_blocked,
    current_act,
    dof,
    doom_in_play,
    enemies_at,
    is_enemy,
    is_player_card,
    keyword_codes,
    player_order,
    printed,
    rebuild_adjacency,
    unique_trait_in_victory,
    zone_ids,
)
from .scenario_hooks import (
    scenario_of,
)
from .state import (
    AdvanceAct,
    ArkhamState,
    DiscoverClues,
    DrawEncounter,
    Effects,
    EngageCheck,
    Harm,
    ResolveEncounter,
    SpendCluesAnswer,
)

#: Codes of the pool's weaknesses (the printed subtype, which a blank text box keeps).
_WEAKNESS_CODES: Final = frozenset(code for code, d in _POOL.items() if d.is_weakness())


def draw_cards(eng: Eng, seat: int, count: int) -> None:
    """Draw ``count`` cards; an empty deck is reset from the discard pile and the
    investigator takes 1 horror after the whole draw (A907.1, A907.2)."""
    state = eng.state
    deck = state.zones[Z_DECK[seat]]
    emptied = False
    drawn: list[int] = []
    for _ in range(count):
        if not deck.cards:
            discard = state.zones[Z_DISCARD[seat]]
            emptied = True
            if not discard.cards:
                break
            for cid in list(discard.cards):
                eng.move(cid, Z_DECK[seat])
            eng.shuffle(Z_DECK[seat])
            eng.emit("deck_reset", player=seat)
        cid = deck.cards[0]
        eng.move(cid, Z_HAND[seat], kind="drawn")
        drawn.append(cid)
    if emptied:
        eng.push(Harm(seat=seat, horror=1))
    # weaknesses drawn take effect at once (A208.2); pushed so they resolve after the draw
    cards = state.cards
    weak = None if state.extra_defs else _WEAKNESS_CODES  # a blank text box keeps it
    for cid in reversed(drawn):
        if weak is not None and cards[cid].code not in weak:
            continue
        d = dof(state, cid)
        if d.is_weakness() and (d.type_code in ("treachery", "enemy") or d.revelation):
            eng.push(ResolveEncounter(seat=seat, card=cid))


def place_clues(eng: Eng, loc: int) -> None:
    """Put a location's printed clues on it (per investigator unless fixed, A211.4)."""
    state = eng.state
    d = dof(state, loc)
    if d.clues:
        n = d.clues if d.clues_fixed else d.clues * state.num_players
        eng.add_counter(loc, "clues", n)


def reveal_location(eng: Eng, loc: int) -> None:
    """Reveal a location and place its clues, once (A211.2–A211.4)."""
    state = eng.state
    if state.cards[loc].counters.get("revealed", 0):
        return
    eng.set_counter(loc, "revealed", 1)
    scenario_of(eng).location_revealed(eng, loc)  # A991.2: which Woods it is, decided now
    place_clues(eng, loc)
    if dof(state, loc).unrevealed_symbol:
        rebuild_adjacency(state)  # its revealed side links differently (A992.1)
    card = state.cards[loc]  # re-read: identify_woods and place_clues replaced it
    eng.emit("location_revealed", card=loc, code=card.code,
             amount=card.counters.get("clues", 0))


def engage_unengaged_at(eng: Eng, loc: int) -> None:
    """Give every enemy at ``loc`` that is engaged with nobody the engagement check (A602.1):
    after an effect disengaged it and the investigator stayed (Elusive with nowhere to go,
    a cancelled move, Cat Burglar's "stay")."""
    state = eng.state
    eng.push(*(EngageCheck(enemy=x) for x in enemies_at(state, loc)
               if not state.cards[x].zone.startswith("threat.")))


def enter_location(eng: Eng, seat: int, loc: int, *, reveal: bool = True) -> None:
    """Put an investigator at ``loc`` (engaged enemies come along, A603.1), reveal it,
    emit ``entered`` (forced "after you enter" abilities) and check engagement (A602.1)
    at the new location and at the one left: ready enemies an effect disengaged there
    (Elusive, Survival Instinct, On Wings of Darkness) engage who is still there."""
    state = eng.state
    inv = state.inv[seat]
    left = inv.location
    inv.location = loc
    if left >= 0 and left != loc:  # Barricade: discarded when an investigator leaves
        for cid in list(state.zones[Z_AT[left]].cards):
            if "barricade" in dof(state, cid).keywords:
                discard_card(eng, cid)
            elif not state.cards[cid].exhausted and is_enemy(state, cid):
                eng.push(EngageCheck(enemy=cid))  # A602.5 (runs after the new location's)
    if reveal:
        reveal_location(eng, loc)
    eng.emit("entered", player=seat, card=loc, code=state.cards[loc].code)
    for eid in state.zones[Z_AT[loc]].cards:
        if is_enemy(state, eid):
            eng.push(EngageCheck(enemy=eid))


def add_doom(eng: Eng, cid: int, amount: int) -> int:
    """Place ``amount`` doom on card ``cid`` and emit ``doom_placed``; returns the doom
    now in play (:func:`doom_in_play`, A402.2), which the event also carries."""
    state = eng.state
    eng.add_counter(cid, "doom", amount)
    in_play = doom_in_play(state)
    eng.emit("doom_placed", card=cid, code=state.cards[cid].code, amount=amount,
             data={"in_play": in_play, "threshold": agenda_threshold(state)})
    return in_play


def cannot_leave_play(state: ArkhamState, cid: int) -> bool:
    """The Necronomicon (A974.2): it cannot leave play while it has horror on it."""
    return state.cards[cid].counters.get("horror", 0) > 0 and \
        "necronomicon" in dof(state, cid).keywords and \
        state.cards[cid].zone.startswith(_PLAY_ZONE_PREFIXES)


def _amulet_takes(state: ArkhamState, card: Any, d: CardDef) -> bool:
    """Wendy's Amulet (A975.13): an event of its controller discarded from play goes to
    the bottom of their deck."""
    return d.type_code == "event" and card.zone.startswith(_PLAY_ZONE_PREFIXES) and \
        0 <= card.owner < len(state.inv) and any(
            "amulet_events" in dof(state, c).keywords for c in state.zones[Z_PLAY[card.owner]].cards)


def discard_card(eng: Eng, cid: int, *, defeated: bool = False,
                 eliminated: bool = False) -> None:
    """Send a card that leaves play to the discard pile it belongs in (A208.3, A615.2);
    The Necronomicon with horror on it stays (A974.2), unless its investigator is
    eliminated (``eliminated``, A705.7), and an event Wendy's Amulet takes goes under its
    owner's deck (A975.13)."""
    state = eng.state
    card = state.cards[cid]
    d = printed(state, cid)  # type, weakness, victory: kept by a blank text box
    if d.type_code == "asset" and not eliminated and cannot_leave_play(state, cid):
        eng.emit("cannot_leave_play", card=cid, code=card.code)
        return
    if d.type_code == "event" and _amulet_takes(state, card, d):
        eng.move(cid, Z_DECK[card.owner], kind="to_deck_bottom")
        return
    if cid in state.auras:
        state.auras.remove(cid)
    if d.type_code in ("enemy", "treachery") and not d.is_weakness():
        if defeated and d.victory is not None and d.type_code == "enemy":
            eng.move(cid, "victory", kind="to_victory")
        else:
            eng.move(cid, "encounter_discard", kind="discarded")
    elif is_player_card(d):
        eng.move(cid, Z_DISCARD[card.owner], kind="discarded")
    else:
        eng.move(cid, "out", kind="removed")


def gain_clues(eng: Eng, seat: int, amount: int) -> None:
    """Discover ``amount`` clues at the investigator's location (A109.3)."""
    state = eng.state
    inv = state.inv[seat]
    if inv.location < 0:
        return
    got = min(amount, state.cards[inv.location].counters.get("clues", 0))
    if got <= 0 or clues_blocked(state, seat):  # The Masked Hunter (A984.2)
        return
    for cid in state.zones[Z_THREAT[seat]].cards:
        cc = state.cards[cid].counters
        if cc.get("clues", 0) > 0 and "cover_up" in dof(state, cid).keywords:
            # Cover Up's reaction: "when you would discover clues" (A974.1), declinable
            ev = eng.emit("clues_would_discover", player=seat, card=cid, amount=got)
            eng.push(DiscoverClues(seat=seat, amount=got, cover=cid, event=ev.seq))
            return
    _discover(eng, seat, got)


def _discover(eng: Eng, seat: int, got: int) -> None:
    """Move ``got`` clues from the investigator's location onto them (A109.3)."""
    state = eng.state
    inv = state.inv[seat]
    eng.add_counter(inv.location, "clues", -got)
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
        _game_end_weaknesses(state, s)
    _extra_trauma_detail(state, detail)
    _summary_detail(eng, detail)
    if outcome == "win":
        eng.end(winners=seats, reason="resolution", detail=detail)
    else:
        eng.end(losers=seats, reason="resolution", detail=detail)


def _summary_detail(eng: Eng, detail: dict[str, tcgcore.Scalar]) -> None:
    """Result facts for people and ``tcgcore simulate``: the experience each investigator
    earns (victory display + the resolution's bonus), the campaign-log entries (with the
    scenario's own output, :attr:`.scenario_hooks.Scenario.write_log`), the team and, per
    investigator name, the resolution (string values are tabulated)."""
    state = eng.state
    res = str(detail.get("resolution", ""))
    names = [cdef(state, i.code).name for i in state.inv]
    detail["team"] = " + ".join(names)
    for name in names:
        detail[name] = res
    if state.scenario in ("", "description"):
        return
    scenario_of(eng).write_log(state, res)  # A985.5
    try:
        sdef = load_scenario(state.scenario)
    except tcgcore.CardDataError:  # pragma: no cover - scenarios come from data files
        return
    victory = int(detail.get("victory", 0) or 0)
    if res in sdef.xp_bonus:
        detail["xp"] = victory + sdef.xp_bonus[res]
        if sdef.lead_xp_bonus.get(res):
            detail["xp_lead_bonus"] = sdef.lead_xp_bonus[res]
    entries = list(sdef.log.get(res, ())) + [e for e in state.log_out
                                              if e not in sdef.log.get(res, ())]
    if entries:
        detail["log"] = "; ".join(entries)
    if state.cross_out:
        detail["cross_out"] = "; ".join(state.cross_out)
    if state.chaos_add_out:
        detail["chaos_add"] = ",".join(state.chaos_add_out)
    per: dict[str, list[str]] = {}
    for item in state.deck_add:
        seat, _, code = item.partition(":")
        per.setdefault(seat, []).append(code)
    for seat, codes in per.items():
        detail[f"deck_add{seat}"] = ",".join(codes)


def _game_end_weaknesses(state: ArkhamState, seat: int) -> None:
    """"When the game ends" weaknesses still in the threat area: Cover Up (mental trauma
    while clues remain on it) and Hospital Debts (2 less experience under 6 resources)."""
    for cid in state.zones[Z_THREAT[seat]].cards:
        d = dof(state, cid)
        fx = d.forced.get("game_end")
        if not fx or not d.is_weakness() or not _game_end_applies(state, cid):
            continue
        for e in fx:
            if e.op == "suffer_trauma":
                state.extra_trauma.append(f"{seat}:{e.code}")
            elif e.op == "xp":
                state.extra_trauma.append(f"{seat}:xp{e.amount:+d}")


def _game_end_applies(state: ArkhamState, cid: int) -> bool:
    """Conditions of "when the game ends" weaknesses: Cover Up only while clues remain on
    it, Hospital Debts only while it holds fewer than 6 resources."""
    d = dof(state, cid)
    counters = state.cards[cid].counters
    if "cover_up" in d.keywords:
        return counters.get("clues", 0) > 0
    if d.code == "01011":
        return counters.get("resources", 0) < 6
    return True


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


def end_phase_limits(state: ArkhamState) -> None:
    """A phase ends: drop what lasts "until the end of the phase" (limit keys ending in
    ``:phase``, e.g. Encyclopedia's skill bonus, A978.3) and group limits ``_phase``."""
    for inv in state.inv:
        if inv.limits:
            inv.limits = {k: v for k, v in inv.limits.items() if not k.endswith(":phase")}
    if state.group_limits:
        state.group_limits = {k: v for k, v in state.group_limits.items()
                              if not k.endswith(("_phase", ":phase"))}


def _refill_encounter(eng: Eng) -> None:
    """A908.1: an empty encounter deck is reshuffled from its discard pile."""
    state = eng.state
    if not state.zones["encounter"].cards and state.zones["encounter_discard"].cards:
        for cid in list(state.zones["encounter_discard"].cards):
            eng.move(cid, "encounter")
        eng.shuffle("encounter")
        eng.emit("encounter_reshuffled")


#: Effect ops with which a card can gain surge while it resolves (A612.2).
_SURGE_OPS: Final = frozenset({"surge", "false_lead"})


def _may_gain_surge(effects: tuple[Effect, ...]) -> bool:
    """Whether ``effects`` (a revelation, nested results included) can gain surge."""
    for e in effects:
        if e.op in _SURGE_OPS or _may_gain_surge(e.on_success) or _may_gain_surge(e.on_fail):
            return True
    return False


def gain_surge(eng: Eng, seat: int, source: int) -> None:
    """An encounter card gains surge (False Lead, the ``surge`` op): while ``source`` is
    resolving, the drawer draws the next card only after it has finished resolving and
    left play (A612.2, through :class:`GainedSurge`); otherwise at once."""
    state = eng.state
    eng.emit("surge", player=seat, card=source)
    if source >= 0 and state.cards[source].zone == "resolving" and seat >= 0:
        state.inv[seat].limits[f"surge:{source}"] = 1
        return
    eng.push(DrawEncounter(seat=seat))


def _spawn_at_location(eng: Eng, eid: int, loc: int) -> None:
    eng.move(eid, Z_AT[loc], kind="spawned", data={"location": loc})
    eng.push(EngageCheck(enemy=eid))
    after = dof(eng.state, eid).forced.get("after_spawn")
    if after:  # "after it enters play" (Acolyte, A982.2)
        eng.push(Effects(seat=eng.state.lead, effects=after, source=eid))
    _enemy_entered(eng, eid, loc)  # A601.5: spawning there is entering it


def _enemy_entered(eng: Eng, eid: int, loc: int) -> None:
    """Announce that an enemy entered a location (forced "enemy_enters" abilities)."""
    eng.emit("enemy_entered", card=loc, code=eng.state.cards[loc].code,
             data={"enemy": eid})


def _engage(eng: Eng, eid: int, seat: int) -> None:
    if eng.state.cards[eid].zone == Z_THREAT[seat]:
        return
    eng.move(eid, Z_THREAT[seat], kind="engaged")
    eng.emit("enemy_engaged", player=seat, card=eid)


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


#: End of the mythos phase: forced abilities of enemies in play (A982.3).
_MYTHOS_END: Final = (Effect(op="enemies_forced", code="mythos_end"),)


def _enemy_enters(eng: Eng, eid: int, loc: int) -> None:
    state = eng.state
    if not can_enter(state, loc) or barricaded(state, eid, loc):
        return  # A605.6, A975.12
    eng.move(eid, Z_AT[loc], kind="enemy_moved", data={"location": loc})
    eng.push(EngageCheck(enemy=eid))  # A602.1
    _enemy_entered(eng, eid, loc)


def _agenda_forced(state: ArkhamState, when: str) -> list[tcgcore.Step]:
    """Forced abilities of the current agenda and act for a timing point (RR step 3.4, A418.5)."""
    out: list[tcgcore.Step] = []
    zones = state.zones
    cards = state.cards
    forced = None if state.extra_defs else FORCED_CODES  # cards without any: skipped
    for z in ("agendas", "acts"):  # the current agenda, then the current act
        top = zones[z].cards
        if top:
            cid = top[0]
            if forced is not None and cards[cid].code not in forced:
                continue
            effects = dof(state, cid).forced.get(when)
            if effects:
                out.append(Effects(seat=state.lead, effects=effects, source=cid))
    return out


#: Seat recorded as owner of scenario (encounter) cards: the core needs a seat; the rules
#: tell encounter cards from player cards by type (see ``rules.is_player_card``).
SCENARIO_OWNER: Final = 0


def _add_location(eng: Eng, code: str, zone: str) -> int:
    card = eng.add_card(code, SCENARIO_OWNER, zone)
    eng.add_zone(f"at.{card.id}", "area", ordered=False)
    return card.id


def check_objective(eng: Eng) -> None:
    """A983.3: an act objective ``victory_unique_trait:<Trait>:<N>`` advances the act
    once N different unique enemies with the trait are in the victory display."""
    state = eng.state
    act = current_act(state)
    if act < 0:
        return
    obj = dof(state, act).objective
    if not obj.startswith("victory_unique_trait:"):
        return
    _, trait, count = obj.split(":")
    if len(unique_trait_in_victory(state, trait)) >= int(count):
        eng.push(AdvanceAct())


def ready_at_turn_end(eng: Eng) -> None:
    """At the end of each investigator's turn, enemies with ``ready_turn_end`` ready
    (Umôrdhoth, A994.6)."""
    state = eng.state
    cards = state.cards
    codes = None if state.extra_defs else keyword_codes("ready_turn_end")
    if codes is not None and not codes:
        return
    exhausted: list[int] = []  # usually none: look first (plain loops, no generator)
    zones = state.zones
    for zid in zone_ids(state, ENEMY_ZONE_PREFIXES):
        for c in zones[zid].cards:
            if cards[c].exhausted and (codes is None or cards[c].code in codes):
                exhausted.append(c)
    exhausted.sort()
    for eid in exhausted:
        card = cards[eid]
        if card.exhausted and is_enemy(state, eid) and \
                "ready_turn_end" in dof(state, eid).keywords:
            eng.update_card(eid, exhausted=False)
            eng.emit("enemy_readied", card=eid, code=card.code)


#: Codes of the pool's enemies with a forced ability (a blank text box only removes them).
_FORCED_ENEMY_CODES: Final = ENEMY_CODES & FORCED_CODES


def enemies_forced(eng: Eng, when: str) -> None:
    """Op ``enemies_forced`` (A982.3, Wizard of the Order): the forced abilities ``when``
    (e.g. ``mythos_end``) of every enemy in play, in card id order, for the lead."""
    state = eng.state
    steps: list[tcgcore.Step] = []
    # enemies without any forced ability are skipped by code (only pool cards have one)
    for eid in _in_play_with(state, None if state.extra_defs else _FORCED_ENEMY_CODES):
        fx = dof(state, eid).forced.get(when)
        if fx:
            steps.append(Effects(seat=state.lead, effects=fx, source=eid))
    if steps:
        eng.push(*steps)
