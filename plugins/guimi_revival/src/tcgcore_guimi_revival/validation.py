"""What a loaded Guimi Revival save must respect to be played on (``spec.validate_state``).

The core has checked seats, card and zone ids, counts, triggers and the trigger steps; this
module checks the game's facts in one pass: the card pool and its codes, the zones setup
makes (section 3), one entry per seat in every per-seat list with values in the ranges the
rules use, the battle in progress (093, 097), every waiting step's seats, cards, effect ops
and timings, and the pending choice against the step that asked it (its kind, its seat and
option keys the answering step can read; a main-phase choice must be the one
:func:`.rules.main_options` offers now).
"""

from __future__ import annotations

import stat
from pathlib import Path
from typing import Any, Final, get_args

import tcgcore
from tcgcore import (
    EMPTY_SLOT,
    MAX_COUNT,
    Engine,
    check_fields,
    rule_card_or_none,
    rule_each,
    rule_int_in,
    rule_one_of,
    rule_seat,
)

from .cards import _POOLS, EffectOp, Timing, get_pool
from .rules import main_options, spec
from .setup import _ZONE_SPECS
from .state import (
    AttackAnswer,
    AttackCheck,
    EffectAnswer,
    GuimiState,
    HitCheck,
    InterceptAnswer,
    InterceptAsk,
    MainAnswer,
    MulliganAnswer,
    PromotionAnswer,
    QuickAnswer,
    RewardAnswer,
    RewardPickAnswer,
    SupportAnswer,
    TimedAnswer,
)

__all__ = ["RESUME_STEPS", "validate_state"]

#: Source trigger names (102.1-102.10), the ``source`` of a SourceTrigger step.
SOURCES: Final = frozenset({"sefirah_castle", "chaos_sea", "city_of_calamity", "brood_hive",
                            "nation_of_disorder", "knowledge_moor",
                            "river_of_eternal_darkness", "tenebrous_world", "key_of_light"})
_OPS: Final = frozenset(get_args(EffectOp))
_COUNT = rule_int_in(0, MAX_COUNT)
_STEP_RULES: Final[dict[str, tcgcore.FieldRule]] = {
    "player": rule_seat,
    "card": rule_card_or_none,
    "source": rule_card_or_none,
    "checked": rule_card_or_none,
    "SourceTrigger.source": rule_one_of(SOURCES, "Source trigger"),
    "DoEffect.op": rule_one_of(_OPS, "effect op"),
    "EffectAnswer.op": rule_one_of(_OPS | SOURCES, "effect op"),
    "amount": rule_int_in(-100_000, 100_000),
    "n": rule_int_in(1, 2),
    "index": rule_int_in(0, 10_000),
    "timing": rule_one_of(get_args(Timing), "timing"),
    "sources": rule_each(tcgcore.rule_card),
}

_EACH_CARD = rule_each(tcgcore.rule_card)
#: The battle in progress (097.1, 097.3): its cards and seat.
_BATTLE_RULES: Final[dict[str, tcgcore.FieldRule]] = {
    "attacker": tcgcore.rule_card, "target": tcgcore.rule_card, "player": rule_seat,
    "support": _EACH_CARD, "intercept": _EACH_CARD, "bonus": rule_int_in(0, 10_000)}

#: Per-seat lists and the values each entry may take.
_PER_SEAT: Final = (
    ("rb", tcgcore.rule_card), ("sequence", rule_int_in(0, 9)),
    ("corruption", _COUNT), ("step_corruption", _COUNT), ("dead_corruption", _COUNT),
    ("mad", rule_int_in(0, 2)), ("dead", None), ("ascend_round", rule_int_in(-1, MAX_COUNT)),
    ("rewarded", None), ("events_played", _COUNT), ("bp_minus", _COUNT), ("quick_used", None),
)

#: Resume step -> the choice kinds it answers.
_KINDS: Final[dict[type[Any], tuple[str, ...]]] = {
    MulliganAnswer: ("mulligan",), TimedAnswer: ("order_effects",),
    PromotionAnswer: ("promotion",), RewardAnswer: ("reward_order",),
    RewardPickAnswer: ("reward_pick",), MainAnswer: ("main_action",),
    QuickAnswer: ("quick_event",), EffectAnswer: ("effect_target", "source_trigger"),
    AttackAnswer: ("attack",), SupportAnswer: ("support",), InterceptAnswer: ("intercept",),
}

#: The steps that read an answer (``spec.resume_steps``).
RESUME_STEPS: Final = frozenset(_KINDS)

#: The resume steps that read any number of answers (the others read exactly one).
_MANY: Final = frozenset({MulliganAnswer, SupportAnswer, InterceptAnswer})

#: The battle steps that work on the attack in progress (097.1): ``state.attack`` is set.
_ATTACK_STEPS: Final = frozenset({InterceptAsk, InterceptAnswer, SupportAnswer, AttackCheck,
                                  HitCheck})

#: One-word answers and the steps that read them.
_WORDS: Final[dict[type[Any], frozenset[str]]] = {
    PromotionAnswer: frozenset({"pass", "ascend"}), RewardAnswer: frozenset({"set_first",
                                                                          "draw_first"}),
    MainAnswer: frozenset({"end"}), QuickAnswer: frozenset({"pass"}),
    AttackAnswer: frozenset({"pass"}),
}

#: The ``"<head>:..."`` keys each step reads (its handler's parse), by head with their
#: number of parts; ``MainAnswer`` is compared with the actions the rules offer instead.
_HEADS: Final[dict[type[Any], dict[str, int]]] = {
    MulliganAnswer: {"card": 2}, TimedAnswer: {"card": 2}, PromotionAnswer: {"promote": 2},
    RewardAnswer: {}, RewardPickAnswer: {"extra": 2}, QuickAnswer: {"quick": 2},
    EffectAnswer: {"card": 2, "code": 2}, AttackAnswer: {"attack": 2},
    SupportAnswer: {"card": 2}, InterceptAnswer: {"card": 2},
}

_ZONE_SHAPES: Final = {zone_id: (kind, p, vis, ordered, cap, slotted)
                       for p, specs in enumerate(_ZONE_SPECS)
                       for zone_id, kind, vis, ordered, cap, slotted in specs}


def _seat_lists_problem(state: GuimiState) -> str | None:
    for name, rule in _PER_SEAT:
        values = getattr(state, name)
        if len(values) != 2:
            return f"{name}: {len(values)} entries, one per seat needed"
        for p, value in enumerate(values):
            problem = rule(state, value) if rule is not None else None
            if problem:
                return f"{name}[{p}]: {problem}"
    for p in range(2):
        rb = state.cards[state.rb[p]]
        if rb.owner != p:
            return f"rb[{p}]: card {rb.id} is not seat {p}'s"
    return None


def _battle_problem(state: GuimiState) -> str | None:
    for name in ("attack_order", "used_ignition"):
        problem = _EACH_CARD(state, getattr(state, name))
        if problem:
            return f"{name}{problem}"
    problem = rule_each(rule_seat)(state, state.losses)
    if problem:
        return f"losses{problem}"
    if not 0 <= state.round <= MAX_COUNT:
        return "round: out of range"
    if len(state.events_activated) != 2 or not all(0 <= n <= MAX_COUNT
                                                    for n in state.events_activated):
        return "events_activated: one count per seat, each in range (074.9)"
    for i, arrangement in enumerate(state.arrangements):  # 077.5: unit ids or EMPTY_SLOT
        if not all(c == EMPTY_SLOT or 0 <= c < len(state.cards) for c in arrangement):
            return f"arrangements[{i}]: four unit slots, each a card or empty (077.5)"
    if not 0 <= state.first < 2:
        return f"first: {state.first} is not a seat"
    att = state.attack
    if att is not None:
        problem = check_fields(state, att, _BATTLE_RULES, "attack")
        if problem:
            return problem
    return check_fields(state, state.hits, _BATTLE_RULES, "hits")


def _answer_seat(state: GuimiState, step: Any) -> int | None:
    """The seat that must answer for resume step ``step``, or ``None`` if no seat can."""
    if isinstance(step, AttackAnswer):
        if not step.index < len(state.attack_order):
            return None
        return state.cards[state.attack_order[step.index]].controller
    if isinstance(step, (SupportAnswer, InterceptAnswer)):
        att = state.attack
        if att is None:
            return None
        return att.player if isinstance(step, SupportAnswer) else 1 - att.player
    return int(step.player)


def _option_problem(state: GuimiState, step: Any, seat: int, key: str,
                    card: int | None) -> str | None:
    """Whether the answering step can read option ``key`` (about ``card``)."""
    parts = key.split(":")
    if len(parts) == 1:
        return None if key in _WORDS.get(type(step), ()) else "is not an answer of this step"
    heads = _HEADS.get(type(step))
    if heads is not None and heads.get(parts[0]) != len(parts):
        return "is not an answer of this step"
    if parts[0] == "code":  # a card searched for by its code: one must be in the deck
        deck = state.zones[f"deck.{seat}"].cards
        ok = isinstance(step, EffectAnswer) and any(state.cards[c].code == parts[1] for c in deck)
        return None if ok else "names no card of the deck"
    if len(parts) > 3 or not parts[1].isdigit() or int(parts[1]) >= len(state.cards):
        return "does not name a card instance"
    if card is not None and card != int(parts[1]):
        return f"names card {parts[1]}, its option card {card}"
    if isinstance(step, TimedAnswer) and int(parts[1]) not in step.sources:
        return "is not one of the step's sources"
    if len(parts) == 3 and not (parts[2] in ("up", "set") or parts[2].isdigit()):
        return "has an unknown third part"
    return None


def _pending_problem(state: GuimiState) -> str | None:
    pending = state.pending
    assert pending is not None
    step = state.stack[-1]
    kinds = _KINDS.get(type(step))
    if kinds is None:  # a core trigger step (the core has checked it)
        return None
    if pending.kind not in kinds:
        return f"pending.kind: {pending.kind!r}, but its step answers {', '.join(kinds)}"
    if pending.min < 1 and type(step) not in _MANY:
        return f"pending.min: {type(step).__name__} reads one answer, none may be chosen"
    seat = _answer_seat(state, step)
    if seat != pending.player:
        return f"pending.player: {pending.player}, but seat {seat} answers this step"
    for j, opt in enumerate(pending.options):
        problem = _option_problem(state, step, pending.player, opt.key, opt.card)
        if problem:
            return f"pending.options[{j}].key: {opt.key!r} {problem}"
    if isinstance(step, MainAnswer):
        offered = [o.key for o in main_options(Engine(spec, state), step.player)]
        if offered != [o.key for o in pending.options]:
            return "pending.options: not the main-phase actions the rules offer now"
    return None


#: The largest card pool file a save may name (the built-in pool is a few dozen KiB).
MAX_POOL_BYTES: Final = 8 * 1024 * 1024


def _pool_file_problem(name: str) -> str | None:
    """A pool a save names must be built in, already loaded, or a regular file of at most
    :data:`MAX_POOL_BYTES` (never a device, a pipe or a directory, which could make loading
    read without end)."""
    if name == "builtin" or name in _POOLS:
        return None
    try:
        info = Path(name).stat()
    except (OSError, ValueError) as exc:
        return f"pool: card pool file {name!r} cannot be read ({type(exc).__name__})"
    if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_POOL_BYTES:
        return f"pool: {name!r} is not a card pool file of at most {MAX_POOL_BYTES} bytes"
    return None


def validate_state(state: GuimiState) -> str | None:
    """Game facts a loaded save must respect (see the module docstring).

    Returns:
        ``None``, or one problem naming the field path (``ascend_round: 1 entries, one per
        seat needed``).
    """
    problem = _pool_file_problem(state.pool)
    if problem:
        return problem
    try:
        defs = get_pool(state.pool).cards
    except tcgcore.TcgcoreError as exc:
        return f"pool: card pool {state.pool!r} cannot be loaded: {exc}"
    for card in state.cards:
        if card.code not in defs:
            return f"cards[{card.id}].code: unknown code {card.code!r}"
    zones = state.zones
    if len(zones) != len(_ZONE_SHAPES):
        return f"zones: {len(zones)} zones, Guimi Revival has {len(_ZONE_SHAPES)}"
    for zone_id, shape in _ZONE_SHAPES.items():
        zone = zones.get(zone_id)
        if zone is None or (zone.kind, zone.owner, zone.visibility, zone.ordered, zone.capacity,
                            zone.slotted) != shape:
            return f"zones[{zone_id!r}]: missing or not the zone setup makes"
    problem = _seat_lists_problem(state) or _battle_problem(state)
    if problem:
        return problem
    if state.result is not None:
        return None
    problem = check_fields(state, state.stack, _STEP_RULES, "stack")
    if problem:
        return problem
    if state.attack is None:
        for i, step in enumerate(state.stack):
            if type(step) in _ATTACK_STEPS:
                return f"stack[{i}]: {type(step).__name__} waits, but no attack is in progress"
    if state.pending is not None:
        return _pending_problem(state)
    return None
