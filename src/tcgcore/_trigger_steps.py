"""The engine's own step types: a timing window's triggered abilities resolving one at a time.

They are plain data like every game step (their handlers, ``_window`` and the rest, are in
``_engine.py``), and every game's state lists them in its step union through
:data:`CoreStep`. Rule: simultaneous triggered abilities resolve one at a time, in the order
the game's trigger policy gives (``docs/architecture.md``, the trigger window).
"""

from __future__ import annotations

from typing import TypeAlias, Union

from ._model import Step, Trigger

__all__ = ["CoreStep", "ResolveTrigger", "TriggerOptIn", "TriggerPick", "TriggerWindow"]


class TriggerWindow(Step, tag="core.trigger_window"):
    """Resolve waiting triggered abilities one at a time (the game's ordering policy)."""

    triggers: list[Trigger]


class TriggerPick(Step, tag="core.trigger_pick"):
    """Resume step: a player picked which trigger of a window resolves next."""

    triggers: list[Trigger]


class TriggerOptIn(Step, tag="core.trigger_opt_in"):
    """Resume step: a player said whether to use an optional trigger."""

    trigger: Trigger


class ResolveTrigger(Step, tag="core.resolve_trigger"):
    """Hand one trigger to the game's resolver."""

    trigger: Trigger


#: The engine's own step types. A game's state must list them in its step union.
CoreStep: TypeAlias = Union[TriggerWindow, TriggerPick, TriggerOptIn, ResolveTrigger]  # noqa: UP007
