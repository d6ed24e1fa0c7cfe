"""The difficulty of a fight is the enemy's printed fight value, which may be 0 (A993.2,
the fight action of A412.1 / ST.1)."""

from __future__ import annotations

from tcgcore_arkham_card import scenario
from tcgcore_arkham_card.testkit import answer, desc, enemy, investigator, kind, st

DECK = ["t_guts"] * 6

_HARMLESS = {"code": "x_wisp", "name": "Pale Wisp", "type_code": "enemy", "enemy_fight": 0,
             "health": 2, "enemy_evade": 1, "enemy_damage": 1, "enemy_horror": 0}


def test_A993_2_an_enemy_with_fight_0_is_fought_at_difficulty_0() -> None:
    """Fighting the Pale Wisp (fight 0, no modifiers; a card in hand, so the test waits at
    its commit window) starts a combat test against
    difficulty 0, not 1."""
    m = scenario(desc(investigator("t_inv_guard", DECK, hand=["t_guts"]), cards=[_HARMLESS],
                      enemies=[{"code": "x_wisp", "engaged": 0}]))
    answer(m, f"fight:{enemy(m, 'x_wisp')}")
    test = st(m).test
    assert test is not None and kind(m) == "commit"
    assert (test.kind, test.skill, test.difficulty) == ("fight", "combat", 0)
