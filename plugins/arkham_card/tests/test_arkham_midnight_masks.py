"""The Midnight Masks (scenario 01120): setup by player count and campaign log, every
location ability, the act and agendas, the Cultist deck, the new encounter cards,
resolutions and the campaign-log entries they write (A981-A985), plus seeded playouts."""

from __future__ import annotations

from typing import Any

import pytest
from tcgcore_arkham_card import scenario
from tcgcore_arkham_card.agent import HeuristicAgent
from tcgcore_arkham_card.midnight_masks import CULTIST_DECK
from tcgcore_arkham_card.queries import enemy_health
from tcgcore_arkham_card.skill_tests import token_modifier
from tcgcore_arkham_card.testkit import (
    answer,
    codes_in,
    enemy,
    keys,
    kind,
    loc,
    pass_until,
    result,
    st,
    where,
)

import tcgcore
from tcgcore.testing import random_playout_check

INVS = ["t_inv_guard", "t_inv_seeker", "t_inv_rogue", "t_inv_mystic"]
DECK = ["t_guts"] * 10
TOWN = [{"code": c} for c in ("01124", "01125", "01126", "01128", "01129", "01130", "01132",
                              "01133", "01134")]
BURNED = "your house has burned to the ground"
ALIVE = "the Ghoul Priest is still alive"


def mm(players: int = 1, seed: int = 0, log: tuple[str, ...] = (), **opts: Any
       ) -> tcgcore.Match[Any]:
    """The real scenario with test investigators, past the mulligans."""
    m = tcgcore.new_match("arkham_card", seed=seed, players=players, scenario="01120",
                          investigators=INVS[:players], log=list(log), **opts)
    while kind(m) == "mulligan":
        answer(m)
    return m


def inv(where: str = "01125", code: str = "t_inv_guard", **kw: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"code": code, "location": where, "deck": DECK}
    out.update(kw)
    return out


def town(*invs: dict[str, Any], **kw: Any) -> dict[str, Any]:
    d: dict[str, Any] = {"investigators": list(invs) or [inv()], "locations": TOWN,
                         "acts": ["01123"], "agendas": ["01121", "01122"]}
    d.update(kw)
    return d


def act_key(m: tcgcore.Match[Any], code: str, index: int = 0) -> str:
    cid = loc(m, code) if code < "01135" and code >= "01124" else enemy(m, code)
    return f"activate:{cid}:{index}"


# ---------------------------------------------------------------------------- A981 setup


def test_A981_1_A981_2_A981_3_setup_is_seeded_and_reveals_the_town() -> None:
    picks = set()
    for seed in range(8):
        a, b = mm(seed=seed), mm(seed=seed)
        assert sorted(codes_in(a, "locations")) == sorted(codes_in(b, "locations"))
        locs = codes_in(a, "locations")
        assert len(locs) == 9
        down = [c for c in locs if c in ("01130", "01131")]
        south = [c for c in locs if c in ("01126", "01127")]
        assert len(down) == 1 and len(south) == 1
        picks.add((down[0], south[0]))
        state = st(a)
        for lid in state.zones["locations"].cards:
            assert state.cards[lid].counters.get("revealed") == 1
        assert state.cards[loc(a, "01129")].counters["clues"] == 2  # 2 per investigator
    assert len(picks) > 1  # the pick depends on the seed
    m = mm(seed=1)
    state = st(m)
    rivertown = loc(m, "01125")
    assert sorted(state.cards[x].code for x in state.adj[str(rivertown)]) == sorted(
        c for c in codes_in(m, "locations")
        if c in ("01124", "01126", "01127", "01129", "01132", "01133"))


def test_A981_4_starting_location_follows_the_log() -> None:
    standing = mm(players=2)
    assert {st(standing).inv[s].location for s in (0, 1)} == {loc(standing, "01124")}
    burned = mm(players=2, log=(BURNED,))
    assert "01124" not in codes_in(burned, "locations") and "01124" in codes_in(burned, "out")
    assert {st(burned).inv[s].location for s in (0, 1)} == {loc(burned, "01125")}


def test_A981_5_cultist_deck_is_separate_shuffled_and_hidden() -> None:
    orders = {tuple(codes_in(mm(seed=s), "cultists")) for s in range(6)}
    assert all(sorted(o) == sorted(CULTIST_DECK) for o in orders) and len(orders) > 1
    m = mm()
    assert not set(CULTIST_DECK) & set(codes_in(m, "encounter"))
    zone = next(z for z in m.view(0).zones if z.id == "cultists")
    assert all(c is None or c.code is None for c in zone.cards)


@pytest.mark.parametrize("players,spots", [(1, []), (2, ["Southside"]),
                                           (3, ["Southside", "Downtown"]),
                                           (4, ["Southside", "Downtown", "Graveyard"])])
def test_A981_6_acolytes_by_player_count(players: int, spots: list[str]) -> None:
    m = mm(players=players)
    state = st(m)
    acolytes = [c for c in state.cards if c.code == "01169" and c.zone.startswith("at.")]
    names = sorted(state.cards[int(c.zone[3:])].code for c in acolytes)
    wanted = sorted(next(x for x in codes_in(m, "locations")
                         if state.cards[loc(m, x)].code == x and _name(m, x) == s)
                    for s in spots)
    assert names == wanted
    assert all(c.counters.get("doom") == 1 for c in acolytes)
    assert len(state.zones["encounter"].cards) == 21 - len(spots)


def _name(m: tcgcore.Match[Any], code: str) -> str:
    from tcgcore_arkham_card.queries import cdef

    return cdef(st(m), code).name


def test_A981_7_ghoul_priest_decks_and_set_aside() -> None:
    m = mm(log=(ALIVE,))
    assert codes_in(m, "encounter").count("01116") == 1
    assert len(codes_in(m, "encounter")) == 22
    assert "01116" not in codes_in(mm(), "encounter")
    assert codes_in(m, "agendas") == ["01121", "01122"] and codes_in(m, "acts") == ["01123"]
    assert codes_in(m, "setaside") == ["01121b"]


# ---------------------------------------------------------------------------- A982 locations


def test_A982_1_your_house_spawns_the_ghoul_priest_and_gives_a_card_and_a_resource() -> None:
    m = scenario(town(inv("01125"), phase="mythos", round=2, encounter_deck=["01116"]))
    assert where(m, enemy(m, "01116")) == loc(m, "01124")
    m = scenario(town(inv("01124", resources=0)))
    key = act_key(m, "01124")
    answer(m, key)
    assert st(m).inv[0].resources == 1 and len(codes_in(m, "hand.0")) == 1
    assert key not in keys(m)  # once per turn


def test_A982_2_acolyte_spawns_empty_with_doom() -> None:
    m = scenario(town(inv("01125"), phase="mythos", round=2, encounter_deck=["01169"]))
    assert kind(m) == "spawn_location"
    assert f"loc:{loc(m, '01125')}" not in keys(m)  # an investigator is there
    answer(m, f"loc:{loc(m, '01134')}")
    acolyte = enemy(m, "01169")
    assert where(m, acolyte) == loc(m, "01134") and st(m).cards[acolyte].counters["doom"] == 1


def test_A982_3_wizard_gains_doom_when_the_mythos_phase_ends() -> None:
    m = scenario(town(inv("01125"), phase="mythos", round=2, encounter_deck=["01170"]))
    answer(m, f"loc:{loc(m, '01134')}")
    wizard = enemy(m, "01170")
    assert st(m).cards[wizard].counters.get("doom") == 1
    assert kind(m) == "action"  # the investigation phase follows


def test_A982_4_easttown_discount_and_once_per_game_location_actions() -> None:
    m = scenario(town(inv("01132", hand=["t_dog"], resources=1)))
    dog = enemy(m, "t_dog")
    assert f"play:{dog}" in keys(m)
    answer(m, f"play:{dog}")
    assert st(m).inv[0].resources == 0 and "t_dog" in codes_in(m, "play.0")
    m = scenario(town(inv("01125", hand=["t_dog"], resources=1)))
    assert f"play:{enemy(m, 't_dog')}" not in keys(m)
    # Historical Society: draw 3, once per game
    m = scenario(town(inv("01126")))
    answer(m, act_key(m, "01126"))
    assert len(codes_in(m, "hand.0")) == 3 and act_key(m, "01126") not in keys(m)
    # Ma's Boarding House: an Ally from the deck
    m = scenario({**town(inv("01127", deck=["t_guts", "t_guts", "t_dog", "t_guts"])),
                  "locations": [{"code": "01127"}, {"code": "01125"}]})
    answer(m, act_key(m, "01127"))
    assert codes_in(m, "hand.0") == ["t_dog"]
    # St. Mary's heals damage, the Asylum horror, the Bank gives resources
    m = scenario(town(inv("01128", damage=4)))
    answer(m, act_key(m, "01128"))
    assert st(m).inv[0].damage == 1 and act_key(m, "01128") not in keys(m)
    assert act_key(scenario(town(inv("01128"))), "01128") not in keys(
        scenario(town(inv("01128"))))  # nothing to heal
    m = scenario({**town(inv("01131", horror=2)), "locations": [{"code": "01131"}]})
    answer(m, act_key(m, "01131"))
    assert st(m).inv[0].horror == 0
    m = scenario(town(inv("01130", resources=0)))
    answer(m, act_key(m, "01130"))
    assert st(m).inv[0].resources == 3 and act_key(m, "01130") not in keys(m)


def test_A982_5_miskatonic_university_finds_a_tome_or_spell() -> None:
    deck = ["t_guts", "t_guts", "01060", "t_guts", "t_guts", "t_guts", "01031"]
    m = scenario(town(inv("01129", deck=deck)))
    answer(m, act_key(m, "01129"))
    assert codes_in(m, "hand.0") == ["01060"] and len(codes_in(m, "deck.0")) == 6
    assert act_key(m, "01129") in keys(m)  # no limit


def test_A982_6_graveyard_forced_test() -> None:
    m = scenario(town(inv("01125"), tokens=["auto_fail"]))
    answer(m, f"move:{loc(m, '01133')}")
    pass_until(m, "choose_effect")
    answer(m, "b")
    assert st(m).inv[0].location == loc(m, "01125") and st(m).inv[0].horror == 0
    m = scenario(town(inv("01125"), tokens=["auto_fail"]))
    answer(m, f"move:{loc(m, '01133')}")
    pass_until(m, "choose_effect")
    answer(m, "a")
    assert st(m).inv[0].location == loc(m, "01133") and st(m).inv[0].horror == 2
    m = scenario(town(inv("01125"), tokens=["+1"]))
    answer(m, f"move:{loc(m, '01133')}")
    pass_until(m, "action")
    assert st(m).inv[0].horror == 0 and st(m).inv[0].location == loc(m, "01133")


def test_A982_7_northside_group_limit() -> None:
    m = scenario(town(inv("01134", resources=6), inv("01134", "t_inv_seeker", resources=6)))
    key = act_key(m, "01134")
    seat = m.pending.player if m.pending else 0
    if kind(m) == "turn_order":
        answer(m, keys(m)[0])
        seat = m.pending.player if m.pending else 0
    answer(m, key)
    assert st(m).inv[seat].clues == 2 and st(m).inv[seat].resources == 1
    assert key not in keys(m)
    pass_until(m, "action")
    assert key not in keys(m)  # the other investigator cannot use it either


def test_A982_8_A985_2_on_wings_of_darkness_moves_to_central_rivertown() -> None:
    m = scenario(town(inv("01134"), phase="mythos", round=2, encounter_deck=["01173"],
                      tokens=["auto_fail"],
                      enemies=[{"code": "01169", "engaged": 0},
                               {"code": "01172", "engaged": 0}]))
    pass_until(m, "action")
    state = st(m)
    assert state.inv[0].location == loc(m, "01125")
    assert state.inv[0].damage + state.inv[0].horror >= 2
    assert where(m, enemy(m, "01169")) == loc(m, "01134")  # left behind, unengaged
    assert state.cards[enemy(m, "01172")].zone == "threat.0"  # a Nightgaunt follows


# ---------------------------------------------------------------------------- A983 act/agendas


def test_A983_1_A984_2_masked_hunter_engages_the_most_clues_and_blocks_clues() -> None:
    """Predator or Prey? 01121 advances and brings The Masked Hunter 01121b, engaged with
    the investigator with the most clues, who then discovers nothing."""
    m = scenario(town(inv("01125", clues=1), inv("01129", "t_inv_seeker", clues=3),
                      phase="mythos", round=2, agenda_doom=5, set_aside=["01121b"],
                      tokens=["+1"]))
    hunter = enemy(m, "01121b")
    assert st(m).cards[hunter].zone == "threat.1"
    assert enemy_health(st(m), hunter) == 8  # 4 + 2 per investigator
    assert codes_in(m, "agendas") == ["01122"]
    pass_until(m, "action")
    if m.pending is not None and m.pending.player == 0:
        answer(m, "end_turn")
        pass_until(m, "action")
    before = st(m).inv[1].clues
    answer(m, "investigate")
    pass_until(m, "action")
    assert st(m).inv[1].clues == before  # engaged with the Hunter: nothing discovered


def test_A983_2_act_action_draws_from_the_cultist_deck() -> None:
    """Uncovering the Conspiracy 01123: spend 2 clues per investigator as a group to
    draw the top card of the Cultist deck."""
    m = mm(players=1, seed=3)
    state = st(m)
    act = state.zones["acts"].cards[0]
    assert f"activate:{act}:0" not in keys(m)  # not enough clues
    state.inv[0].clues = 3
    answer(m, "resource")  # a fresh decision sees the clues
    m2 = m
    top = codes_in(m2, "cultists")[0]
    answer(m2, f"activate:{act}:0")
    pass_until(m2, "action")
    assert st(m2).inv[0].clues == 1
    assert codes_in(m2, "cultists") and top not in codes_in(m2, "cultists")
    cid = enemy(m2, top)
    assert st(m2).cards[cid].zone.startswith(("at.", "threat.", "victory"))


def test_A983_3_A984_6_six_cultists_in_victory_advance_the_act() -> None:
    m = scenario(town(inv("01134", resources=5), victory=["01137", "01138", "01139", "01141",
                                                          "01121b"],
                      enemies=[{"code": "01140", "location": "01134", "exhausted": True}],
                      resolutions={"R1": "win", "R2": "loss"}))
    answer(m, act_key(m, "01140"))
    assert result(m).detail["resolution"] == "R1"


def test_A983_3_only_unique_cultists_count_toward_the_act() -> None:
    """Act 1 (01123) counts the different unique Cultist enemies in the victory display:
    four unique ones with an Acolyte and a Wizard of the Order (Cultists, not unique) and
    Victoria Devereux added are five, not enough; the act does not advance."""
    from tcgcore_arkham_card.queries import unique_trait_in_victory

    m = scenario(town(inv("01134", resources=5),
                      victory=["01137", "01138", "01139", "01141", "01169", "01170"],
                      enemies=[{"code": "01140", "location": "01134", "exhausted": True}],
                      resolutions={"R1": "win", "R2": "loss"}))
    answer(m, act_key(m, "01140"))
    assert unique_trait_in_victory(st(m), "Cultist") == ["01137", "01138", "01139", "01140",
                                                          "01141"]
    assert m.result is None and codes_in(m, "acts") == ["01123"]


def test_A983_4_a_scenario_defined_cultist_counts_for_the_skull() -> None:
    """The most doom on one Cultist in play (the skull, A983.4) counts an enemy the scenario
    defines itself, not only the card pool's."""
    from tcgcore_arkham_card.queries import max_doom_on_trait

    zealot = {"code": "x_zealot", "name": "Zealot", "type_code": "enemy", "traits": "Cultist.",
              "health": 2, "enemy_fight": 2, "enemy_evade": 2, "enemy_damage": 1,
              "enemy_horror": 1}
    m = scenario(town(inv(), cards=[zealot],
                      enemies=[{"code": "x_zealot", "location": "01132", "doom": 2}]))
    assert max_doom_on_trait(st(m), "Cultist") == 2


def test_A983_4_reference_card_tokens() -> None:
    m = mm(players=2, seed=2)
    state = st(m)
    assert token_modifier(state, 0, "skull") == -1  # an Acolyte with 1 doom
    m.engine.set_counter(enemy(m, "01169"), "doom", 3)
    assert token_modifier(state, 0, "skull") == -3
    assert token_modifier(state, 0, "cultist") == -2 and token_modifier(state, 0, "tablet") == -3
    hard = mm(players=2, seed=2, difficulty="hard")
    assert token_modifier(st(hard), 0, "skull") == -1  # all doom in play
    assert token_modifier(st(hard), 0, "tablet") == -4
    # Standard cultist token: 1 doom on the nearest Cultist; tablet: 1 clue to the location
    m = scenario(town(inv("01125", clues=2), tokens=["cultist"],
                      enemies=[{"code": "01169", "location": "01134"}],
                      token_effects={"cultist": {"modifier": -2, "on_reveal": [
                          {"op": "doom_nearest_trait", "trait": "Cultist", "amount": 1}]},
                          "tablet": {"modifier": -3, "on_fail": [
                              {"op": "clues_to_location", "amount": 1}]}}))
    answer(m, "investigate")
    pass_until(m, "action")
    assert st(m).cards[enemy(m, "01169")].counters["doom"] == 1
    m = scenario(town(inv("01125", clues=2), tokens=["tablet"],
                      token_effects={"tablet": {"modifier": -3, "on_fail": [
                          {"op": "clues_to_location", "amount": -1}]}}))
    answer(m, "investigate")
    pass_until(m, "action")
    assert st(m).inv[0].clues == 0 and st(m).cards[loc(m, "01125")].counters["clues"] == 3


HARD_CULTIST = {"cultist": {"modifier": -2, "on_reveal": [
    {"op": "doom_each_trait", "trait": "Cultist", "amount": 1,
     "on_fail": [{"op": "reveal_token"}]}]}}


def test_A983_4_hard_cultist_token() -> None:
    m = scenario(town(inv("01125"), tokens=["cultist", "+1"], token_effects=HARD_CULTIST,
                      enemies=[{"code": "01169", "location": "01134"},
                               {"code": "01170", "location": "01124"}]))
    answer(m, "investigate")
    pass_until(m, "action")
    assert [st(m).cards[enemy(m, c)].counters.get("doom") for c in ("01169", "01170")] == [1, 1]
    assert st(m).next_tokens == ["+1"]  # no second token
    m = scenario(town(inv("01125"), tokens=["cultist", "+1"], token_effects=HARD_CULTIST))
    answer(m, "investigate")
    pass_until(m, "action")
    assert st(m).next_tokens == []  # no Cultist in play: another token was revealed


def test_A984_2_hunting_shadow_with_the_hunter_engaged_is_damage() -> None:
    m = scenario(town(inv("01125", clues=2), phase="mythos", round=2, encounter_deck=["01135"],
                      enemies=[{"code": "01121b", "engaged": 0, "exhausted": True}]))
    assert kind(m) != "choose_effect"
    pass_until(m, "action")
    assert st(m).inv[0].clues == 2 and st(m).inv[0].damage >= 2


def test_A983_4_doom_on_cultists_advances_the_agenda() -> None:
    m = scenario(town(inv("01125"), phase="mythos", round=2, agenda_doom=3,
                      set_aside=["01121b"],
                      enemies=[{"code": "01169", "location": "01134", "doom": 2}]))
    assert codes_in(m, "agendas") == ["01122"]  # 3 + 1 + 2 doom = 6


def test_A983_5_A985_4_A985_5_midnight_is_resolution_2_with_its_log() -> None:
    m = mm(players=1, seed=5, log=(ALIVE,))
    state = st(m)
    first = state.zones["agendas"].cards.pop(0)  # as if agenda 1 had left play
    state.zones["out"].cards.append(first)
    m.engine.update_card(first, zone="out")
    ag = state.zones["agendas"].cards[0]
    assert state.cards[ag].code == "01122"
    m.engine.set_counter(ag, "doom", 7)
    answer(m, "resource")  # a fresh decision
    assert f"activate:{ag}:0" in keys(m)  # the agenda's resign action
    for _ in range(400):
        if m.pending is None:
            break
        c = m.pending
        m.choose(c.player, "end_turn" if "end_turn" in c.keys else
                 ([] if c.min == 0 else [c.options[0].key]))
    r = result(m)
    assert r.detail["resolution"] == "R2"
    log = str(r.detail["log"]).split("; ")
    assert "it is past midnight" in log
    assert sorted(e for e in log if e.startswith("cultists who got away: ")) == sorted(
        f"cultists who got away: {c}" for c in CULTIST_DECK)
    assert "cultists who got away: 01121b" not in log  # not in play, agenda 1 is gone
    assert r.detail["xp"] == r.detail["victory"]


def test_A985_4_A985_5_resigning_writes_resolution_1_entries() -> None:
    m = mm(players=1, seed=4, log=(ALIVE,))
    state = st(m)
    ag = state.zones["agendas"].cards[0]
    priest = next(c.id for c in state.cards if c.code == "01116")
    m.state.zones["encounter"].cards.remove(priest)
    m.state.zones["victory"].cards.append(priest)
    m.engine.update_card(priest, zone="victory")
    peter = next(c.id for c in state.cards if c.code == "01139")
    m.state.zones["cultists"].cards.remove(peter)
    m.state.zones["victory"].cards.append(peter)
    m.engine.update_card(peter, zone="victory")
    answer(m, f"activate:{ag}:0")
    r = result(m)
    assert r.reason == "no_resolution" and r.detail["resolution"] == "R-none"
    log = str(r.detail["log"]).split("; ")
    assert "cultists we interrogated: 01139" in log
    assert "cultists who got away: 01121b" in log  # agenda 1 still current
    assert "cultists who got away: 01139" not in log and "it is past midnight" not in log
    assert r.detail["cross_out"] == ALIVE
    assert r.detail["xp"] == r.detail["victory"]
    assert int(str(r.detail["victory"])) >= 3  # Ghoul Priest 2 + Peter 1
    assert st(m).log_out.count("cultists we interrogated: 01139") == 1


def _put(m: tcgcore.Match[Any], code: str, zone: str) -> int:
    """Move the first card ``code`` to ``zone`` directly (test set-up only)."""
    state = st(m)
    cid = next(c.id for c in state.cards if c.code == code)
    state.zones[state.cards[cid].zone].cards.remove(cid)
    state.zones[zone].cards.append(cid)
    m.engine.update_card(cid, zone=zone)
    return cid


def test_A983_3_A985_4_A985_5_resolution_1_log_in_the_real_scenario() -> None:
    m = mm(players=1, seed=6)
    for code in ("01137", "01138", "01139", "01141"):
        _put(m, code, "victory")
    _put(m, "01121b", "victory")
    north = loc(m, "01134")
    victoria = _put(m, "01140", f"at.{north}")
    m.engine.update_card(victoria, exhausted=True)
    st(m).inv[0].location = north
    st(m).inv[0].resources = 5
    answer(m, "draw")  # a fresh decision at Northside
    answer(m, f"activate:{victoria}:0")
    r = result(m)
    assert r.detail["resolution"] == "R1" and r.detail["outcome"] == "win"
    log = str(r.detail["log"]).split("; ")
    assert sorted(log) == sorted(f"cultists we interrogated: {c}"
                                 for c in (*CULTIST_DECK, "01121b"))
    assert "cross_out" not in r.detail


# ---------------------------------------------------------------------------- A984 cultists


def test_A984_1_cultists_spawn_at_their_locations() -> None:
    for code, where_code in (("01137", "01130"), ("01138", "01133"), ("01139", "01129"),
                             ("01140", "01134"), ("01141", "01128")):
        m = scenario(town(inv("01125"), phase="mythos", round=2, encounter_deck=[code]))
        assert where(m, enemy(m, code)) == loc(m, where_code), code


def test_A984_3_mysterious_chanting() -> None:
    m = scenario(town(inv("01125"), phase="mythos", round=2, encounter_deck=["01171"],
                      enemies=[{"code": "01169", "location": "01124"},
                               {"code": "01170", "location": "01134"}]))
    state = st(m)
    assert state.cards[enemy(m, "01169")].counters.get("doom") == 2  # nearest
    assert state.cards[enemy(m, "01170")].counters.get("doom") == 1  # its own forced only
    m = scenario(town(inv("01125"), phase="mythos", round=2, encounter_deck=["01171"],
                      enemies=[{"code": "01169", "location": "01124"},
                               {"code": "01169", "location": "01133"}]))
    assert kind(m) == "choose_enemy"  # both one move away: the lead chooses
    second = enemy(m, "01169", 1)
    answer(m, f"card:{second}")
    assert st(m).cards[second].counters.get("doom") == 2
    assert not st(m).cards[enemy(m, "01169")].counters.get("doom")
    m = scenario(town(inv("01125"), phase="mythos", round=2, encounter_deck=["01171"],
                      encounter_discard=["01169"]))
    if kind(m) == "spawn_location":
        answer(m, keys(m)[0])
    assert st(m).cards[enemy(m, "01169")].zone.startswith("at.")


def test_A984_4_ruth_turner_goes_to_victory_when_evaded() -> None:
    m = scenario(town(inv("01128", code="t_inv_rogue"), enemies=[{"code": "01141", "engaged": 0}],
                      tokens=["+1"]))
    answer(m, f"evade:{enemy(m, '01141')}")
    pass_until(m, "action")
    assert "01141" in codes_in(m, "victory")


def test_A984_4_ruth_turner_goes_to_victory_when_evaded_without_a_test() -> None:
    m = scenario(town(inv("01128", code="t_inv_rogue", hand=["01078"], resources=5),
                      enemies=[{"code": "01141", "engaged": 0}]))
    answer(m, next(k for k in keys(m) if k.startswith(("play:", "fastplay:"))))
    pass_until(m, "action")
    assert "01141" in codes_in(m, "victory")  # Cunning Distraction evades her too


def test_A984_5_wolf_man_drew_heals_after_attacking() -> None:
    m = scenario(town(inv("01130"), phase="enemy",
                      enemies=[{"code": "01137", "engaged": 0, "damage": 2}]))
    pass_until(m, "action")
    assert st(m).cards[enemy(m, "01137")].counters.get("damage") == 1
    assert st(m).inv[0].damage == 2


def test_A984_6_parley_actions() -> None:
    m = scenario(town(inv("01133", hand=["t_guts"] * 5),
                      enemies=[{"code": "01138", "location": "01133", "exhausted": True}]))
    answer(m, act_key(m, "01138"))
    assert kind(m) == "hand_size"
    answer(m, *keys(m)[:4])
    assert "01138" in codes_in(m, "victory") and len(codes_in(m, "hand.0")) == 1
    m = scenario(town(inv("01133", hand=["t_guts"] * 3),
                      enemies=[{"code": "01138", "location": "01133", "exhausted": True}]))
    assert act_key(m, "01138") not in keys(m)
    m = scenario(town(inv("01129", clues=2),
                      enemies=[{"code": "01139", "location": "01129", "exhausted": True}]))
    answer(m, act_key(m, "01139"))
    assert "01139" in codes_in(m, "victory") and st(m).inv[0].clues == 0
    m = scenario(town(inv("01134", resources=4),
                      enemies=[{"code": "01140", "location": "01134", "exhausted": True}]))
    assert act_key(m, "01140") not in keys(m)


def test_A984_7_hunting_shadow() -> None:
    m = scenario(town(inv("01125", clues=1), phase="mythos", round=2, encounter_deck=["01135"]))
    assert kind(m) == "choose_effect"
    answer(m, "a")
    assert st(m).inv[0].clues == 0 and st(m).inv[0].damage == 0
    m = scenario(town(inv("01125"), phase="mythos", round=2, encounter_deck=["01135"]))
    pass_until(m, "action")
    assert st(m).inv[0].damage == 2


def test_A984_8_false_lead() -> None:
    m = scenario(town(inv("01125"), phase="mythos", round=2, encounter_deck=["01136", "01135"]))
    pass_until(m, "action")
    assert st(m).inv[0].damage == 2  # surged into Hunting Shadow
    m = scenario(town(inv("01125", clues=3), phase="mythos", round=2,
                      encounter_deck=["01136"], tokens=["0"]))
    pass_until(m, "action")
    assert st(m).inv[0].clues == 2 and st(m).cards[loc(m, "01125")].counters["clues"] == 2


# ---------------------------------------------------------------------------- A985 encounter


def test_A985_1_hunting_nightgaunt_doubles_negative_modifiers_on_evade() -> None:
    m = scenario(town(inv("01125", code="t_inv_rogue"),
                      enemies=[{"code": "01172", "engaged": 0}], tokens=["-2"]))
    answer(m, f"evade:{enemy(m, '01172')}")
    pass_until(m, "action")
    assert st(m).cards[enemy(m, "01172")].zone == "threat.0"  # 4 - 4 = 0 < 1: failed
    m = scenario(town(inv("01125", code="t_inv_rogue"),
                      enemies=[{"code": "01172", "engaged": 0}], tokens=["-1"]))
    answer(m, f"evade:{enemy(m, '01172')}")
    pass_until(m, "action")
    assert st(m).cards[enemy(m, "01172")].zone.startswith("at.")


def test_A985_3_locked_door() -> None:
    m = scenario(town(inv("01125"), phase="mythos", round=2, encounter_deck=["01174"]))
    door = enemy(m, "01174")
    assert kind(m) == "spawn_location"  # 2 clues each at three locations: the lead chooses
    assert sorted(keys(m)) == sorted(f"card:{loc(m, c)}" for c in ("01129", "01133", "01134"))
    answer(m, f"card:{loc(m, '01133')}")
    assert st(m).cards[door].zone == f"at.{loc(m, '01133')}"
    m = scenario(town(inv("01129"), phase="mythos", round=2, encounter_deck=["01174"],
                      locations=[{"code": "01129", "clues": 3}, {"code": "01125"}],
                      tokens=["+1"]))
    pass_until(m, "action")
    assert "investigate" not in keys(m)
    door = enemy(m, "01174")
    answer(m, f"activate:{door}:0")
    pass_until(m, "action")
    assert "01174" in codes_in(m, "encounter_discard") and "investigate" in keys(m)


# ---------------------------------------------------------------------------- playouts


@pytest.mark.parametrize("players", [1, 2])
def test_A981_1_random_playouts_finish_and_round_trip(players: int) -> None:
    report = random_playout_check("arkham_card", seeds=range(12), players=players,
                                  options={"scenario": "01120", "log": [ALIVE]}, check_every=6)
    assert report.games == 12
    assert set(report.reasons) <= {"resolution", "all_defeated", "no_resolution"}


@pytest.mark.parametrize("players", [1, 2])
def test_A983_2_heuristic_playouts_finish_with_a_result(players: int) -> None:
    report = random_playout_check(
        "arkham_card", seeds=range(6), players=players,
        options={"scenario": "01120", "log": [BURNED]}, check_every=10,
        agents=lambda seed, seat: HeuristicAgent(seed * 10 + seat))
    assert report.games == 6
    assert set(report.reasons) <= {"resolution", "all_defeated", "no_resolution"}
