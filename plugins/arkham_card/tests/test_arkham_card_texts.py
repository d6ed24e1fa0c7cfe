"""Core player cards played against the details of their printed text: Cover Up 01007
(A974.1), The Necronomicon 01009 (A974.2), Wendy's Amulet 01014 (A975.13), Extra
Ammunition 01026 (A978.4), Elusive 01050 and Survival Instinct 01081 (A975.14), Cunning
Distraction 01078 (A975.8). On the Lam 01010 (A975.13) is in test_arkham_card_abilities.py."""

from __future__ import annotations

from typing import Any

from tcgcore_arkham_card import scenario
from tcgcore_arkham_card.testkit import (
    answer,
    codes_in,
    desc,
    enemy,
    keys,
    kind,
    loc,
    pass_until,
    st,
    where,
)
from tcgcore_arkham_card.testkit import play_card as play

import tcgcore

DECK = ["01089"] * 6


def inv(code: str = "01001", **kw: Any) -> dict[str, Any]:
    return {"code": code, "location": "t_loc_a", "deck": list(DECK), **kw}


def _all(m: tcgcore.Match[Any], kind_: str) -> list[tcgcore.Event]:
    return [e for e in m.events_since(0, player="all") if e.kind == kind_]


# ------------------------------------------------------------------ Cover Up 01007


def test_A974_1_cover_up_is_a_reaction_that_may_be_declined() -> None:
    """Roland succeeds at investigating with Cover Up (3 clues) in his threat area: he is
    asked; declining discovers the clue from the location as usual."""
    m = scenario(desc(inv(threat=[{"code": "01007", "clues": 3}]), tokens=["0"],
                      locations=[{"code": "t_loc_a", "clues": 2}]))
    cover = enemy(m, "01007")
    answer(m, "investigate")
    assert kind(m) == "use_trigger" and m.pending is not None and m.pending.player == 0
    answer(m, "no")
    assert st(m).inv[0].clues == 1 and st(m).cards[cover].counters["clues"] == 3
    assert st(m).cards[loc(m, "t_loc_a")].counters["clues"] == 1


def test_A974_1_cover_up_used_takes_the_clues_off_it_and_leaves_the_location_alone() -> None:
    m = scenario(desc(inv(threat=[{"code": "01007", "clues": 3}]), tokens=["0"],
                      locations=[{"code": "t_loc_a", "clues": 2}]))
    cover = enemy(m, "01007")
    answer(m, "investigate")
    answer(m, "yes")
    assert st(m).inv[0].clues == 0 and st(m).cards[cover].counters["clues"] == 2
    assert st(m).cards[loc(m, "t_loc_a")].counters["clues"] == 2
    from tcgcore_arkham_card.plugin import describe

    [would] = _all(m, "clues_would_discover")
    [covered] = _all(m, "clues_covered")
    assert describe(st(m), would) == "Roland Banks is about to discover 1 clue(s)"
    assert describe(st(m), covered) == "1 clue(s) come off Cover Up instead"


def test_A974_1_no_question_without_clues_on_cover_up_or_at_the_location() -> None:
    m = scenario(desc(inv(threat=[{"code": "01007", "clues": 3}]), tokens=["0"],
                      locations=[{"code": "t_loc_a", "clues": 0}]))
    answer(m, "investigate")
    assert kind(m) != "use_trigger"


# ------------------------------------------------------------ The Necronomicon 01009


def test_A974_2_necronomicon_cannot_leave_play_while_it_has_horror() -> None:
    """Crypt Chill (choose and discard an asset you control) with only The Necronomicon
    (3 horror, threat area): it cannot be chosen, so Daisy takes 2 damage instead."""
    m = scenario(desc(inv("01002", threat=[{"code": "01009", "horror": 3}]), tokens=["-8"],
                      phase="mythos", round=2, encounter_deck=["01167"]))
    book = enemy(m, "01009")
    assert st(m).cards[book].zone == "threat.0"
    assert st(m).inv[0].damage == 2


# --------------------------------------------------------------- Wendy's Amulet 01014


def test_A975_13_wendys_amulet_takes_an_event_discarded_from_play() -> None:
    """Wendy plays Barricade (an event attached to her location) with her Amulet in play;
    when she leaves, Barricade is discarded from play and goes to the bottom of her deck."""
    m = scenario(desc(inv("01005", assets=["01014"], hand=["01038"])))
    barricade = enemy(m, "01038")
    play(m, "01038")
    assert st(m).cards[barricade].zone == f"at.{loc(m, 't_loc_a')}"
    answer(m, f"move:{loc(m, 't_loc_b')}")
    assert st(m).zones["deck.0"].cards[-1] == barricade
    assert "01038" not in codes_in(m, "discard.0")


# ------------------------------------------------------------ Extra Ammunition 01026


def test_A978_4_extra_ammunition_on_a_firearm_of_another_investigator_here() -> None:
    """Roland plays Extra Ammunition with no Firearm of his own: the .45 Automatic of the
    investigator beside him gets 3 ammo; one at another location is not offered."""
    m = scenario(desc(inv(hand=["01026"]),
                      inv("t_inv_seeker", assets=[{"code": "01016", "uses": 1}]),
                      inv("t_inv_mystic", location="t_loc_b", assets=["01016"])))
    answer(m, "inv:0")
    near = enemy(m, "01016", 0)
    far = enemy(m, "01016", 1)
    play(m, "01026")
    assert st(m).cards[near].counters["uses"] == 4
    assert st(m).cards[far].counters["uses"] == 4 - 0  # untouched: printed 4 ammo


# ------------------------------------------------------------------ Elusive 01050


def test_A975_14_elusive_must_move_when_it_can() -> None:
    m = scenario(desc(inv("01003", hand=["01050"]), enemies=[{"code": "t_ghoul", "engaged": 0}]))
    play(m, "01050")
    assert kind(m) == "choose_location" and "stay" not in keys(m)


# ------------------------------------------------------------ Cunning Distraction 01078


def test_A975_8_cunning_distraction_is_an_evade_action_without_attacks_of_opportunity() -> None:
    """Two enemies engaged, one more at the location: all are evaded, and playing it (an
    Evade action) provokes no attack of opportunity (A416.2)."""
    m = scenario(desc(inv("01005", hand=["01078"], resources=5),
                      enemies=[{"code": "t_ghoul", "engaged": 0}, {"code": "t_rat", "engaged": 0},
                               {"code": "t_ghoul", "location": "t_loc_a", "exhausted": True}]))
    play(m, "01078")
    assert not _all(m, "enemy_attacks")
    assert [e.data for e in _all(m, "action_taken")] == [{"action": "evade"}]
    assert codes_in(m, "threat.0") == []
    assert all(st(m).cards[e].exhausted for e in (enemy(m, "t_ghoul", 0), enemy(m, "t_rat"),
                                                  enemy(m, "t_ghoul", 1)))


# ------------------------------------------------------------ Survival Instinct 01081


def test_A975_14_survival_instinct_may_keep_the_other_enemies() -> None:
    """Evading the ghoul with Survival Instinct committed, Skids keeps the rat engaged and
    moves: the rat moves with him (A603.1)."""
    m = scenario(desc(inv("01003", hand=["01081"]), tokens=["0"],
                      enemies=[{"code": "t_ghoul", "engaged": 0},
                               {"code": "t_rat", "engaged": 0}]))
    answer(m, f"evade:{enemy(m, 't_ghoul')}")
    answer(m, f"commit:{enemy(m, '01081')}")
    assert kind(m) == "disengage"
    answer(m, "keep")
    room_b = loc(m, "t_loc_b")
    answer(m, f"location:{room_b}")
    assert st(m).inv[0].location == room_b
    assert st(m).cards[enemy(m, "t_rat")].zone == "threat.0"
    assert where(m, enemy(m, "t_rat")) == room_b
    assert where(m, enemy(m, "t_ghoul")) == loc(m, "t_loc_a")
    pass_until(m, "action")


def test_A974_2_A705_7_the_necronomicon_leaves_with_its_eliminated_investigator() -> None:
    """Daisy resigns with The Necronomicon 01009 (2 horror) in her threat area: elimination
    discards it all the same."""
    m = scenario(desc(inv("01002", location="01115", threat=[{"code": "01009", "horror": 2}]),
                      locations=[{"code": "01115"}]))
    book = enemy(m, "01009")
    answer(m, next(k for k in keys(m) if k.startswith("activate:") and
                   k != f"activate:{book}:0"))
    assert st(m).inv[0].status == "resigned"
    assert not st(m).cards[book].zone.startswith("threat.")
