"""Scenario setup: built-in scenarios (A301–A309) and test descriptions (the scenario
builder; format in ``docs/arkham_card/scenario-format.md``).

A built-in scenario's own setup runs last, through its
:attr:`.scenario_hooks.Scenario.setup` hook (:func:`.scenario_hooks.scenario_of`)."""

from __future__ import annotations

from importlib import resources
from typing import Any, Final

import msgspec

import tcgcore

from .campaign import validate_deck
from .card_checks import card_object_problem, token_effect_problem
from .cards import (
    CardDef,
    ScenarioDef,
    card_pool,
    find_scenario,
    load_scenario,
    parse_cards,
    scenario_list,
)
from .decks import (
    STARTERS,
    DeckList,
    deck_codes,
    deck_problems,
    indefinite,
    investigator_list,
    load_deck,
    starter_codes,
)
from .operations import (
    SCENARIO_OWNER,
    _add_location,
    enter_location,
    place_clues,
    reveal_location,
)
from .queries import (
    GAME,
    Eng,
    cdef,
    player_order,
    rebuild_adjacency,
    register_aura,
)
from .scenario_desc import Description
from .scenario_hooks import (
    scenario_of,
)
from .state import (
    ArkhamState,
    BeginRound,
    EnemyPhase,
    Inv,
    InvestigationPhase,
    Mulligan,
    MythosPhase,
    ScenarioSetup,
    UpkeepPhase,
)

__all__ = ["BAGS", "OPTIONS", "draw_opening", "setup"]

#: The scenario of a match created without options: The Gathering.
DEFAULT_SCENARIO: Final = "01104"

#: Option names accepted by ``new_match("arkham_card", ...)``.
OPTIONS: Final = ("difficulty", "investigators", "scenario", "decks", "trauma", "lead", "chaos_add",
           "mode", "log")

#: Night of the Zealot chaos bags by difficulty (A302.1–A302.4).
BAGS: Final[dict[str, tuple[str, ...]]] = {
    "easy": ("+1", "+1", "0", "0", "0", "-1", "-1", "-1", "-2", "-2"),
    "standard": ("+1", "0", "0", "-1", "-1", "-1", "-2", "-2", "-3", "-4"),
    "hard": ("0", "0", "0", "-1", "-1", "-2", "-2", "-3", "-3", "-4", "-5"),
    "expert": ("0", "-1", "-1", "-2", "-2", "-3", "-3", "-4", "-4", "-5", "-6", "-8"),
}
_SYMBOLS: Final = ("skull", "skull", "cultist", "tablet", "auto_fail", "elder_sign")
_DIFFICULTIES: Final = ("easy", "standard", "hard", "expert")


def chaos_bag(difficulty: str) -> list[str]:
    """The 16–18 token bag for a difficulty (A302)."""
    return [*BAGS[difficulty], *_SYMBOLS]


def _zones(eng: Eng, n: int) -> None:
    for s in range(n):
        eng.add_zone(f"deck.{s}", "deck", owner=s, visibility="hidden")
        eng.add_zone(f"hand.{s}", "hand", owner=s, visibility="owner", ordered=False)
        eng.add_zone(f"aside.{s}", "aside", owner=s, visibility="owner", ordered=False)
        eng.add_zone(f"discard.{s}", "discard", owner=s)
        eng.add_zone(f"play.{s}", "play", owner=s, ordered=False)
        eng.add_zone(f"threat.{s}", "area", owner=s, ordered=False)
    eng.add_zone("locations", "location", ordered=False)
    eng.add_zone("setaside", "setaside", ordered=False)
    eng.add_zone("acts", "act")
    eng.add_zone("agendas", "agenda")
    eng.add_zone("encounter", "encounter", visibility="hidden")
    eng.add_zone("encounter_discard", "encounter_discard")
    eng.add_zone("victory", "victory", ordered=False)
    eng.add_zone("committed", "committed", ordered=False)
    eng.add_zone("resolving", "resolving", ordered=False)
    eng.add_zone("out", "out", ordered=False)
    eng.add_zone("removed", "removed", visibility="hidden", ordered=False)


def _check_code(state: Any, code: str, where: str) -> CardDef:
    try:
        return cdef(state, code)
    except KeyError:
        raise tcgcore.OptionsError(f"{GAME}: {where}: unknown card code {code!r}") from None


def draw_opening(eng: Eng, seat: int, count: int) -> None:
    """Draw ``count`` cards for the opening hand; weaknesses are set aside and replaced
    (A304.2, A305.2)."""
    state = eng.state
    deck = state.zones[f"deck.{seat}"]
    drawn = 0
    while drawn < count and deck.cards:
        cid = deck.cards[0]
        if cdef(state, state.cards[cid].code).is_weakness():
            eng.move(cid, f"aside.{seat}", kind="set_aside")
            continue
        eng.move(cid, f"hand.{seat}", kind="drawn")
        drawn += 1


def setup(eng: Eng, options: dict[str, Any]) -> None:
    """Build a scenario from the match options.

    Options: ``mode`` (``standalone`` or ``campaign``: whether the result's trauma and
    experience are meant for a :class:`~tcgcore_arkham_card.Campaign`),
    ``difficulty`` (easy/standard/hard/expert), ``investigators`` (codes, one per
    seat), ``scenario`` (built-in name, default ``"test"``, or a scenario description
    dict), ``decks`` (one list of codes per seat), ``trauma`` (``[physical, mental]`` per
    seat), ``lead`` (seat), ``chaos_add`` (tokens added by earlier scenarios, A957.1),
    ``log`` (the live campaign-log entries, strings, A952.3).

    Raises:
        tcgcore.OptionsError: naming the bad option.
    """
    tcgcore.check_options(options, OPTIONS, GAME)
    mode = options.get("mode", "standalone")
    if mode not in ("standalone", "campaign"):
        raise tcgcore.OptionsError(f"{GAME}: option 'mode' must be 'standalone' or 'campaign'")
    eng.state.mode = str(mode)
    log = options.get("log", [])
    if not isinstance(log, list) or not all(isinstance(e, str) for e in log):
        raise tcgcore.OptionsError(f"{GAME}: option 'log' must list campaign-log entries "
                                   "(strings)")
    eng.state.campaign_log = list(log)
    scen = options.get("scenario", DEFAULT_SCENARIO)
    if isinstance(scen, dict):
        _build_description(eng, scen)
        return
    if not isinstance(scen, str):
        raise tcgcore.OptionsError(f"{GAME}: option 'scenario' must be a name or a description")
    names = scenario_names()
    found = find_scenario(scen, names)  # a code, or a name in any case
    if found is None:
        raise tcgcore.OptionsError(f"{GAME}: option 'scenario': unknown scenario {scen!r}; "
                                   f"the scenarios are {scenario_list(names)}")
    scen = found
    try:
        sdef = load_scenario(scen)
    except tcgcore.CardDataError as exc:
        raise tcgcore.OptionsError(f"{GAME}: option 'scenario': {exc}") from None
    _setup_builtin(eng, sdef, options)


def scenario_names() -> list[str]:
    """The built-in scenario names (``data/scenario_<name>.json``), sorted: the values the
    ``scenario`` option accepts as a string, e.g. ``["01104", "01120", "01142", "test"]``."""
    global _SCENARIO_NAMES
    if _SCENARIO_NAMES is None:  # the package's data files do not change: listed once
        base = resources.files("tcgcore_arkham_card") / "data"
        _SCENARIO_NAMES = tuple(sorted(
            f.name[len("scenario_"):-len(".json")] for f in base.iterdir()
            if f.name.startswith("scenario_") and f.name.endswith(".json")))
    return list(_SCENARIO_NAMES)  # the caller's own copy


_SCENARIO_NAMES: tuple[str, ...] | None = None


def _deck_option(decks: Any, n: int) -> tuple[Any, list[DeckList]]:
    """Check option ``decks``: one entry per seat, each a list of card codes or a string
    (a starter deck name or an ArkhamDB deck JSON text). Returns the option and, when
    the entries are strings, the imported decks (validated; every problem at once)."""
    if decks is None:
        return None, []
    if not isinstance(decks, list):
        raise tcgcore.OptionsError(f"{GAME}: option 'decks' must be a list with one deck per "
                                   "investigator")
    if len(decks) != n:
        raise tcgcore.OptionsError(
            f"{GAME}: option 'decks' has {len(decks)} deck(s) for {n} investigator(s); the "
            f"number of players must match the number of decks (e.g. players={len(decks)}, "
            f"'tcgcore play --players {len(decks)}')")
    if all(isinstance(x, list) for x in decks):
        return decks, []
    if not all(isinstance(x, str) for x in decks):
        raise tcgcore.OptionsError(f"{GAME}: option 'decks': each deck is a list of card "
                                   "codes or a deck name / ArkhamDB deck JSON text")
    imported = [load_deck(x, f"option 'decks' seat {s}") for s, x in enumerate(decks)]
    problems: list[str] = []
    for s, deck in enumerate(imported):
        problems += [f"seat {s}: {p}" for p in deck_problems(deck)]
    if problems:
        raise tcgcore.DeckError(f"{GAME}: option 'decks'", problems)
    return decks, imported


def _imported_codes(eng: Eng, deck: DeckList, seat: int) -> list[str]:
    codes = deck_codes(deck, eng.rng)  # "01000": a random basic weakness (seeded)
    eng.emit("deck_imported", player=seat, data={"name": deck.name, "cards": len(codes)})
    return codes


def _starter_codes(eng: Eng, investigator: str, seat: int) -> list[str]:
    """:func:`_imported_codes` of the investigator's starter deck (A971.5)."""
    name, codes = starter_codes(investigator, eng.rng)  # "01000" drawn as deck_codes does
    eng.emit("deck_imported", player=seat, data={"name": name, "cards": len(codes)})
    return codes


def _trauma_entry(entry: Any, seat: int, inv: CardDef) -> tuple[int, int]:
    """Check one seat's ``trauma`` entry ``[physical, mental]`` (A309.1): two whole
    numbers 0 or more (not booleans), the starting damage below the investigator's
    health and the starting horror below its sanity (trauma reaching either means the
    investigator was killed or driven insane and cannot play, A954.1).

    Returns:
        ``(damage, horror)`` to start with.

    Raises:
        tcgcore.OptionsError: naming option 'trauma' and the seat.
    """
    ok = False
    if isinstance(entry, (list, tuple)) and len(entry) == 2:
        physical, mental = entry
        ok = (isinstance(physical, int) and not isinstance(physical, bool) and physical >= 0
              and isinstance(mental, int) and not isinstance(mental, bool) and mental >= 0)
    if not ok:
        raise tcgcore.OptionsError(f"{GAME}: option 'trauma' seat {seat}: needs [physical, "
                                   f"mental], two whole numbers 0 or more, got {entry!r}")
    physical, mental = int(physical), int(mental)
    health, sanity = inv.health, inv.sanity
    if health is not None and physical >= health:
        _trauma_too_much(seat, inv, physical, health, "health", "killed")
    if sanity is not None and mental >= sanity:
        _trauma_too_much(seat, inv, mental, sanity, "sanity", "driven insane")
    return physical, mental


def _trauma_too_much(seat: int, inv: CardDef, amount: int, limit: int, stat: str,
                     fate: str) -> None:
    """Raise the error for trauma that reaches the investigator's health or sanity.

    Raises:
        tcgcore.OptionsError: always (A309.1, A954.1).
    """
    raise tcgcore.OptionsError(
        f"{GAME}: option 'trauma' seat {seat}: {amount} "
        f"{'physical' if stat == 'health' else 'mental'} trauma reaches {inv.name}'s {stat} "
        f"({limit}): the investigator was {fate} and cannot play (A309.1, A954.1)")


def _difficulty(value: Any) -> str:
    if value not in _DIFFICULTIES:
        raise tcgcore.OptionsError(
            f"{GAME}: option 'difficulty' must be one of {', '.join(_DIFFICULTIES)}")
    return str(value)


def _setup_builtin(eng: Eng, sdef: ScenarioDef, options: dict[str, Any]) -> None:
    state = eng.state
    n = state.num_players
    state.scenario = sdef.code
    state.difficulty = _difficulty(options.get("difficulty", "standard"))
    decks, imported = _deck_option(options.get("decks"), n)
    default_invs = [d.investigator for d in imported] if imported else \
        list(sdef.investigators[:n])
    invs = options.get("investigators", default_invs)
    if not isinstance(invs, list) or len(invs) != n:
        raise tcgcore.OptionsError(f"{GAME}: option 'investigators' must list {n} codes")
    for s, code in enumerate(invs):
        if not isinstance(code, str):
            raise tcgcore.OptionsError(f"{GAME}: option 'investigators': entry {s} must be an "
                                       "investigator card code (a string such as "
                                       f"'01001'), got {code!r}")
    if imported and [str(i) for i in invs] != default_invs:
        raise tcgcore.OptionsError(f"{GAME}: option 'investigators' disagrees with the "
                                   "investigators of the decks in option 'decks'")
    if len(set(invs)) != len(invs):
        twice = next(i for i in invs if invs.count(i) > 1)
        seats = [s for s, i in enumerate(invs) if i == twice]
        who = card_pool()[str(twice)].name if str(twice) in card_pool() else str(twice)
        if imported:
            raise tcgcore.OptionsError(
                f"{GAME}: option 'decks': seats {' and '.join(map(str, seats))} got the same "
                f"investigator's deck ({who}); each investigator can be played by one seat "
                "only, so give each seat a different investigator's deck")
        raise tcgcore.OptionsError(f"{GAME}: option 'investigators' repeats an investigator "
                                   f"({who}, seats {' and '.join(map(str, seats))})")
    trauma = options.get("trauma", [[0, 0]] * n)
    if not isinstance(trauma, list) or len(trauma) != n:
        raise tcgcore.OptionsError(f"{GAME}: option 'trauma' needs [physical, mental] per seat")
    lead = options.get("lead", 0)
    # a bool is an int to isinstance, but not a seat (A306.1: the lead is a seat number)
    if isinstance(lead, bool) or not isinstance(lead, int) or not 0 <= lead < n:
        raise tcgcore.OptionsError(f"{GAME}: option 'lead' must be a seat 0..{n - 1}, "
                                   f"got {lead!r}")
    _zones(eng, n)
    for s, code in enumerate(invs):
        d = state.extra_defs.get(str(code)) if state.extra_defs else None
        d = d or card_pool().get(str(code))
        if d is None or d.type_code != "investigator":
            what = "unknown card code" if d is None else "not an investigator:"
            raise tcgcore.OptionsError(f"{GAME}: option 'investigators': {what} {code!r} "
                                       f"(the investigators are {investigator_list()})")
        card = eng.add_card(d.code, s, f"play.{s}")
        inv = Inv(code=d.code, card=card.id, resources=5)  # A303.1
        if imported:
            deck_codes = _imported_codes(eng, imported[s], s)
        elif decks is not None:
            deck_codes = [str(c) for c in decks[s]]
        elif d.code in sdef.decks:
            deck_codes = list(sdef.decks[d.code])
        elif d.code in STARTERS:
            deck_codes = _starter_codes(eng, d.code, s)
        else:
            deck_codes = []
        pool = card_pool()
        extra = state.extra_defs
        for c in deck_codes:
            if c not in pool and not (extra and c in extra):  # else _check_code passes
                _check_code(state, c, f"option 'decks' seat {s}")
        if decks is not None and not imported:
            problems = validate_deck(d.code, deck_codes)
            if problems:
                raise tcgcore.DeckError(f"{GAME}: option 'decks' seat {s}", problems)
        deck_zone = f"deck.{s}"
        add_card = eng.add_card
        for c in deck_codes:
            add_card(c, s, deck_zone)
        inv.damage, inv.horror = _trauma_entry(trauma[s], s, d)  # A309.1
        state.inv.append(inv)
    state.lead = lead  # A306.1
    bag = sdef.bags.get(state.difficulty)
    state.bag = list(bag) if bag is not None else chaos_bag(state.difficulty)
    extra_tokens = options.get("chaos_add", [])
    if not isinstance(extra_tokens, list) or not all(isinstance(t, str) for t in extra_tokens):
        raise tcgcore.OptionsError(f"{GAME}: option 'chaos_add' must list token names")
    for i, token in enumerate(extra_tokens):
        if not _token_ok(token):
            raise tcgcore.OptionsError(f"{GAME}: option 'chaos_add'[{i}]: unknown chaos token "
                                       f"{token!r}")
    state.bag += extra_tokens  # A957.1
    side = "easy_standard" if state.difficulty in ("easy", "standard") else "hard_expert"
    state.tokens = dict(sdef.tokens.get(side, {}))
    state.resolutions = dict(sdef.resolutions)
    for s in range(n):
        eng.shuffle(f"deck.{s}")
        draw_opening(eng, s, 5)  # A304
    eng.push(*[Mulligan(seat=s) for s in player_order(state)],
             ScenarioSetup(scenario=sdef.code), BeginRound())


def _scenario_setup(eng: Eng, step: ScenarioSetup) -> None:
    """A301.1, A307, A308: decks, locations and the starting location, after mulligans."""
    state = eng.state
    n = state.num_players
    sdef = load_scenario(step.scenario)
    for code in sdef.locations:
        _add_location(eng, code, "locations")
    for code in sdef.set_aside:
        d = cdef(state, code)
        if d.type_code == "location":
            _add_location(eng, code, "setaside")
        else:
            eng.add_card(code, SCENARIO_OWNER, "setaside")
    for code in sdef.acts:
        eng.add_card(code, SCENARIO_OWNER, "acts")
    for code in sdef.agendas:
        eng.add_card(code, SCENARIO_OWNER, "agendas")
    for code in sdef.encounter:
        eng.add_card(code, SCENARIO_OWNER, "encounter")
    eng.shuffle("encounter")
    rebuild_adjacency(state)
    start = next(c for c in state.zones["locations"].cards if state.cards[c].code == sdef.start)
    reveal_location(eng, start)
    for s in range(n):
        state.inv[s].location = start
    scenario_of(eng).setup(eng)  # the scenario's own setup (A981, A991)


# ---------------------------------------------------------------------------- builder


#: chaos token symbols a description may name (A214.2, A302); numbers are "+1", "0", "-8" …
_TOKEN_SYMBOLS: Final = ("skull", "cultist", "tablet", "elder_thing", "auto_fail", "elder_sign")
#: symbols whose effect comes from the scenario reference card (A214.2, A505.1)
_REFERENCE_SYMBOLS: Final = ("skull", "cultist", "tablet", "elder_thing")
_ASSET_KEYS: Final = ("code", "uses", "damage", "horror", "doom", "clues", "resources",
                      "exhausted")
#: Keys of a threat-area card object: the code and the tokens on it.
_THREAT_KEYS: Final = ("code", "damage", "horror", "doom", "clues", "resources")
#: Tokens a description may put on a card in play (counter names).
_CARD_TOKENS: Final = ("damage", "horror", "doom", "clues", "resources")


def _desc_bad(msg: str) -> tcgcore.OptionsError:
    return tcgcore.OptionsError(f"{GAME}: scenario description: {msg}")


def _token_ok(token: str) -> bool:
    digits = token[1:] if token[:1] in ("+", "-") else token
    return token in _TOKEN_SYMBOLS or (digits.isascii() and digits.isdigit())


def _shape_error(text: str) -> str:
    """msgspec's ``Expected `int`, got `str` - at `$.round``` as
    ``round: expected `int`, got `str```."""
    msg, sep, where = text.rpartition(" - at `$")
    if not sep:
        return text
    return f"{where.rstrip('`').lstrip('.') or 'description'}: {msg[:1].lower()}{msg[1:]}"


def _at_least(value: int, lo: int, field: str) -> None:
    if value < lo:
        raise _desc_bad(f"{field} must be an integer {lo} or more (got {value})")


def _check_description(desc: Description) -> None:
    """Field checks that need no card data: ranges, token names, duplicates, phase.

    Raises:
        tcgcore.OptionsError: naming the field, e.g. ``chaos_bag[3]: unknown chaos token``.
    """
    _at_least(desc.round, 1, "round")
    _at_least(desc.agenda_doom, 0, "agenda_doom")
    if desc.phase not in ("investigation", "mythos", "enemy", "upkeep"):
        raise _desc_bad(f"phase must be investigation, mythos, enemy or upkeep "
                        f"(got {desc.phase!r})")
    known = ", ".join(_TOKEN_SYMBOLS)
    for field, tokens in (("chaos_bag", desc.chaos_bag or []), ("tokens", desc.tokens)):
        for i, t in enumerate(tokens):
            if not _token_ok(t):
                raise _desc_bad(f"{field}[{i}]: unknown chaos token {t!r} (a number such as "
                                f"'+1', '0', '-2', or one of {known})")
    for sym in desc.token_effects or {}:
        if sym not in _REFERENCE_SYMBOLS:
            raise _desc_bad(f"token_effects: {sym!r} is not a reference-card symbol "
                            f"({', '.join(_REFERENCE_SYMBOLS)}; A214.2)")
    for res, outcome in desc.resolutions.items():
        if outcome not in ("win", "loss"):
            raise _desc_bad(f"resolutions.{res} must be 'win' or 'loss' (got {outcome!r})")
    seen: set[str] = set()
    for i, ld in enumerate(desc.locations):
        if ld.code in seen:
            raise _desc_bad(f"locations[{i}]: location {ld.code!r} is listed twice")
        seen.add(ld.code)
        if ld.clues is not None:
            _at_least(ld.clues, 0, f"locations[{i}].clues")
        _at_least(ld.doom, 0, f"locations[{i}].doom")
    for s, idesc in enumerate(desc.investigators):
        where = f"investigators[{s}]"
        for k in ("resources", "clues", "damage", "horror"):
            _at_least(getattr(idesc, k), 0, f"{where}.{k}")
        for k in ("willpower", "intellect", "combat", "agility"):
            if getattr(idesc, k) is not None:
                _at_least(getattr(idesc, k), 0, f"{where}.{k}")
        for k in ("health", "sanity"):
            if getattr(idesc, k) is not None:
                _at_least(getattr(idesc, k), 1, f"{where}.{k}")
        for j, a in enumerate(idesc.assets):
            _check_asset(a, f"{where}.assets[{j}]")
        for j, a in enumerate(idesc.threat):
            _check_asset(a, f"{where}.threat[{j}]", _THREAT_KEYS)
    for i, ed in enumerate(desc.enemies):
        _at_least(ed.damage, 0, f"enemies[{i}].damage")
        _at_least(ed.doom, 0, f"enemies[{i}].doom")
        if ed.engaged is not None and ed.location:
            raise _desc_bad(f"enemies[{i}]: give location or engaged, not both")
        if ed.engaged is None and not ed.location:
            raise _desc_bad(f"enemies[{i}]: needs a location or an engaged seat")


def _check_asset(a: str | dict[str, Any], where: str,
                 keys: tuple[str, ...] = _ASSET_KEYS) -> None:
    """An asset or threat-area card object: a code, known keys, tokens 0 or more."""
    if isinstance(a, str):
        return
    if not isinstance(a.get("code"), str):
        raise _desc_bad(f"{where}.code: missing (the card's code)")
    for k, v in a.items():
        if k not in keys:
            raise _desc_bad(f"{where}: unknown field {k!r} (known: {', '.join(keys)})")
        if k == "exhausted" and not isinstance(v, bool):
            raise _desc_bad(f"{where}.exhausted must be true or false")
        if (k == "uses" or k in _CARD_TOKENS) and (
                isinstance(v, bool) or not isinstance(v, int) or v < 0):
            raise _desc_bad(f"{where}.{k} must be an integer 0 or more (got {v!r})")


def _check_vocabulary(raw: dict[str, Any]) -> None:
    """Card objects and token effects use only fields, effect ops, keywords and prey forms
    the engine knows (card_checks.py), so a mistake fails here, naming the path of the
    field, and not when the card is played.

    Raises:
        tcgcore.OptionsError: e.g. ``cards[0].revelation[0].op: unknown effect op ...``.
    """
    for i, card in enumerate(raw.get("cards") or ()):
        problem = card_object_problem(card, f"cards[{i}]")
        if problem:
            raise _desc_bad(problem)
    effects = raw.get("token_effects")
    if isinstance(effects, dict):
        for sym, te in effects.items():
            problem = token_effect_problem(te, f"token_effects.{sym}")
            if problem:
                raise _desc_bad(problem)


def _check_tokens_left(what: str, value: int, limit: int | None, field: str,
                       code: str, rule: str) -> None:
    """A described amount of damage or horror that would already defeat its card."""
    if value > 0 and limit is not None and value >= limit:
        raise _desc_bad(f"{field}: {value} {what} would already defeat {code} "
                        f"({limit}; {rule})")


def _typed(d: CardDef, type_code: str, where: str) -> CardDef:
    if d.type_code != type_code:
        raise _desc_bad(f"{where}: {d.code} is {indefinite(d.type_code)} card, not "
                        f"{indefinite(type_code)}")
    return d


def _build_description(eng: Eng, raw: dict[str, Any]) -> None:
    state = eng.state
    try:
        desc = msgspec.convert(raw, Description)
    except msgspec.ValidationError as exc:
        raise _desc_bad(_shape_error(str(exc))) from None
    _check_description(desc)
    _check_vocabulary(raw)
    if len(desc.investigators) != state.num_players:
        raise tcgcore.OptionsError(f"{GAME}: scenario description lists "
                                   f"{len(desc.investigators)} investigators for "
                                   f"{state.num_players} seats")
    if desc.cards:
        state.extra_defs = parse_cards(msgspec.json.encode(desc.cards), source="description")
    pool = card_pool()
    extra = dict(state.extra_defs)
    for ld in desc.locations:
        if ld.connections is not None:
            base = extra.get(ld.code) or pool.get(ld.code)
            if base is None:
                raise tcgcore.OptionsError(f"{GAME}: locations: unknown card code {ld.code!r}")
            extra[ld.code] = msgspec.structs.replace(base, connections=tuple(ld.connections))
    for idesc in desc.investigators:
        changes: dict[str, Any] = {f"skill_{k}": getattr(idesc, k) for k in
                                   ("willpower", "intellect", "combat", "agility")
                                   if getattr(idesc, k) is not None}
        changes.update({k: getattr(idesc, k) for k in ("health", "sanity")
                        if getattr(idesc, k) is not None})
        if changes:
            base = extra.get(idesc.code) or pool.get(idesc.code)
            if base is None:
                raise tcgcore.OptionsError(f"{GAME}: investigators: unknown card code "
                                           f"{idesc.code!r}")
            extra[idesc.code] = msgspec.structs.replace(base, **changes)
    state.extra_defs = extra
    state.scenario = "description"
    state.difficulty = _difficulty(desc.difficulty)
    n = state.num_players
    _zones(eng, n)
    locs: dict[str, int] = {}
    for i, ld in enumerate(desc.locations):
        _typed(_check_code(state, ld.code, f"locations[{i}]"), "location", f"locations[{i}]")
        lid = _add_location(eng, ld.code, "locations")
        locs[ld.code] = lid
        if ld.revealed:
            eng.set_counter(lid, "revealed", 1)
            if ld.clues is None:
                place_clues(eng, lid)
        if ld.clues is not None:
            eng.set_counter(lid, "clues", ld.clues)
        if ld.doom:
            eng.set_counter(lid, "doom", ld.doom)
    for code in desc.set_aside:
        d = _check_code(state, code, "set_aside")
        if d.type_code == "location":
            _add_location(eng, code, "setaside")
        else:
            eng.add_card(code, SCENARIO_OWNER, "setaside")
    rebuild_adjacency(state)
    first_loc = state.zones["locations"].cards[0] if state.zones["locations"].cards else -1
    for s, idesc in enumerate(desc.investigators):
        d = _typed(_check_code(state, idesc.code, f"investigators[{s}]"), "investigator",
                   f"investigators[{s}]")
        _check_tokens_left("damage", idesc.damage, d.health, f"investigators[{s}].damage",
                           d.code, "A703.1")
        _check_tokens_left("horror", idesc.horror, d.sanity, f"investigators[{s}].horror",
                           d.code, "A703.1")
        card = eng.add_card(d.code, s, f"play.{s}")
        inv = Inv(code=d.code, card=card.id, resources=idesc.resources, clues=idesc.clues,
                  damage=idesc.damage, horror=idesc.horror, mulliganed=True)
        inv.location = locs.get(idesc.location, first_loc) if idesc.location else first_loc
        if idesc.location and idesc.location not in locs:
            raise tcgcore.OptionsError(f"{GAME}: investigators[{s}]: location "
                                       f"{idesc.location!r} is not in play")
        state.inv.append(inv)
        for zone, codes in ((f"hand.{s}", idesc.hand), (f"deck.{s}", idesc.deck),
                            (f"discard.{s}", idesc.discard)):
            for c in codes:
                _check_code(state, c, f"investigators[{s}]")
                eng.add_card(c, s, zone)
        for t in idesc.threat:  # a code, or an object with the tokens on the card
            spec_t: dict[str, Any] = {"code": t} if isinstance(t, str) else dict(t)
            _check_code(state, str(spec_t["code"]), f"investigators[{s}].threat")
            tcard = eng.add_card(str(spec_t["code"]), s, f"threat.{s}")
            for k in _CARD_TOKENS:
                if spec_t.get(k):
                    eng.set_counter(tcard.id, k, int(spec_t[k]))
        for a in idesc.assets:
            spec_a: dict[str, Any] = {"code": a} if isinstance(a, str) else dict(a)
            ad = _check_code(state, str(spec_a["code"]), f"investigators[{s}].assets")
            for k, limit in (("damage", ad.health), ("horror", ad.sanity)):
                if spec_a.get(k) and limit is None:
                    raise _desc_bad(f"investigators[{s}].assets: {ad.code} has no printed "
                                    f"{'health' if k == 'damage' else 'sanity'}, so it "
                                    f"cannot hold {k} (A205.1)")
                _check_tokens_left(k, int(spec_a.get(k, 0)), limit,
                                   f"investigators[{s}].assets", ad.code, "A205.2")
            acard = eng.add_card(ad.code, s, f"play.{s}")
            register_aura(state, acard.id)  # Lita Chantler as a builder asset (A216.3)
            if ad.uses is not None:
                eng.set_counter(acard.id, "uses", int(spec_a.get("uses", ad.uses.count)))
            for k in _CARD_TOKENS:
                if spec_a.get(k):
                    eng.set_counter(acard.id, k, int(spec_a[k]))
            if spec_a.get("exhausted"):
                eng.update_card(acard.id, exhausted=True)
    if not 0 <= desc.lead < len(desc.investigators):
        raise tcgcore.OptionsError(f"{GAME}: lead {desc.lead} is not an investigator seat "
                                   f"(0..{len(desc.investigators) - 1})")
    state.lead = desc.lead
    for i, ed in enumerate(desc.enemies):
        e_def = _typed(_check_code(state, ed.code, f"enemies[{i}]"), "enemy", f"enemies[{i}]")
        if e_def.health is not None:
            e_health = e_def.health * (n if e_def.health_per_investigator else 1)
            _check_tokens_left("damage", ed.damage, e_health, f"enemies[{i}].damage",
                               ed.code, "A615.1")
        if ed.engaged is not None:
            if not 0 <= ed.engaged < len(desc.investigators):
                raise tcgcore.OptionsError(f"{GAME}: enemies[{i}].engaged: {ed.engaged} is not "
                                           f"an investigator seat")
            zone = f"threat.{ed.engaged}"
        else:
            if ed.location not in locs:
                raise tcgcore.OptionsError(f"{GAME}: enemies: location {ed.location!r} "
                                           "is not in play")
            zone = f"at.{locs[ed.location]}"
        if ed.owner is not None and not 0 <= ed.owner < len(desc.investigators):
            raise tcgcore.OptionsError(f"{GAME}: enemies[{i}].owner: {ed.owner} is not "
                                       f"an investigator seat")
        owner = ed.owner if ed.owner is not None else SCENARIO_OWNER  # a weakness's bearer
        ecard = eng.add_card(ed.code, owner, zone)
        if ed.exhausted:
            eng.update_card(ecard.id, exhausted=True)
        if ed.damage:
            eng.set_counter(ecard.id, "damage", ed.damage)
        if ed.doom:
            eng.set_counter(ecard.id, "doom", ed.doom)
    for code in desc.acts:
        _typed(_check_code(state, code, "acts"), "act", "acts")
        eng.add_card(code, SCENARIO_OWNER, "acts")
    for code in desc.agendas:
        _typed(_check_code(state, code, "agendas"), "agenda", "agendas")
        eng.add_card(code, SCENARIO_OWNER, "agendas")
    if desc.agenda_doom and state.zones["agendas"].cards:
        eng.set_counter(state.zones["agendas"].cards[0], "doom", desc.agenda_doom)
    for zone, codes in (("encounter", desc.encounter_deck),
                        ("encounter_discard", desc.encounter_discard),
                        ("victory", desc.victory)):
        for c in codes:
            _check_code(state, c, zone)
            eng.add_card(c, SCENARIO_OWNER, zone)
    if desc.chaos_bag is not None and not desc.chaos_bag:
        raise tcgcore.OptionsError(f"{GAME}: chaos_bag must hold at least one token")
    state.bag = list(desc.chaos_bag) if desc.chaos_bag is not None else \
        chaos_bag(state.difficulty)
    state.next_tokens = list(desc.tokens)
    if desc.token_effects is not None:
        state.tokens = dict(desc.token_effects)
    else:
        side = "easy_standard" if state.difficulty in ("easy", "standard") else "hard_expert"
        state.tokens = dict(load_scenario("test").tokens.get(side, {}))
    state.resolutions = dict(desc.resolutions)
    for s in range(n):
        loc = state.inv[s].location
        if loc >= 0:
            state.inv[s].location = -1
            enter_location(eng, s, loc)
    state.triggers = []  # placing investigators triggers no forced "after you enter"
    engage_checks = list(state.stack)
    state.stack.clear()
    state.turn = desc.round
    phase = desc.phase
    if phase == "investigation":
        eng.push(InvestigationPhase())
    elif phase == "mythos":
        eng.push(MythosPhase())
    elif phase == "enemy":
        eng.push(EnemyPhase())
    elif phase == "upkeep":
        eng.push(UpkeepPhase())
    else:
        raise tcgcore.OptionsError(f"{GAME}: scenario description: unknown phase {phase!r}")
    state.stack.extend(engage_checks)  # enemies described at an investigator's location


def register(spec: tcgcore.GameSpec[ArkhamState]) -> None:
    """Register this module's step handlers on ``spec`` (:func:`.plugin.build_spec` calls it
    once, on the spec it builds)."""
    spec.handles(ScenarioSetup)(_scenario_setup)
