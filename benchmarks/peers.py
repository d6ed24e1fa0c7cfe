"""Peer engines measured in the same run as tcgcore (installed by the optional ``bench`` extra).

Each function returns a dict of figures, or ``{"skipped": reason}`` when the peer is not
installed, so the suite runs (and says so) without them.
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

#: What the peers ran at when the anchors of issue #8 were measured on this kind of machine
#: (2 cores; medians of the team's anchor measurements, whose exact loops are not recorded):
#: ``(engine, game) -> (low, high)`` decisions or env steps per second. A single figure has
#: ``low == high``; a range covers a group of games that was reported as one range. The issue
#: quotes two of them for scale (pure-Python OpenSpiel games 22,000-75,000, RLCard uno about
#: 54,000). See :func:`host_speed`.
ANCHORS: dict[tuple[str, str], tuple[float, float]] = {
    ("rlcard", "uno"): (54_000.0, 54_000.0),
    ("rlcard", "doudizhu"): (5_400.0, 5_400.0),
    ("openspiel", "gin_rummy"): (37_000.0, 37_000.0),
    **{("openspiel", g): (173_000.0, 253_000.0)
       for g in ("crazy_eights", "hearts", "dou_dizhu", "euchre")},
    **{("openspiel", g): (22_000.0, 75_000.0)
       for g in ("python_kuhn_poker", "python_liars_poker", "python_block_dominoes")},
}


def host_speed(results: dict[str, Any]) -> dict[str, Any] | None:
    """How fast this run's host ran the peers, against :data:`ANCHORS`.

    Args:
        results: the ``"peers"`` object of a results file (``{engine: {game: figures}}``;
            an engine may be ``{"skipped": reason}``).

    Returns:
        ``None`` when no peer with an anchor was measured; else ``{"peers": rows, "factor":
        f, "basis": names}``. Each row is ``{"peer": "rlcard uno", "measured": x, "anchor":
        [low, high], "ratio": [x / high, x / low]}``. ``factor`` is the median ratio of the
        peers with a single anchor figure (``basis`` names them), or ``None`` if none of
        them ran: the host's speed in this run as a fraction of the anchors' (0.5 means the
        peers ran at half their anchor speed). The peers mix Python and C++ rules, so it
        is a rough reading of the host against the anchors' day, for context only.
    """
    rows: list[dict[str, Any]] = []
    point: list[float] = []
    basis: list[str] = []
    for engine, games in (results or {}).items():
        if not isinstance(games, dict) or "skipped" in games:
            continue
        for game, fig in games.items():
            anchor = ANCHORS.get((engine, game))
            rate = (fig.get("decisions_per_s") or fig.get("steps_per_s")
                    if isinstance(fig, dict) else None)
            if anchor is None or not rate:
                continue
            low, high = anchor
            rows.append({"peer": f"{engine} {game}", "measured": rate, "anchor": [low, high],
                         "ratio": [rate / high, rate / low]})
            if low == high:
                point.append(rate / low)
                basis.append(f"{engine} {game}")
    if not rows:
        return None
    return {"peers": rows, "factor": statistics.median(point) if point else None,
            "basis": basis}


OPENSPIEL_CARD_GAMES = ["crazy_eights", "hearts", "dou_dizhu", "euchre", "gin_rummy"]
OPENSPIEL_PYTHON_GAMES = ["python_kuhn_poker", "python_liars_poker", "python_block_dominoes"]
RLCARD_ENVS = ["uno", "doudizhu"]


def _openspiel_playouts(pyspiel: Any, name: str, seconds: float) -> dict[str, Any]:
    game = pyspiel.load_game(name)
    rng = random.Random(0)
    decisions = games = 0
    start = time.perf_counter()
    mid_state = None
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                decisions += 1
                steps += 1
                if mid_state is None and steps == 20:
                    mid_state = state.clone()
        games += 1
    elapsed = time.perf_counter() - start
    out: dict[str, Any] = {"decisions_per_s": decisions / elapsed, "games_per_s": games / elapsed}
    if mid_state is not None:
        out["clone_us"] = _per_call_us(mid_state.clone)
        try:
            text = mid_state.serialize()
            out["serialize_us"] = _per_call_us(mid_state.serialize)
            out["deserialize_us"] = _per_call_us(lambda: game.deserialize_state(text))
        except Exception as exc:  # some games do not support it
            out["serialize_error"] = str(exc)[:80]
    return out


def _per_call_us(fn: Any, min_time: float = 0.1) -> float:
    n = 1
    while True:
        start = time.perf_counter()
        for _ in range(n):
            fn()
        elapsed = time.perf_counter() - start
        if elapsed >= min_time:
            return elapsed / n * 1e6
        n *= 2


def openspiel(seconds: float = 1.0) -> dict[str, Any]:
    """Random playouts of OpenSpiel's card games and pure-Python games, driven from Python."""
    try:
        import pyspiel
    except ImportError:
        return {"skipped": "open-spiel is not installed (pip install -e '.[bench]')"}
    try:
        import open_spiel.python.games  # noqa: F401  (registers the python_* games)
    except ImportError:
        pass
    registered = {g.short_name for g in pyspiel.registered_games()}
    out: dict[str, Any] = {}
    for name in OPENSPIEL_CARD_GAMES + OPENSPIEL_PYTHON_GAMES:
        if name in registered:
            try:
                out[name] = _openspiel_playouts(pyspiel, name, seconds)
            except Exception as exc:  # one peer game that fails loses no other figure
                out[name] = {"error": _failure(exc)}
    return out


def _failure(exc: BaseException) -> str:
    """One line naming a peer's failure: ``Type: message`` (at most 160 characters)."""
    return " ".join(f"{type(exc).__name__}: {exc}".split())[:160]


def rlcard(seconds: float = 1.0) -> dict[str, Any]:
    """``env.step`` throughput of RLCard environments with uniformly random legal actions."""
    try:
        import rlcard as rl
    except ImportError:
        return {"skipped": "rlcard is not installed (pip install -e '.[bench]')"}
    out: dict[str, Any] = {}
    rng = random.Random(0)
    for name in RLCARD_ENVS:
        try:
            env = rl.make(name, config={"seed": 0})
            steps = 0
            start = time.perf_counter()
            while time.perf_counter() - start < seconds:
                state, _ = env.reset()
                while not env.is_over():
                    state, _ = env.step(rng.choice(list(state["legal_actions"].keys())))
                    steps += 1
            out[name] = {"steps_per_s": steps / (time.perf_counter() - start)}
        except Exception as exc:  # one peer environment that fails loses no other figure
            out[name] = {"error": _failure(exc)}
    return out
