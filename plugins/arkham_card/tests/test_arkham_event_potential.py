"""An event needs the potential to change the game state (A904.2): Working a Hunch (01037,
"Discover 1 clue at your location") is offered where the investigator's location has a
clue, whichever card that location is, and not where it has none."""

from __future__ import annotations

from tcgcore_arkham_card import scenario
from tcgcore_arkham_card.testkit import desc, enemy, investigator, keys, loc, st

#: An event whose only effect is a skill test bonus, with no "during a skill test" timing.
_PEP_TALK = {"code": "x_pep", "name": "Pep Talk", "type_code": "event", "cost": 0,
             "effects": [{"op": "test_bonus", "amount": 2}]}

DECK = ["01089"] * 6


def _hunch_offered(clues_at_b: int) -> bool:
    """Daisy Walker (01002) in Room B (not card 0) with ``clues_at_b`` clues there."""
    m = scenario(desc(investigator("01002", DECK, location="t_loc_b", hand=["01037"],
                                   resources=2),
                      locations=[{"code": "t_loc_a"}, {"code": "t_loc_b", "clues": clues_at_b}]))
    room_b = loc(m, "t_loc_b")
    assert room_b != 0 and st(m).inv[0].location == room_b
    return f"fastplay:{enemy(m, '01037')}" in keys(m)


def test_A904_2_working_a_hunch_is_playable_at_a_location_with_a_clue_other_than_card_0() -> None:
    """One clue in Room B (card 1): the fast event is offered."""
    assert _hunch_offered(1)


def test_A904_2_working_a_hunch_is_not_playable_at_a_location_without_clues() -> None:
    """No clue in Room B: discovering one could change nothing, so it is not offered."""
    assert not _hunch_offered(0)


def test_A904_2_an_event_giving_only_a_skill_test_bonus_is_not_playable_outside_a_test() -> None:
    """Pep Talk (+2 to a skill test, nothing else) in hand on the investigator's turn, with
    no test under way: the bonus could change nothing, so it is not offered."""
    m = scenario(desc(investigator("01002", DECK, hand=["x_pep"]), cards=[_PEP_TALK]))
    assert st(m).test is None
    pep = enemy(m, "x_pep")
    assert not any(k.endswith(f":{pep}") and k.split(":")[0] in ("play", "fastplay")
                   for k in keys(m))
