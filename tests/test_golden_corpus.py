"""The golden corpus (``tests/golden/``): seeded games of Sparks, Guimi Revival and Arkham
replay to the recorded state digests, decision by decision.

A failure means a change altered what some recorded game does (its state after setup, after
some decision, or at the end). If that change was intended, re-record the corpus with
``python tests/golden/record.py`` and review its diff (``docs/testing.md``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .golden.record import CONFIGS, GAMES, replay_file

FILES = sorted(GAMES.glob("*.json"))


def test_corpus_holds_every_configured_game_and_nothing_else() -> None:
    assert sorted(p.stem for p in FILES) == sorted(c.name for c in CONFIGS)


def test_corpus_covers_every_game_scenario_deck_and_agent() -> None:
    entries = [json.loads(p.read_text(encoding="utf-8")) for p in FILES]
    assert {e["game"] for e in entries} == {"sparks", "guimi_revival", "arkham_card"}
    guimi_decks = {d for e in entries if e["game"] == "guimi_revival"
                   for d in e["options"].get("decks", [])}
    assert guimi_decks == {"assassin", "hunter", "marauder", "sailor", "seer", "sleepless"}
    arkham = [e for e in entries if e["game"] == "arkham_card"]
    assert {e["options"].get("scenario") for e in arkham} >= {"01104", "01120", "01142"}
    assert {d for e in arkham for d in e["options"].get("decks", [])} == {
        "roland", "daisy", "skids", "agnes", "wendy"}
    assert {e["players"] for e in arkham} == {1, 2, 3, 4}
    for game in ("guimi_revival", "arkham_card"):
        assert {a for e in entries if e["game"] == game for a in e["agents"]} == {
            "heuristic", "random"}
    assert all(e["decisions"] and len(e["digests"]) >= 2 for e in entries)


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_golden_game_replays_to_the_recorded_digests(path: Path) -> None:
    assert replay_file(path) is None
