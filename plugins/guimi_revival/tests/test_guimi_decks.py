"""Deck construction (rules.md section 4)."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest
from tcgcore_guimi_revival import (
    RulesOptions,
    deck_problems,
    default_decks,
    get_pool,
    load_pool_file,
    validate_deck,
)
from tcgcore_guimi_revival.decks import DeckList, parse_deck

import tcgcore

DATA = Path(__file__).parent / "data"
POOL = load_pool_file(DATA / "test_pool.toml")
#: the deck-rule tests edit a fixed deck of the test pool (independent of the shipped precons)
TEST_DECKS = {name: parse_deck(d) for name, d in
              tomllib.loads((DATA / "test_decks.toml").read_text(encoding="utf-8"))["deck"].items()}


def _deck(**changes: Any) -> dict[str, Any]:
    d = TEST_DECKS["seer"]
    out: dict[str, Any] = {"revival": d.revival, "main": dict(d.main) if isinstance(d.main, dict)
                           else list(d.main), "extra": list(d.extra)}
    out.update(changes)
    return out


def _problems(deck: dict[str, Any], opts: RulesOptions | None = None) -> list[str]:
    return deck_problems(parse_deck(deck), POOL, opts)


def test_041_1_default_decks_are_legal() -> None:
    """041.1, 041.2, 041.3: 42 + 7 + 1; the built-in decks pass."""
    for deck in default_decks().values():
        assert len(deck.main_codes()) == 42 and len(deck.extra) == 7
        validate_deck(deck, get_pool("builtin"))


def test_041_2_main_deck_size() -> None:
    """041.1: exactly 42 main-deck cards."""
    main = dict(_deck()["main"])
    main["seer_b9"] = 1
    assert any("041.1" in p for p in _problems(_deck(main=main)))


@pytest.mark.parametrize("count", [10**18, 99999999999999999999, 43, -1])
def test_041_1_impossible_count_refused_before_expansion(count: int) -> None:
    """041.1: no main deck holds more than 42 copies of a card (or fewer than none), so a
    count outside 0..42 is refused with a DeckError naming the card and the count, before the
    list is expanded (a count of 10**18 must not be turned into a list), through every door:
    parse_deck, new_match (with or without ``deck_check``), deck_problems on a DeckList built
    directly, and ``tcgcore deck check``'s check_deck_text."""
    from tcgcore_guimi_revival.decks import check_deck_text
    from tcgcore_guimi_revival.testing import new_match

    raw = {"revival": "rb_seer", "main": {"seer_b8": 2, "seer_b9": count}, "extra": []}
    with pytest.raises(tcgcore.DeckError) as err:
        parse_deck(raw)
    assert err.value.problems == [
        f"main deck card 'seer_b9': count {count} is impossible (a main deck holds 42 cards, "
        "041.1; a count is 0 to 42)"]
    for check in (True, False):
        with pytest.raises(tcgcore.DeckError, match=f"seer_b9.*{count}"):
            new_match(0, decks=[raw, "seer"], deck_check=check)
    direct = DeckList(revival="rb_seer", main={"seer_b9": count})
    assert deck_problems(direct, POOL) == err.value.problems
    with pytest.raises(tcgcore.DeckError):
        direct.main_codes()
    text = f'revival = "rb_seer"\nextra = []\n[main]\nseer_b9 = {count}\n'
    assert check_deck_text(text, "x.toml") == err.value.problems
    # the largest possible count is still only a deck-building problem, and plays unchecked
    assert len(parse_deck({**raw, "main": {"seer_b9": 42}}).main_codes()) == 42


def test_041_2_extra_deck_size_and_option() -> None:
    """041.2: exactly 7 extra cards by default; ``extra_deck_size = up_to_7`` allows fewer."""
    short = _deck(extra=_deck()["extra"][:5])
    assert any("041.2" in p for p in _problems(short))
    assert not _problems(short, RulesOptions(extra_deck_size="up_to_7"))
    long = _deck(extra=[*_deck()["extra"], "x_gift"])
    assert any("041.2" in p for p in _problems(long, RulesOptions(extra_deck_size="up_to_7")))


def test_041_3_revival_must_be_rb() -> None:
    """041.3: the revival card is a Revival Beyonder."""
    assert any("041.3" in p for p in _problems(_deck(revival="seer_b9")))
    assert any("041.3" in p for p in _problems(_deck(revival="nobody")))


def test_042_1_no_extra_cards_in_main() -> None:
    """042.1: extra-deck and RB cards cannot be in the main deck."""
    main = dict(_deck()["main"])
    main["it_charm"] = 0
    main["god_seer"] = 1
    assert any("042.1" in p for p in _problems(_deck(main=main)))


def test_042_2_three_copies_by_name() -> None:
    """042.2 (021.3): at most 3 cards with the same name."""
    main = dict(_deck()["main"])
    main["seer_b9"] = 4
    main["it_charm"] = 0
    assert any("042.2" in p for p in _problems(_deck(main=main)))


def test_042_3_one_potion_per_sequence_and_option() -> None:
    """042.3: one potion per sequence number; ``per_pathway_sequence`` counts per pathway."""
    main = dict(_deck()["main"])
    main["marauder_potion9"] = 1
    main["seer_potion3"] = 0
    main["seer_b3"] = 3
    main["it_charm"] = 0
    probs = _problems(_deck(main=main))
    assert any("042.3" in p for p in probs)
    assert not _problems(_deck(main=main), RulesOptions(potion_limit="per_pathway_sequence"))


def test_042_4_seven_potions_at_most() -> None:
    """042.4: at most 7 potions in total."""
    main = dict(_deck()["main"])
    main["seer_potion2"] = 1
    main["it_charm"] = 0
    assert any("042.4" in p for p in _problems(_deck(main=main)))


def test_042_5_off_pathway_cards_and_option() -> None:
    """042.5: at least 7 cards not of the RB's pathway; ``pathway_cards_only`` ignores
    pathless cards."""
    deck = _deck()
    assert not _problems(deck)
    assert any("042.5" in p for p in _problems(
        deck, RulesOptions(off_pathway_count="pathway_cards_only")))


def test_042_6_no_sequence_1_in_main() -> None:
    """042.6: no card above sequence 2 in the main deck."""
    main = dict(_deck()["main"])
    main["seer_potion1"] = 1
    main["it_charm"] = 0
    assert any("042.6" in p for p in _problems(_deck(main=main)))


def test_043_1_extra_deck_kinds_and_copies() -> None:
    """043.1, 043.2: only the six extra kinds; one copy per name."""
    extra = ["seer_b9", "god_seer", "god_seer", "uniq_seer", "slate", "x_gift", "nobody"]
    probs = _problems(_deck(extra=extra))
    assert any("043.1" in p for p in probs)
    assert any("043.2" in p for p in probs)
    assert any("unknown" in p for p in probs)


def test_deck_error_reports_every_problem_at_once() -> None:
    """DeckError.problems lists every violation, each naming the card and rule."""
    main = dict(_deck()["main"])
    main["seer_b9"] = 5
    main["seer_potion1"] = 1
    with pytest.raises(tcgcore.DeckError) as exc:
        validate_deck(_deck(main=main, extra=[]), POOL)
    rules = {r for p in exc.value.problems for r in ("041.1", "041.2", "042.2", "042.6") if r in p}
    assert rules == {"041.1", "041.2", "042.2", "042.6"}
    with pytest.raises(tcgcore.DeckError):
        parse_deck({"revival": 3})


def test_deck_list_main_as_list() -> None:
    """A deck's main part may be a list of codes."""
    d = DeckList(revival="rb_seer", main=["seer_b9", "seer_b9"], extra=[])
    assert d.main_codes() == ["seer_b9", "seer_b9"]
