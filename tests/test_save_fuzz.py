"""Mutated saves of every game either are refused with a typed error or can be played on.

Runs ``tests/save_fuzz.py`` in a child process (so its address-space cap of its base size
plus 256 MiB and its alarms stay out of the test runner). The default run is seeded and
bounded (1500 saves per game, about a minute of CPU); ``TCGCORE_FUZZ_SAVES`` (saves per game) and
``TCGCORE_FUZZ_SEED`` enlarge or vary it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path


def test_mutated_saves_are_refused_or_playable() -> None:
    saves = os.environ.get("TCGCORE_FUZZ_SAVES", "1500")
    seed = os.environ.get("TCGCORE_FUZZ_SEED", "22")
    script = Path(__file__).with_name("save_fuzz.py")
    proc = subprocess.run([sys.executable, str(script), saves, seed], capture_output=True,
                          text=True, timeout=1800, check=False)
    print(proc.stdout)
    assert proc.returncode == 0, proc.stderr[-3000:]
    summary = json.loads(proc.stdout.strip().splitlines()[-1])
    for name, counts in summary["games"].items():
        assert counts["tried"] == int(saves), name
        assert counts.get("loaded", 0) > 0 and counts.get("rejected", 0) > 0, name
    assert summary["failures"] == 0, proc.stdout[-4000:]
