"""Effect ops at their edges: a location that is card 0 as an effect's source, ops naming a
location that is card 0 or one not in play, and Close Call's fallback with two exhausted
enemies (A109.2, A992.3, A978.6; the ops of ``docs/arkham_card/scenario-format.md``)."""

from __future__ import annotations

from typing import Any

from tcgcore_arkham_card import scenario
from tcgcore_arkham_card.testkit import (
    answer,
    codes_in,
    desc,
    enemy,
    events,
    investigator,
    kind,
    loc,
    pass_until,
    pending,
    st,
)

DECK = ["t_guts"] * 6

#: A location whose forced "when you would move away from here" (A992.3) lets the mover
#: choose to leave 1 doom on it: the choice's prompt names its source, the doom goes on it.
_SHRINE: dict[str, Any] = {
    "code": "x_shrine", "name": "Roadside Shrine", "type_code": "location", "shroud": 1,
    "clues": 0, "symbol": "a", "connections": ["b"],
    "forced": {"before_leave": [{"op": "choose", "codes": ["Leave an offering", "Walk on"],
                                 "on_success": [{"op": "doom_self", "amount": 1}],
                                 "on_fail": []}]}}


def test_A992_3_a_forced_choice_of_location_card_0_names_it_and_its_doom_goes_on_it() -> None:
    """The Shrine is the description's first location, so card 0: moving away asks the
    mover to choose, with a prompt naming the Shrine (people see words, not ids), and the
    chosen "doom on this card" goes on the Shrine."""
    m = scenario({"investigators": [investigator("t_inv_guard", DECK, location="x_shrine")],
                  "locations": [{"code": "x_shrine"}, {"code": "t_loc_b"}],
                  "cards": [_SHRINE]})
    shrine = loc(m, "x_shrine")
    assert shrine == 0
    answer(m, f"move:{loc(m, 't_loc_b')}")
    assert kind(m) == "choose_effect"
    assert pending(m).prompt == "Roadside Shrine: choose one"
    answer(m, "a")
    assert st(m).cards[shrine].counters.get("doom") == 1
    assert st(m).inv[0].location == loc(m, "t_loc_b")


def _revelation(op: dict[str, Any]) -> dict[str, Any]:
    return {"code": "x_call", "name": "Strange Call", "type_code": "treachery",
            "revelation": [op]}


def _drawn(op: dict[str, Any], seat_location: str, **extra: Any) -> Any:
    m = scenario(desc(investigator("t_inv_guard", DECK, location=seat_location),
                      phase="mythos", round=2, encounter_deck=["x_call", "t_omen"],
                      cards=[_revelation(op)], **extra))
    pass_until(m, "action")
    return m


def test_01108_move_all_to_the_first_location_card_0_moves_everyone_there() -> None:
    """``move_all_to`` (the op of Trapped 01108, act 1 of The Gathering) naming the first
    location (card 0, Test Room A) moves the investigator from Room B to it."""
    m = _drawn({"op": "move_all_to", "code": "t_loc_a"}, "t_loc_b")
    assert loc(m, "t_loc_a") == 0
    assert st(m).inv[0].location == 0
    assert any(e.card == 0 for e in events(m, "entered"))


def test_01108_move_all_to_and_discard_enemies_at_a_location_not_in_play_do_nothing() -> None:
    """The ops of Trapped 01108 naming a location that is not in play (Room D, left out of
    the description): ``move_all_to`` leaves the investigator where it is and
    ``discard_enemies_at`` discards nobody."""
    locations = [{"code": "t_loc_a"}, {"code": "t_loc_b"}, {"code": "t_loc_c"}]
    m = _drawn({"op": "move_all_to", "code": "t_loc_d"}, "t_loc_b", locations=locations)
    assert st(m).inv[0].location == loc(m, "t_loc_b")
    m2 = _drawn({"op": "discard_enemies_at", "code": "t_loc_d"}, "t_loc_b",
                locations=locations,
                enemies=[{"code": "t_ghoul", "location": "t_loc_c"}])
    assert codes_in(m2, f"at.{loc(m2, 't_loc_c')}") == ["t_ghoul"]
    assert st(m2).inv[0].location == loc(m2, "t_loc_b")


#: A fast event with Close Call's op and no trigger card: it takes the first exhausted
#: non-Elite enemy at the location.
_SHOO: dict[str, Any] = {"code": "x_shoo", "name": "Shoo!", "type_code": "event", "cost": 0,
                         "fast": True, "effects": [{"op": "shuffle_enemy_back"}]}


def test_A978_6_A109_2_the_enemy_shuffled_back_is_the_one_readied_and_cleared() -> None:
    """Of two exhausted, damaged Ghouls at the location, the first goes into the encounter
    deck ready and without its damage (A109.2: tokens leave with it); the other stays at
    the location, still exhausted, with its damage."""
    m = scenario(desc(investigator("t_inv_guard", DECK, hand=["x_shoo"]), cards=[_SHOO],
                      enemies=[{"code": "t_ghoul", "location": "t_loc_a", "exhausted": True,
                                "damage": 1},
                               {"code": "t_ghoul", "location": "t_loc_a", "exhausted": True,
                                "damage": 1}]))
    first, second = enemy(m, "t_ghoul"), enemy(m, "t_ghoul", 1)
    assert st(m).zones["at.0"].cards[:2] == [first, second]
    answer(m, f"fastplay:{enemy(m, 'x_shoo')}")
    gone, stays = st(m).cards[first], st(m).cards[second]
    assert gone.zone == "encounter" and not gone.exhausted and not gone.counters
    assert stays.zone == "at.0" and stays.exhausted and stays.counters.get("damage") == 1
