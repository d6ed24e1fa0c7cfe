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
    n = state.num_players
    deck: list[set[str]] = [set() for _ in range(n)]
    at_hand: list[set[str]] = [set() for _ in range(n)]  # RB and extra deck
    pool = get_pool(state.pool).cards
    for card in state.cards:
        deck[card.owner].add(card.code)
        d = pool.get(card.code)
        if d is not None and (d.extra_kind is not None or d.card_type == "revival_beyonder"):
            at_hand[card.owner].add(card.code)
    drawn: list[set[str]] = [set(s) for s in at_hand]
    used: list[set[str]] = [set() for _ in range(n)]
    hands: list[dict[int, str]] = [{} for _ in range(n)]
    opening: list[set[str]] | None = None
    for e in events:
        if opening is None and e.kind == "turn_started":
            opening = [set(hands[p].values()) | at_hand[p] for p in range(n)]
        if e.card is None or e.code is None:
            continue
        owner = state.cards[e.card].owner
        if e.kind == "drawn":
            drawn[owner].add(e.code)
        if e.dst is not None and e.dst.startswith("hand."):
            hands[owner][e.card] = e.code
        elif e.src is not None and e.src.startswith("hand."):
            hands[owner].pop(e.card, None)
        if played(e):
            used[owner].add(e.code)
    if opening is None:  # a game that ended before its first turn (a built scenario)
        opening = [set(h.values()) | at_hand[p] for p, h in enumerate(hands)]
    return [tcgcore.SeatCards(deck=sorted(deck[p]), drawn=sorted(drawn[p]),
                              opening=sorted(opening[p]), played=sorted(used[p] & deck[p]))
            for p in range(n)]
