"""Enemy attacks and the harm they place (A417.4, A701, A205.2, A615), at the edges the other
files leave open: the extra harm of a Yithian Observer when Aquinnah redirects the attack,
which seat damaged an enemy, an attack by the enemy that is card 1 while nothing is being
redirected, and an asset's sanity at its lowest."""

from __future__ import annotations

from typing import Any

from tcgcore_arkham_card import scenario
from tcgcore_arkham_card.testkit import (
    answer,
    desc,
    enemy,
    events,
    investigator,
    keys,
    kind,
    st,
)

DECK = ["t_guts"] * 6


def inv(code: str = "t_inv_guard", **kw: Any) -> dict[str, Any]:
    return investigator(code, kw.pop("deck", DECK), **kw)


def test_A978_9_A994_4_aquinnah_redirects_a_yithian_observers_attack_with_its_extra_harm() -> None:
    """Yithian Observer (01177) attacks an investigator with an empty hand, so the attack deals
    1 more damage and 1 more horror (A994.4); Aquinnah (01082) sends the damage, 1 + 1, to the
    exhausted Night Stalker at the location, and the investigator still takes the horror,
    1 + 1."""
    m = scenario(desc(inv("01005", deck=["01089"] * 6, assets=["01082"]), phase="enemy",
                      enemies=[{"code": "01177", "engaged": 0},
                               {"code": "t_stalker", "location": "t_loc_a", "exhausted": True}]))
    assert st(m).zones["hand.0"].cards == []
    assert kind(m) == "use_trigger"
    answer(m, "yes")  # exhaust Aquinnah, 1 horror on her
    aq = enemy(m, "01082")
    while kind(m) == "assign_horror":  # every point on the investigator
        answer(m, "inv")
    stalker = enemy(m, "t_stalker")
    assert st(m).cards[stalker].counters["damage"] == 2  # health 3: still in play
    assert [(e.player, e.card, e.amount) for e in events(m, "enemy_damaged")] == [(0, stalker, 2)]
    assert st(m).inv[0].horror == 2 and st(m).inv[0].damage == 0
    assert st(m).cards[aq].counters == {"horror": 1}
    assert st(m).cards[enemy(m, "01177")].counters.get("damage", 0) == 0


def test_A615_enemy_damaged_names_the_seat_that_dealt_it_seat_1_too() -> None:
    """The second investigator (seat 1) fights and damages the Ghoul without defeating it:
    the Ghoul holds the damage and ``enemy_damaged`` names seat 1 as the player."""
    m = scenario(desc(inv(), inv("t_inv_seeker"), tokens=["+1"],
                      enemies=[{"code": "t_ghoul", "engaged": 1}]))
    answer(m, "inv:1")  # seat 1 takes the first turn
    ghoul = enemy(m, "t_ghoul")
    answer(m, f"fight:{ghoul}")
    if kind(m) == "commit":
        answer(m)
    assert st(m).cards[ghoul].counters["damage"] == 1
    assert [(e.player, e.card, e.amount) for e in events(m, "enemy_damaged")] == [(1, ghoul, 1)]


def test_A417_4_an_enemy_that_is_card_1_deals_its_own_attack_to_the_investigator() -> None:
    """With one location (card 0) and Test Ghoul Lord set aside (card 1), advancing the act
    spawns the Lord, which engages; its enemy-phase attack, with nothing redirected and no
    limit held, puts its 2 damage and 2 horror on the investigator and none on itself (no
    card is taken for the redirect target that was never set)."""
    m = scenario({"investigators": [inv(clues=2, location="t_loc_vault")],
                  "locations": [{"code": "t_loc_vault"}], "acts": ["t_act1", "t_act2"],
                  "set_aside": ["t_boss"]})
    assert st(m).cards[1].code == "t_boss"
    answer(m, "advance_act")
    assert st(m).cards[1].zone == "threat.0" and st(m).inv[0].limits == {}
    answer(m, "end_turn")
    while kind(m) in ("assign_damage", "assign_horror"):
        answer(m, "inv")
    assert kind(m) == "action"
    assert (st(m).inv[0].damage, st(m).inv[0].horror) == (2, 2)
    assert "damage" not in st(m).cards[1].counters


def _husk(sanity: int) -> dict[str, Any]:
    return {"code": "x_husk", "name": "Test Hollow Husk", "type_code": "asset", "cost": 0,
            "traits": "Ally.", "slot": "Ally", "health": 2, "sanity": sanity}


def test_A205_2_an_asset_of_sanity_0_is_defeated_when_it_takes_damage_with_no_horror() -> None:
    """A described ally with health 2 and sanity 0 takes the Ghoul's 1 damage: it holds no
    horror, and 0 horror is its sanity, so it is defeated (A205.2); with sanity 1 the same
    point leaves it in play."""
    for sanity, zone in ((0, "discard.0"), (1, "play.0")):
        m = scenario(desc(inv(assets=["x_husk"]), cards=[_husk(sanity)], phase="enemy",
                          enemies=[{"code": "t_ghoul", "engaged": 0}]))
        husk = enemy(m, "x_husk")
        assert kind(m) == "assign_damage" and keys(m) == ["inv", f"asset:{husk}"]
        answer(m, f"asset:{husk}")
        while kind(m) == "assign_horror":
            answer(m, "inv")
        assert st(m).cards[husk].zone == zone, sanity
        assert st(m).inv[0].damage == 0 and st(m).inv[0].horror == 1
