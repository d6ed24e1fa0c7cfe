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
