"""Conformance: seeded random playouts with save/load, illegal-answer and view checks."""

from __future__ import annotations

import pytest

import tcgcore
from tcgcore.testing import random_playout_check


@pytest.mark.parametrize("players", [1, 2, 4])
def test_random_playouts_full_checks(players: int) -> None:
    report = random_playout_check("arkham_card", seeds=range(20), players=players)
    assert report.games == 20


@pytest.mark.parametrize("players", [1, 2, 4])
def test_random_playouts_200_seeds(players: int) -> None:
    report = random_playout_check("arkham_card", seeds=range(200), players=players,
                                  check_every=25)
    assert report.games == 200
    assert set(report.reasons) <= {"resolution", "all_defeated", "no_resolution"}


def test_new_match_runs_with_no_options() -> None:
    for players in (1, 2, 3, 4):
        m = tcgcore.new_match("arkham_card", seed=5, players=players)
        assert m.pending is not None and m.pending.kind == "mulligan"


def test_hard_and_expert_playouts() -> None:
    for difficulty in ("easy", "hard", "expert"):
        report = random_playout_check("arkham_card", seeds=range(5), players=2,
                                      options={"difficulty": difficulty})
        assert report.games == 5


@pytest.mark.parametrize("players", [1, 2, 4])
def test_the_gathering_random_playouts(players: int) -> None:
    report = random_playout_check("arkham_card", seeds=range(40), players=players,
                                  options={"scenario": "01104"}, check_every=7)
    assert report.games == 40


def test_playouts_do_not_depend_on_hash_randomisation() -> None:
    import os
    import subprocess
    import sys

    code = ("import tcgcore, hashlib\n"
            "from tcgcore import RandomAgent, play_out\n"
            "d = hashlib.sha256()\n"
            "for seed in range(12):\n"
            "    m = tcgcore.new_match('arkham_card', seed=seed, players=2,\n"
            "                          scenario='01104' if seed % 2 else 'test')\n"
            "    play_out(m, [RandomAgent(seed), RandomAgent(seed + 1)])\n"
            "    d.update(m.digest().encode())\n"
            "print(d.hexdigest())\n")
    outs = set()
    for hash_seed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                             text=True, check=True)
        outs.add(run.stdout.strip())
    assert len(outs) == 1
