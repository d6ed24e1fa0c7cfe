"""The ``ismcts`` agent: single-observer information-set Monte Carlo tree search.

The agent searches one tree per decision of its seat (the *observer*), after Cowling,
Powley and Whitehouse's single-observer ISMCTS (SO-ISMCTS). A node stands for a sequence
of answers from the root, whoever gave them; the root is the observer's information set.
Each iteration

1. draws a determinisation of the real match for the observer
   (:func:`tcgcore.determinize`: the cards its seat cannot see redealt, the random
   generator re-seeded), so the search never reads a hidden fact;
2. walks down the tree in that sample: at each choice, among the answers legal *in this
   sample*, it expands one not tried yet, or picks the child maximising
   ``mean + c * sqrt(ln(availability) / visits)`` (UCB1 with availability counts: how
   often the answer was legal when the node was reached, so answers that exist in few
   samples, such as playing a card the opponent may not hold, are not over-explored);
3. plays a rollout from the new node by random play (``rollout=random``) or by one of
   the game's own agents (``rollout=heuristic``), for at most ``depth`` decisions; an
   unfinished rollout is scored by the game's ``evaluate`` hook, or as a draw;
4. adds the result to every node on the path, each from the point of view of the seat
   that chose the answer leading to it (a win 1, a loss 0, a draw or an unfinished game
   0.5; all seats of a cooperative win score 1).

The answer is the most visited legal child of the root. A choice of several keys is an
action per answer: every answer when there are at most 16, otherwise 12 answers drawn
from a generator seeded by the choice itself (so every sample offers the same ones).

Budget: ``iterations`` per decision (deterministic: the same seed and the same match give
the same answers on any machine), or ``seconds`` of CPU time (``time.process_time``) per
decision, or both (whichever ends first; with ``seconds`` the agent is no longer
deterministic). Tree reuse: when the observer decides again and nobody else decided in
between (several answers in one turn), the subtree of its last answer becomes the new
root, with its statistics; otherwise a new tree is grown.
"""

from __future__ import annotations

import hashlib
import itertools
import math
import time
from collections.abc import Mapping
from typing import Any

from ._determinize import determinize
from ._errors import OptionsError
from ._model import Choice, Result
from ._rng import Rng

__all__ = ["ISMCTSAgent", "parse_agent_options"]

#: a choice of several keys is searched over every answer when there are at most this many
_ENUMERATE_UP_TO = 16
#: otherwise over this many answers drawn from a generator seeded by the choice
_SAMPLED_ANSWERS = 12
_SEP = "\x1f"


class _Node:
    """A node of the tree: per child answer, its statistics."""

    __slots__ = ("avail", "children", "total", "visits")

    def __init__(self) -> None:
        self.children: dict[str, _Node] = {}
        self.visits = 0
        self.avail = 0
        self.total = 0.0


def _answers(choice: Choice) -> list[str]:
    """The answers searched for ``choice``, each as its keys joined by ``_SEP``."""
    options = choice.options
    if choice.min == 1 and choice.max == 1:
        return [o.key for o in options]
    keys = [o.key for o in options]
    n = len(keys)
    lo, hi = choice.min, min(choice.max, n)
    count = sum(math.comb(n, k) for k in range(lo, hi + 1))
    if count <= _ENUMERATE_UP_TO:
        return [_SEP.join(c) for k in range(lo, hi + 1) for c in itertools.combinations(keys, k)]
    digest = hashlib.blake2b(_SEP.join(keys).encode() + choice.kind.encode(), digest_size=8)
    rng = Rng.from_seed(int.from_bytes(digest.digest(), "little"))
    seen: dict[str, None] = {}
    for _ in range(_SAMPLED_ANSWERS * 3):
        k = lo + rng.randbelow(hi - lo + 1)
        picked = list(range(n))
        for i in range(k):
            j = i + rng.randbelow(n - i)
            picked[i], picked[j] = picked[j], picked[i]
        seen.setdefault(_SEP.join(keys[i] for i in sorted(picked[:k])), None)
        if len(seen) >= _SAMPLED_ANSWERS:
            break
    return list(seen)


def _split(answer: str) -> list[str]:
    return answer.split(_SEP) if answer else []


def _scores(result: Result, seats: int) -> list[float]:
    """Each seat's score of a finished match: 1 a win, 0 a loss, 0.5 otherwise."""
    if result.draw:
        return [0.5] * seats
    out = [0.5] * seats
    for s in result.losers:
        out[s] = 0.0
    for s in result.winners:
        out[s] = 1.0
    return out


class ISMCTSAgent:
    """Information-set Monte Carlo tree search for any game (see the module text).

    It reads the real match only through :func:`tcgcore.determinize` (a function of its
    seat's view) and the number of decisions so far, so it never uses a fact its seat may
    not know; it answers with the engine's keys (:attr:`tcgcore.Match.pending`), as
    :func:`tcgcore.play_out` and :func:`tcgcore.simulate` expect.

    Args:
        seed: the agent's seed, ``0 <= seed < 2**64``; it alone drives the samples and
            the rollouts (the match's generator is never touched).
        iterations: iterations per decision (``None``: only ``seconds`` limits).
        seconds: CPU seconds per decision (``None``: only ``iterations`` limits).
        rollout: ``"random"`` or the name of one of the game's agents.
        depth: most decisions in one rollout before it is scored by ``evaluate``.
        exploration: the UCB1 constant ``c``.
        reuse: keep the subtree of the last answer for the next decision when valid.
        opponents: ``"tree"``: the other seats' decisions are nodes of the tree too, each
            chosen by UCB1 for the seat deciding (SO-ISMCTS); ``"policy"``: the tree holds
            only this seat's decisions and the others are played by the rollout policy
            (an open-loop search against that model of the opponents).

    Raises:
        OptionsError: a budget that is not positive, no budget at all, or an unknown
            ``opponents``.
    """

    def __init__(self, seed: int = 0, *, iterations: int | None = 200,
                 seconds: float | None = None, rollout: str = "random", depth: int = 200,
                 exploration: float = 0.7, reuse: bool = True,
                 opponents: str = "tree") -> None:
        if iterations is None and seconds is None:
            raise OptionsError("ismcts: give iterations or seconds")
        if iterations is not None and iterations < 1:
            raise OptionsError(f"ismcts: iterations must be at least 1, got {iterations}")
        if seconds is not None and not seconds > 0:
            raise OptionsError(f"ismcts: seconds must be positive, got {seconds}")
        if opponents not in ("tree", "policy"):
            raise OptionsError(f"ismcts: opponents must be tree or policy, got {opponents!r}")
        if depth < 0:
            raise OptionsError(f"ismcts: depth must be at least 0, got {depth}")
        self.seed = seed
        self.rng = Rng.from_seed(seed)
        self.iterations = iterations
        self.seconds = seconds
        self.rollout = rollout
        self.depth = depth
        self.exploration = exploration
        self.reuse = reuse
        self.opponents = opponents
        self._policy: Any = None
        self._policy_game: str | None = None
        self._root: _Node | None = None
        self._resume_at = -1  # the decision count at which the kept root is valid
        self._match_seed: int | None = None
        #: iterations run by the last decision, and whether it started from a kept subtree
        self.last_iterations = 0
        self.last_reused = False

    def _rollout_agent(self, match: Match[Any]) -> Any:
        if self._policy is None or self._policy_game != match.spec.name:
            self._policy = make_agent(match.spec, self.rollout, self.rng.next64())
            self._policy_game = match.spec.name
        return self._policy

    def decide(self, match: Match[Any], choice: Choice) -> list[str]:
        """Search from ``choice`` (the seat's pending choice) and return the keys to answer."""
        seat = choice.player
        done = len(match.decisions)
        # the kept subtree is this decision's when nobody decided since our last answer,
        # or, with opponents played by the policy (the tree holds only our decisions),
        # whatever the others did in between
        valid = done == self._resume_at or (self.opponents == "policy"
                                            and done > self._resume_at >= 0)
        root = self._root if (self.reuse and self._root is not None and valid
                              and self._match_seed == match.seed) else None
        self._match_seed = match.seed
        self._resume_at = done + 1
        self.last_reused = root is not None
        if len(choice.options) == 1 and choice.min == choice.max == 1:
            only = choice.options[0].key  # nothing to search: follow the tree down
            self._root = root.children.get(only) if root is not None else None
            self.last_iterations = 0
            return [only]
        if root is None:
            root = _Node()
        policy = self._rollout_agent(match)
        budget = self.iterations
        deadline = None if self.seconds is None else time.process_time() + self.seconds
        count = 0
        while True:
            self._iterate(match, seat, root, policy)
            count += 1
            if budget is not None and count >= budget:
                break
            if deadline is not None and time.process_time() >= deadline:
                break
        self.last_iterations = count
        legal = _answers(choice)
        best = max(legal, key=lambda a: (root.children[a].visits if a in root.children else -1))
        self._root = root.children.get(best)
        return _split(best)

    def _iterate(self, real: Match[Any], seat: int, root: _Node, policy: Any) -> None:
        rng = self.rng
        sample = determinize(real, seat, rng)
        state = sample.state
        seats = state.num_players
        path: list[tuple[_Node, int]] = []
        node = root
        c = self.exploration
        while state.result is None:
            choice = state.pending
            if choice is None:  # pragma: no cover - the engine guarantees one or the other
                break
            mover = choice.player
            if mover != seat and self.opponents == "policy":
                sample.choose(mover, policy.decide(sample, choice))
                continue
            legal = _answers(choice)
            children = node.children
            untried = [a for a in legal if a not in children]
            for a in legal:
                child = children.get(a)
                if child is not None:
                    child.avail += 1
            if untried:
                pick = untried[rng.randbelow(len(untried))]
                child = children[pick] = _Node()
                child.avail = 1
                sample.choose(mover, _split(pick))
                path.append((child, mover))
                break
            best_value = -1.0
            pick = legal[0]
            for a in legal:
                child = children[a]
                value = child.total / child.visits + c * math.sqrt(
                    math.log(child.avail) / child.visits)
                if value > best_value:
                    best_value, pick = value, a
            node = children[pick]
            sample.choose(mover, _split(pick))
            path.append((node, mover))
        scores = self._play_out(sample, policy, seats)
        for child, mover in path:
            child.visits += 1
            child.total += scores[mover]

    def _play_out(self, sample: Match[Any], policy: Any, seats: int) -> list[float]:
        state = sample.state
        choose = sample.choose
        steps = 0
        while state.result is None and steps < self.depth:
            choice = state.pending
            if choice is None:  # pragma: no cover
                break
            choose(choice.player, policy.decide(sample, choice))
            steps += 1
        if state.result is not None:
            return _scores(state.result, seats)
        evaluate = sample.spec.evaluate
        if evaluate is None:
            return [0.5] * seats
        return [min(1.0, max(0.0, float(evaluate(state, s)))) for s in range(seats)]


_OPTION_TYPES: dict[str, type] = {"iterations": int, "seconds": float, "rollout": str,
                                  "depth": int, "exploration": float, "reuse": bool,
                                  "opponents": str}


def parse_agent_options(agent: str, text: str) -> dict[str, Any]:
    """The options of an agent name such as ``ismcts:iterations=400:rollout=heuristic``.

    Args:
        agent: the agent's base name, for messages.
        text: what follows the first ``:``, ``key=value`` pairs separated by ``:``.

    Returns:
        A map of option name to typed value (``none`` gives ``None`` for a budget;
        booleans are ``true``/``false``, ``1``/``0``, ``yes``/``no``).

    Raises:
        OptionsError: naming an unknown option or a value of the wrong type.
    """
    out: dict[str, Any] = {}
    for part in text.split(":"):
        if not part:
            continue
        key, sep, raw = part.partition("=")
        if not sep or key not in _OPTION_TYPES:
            known = ", ".join(sorted(_OPTION_TYPES))
            raise OptionsError(f"{agent}: unknown option {part!r}; options are key=value "
                               f"pairs separated by ':' from {known}")
        kind = _OPTION_TYPES[key]
        try:
            if kind is bool:
                low = raw.lower()
                if low not in ("true", "false", "1", "0", "yes", "no"):
                    raise ValueError(raw)
                out[key] = low in ("true", "1", "yes")
            elif raw.lower() == "none" and key in ("iterations", "seconds"):
                out[key] = None
            else:
                out[key] = kind(raw)
        except ValueError:
            raise OptionsError(f"{agent}: option {key} needs a {kind.__name__}, "
                               f"got {raw!r}") from None
    return out


def make_ismcts(seed: int, options: Mapping[str, Any]) -> ISMCTSAgent:
    """An :class:`ISMCTSAgent` with ``options`` as parsed by :func:`parse_agent_options`."""
    return ISMCTSAgent(seed, **dict(options))


# Imported last, at run time too (the agents module imports this one).
from ._agents import make_agent  # noqa: E402
from ._match import Match  # noqa: E402
