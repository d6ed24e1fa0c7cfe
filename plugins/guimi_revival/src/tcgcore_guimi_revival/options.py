"""Rules options (rules.md section 14) and match options.

Every rules option of section 14 is a field of :class:`RulesOptions` with its default first.
:func:`parse_options` validates the keyword options given to ``tcgcore.new_match`` and raises
:class:`tcgcore.OptionsError` naming the bad option.
"""

from __future__ import annotations

import typing
from typing import Any, Literal

import msgspec

import tcgcore

GAME = "guimi_revival"


class RulesOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The section-14 rules options (stored in the state so replays reproduce them)."""

    first_player: Literal["random", "p0", "p1"] = "random"
    defeat_condition: Literal["mad_while_dead", "death"] = "mad_while_dead"
    state_check_order: Literal["death_first", "madness_first"] = "death_first"
    threshold_checks: Literal["on_reaching", "while_at_or_above"] = "on_reaching"
    strength_floor: Literal["zero", "none"] = "zero"
    characteristic_on_unit: Literal["inactive", "active"] = "inactive"
    characteristic_keeps_ritual: Literal["yes", "no"] = "yes"
    extra_deck_size: Literal["exactly_7", "up_to_7"] = "exactly_7"
    potion_limit: Literal["per_sequence", "per_pathway_sequence"] = "per_sequence"
    off_pathway_count: Literal["pathless_counts", "pathway_cards_only"] = "pathless_counts"
    untap_scope: Literal["own", "all"] = "own"
    quick_event_from_hand: Literal["forbidden", "allowed"] = "forbidden"
    quick_event_same_round_battle: Literal["allowed", "forbidden"] = "allowed"
    set_event_activation: Literal["later_main_phase", "cannot_set"] = "later_main_phase"
    dead_rb_can_promote: Literal["no", "yes"] = "no"
    ascension_start: Literal["promotion_phase", "automatic"] = "promotion_phase"
    ascension_recheck: Literal["no", "yes"] = "no"
    lone_source_ascension: Literal["impossible", "waive_adjacent"] = "impossible"
    trigger_rb_scope: Literal["draft", "include", "exclude"] = "draft"
    item_intercept_rb: Literal["allowed", "forbidden"] = "allowed"
    potion_prevention: Literal["one_check", "whole_hit"] = "one_check"
    damage_step_losses: Literal["simultaneous", "sequential"] = "simultaneous"
    dead_corruption_count: Literal["per_death", "whole_game"] = "per_death"
    extra_card_default_destination: Literal["remain", "underworld"] = "remain"


RULES_OPTION_NAMES: tuple[str, ...] = tuple(RulesOptions.__struct_fields__)

#: match options besides the rules options
MATCH_OPTION_NAMES: tuple[str, ...] = ("decks", "pool", "scenario", "deck_check")


def parse_rules_options(options: dict[str, Any]) -> RulesOptions:
    """Validate the rules-option part of ``options``.

    Raises:
        tcgcore.OptionsError: unknown value or wrong type, naming the option.
    """
    picked = {k: v for k, v in options.items() if k in RULES_OPTION_NAMES}
    try:
        opts = msgspec.convert(picked, RulesOptions)
    except msgspec.ValidationError as exc:
        raise tcgcore.OptionsError(f"{GAME}: bad rules option: {exc}{_choices(str(exc))}") \
            from None
    return opts


def _choices(error: str) -> str:
    """``"; defeat_condition is one of mad_while_dead, death"`` for a validation error at
    ``$.<option>`` whose option takes fixed values; ``""`` otherwise."""
    _, sep, at = error.rpartition("at `$.")
    name = at.rstrip("`") if sep else ""
    hint = typing.get_type_hints(RulesOptions).get(name)
    if hint is None or typing.get_origin(hint) is not Literal:
        return ""
    return f"; {name} is one of {', '.join(map(str, typing.get_args(hint)))}"


def check_known(options: dict[str, Any]) -> None:
    """Raise :class:`tcgcore.OptionsError` for an unknown option name."""
    tcgcore.check_options(options, RULES_OPTION_NAMES + MATCH_OPTION_NAMES, GAME)
