"""The card catalogue of Arkham Horror: The Card Game (``GameSpec.card_info``): cost, skill
icons, printed numbers (health and sanity, an enemy's fight, health, evade, damage and horror,
a location's shroud and clues, doom) and the card's text, in English (no source gives the
cards' Chinese names)."""

from __future__ import annotations

import tcgcore

from .cards import card_pool

__all__ = ["card_info"]

_ICONS = (("skill_willpower", "willpower"), ("skill_intellect", "intellect"),
          ("skill_combat", "combat"), ("skill_agility", "agility"), ("skill_wild", "wild"))


def card_info(code: str, lang: str, full_text: str = "") -> tcgcore.CardInfo | None:
    """A card of the pool as people read it (``None`` for an unknown code); ``full_text``:
    its whole text as the plugin writes it (``plugin.card_text``), shown as the text."""
    d = card_pool().get(code)
    if d is None:
        return None
    stats: dict[str, str] = {}
    numbers: tuple[tuple[str, int | None], ...] = (
        ("fight", d.enemy_fight), ("health", d.health), ("evade", d.enemy_evade),
        ("sanity", d.sanity), ("shroud", d.shroud), ("clues", d.clues), ("doom", d.doom),
        ("xp", d.xp))
    for label, value in numbers:
        if value is not None:
            stats[label] = str(value) + ("/investigator" if label == "health" and
                                         d.health_per_investigator else "")
    if d.type_code == "enemy":
        stats["damage"] = str(d.enemy_damage)
        stats["horror"] = str(d.enemy_horror)
    icons = [word for field, word in _ICONS for _ in range(getattr(d, field))]
    return tcgcore.CardInfo(
        code=code, name=d.name + (f": {d.subname}" if d.subname else ""), type=d.type_code,
        cost=None if d.cost is None else str(d.cost), stats=stats, icons=icons,
        text=full_text, lang="en")
