"""Where `Engine.run` puts a timing window: above the work a handler queued, and below the
resume step when the same handler also asked a choice (architecture.md, step 8).

A tiny game records, in its state, the order in which its steps and triggers run, so each
test reads what happened rather than which events were announced."""

from __future__ import annotations

from typing import Any, Union

import tcgcore
from tcgcore import Engine, Option, Step, Trigger


class AskAndTrigger(Step, tag="trigger_order.ask_and_trigger"):
    """Queues `After`, emits a `ping` (one forced trigger) and, if `ask`, asks a choice."""

    ask: bool = True


class Resume(Step, tag="trigger_order.resume"):
    """The resume step of the choice: logs the answer."""


class After(Step, tag="trigger_order.after"):
    """Work the asking handler queued before it asked."""


class Finish(Step, tag="trigger_order.finish"):
    """Ends the match."""


OrderStep = Union[  # noqa: UP007
    tcgcore.CoreStep, AskAndTrigger, Resume, After, Finish,
]


class OrderState(tcgcore.GameState[OrderStep], kw_only=True):
    log: list[str] = []
    offered: list[str] = []
    ask: bool = True
    setup_trigger: bool = False


Eng = Engine[OrderState]


def _setup(eng: Eng, options: dict[str, Any]) -> None:
    state = eng.state
    state.ask = bool(options.get("ask", True))
    eng.add_zone("here", "here")
    eng.add_zone("there", "there")
    eng.add_card("token", 0, "here")
    if options.get("move_ping"):
        eng.move(0, "there", kind="ping")  # a move whose event kind the game collects from
    if options.get("setup_trigger"):
        eng.emit("ping")  # collected outside a step: its window opens before the first step
    eng.push(AskAndTrigger(ask=state.ask), Finish())


spec: tcgcore.GameSpec[OrderState] = tcgcore.GameSpec(
    name="trigger_order", version="1.0.0", state_type=OrderState, setup=_setup)


@spec.handles(AskAndTrigger)
def _ask_and_trigger(eng: Eng, step: AskAndTrigger) -> None:
    eng.state.log.append("ask_and_trigger")
    eng.move(0, "there")  # a move event, of a kind the game does not collect from
    eng.push(After())
    eng.emit("ping")
    if step.ask:
        eng.ask(0, "pick", "Pick one", [Option(key="yes", label="Yes"),
                                        Option(key="no", label="No")], resume=Resume())


@spec.handles(Resume)
def _resume(eng: Eng, step: Resume) -> None:
    eng.state.log.append(f"resume:{eng.answer[0]}")


@spec.handles(After)
def _after(eng: Eng, step: After) -> None:
    eng.state.log.append("after")


@spec.handles(Finish)
def _finish(eng: Eng, step: Finish) -> None:
    eng.state.log.append("finish")
    eng.end(winners=[0], reason="done")


def _collect(eng: Eng, event: tcgcore.Event) -> list[Trigger]:
    eng.state.offered.append(event.kind)
    return [Trigger(id="", player=0, ability="ping")] if event.kind == "ping" else []


def _resolve(eng: Eng, trigger: Trigger) -> None:
    eng.state.log.append(f"trigger:{trigger.event}")


spec.collect_triggers = _collect
spec.trigger_kinds = frozenset({"ping"})
spec.resolve_trigger = _resolve

_Plugin = type("TriggerOrderPlugin", (), {"tcgcore_games": tcgcore.hookimpl(lambda: [spec])})


def _match(**options: Any) -> tcgcore.Match[OrderState]:
    reg = tcgcore.load_registry(load_entrypoints=False, plugins=[_Plugin])
    match: tcgcore.Match[OrderState] = tcgcore.new_match("trigger_order", seed=1, registry=reg,
                                                         **options)
    return match


def test_a_window_from_a_handler_that_asked_opens_below_the_resume_step() -> None:
    """Step 8 of the decision path: the handler asked a choice and collected a trigger; the
    answer is read by the resume step first, then the window resolves the trigger, then the
    work the handler queued runs."""
    m = _match()
    assert m.state.log == ["ask_and_trigger"]  # stopped at the choice; the trigger waits
    assert m.pending is not None and m.pending.kind == "pick"
    assert isinstance(m.state.stack[-1], Resume)  # the resume step is on top
    assert isinstance(m.state.stack[-2], tcgcore.TriggerWindow)  # the window right below it
    m.choose(0, "no")
    assert m.state.log == ["ask_and_trigger", "resume:no", "trigger:1", "after", "finish"]
    assert m.result is not None and m.result.reason == "done"
    assert m.result.winners == [0] and not m.result.draw  # a win is not a draw


def test_only_the_resume_step_reads_the_answer() -> None:
    """Step 8: the answer is cleared once the resume step returns, so no later step (here the
    trigger window and `After`) can read it, and the finished state holds none."""
    m = _match()
    m.choose(0, "yes")
    assert m.state.answer is None


def test_a_window_from_a_handler_that_did_not_ask_opens_above_its_queued_work() -> None:
    """Step 8: without a choice the window goes on top, so the trigger resolves before the
    step the handler queued."""
    m = _match(ask=False)
    assert m.state.log == ["ask_and_trigger", "trigger:1", "after", "finish"]
    assert m.result is not None


def test_triggers_collected_during_setup_resolve_before_the_first_step() -> None:
    """Setup: a trigger collected before any step runs gets its window first."""
    m = _match(ask=False, setup_trigger=True)
    assert m.state.log == ["trigger:0", "ask_and_trigger", "trigger:2", "after", "finish"]
    assert m.state.triggers == []


def test_only_the_listed_event_kinds_reach_the_trigger_collector() -> None:
    """GameSpec.trigger_kinds: emitted and move events of other kinds are not offered to the
    collector; with no list (None) every event is."""
    m = _match(ask=False)
    assert m.state.offered == ["ping"]
    saved = spec.trigger_kinds
    spec.trigger_kinds = None
    try:
        m = _match(ask=False)
    finally:
        spec.trigger_kinds = saved
    assert m.state.offered == ["moved", "ping", "game_over"]
    m = _match(ask=False, move_ping=True)  # a move's event is offered like an emitted one
    assert m.state.offered == ["ping", "ping"]
    assert m.state.log[0] == "trigger:0"


def _window_of(*triggers: Trigger, forced_first: bool = True) -> tcgcore.Match[OrderState]:
    """A match stopped at its first choice, then given a window with ``triggers``."""
    m = _match(ask=False)
    m.state.pending = None
    m.state.result = None
    m.state.log = []
    m.engine.push(tcgcore.TriggerWindow(triggers=list(triggers)), Finish())
    saved = spec.forced_first
    spec.forced_first = forced_first
    try:
        m.engine.run()
    finally:
        spec.forced_first = saved
    return m


def test_forced_triggers_resolve_before_optional_ones_without_a_choice() -> None:
    """GameSpec.forced_first: of a forced and an optional trigger of one seat the forced one
    resolves first, unasked; then the optional one is offered with its label."""
    forced = Trigger(id="f", player=0, ability="forced", event=7)
    optional = Trigger(id="o", player=0, ability="optional", optional=True, event=8,
                       label="Echo: log it")
    m = _window_of(optional, forced)
    assert m.state.log == ["trigger:7"]
    assert m.pending is not None and m.pending.kind == "use_trigger"
    assert m.pending.prompt == "Use Echo: log it?"
    m.choose(0, "yes")
    assert m.state.log == ["trigger:7", "trigger:8", "finish"]


def test_without_forced_first_the_seat_orders_forced_and_optional_triggers() -> None:
    """forced_first=False: the same two triggers are ordered by their controller."""
    forced = Trigger(id="f", player=0, ability="forced", event=7)
    optional = Trigger(id="o", player=0, ability="optional", optional=True, event=8)
    m = _window_of(optional, forced, forced_first=False)
    assert m.state.log == []
    assert m.pending is not None and m.pending.kind == "order_triggers"
    assert m.pending.keys == ["o", "f"]
    m.choose(0, "o")
    assert m.pending.prompt == "Use optional?"  # the next choice; no label: the ability
    m.choose(0, "no")
    assert m.state.log == ["trigger:7", "finish"]


def test_a_declined_trigger_is_seen_by_whoever_sees_its_card_and_its_controller() -> None:
    """Declining an optional trigger is recorded (``trigger_declined``) with its card visible
    to the seats that see the card, plus the declining seat: a public card's refusal is
    public, a hidden card's is seen by its controller alone."""
    public = Trigger(id="o", player=1, ability="optional", optional=True, source=0)
    m = _window_of(public)
    assert m.pending is not None and m.pending.player == 1
    m.choose(1, "no")
    declined = [e for e in m.events_since(0, player=1) if e.kind == "trigger_declined"]
    assert [e.seen_by for e in declined] == [tcgcore.ALL_PLAYERS]
    assert m.state.log == ["finish"]  # declined: not resolved
    m = _match(ask=False)
    m.engine.add_zone("vault", "vault", visibility="hidden")
    m.engine.move(0, "vault")
    m.state.pending = None
    m.state.result = None
    m.engine.push(tcgcore.TriggerWindow(triggers=[public]), Finish())
    m.engine.run()
    m.choose(1, "no")
    declined = [e for e in m.events_since(0, player=1) if e.kind == "trigger_declined"]
    assert [e.seen_by for e in declined] == [0b10]
    assert m.events_since(declined[0].seq, player=0)[0].card is None  # seat 0 sees no card
