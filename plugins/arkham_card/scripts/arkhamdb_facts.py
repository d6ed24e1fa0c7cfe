"""Write the ArkhamDB facts snapshot that ``tests/test_arkham_card_data.py`` compares the
card data with: names, subnames, traits, quantities, deck limits, uniqueness and numbers of
each card (never its text).

Usage::

    python plugins/arkham_card/scripts/arkhamdb_facts.py CHECKOUT COMMIT > \
        plugins/arkham_card/tests/data/arkhamdb_core_facts.json

``CHECKOUT`` is a clone of ``Kamalisk/arkhamdb-json-data`` at ``COMMIT`` (the commit is
recorded in the snapshot for every file read). A field ArkhamDB leaves out (or sets to
``null``) is left out of the snapshot too; ``is_unique`` and ``health_per_investigator``
appear only when true.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

#: The pack files read, in order.
FILES = ("pack/core/core.json", "pack/core/core_encounter.json")
#: The facts kept per card (no text, flavour or illustrator).
FACTS = ("name", "subname", "traits", "quantity", "deck_limit", "is_unique", "cost", "xp",
         "skill_willpower", "skill_intellect", "skill_combat", "skill_agility", "skill_wild",
         "health", "sanity", "health_per_investigator", "enemy_fight", "enemy_evade",
         "enemy_damage", "enemy_horror", "shroud", "clues", "doom", "victory", "stage")
#: Codes that are not cards of the game (a placeholder) or that the plugin keeps as
#: scenario files, not cards (the scenario reference cards).
NOT_CARDS = {"01000": "placeholder for a random basic weakness"}


def facts(card: dict[str, Any]) -> dict[str, Any]:
    """The snapshot entry of one ArkhamDB card object."""
    out: dict[str, Any] = {}
    for key in FACTS:
        value = card.get(key)
        if value is None or value == "" or (value is False and key in (
                "is_unique", "health_per_investigator")):
            continue
        out[key] = value
    return dict(sorted(out.items()))


def snapshot(checkout: Path, commit: str) -> dict[str, Any]:
    """The snapshot of the pack files under ``checkout`` (at ``commit``)."""
    cards: dict[str, Any] = {}
    not_cards = dict(NOT_CARDS)
    for name in FILES:
        for card in json.loads((checkout / name).read_text(encoding="utf-8")):
            code = card["code"]
            if card.get("type_code") == "scenario":
                not_cards[code] = "scenario reference card"
            elif code not in NOT_CARDS:
                cards[code] = facts(card)
    return {"source": {"repository": "Kamalisk/arkhamdb-json-data",
                       "files": {name: commit for name in FILES}, "not_cards": not_cards},
            "cards": cards}


def main(argv: list[str]) -> int:
    """Print the snapshot as JSON (``argv``: checkout path and commit)."""
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    data = snapshot(Path(argv[0]), argv[1])
    print(json.dumps(data, ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
