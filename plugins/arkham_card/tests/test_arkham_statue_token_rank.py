"""Grotesque Statue's order of the two revealed tokens (A978.7, card 01071): the Elder Sign
is the best token for the tester, above any numbered one."""

from __future__ import annotations

from tcgcore_arkham_card import scenario
from tcgcore_arkham_card.testkit import answer, desc, investigator, keys, pending, st

DECK = ["01089"] * 6


def _statue_pair(tokens: list[str]) -> list[str]:
    """The labels of the statue's "keep one" choice, after an investigation by Agnes Baker
    (01004) with a charged Grotesque Statue and a bag of exactly ``tokens``."""
    m = scenario(desc(investigator("01004", DECK, assets=["01071"]), tokens=tokens,
                      locations=[{"code": "t_loc_a", "clues": 2}]))
    answer(m, "investigate")
    answer(m, "use")
    assert keys(m) == ["token:0", "token:1"]
    assert st(m).test is not None
    return [o.label for o in pending(m).options]


def test_A978_7_grotesque_statue_lists_the_elder_sign_before_a_numbered_token() -> None:
    """The Elder Sign ranks above -4 and above +1 whichever is drawn first: the statue lists
    the better token first, so the Elder Sign is option ``token:0``."""
    assert _statue_pair(["-4", "elder_sign"]) == ["elder_sign", "-4"]
    assert _statue_pair(["+1", "elder_sign"]) == ["elder_sign", "+1"]
