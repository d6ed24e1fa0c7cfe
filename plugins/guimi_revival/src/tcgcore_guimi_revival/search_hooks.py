"""What the core's determinisation and search cannot know about Guimi Revival.

* ``sample_pool``: an extra deck (033) is its owner's, never mixed with the main deck or
  the hand, so its unseen cards are redealt among themselves; the Revival Beyonder set
  face down (051.1) is one of the deck list's cards and stays one (a pool of its own); a
  player's hand, main deck and other face-down cards form one pool (cards go from one to
  the other unseen).
* ``evaluate``: a rough score of an unfinished game for the ``ismcts`` agent's short
  rollouts, from public facts of the board: how far each Revival Beyonder has climbed its
  sequence (086.1, the way to the Great Old One, 132.1), madness and death (112, 113),
  corruption (111) and the cards left in the main deck (deck-out, 133.1).
"""

from __future__ import annotations

import math

import tcgcore

from .state import GuimiState

__all__ = ["evaluate", "sample_pool"]


def sample_pool(state: GuimiState, seat: int, zone: tcgcore.Zone, owner: int) -> str | None:
    """The determinisation pool of an unseen card of ``owner`` in ``zone``."""
    if zone.kind in ("extra", "revival"):
        return f"{zone.kind}.{owner}"
    return f"main.{owner}"


def _standing(state: GuimiState, p: int) -> float:
    deck = len(state.zones[f"deck.{p}"].cards)
    score = (9 - state.sequence[p]) * 1.0 - 0.4 * state.corruption[p]
    score -= 2.0 if state.mad[p] else 0.0
    score -= 1.5 if state.dead[p] else 0.0
    if deck < 6:
        score -= (6 - deck) * 0.5
    return score


def evaluate(state: GuimiState, seat: int) -> float:
    """The expected score of ``seat`` (0 a loss, 1 a win): a logistic of the difference
    of both players' standing (sequence climbed, madness, death, corruption, deck left)."""
    diff = _standing(state, seat) - _standing(state, 1 - seat)
    return 1.0 / (1.0 + math.exp(-diff / 2.0))
