"""The guimi_revival game plugin for tcgcore: Guimi Revival (诡秘复苏) rules engine.

Public API:

* :func:`scenario` - build a match from a declarative position (dict or TOML text).
* :func:`validate_deck` / :func:`deck_problems` - deck-construction checks (rules 041-043).
* :func:`load_pool_file` / :func:`get_pool` - card pools; :class:`CardDef` - card records.
* :class:`RulesOptions` - the rules options of section 14 (pass them to ``tcgcore.new_match``).
"""

from __future__ import annotations

from typing import Any

import msgspec

import tcgcore

from .cards import CardDef, CardPool, get_pool, load_pathways, load_pool_file, parse_pool
from .decks import DeckList, deck_problems, default_decks, validate_deck
from .options import GAME, RulesOptions
from .setup import parse_scenario
from .state import GuimiState

__all__ = [
    "GAME",
    "CardDef",
    "CardPool",
    "DeckList",
    "GuimiState",
    "RulesOptions",
    "deck_problems",
    "default_decks",
    "get_pool",
    "load_pathways",
    "load_pool_file",
    "parse_pool",
    "scenario",
    "validate_deck",
]


def scenario(description: dict[str, Any] | str, *, seed: int = 0,
             registry: tcgcore.Registry | None = None,
             **options: Any) -> tcgcore.Match[GuimiState]:
    """Build a match from a scenario description (``docs/guimi_revival/scenario-format.md``).

    The description (a dict, or TOML text) is validated and passed to ``tcgcore.new_match`` as
    the ``scenario`` option, so the result is a normal match that saves, loads and replays.
    Other keyword options (rules options, ``pool``) are passed through; ``registry`` defaults
    to the installed plugins.

    Raises:
        tcgcore.OptionsError: a bad description (the message names the field).
    """
    if isinstance(description, str):
        parse_scenario(description)
        import tomllib

        description = tomllib.loads(description)
    else:
        parse_scenario(description)
    raw = msgspec.to_builtins(description)
    return tcgcore.new_match(GAME, seed=seed, registry=registry, scenario=raw, **options)
