"""The Arkham spec's assembly (issue #25): one ``build_spec`` registers every step handler of
every rules module, and the scenario table behind ``scenario_hooks`` answers for the scenario
in play (A981 The Midnight Masks, A991 The Devourer Below) and for its cards' effect ops and
triggers whichever scenario is played."""

from __future__ import annotations

from typing import get_args

import pytest
import tcgcore_arkham_card.plugin as plugin
from tcgcore_arkham_card import scenario
from tcgcore_arkham_card.devourer_below import DEVOURER_BELOW
from tcgcore_arkham_card.midnight_masks import MIDNIGHT_MASKS
from tcgcore_arkham_card.scenario_hooks import (
    NO_SCENARIO,
    ArkhamSpec,
    Scenario,
    op_scenario,
    scenario_of,
)
from tcgcore_arkham_card.scenarios import SCENARIOS
from tcgcore_arkham_card.state import AfterTest, ArkhamStep
from tcgcore_arkham_card.testkit import desc, investigator

import tcgcore

#: step types of the state's union that no rule pushes (none has a handler)
_NEVER_PUSHED = frozenset({AfterTest})


def test_build_spec_gives_every_arkham_step_a_handler() -> None:
    """Every step type of the state's union that a rule pushes has its handler once the
    spec is built: no rules module waits to be imported for its handlers to exist."""
    spec = plugin.build_spec()
    steps = [t for t in get_args(ArkhamStep) if t is not tcgcore.CoreStep]
    assert [t.__name__ for t in steps if t not in spec.handlers] == \
        [t.__name__ for t in steps if t in _NEVER_PUSHED]


def test_build_spec_builds_a_new_spec_each_time_with_the_same_handlers() -> None:
    first, second = plugin.build_spec(), plugin.build_spec()
    assert first is not second and first.handlers == second.handlers
    assert first.handlers == plugin.spec.handlers
    assert first.trigger_kinds == plugin.spec.trigger_kinds
    assert {"enemy_engaged", "enemy_defeated"} <= (first.trigger_kinds or frozenset())


@pytest.mark.parametrize(("code", "hooks"), [("01104", SCENARIOS[0]),
                                                 ("01120", MIDNIGHT_MASKS),
                                                 ("01142", DEVOURER_BELOW)])
def test_scenario_of_answers_for_the_scenario_in_play_A981_A991(code: str,
                                                               hooks: Scenario) -> None:
    m = tcgcore.new_match("arkham_card", seed=1, players=1, scenario=code)
    assert scenario_of(m.engine) is hooks


def test_a_builder_description_gets_the_empty_scenario_but_keeps_the_card_ops() -> None:
    """A description's cards may come from any encounter set: their ops (A983.4 Cultist
    doom, A992.6 Ritual Site's clues) resolve through the table whatever the scenario."""
    m = scenario(desc(investigator("01001", ["01089"] * 6),
                      locations=[{"code": "t_loc_a", "clues": 1}]))
    assert scenario_of(m.engine) is NO_SCENARIO
    assert op_scenario(m.engine, "doom_each_trait") is MIDNIGHT_MASKS
    assert op_scenario(m.engine, "refill_clues") is DEVOURER_BELOW
    assert op_scenario(m.engine, "gain_resources") is None


def test_the_spec_refuses_two_scenarios_claiming_one_effect_op() -> None:
    clash = Scenario(code="99999", name="Clash", ops=frozenset({"doom_each_trait"}))
    with pytest.raises(tcgcore.EngineError, match="doom_each_trait"):
        ArkhamSpec(scenarios={sc.code: sc for sc in (*SCENARIOS, clash)}, title="t",
                   zone_words={}, point_choices=(), card_tags=plugin.card_tags,
                   optional_window=plugin.optional_window, view_fact=plugin.view_fact,
                   name="arkham_clash", version="0.1.0", state_type=plugin.ArkhamState,
                   setup=plugin.spec.setup)
