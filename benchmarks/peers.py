"""Peer engines measured beside tcgcore in the same process (the ``bench`` extra).

Each peer is a runner like :class:`workloads.Runner`: ``run(seconds)`` plays on with uniformly
random legal actions for that much CPU time and returns ``(decisions, cpu_seconds)``; a
decision is an RLCard ``env.step`` or an OpenSpiel action of a player (chance outcomes are
sampled and not counted). :func:`runners` leaves out a peer that is not installed and says why.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import random
import time
from collections.abc import Callable
from typing import Any

RLCARD_ENVS = ["uno", "doudizhu"]
OPENSPIEL_GAMES = ["python_kuhn_poker", "python_tic_tac_toe", "hearts", "gin_rummy"]
#: the peer the targets are ratios to
REFERENCE = "rlcard uno"

_CHECK_EVERY = 8


class RLCardRunner:
    """``env.step`` of an RLCard environment with a random legal action, game after game."""

    def __init__(self, rlcard: Any, name: str) -> None:
        self.env = rlcard.make(name, config={"seed": 0})
        self.rng = random.Random(0)
        self.state, _ = self.env.reset()

    def run(self, seconds: float) -> tuple[int, float]:
        env, rng, clock = self.env, self.rng, time.process_time
        decisions = 0
        start = clock()
        while True:
            for _ in range(_CHECK_EVERY):
                if env.is_over():
                    self.state, _ = env.reset()
                self.state, _ = env.step(rng.choice(list(self.state["legal_actions"])))
                decisions += 1
            used = clock() - start
            if used >= seconds:
                return decisions, used


class OpenSpielRunner:
    """Random playouts of an OpenSpiel game driven from Python (C++ or Python rules)."""

    def __init__(self, pyspiel: Any, name: str) -> None:
        self.game = pyspiel.load_game(name)
        self.rng = random.Random(0)
        self.state = self.game.new_initial_state()

    def run(self, seconds: float) -> tuple[int, float]:
        rng, clock = self.rng, time.process_time
        decisions = 0
        start = clock()
        while True:
            for _ in range(_CHECK_EVERY):
                decisions += self._step(rng)
            used = clock() - start
            if used >= seconds:
                return decisions, used

    def _step(self, rng: random.Random) -> int:
        """Apply one action (a new game first if this one is over); 1 if a player chose it."""
        state = self.state
        if state.is_terminal():
            state = self.state = self.game.new_initial_state()
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
            return 0
        state.apply_action(rng.choice(state.legal_actions()))
        return 1

    def midgame_calls(self) -> dict[str, Callable[[], object]]:
        """``clone``, ``serialize`` and ``deserialize_state`` of a state 20 decisions into a
        seeded game (or its last state before the end, for a shorter game)."""
        rng = random.Random(2024)
        state = self.game.new_initial_state()
        decisions = 0
        while decisions < 20:
            child = state.clone()
            if child.is_chance_node():
                outcomes, probs = zip(*child.chance_outcomes(), strict=True)
                child.apply_action(rng.choices(outcomes, probs)[0])
            else:
                child.apply_action(rng.choice(child.legal_actions()))
                decisions += 1
            if child.is_terminal():
                break
            state = child
        text = state.serialize()
        game = self.game
        return {"clone": state.clone, "to_bytes": state.serialize,
                "from_bytes": lambda: game.deserialize_state(text)}


def versions() -> dict[str, str | None]:
    """Installed versions of the peers' distributions (``None``: not installed)."""
    out: dict[str, str | None] = {}
    for dist in ("rlcard", "open_spiel", "numpy"):
        try:
            out[dist] = importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            out[dist] = None
    return out


def _import_pyspiel() -> Any:
    import open_spiel.python.games  # noqa: F401  (registers the python_* games)
    import pyspiel

    return pyspiel


def runners() -> tuple[dict[str, Any], dict[str, str]]:
    """``({"rlcard uno": runner, ...}, {"openspiel hearts": why it is not available, ...})``."""
    found: dict[str, Any] = {}
    missing: dict[str, str] = {}
    for engine, names, load, make in (
            ("rlcard", RLCARD_ENVS, lambda: importlib.import_module("rlcard"), RLCardRunner),
            ("openspiel", OPENSPIEL_GAMES, _import_pyspiel, OpenSpielRunner)):
        try:
            module = load()
        except Exception as exc:  # ImportError, or a numpy incompatibility at import
            missing.update({f"{engine} {n}": _why(exc) for n in names})
            continue
        for name in names:
            try:
                found[f"{engine} {name}"] = make(module, name)
            except Exception as exc:
                missing[f"{engine} {name}"] = _why(exc)
    return found, missing


def _why(exc: BaseException) -> str:
    """One line naming a failure: ``Type: message`` (at most 160 characters)."""
    return " ".join(f"{type(exc).__name__}: {exc}".split())[:160]
