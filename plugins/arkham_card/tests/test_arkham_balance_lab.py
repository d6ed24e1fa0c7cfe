"""Arkham Horror in the balance lab: the card_usage hook (card_usage.py) and a bounded,
co-operative balance run of The Gathering (01104) whose card figures (the scenario won when a
card was drawn or played) are checked against its games."""

from __future__ import annotations

import pytest
from tcgcore_arkham_card.card_usage import card_usage
from tcgcore_arkham_card.queries import cdef

import tcgcore


def test_card_usage_reads_player_cards_only_A113_2() -> None:
    m = tcgcore.new_match("arkham_card", seed=3, players=2, scenario="01104")
    tcgcore.play_out(m, [tcgcore.make_agent(m.spec, "heuristic", s) for s in (5, 6)])
    events = m.events_since(0, player="all")
    used = card_usage(m.state, events)
    assert len(used) == 2
    for seat, u in enumerate(used):
        assert u.deck and all(cdef(m.state, c).type_code in ("asset", "event", "skill", "treachery",
                                                              "enemy") for c in u.deck)
        assert set(u.opening) <= set(u.drawn) <= set(u.deck)
        assert set(u.played) <= set(u.deck)
        assert 1 <= len(u.opening) <= 5  # A304.2: five cards (copies merge)
        drawn = {e.code for e in events if e.kind == "drawn" and e.dst == f"hand.{seat}"}
        assert set(u.drawn) == drawn & set(u.deck)


@pytest.fixture(scope="module")
def gathering() -> tcgcore.BalanceReport:
    return tcgcore.balance("arkham_card", games=4, options={"scenario": "01104"}, seed=2,
                           min_sample=2)


def test_cooperative_balance_report(gathering: tcgcore.BalanceReport) -> None:
    rep = gathering
    assert rep.cooperative and rep.first_player is None and rep.matchups == []
    won = sum(bool(r.winners) for r in rep.records)
    assert rep.quality.completion == won / 4 and rep.quality.balance == 1.0
    assert rep.seat_wins[0].count == won


def test_card_figures_are_scenario_win_rates(gathering: tcgcore.BalanceReport) -> None:
    rep = gathering
    won = sum(bool(r.winners) for r in rep.records)
    fixed = [c for c in rep.cards if c.games == 4]  # all but the random basic weakness
    assert len(fixed) >= 20
    for c in rep.cards:
        assert c.drawn.of + c.not_drawn.of == c.games
        assert c.drawn.count + c.not_drawn.count == c.won.count
        assert c.played.of <= c.games
    for c in fixed:  # one investigator: the scenario's win is every card's
        assert c.won.count == won
    md = rep.markdown()
    assert "won the scenario when the card was drawn" in md and "No game had exactly one" in md
