"""Scenario 01104, The Gathering (Night of the Zealot, part 1).

Everything the scenario needs is in its data file (``data/scenario_01104.json``: the
locations, acts and agendas with their effects, the encounter deck) and the shared rules,
so its :class:`~tcgcore_arkham_card.scenario_hooks.Scenario` keeps every hook's default.
"""

from __future__ import annotations

from typing import Final

from .scenario_hooks import Scenario

__all__ = ["THE_GATHERING"]

#: The Gathering's hooks into the generic rules: none beyond the defaults.
THE_GATHERING: Final = Scenario(code="01104", name="The Gathering")
