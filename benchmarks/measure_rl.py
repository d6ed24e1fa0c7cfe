"""Environment steps per CPU-second of tcgcore's PettingZoo environments, beside RLCard uno.

Runnable alone (``python benchmarks/measure_rl.py [--quick]``, with the rl extra installed);
``benchmarks/run.py`` calls :func:`measure`.

Method: each game's environment (``tcgcore.rl.env``, every seat free) plays seeded episodes
with a uniformly random legal action (drawn from the mask of ``env.last()``, so every step
also builds the acting seat's observation) until the repeat's CPU time has passed; a step is
one ``env.step`` of a seat that must act. RLCard's uno does the same with its own
``env.step`` and a random legal action. The figure is the median over the repeats of steps
per CPU-second of this process (one core; other load on the machine moves it little).
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from typing import Any

#: label -> (game, players)
GAMES: dict[str, tuple[str, int | None]] = {
    "sparks": ("sparks", None),
    "guimi_revival": ("guimi_revival", None),
    "arkham_card solo": ("arkham_card", 1),
    "arkham_card 4p": ("arkham_card", 4),
}


def _tcgcore_steps(game: str, players: int | None, seconds: float) -> float:
    import numpy as np

    import tcgcore.rl

    env = tcgcore.rl.env(game, seed=0, players=players)
    rng = np.random.default_rng(0)
    steps = 0
    episode = 0
    cpu0 = time.process_time()
    while time.process_time() - cpu0 < seconds:
        env.reset(seed=episode)
        episode += 1
        for _ in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
    return steps / (time.process_time() - cpu0)


def _rlcard_uno_steps(seconds: float) -> float:
    import random

    import rlcard

    env = rlcard.make("uno", config={"seed": 0})
    rng = random.Random(0)
    steps = 0
    cpu0 = time.process_time()
    while time.process_time() - cpu0 < seconds:
        state, _ = env.reset()
        while not env.is_over():
            state, _ = env.step(rng.choice(list(state["legal_actions"].keys())))
            steps += 1
    return steps / (time.process_time() - cpu0)


def measure(quick: bool) -> dict[str, Any]:
    """Rows ``{"name", "value", "unit"}``: the median environment steps per CPU-second of
    each game (and of RLCard uno when rlcard is installed; its row is left out otherwise,
    and ``"note"`` says so, which ``benchmarks/run.py`` prints above the table).
    ``quick``: one repeat of 0.5 s each instead of five of 2 s. Without the rl extra the
    result has no rows and says why under ``"skipped"``."""
    repeats, seconds = (1, 0.5) if quick else (5, 2.0)
    out: dict[str, Any] = {"title": "Research environments (tcgcore.rl)", "rows": [],
                           "method": __doc__.split("Method: ", 1)[1].strip() if __doc__ else ""}
    try:
        import tcgcore.rl  # noqa: F401
    except ImportError as exc:
        out["skipped"] = out["note"] = f"the rl extra is not installed ({exc})"
        return out
    for label, (game, players) in GAMES.items():
        figures = [_tcgcore_steps(game, players, seconds) for _ in range(repeats)]
        out["rows"].append({"name": f"{label} env steps", "value": statistics.median(figures),
                            "unit": "steps/CPU-s"})
    try:
        import rlcard  # noqa: F401
    except ImportError:
        out["note"] = "rlcard is not installed (the bench extra), so uno has no row"
        return out
    figures = [_rlcard_uno_steps(seconds) for _ in range(repeats)]
    out["rows"].append({"name": "rlcard uno env steps", "value": statistics.median(figures),
                        "unit": "steps/CPU-s"})
    return out


if __name__ == "__main__":
    result = measure("--quick" in sys.argv[1:])
    for row in result["rows"]:
        print(f"{row['name']:32} {row['value']:>12,.0f} {row['unit']}")
    if "skipped" in result:
        print("skipped:", result["skipped"])
    if "--json" in sys.argv[1:]:
        print(json.dumps(result, indent=2))
