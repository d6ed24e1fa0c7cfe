"""The vocabulary of card data (effect ops, keywords, prey forms) and the check of card
objects a scenario description supplies (``docs/arkham_card/scenario-format.md``, A971.6).

Built-in card files ignore fields they do not know, so ArkhamDB exports load (cards.py).
A scenario description is written for this engine, so :func:`card_object_problem` refuses
an unknown field, effect op, keyword or prey form when the scenario is built, naming the
path of the field, instead of failing later when the card is played.
"""

from __future__ import annotations

import difflib
from typing import Any, Final

from .cards import SKILLS, Ability, CardDef, Effect, TokenEffect, Uses

__all__ = ["EFFECT_OPS", "KEYWORDS", "card_object_problem", "effect_list_problem",
           "prey_known", "token_effect_problem"]

#: Every op of the effect language (:class:`.cards.Effect`), whichever rules module carries
#: it out: the general ops (effects.py), the player-card ops, the choices of player cards
#: (card_choices.py) and the ops of The Midnight Masks and The Devourer Below. A test checks
#: that each module's own set is part of it and that the built-in data uses no other op.
EFFECT_OPS: Final = frozenset({
    # effects.py, general
    "gain_resources", "enemies_forced", "damage", "horror", "direct_damage", "direct_horror",
    "damage_per_fail", "horror_per_fail", "test", "doom_agenda", "doom_self",
    "lose_resources", "draw_cards", "discover_clues", "heal_damage", "heal_horror",
    "lose_actions", "test_bonus", "auto_succeed", "search_encounter", "suffer_trauma", "xp",
    "take_investigate", "perform_investigate", "damage_enemy", "evaded", "auto_evade",
    "resolution", "put_into_play", "choose", "discard_random", "discard_until_trait",
    "discard_enemies_at", "move_trait_toward", "doom_per_trait_at", "resolution_by_act",
    "kill_unresigned", "discard_asset_or_damage", "take_control", "reveal_location",
    "move_all_to", "spawn_set_aside", "remove_location", "threat_area", "attach_location",
    "discard_self", "surge", "draw_encounter",
    # effects.py, player cards; the two "when" ops read by the play (Dodge, Aquinnah)
    "gain_actions", "counter_self", "flag", "search_top", "search_deck", "look_top",
    "cancel_revelation", "damage_target", "recover_item", "discard_hand_but",
    "remove_discard", "attack_bonus", "add_uses", "harm_self", "discard_enemy_here",
    "skill_bonus", "shuffle_enemy_back", "return_to_hand", "flip_negative",
    "cancel_attack", "redirect_attack",
    # card_choices.py
    "choose_investigator", "blast", "escape", "scry", "choose_skill", "add_uses_here",
    "blank_enemy_here",
    # midnight_masks.py
    "doom_nearest_trait", "doom_each_trait", "heal_self", "to_victory", "discard_to_victory",
    "clues_to_victory", "draw_cultist", "cultist_draw", "spawn_set_aside_prey",
    "spend_clue_or_damage", "spend_clue", "false_lead", "clues_to_location",
    "wings_of_darkness", "attach_most_clues", "move_to", "gain_clues", "search_top_any",
    "spawn_redirect", "reveal_token",
    # devourer_below.py
    "cancel_move", "advance_act_if", "refill_clues", "db_resolution", "wrath_per_fail",
    "wrath_point", "discard_chosen", "harm_both", "discard_until_spawn", "madness_test",
    "madness_card", "vengeance", "spawn_got_away", "clue_on_act", "search_madness",
    "heal_enemy_self", "doom_nearest_enemy", "reveal_another_if",
})

#: Every keyword the rules read from a card's ``keywords`` (printed keywords such as
#: ``hunter`` and the engine's names for card-specific rules such as ``cover_up``).
KEYWORDS: Final = frozenset({
    "alert", "aloof", "amulet_events", "barricade", "blank_bearer", "byakhee",
    "cannot_attack", "cover_up", "double_negative_evade", "elusive", "frozen",
    "grotesque_statue", "haunted", "hunter", "massive", "necronomicon", "no_clues_engaged",
    "no_investigate", "no_play", "peril", "ready_turn_end", "retaliate", "surge", "turn_start", "yithian",
})

#: Prey values after ``highest:`` / ``lowest:`` (A607.1).
_PREY_SCORES: Final = frozenset({*SKILLS, "remaining_health", "remaining_sanity", "hand"})

_CARD_FIELDS: Final = frozenset(CardDef.__struct_fields__)
_ABILITY_FIELDS: Final = frozenset(Ability.__struct_fields__)
_EFFECT_FIELDS: Final = frozenset(Effect.__struct_fields__)
_TOKEN_FIELDS: Final = frozenset(TokenEffect.__struct_fields__)
_USES_FIELDS: Final = frozenset(Uses.__struct_fields__)
#: ArkhamDB fields a card object may carry although the engine does not read them.
_ARKHAMDB_EXTRAS: Final = frozenset({"pack_code", "position", "illustrator", "flavor",
                                     "back_text", "back_flavor", "back_name", "double_sided",
                                     "encounter_position", "errata_date", "tags", "hidden",
                                     "back_link"})


def prey_known(prey: str) -> bool:
    """Whether ``prey`` is a prey form the engine implements (A607): ``""``, ``"bearer"``,
    ``"only:<seat>"``, ``"highest:<x>"`` / ``"lowest:<x>"`` (a skill, ``remaining_health``,
    ``remaining_sanity``, ``hand``) or ``"most:clues"``."""
    kind, _, what = prey.partition(":")
    if not prey or prey == "bearer" or prey == "most:clues":
        return True
    if kind == "only":
        return what.isdigit()
    return kind in ("highest", "lowest") and what in _PREY_SCORES


def _unknown(name: str, known: frozenset[str], what: str, where: str) -> str:
    close = difflib.get_close_matches(name, sorted(known), n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    return f"{where}: unknown {what} {name!r}{hint}"


def _fields(raw: dict[str, Any], known: frozenset[str], where: str,
            strict: bool = True) -> str | None:
    if not strict:
        return None
    for key in raw:
        if key not in known:
            return _unknown(str(key), known, "field", f"{where}.{key}")
    return None


def effect_list_problem(raw: Any, where: str, *, strict: bool = True) -> str | None:
    """The first problem of a list of effect objects (unknown field or op, recursively in
    ``on_success`` / ``on_fail``), as ``"<path>: ..."``; ``None`` when there is none. A value
    of the wrong shape is left to the type check that follows. ``strict=False`` allows
    unknown fields (card data files, which may carry ArkhamDB's)."""
    if not isinstance(raw, list):
        return None
    for i, e in enumerate(raw):
        at = f"{where}[{i}]"
        if not isinstance(e, dict):
            continue
        problem = _fields(e, _EFFECT_FIELDS, at, strict)
        if problem:
            return problem
        op = e.get("op")
        if isinstance(op, str) and op not in EFFECT_OPS:
            return _unknown(op, EFFECT_OPS, "effect op", f"{at}.op")
        for key in ("on_success", "on_fail"):
            problem = effect_list_problem(e.get(key), f"{at}.{key}", strict=strict)
            if problem:
                return problem
    return None


def token_effect_problem(raw: Any, where: str, *, strict: bool = True) -> str | None:
    """The first problem of a token effect object (a reference-card symbol or an elder
    sign): an unknown field, or an unknown op in its effect lists."""
    if not isinstance(raw, dict):
        return None
    problem = _fields(raw, _TOKEN_FIELDS, where, strict)
    if problem:
        return problem
    for key in ("on_reveal", "on_fail", "on_success", "after_fail"):
        problem = effect_list_problem(raw.get(key), f"{where}.{key}", strict=strict)
        if problem:
            return problem
    return None


def card_object_problem(raw: Any, where: str, *, strict: bool = True) -> str | None:
    """The first problem of one card object of a scenario description's ``cards``: a field
    :class:`.cards.CardDef` does not have (ArkhamDB's descriptive fields such as
    ``pack_code`` are allowed), an unknown field of an ability, effect, token effect or
    ``uses``, an unknown effect op, keyword or prey form. Returns ``"<path>: ..."``, e.g.
    ``"cards[0].revelation[1].op: unknown effect op 'dammage' (did you mean 'damage'?)"``,
    or ``None``. ``strict=False`` (card data files) allows unknown fields but not unknown
    ops, keywords or prey forms."""
    if not isinstance(raw, dict):
        return None
    for key in raw if strict else ():
        if key not in _CARD_FIELDS and key not in _ARKHAMDB_EXTRAS:
            return _unknown(str(key), _CARD_FIELDS, "field", f"{where}.{key}")
    for key in ("effects", "on_success", "revelation", "back"):
        problem = effect_list_problem(raw.get(key), f"{where}.{key}", strict=strict)
        if problem:
            return problem
    forced = raw.get("forced")
    if isinstance(forced, dict):
        for key, effects in forced.items():
            problem = effect_list_problem(effects, f"{where}.forced.{key}", strict=strict)
            if problem:
                return problem
    abilities = raw.get("abilities")
    if isinstance(abilities, list):
        for i, ab in enumerate(abilities):
            if isinstance(ab, dict):
                at = f"{where}.abilities[{i}]"
                problem = _fields(ab, _ABILITY_FIELDS, at, strict) or \
                    effect_list_problem(ab.get("effects"), f"{at}.effects", strict=strict)
                if problem:
                    return problem
    problem = token_effect_problem(raw.get("elder_sign"), f"{where}.elder_sign",
                                   strict=strict)
    if problem:
        return problem
    uses = raw.get("uses")
    if isinstance(uses, dict):
        problem = _fields(uses, _USES_FIELDS, f"{where}.uses", strict)
        if problem:
            return problem
    keywords = raw.get("keywords")
    if isinstance(keywords, list):
        for i, kw in enumerate(keywords):
            if isinstance(kw, str) and kw not in KEYWORDS:
                return _unknown(kw, KEYWORDS, "keyword", f"{where}.keywords[{i}]")
    prey = raw.get("prey")
    if isinstance(prey, str) and not prey_known(prey):
        return (f"{where}.prey: unknown prey {prey!r} (bearer, only:<seat>, most:clues, or "
                "highest:/lowest: with a skill, remaining_health, remaining_sanity or hand)")
    return None
