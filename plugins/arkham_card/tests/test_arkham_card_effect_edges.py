"""Card effects at their edges: Beat Cop (2) (01028) leaves play on the damage that equals
its health (A703.1, A975.8), a forced choice shows each option's own words (A992.3,
people see words), and The Necronomicon (01009) is discarded when its last horror moves,
not before (A974.2); an op naming the first location, card 0, reaches it (A109.2)."""

from __future__ import annotations

from typing import Any

from tcgcore_arkham_card import scenario
from tcgcore_arkham_card.testkit import activate_card as activate
from tcgcore_arkham_card.testkit import (
    answer,
    codes_in,
    desc,
    enemy,
    investigator,
    kind,
    loc,
    pending,
    st,
)

DECK = ["01089"] * 6


def _beat_cop(damage: int) -> Any:
    """Roland Banks (01001) with Beat Cop (2) carrying ``damage`` uses its fast ability on
    the engaged Ghoul Priest (01116)."""
    m = scenario(desc(investigator("01001", DECK, assets=[{"code": "01028", "damage": damage}]),
                      enemies=[{"code": "01116", "engaged": 0}]))
    activate(m, "01028")
    return m


def test_A975_8_beat_cop_2_is_discarded_when_its_damage_reaches_its_health_of_3() -> None:
    """2 damage on it, 1 more for the ability: 3 = its health, so it is discarded."""
    m = _beat_cop(2)
    assert "01028" in codes_in(m, "discard.0") and "01028" not in codes_in(m, "play.0")


def test_A975_8_beat_cop_2_stays_in_play_below_its_health() -> None:
    """1 damage on it, 1 more: 2 of 3, so it stays in play with 2 damage."""
    m = _beat_cop(1)
    cop = enemy(m, "01028")
    assert st(m).cards[cop].zone == "play.0" and st(m).cards[cop].counters["damage"] == 2


def test_A992_3_a_forced_choice_labels_each_option_with_its_own_words() -> None:
    """Roadside Shrine's forced choice, when moving away: option a reads "Leave an
    offering", option b "Walk on"."""
    shrine = {"code": "x_shrine", "name": "Roadside Shrine", "type_code": "location",
              "shroud": 1, "clues": 0, "symbol": "a", "connections": ["b"],
              "forced": {"before_leave": [{"op": "choose",
                                           "codes": ["Leave an offering", "Walk on"],
                                           "on_success": [{"op": "doom_self", "amount": 1}],
                                           "on_fail": []}]}}
    m = scenario({"investigators": [investigator("t_inv_guard", DECK, location="x_shrine")],
                  "locations": [{"code": "x_shrine"}, {"code": "t_loc_b"}],
                  "cards": [shrine]})
    answer(m, f"move:{loc(m, 't_loc_b')}")
    assert kind(m) == "choose_effect"
    assert [(o.key, o.label) for o in pending(m).options] == \
        [("a", "Leave an offering"), ("b", "Walk on")]



def _necronomicon(horror: int) -> Any:
    """Daisy Walker (01002) with The Necronomicon (01009) carrying ``horror`` in her threat
    area takes its action: 1 horror moves from it onto her."""
    m = scenario(desc(investigator("01002", DECK, threat=[{"code": "01009", "horror": horror}])))
    activate(m, "01009")
    return m


def test_A974_2_the_necronomicon_is_discarded_when_its_last_horror_moves() -> None:
    """1 horror on it: it moves to Daisy, none remain, so it is discarded."""
    m = _necronomicon(1)
    assert "01009" in codes_in(m, "discard.0") and st(m).inv[0].horror == 1


def test_A974_2_the_necronomicon_stays_while_one_horror_remains() -> None:
    """2 horror on it: 1 moves to Daisy, 1 remains, so it stays in her threat area."""
    m = _necronomicon(2)
    book = enemy(m, "01009")
    assert st(m).cards[book].zone == "threat.0" and st(m).cards[book].counters["horror"] == 1
    assert st(m).inv[0].horror == 1


def test_A109_2_reveal_location_reveals_the_first_location_card_0() -> None:
    """A revelation with ``reveal_location`` (the op of act 2 of The Gathering, 01109)
    naming Room A, the first location (card 0) and unrevealed: it is revealed."""
    call = {"code": "x_call", "name": "Strange Call", "type_code": "treachery",
            "revelation": [{"op": "reveal_location", "code": "t_loc_a"}]}
    m = scenario(desc(investigator("t_inv_guard", DECK, location="t_loc_b"), phase="mythos",
                      round=2, encounter_deck=["x_call", "t_omen"], cards=[call],
                      locations=[{"code": "t_loc_a", "revealed": False}, {"code": "t_loc_b"}]))
    room_a = loc(m, "t_loc_a")
    assert room_a == 0
    assert st(m).cards[room_a].counters.get("revealed")
