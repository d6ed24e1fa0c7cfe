"""The card catalogue of Guimi Revival (``GameSpec.card_info``): names and text from the card
data, in Chinese (the designer's Simplified Chinese, for both Chinese interfaces: the data has
no Traditional text) or in English."""

from __future__ import annotations

import tcgcore

from .cards import get_pool

__all__ = ["card_info"]

_TYPE_ZH = {"revival_beyonder": "复苏非凡者", "beyonder": "非凡者", "item": "物品", "event": "事件"}


def card_info(code: str, lang: str, full_text: str = "") -> tcgcore.CardInfo | None:
    """A built-in card as people read it: name, type, rank, strength and agility, sequence and
    its text in ``lang`` (``zh_Hans``/``zh_Hant``: the Chinese data; otherwise English); the full
    rules text ``full_text`` (the plugin's ``card_text``) follows in English."""
    d = get_pool("builtin").cards.get(code)
    if d is None:
        return None
    zh = lang.startswith("zh")
    stats: dict[str, str] = {}
    if d.card_type in ("beyonder", "revival_beyonder"):
        stats["strength"] = str(d.strength)
        stats["agility"] = str(d.agility)
    if d.sequence is not None:
        stats["sequence"] = str(d.sequence)
    if d.rank is not None:
        stats["rank"] = str(d.rank)
    if d.grade is not None:
        stats["grade"] = str(d.grade)
    own = (d.text_zh or d.text_en) if zh else (d.text_en or d.text_zh)
    full = full_text
    return tcgcore.CardInfo(
        code=code, name=d.name_zh if zh else d.name_en,
        type=_TYPE_ZH.get(d.card_type, d.card_type) if zh else d.card_type.replace("_", " "),
        stats=stats, text="\n".join(t for t in (own, full) if t),
        lang="zh_Hans" if zh else "en")
