"""The balance lab (tcgcore.balance, tcgcore.balance_ab, ``tcgcore balance``) on Sparks: real
figures against the games they come from, the interval maths, the A/B pairing, the reports
and (with the ``lab`` extra) the plots."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest

import tcgcore
from tcgcore.cli import main


@pytest.fixture(scope="module")
def sparks_report() -> tcgcore.BalanceReport:
    return tcgcore.balance("sparks", games=40, seed=3, min_sample=10)


# ------------------------------------------------------------------ interval maths


def test_wilson_interval_known_values() -> None:
    # 0 of 10: the upper Wilson bound is z^2 / (n + z^2) = 0.2775
    rate, low, high = tcgcore.wilson_interval(0, 10)
    assert (rate, low) == (0.0, 0.0) and high == pytest.approx(0.2775, abs=1e-4)
    rate, low, high = tcgcore.wilson_interval(50, 100)
    assert rate == 0.5 and low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(
        0.5962, abs=1e-4)


def test_newcombe_interval_matches_newcombe_1998_example() -> None:
    # Newcombe (1998), example (a): 56/70 against 48/80, method 10: 0.0524 .. 0.3339
    d, low, high = tcgcore.newcombe_interval(56, 70, 48, 80)
    assert d == pytest.approx(0.2)
    assert low == pytest.approx(0.0524, abs=1e-4) and high == pytest.approx(0.3339, abs=1e-4)
    assert tcgcore.newcombe_interval(0, 0, 3, 5) == [0.0, -1.0, 1.0]


def test_mcnemar_exact_p() -> None:
    assert tcgcore.mcnemar_p(0, 0) == 1.0
    assert tcgcore.mcnemar_p(0, 6) == pytest.approx(2 / 64)  # six of six one way
    assert tcgcore.mcnemar_p(3, 3) == 1.0
    assert tcgcore.mcnemar_p(1, 9) == pytest.approx(2 * 11 / 1024)


# ------------------------------------------------------------------ figures


def test_seat_and_first_player_figures_count_the_games(sparks_report: tcgcore.BalanceReport) -> None:
    rep = sparks_report
    assert rep.games == len(rep.records) == 40 and rep.players == 2 and not rep.cooperative
    for seat, rate in enumerate(rep.seat_wins):
        assert rate.count == sum(seat in r.winners for r in rep.records) and rate.of == 40
    decided = [r for r in rep.records if len(r.winners) == 1]
    assert rep.first_player is not None and rep.first_player.of == len(decided)
    assert rep.first_player.count == sum(r.winners[0] == r.first_player for r in decided)
    assert sum(rep.reasons.values()) == 40 and sum(rep.lengths.values()) == 40
    assert rep.reasons == {k: sum(r.reason == k for r in rep.records) for k in rep.reasons}


def test_quality_figures(sparks_report: tcgcore.BalanceReport) -> None:
    q = sparks_report.quality
    recs = sparks_report.records
    assert q.completion == sum(bool(r.winners) for r in recs) / 40
    rates = [r.rate for r in sparks_report.seat_wins]
    assert q.balance == pytest.approx(1 - (max(rates) - min(rates)))
    turns = sorted(r.turns for r in recs)
    assert q.duration == (turns[19] + turns[20]) / 2
    assert q.decisions_per_turn > 1 and q.branching_factor > 1  # a hand of cards to set


def test_card_figures_agree_with_the_card_usage_of_each_game() -> None:
    rep = tcgcore.simulate("sparks", games=30, seed=3, card_usage=True)
    bal = tcgcore.balance("sparks", games=30, seed=3, min_sample=5)
    flare = next(c for c in bal.cards if c.code == "flare")
    drawn = won_drawn = opening = played = 0
    for o in rep.outcomes:
        assert len(o.cards) == 2
        for seat, used in enumerate(o.cards):
            assert set(used.opening) <= set(used.drawn) <= set(used.deck)
            assert set(used.played) <= set(used.drawn)
            if "flare" in used.drawn:
                drawn += 1
                won_drawn += seat in o.winners
            opening += "flare" in used.opening
            played += "flare" in used.played
    assert flare.name == "Flare" and flare.games == 60
    assert (flare.drawn.of, flare.drawn.count) == (drawn, won_drawn)
    assert flare.opening.of == opening and flare.played.of == played
    assert flare.not_drawn.of == 60 - drawn
    assert flare.play_rate == played / 60
    d, low, high = flare.improvement
    assert d == pytest.approx(flare.drawn.rate - flare.not_drawn.rate) and low <= d <= high


def test_opening_hand_is_the_hand_after_the_mulligan() -> None:
    rep = tcgcore.simulate("sparks", games=5, seed=11, card_usage=True)
    for o in rep.outcomes:
        for used in o.cards:
            assert 1 <= len(used.opening) <= 5  # five cards, some of them copies


def test_matchup_matrix_is_built_from_ordered_pairs() -> None:
    # Sparks has no decks, so decks give one run; its matrix needs a two-seat game with decks
    rep = tcgcore.balance("sparks", games=6, seed=0)
    assert rep.matchups == [] and rep.decks == []


# ------------------------------------------------------------------ A/B


def test_ab_pairs_games_seed_by_seed() -> None:
    # target=4 is the default: B plays exactly A's games, so every pair agrees
    ab = tcgcore.balance_ab("sparks", b={"target": 4}, games=20, seed=5, min_sample=5)
    assert ab.pairs == 20
    assert [r.winners for r in ab.a.records] == [r.winners for r in ab.b.records]
    paired = [m for m in ab.moved if m.paired]
    assert paired and all(m.delta == 0 and m.p == 1.0 and not m.significant for m in paired)


def test_ab_finds_what_a_rules_change_moves() -> None:
    ab = tcgcore.balance_ab("sparks", b={"target": 7}, games=30, seed=0, min_sample=10)
    turns = next(m for m in ab.moved if m.what == "turns")
    assert turns.significant and turns.delta > 0 and turns.low > 0  # longer games to 7 points
    assert turns.delta == pytest.approx(
        sum(y.turns - x.turns for x, y in zip(ab.a.records, ab.b.records, strict=True)) / 30)
    assert ab.label_b == "target=7" and ab.moved[0].significant


def test_ab_refuses_two_equal_settings() -> None:
    with pytest.raises(tcgcore.OptionsError, match="the same"):
        tcgcore.balance_ab("sparks", a={"target": 5}, b={"target": 5}, games=2)


def test_balance_refuses_a_pool_the_game_does_not_take(tmp_path: Path) -> None:
    pool = tmp_path / "cards.toml"
    pool.write_text("", encoding="utf-8")
    with pytest.raises(tcgcore.OptionsError, match="pool"):
        tcgcore.balance("sparks", games=2, pool=pool)


# ------------------------------------------------------------------ reports


def _lab_installed() -> bool:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        if os.environ.get("TCGCORE_EXPECT_LAB") == "1":
            pytest.fail("TCGCORE_EXPECT_LAB=1 but matplotlib (the lab extra) is missing")
        return False
    return True


def test_reports_written(tmp_path: Path, sparks_report: tcgcore.BalanceReport) -> None:
    files = sparks_report.write(tmp_path)
    md = (tmp_path / "report.md").read_text(encoding="utf-8")
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert tmp_path / "report.md" in files
    for text in (md, page):
        assert "Seats and the first player" in text and "Flare" in text
        assert f"{sparks_report.seat_wins[0].count}" in text
    back = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert back["games"] == 40
    if not _lab_installed():
        assert "tcgcore[lab]" in page and "<img" not in page


def test_plots_with_the_lab_extra(tmp_path: Path) -> None:
    if not _lab_installed():
        pytest.skip("the lab extra (matplotlib) is not installed")
    rep = tcgcore.balance("sparks", games=20, seed=1, min_sample=5)
    rep.write(tmp_path)
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    for name in ("lengths.png", "cards.png"):
        assert (tmp_path / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert f'src="{name}"' in page
    ab = tcgcore.balance_ab("sparks", b={"target": 6}, games=10, min_sample=5)
    ab.write(tmp_path / "ab")
    assert (tmp_path / "ab" / "ab.png").read_bytes()[:4] == b"\x89PNG"


def test_cli_balance_and_compare(tmp_path: Path) -> None:
    out = io.StringIO()
    assert main(["balance", "sparks", "--games", "8", "--out", str(tmp_path / "a"), "-q"],
                out=out) == 0
    assert "# sparks: balance report" in out.getvalue()
    assert (tmp_path / "a" / "report.html").is_file()
    out = io.StringIO()
    assert main(["balance", "sparks", "--games", "8", "--out", str(tmp_path / "b"), "-q",
                 "--compare-rules", "target=6", "--min-sample", "5"], out=out) == 0
    assert "A/B comparison" in out.getvalue() and "B: target=6" in out.getvalue()
    assert main(["balance", "sparks", "--games", "2", "--pool", str(tmp_path / "nope.toml"),
                 "--out", str(tmp_path / "c"), "-q"], out=io.StringIO()) == 2
