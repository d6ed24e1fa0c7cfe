"""Per-call medians: CPU µs of one call, timed in batches interleaved across the operations."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any

import tcgcore


def _batch_size(fn: Callable[[], object], batch_s: float) -> int:
    """How many calls of ``fn`` take at least ``batch_s`` CPU seconds (a power of two)."""
    n = 1
    while True:
        start = time.process_time()
        for _ in range(n):
            fn()
        if time.process_time() - start >= batch_s or n >= 1 << 20:
            return n
        n *= 2


def per_call_us(fns: dict[str, Callable[[], object]], batches: int,
                batch_s: float = 0.005) -> dict[str, float]:
    """The median over ``batches`` batches of the CPU µs per call of each function.

    Each batch runs every function once in turn (a batch of ``n`` calls lasting about
    ``batch_s``), so a slow moment of the host spoils one batch of every figure rather than
    every batch of one figure.
    """
    sizes = {name: _batch_size(fn, batch_s) for name, fn in fns.items()}
    samples: dict[str, list[float]] = {name: [] for name in fns}
    clock = time.process_time
    for _ in range(batches):
        for name, fn in fns.items():
            n = sizes[name]
            start = clock()
            for _ in range(n):
                fn()
            samples[name].append((clock() - start) / n * 1e6)
    return {name: statistics.median(values) for name, values in samples.items()}


def match_calls(match: tcgcore.Match[Any]) -> dict[str, Callable[[], object]]:
    """The four per-call figures of a mid-game match: ``clone``, ``to_bytes``,
    ``from_bytes`` (the public save and load) and ``view`` of the seat that must decide."""
    saved = match.to_bytes()
    pending = match.pending
    seat = pending.player if pending is not None else 0
    return {
        "clone": match.clone,
        "to_bytes": match.to_bytes,
        "from_bytes": lambda: tcgcore.Match.from_bytes(saved),
        "view": lambda: match.view(seat),
    }
