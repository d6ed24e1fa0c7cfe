"""Registers the guimi_revival game with tcgcore (entry point group ``tcgcore``).

The game definition is :data:`tcgcore_guimi_revival.rules.spec`; this module adds the public
panel (``view_extra``) and readable event lines, and exposes the pluggy hook.
"""

from __future__ import annotations

from typing import Any

import tcgcore
from tcgcore import Event

from .cards import get_pool
from .rules import spec, z
from .state import GuimiState

__all__ = ["describe", "spec", "tcgcore_games", "view_extra"]


def view_extra(state: GuimiState, viewer: int | None) -> dict[str, Any]:
    """Public panels per player (only public facts: counts, sequence, counters).

    Returns ``{"round", "phase", "first", "players": [panel, panel]}`` where a panel has
    ``sequence``, ``pathway``, ``stack``, ``digested``, ``corruption``, ``step_corruption``,
    ``dead_corruption``, ``mad``, ``dead``, ``slumbering``, ``status``, ``status_face_down``,
    ``spirit_world``, ``hand``, ``deck``, ``extra``, ``events_played``, ``rewarded``.
    """
    pool = get_pool(state.pool)
    players = []
    for p in range(state.num_players):
        zones = state.zones
        stack = zones[z("stack", p)].cards
        status = zones[z("status", p)].cards
        rb = state.cards[state.rb[p]]
        players.append({
            "sequence": state.sequence[p],
            "pathway": pool.cards[rb.code].pathway if not rb.face_down else None,
            "stack": len(stack),
            "digested": sum(1 for c in stack if not state.cards[c].face_down),
            "corruption": state.corruption[p],
            "step_corruption": state.step_corruption[p],
            "dead_corruption": state.dead_corruption[p],
            "mad": state.mad[p] > 0,
            "dead": state.dead[p],
            "slumbering": state.ascend_round[p] >= 0,
            "status": len(status),
            "status_face_down": sum(1 for c in status if state.cards[c].face_down),
            "spirit_world": len(zones[z("spirit", p)].cards),
            "hand": len(zones[z("hand", p)].cards),
            "deck": len(zones[z("deck", p)].cards),
            "extra": len(zones[z("extra", p)].cards),
            "events_played": state.events_played[p],
            "rewarded": state.rewarded[p],
        })
    return {"round": state.round, "phase": state.phase, "first": state.first,
            "players": players}


def describe(state: GuimiState, event: Event) -> str:
    """One readable line per event."""
    name = "a card"
    if event.code:
        d = get_pool(state.pool).cards.get(event.code)
        name = d.name_en if d is not None else event.code
    who = f"P{event.player}" if event.player is not None else ""
    if event.src or event.dst:
        return f"{who} {event.kind}: {name} ({event.src} -> {event.dst})"
    extra = f" {dict(event.data)}" if event.data else ""
    amount = f" {event.amount}" if event.amount is not None else ""
    return f"{who} {event.kind}{amount}{': ' + name if event.code else ''}{extra}".strip()


spec.view_extra = view_extra
spec.describe_event = describe


@tcgcore.hookimpl
def tcgcore_games() -> list[tcgcore.GameSpec[Any]]:
    """Register the game."""
    return [spec]
