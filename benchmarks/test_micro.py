"""Micro-benchmarks of the engine's hot operations (run with pytest-benchmark).

    python -m pytest benchmarks --benchmark-only
"""

from __future__ import annotations

from typing import Any

import pytest

import tcgcore

benchmark_plugin = pytest.importorskip("pytest_benchmark")


@pytest.fixture(scope="module")
def midgame() -> tcgcore.Match[Any]:
    full = tcgcore.new_match("sparks", seed=2024)
    tcgcore.play_out(full, [tcgcore.RandomAgent(7), tcgcore.RandomAgent(8)])
    m = tcgcore.new_match("sparks", seed=2024)
    for d in full.decisions[: len(full.decisions) // 2]:
        m.choose(d.player, d.keys)
    return m


def test_clone(benchmark: Any, midgame: tcgcore.Match[Any]) -> None:
    benchmark(midgame.clone)


def test_encode_msgpack(benchmark: Any, midgame: tcgcore.Match[Any]) -> None:
    """The state codec alone (``spec.codecs.mp_enc``; what ``clone`` round-trips)."""
    benchmark(midgame.state_bytes)


def test_decode_msgpack(benchmark: Any, midgame: tcgcore.Match[Any]) -> None:
    """The state codec alone (``spec.codecs.mp_dec``)."""
    data = midgame.state_bytes()
    benchmark(midgame.spec.codecs.mp_dec.decode, data)


def test_save_to_bytes(benchmark: Any, midgame: tcgcore.Match[Any]) -> None:
    """The public save: the envelope (header, decisions) around the state."""
    benchmark(midgame.to_bytes)


def test_load_from_bytes(benchmark: Any, midgame: tcgcore.Match[Any]) -> None:
    """The public load: header and version checks, decoding, state validation."""
    benchmark(tcgcore.Match.from_bytes, midgame.to_bytes())


def test_view(benchmark: Any, midgame: tcgcore.Match[Any]) -> None:
    benchmark(midgame.view, 0)


def test_digest(benchmark: Any, midgame: tcgcore.Match[Any]) -> None:
    benchmark(midgame.digest)


def test_move_and_back(benchmark: Any, midgame: tcgcore.Match[Any]) -> None:
    m = midgame.clone()
    card = m.state.zones["deck.0"].cards[0]

    def move() -> None:
        m.engine.move(card, "discard.0")
        m.engine.move(card, "deck.0", index=0)

    benchmark(move)


def test_random_game(benchmark: Any) -> None:
    def game() -> None:
        m = tcgcore.new_match("sparks", seed=1)
        tcgcore.play_out(m, [tcgcore.RandomAgent(1), tcgcore.RandomAgent(2)])

    benchmark(game)
