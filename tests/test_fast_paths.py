"""The engine's fast paths behave exactly like the slow ones they replace.

* :meth:`Match.clone` copies cards and zones field by field instead of through msgpack: the
  copy must encode to the same bytes and share nothing mutable with the original.
* :meth:`Match.choose` checks a single key with one scan: every illegal answer must still be
  refused with the same reasons, and the recorded decision must be the same.
* The data structs are ``gc=False`` (a state has no reference cycles).
* :meth:`Rng.randbelow` and :meth:`Rng.shuffle` run xoshiro256** inline (no call to
  :meth:`Rng.next64` per draw): they must draw exactly what the plain algorithm draws,
  including Lemire's rejections, forced results and frozen shuffles.
* :meth:`Engine.move` and :meth:`Engine.add_card` append to an open zone directly and
  build their event without going through :meth:`Engine.emit`; :meth:`Engine.push` appends
  a single step directly; :meth:`Engine.ask` skips the repeated-key check for one option.
"""

from __future__ import annotations

import gc
import random
from typing import Any

import msgspec
import pytest

import tcgcore
from tcgcore import ALL_PLAYERS, EngineError, Event, IllegalChoice, Match, Option, Rng
from tcgcore.examples import sparks


def _midgame(registry: tcgcore.Registry, seed: int = 2024) -> Match[Any]:
    full = tcgcore.new_match("sparks", seed=seed, registry=registry)
    tcgcore.play_out(full, [tcgcore.RandomAgent(7), tcgcore.RandomAgent(8)])
    m = tcgcore.new_match("sparks", seed=seed, registry=registry)
    for d in full.decisions[: len(full.decisions) // 2]:
        m.choose(d.player, d.keys)
    return m


def test_clone_encodes_to_the_same_bytes_and_shares_only_immutable_cards(
        registry: tcgcore.Registry) -> None:
    m = _midgame(registry)
    before = m.state_bytes()
    c = m.clone()
    assert c.state_bytes() == before and c.digest() == m.digest()
    assert c.to_bytes() == m.to_bytes()
    state: sparks.SparksState = c.state
    # every mutable part of the copy is a new object; the (immutable) card instances
    # are shared, the list holding them is not
    assert state.cards is not m.state.cards
    for mine, theirs in zip(state.cards, m.state.cards, strict=True):
        assert mine is theirs
    for key, zone in state.zones.items():
        assert zone is not m.state.zones[key] and zone.cards is not m.state.zones[key].cards
    assert state.stack is not m.state.stack and state.rng is not m.state.rng
    # so changing the copy leaves the original alone
    c.engine.set_counter(0, "damage", 3)
    c.engine.update_card(1, exhausted=True)
    first_zone = next(iter(state.zones.values()))
    first_zone.cards.append(0)
    state.stack.clear()
    state.rng.next64()
    assert m.state_bytes() == before
    # and playing the copy on does not touch the original either
    c2 = m.clone()
    tcgcore.play_out(c2, [tcgcore.RandomAgent(1), tcgcore.RandomAgent(2)])
    assert m.state_bytes() == before


def test_clone_plays_on_exactly_like_the_original(registry: tcgcore.Registry) -> None:
    m = _midgame(registry, seed=99)
    c = m.clone()
    agents = [tcgcore.RandomAgent(3), tcgcore.RandomAgent(4)]
    twins = [tcgcore.RandomAgent(3), tcgcore.RandomAgent(4)]
    tcgcore.play_out(m, agents)
    tcgcore.play_out(c, twins)
    assert c.digest() == m.digest() and c.decisions == m.decisions


@pytest.mark.parametrize(
    ("answer", "reason"),
    [
        ("nope", "unknown_key"),
        (["nope"], "unknown_key"),
        ([1], "unknown_key"),
        (1, "unknown_key"),
        (("card:0", "card:0"), "duplicate_key"),
    ],
)
def test_single_key_fast_path_refuses_what_the_full_check_refuses(
        registry: tcgcore.Registry, answer: Any, reason: str) -> None:
    m = tcgcore.new_match("sparks", seed=1, registry=registry)
    before = m.state_bytes()
    with pytest.raises(IllegalChoice) as info:
        m.choose(0, answer)
    assert info.value.reason == reason
    assert m.state_bytes() == before and m.decisions == []


def test_single_key_answers_record_the_same_decision(registry: tcgcore.Registry) -> None:
    a = tcgcore.new_match("sparks", seed=5, registry=registry)
    b = tcgcore.new_match("sparks", seed=5, registry=registry)
    a.choose(0, [])  # mulligan nothing
    b.choose(0, ())
    a.choose(1, [])
    b.choose(1, [])
    choice = a.pending
    assert choice is not None and choice.max == 1
    key = choice.options[0].key
    a.choose(choice.player, key)  # a bare string
    b.choose(choice.player, [key])  # a one-key list
    assert a.decisions == b.decisions and a.digest() == b.digest()
    assert a.decisions[-1].keys == [key] and a.decisions[-1].options == len(choice.options)


def test_state_structs_are_not_tracked_by_the_cycle_collector(
        registry: tcgcore.Registry) -> None:
    m = _midgame(registry)
    state = m.state
    assert not gc.is_tracked(state.cards[0])
    assert not gc.is_tracked(next(iter(state.zones.values())))
    assert not gc.is_tracked(state.stack[-1])  # a game's own step inherits it
    assert state.pending is not None and not gc.is_tracked(state.pending)
    assert not gc.is_tracked(state.pending.options[0])
    assert not gc.is_tracked(m.events_since(0, player="all")[0])


# --------------------------------------------------------------------------- the RNG

_M = 2**64 - 1


class _Reference:
    """xoshiro256** and Lemire's bounded draw written out plainly, one next64 per draw."""

    def __init__(self, words: list[int]) -> None:
        self.s = list(words)
        self.draws = 0

    def next64(self) -> int:
        s0, s1, s2, s3 = self.s
        result = (((((s1 * 5) & _M) << 7 | ((s1 * 5) & _M) >> 57) & _M) * 9) & _M
        t = (s1 << 17) & _M
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = ((s3 << 45) | (s3 >> 19)) & _M
        self.s = [s0, s1, s2, s3]
        self.draws += 1
        return result

    def randbelow(self, n: int) -> int:
        while True:
            m = self.next64() * n
            if m & _M >= (2**64 - n) % n:
                return m >> 64

    def shuffle(self, items: list[int]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.randbelow(i + 1)
            items[i], items[j] = items[j], items[i]


def _same(rng: Rng, ref: _Reference) -> None:
    assert rng.s == ref.s and rng.draws == ref.draws


@pytest.mark.parametrize("seed", [0, 1, 7, 2024, 2**64 - 1])
def test_inlined_draws_equal_the_plain_algorithm(seed: int) -> None:
    rng = Rng.from_seed(seed)
    ref = _Reference(rng.s)
    words = rng.s
    plan = random.Random(seed)
    for _ in range(300):
        what = plan.randrange(3)
        if what == 0:
            n = plan.choice([1, 2, 3, 10, 52, 2**32 + 1, 2**63 + 1, 2**64 - 1])
            assert rng.randbelow(n) == ref.randbelow(n)
        elif what == 1:
            a = list(range(plan.randrange(0, 60)))
            b = list(a)
            rng.shuffle(a)
            ref.shuffle(b)
            assert a == b
        else:
            assert rng.next64() == ref.next64()
        _same(rng, ref)
    assert rng.s is words  # the state words are updated in place


def test_inlined_draws_reject_like_lemire() -> None:
    # with s1 == 0 the next output is 0, and 0 * 3 falls in the rejected low range for n = 3
    # ((2**64 - 3) % 3 == 1), so both the bounded draw and the shuffle must draw again
    for words in ([1, 0, 2, 3], [5, 0, 0, 9]):
        rng, ref = Rng(s=list(words)), _Reference(words)
        assert rng.randbelow(3) == ref.randbelow(3)
        assert rng.draws == 2
        _same(rng, ref)
        rng, ref = Rng(s=list(words)), _Reference(words)
        a, b = [10, 11, 12], [10, 11, 12]
        rng.shuffle(a)
        ref.shuffle(b)
        assert a == b and rng.draws == ref.draws >= 3
        _same(rng, ref)


def test_shuffle_with_forced_results_and_frozen_shuffles() -> None:
    rng = Rng.from_seed(3)
    ref = _Reference(rng.s)
    rng.force(0, 0)  # the first two positions of the next shuffle; then real draws
    a = [1, 2, 3, 4, 5]
    rng.shuffle(a)
    b = [1, 2, 3, 4, 5]
    b[4], b[0] = b[0], b[4]
    b[3], b[0] = b[0], b[3]
    for i in (2, 1):
        j = ref.randbelow(i + 1)
        b[i], b[j] = b[j], b[i]
    assert a == b and rng.forced == []
    _same(rng, ref)
    rng.frozen_shuffles = 1
    c = [1, 2, 3]
    rng.shuffle(c)
    assert c == [1, 2, 3] and rng.frozen_shuffles == 0
    _same(rng, ref)
    rng.force(7)
    with pytest.raises(ValueError, match="forced random result 7"):
        rng.shuffle([1, 2, 3])


# --------------------------------------------------------------------------- engine helpers


def test_move_builds_the_event_emit_would(registry: tcgcore.Registry) -> None:
    m = tcgcore.new_match("sparks", seed=3, registry=registry)
    eng = m.engine
    state = m.state
    card = eng.zone("deck.0").cards[0]
    seq = state.event_count
    ev = eng.move(card, "hand.0", data={"why": "test"})
    assert ev == Event(seq=seq, kind="moved", player=0, card=card, code=state.cards[card].code,
                       src="deck.0", dst="hand.0", data={"why": "test"}, seen_by=0b01)
    assert state.event_count == seq + 1 and m.events_since(seq, player="all") == [ev]
    assert eng.zone("hand.0").cards[-1] == card
    ev2 = eng.move(card, "discard.0", kind="discarded")
    assert (ev2.seq, ev2.kind, ev2.amount, ev2.secret, ev2.data, ev2.seen_by) == (
        seq + 1, "discarded", None, {}, {}, ALL_PLAYERS)
    # an event built by move encodes like one built by emit
    twin = eng.emit("discarded", player=ev2.player, card=card, code=ev2.code, src="hand.0",
                    dst="discard.0", seen_by=ALL_PLAYERS)
    assert msgspec.structs.replace(twin, seq=ev2.seq) == ev2


@pytest.mark.parametrize("reveal", [False, True])
def test_move_sees_what_the_masks_before_and_after_say(registry: tcgcore.Registry,
                                                      reveal: bool) -> None:
    """move's inline visibility equals the union of seen_mask before and after the move
    (everybody when revealed or when the union covers every seat), for every pair of
    zone visibilities, owners and facings."""
    m = tcgcore.new_match("sparks", seed=5, registry=registry)
    eng = m.engine
    kinds = [("hidden", None), ("public", None), ("owner", 0), ("owner", 1), ("owner", None)]
    for i, (vis, owner) in enumerate(kinds):
        eng.add_zone(f"z{i}", f"k{i}", visibility=vis, owner=owner)  # type: ignore[arg-type]
    card = eng.add_card("spark3", 1, "z0").id
    for src in range(len(kinds)):
        for dst in range(len(kinds)):
            for down_before in (False, True):
                for down_after in (None, False, True):
                    eng.move(card, f"z{src}", face_down=down_before)
                    before = eng.seen_mask(m.state.cards[card])
                    ev = eng.move(card, f"z{dst}", face_down=down_after, reveal=reveal)
                    after = eng.seen_mask(m.state.cards[card])
                    if reveal or ALL_PLAYERS in (before, after):
                        want = ALL_PLAYERS
                    else:  # every seat is not everybody: a spectator sees public cards only
                        want = before | after
                    assert ev.seen_by == want, (kinds[src], kinds[dst], down_before,
                                                down_after)


def test_add_card_fast_path_and_its_errors(registry: tcgcore.Registry) -> None:
    eng = tcgcore.new_match("sparks", seed=3, registry=registry).engine
    n = len(eng.state.cards)
    eng.add_zone("pile", "pile")
    card = eng.add_card("spark3", 1, "pile", face_down=True, slot=5)  # slot ignored: not slotted
    assert (card.id, card.zone, card.face_down, card.controller) == (n, "pile", True, 1)
    assert eng.zone("pile").cards == [n] and eng.state.cards[n] is card
    eng.add_zone("row", "row", slotted=True, capacity=2)
    assert eng.add_card("spark3", 0, "row", slot=1).id == n + 1
    assert eng.zone("row").cards == [-1, n + 1]
    with pytest.raises(EngineError, match="taken"):
        eng.add_card("spark3", 0, "row", slot=1)
    with pytest.raises(EngineError, match="no zone 'nowhere'"):
        eng.add_card("spark3", 0, "nowhere")
    with pytest.raises(EngineError, match="no zone 3"):
        eng.add_card("spark3", 0, 3)  # type: ignore[arg-type]
    assert len(eng.state.cards) == n + 2  # failed additions add nothing


def test_push_keeps_the_first_argument_on_top(registry: tcgcore.Registry) -> None:
    eng = tcgcore.new_match("sparks", seed=3, registry=registry).engine
    stack = eng.state.stack
    base = len(stack)
    a, b, c = sparks.StartRound(), sparks.Cleanup(), sparks.Reveal()
    eng.push(a)
    assert stack[-1] is a
    eng.push(b, c)
    assert stack[base:] == [a, c, b]
    eng.push()
    assert len(stack) == base + 3


def test_ask_with_one_option_still_checks_counts(registry: tcgcore.Registry) -> None:
    eng = tcgcore.new_match("sparks", seed=3, registry=registry).engine
    eng.state.pending = None
    with pytest.raises(EngineError, match=r"asks 2\.\.2 of 1"):
        eng.ask(0, "x", "?", [Option(key="a", label="A")], min=2, max=2,
                resume=sparks.StartRound())
    eng.ask(0, "x", "?", (Option(key="a", label="A"),), resume=sparks.StartRound())
    assert eng.state.pending is not None and eng.state.pending.keys == ["a"]
