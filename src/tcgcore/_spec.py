"""The game definition a plugin registers (:class:`GameSpec`) and its state codecs.

A :class:`GameSpec` is what the ``tcgcore_games`` hook returns: the state type, the setup
function, the step handlers and the optional hooks front ends use. The engine that runs a
spec's handlers is in ``_engine.py``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Final, Generic, TextIO, TypeAlias, TypeVar

import msgspec

from ._engine import _CORE_HANDLERS, Engine, TriggerPolicy, active_player_first
from ._errors import EngineError, OptionsError
from ._keys import Key, parse_key
from ._model import Choice, Event, GameState, SeatCards, Step, Trigger, Zone
from ._rng import Rng

__all__ = ["GameSpec", "Handler", "check_options"]

S = TypeVar("S", bound=GameState[Any])
StepT = TypeVar("StepT", bound=Step)

#: A step handler: ``handler(engine, step)``.
Handler: TypeAlias = Callable[["Engine[Any]", Any], None]

#: The fields :func:`tcgcore.new_match` gives a new state; every other field needs a default.
_CREATED_WITH: Final = frozenset({"num_players", "seed", "rng"})


class GameSpec(Generic[S]):
    """Everything the engine needs to run one game; a plugin returns it from
    the ``tcgcore_games`` hook.

    Args:
        name: registered game name (``"guimi_revival"``), unique across plugins.
        version: the game's rules version, ``"MAJOR.MINOR.PATCH"``; saves with
            another major version are refused unless ``compatible`` says otherwise.
        state_type: the game's :class:`GameState` subclass. Every field the game
            adds needs a default.
        setup: ``setup(engine, options)`` builds zones and cards and pushes the
            first steps. It must validate ``options`` and raise
            :class:`OptionsError` naming the bad option.
        players: ``(min, max)`` seats.
        default_players: seats when the caller does not say.
        description: one line for ``tcgcore games``.
        trigger_policy: who orders simultaneous triggers (see
            :func:`active_player_first`, :func:`highest_priority_first`,
            :func:`decided_by`).
        forced_first: forced (non-optional) triggers resolve before optional ones
            of the same window.
        collect_triggers: ``collect(engine, event) -> triggers`` for each emitted
            event whose kind is in ``trigger_kinds`` (all kinds when ``None``).
        trigger_kinds: event kinds worth offering to ``collect_triggers``.
        resolve_trigger: ``resolve(engine, trigger)`` carries out a trigger.
        view_extra: ``view_extra(state, viewer) -> dict`` adds game panels to a
            view; ``viewer`` is ``None`` for a spectator. It must not leak
            information the viewer may not know.
        describe_event: ``describe(state, event) -> str`` for readable logs.
        agents: named agent factories ``factory(seed) -> Agent`` besides
            ``"random"``.
        compatible: ``compatible(saved_version) -> bool`` for loading saves.
        card_name: ``card_name(code) -> str``, a card's display name.
        card_text: ``card_text(code) -> str``, a card's full text for people
            (name, numbers, abilities), or ``None`` for unknown codes.
        find_card: ``find_card(name) -> code or None``, look a card up by its
            name (case-insensitive) or code, for front ends.
        default_agent: the agent ``tcgcore play`` and ``simulate`` use when none
            is named (``"random"`` unless the game has a better one).
        check_deck: ``check_deck(text, source) -> problems``: validate a deck list
            given as text (``source`` names the file, for messages); an empty
            list means the deck is legal. A line starting ``"notice: "`` informs
            without making the deck illegal (a field the game does not apply, say).
            Used by ``tcgcore deck check``.
        check_deck_with: ``check_deck_with(text, source, options) -> problems``: the same
            against game options (a ``pool`` of the designer's cards), for ``tcgcore deck
            check --pool FILE``; ``None``: the game takes no such options there.
        campaign_runner: ``run(argv, out, inp) -> exit code``: the game's own
            campaign front end, independent of a single match. ``tcgcore campaign
            GAME ARGS…`` passes ``ARGS`` (after the game name), the output stream and
            the input stream people type on. ``None``: the game has no campaigns.
        card_info: ``card_info(code, lang) -> CardInfo or None``, the presentation hook
            of the card catalogue front ends show (name, type, cost, numbers, icons and
            text in ``lang``: ``"en"``, ``"zh_Hans"`` or ``"zh_Hant"``); ``None``: built from
            ``card_name`` and ``card_text`` (:func:`tcgcore.card_info`).
        table_layout: ``table_layout(view) -> [block, ...] or None``, the presentation hook
            of the game's table: its facts as generic blocks (:class:`tcgcore.TextBlock`,
            :class:`tcgcore.TableBlock`, :class:`tcgcore.CardsBlock`,
            :class:`tcgcore.MapBlock`) that front ends draw (``docs/web.md``), built from a
            :class:`tcgcore.View` only, so it cannot show what that viewer may not know;
            ``None`` (or an answer ``None``): front ends draw their generic table.
        title, zone_words, slot_names, card_tags, optional_window, point_choices,
            view_fact: the presentation attributes of those names (below), given at once.
        render_panel: ``render_panel(view) -> lines``, the game's own part of a
            text board, drawn from a :class:`tcgcore.View` only (so it cannot
            show hidden information).
        validate_state: ``validate(state) -> problem or None``, run on every
            loaded save after the core's own checks (``tcgcore._validate``): the
            game's facts (card codes, per-seat lists, its steps' seats, cards, names
            and ranges, the pending choice against the step that asked it; the
            ``rule_*`` helpers and :func:`tcgcore.check_fields` check fields); a
            problem (naming the field path) becomes a :class:`StateDecodeError`.
        observation_layout: ``layout(seats) -> ObservationLayout`` for a match of that
            many seats: the game's fixed-length encoding of a seat's view for learning
            agents (``tcgcore.rl``). ``None``: the generic encoding from zones, counts and
            card codes.
        action_layout: ``layout(seats) -> ActionLayout``: the game's fixed action space
            (option -> action id) for learning agents. ``None``: the generic one, an
            option's position in the pending choice.
        card_data_keys: names of ``Option.data`` and ``Event.data`` fields whose values
            are card instance ids (an int, or several as comma-separated text): a seat's
            choice and a seat's events show them as its aliases
            (:func:`tcgcore.card_alias`), like ``Option.card`` and ``Event.card``; in an
            event, a card the seat could not identify when the event happened is left
            out (``None``, or dropped from the list).
        card_zone_prefixes: prefixes of zone ids that end in a card instance id (Arkham's
            ``at.<location>``): views, seat events and seat choices show such a zone as
            the prefix and the viewer's alias of that card.
        trigger_abilities: the ability names ``resolve_trigger`` knows; a loaded
            trigger with any other name is refused (``None``: not checked).
        resume_steps: the game's step types that read an answer (the ``resume`` of its
            ``ask`` calls); a loaded stack may hold one only on top, under the pending
            choice, and a pending choice must wait on one (``None``: not checked).
        sample_pool: ``sample_pool(state, seat, zone, owner) -> pool or None``: the pool
            an unseen card of ``owner`` in ``zone`` is redealt in by
            :func:`tcgcore.determinize` (default ``"owner.<owner>"``), or ``None`` to keep
            it in place. Decided from the zone and owner only, never the card.
        sample_extra: ``sample_extra(state, seat, rng)``: adjust the game's own fields
            of a determinisation (for ``seat``, drawing only from ``rng``); it must read
            only what ``seat`` may know.
        evaluate: ``evaluate(state, seat) -> float``: the expected score of ``seat``
            (0 a loss, 1 a win) in an unfinished state, which lets the ``ismcts``
            agent cut its rollouts short. ``None``: a rollout cut short (after its
            ``depth``) scores 0.5 for every seat.
        card_usage: ``card_usage(state, events) -> [SeatCards, ...]``, one per seat:
            the codes in each seat's deck, drawn, in its opening hand and played, read
            from the final state and the full event log (``events_since(0,
            player="all")``). The balance lab's card-level figures
            (:func:`tcgcore.balance`) need it; ``None``: no card figures.

    Raises:
        EngineError: ``state_type`` is not a subclass of :class:`GameState`, or a
            field it adds has no default (the engine creates the state with only the
            seats, the seed and the generator).
    """

    def __init__(
        self,
        *,
        name: str,
        version: str,
        state_type: type[S],
        setup: Callable[[Engine[S], dict[str, Any]], None],
        players: tuple[int, int] = (2, 2),
        default_players: int | None = None,
        description: str = "",
        trigger_policy: TriggerPolicy = active_player_first,
        forced_first: bool = True,
        collect_triggers: Callable[[Engine[S], Event], Iterable[Trigger]] | None = None,
        trigger_kinds: Iterable[str] | None = None,
        resolve_trigger: Callable[[Engine[S], Trigger], None] | None = None,
        view_extra: Callable[[S, int | None], dict[str, Any]] | None = None,
        describe_event: Callable[[S, Event], str] | None = None,
        agents: Mapping[str, Callable[[int], Agent]] | None = None,
        compatible: Callable[[str], bool] | None = None,
        validate_state: Callable[[S], str | None] | None = None,
        card_name: Callable[[str], str] | None = None,
        card_text: Callable[[str], str | None] | None = None,
        find_card: Callable[[str], str | None] | None = None,
        render_panel: Callable[[View], list[str]] | None = None,
        card_info: Callable[[str, str], CardInfo | None] | None = None,
        table_layout: Callable[[View], list[Block] | None] | None = None,
        title: str | None = None,
        zone_words: Mapping[str, str] | None = None,
        slot_names: Mapping[str, Sequence[str]] | None = None,
        card_tags: Callable[[View, CardView], list[str] | None] | None = None,
        optional_window: Callable[[S, Choice], tuple[str, bool] | None] | None = None,
        point_choices: Iterable[str] = (),
        view_fact: Callable[[S, int | None, str], Any] | None = None,
        default_agent: str = "random",
        check_deck: Callable[[str, str], list[str]] | None = None,
        check_deck_with: Callable[[str, str, dict[str, Any]], list[str]] | None = None,
        campaign_runner: Callable[[list[str], TextIO, TextIO], int] | None = None,
        observation_layout: Callable[[int], ObservationLayout] | None = None,
        action_layout: Callable[[int], ActionLayout] | None = None,
        card_data_keys: Iterable[str] = (),
        card_zone_prefixes: Iterable[str] = (),
        trigger_abilities: Iterable[str] | None = None,
        resume_steps: Iterable[type[Step]] | None = None,
        sample_pool: Callable[[S, int, Zone, int], str | None] | None = None,
        sample_extra: Callable[[S, int, Rng], None] | None = None,
        evaluate: Callable[[S, int], float] | None = None,
        card_usage: Callable[[S, Sequence[Event]], Sequence[SeatCards]] | None = None,
    ) -> None:
        self.name = name
        self.version = version
        given: object = state_type  # the annotation promises a GameState type; check it
        if not (isinstance(given, type) and issubclass(given, GameState)):
            raise EngineError(f"{name}: state_type must be a subclass of tcgcore.GameState, "
                              f"got {state_type!r}")
        missing = [f.name for f in msgspec.structs.fields(state_type)
                   if f.required and f.name not in _CREATED_WITH]
        if missing:
            raise EngineError(
                f"{name}: every field a game adds to its state needs a default; "
                f"{state_type.__name__} has none for {', '.join(missing)} (for example "
                f"'{missing[0]}: int = 0' or '{missing[0]}: list[int] = []')")
        self.state_type = state_type
        self.setup = setup
        self.players = players
        self.default_players = default_players if default_players is not None else players[0]
        self.description = description
        self.trigger_policy = trigger_policy
        self.forced_first = forced_first
        self.collect_triggers = collect_triggers
        self.trigger_kinds = frozenset(trigger_kinds) if trigger_kinds is not None else None
        self.resolve_trigger = resolve_trigger
        self.view_extra = view_extra
        self.describe_event = describe_event
        self.agents: dict[str, Callable[[int], Agent]] = dict(agents or {})
        self.compatible = compatible
        self.validate_state = validate_state
        self.card_name = card_name
        self.card_text = card_text
        self.find_card = find_card
        self.render_panel = render_panel
        self.card_info = card_info
        self.table_layout = table_layout
        self.default_agent = default_agent
        self.check_deck = check_deck
        self.check_deck_with = check_deck_with
        self.campaign_runner = campaign_runner
        self.observation_layout = observation_layout
        self.action_layout = action_layout
        self.card_data_keys = frozenset(card_data_keys)
        self.card_zone_prefixes = tuple(card_zone_prefixes)
        self.trigger_abilities = (frozenset(trigger_abilities) if trigger_abilities is not None
                                  else None)
        self.resume_steps: frozenset[type[Step]] | None = (
            frozenset(resume_steps) if resume_steps is not None else None)
        self.sample_pool = sample_pool
        self.sample_extra = sample_extra
        self.evaluate = evaluate
        #: presentation for people (the terminal and other front ends): the game's name in
        #: words, and words for its zone kinds (``{"units": "unit zone"}``; a kind not listed
        #: reads as itself with spaces for underscores)
        self.title: str = title if title is not None else name.replace("_", " ").capitalize()
        self.zone_words: dict[str, str] = dict(zone_words or {})
        #: names of the positions of a slotted zone kind (``{"units": ("F1", "F2", "B1",
        #: "B2")}``), the same the game's option labels use; default 1, 2, ...
        self.slot_names: dict[str, tuple[str, ...]] = {
            kind: tuple(names) for kind, names in (slot_names or {}).items()}
        #: ``card_tags(view, card) -> [words] | None``: what a board shows after a card's
        #: name (current strength, "tapped"); ``None`` keeps the generic tags (exhausted,
        #: counters by name)
        self.card_tags: Callable[[View, CardView], list[str] | None] | None = card_tags
        #: ``optional_window(state, choice) -> (pass_key, playable) | None``: whether the
        #: pending ``choice`` is an optional window its seat may simply pass (the option key
        #: that passes, and whether anything but passing could be done there); front ends
        #: use it for auto-pass, which answers with the pass key and never changes a rule
        self.optional_window: Callable[[S, Choice], tuple[str, bool] | None] | None = (
            optional_window)
        #: choice kinds the game asks once per point (assign 1 damage, then the next): a
        #: front end may take several points in one answer and give them one by one
        self.point_choices: frozenset[str] = frozenset(point_choices)
        #: ``view_fact(state, viewer, name) -> value``: one entry of ``view_extra``'s panel
        #: computed alone (equal to ``view_extra(state, viewer)[name]``; ``KeyError`` for a
        #: name the panel lacks), so that :class:`tcgcore.SeatReader` builds only the facts
        #: an agent asks for; it may also answer ``"name[i]"``, entry ``i`` of a list fact
        #: alone (``SeatReader.fact_item``); ``None``: the reader computes the whole panel once
        self.view_fact: Callable[[S, int | None, str], Any] | None = view_fact
        self.card_usage = card_usage
        self.handlers: dict[type[Step], Handler] = {}
        self._codecs: _Codecs[S] | None = None
        for core_step, core_handler in _CORE_HANDLERS.items():
            self.handlers[core_step] = core_handler

    def handles(self, step_type: type[StepT]) -> Callable[
        [Callable[[Engine[S], StepT], None]], Callable[[Engine[S], StepT], None]
    ]:
        """Decorator registering the handler for one step type.

        Raises:
            EngineError: if that step type already has a handler.
        """

        def register(fn: Callable[[Engine[S], StepT], None]) -> Callable[[Engine[S], StepT], None]:
            if step_type in self.handlers and step_type not in _CORE_HANDLERS:
                raise EngineError(f"{self.name}: step {step_type.__name__} already has a handler")
            self.handlers[step_type] = fn
            return fn

        return register

    def resumes(self, step_type: type[StepT]) -> Callable[
        [Callable[[Engine[S], StepT, list[Key]], None]],
        Callable[[Engine[S], StepT, list[Key]], None]
    ]:
        """Decorator registering the handler of a resume step (the ``resume`` of an
        ``Engine.ask``): ``handler(engine, step, answer)``, where ``answer`` holds the chosen
        option keys parsed (:class:`tcgcore.Key`, in the order given), so no handler splits
        a key string. The step type joins :attr:`resume_steps` (a loaded stack may hold it
        only on top, under the pending choice): register every resume step of a game this
        way, or list them all in ``resume_steps``.

        Raises:
            EngineError: if that step type already has a handler.
        """

        def register(fn: Callable[[Engine[S], StepT, list[Key]], None]) -> Callable[
                [Engine[S], StepT, list[Key]], None]:
            def resume(eng: Engine[S], step: StepT) -> None:
                fn(eng, step, [parse_key(key) for key in eng.answer])

            self.handles(step_type)(resume)
            self.resume_steps = (self.resume_steps or frozenset()) | {step_type}
            return fn

        return register

    def is_compatible(self, saved_version: str) -> bool:
        """Whether a save written by game version ``saved_version`` can be loaded."""
        if self.compatible is not None:
            return self.compatible(saved_version)
        return saved_version.split(".")[0] == self.version.split(".")[0]

    @property
    def codecs(self) -> _Codecs[S]:
        """Reusable msgpack/JSON encoders and typed decoders for the state type."""
        if self._codecs is None:
            self._codecs = _Codecs(self.state_type)
        return self._codecs

    def __repr__(self) -> str:
        return f"GameSpec(name={self.name!r}, version={self.version!r})"


class _Codecs(Generic[S]):
    __slots__ = ("json_dec", "json_enc", "mp_dec", "mp_enc", "mp_enc_det")

    def __init__(self, state_type: type[S]) -> None:
        self.mp_enc = msgspec.msgpack.Encoder()
        self.mp_enc_det = msgspec.msgpack.Encoder(order="deterministic")
        self.mp_dec = msgspec.msgpack.Decoder(state_type)
        self.json_enc = msgspec.json.Encoder()
        self.json_dec = msgspec.json.Decoder(state_type)


def check_options(options: Mapping[str, Any], allowed: Iterable[str], game: str) -> None:
    """Raise :class:`OptionsError` for any option name not in ``allowed``."""
    allowed_set = set(allowed)
    unknown = sorted(set(options) - allowed_set)
    if unknown:
        raise OptionsError(
            f"{game}: unknown option(s) {', '.join(unknown)}; "
            f"known: {', '.join(sorted(allowed_set)) or 'none'}"
        )


# Imported last, at run time too, so that typing.get_type_hints resolves GameSpec's
# annotations (both modules import this one).
from ._agents import Agent  # noqa: E402
from ._encodings import ActionLayout, ObservationLayout  # noqa: E402
from ._presentation import Block, CardInfo  # noqa: E402
from ._views import CardView, View  # noqa: E402
