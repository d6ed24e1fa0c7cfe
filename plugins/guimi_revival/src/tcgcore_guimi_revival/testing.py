"""Helpers for tests: a registry holding only this plugin (independent of other installed
plugins) and a shortcut to build scenarios with it."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any, TypeVar

import tcgcore

from . import plugin, scenario
from .state import GuimiState

TestFn = TypeVar("TestFn", bound=Callable[..., Any])


def covers(*codes: str) -> Callable[[TestFn], TestFn]:
    """Mark a test as exercising the printed text of the cards ``codes`` and checking the
    outcome against it. The card coverage table (``docs/guimi_revival/card-coverage.md``,
    ``plugins/guimi_revival/scripts/card_coverage.py``) is generated from these marks; the
    codes are kept in the test function's ``guimi_cards`` attribute."""

    def mark(fn: TestFn) -> TestFn:
        fn.guimi_cards = (*getattr(fn, "guimi_cards", ()), *codes)  # type: ignore[attr-defined]
        return fn

    return mark


@cache
def registry() -> tcgcore.Registry:
    """A registry with only the guimi_revival plugin (entry points not loaded)."""
    return tcgcore.load_registry(load_entrypoints=False, plugins=[plugin])


def new_match(seed: int = 0, **options: Any) -> tcgcore.Match[GuimiState]:
    """``tcgcore.new_match("guimi_revival", ...)`` with :func:`registry`."""
    return tcgcore.new_match("guimi_revival", seed=seed, registry=registry(), **options)


def build(description: dict[str, Any] | str, *, seed: int = 0,
          **options: Any) -> tcgcore.Match[GuimiState]:
    """:func:`tcgcore_guimi_revival.scenario` with :func:`registry`."""
    return scenario(description, seed=seed, registry=registry(), **options)


def player(revival: str = "rb_seer", **fields: Any) -> dict[str, Any]:
    """A scenario player with a 20-card filler deck (Marauder vanillas, 2 corruption each in a
    Seer RB's damage check) unless ``deck`` is given."""
    out: dict[str, Any] = {"revival": revival, "deck": ["marauder_b9"] * 20}
    out.update(fields)
    return out


def game(p0: dict[str, Any] | None = None, p1: dict[str, Any] | None = None,
         **fields: Any) -> dict[str, Any]:
    """A scenario description: two players (defaults from :func:`player`) plus top fields."""
    out: dict[str, Any] = {"players": [p0 or player(), p1 or player("rb_hunter")]}
    out.update(fields)
    return out


def pick(match: tcgcore.Match[GuimiState], key: str | list[str], kind: str | None = None) -> None:
    """Answer the pending choice (checking its kind when given)."""
    choice = match.pending
    assert choice is not None, "no pending choice"
    if kind is not None:
        assert choice.kind == kind, f"pending {choice.kind!r}, expected {kind!r}: {choice.keys}"
    match.choose(choice.player, key)


def until(match: tcgcore.Match[GuimiState], kind: str, *, default: str = "pass",
          limit: int = 200) -> None:
    """Answer every choice with ``default`` (``end`` for main actions, none for multi-select)
    until a choice of ``kind`` is pending.

    Raises:
        AssertionError: the game ended or ``limit`` choices went by first.
    """
    for _ in range(limit):
        choice = match.pending
        assert choice is not None, f"game over before {kind!r}: {match.result}"
        if choice.kind == kind:
            return
        advance(match, default)
    raise AssertionError(f"no {kind!r} choice within {limit} choices")


def advance(match: tcgcore.Match[GuimiState], default: str = "pass") -> None:
    """Answer the pending choice passively: nothing for multi-selects, ``end`` for main
    actions, ``default`` when offered, else the first option."""
    choice = match.pending
    assert choice is not None, f"game over: {match.result}"
    if choice.min == 0:
        match.choose(choice.player, [])
    elif choice.kind == "main_action":
        match.choose(choice.player, "end")
    elif default in choice.keys:
        match.choose(choice.player, default)
    else:
        match.choose(choice.player, choice.options[0].key)


def finish_round(match: tcgcore.Match[GuimiState], limit: int = 500) -> None:
    """Answer passively until the round number changes or the game ends."""
    start = match.state.round
    for _ in range(limit):
        if match.result is not None or match.state.round != start:
            return
        advance(match)
    raise AssertionError("the round did not end")


def ids(match: tcgcore.Match[GuimiState], zone: str) -> list[int]:
    """Card ids in a zone (empty slots skipped)."""
    return [c for c in match.state.zones[zone].cards if c != tcgcore.EMPTY_SLOT]


def codes(match: tcgcore.Match[GuimiState], zone: str) -> list[str]:
    """Card codes in a zone (empty slots skipped)."""
    return [match.state.cards[c].code for c in ids(match, zone)]


def find(match: tcgcore.Match[GuimiState], code: str, zone: str | None = None) -> int:
    """Instance id of the first card with ``code`` (in ``zone`` if given).

    Raises:
        LookupError: no such card.
    """
    for card in match.state.cards:
        if card.code == code and (zone is None or card.zone == zone):
            return card.id
    raise LookupError(f"no {code!r} in {zone or 'any zone'}")


def keys(match: tcgcore.Match[GuimiState]) -> list[str]:
    """Keys of the pending choice (empty when none)."""
    return match.pending.keys if match.pending is not None else []
