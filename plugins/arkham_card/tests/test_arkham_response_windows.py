"""Response windows open from public facts only (A913): a window tells no other seat what
a hand holds."""

from __future__ import annotations

from typing import Any

import msgspec
from tcgcore_arkham_card import scenario
from tcgcore_arkham_card.testkit import answer, desc, investigator, keys, kind, st, who

import tcgcore
from tcgcore.testing import hidden_responder_check

_NEUTRAL = ("end_turn", "pass", "none", "no")


def _twins(hand_a: list[str], deck_a: list[str], hand_b: list[str], deck_b: list[str],
           **extra: Any) -> tuple[tcgcore.Match[Any], tcgcore.Match[Any]]:
    def one(hand: list[str], deck: list[str]) -> tcgcore.Match[Any]:
        return scenario(desc(investigator("t_inv_guard", deck, hand=hand, resources=5),
                             **extra))
    return one(hand_a, deck_a), one(hand_b, deck_b)


def _spectator(m: tcgcore.Match[Any]) -> bytes:
    return msgspec.msgpack.encode([m.view(None), m.events_since(0)])


def _until(a: tcgcore.Match[Any], b: tcgcore.Match[Any], wanted: str) -> None:
    """Answer both twins alike (a neutral key) until ``wanted`` is asked in either."""
    for _ in range(80):
        assert _spectator(a) == _spectator(b)
        if wanted in (kind(a), kind(b)):
            return
        assert kind(a) == kind(b) and who(a) == who(b)
        key = next((k for k in _NEUTRAL if k in keys(a) and k in keys(b)), keys(a)[0])
        answer(a, key)
        answer(b, key)
    raise AssertionError(f"no {wanted!r} window")


def test_A913_1_dodge_window_looks_the_same_with_and_without_dodge() -> None:
    # the same deck list, Dodge (01023) in hand or in the deck
    a, b = _twins(["01023", "t_guts"], ["t_guts"] * 10, ["t_guts", "t_guts"],
                  ["01023"] + ["t_guts"] * 9, enemies=[{"code": "t_rat", "engaged": 0}])
    _until(a, b, "use_trigger")
    assert kind(a) == kind(b) == "use_trigger" and who(a) == who(b) == 0
    assert _spectator(a) == _spectator(b)
    answer(a, "no")
    answer(b, "no")
    assert _spectator(a) == _spectator(b)  # trigger_declined names no card to others
    declined = [e for e in a.events_since(0) if e.kind == "trigger_declined"]
    assert declined and declined[-1].card is None and declined[-1].player == 0


def test_A913_1_without_an_answering_card_in_the_deck_list_no_window_opens() -> None:
    m = scenario(desc(investigator("t_inv_guard", ["t_guts"] * 10, hand=["t_guts"],
                                   resources=5), enemies=[{"code": "t_rat", "engaged": 0}]))
    for _ in range(40):
        assert kind(m) != "use_trigger"
        if st(m).phase == "upkeep" or m.result is not None:
            break
        answer(m, next((k for k in _NEUTRAL if k in keys(m)), keys(m)[0]))


def test_A913_1_a_window_without_the_card_can_only_be_passed() -> None:
    _, b = _twins(["01023", "t_guts"], ["t_guts"] * 10, ["t_guts", "t_guts"],
                  ["01023"] + ["t_guts"] * 9, enemies=[{"code": "t_rat", "engaged": 0}])
    for _ in range(40):
        if kind(b) == "use_trigger":
            break
        answer(b, next((k for k in _NEUTRAL if k in keys(b)), keys(b)[0]))
    assert kind(b) == "use_trigger"
    since = st(b).event_count
    answer(b, "yes")  # nothing to play: nothing is played
    assert not [e for e in b.events_since(since) if e.kind == "played"]


def test_A913_no_decision_tells_in_random_games_of_the_gathering() -> None:
    """The conformance harness's twin comparison (tcgcore.testing): Dodge, Evidence! or
    Ward of Protection swapped into a hand changes nothing another seat receives."""
    pairs = hidden_responder_check("arkham_card", seeds=range(4), players=2,
                                   options={"scenario": "01104"}, every=9,
                                   responders=["01023", "01022", "01065"])
    assert pairs > 20


def test_A913_2_the_commit_window_opens_for_any_hand() -> None:
    # Lucky! (t_lucky) has no intellect icon: the window opens anyway, with only "none"
    m = scenario(desc(investigator("t_inv_guard", ["t_guts"] * 10, hand=["t_lucky"]),
                      tokens=["0"]))
    answer(m, "investigate")
    assert kind(m) == "commit" and keys(m) == ["none"]
    answer(m, "none")
    assert kind(m) != "commit"
    empty = scenario(desc(investigator("t_inv_guard", ["t_guts"] * 10, hand=[]),
                          tokens=["0"]))
    answer(empty, "investigate")
    assert kind(empty) != "commit"  # an empty hand (public) has nothing to commit
