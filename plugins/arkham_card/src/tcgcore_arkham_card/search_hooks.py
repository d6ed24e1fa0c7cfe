"""What the core's determinisation and search cannot know about Arkham Horror.

* ``sample_pool``: an investigator's deck and hand form one pool (cards are drawn unseen
  by the others); the encounter deck is its own pool, as is any other hidden encounter
  pile (the cultist deck of The Midnight Masks); the cards an investigator set aside
  (their setup says which) and the cards removed from the game stay where they are.
* ``sample_extra``: forced chaos-token reveals (a scenario builder's ``tokens``) are
  dropped, so a sample's chaos bag draws come from its re-seeded generator (the bag's
  contents are public, its next draws are not).
* ``evaluate``: a rough score of an unfinished scenario for the ``ismcts`` agent's short
  rollouts (the same for every investigator: the game is cooperative): acts advanced
  raise it, damage and horror taken and defeated investigators lower it.
"""

from __future__ import annotations

import tcgcore

from .state import ArkhamState

__all__ = ["evaluate", "sample_extra", "sample_pool"]


def sample_pool(state: ArkhamState, seat: int, zone: tcgcore.Zone, owner: int) -> str | None:
    """The determinisation pool of an unseen card of ``owner`` in ``zone``."""
    if zone.kind in ("deck", "hand"):
        return f"player.{owner}"
    if zone.kind == "encounter":
        return f"encounter.{zone.id}"
    return None


def sample_extra(state: ArkhamState, seat: int, rng: tcgcore.Rng) -> None:
    """Drop forced chaos-token reveals from a determinisation."""
    state.next_tokens = []


def evaluate(state: ArkhamState, seat: int) -> float:
    """The expected score of every investigator (0 a loss, 1 a win) in an unfinished
    scenario: 0.35, plus 0.2 per act advanced, minus 0.02 per damage or horror taken and
    0.15 per defeated investigator, kept within 0.05..0.95."""
    score = 0.35 + 0.2 * state.act_advanced
    for inv in state.inv:
        score -= 0.02 * (inv.damage + inv.horror)
        if inv.status == "defeated":
            score -= 0.15
    return min(0.95, max(0.05, score))
