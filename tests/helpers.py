"""Test helpers for the Sparks example game."""

from __future__ import annotations

from typing import Any

import tcgcore


def give_hand(match: tcgcore.Match[Any], seat: int, codes: list[str]) -> list[int]:
    """Make seat's hand exactly the given card codes (taken from hand or deck); return their ids."""
    state = match.state
    hand = state.zones[f"hand.{seat}"]
    deck = state.zones[f"deck.{seat}"]
    # send the whole hand back to the deck, then pull the wanted codes
    for cid in list(hand.cards):
        hand.cards.remove(cid)
        deck.cards.append(cid)
        match.engine.update_card(cid, zone=deck.id)
    ids = []
    for code in codes:
        cid = next(c for c in deck.cards if state.cards[c].code == code)
        deck.cards.remove(cid)
        hand.cards.append(cid)
        match.engine.update_card(cid, zone=hand.id)
        ids.append(cid)
    return ids


def skip_mulligans(match: tcgcore.Match[Any]) -> None:
    """Answer both mulligans with 'keep everything'."""
    for _ in range(2):
        choice = match.pending
        assert choice is not None and choice.kind == "mulligan"
        match.choose(choice.player, [])


def set_cards(match: tcgcore.Match[Any], first: int, second: int) -> None:
    """Answer the two set_card choices of a round with the given card ids."""
    for cid in (first, second):
        choice = match.pending
        assert choice is not None and choice.kind == "set_card"
        match.choose(choice.player, f"card:{cid}")


def held_growth(**kwargs: Any) -> int:
    """Bytes (traced by ``tracemalloc``) that ``simulate("sparks", keep_outcomes=False,
    **kwargs)`` holds at the end of 1,000 games more than at the end of 100: what a run
    keeps per game (about 450 bytes if it kept every outcome)."""
    import gc
    import tracemalloc

    def held_at_end(games: int) -> int:
        seen: list[int] = []

        def progress(done: int, total: int) -> None:
            if done == total:
                gc.collect()
                seen.append(tracemalloc.get_traced_memory()[0])

        tcgcore.simulate("sparks", games=games, seed=1, keep_outcomes=False, progress=progress,
                         **kwargs)
        return seen[0]

    tcgcore.simulate("sparks", games=40, **kwargs)  # warm the caches outside the trace
    tracemalloc.start()
    try:
        small = held_at_end(100)
        return held_at_end(1_000) - small
    finally:
        tracemalloc.stop()
