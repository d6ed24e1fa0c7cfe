"""The chaos bag (A214, A302): a revealed token is drawn at random from the whole bag and
goes back into it. The draws are checked statistically with fixed seeds."""

from __future__ import annotations

from collections import Counter

from tcgcore_arkham_card import scenario
from tcgcore_arkham_card.operations import pick_token
from tcgcore_arkham_card.testkit import answer, desc, events, investigator, st

BAG = ["+1", "0", "-1", "-2", "skull", "auto_fail"]


def test_A214_every_token_of_the_bag_is_drawn_about_equally_often() -> None:
    """A214: each draw takes any token of the bag with the same chance. 6,000 draws from a
    six-token bag with a fixed seed: every token comes up (the last one included), each
    between 850 and 1,150 times (1,000 expected; the bounds are over six standard
    deviations wide), and the bag is unchanged."""
    m = scenario(desc(chaos_bag=list(BAG)), seed=11)
    counts = Counter(pick_token(m.engine) for _ in range(6000))
    assert set(counts) == set(BAG)
    assert all(850 <= counts[t] <= 1150 for t in BAG), counts
    assert st(m).bag == BAG


def test_A214_a_two_token_bag_draws_both_tokens() -> None:
    """A214 at the smallest bag with a choice: both tokens come up within 64 draws."""
    m = scenario(desc(chaos_bag=["0", "auto_fail"]), seed=3)
    assert {pick_token(m.engine) for _ in range(64)} == {"0", "auto_fail"}


def test_A214_forced_tokens_come_first_then_the_bag() -> None:
    """A scenario's ``tokens`` are revealed first, in order, each once; then the bag is used."""
    m = scenario(desc(chaos_bag=["+1"], tokens=["-2", "skull"]))
    assert [pick_token(m.engine) for _ in range(4)] == ["-2", "skull", "+1", "+1"]
    assert st(m).next_tokens == []


def test_A501_the_token_a_skill_test_reveals_comes_from_the_bag_at_random() -> None:
    """ST.3 through the whole skill test: over 40 seeds an investigation reveals every token
    of a four-token bag, each a token of the bag."""
    seen: Counter[str] = Counter()
    for seed in range(40):
        m = scenario(desc(investigator("t_inv_guard", ["t_guts"] * 6),
                          chaos_bag=["+1", "0", "-1", "-2"]), seed=seed)
        answer(m, "investigate")
        seen.update(str(e.data["token"]) for e in events(m, "token_revealed"))
    assert set(seen) == {"+1", "0", "-1", "-2"}
    assert sum(seen.values()) == 40
