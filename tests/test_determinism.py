"""Determinism and serialisation as properties (hypothesis), and across processes."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tcgcore
from tcgcore.examples import sparks


def _registry() -> tcgcore.Registry:
    return tcgcore.load_registry(load_entrypoints=False, plugins=[sparks])


def _play(seed: int, agent_seed: int, reg: tcgcore.Registry, **opts: Any) -> tcgcore.Match[Any]:
    m: tcgcore.Match[Any] = tcgcore.new_match("sparks", seed=seed, registry=reg, **opts)
    tcgcore.play_out(m, [tcgcore.RandomAgent(agent_seed), tcgcore.RandomAgent(agent_seed + 1)])
    return m


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**64 - 1), agent_seed=st.integers(0, 2**32))
def test_same_inputs_same_bytes(seed: int, agent_seed: int) -> None:
    reg = _registry()
    a = _play(seed, agent_seed, reg)
    b = _play(seed, agent_seed, reg)
    assert a.to_bytes() == b.to_bytes()
    assert tcgcore.replay(a.replay(), registry=reg).digest() == a.digest()


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**64 - 1), cut=st.integers(0, 30), use_json=st.booleans())
def test_save_anywhere_and_continue_identically(seed: int, cut: int, use_json: bool) -> None:
    reg = _registry()
    whole = _play(seed, 11, reg)
    decisions = whole.decisions
    m: tcgcore.Match[Any] = tcgcore.new_match("sparks", seed=seed, registry=reg)
    for d in decisions[:cut]:
        m.choose(d.player, d.keys)
    data = m.to_json() if use_json else m.to_bytes()
    loaded = tcgcore.Match.from_bytes(data, registry=reg)
    for d in decisions[cut:]:
        loaded.choose(d.player, d.keys)
    assert loaded.state_bytes() == whole.state_bytes()
    assert loaded.digest() == whole.digest()


@settings(max_examples=40, deadline=None)
@given(data=st.binary(max_size=200))
def test_random_bytes_never_load_silently(data: bytes) -> None:
    with pytest.raises(tcgcore.TcgcoreError):
        tcgcore.Match.from_bytes(data, registry=_registry())


def test_identical_digest_in_a_fresh_process() -> None:
    code = (
        "import tcgcore\n"
        "m = tcgcore.new_match('sparks', seed=31337)\n"
        "tcgcore.play_out(m, [tcgcore.RandomAgent(1), tcgcore.RandomAgent(2)])\n"
        "print(m.digest())\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    local = _play(31337, 1, _registry())
    assert out.stdout.strip() == local.digest()


def test_digest_ignores_nothing_that_matters() -> None:
    reg = _registry()
    m = _play(5, 3, reg)
    c = m.clone()
    c.state.scores[0] += 1
    assert c.digest() != m.digest()
    assert msgspec.msgpack.decode(m.state_bytes())["seed"] == 5
