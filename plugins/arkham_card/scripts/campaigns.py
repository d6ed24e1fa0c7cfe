"""Measure seeded Night of the Zealot campaigns played by the heuristic agent through the
campaign runner (A980): resolution of each scenario, experience earned and spent by the
upgrade policy, trauma and killed/insane investigators.

A campaign is The Gathering, The Midnight Masks and The Devourer Below, each followed by
the upgrade step; the table gives each scenario's resolutions and the campaign outcome.

Usage::

    python plugins/arkham_card/scripts/campaigns.py [--campaigns 200] [--seed 0]
                                                    [--deck roland --deck agnes]
"""

from __future__ import annotations

import argparse
import io
import time
from collections import Counter

from tcgcore_arkham_card import card_pool
from tcgcore_arkham_card.campaign_runner import CAMPAIGNS, run_campaign, start_campaign

import tcgcore


def _table(title: str, counts: Counter[str], n: int) -> None:
    """Print ``counts`` out of ``n`` campaigns as a Markdown table with Wilson intervals."""
    print()
    print(f"| {title} | campaigns | rate [95% CI] |")
    print("|---|---|---|")
    for key in sorted(counts):
        k = counts[key]
        rate, lo, hi = tcgcore.wilson_interval(k, n)
        print(f"| {key} | {k} | {100 * rate:.1f}% [{100 * lo:.1f}–{100 * hi:.1f}] |")


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--campaigns", type=int, default=200)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--deck", action="append", default=[])
    p.add_argument("--difficulty", default="standard")
    args = p.parse_args()
    decks = args.deck or ["roland", "agnes"]
    start = time.perf_counter()
    results: Counter[str] = Counter()
    levels = unspent = killed = trauma = lost = 0
    outcomes: Counter[str] = Counter()
    for i in range(args.campaigns):
        seed = args.seed + i
        camp = start_campaign(decks, difficulty=args.difficulty, seed=seed)
        after, played = run_campaign(camp, list(CAMPAIGNS["night_of_the_zealot"]), seed=seed,
                                     out=io.StringIO(), inp=io.StringIO())
        for code, res in played:
            results[f"{code}:{res}"] += 1
        lost += after.lost
        final = played[-1] if played else ("", "")
        if after.lost:
            outcomes["lost"] += 1
        elif final[0] == CAMPAIGNS["night_of_the_zealot"][-1]:
            outcomes[f"won ({final[1]})"] += 1
        else:  # pragma: no cover - a campaign always ends one way or the other
            outcomes["unfinished"] += 1
        for inv in after.investigators:
            killed += inv.killed or inv.insane
            trauma += inv.physical + inv.mental
        for inv in after.investigators:
            levels += sum(card_pool()[c].xp or 0 for c in inv.deck)
            unspent += inv.xp
    n = args.campaigns
    seats = n * len(decks)
    print(f"Night of the Zealot ({'+'.join(decks)}, {args.difficulty}), {n} campaigns, "
          f"seeds {args.seed}..{args.seed + n - 1}, heuristic agent, upgrade policy A979.2")
    _table("Scenario: resolution", results, n)
    _table("Campaign outcome", outcomes, n)
    print()
    print(f"per investigator seat at the end: {levels / seats:.2f} levels of experience cards "
          f"in the deck, {unspent / seats:.2f} unspent experience, {trauma / seats:.2f} trauma; "
          f"killed or insane: {killed} of {seats} seats (replaced before a next scenario); "
          f"campaigns lost: {lost}")
    print(f"({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
