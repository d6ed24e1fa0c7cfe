"""Sequence comparisons and ranks (rules.md 013.3, 014.2, 072.1; rulings R1, R2, R22)."""

from __future__ import annotations

from pathlib import Path

from tcgcore_guimi_revival import get_pool
from tcgcore_guimi_revival.testing import build, covers, find, game, keys, pick, player

POOL = str(Path(__file__).parent / "data" / "test_pool.toml")
TIER = {9: "low", 8: "low", 7: "low", 6: "mid", 5: "mid", 4: "high", 3: "high", 2: "angel",
        1: "angel"}


def test_013_3_at_most_two_higher_caps_height_only() -> None:
    """013.3 (R1, R22), 102.3: with the RB at sequence 7, "a sequence at most 2 higher" offers
    a sequence-9 and a sequence-5 Beyonder from the Underworld, but not a sequence-4 one."""
    m = build(game(player(sequence=7, hand=["t_ev_recur"],
                          underworld=["seer_b9", "seer_b5", "seer_b4"])), pool=POOL)
    pick(m, f"event:{find(m, 't_ev_recur')}:up")
    offered = {k.split(":")[1] for k in keys(m)}
    assert offered == {str(find(m, "seer_b9")), str(find(m, "seer_b5"))}
    pick(m, f"card:{find(m, 'seer_b5')}:0", "effect_target")
    assert m.state.cards[find(m, "seer_b5")].zone == "units.0"


def test_014_2_printed_ranks_follow_r2() -> None:
    """014.2 (R2): starter Beyonder cards print the rank of their sequence (9-7 low, 6-5 mid,
    4-3 high, 2-1 angel); potion cards print the rank of the sequence they are drunk from, one
    below their own (a sequence-6 potion is low, a sequence-2 potion high)."""
    for d in get_pool("builtin").cards.values():
        if d.sequence is None or d.extra_kind is not None:
            continue
        if d.is_potion:
            assert d.rank == TIER.get(d.sequence + 1, "low"), d.id
        elif d.is_beyonder:
            assert d.rank == TIER[d.sequence], d.id


@covers("seer_potion6", "seer_b6")
def test_014_2_the_gate_reads_the_printed_rank() -> None:
    """014.2, 072.1 (R2): with the RB at sequence 7, the sequence-6 potion (low) may be played
    from hand and the sequence-6 Beyonder Faceless (mid) may not; at sequence 6 both may."""
    m = build(game(player(sequence=7, hand=["seer_potion6", "seer_b6"])))
    pot, b6 = find(m, "seer_potion6"), find(m, "seer_b6")
    assert f"play:{pot}:0" in keys(m) and f"play:{b6}:0" not in keys(m)
    m = build(game(player(sequence=6, hand=["seer_potion6", "seer_b6"])))
    assert f"play:{pot}:0" in keys(m) and f"play:{b6}:0" in keys(m)


@covers("ev_convergence")
def test_013_1_converge_takes_sequence_3_and_higher_not_4() -> None:
    """013.1, 013.2 (R1): the Law of Convergence's "sequence 3 or higher" includes sequence 3
    and leaves sequence 4 out (a higher sequence is a smaller number)."""
    m = build(game(player(sequence=4, hand=["ev_convergence", "seer_b3", "seer_b4"])))
    pick(m, f"event:{find(m, 'ev_convergence')}:up", "main_action")
    assert keys(m) == [f"card:{find(m, 'seer_b3')}"]
