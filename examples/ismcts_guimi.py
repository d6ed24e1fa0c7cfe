"""OpenSpiel's ISMCTS bot playing Guimi Revival through tcgcore's OpenSpiel adapter.

The bot (``open_spiel.python.algorithms.ismcts.ISMCTSBot``) takes one seat, alternating
between games; the other seat picks uniformly among the legal actions. Worlds are resampled
with ``tcgcore.rl.openspiel.resampler`` (the seat's hidden cards permuted, the generator
reseeded); leaves are valued by random playouts on the match
(``tcgcore.rl.openspiel.PlayoutEvaluator``). Prints the bot's win rate with its Wilson 95 %
interval. Needs the ``rl`` extra::

    python examples/ismcts_guimi.py                        # 20 games, 16 simulations a move
    python examples/ismcts_guimi.py --games 4 --simulations 4
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts

import tcgcore
import tcgcore.rl.openspiel as tos


def play(games: int, simulations: int, seed: int = 0) -> dict[str, float]:
    """Play ``games`` games of ISMCTS (``simulations`` per decision) against random."""
    wins = losses = 0
    for g in range(games):
        game = pyspiel.load_game("tcgcore_guimi_revival", {"seed": seed + g})
        bot = ismcts.ISMCTSBot(game, tos.PlayoutEvaluator(seed=seed + g), uct_c=2.0,
                               max_simulations=simulations,
                               random_state=np.random.RandomState(seed + g))
        bot.set_resampler(tos.resampler(seed + g))
        rng = np.random.default_rng(seed + g)
        seat = g % 2
        state = game.new_initial_state()
        while not state.is_terminal():
            legal = state.legal_actions()
            if state.current_player() == seat and len(legal) > 1:
                state.apply_action(int(bot.step(state)))
            else:
                state.apply_action(int(rng.choice(legal)))
        returns = state.returns()
        wins += returns[seat] > 0
        losses += returns[seat] < 0
    rate, low, high = tcgcore.wilson_interval(wins, games)
    return {"games": games, "wins": wins, "losses": losses, "win_rate": rate,
            "wilson_low": low, "wilson_high": high}


def main(argv: list[str] | None = None) -> int:
    """Play and print the result."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--simulations", type=int, default=16)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    cpu0 = time.process_time()
    r = play(args.games, args.simulations, args.seed)
    print(f"ISMCTS ({args.simulations} simulations a decision) against random, "
          f"{args.games} games in {time.process_time() - cpu0:.0f} CPU-s: {r['wins']} won, "
          f"{r['losses']} lost: win rate {r['win_rate']:.2f} (Wilson 95 % "
          f"{r['wilson_low']:.2f}-{r['wilson_high']:.2f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
