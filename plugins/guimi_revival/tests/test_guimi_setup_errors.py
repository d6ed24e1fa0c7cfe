"""Scenario builder input checks: every numeric field is type- and range-checked, and the
error names the field's path (docs/guimi_revival/scenario-format.md; ranges from rules.md
074.1, 089.6, 111.1, 112.1, 113.5)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from tcgcore_guimi_revival.testing import build, game, player

import tcgcore

POOL = str(Path(__file__).parent / "data" / "test_pool.toml")


@pytest.mark.parametrize(("fields", "message"), [
    ({"mad": 3}, "players[1].mad must be an integer 0..2 (got 3)"),
    ({"mad": -1}, "players[1].mad must be an integer 0..2"),
    ({"mad": True}, "players[1].mad: expected `int`, got `bool`"),
    ({"mad": 1.0}, "players[1].mad: expected `int`, got `float`"),
    ({"corruption": -1}, "players[1].corruption must be an integer 0 or more"),
    ({"corruption": "2"}, "players[1].corruption: expected `int`, got `str`"),
    ({"dead_corruption": -3}, "players[1].dead_corruption must be an integer 0 or more"),
    ({"events_played": 2}, "players[1].events_played must be an integer 0..1"),
    ({"sequence": 10}, "players[1].sequence must be an integer 0..9"),
    ({"sequence": False}, "players[1].sequence: expected `int`, got `bool`"),
    ({"ascend_round": 0}, "players[1].ascend_round must be -1 (no ascension) or a round"),
    ({"ascend_round": -2}, "players[1].ascend_round must be -1"),
    ({"ascend_round": 3}, "players[1].ascend_round must be -1 (no ascension) or a round "
                          "1..round (2) (got 3)"),
    ({"ascend_round": True}, "players[1].ascend_round: expected `int`, got `bool`"),
    ({"dead": True, "ascend_round": 1}, "players[1]: a dead RB cannot be ascending"),
    ({"dead": 1}, "players[1].dead: expected `bool`, got `int`"),
])
def test_112_1_089_6_player_fields_are_range_checked(fields: dict[str, Any],
                                                      message: str) -> None:
    """112.1 (mad 0..2), 111.1/113.5 (corruption counters >= 0), 074.1 (one event),
    089.6 (ascension round): bad values raise OptionsError naming ``players[1].<field>``."""
    desc = game(player(), player("rb_hunter", **fields), round=2)
    with pytest.raises(tcgcore.OptionsError, match=re.escape(message)):
        build(desc, pool=POOL)


@pytest.mark.parametrize(("fields", "message"), [
    ({"round": 0}, "round must be an integer 1 or more"),
    ({"round": True}, "round: expected `int`, got `bool`"),
    ({"first_player": 2}, "first_player must be 0 or 1"),
    ({"active": -1}, "active must be 0 or 1"),
    ({"first_player": 1.0}, "first_player: expected `int`, got `float`"),
])
def test_top_level_fields_are_checked(fields: dict[str, Any], message: str) -> None:
    """The top-level numbers: a round from 1, seats 0 or 1, no bools or floats."""
    with pytest.raises(tcgcore.OptionsError, match=re.escape(message)):
        build(game(**fields), pool=POOL)


def test_counters_and_wrong_shapes_name_the_path() -> None:
    """Card counters must be integers; a description that is not a table is refused."""
    bad = {"code": "seer_b9", "counters": {"protect": "yes"}}
    with pytest.raises(tcgcore.OptionsError,
                       match=re.escape("players[0].units[0].counters[...]: expected `int`")):
        build(game(player(units=[bad])), pool=POOL)
    with pytest.raises(tcgcore.OptionsError, match="must be a table"):
        build([player(), player()], pool=POOL)  # type: ignore[arg-type]


def test_in_range_values_still_build() -> None:
    """The edges of every range are accepted."""
    m = build(game(player(mad=2, corruption=0, dead_corruption=2, events_played=1, sequence=0),
                   player("rb_hunter", ascend_round=2, sequence=0), round=2), pool=POOL)
    st = m.state
    assert st.dead_corruption[0] == 2 and st.ascend_round[1] == 2


def test_041_deck_text_that_is_not_a_deck_list() -> None:
    """Section 4 deck check: JSON null or a list, and wrong keys, give one clear problem."""
    from tcgcore_guimi_revival.decks import check_deck_text

    assert check_deck_text("null", "d.json") == [
        "d.json: not a deck list (expected a TOML table or a JSON object with revival, main "
        "and extra; got null)"]
    assert check_deck_text("[1, 2]", "d.json")[0].endswith("got a list)")
    assert check_deck_text('{"revival": 3, "main": []}', "d.json") == [
        "not a deck list: revival: expected `str`, got `int`"]
    assert check_deck_text("a = [", "d.toml")[0].startswith("d.toml: not valid TOML: ")
