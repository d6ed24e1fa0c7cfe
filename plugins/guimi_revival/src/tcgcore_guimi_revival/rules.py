"""The Guimi Revival rules engine: the GameSpec and every step handler.

Rule numbers in comments refer to ``docs/guimi_revival/rules.md``. Zones are named
``"<kind>.<seat>"``: deck, extra, hand, revival, stack (the characteristic stack, top first),
units (4 slots: 0 = F1, 1 = F2, 2 = B1, 3 = B2), spirit (Spirit World), status, underworld,
astral.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import tcgcore
from tcgcore import EMPTY_SLOT, Engine, Option, Step

from .cards import RANK_GATE, TARGETED_OPS, CardDef, Condition, Ritual, get_pool, load_pathways
from .options import GAME
from .state import (
    Attack,
    AttackAnswer,
    AttackCheck,
    BattleCleanup,
    BattleEnd,
    BattleNext,
    BattleOrder,
    BattleStart,
    CheckToHand,
    DamageStep,
    DoEffect,
    DrawPhase,
    EffectAnswer,
    EndPhase,
    EndTurn,
    FinishEvent,
    FinishExtra,
    GuimiState,
    Hit,
    HitCheck,
    InterceptAnswer,
    InterceptAsk,
    MainAnswer,
    MainPhase,
    Mulligan,
    MulliganAnswer,
    PromotionAnswer,
    PromotionAsk,
    PromotionPhase,
    QuickAnswer,
    QuickWindow,
    RevivalPhase,
    RewardAnswer,
    RewardPick,
    RewardPickAnswer,
    SourceTrigger,
    StartGame,
    StartRound,
    StartTurn,
    SupportAnswer,
    TimedAnswer,
    TimedEffects,
)
from .state import z as z  # the zone-id helper, kept importable from here (plugin.py)

Eng = Engine[GuimiState]
StepT = TypeVar("StepT", bound=Step)

FRONT = (0, 1)
BACK = (2, 3)
SLOT_NAMES = ("F1", "F2", "B1", "B2")


def _setup_proxy(eng: Eng, options: dict[str, Any]) -> None:
    from .setup import setup

    setup(eng, options)


spec: tcgcore.GameSpec[GuimiState] = tcgcore.GameSpec(
    name=GAME,
    version="0.2.0",
    state_type=GuimiState,
    setup=_setup_proxy,
    players=(2, 2),
    description="Guimi Revival (诡秘复苏): Lord of the Mysteries fan TCG with a shared battle phase",
    # option and event data naming cards (an attack's target, the units that swapped
    # slots, the attack order)
    card_data_keys=("attacker", "target", "support", "card", "other", "order"),
)


def on(step_type: type[StepT]) -> Callable[[Callable[[Eng, StepT], None]],
                                          Callable[[Eng, StepT], None]]:
    """Register a handler that runs the state checks afterwards: pending losses (018.1 (3),
    135.1) and, when the rules options ask for them, the checks of :func:`_state_checks`."""

    def register(fn: Callable[[Eng, StepT], None]) -> Callable[[Eng, StepT], None]:
        def wrapped(eng: Eng, step: StepT) -> None:
            fn(eng, step)
            state = eng.state
            opts = state.options
            if (opts.threshold_checks != "while_at_or_above"
                    and opts.ascension_start != "automatic"):  # the usual case: only losses
                if state.losses and not state.hold_losses and state.result is None:
                    finish_losses(eng)
            elif state.result is None:  # every check needs a running match
                _state_checks(eng)

        spec.handles(step_type)(wrapped)
        return fn

    return register


def _state_checks(eng: Eng) -> None:
    """The checks after a step of a running match (018.1 (3), 089.3, 112.2, 113.1, 135.1):
    ``while_at_or_above`` thresholds, automatic ascension, then pending losses."""
    state = eng.state
    opts = state.options
    if opts.threshold_checks == "while_at_or_above":
        for p in (0, 1):
            _persistent_checks(eng, p)
    if opts.ascension_start == "automatic":
        if state.result is None:
            for p in (0, 1):  # 089.3: begins at the first state check it qualifies
                if (state.sequence[p] == 0 and rb_on_field(eng, p)
                        and ascension_ready(eng, p)):
                    begin_ascension(eng, p)
    if state.losses and not state.hold_losses and state.result is None:
        finish_losses(eng)


# ----------------------------------------------------------------------------- helpers


_REVIVAL = ("revival.0", "revival.1")
_STACK = ("stack.0", "stack.1")
_SPIRIT = ("spirit.0", "spirit.1")
_UNITS = ("units.0", "units.1")
_HAND = ("hand.0", "hand.1")
_DECK = ("deck.0", "deck.1")


def cdef(eng: Eng, cid: int) -> CardDef:
    """The definition of a card instance."""
    state = eng.state
    try:
        return _DEFS[state.pool][state.cards[cid].code]
    except KeyError:
        return _pool_defs(state.pool)[state.cards[cid].code]


def _pool_defs(pool: str) -> dict[str, CardDef]:
    """The definitions of a pool by code (loaded once; see :data:`_DEFS`)."""
    cards = _DEFS.get(pool)
    if cards is None:
        cards = _DEFS[pool] = get_pool(pool).cards
    return cards


def _code_defs(state: GuimiState) -> dict[str, CardDef]:
    cards = _DEFS.get(state.pool)
    if cards is None:
        cards = _DEFS[state.pool] = get_pool(state.pool).cards
    return cards


#: CardDef -> the timings of its abilities (immutable data, a cache)
_TIMINGS: dict[int, frozenset[str]] = {}


def timings(d: CardDef) -> frozenset[str]:
    """The set of ability timings a card definition has (cached per definition)."""
    t = _TIMINGS.get(id(d))
    if t is None:
        t = _TIMINGS[id(d)] = frozenset(ab.timing for ab in d.abilities)
    return t


#: pool name -> card definitions (a cache of immutable data, not game state)
_DEFS: dict[str, dict[str, CardDef]] = {}


class CardInfo:
    """Facts the rules read often, derived once from an immutable :class:`CardDef`.

    Attributes:
        d: the definition itself.
        timings: the timings of its abilities.
        beyonder: ``d.is_beyonder``.
        card_type: ``d.card_type``.
        char: it has a pathway and a sequence (a characteristic when face up in the Spirit
            World, 028.1).
        strength, agility: printed values.
        ch_strength, ch_agility: its characteristic's bonuses (0 without one).
        cont_strength: for a continuous event, the sum of its ``static_strength`` effects of
            continuous abilities (102.4-style bonus to its controller's characters); else 0.
        effects: timing -> its effects of that timing, in ability order.
    """

    __slots__ = ("agility", "beyonder", "card_type", "ch_agility", "ch_strength", "char",
                 "cont_strength", "d", "effects", "strength", "timings")

    def __init__(self, d: CardDef, timings: frozenset[str], beyonder: bool, card_type: str,
                 char: bool, strength: int, agility: int, ch_strength: int, ch_agility: int,
                 cont_strength: int, effects: dict[str, tuple[tuple[str, int], ...]]) -> None:
        self.d = d
        self.timings = timings
        self.beyonder = beyonder
        self.card_type = card_type
        self.char = char
        self.strength = strength
        self.agility = agility
        self.ch_strength = ch_strength
        self.ch_agility = ch_agility
        self.cont_strength = cont_strength
        self.effects = effects


def _card_info(d: CardDef) -> CardInfo:
    ch = d.characteristic
    cont = 0
    if d.event_kind == "continuous":
        for ab in d.abilities:
            if ab.timing == "continuous":
                for e in ab.effects:
                    if e.op == "static_strength":
                        cont += e.amount
    effects: dict[str, list[tuple[str, int]]] = {}
    for ab in d.abilities:
        effects.setdefault(ab.timing, []).extend((e.op, e.amount) for e in ab.effects)
    return CardInfo(d, timings(d), d.is_beyonder, d.card_type,
                    d.pathway is not None and d.sequence is not None, d.strength, d.agility,
                    ch.strength if ch is not None else 0, ch.agility if ch is not None else 0,
                    cont, {k: tuple(v) for k, v in effects.items()})


#: pool name -> card code -> :class:`CardInfo` (immutable data, a cache, not game state)
_INFO: dict[str, dict[str, CardInfo]] = {}


def card_infos(state: GuimiState) -> dict[str, CardInfo]:
    """Card code -> :class:`CardInfo` for the match's pool (built once per pool)."""
    try:
        return _INFO[state.pool]
    except KeyError:
        info = _INFO[state.pool] = {code: _card_info(d)
                                    for code, d in _pool_defs(state.pool).items()}
        return info


def cards_in(eng: Eng, kind: str, p: int) -> list[int]:
    """Card ids in a zone (empty slots skipped)."""
    ids = _ZONE_IDS.get(kind)
    zone = eng.state.zones[ids[p] if ids is not None else f"{kind}.{p}"]
    if not zone.slotted:
        return list(zone.cards)
    return [c for c in zone.cards if c != EMPTY_SLOT]


#: per-player zone kind -> its zone ids by seat
_ZONE_IDS: dict[str, tuple[str, str]] = {
    k: (f"{k}.0", f"{k}.1") for k in ("deck", "extra", "hand", "revival", "stack", "units",
                                      "spirit", "status", "underworld", "astral")}


def slot_of(eng: Eng, cid: int) -> int:
    """Slot index of a unit, or -1."""
    card = eng.state.cards[cid]
    if not card.zone.startswith("units."):
        return -1
    return eng.state.zones[card.zone].cards.index(cid)


def rb_on_field(eng: Eng, p: int) -> bool:
    """The RB is in its revival zone (not dead, not slumbering; 023.4)."""
    state = eng.state
    return state.cards[state.rb[p]].zone == _REVIVAL[p]


def slumbering(eng: Eng, p: int) -> bool:
    """The RB is slumbering (089.4)."""
    return eng.state.ascend_round[p] >= 0


def is_characteristic(eng: Eng, cid: int) -> bool:
    """A face-up Spirit World card with pathway and sequence (028.1)."""
    state = eng.state
    card = state.cards[cid]
    if card.face_down or not card.zone.startswith("spirit."):
        return False
    return card_infos(state)[card.code].char


def char_seq(eng: Eng, cid: int) -> int | None:
    """A characteristic's sequence: its printed one, or 1 for a card put there by ``converge``
    (the ``seq`` counter)."""
    card = eng.state.cards[cid]
    if card.counters and "seq" in card.counters:
        return card.counters["seq"]
    return cdef(eng, cid).sequence


def rb_path(eng: Eng, p: int) -> str:
    """The RB's pathway."""
    state = eng.state
    path = card_infos(state)[state.cards[state.rb[p]].code].d.pathway
    assert path is not None
    return path


def is_beyonder_unit(eng: Eng, cid: int) -> bool:
    """A Beyonder card in a unit slot (017.2)."""
    return eng.state.cards[cid].zone.startswith("units.") and cdef(eng, cid).is_beyonder


def controlled(eng: Eng, p: int) -> list[int]:
    """Cards a player controls for rituals: unit zone and face-up Spirit World (083.2)."""
    state = eng.state
    cards = state.cards
    zones = state.zones
    out = [c for c in zones[_UNITS[p]].cards if c != EMPTY_SLOT]
    out += [c for c in zones[_SPIRIT[p]].cards if not cards[c].face_down]
    return out


def draw(eng: Eng, p: int, n: int = 1, *, below: int = -1) -> None:
    """Draw ``n`` cards; drawing from an empty deck is a loss (133.1).

    ``below``: a revealed card on top of the deck that is not to be drawn (the attack check's
    card during its Source trigger, 101.3, 101.5, 102.9); the cards under it are drawn, and a
    deck holding only that card counts as empty.
    """
    zones = eng.state.zones
    for _ in range(n):
        deck = zones[_DECK[p]].cards
        i = 1 if below >= 0 and deck and deck[0] == below else 0
        if len(deck) <= i:
            lose(eng, p, "deck_out")
            return
        eng.move(deck[i], _HAND[p], kind="drawn")


def reveal_top(eng: Eng, p: int, why: str) -> int | None:
    """Reveal the top card of ``p``'s main deck (016.4); ``None`` and a loss if empty (133.1)."""
    deck = eng.state.zones[z("deck", p)].cards
    if not deck:
        lose(eng, p, "deck_out")
        return None
    cid = deck[0]
    eng.emit("revealed", player=p, card=cid, code=eng.state.cards[cid].code, data={"why": why})
    return cid


def lose(eng: Eng, p: int, reason: str) -> None:
    """Record that ``p`` met a loss condition (applied by :func:`finish_losses`)."""
    state = eng.state
    if p not in state.losses:
        state.losses.append(p)
        if not state.loss_reason:
            state.loss_reason = reason
        eng.emit("loss_condition", player=p, data={"reason": reason})
        if state.options.damage_step_losses == "sequential":
            state.hold_losses = False


def finish_losses(eng: Eng) -> None:
    """End the game for recorded losses: both players at once is a draw (133.2, 134.1)."""
    state = eng.state
    if len(state.losses) >= 2:
        eng.end(draw=True, reason="simultaneous_losses")
    else:
        p = state.losses[0]
        eng.end(winners=[1 - p], losers=[p], reason=state.loss_reason)


def cond_ok(eng: Eng, p: int, conds: tuple[Condition, ...]) -> bool:
    """Whether every condition holds for ``p`` (013.1 inclusive comparisons)."""
    state = eng.state
    for c in conds:
        k, v = c.kind, c.value
        if k == "always":
            ok = True
        elif k == "rb_sequence_at_most":
            ok = state.sequence[p] <= v
        elif k == "spirit_world_at_least":
            ok = len(cards_in(eng, "spirit", p)) >= v
        elif k == "characteristics_at_least":
            ok = sum(is_characteristic(eng, x) for x in cards_in(eng, "spirit", p)) >= v
        elif k == "underworld_at_least":
            ok = len(cards_in(eng, "underworld", p)) >= v
        elif k == "units_at_least":
            ok = len(cards_in(eng, "units", p)) >= v
        elif k == "status_at_least":
            ok = len(cards_in(eng, "status", p)) >= v
        elif k == "hand_at_least":
            ok = len(cards_in(eng, "hand", p)) >= v
        elif k == "corruption_at_least":
            ok = state.corruption[p] >= v
        else:  # opponent_status_at_least
            ok = len(cards_in(eng, "status", 1 - p)) >= v
        if not ok:
            return False
    return True


# ----------------------------------------------------------------------------- stats


def strength(eng: Eng, cid: int) -> int:
    """Current strength of a character (013.6 floor, 102.4/102.7 modifiers, 104.3)."""
    state = eng.state
    cards = state.cards
    card = cards[cid]
    info = card_infos(state)
    i = info[card.code]
    p = card.controller
    opts = state.options
    value = i.strength
    is_rb = cid == state.rb[p]
    zones = state.zones
    if is_rb:
        for sc in zones[_STACK[p]].cards:
            c = cards[sc]
            if not c.face_down:
                value += info[c.code].ch_strength
    elif opts.characteristic_on_unit == "active":
        value += i.ch_strength
    ctr = card.counters
    if ctr:
        value += ctr.get("bp_str", 0) - ctr.get("bp_weak", 0)
    for sw in zones[_SPIRIT[p]].cards:
        c = cards[sw]
        if not c.face_down:
            value += info[c.code].cont_strength
    if state.bp_minus[p] and (not is_rb or opts.trigger_rb_scope != "exclude"):
        value -= state.bp_minus[p]
    if opts.strength_floor == "zero" and value < 0:
        value = 0
    return value


def agility(eng: Eng, cid: int) -> int:
    """Current agility of a character (an RB adds its digested characteristics, 104.3; a unit
    its own characteristic with ``characteristic_on_unit = active``, 022.2)."""
    state = eng.state
    cards = state.cards
    card = cards[cid]
    info = card_infos(state)
    i = info[card.code]
    value = i.agility
    p = card.controller
    if cid == state.rb[p]:
        for sc in state.zones[_STACK[p]].cards:
            c = cards[sc]
            if not c.face_down:
                value += info[c.code].ch_agility
    elif state.options.characteristic_on_unit == "active":
        value += i.ch_agility
    return value


# ----------------------------------------------------------------------------- corruption


def go_mad(eng: Eng, p: int, why: str) -> None:
    """The RB goes mad (112.1) unless already mad (112.5); mad while dead loses (131.1)."""
    state = eng.state
    if state.mad[p]:
        return
    state.mad[p] = 1
    eng.emit("went_mad", player=p, data={"why": why})
    if state.dead[p] and state.options.defeat_condition == "mad_while_dead":
        lose(eng, p, "mad_while_dead")


def unit_mad(eng: Eng, cid: int) -> bool:
    """Whether a Beyonder card in a unit slot is mad (112.7: its ``mad`` counter)."""
    ctr = eng.state.cards[cid].counters
    return bool(ctr and ctr.get("mad"))


def go_mad_unit(eng: Eng, cid: int, why: str) -> None:
    """A Beyonder card in a unit slot goes mad (112.1e, 112.7) unless already mad (112.5).

    Its madness is the card's ``mad`` counter: 1 until its controller's next turn begins,
    2 during that turn; it ends at that turn's end (112.6), or when the card leaves the unit
    zone (a card leaving play forgets its counters)."""
    card = eng.state.cards[cid]
    if not card.zone.startswith("units.") or unit_mad(eng, cid):
        return
    eng.set_counter(cid, "mad", 1)
    eng.emit("went_mad", player=card.controller, card=cid, code=card.code, data={"why": why})


def die(eng: Eng, p: int) -> None:
    """The RB dies (113.2): to the Underworld; stack and status zone stay."""
    state = eng.state
    if state.dead[p] or not rb_on_field(eng, p):
        return
    state.dead[p] = True
    eng.move(state.rb[p], z("underworld", p), face_down=False, kind="died")  # 031.5
    if state.options.defeat_condition == "death":
        lose(eng, p, "death")


def receive_corruption(eng: Eng, p: int, n: int, *, damage_step: bool) -> bool:
    """Receive corruption points (111); returns whether 112.1a triggers (the damage-step count
    reached 3 or more). Corruption received while dead may cause madness at once (113.5)."""
    if n <= 0:
        return False
    state = eng.state
    state.corruption[p] += n
    eng.emit("corruption", player=p, amount=n, data={"total": state.corruption[p]})
    if state.dead[p]:
        state.dead_corruption[p] += n
        if state.dead_corruption[p] >= 3:
            go_mad(eng, p, "dead_corruption")
    if damage_step:
        state.step_corruption[p] += n
        return state.step_corruption[p] >= 3
    return False


def status_entered(eng: Eng, p: int, face_down: bool, corruption: int) -> None:
    """Corruption of one damage check, then the state checks of 018.1 (death, then madness
    triggers 112.1a-c; swapped with ``state_check_order = madness_first``)."""
    state = eng.state
    step_trigger = receive_corruption(eng, p, corruption, damage_step=True)
    status = state.zones[z("status", p)].cards
    fd = sum(1 for c in status if state.cards[c].face_down)
    on_reach = state.options.threshold_checks == "on_reaching"

    def death() -> None:
        if on_reach and len(status) >= 7:  # 113.1
            die(eng, p)

    def madness() -> None:
        if step_trigger:
            go_mad(eng, p, "three_in_damage_step")  # 112.1a
        if on_reach and face_down and fd in (5, 7):
            go_mad(eng, p, f"face_down_{fd}")  # 112.1b, 112.1c

    if state.options.state_check_order == "death_first":
        death()
        madness()
    else:
        madness()
        death()


def _persistent_checks(eng: Eng, p: int) -> None:
    """``threshold_checks = while_at_or_above`` state checks (112.2, 113.1)."""
    state = eng.state
    status = state.zones[z("status", p)].cards
    if len(status) >= 7 and rb_on_field(eng, p):
        die(eng, p)
    if not state.mad[p] and sum(1 for c in status if state.cards[c].face_down) >= 5:
        go_mad(eng, p, "face_down_at_or_above_5")


# ----------------------------------------------------------------------------- setup flow


@on(Mulligan)
def _mulligan(eng: Eng, step: Mulligan) -> None:
    p = step.player
    hand = cards_in(eng, "hand", p)
    opts = [Option(key=f"card:{c}", label=cdef(eng, c).name_en, card=c) for c in hand]
    eng.ask(p, "mulligan", "Choose cards to put on the bottom and redraw (052.1)", opts,
            min=0, max=len(opts), resume=MulliganAnswer(player=p))


@on(MulliganAnswer)
def _mulligan_answer(eng: Eng, step: MulliganAnswer) -> None:
    p = step.player
    chosen = [int(k.split(":")[1]) for k in eng.answer]
    for cid in chosen:
        eng.move(cid, z("deck", p), kind="mulligan")
    draw(eng, p, len(chosen))
    if chosen:
        eng.shuffle(z("deck", p))
    eng.emit("mulligan", player=p, amount=len(chosen))


@on(StartGame)
def _start_game(eng: Eng, step: StartGame) -> None:
    for p in (0, 1):
        rb = eng.state.rb[p]
        card = eng.state.cards[rb]
        if card.face_down:
            eng.update_card(rb, face_down=False)
            eng.emit("revealed", player=p, card=rb, code=card.code, data={"why": "start"})
    eng.push(StartRound())


@on(StartRound)
def _start_round(eng: Eng, step: StartRound) -> None:
    state = eng.state
    state.round += 1
    eng.emit("round_started", amount=state.round)
    f = state.first
    eng.push(StartTurn(player=f), StartTurn(player=1 - f), BattleStart())


@on(StartTurn)
def _start_turn(eng: Eng, step: StartTurn) -> None:
    state = eng.state
    p = step.player
    o = 1 - p
    state.turn += 1
    state.active_player = p
    state.in_battle = False
    state.rewarded[p] = False
    state.events_played[p] = 0
    state.events_activated[p] = 0
    state.used_ignition = []
    state.arrangements = []
    state.phase = "start"
    eng.emit("turn_started", player=p, amount=state.turn)
    if state.mad[p] == 1:
        state.mad[p] = 2
    for cid in cards_in(eng, "units", p):  # 112.6, 112.7: a mad Beyonder card's next turn
        if state.cards[cid].counters.get("mad") == 1:
            eng.set_counter(cid, "mad", 2)
    if state.dead[p] and not slumbering(eng, p):  # 062.1, 113.4
        receive_corruption(eng, p, 1, damage_step=False)
    phases: list[Step] = [DrawPhase(player=p), RevivalPhase(player=p),
                          PromotionPhase(player=p, n=1), MainPhase(player=p),
                          PromotionPhase(player=p, n=2), EndPhase(player=p)]
    if has_set_events(eng, o):  # 074.8: a window at the start of each phase
        phases = [x for ph in phases for x in (QuickWindow(player=o), ph)]
    eng.push(*phases, EndTurn(player=p))


def has_set_events(eng: Eng, p: int) -> bool:
    """Whether ``p`` has any event set face down in their Spirit World (public fact). The
    opponent's actions cannot add one, so a turn without one needs no quick windows."""
    state = eng.state
    cards = state.cards
    for c in state.zones[_SPIRIT[p]].cards:
        card = cards[c]
        if card.face_down and card.counters and "set_turn" in card.counters:
            return True
    return False


def _timed_sources(eng: Eng, p: int, timing: str) -> list[int]:
    """``p``'s face-up cards (RB, units, non-characteristic Spirit World cards) with an ability
    of ``timing`` (027.2)."""
    state = eng.state
    pool = state.pool
    having = _HAVING.get((pool, timing))
    if having is None:
        having = _having(pool, timing)
    if not having:  # no card of the pool has such an ability
        return []
    cards = state.cards
    zones = state.zones
    out: list[int] = []
    for zid in (_REVIVAL[p], _UNITS[p]):
        for cid in zones[zid].cards:
            if cid != EMPTY_SLOT:
                card = cards[cid]
                if not card.face_down and card.code in having:
                    out.append(cid)
    sw = zones[_SPIRIT[p]].cards
    if sw:
        info = card_infos(state)
        for cid in sw:
            card = cards[cid]
            if not card.face_down and card.code in having and not info[card.code].char:
                out.append(cid)  # not a characteristic (028.1)
    return out


#: (pool, timing) -> codes of the cards with an ability of that timing (immutable data)
_HAVING: dict[tuple[str, str], frozenset[str]] = {}


def _having(pool: str, timing: str) -> frozenset[str]:
    codes = _HAVING[(pool, timing)] = frozenset(
        code for code, d in _pool_defs(pool).items() if timing in timings(d))
    return codes


def _timed(eng: Eng, p: int, timing: str) -> list[Step]:
    """The step resolving ``p``'s ``timing`` abilities, or nothing when no card has one."""
    sources = _timed_sources(eng, p, timing)
    return [TimedEffects(player=p, timing=timing, sources=sources)] if sources else []


@on(TimedEffects)
def _timed_effects(eng: Eng, step: TimedEffects) -> None:
    """069.1: the turn player orders their own simultaneous timed effects."""
    p = step.player
    live = [c for c in step.sources if not eng.state.cards[c].face_down
            and eng.state.cards[c].zone.startswith(("revival.", "units.", "spirit."))]
    if len(live) <= 1:
        for cid in live:
            eng.push(*_effects_of(eng, p, cid, step.timing))
        return
    eng.ask(p, "order_effects", f"Choose which {step.timing} effect happens next",
            [Option(key=f"card:{c}", label=cdef(eng, c).name_en, card=c) for c in live],
            resume=TimedAnswer(player=p, timing=step.timing, sources=live))


@on(TimedAnswer)
def _timed_answer(eng: Eng, step: TimedAnswer) -> None:
    cid = int(eng.answer[0].split(":")[1])
    rest = [c for c in step.sources if c != cid]
    eng.push(*_effects_of(eng, step.player, cid, step.timing),
             TimedEffects(player=step.player, timing=step.timing, sources=rest))


@on(DrawPhase)
def _draw_phase(eng: Eng, step: DrawPhase) -> None:
    eng.state.phase = "draw"
    eng.emit("phase", player=step.player, data={"phase": "draw"})
    draw(eng, step.player, 1)  # 063.1


@on(RevivalPhase)
def _revival_phase(eng: Eng, step: RevivalPhase) -> None:
    state = eng.state
    state.phase = "revival"
    p = step.player
    eng.emit("phase", player=p, data={"phase": "revival"})
    seats = (0, 1) if state.options.untap_scope == "all" else (p,)  # 064.1
    cards = state.cards
    zones = state.zones
    for s in seats:
        for cid in [*zones[_UNITS[s]].cards, *zones[_REVIVAL[s]].cards]:
            if cid != EMPTY_SLOT and cards[cid].exhausted:
                eng.update_card(cid, exhausted=False)
                eng.emit("untapped", player=s, card=cid, code=cards[cid].code)
    eng.push(*_timed(eng, p, "revival_phase"))


@on(EndPhase)
def _end_phase(eng: Eng, step: EndPhase) -> None:
    eng.state.phase = "end"
    eng.emit("phase", player=step.player, data={"phase": "end"})
    eng.push(*_timed(eng, step.player, "end_phase"))


@on(EndTurn)
def _end_turn(eng: Eng, step: EndTurn) -> None:
    state = eng.state
    p = step.player
    if state.mad[p] == 2:  # 112.6
        state.mad[p] = 0
        eng.emit("madness_ended", player=p)
    for cid in cards_in(eng, "units", p):  # 112.7
        card = state.cards[cid]
        if card.counters.get("mad") == 2:
            eng.remove_counter(cid, "mad")
            eng.emit("madness_ended", player=p, card=cid, code=card.code)


# ----------------------------------------------------------------------------- promotion


def ritual_ok(eng: Eng, p: int, pathway: str, seq: int) -> bool:
    """Whether ``p`` controls a usable ritual for (pathway, seq) (083)."""
    state = eng.state
    keep = state.options.characteristic_keeps_ritual == "yes"
    ctrl = controlled(eng, p)
    cards = state.cards
    info = card_infos(state)
    defs = [info[cards[c].code].d for c in ctrl]
    slate = any(d.extra_kind == "blasphemy_slate" for d in defs)
    for c, d in zip(ctrl, defs, strict=True):
        if not keep and is_characteristic(eng, c):
            continue
        rituals: list[Ritual] = []
        if d.ritual is not None and d.is_potion:
            rituals.append(d.ritual)
        if slate and d.extra_kind in ("blasphemy_slate", "blasphemy_card"):
            rituals += d.rituals
        for r in rituals:
            if r.pathway == pathway and r.sequence == seq and cond_ok(eng, p, r.condition):
                return True
    return False


def _seq0_ok(eng: Eng, p: int, absorbed: int) -> bool:
    """Sequence-0 requirements (088.2-088.4)."""
    path = rb_path(eng, p)
    sw = cards_in(eng, "spirit", p)
    ones = [c for c in sw if c != absorbed and is_characteristic(eng, c)
            and cdef(eng, c).pathway == path and char_seq(eng, c) == 1]
    if len(ones) < 3:
        return False
    if not any(not eng.state.cards[c].face_down and cdef(eng, c).extra_kind == "uniqueness"
               and cdef(eng, c).pathway == path for c in sw):
        return False
    keep = eng.state.options.characteristic_keeps_ritual == "yes"
    for c in controlled(eng, p):
        d = cdef(eng, c)
        r = d.apotheosis_ritual
        if d.extra_kind != "god" or r is None or r.pathway != path:
            continue
        if not keep and is_characteristic(eng, c):
            continue
        if cond_ok(eng, p, r.condition):
            return True
    return False


def promotion_candidates(eng: Eng, p: int) -> list[int]:
    """Characteristics ``p`` may absorb now (082.1, 083, 088)."""
    state = eng.state
    seq = state.sequence[p]
    if seq <= 0:
        return []
    target = seq - 1
    path = rb_path(eng, p)
    out = []
    cards = state.cards
    info = card_infos(state)
    for c in state.zones[_SPIRIT[p]].cards:
        card = cards[c]
        if card.face_down:
            continue
        i = info[card.code]
        if not i.char or i.d.pathway != path:  # a characteristic of the RB's pathway (028.1)
            continue
        ctr = card.counters
        if (ctr["seq"] if ctr and "seq" in ctr else i.d.sequence) != target:  # char_seq
            continue
        if 1 <= target <= 5 and not ritual_ok(eng, p, path, target):
            continue
        if target == 0 and not _seq0_ok(eng, p, c):
            continue
        out.append(c)
    return out


def ascension_ready(eng: Eng, p: int) -> bool:
    """Great Old One requirements (089.1, 089.8)."""
    state = eng.state
    if state.sequence[p] != 0:
        return False
    path = rb_path(eng, p)
    pw = load_pathways()
    src = pw.source_of(path)
    sw = [c for c in cards_in(eng, "spirit", p) if not state.cards[c].face_down]
    lone = sum(1 for x in pw.pathways.values() if x.source == src) == 1
    adj = any(is_characteristic(eng, c) and char_seq(eng, c) == 1
              and pw.adjacent(path, cdef(eng, c).pathway or "") for c in sw)
    if not adj and not (lone and state.options.lone_source_ascension == "waive_adjacent"):
        return False
    uniq = any(cdef(eng, c).extra_kind == "uniqueness" and cdef(eng, c).pathway == path
               for c in sw)
    source = any(cdef(eng, c).extra_kind == "source" and cdef(eng, c).source == src for c in sw)
    return uniq and source


def begin_ascension(eng: Eng, p: int) -> None:
    """The RB slumbers in the Astral World (089.4)."""
    state = eng.state
    state.ascend_round[p] = state.round
    eng.move(state.rb[p], z("astral", p), face_down=False, kind="slumber")  # 031.5
    eng.emit("ascension_began", player=p, amount=state.round)


@on(PromotionPhase)
def _promotion_phase(eng: Eng, step: PromotionPhase) -> None:
    eng.state.phase = f"promotion{step.n}"
    p = step.player
    eng.emit("phase", player=p, data={"phase": f"promotion {step.n}"})
    eng.push(*_timed(eng, p, "promotion_phase"), PromotionAsk(player=p, n=step.n))  # 065.1


def _can_promote(eng: Eng, p: int) -> bool:
    if slumbering(eng, p):
        return False
    return not eng.state.dead[p] or eng.state.options.dead_rb_can_promote == "yes"


@on(PromotionAsk)
def _promotion_ask(eng: Eng, step: PromotionAsk) -> None:
    p = step.player
    if not _can_promote(eng, p):
        return
    state = eng.state
    ready = not state.dead[p] and state.sequence[p] == 0 and ascension_ready(eng, p)
    if ready and state.options.ascension_start == "automatic":
        begin_ascension(eng, p)
        return
    cands = promotion_candidates(eng, p)
    opts = [Option(key=f"promote:{c}", label=f"Promote with {cdef(eng, c).name_en}", card=c)
            for c in cands] if cands else []
    if ready:
        opts.append(Option(key="ascend", label="Begin the Great Old One ascension"))
    if not opts:
        return
    opts.append(Option(key="pass", label="Do not promote"))
    eng.ask(p, "promotion", f"Promotion phase {step.n}: promote?", opts,
            resume=PromotionAnswer(player=p, n=step.n))


@on(PromotionAnswer)
def _promotion_answer(eng: Eng, step: PromotionAnswer) -> None:
    key = eng.answer[0]
    p = step.player
    if key == "pass":
        return
    if key == "ascend":
        begin_ascension(eng, p)
        return
    promote(eng, p, int(key.split(":")[1]))


def promote(eng: Eng, p: int, cid: int) -> None:
    """Absorb a characteristic (084-087)."""
    state = eng.state
    target = char_seq(eng, cid)
    assert target is not None
    stack = state.zones[z("stack", p)].cards
    needs_check = any(state.cards[c].face_down for c in stack)  # 085.1
    eng.move(cid, z("stack", p), index=0, face_down=True, kind="absorbed")  # 084.1
    success = True
    if needs_check:
        top = reveal_top(eng, p, "promotion_check")
        if top is None:
            return
        d = cdef(eng, top)
        success = d.is_potion or (d.pathway == rb_path(eng, p) and d.sequence is not None
                                  and d.sequence >= state.sequence[p])  # 085.3
        eng.move(top, z("deck", p), reveal=True, kind="to_bottom")  # 085.4
    if not success:
        eng.emit("promotion_failed", player=p, amount=state.sequence[p])
        go_mad(eng, p, "promotion_failed")  # 085.5
        return
    state.sequence[p] = target  # 086.1
    eng.emit("promoted", player=p, amount=target)
    if not state.rewarded[p]:  # 087.2
        state.rewarded[p] = True
        _reward(eng, p)


def _reward(eng: Eng, p: int) -> None:
    extra = cards_in(eng, "extra", p)
    if not extra or len(cards_in(eng, "spirit", p)) >= 7:  # 087.3
        draw(eng, p, 1)
        return
    eng.ask(p, "reward_order", "Promotion reward: set an extra-deck card first, or draw first?",
            [Option(key="set_first", label="Set first"), Option(key="draw_first", label="Draw first")],
            resume=RewardAnswer(player=p))


@on(RewardAnswer)
def _reward_answer(eng: Eng, step: RewardAnswer) -> None:
    p = step.player
    if eng.answer[0] == "set_first":
        eng.push(RewardPick(player=p, draw_after=True))
    else:
        draw(eng, p, 1)
        eng.push(RewardPick(player=p, draw_after=False))


@on(RewardPick)
def _reward_pick(eng: Eng, step: RewardPick) -> None:
    p = step.player
    opts = [Option(key=f"extra:{c}", label=cdef(eng, c).name_en, card=c)
            for c in cards_in(eng, "extra", p)]
    if not opts or len(cards_in(eng, "spirit", p)) >= 7:
        if step.draw_after:
            draw(eng, p, 1)
        return
    eng.ask(p, "reward_pick", "Choose an extra-deck card to set in your Spirit World", opts,
            resume=RewardPickAnswer(player=p, draw_after=step.draw_after))


@on(RewardPickAnswer)
def _reward_pick_answer(eng: Eng, step: RewardPickAnswer) -> None:
    p = step.player
    cid = int(eng.answer[0].split(":")[1])
    eng.move(cid, z("spirit", p), face_down=True, kind="set")
    if step.draw_after:
        draw(eng, p, 1)


# ----------------------------------------------------------------------------- main phase


def _defs(eng: Eng) -> dict[str, CardDef]:
    state = eng.state
    cards = _DEFS.get(state.pool)
    if cards is None:
        cards = _DEFS[state.pool] = get_pool(state.pool).cards
    return cards


#: longest ability text shown in a 【起】 option label before it is cut with "…"
_ABILITY_LABEL_MAX = 72


def _ability_summary(d: CardDef, n: int) -> str:
    """What ability ``n`` of ``d`` does, for its 【起】 option label: its English text without
    the leading ``【起】:`` (cut at :data:`_ABILITY_LABEL_MAX` characters), else ``ability N``
    (1-based), so that two 【起】 options of one card never read the same."""
    ab = d.abilities[n] if 0 <= n < len(d.abilities) else None
    text = ab.text_en.strip() if ab is not None else ""
    if text.startswith("【起】"):
        text = text[len("【起】"):].lstrip(" :：").strip()
    if not text:
        return f"ability {n + 1}"
    if len(text) > _ABILITY_LABEL_MAX:
        text = text[:_ABILITY_LABEL_MAX - 1].rstrip() + "…"
    return text


class _CardOpts:
    """Every main-phase option one card instance can ever be offered, built once from its
    (immutable) definition; :func:`main_options` picks from it with the live state.

    Attributes:
        code: the card code it was built for.
        gate: highest RB sequence that may play it from hand (072.1); -1: never from hand.
        from_hand: its options while in hand, at index ``ev * 16 + empty``: ``empty`` has bit
            s set when unit slot s is empty (play to each, 073.1); ``ev`` is 8 when no event
            may be put into the Spirit World now (074.1), else the sum of 1 (normal events may
            be set, option ``set_event_activation``), 2 (quick events may be activated from
            hand, option ``quick_event_from_hand``) and 4 (an event was already activated
            this turn, 074.9).
        up: for an event that is not continuous, its "activate from hand" option (offered
            only when one of its effects can change the game, 074.13); else ``None``.
        event_effects: an event's ``on_play`` effects as (op, amount) pairs.
        spirit: face down in the Spirit World: 0 = nothing, 1 = extra card, 2 = flip.
        spirit_opt: the option for ``spirit``.
        conds: an extra card's activation condition (122.1).
        seq_max: the condition as "RB sequence <= n": n, or -1 when it is anything else (then
            :func:`cond_ok` decides).
        potion: a potion item's option in a unit slot (076.1).
        ignites: one option per 【起】 ability, in ability order (075).
        ignite_effects: the effects of each of ``ignites``, as (op, amount) pairs (075.3).
        owner: the seat whose unit zone its play options name (their ``data``: ``zone`` and
            ``slot``, the place a front end highlights).
        moves: its move/swap options as a unit (077.1) at index ``slot * 16 + empty``, where
            ``empty`` has bit t set when slot t is empty, as (target slot, option) pairs;
            ``None`` until first asked (then :func:`_move_opts`, a function of the card id,
            slot and empty slots alone).
    """

    __slots__ = ("code", "conds", "event_effects", "from_hand", "gate", "ignite_effects",
                 "ignites", "moves", "owner", "potion", "seq_max", "spirit", "spirit_opt", "up")

    def __init__(self, code: str, gate: int, from_hand: tuple[tuple[Option, ...], ...],
                 up: Option | None, event_effects: tuple[tuple[str, int], ...],
                 spirit: int, spirit_opt: Option | None, conds: tuple[Condition, ...],
                 seq_max: int, potion: Option | None, ignites: tuple[Option, ...],
                 ignite_effects: tuple[tuple[tuple[str, int], ...], ...]) -> None:
        self.code = code
        self.owner = -1  # set by _card_opts
        self.gate = gate
        self.from_hand = from_hand
        self.up = up
        self.event_effects = event_effects
        self.spirit = spirit
        self.spirit_opt = spirit_opt
        self.conds = conds
        self.seq_max = seq_max
        self.potion = potion
        self.ignites = ignites
        self.ignite_effects = ignite_effects
        self.moves: list[tuple[tuple[int, Option], ...] | None] = [None] * 64


#: ``from_hand`` index of "no event may be put into the Spirit World now" (074.1, 074.3)
_NO_EVENT = 8


def _card_opts(cid: int, code: str, d: CardDef, owner: int) -> _CardOpts:
    """Build the :class:`_CardOpts` of card instance ``cid`` with definition ``d``, a card of
    seat ``owner``."""
    name = d.name_en
    ctype = d.card_type
    gate = -1 if d.rank is None else RANK_GATE[d.rank]
    none: tuple[Option, ...] = ()
    from_hand = [none] * (16 * (_NO_EVENT + 1))
    up: Option | None = None
    event_effects: tuple[tuple[str, int], ...] = ()
    if ctype in ("beyonder", "item"):
        zone = _UNITS[owner]
        plays = [Option(key=f"play:{cid}:{s}", label=f"Play {name} to {SLOT_NAMES[s]}", card=cid,
                        data={"zone": zone, "slot": s}) for s in range(4)]
        by_empty = [tuple(plays[s] for s in range(4) if empty >> s & 1) for empty in range(16)]
        from_hand = by_empty * (_NO_EVENT + 1)  # the same for every ``ev``
    elif ctype == "event":
        quick = d.event_kind == "quick"
        act = Option(key=f"event:{cid}:up", label=f"Activate {name}", card=cid)
        down = Option(key=f"event:{cid}:set", label=f"Set {name}", card=cid)
        for ev in range(_NO_EVENT):
            set_ok, quick_up_ok, activated = bool(ev & 1), bool(ev & 2), bool(ev & 4)
            got = (((act,) if not activated and (not quick or quick_up_ok) else ())
                   + ((down,) if quick or set_ok else ()))
            for empty in range(16):
                from_hand[ev * 16 + empty] = got
        event_effects = tuple((e.op, e.amount) for ab in d.abilities if ab.timing == "on_play"
                              for e in ab.effects)
        if d.event_kind != "continuous":
            up = act
    spirit, spirit_opt = 0, None
    if d.extra_kind is not None:
        spirit, spirit_opt = 1, Option(key=f"extra:{cid}", label=f"Activate {name}", card=cid)
    elif ctype == "event" and d.event_kind != "quick":
        spirit, spirit_opt = 2, Option(key=f"flip:{cid}", label=f"Activate set {name}", card=cid)
    potion = (Option(key=f"potion:{cid}", label=f"Activate potion {name}", card=cid)
              if d.item_kind == "potion" else None)
    ignition = [(i, ab) for i, ab in enumerate(d.abilities) if ab.timing == "ignition"]
    ignites = tuple(Option(key=f"ignite:{cid}:{i}",
                           label=f"Activate {name}'s ability: {_ability_summary(d, i)}",
                           card=cid) for i, _ in ignition)
    ignite_effects = tuple(tuple((e.op, e.amount) for e in ab.effects) for _, ab in ignition)
    conds = d.activation_condition
    seq_max = -1
    if all(c.kind == "always" for c in conds):
        seq_max = 1 << 30
    elif len(conds) == 1 and conds[0].kind == "rb_sequence_at_most":
        seq_max = conds[0].value
    rec = _CardOpts(code, gate, tuple(from_hand), up, event_effects, spirit, spirit_opt, conds,
                    seq_max, potion, ignites, ignite_effects)
    rec.owner = owner
    return rec


#: pool -> card id -> the card's :class:`_CardOpts` (``None`` until built; rebuilt when the id
#: holds another code). Options are immutable records once asked (nothing edits a choice's
#: options), so one instance serves every choice and match in the process; derived from
#: immutable card definitions only, a cache and not game state.
_OPTS: dict[str, list[_CardOpts | None]] = {}
_END_OPT = Option(key="end", label="End the main phase")


def _move_opts(cid: int, s: int, empty_mask: int) -> tuple[tuple[int, Option], ...]:
    """The move/swap options of unit ``cid`` in slot ``s`` when the empty slots are the bits of
    ``empty_mask`` (cached in :attr:`_CardOpts.moves`), each with its target slot: to each
    other slot ``t``, a move when ``t`` is empty, else a swap listed once, by the unit in the
    lower slot (077.1), in the order :func:`main_options` lists them; labels name slots, not
    cards."""
    out: list[tuple[int, Option]] = []
    for t in range(4):
        if t != s:
            free = bool(empty_mask >> t & 1)
            if free or t > s:
                out.append((t, Option(key=f"move:{cid}:{t}", card=cid,
                                      label=f"{'Move' if free else 'Swap'} "
                                            f"{SLOT_NAMES[s]} -> {SLOT_NAMES[t]}")))
    return tuple(out)


def _arrangement_after(units: list[int], s: int, t: int) -> tuple[int, int, int, int]:
    """The unit zone after the unit in slot ``s`` moves to (or swaps with) slot ``t``."""
    after = list(units)
    after[s], after[t] = units[t], units[s]
    return after[0], after[1], after[2], after[3]


def main_options(eng: Eng, p: int) -> list[Option]:
    """Legal main-phase actions (071-077, 122.1); ``end`` is always last.

    Order: from hand (per card: play to each empty slot, or activate then set an event), face-
    down Spirit World cards (extra activation or flip), potions and 【起】 abilities of units
    then the RB, moves/swaps, ``end``. Options come from caches of immutable derived data
    (:data:`_OPTS` per card instance and code, with its move options per slot and empty
    slots); what is offered is decided from the live state at every call: an activation none
    of whose effects can change the game is not offered (075.3, 074.13), nor a move or swap
    that recreates an arrangement of ``state.arrangements`` (077.5).
    """
    state = eng.state
    cards = state.cards
    pool = state.pool
    recs = _OPTS.get(pool)
    if recs is None or len(recs) < len(cards):
        recs = _OPTS[pool] = (recs or []) + [None] * (len(cards) - len(recs or []))
    zones = state.zones
    opts: list[Option] = []
    add = opts.append
    extend = opts.extend
    units = zones[_UNITS[p]].cards
    sw = zones[_SPIRIT[p]].cards
    sw_full = len(sw) >= 7
    o = state.options
    seq = state.sequence[p]
    u0, u1, u2, u3 = units  # the four unit slots (F1, F2, B1, B2)
    empty = ((u0 == EMPTY_SLOT) | (u1 == EMPTY_SLOT) << 1 | (u2 == EMPTY_SLOT) << 2
             | (u3 == EMPTY_SLOT) << 3)
    activated = state.events_activated[p] > 0  # 074.9
    if state.events_played[p] == 0 and not sw_full:  # 074.1, 074.3
        hidx = 16 * (4 * activated + 2 * (o.quick_event_from_hand == "allowed")
                     + (o.set_event_activation == "later_main_phase")) + empty
    else:
        hidx = 16 * _NO_EVENT + empty
    for cid in zones[_HAND[p]].cards:
        code = cards[cid].code
        rec = recs[cid]
        if rec is None or rec.code != code or rec.owner != p:
            rec = recs[cid] = _card_opts(cid, code, _pool_defs(pool)[code], p)
        if seq <= rec.gate:  # 072.1
            got = rec.from_hand[hidx]
            if got and got[0] is rec.up and not _can_act(eng, p, cid, rec.event_effects):
                got = got[1:]  # 074.13: activating it could change nothing
            extend(got)
    for cid in sw:
        card = cards[cid]
        if not card.face_down:
            continue
        code = card.code
        rec = recs[cid]
        if rec is None or rec.code != code or rec.owner != p:
            rec = recs[cid] = _card_opts(cid, code, _pool_defs(pool)[code], p)
        k = rec.spirit
        if k == 1:
            if seq <= rec.seq_max or (rec.seq_max < 0 and cond_ok(eng, p, rec.conds)):
                add(rec.spirit_opt)  # type: ignore[arg-type]
        elif (k == 2 and not activated and card.counters.get("set_turn", -1) != state.turn
              and (rec.up is None or _can_act(eng, p, cid, rec.event_effects))):
            add(rec.spirit_opt)  # type: ignore[arg-type]  # 074.12, 074.9, 074.13
    rb = state.rb[p]
    used = state.used_ignition
    seen = state.arrangements
    # only the current arrangement seen (the usual case): every move makes a new one
    recheck = len(seen) > 1 or (bool(seen) and seen[0] != (u0, u1, u2, u3))
    moves: list[tuple[tuple[int, Option], ...]] = []  # per unit, in slot order, listed last
    for s, cid in enumerate(units):
        if cid == EMPTY_SLOT:
            continue
        card = cards[cid]
        code = card.code
        rec = recs[cid]
        if rec is None or rec.code != code or rec.owner != p:
            rec = recs[cid] = _card_opts(cid, code, _pool_defs(pool)[code], p)
        if rec.potion is not None and cid != rb and not sw_full:
            add(rec.potion)
        ctr = card.counters
        if rec.ignites and cid not in used and not (ctr and (ctr.get("no_act")
                                                             or ctr.get("mad"))):
            for opt, effects in zip(rec.ignites, rec.ignite_effects, strict=True):
                if _can_act(eng, p, cid, effects):  # 075.3
                    add(opt)
        mv = rec.moves[s * 16 + empty]
        if mv is None:
            mv = rec.moves[s * 16 + empty] = _move_opts(cid, s, empty)
        if recheck:
            mv = tuple(m for m in mv if _arrangement_after(units, s, m[0]) not in seen)
        moves.append(mv)
    card = cards[rb]
    if card.zone == _REVIVAL[p] and not state.mad[p]:
        code = card.code
        rec = recs[rb]
        if rec is None or rec.code != code or rec.owner != p:
            rec = recs[rb] = _card_opts(rb, code, _pool_defs(pool)[code], p)
        if rec.ignites and rb not in used and not (card.counters and card.counters.get("no_act")):
            for opt, effects in zip(rec.ignites, rec.ignite_effects, strict=True):
                if _can_act(eng, p, rb, effects):  # 075.3
                    add(opt)
    for mv in moves:
        for _, opt in mv:
            add(opt)
    add(_END_OPT)
    return opts


@on(MainPhase)
def _main_phase(eng: Eng, step: MainPhase) -> None:
    state = eng.state
    p = step.player
    if state.phase != "main":
        state.phase = "main"
        eng.emit("phase", player=p, data={"phase": "main"})
    u0, u1, u2, u3 = state.zones[_UNITS[p]].cards
    now = (u0, u1, u2, u3)
    if now not in state.arrangements:  # 077.5: every arrangement this main phase has shown
        state.arrangements.append(now)
    opts = main_options(eng, p)
    if len(opts) == 1:
        return
    eng.ask(p, "main_action", "Main phase: choose an action", opts, resume=MainAnswer(player=p))


def _effects_of(eng: Eng, p: int, cid: int, timing: str) -> list[DoEffect]:
    state = eng.state
    effects = card_infos(state)[state.cards[cid].code].effects.get(timing)
    if not effects:
        return []
    return [DoEffect(player=p, source=cid, op=op, amount=n) for op, n in effects]


def activate_event(eng: Eng, p: int, cid: int) -> None:
    """Turn an event face up and resolve it (074.2, 074.4-074.6)."""
    card = eng.update_card(cid, face_down=False)
    eng.emit("event_activated", player=p, card=cid, code=card.code)
    eng.push(*_effects_of(eng, p, cid, "on_play"), FinishEvent(player=p, card=cid))


@on(MainAnswer)
def _main_answer(eng: Eng, step: MainAnswer) -> None:
    state = eng.state
    p = step.player
    key = eng.answer[0]
    if key == "end":
        return
    parts = key.split(":")
    verb, cid = parts[0], int(parts[1])
    eng.push(MainPhase(player=p))
    if has_set_events(eng, 1 - p):
        eng.push(QuickWindow(player=1 - p))  # 074.8: after the action, before the next
    if verb == "move":  # 077.1
        units = state.zones[_UNITS[p]].cards
        s, t = units.index(cid), int(parts[2])
        other = units[t]
        units[s], units[t] = other, cid
        eng.emit("units_moved", player=p, data={"from": s, "to": t, "card": cid,
                                                "other": None if other == EMPTY_SLOT else other})
    elif verb == "play":  # 073.1
        eng.move(cid, _UNITS[p], slot=int(parts[2]), face_down=False, kind="played")
        effects = _effects_of(eng, p, cid, "on_play")
        if effects:
            eng.push(*effects)
    elif verb == "event":
        state.events_played[p] += 1  # 074.1
        if parts[2] == "set":
            eng.move(cid, z("spirit", p), face_down=True, kind="set")
            eng.update_card(cid, counters={"set_turn": state.turn, "set_round": state.round})
        else:
            state.events_activated[p] += 1  # 074.9
            eng.move(cid, z("spirit", p), face_down=False, kind="played")
            activate_event(eng, p, cid)
    elif verb == "flip":  # 074.12
        state.events_activated[p] += 1  # 074.9
        activate_event(eng, p, cid)
    elif verb == "extra":  # 122.1
        card = eng.update_card(cid, face_down=False)
        eng.emit("extra_activated", player=p, card=cid, code=card.code)
        eng.push(*_effects_of(eng, p, cid, "activation"), FinishExtra(player=p, card=cid))
    elif verb == "potion":  # 076.1
        eng.move(cid, z("spirit", p), face_down=False, kind="potion_activated")
    elif verb == "ignite":  # 075
        state.used_ignition.append(cid)
        ab = cdef(eng, cid).abilities[int(parts[2])]
        eng.emit("ignition", player=p, card=cid, code=state.cards[cid].code)
        eng.push(*[DoEffect(player=p, source=cid, op=e.op, amount=e.amount) for e in ab.effects])


@on(FinishEvent)
def _finish_event(eng: Eng, step: FinishEvent) -> None:
    card = eng.state.cards[step.card]
    if card.zone != z("spirit", step.player) or card.face_down:
        return
    if cdef(eng, step.card).event_kind != "continuous":  # 074.4
        eng.move(step.card, z("underworld", card.owner), face_down=False, kind="resolved")


@on(FinishExtra)
def _finish_extra(eng: Eng, step: FinishExtra) -> None:
    card = eng.state.cards[step.card]
    if card.zone != z("spirit", step.player):
        return
    dest = cdef(eng, step.card).after_activation
    if dest is None:  # 122.2
        dest = eng.state.options.extra_card_default_destination
    if dest == "hand":
        eng.move(step.card, z("hand", card.owner), kind="to_hand")
    elif dest == "underworld":
        eng.move(step.card, z("underworld", card.owner), face_down=False, kind="resolved")


# ----------------------------------------------------------------------------- quick events


def _quick_token(eng: Eng) -> str:
    state = eng.state
    return f"b{state.round}" if state.in_battle else f"t{state.turn}"


def quick_window_cards(eng: Eng, p: int) -> list[int]:
    """Face-down events ``p`` set from hand that the timing rules would let them activate now
    if they were quick events (074.6, 074.7, 074.11).

    This uses only public facts (which face-down cards were set from hand, and when), so
    whether a window is offered never tells the opponent what a set card is.
    """
    state = eng.state
    if state.result is not None or (not state.in_battle and state.active_player == p):
        return []
    out = []
    cards = state.cards
    in_battle = state.in_battle
    for cid in state.zones[_SPIRIT[p]].cards:
        card = cards[cid]
        if not card.face_down or "set_turn" not in card.counters:
            continue
        if in_battle:
            if (state.options.quick_event_same_round_battle == "forbidden"
                    and card.counters.get("set_round", -1) == state.round):
                continue
        elif card.counters.get("set_turn", -1) == state.turn:
            continue
        out.append(cid)
    if out and state.quick_used[p] == _quick_token(eng):  # 074.7: one per window group
        return []
    return out


def quick_events(eng: Eng, p: int) -> list[int]:
    """Set quick events ``p`` may activate in the current window."""
    return [c for c in quick_window_cards(eng, p) if cdef(eng, c).event_kind == "quick"]


@on(QuickWindow)
def _quick_window(eng: Eng, step: QuickWindow) -> None:
    """A quick-event window (074.8); offered whenever a set card could be a usable quick
    event, so the offer itself reveals nothing."""
    p = step.player
    cands = quick_window_cards(eng, p)
    if not cands:
        return
    info = card_infos(eng.state)
    opts = [Option(key=f"quick:{c}", label=f"Activate {cdef(eng, c).name_en}", card=c)
            for c in cands if cdef(eng, c).event_kind == "quick"
            and _can_act(eng, p, c, info[eng.state.cards[c].code].effects.get("on_play", ()))]
    opts.append(Option(key="pass", label="Do not activate"))
    eng.ask(p, "quick_event", "Activate a set quick event?", opts, resume=QuickAnswer(player=p))


@on(QuickAnswer)
def _quick_answer(eng: Eng, step: QuickAnswer) -> None:
    key = eng.answer[0]
    if key == "pass":
        return
    p = step.player
    eng.state.quick_used[p] = _quick_token(eng)
    activate_event(eng, p, int(key.split(":")[1]))


# ----------------------------------------------------------------------------- effects


def _targets(eng: Eng, p: int, op: str, amount: int = 0) -> list[int]:
    state = eng.state
    o = 1 - p
    if op == "strength":
        return [c for c in cards_in(eng, "units", p) if cdef(eng, c).is_beyonder]
    if op == "weaken":
        return [c for c in cards_in(eng, "units", o) if cdef(eng, c).is_beyonder]
    if op == "destroy_item":
        return [c for c in cards_in(eng, "units", o) if cdef(eng, c).card_type == "item"
                and not state.cards[c].counters.get("protect")]
    if op == "destroy_event":
        return [c for c in cards_in(eng, "spirit", o) if not state.cards[c].face_down
                and cdef(eng, c).card_type == "event"]
    if op == "spirit_to_hand":
        return cards_in(eng, "spirit", p)
    if op in ("destroy_unit", "bounce"):
        return [c for c in cards_in(eng, "units", o) if cdef(eng, c).is_beyonder
                and strength(eng, c) <= amount]
    if op == "tap_unit":
        return [c for c in cards_in(eng, "units", o) if cdef(eng, c).is_beyonder
                and not state.cards[c].exhausted]
    if op == "madden_unit":  # 112.5: a mad card cannot go mad again
        return [c for c in cards_in(eng, "units", o) if cdef(eng, c).is_beyonder
                and not unit_mad(eng, c)]
    if op == "shield":
        return [c for c in cards_in(eng, "units", p) if cdef(eng, c).is_beyonder]
    if op == "set_extra":
        return cards_in(eng, "extra", p) if len(cards_in(eng, "spirit", p)) < 7 else []
    if op == "converge":
        if len(cards_in(eng, "spirit", p)) >= 7:
            return []
        path = rb_path(eng, p)
        out = []
        for kind in ("hand", "units", "underworld"):
            for c in cards_in(eng, kind, p):
                d = cdef(eng, c)
                if (d.pathway == path and d.sequence is not None and d.sequence <= 3
                        and (d.is_beyonder or d.is_potion)):
                    out.append(c)
        return out
    return []


def _search_codes(eng: Eng, p: int, op: str) -> list[str]:
    """Distinct codes in ``p``'s main deck that a search may find, sorted by code (the
    searching player looks through their own deck; keys name codes, never instance ids, and
    the order must not tell where in the hidden deck a card lies)."""
    state = eng.state
    ok = _searchable(eng, p, op)
    cards = state.cards
    return sorted({cards[c].code for c in state.zones[_DECK[p]].cards} & ok)


def _search_finds(eng: Eng, p: int, op: str) -> bool:
    """Whether :func:`_search_codes` would find anything (without building the list)."""
    ok = _searchable(eng, p, op)
    cards = eng.state.cards
    return any(cards[c].code in ok for c in eng.state.zones[_DECK[p]].cards)


def _searchable(eng: Eng, p: int, op: str) -> frozenset[str]:
    """The codes search ``op`` of ``p`` may find (cached in :data:`_SEARCHABLE`)."""
    state = eng.state
    path = rb_path(eng, p)
    key = (state.pool, path, op, state.sequence[p] - 1 if op == "seek" else 0)
    ok = _SEARCHABLE.get(key)
    if ok is None:
        target = key[3]
        ok_codes = set()
        for code, d in _code_defs(state).items():
            if d.pathway != path:
                continue
            if op == "seek":
                good = d.card_type == "beyonder" and d.sequence == target
            else:
                good = d.item_kind == "potion" if op == "search_potion" else d.card_type == "beyonder"
            if good:
                ok_codes.add(code)
        ok = _SEARCHABLE[key] = frozenset(ok_codes)
    return ok


def _seek_underworld(eng: Eng, p: int) -> list[int]:
    """``p``'s Underworld cards a ``seek`` may take: Beyonder cards of the RB's pathway one
    sequence higher than the RB (the Underworld is public, so they are named by id)."""
    state = eng.state
    target = state.sequence[p] - 1
    path = rb_path(eng, p)
    defs = _defs(eng)
    cards = state.cards
    out = []
    for c in state.zones[f"underworld.{p}"].cards:
        d = defs[cards[c].code]
        if d.card_type == "beyonder" and d.pathway == path and d.sequence == target:
            out.append(c)
    return out


def _recur_options(eng: Eng, p: int) -> list[Option]:
    """River of Eternal Darkness placements (102.3, 013.3): each Beyonder card of ``p``'s
    Underworld with sequence number >= RB - 2, to each empty slot."""
    state = eng.state
    units = state.zones[z("units", p)].cards
    empty = [i for i, c in enumerate(units) if c == EMPTY_SLOT]
    if not empty:
        return []
    limit = state.sequence[p] - 2
    opts = []
    for cid in cards_in(eng, "underworld", p):
        d = cdef(eng, cid)
        if d.is_beyonder and d.sequence is not None and d.sequence >= limit:
            opts += [Option(key=f"card:{cid}:{s}", label=f"{d.name_en} to {SLOT_NAMES[s]}",
                            card=cid) for s in empty]
    return opts


def _source_can_act(eng: Eng, p: int, src: str) -> bool:
    """Whether the Source trigger ``src`` (102) has anything to do for ``p``."""
    if src == "sefirah_castle":
        return bool(cards_in(eng, "spirit", p))
    if src in ("chaos_sea", "city_of_calamity", "brood_hive"):
        return bool(_scope_ids(eng, p))
    if src == "nation_of_disorder":
        return bool(_scope_ids(eng, 1 - p))
    if src == "knowledge_moor":
        return any(cdef(eng, c).card_type == "item" for c in cards_in(eng, "units", p))
    if src == "river_of_eternal_darkness":
        return bool(_recur_options(eng, p))
    return True  # tenebrous_world, key_of_light


def effect_can_act(eng: Eng, p: int, source: int, op: str, amount: int) -> bool:
    """Whether effect ``op`` of card ``source``, carried out now by ``p``, could change the
    game (R32: judged from what ``p`` may know: their own zones, their deck's contents and
    the public zones). Used to leave out activations that could change nothing (074.13,
    075.3)."""
    state = eng.state
    if op in _ALWAYS_ACTS:
        return True
    if op == "heal":
        cards = state.cards
        return any(cards[c].face_down for c in state.zones[f"status.{p}"].cards)
    if op == "madden":
        return not state.mad[1 - p]  # 112.5
    if op == "untap":
        return any(state.cards[c].exhausted for c in cards_in(eng, "units", p))
    if op == "revive":
        return state.dead[p]
    if op == "digest":
        return any(state.cards[c].face_down for c in state.zones[_STACK[p]].cards)
    if op == "to_spirit":
        return (source >= 0 and state.cards[source].zone == _UNITS[p]
                and len(cards_in(eng, "spirit", p)) < 7)
    if op == "recur":
        return bool(_recur_options(eng, p))
    if op == "source_trigger":
        src = cdef(eng, source).source if source >= 0 else None
        return src is not None and _source_can_act(eng, p, src)
    if op in ("search_potion", "search_beyonder"):
        return _search_finds(eng, p, op)
    if op == "seek":
        return len(state.zones[_SPIRIT[p]].cards) < 7 and (
            _search_finds(eng, p, op) or bool(_seek_underworld(eng, p)))
    if op in TARGETED_OPS:
        return bool(_targets(eng, p, op, amount))
    return True


#: effect ops that always change the game when carried out (012.6)
_ALWAYS_ACTS = frozenset({"draw", "corrupt", "static_strength"})


def _can_act(eng: Eng, p: int, source: int, effects: tuple[tuple[str, int], ...]) -> bool:
    """Whether any of ``effects`` could change the game (:func:`effect_can_act`)."""
    return any(effect_can_act(eng, p, source, op, n) for op, n in effects)


#: (pool, RB pathway, search op, target sequence for ``seek``) -> the codes that search may
#: find (derived from immutable card definitions only; a cache, not game state)
_SEARCHABLE: dict[tuple[str, str, str, int], frozenset[str]] = {}


@on(DoEffect)
def _do_effect(eng: Eng, step: DoEffect) -> None:
    state = eng.state
    p, op, n = step.player, step.op, step.amount
    o = 1 - p
    if state.result is not None:
        return
    if op == "draw":
        draw(eng, p, n)
    elif op == "heal":
        status = [c for c in cards_in(eng, "status", p) if state.cards[c].face_down]
        for cid in status[:n]:  # the public Underworld takes cards face up (031.5)
            eng.move(cid, z("underworld", p), face_down=False, kind="healed")
    elif op == "corrupt":
        receive_corruption(eng, o, n, damage_step=False)
    elif op == "madden":
        go_mad(eng, o, "effect")  # 112.1e
    elif op == "untap":
        for cid in cards_in(eng, "units", p):
            eng.update_card(cid, exhausted=False)
    elif op == "revive":  # 114
        if state.dead[p]:
            for cid in cards_in(eng, "status", p)[:n]:  # face up (031.5)
                eng.move(cid, z("underworld", p), face_down=False, kind="healed")
            state.dead[p] = False
            if state.options.dead_corruption_count == "per_death":
                state.dead_corruption[p] = 0
            eng.move(state.rb[p], z("revival", p), face_down=False, kind="revived")
    elif op == "recur":
        _ask_recur(eng, p, step.source)
    elif op == "digest":  # as 104.1, outside an attack
        for sc in state.zones[z("stack", p)].cards:
            if state.cards[sc].face_down:
                eng.update_card(sc, face_down=False)
                eng.emit("digested", player=p, card=sc, code=state.cards[sc].code)
                break
    elif op == "to_spirit":
        src_card = state.cards[step.source] if step.source >= 0 else None
        if (src_card is not None and src_card.zone == z("units", p)
                and len(cards_in(eng, "spirit", p)) < 7):
            eng.move(step.source, z("spirit", p), face_down=False, kind="to_spirit")
    elif op == "source_trigger":
        src = cdef(eng, step.source).source if step.source >= 0 else None
        if src is not None:
            eng.emit("source_trigger", player=p, data={"source": src})
            eng.push(SourceTrigger(player=p, source=src))
    elif op in ("search_potion", "search_beyonder", "seek"):
        found = _search_codes(eng, p, op)
        opts = []
        if op == "seek":
            if len(cards_in(eng, "spirit", p)) >= 7:
                found = []  # 034.2: the placement cannot happen
            else:  # the Underworld is public: its cards are named by id
                defs = _defs(eng)
                cards = state.cards
                opts = [Option(key=f"card:{c}", label=f"{defs[cards[c].code].name_en} "
                               "(Underworld)", card=c) for c in _seek_underworld(eng, p)]
        if found or opts:
            defs = _defs(eng)
            tag: dict[str, tcgcore.Scalar] = {"op": op}  # what the effect does (agents, front ends)
            opts = [Option(key=o.key, label=o.label, card=o.card, data=tag) for o in opts]
            eng.ask(p, "effect_target", _target_prompt(eng, step.source, op, n),
                    opts + [Option(key=f"code:{c}", label=defs[c].name_en, data=tag)
                            for c in found],
                    resume=EffectAnswer(player=p, source=step.source, op=op, amount=n))
        else:  # 075.4: a search that finds nothing says so
            eng.emit("search_failed", player=p, card=step.source if step.source >= 0 else None,
                     data={"op": op})
            eng.shuffle(z("deck", p))
    elif op in TARGETED_OPS:
        ids = _targets(eng, p, op, n)
        if ids:
            tag = {"op": op}
            eng.ask(p, "effect_target", _target_prompt(eng, step.source, op, n),
                    [Option(key=f"card:{c}", label=_unit_label(eng, c), card=c, data=tag)
                     for c in ids],
                    resume=EffectAnswer(player=p, source=step.source, op=op, amount=n))
    eng.emit("effect", player=p, card=step.source if step.source >= 0 else None,
             data={"op": op, "amount": n})


#: what a targeted or searching effect asks for, as the end of "choose ..." ({n}: its amount)
TARGET_PROMPTS: dict[str, str] = {
    "strength": "your Beyonder that gets +{n} strength",
    "weaken": "the opposing Beyonder that gets -{n} strength",
    "destroy_item": "the opposing item to destroy",
    "destroy_event": "the opposing face-up event to destroy",
    "spirit_to_hand": "the Spirit World card to put into your hand",
    "destroy_unit": "the opposing Beyonder (strength {n} or less) to destroy",
    "bounce": "the opposing Beyonder (strength {n} or less) to return to its owner's hand",
    "tap_unit": "the opposing Beyonder to tap",
    "shield": "your Beyonder that cannot be hit",
    "search_potion": "the potion to take from your deck",
    "search_beyonder": "the Beyonder to take from your deck",
    "seek": "the next sequence's Beyonder card (from the Underworld or your deck)",
    "set_extra": "the extra-deck card to set",
    "converge": "the card that becomes a sequence-1 characteristic",
    "madden_unit": "the opposing Beyonder that goes mad",
}

#: what a Source trigger (102) asks for
SOURCE_PROMPTS: dict[str, str] = {
    "knowledge_moor": "choose your item",
}


def _target_prompt(eng: Eng, source: int, op: str, n: int) -> str:
    """The prompt of an effect's target choice in words: the card it comes from and what
    the chosen card will undergo (``"Magician's effect: choose the opposing Beyonder to
    tap"``)."""
    what = "choose " + TARGET_PROMPTS.get(op, "a card").format(n=n)
    if source < 0:
        return what[0].upper() + what[1:]
    return f"{cdef(eng, source).name_en}'s effect: {what}"


def _unit_label(eng: Eng, cid: int) -> str:
    """A card option's label: its name, and for a Beyonder on the field its current
    strength and agility (what a target choice needs)."""
    name = cdef(eng, cid).name_en
    state = eng.state
    card = state.cards[cid]
    if ((card.zone.startswith("units.") and cdef(eng, cid).is_beyonder)
            or cid == state.rb[card.controller]):
        return f"{name} (strength {strength(eng, cid)}, agility {agility(eng, cid)})"
    return name


def _ask_recur(eng: Eng, p: int, source: int) -> None:
    """River of Eternal Darkness placement (102.3, 013.3)."""
    opts = _recur_options(eng, p)
    if opts:
        tag: dict[str, tcgcore.Scalar] = {"op": "recur"}
        eng.ask(p, "effect_target", "Choose a Beyonder to return tapped",
                [Option(key=o.key, label=o.label, card=o.card, data=tag) for o in opts],
                resume=EffectAnswer(player=p, source=source, op="recur", amount=1))


@on(EffectAnswer)
def _effect_answer(eng: Eng, step: EffectAnswer) -> None:
    state = eng.state
    p, op = step.player, step.op
    parts = eng.answer[0].split(":")
    if parts[0] == "code":  # search_potion / search_beyonder / seek (card text, 012.1)
        deck = z("deck", p)
        cid = next(c for c in state.zones[deck].cards if state.cards[c].code == parts[1])
        if op == "seek":
            eng.move(cid, z("spirit", p), face_down=False, reveal=True, kind="sought")
        else:
            eng.move(cid, z("hand", p), kind="searched")  # private: deck and hand are hidden
        eng.shuffle(deck)
        return
    cid = int(parts[1])
    card = state.cards[cid]
    if op == "destroy_unit":
        eng.move(cid, z("underworld", card.owner), face_down=False, kind="destroyed")
    elif op == "bounce":
        eng.move(cid, z("hand", card.owner), kind="bounced")
    elif op == "tap_unit":
        eng.update_card(cid, exhausted=True)
        eng.emit("tapped", player=card.controller, card=cid, code=card.code)
    elif op == "madden_unit":
        go_mad_unit(eng, cid, "effect")  # 112.1e
    elif op == "shield":
        eng.set_counter(cid, "unhittable", 1)
    elif op == "set_extra":
        eng.move(cid, z("spirit", p), face_down=True, kind="set")
    elif op == "seek":
        eng.move(cid, z("spirit", p), face_down=False, kind="sought")
    elif op == "converge":
        eng.move(cid, z("spirit", p), face_down=False, kind="converged")
        eng.update_card(cid, counters={"seq": 1})  # the moved instance, not ``card``
    elif op == "strength":
        eng.add_counter(cid, "bp_str", step.amount)
    elif op == "weaken":
        eng.add_counter(cid, "bp_weak", step.amount)
    elif op in ("destroy_item", "destroy_event"):  # face up into the Underworld (031.5)
        eng.move(cid, z("underworld", card.owner), face_down=False, kind="destroyed")
    elif op == "spirit_to_hand":
        eng.move(cid, z("hand", p), kind="to_hand")
    elif op == "recur":
        # into a slot face up (031.5, 073.1; 102.3 says tapped, not face down)
        eng.move(cid, z("units", p), slot=int(parts[2]), face_down=False, kind="recurred")
        eng.update_card(cid, exhausted=True)  # the moved instance, not ``card``
    else:
        _apply_source_choice(eng, p, op, cid)


# ----------------------------------------------------------------------------- battle


def _char_ids(eng: Eng, p: int) -> list[int]:
    state = eng.state
    cards = state.cards
    info = card_infos(state)
    out = [c for c in state.zones[_UNITS[p]].cards
           if c != EMPTY_SLOT and info[cards[c].code].beyonder]
    if rb_on_field(eng, p):
        out.append(state.rb[p])
    return out


def _order_key(eng: Eng, cid: int) -> tuple[int, int, int, int]:
    state = eng.state
    p = state.cards[cid].controller
    is_rb = cid == state.rb[p]
    return (-agility(eng, cid), 0 if p == state.first else 1, 0 if is_rb else 1,
            -1 if is_rb else slot_of(eng, cid))


def _by_order(eng: Eng, ids: list[int]) -> list[int]:
    """``ids`` sorted by :func:`_order_key` (092.1, 093.1; a stable sort, computed inline)."""
    if len(ids) <= 1:
        return list(ids)
    state = eng.state
    cards = state.cards
    zones = state.zones
    info = card_infos(state)
    first = state.first
    rbs = state.rb
    unit_ch = state.options.characteristic_on_unit == "active"  # 022.2
    keys: dict[int, tuple[int, int, int, int]] = {}
    for cid in ids:
        card = cards[cid]
        p = card.controller
        i = info[card.code]
        agi = i.agility
        if cid == rbs[p]:
            for sc in zones[_STACK[p]].cards:
                c = cards[sc]
                if not c.face_down:
                    agi += info[c.code].ch_agility
            keys[cid] = (-agi, 0 if p == first else 1, 0, -1)
        else:
            if unit_ch:
                agi += i.ch_agility
            zone = card.zone
            slot = zones[zone].cards.index(cid) if zone.startswith("units.") else -1
            keys[cid] = (-agi, 0 if p == first else 1, 1, slot)
    return sorted(ids, key=keys.__getitem__)


@on(BattleStart)
def _battle_start(eng: Eng, step: BattleStart) -> None:
    state = eng.state
    state.in_battle = True
    state.phase = "battle"
    state.active_player = state.first
    state.hits = []
    state.bp_minus = [0, 0]
    eng.emit("battle_started", amount=state.round)
    for p in (0, 1):  # 102.6: "until the next battle phase" ends now
        for cid in cards_in(eng, "units", p):
            if state.cards[cid].counters.get("protect"):
                eng.remove_counter(cid, "protect")
    cards = state.cards
    info = card_infos(state)
    chars = _by_order(eng, _char_ids(eng, 0) + _char_ids(eng, 1))
    steps: list[Step] = []
    for cid in chars:  # 092.1
        if "start_of_battle" in info[cards[cid].code].timings:
            steps += _effects_of(eng, cards[cid].controller, cid, "start_of_battle")
    f = state.first
    zones = state.zones
    for p in (f, 1 - f):  # 092.2
        for cid in zones[_UNITS[p]].cards:
            if cid != EMPTY_SLOT:
                i = info[cards[cid].code]
                if not i.beyonder and "start_of_battle" in i.timings:
                    steps += _effects_of(eng, p, cid, "start_of_battle")
        for cid in [*zones[_SPIRIT[p]].cards, *zones[f"status.{p}"].cards]:
            card = cards[cid]
            if card.face_down:
                continue
            i = info[card.code]
            if "start_of_battle" in i.timings and not (
                    i.char and card.zone.startswith("spirit.")):  # not a characteristic
                steps += _effects_of(eng, p, cid, "start_of_battle")
    steps += [QuickWindow(player=f), QuickWindow(player=1 - f), BattleOrder()]
    eng.push(*steps)


@on(BattleOrder)
def _battle_order(eng: Eng, step: BattleOrder) -> None:
    state = eng.state
    cards = state.cards
    info = card_infos(state)
    cands = []
    for p in (0, 1):  # 093.1
        units = state.zones[_UNITS[p]].cards
        cands += [units[s] for s in FRONT if units[s] != EMPTY_SLOT
                  and info[cards[units[s]].code].beyonder and not cards[units[s]].exhausted]
        if rb_on_field(eng, p) and not cards[state.rb[p]].exhausted:
            cands.append(state.rb[p])
    state.attack_order = _by_order(eng, cands)
    eng.emit("attack_order", data={"order": ",".join(map(str, state.attack_order))})
    eng.push(BattleNext(index=0))


def attack_targets(eng: Eng, p: int) -> list[int]:
    """Legal targets for ``p``'s attacker (094.3)."""
    state = eng.state
    cards = state.cards
    info = card_infos(state)
    o = 1 - p
    units = state.zones[_UNITS[o]].cards
    out = [units[s] for s in FRONT if units[s] != EMPTY_SLOT
           and info[cards[units[s]].code].beyonder]
    if rb_on_field(eng, o):
        out.append(state.rb[o])
    out += [c for c in units if c != EMPTY_SLOT and info[cards[c].code].card_type == "item"
            and not cards[c].counters.get("protect")]
    return out


def _can_attack(eng: Eng, cid: int) -> bool:
    state = eng.state
    card = state.cards[cid]
    p = card.controller
    if card.exhausted or card.counters.get("no_act"):
        return False
    if cid == state.rb[p]:
        return rb_on_field(eng, p)
    return card.zone == _UNITS[p] and slot_of(eng, cid) in FRONT


#: the answer that declines to attack (094.3); it carries no data, so one instance serves all
_NO_ATTACK = Option(key="pass", label="Do not attack")


@on(BattleNext)
def _battle_next(eng: Eng, step: BattleNext) -> None:
    state = eng.state
    order = state.attack_order
    for i in range(step.index, len(order)):
        cid = order[i]
        if not _can_attack(eng, cid):
            continue
        p = state.cards[cid].controller
        targets = attack_targets(eng, p)
        if not targets:  # 094.4
            continue
        cards = state.cards
        defs = _pool_defs(state.pool)
        # built afresh: each carries a data map, which must never be shared between matches
        opts = [Option(key=f"attack:{t}", label=f"Attack {defs[cards[t].code].name_en}", card=t,
                       data={"attacker": cid}) for t in targets]
        opts.append(_NO_ATTACK)
        eng.ask(p, "attack", f"{cdef(eng, cid).name_en} may attack", opts,
                resume=AttackAnswer(index=i))
        return
    f = state.first
    eng.push(QuickWindow(player=f), QuickWindow(player=1 - f), DamageStep())


def _battle_prompt(eng: Eng, attacker: int, support: list[int], target: int) -> str:
    """Who attacks whom with the running totals, as the hit check (095.3, 096.3) would add
    them now: ``"Hunter (300) + support Witch (500) attacks Seer (400): attack 800 vs
    defence 400"``."""
    def part(cid: int) -> str:
        return f"{cdef(eng, cid).name_en} ({strength(eng, cid)})"
    a_value = strength(eng, attacker) + sum(strength(eng, c) for c in support)
    base = strength(eng, target) if _is_char_target(eng, target) else 0
    d_value = base
    who = part(attacker) + "".join(f" + support {part(c)}" for c in support)
    whom = part(target) if _is_char_target(eng, target) else (
        f"{cdef(eng, target).name_en} (an item: defence only from interceptors)")
    return f"{who} attacks {whom}: attack {a_value} vs defence {d_value}"


def _is_char_target(eng: Eng, cid: int) -> bool:
    state = eng.state
    return card_infos(state)[state.cards[cid].code].card_type in ("beyonder", "revival_beyonder")


@on(AttackAnswer)
def _attack_answer(eng: Eng, step: AttackAnswer) -> None:
    state = eng.state
    attacker = state.attack_order[step.index]
    p = state.cards[attacker].controller
    key = eng.answer[0]
    if key == "pass":
        eng.push(BattleNext(index=step.index + 1))
        return
    target = int(key.split(":")[1])
    eng.update_card(attacker, exhausted=True)  # 094.3
    state.attack = Attack(attacker=attacker, player=p, target=target)
    eng.emit("attack_declared", player=p, card=attacker, code=state.cards[attacker].code,
             data={"target": target})
    if attacker == state.rb[p]:  # 104.1
        for sc in state.zones[_STACK[p]].cards:
            if state.cards[sc].face_down:
                eng.update_card(sc, face_down=False)
                eng.emit("digested", player=p, card=sc, code=state.cards[sc].code)
                break
    eng.push(InterceptAsk(), QuickWindow(player=p), QuickWindow(player=1 - p), AttackCheck(),
             HitCheck(), BattleNext(index=step.index + 1))
    if _is_char_target(eng, target):  # 095.1
        units = state.zones[_UNITS[p]].cards
        cards = state.cards
        infos = card_infos(state)
        sup = [units[s] for s in BACK if units[s] != EMPTY_SLOT
               and infos[cards[units[s]].code].beyonder and not cards[units[s]].exhausted
               and not cards[units[s]].counters.get("mad")]  # 112.3
        if sup:
            info: dict[str, tcgcore.Scalar] = {"attacker": attacker, "target": target}
            eng.ask(p, "support", _battle_prompt(eng, attacker, [], target) +
                    ". Tap back-row Beyonders to support the attack (each adds its strength)",
                    [Option(key=f"card:{c}", label=_unit_label(eng, c), card=c, data=info)
                     for c in sup],
                    min=0, max=len(sup), resume=SupportAnswer())


@on(SupportAnswer)
def _support_answer(eng: Eng, step: SupportAnswer) -> None:
    state = eng.state
    assert state.attack is not None
    for k in eng.answer:
        cid = int(k.split(":")[1])
        eng.update_card(cid, exhausted=True)
        state.attack.support.append(cid)
        eng.emit("supported", player=state.attack.player, card=cid, code=state.cards[cid].code)


@on(InterceptAsk)
def _intercept_ask(eng: Eng, step: InterceptAsk) -> None:
    state = eng.state
    att = state.attack
    assert att is not None
    d = 1 - att.player
    char_target = _is_char_target(eng, att.target)
    cards = state.cards
    infos = card_infos(state)
    cands = [c for c in state.zones[_UNITS[d]].cards if c != EMPTY_SLOT
             and infos[cards[c].code].beyonder and not cards[c].exhausted and c != att.target
             and not cards[c].counters.get("mad")]  # 112.3
    rb = state.rb[d]
    if (rb_on_field(eng, d) and rb != att.target and not state.cards[rb].exhausted
            and not state.mad[d]
            and (char_target or state.options.item_intercept_rb == "allowed")):
        cands.append(rb)
    if not cands:
        return
    info: dict[str, tcgcore.Scalar] = {
        "attacker": att.attacker, "target": att.target,
        "support": ",".join(map(str, att.support))}
    eng.ask(d, "intercept", _battle_prompt(eng, att.attacker, att.support, att.target) +
            ". Tap characters to intercept (each adds its strength to the defence)",
            [Option(key=f"card:{c}", label=_unit_label(eng, c), card=c, data=info)
             for c in cands],
            min=0, max=len(cands) if char_target else 1, resume=InterceptAnswer())


@on(InterceptAnswer)
def _intercept_answer(eng: Eng, step: InterceptAnswer) -> None:
    state = eng.state
    att = state.attack
    assert att is not None
    for k in eng.answer:
        cid = int(k.split(":")[1])
        eng.update_card(cid, exhausted=True)
        att.intercept.append(cid)
        eng.emit("intercepted", player=1 - att.player, card=cid, code=state.cards[cid].code)


@on(AttackCheck)
def _attack_check(eng: Eng, step: AttackCheck) -> None:
    state = eng.state
    att = state.attack
    assert att is not None
    p = att.player
    if att.attacker != state.rb[p]:  # 101.1
        return
    top = reveal_top(eng, p, "attack_check")
    if top is None:
        return
    d = cdef(eng, top)
    after = CheckToHand(player=p, card=top)
    if d.is_potion and d.pathway is not None:  # 101.3
        src = load_pathways().source_of(d.pathway)
        eng.emit("source_trigger", player=p, data={"source": src})
        eng.push(SourceTrigger(player=p, source=src, checked=top), after)
    else:
        eng.push(after)


@on(CheckToHand)
def _check_to_hand(eng: Eng, step: CheckToHand) -> None:
    card = eng.state.cards[step.card]
    if card.zone == z("deck", step.player):
        eng.move(step.card, z("hand", step.player), reveal=True, kind="checked_to_hand")


def _scope_ids(eng: Eng, p: int) -> list[int]:
    """Characters a Source trigger may choose among ``p``'s (102.10)."""
    ids = [c for c in cards_in(eng, "units", p) if cdef(eng, c).is_beyonder]
    if eng.state.options.trigger_rb_scope == "include" and rb_on_field(eng, p):
        ids.append(eng.state.rb[p])
    return ids


@on(SourceTrigger)
def _source_trigger(eng: Eng, step: SourceTrigger) -> None:
    state = eng.state
    p, src = step.player, step.source
    o = 1 - p
    ids: list[int] = []
    if src == "sefirah_castle":  # 102.1
        ids = cards_in(eng, "spirit", p)
    elif src in ("chaos_sea", "city_of_calamity", "brood_hive"):  # 102.2, 102.4, 102.8
        ids = _scope_ids(eng, p)
    elif src == "nation_of_disorder":  # 102.5
        ids = _scope_ids(eng, o)
    elif src == "knowledge_moor":  # 102.6
        ids = [c for c in cards_in(eng, "units", p) if cdef(eng, c).card_type == "item"]
    elif src == "river_of_eternal_darkness":  # 102.3
        _ask_recur(eng, p, -1)
        return
    elif src == "tenebrous_world":  # 102.7
        state.bp_minus[o] += 100
        return
    elif src == "key_of_light":  # 102.9: two cards, not counting the revealed one (101.5)
        draw(eng, p, 2, below=step.checked)
        return
    if ids:
        name = load_pathways().sources[src].name_en
        eng.ask(p, "source_trigger",
                f"Source trigger of {name}: {SOURCE_PROMPTS.get(src, 'choose a card')}",
                [Option(key=f"card:{c}", label=cdef(eng, c).name_en, card=c, data={"op": src})
                 for c in ids],
                resume=EffectAnswer(player=p, op=src, amount=1))


def _apply_source_choice(eng: Eng, p: int, src: str, cid: int) -> None:
    card = eng.state.cards[cid]
    ctr = dict(card.counters)
    if src == "sefirah_castle":
        eng.move(cid, z("hand", p), kind="to_hand")
        return
    if src == "chaos_sea":
        ctr["bonus_dmg"] = ctr.get("bonus_dmg", 0) + 1
    elif src == "city_of_calamity":
        ctr["bp_str"] = ctr.get("bp_str", 0) + 400
    elif src == "nation_of_disorder":
        ctr["no_act"] = 1
    elif src == "knowledge_moor":
        ctr["protect"] = 1
    elif src == "brood_hive":
        ctr["unhittable"] = 1
    eng.update_card(cid, counters=ctr)


def on_field(eng: Eng, cid: int) -> bool:
    """A card is in a unit slot or a revival zone (017.3)."""
    zone = eng.state.cards[cid].zone
    return zone.startswith(("units.", "revival."))


@on(HitCheck)
def _hit_check(eng: Eng, step: HitCheck) -> None:
    state = eng.state
    att = state.attack
    assert att is not None
    state.attack = None
    target = att.target
    if not on_field(eng, target) or state.cards[target].counters.get("unhittable"):
        eng.emit("missed", player=att.player, data={"target": target})
        return
    a_parts = [strength(eng, att.attacker)] + [strength(eng, c) for c in att.support]
    base = strength(eng, target) if _is_char_target(eng, target) else 0  # 096.3
    d_parts = [base] + [strength(eng, c) for c in att.intercept]
    attack_value = sum(a_parts)
    defence = sum(d_parts)
    hit = attack_value >= defence  # 095.3, 096.3
    bonus = state.cards[att.attacker].counters.get("bonus_dmg", 0)
    if hit:
        state.hits.append(Hit(target=target, attacker=att.attacker, bonus=bonus))
    calc = (f"{'+'.join(map(str, a_parts))} {'>=' if hit else '<'} "
            f"{'+'.join(map(str, d_parts))}")
    eng.emit("hit" if hit else "missed", player=att.player, amount=attack_value,
             data={"target": target, "defence": defence, "calc": calc})


def damage_check(eng: Eng, p: int) -> str:
    """One damage check for ``p``'s RB (104); returns the outcome name."""
    state = eng.state
    top = reveal_top(eng, p, "damage_check")
    if top is None:
        return "deck_out"
    d = cdef(eng, top)
    if d.is_potion:  # 103.2
        eng.move(top, z("deck", p), reveal=True, kind="to_bottom")
        return "prevented"
    same = d.pathway == rb_path(eng, p) and d.sequence is not None
    if same and d.sequence is not None and d.sequence >= state.sequence[p]:  # 103.3
        eng.move(top, z("status", p), face_down=False, reveal=True, kind="damage")
        status_entered(eng, p, False, 0)
        return "face_up"
    n = 1 if same else 2  # 103.4, 103.5
    eng.move(top, z("status", p), face_down=True, reveal=True, kind="damage")
    status_entered(eng, p, True, n)
    return f"corruption_{n}"


@on(DamageStep)
def _damage_step(eng: Eng, step: DamageStep) -> None:
    state = eng.state
    state.phase = "damage"
    eng.emit("phase", data={"phase": "damage step"})
    state.step_corruption = [0, 0]
    state.hold_losses = state.options.damage_step_losses == "simultaneous"
    units_hit: list[int] = []
    for h in state.hits:  # 098.2
        if h.target not in units_hit and state.cards[h.target].zone.startswith("units."):
            units_hit.append(h.target)
    for cid in units_hit:
        eng.move(cid, z("underworld", state.cards[cid].owner), face_down=False,
                 kind="destroyed")
    for h in state.hits:  # 098.3
        p = state.cards[h.target].controller
        if h.target != state.rb[p]:
            continue
        for _ in range(1 + h.bonus):
            if not rb_on_field(eng, p) or p in state.losses:  # 098.4, 134.2
                break
            outcome = damage_check(eng, p)
            eng.emit("damage_check", player=p, data={"outcome": outcome})
            if outcome == "prevented" and state.options.potion_prevention == "whole_hit":
                break
            if state.result is not None:
                return
            if state.losses and not state.hold_losses:
                return
    state.hits = []
    state.hold_losses = False
    eng.push(BattleEnd())


@on(BattleEnd)
def _battle_end(eng: Eng, step: BattleEnd) -> None:
    state = eng.state
    state.phase = "battle_end"
    eng.emit("phase", data={"phase": "battle end step"})
    steps: list[Step] = []
    f = state.first
    cards = state.cards
    infos = card_infos(state)
    for p in (f, 1 - f):  # 099.1
        for cid in state.zones[f"status.{p}"].cards:
            card = cards[cid]
            if not card.face_down and "status" in infos[card.code].timings:
                steps += _effects_of(eng, p, cid, "status")
    eng.push(*steps, BattleCleanup())


_BP_COUNTERS = ("bp_str", "bp_weak", "bonus_dmg", "no_act", "unhittable")


@on(BattleCleanup)
def _battle_cleanup(eng: Eng, step: BattleCleanup) -> None:
    state = eng.state
    cards = state.cards
    zones = state.zones
    for p in (0, 1):  # 099.2
        for cid in [*zones[_UNITS[p]].cards, *zones[_REVIVAL[p]].cards]:
            if cid == EMPTY_SLOT:
                continue
            ctr = cards[cid].counters
            if ctr and any(k in ctr for k in _BP_COUNTERS):
                eng.update_card(cid, counters={k: v for k, v in ctr.items()
                                               if k not in _BP_COUNTERS})
    state.bp_minus = [0, 0]
    state.in_battle = False
    done = []
    for p in (0, 1):  # 099.3, 089.6
        r = state.ascend_round[p]
        if r >= 0 and state.round >= r + 1:
            if state.options.ascension_recheck == "yes" and not ascension_ready(eng, p):
                state.ascend_round[p] = -1
                eng.move(state.rb[p], z("revival", p), face_down=False, kind="woke")
                eng.emit("ascension_failed", player=p)
                continue
            done.append(p)
    if len(done) == 2:
        eng.end(draw=True, reason="double_ascension")  # 132.2
        return
    if done:
        eng.end(winners=done, losers=[1 - done[0]], reason="great_old_one")  # 132.1
        return
    eng.push(StartRound())
