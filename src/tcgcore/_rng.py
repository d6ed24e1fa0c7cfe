"""Deterministic, serialisable random numbers: xoshiro256** seeded by SplitMix64.

The generator state is four unsigned 64-bit words stored *inside* the game state
(:class:`Rng` is a msgspec Struct), so saving a match saves its randomness and two
machines that load the same bytes draw the same numbers. The algorithms are
implemented here in plain integer arithmetic, so results do not depend on the
platform, the Python version or the ``random`` module.

* Seeding: SplitMix64 (Steele, Lea and Flood 2014) expands one 64-bit seed into the
  four state words, as the xoshiro authors recommend.
* Generation: xoshiro256** 1.0 (Blackman and Vigna 2018).
* Bounded integers: Lemire's multiply-and-reject method, exact and unbiased.
* Shuffling: Fisher-Yates from the last position down.

:meth:`Rng.randbelow` and :meth:`Rng.shuffle` are the hot paths of every match (agents
draw once per decision, setups shuffle whole decks), so they run the xoshiro256** step
inline instead of calling :meth:`Rng.next64` per draw (a shuffle keeps the four words in
local variables and writes them back once). The outputs, the rejections and
:attr:`Rng.draws` are exactly those of the plain per-draw calls; ``tests/test_rng.py`` and
``tests/test_fast_paths.py`` hold them to known answers and to a plain reference.

Tests and scenario builders can override chance: :attr:`Rng.forced` is a queue of
results for the next :meth:`Rng.randbelow` calls, and :attr:`Rng.frozen_shuffles`
makes the next shuffles keep their order (a "stacked deck").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

import msgspec

__all__ = ["Rng", "splitmix64"]

_MASK = 0xFFFFFFFFFFFFFFFF
_T = TypeVar("_T")


def splitmix64(x: int) -> tuple[int, int]:
    """Advance a SplitMix64 generator.

    Args:
        x: the 64-bit generator state.

    Returns:
        ``(new_state, output)``, both unsigned 64-bit integers.
    """
    x = (x + 0x9E3779B97F4A7C15) & _MASK
    z = x
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return x, z ^ (z >> 31)


class Rng(msgspec.Struct, kw_only=True, omit_defaults=True, gc=False):
    """xoshiro256** generator whose whole state is data.

    Attributes:
        s: the four 64-bit state words (never all zero).
        forced: results to return from the next :meth:`randbelow` calls, first
            first; set by tests and scenario builders to fix chance.
        frozen_shuffles: how many coming :meth:`shuffle` calls leave the list as
            it is (a stacked deck); each such call consumes no random numbers.
        draws: how many 64-bit outputs have been drawn (for diagnostics).
    """

    s: list[int]
    forced: list[int] = []
    frozen_shuffles: int = 0
    draws: int = 0

    @classmethod
    def from_seed(cls, seed: int) -> Rng:
        """Seed a generator.

        Args:
            seed: any integer in ``0 <= seed < 2**64``.

        Raises:
            ValueError: if the seed is negative or does not fit in 64 bits.
        """
        if type(seed) is not int:
            raise ValueError(f"seed must be an int, got {type(seed).__name__}")
        if not 0 <= seed <= _MASK:
            raise ValueError(f"seed must be in 0..2**64-1, got {seed}")
        x = seed
        words = []
        for _ in range(4):
            x, out = splitmix64(x)
            words.append(out)
        return cls(s=words)

    def next64(self) -> int:
        """Return the next unsigned 64-bit output of xoshiro256**."""
        s = self.s
        s0, s1, s2, s3 = s
        x = (s1 * 5) & _MASK
        # rotl(x, 7) * 9 mod 2**64; the bits the rotation pushes above 64 vanish in the mask
        result = (((x << 7) | (x >> 57)) * 9) & _MASK
        s2 ^= s0
        s3 ^= s1
        s[0] = s0 ^ s3
        s[1] = s1 ^ s2
        s[2] = s2 ^ ((s1 << 17) & _MASK)
        s[3] = ((s3 << 45) | (s3 >> 19)) & _MASK
        self.draws += 1
        return result

    def randbelow(self, n: int) -> int:
        """Return a uniform integer in ``0 .. n-1``.

        Uses Lemire's method: the high word of ``next64() * n``, rejecting the few
        low words that would bias the result.

        Raises:
            ValueError: if ``n < 1``, or if a forced result (:attr:`forced`) is not
                below ``n``.
        """
        if n < 1:
            raise ValueError(f"randbelow needs n >= 1, got {n}")
        if self.forced:
            value = self.forced.pop(0)
            if not 0 <= value < n:
                raise ValueError(f"forced random result {value} is not in 0..{n - 1}")
            return value
        # m = self.next64() * n, with next64 inlined (this is the hot path of every draw)
        s = self.s
        s0, s1, s2, s3 = s
        x = (s1 * 5) & _MASK
        m = ((((x << 7) | (x >> 57)) * 9) & _MASK) * n
        s2 ^= s0
        s3 ^= s1
        s[0] = s0 ^ s3
        s[1] = s1 ^ s2
        s[2] = s2 ^ ((s1 << 17) & _MASK)
        s[3] = ((s3 << 45) | (s3 >> 19)) & _MASK
        self.draws += 1
        low = m & _MASK
        if low < n:
            threshold = ((1 << 64) - n) % n
            while low < threshold:
                m = self.next64() * n
                low = m & _MASK
        return m >> 64

    def shuffle(self, items: list[_T]) -> None:
        """Shuffle ``items`` in place (Fisher-Yates, last position first).

        Consumes ``len(items) - 1`` :meth:`randbelow` results, or none while
        :attr:`frozen_shuffles` is positive (that call leaves the order alone and
        decrements it). Forced results (:attr:`forced`) are used first, as by
        :meth:`randbelow`.

        Raises:
            ValueError: if a forced result is out of range for its position.
        """
        if self.frozen_shuffles > 0:
            self.frozen_shuffles -= 1
            return
        if self.forced:
            # forced results feed randbelow one by one
            for i in range(len(items) - 1, 0, -1):
                j = self.randbelow(i + 1)
                items[i], items[j] = items[j], items[i]
            return
        # the same draws as calling randbelow(i + 1) for each i, with the generator
        # state kept in local variables and written back once
        s = self.s
        s0, s1, s2, s3 = s
        draws = 0
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            while True:
                x = (s1 * 5) & _MASK
                m = ((((x << 7) | (x >> 57)) * 9) & _MASK) * n
                t = (s1 << 17) & _MASK
                s2 ^= s0
                s3 ^= s1
                s1 ^= s2
                s0 ^= s3
                s2 ^= t
                s3 = ((s3 << 45) | (s3 >> 19)) & _MASK
                draws += 1
                low = m & _MASK
                # Lemire's rejection (see randbelow): only low words below (2**64 - n) % n
                if low >= n or low >= ((1 << 64) - n) % n:
                    break
            j = m >> 64
            items[i], items[j] = items[j], items[i]
        s[0] = s0
        s[1] = s1
        s[2] = s2
        s[3] = s3
        self.draws += draws

    def choice(self, items: Sequence[_T]) -> _T:
        """Return one element of a non-empty sequence, uniformly.

        Raises:
            ValueError: if ``items`` is empty.
        """
        if not items:
            raise ValueError("choice from an empty sequence")
        return items[self.randbelow(len(items))]

    def force(self, *values: int) -> None:
        """Queue results for the next :meth:`randbelow` calls (tests and scenarios)."""
        self.forced.extend(values)
