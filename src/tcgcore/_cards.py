"""Card behaviour: effects registered by op name, triggered abilities registered by card code.

Two registries, filled when a game's modules are imported and never changed during play
(they hold functions, never state; the state stays plain data):

* :class:`EffectRegistry`: the effect vocabulary of a game whose cards are data (Guimi's
  ``("draw", 2)``, Arkham's ``Effect(op="gain_resources", amount=3)``): each op name maps
  to one typed function, looked up by name instead of an ``if op == …`` chain.
* :class:`CardBook`: the triggered abilities of cards, each registered under its card code
  next to its resolution, in one place per card. The book answers the engine's two trigger
  hooks (``collect_triggers`` and ``resolve_trigger``) and names the event kinds and
  abilities the spec lists (``trigger_kinds``, ``trigger_abilities``).

A card's behaviour then reads, in one block of one module::

    @book.triggered("ember", "ember_draw", on="clash_lost", optional=True,
                    label="Ember: draw a card")
    def _ember(eng: Eng, trigger: Trigger) -> None:
        draw(eng, trigger.player)

Choices a card asks go through ``Engine.ask`` with a resume step whose handler is
registered with :meth:`tcgcore.GameSpec.resumes` (it receives the parsed answer keys).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Generic, Literal, TypeVar

from ._engine import Engine
from ._errors import EngineError
from ._model import Event, GameState, Trigger
from ._spec import GameSpec

__all__ = ["CardAbility", "CardBook", "EffectRegistry"]

S = TypeVar("S", bound=GameState[Any])
F = TypeVar("F", bound=Callable[..., object])


class EffectRegistry(Generic[F]):
    """A game's effect vocabulary: op name -> the function that carries it out.

    The registry is generic in the function type, so every effect of one registry has the
    signature the game chose (``Callable[[Eng, DoEffect], None]``, say) and a lookup is
    typed::

        EFFECTS: tcgcore.EffectRegistry[EffectFn] = tcgcore.EffectRegistry("guimi_revival")

        @EFFECTS.effect("draw")
        def _draw(eng: Eng, step: DoEffect) -> None: ...

        EFFECTS[step.op](eng, step)

    Args:
        game: the game's name, for error messages.
    """

    __slots__ = ("_fns", "game")

    def __init__(self, game: str) -> None:
        self.game = game
        self._fns: dict[str, F] = {}

    def effect(self, *ops: str) -> Callable[[F], F]:
        """Decorator registering a function for one or more op names (returned unchanged).

        Raises:
            EngineError: no op given, or an op that already has a function.
        """
        if not ops:
            raise EngineError(f"{self.game}: effect() needs at least one op name")

        def register(fn: F) -> F:
            for op in ops:
                if op in self._fns:
                    raise EngineError(f"{self.game}: effect {op!r} is already registered")
                self._fns[op] = fn
            return fn

        return register

    def __getitem__(self, op: str) -> F:
        """The function of ``op``.

        Raises:
            EngineError: an op nobody registered, naming the known ones.
        """
        fn = self._fns.get(op)
        if fn is None:
            raise EngineError(f"{self.game}: unknown effect {op!r}; known: "
                              f"{', '.join(sorted(self._fns)) or 'none'}")
        return fn

    def get(self, op: str) -> F | None:
        """The function of ``op``, or ``None`` (for optional vocabularies)."""
        return self._fns.get(op)

    def __contains__(self, op: object) -> bool:
        return op in self._fns

    @property
    def ops(self) -> frozenset[str]:
        """Every registered op name (for ``validate_state`` and data checks)."""
        return frozenset(self._fns)

    def __repr__(self) -> str:
        return f"EffectRegistry({self.game!r}, {len(self._fns)} ops)"


@dataclass(frozen=True, slots=True)
class CardAbility(Generic[S]):
    """One triggered ability of one card, as registered with :meth:`CardBook.triggered`.

    Attributes:
        code: the card code that has the ability.
        name: the ability's name (``Trigger.ability``), unique in the book, stable (saves).
        on: the event kind it answers.
        label: what the trigger choice shows (words, never ids).
        timing: ``"when"`` (collected from an event emitted before the outcome) or
            ``"after"``.
        optional: the controller may decline it.
        priority: ordering key for policies that sort (higher first).
        condition: ``condition(engine, event, card) -> bool``; ``None``: always.
        seat: ``seat(engine, event, card) -> seat`` that controls the trigger; ``None``:
            the card's controller.
        resolve: ``resolve(engine, trigger)`` carries the ability out.
    """

    code: str
    name: str
    on: str
    label: str
    timing: Literal["when", "after"]
    optional: bool
    priority: int
    condition: Callable[[Engine[S], Event, int], bool] | None
    seat: Callable[[Engine[S], Event, int], int] | None
    resolve: Callable[[Engine[S], Trigger], None]


def _event_card(eng: Engine[Any], event: Event) -> Iterable[int]:
    """The default scope: the event's own card, if it names one."""
    return () if event.card is None else (event.card,)


class CardBook(Generic[S]):
    """The triggered abilities of a game's cards, registered by card code.

    An event of kind ``k`` triggers the abilities ``on=k`` of the cards in the kind's
    scope (:meth:`scope`; by default the card the event names), in scope order and, for
    one card, in registration order; each becomes a :class:`tcgcore.Trigger` owned by the
    card's controller (or the ability's ``seat``). The engine's windows order, offer and
    resolve them as for any trigger (``docs/architecture.md``).

    Args:
        game: the game's name, for error messages.
    """

    __slots__ = ("_abilities", "_by_kind", "_scopes", "game")

    def __init__(self, game: str) -> None:
        self.game = game
        self._abilities: dict[str, CardAbility[S]] = {}
        #: event kind -> card code -> that card's abilities for the kind, in order
        self._by_kind: dict[str, dict[str, list[CardAbility[S]]]] = {}
        self._scopes: dict[str, Callable[[Engine[S], Event], Iterable[int]]] = {}

    def scope(self, *kinds: str) -> Callable[[Callable[[Engine[S], Event], Iterable[int]]],
                                             Callable[[Engine[S], Event], Iterable[int]]]:
        """Decorator registering which cards may answer events of these kinds:
        ``scope(engine, event) -> card ids`` (in the order their triggers are made).

        Raises:
            EngineError: a kind that already has a scope.
        """

        def register(fn: Callable[[Engine[S], Event], Iterable[int]]) -> Callable[
                [Engine[S], Event], Iterable[int]]:
            for kind in kinds:
                if kind in self._scopes:
                    raise EngineError(f"{self.game}: event kind {kind!r} already has a scope")
                self._scopes[kind] = fn
            return fn

        return register

    def triggered(
        self,
        code: str,
        name: str,
        *,
        on: str,
        label: str,
        timing: Literal["when", "after"] = "after",
        optional: bool = False,
        priority: int = 0,
        condition: Callable[[Engine[S], Event, int], bool] | None = None,
        seat: Callable[[Engine[S], Event, int], int] | None = None,
    ) -> Callable[[Callable[[Engine[S], Trigger], None]], Callable[[Engine[S], Trigger], None]]:
        """Decorator registering a triggered ability of card ``code``; the decorated
        function ``resolve(engine, trigger)`` carries it out (returned unchanged).

        Args:
            code: the card code.
            name: the ability's stable name (written into saves as ``Trigger.ability``).
            on: the event kind that triggers it.
            label, timing, optional, priority: copied into each :class:`tcgcore.Trigger`.
            condition: ``condition(engine, event, card) -> bool``, checked when the event
                is collected (``None``: always).
            seat: ``seat(engine, event, card) -> seat`` controlling the trigger
                (``None``: the card's controller).

        Raises:
            EngineError: a name already registered.
        """

        def register(fn: Callable[[Engine[S], Trigger], None]) -> Callable[[Engine[S], Trigger], None]:
            if name in self._abilities:
                raise EngineError(f"{self.game}: ability {name!r} is already registered")
            ability: CardAbility[S] = CardAbility(
                code=code, name=name, on=on, label=label, timing=timing, optional=optional,
                priority=priority, condition=condition, seat=seat, resolve=fn)
            self._abilities[name] = ability
            self._by_kind.setdefault(on, {}).setdefault(code, []).append(ability)
            return fn

        return register

    def collect(self, eng: Engine[S], event: Event) -> list[Trigger]:
        """The triggers ``event`` creates (``GameSpec.collect_triggers``)."""
        by_code = self._by_kind.get(event.kind)
        if by_code is None:
            return []
        cards = eng.state.cards
        found: list[Trigger] = []
        scope = self._scopes.get(event.kind)
        for cid in (_event_card if scope is None else scope)(eng, event):
            card = cards[cid]
            for ab in by_code.get(card.code, ()):
                if ab.condition is not None and not ab.condition(eng, event, cid):
                    continue
                found.append(Trigger(
                    id="", player=card.controller if ab.seat is None else ab.seat(eng, event, cid),
                    ability=ab.name, source=cid, timing=ab.timing, optional=ab.optional,
                    label=ab.label, priority=ab.priority))
        return found

    def resolve(self, eng: Engine[S], trigger: Trigger) -> None:
        """Carry out a trigger of the book (``GameSpec.resolve_trigger``).

        Raises:
            EngineError: an ability the book does not know.
        """
        ability = self._abilities.get(trigger.ability)
        if ability is None:
            raise EngineError(f"{self.game}: unknown ability {trigger.ability!r}")
        ability.resolve(eng, trigger)

    def abilities_of(self, code: str) -> tuple[CardAbility[S], ...]:
        """The abilities registered for a card code, in registration order."""
        return tuple(ab for ab in self._abilities.values() if ab.code == code)

    @property
    def kinds(self) -> frozenset[str]:
        """The event kinds some ability answers (``GameSpec.trigger_kinds``)."""
        return frozenset(self._by_kind)

    @property
    def names(self) -> frozenset[str]:
        """Every ability name (``GameSpec.trigger_abilities``)."""
        return frozenset(self._abilities)

    def install(self, spec: GameSpec[S], *,
                resolve: Callable[[Engine[S], Trigger], None] | None = None) -> None:
        """Answer a spec's trigger hooks with this book: ``collect_triggers``,
        ``trigger_kinds``, ``trigger_abilities`` and ``resolve_trigger`` (``resolve``, if
        given, wraps :meth:`resolve` with what the game does after every ability)."""
        spec.collect_triggers = self.collect
        spec.trigger_kinds = self.kinds
        spec.trigger_abilities = self.names
        spec.resolve_trigger = self.resolve if resolve is None else resolve

    def __repr__(self) -> str:
        return f"CardBook({self.game!r}, {len(self._abilities)} abilities)"
