"""The web table's interface words in English, Simplified and Traditional Chinese.

The words are gettext messages: the pages' scripts call ``_("...")``, ``pybabel extract``
collects them into ``locale/tcgcore_web.pot`` and each language has its catalogue source
``locale/<lang>/LC_MESSAGES/tcgcore_web.po``. The server reads the ``.po`` files with Babel
when it starts (no compiled ``.mo`` files, so there is no build step) and hands a page the
catalogue of its language as a JSON object; a message a catalogue lacks stays English.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from .._presentation import LANGUAGES

__all__ = ["DOMAIN", "LOCALE_DIR", "catalogue", "pick_language"]

DOMAIN = "tcgcore_web"
LOCALE_DIR = Path(__file__).parent / "locale"

#: The names of the languages, each in itself, for the language switch.
LANGUAGE_NAMES = {"en": "English", "zh_Hans": "简体中文", "zh_Hant": "繁體中文"}


@cache
def catalogue(lang: str) -> dict[str, str]:
    """``{English message: translation}`` of ``lang`` (empty for English or an unknown one)."""
    from babel.messages.pofile import read_po

    path = LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
    if lang == "en" or lang not in LANGUAGES or not path.is_file():
        return {}
    with path.open("rb") as fh:
        cat = read_po(fh, locale=lang)
    out: dict[str, str] = {}
    for message in cat:
        if message.id and isinstance(message.id, str) and isinstance(message.string, str) \
                and message.string and not message.fuzzy:
            out[message.id] = message.string
    return out


def pick_language(asked: str | None, accept: str | None, default: str | None = None) -> str:
    """The interface language: ``asked`` when it is one of :data:`LANGUAGES`, else the
    server's ``default`` (``--lang``) when it has one, else the first match of an
    ``Accept-Language`` header (``zh-TW``, ``zh-HK``, ``zh-Hant``: Traditional; other ``zh``:
    Simplified), else English."""
    if asked in LANGUAGES:
        return asked
    if default in LANGUAGES:
        return default
    for part in (accept or "").split(","):
        tag = part.split(";")[0].strip().lower()
        if tag.startswith("zh"):
            return "zh_Hant" if any(x in tag for x in ("tw", "hk", "mo", "hant")) else "zh_Hans"
        if tag.startswith("en"):
            return "en"
    return "en"
