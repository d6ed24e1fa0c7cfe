"""Per-process setup caches answer what a fresh computation does and hand out fresh data:
starter deck layouts (A971.2, A971.3), the basic weakness list (A971.2) and the default
match built from them (A971.5, A304); trauma checks keep their messages (A309.1)."""

from __future__ import annotations

from typing import Any

import pytest
from tcgcore_arkham_card import decks
from tcgcore_arkham_card.decks import (
    RANDOM_WEAKNESS,
    STARTERS,
    DeckList,
    basic_weaknesses,
    deck_codes,
    starter_codes,
    starter_deck,
)
from tcgcore_arkham_card.testkit import codes_in, st

import tcgcore


def _fresh_deck_codes(deck: DeckList, rng: tcgcore.Rng | None) -> list[str]:
    """What ``deck_codes`` promises, written out plainly: slots in code order, one code
    per copy, each ``01000`` one ``randbelow`` draw from the basic weaknesses."""
    out: list[str] = []
    for code, qty in sorted(deck.slots.items()):
        if code == RANDOM_WEAKNESS:
            if rng is not None:
                pool = basic_weaknesses()
                out += [pool[rng.randbelow(len(pool))] for _ in range(qty)]
            continue
        out += [code] * qty
    return out


SPELLINGS = [*STARTERS, *STARTERS.values(), "Roland Banks", "daisy walker", " Skids "]


@pytest.mark.parametrize("name", SPELLINGS)
def test_A971_2_A971_3_starter_codes_equal_a_fresh_import_with_the_same_draws(
        name: str) -> None:
    for seed in range(12):
        for _ in range(2):  # the first call fills the cache, the second reads it
            rng_a, rng_b = tcgcore.Rng.from_seed(seed), tcgcore.Rng.from_seed(seed)
            deck = starter_deck(name)
            assert starter_codes(name, rng_a) == (deck.name, _fresh_deck_codes(deck, rng_b))
            assert rng_a == rng_b  # the same number of draws, so the same generator state
    deck = starter_deck(name)
    assert starter_codes(name) == (deck.name, _fresh_deck_codes(deck, None))


def test_A971_3_starter_codes_unknown_name_raises_key_error() -> None:
    with pytest.raises(KeyError):
        starter_codes("nobody")
    with pytest.raises(KeyError):
        starter_codes("nobody")  # a miss is never remembered as a deck


def test_A971_3_starter_codes_hand_out_fresh_lists() -> None:
    rng = tcgcore.Rng.from_seed(3)
    name, got = starter_codes("roland", rng)
    expected = list(got)
    again = starter_codes("roland", tcgcore.Rng.from_seed(3))[1]
    assert again is not got  # a new list per call, not one refilled in place
    got.clear()
    got.append("01000")
    assert starter_codes("roland", tcgcore.Rng.from_seed(3)) == (name, expected)
    assert again == expected


def test_A971_2_basic_weaknesses_hand_out_fresh_lists() -> None:
    first = basic_weaknesses()
    kept = list(first)
    first.clear()
    assert basic_weaknesses() == kept
    assert decks._basic_weakness_codes() == tuple(kept)


@pytest.mark.parametrize("slots", [
    {"01000": 2, "01090": 2, "00005": 1, "01086": 1},  # 01000 between other codes
    {"01086": 2, "01016": 1},  # no random weakness
    {"01000": 1},  # nothing but a random weakness
    {},
])
def test_A971_2_deck_codes_equal_a_fresh_computation(slots: dict[str, int]) -> None:
    deck = DeckList(investigator="01001", slots=slots)
    for seed in range(6):
        rng_a, rng_b = tcgcore.Rng.from_seed(seed), tcgcore.Rng.from_seed(seed)
        assert deck_codes(deck, rng_a) == _fresh_deck_codes(deck, rng_b)
        assert rng_a == rng_b
    assert deck_codes(deck) == _fresh_deck_codes(deck, None)


@pytest.mark.parametrize("players", [1, 4])
def test_A971_5_A304_a_match_changing_its_cards_cannot_change_the_next_match(
        players: int) -> None:
    before = {s: tcgcore.new_match("arkham_card", seed=s, players=players).to_bytes()
              for s in range(3)}
    m = tcgcore.new_match("arkham_card", seed=0, players=players)
    state = st(m)
    for s in range(players):  # write into the decks and the bag setup built
        state.zones[f"deck.{s}"].cards.reverse()
    state.bag.append("-8")
    # and play on: the mulligans, the scenario's own setup (A307), eliminations (A705)
    tcgcore.play_out(m, [tcgcore.RandomAgent(k) for k in range(players)])
    for s in range(3):
        assert tcgcore.new_match("arkham_card", seed=s, players=players).to_bytes() == before[s]


def test_A971_5_default_match_deck_is_the_starter_deck_with_one_basic_weakness() -> None:
    m = tcgcore.new_match("arkham_card", seed=7, players=1)
    codes = sorted(codes_in(m, "deck.0") + codes_in(m, "hand.0") + codes_in(m, "aside.0"))
    rng = tcgcore.Rng.from_seed(0)
    _, starter = starter_codes("01001", rng)
    fixed = sorted(c for c in starter if c not in set(basic_weaknesses()))
    weak = [c for c in codes if c in set(basic_weaknesses())]
    assert len(weak) == 1
    assert sorted(c for c in codes if c not in set(basic_weaknesses())) == fixed


@pytest.mark.parametrize(("trauma", "message"), [
    ([[-5, 0]], "arkham_card: option 'trauma' seat 0: needs [physical, mental], two whole "
                "numbers 0 or more, got [-5, 0]"),
    ([[True, 0]], "arkham_card: option 'trauma' seat 0: needs [physical, mental], two whole "
                  "numbers 0 or more, got [True, 0]"),
    ([[0, 0, 0]], "arkham_card: option 'trauma' seat 0: needs [physical, mental], two whole "
                  "numbers 0 or more, got [0, 0, 0]"),
    ([7], "arkham_card: option 'trauma' seat 0: needs [physical, mental], two whole numbers "
          "0 or more, got 7"),
    ([[100, 100]], "arkham_card: option 'trauma' seat 0: 100 physical trauma reaches Roland "
                   "Banks's health (9): the investigator was killed and cannot play "
                   "(A309.1, A954.1)"),
    ([[0, 5]], "arkham_card: option 'trauma' seat 0: 5 mental trauma reaches Roland Banks's "
               "sanity (5): the investigator was driven insane and cannot play "
               "(A309.1, A954.1)"),
])
def test_A309_1_trauma_errors_name_the_seat_and_the_problem(trauma: Any, message: str) -> None:
    with pytest.raises(tcgcore.OptionsError) as err:
        tcgcore.new_match("arkham_card", seed=1, players=1, trauma=trauma)
    assert str(err.value) == message


def test_A309_1_trauma_as_a_tuple_is_accepted() -> None:
    m = tcgcore.new_match("arkham_card", seed=1, players=1, trauma=[(1, 2)])
    assert (st(m).inv[0].damage, st(m).inv[0].horror) == (1, 2)
