"""The public facade: create a match, answer its choices, view, save, load and replay it."""

from __future__ import annotations

import hashlib
from collections import deque
from collections.abc import Sequence
from typing import Any, Generic, Literal, TypeVar

import msgspec

from ._engine import Engine
from ._errors import (
    EngineError,
    FormatVersionError,
    GameMismatchError,
    IllegalChoice,
    OptionsError,
    ReplayDivergence,
    SeatError,
    StateDecodeError,
    TcgcoreError,
)
from ._identity import lose_sight, seat_choice, seat_event
from ._logging import debug_enabled, get_logger
from ._model import Choice, Event, GameState, Result
from ._plugins import Registry, default_registry
from ._rng import Rng
from ._spec import GameSpec
from ._validate import check_state
from ._views import View, build_view

__all__ = ["FORMAT_VERSION", "Decision", "Match", "ReplayRecord", "new_match", "replay"]

#: Version of the save/replay envelope this tcgcore writes and reads.
FORMAT_VERSION = 1

S = TypeVar("S", bound=GameState[Any])

OptionValue = Any


class Decision(msgspec.Struct, array_like=True, omit_defaults=True, gc=False):
    """One answered choice, as recorded for replays.

    Attributes:
        player: the seat that answered.
        keys: the option keys chosen.
        kind: the choice's kind when it was answered (a divergence check).
        options: how many options it offered (a divergence check).
    """

    player: int
    keys: list[str]
    kind: str = ""
    options: int = 0


class _Envelope(msgspec.Struct, kw_only=True):
    """A saved match: versions, how it was created, its decisions and its state."""

    format: int
    what: Literal["match"] = "match"
    game: str
    game_version: str
    plugins: dict[str, str] = {}
    seed: int
    players: int
    options: dict[str, Any] = {}
    decisions: list[Decision] = []
    meta: dict[str, Any] = {}
    state: msgspec.Raw


class _EnvelopeOut(_Envelope, kw_only=True):
    """:class:`_Envelope` as :meth:`Match.to_bytes` writes it: the same fields in the same
    order (a redefined field keeps its place), so the same bytes, with the decisions
    already encoded."""

    decisions: msgspec.Raw = msgspec.Raw(b"\x90")  # type: ignore[assignment]


_DECISION_ENC = msgspec.msgpack.Encoder()


class _EnvelopeHead(msgspec.Struct, kw_only=True):
    format: int
    what: str = "match"
    game: str = ""
    game_version: str = ""


def _looks_like_json(data: bytes) -> bool:
    """Saves are sniffed: JSON starts with ``{`` (after white space); msgpack never does."""
    return data[:64].lstrip()[:1] == b"{"


def _check_format(fmt: int, label: str) -> None:
    """Raise :class:`FormatVersionError` unless this tcgcore reads format ``fmt``."""
    if not 1 <= fmt <= FORMAT_VERSION:
        raise FormatVersionError(
            f"{label} format {fmt} is not supported (this tcgcore reads {FORMAT_VERSION})"
        )


def _read_head(data: bytes, *, is_json: bool, what: str) -> _EnvelopeHead:
    """Decode and check the envelope's head: format version and kind (``match``/``replay``).

    Raises:
        StateDecodeError: not a tcgcore file, or the other kind of file.
        FormatVersionError: a format this tcgcore does not read.
    """
    label = "replay" if what == "replay" else "save"
    try:
        head = (msgspec.json.decode(data, type=_EnvelopeHead) if is_json
                else msgspec.msgpack.decode(data, type=_EnvelopeHead))
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError) as exc:
        fmt = "JSON" if is_json else "msgpack"
        raise StateDecodeError(f"not a tcgcore {label} ({fmt}): {exc}") from None
    _check_format(head.format, label)
    if head.what != what:
        raise StateDecodeError(f"expected a {label}, found a {head.what!r} file")
    return head


class ReplayRecord(msgspec.Struct, kw_only=True):
    """Everything needed to reproduce a match: seed, options, decisions, final digest.

    Attributes:
        format: envelope format version.
        game, game_version, plugins: what produced it.
        seed, players, options: how the match was created.
        decisions: every answered choice in order.
        digest: :meth:`Match.digest` of the state after the last decision.
        result: the result, if the match had ended.
    """

    format: int = FORMAT_VERSION
    what: Literal["replay"] = "replay"
    game: str
    game_version: str
    plugins: dict[str, str] = {}
    seed: int
    players: int
    options: dict[str, Any] = {}
    decisions: list[Decision] = []
    digest: str = ""
    result: Result | None = None

    def to_bytes(self) -> bytes:
        """Encode as msgpack (compact)."""
        return msgspec.msgpack.encode(self)

    def to_json(self) -> bytes:
        """Encode as JSON (readable)."""
        return msgspec.json.encode(self)

    @classmethod
    def from_bytes(cls, data: bytes) -> ReplayRecord:
        """Decode a replay written by :meth:`to_bytes` or :meth:`to_json` (sniffed).

        Raises:
            StateDecodeError: corrupt or truncated bytes.
            FormatVersionError: written by a newer envelope format.
        """
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise StateDecodeError(f"expected bytes, got {type(data).__name__}")
        data = bytes(data)
        is_json = _looks_like_json(data)
        _read_head(data, is_json=is_json, what="replay")
        try:
            return (msgspec.json.decode(data, type=cls) if is_json
                    else msgspec.msgpack.decode(data, type=cls))
        except (msgspec.DecodeError, msgspec.ValidationError, RecursionError) as exc:
            raise StateDecodeError(f"corrupt replay: {exc}") from None


class Match(Generic[S]):
    """One match in progress: the object front ends, agents and tests drive.

    Create one with :func:`new_match` or :meth:`from_bytes`. A match runs until a
    player must decide (:attr:`pending`) or the game is over (:attr:`result`).

    Attributes:
        spec: the game definition.
        state: the game state (a msgspec Struct tree; read it, do not mutate it
            outside handlers).
        seed, players, options: how the match was created.
        meta: free-form, JSON-compatible facts a front end keeps with the match
            (for example which seats are human); saved and loaded with it, never
            read by the engine.

    Event history: a match keeps every event of its session for :meth:`events_since`,
    unless created with ``keep_events=False`` (see :func:`new_match`), as simulations
    and searches that never read events do; :attr:`keeps_events` tells which.
    """

    __slots__ = ("_debug", "_decisions", "_decisions_done", "_decisions_raw", "_engine",
                 "_events", "_events_base", "_log", "meta", "options", "players", "plugins",
                 "registry", "seed", "spec", "state")

    def __init__(
        self,
        spec: GameSpec[S],
        state: S,
        *,
        seed: int,
        players: int,
        options: dict[str, Any],
        decisions: list[Decision],
        plugins: dict[str, str],
        registry: Registry | None,
        logger: Any = None,
        meta: dict[str, Any] | None = None,
        keep_events: bool = True,
    ) -> None:
        if type(keep_events) is not bool:
            raise OptionsError(f"keep_events must be True or False, got {keep_events!r}")
        self.spec = spec
        self.meta: dict[str, Any] = dict(meta or {})
        self.state = state
        self.seed = seed
        self.players = players
        self.options = options
        self.plugins = plugins
        self.registry = registry
        self._decisions = decisions
        #: the msgpack encodings of the first ``_decisions_done`` decisions, appended to
        #: as the match goes on, so a save encodes each decision once (:meth:`to_bytes`)
        self._decisions_raw = bytearray()
        self._decisions_done = 0
        # no history: a sink that drops each event as it arrives (a deque of length 0
        # discards on append, in C); the engine still builds every event for triggers
        self._events: list[Event] | deque[Event] = [] if keep_events else deque(maxlen=0)
        self._events_base = state.event_count
        self._engine = Engine(spec, state, self._events)
        self._log = logger
        self._debug = False

    # ---- decisions
    @property
    def game(self) -> str:
        """The game's registered name."""
        return self.spec.name

    @property
    def pending(self) -> Choice | None:
        """The choice the match waits for, or ``None`` when the match is over.

        This is the match's own record (part of its state, so not copied on every read):
        read it, never change it (reordering its options changes the match's digest). A
        front end that wants to sort or edit options takes them from
        ``match.view(seat).pending``, which is a copy.
        """
        return self.state.pending

    @property
    def result(self) -> Result | None:
        """``None`` until the match ends; then winners, losers, draw and reason."""
        return self.state.result

    @property
    def decisions(self) -> list[Decision]:
        """Every decision answered since the match was created.

        A new list, so appending to it or dropping from it leaves the match alone; the
        :class:`Decision` records in it are the match's own (copying every record on each
        read would make the read cost grow with the game): never change their ``keys``.
        """
        return list(self._decisions)

    def choose(self, player: int, key_or_keys: str | Sequence[str]) -> None:
        """Answer the pending choice and run until the next one (or the end).

        Args:
            player: the seat answering (an ``int``).
            key_or_keys: one option key (``str``), or a list or tuple of keys for
                a multi-selection (``min``..``max`` of them, no repeats).

        Raises:
            IllegalChoice: the match is over, nothing is pending, ``player`` is not
                an ``int`` or another seat must decide (``reason="wrong_player"``), a
                key is not a string, unknown or repeated, or the count is outside
                ``min``..``max``. The state is then unchanged.

        If a game handler itself raises while running the answer (a plugin
        bug), the exception propagates and the match is left part-way through
        that decision; discard it and reload the last save.
        """
        state = self.state
        choice = state.pending
        if state.result is not None:
            raise IllegalChoice("the match is over", reason="game_over")
        if choice is None:
            raise IllegalChoice("no choice is pending", reason="no_pending_choice")
        if type(player) is not int:
            raise IllegalChoice(
                f"a seat is an int (0..{state.num_players - 1}), got {type(player).__name__} "
                f"{player!r}; seat {choice.player} must decide ({choice.kind})",
                reason="wrong_player",
            )
        if player != choice.player:
            raise IllegalChoice(
                f"seat {player!r} answered, but seat {choice.player} must decide ({choice.kind})",
                reason="wrong_player",
            )
        options = choice.options
        if choice.min <= 1 <= choice.max:
            # the common case, one key (alone or in a list): one scan of the options
            one: object = key_or_keys
            if type(one) is list and len(one) == 1:
                one = one[0]
            if type(one) is str:
                for opt in options:
                    if opt.key == one:
                        self._answer(choice, player, [one])
                        return
        if isinstance(key_or_keys, str):
            keys = [key_or_keys]
        elif isinstance(key_or_keys, (list, tuple)):
            keys = list(key_or_keys)
        else:
            raise IllegalChoice(
                f"{choice.kind}: answer with an option key (str) or a list/tuple of keys, "
                f"got {type(key_or_keys).__name__}",
                reason="unknown_key",
            )
        for key in keys:
            if type(key) is not str:
                raise IllegalChoice(f"{choice.kind}: option keys are strings, got {key!r}",
                                    reason="unknown_key")
        n = len(keys)
        if n > 1 and len(set(keys)) != n:  # before the count: [k, k] on a one-key choice
            raise IllegalChoice(f"{choice.kind}: an option key is repeated", reason="duplicate_key")
        if n < choice.min:
            raise IllegalChoice(
                f"{choice.kind}: choose at least {choice.min} option(s), got {n}", reason="too_few"
            )
        if n > choice.max:
            raise IllegalChoice(
                f"{choice.kind}: choose at most {choice.max} option(s), got {n}", reason="too_many"
            )
        for key in keys:
            for opt in options:
                if opt.key == key:
                    break
            else:
                raise IllegalChoice(
                    f"{choice.kind}: {key!r} is not an option "
                    f"(options: {', '.join(o.key for o in options[:20])}"
                    f"{' …' if len(options) > 20 else ''})",
                    reason="unknown_key",
                )
        self._answer(choice, player, keys)

    def _answer(self, choice: Choice, player: int, keys: list[str]) -> None:
        """Record a validated answer and run the engine until the next choice."""
        self._decisions.append(Decision(player, keys, choice.kind, len(choice.options)))
        state = self.state
        _forget_shown(state, choice)
        state.pending = None
        state.answer = keys
        if self._log is not None or debug_enabled():
            self._logger().debug("decision", game=self.spec.name, seat=player,
                                 kind=choice.kind, keys=keys, seq=choice.seq)
        self._engine.run()

    def _logger(self) -> Any:
        if self._log is None:
            self._log = get_logger()
        return self._log

    # ---- observation
    def view(self, player: int | None) -> View:
        """What ``player`` may know now; ``None`` gives the spectator view (public only).

        Raises:
            SeatError: if ``player`` is not a seat of this match.
        """
        if player is not None:
            self._check_seat(player)
        return build_view(self.spec, self.state, player)

    def _check_seat(self, player: object) -> None:
        n = self.state.num_players
        if type(player) is not int or not 0 <= player < n:
            raise SeatError(f"no seat {player!r} in a {n}-seat match (seats are 0..{n - 1})")

    def events_since(self, n: int = 0, *, player: int | Literal["all"] | None = None) -> list[Event]:
        """Events with ``seq >= n`` that this session recorded, as ``player`` may know them.

        Secrets only on request: by default (``player=None``) the events are the
        spectator's; a seat gets its own; only ``player="all"`` gives the engine's record.

        Args:
            n: first event number wanted.
            player: ``None`` (default) for a spectator; a seat to blank the card
                identities that seat may not know and to name cards by that seat's
                aliases (as its view does, see :func:`tcgcore.card_alias`); ``"all"``
                for the omniscient record with instance ids (tools, replays, tests).

        Events from before the match was loaded (:meth:`from_bytes`) are not
        kept: the list starts at the first event after loading. Events are
        immutable records.

        Raises:
            OptionsError: ``n`` is not an int.
            SeatError: ``player`` is not a seat, ``None`` or ``"all"``.
            EngineError: the match keeps no event history (``keep_events=False``).
        """
        if type(n) is not int:
            raise OptionsError(f"events_since needs an int event number, got {type(n).__name__}")
        if isinstance(player, str):
            if player != "all":
                raise SeatError(f"player must be a seat, None or 'all', got {player!r}")
        elif player is not None:
            self._check_seat(player)
        history = self._events
        if not isinstance(history, list):
            raise EngineError("this match keeps no event history (it was created or loaded "
                              "with keep_events=False, as tcgcore.simulate creates matches "
                              "unless given keep_events=True); to read events, create or load "
                              "the match with keep_events=True, or pass keep_events=True to "
                              "simulate. Its state and decisions are complete")
        events = history[max(0, n - self._events_base):]
        if player == "all":
            return list(events)
        state = self.state
        return [seat_event(state, ev, player) for ev in events]

    def seat_choice(self, player: int) -> Choice | None:
        """The pending choice as seat ``player`` sees it, or ``None`` if it is not theirs.

        The same as ``match.view(player).pending``: cards are named by the seat's aliases
        (:func:`tcgcore.card_alias`), in ``Option.card`` and inside the keys. Answer it
        with :meth:`answer`. (:attr:`pending` and :meth:`choose` are the engine's own
        key space with instance ids, for agents, replays and tests.)

        Raises:
            SeatError: ``player`` is not a seat.
        """
        self._check_seat(player)
        seat = seat_choice(self.state, player, self.spec.card_data_keys)
        return seat[0] if seat is not None else None

    def answer(self, player: int, key_or_keys: str | Sequence[str]) -> None:
        """Answer the pending choice as a seat, with keys of :meth:`seat_choice` (the
        keys ``view(player).pending`` shows); the front ends' way to play.

        Translates the keys with :meth:`engine_keys` and calls :meth:`choose`, so the
        decision recorded (and replayed) is the same as with the engine's keys.

        Raises:
            SeatError: ``player`` is not a seat.
            IllegalChoice: as :meth:`choose` (a key that is not one of the seat's keys is
                ``unknown_key``); nothing changes.
        """
        keys = self.engine_keys(player, key_or_keys)
        try:
            self.choose(player, keys)
        except IllegalChoice as exc:
            shown = self.seat_choice(player) if exc.reason == "unknown_key" else None
            if shown is None:
                raise
            raise IllegalChoice(
                f"{shown.kind}: not an option key of seat {player} (options: "
                f"{', '.join(o.key for o in shown.options[:20])}"
                f"{' …' if len(shown.options) > 20 else ''})",
                reason="unknown_key") from None

    def engine_keys(self, player: int, key_or_keys: str | Sequence[str]) -> Any:
        """The engine's keys (:attr:`pending`) for keys of seat ``player``'s
        :meth:`seat_choice`: what an agent or front end that decides from a seat's view
        returns to :meth:`choose` (or to :func:`tcgcore.play_out`). A key that is not one
        of the seat's is returned so that :meth:`choose` refuses it; a value that is not
        a key or a list of keys is returned as it is. Reads only; changes nothing.

        Raises:
            SeatError: ``player`` is not a seat.
        """
        self._check_seat(player)
        seat = seat_choice(self.state, player, self.spec.card_data_keys)
        to_engine = seat[1] if seat is not None else {}
        if isinstance(key_or_keys, str):
            return [to_engine.get(key_or_keys, "\x00" + key_or_keys)]
        if isinstance(key_or_keys, (list, tuple)):
            return [to_engine.get(k, "\x00" + k) if type(k) is str else k
                    for k in key_or_keys]
        return key_or_keys

    @property
    def keeps_events(self) -> bool:
        """Whether :meth:`events_since` has this session's events (``keep_events``)."""
        return isinstance(self._events, list)

    @property
    def engine(self) -> Engine[S]:
        """The engine wrapping :attr:`state` (for scenario builders and tests)."""
        return self._engine

    # ---- copies, digests, saves
    def digest(self) -> str:
        """Hex BLAKE2b-128 of the state's deterministic msgpack encoding."""
        raw = self.spec.codecs.mp_enc_det.encode(self.state)
        return hashlib.blake2b(raw, digest_size=16).hexdigest()

    def state_bytes(self) -> bytes:
        """The state alone as msgpack (what :meth:`clone` round-trips)."""
        return self.spec.codecs.mp_enc.encode(self.state)

    def clone(self) -> Match[S]:
        """An independent copy of the match; decisions are copied too.

        The state is copied by :func:`copy_state` (a msgpack round trip, with the
        zones copied directly and the immutable card instances shared, see
        :class:`tcgcore.CardInstance`); the copy encodes to the same bytes, and neither
        match can change the other. The copy starts with an empty event history, and
        keeps one only if this match does (:attr:`keeps_events`).
        """
        state = copy_state(self.spec, self.state)
        return Match(self.spec, state, seed=self.seed, players=self.players,
                     options=dict(self.options), decisions=list(self._decisions),
                     plugins=dict(self.plugins), registry=self.registry, logger=self._log,
                     meta=self.meta, keep_events=self.keeps_events)

    def _envelope(self, raw_state: bytes) -> _Envelope:
        return _Envelope(
            format=FORMAT_VERSION, game=self.spec.name, game_version=self.spec.version,
            plugins=self.plugins, seed=self.seed, players=self.players, options=self.options,
            decisions=self._decisions, meta=self.meta, state=msgspec.Raw(raw_state),
        )

    def to_bytes(self) -> bytes:
        """Save as msgpack: a versioned envelope (format, game, versions, seed,
        options, decisions) around the state. Load with :meth:`from_bytes`."""
        raw = self.spec.codecs.mp_enc.encode(self.state)
        return msgspec.msgpack.encode(_EnvelopeOut(
            format=FORMAT_VERSION, game=self.spec.name, game_version=self.spec.version,
            plugins=self.plugins, seed=self.seed, players=self.players, options=self.options,
            decisions=self._decisions_msgpack(), meta=self.meta, state=msgspec.Raw(raw)))

    def _decisions_msgpack(self) -> msgspec.Raw:
        """The decisions as a msgpack array, each decision encoded once per match (the
        record only grows: :meth:`_answer` appends to it)."""
        decisions = self._decisions
        n = len(decisions)
        done = self._decisions_raw
        if self._decisions_done > n:  # never through the public API: start afresh
            done.clear()
            self._decisions_done = 0
        for d in decisions[self._decisions_done:]:
            done += _DECISION_ENC.encode(d)
        self._decisions_done = n
        head = (bytes((0x90 | n,)) if n < 16 else b"\xdc" + n.to_bytes(2, "big") if n < 1 << 16
                else b"\xdd" + n.to_bytes(4, "big"))
        return msgspec.Raw(head + done)

    def to_json(self) -> bytes:
        """Save as JSON (same envelope as :meth:`to_bytes`)."""
        raw = self.spec.codecs.json_enc.encode(self.state)
        return msgspec.json.encode(self._envelope(raw))

    @classmethod
    def from_bytes(cls, data: bytes, *, registry: Registry | None = None,
                   game: str | None = None, keep_events: bool = True) -> Match[Any]:
        """Load a match saved by :meth:`to_bytes` (or :meth:`to_json`; the format is sniffed).

        Args:
            data: the saved bytes.
            registry: where to find the game (default: installed plugins).
            game: if given, the game the caller expects.
            keep_events: keep the events of this session (see :func:`new_match`).

        Raises:
            StateDecodeError: corrupt or truncated bytes, or a state that does
                not match the game's schema.
            FormatVersionError: a newer envelope format.
            GameMismatchError: another game than ``game``, or an incompatible
                game version.
            UnknownGameError: the saved game is not installed.
            OptionsError: ``keep_events`` is not a bool, or ``registry`` not a
                :class:`Registry`.
        """
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise StateDecodeError(f"expected bytes, got {type(data).__name__}")
        data = bytes(data)
        return cls._load(data, is_json=_looks_like_json(data), registry=registry, game=game,
                         keep_events=keep_events)

    @classmethod
    def from_json(cls, data: bytes | str, *, registry: Registry | None = None,
                  game: str | None = None, keep_events: bool = True) -> Match[Any]:
        """Load a match saved by :meth:`to_json`. Arguments and errors as :meth:`from_bytes`."""
        if isinstance(data, str):
            try:
                data = data.encode()
            except UnicodeEncodeError as exc:  # a lone surrogate: no JSON text holds one
                raise StateDecodeError(f"not a tcgcore save (JSON): {exc}") from None
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise StateDecodeError(f"expected bytes or str, got {type(data).__name__}")
        return cls._load(bytes(data), is_json=True, registry=registry, game=game,
                         keep_events=keep_events)

    @classmethod
    def _load(cls, data: bytes, *, is_json: bool, registry: Registry | None,
              game: str | None, keep_events: bool) -> Match[Any]:
        if type(keep_events) is not bool:
            raise OptionsError(f"keep_events must be True or False, got {keep_events!r}")
        if registry is not None and not isinstance(registry, Registry):
            raise OptionsError(f"registry must be a tcgcore.Registry, got {type(registry).__name__}")
        reg = registry if registry is not None else default_registry()
        fmt = "JSON" if is_json else "msgpack"
        head = _read_head(data, is_json=is_json, what="match")
        if game is not None and head.game != game:
            raise GameMismatchError(f"expected a {game!r} save, found {head.game!r}")
        spec = reg.game(head.game)
        if not spec.is_compatible(head.game_version):
            raise GameMismatchError(
                f"save is from {head.game} {head.game_version}; the installed plugin is "
                f"{spec.version} and cannot load it"
            )
        try:
            env = (msgspec.json.decode(data, type=_Envelope) if is_json
                   else msgspec.msgpack.decode(data, type=_Envelope))
            codecs = spec.codecs
            state = (codecs.json_dec.decode(env.state) if is_json
                     else codecs.mp_dec.decode(env.state))
            if is_json:
                # JSON has no integer range; msgpack, which clones, saves and digests use,
                # holds -2**63 .. 2**64 - 1: refuse now what would fail at the next save
                codecs.mp_enc.encode(state)
                msgspec.msgpack.encode((env.options, env.meta, env.decisions))
        except (msgspec.DecodeError, msgspec.ValidationError, RecursionError) as exc:
            raise StateDecodeError(f"corrupt {head.game} save ({fmt}): {exc}") from None
        except OverflowError as exc:
            raise StateDecodeError(f"{head.game} save ({fmt}): an integer is out of range "
                                   f"({exc})") from None
        check_state(spec, state)
        if env.players != state.num_players or env.seed != state.seed:
            raise StateDecodeError(f"{spec.name} save: envelope and state disagree on seats or seed")
        return Match(spec, state, seed=env.seed, players=env.players, options=env.options,
                     decisions=env.decisions, plugins=env.plugins, registry=reg, meta=env.meta,
                     keep_events=keep_events)

    # ---- replays
    def replay(self) -> ReplayRecord:
        """The replay record of this match so far (seed, options, decisions, digest)."""
        return ReplayRecord(
            game=self.spec.name, game_version=self.spec.version, plugins=self.plugins,
            seed=self.seed, players=self.players, options=self.options,
            decisions=list(self._decisions), digest=self.digest(), result=self.state.result,
        )

    def __repr__(self) -> str:
        status = ("over" if self.state.result is not None
                  else f"waiting for seat {self.state.pending.player}" if self.state.pending
                  else "running")
        return f"<Match {self.spec.name} seed={self.seed} {status}>"


def _forget_shown(state: GameState[Any], choice: Choice) -> None:
    """A card an option showed its chooser where the chooser cannot see it (a card of
    its own deck in a search) leaves the chooser's sight once the choice is answered:
    its alias for the chooser changes (``tcgcore._identity``)."""
    cards = state.cards
    n = len(cards)
    zones = state.zones
    seat = choice.player
    for opt in choice.options:
        cid = opt.card
        if cid is None or not 0 <= cid < n:
            continue
        card = cards[cid]
        zone = zones.get(card.zone)
        if zone is None:
            continue
        # can_see inlined (this runs over every option of every answer): a face-up card
        # in a public zone, or in the chooser's own zone, stays in sight
        vis = zone.visibility
        if card.face_down:
            seen = vis != "hidden" and seat == card.controller
        else:
            seen = vis == "public" or (vis == "owner" and seat == zone.owner)
        if not seen:
            lose_sight(state, cid, 1 << seat)


def copy_state(spec: GameSpec[S], state: S) -> S:
    """An independent copy of ``state`` that encodes to the same bytes.

    Everything except the card instances, the zones and the sight epochs goes through a
    msgpack round trip with the game's codecs (so any field a game adds is copied). Card
    instances are immutable (a write replaces the instance in ``state.cards``, see
    :class:`CardInstance`), so the copy shares them: only the list is copied, as is
    ``sight``, a flat list of ints. Zones,
    a fixed shape of immutable scalars plus one list each, are copied field by
    field, which is about twice as fast as decoding them.
    """
    codecs = spec.codecs
    replace = msgspec.structs.replace
    shell = replace(state, cards=[], zones={}, sight=[])
    copy: S = codecs.mp_dec.decode(codecs.mp_enc.encode(shell))
    copy.cards = state.cards.copy()
    copy.sight = state.sight.copy()  # a flat list of ints: half the round trip's work
    copy.zones = {key: replace(zone, cards=zone.cards.copy())
                  for key, zone in state.zones.items()}
    return copy


def new_match(
    game: str,
    *,
    seed: int,
    players: int | None = None,
    registry: Registry | None = None,
    logger: Any = None,
    keep_events: bool = True,
    **options: Any,
) -> Match[Any]:
    """Create a match and run it to its first decision.

    Args:
        game: a registered game name (see :func:`tcgcore.games`).
        seed: the match seed, ``0 <= seed < 2**64``; same seed and same
            decisions give identical states.
        players: number of seats (default: the game's default).
        registry: where to find the game (default: installed plugins).
        logger: a structlog-style logger; when given, every decision is logged
            to it at debug level.
        keep_events: keep the session's events for :meth:`Match.events_since`
            (default). ``False`` keeps none: the engine still builds each event and
            hands it to the game's trigger collector, then nothing holds it. The
            state, decisions, results and saves are the same byte for byte (as long
            as the game's collector keeps no reference to an event after the call
            and keys nothing on ``id(event)``, which the plugin guide asks of every
            game), but ``events_since`` raises ``EngineError``, and so do the tools
            that read events (the terminal front end,
            :func:`tcgcore.testing.assert_view_hides`). For simulations and
            searches whose agents never read events (:func:`tcgcore.simulate` plays
            this way by default), it saves the memory and time of keeping and
            freeing a growing list of events: random playouts ran 1.02-1.09x
            faster in interleaved runs (Sparks least, Arkham with four
            investigators most). Its clones inherit it.
        **options: game options (JSON-compatible values), validated by the game;
            ``seed``, ``players``, ``registry``, ``logger`` and ``keep_events`` are
            this function's own names, so no game option may use them.

    Raises:
        UnknownGameError: no such game.
        OptionsError: a bad seed, seat count, ``keep_events`` (not a bool) or option
            (the game names the option).
    """
    return _create(game, seed=seed, players=players, registry=registry, logger=logger,
                   options=options, keep_events=keep_events)


def _create(game: str, *, seed: int, players: int | None, registry: Registry | None,
            logger: Any, options: dict[str, Any], keep_events: bool = True) -> Match[Any]:
    if not isinstance(game, str):
        raise OptionsError(f"game must be a name (str), got {type(game).__name__}")
    if type(keep_events) is not bool:  # before any work (Match checks it too)
        raise OptionsError(f"keep_events must be True or False, got {keep_events!r}")
    if registry is not None and not isinstance(registry, Registry):
        raise OptionsError(f"registry must be a tcgcore.Registry, got {type(registry).__name__}")
    reg = registry if registry is not None else default_registry()
    spec = reg.game(game)
    seats = spec.default_players if players is None else players
    lo, hi = spec.players
    if type(seats) is not int or not lo <= seats <= hi:
        raise OptionsError(f"{game}: players must be {lo}..{hi}, got {seats!r}")
    try:
        msgspec.json.encode(options)
    except (TypeError, msgspec.EncodeError) as exc:
        raise OptionsError(f"{game}: options must be JSON-compatible values: {exc}") from None
    try:
        rng = Rng.from_seed(seed)
    except ValueError as exc:
        raise OptionsError(f"{game}: {exc}") from None
    state = spec.state_type(num_players=seats, seed=seed, rng=rng)
    match: Match[Any] = Match(spec, state, seed=seed, players=seats, options=dict(options),
                              decisions=[], plugins=reg.plugin_versions(game), registry=reg,
                              logger=logger, keep_events=keep_events)
    spec.setup(match.engine, dict(options))  # the game's own option errors come first
    try:  # saves, clones and digests are msgpack, whose integers are -2**63 .. 2**64-1
        msgspec.msgpack.encode(options)
    except OverflowError as exc:
        raise OptionsError(f"{game}: an option's integer is out of range (-2**63..2**64-1): "
                           f"{exc}") from None
    match.engine.run()
    return match


def _checked_record(record: ReplayRecord) -> ReplayRecord:
    """A record built in Python, checked against the types :class:`ReplayRecord` declares
    as its bytes would be (``format`` "1", ``decisions`` None, options that hold an object
    or themselves), so that a bad field is reported here and not from deep inside the
    replay. A record read from bytes needs no such check.

    Raises:
        StateDecodeError: naming the first bad field.
        FormatVersionError: a format this tcgcore does not read.
    """
    try:
        # bytes stay bytes (to_builtins would make them base64 text), as in a msgpack save
        plain = msgspec.to_builtins(record, builtin_types=(bytes, bytearray, memoryview))
        checked = msgspec.convert(plain, ReplayRecord)
    except (msgspec.ValidationError, TypeError, ValueError, RecursionError) as exc:
        raise StateDecodeError(f"the replay record is not valid: {exc}") from None
    _check_format(checked.format, "replay")
    return checked


def replay(record: ReplayRecord | bytes, *, registry: Registry | None = None,
           verify: bool = True, keep_events: bool = True) -> Match[Any]:
    """Rebuild a match from a replay record, checking it as it goes.

    Args:
        record: a :class:`ReplayRecord` or its bytes (msgpack or JSON).
        registry: where to find the game.
        verify: compare the final digest with the record's.
        keep_events: keep the replayed events for :meth:`Match.events_since`
            (see :func:`new_match`; the replay itself reads none).

    Returns:
        The match after the last recorded decision.

    Raises:
        ReplayDivergence: with ``index`` set to the first decision that is not
            legal, or was made at a different kind of choice, or ``index=None``
            when the final digest, or the recorded result, differs (``verify``).
        GameMismatchError: the record is from an incompatible game version.
        FormatVersionError: a record of a format this tcgcore does not read.
        StateDecodeError: corrupt bytes, or a record whose fields do not have the
            types :class:`ReplayRecord` declares (checked as its bytes would be).
        OptionsError: ``verify`` or ``keep_events`` is not a bool, ``registry`` not a
            :class:`Registry`.
    """
    if type(verify) is not bool:
        raise OptionsError(f"verify must be True or False, got {verify!r}")
    if type(keep_events) is not bool:
        raise OptionsError(f"keep_events must be True or False, got {keep_events!r}")
    if registry is not None and not isinstance(registry, Registry):
        raise OptionsError(f"registry must be a tcgcore.Registry, got {type(registry).__name__}")
    if not isinstance(record, ReplayRecord):
        record = ReplayRecord.from_bytes(record)
    else:
        record = _checked_record(record)
    if verify and not record.digest:
        raise StateDecodeError("the replay record has no final digest to verify")
    reg = registry if registry is not None else default_registry()
    spec = reg.game(record.game)
    if not spec.is_compatible(record.game_version):
        raise GameMismatchError(
            f"replay is from {record.game} {record.game_version}; the installed plugin is "
            f"{spec.version} and cannot replay it"
        )
    try:
        match = _create(record.game, seed=record.seed, players=record.players, registry=reg,
                        logger=None, options=dict(record.options), keep_events=keep_events)
    except TcgcoreError as exc:
        raise ReplayDivergence(f"the recorded match cannot be created: {exc}", index=0) from None
    for i, dec in enumerate(record.decisions):
        pending = match.pending
        if pending is None:
            raise ReplayDivergence(f"decision {i}: the match has no pending choice", index=i)
        if dec.kind and (pending.kind != dec.kind or pending.player != dec.player
                         or (dec.options and len(pending.options) != dec.options)):
            raise ReplayDivergence(
                f"decision {i}: recorded seat {dec.player} {dec.kind!r} with {dec.options} options, "
                f"replay reached seat {pending.player} {pending.kind!r} with "
                f"{len(pending.options)} options",
                index=i,
            )
        try:
            match.choose(dec.player, dec.keys)
        except IllegalChoice as exc:
            raise ReplayDivergence(f"decision {i}: {exc}", index=i) from None
        except EngineError as exc:  # pragma: no cover - a plugin bug surfaced by the replay
            raise ReplayDivergence(f"decision {i}: engine error {exc}", index=i) from exc
    if verify and match.digest() != record.digest:
        raise ReplayDivergence(
            f"all {len(record.decisions)} decisions replayed but the final state differs "
            f"(digest {match.digest()} != {record.digest})",
            index=None,
        )
    if verify and record.result != match.result:
        raise ReplayDivergence(
            f"all {len(record.decisions)} decisions replayed to the recorded state, but the "
            f"record's result ({record.result}) is not the match's ({match.result})",
            index=None,
        )
    return match
