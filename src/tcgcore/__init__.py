"""tcgcore: a typed, embeddable, deterministic rules engine for trading and living card games.

Front ends use the match facade::

    import tcgcore
    match = tcgcore.new_match("sparks", seed=7)
    while match.result is None:
        choice = match.pending
        match.choose(choice.player, choice.options[0].key)

Game authors use :class:`GameSpec`, :class:`GameState`, :class:`Step`, the
:class:`Engine` their handlers receive, and :data:`hookimpl` to register. See
``docs/plugin-guide.md``.
"""

from __future__ import annotations

# _engine before _spec (and before anything importing _spec): _engine imports GameSpec from
# _spec at its end, once everything _spec needs from _engine exists; the test suite's every
# import of tcgcore checks this order.
from ._agents import Agent, RandomAgent, make_agent, play_out
from ._balance import (
    ABReport,
    BalanceReport,
    CardFigure,
    GameQuality,
    Matchup,
    Moved,
    Rate,
    balance,
    balance_ab,
    mcnemar_p,
    newcombe_interval,
    read_card_usage,
)
from ._build import compiled_modules
from ._cards import CardAbility, CardBook, EffectRegistry
from ._determinize import determinize, determinize_state
from ._encodings import ActionLayout, ObservationLayout
from ._engine import (
    Engine,
    TriggerPolicy,
    active_player_first,
    decided_by,
    highest_priority_first,
)
from ._errors import (
    BackendError,
    CardDataError,
    DeckError,
    DuplicateGameError,
    EngineError,
    FormatVersionError,
    GameMismatchError,
    IllegalChoice,
    OptionsError,
    PluginError,
    ReplayDivergence,
    SeatError,
    SimulationError,
    StateDecodeError,
    StepLimitError,
    TcgcoreError,
    UnknownGameError,
    WorkerMismatchError,
)
from ._identity import card_alias, card_named
from ._keys import KEY_SEPARATOR, Key, card_option, option_key, parse_key
from ._match import FORMAT_VERSION, Decision, Match, ReplayRecord, new_match, replay
from ._model import (
    ALL_PLAYERS,
    EMPTY_SLOT,
    CardInstance,
    Choice,
    Event,
    GameState,
    Option,
    Result,
    Scalar,
    SeatCards,
    Step,
    Trigger,
    Visibility,
    Zone,
)
from ._plugins import CardSet, Registry, default_registry, hookimpl, load_registry
from ._presentation import (
    Block,
    CardInfo,
    CardsBlock,
    Cell,
    MapBlock,
    MapNode,
    Slot,
    TableBlock,
    TableRow,
    TextBlock,
    card_catalogue,
    card_info,
    table_layout,
)
from ._ray_backend import ray_session
from ._reader import SeatReader
from ._rng import Rng
from ._search import ISMCTSAgent
from ._simulate import GameOutcome, SimulationReport, merge_reports, simulate, wilson_interval
from ._spec import GameSpec, check_options
from ._terminal import describe_event, log_header, render_board, zone_words
from ._trigger_steps import CoreStep, ResolveTrigger, TriggerOptIn, TriggerPick, TriggerWindow
from ._validate import (
    MAX_COUNT,
    FieldRule,
    check_fields,
    rule_card,
    rule_card_or_none,
    rule_each,
    rule_int_in,
    rule_one_of,
    rule_seat,
    rule_seat_or_none,
)
from ._views import CardView, View, ZoneView

__version__ = "0.2.1"

__all__ = [
    "ALL_PLAYERS",
    "EMPTY_SLOT",
    "FORMAT_VERSION",
    "KEY_SEPARATOR",
    "MAX_COUNT",
    "ABReport",
    "ActionLayout",
    "Agent",
    "BackendError",
    "BalanceReport",
    "Block",
    "CardAbility",
    "CardBook",
    "CardDataError",
    "CardFigure",
    "CardInfo",
    "CardInstance",
    "CardSet",
    "CardView",
    "CardsBlock",
    "Cell",
    "Choice",
    "CoreStep",
    "Decision",
    "DeckError",
    "DuplicateGameError",
    "EffectRegistry",
    "Engine",
    "EngineError",
    "Event",
    "FieldRule",
    "FormatVersionError",
    "GameMismatchError",
    "GameOutcome",
    "GameQuality",
    "GameSpec",
    "GameState",
    "ISMCTSAgent",
    "IllegalChoice",
    "Key",
    "MapBlock",
    "MapNode",
    "Match",
    "Matchup",
    "Moved",
    "ObservationLayout",
    "Option",
    "OptionsError",
    "PluginError",
    "RandomAgent",
    "Rate",
    "Registry",
    "ReplayDivergence",
    "ReplayRecord",
    "ResolveTrigger",
    "Result",
    "Rng",
    "Scalar",
    "SeatCards",
    "SeatError",
    "SeatReader",
    "SimulationError",
    "SimulationReport",
    "Slot",
    "StateDecodeError",
    "Step",
    "StepLimitError",
    "TableBlock",
    "TableRow",
    "TcgcoreError",
    "TextBlock",
    "Trigger",
    "TriggerOptIn",
    "TriggerPick",
    "TriggerPolicy",
    "TriggerWindow",
    "UnknownGameError",
    "View",
    "Visibility",
    "WorkerMismatchError",
    "Zone",
    "ZoneView",
    "__version__",
    "active_player_first",
    "balance",
    "balance_ab",
    "card_alias",
    "card_catalogue",
    "card_info",
    "card_named",
    "card_option",
    "check_fields",
    "check_options",
    "compiled_modules",
    "decided_by",
    "default_registry",
    "describe_event",
    "determinize",
    "determinize_state",
    "games",
    "highest_priority_first",
    "hookimpl",
    "load_registry",
    "log_header",
    "make_agent",
    "mcnemar_p",
    "merge_reports",
    "new_match",
    "newcombe_interval",
    "option_key",
    "parse_key",
    "play_out",
    "ray_session",
    "read_card_usage",
    "render_board",
    "replay",
    "rule_card",
    "rule_card_or_none",
    "rule_each",
    "rule_int_in",
    "rule_one_of",
    "rule_seat",
    "rule_seat_or_none",
    "simulate",
    "table_layout",
    "wilson_interval",
    "zone_words",
]


def games(registry: Registry | None = None) -> list[str]:
    """Names of the registered games, sorted (installed plugins by default)."""
    reg = registry if registry is not None else default_registry()
    return reg.names()


def __dir__() -> list[str]:
    return list(__all__)
