"""Card data model and loaders (rules.md section 2, pathways in section 10.2).

Card pools are TOML (``[[card]]`` tables) or JSON (``{"card": [...]}``) files. Every record is
converted with msgspec into a frozen :class:`CardDef` and then checked against rules 021.2-028.5;
any problem raises :class:`tcgcore.CardDataError` naming the file, the card id and the field.
"""

from __future__ import annotations

import json
import tomllib
from functools import cache
from pathlib import Path
from typing import Any, Literal

import msgspec

import tcgcore

DATA_DIR = Path(__file__).parent / "data"

Rank = Literal["low", "mid", "high", "angel"]
CardType = Literal["revival_beyonder", "beyonder", "item", "event"]
ExtraKind = Literal["god", "uniqueness", "source", "grade0_sealed_artifact", "blasphemy_slate",
                    "blasphemy_card"]
Timing = Literal["ignition", "on_play", "activation", "continuous", "revival_phase", "promotion_phase",
                 "end_phase", "start_of_battle", "status"]
EffectOp = Literal["draw", "heal", "strength", "weaken", "corrupt", "madden", "untap",
                   "destroy_item", "destroy_event", "revive", "spirit_to_hand", "recur",
                   "static_strength", "destroy_unit", "bounce", "tap_unit", "shield",
                   "search_potion", "search_beyonder", "set_extra", "converge", "to_spirit",
                   "source_trigger", "digest", "seek", "madden_unit"]

#: effect ops that need the controller to choose a card
TARGETED_OPS: frozenset[str] = frozenset({
    "strength", "weaken", "destroy_item", "destroy_event", "spirit_to_hand", "destroy_unit",
    "bounce", "tap_unit", "shield", "search_potion", "search_beyonder", "set_extra", "converge",
    "madden_unit"})
ConditionKind = Literal["always", "rb_sequence_at_most", "spirit_world_at_least",
                        "characteristics_at_least", "underworld_at_least", "units_at_least",
                        "status_at_least", "hand_at_least", "corruption_at_least",
                        "opponent_status_at_least"]

#: rank -> highest RB sequence number that allows playing it from hand (072.1)
RANK_GATE: dict[str, int] = {"low": 9, "mid": 6, "high": 4, "angel": 2}


class Effect(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One effect instruction. ``op`` names it; ``amount`` is a count or strength (multiple of 100).

    Ops: draw N; heal N (face-down status cards to the Underworld); strength N (own Beyonder,
    this battle phase); weaken N (opponent Beyonder, this battle phase); corrupt N (opponent RB);
    madden (opponent RB goes mad, 112.1e); madden_unit (one opponent's Beyonder card in a unit
    slot that is not mad goes mad, 112.1e, 112.7); untap (own units); destroy_item; destroy_event;
    revive (own dead RB returns, 114.1; N status cards go to the Underworld first);
    spirit_to_hand; recur (as 102.3); static_strength N (continuous: own characters);
    destroy_unit N (opponent Beyonder with strength <= N to the Underworld); bounce N (opponent
    Beyonder with strength <= N to its owner's hand); tap_unit (opponent's untapped Beyonder);
    shield (own Beyonder cannot be hit this battle phase, as 102.8); search_potion /
    search_beyonder (a card of the RB's pathway from the main deck to the hand, then shuffle);
    set_extra (an extra-deck card face down into the Spirit World, as 087.1); converge (a
    Beyonder or potion card of the RB's pathway with sequence number <= 3 from hand, unit zone or
    Underworld face up into the Spirit World, where it is a sequence-1 characteristic);
    to_spirit (this unit face up into the Spirit World, where it is a characteristic);
    source_trigger (the Source trigger of this card's ``source``, 102); digest (the top
    face-down characteristic of the RB's stack turns face up, as 104.1); seek (a Beyonder card of
    the RB's pathway one sequence higher than the RB, from the Underworld or the main deck face
    up into the Spirit World, where it is a characteristic; then shuffle).
    """

    op: EffectOp
    amount: int = 1


class Ability(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """An ability (027): its ``timing`` and the effects it carries out, in order.

    ``on_play`` happens when the card is played from hand (a unit) or activated (an event);
    ``activation`` only on extra-deck cards: when the face-down card is activated in the
    Spirit World (122.1), once; played later from hand it does not happen again (122.5).
    """

    timing: Timing
    effects: tuple[Effect, ...] = ()
    text_en: str = ""
    text_zh: str = ""


class Condition(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A test on the controller's situation (rituals, activation conditions; 027.4).

    ``value`` is compared inclusively (013.1): ``*_at_least`` means ``>= value``,
    ``*_at_most`` means ``<= value``.
    """

    kind: ConditionKind
    value: int = 0


class Ritual(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A ritual record (024.5): the pathway and target sequence it promotes to, and its condition
    (all listed conditions must hold; an empty list always holds)."""

    pathway: str
    sequence: int
    condition: tuple[Condition, ...] = ()


class Characteristic(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A characteristic ability (特性): strength/agility an RB gains while the card is digested."""

    strength: int = 0
    agility: int = 0
    text_en: str = ""
    text_zh: str = ""


class CardDef(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One card definition (021.2). Strength in points (multiples of 100); sequence 0..9.

    ``theme`` is display data only (the pathway or ``"neutral"`` a card is listed under in
    ``docs/guimi_revival/cards.md``); it has no rules meaning (events have no pathway, 025.1).
    """

    id: str
    name_zh: str
    name_en: str
    card_type: CardType
    text_zh: str = ""
    text_en: str = ""
    abilities: tuple[Ability, ...] = ()
    pathway: str | None = None
    sequence: int | None = None
    rank: Rank | None = None
    strength: int = 0
    agility: int = 0
    characteristic: Characteristic | None = None
    item_kind: Literal["potion", "sealed_artifact", "other"] | None = None
    grade: int | None = None
    ritual: Ritual | None = None
    event_kind: Literal["normal", "continuous", "quick"] | None = None
    extra_kind: ExtraKind | None = None
    activation_condition: tuple[Condition, ...] = ()
    after_activation: Literal["hand", "underworld", "remain"] | None = None
    apotheosis_ritual: Ritual | None = None
    source: str | None = None
    rituals: tuple[Ritual, ...] = ()
    theme: str | None = None

    @property
    def is_potion(self) -> bool:
        """A potion card (024.3)."""
        return self.item_kind == "potion"

    @property
    def is_beyonder(self) -> bool:
        """A Beyonder card (022)."""
        return self.card_type == "beyonder"


class SourceDef(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A Source (源质) from pathways.toml."""

    id: str
    name_en: str
    name_zh: str
    trigger_name_zh: str


class SeqName(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    en: str
    zh: str


class PathwayDef(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A pathway (途径) from pathways.toml; ``source`` gives adjacency (089.2)."""

    id: str
    name_en: str
    name_zh: str
    source: str
    sequences: dict[str, SeqName] = {}


class _PathwayFile(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    source: list[SourceDef]
    pathway: list[PathwayDef]


class Pathways:
    """The 22 pathways and 9 Sources.

    Attributes:
        pathways: pathway id -> definition.
        sources: source id -> definition.
    """

    def __init__(self, sources: list[SourceDef], pathways: list[PathwayDef]) -> None:
        self.sources = {s.id: s for s in sources}
        self.pathways = {p.id: p for p in pathways}

    def source_of(self, pathway: str) -> str:
        """The Source id of a pathway. Raises KeyError for an unknown pathway."""
        return self.pathways[pathway].source

    def adjacent(self, a: str, b: str) -> bool:
        """Whether two pathways are adjacent: different, same Source (089.2)."""
        return a != b and self.source_of(a) == self.source_of(b)


@cache
def load_pathways() -> Pathways:
    """Load ``data/pathways.toml`` (cached).

    Raises:
        tcgcore.CardDataError: the file does not validate.
    """
    path = DATA_DIR / "pathways.toml"
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
        data = msgspec.convert(raw, _PathwayFile)
    except (tomllib.TOMLDecodeError, msgspec.ValidationError) as exc:
        raise tcgcore.CardDataError(f"{path}: {exc}") from None
    return Pathways(data.source, data.pathway)


class CardPool:
    """A validated set of card definitions.

    Attributes:
        path: where it came from (for messages).
        cards: card id -> :class:`CardDef`.
        base: what the file builds on: ``"builtin"`` (its cards add to the built-in pool
            or replace the built-in card of the same id) or ``"none"`` (a pool of its own).
        own: the ids the file itself defines, in file order.
    """

    def __init__(self, path: str, cards: dict[str, CardDef], base: str = "none",
                 own: tuple[str, ...] | None = None) -> None:
        self.path = path
        self.cards = cards
        self.base = base
        self.own = tuple(cards) if own is None else own

    def __getitem__(self, code: str) -> CardDef:
        return self.cards[code]

    def __contains__(self, code: object) -> bool:
        return code in self.cards


def _err(path: str, card: str, field: str, msg: str) -> tcgcore.CardDataError:
    return tcgcore.CardDataError(f"{path}: card {card!r}: field {field!r}: {msg}")


def _check_ritual(path: str, cid: str, field: str, r: Ritual, pw: Pathways) -> None:
    if r.pathway not in pw.pathways:
        raise _err(path, cid, field, f"unknown pathway {r.pathway!r}")
    if not 0 <= r.sequence <= 9:
        raise _err(path, cid, field, f"sequence {r.sequence} is not 0..9")


def _validate(path: str, c: CardDef, pw: Pathways) -> None:
    cid = c.id
    if c.pathway is not None and c.pathway not in pw.pathways:
        raise _err(path, cid, "pathway", f"unknown pathway {c.pathway!r}")
    if c.sequence is not None and not 0 <= c.sequence <= 9:
        raise _err(path, cid, "sequence", f"{c.sequence} is not 0..9 (021.4)")
    if c.strength < 0 or c.strength % 100:
        raise _err(path, cid, "strength", f"{c.strength} is not a multiple of 100 >= 0 (021.6)")
    if c.agility < 0:
        raise _err(path, cid, "agility", f"{c.agility} is negative (021.6)")
    pathless_ok = (c.extra_kind in ("uniqueness", "blasphemy_card")
                   or c.card_type == "revival_beyonder")
    if (c.pathway is None) != (c.sequence is None) and not pathless_ok:
        missing = "sequence" if c.sequence is None else "pathway"
        raise _err(path, cid, missing, "a card has both pathway and sequence or neither (021.4)")
    if c.card_type != "revival_beyonder" and c.rank is None:
        raise _err(path, cid, "rank", "required on every card but the RB (021.5)")
    if c.card_type == "revival_beyonder":
        if c.pathway is None:
            raise _err(path, cid, "pathway", "a Revival Beyonder needs a pathway (023.1)")
        if c.sequence is not None or c.rank is not None:
            raise _err(path, cid, "sequence", "a Revival Beyonder has no sequence or rank (023.1)")
    elif c.card_type == "beyonder":
        if c.pathway is None:
            raise _err(path, cid, "pathway", "a Beyonder card needs pathway and sequence (022.1)")
    elif c.card_type == "event":
        if c.event_kind is None:
            raise _err(path, cid, "event_kind", "required on event cards (025.1)")
        if c.pathway is not None:
            raise _err(path, cid, "pathway", "event cards have no pathway (025.1)")
    elif c.card_type == "item":
        if c.extra_kind is None and c.item_kind is None:
            raise _err(path, cid, "item_kind", "required on main-deck item cards (024.1)")
        if c.is_potion:
            if c.pathway is None:
                raise _err(path, cid, "pathway", "a potion needs pathway and sequence (024.3)")
            if c.sequence is not None and 1 <= c.sequence <= 5 and c.ritual is None:
                raise _err(path, cid, "ritual", "potions of sequence 5..1 need a ritual (024.4)")
    if c.card_type != "item" and c.extra_kind is not None:
        raise _err(path, cid, "extra_kind", "extra-deck cards are item cards (026.1)")
    ek = c.extra_kind
    if ek == "god" and (c.pathway is None or c.sequence != 0 or c.apotheosis_ritual is None):
        raise _err(path, cid, "apotheosis_ritual",
                   "a God card needs pathway, sequence 0 and apotheosis_ritual (026.1)")
    if ek == "uniqueness" and (c.pathway is None or c.sequence is not None):
        raise _err(path, cid, "pathway", "a Uniqueness card has a pathway, no sequence (026.1)")
    if ek == "source" and (c.source not in pw.sources or c.pathway is not None):
        raise _err(path, cid, "source", "a Source card needs a known source, no pathway (026.1)")
    if ek == "blasphemy_card" and c.pathway is None:
        raise _err(path, cid, "pathway", "a Blasphemy Card needs a pathway (026.1)")
    if ek == "blasphemy_card":
        for r in c.rituals:
            if r.pathway != c.pathway:
                raise _err(path, cid, "rituals", "a Blasphemy Card's rituals are its pathway's")
    if c.item_kind == "sealed_artifact" and c.grade not in (1, 2, 3):
        raise _err(path, cid, "grade", "a main-deck sealed artifact has grade 1, 2 or 3 (024.1)")
    if ek == "grade0_sealed_artifact" and c.grade not in (None, 0):
        raise _err(path, cid, "grade", "a Grade 0 Sealed Artifact has grade 0 (026.1)")
    for ab in c.abilities:
        if ab.timing == "activation" and ek is None:
            raise _err(path, cid, "abilities", "timing activation is only for extra-deck cards "
                       "(122.1)")
        for e in ab.effects:
            if e.op in ("strength", "weaken", "static_strength", "destroy_unit",
                        "bounce") and e.amount % 100:
                raise _err(path, cid, "abilities", f"{e.op} {e.amount} is not a multiple of "
                           "100 (013.5)")
            if e.amount < 0:
                raise _err(path, cid, "abilities", f"{e.op} amount {e.amount} is negative")
    if c.ritual is not None:
        _check_ritual(path, cid, "ritual", c.ritual, pw)
    if c.apotheosis_ritual is not None:
        _check_ritual(path, cid, "apotheosis_ritual", c.apotheosis_ritual, pw)
    for r in c.rituals:
        _check_ritual(path, cid, "rituals", r, pw)


#: the values of a pool file's top-level ``base`` key
POOL_BASES = ("builtin", "none")


def parse_pool(raw: dict[str, Any], path: str = "<memory>") -> CardPool:
    """Validate a parsed pool document ``{"card": [record, ...]}``, optionally with a
    top-level ``base`` (``"builtin"``, the default, or ``"none"``; see :func:`get_pool`).
    The returned pool holds the document's own cards only.

    Raises:
        tcgcore.CardDataError: names the file, the card (id or index) and the field.
    """
    pw = load_pathways()
    if not isinstance(raw, dict):
        raise tcgcore.CardDataError(f"{path}: expected a table of [[card]] entries")
    base = raw.get("base", "builtin")
    if base not in POOL_BASES:
        raise tcgcore.CardDataError(f"{path}: field 'base': {base!r} is not one of "
                                    f"{', '.join(POOL_BASES)}")
    unknown = sorted(set(raw) - {"card", "base"})
    if unknown:
        raise tcgcore.CardDataError(f"{path}: unknown top-level field(s) {', '.join(unknown)} "
                                    "(a pool file has [[card]] tables and an optional base)")
    records = raw.get("card")
    if not isinstance(records, list):
        raise tcgcore.CardDataError(f"{path}: expected a list of [[card]] tables")
    cards: dict[str, CardDef] = {}
    for i, rec in enumerate(records):
        name = rec.get("id", f"#{i}") if isinstance(rec, dict) else f"#{i}"
        try:
            card = msgspec.convert(rec, CardDef)
        except msgspec.ValidationError as exc:
            raise tcgcore.CardDataError(f"{path}: card {name!r}: {exc}") from None
        if card.id in cards:
            raise _err(path, card.id, "id", "duplicate card id")
        _validate(path, card, pw)
        cards[card.id] = card
    return CardPool(path, cards, base=str(base))


def load_pool_file(path: str | Path) -> CardPool:
    """Load and validate a TOML or JSON card pool file.

    Raises:
        tcgcore.CardDataError: unreadable file, syntax error or invalid card.
    """
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
        raw = json.loads(text) if p.suffix == ".json" else tomllib.loads(text)
    except (OSError, ValueError) as exc:
        raise tcgcore.CardDataError(f"{p}: {exc}") from None
    return parse_pool(raw, str(p))


_POOLS: dict[str, CardPool] = {}


def get_pool(name: str) -> CardPool:
    """The pool named by the ``pool`` option: ``"builtin"`` or a file path (cached per path;
    pools are immutable data, never game state).

    A file's cards are laid over the built-in pool: a new id adds a card, an id the
    built-in pool has replaces that card (a designer's file holds only the cards they
    make or change). A file whose top-level ``base`` is ``"none"`` is a whole pool of its
    own instead.

    Raises:
        tcgcore.CardDataError: the file cannot be read or a card in it is invalid (the
            message names the file, the card and the field).
    """
    pool = _POOLS.get(name)
    if pool is None:
        if name == "builtin":
            pool = load_pool_file(DATA_DIR / "starter_pool.toml")
            pool.base = "none"
        else:
            own = load_pool_file(Path(name))
            if own.base == "builtin":
                pool = CardPool(own.path, {**get_pool("builtin").cards, **own.cards},
                                base="builtin", own=own.own)
            else:
                pool = own
        _POOLS[name] = pool
    return pool
