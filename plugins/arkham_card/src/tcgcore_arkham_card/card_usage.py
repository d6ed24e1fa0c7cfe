"""What each investigator did with its player cards in one scenario, for the balance lab's
card figures (``GameSpec.card_usage``; ``tcgcore balance arkham_card``): a deck builder sees
the scenario win rate when a card was drawn, in the opening hand or played.

Read from the final state and the whole event log:

* deck: the codes of the player cards the seat owns (A113.2: assets, events, skills and
  weaknesses; the investigator card is not one);
* drawn: player cards drawn into the seat's hand (the opening hand, A304.2, included);
* opening: the hand when the first round starts, after the mulligan (A305);
* played: played from the hand (an asset or event put into play, A301, A105) or committed
  to a skill test (A701.2).
"""

from __future__ import annotations

from collections.abc import Sequence

import tcgcore

from .queries import (
    cdef,
    is_player_card,
)
from .state import ArkhamState

__all__ = ["card_usage"]


def card_usage(state: ArkhamState, events: Sequence[tcgcore.Event]) -> list[tcgcore.SeatCards]:
    """Per seat, the codes of its deck, drawn, in its opening hand and played."""
    player_code: dict[str, bool] = {}

    def is_player(code: str) -> bool:
        known = player_code.get(code)
        if known is None:
            try:
                known = is_player_card(cdef(state, code))
            except KeyError:
                known = False
            player_code[code] = known
        return known

    def played(e: tcgcore.Event) -> bool:
        return e.kind == "played" or (e.dst == "committed" and e.src is not None
                                      and e.src.startswith("hand."))

    return tcgcore.read_card_usage(state, events, first_turn="round_started", played=played,
                                   counts=is_player)
