"""Scenario builder input checks (docs/arkham_card/scenario-format.md, "Checks"): a
description that would put the engine in a nonsense state raises tcgcore.OptionsError
naming the field. Token names follow A214.2 / A302; defeat thresholds A205.2, A615.1,
A703.1."""

from __future__ import annotations

import re
from typing import Any

import pytest
from tcgcore_arkham_card import scenario
from tcgcore_arkham_card.testkit import desc, st

import tcgcore


def _fails(message: str, **extra: Any) -> None:
    with pytest.raises(tcgcore.OptionsError, match=re.escape(message)):
        scenario(desc(**extra))


def _inv(**fields: Any) -> dict[str, Any]:
    return {"code": "t_inv_guard", "location": "t_loc_a", **fields}


@pytest.mark.parametrize(("extra", "message"), [
    ({"chaos_bag": ["+1", "skul"]}, "chaos_bag[1]: unknown chaos token 'skul'"),
    ({"chaos_bag": ["bless"]}, "chaos_bag[0]: unknown chaos token 'bless'"),
    ({"chaos_bag": ["+-1"]}, "chaos_bag[0]: unknown chaos token '+-1'"),
    ({"tokens": ["0", "autofail"]}, "tokens[1]: unknown chaos token 'autofail'"),
    ({"tokens": [""]}, "tokens[0]: unknown chaos token ''"),
    ({"token_effects": {"elder_sign": {"modifier": 1}}},
     "token_effects: 'elder_sign' is not a reference-card symbol"),
    ({"token_effects": {"skul": {"modifier": 1}}}, "token_effects: 'skul' is not"),
])
def test_A214_2_A302_chaos_token_names_are_checked(extra: dict[str, Any], message: str) -> None:
    """A302 (bag contents) and A214.2 (reference-card symbols): unknown names are refused."""
    _fails(message, **extra)


def test_A302_valid_tokens_are_accepted() -> None:
    """Numbers with or without a sign and every symbol build a match."""
    bag = ["+1", "0", "-8", "skull", "cultist", "tablet", "elder_thing", "auto_fail",
           "elder_sign"]
    m = scenario(desc(chaos_bag=bag, tokens=["-2"],
                      token_effects={"elder_thing": {"modifier": -4}}))
    assert st(m).bag == bag


@pytest.mark.parametrize(("extra", "message"), [
    ({"round": 0}, "round must be an integer 1 or more (got 0)"),
    ({"round": True}, "round: expected `int`, got `bool`"),
    ({"agenda_doom": -1}, "agenda_doom must be an integer 0 or more (got -1)"),
    ({"agenda_doom": 1.5}, "agenda_doom: expected `int`, got `float`"),
    ({"phase": "teatime"}, "phase must be investigation, mythos, enemy or upkeep"),
    ({"resolutions": {"R1": "won"}}, "resolutions.R1 must be 'win' or 'loss'"),
    ({"locations": [{"code": "t_loc_a"}, {"code": "t_loc_a"}]},
     "locations[1]: location 't_loc_a' is listed twice"),
    ({"locations": [{"code": "t_loc_a", "clues": -1}]}, "locations[0].clues must be"),
    ({"locations": [{"code": "t_loc_a", "doom": -2}]}, "locations[0].doom must be"),
    ({"locations": [{"code": "t_ghoul"}]}, "locations[0]: t_ghoul is an enemy card, "
                                           "not a location"),
    ({"acts": ["t_agenda_long"]}, "acts: t_agenda_long is an agenda card, not an act"),
    ({"enemies": [{"code": "t_ghoul"}]}, "enemies[0]: needs a location or an engaged seat"),
    ({"enemies": [{"code": "t_ghoul", "location": "t_loc_a", "engaged": 0}]},
     "enemies[0]: give location or engaged, not both"),
    ({"enemies": [{"code": "t_ghoul", "engaged": 0, "damage": -1}]},
     "enemies[0].damage must be an integer 0 or more"),
    ({"enemies": [{"code": "t_ghoul", "engaged": 0, "damage": 2}]},
     "enemies[0].damage: 2 damage would already defeat t_ghoul (2; A615.1)"),
    ({"enemies": [{"code": "t_loc_b", "engaged": 0}]}, "enemies[0]: t_loc_b is a location"),
])
def test_top_level_location_and_enemy_fields(extra: dict[str, Any], message: str) -> None:
    """Round from 1, doom and clues from 0, one entry per location, known phases and
    outcomes, card types that fit the list, A615.1 (an enemy cannot start defeated)."""
    _fails(message, **extra)


@pytest.mark.parametrize(("fields", "message"), [
    ({"resources": -1}, "investigators[0].resources must be an integer 0 or more"),
    ({"clues": -2}, "investigators[0].clues must be an integer 0 or more"),
    ({"horror": True}, "investigators[0].horror: expected `int`, got `bool`"),
    ({"damage": 9}, "investigators[0].damage: 9 damage would already defeat t_inv_guard "
                    "(9; A703.1)"),
    ({"health": 3, "damage": 3}, "investigators[0].damage: 3 damage would already defeat"),
    ({"horror": 5}, "investigators[0].horror: 5 horror would already defeat"),
    ({"health": 0}, "investigators[0].health must be an integer 1 or more"),
    ({"combat": -1}, "investigators[0].combat must be an integer 0 or more"),
    ({"assets": [{"code": "t_coat", "damage": -1}]},
     "investigators[0].assets[0].damage must be an integer 0 or more"),
    ({"assets": [{"code": "t_coat", "damage": "1"}]},
     "investigators[0].assets[0].damage must be an integer 0 or more (got '1')"),
    ({"assets": [{"code": "t_coat", "exhausted": 1}]},
     "investigators[0].assets[0].exhausted must be true or false"),
    ({"assets": [{"code": "t_coat", "tapped": True}]},
     "investigators[0].assets[0]: unknown field 'tapped'"),
    ({"assets": [{"uses": 2}]}, "investigators[0].assets[0].code: missing"),
    ({"assets": [{"code": "t_coat", "damage": 2}]},
     "investigators[0].assets: 2 damage would already defeat t_coat (2; A205.2)"),
    ({"assets": [{"code": "t_knife", "damage": 1}]},
     "t_knife has no printed health, so it cannot hold damage (A205.1)"),
    ({"code": "t_loc_a"}, "investigators[0]: t_loc_a is a location card, not an investigator"),
])
def test_A703_1_investigator_fields(fields: dict[str, Any], message: str) -> None:
    """Tokens from 0, health and sanity from 1, A703.1 / A205.2 (nothing starts defeated),
    A205.1 (no damage on an asset without printed health), asset objects checked."""
    with pytest.raises(tcgcore.OptionsError, match=re.escape(message)):
        scenario(desc(_inv(**fields)))


def test_errors_carry_the_game_and_description_prefix() -> None:
    """Every message starts with the game and says it is about the description."""
    with pytest.raises(tcgcore.OptionsError,
                       match=r"^arkham_card: scenario description: round must be"):
        scenario(desc(round=-3))


def test_edge_values_still_build() -> None:
    """The edges are legal: damage one below health, zero doom, round 1."""
    m = scenario(desc(_inv(damage=8, horror=4, resources=0,
                           assets=[{"code": "t_coat", "damage": 1, "exhausted": True}]),
                      agenda_doom=0, round=1,
                      enemies=[{"code": "t_ghoul", "location": "t_loc_b", "damage": 1}]))
    assert st(m).inv[0].damage == 8 and st(m).inv[0].horror == 4


def test_A957_1_chaos_add_tokens_are_checked() -> None:
    """Tokens added by earlier scenarios (A957.1) must be real chaos tokens."""
    m = tcgcore.new_match("arkham_card", seed=1, chaos_add=["elder_thing", "-2"])
    assert m.pending is not None
    with pytest.raises(tcgcore.OptionsError, match=r"'chaos_add'\[1\]: unknown chaos token"):
        tcgcore.new_match("arkham_card", seed=1, chaos_add=["elder_thing", "tentacle"])
