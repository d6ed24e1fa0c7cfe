"""Deck lists and deck validation (rules.md section 4).

A deck list is ``{"revival": code, "main": {code: count, ...}, "extra": [code, ...]}``
(``main`` may also be a list of codes, repeated for copies).
"""

from __future__ import annotations

import json
import tomllib
from collections import Counter
from functools import cache
from typing import Any, Final

import msgspec

import tcgcore

from .cards import DATA_DIR, CardPool
from .options import RulesOptions

#: cards in a main deck (041.1); also the most copies of one card a deck list may name, legal
#: or not (checked before the list is expanded, so a huge count cannot exhaust memory)
MAIN_DECK_SIZE: Final = 42

EXTRA_KINDS = ("god", "uniqueness", "source", "grade0_sealed_artifact", "blasphemy_slate",
               "blasphemy_card")


class DeckList(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A player's deck: the RB code, the main deck (code -> copies) and the extra deck codes."""

    revival: str
    main: dict[str, int] | list[str]
    extra: list[str] = []
    name: str = ""
    description: str = ""

    def main_codes(self) -> list[str]:
        """The main deck as a flat list of codes, in list order.

        Raises:
            tcgcore.DeckError: a count outside 0..42 (see :func:`count_problems`), before
                anything proportional to it is built.
        """
        if isinstance(self.main, list):
            return list(self.main)
        problems = count_problems(self)
        if problems:
            raise tcgcore.DeckError("deck: impossible card count", problems)
        return [code for code, n in self.main.items() for _ in range(n)]


def count_problems(deck: DeckList) -> list[str]:
    """The main-deck counts of ``deck`` that no deck can have: below 0 or above 42, the size
    of a main deck (041.1). Such a count is refused whether or not the deck is checked against
    the deck-building rules, and before the list is expanded."""
    if isinstance(deck.main, list):
        return []
    return [f"main deck card {code!r}: count {n} is impossible (a main deck holds "
            f"{MAIN_DECK_SIZE} cards, 041.1; a count is 0 to {MAIN_DECK_SIZE})"
            for code, n in deck.main.items() if not 0 <= n <= MAIN_DECK_SIZE]


def parse_deck(raw: Any, where: str = "deck") -> DeckList:
    """Convert a deck description.

    Raises:
        tcgcore.DeckError: wrong shape (one problem naming the field), or a main-deck count
            outside 0..42 (one problem per such card, naming it and the count).
    """
    try:
        deck = msgspec.convert(raw, DeckList)
    except msgspec.ValidationError as exc:
        msg, sep, at = str(exc).rpartition(" - at `$")
        text = f"{at.rstrip('`').lstrip('.')}: {msg[:1].lower()}{msg[1:]}" if sep else \
            f"{str(exc)[:1].lower()}{str(exc)[1:]}"
        raise tcgcore.DeckError(f"{where}: not a deck list",
                                [f"not a deck list: {text}"]) from None
    problems = count_problems(deck)
    if problems:
        raise tcgcore.DeckError(f"{where}: impossible card count", problems)
    return deck


def deck_problems(deck: DeckList, pool: CardPool,
                  opts: RulesOptions | None = None) -> list[str]:
    """Every deck-construction violation (041-043), each naming the card and the rule.

    A main-deck count outside 0..42 (:func:`count_problems`) is reported alone: the other
    checks need the expanded main deck, which is not built for such a count."""
    o = opts or RulesOptions()
    problems = count_problems(deck)
    if problems:
        return problems
    main = deck.main_codes()
    rb = pool.cards.get(deck.revival)
    if rb is None:
        problems.append(f"revival {deck.revival!r}: unknown card (041.3)")
    elif rb.card_type != "revival_beyonder":
        problems.append(f"revival {deck.revival!r}: not a Revival Beyonder card (041.3)")
    if len(main) != MAIN_DECK_SIZE:
        problems.append(f"main deck has {len(main)} cards, needs exactly {MAIN_DECK_SIZE} (041.1)")
    n_extra = len(deck.extra)
    if o.extra_deck_size == "exactly_7" and n_extra != 7:
        problems.append(f"extra deck has {n_extra} cards, needs exactly 7 (041.2)")
    elif n_extra > 7:
        problems.append(f"extra deck has {n_extra} cards, at most 7 allowed (041.2)")
    names: Counter[str] = Counter()
    potions_by: Counter[tuple[str, int]] = Counter()
    potions = 0
    off = 0
    rb_path = rb.pathway if rb is not None else None
    for code in main:
        c = pool.cards.get(code)
        if c is None:
            problems.append(f"main deck card {code!r}: unknown card")
            continue
        names[c.name_zh] += 1
        if c.card_type == "revival_beyonder" or c.extra_kind is not None:
            problems.append(f"main deck card {code!r}: {c.extra_kind or 'revival beyonder'} "
                            "cards cannot be in the main deck (042.1)")
        if c.sequence is not None and c.sequence < 2:
            problems.append(f"main deck card {code!r}: sequence {c.sequence} is above "
                            "sequence 2 (042.6)")
        if c.is_potion:
            potions += 1
            seq = c.sequence if c.sequence is not None else -1
            key = (c.pathway or "", seq) if o.potion_limit == "per_pathway_sequence" else ("", seq)
            potions_by[key] += 1
            if potions_by[key] == 2:
                problems.append(f"main deck card {code!r}: more than one potion of sequence "
                                f"{seq} (042.3)")
        if c.pathway is None:
            off += o.off_pathway_count == "pathless_counts"
        elif c.pathway != rb_path:
            off += 1
    for name, n in sorted(names.items()):
        if n > 3:
            problems.append(f"main deck card named {name!r}: {n} copies, at most 3 (042.2)")
    if potions > 7:
        problems.append(f"main deck has {potions} potion cards, at most 7 (042.4)")
    if rb_path is not None and off < 7:
        problems.append(f"main deck has {off} cards not of the RB's pathway {rb_path!r}, "
                        "needs at least 7 (042.5)")
    extra_names: Counter[str] = Counter()
    for code in deck.extra:
        c = pool.cards.get(code)
        if c is None:
            problems.append(f"extra deck card {code!r}: unknown card")
            continue
        if c.extra_kind not in EXTRA_KINDS:
            problems.append(f"extra deck card {code!r}: not an extra-deck kind (043.1)")
        extra_names[c.name_zh] += 1
        if extra_names[c.name_zh] == 2:
            problems.append(f"extra deck card {code!r}: more than 1 copy of {c.name_zh!r} "
                            "(043.2)")
    return problems


def validate_deck(deck: DeckList | dict[str, Any], pool: CardPool,
                  opts: RulesOptions | None = None, *, who: str = "deck") -> DeckList:
    """Check a deck list against rules 041-043 and return it parsed.

    Raises:
        tcgcore.DeckError: with ``problems`` listing every violation at once.
    """
    parsed = deck if isinstance(deck, DeckList) else parse_deck(deck, who)
    problems = deck_problems(parsed, pool, opts)
    if problems:
        raise tcgcore.DeckError(f"{who}: {len(problems)} deck-building problem(s)", problems)
    return parsed


#: the precon deck names, in display order (one per pathway of the starter set)
PRECONS: tuple[str, ...] = ("seer", "marauder", "hunter", "assassin", "sailor", "sleepless")


@cache
def default_decks() -> dict[str, DeckList]:
    """The preconstructed deck lists (``data/decks/NAME.toml``), by name.

    Read once per process; the lists are shared by every caller and by setup (through
    :func:`precon_cards`), so treat them as read-only: to build a variant, copy one
    (``copy.deepcopy``) and pass the copy as a deck."""
    out: dict[str, DeckList] = {}
    for name in PRECONS:
        path = DATA_DIR / "decks" / f"{name}.toml"
        out[name] = parse_deck_text(path.read_text(encoding="utf-8"), str(path))
    return out


#: a precon's cards in setup order: (RB code, main deck codes in list order, extra deck codes)
PreconCards = tuple[str, tuple[str, ...], tuple[str, ...]]


@cache
def precon_cards(name: str) -> PreconCards:
    """The cards of precon deck ``name`` as setup adds them (051.1): its RB code, its main
    deck as :meth:`DeckList.main_codes` lists it, and its extra deck, all immutable tuples
    (computed once per process from :func:`default_decks`, whose lists are read-only).

    Raises:
        KeyError: ``name`` is not a precon deck (see :data:`PRECONS`).
    """
    deck = default_decks()[name]
    return deck.revival, tuple(deck.main_codes()), tuple(deck.extra)


def parse_deck_text(text: str, source: str = "deck") -> DeckList:
    """Parse a deck file's text: TOML, or JSON when it starts with ``{``
    (format: ``docs/guimi_revival/decks.md``).

    Raises:
        tcgcore.DeckError: unreadable text or a wrong shape (the problem names the field;
            an ArkhamDB deck JSON is recognised and named as such).
    """
    stripped = text.strip()
    raw: Any = None
    try:
        if stripped.startswith("{"):
            raw = json.loads(text)
        else:
            raw = tomllib.loads(text)
    except (ValueError, tomllib.TOMLDecodeError) as exc:
        try:  # JSON that is not an object (null, a list, a number): say so
            raw = json.loads(text)
        except ValueError:
            fmt = "JSON" if stripped.startswith("{") else "TOML"
            raise tcgcore.DeckError(f"{source}: not a deck list",
                                    [f"{source}: not valid {fmt}: {exc}"]) from None
    if not isinstance(raw, dict) or not stripped:
        got = "an empty file" if not stripped else _KIND.get(type(raw), "a number")
        problem = (f"{source}: not a deck list (expected a TOML table or a JSON object with "
                   f"revival, main and extra; got {got})")
        raise tcgcore.DeckError(f"{source}: not a deck list", [problem])
    if "investigator_code" in raw or "slots" in raw:  # another game's deck file
        problem = (f"{source}: not a deck list (looks like an ArkhamDB deck "
                   "(investigator_code/slots), for arkham_card; a guimi_revival deck has "
                   "revival, main and extra)")
        raise tcgcore.DeckError(f"{source}: not a deck list", [problem])
    return parse_deck(raw, source)


_KIND: dict[type, str] = {type(None): "null", list: "a list", str: "a string",
                          bool: "true/false"}


def check_deck_text(text: str, source: str = "deck", opts: RulesOptions | None = None,
                    pool: CardPool | None = None) -> list[str]:
    """Every problem of a deck file (``tcgcore deck check``): syntax, shape and rules 041-043
    against the built-in pool. An empty list means the deck is legal."""
    try:
        deck = parse_deck_text(text, source)
    except tcgcore.DeckError as exc:
        return list(exc.problems) or [str(exc)]
    from .cards import get_pool

    return deck_problems(deck, pool or get_pool("builtin"), opts)
