"""The arkham_card game plugin for tcgcore: Arkham Horror: The Card Game (詭鎮奇談：卡牌版).

Public API:

* :func:`scenario` builds a match from a declarative description (dict or TOML);
* :class:`Campaign` and its functions carry trauma, experience and decks between
  scenarios;
* :mod:`tcgcore_arkham_card.cards` loads card data.

Matches are normally created with ``tcgcore.new_match("arkham_card", seed=…, players=1..4)``
(the built-in test scenario); ``scenario="01104"`` plays The Gathering with the test
investigators. Module layout: :mod:`.cards` (card model and data loading), :mod:`.state`
(state and steps), :mod:`.rules` (the engine), :mod:`.scenario_setup` (built-in setup and
descriptions), :mod:`.builder`, :mod:`.campaign`, :mod:`.plugin` (registration, views),
:mod:`.testkit` (test helpers).
"""

from __future__ import annotations

from .builder import scenario
from .campaign import (
    Campaign,
    CampaignInvestigator,
    add_chaos_token,
    available_investigators,
    buy_card,
    check_lost,
    cross_out,
    earn_story_asset,
    has_entry,
    new_campaign,
    record_entry,
    record_scenario,
    replace_investigator,
    scenario_options,
    validate_deck,
)
from .cards import CardDef, card_pool, load_cards, parse_cards

__all__ = [
    "Campaign",
    "CampaignInvestigator",
    "CardDef",
    "add_chaos_token",
    "available_investigators",
    "buy_card",
    "card_pool",
    "check_lost",
    "cross_out",
    "earn_story_asset",
    "has_entry",
    "load_cards",
    "new_campaign",
    "parse_cards",
    "record_entry",
    "record_scenario",
    "replace_investigator",
    "scenario",
    "scenario_options",
    "validate_deck",
]
