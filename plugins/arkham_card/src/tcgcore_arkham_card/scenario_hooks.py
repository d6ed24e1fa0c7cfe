"""The Scenario interface: the hooks through which generic rules reach a scenario's own rules.

A scenario with rules beyond its data file (``data/scenario_<code>.json``) implements
:class:`Scenario` in its own module (:mod:`.the_gathering`, :mod:`.midnight_masks`,
:mod:`.devourer_below`), listed in :data:`.scenarios.SCENARIOS`;
:func:`.plugin.build_spec` hands that table to the :class:`ArkhamSpec`, and the generic
rules find the current one with :func:`scenario_of` from ``state.scenario``. A scenario
that is not in the table (a scenario-builder description, ``state.scenario ==
"description"``) gets :data:`NO_SCENARIO`, whose hooks do nothing. No generic rules
module imports a scenario module.

This module sits just above :mod:`.queries` and :mod:`.state`; it holds no rules itself.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final

import tcgcore
from tcgcore import Event, Trigger

from .cards import Effect
from .queries import Eng
from .state import ArkhamState


def _nothing(eng: Eng) -> None:
    return None


def _no_reveal(eng: Eng, loc: int) -> None:
    return None


def _no_log(state: ArkhamState, resolution: str) -> None:
    return None


def _no_loss(state: ArkhamState) -> bool:
    return False


def _no_op(eng: Eng, seat: int, e: Effect, source: int, margin: int) -> None:
    raise tcgcore.EngineError(f"effect op {e.op!r} belongs to no scenario")


def _no_triggers(eng: Eng, event: Event) -> list[Trigger]:
    return []


def _not_ours(eng: Eng, trigger: Trigger) -> bool:
    return False


@dataclass(frozen=True)
class Scenario:
    """One scenario's hooks into the generic rules (each defaults to "nothing to do").

    Two kinds of hook: the scenario's own rules (:attr:`setup` to :attr:`no_resolution`),
    called for the scenario being played only; and the rules of the cards of its
    encounter sets (:attr:`ops` to :attr:`resolve`), which apply whichever scenario is
    played, since such a card may be shuffled into another scenario's encounter deck or
    listed in a scenario-builder description.

    Attributes:
        code: the scenario's code (``"01120"``), the key of ``state.scenario``.
        name: the scenario's name in words.
        setup: ``setup(eng)``, run at the end of the generic scenario setup (A301), after
            the data file's locations, decks and starting location are in place.
        location_revealed: ``hook(eng, loc)``, run when a location is revealed, after its
            ``revealed`` counter is set and before its clues are placed (A211.2).
        write_log: ``write_log(state, resolution)``, the scenario's campaign-log output
            into ``state.log_out`` when the game ends (idempotent).
        no_resolution: ``hook(state) -> bool``, run when every investigator has resigned
            or been defeated (A708.1): may record trauma; True makes the result a loss
            even when someone resigned.
        ops: the effect ops of the scenario's cards (no two scenarios share one).
        effect: ``effect(eng, seat, e, source, margin)``: resolve one op of :attr:`ops`
            for ``seat`` (``source``: the card; ``margin``: what a test failed by).
        trigger_kinds: the event kinds :attr:`collect` answers.
        collect: ``collect(eng, event) -> triggers``: the forced abilities of the
            scenario's cards that an event of :attr:`trigger_kinds` triggers (A902).
        resolve: ``resolve(eng, trigger) -> bool``: carry out a trigger :attr:`collect`
            made; False for any other trigger.
    """

    code: str
    name: str
    setup: Callable[[Eng], None] = _nothing
    location_revealed: Callable[[Eng, int], None] = _no_reveal
    write_log: Callable[[ArkhamState, str], None] = _no_log
    no_resolution: Callable[[ArkhamState], bool] = _no_loss
    ops: frozenset[str] = frozenset()
    effect: Callable[[Eng, int, Effect, int, int], None] = _no_op
    trigger_kinds: frozenset[str] = frozenset()
    collect: Callable[[Eng, Event], list[Trigger]] = _no_triggers
    resolve: Callable[[Eng, Trigger], bool] = _not_ours


#: The hooks of a scenario without its own rules module (a scenario-builder description).
NO_SCENARIO: Final = Scenario(code="", name="")


class ArkhamSpec(tcgcore.GameSpec[ArkhamState]):
    """The arkham_card :class:`tcgcore.GameSpec` plus its table of :class:`Scenario` hooks,
    built whole by one call (:func:`.plugin.build_spec`).

    Args:
        scenarios: every scenario with rules of its own, keyed by its code.
        fields: the :class:`tcgcore.GameSpec` keyword arguments.

    Raises:
        tcgcore.EngineError: two scenarios claim one effect op, or a key is not its
            scenario's code (and whatever :class:`tcgcore.GameSpec` raises).
    """

    def __init__(self, *, scenarios: Mapping[str, Scenario], **fields: Any) -> None:
        super().__init__(**fields)
        owner: dict[str, str] = {}
        for code, sc in scenarios.items():
            if code != sc.code:
                raise tcgcore.EngineError(f"scenario {sc.code!r} listed under {code!r}")
            for op in sc.ops:
                if op in owner:
                    raise tcgcore.EngineError(
                        f"effect op {op!r} claimed by scenarios {owner[op]} and {code}")
                owner[op] = code
        #: scenario code -> its hooks
        self.scenarios: Mapping[str, Scenario] = dict(scenarios)
        #: effect op -> the scenario that resolves it (see :attr:`Scenario.ops`)
        self.scenario_ops: Mapping[str, Scenario] = {op: self.scenarios[code]
                                                     for op, code in owner.items()}
        #: (event kinds, collector) of the scenarios whose cards have triggers
        self.collectors: tuple[tuple[frozenset[str], Callable[[Eng, Event], list[Trigger]]],
                               ...] = tuple((sc.trigger_kinds, sc.collect)
                                            for sc in self.scenarios.values()
                                            if sc.trigger_kinds)
        self.resolvers: tuple[Callable[[Eng, Trigger], bool], ...] = tuple(
            sc.resolve for sc in self.scenarios.values() if sc.resolve is not _not_ours)


def _arkham_spec(eng: Eng) -> ArkhamSpec:
    spec = eng.spec
    if not isinstance(spec, ArkhamSpec):
        raise tcgcore.EngineError(f"{spec.name}: the arkham_card rules need the ArkhamSpec "
                                  "that tcgcore_arkham_card.plugin.build_spec makes")
    return spec


def scenario_of(eng: Eng) -> Scenario:
    """The hooks of the scenario being played (``state.scenario``), :data:`NO_SCENARIO` for
    one without its own rules.

    Raises:
        tcgcore.EngineError: the engine runs on a spec that is not an :class:`ArkhamSpec`.
    """
    return _arkham_spec(eng).scenarios.get(eng.state.scenario, NO_SCENARIO)


def op_scenario(eng: Eng, op: str) -> Scenario | None:
    """The scenario whose :attr:`Scenario.ops` holds ``op``, or ``None``.

    Raises:
        tcgcore.EngineError: the engine runs on a spec that is not an :class:`ArkhamSpec`.
    """
    return _arkham_spec(eng).scenario_ops.get(op)


def scenario_triggers(eng: Eng, event: Event) -> list[Trigger]:
    """The triggers the scenarios' cards make of ``event`` (:attr:`Scenario.collect`, in
    the order of the spec's scenario table).

    Raises:
        tcgcore.EngineError: the engine runs on a spec that is not an :class:`ArkhamSpec`.
    """
    found: list[Trigger] = []
    for kinds, collect in _arkham_spec(eng).collectors:
        if event.kind in kinds:
            found += collect(eng, event)
    return found


def resolve_scenario_trigger(eng: Eng, trigger: Trigger) -> bool:
    """Carry out ``trigger`` if a scenario's card made it (:attr:`Scenario.resolve`);
    False when none did.

    Raises:
        tcgcore.EngineError: the engine runs on a spec that is not an :class:`ArkhamSpec`.
    """
    return any(resolve(eng, trigger) for resolve in _arkham_spec(eng).resolvers)
