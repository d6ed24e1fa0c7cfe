"""Match setup (rules.md section 5) and the scenario builder.

``setup`` is the GameSpec setup: it validates the options, builds the zones, and either deals a
normal game (decks, shuffle, 5 cards, mulligans) or builds the position described by the
``scenario`` option (see ``docs/guimi_revival/scenario-format.md``).
"""

from __future__ import annotations

import tomllib
from typing import Any, Literal

import msgspec

import tcgcore
from tcgcore import Engine, Step, Visibility

from .cards import CardPool, get_pool
from .decks import (
    DeckList,
    PreconCards,
    default_decks,
    parse_deck,
    parse_deck_text,
    precon_cards,
    validate_deck,
)
from .options import (
    GAME,
    MATCH_OPTION_NAMES,
    RULES_OPTION_NAMES,
    RulesOptions,
    check_known,
    parse_rules_options,
)
from .state import (
    BattleStart,
    DrawPhase,
    EndPhase,
    EndTurn,
    GuimiState,
    MainPhase,
    Mulligan,
    PromotionPhase,
    QuickWindow,
    RevivalPhase,
    StartGame,
    StartTurn,
    z,
)

Eng = Engine[GuimiState]

PHASES = ("start", "draw", "revival", "promotion1", "main", "promotion2", "end", "battle")


class CardEntry(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A card in a scenario: its code, facing, tapped state and counters."""

    code: str
    face_down: bool = False
    tapped: bool = False
    counters: dict[str, int] = {}


Entry = str | CardEntry


class PlayerSpec(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One player's part of a scenario (see scenario-format.md)."""

    revival: str
    sequence: int = 9
    stack: list[Entry] = []
    units: list[Entry] = []
    spirit_world: list[Entry] = []
    hand: list[str] = []
    deck: list[str] = []
    extra: list[str] = []
    status: list[Entry] = []
    underworld: list[str] = []
    astral: list[str] = []
    corruption: int = 0
    dead_corruption: int = 0
    mad: int = 0
    dead: bool = False
    ascend_round: int = -1
    rewarded: bool = False
    events_played: int = 0
    events_activated: int = 0
    rb_tapped: bool = False


class ScenarioSpec(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A whole scenario: players, who goes first, the round, whose turn and which phase."""

    players: list[PlayerSpec]
    first_player: int = 0
    round: int = 1
    active: int | None = None
    phase: Literal["start", "draw", "revival", "promotion1", "main", "promotion2", "end",
                   "battle", "mulligan"] = "main"


def _bad(msg: str) -> tcgcore.OptionsError:
    return tcgcore.OptionsError(f"{GAME}: scenario: {msg}")


def parse_scenario(description: dict[str, Any] | str) -> ScenarioSpec:
    """Parse a scenario description (a dict, or TOML text) and range-check its fields.

    Raises:
        tcgcore.OptionsError: bad TOML, a field of the wrong type or out of its range; the
            message names the field path, e.g. ``players[1].mad must be an integer 0..2``.
    """
    raw: Any = description
    if isinstance(description, str):
        try:
            raw = tomllib.loads(description)
        except tomllib.TOMLDecodeError as exc:
            raise _bad(f"not valid TOML: {exc}") from None
    if not isinstance(raw, dict):
        raise _bad(f"must be a table (dict) or TOML text, not {type(raw).__name__}")
    try:
        spec = msgspec.convert(raw, ScenarioSpec)
    except msgspec.ValidationError as exc:
        raise _bad(_shape_error(str(exc))) from None
    if len(spec.players) != 2:
        raise _bad("needs exactly 2 players")
    if spec.first_player not in (0, 1):
        raise _bad("first_player must be 0 or 1")
    if spec.active is not None and spec.active not in (0, 1):
        raise _bad("active must be 0 or 1")
    if spec.round < 1:
        raise _bad("round must be an integer 1 or more")
    for p, ps in enumerate(spec.players):
        _check_player(p, ps, spec.round)
    return spec


def _shape_error(text: str) -> str:
    """msgspec's ``Expected `int`, got `bool` - at `$.players[1].mad``` as
    ``players[1].mad: expected `int`, got `bool```."""
    msg, sep, where = text.rpartition(" - at `$")
    if not sep:
        return text
    path = where.rstrip("`").lstrip(".")
    return f"{path or 'scenario'}: {msg[:1].lower()}{msg[1:]}"


#: per-player integer fields and their ranges (rules.md: 111.1, 112.1, 113.5, 074.1, 074.9)
_PLAYER_RANGES: dict[str, tuple[int, int | None]] = {
    "sequence": (0, 9),
    "corruption": (0, None),
    "dead_corruption": (0, None),
    "mad": (0, 2),
    "events_played": (0, 1),
    "events_activated": (0, 1),
}


def _check_player(p: int, ps: PlayerSpec, round_: int) -> None:
    """Range checks of one player table (types are checked by msgspec: a bool or a float is
    not an integer). Raises tcgcore.OptionsError naming ``players[p].<field>``."""
    for name, (lo, hi) in _PLAYER_RANGES.items():
        v = getattr(ps, name)
        if v < lo or (hi is not None and v > hi):
            rng = f"{lo}..{hi}" if hi is not None else f"{lo} or more"
            raise _bad(f"players[{p}].{name} must be an integer {rng} (got {v})")
    if ps.ascend_round != -1 and not 1 <= ps.ascend_round <= round_:
        raise _bad(f"players[{p}].ascend_round must be -1 (no ascension) or a round 1..round "
                   f"({round_}) (got {ps.ascend_round})")
    if ps.dead and ps.ascend_round != -1:
        raise _bad(f"players[{p}]: a dead RB cannot be ascending (dead and ascend_round)")


#: the per-player zones of section 3 (031-036) in creation order, as
#: (kind, visibility, ordered, capacity, slotted)
_ZONE_KINDS: tuple[tuple[str, Visibility, bool, int | None, bool], ...] = (
    ("deck", "hidden", True, None, False),
    ("extra", "owner", False, None, False),
    ("hand", "owner", False, None, False),
    ("revival", "public", True, 1, True),
    ("stack", "public", True, None, False),
    ("units", "public", True, 4, True),
    ("spirit", "public", True, 7, False),
    ("status", "public", True, None, False),
    ("underworld", "public", True, None, False),
    ("astral", "public", True, None, False),
)

#: :data:`_ZONE_KINDS` for seats 0 and 1 with each zone's id (``z(kind, p)``) first; built
#: once, immutable
_ZONE_SPECS: tuple[tuple[tuple[str, str, Visibility, bool, int | None, bool], ...], ...] = tuple(
    tuple((z(kind, p), kind, vis, ordered, cap, slotted)
          for kind, vis, ordered, cap, slotted in _ZONE_KINDS)
    for p in (0, 1))
#: the ids of the zones setup deals to, per seat
_DECK, _EXTRA, _HAND, _REVIVAL = ((z(kind, 0), z(kind, 1))
                                  for kind in ("deck", "extra", "hand", "revival"))


def _zones(eng: Eng) -> None:
    """Create both players' zones (section 3: 031-036), seat 0's first."""
    add_zone = eng.add_zone
    for p, specs in enumerate(_ZONE_SPECS):
        for zone_id, kind, vis, ordered, cap, slotted in specs:
            add_zone(zone_id, kind, owner=p, visibility=vis, ordered=ordered, capacity=cap,
                     slotted=slotted)


#: (precon deck, pool, options) that passed validation: a cache of pure checks of immutable
#: data (deck lists, pools and options never change once loaded)
_VALID: dict[tuple[int, int, Any], DeckList] = {}


def _decks(options: dict[str, Any], pool: CardPool, eng: Eng) -> list[PreconCards]:
    """Each seat's deck from option ``decks`` (validated unless ``deck_check`` is false) as
    (RB code, main deck codes in list order, extra deck codes); precons from
    :func:`precon_cards`.

    Raises:
        tcgcore.OptionsError: a bad ``decks`` or ``deck_check`` value or an unknown precon;
        tcgcore.DeckError: an unreadable deck or one breaking rules 041-043.
    """
    raw = options.get("decks", ["seer", "hunter"])
    if not isinstance(raw, list) or len(raw) != 2:
        got = f"{len(raw)} deck(s)" if isinstance(raw, list) else type(raw).__name__
        raise tcgcore.OptionsError(f"{GAME}: option decks must list 2 decks, one per seat "
                                   f"(got {got}); on the command line: --decks A,B")
    check = options.get("deck_check", True)
    if not isinstance(check, bool):
        raise tcgcore.OptionsError(f"{GAME}: option deck_check must be true or false")
    out: list[PreconCards] = []
    precons = default_decks()
    for p, d in enumerate(raw):
        named = precons.get(d) if isinstance(d, str) else None
        if named is not None:
            deck = named
        elif isinstance(d, str):
            if "\n" in d or "=" in d or d.lstrip().startswith("{"):
                deck = parse_deck_text(d, f"deck of player {p}")  # a deck file's text
            else:
                known = ", ".join(precons)
                raise tcgcore.OptionsError(f"{GAME}: option decks: unknown precon deck {d!r} "
                                           f"(known: {known}; or give a deck file's text)")
        else:
            deck = parse_deck(d, f"deck of player {p}")
        if check:
            key = (id(deck), id(pool), eng.state.options)
            if _VALID.get(key) is not deck:  # precons: validated once
                validate_deck(deck, pool, eng.state.options, who=f"deck of player {p}")
                if named is not None:
                    _VALID[key] = deck
        if named is not None:
            out.append(precon_cards(d))
        else:
            out.append((deck.revival, tuple(deck.main_codes()), tuple(deck.extra)))
    return out


#: every option name ``setup`` knows, and the rules options among them (section 14)
_KNOWN_OPTIONS = frozenset(RULES_OPTION_NAMES + MATCH_OPTION_NAMES)
_RULES_OPTIONS = frozenset(RULES_OPTION_NAMES)
#: the default rules options; frozen, so matches can share it
_DEFAULT_RULES = RulesOptions()


def setup(eng: Eng, options: dict[str, Any]) -> None:
    """Set up a match (section 5) or a scenario.

    Options: every rules option of section 14, plus ``decks`` (2 entries, each a precon deck
    name, a deck file's text (TOML or JSON) or a deck-list dict; default
    ``["seer", "hunter"]``), ``pool`` (``"builtin"`` or a card file path),
    ``deck_check`` (validate decks, default true) and ``scenario`` (a scenario description).

    Raises:
        tcgcore.OptionsError: unknown option or bad value; tcgcore.DeckError: illegal deck;
        tcgcore.CardDataError: invalid pool file.
    """
    if not _KNOWN_OPTIONS.issuperset(options):
        check_known(options)  # raises, naming the unknown options
    state = eng.state
    # no rules option given: the defaults, one shared frozen RulesOptions (what parsing {} gives)
    state.options = (_DEFAULT_RULES if _RULES_OPTIONS.isdisjoint(options)
                     else parse_rules_options(options))
    pool_name = options.get("pool", "builtin")
    if not isinstance(pool_name, str):
        raise tcgcore.OptionsError(f"{GAME}: option pool must be a string")
    state.pool = pool_name
    pool = get_pool(pool_name)
    _zones(eng)
    if "scenario" in options:
        build_scenario(eng, parse_scenario(options["scenario"]), pool)
        return
    decks = _decks(options, pool, eng)
    fp = state.options.first_player
    state.first = eng.rng.randbelow(2) if fp == "random" else int(fp[1])  # 051.2
    add_card = eng.add_card
    for p, (revival, main, extra) in enumerate(decks):
        rb = add_card(revival, p, _REVIVAL[p], face_down=True)  # 051.1
        state.rb[p] = rb.id
        deck_zone = _DECK[p]
        for code in main:
            add_card(code, p, deck_zone)
        extra_zone = _EXTRA[p]
        for code in extra:
            add_card(code, p, extra_zone)
        eng.shuffle(deck_zone)
    move = eng.move
    zones = state.zones
    for p in (state.first, 1 - state.first):  # 051.3
        deck_cards = zones[_DECK[p]].cards  # a move takes the card out of this list
        hand_zone = _HAND[p]
        for _ in range(5):
            move(deck_cards[0], hand_zone, kind="drawn")
    eng.push(Mulligan(player=state.first), Mulligan(player=1 - state.first), StartGame())


def _entry(e: Entry) -> tuple[str, bool, bool, dict[str, int]]:
    if isinstance(e, str):
        return e, False, False, {}
    return e.code, e.face_down, e.tapped, dict(e.counters)


def build_scenario(eng: Eng, sc: ScenarioSpec, pool: CardPool) -> None:
    """Build the position a scenario describes and queue the rest of the round.

    Raises:
        tcgcore.OptionsError: an unknown card code or an impossible position (named).
    """
    state = eng.state
    state.first = sc.first_player
    state.round = sc.round

    def add(code: str, p: int, kind: str, where: str, face_down: bool = False,
            tapped: bool = False, counters: dict[str, int] | None = None,
            slot: int | None = None) -> int:
        if code not in pool:
            raise _bad(f"player {p} {where}: unknown card {code!r}")
        card = eng.add_card(code, p, z(kind, p), face_down=face_down, slot=slot)
        if tapped or counters:
            eng.update_card(card.id, exhausted=tapped, counters=counters or {})
        return card.id

    for p, ps in enumerate(sc.players):
        d = pool.cards.get(ps.revival)
        if d is None or d.card_type != "revival_beyonder":
            raise _bad(f"player {p} revival: {ps.revival!r} is not a Revival Beyonder card")
        if ps.dead:
            rb_zone = "underworld"
        elif ps.ascend_round >= 0:
            rb_zone = "astral"
        else:
            rb_zone = "revival"
        state.rb[p] = add(ps.revival, p, rb_zone, "revival", tapped=ps.rb_tapped)
        state.sequence[p] = ps.sequence
        state.corruption[p] = ps.corruption
        state.dead_corruption[p] = ps.dead_corruption
        state.mad[p] = ps.mad
        state.dead[p] = ps.dead
        state.ascend_round[p] = ps.ascend_round
        state.rewarded[p] = ps.rewarded
        state.events_played[p] = ps.events_played
        state.events_activated[p] = ps.events_activated
        for e in ps.stack:
            code, fd, _, _ = _entry(e)
            add(code, p, "stack", "stack", face_down=fd)
        if len(ps.units) > 4:
            raise _bad(f"player {p} units: at most 4 slots")
        for s, e in enumerate(ps.units):
            code, fd, tapped, ctr = _entry(e)
            if code:
                add(code, p, "units", f"units[{s}]", tapped=tapped, counters=ctr, slot=s)
        if len(ps.spirit_world) > 7:
            raise _bad(f"player {p} spirit_world: at most 7 cards (034.1)")
        for e in ps.spirit_world:
            code, fd, _, ctr = _entry(e)
            if fd and pool[code].card_type == "event" and "set_turn" not in ctr:
                ctr = {"set_turn": -1, "set_round": -1, **ctr}  # set before the scenario
            add(code, p, "spirit", "spirit_world", face_down=fd, counters=ctr)
        for code in ps.hand:
            add(code, p, "hand", "hand")
        for code in ps.deck:
            add(code, p, "deck", "deck")
        for code in ps.extra:
            add(code, p, "extra", "extra")
        for e in ps.status:
            code, fd, _, _ = _entry(e)
            add(code, p, "status", "status", face_down=fd)
        for code in ps.underworld:
            add(code, p, "underworld", "underworld")
        for code in ps.astral:
            add(code, p, "astral", "astral")
    eng.emit("scenario_loaded", amount=sc.round)
    f = sc.first_player
    if sc.phase == "mulligan":
        eng.push(Mulligan(player=f), Mulligan(player=1 - f), StartGame())
        state.round = 0
        return
    active = sc.active if sc.active is not None else f
    steps: list[Step] = []
    if sc.phase == "battle":
        steps.append(BattleStart())
        state.active_player = f
        state.turn = 2 * sc.round
    elif sc.phase == "start":
        steps.append(StartTurn(player=active))
        if active == f:
            steps.append(StartTurn(player=1 - f))
        steps.append(BattleStart())
        state.turn = 2 * (sc.round - 1) + (0 if active == f else 1)
    else:
        state.active_player = active
        state.turn = 2 * (sc.round - 1) + (1 if active == f else 2)
        state.phase = sc.phase
        o = 1 - active
        order: list[Step] = [DrawPhase(player=active), RevivalPhase(player=active),
                             PromotionPhase(player=active, n=1), MainPhase(player=active),
                             PromotionPhase(player=active, n=2), EndPhase(player=active)]
        start = PHASES.index(sc.phase) - 1
        for i, st in enumerate(order[start:]):
            if i:
                steps.append(QuickWindow(player=o))
            steps.append(st)
        steps.append(EndTurn(player=active))
        if active == f:
            steps.append(StartTurn(player=1 - f))
        steps.append(BattleStart())
    eng.push(*steps)
