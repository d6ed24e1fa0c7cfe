"""The core card data against ArkhamDB's published facts (A912.4; A201.1, A108.1, A201.3).

``data/arkhamdb_core_facts.json`` is a snapshot of the facts of every card in ArkhamDB's
``pack/core/core.json`` and ``pack/core/core_encounter.json`` (repository
``Kamalisk/arkhamdb-json-data``, at the commits it names): names, subnames, traits,
quantities, deck limits, uniqueness and printed numbers, never card text.
``scripts/arkhamdb_facts.py`` writes it from a checkout of that repository. Every shared
fact must match, so a card added or edited later cannot drift from the printed card.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from tcgcore_arkham_card import card_pool

SNAPSHOT = Path(__file__).resolve().parent / "data" / "arkhamdb_core_facts.json"

#: ArkhamDB code -> the plugin's code for the same card.
ALIASES = {"01121a": "01121"}
#: Plugin codes for card sides that ArkhamDB files under another card: the act side of
#: the last agenda of The Devourer Below and the unrevealed side of Arkham Woods.
PLUGIN_ONLY = {"01145b": "act side of 01145", "01150u": "unrevealed side of the Woods"}
#: Facts in which the plugin follows the printed card where ArkhamDB's data differs.
KNOWN_DIFFERENCES: dict[tuple[str, str], str] = {
    ("01121", "name"): "the printed title ends with a question mark",
    ("01141", "victory"): "Ruth Turner prints Victory 1; ArkhamDB's data leaves it out",
}
#: Facts whose absence in ArkhamDB means 0 in the plugin's data (ints, not optional).
ZERO_WHEN_ABSENT = ("skill_willpower", "skill_intellect", "skill_combat", "skill_agility",
                    "skill_wild", "enemy_damage", "enemy_horror")
#: Facts whose absence means "none" (``None``) in the plugin's data.
NONE_WHEN_ABSENT = ("cost", "xp", "health", "sanity", "enemy_fight", "enemy_evade", "shroud",
                    "clues", "doom", "victory", "stage")


def _snapshot() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(SNAPSHOT.read_text(encoding="utf-8"))
    return data


def _expected(facts: dict[str, Any], field: str) -> Any:
    if field in facts:
        return facts[field]
    if field in ("subname", "traits"):
        return ""
    if field in ("is_unique", "health_per_investigator"):
        return False
    if field in ZERO_WHEN_ABSENT:
        return 0
    return None


FIELDS = ("name", "subname", "traits", "quantity", "is_unique", "health_per_investigator",
          *ZERO_WHEN_ABSENT, *NONE_WHEN_ABSENT)


def test_snapshot_names_its_source() -> None:
    """The snapshot says where its facts come from: the repository and, per file, the
    commit that was read."""
    source = _snapshot()["source"]
    assert source["repository"] == "Kamalisk/arkhamdb-json-data"
    assert set(source["files"]) == {"pack/core/core.json", "pack/core/core_encounter.json"}
    assert all(len(c) == 40 for c in source["files"].values())
    assert not any("text" in facts for facts in _snapshot()["cards"].values())  # facts only


def test_every_arkhamdb_core_card_is_in_the_pool_and_nothing_else() -> None:
    """All 103 player cards and 77 encounter cards of the core set are in the pool; every
    other core code of the pool is a card side listed in PLUGIN_ONLY."""
    pool = card_pool()
    cards = _snapshot()["cards"]
    assert len(cards) == 180
    missing = [c for c in cards if ALIASES.get(c, c) not in pool]
    assert not missing
    ours = {c for c in pool if c[:2] == "01" and c[2:5].isdigit() and int(c[2:5]) <= 182}
    extra = ours - {ALIASES.get(c, c) for c in cards} - set(PLUGIN_ONLY)
    assert not extra


@pytest.mark.parametrize("code", sorted(json.loads(SNAPSHOT.read_text(encoding="utf-8"))
                                        ["cards"]))
def test_card_facts_match_arkhamdb(code: str) -> None:
    """Each shared fact of the card equals ArkhamDB's (deck limits where ArkhamDB gives
    one: player cards and Lita Chantler)."""
    facts = _snapshot()["cards"][code]
    ours = ALIASES.get(code, code)
    d = card_pool()[ours]
    wrong = []
    for field in FIELDS:
        if (ours, field) in KNOWN_DIFFERENCES:
            continue
        want = _expected(facts, field)
        got = getattr(d, field)
        if got != want:
            wrong.append(f"{field}: ours {got!r}, ArkhamDB {want!r}")
    if "deck_limit" in facts and d.deck_limit != facts["deck_limit"]:
        wrong.append(f"deck_limit: ours {d.deck_limit}, ArkhamDB {facts['deck_limit']}")
    assert not wrong, f"{code} {d.name}: " + "; ".join(wrong)


def test_known_differences_are_still_differences() -> None:
    """A listed difference that no longer differs is taken off the list."""
    cards = _snapshot()["cards"]
    back = {v: k for k, v in ALIASES.items()}
    for (code, field), _reason in KNOWN_DIFFERENCES.items():
        facts = cards[back.get(code, code)]
        assert getattr(card_pool()[code], field) != _expected(facts, field), (code, field)
