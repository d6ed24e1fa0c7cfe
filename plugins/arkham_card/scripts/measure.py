"""Measure the heuristic investigator on one scenario (default The Gathering, standard).

Plays N seeded games (default 500) per configuration with ``tcgcore.simulate`` — the
runner behind ``tcgcore simulate`` — for each core investigator alone and for one
two-investigator team, each with its shipped starter deck, and prints a Markdown table:
how often each resolution is reached (with 95 % Wilson intervals), average rounds, the
average victory display, how the investigators ended (defeated / resigned / still
playing) and, for The Midnight Masks, the average number of cultists interrogated.

``--scenario`` picks the scenario (01104 The Gathering, 01120 The Midnight Masks, 01142
The Devourer Below); ``--log`` adds a campaign-log entry (repeatable), e.g.
``--log "cultists who got away: 01139"`` for The Devourer Below's starting doom;
``--decks`` replaces the configurations (``roland`` or ``roland+daisy``, repeatable).

Usage::

    python plugins/arkham_card/scripts/measure.py [--games 500] [--seed 0] [--workers 2]
        [--difficulty standard] [--scenario 01104] [--log ENTRY ...] [--decks A+B ...]
"""

from __future__ import annotations

import argparse
import platform
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import tcgcore

CONFIGS: list[list[str]] = [["roland"], ["daisy"], ["skids"], ["agnes"], ["wendy"],
                            ["roland", "daisy"]]
RESOLUTIONS = ("R1", "R2", "R3", "R-none")
SCENARIOS = {"01104": "The Gathering", "01120": "The Midnight Masks",
             "01142": "The Devourer Below"}


def _pct(k: int, n: int) -> str:
    rate, lo, hi = tcgcore.wilson_interval(k, n)
    return f"{100 * rate:.1f}% [{100 * lo:.1f}–{100 * hi:.1f}]"


def measure(decks: list[str], games: int, seed: int, workers: int, difficulty: str,
            scenario: str = "01104", log: list[str] | None = None) -> tuple[str, float]:
    """One table row for ``decks``; returns the row and the seconds it took."""
    start = time.perf_counter()
    report = tcgcore.simulate("arkham_card", games=games, seed=seed, players=len(decks),
                              options={"decks": decks, "difficulty": difficulty,
                                       "scenario": scenario, "log": list(log or [])},
                              agents=["heuristic"], workers=workers)
    took = time.perf_counter() - start
    res: Counter[str] = Counter()
    status: Counter[str] = Counter()
    victory = interrogated = 0
    for o in report.outcomes:
        res[str(o.detail.get("resolution"))] += 1
        victory += int(o.detail.get("victory", 0) or 0)
        interrogated += str(o.detail.get("log", "")).count("cultists we interrogated")
        for s in range(len(decks)):
            status[str(o.detail.get(f"status{s}"))] += 1
    cells = [_pct(res[r], games) for r in RESOLUTIONS]
    seats = games * len(decks)
    ended = ", ".join(f"{k} {100 * v / seats:.0f}%" for k, v in sorted(status.items()))
    extra = f" {interrogated / games:.2f} |" if scenario == "01120" else ""
    row = (f"| {' + '.join(d.capitalize() for d in decks)} | " + " | ".join(cells) +
           f" | {report.avg_turns:.1f} | {victory / games:.2f} | {ended} |{extra}")
    return row, took


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=500)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--difficulty", default="standard")
    p.add_argument("--scenario", default="01104", choices=sorted(SCENARIOS))
    p.add_argument("--log", action="append", default=[], metavar="ENTRY",
                   help="a campaign-log entry for the scenario (repeatable)")
    p.add_argument("--decks", action="append", default=[], metavar="A+B",
                   help="a configuration such as roland or roland+daisy (repeatable)")
    args = p.parse_args(argv)
    configs = [d.split("+") for d in args.decks] or CONFIGS
    root = Path(__file__).resolve().parents[3]
    try:
        commit = subprocess.run(["git", "-C", str(root), "rev-parse", "--short", "HEAD"],
                                capture_output=True, text=True, check=False).stdout.strip()
    except OSError:  # pragma: no cover - git missing
        commit = "?"
    print(f"{SCENARIOS[args.scenario]}, {args.difficulty}, {args.games} games per row, seeds "
          f"{args.seed}..{args.seed + args.games - 1}, heuristic agent, starter decks" +
          (f", log {args.log}" if args.log else ""))
    print(f"commit {commit or '?'} (+ working tree), {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
          f"Python {platform.python_version()}, {platform.machine()}, "
          f"{platform.processor() or platform.system()}")
    print()
    mm = args.scenario == "01120"
    print("| Investigators | R1 | R2 | R3 | no resolution | avg rounds | avg victory | "
          "investigators ended |" + (" cultists interrogated |" if mm else ""))
    print("|---|---|---|---|---|---|---|---|" + ("---|" if mm else ""))
    total = 0.0
    for decks in configs:
        row, took = measure(decks, args.games, args.seed, args.workers, args.difficulty,
                            args.scenario, args.log)
        total += took
        print(row, flush=True)
    print()
    print(f"({total:.0f} s in total)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
