"""The table of scenarios with rules of their own (:class:`.scenario_hooks.Scenario`), which
:func:`.plugin.build_spec` hands to the spec: add a scenario module's ``Scenario`` here."""

from __future__ import annotations

from typing import Final

from .devourer_below import DEVOURER_BELOW
from .midnight_masks import MIDNIGHT_MASKS
from .scenario_hooks import Scenario
from .the_gathering import THE_GATHERING

__all__ = ["SCENARIOS"]

#: every scenario with a module of its own, in campaign order (Night of the Zealot)
SCENARIOS: Final[tuple[Scenario, ...]] = (THE_GATHERING, MIDNIGHT_MASKS, DEVOURER_BELOW)
