"""The arkham_card game plugin for tcgcore: Arkham Horror: The Card Game (詭鎮奇談：卡牌版).

Public API:

* :func:`scenario` builds a match from a declarative description (dict or TOML);
* :class:`Campaign` and its functions carry trauma, experience and decks between
  scenarios;
* :mod:`tcgcore_arkham_card.cards` loads card data.

Matches are normally created with ``tcgcore.new_match("arkham_card", seed=…, players=1..4)``:
The Gathering (01104) with the core investigators' starter decks, or ``decks=[...]``
(starter deck names or ArkhamDB deck JSON texts, :mod:`.decks`); ``scenario="test"`` is the
rules' test scenario. Module layout: :mod:`.cards` (card model and data loading),
:mod:`.state` (state and steps), the engine in layers (:mod:`.queries`,
:mod:`.abilities`, :mod:`.operations`, :mod:`.card_choices`, then :mod:`.skill_tests`,
:mod:`.actions`, :mod:`.enemies`, :mod:`.effects` and :mod:`.rules`; the scenarios'
own rules in :mod:`.the_gathering`, :mod:`.midnight_masks` and :mod:`.devourer_below`
behind :mod:`.scenario_hooks`), :mod:`.scenario_setup` (built-in setup and descriptions),
:mod:`.decks` (deck import and checks), :mod:`.agent` (the heuristic agent),
:mod:`.builder`, :mod:`.campaign`, :mod:`.campaign_tools`, :mod:`.plugin` (``build_spec``,
views, log), :mod:`.testkit` (test helpers).
"""

from __future__ import annotations

from .agent import HeuristicAgent
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
from .campaign_tools import export_deck, load_campaign, save_campaign, upgrade_policy
from .cards import CardDef, card_pool, load_cards, parse_cards
from .decks import DeckList, check_deck, deck_problems, load_deck, parse_deck, starter_deck

__all__ = [
    "Campaign",
    "CampaignInvestigator",
    "CardDef",
    "DeckList",
    "HeuristicAgent",
    "add_chaos_token",
    "available_investigators",
    "buy_card",
    "card_pool",
    "check_deck",
    "check_lost",
    "cross_out",
    "deck_problems",
    "earn_story_asset",
    "export_deck",
    "has_entry",
    "load_campaign",
    "load_cards",
    "load_deck",
    "new_campaign",
    "parse_cards",
    "parse_deck",
    "record_entry",
    "record_scenario",
    "replace_investigator",
    "save_campaign",
    "scenario",
    "scenario_options",
    "starter_deck",
    "upgrade_policy",
    "validate_deck",
]
