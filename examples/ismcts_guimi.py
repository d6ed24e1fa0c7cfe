"""OpenSpiel's ISMCTS bot playing Guimi Revival through tcgcore's OpenSpiel adapter, against
the random player or against tcgcore's own ``ismcts`` agent at the same budget.

The bot (``open_spiel.python.algorithms.ismcts.ISMCTSBot``, ``uct_c=2.0`` on returns of
-1..1) takes seat 0 in even games and seat 1 in odd ones. Its worlds are resampled with
``tcgcore.rl.openspiel.resampler`` (the game's determinisation of the seat's information
set, the generator reseeded); its leaves are valued by one random playout to the end on the
match (``tcgcore.rl.openspiel.PlayoutEvaluator``). A decision with a single legal action is
played without a search.

``--opponent random``: the other seat picks uniformly among the legal actions.
``--opponent ismcts``: the other seat is tcgcore's ``ismcts`` agent with the same number of
iterations per decision as the bot's simulations, its rollouts random and played to the end
as well (``ismcts:iterations=N:depth=100000``, exploration 0.7 on scores of 0..1); it
answers a whole choice at once, the bot one pick of it at a time. Same budget means same
iterations: the CPU each side spent per decision of the match (a multi-pick choice counts
once) is printed beside the result.

Prints the bot's win rate with its Wilson 95 % interval. Needs the ``rl`` extra::

    python examples/ismcts_guimi.py                        # 20 games, 16 simulations a move
    python examples/ismcts_guimi.py --games 4 --simulations 4
    python examples/ismcts_guimi.py --opponent ismcts --games 20 --simulations 8
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts

import tcgcore
import tcgcore.rl.openspiel as tos


def play(games: int, simulations: int, seed: int = 0, opponent: str = "random",
         progress: bool = False) -> dict[str, Any]:
    """Play ``games`` games of OpenSpiel's ISMCTS bot (``simulations`` per decision) against
    ``opponent`` (``"random"`` or ``"ismcts"``, see the module docstring).

    Returns ``games``, the bot's ``wins`` and ``losses``, its ``win_rate`` with
    ``wilson_low``/``wilson_high`` (95 %), and per side (``"bot"``, ``"opponent"``) the CPU
    seconds spent deciding (``cpu``) and the choices of the match answered (``decisions``).
    ``progress``: a line on stderr after each game.
    """
    if opponent not in ("random", "ismcts"):
        raise ValueError(f"opponent must be 'random' or 'ismcts', got {opponent!r}")
    if simulations < 2:  # OpenSpiel's bot has no visited root after a single simulation
        raise ValueError(f"simulations must be at least 2, got {simulations}")
    wins = losses = 0
    cpu = {"bot": 0.0, "opponent": 0.0}
    decisions = {"bot": 0, "opponent": 0}
    for g in range(games):
        game = pyspiel.load_game("tcgcore_guimi_revival", {"seed": seed + g})
        bot = ismcts.ISMCTSBot(game, tos.PlayoutEvaluator(seed=seed + g), uct_c=2.0,
                               max_simulations=simulations,
                               random_state=np.random.RandomState(seed + g))
        bot.set_resampler(tos.resampler(seed + g))
        rng = np.random.default_rng(seed + g)
        seat = g % 2
        state = game.new_initial_state()
        table = state.table
        ours = tcgcore.make_agent(table.match.spec,
                                  f"ismcts:iterations={simulations}:depth=100000",
                                  seed + g) if opponent == "ismcts" else None
        while not state.is_terminal():
            side = "bot" if state.current_player() == seat else "opponent"
            start = time.process_time()
            if side == "opponent" and ours is not None:
                match = table.match
                assert match.pending is not None
                table.choose(match.pending.player, ours.decide(match, match.pending))
                moved = True
            else:
                legal = state.legal_actions()
                if side == "bot" and len(legal) > 1:
                    action = int(bot.step(state))
                else:
                    action = int(rng.choice(legal))
                before = len(table.match.decisions)
                state.apply_action(action)
                moved = len(table.match.decisions) > before
            cpu[side] += time.process_time() - start
            decisions[side] += moved
        returns = state.returns()
        wins += returns[seat] > 0
        losses += returns[seat] < 0
        if progress:
            print(f"game {g + 1}/{games}: bot in seat {seat}, returns {returns}; so far "
                  f"{wins} won, {losses} lost; CPU {cpu['bot']:.0f} s bot, "
                  f"{cpu['opponent']:.0f} s opponent", file=sys.stderr, flush=True)
    rate, low, high = tcgcore.wilson_interval(wins, games)
    return {"games": games, "wins": wins, "losses": losses, "win_rate": rate,
            "wilson_low": low, "wilson_high": high, "cpu": cpu, "decisions": decisions}


def main(argv: list[str] | None = None) -> int:
    """Play and print the result."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--simulations", type=int, default=16)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--opponent", choices=("random", "ismcts"), default="random")
    args = parser.parse_args(argv)
    cpu0 = time.process_time()
    r = play(args.games, args.simulations, args.seed, args.opponent, progress=True)
    against = ("random" if args.opponent == "random" else
               f"tcgcore's ismcts ({args.simulations} iterations a decision)")
    per = {side: 1000 * r["cpu"][side] / max(1, r["decisions"][side]) for side in r["cpu"]}
    print(f"OpenSpiel ISMCTS ({args.simulations} simulations a decision) against {against}, "
          f"{args.games} games in {time.process_time() - cpu0:.0f} CPU-s: {r['wins']} won, "
          f"{r['losses']} lost: win rate {r['win_rate']:.2f} (Wilson 95 % "
          f"{r['wilson_low']:.2f}-{r['wilson_high']:.2f}); CPU per decision: OpenSpiel bot "
          f"{per['bot']:.0f} ms ({r['decisions']['bot']} decisions), {args.opponent} "
          f"{per['opponent']:.0f} ms ({r['decisions']['opponent']} decisions)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
