"""The Gathering's agenda 3 and act 1 ops at their edges: "1 doom on this agenda for each
Ghoul in the Hallway or the Parlor" (They're Getting Out! 01107, ``doom_per_trait_at``)
counts exactly those Ghouls, and "the Study leaves the game" (Trapped 01108,
``remove_location``) does nothing when that location is not in play (A418.5, A109.2)."""

from __future__ import annotations

from typing import Any

from tcgcore_arkham_card import scenario
from tcgcore_arkham_card.testkit import desc, enemy, investigator, loc, pass_until, st

DECK = ["t_guts"] * 12
HOUSE = [{"code": "01112"}, {"code": "01113"}, {"code": "01114"}, {"code": "01115"}]


def test_01107_round_end_doom_counts_the_ghouls_in_the_hallway_and_the_parlor_only() -> None:
    """Enemy phase under agenda 3: a Ghoul Minion (01160) engaged and exhausted in the
    Attic stays there (not counted), one in the Parlor stays (counted), one in the Cellar
    moves to the Hallway (counted). The round ends with exactly 2 doom on the agenda."""
    m: Any = scenario({"investigators": [investigator("t_inv_guard", DECK, location="01113")],
                       "locations": HOUSE, "phase": "enemy", "agendas": ["01107"],
                       "enemies": [{"code": "01160", "engaged": 0, "exhausted": True},
                                   {"code": "01160", "location": "01115", "exhausted": True},
                                   {"code": "01160", "location": "01114", "exhausted": True}]})
    agenda = st(m).zones["agendas"].cards[0]
    hallway, parlor = loc(m, "01112"), loc(m, "01115")
    assert st(m).inv[0].location == loc(m, "01113")  # the engaged one is in her threat area
    assert sorted(c.zone for c in st(m).cards if c.code == "01160") == \
        sorted(["threat.0", f"at.{parlor}", f"at.{hallway}"])
    assert st(m).phase == "investigation"
    # 2 at the round's end, then the 1 doom of the next mythos phase
    assert st(m).cards[agenda].counters["doom"] == 2 + 1


def test_01108_remove_location_of_a_location_not_in_play_does_nothing() -> None:
    """A revelation with Trapped's ``remove_location`` naming the Study (01111), which is
    not in play: every location stays, nothing is discarded, the game goes on."""
    call = {"code": "x_call", "name": "Strange Call", "type_code": "treachery",
            "revelation": [{"op": "remove_location", "code": "01111"}]}
    m: Any = scenario(desc(investigator("t_inv_guard", DECK, location="t_loc_b"),
                           phase="mythos", round=2, encounter_deck=["x_call", "t_omen"],
                           enemies=[{"code": "t_ghoul", "location": "t_loc_d",
                                     "exhausted": True}],
                           cards=[call]))
    before = list(st(m).zones["locations"].cards)
    pass_until(m, "action")
    assert st(m).zones["locations"].cards == before
    assert st(m).cards[enemy(m, "t_ghoul")].zone == f"at.{loc(m, 't_loc_d')}"
    assert not st(m).zones["out"].cards
