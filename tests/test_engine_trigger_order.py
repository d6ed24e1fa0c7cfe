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
    ask: bool = True
    setup_trigger: bool = False


Eng = Engine[OrderState]


def _setup(eng: Eng, options: dict[str, Any]) -> None:
    state = eng.state
    state.ask = bool(options.get("ask", True))
    if options.get("setup_trigger"):
        eng.emit("ping")  # collected outside a step: its window opens before the first step
    eng.push(AskAndTrigger(ask=state.ask), Finish())


spec: tcgcore.GameSpec[OrderState] = tcgcore.GameSpec(
    name="trigger_order", version="1.0.0", state_type=OrderState, setup=_setup)


@spec.handles(AskAndTrigger)
def _ask_and_trigger(eng: Eng, step: AskAndTrigger) -> None:
    eng.state.log.append("ask_and_trigger")
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
    assert m.state.log == ["ask_and_trigger", "resume:no", "trigger:0", "after", "finish"]
    assert m.result is not None and m.result.reason == "done"


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
    assert m.state.log == ["ask_and_trigger", "trigger:0", "after", "finish"]
    assert m.result is not None


def test_triggers_collected_during_setup_resolve_before_the_first_step() -> None:
    """Setup: a trigger collected before any step runs gets its window first."""
    m = _match(ask=False, setup_trigger=True)
    assert m.state.log == ["trigger:0", "ask_and_trigger", "trigger:1", "after", "finish"]
    assert m.state.triggers == []
