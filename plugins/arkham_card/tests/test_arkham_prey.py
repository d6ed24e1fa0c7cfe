"""Prey (A607): "Prey – bearer only" weakness enemies hunt and engage only their bearer
(A607.2), and every other prey form the engine implements picks the investigator its card
names (A607.3), both when an enemy engages and when a hunter chooses whom to move toward
(A605.4). Rooms A–B–C–D are in a row (testkit.desc)."""

from __future__ import annotations

from typing import Any

import pytest
from tcgcore_arkham_card import scenario
from tcgcore_arkham_card.testkit import answer, desc, enemy, keys, kind, loc, st, where

DECK = ["t_guts"] * 6
BEARER_ONLY = ["01101", "01102", "01103"]  # Mob Enforcer, Silver Twilight Acolyte,
# Stubborn Detective: "Prey - Bearer only. Hunter."


def inv(code: str = "t_inv_guard", **kw: Any) -> dict[str, Any]:
    return {"code": code, "location": "t_loc_a", "deck": list(DECK), **kw}


def _zone(m: Any, code: str) -> str:
    return str(st(m).cards[enemy(m, code)].zone)


@pytest.mark.parametrize("code", BEARER_ONLY)
def test_A607_2_bearer_only_hunter_moves_toward_its_bearer_not_the_nearest(code: str) -> None:
    """The enemy at C, its bearer (seat 0) two rooms away at A, another investigator one
    room away at D: it moves toward A (to B), not toward D. Cards: Mob Enforcer 01101,
    Silver Twilight Acolyte 01102, Stubborn Detective 01103."""
    m = scenario(desc(inv(), inv("t_inv_seeker", location="t_loc_d"), phase="enemy",
                      enemies=[{"code": code, "location": "t_loc_c", "owner": 0}]))
    assert where(m, enemy(m, code)) == loc(m, "t_loc_b")
    assert not _zone(m, code).startswith("threat.")


@pytest.mark.parametrize("code", BEARER_ONLY)
def test_A607_2_bearer_only_hunter_leaves_another_investigator_for_its_bearer(code: str) -> None:
    """Unengaged at B beside another investigator, its bearer (seat 1) at D: it does not
    engage the other investigator and moves toward its bearer (to C)."""
    m = scenario(desc(inv(location="t_loc_b"), inv("t_inv_seeker", location="t_loc_d"),
                      phase="enemy",
                      enemies=[{"code": code, "location": "t_loc_b", "owner": 1}]))
    assert where(m, enemy(m, code)) == loc(m, "t_loc_c")
    assert _zone(m, code) != "threat.0"


@pytest.mark.parametrize("code", BEARER_ONLY)
def test_A607_2_bearer_only_enemy_engages_only_its_bearer(code: str) -> None:
    """Readying at a location with two investigators, it engages its bearer (seat 1)
    without asking the lead; at a location with only the other one it stays unengaged."""
    m = scenario(desc(inv(), inv("t_inv_seeker"), phase="upkeep",
                      enemies=[{"code": code, "location": "t_loc_a", "exhausted": True,
                                "owner": 1}]))
    assert kind(m) != "engage_target"
    assert _zone(m, code) == "threat.1"
    m = scenario(desc(inv(), inv("t_inv_seeker", location="t_loc_d"), phase="upkeep",
                      enemies=[{"code": code, "location": "t_loc_a", "exhausted": True,
                                "owner": 1}]))
    assert _zone(m, code) == f"at.{loc(m, 't_loc_a')}"


def test_A607_2_other_investigators_may_still_engage_it_with_the_engage_action() -> None:
    """Mob Enforcer 01101 (bearer: seat 1) at A with seat 0: seat 0 may take the engage
    action against it (A411)."""
    m = scenario(desc(inv(), inv("t_inv_seeker", location="t_loc_d"),
                      enemies=[{"code": "01101", "location": "t_loc_a", "owner": 1}]))
    mob = enemy(m, "01101")
    answer(m, "inv:0")  # seat 0 takes its turn first
    assert f"engage:{mob}" in keys(m)
    answer(m, f"engage:{mob}")
    assert _zone(m, "01101") == "threat.0"


def test_A607_2_a_drawn_bearer_only_weakness_spawns_on_the_investigator_who_drew_it() -> None:
    """Seat 1 draws its Silver Twilight Acolyte 01102 while seat 0 stands beside it: it
    spawns engaged with seat 1, its bearer (A208.2, A601.3)."""
    m = scenario(desc(inv(), inv("t_inv_seeker", deck=["01102", *DECK]), lead=1))
    answer(m, "inv:1")
    answer(m, "draw")
    assert _zone(m, "01102") == "threat.1"
    assert st(m).cards[enemy(m, "01102")].owner == 1


# ---------------------------------------------------------------- other prey forms (A607.3)

PREY_FORMS: list[tuple[str, str, dict[str, Any], dict[str, Any]]] = [
    # (enemy, prey, seat 0's fields, seat 1's fields): seat 1 is the prey every time
    ("01116", "highest:combat", {"combat": 2}, {"combat": 5}),          # Ghoul Priest
    ("01181", "lowest:combat", {"combat": 5}, {"combat": 1}),           # Young Deep One
    ("01179", "lowest:agility", {"agility": 4}, {"agility": 1}),        # Relentless Dark Young
    ("01161", "lowest:remaining_health", {}, {"damage": 4}),            # Ravenous Ghoul
    ("01175", "lowest:remaining_sanity", {}, {"horror": 7}),            # Screeching Byakhee
    ("01177", "lowest:hand", {"hand": ["t_guts", "t_guts"]}, {}),      # Yithian Observer
    ("01121b", "most:clues", {"clues": 1}, {"clues": 3}),               # The Masked Hunter
]


@pytest.mark.parametrize(("code", "prey", "first", "second"), PREY_FORMS,
                         ids=[p[1] for p in PREY_FORMS])
def test_A607_3_each_prey_form_chooses_whom_it_engages(
        code: str, prey: str, first: dict[str, Any], second: dict[str, Any]) -> None:
    """An exhausted enemy readies (upkeep) at a location with two investigators: its prey
    picks seat 1 and the lead is not asked (A607.1, A602.2). Cards: Ghoul Priest 01116,
    Young Deep One 01181, Relentless Dark Young 01179, Ravenous Ghoul 01161, Screeching
    Byakhee 01175, Yithian Observer 01177, The Masked Hunter 01121b."""
    m = scenario(desc(inv(**first), inv("t_inv_guard", **second) | {"code": "t_inv_seeker"},
                      phase="upkeep",
                      enemies=[{"code": code, "location": "t_loc_a", "exhausted": True}]))
    from tcgcore_arkham_card import card_pool

    assert card_pool()[code].prey == prey
    assert kind(m) != "engage_target"
    assert _zone(m, code) == "threat.1"


def test_A607_3_only_seat_prey_engages_only_that_investigator() -> None:
    """``only:<seat>`` (a described card) behaves as "Prey – X only" (A607.2)."""
    card = {"code": "x_stalker", "name": "Stalker", "type_code": "enemy", "enemy_fight": 1,
            "enemy_evade": 1, "health": 2, "enemy_damage": 1, "prey": "only:0"}
    m = scenario(desc(inv(), inv("t_inv_seeker"), phase="upkeep", cards=[card],
                      enemies=[{"code": "x_stalker", "location": "t_loc_a",
                                "exhausted": True}]))
    assert _zone(m, "x_stalker") == "threat.0"


def test_A607_3_A605_4_prey_picks_the_hunters_target_among_equally_near() -> None:
    """Screeching Byakhee 01175 (hunter; prey lowest remaining sanity) at C, one
    investigator at B and one at D, both one room away: it moves toward the one with less
    sanity left (seat 1 at D)."""
    m = scenario(desc(inv(location="t_loc_b"), inv("t_inv_seeker", location="t_loc_d", horror=7),
                      phase="enemy", enemies=[{"code": "01175", "location": "t_loc_c"}]))
    assert where(m, enemy(m, "01175")) == loc(m, "t_loc_d")
