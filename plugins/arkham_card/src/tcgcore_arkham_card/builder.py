"""The scenario builder: one rule checked in a few lines (see
``docs/arkham_card/scenario-format.md``)."""

from __future__ import annotations

import tomllib
from typing import Any

import tcgcore

__all__ = ["scenario"]


def scenario(description: dict[str, Any] | str, *, seed: int = 0) -> tcgcore.Match[Any]:
    """Create an ``arkham_card`` match from a scenario description.

    Args:
        description: a dict, or TOML text, in the format of
            ``docs/arkham_card/scenario-format.md`` (investigators with stats, hand, deck
            order and assets; locations; enemies; agenda doom; chaos bag or forced tokens).
        seed: the match seed.

    Returns:
        The match, run to its first decision (the description is stored as the
        ``scenario`` option, so saves and replays work).

    Raises:
        tcgcore.OptionsError: a malformed description (naming the field).
    """
    if isinstance(description, str):
        try:
            description = tomllib.loads(description)
        except tomllib.TOMLDecodeError as exc:
            raise tcgcore.OptionsError(f"arkham_card: scenario TOML: {exc}") from None
    if not isinstance(description, dict):
        raise tcgcore.OptionsError(
            f"arkham_card: a scenario description is a table (dict) or TOML text, "
            f"got {type(description).__name__}")
    investigators = description.get("investigators", [])
    n = len(investigators) if isinstance(investigators, list) else 0
    if not 1 <= n <= 4:
        raise tcgcore.OptionsError("arkham_card: a description needs 1 to 4 investigators")
    return tcgcore.new_match("arkham_card", seed=seed, players=n, scenario=description)
