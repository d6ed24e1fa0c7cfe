"""Agents (automatic players) and the loop that lets them play a match."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from ._errors import OptionsError
from ._model import Choice, Result
from ._rng import Rng

__all__ = ["Agent", "RandomAgent", "make_agent", "play_out"]


@runtime_checkable
class Agent(Protocol):
    """Something that answers choices for one seat.

    ``decide`` receives the match and the pending choice (whose ``player`` is
    the agent's seat) and returns the chosen option keys. A fair agent looks
    only at ``match.view(choice.player)``; the match is passed so agents can
    use the game's own helpers.
    """

    def decide(self, match: Match[Any], choice: Choice) -> list[str]:
        """Return the keys to answer ``choice`` with."""
        ...


class RandomAgent:
    """Chooses uniformly: a uniform count in ``min..max``, then a uniform subset.

    Uses its own seeded :class:`tcgcore.Rng`, never the match's, so agents do
    not change the game's randomness.

    Args:
        seed: the agent's seed, ``0 <= seed < 2**64``.
    """

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng.from_seed(seed)

    def decide(self, match: Match[Any], choice: Choice) -> list[str]:
        """Pick random legal keys for ``choice``."""
        options = choice.options
        n = len(options)
        if choice.max == 1 and choice.min == 1:
            return [options[self.rng.randbelow(n)].key]
        hi = min(choice.max, n)
        count = choice.min + self.rng.randbelow(hi - choice.min + 1)
        keys = [o.key for o in options]
        # partial Fisher-Yates: the first `count` positions become a uniform sample
        for i in range(count):
            j = i + self.rng.randbelow(n - i)
            keys[i], keys[j] = keys[j], keys[i]
        return keys[:count]


def make_agent(spec: GameSpec[Any], name: str, seed: int) -> Agent:
    """Build an agent by name: ``"random"``, ``"ismcts"`` or one of the game's own agents.

    ``ismcts`` (:class:`tcgcore.ISMCTSAgent`, every game has it) takes options after its
    name, ``key=value`` pairs separated by ``:``, such as
    ``ismcts:iterations=400:rollout=heuristic`` (see ``docs/agents.md``).

    Raises:
        OptionsError: naming the unknown agent and the known ones, or a bad option.
    """
    base, sep, rest = name.partition(":")
    if base == "ismcts":
        return make_ismcts(seed, parse_agent_options(base, rest))
    if sep:
        raise OptionsError(f"{spec.name}: agent {base!r} takes no options (got {name!r}); "
                           f"only ismcts does")
    if name == "random":
        return RandomAgent(seed)
    factory: Callable[[int], Agent] | None = spec.agents.get(name)
    if factory is None:
        known = ", ".join(sorted({"random", "ismcts", *spec.agents}))
        raise OptionsError(f"{spec.name}: unknown agent {name!r}; known agents: {known}")
    return factory(seed)


def play_out(
    match: Match[Any],
    agents: Sequence[Agent] | Mapping[int, Agent],
    *,
    max_decisions: int | None = None,
) -> Result | None:
    """Let agents answer every choice until the match ends.

    Args:
        match: the match to drive (mutated).
        agents: one agent per seat (a sequence indexed by seat, or a mapping).
        max_decisions: stop after this many decisions (``None``: no limit).

    Returns:
        The result, or ``None`` if ``max_decisions`` stopped it first.
    """
    count = 0
    state = match.state  # the match mutates this state in place, never replaces it
    choose = match.choose
    while state.result is None:
        choice = state.pending
        if choice is None:  # pragma: no cover - the engine guarantees one or the other
            break
        if max_decisions is not None and count >= max_decisions:
            return None
        player = choice.player
        choose(player, agents[player].decide(match, choice))
        count += 1
    return state.result


# Imported last, at run time too, so that typing.get_type_hints resolves the annotations
# above (the match and the game definition import this module's callers first).
from ._match import Match  # noqa: E402
from ._search import make_ismcts, parse_agent_options  # noqa: E402
from ._spec import GameSpec  # noqa: E402
