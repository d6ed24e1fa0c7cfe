"""Registers the arkham_card game with tcgcore (entry point group ``tcgcore``).

The rules live in :mod:`tcgcore_arkham_card.rules`; this module adds the public view
panel (:func:`view_extra`), readable event lines and the registration hook.
"""

from __future__ import annotations

from typing import Any

import tcgcore

from .cards import card_pool
from .rules import (
    GAME,
    act_threshold,
    agenda_threshold,
    cdef,
    current_act,
    current_agenda,
    dof,
    doom_in_play,
    enemy_health,
    engaged_seat,
    inv_health,
    inv_sanity,
    is_revealed,
    shroud,
    skill_value,
    spec,
    victory_total,
)
from .scenario_setup import OPTIONS
from .state import ArkhamState

__all__ = ["GAME", "OPTIONS", "ArkhamState", "spec", "tcgcore_games", "view_extra"]


def view_extra(state: ArkhamState, viewer: int | None) -> dict[str, Any]:
    """Public panels: investigators, the location map, doom vs threshold, act progress,
    the chaos bag contents and the skill test in progress. Nothing here depends on a
    hidden card (hands, decks, the encounter deck or the bag's next token)."""
    if not state.inv:
        return {}
    invs = []
    for s, inv in enumerate(state.inv):
        d = cdef(state, inv.code)
        invs.append({
            "seat": s, "code": inv.code, "name": d.name, "location": inv.location,
            "resources": inv.resources, "clues": inv.clues, "damage": inv.damage,
            "horror": inv.horror, "health": inv_health(state, s), "sanity": inv_sanity(state, s),
            "actions": inv.actions, "acted": inv.acted, "status": inv.status,
            "skills": {k: skill_value(state, s, k)
                       for k in ("willpower", "intellect", "combat", "agility")},
        })
    locs = []
    for loc in state.zones["locations"].cards:
        c = state.cards[loc]
        enemies = [e for e in state.zones[f"at.{loc}"].cards
                   if dof(state, e).type_code == "enemy"]
        locs.append({
            "id": loc, "code": c.code, "name": dof(state, loc).name,
            "revealed": is_revealed(state, loc), "clues": c.counters.get("clues", 0),
            "shroud": shroud(state, loc), "connections": list(state.adj.get(str(loc), [])),
            "enemies": enemies,
            "investigators": [s for s, i in enumerate(state.inv)
                              if i.location == loc and not i.status],
        })
    enemy_panel: dict[str, dict[str, Any]] = {}
    for zid, zone in state.zones.items():
        if zid.startswith(("at.", "threat.")):
            for e in zone.cards:
                d = dof(state, e)
                if d.type_code == "enemy":
                    enemy_panel[str(e)] = {"code": d.code, "health": enemy_health(state, e),
                                       "damage": state.cards[e].counters.get("damage", 0),
                                       "engaged": engaged_seat(state, e)}
    ag, act = current_agenda(state), current_act(state)
    test = state.test
    bag: dict[str, int] = {}
    for t in state.bag:
        bag[t] = bag.get(t, 0) + 1
    return {
        "round": state.turn, "phase": state.phase, "lead": state.lead,
        "turn_seat": state.turn_seat, "difficulty": state.difficulty,
        "investigators": invs, "locations": locs, "enemies": enemy_panel,
        "agenda": {"code": state.cards[ag].code if ag >= 0 else None,
                   "doom": state.cards[ag].counters.get("doom", 0) if ag >= 0 else 0,
                   "doom_in_play": doom_in_play(state), "threshold": agenda_threshold(state)},
        "act": {"code": state.cards[act].code if act >= 0 else None,
                "clues_needed": act_threshold(state),
                "group_clues": sum(i.clues for i in state.inv if not i.status)},
        "chaos_bag": dict(sorted(bag.items())),
        "victory": victory_total(state),
        "test": None if test is None else {
            "seat": test.seat, "skill": test.skill, "difficulty": test.difficulty,
            "kind": test.kind, "committed": list(test.committed), "tokens": list(test.tokens)},
    }


def describe(state: ArkhamState, event: tcgcore.Event) -> str:
    """One readable line per event."""
    who = f"I{event.player}" if event.player is not None else ""
    name = ""
    if event.code:
        try:
            name = cdef(state, event.code).name
        except KeyError:
            name = event.code
    parts = [p for p in (who, event.kind, name) if p]
    if event.amount is not None:
        parts.append(str(event.amount))
    if event.data:
        parts.append(str(dict(event.data)))
    return " ".join(parts)


def validate(state: ArkhamState) -> str | None:
    """Game facts a loaded save must respect: known card codes, one investigator entry
    per seat, a valid lead."""
    pool = card_pool()
    for card in state.cards:
        if card.code not in pool and card.code not in state.extra_defs:
            return f"card {card.id} has unknown code {card.code!r}"
    if state.inv and len(state.inv) != state.num_players:
        return f"{len(state.inv)} investigators for {state.num_players} seats"
    if not 0 <= state.lead < state.num_players:
        return f"lead {state.lead} is not a seat"
    return None


def card_name(code: str) -> str:
    """Display name of a card code (the code itself when unknown)."""
    d = card_pool().get(code)
    return d.name if d is not None else code


def card_text(code: str) -> str | None:
    """A card's text for people: name, type, printed numbers and ability text."""
    d = card_pool().get(code)
    if d is None:
        return None
    parts = [f"{d.name} ({code}) - {d.type_code}"]
    if d.type_code == "enemy":
        hp = f"{d.health}{'/inv' if d.health_per_investigator else ''}"
        parts.append(f"fight {d.enemy_fight}, health {hp}, evade {d.enemy_evade}, "
                     f"attack {d.enemy_damage} damage / {d.enemy_horror} horror")
    elif d.type_code == "location":
        parts.append(f"shroud {d.shroud}, clues {d.clues}{'' if d.clues_fixed else '/inv'}")
    elif d.type_code == "investigator":
        parts.append(f"willpower {d.skill_willpower}, intellect {d.skill_intellect}, "
                     f"combat {d.skill_combat}, agility {d.skill_agility}, "
                     f"health {d.health}, sanity {d.sanity}")
    elif d.cost is not None:
        parts.append(f"cost {d.cost}")
    if d.text:
        parts.append(d.text)
    return ". ".join(parts)


def find_card(name: str) -> str | None:
    """Look a card up by code or by name (case-insensitive; first match)."""
    wanted = name.strip().lower()
    for code, d in card_pool().items():
        if wanted in (code.lower(), d.name.lower()):
            return code
    return None


def render_panel(view: tcgcore.View) -> list[str]:
    """The Arkham panel of a text board, drawn from the public panel only."""
    p = view.panel
    if not p:
        return []
    ag, act = p["agenda"], p["act"]
    lines = [f"Round {p['round']} ({p['phase']}), lead I{p['lead']}, {p['difficulty']}",
             f"Agenda {card_name(ag['code'] or '-')}: doom {ag['doom_in_play']}/"
             f"{ag['threshold']}; act {card_name(act['code'] or '-')}: clues "
             f"{act['group_clues']}/{act['clues_needed']}"]
    for i in p["investigators"]:
        lines.append(f"I{i['seat']} {i['name']} @{i['location']} res {i['resources']} "
                     f"clues {i['clues']} dmg {i['damage']}/{i['health']} "
                     f"hor {i['horror']}/{i['sanity']} actions {i['actions']}"
                     + (f" [{i['status']}]" if i["status"] else ""))
    for loc in p["locations"]:
        lines.append(f"  {loc['name']} [{loc['id']}] {'' if loc['revealed'] else '(unrevealed) '}"
                     f"clues {loc['clues']} shroud {loc['shroud']} -> {loc['connections']} "
                     f"enemies {loc['enemies']} investigators {loc['investigators']}")
    return lines


spec.view_extra = view_extra
spec.describe_event = describe
spec.validate_state = validate
spec.card_name = card_name
spec.card_text = card_text
spec.find_card = find_card
spec.render_panel = render_panel


@tcgcore.hookimpl
def tcgcore_games() -> list[tcgcore.GameSpec[Any]]:
    """Register the game."""
    return [spec]
