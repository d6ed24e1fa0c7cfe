"""Measure the Guimi Revival agents and write ``docs/guimi_revival/balance.md``.

Usage (repository root, project virtualenv)::

    python -m tcgcore_guimi_revival.balance            # 500 games per matchup (~15 min, 2 cores)
    python -m tcgcore_guimi_revival.balance --games 40 --out /tmp/balance.md
    python -m tcgcore_guimi_revival.balance --backend ray [--address ADDR]   # on a Ray cluster

(``plugins/guimi_revival/scripts/measure_balance.py`` does the same.)

Three measurements, all seeded (game ``i`` of a matchup uses match seed ``i``):

1. heuristic against random, for every (heuristic precon, random precon) pair: half the games
   with the heuristic in seat 0, half in seat 1 (the first player is drawn by the game);
2. heuristic against heuristic for every precon pair (deck balance);
3. card coverage: every card of the set that was played (to a unit slot, activated as an event,
   potion or extra-deck card, or used through an ability) in heuristic-vs-heuristic and
   heuristic-vs-random games of every precon pair.

With ``--backend ray`` the matchups of 1 and 2 run through ``tcgcore.simulate`` on one Ray
cluster for the whole measurement (``--address``, ``RAY_ADDRESS``, or a local cluster of
``--workers`` CPUs; ``docs/distributed.md``); the tables are the same. The coverage games of
3 read every game's events and play in this process.
"""

from __future__ import annotations

import argparse
import collections
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import tcgcore

from .agents import HeuristicAgent
from .card_usage import played
from .cards import get_pool
from .decks import PRECONS, default_decks

ROOT = Path.cwd()

def run_pair(deck_h: str, deck_r: str, games: int, workers: int | None,
             other: str = "random", backend: str = "local",
             address: str | None = None) -> dict[str, Any]:
    """``games`` games of heuristic (``deck_h``) against ``other`` (``deck_r``), with
    ``tcgcore.simulate``'s ``workers``, ``backend`` and ``address``."""
    out: dict[str, Any] = {"wins": 0, "games": 0, "turns": [], "reasons": collections.Counter(),
                           "draws": 0}
    half = games // 2
    for seat, n, seed in ((0, games - half, 0), (1, half, 100_000)):
        decks = [deck_h, deck_r] if seat == 0 else [deck_r, deck_h]
        agents = ["heuristic", other] if seat == 0 else [other, "heuristic"]
        rep = tcgcore.simulate("guimi_revival", games=n, seed=seed, agents=agents,
                               options={"decks": decks}, workers=workers, backend=backend,
                               address=address)
        out["games"] += n
        out["wins"] += rep.wins[seat]
        out["draws"] += rep.draws
        out["reasons"].update(rep.reasons)
        out["turns"] += [o.turns for o in rep.outcomes]
    return out


#: the scripted whole games of the tests (seed, decks, opponent of the seat-0 heuristic): they
#: reach sequence 0 and the Great Old One and are part of the coverage run
SHOWCASE: tuple[tuple[int, str, str, str], ...] = (
    (97, "marauder", "sleepless", "random"),
    (85, "assassin", "assassin", "random"),
    (201, "assassin", "assassin", "heuristic"),
)


def coverage(games_per_pair: int, showcase: bool = False) -> tuple[set[str], dict[str, int]]:
    """Cards used in heuristic games over every precon pair (both heuristic-vs-heuristic and
    heuristic-vs-random), plus the scripted games of :data:`SHOWCASE` when ``showcase``; also
    the lowest sequence each precon reached."""
    used: set[str] = set()
    best: dict[str, int] = {d: 9 for d in PRECONS}
    if showcase:
        for seed, a, b, other in SHOWCASE:
            m = tcgcore.new_match("guimi_revival", seed=seed, decks=[a, b])
            opp = HeuristicAgent(seed + 1) if other == "heuristic" else tcgcore.RandomAgent(seed)
            tcgcore.play_out(m, [HeuristicAgent(seed), opp])
            used |= {e.code for e in m.events_since(0, player="all") if e.code and played(e)}
            best[a] = min(best[a], m.state.sequence[0])
            best[b] = min(best[b], m.state.sequence[1])
    for a in PRECONS:
        for b in PRECONS:
            for i in range(games_per_pair):
                for other in ("heuristic", "random"):
                    m = tcgcore.new_match("guimi_revival", seed=i, decks=[a, b])
                    spec = m.spec
                    agents = [HeuristicAgent(i), tcgcore.make_agent(spec, other, i + 1)]
                    tcgcore.play_out(m, agents)
                    for e in m.events_since(0, player="all"):
                        if e.code and played(e):
                            used.add(e.code)
                    best[a] = min(best[a], m.state.sequence[0])
                    best[b] = min(best[b], m.state.sequence[1])
    return used, best


def pct(x: float) -> str:
    return f"{100 * x:.1f} %"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=500, help="games per matchup (default 500)")
    ap.add_argument("--hh-games", type=int, default=100,
                    help="heuristic-vs-heuristic games per pair (default 100)")
    ap.add_argument("--coverage-games", type=int, default=20,
                    help="coverage games per pair and opponent (default 20)")
    ap.add_argument("--workers", type=int, default=2,
                    help="worker processes; with --backend ray, the CPUs of a local cluster")
    ap.add_argument("--backend", choices=("local", "ray"), default="local",
                    help="where the matchups run (ray: docs/distributed.md)")
    ap.add_argument("--address", default=None,
                    help="with --backend ray: the cluster to join (default RAY_ADDRESS, else local)")
    ap.add_argument("--out", default=str(ROOT / "docs" / "guimi_revival" / "balance.md"))
    args = ap.parse_args(argv)
    if args.backend == "ray":  # one cluster for every matchup, left (or stopped) at the end
        with tcgcore.ray_session(args.address,
                                 workers=None if args.address else args.workers):
            return _measure(args)
    return _measure(args)


def _measure(args: argparse.Namespace) -> int:
    """Write the balance document of ``args`` (see :func:`main`)."""
    run = {"backend": args.backend, "address": args.address,
           "workers": None if args.backend == "ray" and args.address else args.workers}
    t0 = time.perf_counter()
    lines = ["# Guimi Revival: agent strength and deck balance", "",
             "Generated by `python -m tcgcore_guimi_revival.balance "
             f"--games {args.games} --hh-games {args.hh_games} --coverage-games "
             f"{args.coverage_games}` (seeded: rerunning it gives the same tables).", "",
             "## Heuristic against random", "",
             f"{args.games} seeded games per matchup (half with the heuristic in seat 0, half "
             "in seat 1; the first player is drawn by the game's RNG). Rows: the heuristic's "
             "precon; columns: the random player's precon; cells: the heuristic's win rate.", "",
             "| heuristic \\ random | " + " | ".join(PRECONS) + " | all |",
             "|---" * (len(PRECONS) + 2) + "|"]
    total_w = total_g = 0
    turns: list[int] = []
    reasons: collections.Counter[str] = collections.Counter()
    for a in PRECONS:
        row = [a]
        aw = ag = 0
        for b in PRECONS:
            r = run_pair(a, b, args.games, other="random", **run)
            row.append(pct(r["wins"] / r["games"]))
            aw += r["wins"]
            ag += r["games"]
            turns += r["turns"]
            reasons.update(r["reasons"])
            print(f"heuristic {a} vs random {b}: {r['wins']}/{r['games']}", file=sys.stderr)
        total_w += aw
        total_g += ag
        row.append(pct(aw / ag))
        lines.append("| " + " | ".join(row) + " |")
    low, high = tcgcore.wilson_interval(total_w, total_g)[1:]
    lines += ["", f"Overall: the heuristic won **{total_w} of {total_g}** games "
              f"(**{pct(total_w / total_g)}**, 95 % interval {pct(low)} – {pct(high)}); "
              "target: at least 80 %.", "",
              f"Game length: {statistics.mean(turns):.1f} turns on average (median "
              f"{statistics.median(turns):.0f}, a round is two turns plus the battle phase).",
              "", "How the games ended (all heuristic-vs-random games):", "",
              "| reason | games | share |", "|---|---|---|"]
    n = sum(reasons.values())
    for k, v in reasons.most_common():
        lines.append(f"| {k} | {v} | {pct(v / n)} |")
    lines += ["", "## Heuristic against heuristic (deck balance)", "",
              f"{args.hh_games} seeded games per pair (half each seating). Cells: the row "
              "precon's win rate.", "",
              "| row \\ column | " + " | ".join(PRECONS) + " | all |",
              "|---" * (len(PRECONS) + 2) + "|"]
    hh_reasons: collections.Counter[str] = collections.Counter()
    hh_turns: list[int] = []
    for a in PRECONS:
        row = [a]
        aw = ag = 0
        for b in PRECONS:
            r = run_pair(a, b, args.hh_games, other="heuristic", **run)
            row.append(pct(r["wins"] / r["games"]))
            aw += r["wins"]
            ag += r["games"]
            hh_reasons.update(r["reasons"])
            hh_turns += r["turns"]
        row.append(pct(aw / ag))
        lines.append("| " + " | ".join(row) + " |")
    n = sum(hh_reasons.values())
    lines += ["", f"Game length: {statistics.mean(hh_turns):.1f} turns on average. How they "
              "ended: " + ", ".join(f"{k} {pct(v / n)}" for k, v in hh_reasons.most_common())
              + ".", ""]
    used, best = coverage(args.coverage_games, showcase=True)
    pool = get_pool("builtin").cards
    in_decks: set[str] = set()
    for d in default_decks().values():
        in_decks |= {d.revival, *d.main_codes(), *d.extra}
    missing = sorted(in_decks - used)
    lines += ["## Card coverage", "",
              f"{args.coverage_games} games per precon pair (36 pairs) against each of "
              "heuristic and random, plus the three scripted whole games of the tests "
              "(`test_guimi_play.py`: seed 97 Error vs Darkness reaches sequence 0, seeds 85 "
              "and 201 end with a Great Old One). A card counts as played when it entered a unit slot, was "
              "activated (event, potion, extra-deck card), was set from the hand, became a "
              "characteristic through an effect, or used an ability; an extra-deck card counts "
              "only when activated, an RB when the game starts.", "",
              f"* cards in the set: {len(pool)}; in at least one precon: {len(in_decks)}; "
              f"played: {len(used & in_decks)}",
              "* not played: " + (", ".join(missing) if missing else "none"),
              "* lowest sequence reached per precon: "
              + ", ".join(f"{k} {v}" for k, v in best.items()), "",
              f"Measured in {time.perf_counter() - t0:.0f} s.", ""]
    Path(args.out).write_text("\n".join(lines), encoding="utf-8")
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
