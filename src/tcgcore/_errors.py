"""The tcgcore exception tree.

Every error the library raises on purpose derives from :class:`TcgcoreError`::

    TcgcoreError
    ├── IllegalChoice (ValueError)        a decision that the pending choice does not allow
    ├── SeatError (ValueError)            a seat number that the match does not have
    ├── OptionsError (ValueError)         bad match options, deck lists or scenario descriptions
    │   └── DeckError                     a deck list that breaks deck-building rules
    ├── CardDataError (ValueError)        a card data file that does not validate
    ├── StateDecodeError (ValueError)     save bytes that cannot be loaded
    │   ├── FormatVersionError            saved by a newer (or unknown) envelope format
    │   └── GameMismatchError             saved by another game, or an incompatible game version
    ├── ReplayDivergence                  replaying a record did not reproduce it
    ├── PluginError                       plugin registration went wrong
    │   ├── DuplicateGameError            two plugins registered one game name
    │   └── UnknownGameError (LookupError) no plugin registered that game name
    ├── EngineError (RuntimeError)        a game plugin broke an engine invariant
    ├── BackendError                      a simulation backend cannot be used (not installed)
    │   └── WorkerMismatchError           a worker's packages or game content differ from the driver's
    └── SimulationError                   a game of a distributed simulation failed on a worker

Errors caused by the caller's input subclass :class:`ValueError` as well, so a
caller that already handles ``ValueError`` keeps working.
"""

from __future__ import annotations

__all__ = [
    "BackendError",
    "CardDataError",
    "ConformanceError",
    "DeckError",
    "DuplicateGameError",
    "EngineError",
    "FormatVersionError",
    "GameMismatchError",
    "IllegalChoice",
    "OptionsError",
    "PluginError",
    "ReplayDivergence",
    "SeatError",
    "SimulationError",
    "StateDecodeError",
    "TcgcoreError",
    "UnknownGameError",
    "WorkerMismatchError",
]


class TcgcoreError(Exception):
    """Base class of every error tcgcore raises on purpose."""


class IllegalChoice(TcgcoreError, ValueError):
    """A decision that the pending choice does not allow.

    Raised by :meth:`tcgcore.Match.choose` *before* anything changes: after it the
    match state is byte-for-byte what it was.

    Attributes:
        reason: a short machine-readable code: ``"no_pending_choice"``,
            ``"wrong_player"``, ``"unknown_key"``, ``"duplicate_key"``,
            ``"too_few"``, ``"too_many"`` or ``"game_over"``.
    """

    def __init__(self, message: str, *, reason: str) -> None:
        super().__init__(message)
        self.reason = reason


class SeatError(TcgcoreError, ValueError):
    """A seat number (player index) that is not an int in ``0 .. num_players-1``."""


class OptionsError(TcgcoreError, ValueError):
    """Match options, a seed, a deck list or a scenario description that is not valid."""


class DeckError(OptionsError):
    """A deck list that breaks the game's deck-building rules.

    Attributes:
        problems: every violation found, each a human-readable line naming the
            card and the rule broken. All of them are collected before raising.
    """

    def __init__(self, message: str, problems: list[str]) -> None:
        super().__init__(message + "".join(f"\n  - {p}" for p in problems))
        self.problems = problems


class CardDataError(TcgcoreError, ValueError):
    """A card definition file that does not validate; the message names file, card and field."""


class StateDecodeError(TcgcoreError, ValueError):
    """Bytes that cannot be decoded as a saved match or replay (corrupt or truncated)."""


class FormatVersionError(StateDecodeError):
    """Bytes written by a newer or unknown envelope format than this tcgcore reads."""


class GameMismatchError(StateDecodeError):
    """Bytes saved by another game, or by a game version this plugin cannot load."""


class ReplayDivergence(TcgcoreError):
    """Replaying a record did not reproduce it.

    Attributes:
        index: the 0-based index of the first decision where the replay diverged,
            or ``None`` when every decision replayed but the final digest differs.
    """

    def __init__(self, message: str, *, index: int | None) -> None:
        super().__init__(message)
        self.index = index


class PluginError(TcgcoreError):
    """A plugin could not be loaded or registered."""


class DuplicateGameError(PluginError):
    """Two plugins registered the same game name."""


class UnknownGameError(PluginError, LookupError):
    """No registered plugin provides the requested game."""


class EngineError(TcgcoreError, RuntimeError):
    """A game plugin broke an engine invariant (for example no handler for a step type)."""


class StepLimitError(EngineError):
    """The engine ran more steps than its ``step_limit`` allows before reaching a choice
    (a host's budget per request, such as ``tcgcore serve``'s); the match is left
    part-way through, like after any :class:`EngineError`."""


class BackendError(TcgcoreError):
    """A simulation backend that cannot be used here: its optional dependency is not
    installed (the message says which ``pip install`` brings it), or the cluster it
    names cannot be reached."""


class WorkerMismatchError(BackendError):
    """A worker of a distributed simulation runs other code than the driver: another
    version of tcgcore or of the game's plugin distribution, or other game content (a
    digest of the source and data files of the packages that hold the game). The worker
    refuses the run before it plays a game, since its games would not be the driver's.

    Attributes:
        game: the game's name.
        package: the distribution (``"tcgcore"``, ``"tcgcore-guimi-revival"``) or
            ``"<game> content"`` for the content digest.
        driver: its version (or digest) in the process that started the run.
        worker: its version (or digest) on the worker; ``"missing"`` when not installed.
    """

    def __init__(self, message: str, *, game: str, package: str, driver: str,
                 worker: str) -> None:
        super().__init__(message)
        self.game = game
        self.package = package
        self.driver = driver
        self.worker = worker


class SimulationError(TcgcoreError):
    """A game of a distributed simulation (``tcgcore.simulate(..., backend="ray")``) failed
    on a worker, or a worker was lost more often than its chunk may be re-run; the run
    was stopped and its other games dropped.

    Attributes:
        game: the game's name.
        index: the failed game's position in the run (``None`` when a whole chunk was lost).
        seed: its match seed (``seed + index``; ``None`` with ``index``).
        traceback: the worker's formatted traceback (empty when the worker died).
    """

    def __init__(self, message: str, *, game: str, index: int | None, seed: int | None,
                 traceback: str) -> None:
        super().__init__(message)
        self.game = game
        self.index = index
        self.seed = seed
        self.traceback = traceback


class ConformanceError(AssertionError):
    """A conformance check of :mod:`tcgcore.testing` failed; the message names the game,
    seed and decision. An ``AssertionError`` (not a :class:`TcgcoreError`): it reports a bug in a
    game plugin to its test suite, never a condition a front end handles."""
