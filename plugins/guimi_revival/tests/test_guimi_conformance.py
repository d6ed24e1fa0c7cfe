"""Conformance (random play-outs) and rule-number coverage of the test suite."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from tcgcore_guimi_revival.testing import new_match, registry

import tcgcore
from tcgcore.testing import random_playout_check

ROOT = Path(__file__).resolve().parents[3]
RULES = ROOT / "docs" / "guimi_revival" / "rules.md"
TESTS = Path(__file__).parent


def test_random_playouts_full_checks() -> None:
    """Every decision checked (save/load, illegal answers, views) on 20 seeds."""
    report = random_playout_check("guimi_revival", seeds=range(20), registry=registry())
    assert report.games == 20


def test_random_playouts_200_seeds() -> None:
    """200 seeded random games finish (011.2, 011.3) with expensive checks every 25
    decisions."""
    report = random_playout_check("guimi_revival", seeds=range(200), registry=registry(),
                                  check_every=25)
    assert report.games == 200
    assert set(report.reasons) <= {"deck_out", "mad_while_dead", "death", "great_old_one",
                                   "double_ascension", "simultaneous_losses"}


def test_random_playouts_with_variant_options() -> None:
    """Random games also finish with every non-default rules option."""
    opts = {
        "first_player": "p1", "defeat_condition": "death",
        "state_check_order": "madness_first", "threshold_checks": "while_at_or_above",
        "strength_floor": "none", "characteristic_on_unit": "active",
        "characteristic_keeps_ritual": "no", "untap_scope": "all",
        "quick_event_from_hand": "allowed", "quick_event_same_round_battle": "forbidden",
        "set_event_activation": "cannot_set", "dead_rb_can_promote": "yes",
        "ascension_start": "automatic", "ascension_recheck": "yes",
        "lone_source_ascension": "waive_adjacent", "trigger_rb_scope": "include",
        "item_intercept_rb": "forbidden", "potion_prevention": "whole_hit",
        "damage_step_losses": "sequential", "dead_corruption_count": "whole_game",
        "extra_card_default_destination": "underworld",
    }
    report = random_playout_check("guimi_revival", seeds=range(10), registry=registry(),
                                  options=opts, check_every=5)
    assert report.games == 10


def test_011_3_same_seed_same_game() -> None:
    """011.3: the same seed, decks, options and decisions give the same game."""
    a, b = new_match(9), new_match(9)
    assert a.state_bytes() == b.state_bytes()
    agents = [tcgcore.RandomAgent(1), tcgcore.RandomAgent(2)]
    tcgcore.play_out(a, agents, max_decisions=150)
    rebuilt = tcgcore.replay(a.replay(), registry=registry())
    assert rebuilt.digest() == a.digest()


#: Sections whose every rule number must be cited by a test (by its digits, 083.4 or 083_4).
COMPLETE_SECTIONS = ("01", "02", "03", "04", "05", "06", "07", "08", "09", "10", "11", "12", "13",
                     "14")


def rule_numbers() -> list[str]:
    """Every numbered rule in rules.md (``083.4``, ``112.1a`` ...)."""
    text = RULES.read_text(encoding="utf-8")
    return re.findall(r"^\*\*(\d{3}\.\d+[a-z]?)\.\*\*", text, flags=re.M)


def uncited() -> list[str]:
    """Rule numbers not cited anywhere in this test directory."""
    corpus = "\n".join(p.read_text(encoding="utf-8") for p in TESTS.glob("test_guimi_*.py"))
    missing = []
    for num in rule_numbers():
        pattern = re.escape(num).replace(r"\.", r"[._]")
        if not re.search(rf"(?<![\d.]){pattern}(?![\d]|[a-z])", corpus):
            missing.append(num)
    return missing


@pytest.mark.skipif(not RULES.exists(), reason="rules.md not written yet")
def test_every_rule_of_completed_sections_is_cited() -> None:
    """Each rule number in the completed sections appears in a test name or docstring."""
    missing = [n for n in uncited() if n[:2] in COMPLETE_SECTIONS]
    assert not missing, f"uncited rules: {missing}"


def _invariants(m: tcgcore.Match) -> None:  # type: ignore[type-arg]
    st = m.state
    for p in (0, 1):
        assert len(st.zones[f"spirit.{p}"].cards) <= 7  # 034.1
        assert 0 <= st.sequence[p] <= 9 and st.mad[p] in (0, 1, 2)
        rb_zone = st.cards[st.rb[p]].zone
        assert st.dead[p] == (rb_zone == f"underworld.{p}")
        assert (st.ascend_round[p] >= 0) == (rb_zone == f"astral.{p}")
        assert all(st.cards[c].code != st.cards[st.rb[p]].code
                   for c in st.zones[f"units.{p}"].cards if c != tcgcore.EMPTY_SLOT)
    for card in st.cards:
        assert card.id in st.zones[card.zone].cards
        if card.face_down and st.round > 0:  # 031.5: public zones and the field are face up
            assert not card.zone.startswith(("underworld.", "astral.", "units.", "revival.")), \
                card


@pytest.mark.parametrize("options", [{}, {"defeat_condition": "death",
                                          "threshold_checks": "while_at_or_above",
                                          "untap_scope": "all"}])
def test_state_invariants_hold_in_random_games(options: dict[str, str]) -> None:
    """Zone limits, facing and RB bookkeeping stay consistent after every decision (034.1,
    031.5, 113.2, 089.4)."""
    for seed in range(15):
        m = new_match(seed, **options)
        agents = [tcgcore.RandomAgent(seed), tcgcore.RandomAgent(seed + 99)]
        while m.result is None:
            _invariants(m)
            ch = m.pending
            assert ch is not None
            m.choose(ch.player, agents[ch.player].decide(m, ch))
        _invariants(m)


def test_no_decision_tells_from_a_hidden_hand() -> None:
    """tcgcore.testing's twin comparison: a hand card swapped with a deck card of the
    same seat changes no view, choice or event the other seat or a spectator receives."""
    from tcgcore.testing import hidden_responder_check

    assert hidden_responder_check("guimi_revival", seeds=range(2), every=12,
                                  registry=registry()) > 20
