"""Checks of a loaded state's meaning: what the core owns, and field rules games reuse.

A save that loads must be playable (``docs/architecture.md``, loading): :func:`check_state`
checks every fact the core owns (seats, card and zone ids, counts, the pending choice and the
trigger steps that read its answer, triggers, the result) in one pass over the cards and
zones, then calls the game's ``validate_state`` for the rest. The field rules below
(:func:`check_fields` with :data:`rule_seat`, :data:`rule_card`, :func:`rule_int_in`,
:func:`rule_one_of`, :func:`rule_each` ...) let a game check its own steps and fields without
writing the walk again.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping
from typing import Any, Final, ForwardRef, TypeAlias, get_args

import msgspec

from ._errors import StateDecodeError
from ._model import EMPTY_SLOT, GameState, Trigger
from ._trigger_steps import ResolveTrigger, TriggerOptIn, TriggerPick, TriggerWindow

__all__ = ["MAX_COUNT", "FieldRule", "check_fields", "check_state", "rule_card",
           "rule_card_or_none", "rule_each", "rule_int_in", "rule_one_of", "rule_seat",
           "rule_seat_or_none"]

#: The largest event, choice or turn count, counter or game number a save may hold: far
#: beyond any match (2**48 events is three days at a billion a second), and far enough below
#: the msgpack limit (2**64 - 1) that adding to it never overflows a later save.
MAX_COUNT: Final = 2**48

#: A field rule: ``rule(state, value) -> problem or None`` (the problem names the value).
FieldRule: TypeAlias = Callable[[GameState[Any], Any], "str | None"]


def _seat(state: GameState[Any], value: Any) -> str | None:
    """Rule: a seat of the match (an int ``0 .. num_players - 1``)."""
    if type(value) is int and 0 <= value < state.num_players:
        return None
    return f"{value!r} is not a seat (0..{state.num_players - 1})"


def _seat_or_none(state: GameState[Any], value: Any) -> str | None:
    """Rule: a seat, or ``-1`` / ``None`` for "no seat"."""
    return None if value in (None, -1) else _seat(state, value)


def _card(state: GameState[Any], value: Any) -> str | None:
    """Rule: a card instance id of the match (``0 .. len(cards) - 1``)."""
    if type(value) is int and 0 <= value < len(state.cards):
        return None
    return f"{value!r} is not a card instance id (0..{len(state.cards) - 1})"


def _card_or_none(state: GameState[Any], value: Any) -> str | None:
    """Rule: a card instance id, or ``-1`` / ``None`` for "no card"."""
    return None if value in (None, -1) else _card(state, value)


#: Rule: a seat of the match.
rule_seat: Final[FieldRule] = _seat
#: Rule: a seat, or ``-1``/``None`` for "no seat".
rule_seat_or_none: Final[FieldRule] = _seat_or_none
#: Rule: a card instance id of the match.
rule_card: Final[FieldRule] = _card
#: Rule: a card instance id, or ``-1``/``None`` for "no card".
rule_card_or_none: Final[FieldRule] = _card_or_none


def rule_int_in(lo: int, hi: int) -> FieldRule:
    """Rule: an int with ``lo <= value <= hi`` (a range the game uses)."""

    def rule(state: GameState[Any], value: Any) -> str | None:
        if type(value) is int and lo <= value <= hi:
            return None
        return f"{value!r} is outside {lo}..{hi}"

    return rule


def rule_one_of(names: Collection[str], what: str = "name") -> FieldRule:
    """Rule: one of ``names`` (an op, a skill, a zone kind ... the game knows)."""
    known = frozenset(names)

    def rule(state: GameState[Any], value: Any) -> str | None:
        return None if value in known else f"{value!r} is not a known {what}"

    return rule


def rule_each(rule: FieldRule) -> FieldRule:
    """Rule: every item of a list or tuple (or every value of a map) obeys ``rule``."""

    def check(state: GameState[Any], value: Any) -> str | None:
        items = value.values() if isinstance(value, Mapping) else value
        for i, item in enumerate(items):
            problem = rule(state, item)
            if problem:
                return f"[{i}] {problem}"
        return None

    return check


#: Per rules mapping (by id) and struct type, the fields worth looking at: those with a rule
#: and those whose declared type can hold a struct (see :func:`check_fields`). Each entry
#: keeps its mapping alive, so that its id is not reused while the entry exists.
_Plan: TypeAlias = tuple[tuple[str, "FieldRule | None", bool], ...]
_PLANS: dict[int, tuple[Mapping[str, FieldRule], dict[type[Any], _Plan]]] = {}


def _holds_struct(annotation: Any, depth: int = 0) -> bool:
    """Whether a value of this declared type can be or contain a msgspec Struct."""
    if isinstance(annotation, type) and issubclass(annotation, msgspec.Struct):
        return True
    if depth > 8 or isinstance(annotation, (str, ForwardRef)):
        return isinstance(annotation, (str, ForwardRef))  # unresolved: walk it to be safe
    return any(_holds_struct(arg, depth + 1) for arg in get_args(annotation))


def _plan_of(rules: Mapping[str, FieldRule], plans: dict[type[Any], _Plan],
             kind: type[Any]) -> _Plan:
    name = kind.__name__
    plan = []
    for info in msgspec.structs.fields(kind):
        rule = rules.get(f"{name}.{info.name}") or rules.get(info.name)
        nest = _holds_struct(info.type)
        if rule is not None or nest:
            plan.append((info.name, rule, nest))
    found = plans[kind] = tuple(plan)
    return found


def check_fields(state: GameState[Any], value: Any, rules: Mapping[str, FieldRule],
                 path: str) -> str | None:
    """Check a struct (and the structs nested in it) against field rules.

    A rule is looked up as ``"TypeName.field"`` first, then as ``"field"``; fields without a
    rule are not checked, nested structs (alone, in lists, tuples or map values) are walked
    with the same rules. Cost: one pass over the fields that have a rule or can hold a struct;
    the lookups are made once per rules mapping and struct type (so pass a mapping kept as a
    module constant).

    Args:
        state: the state the value belongs to (seats and cards are checked against it).
        value: a msgspec Struct (a step, a trigger, a game's record), or a list of them.
        rules: field name -> :data:`FieldRule`.
        path: where the value is, for the problem (``"stack[3]"``).

    Returns:
        ``None``, or the first problem, naming the field path
        (``"stack[3].player: 182 is not a seat (0..1)"``).
    """
    entry = _PLANS.get(id(rules))
    if entry is None or entry[0] is not rules:
        if len(_PLANS) > 256:  # rules built afresh on every call: keep the cache bounded
            _PLANS.clear()
        entry = _PLANS[id(rules)] = (rules, {})
    return _walk(state, value, rules, entry[1], path)


def _walk(state: GameState[Any], value: Any, rules: Mapping[str, FieldRule],
          plans: dict[type[Any], _Plan], path: str) -> str | None:
    kind = type(value)
    if kind is list or kind is tuple:
        for i, item in enumerate(value):
            if isinstance(item, msgspec.Struct):
                problem = _walk(state, item, rules, plans, f"{path}[{i}]")
                if problem:
                    return problem
        return None
    if not isinstance(value, msgspec.Struct):
        return None
    plan = plans.get(kind)
    if plan is None:
        plan = _plan_of(rules, plans, kind)
    for name, rule, nest in plan:
        field = getattr(value, name)
        if rule is not None:
            problem = rule(state, field)
            if problem:
                return f"{path}.{name}: {problem}"
        if not nest or not field:
            continue
        inner = type(field)
        if inner is list or inner is tuple:
            if isinstance(field[0], msgspec.Struct):
                problem = _walk(state, field, rules, plans, f"{path}.{name}")
                if problem:
                    return problem
        elif inner is dict:
            for key, item in field.items():
                if isinstance(item, msgspec.Struct):
                    problem = _walk(state, item, rules, plans, f"{path}.{name}[{key!r}]")
                    if problem:
                        return problem
        elif isinstance(field, msgspec.Struct):
            problem = _walk(state, field, rules, plans, f"{path}.{name}")
            if problem:
                return problem
    return None


def _trigger_problem(state: GameState[Any], trig: Trigger, abilities: frozenset[str] | None,
                     path: str) -> str | None:
    if not 0 <= trig.player < state.num_players:
        return f"{path}.player: {trig.player} is not a seat"
    if trig.source is not None and not 0 <= trig.source < len(state.cards):
        return f"{path}.source: {trig.source} is not a card instance id"
    if not -1 <= trig.event < state.event_count:
        return f"{path}.event: {trig.event} is not an event of this match"
    if not -MAX_COUNT <= trig.priority <= MAX_COUNT:
        return f"{path}.priority: {trig.priority} is out of range"
    if abilities is not None and trig.ability not in abilities:
        return f"{path}.ability: {trig.ability!r} is not an ability of this game"
    return None


def _triggers_problem(state: GameState[Any], triggers: Iterable[Trigger],
                      abilities: frozenset[str] | None, path: str) -> str | None:
    for i, trig in enumerate(triggers):
        problem = _trigger_problem(state, trig, abilities, f"{path}[{i}]")
        if problem:
            return problem
    return None


def _stack_problem(state: GameState[Any], abilities: frozenset[str] | None,
                   resume: frozenset[type[Any]] | None) -> str | None:
    """The engine's own steps on the stack, and the step that reads the pending answer: a
    step that reads an answer (a trigger pick or opt-in, or one of the game's
    ``resume_steps``) only on top, under a pending choice, and the pending choice waiting on
    such a step (when the game lists its resume steps)."""
    stack = state.stack
    top = len(stack) - 1
    pending = state.pending
    for i, step in enumerate(stack):
        kind = type(step)
        if resume is not None and kind in resume and (i != top or pending is None):
            return (f"stack[{i}]: {kind.__name__} reads an answer, but it does not wait "
                    "for the pending choice")
        if kind is TriggerPick or kind is TriggerOptIn:
            if i != top or pending is None:
                return (f"stack[{i}]: {kind.__name__} reads an answer, but it does not wait "
                        "for the pending choice")
        if kind is TriggerWindow or kind is TriggerPick:
            problem = _triggers_problem(state, step.triggers, abilities, f"stack[{i}].triggers")
            if problem:
                return problem
        elif kind is TriggerOptIn or kind is ResolveTrigger:
            problem = _trigger_problem(state, step.trigger, abilities, f"stack[{i}].trigger")
            if problem:
                return problem
    if pending is None:
        return None
    step = stack[top]
    kind = type(step)
    keys = [o.key for o in pending.options]
    if kind is TriggerWindow or kind is ResolveTrigger or (
            resume is not None and kind not in resume and kind is not TriggerPick
            and kind is not TriggerOptIn):
        return (f"stack[{top}]: the pending {pending.kind!r} choice waits for a "
                f"{kind.__name__} step, which reads no answer")
    if kind is TriggerPick:
        ids = {t.id for t in step.triggers}
        if (pending.kind != "order_triggers" or not keys or not ids.issuperset(keys)
                or pending.min < 1):
            return (f"pending: a trigger order choice must offer ids of the waiting triggers "
                    f"(kind {pending.kind!r}, keys {keys[:5]})")
    elif kind is TriggerOptIn:
        if (pending.kind != "use_trigger" or pending.player != step.trigger.player
                or keys != ["yes", "no"] or pending.min != 1 or pending.max != 1):
            return (f"pending: a trigger opt-in is a yes/no choice of seat "
                    f"{step.trigger.player} (kind {pending.kind!r}, seat {pending.player}, "
                    f"keys {keys[:5]})")
    return None


def _core_problem(spec: Any, state: GameState[Any]) -> str | None:
    """The first fact the core owns that the state gets wrong, or ``None``."""
    seats = state.num_players
    lo, hi = spec.players
    if not lo <= seats <= hi:
        return f"num_players: {seats} seats, the game allows {lo}..{hi}"
    if not 0 <= state.seed < 2**64:
        return f"seed: {state.seed} is outside 0..2**64-1"
    if not 0 <= state.active_player < seats:
        return f"active_player: {state.active_player} is not a seat"
    for name, count in (("event_count", state.event_count), ("choice_count", state.choice_count),
                        ("turn", state.turn)):
        if not 0 <= count <= MAX_COUNT:
            return f"{name}: {count} is outside 0..{MAX_COUNT}"
    if state.answer is not None:
        return "answer: set outside the step that reads it"
    n = len(state.cards)
    where: dict[int, str] = {}
    for key, zone in state.zones.items():
        if key != zone.id:
            return f"zones[{key!r}]: the zone has id {zone.id!r}"
        if zone.owner is not None and not 0 <= zone.owner < seats:
            return f"zones[{key!r}].owner: {zone.owner} is not a seat"
        if zone.capacity is not None and zone.capacity < 0:
            return f"zones[{key!r}].capacity: {zone.capacity} is negative"
        if zone.slotted and (zone.capacity is None or len(zone.cards) != zone.capacity):
            return (f"zones[{key!r}]: slotted zone with {len(zone.cards)} positions, "
                    f"capacity {zone.capacity}")
        if not zone.slotted and zone.capacity is not None and len(zone.cards) > zone.capacity:
            return f"zones[{key!r}]: holds more than its capacity {zone.capacity}"
        for cid in zone.cards:
            if zone.slotted and cid == EMPTY_SLOT:
                continue
            if not 0 <= cid < n:
                return f"zones[{key!r}].cards: {cid} is not a card instance id"
            if cid in where:
                return f"zones[{key!r}].cards: card {cid} is in both {where[cid]!r} and {key!r}"
            where[cid] = key
    for i, card in enumerate(state.cards):
        if card.id != i:
            return f"cards[{i}].id: {card.id}"
        if where.get(i) != card.zone:
            return f"cards[{i}].zone: {card.zone!r}, but it is held by {where.get(i)!r}"
        if not 0 <= card.owner < seats or not 0 <= card.controller < seats:
            return f"cards[{i}]: owner {card.owner} / controller {card.controller} are not seats"
        if card.attached_to is not None and not 0 <= card.attached_to < n:
            return f"cards[{i}].attached_to: {card.attached_to} is not a card instance id"
        if card.counters:
            for name, value in card.counters.items():
                if not -MAX_COUNT <= value <= MAX_COUNT:
                    return f"cards[{i}].counters[{name!r}]: {value} is out of range"
    if len(state.rng.s) != 4 or not any(state.rng.s) or any(
            not 0 <= w < 2**64 for w in state.rng.s):
        return "rng: invalid random generator state"
    pending = state.pending
    result = state.result
    if pending is None and result is None:
        return "pending: neither a pending choice nor a result"
    if pending is not None:
        if result is not None:
            return "result: both a pending choice and a result"
        if not 0 <= pending.player < seats:
            return f"pending.player: {pending.player} is not a seat"
        if not 0 <= pending.min <= pending.max or pending.min > len(pending.options):
            return f"pending: asks {pending.min}..{pending.max} of {len(pending.options)} options"
        if not 0 <= pending.seq < state.choice_count:
            return f"pending.seq: {pending.seq} is not a choice asked so far"
        if len({o.key for o in pending.options}) != len(pending.options):
            return "pending.options: an option key is repeated"
        for j, opt in enumerate(pending.options):
            if opt.card is not None and not 0 <= opt.card < n:
                return f"pending.options[{j}].card: {opt.card} is not a card instance id"
        if not state.stack:
            return "stack: a choice is pending but no step waits for its answer"
    else:
        assert result is not None
        for name, group in (("winners", result.winners), ("losers", result.losers)):
            for seat in group:
                if not 0 <= seat < seats:
                    return f"result.{name}: {seat} is not a seat"
    abilities: frozenset[str] | None = spec.trigger_abilities
    return (_triggers_problem(state, state.triggers, abilities, "triggers")
            or _stack_problem(state, abilities, spec.resume_steps))


def check_state(spec: Any, state: GameState[Any]) -> None:
    """Check a decoded state's meaning: the core's facts, then the game's ``validate_state``.

    Raises:
        StateDecodeError: ``"<game> save: <field path>: <problem>"`` for the first problem.
    """
    problem = _core_problem(spec, state)
    if not problem and spec.validate_state is not None:
        try:
            problem = spec.validate_state(state)
        except (LookupError, TypeError, ValueError, AttributeError, RecursionError) as exc:
            # a validator that trips over a value it did not expect: still a bad save
            problem = f"the game's checks failed on this state ({type(exc).__name__}: {exc})"
    if problem:
        raise StateDecodeError(f"{spec.name} save: {problem}")
