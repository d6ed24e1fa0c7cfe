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
from typing import Any, Protocol

import msgspec

__all__ = ["LANGUAGES", "Block", "CardInfo", "CardsBlock", "Cell", "MapBlock", "MapNode", "Slot",
           "TableBlock", "TableRow", "TextBlock", "card_catalogue", "card_info", "table_layout"]

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



# ---------------------------------------------------------------- the table layout hook
#
# A game sets ``GameSpec.table_layout`` to ``table_layout(view) -> [block, ...]``: the facts of
# its table arranged in a few generic kinds of block that every front end draws the same way
# (the web table draws them as HTML and SVG). Words in blocks (titles, labels, messages, marks)
# are English interface words: a front end translates them through its catalogues, so a layout
# does not depend on the viewer's language; cards are named by code (a front end shows the
# card's name from the card catalogue, in its language) and by the viewer's alias.


class Cell(msgspec.Struct, kw_only=True, omit_defaults=True):
    """One value of a block, drawn as ``label`` then the value.

    Attributes:
        label: an interface word before the value ("strength"), translated by the front end;
            empty for none.
        value: a number or text shown as it is ("2300", "3/5").
        word: a value that is an interface word ("main phase"), translated.
        code: a card code: shown as the card's name (the catalogue's, in the front end's
            language).
        card: the viewer's alias of that card (the id its view and options use).
        seat: a seat, shown as the front end names seats.
        mark: a state word ("exhausted", "unrevealed"), translated, also a style hint.
    """

    label: str = ""
    value: str | int | None = None
    word: str = ""
    code: str | None = None
    card: int | None = None
    seat: int | None = None
    mark: str = ""


class TextBlock(msgspec.Struct, kw_only=True, omit_defaults=True, tag="text", tag_field="kind"):
    """A line: ``text`` (an interface message whose ``{name}`` parts are filled from
    ``args``), then ``cells`` one after another."""

    title: str = ""
    owner: int | None = None
    text: str = ""
    args: dict[str, Cell] = {}
    cells: list[Cell] = []


class TableRow(msgspec.Struct, kw_only=True, omit_defaults=True):
    """A row of a :class:`TableBlock`: its heading word and one cell per column."""

    label: str
    cells: list[Cell] = []


class TableBlock(msgspec.Struct, kw_only=True, omit_defaults=True, tag="table",
                 tag_field="kind"):
    """A table: one column per entry of ``columns`` (often one per seat), one row per fact."""

    title: str = ""
    owner: int | None = None
    columns: list[Cell] = []
    rows: list[TableRow] = []


class Slot(msgspec.Struct, kw_only=True, omit_defaults=True):
    """A place of a :class:`CardsBlock` and the card in it (``card`` and ``code`` ``None``:
    empty, or a card the viewer may not identify when ``face_down``).

    Attributes:
        card: the viewer's alias of the card.
        code: its code.
        zone: the zone id the place is in, as the viewer's view names it.
        slot: its index in that zone (the ``slot`` of option targets), ``None`` for none.
        name: the place's name for people ("F1").
        face_down: a card there that the viewer sees only as its back.
        facts: current numbers and states of the card (``Cell(label="strength",
            value=2300)``).
        marks: state words ("tapped", "mad"), translated.
    """

    card: int | None = None
    code: str | None = None
    zone: str = ""
    slot: int | None = None
    name: str = ""
    face_down: bool = False
    facts: list[Cell] = []
    marks: list[str] = []


class CardsBlock(msgspec.Struct, kw_only=True, omit_defaults=True, tag="cards",
                 tag_field="kind"):
    """A row of card places (a front row, a threat area, an act and agenda)."""

    title: str = ""
    owner: int | None = None
    slots: list[Slot] = []


class MapNode(msgspec.Struct, kw_only=True, omit_defaults=True):
    """A place of a :class:`MapBlock` (an Arkham location): ``id`` is the node's id in
    ``edges`` (the viewer's alias of the card, when it is a card), ``code`` its card,
    ``facts`` its numbers, ``cards`` what is there (enemies), ``seats`` who is there."""

    id: int
    code: str | None = None
    facts: list[Cell] = []
    cards: list[Slot] = []
    seats: list[int] = []
    marks: list[str] = []


class MapBlock(msgspec.Struct, kw_only=True, omit_defaults=True, tag="map", tag_field="kind"):
    """Places and the connections between them (``edges``: pairs of node ids, each drawn
    once as a line whichever way it is listed)."""

    title: str = ""
    owner: int | None = None
    nodes: list[MapNode] = []
    edges: list[tuple[int, int]] = []


#: A block of a table layout. Every kind has a ``title`` (an interface word, translated) and
#: an ``owner`` (the seat whose area it is, or ``None``: shared); front ends group blocks
#: by owner, the viewer's own last.
Block = TextBlock | TableBlock | CardsBlock | MapBlock


class LayoutHooks(Protocol):
    """The layout hook of a game (a :class:`tcgcore.GameSpec` has it)."""

    table_layout: Callable[[Any], list[Block] | None] | None


def table_layout(spec: LayoutHooks, view: Any) -> list[Any] | None:
    """The game's layout of ``view`` (a :class:`tcgcore.View`) as JSON-ready builtins (each
    block a dict with its ``kind``), or ``None`` for a game without the ``table_layout`` hook
    (or one that answers ``None`` for this view): the front end then draws its generic
    table from the view alone. The hook reads only the view, so the layout holds only what
    that seat (or spectator) may know."""
    if spec.table_layout is None:
        return None
    blocks = spec.table_layout(view)
    if blocks is None:
        return None
    return [msgspec.to_builtins(b) for b in blocks]
