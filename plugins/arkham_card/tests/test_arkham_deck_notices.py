"""Deck check notices and ArkhamDB deck fields (A971.6, A972.6–A972.8): fields the engine
does not apply are named in a notice, ``ignoreDeckLimitSlots`` is honoured, ``xp`` is
compared with the experience of the deck's cards, an unknown investigator names the pool."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from tcgcore_arkham_card.decks import (
    check_deck,
    deck_notices,
    deck_problems,
    investigator_list,
    parse_deck,
    starter_deck,
)

import tcgcore
from tcgcore.cli import main


def _roland(**fields: Any) -> dict[str, Any]:
    deck = starter_deck("roland")
    return {"investigator_code": "01001", "slots": dict(deck.slots), **fields}


def _text(raw: dict[str, Any]) -> str:
    return json.dumps(raw)


def test_A971_6_taboo_and_meta_are_named_in_a_notice() -> None:
    lines = check_deck(_text(_roland(taboo_id=5, meta='{"alternate_front": "98004"}')), "d")
    assert lines == ["notice: taboo_id, meta given but not applied by the engine (the deck "
                     "is played as its slots list it)"]
    assert check_deck(_text(_roland(taboo_id=None, meta="", id=12, name="x", tags="")), "d") == []


def test_A971_6_a_side_deck_is_named_in_a_notice() -> None:
    lines = check_deck(_text(_roland(sideSlots={"01020": 2})), "d")
    assert lines == ["notice: the side deck (2 cards) is not played"]


def test_A972_7_ignore_deck_limit_slots_count_toward_neither_size_nor_copy_limit() -> None:
    """A third Knife listed in ``ignoreDeckLimitSlots`` is outside the 30 cards and the
    2-copy limit."""
    raw = _roland()
    assert raw["slots"]["01086"] == 2
    raw["slots"]["01086"] = 3
    problems = deck_problems(parse_deck(_text(raw)))
    assert "01086 Knife: 3 copies (limit 2 per title)" in problems
    assert any(p.startswith("deck has 31 cards") for p in problems)
    raw["ignoreDeckLimitSlots"] = {"01086": 1}
    assert deck_problems(parse_deck(_text(raw))) == []


def test_A972_8_xp_is_compared_with_the_experience_of_the_cards() -> None:
    """Two level-2 Beat Cops need 4 experience: a deck giving ``xp`` 3 gets a notice, one
    giving 4 does not; a bad ``xp`` is a problem."""
    raw = _roland()
    raw["slots"].pop("01018", None)
    raw["slots"]["01028"] = 2
    lines = check_deck(_text(dict(raw, xp=3)), "d")
    assert "notice: the cards' experience (4) is over the deck's xp (3)" in lines
    assert deck_notices(parse_deck(_text(dict(raw, xp=4)))) == []
    with pytest.raises(tcgcore.DeckError, match="field 'xp' must be a whole number"):
        parse_deck(_text(dict(raw, xp="lots")))


def test_A972_6_an_investigator_outside_the_pool_names_the_investigators() -> None:
    [line] = check_deck(_text(_roland(investigator_code="02001")), "d")
    assert line == f"unknown investigator code '02001' (the investigators are {investigator_list()})"
    assert investigator_list().startswith("01001 Roland Banks, 01002 Daisy Walker")
    [line] = check_deck(_text(_roland(investigator_code="01020")), "d")
    assert line.startswith("01020 Machete is not an investigator (the investigators are ")
    with pytest.raises(tcgcore.OptionsError, match=r"unknown card code '02001' \(the "
                                                  r"investigators are 01001 Roland Banks"):
        tcgcore.new_match("arkham_card", seed=0, players=1, investigators=["02001"])


def test_A972_6_problems_use_the_right_article() -> None:
    """"an investigator card", "an act card", "a story card" (never "a investigator")."""
    lines = check_deck(_text(_roland(slots={"01002": 1, "01108": 1, "01116": 1})), "d")
    assert "01002 Daisy Walker: an investigator card cannot be in a deck" in lines
    assert "01108 Trapped: an act card cannot be in a deck" in lines
    assert not any(" a investigator" in p or " a act" in p or " a enemy" in p for p in lines)


def test_A971_6_the_command_line_prints_notices_and_keeps_a_deck_legal(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "roland.json"
    path.write_text(_text(_roland(taboo_id=5)), encoding="utf-8")
    assert main(["deck", "check", "arkham_card", str(path)]) == 0
    out = capsys.readouterr().out
    assert "legal arkham_card deck" in out and "note: taboo_id given but not applied" in out
    assert main(["deck", "check", "arkham_card", str(path), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["legal"] is True and report["problems"] == []
    assert report["notices"] == ["taboo_id given but not applied by the engine (the deck is "
                                 "played as its slots list it)"]
