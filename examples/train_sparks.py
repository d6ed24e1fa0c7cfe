"""Train a small policy on Sparks through the PettingZoo environment, then test it.

A linear softmax policy over Sparks' action ids (masked to the legal ones), trained with
REINFORCE and a running-mean baseline against the built-in random agent, half the episodes
in each seat. Evaluation plays the greedy policy (the most probable legal action) against the
random agent, again half the games in each seat, and reports the win rate with its Wilson
95 % interval (draws count as not won). Needs the ``rl`` extra; numpy only::

    python examples/train_sparks.py                     # 6000 episodes, 2000 test games
    python examples/train_sparks.py --episodes 600 --games 300
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np
import numpy.typing as npt

import tcgcore
import tcgcore.rl

Array = npt.NDArray[np.float64]


def features(obs: npt.NDArray[np.float32]) -> Array:
    """The policy's input: the observation, squashed (sign * log1p of the magnitude)."""
    x = obs.astype(np.float64)
    return np.sign(x) * np.log1p(np.abs(x))


class LinearPolicy:
    """``p(a | x) ∝ exp(W[a] · x)`` over the legal actions ``a`` (a float64 weight matrix
    of shape ``(actions, features)``)."""

    def __init__(self, actions: int, size: int) -> None:
        self.w = np.zeros((actions, size))

    def probs(self, x: Array, mask: npt.NDArray[np.int8]) -> Array:
        """Action probabilities (zero for masked-out actions)."""
        logits = self.w @ x
        logits[mask == 0] = -np.inf
        logits -= logits.max()
        e = np.exp(logits)
        return e / e.sum()

    def greedy(self, x: Array, mask: npt.NDArray[np.int8]) -> int:
        """The most probable legal action."""
        return int(np.argmax(self.probs(x, mask)))


def _envs(seed: int) -> list[tcgcore.rl.TcgEnv]:
    """One environment per learner seat, the other seat bound to the random agent."""
    return [tcgcore.rl.env("sparks", seed=seed + 1_000_003 * s, agents={1 - s: "random"})
            for s in (0, 1)]


def train(episodes: int, *, seed: int = 0, lr: float = 0.02) -> LinearPolicy:
    """REINFORCE for ``episodes`` games (alternating seats); returns the trained policy."""
    rng = np.random.default_rng(seed)
    envs = _envs(seed)
    enc = envs[0].encoder
    policy = LinearPolicy(enc.num_actions, enc.size)
    baseline = 0.0
    for episode in range(episodes):
        env = envs[episode % 2]
        env.reset(seed=seed * 100_000 + episode)
        steps: list[tuple[Array, Array, int]] = []
        reward = 0.0
        for _agent in env.agent_iter():
            obs, reward_now, terminated, truncated, _ = env.last()
            if terminated or truncated:
                reward = float(reward_now)
                env.step(None)
                continue
            x = features(obs["observation"])
            p = policy.probs(x, obs["action_mask"])
            action = int(rng.choice(len(p), p=p))
            steps.append((x, p, action))
            env.step(action)
        advantage = reward - baseline
        baseline += 0.02 * (reward - baseline)
        for x, p, action in steps:
            grad = -p
            grad[action] += 1.0
            policy.w += lr * advantage * np.outer(grad, x)
    return policy


def evaluate(policy: LinearPolicy, games: int, *, seed: int = 10_000_000) -> dict[str, Any]:
    """Play ``games`` greedy games against the random agent (half in each seat)."""
    envs = _envs(seed)
    wins = losses = draws = 0
    for game in range(games):
        env = envs[game % 2]
        env.reset(seed=seed + game)
        for _agent in env.agent_iter():
            obs, reward, terminated, truncated, _ = env.last()
            if terminated or truncated:
                wins += reward > 0
                losses += reward < 0
                draws += reward == 0
                env.step(None)
                continue
            env.step(policy.greedy(features(obs["observation"]), obs["action_mask"]))
    rate, low, high = tcgcore.wilson_interval(wins, games)
    return {"games": games, "wins": wins, "losses": losses, "draws": draws,
            "win_rate": rate, "wilson_low": low, "wilson_high": high}


def main(argv: list[str] | None = None) -> int:
    """Train, evaluate and print the result (exit status 1 below a Wilson low of 0.6)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=6000)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    cpu0 = time.process_time()
    policy = train(args.episodes, seed=args.seed)
    cpu1 = time.process_time()
    result = evaluate(policy, args.games)
    cpu2 = time.process_time()
    print(f"trained {args.episodes} episodes in {cpu1 - cpu0:.1f} CPU-s; "
          f"tested {args.games} games in {cpu2 - cpu1:.1f} CPU-s")
    print(f"against random: {result['wins']} won, {result['losses']} lost, {result['draws']} "
          f"drawn: win rate {result['win_rate']:.3f} (Wilson 95 % "
          f"{result['wilson_low']:.3f}-{result['wilson_high']:.3f})")
    return 0 if result["wilson_low"] > 0.6 else 1


if __name__ == "__main__":
    raise SystemExit(main())
