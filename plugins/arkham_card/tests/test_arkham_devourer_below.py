"""The Devourer Below (scenario 01142): setup from the campaign log, the Arkham Woods,
agendas, acts, Umôrdhoth, the Agents sets, chaos tokens and resolutions (A991–A995)."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from tcgcore_arkham_card import new_campaign, record_scenario, scenario
from tcgcore_arkham_card.cards import load_scenario
from tcgcore_arkham_card.devourer_below import check_pool, starting_doom
from tcgcore_arkham_card.queries import enemy_health, inv_sanity, skill_value
from tcgcore_arkham_card.testkit import (
    answer,
    codes_in,
    commit_none,
    enemy,
    events,
    keys,
    kind,
    loc,
    pass_until,
    result,
    st,
    who,
)

import tcgcore
from tcgcore.testing import random_playout_check

DECK = ["t_guts"] * 12
WOODS = ["01150", "01151", "01152", "01153", "01154", "01155"]
WOODS_BACK = "01150u"
AGENTS = {"agents_of_yog": {"01177", "01178"}, "agents_of_shub": {"01179", "01180"},
          "agents_of_cthulhu": {"01181", "01182"}, "agents_of_hastur": {"01175", "01176"}}
WIN = {"R1": "win", "R2": "win", "R3": "win", "R-none": "loss"}
GOT_AWAY = "cultists who got away: "


def inv(code: str = "t_inv_guard", where: str = "01149", **kw: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"code": code, "location": where, "deck": DECK}
    out.update(kw)
    return out


def woods(*invs: dict[str, Any], revealed: tuple[str, ...] = tuple(WOODS),
          extra: tuple[str, ...] = (), **kw: Any) -> dict[str, Any]:
    locs: list[dict[str, Any]] = [{"code": "01149"}]
    locs += [{"code": c, "revealed": c in revealed} for c in WOODS]
    locs += [{"code": c} for c in extra]
    d: dict[str, Any] = {"investigators": list(invs) or [inv()], "locations": locs,
                         "resolutions": WIN, "encounter_deck": ["01166"] * 4}
    d.update(kw)
    return d


def tokens(side: str = "easy_standard") -> dict[str, Any]:
    out: dict[str, Any] = msgspec.to_builtins(load_scenario("01142").tokens[side])
    return out


def full(players: int = 1, seed: int = 1, **options: Any) -> tcgcore.Match[Any]:
    """A real 01142 match past the mulligans (nobody mulligans)."""
    m = tcgcore.new_match("arkham_card", seed=seed, players=players, scenario="01142",
                          **options)
    for _ in range(players):
        assert kind(m) == "mulligan"
        answer(m)
    return m


def as_devourer(m: tcgcore.Match[Any]) -> tcgcore.Match[Any]:
    """Let a builder match report like scenario 01142 (experience, log, no resolution)."""
    st(m).scenario = "01142"
    return m


# ---------------------------------------------------------------------------- A991 setup


def test_A991_1_A991_2_A991_3_A991_4_setup_woods_agents_and_decks() -> None:
    m = full(players=2, seed=3)
    state = st(m)
    in_play = codes_in(m, "locations")
    assert in_play[0] == "01149" and state.cards[loc(m, "01149")].counters["revealed"] == 1
    wood_ids = [c for c in state.zones["locations"].cards if state.cards[c].code == WOODS_BACK]
    assert len(wood_ids) == 4 and not any(state.cards[c].counters.get("revealed")
                                          for c in wood_ids)
    removed = codes_in(m, "removed")
    assert sorted(c for c in removed if c in WOODS) == WOODS  # identities decided on reveal
    assert all(i.location == loc(m, "01149") for i in state.inv)
    assert sorted(codes_in(m, "setaside")) == ["01156", "01157"]
    enc = codes_in(m, "encounter")
    assert len(enc) == 29
    picked = [name for name, cs in AGENTS.items() if cs & set(enc)]
    assert len(picked) == 1
    for name, cs in AGENTS.items():
        if name != picked[0]:
            assert not cs & set(enc) and cs <= set(removed)
    assert {"01169", "01170", "01171", "01158", "01166"} <= set(enc)
    assert codes_in(m, "acts") == ["01146", "01147", "01148"]
    assert codes_in(m, "agendas") == ["01143", "01144", "01145"]
    assert check_pool() == []


def test_A991_2_A991_3_random_picks_follow_the_seed() -> None:
    def picks(seed: int) -> tuple[str, list[str]]:
        m = full(seed=seed)
        first = next(c for c in st(m).zones["locations"].cards
                     if st(m).cards[c].code == WOODS_BACK)
        answer(m, f"move:{first}")  # revealing it decides which Woods it is
        return st(m).cards[first].code, sorted(codes_in(m, "encounter"))
    assert picks(5) == picks(5)
    seen_woods = {picks(s)[0] for s in range(12)}
    seen_agents = {frozenset(c for c in picks(s)[1] if c >= "01175") for s in range(8)}
    assert len(seen_woods) > 1 and seen_woods <= set(WOODS) and len(seen_agents) > 1


def test_A991_2_unrevealed_woods_do_not_reveal_which_woods_they_are() -> None:
    """Every unrevealed Arkham Woods shows the shared unrevealed side 01150u to every seat."""
    m = full(players=2, seed=4)
    state = st(m)
    placeholders = [c for c in state.zones["locations"].cards
                    if state.cards[c].code == WOODS_BACK]
    for seat in (0, 1):
        view = m.view(seat)
        zone = next(z for z in view.zones if z.id == "locations")
        ids = {tcgcore.card_alias(state, c, seat) for c in placeholders}
        shown = {c.code for c in zone.cards if c is not None and c.id in ids}
        assert shown == {WOODS_BACK}  # every unrevealed Woods looks the same
        removed = next(z for z in view.zones if z.id == "removed")
        assert removed.cards == [] or all(c is None or c.code is None for c in removed.cards)
        panel = {loc["id"]: loc for loc in view.panel["locations"]}
        assert {panel[tcgcore.card_alias(state, c, seat)]["code"]
                for c in placeholders} == {WOODS_BACK}
    while f"move:{placeholders[0]}" not in keys(m):
        answer(m, "inv:0")  # who acts first
    answer(m, f"move:{placeholders[0]}")
    revealed = st(m).cards[placeholders[0]].code
    assert revealed in WOODS and st(m).cards[placeholders[0]].counters["revealed"] == 1
    pool = [st(m).cards[c].code for c in st(m).zones["removed"].cards
            if st(m).cards[c].code in WOODS or st(m).cards[c].code == WOODS_BACK]
    assert sorted(pool) == sorted([WOODS_BACK] + [w for w in WOODS if w != revealed])


@pytest.mark.parametrize(("count", "doom"), [(0, 0), (1, 1), (2, 1), (3, 2), (4, 2), (5, 3),
                                             (6, 3)])
def test_A991_5_A952_3_starting_doom_from_cultists_who_got_away(count: int, doom: int) -> None:
    names = ["01137", "01138", "01139", "01140", "01141", "01121b"][:count]
    m = full(log=[GOT_AWAY + n for n in names] + ["your house is still standing"])
    agenda = st(m).zones["agendas"].cards[0]
    assert st(m).cards[agenda].counters.get("doom", 0) == doom == starting_doom(count)


def test_A991_6_elder_thing_added_once_and_reported() -> None:
    m = full()
    assert st(m).bag.count("elder_thing") == 1 and st(m).chaos_add_out == ["elder_thing"]
    m2 = full(chaos_add=["elder_thing"])
    assert st(m2).bag.count("elder_thing") == 1 and st(m2).chaos_add_out == []


def test_A991_7_ghoul_priest_alive_joins_the_encounter_deck() -> None:
    m = full(log=["the Ghoul Priest is still alive"])
    enc = codes_in(m, "encounter")
    assert len(enc) == 30 and "01116" in enc
    assert "01116" not in codes_in(full(), "encounter")


def test_A991_8_past_midnight_discards_two_random_cards() -> None:
    m = full(players=2, log=["it is past midnight"])
    for s in range(2):
        assert len(codes_in(m, f"hand.{s}")) == 3 and len(codes_in(m, f"discard.{s}")) == 2
    m2 = full(players=2)
    assert len(codes_in(m2, "hand.0")) == 5 and codes_in(m2, "discard.0") == []


# ---------------------------------------------------------------------------- A992 locations


def test_A992_1_unrevealed_woods_link_only_to_the_main_path() -> None:
    m = scenario(woods(inv(where="01150"), revealed=("01150", "01152")))
    state = st(m)
    unhallowed, old_house, cliff = loc(m, "01150"), loc(m, "01152"), loc(m, "01153")
    main = loc(m, "01149")
    assert sorted(state.adj[str(unhallowed)]) == sorted([main, old_house])
    assert state.adj[str(cliff)] == [main]
    assert sorted(state.adj[str(main)]) == sorted(loc(m, c) for c in ["01149", *WOODS]
                                                  if c != "01149")
    assert f"move:{cliff}" not in keys(m)
    answer(m, f"move:{main}")
    answer(m, f"move:{cliff}")  # revealing Cliffside joins it to the ring
    assert unhallowed in st(m).adj[str(cliff)] and loc(m, "01155") not in st(m).adj[str(cliff)]


def test_A992_2_unhallowed_ground_tests_willpower_on_entry() -> None:
    m = scenario(woods(tokens=["-5"]))
    answer(m, f"move:{loc(m, '01150')}")
    assert events(m, "test_failed")[-1].data["skill"] == "willpower"
    assert st(m).inv[0].damage == 1 and st(m).inv[0].horror == 1
    m2 = scenario(woods(tokens=["+1"], investigators=[inv("t_inv_mystic")]))
    answer(m2, f"move:{loc(m2, '01150')}")
    assert st(m2).inv[0].damage == 0 and st(m2).inv[0].horror == 0


def test_A992_3_twisting_paths_can_cancel_a_move() -> None:
    m = scenario(woods(inv(where="01151"), tokens=["-5", "+1"]))
    twisting, main = loc(m, "01151"), loc(m, "01149")
    answer(m, f"move:{main}")
    assert st(m).inv[0].location == twisting and st(m).inv[0].actions == 2
    assert events(m, "move_cancelled")
    answer(m, f"move:{main}")  # intellect 3 + 1 vs 3: the move happens
    assert st(m).inv[0].location == main


def test_A992_4_woods_investigate_with_another_skill() -> None:
    for code, skill in (("01152", "willpower"), ("01153", "agility"), ("01154", "combat")):
        m = scenario(woods(inv("t_inv_mystic", where=code), tokens=["+1"]))
        here = loc(m, code)
        answer(m, f"activate:{here}:0")
        ev = events(m, "test_started")[-1]
        assert ev.data["skill"] == skill and ev.data["kind"] == "investigate"
        assert ev.data["difficulty"] == 2
    assert st(m).inv[0].clues == 1  # combat 2 + 1 vs shroud 2


def test_A992_5_quiet_glade_heals_once_per_turn() -> None:
    m = scenario(woods(inv(where="01155", damage=2, horror=1)))
    glade = f"activate:{loc(m, '01155')}:0"
    answer(m, glade)
    assert kind(m) == "choose_effect"
    answer(m, "a")
    assert st(m).inv[0].damage == 1 and glade not in keys(m)
    answer(m, "end_turn")
    pass_until(m, "action")
    answer(m, glade)
    answer(m, "b")
    assert st(m).inv[0].horror == 0


def test_A992_6_ritual_site_refills_its_clues_at_round_end() -> None:
    m = scenario(woods(inv(), inv("t_inv_seeker"), extra=("01156",), phase="upkeep",
                       locations=[{"code": "01149"}, {"code": "01156", "clues": 1}]))
    pass_until(m, "action")
    assert st(m).cards[loc(m, "01156")].counters["clues"] == 4
    m2 = scenario(woods(extra=("01156",), phase="upkeep",
                        locations=[{"code": "01149"}, {"code": "01156", "clues": 3}]))
    pass_until(m2, "action")
    assert st(m2).cards[loc(m2, "01156")].counters["clues"] == 3


def test_A992_7_A995_1_resigning_on_the_main_path_still_loses() -> None:
    m = as_devourer(scenario(woods(inv(), inv("t_inv_seeker"))))
    answer(m, "inv:0")
    answer(m, f"activate:{loc(m, '01149')}:0")
    assert st(m).inv[0].status == "resigned" and m.result is None
    answer(m, f"activate:{loc(m, '01149')}:0")
    r = result(m)
    assert r.detail["resolution"] == "R-none" and r.losers == [0, 1] and not r.winners
    assert r.detail["outcome"] == "loss"
    assert r.detail["extra_trauma0"] == "killed" and r.detail["extra_trauma1"] == "killed"
    assert r.detail["log"] == "Arkham succumbed to Umôrdhoth's terrible vengeance"


# ---------------------------------------------------------------------------- A993 agendas/acts


def test_A993_1_death_to_the_intruders_spawns_a_monster_with_doom() -> None:
    m = scenario(woods(inv(where="01150"), phase="mythos", round=2,
                       agendas=["01143", "01144"], agenda_doom=3,
                       encounter_deck=["01163", "01160", "01166"],
                       encounter_discard=["01162"], tokens=["+1"] * 4))
    minion = enemy(m, "01160")
    assert st(m).cards[minion].zone == f"at.{loc(m, '01149')}"
    assert st(m).cards[minion].counters["doom"] == 1
    assert codes_in(m, "agendas") == ["01144"]


def test_A993_2_the_ritual_begins_strengthens_enemies() -> None:
    m = scenario(woods(agendas=["01144"], tokens=["0"],
                       enemies=[{"code": "01160", "engaged": 0}]))
    answer(m, f"fight:{enemy(m, '01160')}")
    assert events(m, "test_started")[-1].data["difficulty"] == 3  # 2 + 1
    m2 = scenario(woods(agendas=["01143"], tokens=["0"],
                        enemies=[{"code": "01160", "engaged": 0}]))
    answer(m2, f"fight:{enemy(m2, '01160')}")
    assert events(m2, "test_started")[-1].data["difficulty"] == 2


def test_A993_2_the_will_of_umordhoth_gives_a_madness_weakness() -> None:
    m = scenario(woods(inv(), inv("t_inv_mystic"), phase="mythos", round=2,
                       agendas=["01144", "01145"], agenda_doom=4,
                       tokens=["-5", "+1", "+1", "+1"]))
    madness = {"01096", "01097", "01099", "01100"}
    hand0 = codes_in(m, "hand.0")
    assert len(hand0) == 1 and hand0[0] in madness
    assert codes_in(m, "hand.1") == [] and st(m).deck_add == [f"0:{hand0[0]}"]


def test_A993_3_vengeance_awaits_during_act_1_brings_the_ritual_site() -> None:
    m = scenario(woods(phase="mythos", round=2, agendas=["01145"], agenda_doom=4,
                       acts=["01146", "01147", "01148"], set_aside=["01156", "01157"],
                       tokens=["+1"] * 4))
    site = loc(m, "01156")
    umor = enemy(m, "01157")
    assert "01156" in codes_in(m, "locations") and st(m).cards[umor].zone == f"at.{site}"
    assert codes_in(m, "acts") == ["01145b"] and codes_in(m, "agendas") == []
    assert enemy_health(st(m), umor) == 10


def test_A993_3_vengeance_awaits_later_clears_the_ritual_site() -> None:
    m = scenario(woods(inv(), inv("t_inv_seeker"), extra=("01156",), phase="mythos", round=2,
                       agendas=["01145"], agenda_doom=4, acts=["01148"],
                       set_aside=["01157"], tokens=["+1"] * 4,
                       enemies=[{"code": "01160", "location": "01156"}]))
    assert enemy(m, "01160") not in st(m).zones[f"at.{loc(m, '01156')}"].cards
    assert "01160" in codes_in(m, "encounter_discard")
    assert st(m).cards[enemy(m, "01157")].zone == f"at.{loc(m, '01156')}"
    assert enemy_health(st(m), enemy(m, "01157")) == 14


def test_A993_3_vengeance_awaits_spawns_umordhoth_at_a_ritual_site_that_is_card_0() -> None:
    """Agenda 3 (01145) flipped with the Ritual Site already in play as card 0 (the first
    location of the description): Umôrdhoth still spawns there."""
    d = woods(phase="mythos", round=2, agendas=["01145"], agenda_doom=4, acts=["01148"],
              set_aside=["01157"], tokens=["+1"] * 4)
    d["locations"].insert(0, {"code": "01156"})
    m = scenario(d)
    assert loc(m, "01156") == 0
    assert st(m).cards[enemy(m, "01157")].zone == "at.0"


def test_A993_4_unveiling_the_plan_spawns_the_cultists_who_got_away() -> None:
    d = woods(inv(where="01150", clues=3), acts=["01146", "01147"], set_aside=["01156"])
    m = tcgcore.new_match("arkham_card", seed=0, players=1, scenario=d,
                          log=[GOT_AWAY + "01137", GOT_AWAY + "01121b",
                               GOT_AWAY + "Peter Warren", GOT_AWAY + "Nobody"])
    answer(m, "advance_act")
    main = loc(m, "01149")
    assert "01156" in codes_in(m, "locations")
    assert sorted(codes_in(m, f"at.{main}")) == ["01121b", "01137", "01139"]
    assert events(m, "spawn_failed")[-1].data["name"] == "Nobody"
    assert codes_in(m, "acts") == ["01147"]


def test_A993_5_entering_the_ritual_site_triggers_last_rites() -> None:
    m = scenario(woods(inv(), inv("t_inv_seeker", where="01150"), extra=("01156",),
                       acts=["01147", "01148"], encounter_deck=["01163", "01181", "01163"],
                       encounter_discard=["01160"]))
    answer(m, "inv:0")
    answer(m, f"move:{loc(m, '01156')}")
    assert codes_in(m, "acts") == ["01148"]
    site_enemies = [st(m).cards[c].code for c in st(m).zones["threat.0"].cards]
    assert len(site_enemies) == 1 and site_enemies[0] in ("01160", "01181")


def test_A993_6_disrupting_the_ritual_needs_clues_and_gives_R1() -> None:
    m = as_devourer(scenario(woods(inv(clues=2), acts=["01148"], tokens=["+1", "-5", "+1"])))
    act = st(m).zones["acts"].cards[0]
    answer(m, f"activate:{act}:0")
    answer(m, "a")  # willpower 3 + 1 vs 3
    assert st(m).cards[act].counters["clues"] == 1 and st(m).inv[0].clues == 1
    assert m.view(0).panel["act"]["clues_on_act"] == 1  # progress is public
    answer(m, f"activate:{act}:0")
    answer(m, "b")  # agility 2 - 5: fails
    assert st(m).cards[act].counters["clues"] == 1 and st(m).inv[0].clues == 0
    assert f"activate:{act}:0" not in keys(m)
    m2 = as_devourer(scenario(woods(inv(clues=1), acts=["01148"], tokens=["+1"])))
    act2 = st(m2).zones["acts"].cards[0]
    m2.engine.set_counter(act2, "clues", 1)
    answer(m2, f"activate:{act2}:0")
    answer(m2, "a")
    r = result(m2)
    assert r.detail["resolution"] == "R1" and r.winners == [0]
    assert r.detail["xp"] == 5 and r.detail["extra_trauma0"] == "mental,mental"
    assert r.detail["log"] == "the ritual to summon Umôrdhoth was broken"


# ---------------------------------------------------------------------------- A994 cards


def test_A994_1_umordhoths_wrath_per_point_failed() -> None:
    m = scenario(woods(inv(hand=["t_knife"]), phase="mythos", round=2,
                       encounter_deck=["01158"], tokens=["-2"]))
    commit_none(m)  # A913.2
    # willpower 3 - 2 = 1 vs 5: 4 points; one card, then damage and horror
    assert kind(m) == "choose_effect"
    answer(m, "a")
    assert codes_in(m, "discard.0") == ["t_knife"]
    assert st(m).inv[0].damage == 3 and st(m).inv[0].horror == 3


def test_A994_2_byakhee_is_tougher_against_the_shaken() -> None:
    m = scenario(woods(inv(horror=1), tokens=["0"],
                       enemies=[{"code": "01175", "engaged": 0}]))
    answer(m, f"evade:{enemy(m, '01175')}")
    assert events(m, "test_started")[-1].data["difficulty"] == 4  # sanity 5 - 1 = 4 left
    m2 = scenario(woods(inv("t_inv_mystic", horror=1), tokens=["0"],
                        enemies=[{"code": "01175", "engaged": 0}]))
    answer(m2, f"evade:{enemy(m2, '01175')}")
    assert events(m2, "test_started")[-1].data["difficulty"] == 3


def test_A994_3_the_yellow_sign_finds_a_madness_weakness() -> None:
    m = scenario(woods(inv("t_inv_mystic", deck=["t_guts", "01097", "t_guts"], resources=4),
                       phase="mythos", round=2, encounter_deck=["01176"], tokens=["-5"]))
    assert st(m).inv[0].horror == 2
    assert st(m).inv[0].resources == 0  # Paranoia resolved as it was drawn
    assert "01097" not in codes_in(m, "deck.0")


def test_A994_4_yithian_observer_and_offer_of_power() -> None:
    m = scenario(woods(inv(hand=["t_knife", "t_guts"]), phase="enemy",
                       enemies=[{"code": "01177", "engaged": 0}]))
    assert len(codes_in(m, "hand.0")) == 1 + 1  # one discarded, one drawn in upkeep
    assert st(m).inv[0].damage == 1 and st(m).inv[0].horror == 1
    m2 = scenario(woods(phase="enemy", enemies=[{"code": "01177", "engaged": 0}]))
    assert st(m2).inv[0].damage == 2 and st(m2).inv[0].horror == 2
    m3 = scenario(woods(phase="mythos", round=2, encounter_deck=["01178", "01163"]))
    assert kind(m3) == "choose_effect"
    answer(m3, "a")
    assert len(codes_in(m3, "hand.0")) == 2
    agenda = st(m3).zones["agendas"].cards[0]
    assert st(m3).cards[agenda].counters["doom"] == 3  # 1 (mythos) + 2


def test_A994_5_goat_spawn_and_relentless_dark_young() -> None:
    m = scenario(woods(inv(), inv("t_inv_seeker"), tokens=["+1"],
                       enemies=[{"code": "01180", "engaged": 0, "damage": 2}]))
    answer(m, "inv:0")
    answer(m, f"fight:{enemy(m, '01180')}")
    assert st(m).inv[0].horror == 1 and st(m).inv[1].horror == 1
    m2 = scenario(woods(inv(where="01150"), phase="upkeep",
                        enemies=[{"code": "01179", "location": "01152", "damage": 3}]))
    pass_until(m2, "action")
    assert st(m2).cards[enemy(m2, "01179")].counters["damage"] == 1


def test_A994_5_goat_spawn_defeated_away_from_card_0_horrifies_everyone_there() -> None:
    """Goat Spawn (01180) at a location whose card id is not 0 (so its id is tested as a
    location, not as 0): each investigator there takes 1 horror, one elsewhere none."""
    m = scenario(woods(inv(where="01150"), inv("t_inv_seeker", where="01150"),
                       inv("t_inv_rogue", where="01151"), tokens=["+1"],
                       enemies=[{"code": "01180", "engaged": 0, "damage": 2}]))
    assert loc(m, "01150") > 0
    answer(m, "inv:0")
    answer(m, f"fight:{enemy(m, '01180')}")
    assert "01180" in codes_in(m, "encounter_discard")
    assert [st(m).inv[s].horror for s in range(3)] == [1, 1, 0]


def test_A994_3_the_yellow_sign_without_a_madness_weakness_draws_nothing() -> None:
    """The Yellow Sign (01176) failed with no Madness weakness in the deck: 2 horror, no
    card drawn, and no other card (such as card 1) taken for the one not found."""
    m = scenario(woods(inv("t_inv_mystic", deck=["t_guts"] * 3), phase="mythos", round=2,
                       encounter_deck=["01176"], tokens=["-5"]))
    assert st(m).inv[0].horror == 2
    assert codes_in(m, "hand.0") == []
    assert codes_in(m, "deck.0") == ["t_guts"] * 3
    assert not events(m, "drawn")
    assert codes_in(m, "locations") == ["01149", *WOODS]  # card 1 (a location) stays in play


def test_A994_6_umordhoth_is_massive_readies_and_takes_lita() -> None:
    d = woods(inv(assets=["01117"]), inv("t_inv_seeker"), extra=("01156",),
              acts=["01145b"], agendas=[], tokens=["-5", "-5"],
              enemies=[{"code": "01157", "location": "01149"}])
    m = as_devourer(scenario(d))
    umor = enemy(m, "01157")
    assert f"engage:{umor}" not in keys(m)
    answer(m, "inv:1")
    assert f"activate:{umor}:0" not in keys(m)  # no Lita for the seeker
    m.engine.update_card(umor, exhausted=True)  # as if evaded
    answer(m, "end_turn")
    assert not st(m).cards[umor].exhausted  # readied at the end of the turn
    assert f"activate:{umor}:0" in keys(m)
    answer(m, f"activate:{umor}:0")
    while m.result is None:  # attack of opportunity first: assign it to the investigator
        answer(m, "inv" if "inv" in keys(m) else keys(m)[0])
    r = result(m)
    assert r.detail["resolution"] == "R3" and r.detail["xp"] == 0
    assert r.detail["extra_trauma0"] == "physical,physical,mental,mental"
    assert r.detail["deck_add0"] in ("01096", "01097", "01099", "01100")
    assert r.detail["deck_add1"] in ("01096", "01097", "01099", "01100")
    assert r.detail["log"] == "the investigators sacrificed Lita Chantler to Umôrdhoth"
    # A956.8: the Madness weakness stays in the deck for the rest of the campaign
    camp = record_scenario(new_campaign(["t_inv_guard", "t_inv_seeker"]), r, scenario="01142")
    assert camp.investigators[0].deck[-1] == r.detail["deck_add0"]
    assert camp.investigators[1].physical == 2 and camp.investigators[1].mental == 2


def test_A994_6_massive_umordhoth_attacks_everyone_there() -> None:
    d = woods(inv(), inv("t_inv_mystic"), inv("t_inv_rogue", where="01150"),
              acts=["01145b"], agendas=[], phase="enemy",
              enemies=[{"code": "01157", "location": "01149"}])
    m = scenario(d)
    umor = enemy(m, "01157")
    assert st(m).cards[umor].zone == f"at.{loc(m, '01149')}"  # engaged without moving
    assert kind(m) == "massive_order" and who(m) == 0  # the lead orders its attacks (A611.2)
    answer(m, "inv:1")
    attacked = [e.player for e in m.events_since(0, player="all") if e.kind == "enemy_attacks"]
    assert attacked == [1, 0]
    assert st(m).inv[0].damage == 3 and st(m).inv[1].horror == 3 and st(m).inv[2].damage == 0


def test_A994_6_defeating_umordhoth_is_R2() -> None:
    d = woods(inv(), acts=["01145b"], agendas=[], tokens=["+1"],
              enemies=[{"code": "01157", "location": "01149", "damage": 5}])
    m = as_devourer(scenario(d))
    m.engine.set_counter(enemy(m, "01157"), "damage", 9)  # health 6 + 4
    answer(m, f"fight:{enemy(m, '01157')}")
    if kind(m) == "use_trigger":
        answer(m, "no")
    r = result(m)
    assert r.detail["resolution"] == "R2" and r.winners == [0] and r.detail["xp"] == 10
    assert r.detail["extra_trauma0"] == "physical,physical,mental,mental"
    assert r.detail["log"] == "the investigators repelled Umôrdhoth"
    camp = record_scenario(new_campaign(["t_inv_guard"]), r, scenario="01142")
    assert camp.investigators[0].physical == 2 and camp.investigators[0].mental == 2
    assert camp.investigators[0].xp == 10 and "the investigators repelled Umôrdhoth" in camp.log


def test_A994_7_young_deep_one_and_dreams_of_rlyeh() -> None:
    m = scenario(woods(phase="mythos", round=2, encounter_deck=["01181", "01163"]))
    assert enemy(m, "01181") in st(m).zones["threat.0"].cards
    assert st(m).inv[0].horror == 1
    m2 = scenario(woods(inv(threat=["01182"]), tokens=["+1"]))
    assert skill_value(st(m2), 0, "willpower") == 2 and inv_sanity(st(m2), 0) == 4
    dreams = enemy(m2, "01182")
    answer(m2, f"activate:{dreams}:0")  # willpower 2 + 1 vs 3
    assert "01182" in codes_in(m2, "encounter_discard")
    assert skill_value(st(m2), 0, "willpower") == 3


# ---------------------------------------------------------------------------- A995 tokens


def test_A995_2_skull_counts_monsters_in_play() -> None:
    m = scenario(woods(tokens=["skull"], token_effects=tokens(),
                       enemies=[{"code": "01160", "location": "01150"},
                                {"code": "01181", "location": "01151"},
                                {"code": "01169", "location": "01152"}]))
    answer(m, "investigate")
    ev = events(m, "test_failed") or events(m, "test_succeeded")
    assert ev[-1].data["tokens"] == "skull:-2"
    m2 = scenario(woods(inv(where="01153"), tokens=["skull"],
                        token_effects=tokens("hard_expert"), encounter_deck=["01163", "01160"]))
    answer(m2, "investigate")
    assert enemy(m2, "01160") in st(m2).zones["threat.0"].cards


def test_A995_3_cultist_puts_doom_on_the_nearest_enemy() -> None:
    m = scenario(woods(tokens=["cultist"], token_effects=tokens(),
                       enemies=[{"code": "01160", "location": "01150"},
                                {"code": "01169", "location": "01149", "exhausted": True}]))
    answer(m, "investigate")
    assert st(m).cards[enemy(m, "01169")].counters["doom"] == 1
    assert not st(m).cards[enemy(m, "01160")].counters.get("doom")
    m2 = scenario(woods(tokens=["cultist"], token_effects=tokens("hard_expert"),
                        enemies=[{"code": "01160", "location": "01150"}]))
    answer(m2, "investigate")
    assert st(m2).cards[enemy(m2, "01160")].counters["doom"] == 2


def test_A995_3_cultist_doom_goes_to_the_nearest_enemy_from_a_location_other_than_card_0() -> None:
    """The cultist token (A995.3) measured from a location whose card id is not 0: the enemy
    there gets the doom, not the lower-numbered enemy farther away."""
    m = scenario(woods(inv(where="01150"), tokens=["cultist"], token_effects=tokens(),
                       enemies=[{"code": "01160", "location": "01149"},
                                {"code": "01169", "location": "01150", "exhausted": True}]))
    assert loc(m, "01150") > 0 and enemy(m, "01160") < enemy(m, "01169")
    answer(m, "investigate")
    assert st(m).cards[enemy(m, "01169")].counters["doom"] == 1
    assert not st(m).cards[enemy(m, "01160")].counters.get("doom")


def test_A995_4_tablet_and_elder_thing() -> None:
    m = scenario(woods(tokens=["tablet"], token_effects=tokens("hard_expert"),
                       enemies=[{"code": "01160", "location": "01149", "exhausted": True}]))
    answer(m, "investigate")
    assert st(m).inv[0].damage == 1 and st(m).inv[0].horror == 1
    m2 = scenario(woods(tokens=["elder_thing", "+1"], token_effects=tokens(),
                        enemies=[{"code": "01157", "location": "01150"}]))
    answer(m2, "investigate")
    assert events(m2, "test_ended")[-1].data["tokens"] == "elder_thing,+1"
    m3 = scenario(woods(tokens=["elder_thing", "+1"], token_effects=tokens()))
    answer(m3, "investigate")
    assert events(m3, "test_ended")[-1].data["tokens"] == "elder_thing"


def test_A995_5_A995_6_A995_7_resolution_data() -> None:
    sdef = load_scenario("01142")
    assert sdef.xp_bonus == {"R1": 5, "R2": 10, "R3": 0, "R-none": 0}
    assert sdef.resolutions["R-none"] == "loss"
    assert set(sdef.log) == {"R1", "R2", "R3", "R-none"}


# ---------------------------------------------------------------------------- conformance


@pytest.mark.parametrize("players", [1, 2])
def test_devourer_random_playouts(players: int) -> None:
    log = [GOT_AWAY + "01137", GOT_AWAY + "01121b", "it is past midnight",
           "the Ghoul Priest is still alive"]
    report = random_playout_check("arkham_card", seeds=range(10), players=players,
                                  options={"scenario": "01142", "log": log}, check_every=5)
    assert report.games == 10
    assert set(report.reasons) <= {"resolution", "all_defeated", "no_resolution"}


@pytest.mark.parametrize("players", [1, 2])
def test_devourer_heuristic_playouts_finish(players: int) -> None:
    def agents(seed: int, seat: int) -> Any:
        return tcgcore.make_agent(tcgcore.new_match("arkham_card", seed=0).spec, "heuristic",
                                  seed * 10 + seat)
    report = random_playout_check("arkham_card", seeds=range(12), players=players,
                                  options={"scenario": "01142"}, agents=agents,
                                  check_every=10)
    assert report.games == 12
