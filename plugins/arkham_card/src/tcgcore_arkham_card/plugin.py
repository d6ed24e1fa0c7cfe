"""Registers the arkham_card game with tcgcore (entry point group ``tcgcore``).

:func:`build_spec` assembles the game's :class:`~.scenario_hooks.ArkhamSpec` in one place: every
field at once, the step handlers of each rules module (their ``register`` functions) and
the table of scenarios (:mod:`.scenario_hooks`). The rules live in the modules it names (layers
in ``docs/architecture.md``); this module adds the public view panel (:func:`view_extra`
and :func:`view_fact`, from :mod:`.panel`), readable event lines and the registration
hook.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import tcgcore

from . import (
    actions,
    effects,
    enemies,
    midnight_masks,
    rules,
    scenario_setup,
    search_hooks,
    skill_tests,
)
from .agent import HeuristicAgent
from .campaign_runner import run_campaign_cli
from .card_usage import card_usage
from .cards import CardDef, card_pool, load_scenario
from .decks import check_deck
from .panel import view_extra, view_fact
from .presentation import card_info as _catalogue_entry
from .presentation import table_layout
from .queries import GAME, cdef, dof
from .scenario_hooks import ArkhamSpec
from .scenario_setup import OPTIONS, _token_ok, scenario_names
from .scenarios import SCENARIOS
from .state import ArkhamState
from .validation import RESUME_STEPS, state_problem

__all__ = ["GAME", "OPTIONS", "ArkhamState", "build_spec", "spec", "tcgcore_games", "view_extra",
           "view_fact"]


_SKIP = frozenset({"shuffled", "test_ended", "ability_used", "asset_played", "entered_play",
                   "phase_ended", "moved", "enemy_engaged", "action_taken", "put_into_play",
                   "flipped", "deck_imported"})


def _cname(state: ArkhamState, event: tcgcore.Event) -> str:
    if event.code:
        try:
            return cdef(state, event.code).name
        except KeyError:
            return event.code
    if event.card is not None and 0 <= event.card < len(state.cards):
        try:
            return dof(state, event.card).name
        except KeyError:
            return str(event.card)
    return ""


def _who(state: ArkhamState, seat: int | None) -> str:
    if seat is None or not 0 <= seat < len(state.inv):
        return ""
    try:
        return cdef(state, state.inv[seat].code).name
    except KeyError:
        return f"Investigator {seat}"


def _id_name(state: ArkhamState, cid: Any) -> str:
    try:  # an instance id, or a seat's alias of the card (seat events, views)
        named = tcgcore.card_named(state, int(cid))
        return dof(state, named).name if named is not None else str(cid)
    except (KeyError, ValueError, TypeError, IndexError):
        return str(cid)


#: an investigator's zones (``KIND.SEAT``) and the shared zones, as words in a sentence
_OWN_ZONES = {"deck": "deck", "hand": "hand", "discard": "discard pile",
              "play": "play area", "threat": "threat area", "aside": "set-aside cards"}
_SHARED_ZONES = {"encounter": "the encounter deck",
                 "encounter_discard": "the encounter discard pile", "locations": "play",
                 "setaside": "the set-aside cards", "acts": "the act deck",
                 "agendas": "the agenda deck", "victory": "the victory display",
                 "committed": "the skill test", "resolving": "the resolving cards",
                 "out": "out of the game", "removed": "out of the game"}


def _zone_words(state: ArkhamState, zone: str | None) -> str:
    """``"Roland Banks's hand"``, ``"the encounter deck"``, ``"Study"`` (a card attached
    to location ``at.ID``) for a zone id; the id itself when it is none of these."""
    if not zone:
        return "nowhere"
    kind, _, rest = zone.partition(".")
    if kind == "at" and rest:
        return _id_name(state, rest)
    if kind in _OWN_ZONES and rest.isdigit():
        owner = _who(state, int(rest))
        return f"{owner}'s {_OWN_ZONES[kind]}" if owner else f"a {_OWN_ZONES[kind]}"
    return _SHARED_ZONES.get(zone, zone)


#: sentences for card moves and bookkeeping events by kind: ``{who}`` the investigator,
#: ``{c}`` the card, ``{src}`` / ``{dst}`` the zones in words (see :func:`_zone_words`)
_MOVE_LINES = {
    "moved": "{c} goes from {src} to {dst}",
    "entered_play": "{c} enters {dst}",
    "asset_played": "{who} now controls {c}",
    "put_into_play": "{c} is put into play",
    "set_aside": "{who} sets {c} aside",
    "searched": "{who} finds {c} in {src}",
    "returned": "{c} returns to {dst}",
    "attached": "{c} is attached to {dst}",
    "shuffled_back": "{c} is shuffled back into {dst}",
    "to_deck_bottom": "{c} goes to the bottom of {dst}",
    "reordered": "{c} is put back into {dst} in a new order",
    "ability_used": "{who} uses {c}",
    "enemy_engaged": "{c} engages {who}",
}


def _bookkeeping(state: ArkhamState, event: tcgcore.Event, who: str, name: str) -> str | None:
    """A sentence for a card move or a bookkeeping event (without the ``  · `` mark), or
    ``None`` when the kind has none."""
    k = event.kind
    data = event.data or {}
    if k == "shuffled":
        return f"{_zone_words(state, event.src)} is shuffled" if event.src else \
            f"{who} shuffles".strip()
    if k == "deck_imported":
        return f"{who}'s deck is ready ({data.get('cards', '?')} cards)"
    if k == "test_ended":
        verdict = "succeeded" if data.get("success") else "failed"
        return f"{who}'s skill test is over ({verdict})"
    if k == "phase_ended":
        return f"end of the {data.get('phase', '')} phase".replace("the  phase", "the phase")
    if k == "flipped":
        return f"{name} is flipped"
    line = _MOVE_LINES.get(k)
    if line is None:
        return None
    return line.format(who=who or "someone", c=name or "a card",
                       src=_zone_words(state, event.src), dst=_zone_words(state, event.dst))


def describe(state: ArkhamState, event: tcgcore.Event) -> str:
    """One readable line per event for ``tcgcore play``: rounds and phases, actions,
    skill tests with the token and the arithmetic, encounter cards, doom, clues, damage
    and horror, acts, agendas and the resolution with its experience. Bookkeeping
    events get a short indented line (the CLI prints a line for every event)."""
    k = event.kind
    data = dict(event.data or {})
    who = _who(state, event.player)
    name = _cname(state, event)
    amt = event.amount
    if k == "round_started":
        return f"=== Round {amt} ==="
    if k == "phase":
        return f"--- {str(data.get('phase', '')).capitalize()} phase ---"
    if k == "turn_started":
        return f"{who}'s turn"
    if k == "turn_ended":
        return f"{who} ends the turn"
    if k == "action_taken":
        return f"{who} takes an action: {data.get('action')}"
    if k == "drawn":
        return f"{who} draws {name}" if event.src and event.src.startswith("deck") else \
            f"{who} takes {name}"
    if k == "encounter_drawn":
        return f"{who} draws encounter card {name}"
    if k == "played":
        return f"{who} plays {name}"
    if k == "committed":
        return f"{who} commits {name}"
    if k == "test_started":
        return (f"{who} tests {data.get('skill')} ({data.get('kind')}) against difficulty "
                f"{data.get('difficulty')}")
    if k == "token_revealed":
        return f"  chaos token: {token_words(str(data.get('token')))}"
    if k in ("test_succeeded", "test_failed"):
        parts = [f"{data.get('skill', '?')} {data.get('base', '?')}"]
        if data.get("bonus"):
            parts.append(f"{int(str(data['bonus'])):+d} bonus")
        if data.get("icons"):
            parts.append(f"+{data['icons']} committed icons")
        for tok in str(data.get("tokens") or "").split(","):
            if tok:
                t, _, m = tok.partition(":")
                parts.append(f"{m} ({token_words(t)})")
        verdict = "succeeds" if k == "test_succeeded" else "fails"
        auto = f", automatic {data['auto']}" if data.get("auto") else ""
        return (f"  {' '.join(parts)} = {data.get('value')} vs {data.get('difficulty')}: "
                f"{verdict} by {abs(amt or 0)}{auto}")
    if k == "harm_placed":
        bits = [f"{data[x]} {x}" for x in ("damage", "horror") if data.get(x)]
        tail = f" (now {data.get('total_damage')} damage, {data.get('total_horror')} horror)" \
            if "total_damage" in data else ""
        return f"{who} takes {' and '.join(bits) or 'nothing (soaked by assets)'}{tail}"
    if k == "clues_discovered":
        return f"{who} discovers {amt} clue(s) at {name}"
    if k == "clues_spent":
        return f"{who} spends {amt} clue(s)"
    if k == "clues_would_discover":  # Cover Up's "when" window (A974.1)
        return f"{who} is about to discover {amt} clue(s)"
    if k == "clues_covered":
        return f"{amt} clue(s) come off {name} instead"
    if k == "cannot_leave_play":
        return f"{name} cannot leave play while it has horror on it"
    if k == "surge":
        return f"{name} surges: {who} draws another encounter card after it"
    if k == "enemy_exhausted":
        return f"{name} exhausts"
    if k == "doom_placed":
        tail = f" (doom in play {data['in_play']}/{data['threshold']})" \
            if "in_play" in data else ""
        return f"{amt} doom on {name}{tail}"
    if k == "agenda_advanced":
        return f"Agenda advances: {name}"
    if k == "act_advanced":
        return f"Act advances: {name}"
    if k == "location_revealed":
        return f"{name} is revealed with {amt} clue(s)"
    if k == "moved_location":
        return f"{who} moves to {name}"
    if k == "removed":
        return f"{name} leaves the game" if event.code and \
            cdef(state, event.code).type_code == "location" else \
            f"  · {name or 'A card'} is removed from the game"
    if k == "asset_defeated":
        return f"{name} is defeated"
    if k == "threat_area":
        return f"{name} goes to {who}'s threat area"
    if k == "disengaged":
        return f"{name} is no longer engaged"
    if k == "round_ended":
        return f"--- End of round {amt} ---"
    if k == "entered":
        return f"{who} enters {name}"
    if k == "spawned":
        return f"{name} spawns at {_id_name(state, data.get('location'))}" \
            if data.get("location") is not None else f"{name} spawns"
    if k == "engaged":
        return f"{name} engages {who}" if who else f"{name} engages"
    if k == "enemy_attacks":
        return f"{name} attacks {who}"
    if k == "enemy_damaged":
        return f"{name} takes {amt} damage"
    if k == "enemy_defeated":
        return f"{who} defeats {name}" if who else f"{name} is defeated"
    if k == "enemy_evaded":
        return f"{who} evades {name}"
    if k == "enemy_moved":
        return f"{name} moves"
    if k == "resource_gained":
        return f"{who} gains {amt} resource(s)"
    if k == "investigator_eliminated":
        return f"{who} is eliminated ({data.get('reason')})"
    if k == "discarded":
        return f"{name} is discarded"
    if k == "to_victory":
        return f"{name} goes to the victory display"
    if k == "mulligan":
        return f"{who} mulligans {amt} card(s)"
    if k == "ability":
        return f"{who}: {name} triggers" if name else f"{who}: ability"
    if k == "game_over":
        return _describe_end(state)
    if k == "enemy_entered":
        return f"{_id_name(state, data.get('enemy'))} enters {name}" \
            if data.get("enemy") is not None else f"An enemy enters {name}"
    line = _bookkeeping(state, event, who, name)
    if line:
        line = line[0].upper() + line[1:]
        return ("  · " if k in _SKIP else "") + line
    if k in _SKIP:
        bits = [b for b in (who, k.replace("_", " "), name) if b]
        return "  · " + " ".join(bits)
    if event.src or event.dst:
        return (f"{name or 'A card'} ({k.replace('_', ' ')}) goes from "
                f"{_zone_words(state, event.src)} to {_zone_words(state, event.dst)}")
    parts = [p for p in (who, k.replace("_", " "), name) if p]
    if amt is not None:
        parts.append(str(amt))
    return " ".join(parts)


def optional_window(state: ArkhamState, choice: tcgcore.Choice) -> tuple[str, bool] | None:
    """Auto-pass (a front-end setting, ``docs/cli.md``): the windows asked only so that
    nobody learns what a hand holds (A913.2: a commit window with no card to commit; the
    "no card to play now" response window) can be passed, and offer nothing to play."""
    if choice.kind == "commit" and [o.key for o in choice.options] == ["none"]:
        return "none", False
    if choice.kind == "use_trigger" and state.stack:
        trigger = getattr(state.stack[-1], "trigger", None)
        if trigger is not None and str(trigger.ability).startswith("pass_when:"):
            return "no", False
    return None


def deck_option_words(option: str) -> str:
    """A deckbuilding option (``guardian:0-5``) in words: ``Guardian cards of level 0-5``."""
    faction, _, levels = option.partition(":")
    return f"{faction.capitalize()} cards" + (f" of level {levels}" if levels else "")


def objective_words(objective: str) -> str:
    """An act's objective (``defeat:01116``, ``enter:01156``, ...) as words: "defeat Ghoul
    Priest"."""
    kind, _, rest = objective.partition(":")
    if kind == "defeat":
        return f"objective: defeat {card_name(rest)}"
    if kind == "enter":
        return f"objective: an investigator enters {card_name(rest)}"
    if kind == "round_end_at":
        return f"objective: an investigator is at {card_name(rest)} at the end of the round"
    if kind == "victory_unique_trait":
        trait, _, count = rest.partition(":")
        return f"objective: {count} or more unique {trait} enemies in the victory display"
    if kind == "clues_on_act":
        return "objective: place the required clues on this act"
    return "objective: as the act's text says"


#: the skill icons of a card, in the order of the card
_ICONS = (("skill_willpower", "willpower"), ("skill_intellect", "intellect"),
          ("skill_combat", "combat"), ("skill_agility", "agility"), ("skill_wild", "wild"))


def icon_words(d: CardDef) -> str:
    """A card's commit icons in words (``"icons: intellect x2, wild"``; empty for none)."""
    icons = []
    for field, word in _ICONS:
        n = getattr(d, field)
        if n:
            icons.append(word + (f" x{n}" if n > 1 else ""))
    return "icons: " + ", ".join(icons) if icons else ""


def enemy_words(code: str) -> str:
    """An enemy's printed fight, evade and attack (damage and horror)."""
    d = card_pool().get(code)
    if d is None:
        return ""
    fight = "-" if d.enemy_fight is None else d.enemy_fight
    evade = "-" if d.enemy_evade is None else d.enemy_evade
    return (f"fight {fight}, evade {evade}, attack {d.enemy_damage} damage "
            f"{d.enemy_horror} horror")


#: counters a board shows in words (others, such as "revealed", are bookkeeping)
_COUNTER_WORDS = {"clues": "clue", "doom": "doom", "damage": "damage", "horror": "horror",
                  "uses": "use", "resources": "resource", "charges": "charge",
                  "secrets": "secret", "supplies": "supply", "ammo": "ammo"}


def card_tags(view: tcgcore.View, card: tcgcore.CardView) -> list[str] | None:
    """What the board shows after a card's name: its cost and commit icons (player cards),
    an enemy's fight, evade, health and attack, exhausted, and its tokens in words."""
    if card.code is None:
        return None
    d = card_pool().get(card.code)
    tags: list[str] = []
    if d is not None and d.type_code in ("asset", "event", "skill"):
        if d.cost is not None:
            tags.append(f"cost {d.cost}")
        icons = icon_words(d)
        if icons:
            tags.append(icons)
    if d is not None and d.type_code == "enemy":
        health = view.panel.get("enemies", {}).get(str(card.id), {}).get("health")
        tags.append(enemy_words(card.code) + (f", health {health}" if health else ""))
    if card.exhausted:
        tags.append("exhausted")
    for name, value in sorted(card.counters.items()):
        word = _COUNTER_WORDS.get(name)
        if word is not None and value:
            plural = "" if value == 1 or word in ("doom", "damage", "horror", "ammo") else "s"
            tags.append(f"{value} {word}{plural}")
    return tags


def _describe_end(state: ArkhamState) -> str:
    res = state.result
    if res is None:
        return "The game is over"
    d = res.detail
    resolution = d.get("resolution")
    head = "No resolution" if resolution in (None, "R-none", "none") else \
        f"Resolution {resolution}"
    outcome = str(d.get("outcome", res.reason)).replace("_", " ")
    line = f"{head} ({outcome}) after " \
           f"round {d.get('round', state.turn)}; victory display {d.get('victory', 0)}"
    xp = d.get("xp")
    if xp is not None:
        line += f"; experience {xp} each"
    for s in range(len(state.inv)):
        status = d.get(f"status{s}")
        trauma = d.get(f"trauma{s}")
        line += f"; {_who(state, s)}: {status}" + (f", {trauma} trauma" if trauma else "")
    return line


def validate(state: ArkhamState) -> str | None:
    """Game facts a loaded save must respect (``spec.validate_state``: the core turns the
    returned problem into a :class:`tcgcore.StateDecodeError`): known card codes, one
    investigator entry per seat, a valid lead, each investigator's ``card`` and
    ``location`` (a location of the match, or -1), a chaos ``bag`` of known tokens that is not
    empty once set up (A302), and a ``scenario`` that names a built-in scenario whose
    acts and agendas are the ones in the save (or a scenario description).

    Returns:
        ``None``, or one problem naming the field, e.g. ``inv[0].location: 9999 is not a
        location``.
    """
    pool = card_pool()
    for card in state.cards:
        if card.code not in pool and card.code not in state.extra_defs:
            return f"card {card.id} has unknown code {card.code!r}"
    if state.inv and len(state.inv) != state.num_players:
        return f"{len(state.inv)} investigators for {state.num_players} seats"
    if not 0 <= state.lead < state.num_players:
        return f"lead {state.lead} is not a seat"
    for s, inv in enumerate(state.inv):
        if not 0 <= inv.card < len(state.cards) or state.cards[inv.card].code != inv.code:
            return f"inv[{s}].card: {inv.card} is not the investigator card {inv.code!r}"
        if inv.location != -1 and f"at.{inv.location}" not in state.zones:
            return f"inv[{s}].location: {inv.location} is not a location"
    return _validate_bag(state) or _validate_scenario(state) or state_problem(state)


def _validate_bag(state: ArkhamState) -> str | None:
    """The chaos bag of a save (A302): known tokens, not empty once the match is set up."""
    for i, token in enumerate(state.bag):
        if not _token_ok(token):
            return f"bag[{i}]: unknown chaos token {token!r}"
    if not state.bag and state.scenario:
        return "bag: the chaos bag is empty"
    return None


@cache
def _act_agenda_codes() -> frozenset[str]:
    """The codes of the built-in pool's act and agenda cards."""
    return frozenset(code for code, d in card_pool().items() if d.type_code in ("act", "agenda"))


def _validate_scenario(state: ArkhamState) -> str | None:
    """The ``scenario`` field of a save: ``""`` (not set up yet), ``"description"`` or a
    built-in scenario whose act and agenda cards are the ones the save holds."""
    if state.scenario in ("", "description"):
        return None
    names = scenario_names()
    if state.scenario not in names:
        return (f"scenario: {state.scenario!r} is not a scenario ({', '.join(names)} or a "
                "description)")
    sdef = load_scenario(state.scenario)
    letters = "abcdefghijklmnopqrstuvwxyz"
    allowed = {c.rstrip(letters) for c in (*sdef.acts, *sdef.agendas, *sdef.set_aside)}
    extra = state.extra_defs
    pool = card_pool()
    acts = None if extra else _act_agenda_codes()
    for card in state.cards:
        code = card.code
        if acts is not None and code not in acts:  # the pool's acts and agendas, found once
            continue
        d = extra.get(code) or pool.get(code)
        if d is not None and d.type_code in ("act", "agenda") and \
                code.rstrip(letters) not in allowed:  # "01145b": the back of 01145
            return (f"scenario: {state.scenario!r} does not match the cards ({d.type_code} "
                    f"{card.code} belongs to another scenario)")
    return None


def card_name(code: str) -> str:
    """Display name of a card code (the code itself when unknown)."""
    d = card_pool().get(code)
    return d.name if d is not None else code


_ICON_NAMES = (("willpower", "W"), ("intellect", "I"), ("combat", "C"), ("agility", "A"),
               ("wild", "?"))


def card_text(code: str) -> str | None:
    """A card's full text for people (``tcgcore card``/``text`` in the terminal UI): name,
    class, type, level, cost, icons, slot, traits, printed numbers, keywords and our own
    wording of its abilities; what is only partly modelled is said."""
    code = find_card(code) or code
    d = card_pool().get(code)
    if d is None:
        return None
    title = d.name + (f": {d.subname}" if d.subname else "")
    head = [f"{title} ({code})", d.faction_code, d.type_code]
    if d.subtype_code:
        head.append(d.subtype_code)
    if d.xp is not None and d.type_code in ("asset", "event", "skill"):
        head.append(f"level {d.xp}")
    parts = [" - ".join(head)]
    nums = []
    if d.cost is not None:
        nums.append(f"cost {d.cost}")
    icons = " ".join(f"{short}x{getattr(d, 'skill_' + k)}" for k, short in _ICON_NAMES
                     if getattr(d, "skill_" + k) and d.type_code != "investigator")
    if icons:
        nums.append(f"icons {icons}")
    if d.slot:
        nums.append(f"slot {d.slot}")
    if d.uses is not None:
        nums.append(f"uses {d.uses.count} {d.uses.type}")
    if d.type_code == "enemy":
        hp = f"{d.health}{'/inv' if d.health_per_investigator else ''}"
        nums.append(f"fight {d.enemy_fight}, health {hp}, evade {d.enemy_evade}, "
                    f"attack {d.enemy_damage} damage / {d.enemy_horror} horror")
    elif d.type_code == "location":
        nums.append(f"shroud {d.shroud}, clues {d.clues}{'' if d.clues_fixed else '/inv'}, "
                    f"symbol {d.symbol}, connects to {', '.join(d.connections) or 'nothing'}")
    elif d.type_code == "investigator":
        nums.append(f"willpower {d.skill_willpower}, intellect {d.skill_intellect}, "
                    f"combat {d.skill_combat}, agility {d.skill_agility}, health {d.health}, "
                    f"sanity {d.sanity}; deck {d.deck_size} cards: "
                    f"{', '.join(map(deck_option_words, d.deck_options)) or 'any class'}; "
                    f"requires "
                    f"{', '.join(card_name(c) for c in d.deck_requirements) or 'nothing'}")
    elif d.type_code == "agenda":
        nums.append(f"doom threshold {d.doom}")
    elif d.type_code == "act" and d.clues:
        nums.append(f"{d.clues} clues per investigator")
    else:
        if d.health is not None:
            nums.append(f"health {d.health}")
        if d.sanity is not None:
            nums.append(f"sanity {d.sanity}")
    if d.victory:
        nums.append(f"victory {d.victory}")
    if nums:
        parts.append("; ".join(nums))
    if d.traits:
        parts.append(d.traits)
    if d.restrictions:
        parts.append(f"signature card of {card_name(d.restrictions.partition(':')[2])}")
    if d.text:
        parts.append(d.text)
    if d.partial:
        parts.append(f"(not fully modelled: {d.partial})")
    return ". ".join(p.rstrip(".") for p in parts) + "."


def card_info(code: str, lang: str) -> tcgcore.CardInfo | None:
    """The card catalogue hook (``GameSpec.card_info``): the card's entry with its full text."""
    return _catalogue_entry(code, lang, card_text(code) or "")


def find_card(name: str) -> str | None:
    """Look a card up by code or name (case-insensitive; an exact name first, then the
    first name that starts with it)."""
    wanted = name.strip().lower().strip('"')
    pool = card_pool()
    if wanted in pool:
        return wanted
    for code, d in pool.items():
        if wanted in (code.lower(), d.name.lower(), d.name.lower().strip('"')):
            return code
    for code, d in pool.items():
        if d.name.lower().strip('"').startswith(wanted) and wanted:
            return code
    return None


def token_words(token: str) -> str:
    """A chaos token as players name it: ``auto_fail`` -> ``auto-fail``, ``elder_sign`` ->
    ``elder sign``; numbers and the other symbols stay as they are."""
    return "auto-fail" if token == "auto_fail" else token.replace("_", " ")


def render_panel(view: tcgcore.View) -> list[str]:
    """The Arkham panel of the terminal board, drawn from the view's public panel only:
    agenda doom vs threshold, act progress, each investigator (resources, clues, damage,
    horror, actions left, skills, assets, threat area), the location map with
    connections, clues, enemies and engagement, and the chaos bag's contents."""
    p = view.panel
    if not p:
        return []
    ag, act = p["agenda"], p["act"]
    lines = [f"Round {p['round']} ({p['phase']} phase), lead {_seat_name(p, p['lead'])}, "
             f"{p['difficulty']}"]
    lines.append(f"Agenda {card_name(ag['code'] or '-')}: doom {ag['doom_in_play']}/"
                 f"{ag['threshold']}")
    need = act["clues_needed"]
    act_def = card_pool().get(act["code"] or "")
    goal = f"clues {act['group_clues']}/{need}" if need else \
        objective_words(act_def.objective if act_def is not None else "")
    lines.append(f"Act {card_name(act['code'] or '-')}: {goal}")
    locs = {loc["id"]: loc for loc in p["locations"]}
    for i in p["investigators"]:
        where = locs.get(i["location"], {}).get("name", "-")
        sk = i["skills"]
        lines.append(
            f"{i['name']} (seat {i['seat']}) at {where}"
            + (f" ({i['status']})" if i["status"] else "")
            + f": {i['resources']} resources, {i['clues']} clues, damage {i['damage']}/"
            f"{i['health']}, horror {i['horror']}/{i['sanity']}, "
            f"{i['actions']} action{'s' if i['actions'] != 1 else ''} left"
            f"; W{sk['willpower']} I{sk['intellect']} C{sk['combat']} A{sk['agility']}"
            f"; hand {i.get('hand', '?')}, deck {i.get('deck', '?')}")
        assets = [card_name(a["code"]) + (f" ({a['uses']})" if "uses" in a else "") +
                  (" exhausted" if a.get("exhausted") else "") for a in i.get("assets", [])]
        if assets:
            lines.append("    in play: " + ", ".join(assets))
        if i.get("threat"):
            lines.append("    threat area: " + ", ".join(card_name(c) for c in i["threat"]))
    lines.append("Locations:")
    enemies = p.get("enemies", {})
    for loc in p["locations"]:
        links = ", ".join(locs[c]["name"] for c in loc["connections"] if c in locs) or "-"
        if not loc["revealed"]:
            lines.append(f"  {loc['name']} (unrevealed) -> {links}")
            continue
        here = [_seat_name(p, s) for s in loc["investigators"]]
        foes = []
        for e in loc["enemies"]:
            info = enemies.get(str(e))
            if info is None:
                continue
            tag = f"engaged with {_seat_name(p, info['engaged'])}" if info["engaged"] >= 0 \
                else ("exhausted" if info.get("exhausted") else "ready")
            foes.append(f"{card_name(info['code'])} {info['health'] - info['damage']}/"
                        f"{info['health']} hp, {enemy_words(info['code'])}, {tag}")
        lines.append(f"  {loc['name']}: shroud {loc['shroud']}, {loc['clues']} clues -> {links}"
                     + (f"; investigators: {', '.join(here)}" if here else "")
                     + (f"; enemies: {'; '.join(foes)}" if foes else ""))
    bag = ", ".join(token_words(t) + (f" x{n}" if n > 1 else "")
                    for t, n in p.get("chaos_bag", {}).items())
    lines.append(f"Chaos bag: {bag}")
    test = p.get("test")
    if test:
        lines.append(f"Skill test: {_seat_name(p, test['seat'])} {test['skill']} vs "
                     f"{test['difficulty']} ({test['kind']}), base {test.get('base')}")
    return lines


def _seat_name(panel: dict[str, Any], seat: int) -> str:
    invs = panel.get("investigators", [])
    return str(invs[seat]["name"]) if 0 <= seat < len(invs) else f"seat {seat}"


def build_spec() -> ArkhamSpec:
    """The arkham_card game spec: all its fields, every rules module's step handlers and
    the scenario table, assembled here and nowhere else (nothing changes it afterwards).

    Raises:
        tcgcore.EngineError: two modules register a handler for one step type, or two
            scenarios claim one effect op.
    """
    spec = ArkhamSpec(
        name=GAME,
        version="0.1.0",
        state_type=ArkhamState,
        setup=scenario_setup.setup,
        players=(1, 4),
        default_players=1,
        description="Arkham Horror: The Card Game (詭鎮奇談：卡牌版), cooperative, 1-4 investigators",
        trigger_policy=tcgcore.decided_by(rules.lead_seat),
        forced_first=True,
        collect_triggers=rules.collect,
        trigger_kinds=rules.TRIGGER_KINDS.union(*(sc.trigger_kinds for sc in SCENARIOS)),
        resolve_trigger=rules.resolve,
        # event data naming cards: harm's source, the enemy entering, the location left, the
        # spawn location; zones at.<location> are named after the location's alias
        card_data_keys=("source", "enemy", "from", "location"),
        card_zone_prefixes=("at.",),
        view_extra=view_extra,
        view_fact=view_fact,
        describe_event=describe,
        title="Arkham Horror: The Card Game",
        card_tags=card_tags,
        optional_window=optional_window,
        # A701: damage and horror are asked point by point; a front end may take them all
        point_choices=("assign_damage", "assign_horror"),
        zone_words={"play": "play area", "aside": "cards set aside", "threat": "threat area",
                    "locations": "locations", "setaside": "set-aside cards",
                    "acts": "act deck", "agendas": "agenda deck", "encounter": "encounter deck",
                    "victory": "victory display", "committed": "committed cards",
                    "resolving": "cards resolving", "out": "out of play",
                    "removed": "removed from the game", "at": "at a location"},
        validate_state=validate,
        resume_steps=RESUME_STEPS,
        card_name=card_name,
        card_text=card_text,
        card_info=card_info,
        table_layout=table_layout,
        find_card=find_card,
        render_panel=render_panel,
        agents={"heuristic": HeuristicAgent},
        default_agent="heuristic",
        # determinisation and search hooks (tcgcore.determinize, the ismcts agent)
        sample_pool=search_hooks.sample_pool,
        sample_extra=search_hooks.sample_extra,
        evaluate=search_hooks.evaluate,
        # the balance lab's card figures (tcgcore.balance)
        card_usage=card_usage,
        check_deck=check_deck,
        campaign_runner=run_campaign_cli,  # tcgcore campaign arkham_card … (A980)
        scenarios={sc.code: sc for sc in SCENARIOS},
    )
    for register in (rules.register, actions.register, skill_tests.register, effects.register,
                     enemies.register, scenario_setup.register, midnight_masks.register):
        register(spec)
    return spec


#: the game spec the ``tcgcore_games`` hook registers
spec: ArkhamSpec = build_spec()


@tcgcore.hookimpl
def tcgcore_games() -> list[tcgcore.GameSpec[Any]]:
    """Register the game."""
    return [spec]
