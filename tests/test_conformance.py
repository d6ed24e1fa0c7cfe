"""The conformance check in tcgcore.testing, run on the example game and on broken games."""

from __future__ import annotations

from typing import Any

import pytest

import tcgcore
from tcgcore.examples import sparks
from tcgcore.testing import ConformanceError, random_playout_check


def test_sparks_passes_conformance(registry: tcgcore.Registry) -> None:
    report = random_playout_check("sparks", seeds=range(60), registry=registry)
    assert report.games == 60
    assert report.decisions > 60 * 10
    assert set(report.reasons) <= {"points", "exhausted"}


def test_long_games_pass_conformance(registry: tcgcore.Registry) -> None:
    report = random_playout_check("sparks", seeds=range(3), registry=registry,
                                  options={"copies": 6, "target": 1000}, check_every=3)
    assert report.longest > 30


def test_a_leaky_view_is_caught(registry: tcgcore.Registry, monkeypatch: pytest.MonkeyPatch) -> None:
    def leaky(state: sparks.SparksState, viewer: int | None) -> dict[str, Any]:
        return {"opponent_hand": [state.cards[c].code for c in state.zones["hand.1"].cards]}

    monkeypatch.setattr(sparks.spec, "view_extra", leaky)
    with pytest.raises(ConformanceError, match="leaks hidden information"):
        random_playout_check("sparks", seeds=[1], registry=registry)


def test_a_view_naming_the_ids_of_hidden_cards_is_caught(
        registry: tcgcore.Registry, monkeypatch: pytest.MonkeyPatch) -> None:
    """Instance ids follow setup order, so ids of an opponent's hand cards give them away
    (seen by a new user: an id panel passed the check, which reordered only the first
    closed zone, a deck)."""
    def leaky(state: sparks.SparksState, viewer: int | None) -> dict[str, Any]:
        return {"opponent_ids": list(state.zones["hand.1" if viewer == 0 else "hand.0"].cards)}

    monkeypatch.setattr(sparks.spec, "view_extra", leaky)
    with pytest.raises(ConformanceError, match="order of hidden zone hand"):
        random_playout_check("sparks", seeds=[1], registry=registry)


def test_a_choice_accepting_garbage_is_caught(
    registry: tcgcore.Registry, monkeypatch: pytest.MonkeyPatch
) -> None:
    original = tcgcore.Match.choose

    def sloppy(self: tcgcore.Match[Any], player: int, keys: Any) -> None:
        if self.state.pending is not None and player != self.state.pending.player:
            self.state.turn += 1  # mutates before failing
        original(self, player, keys)

    monkeypatch.setattr(tcgcore.Match, "choose", sloppy)
    with pytest.raises(ConformanceError, match="changed the state"):
        random_playout_check("sparks", seeds=[1], registry=registry, check_views=False)


def test_sparks_has_no_decision_tells(registry: tcgcore.Registry) -> None:
    """A hand card swapped with a deck card changes nothing the other seat receives."""
    from tcgcore.testing import hidden_responder_check

    assert hidden_responder_check("sparks", seeds=range(6), every=3, registry=registry) > 50
