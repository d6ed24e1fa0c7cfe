"""Small helpers for scenario tests (used by the plugin's own test suite).

All helpers take a :class:`tcgcore.Match` of ``arkham_card`` and read its state;
they never change it except through :meth:`tcgcore.Match.choose`.
"""

from __future__ import annotations

from typing import Any

import tcgcore

from .queries import (
    dof,
    location_of,
)
from .state import ArkhamState

__all__ = ["activate_card", "answer", "codes_in", "desc", "enemy", "events", "keys", "kind", "loc",
           "pass_until", "pending", "play_card", "result", "st", "where", "who"]


def st(m: tcgcore.Match[Any]) -> ArkhamState:
    """The match state, typed."""
    state: ArkhamState = m.state
    return state


def keys(m: tcgcore.Match[Any]) -> list[str]:
    """Option keys of the pending choice (``[]`` when the match is over)."""
    return m.pending.keys if m.pending is not None else []


def answer(m: tcgcore.Match[Any], *chosen: str) -> None:
    """Answer the pending choice with ``chosen`` keys (none: an empty selection)."""
    assert m.pending is not None, "no pending choice"
    m.choose(m.pending.player, list(chosen))


def pass_until(m: tcgcore.Match[Any], kind: str, *, limit: int = 200) -> None:
    """Answer choices neutrally (no commits, pass, end turn, first option) until one
    of ``kind`` is pending.

    Raises:
        AssertionError: the match ended or ``limit`` choices passed first.
    """
    for _ in range(limit):
        c = m.pending
        assert c is not None, f"match ended before {kind!r}: {m.result}"
        if c.kind == kind:
            return
        if c.min == 0:
            m.choose(c.player, [])
        elif "end_turn" in c.keys:
            m.choose(c.player, "end_turn")
        elif "pass" in c.keys:
            m.choose(c.player, "pass")
        else:
            m.choose(c.player, c.options[0].key)
    raise AssertionError(f"no {kind!r} choice within {limit} answers")


def loc(m: tcgcore.Match[Any], code: str) -> int:
    """Instance id of the location card ``code`` (in play, set aside or removed)."""
    for c in st(m).cards:
        if c.code == code and dof(st(m), c.id).type_code == "location":
            return c.id
    raise KeyError(code)


def enemy(m: tcgcore.Match[Any], code: str, n: int = 0) -> int:
    """Instance id of the ``n``-th card with ``code``."""
    found = [c.id for c in st(m).cards if c.code == code]
    return found[n]


def play_card(m: tcgcore.Match[Any], code: str) -> None:
    """Play the card ``code`` (the deciding seat's copy in hand if it has one, else the first
    instance) with its ``play:`` or ``fastplay:`` option."""
    state = st(m)
    seat = m.pending.player if m.pending is not None else 0
    hand = [c for c in state.zones[f"hand.{seat}"].cards if state.cards[c].code == code]
    cid = hand[0] if hand else enemy(m, code)
    answer(m, f"play:{cid}" if f"play:{cid}" in keys(m) else f"fastplay:{cid}")


def activate_card(m: tcgcore.Match[Any], code: str, index: int = 0) -> None:
    """Use ability ``index`` of the first instance of ``code`` (action or fast option)."""
    cid = enemy(m, code)
    answer(m, next(k for k in keys(m) if k.startswith((f"activate:{cid}:{index}",
                                                       f"fast:{cid}:{index}"))))


def codes_in(m: tcgcore.Match[Any], zone: str) -> list[str]:
    """Card codes in a zone, in order."""
    state = st(m)
    return [state.cards[c].code for c in state.zones[zone].cards if c >= 0]


def events(m: tcgcore.Match[Any], kind: str | None = None) -> list[tcgcore.Event]:
    """All events so far (of ``kind``)."""
    return [e for e in m.events_since(0, player="all") if kind is None or e.kind == kind]


def where(m: tcgcore.Match[Any], cid: int) -> int:
    """Location id of an enemy."""
    return location_of(st(m), cid)


ROOMS = ["t_loc_a", "t_loc_b", "t_loc_c", "t_loc_d"]


def investigator(code: str, deck: list[str], /, **fields: Any) -> dict[str, Any]:
    """An ``investigators`` entry of a scenario description: ``code`` at location
    ``t_loc_a`` with ``deck`` (top first); ``fields`` add to or override any key."""
    out: dict[str, Any] = {"code": code, "location": "t_loc_a", "deck": deck}
    out.update(fields)
    return out


def desc(*investigators: dict[str, Any], **extra: Any) -> dict[str, Any]:
    """A scenario description with rooms A–B–C–D in a row (all revealed) and the given
    investigators (default: one Test Guardian in room A); ``extra`` keys are added."""
    invs = list(investigators) or [{"code": "t_inv_guard", "location": "t_loc_a"}]
    out: dict[str, Any] = {"investigators": invs,
                           "locations": [{"code": c} for c in ROOMS]}
    out.update(extra)
    return out


def commit_none(m: tcgcore.Match[Any]) -> None:
    """Answer a commit window with nothing (A913.2 opens one for any non-empty hand)."""
    if kind(m) == "commit":
        m.choose(m.pending.player if m.pending else 0, [])


def kind(m: tcgcore.Match[Any]) -> str:
    """Kind of the pending choice (``""`` when none)."""
    c = m.pending
    return c.kind if c is not None else ""


def who(m: tcgcore.Match[Any]) -> int:
    """Seat of the pending choice (-1 when none)."""
    c = m.pending
    return c.player if c is not None else -1


def pending(m: tcgcore.Match[Any]) -> tcgcore.Choice:
    """The pending choice (asserting there is one)."""
    c = m.pending
    assert c is not None, "no pending choice"
    return c


def result(m: tcgcore.Match[Any]) -> tcgcore.Result:
    """The result (asserting the match is over)."""
    r = m.result
    assert r is not None, "the match is not over"
    return r
