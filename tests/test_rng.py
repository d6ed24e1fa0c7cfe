"""The deterministic RNG: xoshiro256** seeded by SplitMix64, known answers and overrides."""

from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tcgcore import Rng

# Known answers, checked against an independent C build of the reference algorithms.
KNOWN = {
    0: [11091344671253066420, 13793997310169335082, 1900383378846508768,
        7684712102626143532, 13521403990117723737, 18442103541295991498],
    42: [1546998764402558742, 6990951692964543102, 12544586762248559009,
         17057574109182124193, 18295552978065317476, 14199186830065750584],
    2**64 - 1: [10328197420357168392, 14156678507024973869, 9357971779955476126,
                13791585006304312367, 10463432026814718762, 13498236496097551653],
}


@pytest.mark.parametrize("seed", sorted(KNOWN))
def test_known_answers_from_seed(seed: int) -> None:
    rng = Rng.from_seed(seed)
    assert [rng.next64() for _ in range(6)] == KNOWN[seed]


def test_known_answers_reference_state() -> None:
    # the xoshiro256** reference output for the state (1, 2, 3, 4)
    rng = Rng(s=[1, 2, 3, 4])
    assert [rng.next64() for _ in range(6)] == [
        11520, 0, 1509978240, 1215971899390074240, 1216172134540287360, 607988272756665600,
    ]


def test_randbelow_and_shuffle_known_answers() -> None:
    rng = Rng.from_seed(7)
    assert [rng.randbelow(10) for _ in range(12)] == [7, 2, 8, 9, 9, 8, 0, 1, 4, 1, 5, 7]
    # Lemire: the first result is the high word of next64() * n
    assert (Rng.from_seed(7).next64() * 10) >> 64 == 7
    deck = list(range(10))
    Rng.from_seed(7).shuffle(deck)
    assert deck == [1, 8, 3, 0, 4, 5, 9, 6, 2, 7]


@pytest.mark.parametrize("bad", [-1, 2**64, 1.5, "3", True])
def test_bad_seed_rejected(bad: object) -> None:
    with pytest.raises(ValueError):
        Rng.from_seed(bad)  # type: ignore[arg-type]


@given(st.integers(0, 2**64 - 1), st.integers(1, 10**12))
def test_randbelow_in_range(seed: int, n: int) -> None:
    rng = Rng.from_seed(seed)
    for _ in range(5):
        assert 0 <= rng.randbelow(n) < n


def test_randbelow_rejects_zero() -> None:
    with pytest.raises(ValueError):
        Rng.from_seed(1).randbelow(0)


def test_randbelow_roughly_uniform() -> None:
    rng = Rng.from_seed(123)
    counts = [0] * 6
    for _ in range(60_000):
        counts[rng.randbelow(6)] += 1
    assert all(9_500 < c < 10_500 for c in counts), counts


@given(st.integers(0, 2**64 - 1), st.lists(st.integers(), max_size=30))
def test_shuffle_is_a_permutation_and_deterministic(seed: int, items: list[int]) -> None:
    a, b = list(items), list(items)
    Rng.from_seed(seed).shuffle(a)
    Rng.from_seed(seed).shuffle(b)
    assert a == b
    assert sorted(a) == sorted(items)


def test_choice_and_empty_choice() -> None:
    rng = Rng.from_seed(5)
    assert rng.choice("abc") in "abc"
    with pytest.raises(ValueError):
        rng.choice([])


def test_forced_results_override_chance() -> None:
    rng = Rng.from_seed(9)
    before = list(rng.s)
    rng.force(3, 0)
    assert rng.randbelow(5) == 3
    assert rng.randbelow(2) == 0
    assert rng.s == before  # forced results consume no generator output
    rng.force(7)
    with pytest.raises(ValueError, match=r"not in 0\.\.4"):
        rng.randbelow(5)


def test_frozen_shuffle_stacks_the_deck() -> None:
    rng = Rng.from_seed(9)
    rng.frozen_shuffles = 1
    deck = list(range(10))
    rng.shuffle(deck)
    assert deck == list(range(10))
    rng.shuffle(deck)
    assert deck != list(range(10))


def test_same_numbers_in_another_process() -> None:
    code = "from tcgcore import Rng; r = Rng.from_seed(2024); print([r.randbelow(1000) for _ in range(8)])"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    rng = Rng.from_seed(2024)
    assert out.stdout.strip() == str([rng.randbelow(1000) for _ in range(8)])


def test_forced_shuffle_results_are_checked_against_each_position() -> None:
    # Fisher-Yates with forced results: position i draws below i + 1, so 3 is allowed for
    # the last of four positions and refused for the one before it
    rng = Rng.from_seed(9)
    rng.force(3, 0, 0)
    deck = [10, 11, 12, 13]
    rng.shuffle(deck)
    assert deck == [11, 12, 10, 13] and rng.forced == []
    rng.force(0, 3)
    with pytest.raises(ValueError, match=r"forced random result 3 is not in 0\.\.2"):
        rng.shuffle([10, 11, 12, 13])


_M64 = 2**64 - 1


def _state_whose_next_output_is(out: int) -> list[int]:
    """State words whose next xoshiro256** output is ``out``: the output depends on the
    second word only (``rotl(s1 * 5, 7) * 9``), so invert those three steps."""
    y = out * pow(9, -1, 2**64) & _M64
    x = (y >> 7 | y << 57) & _M64
    return [1, x * pow(5, -1, 2**64) & _M64, 2, 3]


def test_lemire_rejects_exactly_the_low_words_below_the_threshold() -> None:
    # n = 3: the threshold (2**64 - 3) % 3 is 1; n = 2 (a power of two): it is 0
    assert Rng(s=_state_whose_next_output_is(0)).next64() == 0
    one_third = pow(3, -1, 2**64)  # next64() * 3 has the low word 1: exactly the threshold
    assert Rng(s=_state_whose_next_output_is(one_third)).next64() == one_third
    rng = Rng(s=_state_whose_next_output_is(one_third))
    assert rng.randbelow(3) == one_third * 3 >> 64 and rng.draws == 1
    rng = Rng(s=_state_whose_next_output_is(0))
    assert rng.randbelow(2) == 0 and rng.draws == 1  # low word 0, threshold 0: accepted
    rng = Rng(s=_state_whose_next_output_is(0))
    rng.randbelow(3)
    assert rng.draws == 2  # low word 0 below the threshold 1: drawn again
    # the shuffle's inlined draw keeps the same boundary
    rng = Rng(s=_state_whose_next_output_is(0))
    pair = ["a", "b"]
    rng.shuffle(pair)
    assert pair == ["b", "a"] and rng.draws == 1  # j = 0: the two swap
    rng = Rng(s=_state_whose_next_output_is(one_third))
    plain = Rng(s=list(rng.s))
    trio = [1, 2, 3]
    rng.shuffle(trio)
    j = plain.randbelow(3)
    assert plain.draws == 1
    expected = [1, 2, 3]
    expected[2], expected[j] = expected[j], expected[2]
    k = plain.randbelow(2)
    expected[1], expected[k] = expected[k], expected[1]
    assert trio == expected and rng.draws == plain.draws == 2


def test_a_fresh_generator_has_no_overrides_and_encodes_only_its_words() -> None:
    import gc

    import msgspec

    rng = Rng.from_seed(4)
    assert not gc.is_tracked(rng)  # plain data: the cycle collector never scans it
    assert rng.forced == [] and rng.frozen_shuffles == 0 and rng.draws == 0
    assert msgspec.json.decode(msgspec.json.encode(rng)) == {"s": rng.s}
    rng.frozen_shuffles = 1
    rng.shuffle([1, 2])  # the stacked shuffle is used up: back to the fresh encoding
    assert msgspec.json.decode(msgspec.json.encode(rng)) == {"s": rng.s}
    with pytest.raises(TypeError):
        Rng([1, 2, 3, 4])  # type: ignore[call-arg]  # fields are keyword-only


def test_a_draw_is_the_high_word_of_the_whole_output_times_n() -> None:
    # for n = 2 the draw is the output's top bit: outputs on both sides of 2**63, where a
    # rotation that moves a low bit (x >> 56 or x >> 58 for x >> 57) would change it
    for out, expected in [(2**63 - 2, 0), (2**63 - 1, 0), (2**63, 1), (2**63 + 1, 1)]:
        assert Rng(s=_state_whose_next_output_is(out)).randbelow(2) == expected
        pair = ["a", "b"]
        Rng(s=_state_whose_next_output_is(out)).shuffle(pair)
        assert pair == (["b", "a"] if expected == 0 else ["a", "b"])


def test_forced_results_must_lie_in_the_range_asked() -> None:
    rng = Rng.from_seed(9)
    for bad in (-1, 5):
        rng.force(bad)
        with pytest.raises(ValueError, match=rf"forced random result {bad} is not in 0\.\.4"):
            rng.randbelow(5)
        assert rng.forced == []
    rng.force(0, 4)
    assert [rng.randbelow(5), rng.randbelow(5)] == [0, 4]
