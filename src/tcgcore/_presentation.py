"""What front ends show of a card: the card catalogue a game gives through its presentation hook.

A game sets ``GameSpec.card_info`` to ``card_info(code, lang) -> CardInfo | None``: the card's
name, type, cost, numbers and text in the language asked for (``"en"``, ``"zh_Hans"``,
``"zh_Hant"``; a game without that language answers in its own). A game without the hook still
gets a catalogue built from its ``card_name`` and ``card_text`` hooks. The catalogue answers only
for card codes (facts printed on the cards, the same for every seat), never for instances, so it
cannot tell anyone where a hidden card is.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

import msgspec

__all__ = ["LANGUAGES", "CardInfo", "card_catalogue", "card_info"]

#: The interface languages of the front ends: English, Simplified and Traditional Chinese.
LANGUAGES = ("en", "zh_Hans", "zh_Hant")


class CardInfo(msgspec.Struct, kw_only=True, omit_defaults=True):
    """One card code as people read it.

    Attributes:
        code: the card code.
        name: the card's printed name in the language asked for.
        type: its card type in words ("beyonder", "asset", ...), empty when the game has none.
        cost: its cost as printed ("3", "X"), or ``None`` for a card without one.
        stats: printed numbers by name ("strength": "2000", "health": "3", ...), in the order
            the game lists them.
        icons: skill or commit icons, one word each, repeated as printed.
        text: the card's text for people (several lines).
        lang: the language the name and text are in.
    """

    code: str
    name: str
    type: str = ""
    cost: str | None = None
    stats: dict[str, str] = {}
    icons: list[str] = []
    text: str = ""
    lang: str = "en"



class CardHooks(Protocol):
    """The presentation hooks of a game that the catalogue reads: a
    :class:`tcgcore.GameSpec` has them (this module does not import it, so that the spec
    can name :class:`CardInfo`)."""

    card_info: Callable[[str, str], CardInfo | None] | None
    card_name: Callable[[str], str] | None
    card_text: Callable[[str], str | None] | None


def card_info(spec: CardHooks, code: str, lang: str = "en") -> CardInfo | None:
    """The catalogue entry of ``code`` in game ``spec``, a :class:`tcgcore.GameSpec`
    (``None``: not a card of the game).

    Uses the game's ``card_info`` hook, else its ``card_name`` and ``card_text`` hooks (a code
    neither hook knows is ``None``).
    """
    if spec.card_info is not None:
        return spec.card_info(code, lang)
    text = spec.card_text(code) if spec.card_text is not None else None
    name = spec.card_name(code) if spec.card_name is not None else code
    if text is None and name == code:
        return None
    return CardInfo(code=code, name=name, text=text or "")


def card_catalogue(spec: CardHooks, codes: list[str], lang: str = "en") -> dict[str, CardInfo]:
    """``card_info`` for each known code of ``codes`` (unknown ones are left out)."""
    out: dict[str, CardInfo] = {}
    for code in codes:
        info = card_info(spec, code, lang)
        if info is not None:
            out[code] = info
    return out

