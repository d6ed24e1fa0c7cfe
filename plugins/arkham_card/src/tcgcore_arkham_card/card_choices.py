"""Player choices of the core player cards (A975.9, A978.9): which investigator at your
location a card helps, which location Dynamite Blast hits or Elusive moves to, which
deck Scrying looks at and the order it puts the cards back, Wendy Adams's token redraw,
which token Grotesque Statue keeps, and the experience cards' choices and reactions
(Encyclopedia, Extra Ammunition, Police Badge, Sure Gamble, Mind Wipe, Disc of Itzamna,
Close Call, Aquinnah).

Each choice is a question with stable option keys (``inv:<seat>``, ``location:<id>``,
``deck:<seat>`` / ``deck:encounter``, ``card:<id>``, ``token:<n>``, ``stay``, ``pass``)
resumed by :class:`~.state.CardChoiceAnswer`, whose handler is in :mod:`.skill_tests`
(the skill-test choices are answered there, the others by :func:`card_choice_answer`).
"""

from __future__ import annotations

from typing import Final

import msgspec

import tcgcore
from tcgcore import Event, Option, Trigger

from .abilities import (
    _hand_plays,
    _threat_keyword,
    chooseable_seats,
    reaction_codes,
    uses_targets_here,
)
from .cards import Ability, Effect
from .operations import (
    discard_card,
    engage_unengaged_at,
    run_effects,
)
from .queries import (
    Z_AT,
    Z_DECK,
    Z_HAND,
    Z_PLAY,
    Eng,
    _traits,
    can_enter,
    cdef,
    dof,
    enemies_at,
    engaged_enemies,
    investigator_blank,
    is_revealed,
    location_of,
    name_of,
    phase_stamp,
    player_order,
    seats_at,
)
from .state import (
    ArkhamState,
    CardChoiceAnswer,
    DamageEnemy,
    DoActivate,
    DoMove,
    Harm,
    ResolveEncounter,
)

__all__ = ["CHOICE_OPS", "SKILLS", "WENDY", "add_uses", "ask_lend", "ask_wendy", "blank_enemy",
           "card_choice_answer", "card_reaction", "card_triggers", "choice_effect",
           "drop_stale_reactions", "non_elite_here", "play_labels", "reaction_triggers",
           "search_pick", "wendy_can_react", "with_chosen", "with_trigger_card"]

SKILLS: Final = ("willpower", "intellect", "combat", "agility")
#: The effect ops :func:`choice_effect` resolves.
CHOICE_OPS: Final = frozenset({"choose_investigator", "blast", "escape", "scry", "choose_skill",
                        "add_uses_here", "blank_enemy_here"})
WENDY: Final = "01005"  # Wendy Adams: her reaction to a revealed chaos token (A975.15)


def _inv_label(eng: Eng, seat: int) -> str:
    return cdef(eng.state, eng.state.inv[seat].code).name


def with_chosen(effects: tuple[Effect, ...], seat: int) -> tuple[Effect, ...]:
    """``effects`` with every ``target: "chosen"`` (nested ones too) replaced by
    ``"seat:<seat>"``: such an effect then resolves for that investigator (A975.11)."""
    out = []
    for e in effects:
        changes: dict[str, object] = {}
        if e.target == "chosen":
            changes["target"] = f"seat:{seat}"
        if e.on_success:
            changes["on_success"] = with_chosen(e.on_success, seat)
        if e.on_fail:
            changes["on_fail"] = with_chosen(e.on_fail, seat)
        out.append(msgspec.structs.replace(e, **changes) if changes else e)
    return tuple(out)


def choice_effect(eng: Eng, seat: int, e: Effect, source: int) -> bool:
    """Resolve one choice op of a player card; whether ``e.op`` was one of them.

    Ops: ``choose_investigator`` (an investigator at your location, yourself first;
    ``on_success`` resolves with ``target: "chosen"`` meaning them), ``blast`` (Dynamite
    Blast: your location or a connecting one), ``escape`` (Elusive / Survival Instinct /
    Cat Burglar: disengage, then move if you like), ``scry`` (Scrying: look at the top
    ``amount`` cards of a deck and put them back in any order), ``choose_skill``
    (Encyclopedia: the card's controller picks a skill; ``amount`` to it until the end
    of the phase for the effect's investigator), ``add_uses_here`` (Extra Ammunition:
    ``amount`` uses on an asset with ``trait`` controlled by an investigator at your
    location), ``blank_enemy_here`` (Mind Wipe: a non-Elite enemy at your location).
    """
    op = e.op
    if op not in CHOICE_OPS or seat < 0:
        return False
    state = eng.state
    loc = state.inv[seat].location
    if op == "choose_investigator":
        seats = chooseable_seats(state, seat, e)
        if not seats:
            return True  # nobody it could change (A904.2): not offered, nothing happens
        if len(seats) == 1:
            run_effects(eng, seat, with_chosen(e.on_success, seats[0]), source)
            return True
        eng.ask(seat, "choose_investigator", "Choose an investigator at your location",
                [Option(key=f"inv:{s}", label=_inv_label(eng, s), card=state.inv[s].card)
                 for s in seats],
                resume=CardChoiceAnswer(seat=seat, op="investigator", source=source,
                                        effects=e.on_success))
        return True
    if op == "blast":
        places = [loc] + [n for n in state.adj.get(str(loc), ()) if n != loc]
        if len(places) == 1:
            _blast(eng, seat, places[0], e.amount, source)
            return True
        eng.ask(seat, "choose_location", "Which location does the blast hit?",
                [Option(key=f"location:{p}", label=name_of(state, p) +
                        (" (yours)" if p == loc else ""), card=p) for p in places],
                resume=CardChoiceAnswer(seat=seat, op="blast", source=source, amount=e.amount))
        return True
    if op == "escape":
        _escape(eng, seat, e, source)
        return True
    if op == "choose_skill":
        who = state.cards[source].controller if source >= 0 else seat
        who = seat if who < 0 else who
        eng.ask(who, "choose_skill", f"Which skill gets +{e.amount}?",
                [Option(key=f"skill:{k}", label=k) for k in SKILLS],
                resume=CardChoiceAnswer(seat=seat, op="skill", source=source, amount=e.amount))
        return True
    if op == "add_uses_here":
        assets = uses_targets_here(state, seat, e.trait)
        if len(assets) == 1:
            add_uses(eng, seat, assets[0], e.amount)
        elif assets:
            eng.ask(seat, "choose_asset", f"Which {e.trait} gets {e.amount} uses?",
                    [Option(key=f"asset:{c}", label=name_of(state, c), card=c) for c in assets],
                    resume=CardChoiceAnswer(seat=seat, op="uses", source=source,
                                            amount=e.amount))
        return True
    if op == "blank_enemy_here":
        found = non_elite_here(eng, seat)
        if len(found) == 1:
            blank_enemy(eng, seat, found[0])
        elif found:
            eng.ask(seat, "choose_enemy", "Which enemy loses its text box?",
                    [Option(key=f"enemy:{x}", label=name_of(state, x), card=x) for x in found],
                    resume=CardChoiceAnswer(seat=seat, op="blank", source=source))
        return True
    if op == "scry":
        decks = [f"deck:{s}" for s in player_order(state)
                 if not state.inv[s].status and state.zones[Z_DECK[s]].cards]
        if state.zones["encounter"].cards:
            decks.append("deck:encounter")
        if not decks:
            return True
        if len(decks) == 1:
            _scry_start(eng, seat, decks[0], e.amount, source)
            return True
        eng.ask(seat, "scry_deck", "Whose deck do you look at?",
                [Option(key=k, label="the encounter deck" if k == "deck:encounter" else
                        f"{_inv_label(eng, int(k[5:]))}'s deck") for k in decks],
                resume=CardChoiceAnswer(seat=seat, op="scry_deck", source=source,
                                        amount=e.amount))
        return True
    return False


def _blast(eng: Eng, seat: int, loc: int, amount: int, source: int) -> None:
    """Dynamite Blast (A975.8): ``amount`` damage to each enemy and investigator there."""
    state = eng.state
    steps: list[tcgcore.Step] = [DamageEnemy(enemy=x, amount=amount, seat=seat)
                                 for x in enemies_at(state, loc)]
    steps += [Harm(seat=s, damage=amount, source=source) for s in seats_at(state, loc)]
    eng.emit("blast", player=seat, card=loc, amount=amount)
    eng.push(*steps)


def _escape(eng: Eng, seat: int, e: Effect, source: int) -> None:
    """Disengage from each enemy engaged with you, then move (A975.14). Survival Instinct
    (``target`` ``"evade"``) leaves the evaded enemy aside and asks first whether to
    disengage from the others (``disengage`` / ``keep``); Elusive and Cat Burglar always
    disengage. Then :func:`_escape_move`."""
    state = eng.state
    if e.target == "evade":
        others = _other_engaged(state, seat)
        if others:
            eng.ask(seat, "disengage", "Disengage from the other enemies engaged with you?",
                    [Option(key="disengage", label="Disengage from them"),
                     Option(key="keep", label="Stay engaged")],
                    resume=CardChoiceAnswer(seat=seat, op="escape_disengage", source=source,
                                            effects=(e,)))
            return
    else:
        _disengage(eng, engaged_enemies(state, seat))
    _escape_move(eng, seat, e, source)


def _other_engaged(state: ArkhamState, seat: int) -> list[int]:
    """Enemies engaged with ``seat`` other than the one its skill test evades."""
    target = state.test.target if state.test is not None else -1
    return [eid for eid in engaged_enemies(state, seat) if eid != target]


def _disengage(eng: Eng, enemies: list[int]) -> None:
    state = eng.state
    for eid in enemies:
        eloc = location_of(state, eid)
        if not state.cards[eid].zone.startswith("at."):
            eng.move(eid, Z_AT[eloc], kind="disengaged")


def _escape_move(eng: Eng, seat: int, e: Effect, source: int) -> None:
    """The move of :func:`_escape`: ``code`` ``"anywhere"`` (Elusive) a revealed location
    without enemies, anywhere; ``"connecting"`` (Cat Burglar, Survival Instinct) a
    connecting location, safe ones first. Only Survival Instinct's move is optional
    (``stay``); Elusive and Cat Burglar must move when they can, and with nowhere to go the
    investigator stays and the enemies left there engage again (A602.5)."""
    state = eng.state
    here = state.inv[seat].location
    if e.code == "anywhere":
        places = [x for x in state.zones["locations"].cards if x != here]
    else:
        places = list(state.adj.get(str(here), ()))
    if e.code == "connecting":  # safe places first: revealed, without enemies
        places = sorted((x for x in places if can_enter(state, x)),
                        key=lambda x: (not is_revealed(state, x) or bool(enemies_at(state, x)), x))
    else:
        places = [x for x in places if is_revealed(state, x) and can_enter(state, x)
                  and not enemies_at(state, x)]
    if not places:  # nowhere to go: you stay, and the enemies left here engage (A602.5)
        engage_unengaged_at(eng, here)
        return
    stay = [Option(key="stay", label="Stay here")] if e.target == "evade" else []
    eng.ask(seat, "choose_location", "Move to a location?" if stay else "Move to which location?",
            [*(Option(key=f"location:{p}", label=f"Move to {name_of(state, p)}", card=p)
               for p in places), *stay],
            resume=CardChoiceAnswer(seat=seat, op="move", source=source))


def _scry_start(eng: Eng, seat: int, deck: str, amount: int, source: int) -> None:
    zone = "encounter" if deck == "deck:encounter" else f"deck.{deck[5:]}"
    top = list(eng.state.zones[zone].cards[:amount])
    eng.emit("looked", player=seat, amount=len(top), data={"deck": zone})
    _scry_next(eng, seat, zone, top, [], source)


def _scry_next(eng: Eng, seat: int, zone: str, left: list[int], placed: list[int],
               source: int) -> None:
    """Ask for the next card from the top until one is left, then put them back."""
    state = eng.state
    if len(left) <= 1:
        for i, cid in enumerate(placed + left):
            eng.move(cid, zone, index=i, kind="reordered")
        return
    eng.ask(seat, "scry_order", f"Which card goes {'on top' if not placed else 'next'}?",
            [Option(key=f"card:{c}", label=name_of(state, c), card=c) for c in left],
            resume=CardChoiceAnswer(seat=seat, op=f"scry_order:{zone}", source=source,
                                    cards=[*placed, -1, *left]))


def wendy_can_react(eng: Eng, seat: int) -> bool:
    """Wendy Adams may cancel the token just revealed: she is the tester, her card is not
    blank, she has a card in hand and has not used it this test (A975.15)."""
    state = eng.state
    inv = state.inv[seat]
    return inv.code == WENDY and not investigator_blank(state, seat) and \
        bool(state.zones[Z_HAND[seat]].cards) and not inv.limits.get("wendy:test")


def ask_wendy(eng: Eng, seat: int, token: str) -> None:
    """Offer Wendy's reaction to ``token``: discard a card (``card:<id>``) or ``pass``."""
    state = eng.state
    eng.ask(seat, "wendy_redraw", f"Discard a card to cancel the {token} token and reveal "
            "another?", [Option(key="pass", label=f"Keep {token}"),
                         *(Option(key=f"card:{c}", label=f"Discard {name_of(state, c)}", card=c)
                           for c in state.zones[Z_HAND[seat]].cards)],
            resume=CardChoiceAnswer(seat=seat, op="wendy"))


def card_choice_answer(eng: Eng, step: CardChoiceAnswer) -> None:
    """The answer to a card's choice (``step.op`` says which); the skill-test choices (Wendy
    Adams, Sure Gamble, the Lucky Statue… ``statue`` ops) are answered in
    :mod:`.skill_tests`, whose handler of :class:`.state.CardChoiceAnswer` calls this one for
    the others."""
    state = eng.state
    key = eng.answer[0]
    seat = step.seat
    op = step.op
    if op == "investigator":
        run_effects(eng, seat, with_chosen(step.effects, int(key.split(":")[1])), step.source)
    elif op == "blast":
        _blast(eng, seat, int(key.split(":")[1]), step.amount, step.source)
    elif op == "escape_disengage":  # Survival Instinct: disengaging is optional (A975.14)
        if key == "disengage":
            _disengage(eng, _other_engaged(state, seat))
        _escape_move(eng, seat, step.effects[0], step.source)
    elif op == "move":
        if key != "stay":
            eng.push(DoMove(seat=seat, location=int(key.split(":")[1])))
        else:  # ready enemies left at your location engage you again (A602.1)
            engage_unengaged_at(eng, state.inv[seat].location)
    elif op == "scry_deck":
        _scry_start(eng, seat, key, step.amount, step.source)
    elif op.startswith("scry_order:"):
        cut = step.cards.index(-1)
        placed, left = step.cards[:cut], step.cards[cut + 1:]
        cid = int(key.split(":")[1])
        _scry_next(eng, seat, op[11:], [c for c in left if c != cid], [*placed, cid],
                   step.source)
    elif op == "skill":
        skill = key.split(":")[1]
        key_name = f"skill:{skill}:phase"  # Encyclopedia (A978.3)
        lim = state.inv[seat].limits
        lim[key_name] = lim.get(key_name, 0) + step.amount
        eng.emit("skill_boosted", player=seat, amount=step.amount, data={"skill": skill})
    elif op == "uses":
        add_uses(eng, seat, int(key.split(":")[1]), step.amount)
    elif op == "blank":
        blank_enemy(eng, seat, int(key.split(":")[1]))
    elif op.startswith("redirect:"):
        state.inv[seat].limits[f"redirect:{op[9:]}"] = int(key.split(":")[1])
    elif op.startswith("search:"):
        finish_search(eng, seat, int(key.split(":")[1]), op[7:], step.cards)
    elif op == "lend" or op.startswith("lend:"):  # ``lend:<active seat>``
        if key == "use":
            eng.push(DoActivate(seat=seat, card=step.source, index=step.amount))
        elif op.startswith("lend:"):  # refused: the active one may not ask again this turn
            state.inv[int(op[5:])].limits[f"lend:{step.source}:{step.amount}:turn"] = 1


def add_uses(eng: Eng, seat: int, cid: int, amount: int) -> None:
    """Put ``amount`` use tokens on an asset (Extra Ammunition, Book of Shadows)."""
    eng.add_counter(cid, "uses", amount)
    eng.emit("uses_added", player=seat, card=cid, amount=amount)


def blank_enemy(eng: Eng, seat: int, eid: int) -> None:
    """Mind Wipe (A978.6): the enemy's text box is blank until the end of this phase
    (its ``blank`` counter holds the phase's stamp, see :func:`phase_stamp`)."""
    eng.set_counter(eid, "blank", phase_stamp(eng.state))
    eng.emit("blanked", player=seat, card=eid)


def search_pick(eng: Eng, seat: int, found: list[int], dest: str) -> None:
    """The searching investigator chooses which of the matching cards ``found`` (in
    search order) it takes (A909.1): a question ``search`` with keys ``card:<id>``, asked
    only when the matches differ (copies of one card count once: the first is offered).
    With one kind of match it is taken at once; with none nothing is.

    ``dest`` ``"hand"``: the card goes from the investigator's deck to its hand, then the
    deck is shuffled (Research Librarian, Old Book of Lore, Miskatonic University, Ma's
    Boarding House); while it chooses, the offered cards wait in its ``aside`` zone, seen
    by it alone. ``"encounter"``: the encounter deck is shuffled, then the investigator
    draws the enemy (Mysterious Chanting, a Skull token's search); offered cards of the
    encounter deck also wait in the searcher's ``aside`` zone, so that nobody else sees
    what the encounter deck holds (those of the public discard pile stay there)."""
    state = eng.state
    seen: set[str] = set()
    picks: list[int] = []
    for cid in found:
        if state.cards[cid].code not in seen:
            seen.add(state.cards[cid].code)
            picks.append(cid)
    if len(picks) <= 1:
        finish_search(eng, seat, picks[0] if picks else -1, dest, [])
        return
    for cid in picks:  # the searcher looks at them (hidden zones show no card)
        if dest == "hand" or state.cards[cid].zone == "encounter":
            eng.move(cid, f"aside.{seat}", kind="searched")
    eng.ask(seat, "search", "Which card do you take?",
            [Option(key=f"card:{c}", label=name_of(state, c), card=c) for c in picks],
            resume=CardChoiceAnswer(seat=seat, op=f"search:{dest}", cards=picks))


def finish_search(eng: Eng, seat: int, cid: int, dest: str, shown: list[int]) -> None:
    """Put the ``shown`` cards back, take the searched card ``cid`` (``-1``: none) and
    shuffle (see :func:`search_pick`)."""
    state = eng.state
    if dest == "hand":
        for c in shown:
            if c != cid:
                eng.move(c, Z_DECK[seat], kind="returned")
        if cid >= 0:
            eng.move(cid, Z_HAND[seat], kind="drawn")
        eng.shuffle(Z_DECK[seat])
        return
    for c in shown:
        if c != cid and state.cards[c].zone == f"aside.{seat}":
            eng.move(c, "encounter", kind="returned")
    eng.shuffle("encounter")
    if cid >= 0:
        eng.move(cid, "resolving", kind="encounter_drawn", data={"seat": seat})
        eng.push(ResolveEncounter(seat=seat, card=cid))


def non_elite_here(eng: Eng, seat: int, *, exhausted: bool = False) -> list[int]:
    """Non-Elite, non-weakness enemies at the investigator's location."""
    state = eng.state
    out = []
    for eid in enemies_at(state, state.inv[seat].location):
        d = dof(state, eid)
        if "Elite" in _traits(d) or d.is_weakness():
            continue
        if exhausted and not state.cards[eid].exhausted:
            continue
        out.append(eid)
    return out


def card_reaction(eng: Eng, seat: int, src: int, ab: Ability, card: int, event: int) -> None:
    """A player card's reaction to an enemy ``card`` (A978.9): pay the costs (exhaust,
    discard), then ``discard_enemy_here`` (Disc of Itzamna: discard that enemy if it is
    still in play) or ``redirect_attack`` (Aquinnah: ``amount`` horror on her, then the
    attack ``event``'s damage goes to another enemy at your location, chosen with
    ``enemy:<id>`` when there are several)."""
    state = eng.state
    if ab.exhaust:
        eng.update_card(src, exhausted=True)
    if ab.discard:
        discard_card(eng, src)
    for e in ab.effects:
        if e.op == "discard_enemy_here":
            if state.cards[card].zone.startswith(("at.", "threat.")):
                discard_card(eng, card)
                drop_stale_reactions(eng, card)  # a second Disc has nothing left (A904.2)
        elif e.op == "redirect_attack":
            counters = eng.add_counter(src, "horror", e.amount).counters
            sanity = dof(state, src).sanity
            if sanity is not None and counters["horror"] >= sanity:
                discard_card(eng, src)  # she is defeated
            others = [x for x in enemies_at(state, state.inv[seat].location) if x != card]
            if len(others) == 1:
                state.inv[seat].limits[f"redirect:{event}"] = others[0]
            elif others:
                eng.ask(seat, "choose_enemy", "Which enemy takes the attack's damage?",
                        [Option(key=f"enemy:{x}", label=name_of(state, x), card=x)
                         for x in others],
                        resume=CardChoiceAnswer(seat=seat, op=f"redirect:{event}", source=src))


def drop_stale_reactions(eng: Eng, card: int) -> None:
    """Withdraw the waiting optional reactions and plays aimed at ``card`` (ability keys
    ``reaction:<index>:<card>`` and ``play_when:<id>:<card>``) once it has left play: they
    could no longer change the game state, so they are not offered (A904.2). Only the
    trigger windows still queued change; forced triggers stay."""
    suffix = f":{card}"
    for step in eng.state.stack:
        if isinstance(step, tcgcore.TriggerWindow):
            step.triggers[:] = [t for t in step.triggers if not (
                t.optional and t.ability.startswith(("reaction:", "play_when:"))
                and t.ability.count(":") == 2 and t.ability.endswith(suffix))]


def reaction_triggers(eng: Eng, event: Event) -> list[Trigger]:
    """Reactions of player cards in play to an enemy (A978.9): Disc of Itzamna when a
    non-Elite enemy (weakness enemies included) spawns at your location, Aquinnah when
    an enemy attacks you (another enemy must be at your location). Ability key
    ``reaction:<index>:<enemy id>``."""
    state = eng.state
    eid = event.card
    if eid is None:
        return []
    out: list[Trigger] = []
    if event.kind == "spawned":
        d = dof(state, eid)
        if "Elite" in _traits(d):  # only Elite: a weakness enemy may be discarded too
            return out
        loc = location_of(state, eid)
        seats = seats_at(state, loc) if loc >= 0 else []
        trigger = "enemy_spawns_here"
    else:
        seats = [event.player] if event.player is not None else []
        trigger = "enemy_attacks_you"
    codes = None if state.extra_defs else reaction_codes(trigger)
    cards = state.cards
    for s in seats:
        if state.inv[s].status:
            continue
        if codes is not None:
            for c in state.zones[Z_PLAY[s]].cards:
                if cards[c].code in codes:
                    break
            else:
                continue  # no card of theirs in play reacts so (the usual case)
        if trigger == "enemy_attacks_you" and not [
                x for x in enemies_at(state, state.inv[s].location) if x != eid]:
            continue
        for cid in state.zones[Z_PLAY[s]].cards:
            cd = dof(state, cid)
            for idx, ab in enumerate(cd.abilities):
                if ab.kind == "reaction" and ab.trigger == trigger and \
                        not (ab.exhaust and state.cards[cid].exhausted):
                    out.append(Trigger(id="", player=s, ability=f"reaction:{idx}:{eid}",
                                       source=cid, optional=True, timing="when",
                                       label=f"{cd.name}: reaction"))
    return out


def play_labels(state: ArkhamState, seat: int, cids: list[int]) -> list[Option]:
    """``play:<card>`` options for hand cards, labelled so that copies of one card can be
    told apart (``Play Sure Gamble (copy 2)``) and a card on top of the discard pile
    (Wendy's Amulet) says so."""
    out: list[Option] = []
    seen: dict[str, int] = {}
    hand = state.zones[Z_HAND[seat]].cards
    for c in cids:
        name = name_of(state, c)
        seen[name] = seen.get(name, 0) + 1
        label = f"Play {name}"
        if c not in hand:
            label += " (from the discard pile)"
        elif seen[name] > 1:
            label += f" (copy {seen[name]})"
        out.append(Option(key=f"play:{c}", label=label, card=c))
    return out


def with_trigger_card(effects: tuple[Effect, ...], cid: int) -> tuple[Effect, ...]:
    """``effects`` with ``target: "trigger_card"`` replaced by ``"card:<cid>"``: the card
    a played event reacts to (Close Call's evaded enemy)."""
    return tuple(msgspec.structs.replace(e, target=f"card:{cid}")
                 if e.target == "trigger_card" else e for e in effects)


def card_triggers(eng: Eng, event: Event) -> list[Trigger]:
    """Player-card triggers of the core experience cards (A978.6, A978.9): Disc of
    Itzamna and Aquinnah (:func:`reaction_triggers`); Close Call after a non-Elite,
    non-weakness enemy at your location is evaded (``play_when`` ``after_evade``, key
    ``play_when:<card>:<enemy>``); Mind Wipe after a phase begins, while a non-Elite enemy
    is at your location (``play_when`` ``phase_begins``)."""
    state = eng.state
    kind = event.kind
    if kind in ("spawned", "enemy_attacks"):
        return reaction_triggers(eng, event)
    out: list[Trigger] = []
    if kind in ("enemy_evaded", "enemy_auto_evaded") and event.card is not None:
        eid = event.card
        d = dof(state, eid)
        loc = location_of(state, eid)
        if "Elite" in _traits(d) or d.is_weakness() or loc < 0:
            return out
        if any(e.op == "to_victory" for e in d.forced.get("after_evaded", ())):
            # Ruth Turner's forced ability resolves first (A902.1) and takes her out of
            # play: Close Call would have nothing to shuffle back (A904.2)
            return out
        for s in seats_at(state, loc):
            if not state.inv[s].status and not _threat_keyword(state, s, "no_play") and \
                    (state.peril < 0 or s == state.peril):
                out += _hand_plays(state, s, "after_evade", f":{eid}")
    elif kind == "phase":
        for s in player_order(state):  # A913.1: the window is opened from public facts
            if state.inv[s].status or state.inv[s].location < 0 or \
                    _threat_keyword(state, s, "no_play") or not non_elite_here(eng, s):
                continue
            out += _hand_plays(state, s, "phase_begins", "")
    return out


def ask_lend(eng: Eng, active: int, owner: int, cid: int, index: int) -> None:
    """The active investigator asked ``owner`` to use a card's fast ability for them
    (Police Badge, A978.4): ``owner`` answers ``use`` or ``pass``; after ``pass`` the
    request is not offered again this turn."""
    eng.ask(owner, "lend_ability", f"Use {name_of(eng.state, cid)} for "
            f"{_inv_label(eng, active)}?", [Option(key="use", label="Use it"),
                                              Option(key="pass", label="Keep it")],
            resume=CardChoiceAnswer(seat=owner, op=f"lend:{active}", source=cid, amount=index))
