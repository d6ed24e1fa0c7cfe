"""The effect language (:class:`~tcgcore_arkham_card.cards.Effect` ops) of card and
scenario data, including the core player cards' ops.

Part of the rules engine (layers in ``docs/architecture.md``): imports the shared
:mod:`.queries`, :mod:`.abilities` and :mod:`.operations`; :func:`register` puts the step
handlers on the spec :func:`.plugin.build_spec` builds.
"""

from __future__ import annotations

from typing import Final

import tcgcore
from tcgcore import Option

from .abilities import (
    _unique_blocked,
)
from .actions import (
    _ask_enemy,
)
from .card_choices import choice_effect, non_elite_here, search_pick
from .cards import Effect
from .operations import (
    _enemy_enters,
    _refill_encounter,
    add_doom,
    cannot_leave_play,
    discard_card,
    end_with,
    enemies_forced,
    enter_location,
    gain_clues,
    gain_surge,
    reveal_location,
    run_effects,
)
from .queries import (
    _PLAY_ZONE_PREFIXES,
    GAME,
    Z_AT,
    Z_DECK,
    Z_DISCARD,
    Z_HAND,
    Z_PLAY,
    Z_THREAT,
    Eng,
    _traits,
    agenda_threshold,
    can_enter,
    can_investigate,
    current_act,
    current_agenda,
    distances_from,
    dof,
    enemies_at,
    engaged_enemies,
    engaged_seat,
    is_enemy,
    location_by_code,
    location_of,
    name_of,
    player_order,
    rebuild_adjacency,
    register_aura,
    shroud,
)
from .scenario_hooks import (
    op_scenario,
)
from .state import (
    AdvanceAgenda,
    ArkhamState,
    AssetDiscardAnswer,
    AttacksOfOpportunity,
    CheckDefeat,
    ChooseAnswer,
    ChooseEnemyAnswer,
    DamageEnemy,
    DoDraw,
    DrawEncounter,
    Effects,
    Eliminate,
    EngageCheck,
    Harm,
    ResolveEncounter,
    SkillTest,
    StartTest,
)

# ============================================================================ effects


def _effects(eng: Eng, step: Effects) -> None:
    """Resolve the first effect, then the rest (anything the first pushes runs first)."""
    state = eng.state
    if not step.effects:
        return
    first, rest = step.effects[0], step.effects[1:]
    if rest:
        eng.push(Effects(seat=step.seat, effects=rest, source=step.source, margin=step.margin))
    seat = step.seat
    if seat >= 0 and state.inv[seat].status and first.op not in (  # not playing (A705.9)
            "resolution", "put_into_play", "move_all_to", "spawn_set_aside", "remove_location",
            "doom_agenda", "suffer_trauma", "xp", "resolution_by_act", "kill_unresigned",
            "discard_until_trait", "move_trait_toward", "doom_per_trait_at", "choose",
            "discard_enemies_at", "discard_random"):
        return
    _one_effect(eng, seat, first, step.source, step.margin)


def _one_effect(eng: Eng, seat: int, e: Effect, source: int, margin: int) -> None:
    state = eng.state
    op = e.op
    target = e.target
    if not target:  # the usual case: the effect's own seat
        targets = [seat]
    else:
        if target.startswith("seat:"):  # an investigator chosen by the card (A975.11)
            seat = int(target[5:])
        elif target == "active" and state.turn_seat >= 0:  # Police Badge (A978.4)
            seat = state.turn_seat
        targets = [seat]
        if target == "each":
            targets = player_order(state)
        elif target == "lead":
            targets = [state.lead]
    if op == "gain_resources":  # the most frequent (every upkeep and resource action)
        for s in targets:
            state.inv[s].resources += e.amount
            eng.emit("resource_gained", player=s, amount=e.amount)
    elif op == "enemies_forced":  # every mythos phase (A982.3)
        enemies_forced(eng, e.code)
    elif op in ("damage", "horror", "direct_damage", "direct_horror"):
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
            in_play = add_doom(eng, ag, e.amount)
            if e.can_advance and in_play >= agenda_threshold(state):
                eng.push(AdvanceAgenda())  # A802.2
    elif op == "doom_self" and source >= 0:
        add_doom(eng, source, e.amount)
    elif op == "lose_resources":
        for s in targets:
            state.inv[s].resources = max(0, state.inv[s].resources - e.amount)
    elif op == "draw_cards":
        amount = e.amount
        if e.trait:  # Daisy Walker's elder sign: 1 card per Tome you control
            amount *= sum(1 for c in state.zones[Z_PLAY[seat]].cards
                          if e.trait in _traits(dof(state, c)))
        if amount > 0:
            for s in reversed(targets):
                eng.push(DoDraw(seat=s, count=amount))
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
        if can_investigate(state, loc):  # A985.3
            eng.push(StartTest(test=SkillTest(seat=seat, skill="intellect",
                                              difficulty=shroud(state, loc),
                                              kind="investigate", target=loc, source=source)))
            if op == "take_investigate" and engaged_enemies(state, seat):
                eng.push(AttacksOfOpportunity(seat=seat))  # A416.7: taking provokes
    elif op == "damage_enemy":
        targets_e = enemies_at(state, state.inv[seat].location)
        if e.target == "exhausted":  # Sneak Attack
            targets_e = [x for x in targets_e if state.cards[x].exhausted]
        _ask_enemy(eng, seat, targets_e, ChooseEnemyAnswer(seat=seat, amount=e.amount))
    elif op == "evaded":
        _evade_enemy(eng, seat, e.amount)
    elif op == "auto_evade":
        evade = engaged_enemies(state, seat)
        if e.target == "location":  # Cunning Distraction: each enemy at your location
            evade = [x for x in enemies_at(state, state.inv[seat].location)
                     if not state.cards[x].exhausted or engaged_seat(state, x) >= 0]
        elif e.target == "one_non_elite":  # Stray Cat
            evade = [x for x in evade if "Elite" not in _traits(dof(state, x))][:1]
        for eid in evade:  # A412.3: no test, not "successful"
            loc = location_of(state, eid)
            if not state.cards[eid].zone.startswith("at."):
                eng.move(eid, Z_AT[loc], kind="disengaged")
            eng.update_card(eid, exhausted=True)
            # Ruth Turner's forced "after evaded" (A984.4) is collected as a forced
            # trigger of this event, so it resolves before reactions such as Close Call
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
        prompt = f"{name_of(state, source)}: choose one" if source >= 0 else "Choose one"
        eng.ask(who, "choose_effect", prompt, [Option(key="a", label=labels[0]),
                                                     Option(key="b", label=labels[1])],
                resume=ChooseAnswer(seat=who, a=e.on_success, b=e.on_fail, source=source))
    elif op == "discard_random":
        for s in targets:
            hand = state.zones[Z_HAND[s]].cards
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
                for eid in list(state.zones[Z_AT[loc]].cards):
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
    elif op == "discard_asset_or_damage":  # Crypt Chill: an asset you control, in play or
        # in your threat area, that can leave play (The Necronomicon with horror cannot)
        assets = [c for c in (*state.zones[Z_PLAY[seat]].cards, *state.zones[Z_THREAT[seat]].cards)
                  if c != state.inv[seat].card and dof(state, c).type_code == "asset"
                  and not cannot_leave_play(state, c)]
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
                eng.move(cid, Z_PLAY[seat], kind="entered_play", controller=seat)
                register_aura(state, cid)
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
                eng.move(cid, Z_AT[loc], kind="spawned", data={"location": loc})
                eng.push(EngageCheck(enemy=cid))
                break
    elif op == "remove_location":
        loc = location_by_code(state, e.code)
        if loc >= 0:
            for cid in list(state.zones[Z_AT[loc]].cards):
                discard_card(eng, cid)
            eng.move(loc, "out", kind="removed")
            rebuild_adjacency(state)
    elif op == "threat_area":
        if source >= 0 and state.cards[source].zone == "resolving":
            eng.move(source, Z_THREAT[seat], kind="threat_area")
            bonus = dof(state, source).bonus
            if "sanity" in bonus or "health" in bonus:
                # Dreams of R'lyeh (A994.7): a lower sanity can defeat at once (A703.2)
                eng.push(CheckDefeat(seat=seat))
    elif op == "attach_location":
        loc = state.inv[seat].location
        if source >= 0 and loc >= 0 and not any(
                state.cards[c].code == state.cards[source].code
                for c in state.zones[Z_AT[loc]].cards):  # limit 1 per location
            eng.move(source, Z_AT[loc], kind="attached")
    elif op == "discard_self":
        if source >= 0 and state.cards[source].zone.startswith(_PLAY_ZONE_PREFIXES):
            discard_card(eng, source)
    elif op == "surge":  # gained while resolving: drawn after the card leaves (A612.2)
        gain_surge(eng, seat, source)
    elif op == "draw_encounter":
        eng.push(DrawEncounter(seat=seat))
    elif op in _PLAYER_OPS:
        _player_effect(eng, seat, e, source)
    elif choice_effect(eng, seat, e, source):  # choices of player cards (A975.11, A975.14)
        pass
    else:  # the ops of a scenario's cards (A981-A985, A991-A995)
        sc = op_scenario(eng, op)
        if sc is None:  # pragma: no cover - data validated by tests
            raise tcgcore.EngineError(f"{GAME}: unknown effect op {op!r}")
        sc.effect(eng, seat, e, source, margin)


_PLAYER_OPS: Final = frozenset({"gain_actions", "counter_self", "flag", "search_top",
                         "search_deck", "look_top", "cancel_revelation",
                         "damage_target", "recover_item", "discard_hand_but", "remove_discard",
                         "attack_bonus", "add_uses", "harm_self", "discard_enemy_here",
                         "skill_bonus", "shuffle_enemy_back", "return_to_hand",
                         "flip_negative"})


def _take_from_deck(eng: Eng, seat: int, cards: list[int], trait: str, kind: str) -> None:
    """The investigator draws a card of ``cards`` with ``trait`` (any card without one;
    weaknesses never; of type ``kind`` when given), choosing among several, then
    shuffles the deck (:func:`.card_choices.search_pick`)."""
    state = eng.state
    found = []
    for cid in cards:
        d = dof(state, cid)
        if d.is_weakness() or (trait and trait not in _traits(d)):
            continue
        if kind and d.type_code != kind:
            continue
        found.append(cid)
    search_pick(eng, seat, found, "hand")


def _player_effect(eng: Eng, seat: int, e: Effect, source: int) -> None:
    """Effect ops of the core player cards (see ``docs/arkham_card/scenario-format.md``)."""
    state = eng.state
    op = e.op
    inv = state.inv[seat]
    if op == "gain_actions":
        inv.actions += e.amount
        eng.emit("actions_gained", player=seat, amount=e.amount)
    elif op == "counter_self" and source >= 0:
        counters = state.cards[source].counters
        counters = eng.set_counter(source, e.code,
                                   max(0, counters.get(e.code, 0) + e.amount)).counters
        if e.amount < 0 and counters[e.code] == 0:  # The Necronomicon: empty -> discard
            discard_card(eng, source)
    elif op == "flag":
        inv.limits[f"flag:{e.code}:{e.target or 'round'}"] = 1
        eng.emit("flag", player=seat, data={"flag": e.code})
    elif op == "search_top":
        _take_from_deck(eng, seat, list(state.zones[Z_DECK[seat]].cards[:e.amount]), e.trait,
                        "")
    elif op == "search_deck":
        _take_from_deck(eng, seat, list(state.zones[Z_DECK[seat]].cards), e.trait, "asset")
    elif op == "look_top":
        eng.emit("looked", player=seat, amount=min(e.amount,
                                                   len(state.zones[Z_DECK[seat]].cards)))
    elif op == "damage_target":
        test = state.test
        if test is not None and test.target >= 0 and is_enemy(state, test.target):
            eng.push(DamageEnemy(enemy=test.target, amount=e.amount, seat=seat))
    elif op == "recover_item":  # Scavenging
        for cid in reversed(state.zones[Z_DISCARD[seat]].cards):
            if "Item" in _traits(dof(state, cid)):
                eng.move(cid, Z_HAND[seat], kind="returned")
                break
    elif op == "discard_hand_but":  # Amnesia: keep the most expensive card
        hand = list(state.zones[Z_HAND[seat]].cards)
        if len(hand) > e.amount:
            keep = sorted(hand, key=lambda c: (-(dof(state, c).cost or 0), c))[:e.amount]
            for cid in hand:
                if cid not in keep:
                    discard_card(eng, cid)
    elif op == "remove_discard":  # Abandoned and Alone
        for cid in list(state.zones[Z_DISCARD[seat]].cards):
            eng.move(cid, "removed", kind="removed")
    else:
        _xp_card_effect(eng, seat, e, source)


def _xp_card_effect(eng: Eng, seat: int, e: Effect, source: int) -> None:
    """Effect ops of the core experience cards (A978)."""
    state = eng.state
    op = e.op
    inv = state.inv[seat]
    if op == "add_uses":  # Extra Ammunition (Firearm), Book of Shadows (Spell)
        for cid in state.zones[Z_PLAY[seat]].cards:
            d = dof(state, cid)
            if d.uses is not None and e.trait in _traits(d):
                eng.add_counter(cid, "uses", e.amount)
                eng.emit("uses_added", player=seat, card=cid, amount=e.amount)
                break
    elif op == "harm_self" and source >= 0:  # Beat Cop (2): 1 damage on itself
        counters = eng.add_counter(source, "damage", e.amount).counters
        health = dof(state, source).health
        if health is not None and counters["damage"] >= health:
            discard_card(eng, source)
    elif op == "discard_enemy_here":  # Disc of Itzamna
        found = non_elite_here(eng, seat)
        if found:
            discard_card(eng, found[0])
    elif op == "skill_bonus":  # Encyclopedia: until the end of the phase
        key = f"skill:{e.skill}:phase"
        inv.limits[key] = inv.limits.get(key, 0) + e.amount
    elif op == "shuffle_enemy_back":  # Close Call: the evaded enemy (A978.6)
        found = non_elite_here(eng, seat, exhausted=True)
        if e.target.startswith("card:"):
            eid = int(e.target[5:])
            found = [eid] if state.cards[eid].zone.startswith(("at.", "threat.")) else []
        if found:
            eng.update_card(found[0], counters={}, exhausted=False)
            eng.move(found[0], "encounter", kind="shuffled_back")
            eng.shuffle("encounter")
    elif op == "return_to_hand" and source >= 0:  # Magnifying Glass (1) (A978.9)
        if state.cards[source].zone == Z_PLAY[seat]:
            eng.move(source, Z_HAND[seat], kind="returned")
    # "cancel_revelation" and "attack_bonus" are handled by their callers


def _choose_answer(eng: Eng, step: ChooseAnswer) -> None:
    chosen = step.a if eng.answer[0] == "a" else step.b
    run_effects(eng, step.seat, chosen, step.source)


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
    found = [cid for zid in ("encounter", "encounter_discard") for cid in state.zones[zid].cards
             if dof(state, cid).type_code == "enemy" and trait in _traits(dof(state, cid))]
    search_pick(eng, seat, found, "encounter")  # the investigator chooses among them


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
        eng.move(eid, Z_AT[loc], kind="disengaged")
    eng.update_card(eid, exhausted=True)
    eng.emit("enemy_evaded", player=seat, card=eid)  # Ruth Turner: a forced trigger (A984.4)


def register(spec: tcgcore.GameSpec[ArkhamState]) -> None:
    """Register this module's step handlers on ``spec`` (:func:`.plugin.build_spec` calls it
    once, on the spec it builds)."""
    spec.handles(Effects)(_effects)
    spec.handles(ChooseAnswer)(_choose_answer)
    spec.handles(AssetDiscardAnswer)(_asset_discard_answer)
