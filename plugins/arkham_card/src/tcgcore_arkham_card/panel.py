"""Arkham's public view panel: the whole panel (:func:`view_extra`, ``spec.view_extra``) and
one entry of it computed alone (:func:`view_fact`, ``spec.view_fact``, which
:class:`tcgcore.SeatReader` asks so that an agent pays only for the facts it reads).

Nothing here depends on a hidden card (hands, decks, the encounter deck or the bag's next
token). Cards are named by the viewer's aliases (:func:`tcgcore.card_alias`), as in the
view's zones.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import tcgcore

from .operations import (
    victory_total,
)
from .queries import (
    act_threshold,
    agenda_threshold,
    cdef,
    current_act,
    current_agenda,
    dof,
    doom_in_play,
    enemies_at,
    enemy_health,
    engaged_seat,
    inv_health,
    inv_sanity,
    is_revealed,
    location_of,
    shroud,
    skill_value,
)
from .state import ArkhamState

__all__ = ["investigator_fact", "view_extra", "view_fact"]


def view_extra(state: ArkhamState, viewer: int | None) -> dict[str, Any]:
    """Public panels: investigators, the location map, doom vs threshold, act progress,
    the chaos bag contents and the skill test in progress (``{}`` before the investigators
    are chosen). Nothing here depends on a hidden card (hands, decks, the encounter deck or
    the bag's next token). Cards are named by the viewer's aliases
    (:func:`tcgcore.card_alias`), as in the view's zones."""
    if not state.inv:
        return {}
    panel = _Panel(state, viewer)
    return {name: fact(panel) for name, fact in _FACTS.items()}


def view_fact(state: ArkhamState, viewer: int | None, name: str) -> Any:
    """One entry of :func:`view_extra`'s panel, computed alone; ``"investigators[N]"`` is
    seat N's entry of the ``investigators`` fact alone (:func:`investigator_fact`).

    Raises:
        KeyError: the panel has no entry ``name`` (any name before the investigators are
            chosen, when the panel is empty).
    """
    if not state.inv:
        raise KeyError(name)
    if name.startswith("investigators[") and name.endswith("]"):
        # one entry of the list fact (tcgcore.SeatReader.fact_item): "investigators[2]"
        digits = name[len("investigators["):-1]
        entry = investigator_fact(state, viewer, int(digits)) if digits.isdigit() else None
        if entry is None:
            raise KeyError(name)
        return entry
    return _FACTS[name](_Panel(state, viewer))


def investigator_fact(state: ArkhamState, viewer: int | None, seat: int) -> dict[str, Any] | None:
    """Seat ``seat``'s entry of the panel's ``investigators`` fact for ``viewer``
    (``view_fact(state, viewer, "investigators")[seat]``), computed alone; ``None`` before
    the investigators are chosen or for a seat the match does not have. An agent that
    needs its own investigator reads this instead of every seat's entry."""
    if not 0 <= seat < len(state.inv):
        return None
    return _Panel(state, viewer).investigator(seat)


class _Panel:
    """The panel facts of one state for one viewer, each computed when asked; each card's
    alias and definition is looked up once per panel (locations recur a lot)."""

    def __init__(self, state: ArkhamState, viewer: int | None) -> None:
        self.state = state
        self.viewer = viewer
        self._seen: dict[int, int] = {}
        self._defs: dict[int, Any] = {}

    def a(self, cid: int) -> int:
        """The viewer's alias of card ``cid`` (a negative id is kept: no card)."""
        if cid < 0:
            return cid
        got = self._seen.get(cid)
        if got is None:
            got = self._seen[cid] = tcgcore.card_alias(self.state, cid, self.viewer)
        return got

    def df(self, cid: int) -> Any:
        """The card definition in force for ``cid`` (``dof``, a pure read of the state)."""
        got = self._defs.get(cid)
        if got is None:
            got = self._defs[cid] = dof(self.state, cid)
        return got

    def investigators(self) -> list[dict[str, Any]]:
        return [self.investigator(s) for s in range(len(self.state.inv))]

    def investigator(self, s: int) -> dict[str, Any]:
        """Seat ``s``'s entry of the ``investigators`` fact."""
        state, a, df = self.state, self.a, self.df
        cards, zones = state.cards, state.zones
        inv = state.inv[s]
        d = cdef(state, inv.code)
        play = zones[f"play.{s}"].cards
        assets = []
        for c in play:
            if c != inv.card:
                card = cards[c]
                entry: dict[str, Any] = {"id": a(c), "code": card.code}
                entry.update(card.counters)
                if card.exhausted:
                    entry["exhausted"] = True
                assets.append(entry)
        return {
            "seat": s, "code": inv.code, "name": d.name, "location": a(inv.location),
            "resources": inv.resources, "clues": inv.clues, "damage": inv.damage,
            "horror": inv.horror, "health": inv_health(state, s),
            "sanity": inv_sanity(state, s),
            "actions": inv.actions, "acted": inv.acted, "status": inv.status,
            "skills": {k: skill_value(state, s, k)
                       for k in ("willpower", "intellect", "combat", "agility")},
            "investigate_bonus": sum(df(c).bonus.get("investigate:intellect", 0)
                                     for c in play),
            "hand": len(zones[f"hand.{s}"].cards),
            "deck": len(zones[f"deck.{s}"].cards),
            "threat": [cards[c].code for c in zones[f"threat.{s}"].cards],
            "assets": assets,
        }

    def locations(self) -> list[dict[str, Any]]:
        state, a, df = self.state, self.a, self.df
        cards = state.cards
        locs = []
        for loc in state.zones["locations"].cards:
            lc = cards[loc]
            enemies = enemies_at(state, loc)  # unengaged, and engaged with investigators here
            locs.append({
                "id": a(loc), "code": lc.code, "name": df(loc).name,
                "revealed": is_revealed(state, loc), "clues": lc.counters.get("clues", 0),
                "shroud": shroud(state, loc),
                "connections": [a(x) for x in state.adj.get(str(loc), [])],
                "enemies": [a(e) for e in enemies],
                "investigators": [s for s, i in enumerate(state.inv)
                                  if i.location == loc and not i.status],
            })
        return locs

    def enemies(self) -> dict[str, dict[str, Any]]:
        state, a, df = self.state, self.a, self.df
        cards = state.cards
        enemy_panel: dict[str, dict[str, Any]] = {}
        for zid, zone in state.zones.items():
            if zone.cards and zid.startswith(("at.", "threat.")):
                for e in zone.cards:
                    d = df(e)
                    if d.type_code == "enemy":
                        card = cards[e]
                        enemy_panel[str(a(e))] = {
                            "code": d.code, "health": enemy_health(state, e),
                            "damage": card.counters.get("damage", 0),
                            "engaged": engaged_seat(state, e),
                            "exhausted": card.exhausted,
                            "location": a(location_of(state, e)),
                            "doom": card.counters.get("doom", 0)}
        return enemy_panel

    def agenda(self) -> dict[str, Any]:
        state = self.state
        ag = current_agenda(state)
        return {"code": state.cards[ag].code if ag >= 0 else None,
                "doom": state.cards[ag].counters.get("doom", 0) if ag >= 0 else 0,
                "doom_in_play": doom_in_play(state), "threshold": agenda_threshold(state)}

    def act(self) -> dict[str, Any]:
        state = self.state
        act = current_act(state)
        return {"code": state.cards[act].code if act >= 0 else None,
                "clues_needed": act_threshold(state),
                "group_clues": sum(i.clues for i in state.inv if not i.status),
                # clues placed on the act itself (Disrupting the Ritual, A993.6)
                "clues_on_act": state.cards[act].counters.get("clues", 0) if act >= 0 else 0}

    def chaos_bag(self) -> dict[str, int]:
        bag: dict[str, int] = {}
        for t in self.state.bag:
            bag[t] = bag.get(t, 0) + 1
        return dict(sorted(bag.items()))

    def zone_names(self) -> dict[str, str]:
        """The zone of a location's enemies and cards (``at.<location>``) by the location's
        name, keyed as the viewer's views name the zone (``at.<the viewer's alias>``)."""
        state, a = self.state, self.a
        return {f"at.{a(int(zid[3:]))}": f"at {dof(state, int(zid[3:])).name}"
                for zid in state.zones if zid.startswith("at.") and zid[3:].isdigit()}

    def test(self) -> dict[str, Any] | None:
        state, a, df = self.state, self.a, self.df
        test = state.test
        if test is None:
            return None
        return {
            "seat": test.seat, "skill": test.skill, "difficulty": test.difficulty,
            "kind": test.kind, "committed": [a(c) for c in test.committed],
            "tokens": list(test.tokens),
            "bonus": test.skill_bonus, "value": test.value,
            "base": skill_value(state, test.seat, test.skill) + test.skill_bonus + sum(
                df(c).icons(test.skill) for c in test.committed)}


#: the panel's entries in :func:`view_extra`'s order, each computed alone
_FACTS: dict[str, Callable[[_Panel], Any]] = {
    "round": lambda p: p.state.turn,
    "phase": lambda p: p.state.phase,
    "lead": lambda p: p.state.lead,
    "turn_seat": lambda p: p.state.turn_seat,
    "difficulty": lambda p: p.state.difficulty,
    "investigators": _Panel.investigators,
    "locations": _Panel.locations,
    "enemies": _Panel.enemies,
    "agenda": _Panel.agenda,
    "act": _Panel.act,
    "chaos_bag": _Panel.chaos_bag,
    "zone_names": _Panel.zone_names,
    "victory": lambda p: victory_total(p.state),
    "test": _Panel.test,
}
