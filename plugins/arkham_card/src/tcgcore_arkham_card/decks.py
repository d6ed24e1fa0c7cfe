"""ArkhamDB deck lists: import, deck-building checks and the shipped starter decks.

A deck is the JSON ArkhamDB exports for a deck or a published decklist
(``/api/public/deck/<id>.json``, ``/api/public/decklist/<id>.json``):
``investigator_code``, ``slots`` (``{code: quantity}``, signature cards, weaknesses and
``"01000"`` — a random basic weakness — included) and optionally ``sideSlots``;
``sideSlots`` may be an object or an (empty) list, as PHP serialises it.
``ignoreDeckLimitSlots`` (copies that count toward neither the deck size nor the copy limit)
and ``xp`` (compared with the experience of the deck's cards) are read. Every other field
ArkhamDB writes (``id``, ``name``, ``tags`` …) is accepted; the ones that would change the
game if the engine applied them (``taboo_id``, ``meta``, a side deck) are named in a notice
(:func:`deck_notices`, A971.6).

:func:`deck_problems` applies the deck-building rules (A201.2, A201.3): deck size without
signature cards and weaknesses, class/level options, 2 copies per title (1 for
exceptional), the investigator's required signature cards and a basic weakness. Every
problem is reported at once, each naming the card code and name.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

import msgspec

import tcgcore

from .cards import CardDef, card_pool

__all__ = [
    "RANDOM_WEAKNESS",
    "STARTERS",
    "DeckList",
    "check_deck",
    "deck_codes",
    "deck_notices",
    "deck_problems",
    "investigator_list",
    "load_deck",
    "option_allows",
    "parse_deck",
    "starter_codes",
    "starter_deck",
]

#: ArkhamDB's placeholder code for "a random basic weakness".
RANDOM_WEAKNESS = "01000"

#: Starter deck names (files ``data/decks/<name>.json``) by investigator code.
STARTERS: dict[str, str] = {"01001": "roland", "01002": "daisy", "01003": "skids",
                            "01004": "agnes", "01005": "wendy"}


class DeckList(msgspec.Struct, kw_only=True):
    """An imported deck: the investigator, the main deck's slots (code -> quantity), the
    side deck's and the deck's name."""

    investigator: str
    slots: dict[str, int]
    side: dict[str, int] = {}
    name: str = ""
    #: ``ignoreDeckLimitSlots``: copies outside the deck size and the copy limit (A972.7)
    ignore_limit: dict[str, int] = {}
    #: ``xp``: the deck's experience, compared with its cards' levels (A972.8)
    xp: int | None = None
    #: fields present that the engine does not apply (``taboo_id``, ``meta``)
    unused: tuple[str, ...] = ()


def _bad(source: str, problem: str) -> tcgcore.DeckError:
    return tcgcore.DeckError(f"arkham_card: {source}", [problem])


def _slot_map(value: Any, field: str, source: str) -> dict[str, int]:
    if value is None or value == []:
        return {}
    if not isinstance(value, dict):
        raise _bad(source, f"field '{field}' must be an object of card code -> quantity")
    out: dict[str, int] = {}
    for code, qty in value.items():
        if isinstance(qty, bool) or not isinstance(qty, int) or qty < 0:
            raise _bad(source, f"field '{field}': card {code}: quantity must be a whole number "
                               f"(0 or more), got {qty!r:.40}")
        if qty:
            out[str(code)] = qty
    return out


def parse_deck(text: str, source: str = "deck") -> DeckList:
    """Read an ArkhamDB deck JSON text.

    Raises:
        tcgcore.DeckError: not JSON, not an object, no ``investigator_code`` or bad slots.
    """
    try:
        raw = json.loads(text)
    except ValueError as exc:
        raise _bad(source, f"not valid JSON: {exc}") from None
    if not isinstance(raw, dict):
        raise _bad(source, "an ArkhamDB deck is a JSON object")
    inv = raw.get("investigator_code")
    if not isinstance(inv, str) or not inv:
        raise _bad(source, "field 'investigator_code' is missing")
    if "slots" not in raw:
        raise _bad(source, "field 'slots' is missing")
    meta = raw.get("meta")
    if isinstance(meta, str) and meta.strip():
        try:
            json.loads(meta)  # ArkhamDB stores meta as a JSON string; tolerate bad ones
        except ValueError:
            pass
    name = raw.get("name")
    xp = raw.get("xp")
    if xp is not None and (isinstance(xp, bool) or not isinstance(xp, int) or xp < 0):
        raise _bad(source, "field 'xp' must be a whole number 0 or more")
    unused = tuple(k for k in _UNUSED_FIELDS if raw.get(k) not in (None, "", "{}", {}, [], 0))
    return DeckList(investigator=inv, slots=_slot_map(raw["slots"], "slots", source),
                    side=_slot_map(raw.get("sideSlots"), "sideSlots", source),
                    name=name if isinstance(name, str) else "",
                    ignore_limit=_slot_map(raw.get("ignoreDeckLimitSlots"),
                                           "ignoreDeckLimitSlots", source),
                    xp=xp, unused=unused)


#: ArkhamDB deck fields that change the game but that the engine does not apply (A971.6):
#: a taboo list and ``meta`` (a JSON string of deck-building choices such as an alternate
#: investigator front or back).
_UNUSED_FIELDS: tuple[str, ...] = ("taboo_id", "meta")


def starter_deck(name_or_code: str) -> DeckList:
    """A shipped starter deck by short name (``roland``), investigator name or code.

    Raises:
        KeyError: no such starter deck.
    """
    key = _STARTER_KEYS.get(name_or_code)
    if key is None:
        key = _starter_key(name_or_code)
        if len(_STARTER_KEYS) < 256:  # spellings seen so far; bounded whatever callers send
            _STARTER_KEYS[name_or_code] = key
    deck = _STARTER_DECKS.get(key)
    if deck is None:
        path = resources.files("tcgcore_arkham_card") / "data" / "decks" / f"{key}.json"
        deck = _STARTER_DECKS[key] = parse_deck(path.read_text(encoding="utf-8"),
                                                source=f"{key}.json")
    return DeckList(investigator=deck.investigator, slots=dict(deck.slots),
                    side=dict(deck.side), name=deck.name, ignore_limit=dict(deck.ignore_limit),
                    xp=deck.xp, unused=deck.unused)  # the caller's own copy


#: The shipped starter decks by short name, read and parsed once per process (the files do
#: not change); :func:`starter_deck` hands out copies.
_STARTER_DECKS: dict[str, DeckList] = {}
#: :func:`_starter_key` of the names asked for so far (starters and pool never change).
_STARTER_KEYS: dict[str, str] = {}


def _starter_key(name_or_code: str) -> str:
    """The starter deck's short name (``roland``) for a short name, investigator name or
    code.

    Raises:
        KeyError: no such starter deck.
    """
    key = name_or_code.strip().lower()
    if key in STARTERS:
        key = STARTERS[key]
    for code, short in STARTERS.items():
        d = card_pool()[code]
        if key in (short, d.name.lower(), d.name.lower().split()[0].strip('"')):
            key = short
    if key not in STARTERS.values():
        raise KeyError(name_or_code)
    return key


def load_deck(value: str, source: str = "deck") -> DeckList:
    """A deck option value: a starter deck name (``roland``, ``Daisy Walker``, ``01003``)
    or the text of an ArkhamDB deck JSON file.

    Raises:
        tcgcore.DeckError: unknown name or unreadable JSON; the text of a file that is no
            deck JSON (a TOML deck list, several lines) is described, never quoted.
    """
    stripped = value.strip()
    if stripped.startswith("{") or _json_list(stripped):
        return parse_deck(value, source)
    try:
        return starter_deck(value)
    except KeyError:
        if "\n" in stripped or "=" in stripped or stripped.startswith("["):
            raise _bad(source, _not_a_deck(stripped)) from None
        known = ", ".join(STARTERS.values())
        shown = value if len(value) <= 60 else value[:57] + "..."
        raise _bad(source, f"{shown!r} is neither a starter deck ({known}) nor deck JSON") \
            from None


def _level(d: CardDef) -> int:
    return d.xp or 0


def option_allows(inv: CardDef, d: CardDef) -> bool:
    """Whether the investigator's ``deck_options`` (``"faction"`` or
    ``"faction:min-max"``) admit card ``d`` by class and level; no options admit all."""
    if not inv.deck_options:
        return True
    for opt in inv.deck_options:
        faction, _, levels = opt.partition(":")
        if faction != d.faction_code:
            continue
        if not levels:
            return True
        lo, _, hi = levels.partition("-")
        if int(lo) <= _level(d) <= int(hi or lo):
            return True
    return False


def _label(code: str, d: CardDef | None) -> str:
    return f"{code} {d.name}" if d is not None else code


def investigator_list() -> str:
    """``"01001 Roland Banks, 01002 Daisy Walker, …"``: every investigator card of the pool
    (the test investigators ``t_inv_…`` last), for messages about an unknown investigator."""
    codes = sorted((c for c, d in card_pool().items() if d.type_code == "investigator"),
                   key=lambda c: (c.startswith("t"), c))
    return ", ".join(_label(c, card_pool()[c]) for c in codes)


def indefinite(noun: str) -> str:
    """``"an investigator"``, ``"a treachery"``: the noun with its indefinite article."""
    return f"{'an' if noun[:1].lower() in 'aeiou' else 'a'} {noun}"


def deck_problems(deck: DeckList) -> list[str]:
    """Every deck-building problem of ``deck`` (empty when legal); each line names the
    card code and name. Copies listed in ``ignore_limit`` count toward neither the deck
    size nor the copy limit (A972.7)."""
    pool = card_pool()
    problems: list[str] = []
    inv = pool.get(deck.investigator)
    if inv is None:
        return [f"unknown investigator code {deck.investigator!r} (the investigators are "
                f"{investigator_list()})"]
    if inv.type_code != "investigator":
        return [f"{_label(inv.code, inv)} is not an investigator (the investigators are "
                f"{investigator_list()})"]
    size = 0
    weaknesses = 0
    titles: dict[str, list[str]] = {}
    for code, qty in deck.slots.items():
        if code == RANDOM_WEAKNESS:
            weaknesses += qty
            continue
        d = pool.get(code)
        if d is None:
            problems.append(f"unknown card code {code!r}")
            continue
        if d.type_code not in ("asset", "event", "skill", "treachery", "enemy"):
            problems.append(f"{_label(code, d)}: {indefinite(d.type_code)} card cannot be "
                            "in a deck")
            continue
        if d.restrictions:
            who = d.restrictions.partition(":")[2]
            if who != inv.code:
                owner = pool.get(who)
                problems.append(f"{_label(code, d)}: only {owner.name if owner else who} "
                                "may include it")
            elif qty > max(1, d.deck_limit if code in inv.deck_requirements else 1):
                problems.append(f"{_label(code, d)}: {qty} copies of a signature card "
                                f"(the investigator brings exactly 1)")
            continue  # signature cards: outside class rules and deck size
        if d.is_weakness():
            if d.subtype_code == "basicweakness":
                weaknesses += qty
            continue
        if d.encounter_code:
            problems.append(f"{_label(code, d)}: a story card cannot be in a deck")
            continue
        size += qty - min(qty, deck.ignore_limit.get(code, 0))
        titles.setdefault(d.title, []).append(code)
        if not option_allows(inv, d):
            problems.append(f"{_label(code, d)}: {d.faction_code} level {_level(d)} is not "
                            f"allowed for {inv.name}")
    for title, codes in titles.items():
        count = sum(deck.slots[c] - min(deck.slots[c], deck.ignore_limit.get(c, 0))
                    for c in codes)
        limit = min(1 if pool[c].exceptional else pool[c].deck_limit for c in codes)
        if count > limit:
            problems.append(f"{', '.join(codes)} {title}: {count} copies (limit {limit} per "
                            "title)")
    if size != inv.deck_size:
        problems.append(f"deck has {size} cards, {inv.name} needs {inv.deck_size} (signature "
                        "cards and weaknesses not counted)")
    for req in inv.deck_requirements:
        if deck.slots.get(req, 0) < 1:
            problems.append(f"{_label(req, pool.get(req))}: required card of {inv.name} is "
                            "missing")
    if weaknesses > 1 and deck.slots.get(RANDOM_WEAKNESS, 0) > 1:
        problems.append(f"{RANDOM_WEAKNESS} random basic weakness: {deck.slots[RANDOM_WEAKNESS]} "
                        "copies (a deck takes 1)")
    if inv.deck_requirements and weaknesses < 1:
        problems.append(f"{RANDOM_WEAKNESS} random basic weakness: the deck needs a basic "
                        "weakness")
    return problems


def deck_notices(deck: DeckList) -> list[str]:
    """What the deck check tells without making the deck illegal (A971.6, A972.8), each line
    starting ``notice: ``: the fields present that the engine does not apply, the side deck
    that is not played, and cards whose experience is over the deck's ``xp``."""
    out: list[str] = []
    if deck.unused:
        out.append(f"notice: {', '.join(deck.unused)} given but not applied by the engine "
                   "(the deck is played as its slots list it)")
    if deck.side:
        out.append(f"notice: the side deck ({sum(deck.side.values())} cards) is not played")
    if deck.xp is not None:
        pool = card_pool()
        spent = sum(_level(pool[c]) * q for c, q in deck.slots.items() if c in pool)
        if spent > deck.xp:
            out.append(f"notice: the cards' experience ({spent}) is over the deck's xp "
                       f"({deck.xp})")
    return out


def check_deck(text: str, source: str) -> list[str]:
    """``spec.check_deck``: the problems of an ArkhamDB deck JSON text (or a starter name),
    then its notices (lines starting ``notice: ``, which do not make it illegal).

    Text that is not JSON (TOML, plain text that names no starter deck) or is JSON ``null``,
    a number or a string gives the single problem ``not a JSON deck list (...)``; a JSON
    list gives ``an ArkhamDB deck is a JSON object``."""
    stripped = text.strip()
    if not (stripped.startswith("{") or _json_list(stripped)):
        try:
            deck = starter_deck(stripped) if stripped and "\n" not in stripped else None
        except KeyError:
            deck = None
        if deck is None:
            return [_not_a_deck(stripped)]
    else:
        try:
            deck = parse_deck(text, source)
        except tcgcore.DeckError as exc:
            return list(exc.problems)
    return deck_problems(deck) + deck_notices(deck)


def _json_list(text: str) -> bool:
    if not text.startswith("["):
        return False
    try:
        return isinstance(json.loads(text), list)
    except ValueError:
        return False  # TOML's "[section]"


def _not_a_deck(text: str) -> str:
    """Why ``text`` (not starting with ``{``) is not an ArkhamDB deck."""
    try:
        raw = json.loads(text)
    except ValueError:
        if "=" not in text and not text.startswith("["):
            known = ", ".join(STARTERS.values())
            return f"not a JSON deck list nor a starter deck name ({known})"
        got = "looks like a TOML (Guimi) deck list"
    else:
        got = {type(None): "got null", str: "got a string",
               bool: "got true/false"}.get(type(raw), "got a number")
    return f"not a JSON deck list (expected an object with investigator_code and slots; {got})"


def deck_codes(deck: DeckList, rng: tcgcore.Rng | None = None) -> list[str]:
    """The deck's cards, one code per copy (``slots`` only; the side deck is not played).
    ``01000`` becomes a random core basic weakness drawn with ``rng`` (the match's seeded
    generator); without ``rng`` it is dropped."""
    return _plan_codes(_deck_plan(deck.slots), rng)


#: How :func:`deck_codes` lays out a deck: the codes (one per copy, in code order) before
#: the random basic weaknesses, how many of those, and the codes after them.
_Plan = tuple[tuple[str, ...], int, tuple[str, ...]]


def _deck_plan(slots: dict[str, int]) -> _Plan:
    """The :data:`_Plan` of a deck's ``slots`` (code -> quantity), in code order."""
    before: list[str] = []
    after: list[str] = []
    weaknesses = 0
    out = before
    for code, qty in sorted(slots.items()):
        if code == RANDOM_WEAKNESS:
            weaknesses = qty
            out = after
            continue
        out += [code] * qty
    return tuple(before), weaknesses, tuple(after)


def _plan_codes(plan: _Plan, rng: tcgcore.Rng | None) -> list[str]:
    """A fresh list of a plan's codes: each random basic weakness drawn with ``rng`` in
    order (``rng.randbelow`` once per copy, as :func:`deck_codes` promises), none without
    ``rng``."""
    before, weaknesses, after = plan
    out = list(before)
    if weaknesses and rng is not None:
        pool = _basic_weakness_codes()
        size = len(pool)
        out += [pool[rng.randbelow(size)] for _ in range(weaknesses)]
    out += after
    return out


def starter_codes(name_or_code: str, rng: tcgcore.Rng | None = None) -> tuple[str, list[str]]:
    """The name and cards of a shipped starter deck (see :func:`starter_deck` for the names
    accepted): exactly ``(deck.name, deck_codes(deck, rng))`` for
    ``deck = starter_deck(name_or_code)``, with the same ``rng`` draws (A971.2, A971.3).
    The deck's layout is worked out once per process (the files never change); every call
    returns a new list.

    Raises:
        KeyError: no such starter deck.
    """
    cached = _STARTER_PLANS.get(name_or_code)
    if cached is None:
        deck = starter_deck(name_or_code)  # raises KeyError
        cached = (deck.name, _deck_plan(deck.slots))
        if len(_STARTER_PLANS) < 256:  # spellings seen so far; bounded whatever callers send
            _STARTER_PLANS[name_or_code] = cached
    return cached[0], _plan_codes(cached[1], rng)


#: :func:`starter_codes`' deck names and plans by the name or code asked for (immutable).
_STARTER_PLANS: dict[str, tuple[str, _Plan]] = {}


def basic_weaknesses() -> list[str]:
    """The core basic weaknesses, one entry per copy in the core set (random draws)."""
    return list(_basic_weakness_codes())


def _basic_weakness_codes() -> tuple[str, ...]:
    """:func:`basic_weaknesses` as the per-process tuple itself (not to be changed)."""
    global _BASIC_WEAKNESSES
    if _BASIC_WEAKNESSES is None:  # the card pool is fixed: list them once per process
        _BASIC_WEAKNESSES = tuple(code for code, d in sorted(card_pool().items())
                                  if d.subtype_code == "basicweakness"
                                  and not code.startswith("t") for _ in range(d.quantity))
    return _BASIC_WEAKNESSES


_BASIC_WEAKNESSES: tuple[str, ...] | None = None
