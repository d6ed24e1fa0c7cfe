"""What each player did with its cards in one game, for the balance lab's card figures
(``GameSpec.card_usage``; ``tcgcore balance guimi_revival``).

Read from the final state (who owns which card) and the whole event log:

* deck: every code of the player's deck list (Revival Beyonder, main deck, extra deck);
* drawn: main-deck cards drawn (051.3, 061, draw effects); the Revival Beyonder and the
  extra deck are at the player's disposal from the start (033, 051.1), so they count as
  drawn and in the opening hand, and only their "played" figure tells anything;
* opening: the hand when the first turn starts, after mulligans (051.4);
* played: played or used, as :func:`played` counts it (the card-coverage measure).
"""

from __future__ import annotations

from collections.abc import Sequence

import tcgcore

from .cards import get_pool
from .state import GuimiState

__all__ = ["USED_KINDS", "card_usage", "played"]

#: event kinds that mean "this card was played or used"
USED_KINDS = frozenset({"played", "event_activated", "extra_activated", "potion_activated",
                        "ignition", "set", "to_spirit", "converged", "revealed", "sought"})


def played(e: tcgcore.Event) -> bool:
    """Whether an event shows its card being played or used (an extra-deck card counts only
    when activated, not when the promotion reward sets it; an RB when the game starts)."""
    if e.kind == "revealed":
        return e.data.get("why") == "start"
    if e.kind == "set":
        return e.src is not None and e.src.startswith("hand.")
    return e.kind in USED_KINDS


def card_usage(state: GuimiState, events: Sequence[tcgcore.Event]) -> list[tcgcore.SeatCards]:
    """Per seat, the codes of its deck, drawn, in its opening hand and played (see the
    module text)."""
    pool = get_pool(state.pool).cards

    def at_start(code: str) -> bool:
        d = pool.get(code)
        return d is not None and (d.extra_kind is not None or d.card_type == "revival_beyonder")

    return tcgcore.read_card_usage(state, events, first_turn="turn_started", played=played,
                                   at_start=at_start)
