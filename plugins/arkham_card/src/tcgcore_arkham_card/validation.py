"""What a loaded arkham_card save must respect to be played on, beyond the core's checks.

:func:`state_problem` runs after the plugin's card, investigator, bag and scenario checks
(``plugin.validate``) and checks, in one pass: the zones every seat and the scenario use, each
investigator's numbers in the ranges the rules use, the skill tests (RR: Skill Test Timing: a
tested skill, a tester, known chaos tokens), every effect anywhere in the state (an op the
effect language has, a skill or ``""``), every waiting step's seats, cards and locations,
the triggers' ability names, and the pending choice against the step that asked it (the
seat of a step that names one answers it; option keys name the cards they are about).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from typing import Any, Final, get_args

import msgspec

import tcgcore
from tcgcore import (
    MAX_COUNT,
    check_fields,
    rule_card,
    rule_card_or_none,
    rule_each,
    rule_int_in,
    rule_one_of,
    rule_seat,
    rule_seat_or_none,
)

from .actions import turn_options
from .card_choices import CHOICE_OPS
from .cards import SKILLS, Effect, card_pool, load_scenario
from .effects import _PLAYER_OPS
from .queries import (
    Z_AT,
    dof,
)
from .scenario_setup import _token_ok, scenario_names
from .scenarios import SCENARIOS
from .state import (
    ActionChosen,
    AooPick,
    ArkhamState,
    ArkhamStep,
    AssetDiscardAnswer,
    AttackPick,
    CardChoiceAnswer,
    ChooseAnswer,
    ChooseEnemyAnswer,
    CommitAnswer,
    DamageEnemy,
    ElusiveAnswer,
    EngageAnswer,
    HandSizeAnswer,
    HarmAnswer,
    HunterPick,
    LeadAnswer,
    MassivePick,
    MidnightAnswer,
    MoveOneAnswer,
    MulliganAnswer,
    ObjectiveAnswer,
    SlotAnswer,
    SpawnAnswer,
    SpendCluesAnswer,
    TestWindowAnswer,
    TraumaAnswer,
    TurnPick,
    WouldFailAnswer,
)

__all__ = ["RESUME_STEPS", "state_problem"]

#: The ops ``effects._effect`` dispatches by name (besides the sets imported above).
_DISPATCHED: Final = frozenset({
    "gain_resources", "enemies_forced", "damage", "horror", "direct_damage", "direct_horror",
    "damage_per_fail", "horror_per_fail", "test", "doom_agenda", "doom_self", "lose_resources",
    "draw_cards", "discover_clues", "heal_damage", "heal_horror", "lose_actions", "test_bonus",
    "auto_succeed", "search_encounter", "suffer_trauma", "xp", "take_investigate",
    "perform_investigate", "damage_enemy", "evaded", "auto_evade", "resolution",
    "put_into_play", "choose", "discard_random", "discard_until_trait", "discard_enemies_at",
    "move_trait_toward", "doom_per_trait_at", "resolution_by_act", "kill_unresigned",
    "discard_asset_or_damage", "take_control", "reveal_location", "move_all_to",
    "spawn_set_aside", "remove_location", "threat_area", "attach_location", "discard_self",
    "surge", "draw_encounter", "cancel_attack", "cancel_revelation"})

_SMALL = rule_int_in(-1000, 1000)
_TOKENS = rule_int_in(0, 1000)
_PHASES: Final = frozenset({"setup", "mythos", "investigation", "enemy", "upkeep"})
_SEAT_ZONES: Final = ("deck", "hand", "aside", "discard", "play", "threat")
_SEAT_ZONE_IDS: Final = tuple(tuple(f"{kind}.{s}" for kind in _SEAT_ZONES) for s in range(8))
_SHARED_ZONES: Final = ("locations", "setaside", "acts", "agendas", "encounter",
                        "encounter_discard", "victory", "committed", "resolving", "out",
                        "removed")
_TRIGGER_KINDS: Final = frozenset({"forced", "play_when", "pass_when", "reaction", "db"})
#: abilities named by one word: Cover Up's reaction (A974.1)
_ONE_WORD_ABILITIES: Final = frozenset({"cover_up"})
#: What the number in an option key ``"<head>:<number>"`` names, for the step that reads it.
_KEY_IDS: Final = {"inv": "seat", "clue": "seat", "lend": "seat", "token": "index",
                   "asset": "card", "card": "card", "commit": "card", "enemy": "card",
                   "loc": "card", "location": "card", "play": "card", "fast": "card"}


def _effects_in(value: Any, depth: int = 0) -> Iterator[Effect]:
    """Every :class:`Effect` in a tree of structs, tuples, lists and maps."""
    if depth > 60:
        return
    if isinstance(value, Effect):
        yield value
    if isinstance(value, msgspec.Struct):
        for name in value.__struct_fields__:
            field = getattr(value, name)
            if isinstance(field, (msgspec.Struct, list, tuple, dict)) and field:
                yield from _effects_in(field, depth + 1)
    elif isinstance(value, (list, tuple)):
        for item in value:
            if isinstance(item, (msgspec.Struct, list, tuple, dict)):
                yield from _effects_in(item, depth + 1)
    elif isinstance(value, dict):
        for item in value.values():
            if isinstance(item, (msgspec.Struct, list, tuple, dict)):
                yield from _effects_in(item, depth + 1)


@cache
def _known() -> tuple[frozenset[str], frozenset[str]]:
    """The effect ops and tested skills the game knows: the dispatched ops and every op and
    skill the built-in cards and scenarios use (computed once)."""
    ops = set(_DISPATCHED | _PLAYER_OPS | CHOICE_OPS | frozenset().union(*(sc.ops for sc in SCENARIOS)))
    skills = {"", *SKILLS}
    sources: list[Any] = list(card_pool().values())
    for name in scenario_names():
        sources.append(load_scenario(name))
    for effect in _effects_in(sources):
        ops.add(effect.op)
        skills.add(effect.skill)
    return frozenset(ops), frozenset(skills)


def _location(state: tcgcore.GameState[Any], value: Any) -> str | None:
    if value == -1 or (type(value) is int and value >= 0 and Z_AT[value] in state.zones):
        return None
    return f"{value!r} is not a location in play"


def _event(state: tcgcore.GameState[Any], value: Any) -> str | None:
    return None if type(value) is int and -1 <= value < state.event_count else \
        f"{value!r} is not an event of this match"


def _assigned(state: tcgcore.GameState[Any], value: Any) -> str | None:
    """Damage and horror assigned so far (RR: Damage/Horror): ``"<kind>:inv"`` or
    ``"<kind>:<card id>"`` -> a count."""
    for key, n in value.items():
        kind, _, target = key.partition(":")
        if kind not in ("damage", "horror") or not (
                target == "inv" or (target.isdigit() and int(target) < len(state.cards))):
            return f"{key!r} is not damage or horror on the investigator or a card"
        if not 0 <= n <= 1000:
            return f"{key!r}: {n} is outside 0..1000"
    return None


@cache
def _rules() -> dict[str, tcgcore.FieldRule]:
    ops, skills = _known()
    return {
        "seat": rule_seat, "seats": rule_each(rule_seat), "commit_seats": rule_each(rule_seat),
        "DamageEnemy.seat": rule_seat_or_none, "ChooseEnemyAnswer.seat": rule_seat_or_none,
        "card": rule_card, "enemy": rule_card, "source": rule_card_or_none,
        "pending": rule_each(rule_card), "cards": rule_each(rule_card_or_none),
        "committed": rule_each(rule_card), "location": _location,
        "SkillTest.target": rule_card_or_none, "event": _event,
        "index": rule_int_in(-1, 100), "count": rule_int_in(0, 100), "depth": rule_int_in(0, 100),
        "amount": _SMALL, "margin": _SMALL, "damage": _TOKENS, "horror": _TOKENS,
        "direct_damage": _TOKENS, "direct_horror": _TOKENS, "difficulty": _SMALL,
        "skill_bonus": _SMALL, "damage_bonus": _SMALL, "value": rule_int_in(-MAX_COUNT, MAX_COUNT),
        "assigned": _assigned,
        "SkillTest.skill": rule_one_of(SKILLS, "skill"),
        "Effect.op": rule_one_of(ops, "effect op"), "Effect.skill": rule_one_of(skills, "skill"),
    }


def _zones_problem(state: ArkhamState) -> str | None:
    zones = state.zones
    for s in range(state.num_players):
        for zid in _SEAT_ZONE_IDS[s]:
            zone = zones.get(zid)
            if zone is None or zone.owner != s:
                return f"zones[{zid!r}]: missing or not seat {s}'s"
    for zid in _SHARED_ZONES:
        if zid not in zones:
            return f"zones[{zid!r}]: missing"
    for cid in zones["locations"].cards:
        if Z_AT[cid] not in zones:
            return f"zones[{Z_AT[cid]!r}]: missing for location {cid}"
    for cid in zones["setaside"].cards:  # a location set aside enters play with its area
        if Z_AT[cid] not in zones and dof(state, cid).type_code == "location":
            return f"zones[{Z_AT[cid]!r}]: missing for set-aside location {cid}"
    return None


def _inv_problem(state: ArkhamState) -> str | None:
    for s, inv in enumerate(state.inv):
        for name in ("resources", "clues", "damage", "horror", "actions"):
            if not 0 <= getattr(inv, name) <= 1000:
                return f"inv[{s}].{name}: {getattr(inv, name)} is outside 0..1000"
        if inv.status not in ("", "defeated", "resigned"):
            return f"inv[{s}].status: {inv.status!r} is not a status"
        if inv.location == -1 and not inv.status and state.phase != "setup":
            return f"inv[{s}].location: an investigator in play is at no location"
        if inv.trauma not in ("", "physical", "mental"):
            return f"inv[{s}].trauma: {inv.trauma!r} is not a trauma"
        if any(not 0 <= v <= 1000 for v in inv.limits.values()):
            return f"inv[{s}].limits: a use count out of range"
    seats = state.num_players
    if not -1 <= state.turn_seat < seats or not -1 <= state.peril < seats:
        return f"turn_seat / peril: {state.turn_seat} / {state.peril} are not seats"
    if state.phase not in _PHASES:
        return f"phase: {state.phase!r} is not a phase"
    if not 0 <= state.act_advanced <= 100:
        return f"act_advanced: {state.act_advanced} is outside 0..100"
    for name in ("cancelled", "auras"):
        for v in getattr(state, name):
            if not -len(state.cards) - 1 <= v < max(state.event_count, len(state.cards)):
                return f"{name}: {v} is out of range"
    if any(not 0 <= v <= 1000 for v in state.group_limits.values()):
        return "group_limits: a use count out of range"
    for key, linked in state.adj.items():  # connections between locations in play
        if not key.isdigit() or f"at.{key}" not in state.zones:
            return f"adj[{key!r}]: not a location in play"
        for loc in linked:
            if f"at.{loc}" not in state.zones:
                return f"adj[{key!r}]: {loc} is not a location in play"
        if len(set(linked)) != len(linked):  # each connection once (one move action each)
            return f"adj[{key!r}]: a connection is listed twice"
    for token in state.next_tokens:
        if not _token_ok(token):
            return f"next_tokens: {token!r} is not a chaos token"
    if state.extra_defs:  # a scenario description's cards: effects the language has
        ops, skills = _known()
        for effect in _effects_in(list(state.extra_defs.values())):
            if effect.op not in ops or effect.skill not in skills:
                return f"extra_defs: effect {effect.op!r} ({effect.skill!r}) is not known"
    return None


def _trigger_problem(state: ArkhamState, trig: tcgcore.Trigger, path: str) -> str | None:
    if trig.ability in _ONE_WORD_ABILITIES:
        return None if trig.source is not None else f"{path}.source: a card's ability needs its card"
    parts = trig.ability.split(":")
    if parts[0] not in _TRIGGER_KINDS or len(parts) < 2:
        return f"{path}.ability: {trig.ability!r} is not an ability of this game"
    if parts[0] in ("play_when", "reaction") and trig.source is None:
        return f"{path}.source: a card's ability needs its card"
    for part in parts[1:]:
        if part.lstrip("-").isdigit() and not -1 <= int(part) < max(len(state.cards), 100):
            return f"{path}.ability: {trig.ability!r} names a card or ability that is not there"
    if parts[0] == "reaction" and trig.source is not None:
        if not parts[1].isdigit() or int(parts[1]) >= len(dof(state, trig.source).abilities):
            return f"{path}.ability: card {trig.source} has no ability {parts[1]}"
    return None


def _all_triggers(state: ArkhamState) -> Iterator[tuple[str, tcgcore.Trigger]]:
    for i, trig in enumerate(state.triggers):
        yield f"triggers[{i}]", trig
    for i, step in enumerate(state.stack):
        for j, trig in enumerate(getattr(step, "triggers", ())):
            yield f"stack[{i}].triggers[{j}]", trig
        one = getattr(step, "trigger", None)
        if isinstance(one, tcgcore.Trigger):
            yield f"stack[{i}].trigger", one


#: The steps that read an answer (``ActionChosen`` and the ``*Answer`` and ``*Pick`` steps;
#: ``spec.resume_steps``): only the top of the stack, under a pending choice, may be one.
RESUME_STEPS: Final = frozenset(t for t in get_args(ArkhamStep)
                           if (t.__name__.endswith(("Answer", "Pick")) or t is ActionChosen)
                           and t.__module__ != "tcgcore._trigger_steps")


#: The resume steps that read any number of answers (the others read exactly one).
_MANY: Final = frozenset({MulliganAnswer, CommitAnswer, SpendCluesAnswer, HandSizeAnswer})

#: The resume steps that read the number in every key (``"<head>:<number>"``).
_NUMBERED: Final = frozenset({
    MidnightAnswer, AssetDiscardAnswer, TurnPick, AooPick, ChooseEnemyAnswer, SlotAnswer,
    MulliganAnswer, SpawnAnswer, EngageAnswer, LeadAnswer, ElusiveAnswer, HunterPick,
    AttackPick, CommitAnswer, HandSizeAnswer})


#: What each resume step reads (the keys its handler parses): its plain words, and its
#: ``"<head>:..."`` keys by head with their number of ``:``-separated parts. An option of
#: any other form would make the handler fail, so a save offering one is refused.
_READS: Final[dict[type[Any], tuple[frozenset[str], dict[str, int]]]] = {
    AooPick: (frozenset(), {"enemy": 2}),
    AssetDiscardAnswer: (frozenset(), {"asset": 2}),
    AttackPick: (frozenset(), {"enemy": 2}),
    CardChoiceAnswer: (frozenset({"disengage", "keep", "pass", "stay", "use"}),
                       {"asset": 2, "card": 2, "enemy": 2, "inv": 2, "location": 2,
                        "skill": 2, "token": 2, "deck": 2}),
    ChooseAnswer: (frozenset({"a", "b"}), {}),
    ChooseEnemyAnswer: (frozenset(), {"enemy": 2}),
    CommitAnswer: (frozenset({"none"}), {"commit": 2}),
    ElusiveAnswer: (frozenset(), {"loc": 2}),
    EngageAnswer: (frozenset(), {"inv": 2}),
    HandSizeAnswer: (frozenset(), {"card": 2}),
    HarmAnswer: (frozenset({"inv"}), {"asset": 2}),
    HunterPick: (frozenset(), {"enemy": 2}),
    LeadAnswer: (frozenset(), {"inv": 2}),
    MassivePick: (frozenset(), {"inv": 2}),
    MidnightAnswer: (frozenset(), {"card": 2}),
    MoveOneAnswer: (frozenset(), {"inv": 2, "loc": 2}),
    MulliganAnswer: (frozenset(), {"card": 2}),
    ObjectiveAnswer: (frozenset({"yes", "no"}), {}),
    SlotAnswer: (frozenset(), {"asset": 2}),
    SpawnAnswer: (frozenset(), {"loc": 2}),
    SpendCluesAnswer: (frozenset(), {"clue": 3}),
    TestWindowAnswer: (frozenset({"pass"}), {"fast": 3}),
    TraumaAnswer: (frozenset({"mental", "physical"}), {}),
    TurnPick: (frozenset(), {"inv": 2}),
    WouldFailAnswer: (frozenset({"pass"}), {"play": 2}),
}


def _key_form_problem(state: ArkhamState, step: Any, key: str) -> str | None:
    """Whether resume step ``step`` can read option ``key`` (see :data:`_READS`): a word
    it knows, or one of its heads with the right parts (numbers, a skill, a deck)."""
    reads = _READS.get(type(step))
    if reads is None:  # ActionChosen (asked afresh below) and the core's trigger steps
        return None
    words, heads = reads
    if key in words:
        return None
    parts = key.split(":")
    if heads.get(parts[0]) != len(parts):
        return f"is not what {type(step).__name__} reads"
    head, rest = parts[0], parts[1:]
    if head == "skill":
        return None if rest[0] in SKILLS else "names no skill"
    if head == "deck":
        ok = rest[0] == "encounter" or (rest[0].isdigit() and int(rest[0]) < state.num_players)
        return None if ok else "names no deck"
    if not all(x.isdigit() and len(x) < 8 for x in rest):
        return "does not name numbers where its step reads them"
    return None


def _pending_problem(state: ArkhamState) -> str | None:
    pending = state.pending
    assert pending is not None
    step = state.stack[-1]
    seat = getattr(step, "seat", None)
    if type(seat) is int and seat >= 0 and not isinstance(step, (DamageEnemy, MidnightAnswer)) \
            and pending.player != seat and pending.kind not in ("order_triggers", "use_trigger"):
        return (f"pending.player: {pending.player}, but its step ({type(step).__name__}) is "
                f"seat {seat}'s")
    if pending.min < 1 and type(step) not in _MANY:
        return f"pending.min: {type(step).__name__} reads one answer, none may be chosen"
    n = len(state.cards)
    numbered = type(step) in _NUMBERED
    for j, opt in enumerate(pending.options):
        form = _key_form_problem(state, step, opt.key)
        if form:
            return f"pending.options[{j}].key: {opt.key!r} {form}"
        head, _, rest = opt.key.partition(":")
        if numbered and opt.key == "none" and type(step) is CommitAnswer:
            continue  # a commit window of a hand without a matching icon (A913.2)
        if numbered and (head not in _KEY_IDS or not rest):
            return f"pending.options[{j}].key: {opt.key!r} is not what {type(step).__name__} reads"
        if not rest or head not in _KEY_IDS:
            continue
        number, _, more = rest.partition(":")
        if head == "fast" and not more.isdigit():  # "fast:<card>:<ability index>"
            return f"pending.options[{j}].key: {opt.key!r} names no ability"
        bound = state.num_players if _KEY_IDS[head] == "seat" else (
            100 if _KEY_IDS[head] == "index" else n)
        if not number.isdigit() or int(number) >= bound:
            return f"pending.options[{j}].key: {opt.key!r} names no {_KEY_IDS[head]}"
        if _KEY_IDS[head] == "card" and opt.card is not None and opt.card != int(number):
            return f"pending.options[{j}].key: {opt.key!r} is not about card {opt.card}"
    if isinstance(step, ActionChosen):  # the turn's action choice (A401-A404), asked afresh
        if [o.key for o in turn_options(state, step.seat)] != [o.key for o in pending.options]:
            return "pending.options: not the actions the rules offer now"
    return None


def state_problem(state: ArkhamState) -> str | None:
    """The first game fact of ``state`` a match could not be played on, or ``None``."""
    if len(state.inv) != state.num_players and (state.inv or state.pending is not None):
        return f"inv: {len(state.inv)} investigators for {state.num_players} seats"
    problem = _zones_problem(state) or _inv_problem(state)
    if problem:
        return problem
    rules = _rules()
    for i, test in enumerate([state.test, *state.deferred_tests]):
        if test is None:
            continue
        path = "test" if i == 0 else f"deferred_tests[{i - 1}]"
        if test.seat >= state.num_players or test.seat < 0:
            return f"{path}.seat: {test.seat} is not a seat"
        for revealed in test.tokens:
            if not _token_ok(revealed):
                return f"{path}.tokens: {revealed!r} is not a chaos token"
        problem = check_fields(state, test, rules, path)
        if problem:
            return problem
    for symbol, effect in state.tokens.items():
        for name in ("on_reveal", "on_fail", "on_success", "after_fail"):
            effects = getattr(effect, name)
            if effects:
                problem = check_fields(state, effects, rules, f"tokens[{symbol!r}].{name}")
                if problem:
                    return problem
    for path, trig in _all_triggers(state):
        problem = _trigger_problem(state, trig, path)
        if problem:
            return problem
    if state.result is not None:
        return None
    problem = check_fields(state, state.stack, rules, "stack")
    if problem:
        return problem
    if state.pending is not None:
        return _pending_problem(state)
    return None
