"""The 22 core experience cards (levels 1-5, A978), each played in a small described
scenario."""

from __future__ import annotations

from typing import Any

import pytest
from tcgcore_arkham_card import card_pool, scenario
from tcgcore_arkham_card.decks import DeckList, deck_problems
from tcgcore_arkham_card.queries import skill_value
from tcgcore_arkham_card.testkit import (
    activate_card as activate,
)
from tcgcore_arkham_card.testkit import (
    answer,
    codes_in,
    commit_none,
    desc,
    enemy,
    events,
    investigator,
    keys,
    kind,
    pass_until,
    pending,
    st,
)
from tcgcore_arkham_card.testkit import (
    play_card as play,
)

DECK = ["01089"] * 6

XP_CODES = ["01026", "01027", "01028", "01029", "01040", "01041", "01042", "01043", "01054",
            "01055", "01056", "01057", "01068", "01069", "01070", "01071", "01082", "01083",
            "01084", "01085", "01094", "01095"]


def inv(code: str = "01001", **kw: Any) -> dict[str, Any]:
    return investigator(code, DECK, **kw)


def test_A978_1_experience_card_data() -> None:
    pool = card_pool()
    xp = sorted(c for c, d in pool.items() if (d.xp or 0) > 0 and not c.startswith("t"))
    assert xp == XP_CODES
    levels = {c: pool[c].xp for c in xp}
    assert levels["01029"] == 4 and levels["01043"] == 4 and levels["01094"] == 3
    assert all(pool[c].text for c in xp)
    # the copy limit counts titles: Beat Cop 01018 + 01028 share one limit of 2
    problems = deck_problems(DeckList(investigator="01001", slots={"01018": 2, "01028": 1}))
    assert any("Beat Cop" in p for p in problems)
    # Roland: Guardian 0-5, Seeker 0-2 -> Shotgun (4) allowed, Cryptic Research (4) not
    problems = deck_problems(DeckList(investigator="01001", slots={"01029": 1, "01043": 1}))
    assert any("Cryptic Research" in p for p in problems)
    assert not any("Shotgun" in p for p in problems)


def test_A978_2_shotgun_damage_by_margin() -> None:
    m = scenario(desc(inv(assets=["01029"]), tokens=["+1"],
                      enemies=[{"code": "01116", "engaged": 0}]))
    activate(m, "01029")  # 4 + 3 + 1 = 8 vs 4: succeeds by 4
    assert st(m).cards[enemy(m, "01116")].counters["damage"] == 4
    assert st(m).cards[enemy(m, "01029")].counters["uses"] == 1
    m2 = scenario(desc(inv(assets=["01029"]), tokens=["-8"],
                       enemies=[{"code": "01116", "engaged": 0}]))
    activate(m2, "01029")  # a miss: no damage
    assert not st(m2).cards[enemy(m2, "01116")].counters.get("damage")


def test_A978_3_encyclopedia_phase_bonus() -> None:
    m = scenario(desc(inv("01002", assets=["01042"])))
    activate(m, "01042")
    assert kind(m) == "choose_skill"  # any of the four skills (A978.3)
    answer(m, "skill:intellect")
    assert skill_value(st(m), 0, "intellect") == 5 + 2
    assert st(m).cards[enemy(m, "01042")].exhausted


def test_A978_4_allies_badge_and_resources() -> None:
    m = scenario(desc(inv(assets=["01028"]), enemies=[{"code": "01116", "engaged": 0}]))
    assert skill_value(st(m), 0, "combat") == 5
    activate(m, "01028")  # Beat Cop (2): exhaust, 1 damage on it, 1 to the enemy
    cop = st(m).cards[enemy(m, "01028")]
    assert cop.exhausted and cop.counters["damage"] == 1
    assert st(m).cards[enemy(m, "01116")].counters["damage"] == 1
    m2 = scenario(desc(inv(assets=["01027"])))
    assert skill_value(st(m2), 0, "willpower") == 4
    actions = st(m2).inv[0].actions
    activate(m2, "01027")  # Police Badge: discard for 2 more actions
    assert st(m2).inv[0].actions == actions + 2 and "01027" in codes_in(m2, "discard.0")
    m3 = scenario(desc(inv("01003", hand=["01057", "01043"], resources=3)))
    play(m3, "01057")  # Hot Streak
    assert st(m3).inv[0].resources == 10
    hand = len(codes_in(m3, "hand.0"))
    play(m3, "01043")  # Cryptic Research: draw 3
    assert len(codes_in(m3, "hand.0")) == hand - 1 + 3
    m4 = scenario(desc(inv("01003", assets=["01055"]),
                       enemies=[{"code": "t_ghoul", "engaged": 0}]))
    assert skill_value(st(m4), 0, "agility") == 5
    activate(m4, "01055")  # Cat Burglar: disengage and move, no attack of opportunity
    answer(m4, next(k for k in keys(m4) if k.startswith("location:")))
    assert not events(m4, "enemy_attacks")
    assert st(m4).inv[0].location != enemy(m4, "t_loc_a")
    m5 = scenario(desc(inv(assets=["01016"], hand=["01026"], resources=5)))
    play(m5, "01026")  # Extra Ammunition: +3 ammo on the .45 Automatic
    assert st(m5).cards[enemy(m5, "01016")].counters["uses"] == 4 + 3
    m6 = scenario(desc(inv("01004", assets=["01070", "01060"])))
    activate(m6, "01070")  # Book of Shadows: +1 charge on Shrivelling
    assert st(m6).cards[enemy(m6, "01060")].counters["uses"] == 4 + 1
    assert card_pool()["01070"].bonus["slot:arcane"] == 1
    assert card_pool()["01054"].bonus["actions"] == 1  # Leo De Luca (1)


def test_A978_5_lucky_and_sure_gamble_when_failing() -> None:
    m = scenario(desc(inv(hand=["01084"], resources=3), tokens=["-3"],
                      locations=[{"code": "t_loc_a", "clues": 2}]))
    answer(m, "investigate")  # 3 - 3 = 0 vs 2: would fail; +2 makes 2
    commit_none(m)  # A913.2
    assert kind(m) == "would_fail"
    hand = len(codes_in(m, "hand.0"))
    play(m, "01084")
    assert st(m).inv[0].clues == 1
    assert len(codes_in(m, "hand.0")) == hand - 1 + 1  # Lucky! (2) draws 1
    m2 = scenario(desc(inv("01003", hand=["01056"], resources=3), tokens=["-2"],
                       locations=[{"code": "t_loc_a", "clues": 2}]))
    answer(m2, "investigate")  # 3 - 2 = 1 vs 2; Sure Gamble: 3 + 2 = 5
    commit_none(m2)  # A913.2
    assert kind(m2) == "sure_gamble"  # after the negative token is revealed (A978.5)
    play(m2, "01056")
    assert st(m2).inv[0].clues == 1
    assert events(m2, "test_succeeded")[0].data["value"] == 5


def test_A978_6_mind_wipe_disc_and_close_call() -> None:
    from tcgcore_arkham_card.queries import dof
    m = scenario(desc(inv("01004", hand=["01068"], resources=3), phase="enemy",
                      enemies=[{"code": "t_stalker", "engaged": 0}]))
    assert f"fastplay:{enemy(m, '01068')}" not in keys(m)
    assert kind(m) == "use_trigger"  # Mind Wipe: after the enemy phase begins
    answer(m, "yes")
    sid = enemy(m, "t_stalker")
    assert st(m).cards[sid].counters.get("blank")
    assert dof(st(m), sid).keywords == () and dof(st(m), sid).traits == "Monster."
    pass_until(m, "action")  # the phase is over: its text is back
    assert dof(st(m), sid).keywords != ()
    m2 = scenario(desc(inv("01002", assets=["01041"]), phase="mythos", round=2,
                       encounter_deck=["t_ghoul"]))
    assert kind(m2) == "use_trigger"  # Disc of Itzamna: a non-Elite enemy spawns here
    answer(m2, "yes")
    assert "t_ghoul" in codes_in(m2, "encounter_discard") and "01041" in codes_in(m2, "discard.0")
    m3 = scenario(desc(inv("01003", hand=["01083"], resources=3), tokens=["0"],
                       enemies=[{"code": "t_ghoul", "engaged": 0}]))
    answer(m3, f"evade:{enemy(m3, 't_ghoul')}")  # agility 4 vs 2
    answer(m3)  # commit nothing
    assert kind(m3) == "use_trigger"  # Close Call: after it is evaded
    answer(m3, "yes")
    assert "t_ghoul" in codes_in(m3, "encounter")


def test_A978_7_grotesque_statue_keeps_the_better_token() -> None:
    m = scenario(desc(inv("01004", assets=["01071"]), tokens=["-4", "+1"],
                      locations=[{"code": "t_loc_a", "clues": 2}]))
    answer(m, "investigate")
    answer(m, "use")
    assert keys(m) == ["token:0", "token:1"] and pending(m).options[0].label == "+1"
    answer(m, "token:0")  # the tester chooses the token to resolve
    assert events(m, "statue_used")
    assert st(m).cards[enemy(m, "01071")].counters["uses"] == 3
    assert st(m).inv[0].clues == 1  # 2 + 1 vs 2


def test_A978_8_will_to_survive_and_blinding_light_2() -> None:
    m = scenario(desc(inv("01005", hand=["01085"], resources=5), tokens=["auto_fail"],
                      locations=[{"code": "t_loc_a", "clues": 2}]))
    play(m, "01085")
    answer(m, "investigate")  # no token: 3 vs 2
    assert st(m).inv[0].clues == 1 and not events(m, "token_revealed")
    m2 = scenario(desc(inv("01004", hand=["01069"], resources=3), tokens=["cultist"],
                       enemies=[{"code": "01116", "engaged": 0}]))
    play(m2, "01069")  # willpower 5 - 1 vs 4: 2 damage; symbol: -1 action, 1 horror
    assert st(m2).cards[enemy(m2, "01116")].counters.get("damage") == 2
    assert st(m2).inv[0].horror == 1


def test_A978_9_soak_assets() -> None:
    pool = card_pool()
    assert pool["01094"].health == 4 and pool["01094"].slots() == ["body"]
    assert pool["01095"].sanity == 4 and pool["01095"].slots() == ["accessory"]
    assert pool["01082"].sanity == 4 and not pool["01082"].partial
    m = scenario(desc(inv(assets=["01094", "01095"]), phase="enemy",
                      enemies=[{"code": "t_ghoul", "engaged": 0}]))
    assert kind(m) == "assign_damage"
    answer(m, f"asset:{enemy(m, '01094')}")
    assert kind(m) == "assign_horror"
    answer(m, f"asset:{enemy(m, '01095')}")
    assert st(m).cards[enemy(m, "01094")].counters["damage"] == 1
    assert st(m).cards[enemy(m, "01095")].counters["horror"] == 1
    assert st(m).inv[0].damage == 0 and st(m).inv[0].horror == 0


@pytest.mark.parametrize("deck", ["roland", "daisy", "skids", "agnes", "wendy"])
def test_A978_1_upgraded_decks_play_the_gathering(deck: str) -> None:
    import io

    from tcgcore_arkham_card.campaign_runner import run_campaign, start_campaign
    from tcgcore_arkham_card.campaign_tools import upgrade_policy

    camp = start_campaign([deck], seed=7)
    camp.investigators[0].xp = 30
    camp = upgrade_policy(camp, 0)
    assert sum(1 for c in camp.investigators[0].deck if card_pool()[c].xp) >= 5
    after, played = run_campaign(camp, ["01104"], seed=7, out=io.StringIO(),
                                 inp=io.StringIO())
    assert after.played == ["01104:" + played[0][1]]
    assert len(played) == 1 and played[0][1] in ("R1", "R2", "R3", "R-none")
