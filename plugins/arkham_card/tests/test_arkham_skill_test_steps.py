"""Skill test steps at their edges: a "Max 1 per test" card across the committers, a tester
defeated before the results, failing by 0, a forced ability of a location that is card 0, and
the text of an event that is not the test's source (A107.3, A503.4, A505.3, A506.3, A508.1,
A705.9)."""

from __future__ import annotations

from tcgcore_arkham_card import scenario
from tcgcore_arkham_card.testkit import (
    answer,
    codes_in,
    desc,
    enemy,
    events,
    investigator,
    keys,
    kind,
    loc,
    pass_until,
    st,
    who,
)

DECK = ["t_guts"] * 6


def inv(code: str = "t_inv_guard", **kw: object) -> dict[str, object]:
    return investigator(code, DECK, **kw)


def _two_with_perception() -> dict[str, object]:
    return desc(inv(hand=["t_perception"]), inv("t_inv_seeker", hand=["t_perception"]),
                tokens=["0"])


def test_A107_3_A503_4_a_max_one_card_the_tester_committed_is_not_offered_to_the_next() -> None:
    """Test Perception is "Max 1 committed per skill test": once the tester has committed
    one, the other investigator at the location is not offered its own copy (A107.3 counts
    every copy), though it is offered it when the tester committed none."""
    m = scenario(_two_with_perception())
    answer(m, "inv:0")
    answer(m, "investigate")
    mine = st(m).zones["hand.0"].cards[0]
    theirs = st(m).zones["hand.1"].cards[0]
    assert who(m) == 0 and keys(m) == [f"commit:{mine}"]
    answer(m, f"commit:{mine}")
    assert kind(m) == "commit" and who(m) == 1
    assert keys(m) == ["none"]  # the one copy allowed is already committed
    answer(m)
    assert codes_in(m, "hand.1") == ["t_perception"] and theirs in st(m).zones["hand.1"].cards
    # the same investigator's copy is offered when the tester commits nothing
    m2 = scenario(_two_with_perception())
    answer(m2, "inv:0")
    answer(m2, "investigate")
    answer(m2)
    assert who(m2) == 1 and keys(m2) == [f"commit:{theirs}"]


def test_A705_9_a_tester_defeated_by_its_token_gets_no_results() -> None:
    """A token's "when revealed" damage defeats the tester in ST.4; the test would succeed
    (combat 4 + 2 against fight 2), but an eliminated investigator takes no further part, so
    ST.7 deals no damage to the enemy it attacked (A705.9, A508.1)."""
    m = scenario(desc(inv(health=1), inv("t_inv_seeker", location="t_loc_b"), tokens=["skull"],
                      token_effects={"skull": {"modifier": 2,
                                               "on_reveal": [{"op": "damage", "amount": 1}]}},
                      enemies=[{"code": "t_ghoul", "engaged": 0}]))
    ghoul = enemy(m, "t_ghoul")
    answer(m, "inv:0")
    answer(m, f"fight:{ghoul}")
    assert st(m).inv[0].status == "defeated"
    assert not events(m, "enemy_damaged")
    assert st(m).cards[ghoul].counters.get("damage", 0) == 0


def _hush(difficulty: int) -> dict[str, object]:
    return {"code": "x_hush", "name": "Hush", "type_code": "treachery",
            "revelation": [{"op": "test", "skill": "willpower", "difficulty": difficulty,
                            "on_fail": [{"op": "horror_per_fail", "amount": 1}]}]}


def test_A505_3_auto_fail_against_difficulty_0_fails_by_0() -> None:
    """The auto-fail token counts the skill as 0, so the test fails by the full difficulty:
    against difficulty 0 that is 0, and "1 horror for each point you fail by" places none;
    against difficulty 2 it places 2."""
    for difficulty, horror in ((0, 0), (2, 2)):
        m = scenario(desc(inv(), phase="mythos", round=2, encounter_deck=["x_hush", "t_omen"],
                          tokens=["auto_fail"], cards=[_hush(difficulty)]))
        pass_until(m, "action")
        failed = events(m, "test_failed")
        assert len(failed) == 1 and failed[0].amount == -difficulty
        assert st(m).inv[0].horror == horror, difficulty


def test_A506_3_obscuring_fog_on_card_0_leaves_after_a_successful_investigation() -> None:
    """Obscuring Fog 01168 attached to the scenario's first location (card id 0): after that
    location is successfully investigated, the fog is discarded (its forced ability), as at
    any other location."""
    m = scenario(desc(inv(), phase="mythos", round=2, encounter_deck=["01168", "t_omen"],
                      tokens=["+1"]))
    room = loc(m, "t_loc_a")
    assert room == 0 and codes_in(m, "at.0") == ["01168"]
    pass_until(m, "action")
    answer(m, "investigate")  # intellect 3 + 1 = 4 against shroud 2 + 2 = 4
    assert events(m, "test_succeeded")[-1].data["difficulty"] == 4
    assert codes_in(m, "at.0") == []
    assert "01168" in codes_in(m, "encounter_discard")


def test_A508_1_a_plain_evade_resolves_no_event_that_is_not_its_source() -> None:
    """A basic evade has no source card: its success does not resolve the "if you succeed"
    text of Blinding Light 01066 lying elsewhere (here the last card of the match, in the
    victory display); the evaded Ghoul is exhausted and takes no damage (A508.1, A412.2)."""
    m = scenario(desc(inv(), tokens=["0"], victory=["01066"],
                      enemies=[{"code": "t_ghoul", "engaged": 0}]))
    ghoul = enemy(m, "t_ghoul")
    assert st(m).cards[-1].code == "01066"
    answer(m, f"evade:{ghoul}")  # agility 2 + 0 against evade 2
    assert events(m, "test_succeeded")
    assert st(m).cards[ghoul].exhausted
    assert st(m).cards[ghoul].counters.get("damage", 0) == 0
