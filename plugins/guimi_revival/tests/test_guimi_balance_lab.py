"""Guimi Revival in the balance lab: the card_usage hook (card_usage.py), a bounded balance
run whose figures are checked against its games, and a designer's pool (cards.py get_pool:
added and replaced cards, errors naming file, card and field) on play, simulate, deck check,
balance and the generated card list."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from tcgcore_guimi_revival import card_usage as usage_mod
from tcgcore_guimi_revival.carddoc import render_cards_md
from tcgcore_guimi_revival.cards import get_pool
from tcgcore_guimi_revival.decks import default_decks

import tcgcore
from tcgcore.cli import main

EXAMPLES = Path(__file__).parents[3] / "docs" / "guimi_revival" / "examples"
POOL = EXAMPLES / "my_cards.toml"
DECK = EXAMPLES / "my_seer.toml"


def test_card_usage_reads_draws_opening_hand_and_plays_051() -> None:
    m = tcgcore.new_match("guimi_revival", seed=7, decks=["seer", "hunter"])
    tcgcore.play_out(m, [tcgcore.make_agent(m.spec, "heuristic", s) for s in (1, 2)])
    events = m.events_since(0, player="all")
    used = usage_mod.card_usage(m.state, events)
    deck = default_decks()["seer"]
    assert set(used[0].deck) == {deck.revival, *deck.main_codes(), *deck.extra}
    drawn_events = {e.code for e in events if e.kind == "drawn" and e.player in (0, None)
                    and e.dst == "hand.0"}
    assert drawn_events <= set(used[0].drawn)
    main_opening = set(used[0].opening) - {deck.revival, *deck.extra}
    assert 1 <= len(main_opening) <= 5  # the five cards of 051.3 after the mulligan (copies merge)
    assert set(used[0].played) <= set(used[0].deck)
    assert deck.revival in used[0].played  # revealed when the game starts (051.1)


@pytest.fixture(scope="module")
def guimi_report() -> tcgcore.BalanceReport:
    return tcgcore.balance("guimi_revival", games=3, decks=["seer", "hunter"], seed=1,
                           min_sample=3)


def test_balance_matrix_and_cards_agree_with_the_games(guimi_report: tcgcore.BalanceReport) -> None:
    rep = guimi_report
    assert rep.decks == ["seer", "hunter"] and rep.games == 12 and len(rep.records) == 12
    by = {(m.deck, m.against): m for m in rep.matchups}
    # seer against hunter: seat 0 in "seer v hunter", seat 1 in "hunter v seer"
    wins = sum(0 in r.winners for r in rep.records if r.run == "seer v hunter") + sum(
        1 in r.winners for r in rep.records if r.run == "hunter v seer")
    assert by["seer", "hunter"].games == 6 and by["seer", "hunter"].wins == wins
    decided = sum(1 for r in rep.records if r.run in ("seer v hunter", "hunter v seer")
                  and r.winners)
    assert by["seer", "hunter"].wins + by["hunter", "seer"].wins == decided
    assert by["seer", "seer"].games == 3  # the mirror: seat 0's figure
    rb = next(c for c in rep.cards if c.code == "rb_seer")
    seer_seat_games = [(r, s) for r in rep.records for s, d in enumerate(r.decks) if d == "seer"]
    assert rb.games == len(seer_seat_games) == 12
    assert rb.won.count == sum(s in r.winners for r, s in seer_seat_games)
    for c in rep.cards:
        assert c.drawn.of + c.not_drawn.of == c.games
        assert c.opening.of <= c.drawn.of and c.played.of <= c.games
    assert "## Deck matchups" in rep.markdown() and "Klein Moretti" in rep.markdown()


def test_designer_pool_adds_and_replaces_cards() -> None:
    pool = get_pool(str(POOL.resolve()))
    builtin = get_pool("builtin")
    assert pool.own == ("my_seer_b9", "hunter_b9") and pool.base == "builtin"
    assert pool["my_seer_b9"].name_en == "Apprentice Diviner"
    assert pool["hunter_b9"].strength == 500 and builtin["hunter_b9"].strength == 400
    assert len(pool.cards) == len(builtin.cards) + 1


def test_designer_pool_errors_name_file_card_and_field(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(POOL.read_text(encoding="utf-8").replace("strength = 300", "strength = 250"),
                   encoding="utf-8")
    with pytest.raises(tcgcore.CardDataError, match=r"bad.toml: card 'my_seer_b9': field "
                                                     r"'strength'"):
        get_pool(str(bad))
    base = tmp_path / "base.toml"
    base.write_text('base = "starter"\n', encoding="utf-8")
    with pytest.raises(tcgcore.CardDataError, match=r"base.toml: field 'base'"):
        get_pool(str(base))


def test_pool_on_play_simulate_and_deck_check(capsys: pytest.CaptureFixture[str]) -> None:
    out = io.StringIO()
    assert main(["deck", "check", "guimi_revival", str(DECK)], out=out) == 1
    assert "my_seer_b9" in out.getvalue()
    out = io.StringIO()
    assert main(["deck", "check", "guimi_revival", str(DECK), "--pool", str(POOL)], out=out) == 0
    assert "legal" in out.getvalue()
    out = io.StringIO()
    assert main(["play", "guimi_revival", "--seed", "2", "--decks", f"{DECK},hunter", "--pool",
                 str(POOL), "--max-decisions", "400"], out=out) == 0
    assert "Apprentice Diviner" in out.getvalue()
    out = io.StringIO()
    assert main(["simulate", "guimi_revival", "--games", "2", "--decks", f"{DECK},hunter",
                 "--pool", str(POOL), "-q"], out=out) == 0
    assert "2 games" in out.getvalue()


def test_balance_ab_of_a_designer_pool() -> None:
    # B plays hunter_b9 at 500 strength: the seer/hunter games change, A's are the built-in ones
    ab = tcgcore.balance_ab("guimi_revival", b={"pool": str(POOL)}, games=2,
                            decks=["seer", "hunter"], min_sample=2)
    assert ab.pairs == 8 and ab.label_b == "pool my_cards.toml"
    assert {m.what for m in ab.moved} >= {"win rate: seer", "win rate: hunter", "turns"}
    mirror_a = [r for r in ab.a.records if r.run == "seer v seer"]
    mirror_b = [r for r in ab.b.records if r.run == "seer v seer"]
    assert [(r.winners, r.turns) for r in mirror_a] == [(r.winners, r.turns) for r in mirror_b]


def test_cards_md_for_a_designer_pool(tmp_path: Path) -> None:
    text = render_cards_md(str(POOL.resolve()))
    assert text.startswith("# Guimi Revival (诡秘复苏): card pool my_cards.toml")
    assert "`my_seer_b9` | Apprentice Diviner" in text and "167 cards" in text
    out = tmp_path / "cards.md"
    from tcgcore_guimi_revival.carddoc import main as carddoc_main
    assert carddoc_main(["--pool", str(POOL), "--out", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == text
