"""Card definitions for Arkham Horror: The Card Game and their loading from JSON data files.

Card data files are JSON arrays of objects keyed by ArkhamDB-style ``code`` strings
(``"01001"`` for Roland Banks, ``"t0101"`` for our test cards) and use ArkhamDB field
names where one exists (``type_code``, ``skill_willpower``, ``enemy_fight``, ``shroud``,
``clues``, ``clues_fixed``, ``doom``, ``victory``, ``slot``, ``traits``, ``is_unique``,
``subtype_code`` …). Fields ArkhamDB expresses only in prose are structured here:
``keywords``, ``spawn``, ``prey``, ``uses``, ``bonus``, ``abilities``, ``revelation``,
``forced`` and the small effect language (:class:`Effect`).

Unknown fields are ignored (so ArkhamDB exports load), but every known field is
type-checked, and effect ops, keywords and prey forms must be ones the engine knows
(:mod:`.card_checks`); a bad value raises :class:`tcgcore.CardDataError` naming the file,
the card code and the field.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from importlib import resources

import msgspec

import tcgcore

__all__ = [
    "SKILLS",
    "Ability",
    "CardDef",
    "Effect",
    "ScenarioDef",
    "TokenEffect",
    "Uses",
    "card_pool",
    "find_scenario",
    "load_cards",
    "load_scenario",
    "parse_cards",
    "scenario_list",
]

#: The four skills, in printed order (RR: Skills).
SKILLS: tuple[str, ...] = ("willpower", "intellect", "combat", "agility")


class Effect(msgspec.Struct, kw_only=True, omit_defaults=True, frozen=True):
    """One instruction of the effect language used by card and scenario data.

    ``op`` names the instruction; the other fields are its arguments. Supported ops
    (see ``docs/arkham_card/scenario-format.md``): ``damage``, ``horror``,
    ``direct_damage``, ``direct_horror`` (``amount`` to the affected investigator),
    ``damage_per_fail`` / ``horror_per_fail`` (``amount`` per point the test failed by),
    ``test`` (``skill`` vs ``difficulty``, then ``on_success`` / ``on_fail``),
    ``doom_agenda`` (``amount``; ``can_advance`` checks the threshold at once),
    ``gain_resources``, ``lose_resources``, ``draw_cards``, ``discover_clues``,
    ``heal_damage``, ``heal_horror``, ``lose_actions``, ``damage_enemy`` (an enemy at
    the location), ``resolution`` (``code`` such as ``"R1"``), ``put_into_play``
    (location ``codes``), ``move_all_to`` (``code``), ``spawn_set_aside`` (enemy
    ``code`` at location ``target``), ``remove_location`` (``code``), ``discard_self``,
    ``threat_area`` (put the treachery in the drawer's threat area), ``surge``.
    """

    op: str
    amount: int = 0
    skill: str = ""
    difficulty: int = 0
    code: str = ""
    codes: tuple[str, ...] = ()
    target: str = ""
    trait: str = ""
    can_advance: bool = False
    on_success: tuple[Effect, ...] = ()
    on_fail: tuple[Effect, ...] = ()


class Uses(msgspec.Struct, kw_only=True, frozen=True):
    """``Uses (X type)``: the asset enters play with ``count`` tokens of ``type``
    (``ammo``, ``supplies``, ``charges`` or ``secrets``; RR: Uses)."""

    type: str
    count: int


class Ability(msgspec.Struct, kw_only=True, omit_defaults=True, frozen=True):
    """A triggered or activated ability of a card.

    Attributes:
        kind: ``"action"`` ([action], costs one action), ``"fast"`` ([free]) or
            ``"reaction"``.
        action: the action designator for ``"action"`` abilities: ``"fight"``,
            ``"investigate"``, ``"evade"``, ``"parley"``, ``"resign"`` or ``""``
            (a plain activate action).
        skill: tested skill overriding the action's usual one (``""`` = default).
        skill_bonus: +N to the skill for that test.
        damage_bonus: +N damage on a successful attack.
        shroud_mod: modifier to the location's shroud for that investigation.
        uses: use tokens spent as cost.
        exhaust: exhausting the card is part of the cost.
        resources: resources paid as cost.
        discard: discarding the card is part of the cost.
        difficulty: fixed difficulty of a ``parley`` test (with ``skill``).
        effects: what resolves (for a parley: on success).
        trigger: for reactions, the trigger (``"after_defeat_enemy"``).
        limit: ``"round"`` / ``"turn"`` / ``"game"`` / ``""`` (per investigator).
        condition: an extra requirement for offering the ability (A981.3), e.g.
            ``"hand:4"``, ``"clues:2"``, ``"group_clues_per_inv:2"``, ``"damaged"``,
            ``"horrified"``, ``"deck"`` (see :func:`.queries.condition_met`).
    """

    kind: str = "action"
    action: str = ""
    skill: str = ""
    skill_bonus: int = 0
    damage_bonus: int = 0
    shroud_mod: int = 0
    uses: int = 0
    exhaust: bool = False
    resources: int = 0
    discard: bool = False
    difficulty: int = 0
    effects: tuple[Effect, ...] = ()
    trigger: str = ""
    limit: str = ""
    bonus_if_clues: int = 0
    damage_bonus_if_alone: int = 0
    margin_damage: int = 0
    no_clue: bool = False
    symbol_horror: int = 0
    break_on: str = ""
    extra_actions: int = 0
    margin_is_damage: bool = False
    no_aoo: bool = False
    condition: str = ""
    requires: str = ""  # only while you control a card with this code (A994.6)
    clue_cost: int = 0  # clues the activating investigator spends (A993.6)


class TokenEffect(msgspec.Struct, kw_only=True, omit_defaults=True, frozen=True):
    """What one chaos token symbol does (scenario reference card, or an investigator's
    elder sign; RR: Chaos Tokens).

    Attributes:
        modifier: fixed skill modifier.
        x: a variable modifier subtracted from the skill: ``"enemies_trait:<Trait>"``
            (enemies with that trait at the tester's location) or ``"clues_here"``
            (added instead of subtracted for elder signs; see ``x_sign``).
        x_sign: +1 or -1: how ``x`` applies.
        reveal_another: reveal another token as well.
        auto_fail: the test automatically fails.
        on_reveal: effects resolved at once (ST.4).
        on_fail: effects resolved in ST.7 if the test failed.
        on_success: effects resolved in ST.7 if the test succeeded.
        if_trait_here: ``on_reveal`` resolves only if an enemy with this trait is at
            the tester's location.
        after_fail: effects resolved after the test ends (ST.8) if it failed (A509.2).
    """

    modifier: int = 0
    x: str = ""
    x_sign: int = -1
    reveal_another: bool = False
    auto_fail: bool = False
    on_reveal: tuple[Effect, ...] = ()
    on_fail: tuple[Effect, ...] = ()
    on_success: tuple[Effect, ...] = ()
    if_trait_here: str = ""
    after_fail: tuple[Effect, ...] = ()
    auto_success_if: str = ""


class CardDef(msgspec.Struct, kw_only=True, omit_defaults=True, frozen=True):
    """One card definition (ArkhamDB field names where they exist).

    Numeric fields hold printed values; ``None`` means "–" (none). Health of an
    enemy with ``health_per_investigator`` is multiplied by the investigator count
    at setup (RR: Per Investigator). Location ``clues`` are per investigator unless
    ``clues_fixed``. Location connections use symbols: ``symbol`` is the location's
    own, ``connections`` the symbols it connects to (or location codes).
    """

    code: str
    name: str
    type_code: str
    subname: str = ""
    faction_code: str = "neutral"
    subtype_code: str = ""
    traits: str = ""
    text: str = ""
    is_unique: bool = False
    quantity: int = 1
    deck_limit: int = 2
    exceptional: bool = False
    permanent: bool = False
    # player cards
    cost: int | None = None
    xp: int | None = None
    skill_willpower: int = 0
    skill_intellect: int = 0
    skill_combat: int = 0
    skill_agility: int = 0
    skill_wild: int = 0
    slot: str = ""
    health: int | None = None
    sanity: int | None = None
    uses: Uses | None = None
    bonus: dict[str, int] = {}
    bonus_here: dict[str, int] = {}
    fast: bool = False
    play_when: str = ""
    play_action: str = ""
    play_designator: str = ""  # the action an event without a test counts as (Evade.)
    play_skill: str = ""
    play_skill_bonus: int = 0
    play_damage_bonus: int = 0
    effects: tuple[Effect, ...] = ()
    on_success: tuple[Effect, ...] = ()
    max_per_test: int = 0
    abilities: tuple[Ability, ...] = ()
    elder_sign: TokenEffect | None = None
    deck_size: int = 30
    deck_options: tuple[str, ...] = ()
    deck_requirements: tuple[str, ...] = ()
    restrictions: str = ""
    success_kind: str = ""
    trigger_exhausts: bool = False
    own_test_only: bool = False
    margin_return: int = 0
    symbol_lose_action: bool = False
    symbol_horror: int = 0
    partial: str = ""
    # encounter cards
    encounter_code: str = ""
    enemy_fight: int | None = None
    enemy_evade: int | None = None
    enemy_damage: int = 0
    enemy_horror: int = 0
    health_per_investigator: bool = False
    victory: int | None = None
    keywords: tuple[str, ...] = ()
    spawn: str = ""
    prey: str = ""
    patrol: str = ""
    revelation: tuple[Effect, ...] = ()
    forced: dict[str, tuple[Effect, ...]] = {}
    # locations
    shroud: int | None = None
    clues: int | None = None
    clues_fixed: bool = False
    symbol: str = ""
    connections: tuple[str, ...] = ()
    cannot_enter_unrevealed: bool = False
    unrevealed_symbol: str = ""  # the unrevealed side's symbol and links (A992.1)
    unrevealed_connections: tuple[str, ...] = ()
    # acts and agendas
    stage: int | None = None
    doom: int | None = None
    objective: str = ""
    back: tuple[Effect, ...] = ()

    @property
    def title(self) -> str:
        """The card's title (name), the key for uniqueness and deck limits (RR: Unique)."""
        return self.name

    def icons(self, skill: str) -> int:
        """Icons this card adds when committed to a ``skill`` test: matching plus wild."""
        return int(getattr(self, "skill_" + skill, 0)) + self.skill_wild

    def is_weakness(self) -> bool:
        """Whether the card is a basic or signature weakness (RR: Weakness)."""
        return self.subtype_code in ("weakness", "basicweakness")

    def slots(self) -> list[str]:
        """Slots the asset occupies, e.g. ``["hand", "hand"]`` for ``"Hand x2"``."""
        out: list[str] = []
        for part in self.slot.split("."):
            part = part.strip().lower()
            if not part:
                continue
            if part.endswith("x2"):
                name = part[:-2].strip()
                out += [name, name]
            else:
                out.append(part)
        return out


class ScenarioDef(msgspec.Struct, kw_only=True, omit_defaults=True, frozen=True):
    """A scenario's setup and reference card.

    Attributes:
        code, name: identity.
        locations: location codes put into play at setup.
        set_aside: codes set aside at setup (locations, enemies, story assets).
        start: the starting location's code.
        acts, agendas: the decks, top (1a) first.
        encounter: encounter card codes (each entry one copy).
        tokens: ``{"easy_standard": {...}, "hard_expert": {...}}`` mapping a symbol
            (``skull``, ``cultist``, ``tablet``, ``elder_thing``) to its effect.
        bags: chaos bag contents per difficulty.
        resolutions: ``{"R1": "win", "R2": "loss", ...}`` and their experience bonus
            in ``xp_bonus`` (``lead_xp_bonus``: extra for the lead investigator).
        log, lead_story, lead_trauma: per resolution, campaign-log entries written,
            story assets the lead earns and trauma the lead suffers.
    """

    code: str
    name: str
    locations: tuple[str, ...]
    start: str
    acts: tuple[str, ...]
    agendas: tuple[str, ...]
    encounter: tuple[str, ...] = ()
    set_aside: tuple[str, ...] = ()
    tokens: dict[str, dict[str, TokenEffect]] = {}
    bags: dict[str, tuple[str, ...]] = {}
    resolutions: dict[str, str] = {}
    xp_bonus: dict[str, int] = {}
    lead_xp_bonus: dict[str, int] = {}
    log: dict[str, tuple[str, ...]] = {}
    lead_story: dict[str, tuple[str, ...]] = {}
    lead_trauma: dict[str, str] = {}
    investigators: tuple[str, ...] = ()
    decks: dict[str, tuple[str, ...]] = {}


_VALID_TYPES = frozenset({"investigator", "asset", "event", "skill", "treachery", "enemy",
                          "location", "act", "agenda", "scenario", "story"})


def parse_cards(raw: bytes | str, *, source: str) -> dict[str, CardDef]:
    """Parse a JSON array of card objects into definitions keyed by code.

    Args:
        raw: the file's bytes.
        source: the file name used in error messages.

    Raises:
        tcgcore.CardDataError: invalid JSON, a card without a code, a repeated code,
            an unknown ``type_code``, a field of the wrong type, or an unknown effect op,
            keyword or prey form (naming the file, the card code and the field).
    """
    try:
        items = json.loads(raw)
    except ValueError as exc:
        raise tcgcore.CardDataError(f"{source}: invalid JSON: {exc}") from None
    if not isinstance(items, list):
        raise tcgcore.CardDataError(f"{source}: expected a JSON array of cards")
    out: dict[str, CardDef] = {}
    for i, item in enumerate(items):
        code = item.get("code") if isinstance(item, dict) else None
        if not isinstance(code, str) or not code:
            raise tcgcore.CardDataError(f"{source}: card #{i}: field 'code' is missing")
        try:
            card = msgspec.convert(item, CardDef)
        except msgspec.ValidationError as exc:
            raise tcgcore.CardDataError(f"{source}: card {code}: {exc}") from None
        from .card_checks import card_object_problem  # it reads this module's structs

        problem = card_object_problem(item, f"card {code}", strict=False)
        if problem:  # an unknown effect op, keyword or prey form fails at load, not in play
            raise tcgcore.CardDataError(f"{source}: {problem}")
        if card.type_code not in _VALID_TYPES:
            raise tcgcore.CardDataError(
                f"{source}: card {code}: field 'type_code' has unknown value {card.type_code!r}")
        if code in out:
            raise tcgcore.CardDataError(f"{source}: card {code}: code repeated")
        out[code] = card
    return out


def load_cards(names: Iterable[str] = ("cards_test.json", "cards_gathering.json",
                                        "cards_core.json", "cards_midnight.json",
                                        "cards_devourer.json"),
               ) -> dict[str, CardDef]:
    """Load the plugin's built-in card data files (package ``data`` folder).

    Raises:
        tcgcore.CardDataError: see :func:`parse_cards`.
    """
    pool: dict[str, CardDef] = {}
    base = resources.files("tcgcore_arkham_card") / "data"
    for name in names:
        cards = parse_cards((base / name).read_bytes(), source=name)
        for code in cards:
            if code in pool:
                raise tcgcore.CardDataError(f"{name}: card {code}: code repeated across files")
        pool.update(cards)
    return pool


_SCENARIOS: dict[str, ScenarioDef] = {}


def load_scenario(name: str) -> ScenarioDef:
    """Load (once) a built-in scenario file ``data/scenario_<name>.json``.

    Raises:
        tcgcore.CardDataError: missing file or a bad field (naming the file and field).
    """
    cached = _SCENARIOS.get(name)
    if cached is None:
        cached = _SCENARIOS[name] = _read_scenario(name)
    return cached


def _simple(text: str) -> str:
    """``"The Midnight Masks"`` / ``"midnight_masks"`` -> ``"midnightmasks"``: lower case,
    letters and digits only, without a leading ``the``."""
    low = "".join(ch for ch in text.lower() if ch.isalnum() or ch == " " or ch == "_")
    low = low.replace("_", " ").strip()
    if low.startswith("the "):
        low = low[4:]
    return low.replace(" ", "")


def find_scenario(wanted: str, codes: list[str]) -> str | None:
    """The code among ``codes`` (built-in scenario file names) that ``wanted`` names: the code
    itself, or the scenario's name in any case, with or without ``The``, with spaces or
    underscores (``"The Gathering"``, ``"gathering"``, ``"midnight_masks"``); ``None`` when
    none matches. A scenario file that cannot be read does not match by name."""
    if wanted in codes:
        return wanted
    key = _simple(wanted)
    if not key:
        return None
    for code in codes:
        try:
            name = load_scenario(code).name
        except tcgcore.CardDataError:
            continue
        if _simple(name) == key or _simple(code) == key:
            return code
    return None


def scenario_list(codes: list[str]) -> str:
    """``"01104 (The Gathering), 01120 (The Midnight Masks), …"`` for error messages."""
    parts = []
    for code in codes:
        try:
            name = load_scenario(code).name
        except tcgcore.CardDataError:
            name = ""
        parts.append(f"{code} ({name})" if name and name != code else code)
    return ", ".join(parts)


def _read_scenario(name: str) -> ScenarioDef:
    base = resources.files("tcgcore_arkham_card") / "data"
    fname = f"scenario_{name}.json"
    path = base / fname
    if not path.is_file():
        raise tcgcore.CardDataError(f"{fname}: no such scenario file")
    try:
        return msgspec.json.decode(path.read_bytes(), type=ScenarioDef)
    except msgspec.ValidationError as exc:
        raise tcgcore.CardDataError(f"{fname}: scenario {name}: {exc}") from None
    except msgspec.DecodeError as exc:
        raise tcgcore.CardDataError(f"{fname}: invalid JSON: {exc}") from None


_POOL: dict[str, CardDef] | None = None


def card_pool() -> dict[str, CardDef]:
    """The built-in card pool (loaded once; immutable definitions, not game state)."""
    global _POOL
    if _POOL is None:
        _POOL = load_cards()
    return _POOL
