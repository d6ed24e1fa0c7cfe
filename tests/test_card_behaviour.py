"""The card-behaviour registries: effects by op name (``tcgcore.EffectRegistry``) and
triggered abilities by card code (``tcgcore.CardBook``), including Sparks' cards."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Union

import pytest

import tcgcore
from tcgcore import Engine, Event, Step, Trigger
from tcgcore.examples import sparks

# ---------------------------------------------------------------- EffectRegistry

Gain = Callable[[list[int], int], None]


def test_effects_are_looked_up_by_op_name() -> None:
    effects: tcgcore.EffectRegistry[Gain] = tcgcore.EffectRegistry("test")

    @effects.effect("gain")
    def _gain(pool: list[int], amount: int) -> None:
        pool.append(amount)

    @effects.effect("lose", "pay")
    def _lose(pool: list[int], amount: int) -> None:
        pool.append(-amount)

    pool: list[int] = []
    for op, amount in (("gain", 3), ("pay", 2), ("lose", 1)):
        effects[op](pool, amount)
    assert pool == [3, -2, -1]
    assert effects.ops == frozenset({"gain", "lose", "pay"})
    assert "pay" in effects and "draw" not in effects
    assert effects.get("draw") is None and effects.get("gain") is _gain


def test_an_unknown_op_or_a_second_registration_raises_naming_the_op() -> None:
    effects: tcgcore.EffectRegistry[Gain] = tcgcore.EffectRegistry("test")
    effects.effect("gain")(lambda pool, n: None)
    with pytest.raises(tcgcore.EngineError, match="test: unknown effect 'draw'; known: gain"):
        effects["draw"]
    with pytest.raises(tcgcore.EngineError, match="'gain' is already registered"):
        effects.effect("gain")(lambda pool, n: None)
    with pytest.raises(tcgcore.EngineError, match="at least one op"):
        effects.effect()


# ---------------------------------------------------------------- CardBook


def test_sparks_registers_each_cards_abilities_under_its_code() -> None:
    book = sparks.cards
    assert [a.name for a in book.abilities_of("flare")] == ["flare_draw", "flare_mill"]
    assert [(a.on, a.timing, a.optional) for a in book.abilities_of("shield")] == [
        ("clash_scoring", "when", False)]
    assert book.abilities_of("spark3") == ()
    assert book.kinds == frozenset({"revealed", "clash_scoring", "clash_lost"})
    assert sparks.spec.trigger_kinds == book.kinds
    assert sparks.spec.trigger_abilities == book.names == sparks.ABILITIES


class Go(Step, tag="book_test.go"):
    """Queue the end, emit one ``bell`` event about card 0, then a ``gong`` about no card."""


class End(Step, tag="book_test.end"):
    """End the match (after the triggers of ``Go`` resolved)."""


BookStep = Union[tcgcore.CoreStep, Go, End]  # noqa: UP007


class BookState(tcgcore.GameState[BookStep], kw_only=True):
    log: list[str] = []
    quiet: bool = False


Eng = Engine[BookState]


def _setup(eng: Eng, options: dict[str, Any]) -> None:
    eng.state.quiet = bool(options.get("quiet", False))
    eng.add_zone("table", "table")
    eng.add_card("bell", 0, "table")
    eng.add_card("drum", 1, "table")
    eng.add_card("bell", 1, "table")
    eng.push(Go())


spec: tcgcore.GameSpec[BookState] = tcgcore.GameSpec(
    name="book_test", version="1.0.0", state_type=BookState, setup=_setup)
book: tcgcore.CardBook[BookState] = tcgcore.CardBook("book_test")


@spec.handles(Go)
def _go(eng: Eng, step: Go) -> None:
    eng.push(End())
    eng.emit("bell", card=0)
    eng.emit("gong")


@spec.handles(End)
def _end(eng: Eng, step: End) -> None:
    eng.end(draw=True, reason="done")


@book.scope("gong")
def _everyone(eng: Eng, event: Event) -> list[int]:
    """A gong reaches every card on the table, last first."""
    return list(reversed(eng.zone("table").cards))


@book.triggered("bell", "bell_rings", on="bell", label="Bell: ring")
def _bell_rings(eng: Eng, trigger: Trigger) -> None:
    eng.state.log.append(f"ring {trigger.source} for {trigger.player}")


@book.triggered("bell", "bell_echo", on="gong", label="Bell: echo", priority=2,
                condition=lambda eng, event, card: not eng.state.quiet)
def _bell_echo(eng: Eng, trigger: Trigger) -> None:
    eng.state.log.append(f"echo {trigger.source} for {trigger.player}")


@book.triggered("drum", "drum_beat", on="gong", label="Drum: beat", optional=True,
                seat=lambda eng, event, card: 0)
def _drum_beat(eng: Eng, trigger: Trigger) -> None:
    eng.state.log.append(f"beat {trigger.source} for {trigger.player}")


book.install(spec)
_Plugin = type("BookPlugin", (), {"tcgcore_games": tcgcore.hookimpl(lambda: [spec])})


def _collected(**options: Any) -> list[Trigger]:
    reg = tcgcore.load_registry(load_entrypoints=False, plugins=[_Plugin])
    match: tcgcore.Match[BookState] = tcgcore.new_match("book_test", seed=1, registry=reg,
                                                        **options)
    eng = match.engine
    return [*book.collect(eng, Event(seq=0, kind="bell", card=0)),
            *book.collect(eng, Event(seq=1, kind="gong")),
            *book.collect(eng, Event(seq=2, kind="bell"))]  # no card: the default scope is empty


def test_the_book_makes_one_trigger_per_ability_of_each_card_in_scope_order() -> None:
    found = _collected()
    assert [(t.ability, t.source, t.player, t.optional, t.priority, t.label) for t in found] == [
        ("bell_rings", 0, 0, False, 0, "Bell: ring"),
        ("bell_echo", 2, 1, False, 2, "Bell: echo"),  # the gong's scope runs last card first
        ("drum_beat", 1, 0, True, 0, "Drum: beat"),  # its seat hook names seat 0
        ("bell_echo", 0, 0, False, 2, "Bell: echo"),
    ]


def test_a_condition_that_fails_makes_no_trigger() -> None:
    assert [t.ability for t in _collected(quiet=True)] == ["bell_rings", "drum_beat"]


def test_installed_book_answers_the_specs_trigger_hooks_and_resolves_in_play() -> None:
    assert spec.collect_triggers == book.collect and spec.resolve_trigger == book.resolve
    assert spec.trigger_kinds == frozenset({"bell", "gong"})
    assert spec.trigger_abilities == frozenset({"bell_rings", "bell_echo", "drum_beat"})
    reg = tcgcore.load_registry(load_entrypoints=False, plugins=[_Plugin])
    match: tcgcore.Match[BookState] = tcgcore.new_match("book_test", seed=1, registry=reg)
    while match.result is None:  # accept every optional trigger, take orders as given
        choice = match.pending
        assert choice is not None
        match.choose(choice.player, "yes" if choice.kind == "use_trigger"
                     else choice.options[0].key)
    assert match.state.log[0] == "ring 0 for 0"
    assert sorted(match.state.log[1:]) == ["beat 1 for 0", "echo 0 for 0", "echo 2 for 1"]


def test_an_unknown_ability_or_a_second_registration_raises() -> None:
    reg = tcgcore.load_registry(load_entrypoints=False, plugins=[_Plugin])
    match: tcgcore.Match[BookState] = tcgcore.new_match("book_test", seed=1, registry=reg)
    with pytest.raises(tcgcore.EngineError, match="unknown ability 'gone'"):
        book.resolve(match.engine, Trigger(id="t", player=0, ability="gone"))
    with pytest.raises(tcgcore.EngineError, match="'bell_rings' is already registered"):
        book.triggered("drum", "bell_rings", on="bell", label="again")(_bell_rings)
    with pytest.raises(tcgcore.EngineError, match="'gong' already has a scope"):
        book.scope("gong")(_everyone)
