"""tcgcore.determinize: a sample of the state one seat cannot tell from the real one.

Checked on Sparks (generic: hidden decks, owner-only hands, face-down arena cards), Guimi
Revival (extra deck pool) and Arkham Horror (encounter deck pool, pinned zones): the
sample's view equals the real view; unseen cards land in every hidden place at the
expected rate (chi-square); the samples never depend on a hidden fact; samples load as
saves and play on.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tcgcore
from tcgcore import EMPTY_SLOT, Match, RandomAgent, Rng, determinize
from tcgcore.examples import sparks
from tcgcore.testing import hidden_twin

_SPARKS = tcgcore.load_registry(load_entrypoints=False, plugins=[sparks])


def _played(game: str, seed: int, decisions: int, registry: tcgcore.Registry | None = None,
            **kw: Any) -> Match[Any]:
    match = tcgcore.new_match(game, seed=seed, registry=registry, keep_events=False, **kw)
    seats = match.state.num_players
    tcgcore.play_out(match, [RandomAgent(seed * 7 + s) for s in range(seats)],
                     max_decisions=decisions)
    return match


def _unseen(match: Match[Any], seat: int) -> list[int]:
    state = match.state
    eng = match.engine
    return [cid for zone in state.zones.values() for cid in zone.cards
            if cid != EMPTY_SLOT and not eng.can_see(seat, state.cards[cid])]


# ---------------------------------------------------------------- the view is the real one

@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 40), sample_seed=st.integers(0, 2**32))
def test_sparks_sample_view_equals_real_view(seed: int, steps: int, sample_seed: int) -> None:
    match = _played("sparks", seed, steps, _SPARKS)
    rng = Rng.from_seed(sample_seed)
    for seat in range(match.state.num_players):
        sample = determinize(match, seat, rng)
        assert sample.view(seat) == match.view(seat)
        assert sample.state.rng != match.state.rng  # future draws are not the real ones


@pytest.mark.parametrize(("game", "kw"), [
    ("guimi_revival", {}),
    ("arkham_card", {}),
    ("arkham_card", {"players": 2}),
])
def test_plugin_sample_view_equals_real_view_and_plays_on(game: str, kw: dict[str, Any]) -> None:
    for seed, steps in ((1, 0), (4, 2), (1, 5), (5, 12), (2, 40), (3, 120)):
        match = _played(game, seed, steps, **kw)
        if match.result is not None:
            continue
        rng = Rng.from_seed(seed)
        for seat in range(match.state.num_players):
            sample = determinize(match, seat, rng)
            assert sample.view(seat) == match.view(seat)
            if match.pending is None or match.pending.player != seat:
                continue  # the other seat's pending choice may name cards the sample moved
            # a sample for the deciding seat is a consistent state: it loads as a save (its
            # checks of meaning included) and plays to the end
            again = Match.from_bytes(sample.to_bytes())
            tcgcore.play_out(again, [RandomAgent(s) for s in range(again.state.num_players)],
                             max_decisions=3000)


def test_sample_is_a_function_of_the_callers_rng(registry: tcgcore.Registry) -> None:
    match = _played("sparks", 4, 10, registry)
    a = determinize(match, 0, Rng.from_seed(5))
    b = determinize(match, 0, Rng.from_seed(5))
    c = determinize(match, 0, Rng.from_seed(6))
    assert a.digest() == b.digest() != c.digest()


def test_bad_seat_is_refused(registry: tcgcore.Registry) -> None:
    match = _played("sparks", 4, 3, registry)
    for seat in (2, -1, True, "0"):
        with pytest.raises(tcgcore.SeatError, match=r"not a seat of this match \(0\.\.1\)"):
            determinize(match, seat, Rng.from_seed(1))  # type: ignore[arg-type]
    assert determinize(match, 1, Rng.from_seed(1)).view(1) == match.view(1)  # the last seat


# ---------------------------------------------------------------- no hidden fact consulted

@pytest.mark.parametrize(("game", "seed", "steps"), [
    ("sparks", 8, 6), ("sparks", 9, 25), ("guimi_revival", 1, 30), ("arkham_card", 2, 30),
])
def test_samples_ignore_hidden_facts(game: str, seed: int, steps: int) -> None:
    match = _played(game, seed, steps, _SPARKS if game == "sparks" else None)
    seat = match.pending.player if match.pending is not None else 0
    twin = hidden_twin(match, seat)
    assert twin.digest() != match.digest()  # the hidden facts really differ
    assert twin.view(seat) == match.view(seat)
    for k in range(5):
        a = determinize(match, seat, Rng.from_seed(k))
        b = determinize(twin, seat, Rng.from_seed(k))
        assert a.digest() == b.digest()


# ---------------------------------------------------------------- unseen cards land at the expected rate

#: upper 0.1 % points of the chi-square distribution (standard tables) by degrees of freedom
_CHI2_999 = {1: 10.828, 2: 13.816, 3: 16.266, 4: 18.467, 5: 20.515, 6: 22.458, 7: 24.322,
             8: 26.124, 9: 27.877, 10: 29.588, 11: 31.264, 12: 32.909, 13: 34.528}


def _chi2(observed: list[int], expected: list[float]) -> float:
    return sum((o - e) ** 2 / e for o, e in zip(observed, expected, strict=True))


def test_sparks_unseen_cards_land_in_each_place_at_the_expected_rate(
        registry: tcgcore.Registry) -> None:
    match = tcgcore.new_match("sparks", seed=11, registry=registry)  # at the first mulligan
    seat = 0
    state = match.state
    places = [(zone.id, i) for zone in state.zones.values()
              for i, cid in enumerate(zone.cards)
              if cid != EMPTY_SLOT and state.cards[cid].owner == 1
              and not match.engine.can_see(seat, state.cards[cid])]
    ids = sorted(state.cards[state.zones[z].cards[i]].id for z, i in places)
    assert len(places) == 12  # the opponent's hand (3) and deck (9)
    n = 1200
    where: dict[str, Counter[tuple[str, int]]] = {}
    in_hand: Counter[str] = Counter()
    rng = Rng.from_seed(2024)
    for _ in range(n):
        sample = determinize(match, seat, rng).state
        for z, i in places:
            code = sample.cards[sample.zones[z].cards[i]].code
            where.setdefault(code, Counter())[(z, i)] += 1
            if z == "hand.1":
                in_hand[code] += 1
    codes = Counter(state.cards[cid].code for cid in ids)
    # every unseen code: each of the 12 places at its share (11 degrees of freedom)
    for code, copies in codes.items():
        observed = [where[code][p] for p in places]
        assert _chi2(observed, [n * copies / 12] * 12) < _CHI2_999[11], (code, observed)
    # each code: in the opponent's hand at its share of the 12 unseen cards
    observed = [in_hand[c] for c in sorted(codes)]
    expected = [n * 3 * codes[c] / 12 for c in sorted(codes)]
    df = len(codes) - 1
    assert df in _CHI2_999
    assert _chi2(observed, expected) < _CHI2_999[df], (observed, expected)
    # and the seat's own deck order is unknown to it: its top card is uniform over it
    top: Counter[str] = Counter()
    rng = Rng.from_seed(7)
    for _ in range(600):
        sample = determinize(match, seat, rng).state
        top[sample.cards[sample.zones["deck.0"].cards[0]].code] += 1
    mine = Counter(state.cards[cid].code for cid in state.zones["deck.0"].cards)
    observed = [top[c] for c in sorted(mine)]
    expected = [600 * mine[c] / 9 for c in sorted(mine)]
    assert _chi2(observed, expected) < _CHI2_999[len(mine) - 1]


def test_chi2_table_matches_the_distribution() -> None:
    """The tabulated points really are the upper 0.1 % points (a series for the
    regularised lower incomplete gamma function)."""
    def sf(x: float, df: int) -> float:
        s, z = df / 2, x / 2
        term = total = 1 / s
        k = 0
        while term > 1e-16 * total:
            k += 1
            term *= z / (s + k)
            total += term
        return 1 - math.exp(s * math.log(z) - z - math.lgamma(s)) * total
    for df, x in _CHI2_999.items():
        assert sf(x, df) == pytest.approx(0.001, rel=2e-3)


def test_guimi_extra_deck_is_its_own_pool() -> None:
    match = _played("guimi_revival", 3, 20)
    state = match.state
    for seat in (0, 1):
        opp = 1 - seat
        extra = sorted(state.cards[c].code for c in state.zones[f"extra.{opp}"].cards)
        rng = Rng.from_seed(seat)
        moved = False
        for _ in range(30):
            sample = determinize(match, seat, rng).state
            assert sorted(sample.cards[c].code
                          for c in sample.zones[f"extra.{opp}"].cards) == extra
            moved |= sample.zones[f"hand.{opp}"].cards != state.zones[f"hand.{opp}"].cards
        assert moved  # the hand and main deck are redealt


def test_arkham_encounter_deck_is_redealt_and_acts_stay() -> None:
    match = _played("arkham_card", 2, 30)
    state = match.state
    rng = Rng.from_seed(3)
    encounter = sorted(state.cards[c].code for c in state.zones["encounter"].cards)
    tops = set()
    for _ in range(30):
        sample = determinize(match, 0, rng).state
        assert sorted(sample.cards[c].code for c in sample.zones["encounter"].cards) == encounter
        assert sample.zones["acts"].cards == state.zones["acts"].cards
        assert sample.zones["agendas"].cards == state.zones["agendas"].cards
        tops.add(sample.cards[sample.zones["encounter"].cards[0]].code)
    assert len(tops) > 1


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 30), sample_seed=st.integers(0, 2**32))
def test_sparks_samples_are_a_function_of_the_view(seed: int, steps: int,
                                                    sample_seed: int) -> None:
    match = _played("sparks", seed, steps, _SPARKS)
    if match.result is not None:
        return
    seat = match.state.active_player
    twin = hidden_twin(match, seat)
    assert twin.view(seat) == match.view(seat)
    a = determinize(match, seat, Rng.from_seed(sample_seed))
    b = determinize(twin, seat, Rng.from_seed(sample_seed))
    assert a.digest() == b.digest()


def test_sample_pool_hook_none_keeps_cards_in_place(monkeypatch: pytest.MonkeyPatch) -> None:
    match = _played("sparks", 6, 4, _SPARKS)

    def pool(state: Any, seat: int, zone: tcgcore.Zone, owner: int) -> str | None:
        return None if zone.kind == "deck" else f"hand.{owner}"

    monkeypatch.setattr(match.spec, "sample_pool", pool)
    rng = Rng.from_seed(1)
    decks = {z: list(match.state.zones[z].cards) for z in ("deck.0", "deck.1")}
    for _ in range(10):
        sample = determinize(match, 0, rng)
        assert {z: sample.state.zones[z].cards for z in decks} == decks
        assert all(sample.state.cards[c] == match.state.cards[c]
                   for cards in decks.values() for c in cards)
        assert sample.view(0) == match.view(0)


def test_a_card_the_seats_own_pending_choice_shows_it_stays_for_that_seat_only(
        registry: tcgcore.Registry) -> None:
    import msgspec

    match = tcgcore.new_match("sparks", seed=3, registry=registry)
    choice = match.pending
    assert choice is not None and choice.player == 0
    deck = match.state.zones["deck.0"].cards
    shown = deck[4]  # a card of seat 0's own deck, which seat 0 cannot see
    assert not match.engine.can_see(0, match.state.cards[shown])
    match.state.pending = msgspec.structs.replace(choice, options=[
        *choice.options, tcgcore.Option(key="peek", label="a card of the deck", card=shown)])
    real = match.state.cards[shown]
    rng = Rng.from_seed(9)
    others = set()
    below: set[tuple[str, ...]] = set()
    for _ in range(40):
        mine = determinize(match, 0, rng).state
        assert mine.zones["deck.0"].cards[4] == shown and mine.cards[shown] == real
        below.add(tuple(mine.cards[c].code for c in mine.zones["deck.0"].cards[5:]))
        theirs = determinize(match, 1, rng).state
        top = theirs.zones["deck.0"].cards[4]
        others.add((top, theirs.cards[top].code))
    assert len(others) > 1  # for seat 1 the place is redealt like any unseen card
    assert len(below) > 1  # for seat 0 the cards below the kept one are redealt too


def test_a_face_down_card_the_seat_controls_in_another_seats_hand_stays(
        registry: tcgcore.Registry) -> None:
    """In a zone closed to the seat (another seat's owner-only hand) the seat still sees a
    face-down card it controls: the sample keeps it; the rest of that hand is redealt, a
    face-down card of the hand's own seat too."""
    match = tcgcore.new_match("sparks", seed=5, registry=registry)
    hand = match.state.zones["hand.1"].cards
    theirs, mine = hand[0], hand[1]
    match.engine.update_card(theirs, face_down=True)
    match.engine.update_card(mine, face_down=True, controller=0)
    assert match.engine.can_see(0, match.state.cards[mine])
    assert not match.engine.can_see(0, match.state.cards[theirs])
    real = match.state.cards[mine]
    rng = Rng.from_seed(4)
    before, after = set(), set()
    for _ in range(30):
        sample = determinize(match, 0, rng)
        cards = sample.state.zones["hand.1"].cards
        assert cards[1] == mine and sample.state.cards[mine] == real
        assert sample.view(0) == match.view(0)
        before.add(sample.state.cards[cards[0]].code)
        after.add(sample.state.cards[cards[2]].code)
    assert len(before) > 1 and len(after) > 1


def test_a_face_down_card_after_a_face_up_one_in_a_public_zone_is_redealt(
        registry: tcgcore.Registry) -> None:
    match = tcgcore.new_match("sparks", seed=5, registry=registry)
    up, down = match.state.zones["deck.1"].cards[:2]
    match.engine.move(up, "discard.1", face_down=False)
    match.engine.move(down, "discard.1", face_down=True)
    assert match.state.zones["discard.1"].cards == [up, down]
    rng = Rng.from_seed(6)
    codes = set()
    for _ in range(30):
        sample = determinize(match, 0, rng).state
        first, second = sample.zones["discard.1"].cards
        assert first == up and sample.cards[up] == match.state.cards[up]
        codes.add(sample.cards[second].code)
    assert len(codes) > 1


def test_a_sample_keeps_no_events_and_no_decisions(registry: tcgcore.Registry) -> None:
    match = _played("sparks", 4, 6, registry)
    sample = determinize(match, 0, Rng.from_seed(1))
    assert not sample.keeps_events and sample.decisions == []
    assert match.decisions and sample.registry is match.registry


def test_an_unseen_card_attached_to_a_card_stays_where_it_is(registry: tcgcore.Registry) -> None:
    match = tcgcore.new_match("sparks", seed=5, registry=registry)
    host = match.state.zones["deck.0"].cards[0]
    match.engine.move(host, "discard.0")
    guest = match.state.zones["deck.1"].cards[2]  # unseen by seat 0, attached to a public card
    match.engine.update_card(guest, attached_to=host)
    real = match.state.cards[guest]
    rng = Rng.from_seed(8)
    for _ in range(20):
        sample = determinize(match, 0, rng).state
        assert sample.zones["deck.1"].cards[2] == guest and sample.cards[guest] == real
