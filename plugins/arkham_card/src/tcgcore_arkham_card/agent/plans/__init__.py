"""The heuristic agent's scenario plans, one module each (:class:`.base.ScenarioPlan`):
:mod:`.gathering` (the default), :mod:`.midnight_masks`, :mod:`.devourer_below`. A new
scenario's plan is a module with one :class:`.base.ScenarioPlan` added to :data:`PLANS`."""

from __future__ import annotations

from .base import ScenarioPlan
from .devourer_below import THE_DEVOURER_BELOW
from .gathering import THE_GATHERING
from .midnight_masks import THE_MIDNIGHT_MASKS

__all__ = ["DEFAULT_PLAN", "PLANS", "ScenarioPlan"]

#: every scenario's plan; the loop picks the one whose ``acts`` hold the current act
PLANS: tuple[ScenarioPlan, ...] = (THE_GATHERING, THE_MIDNIGHT_MASKS, THE_DEVOURER_BELOW)
#: the plan for a scenario none of PLANS claims
DEFAULT_PLAN = THE_GATHERING
