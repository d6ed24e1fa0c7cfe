"""Core investigators, signature cards, level-0 player cards and basic weaknesses
(A973–A976), played in small described scenarios."""

from __future__ import annotations

from typing import Any

import pytest
from tcgcore_arkham_card import card_pool, scenario
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
    result,
    st,
)
from tcgcore_arkham_card.testkit import (
    play_card as play,
)

DECK = ["01089"] * 6


def inv(code: str = "01001", **kw: Any) -> dict[str, Any]:
    return investigator(code, DECK, **kw)


# ------------------------------------------------------------------ data


def test_core_card_data_is_complete() -> None:
    pool = card_pool()
    core = {c: d for c, d in pool.items() if (c.startswith("01") and
            d.type_code in ("investigator", "asset", "event", "skill")) or
            (d.subtype_code in ("weakness", "basicweakness") and not c.startswith("t"))}
    investigators = [c for c, d in core.items() if d.type_code == "investigator"]
    assert investigators == ["01001", "01002", "01003", "01004", "01005"]
    level0 = [c for c, d in core.items() if d.xp == 0 and not d.restrictions and
              d.type_code in ("asset", "event", "skill") and not d.encounter_code]
    assert len(level0) == 58  # 5 classes x 10 + 8 neutral
    weak = [c for c, d in core.items() if d.subtype_code == "basicweakness"]
    assert weak == ["01096", "01097", "01098", "01099", "01100", "01101", "01102", "01103"]
    for code in investigators:
        d = pool[code]
        assert d.deck_requirements and all(pool[r].restrictions == f"investigator:{code}"
                                           for r in d.deck_requirements)
    # every effect op used by the core cards is one the engine knows (A975)
    assert all(d.text for d in core.values())


# ------------------------------------------------------------------ investigators


def test_A973_1_roland_clue_after_defeat_once_per_round_and_elder_sign() -> None:
    m = scenario(desc(inv(), tokens=["0"], locations=[{"code": "t_loc_a", "clues": 3}],
                      enemies=[{"code": "t_rat", "engaged": 0}]))
    answer(m, f"fight:{enemy(m, 't_rat')}")
    assert kind(m) == "use_trigger"
    answer(m, "yes")
    assert st(m).inv[0].clues == 1
    m2 = scenario(desc(inv(), tokens=["elder_sign"], locations=[{"code": "t_loc_a", "clues": 2}]))
    answer(m2, "investigate")
    assert events(m2, "test_succeeded")[0].data["value"] == 3 + 2


def test_A973_2_daisy_extra_tome_action_and_elder_sign_draws() -> None:
    m = scenario(desc(inv("01002", assets=["01035"]), tokens=["+1"]))
    assert st(m).inv[0].special_actions == ["Tome"]
    activate(m, "01035")  # Medical Texts: the Tome action is free
    assert st(m).inv[0].actions == 3
    m2 = scenario(desc(inv("01002", assets=["01035", "01031"]), tokens=["elder_sign"],
                       locations=[{"code": "t_loc_a", "clues": 1}]))
    hand = len(codes_in(m2, "hand.0"))
    answer(m2, "investigate")
    assert len(codes_in(m2, "hand.0")) == hand + 2  # one card per Tome


def test_A973_3_skids_buys_an_action_once_per_turn_and_elder_sign() -> None:
    m = scenario(desc(inv("01003", resources=5)))
    skids = st(m).inv[0].card
    answer(m, f"fast:{skids}:0")
    assert st(m).inv[0].actions == 4 and st(m).inv[0].resources == 3
    assert f"fast:{skids}:0" not in keys(m)
    m2 = scenario(desc(inv("01003"), tokens=["elder_sign"],
                       locations=[{"code": "t_loc_a", "clues": 1}]))
    answer(m2, "investigate")
    assert events(m2, "test_succeeded")[0].data["value"] == 3 + 2
    assert st(m2).inv[0].resources == 7


def test_A973_4_agnes_deals_damage_after_horror_and_elder_sign() -> None:
    m = scenario(desc(inv("01004", horror=2), tokens=["elder_sign"],
                      locations=[{"code": "t_loc_a", "clues": 1}]))
    answer(m, "investigate")
    assert events(m, "test_succeeded")[0].data["value"] == 2 + 2
    m2 = scenario(desc(inv("01004"), phase="mythos", round=2, encounter_deck=["t_dread"],
                       tokens=["-4"], enemies=[{"code": "t_ghoul", "location": "t_loc_a",
                                                "exhausted": True}]))
    pass_until(m2, "use_trigger")
    answer(m2, "yes")
    assert st(m2).cards[enemy(m2, "t_ghoul")].counters.get("damage") == 1


def test_A973_4_a_scenario_defined_investigator_with_agnes_reaction_uses_it() -> None:
    """An investigator defined by the scenario (not in the card pool) with Agnes Baker's
    reaction (after horror: 1 damage to an enemy here) is offered it like Agnes."""
    agnes = {"code": "x_agnes", "name": "Agnes Again", "type_code": "investigator",
             "skill_willpower": 5, "skill_intellect": 2, "skill_combat": 2, "skill_agility": 3,
             "health": 6, "sanity": 8,
             "abilities": [{"kind": "reaction", "trigger": "after_horror", "limit": "phase",
                            "effects": [{"op": "damage_enemy", "amount": 1}]}]}
    m = scenario(desc(inv("x_agnes"), phase="mythos", round=2, encounter_deck=["t_dread"],
                      tokens=["-4"], cards=[agnes],
                      enemies=[{"code": "t_ghoul", "location": "t_loc_a", "exhausted": True}]))
    pass_until(m, "use_trigger")
    answer(m, "yes")
    assert st(m).cards[enemy(m, "t_ghoul")].counters.get("damage") == 1


def test_A973_5_wendy_elder_sign_succeeds_with_her_amulet() -> None:
    for assets, ok in (([], False), (["01014"], True)):
        m = scenario(desc(inv("01005", location="t_loc_vault", assets=assets),
                          tokens=["elder_sign"], locations=[{"code": "t_loc_vault"}]))
        answer(m, "investigate")  # intellect 3 + 0 vs shroud 4
        assert bool(events(m, "test_succeeded")) is ok


# ------------------------------------------------------------------ signature cards


def test_A974_1_cover_up_takes_the_clues_then_trauma_at_the_end() -> None:
    m = scenario(desc(inv(deck=["01007", *DECK]), phase="upkeep", tokens=["0"],
                      locations=[{"code": "t_loc_a", "clues": 3}]))
    pass_until(m, "action")
    cover = enemy(m, "01007")
    assert st(m).cards[cover].zone == "threat.0" and st(m).cards[cover].counters["clues"] == 3
    answer(m, "investigate")
    assert kind(m) == "use_trigger"  # Cover Up is a reaction: offered, not automatic
    answer(m, "yes")
    assert st(m).inv[0].clues == 0 and st(m).cards[cover].counters["clues"] == 2
    assert "01007" in codes_in(m, "threat.0")


def test_A974_1_cover_up_mental_trauma_when_clues_remain() -> None:
    m = scenario(desc(inv(deck=["01007", *DECK]), phase="upkeep", agendas=["t_agenda_short"],
                      agenda_doom=2))
    pass_until(m, "no such choice") if m.result is None else None
    assert result(m).detail.get("extra_trauma0") == "mental"  # the agenda ran out


def test_A974_2_necronomicon_elder_sign_fails_and_horror_moves() -> None:
    m = scenario(desc(inv("01002", deck=["01009", *DECK]), phase="upkeep", tokens=["elder_sign"],
                      locations=[{"code": "t_loc_a", "clues": 1}]))
    pass_until(m, "action")
    book = enemy(m, "01009")
    assert st(m).cards[book].zone == "threat.0"
    assert st(m).cards[book].counters["horror"] == 3
    answer(m, "investigate")
    assert events(m, "test_failed")  # elder sign counts as auto-fail
    activate(m, "01009")
    assert st(m).inv[0].horror == 1 and st(m).cards[book].counters["horror"] == 2


def test_A974_3_hospital_debts_and_A974_4_dark_memory() -> None:
    m = scenario(desc(inv("01003", threat=["01011"], resources=5), agendas=["t_agenda_short"],
                      agenda_doom=2))
    activate(m, "01011")
    assert st(m).inv[0].resources == 4
    assert st(m).cards[enemy(m, "01011")].counters["resources"] == 1
    answer(m, "end_turn")
    assert result(m).detail.get("xp_adjust0") == -2
    m2 = scenario(desc(inv("01004", hand=["01013"])))
    answer(m2, "end_turn")
    assert st(m2).inv[0].horror == 2 and events(m2, "revealed_in_hand")
    m3 = scenario(desc(inv("01004", hand=["01013"], resources=5)))
    play(m3, "01013")
    assert events(m3, "doom_placed")[0].amount == 1


def test_A974_5_abandoned_and_alone_and_A974_6_roland_38() -> None:
    m = scenario(desc(inv("01005", deck=["01015", *DECK], discard=["01089", "01090"]),
                      phase="upkeep"))
    pass_until(m, "action")
    assert st(m).inv[0].horror == 2 and codes_in(m, "discard.0") == ["01015"]
    m2 = scenario(desc(inv(assets=["01006"]), tokens=["-2"],
                       locations=[{"code": "t_loc_a", "clues": 1}],
                       enemies=[{"code": "01116", "engaged": 0}]))
    activate(m2, "01006")
    assert events(m2, "test_succeeded")[0].data["value"] == 4 + 3 - 2


def test_A974_6_heirloom_and_on_the_lam() -> None:
    m = scenario(desc(inv("01004", assets=["01012"], hand=["01064"], resources=5),
                      encounter_deck=["t_surge", "t_omen"]))
    hand = len(codes_in(m, "hand.0"))
    play(m, "01064")  # Drawn to the Flame is an Insight, not a Spell: no draw
    pass_until(m, "action")
    assert len(codes_in(m, "hand.0")) == hand - 1
    m2 = scenario(desc(inv("01003", hand=["01010"]), enemies=[{"code": "t_ghoul", "engaged": 0}]))
    assert f"fastplay:{enemy(m2, '01010')}" in keys(m2)  # after the turn begins (A975.13)
    play(m2, "01010")
    before = len(events(m2, "enemy_attacks"))
    answer(m2, "resource")  # would provoke an attack of opportunity: On the Lam stops it
    answer(m2, "end_turn")
    pass_until(m2, "action")
    assert len(events(m2, "enemy_attacks")) == before


# ------------------------------------------------------------------ player cards


def test_A975_1_fast_skill_boosts() -> None:
    m = scenario(desc(inv(assets=["01017"]), tokens=["-2"],
                      enemies=[{"code": "t_ghoul", "engaged": 0}]))
    answer(m, f"fight:{enemy(m, 't_ghoul')}")
    assert kind(m) == "fast_window"
    answer(m, next(k for k in keys(m) if k.endswith(":1")))  # +1 combat
    pass_until(m, "action")
    assert events(m, "test_succeeded")[0].data["value"] == 4 + 1 - 2


def test_A975_2_after_success_and_fail_reactions() -> None:
    m = scenario(desc(inv("01002", assets=["01033"]), tokens=["0"],
                      locations=[{"code": "t_loc_a", "clues": 2}]))
    answer(m, "investigate")
    assert st(m).inv[0].resources == 6  # Dr. Milan Christopher
    m2 = scenario(desc(inv("01005", assets=["01075"]), tokens=["auto_fail"],
                       locations=[{"code": "t_loc_a", "clues": 2}]))
    hand = len(codes_in(m2, "hand.0"))
    answer(m2, "investigate")
    assert len(codes_in(m2, "hand.0")) == hand + 1  # Rabbit's Foot
    assert st(m2).cards[enemy(m2, "01075")].exhausted
    m3 = scenario(desc(inv("01003", assets=["01046"]), tokens=["0"],
                       enemies=[{"code": "t_ghoul", "engaged": 0}]))
    hand = len(codes_in(m3, "hand.0"))
    answer(m3, f"evade:{enemy(m3, 't_ghoul')}")
    assert len(codes_in(m3, "hand.0")) == hand + 1  # Pickpocketing


def test_A975_3_kind_limited_skills() -> None:
    m = scenario(desc(inv(hand=["01039", "01025"]), tokens=["0", "0"],
                      locations=[{"code": "t_loc_a", "clues": 3}],
                      enemies=[{"code": "01116", "engaged": 0}]))
    answer(m, "investigate")
    answer(m, f"commit:{enemy(m, '01039')}")  # Deduction
    assert st(m).inv[0].clues == 2
    answer(m, f"fight:{enemy(m, '01116')}")
    answer(m, f"commit:{enemy(m, '01025')}")  # Vicious Blow
    assert st(m).cards[enemy(m, "01116")].counters["damage"] == 2


def test_A975_4_margin_damage_and_opportunist() -> None:
    m = scenario(desc(inv("01003", assets=["01047"], hand=["01053"]), tokens=["+1"],
                      enemies=[{"code": "01116", "engaged": 0}]))
    activate(m, "01047")  # .41 Derringer: 3 + 2 + 1 = 6 vs 4 -> by 2: +1 damage
    answer(m, f"commit:{enemy(m, '01053')}")  # Opportunist: 7 vs 4, by 3: back to hand
    assert st(m).cards[enemy(m, "01116")].counters["damage"] == 2
    assert "01053" in codes_in(m, "hand.0")


def test_A975_5_symbol_tokens_on_spells_and_the_bat() -> None:
    m = scenario(desc(inv("01004", assets=["01060"]), tokens=["skull"],
                      enemies=[{"code": "t_ghoul", "engaged": 0}]))
    activate(m, "01060")  # Shrivelling: willpower 5 - 2 vs 2, +1 damage, then 1 horror
    assert st(m).inv[0].horror == 1
    assert st(m).cards[enemy(m, "t_ghoul")].zone in ("encounter_discard", "victory") or \
        st(m).cards[enemy(m, "t_ghoul")].counters.get("damage") == 2
    m2 = scenario(desc(inv("01005", assets=["01074"]), tokens=["skull"],
                       enemies=[{"code": "t_ghoul", "engaged": 0}]))
    activate(m2, "01074")
    assert "01074" in codes_in(m2, "discard.0")
    m3 = scenario(desc(inv("01004", hand=["01066"]), tokens=["cultist"],
                       enemies=[{"code": "t_ghoul", "engaged": 0}]))
    play(m3, "01066")  # Blinding Light: willpower 5 - 1 vs 2; 1 damage; lose an action
    assert st(m3).cards[enemy(m3, "t_ghoul")].counters.get("damage") == 1
    assert st(m3).inv[0].actions == 1


def test_A975_6_evidence_after_a_defeat() -> None:
    m = scenario(desc(inv("01003", hand=["01022"]), tokens=["0"],
                      locations=[{"code": "t_loc_a", "clues": 2}],
                      enemies=[{"code": "t_rat", "engaged": 0}]))
    answer(m, f"fight:{enemy(m, 't_rat')}")
    commit_none(m)  # A913.2
    assert kind(m) == "use_trigger"
    answer(m, "yes")
    assert st(m).inv[0].clues == 1 and "01022" in codes_in(m, "discard.0")


def test_A975_7_searches() -> None:
    m = scenario(desc(inv("01002", hand=["01032"], deck=["01089", "01089", "01035"])))
    play(m, "01032")  # Research Librarian finds the Tome
    assert "01035" in codes_in(m, "hand.0")
    m2 = scenario(desc(inv("01002", assets=["01031"], deck=["01089", "01090", "01091", "01092"])))
    activate(m2, "01031")
    answer(m2, keys(m2)[0])  # three different cards: the player chooses (A909.1)
    assert len(codes_in(m2, "hand.0")) == 1 and len(codes_in(m2, "deck.0")) == 3
    m3 = scenario(desc(inv("01004", hand=["01063"], deck=["01089", "01060", "01090"])))
    play(m3, "01063")
    arc = enemy(m3, "01063")
    assert st(m3).cards[arc].counters.get("doom") == 1
    answer(m3, f"fast:{arc}:0")
    assert "01060" in codes_in(m3, "hand.0")


def test_A975_8_other_card_abilities() -> None:
    m = scenario(desc(inv(assets=["01020"]), tokens=["0"],
                      enemies=[{"code": "01116", "engaged": 0}]))
    activate(m, "01020")  # Machete: only engaged enemy, +1 damage
    assert st(m).cards[enemy(m, "01116")].counters["damage"] == 2
    m2 = scenario(desc(inv(assets=["01018"]), enemies=[{"code": "t_ghoul", "engaged": 0}]))
    assert skill_value(st(m2), 0, "combat") == 5
    activate(m2, "01018")  # Beat Cop: discard for 1 damage
    assert st(m2).cards[enemy(m2, "t_ghoul")].counters.get("damage") == 1
    m3 = scenario(desc(inv(hand=["01024"], resources=5),
                       enemies=[{"code": "t_ghoul", "engaged": 0}]))
    play(m3, "01024")  # Dynamite Blast: 3 to each enemy and investigator here
    pass_until(m3, "action")
    assert st(m3).inv[0].damage == 1 + 3  # the attack of opportunity, then the blast
    assert "t_ghoul" in codes_in(m3, "encounter_discard")
    m4 = scenario(desc(inv("01003", hand=["01052"]),
                       enemies=[{"code": "t_ghoul", "location": "t_loc_a", "exhausted": True}]))
    play(m4, "01052")  # Sneak Attack
    assert codes_in(m4, "encounter_discard") == ["t_ghoul"]
    m5 = scenario(desc(inv("01003", hand=["01050"]), enemies=[{"code": "t_ghoul", "engaged": 0}]))
    play(m5, "01050")  # Elusive: disengage and move away
    answer(m5, next(k for k in keys(m5) if k.startswith("location:")))
    assert st(m5).inv[0].location != enemy(m5, "t_loc_a")
    m6 = scenario(desc(inv("01002", hand=["01036"]), tokens=["0"],
                       enemies=[{"code": "t_ghoul", "engaged": 0}]))
    play(m6, "01036")  # Mind over Matter: intellect for combat
    assert skill_value(st(m6), 0, "combat") == 5
    m7 = scenario(desc(inv("01005", assets=["01076"]), enemies=[{"code": "t_ghoul", "engaged": 0}]))
    activate(m7, "01076")  # Stray Cat
    assert st(m7).cards[enemy(m7, "t_ghoul")].exhausted
    m8 = scenario(desc(inv("01005", hand=["01078"], resources=5),
                       enemies=[{"code": "t_ghoul", "location": "t_loc_a"}]))
    play(m8, "01078")  # Cunning Distraction
    assert st(m8).cards[enemy(m8, "t_ghoul")].exhausted


def test_A975_9_partial_cards_are_marked() -> None:
    partial = sorted(c for c, d in card_pool().items() if d.partial)
    now_full = {"01005", "01008", "01010", "01011", "01014", "01019", "01024", "01031",
                "01035", "01038", "01050", "01061"}  # A975.9: fully modelled now
    assert not now_full & set(partial)
    assert not [c for c in partial if "01001" <= c <= "01103"]  # nor any core player card
    assert "01021" not in partial and "01065" not in partial and "01079" not in partial


def test_A975_10_ward_of_protection_cancels_a_revelation() -> None:
    m = scenario(desc(inv("01004", hand=["01065"]), phase="mythos", round=2,
                      encounter_deck=["t_omen"]))
    assert kind(m) == "use_trigger"
    answer(m, "yes")
    pass_until(m, "action")
    assert st(m).inv[0].horror == 1 and not events(m, "doom_placed")[1:]
    assert events(m, "revelation_cancelled") and "t_omen" in codes_in(m, "encounter_discard")


def test_A975_10_look_what_i_found_after_a_near_miss() -> None:
    m = scenario(desc(inv("01005", hand=["01079"]), tokens=["-2"],
                      locations=[{"code": "t_loc_a", "clues": 3}]))
    answer(m, "investigate")  # intellect 3 - 2 vs 2: fails by 1
    answer(m)  # commit nothing
    answer(m, "pass")  # Wendy keeps the token (A975.11)
    assert kind(m) == "use_trigger"
    answer(m, "yes")
    assert st(m).inv[0].clues == 2 and "01079" in codes_in(m, "discard.0")


def test_A975_10_look_what_i_found_by_exactly_2_but_not_by_3() -> None:
    """"Look what I found!" (01079) after failing an investigation by 2 or less: Wendy
    (intellect 3) at the Test Vault (shroud 4) fails by 2 with a -1 and may play it; with a
    -2 she fails by 3 and may not."""
    for token, offered in (("-1", True), ("-2", False)):
        m = scenario(desc(inv("01005", hand=["01079"], location="t_loc_vault"),
                          tokens=[token], locations=[{"code": "t_loc_vault", "clues": 3}]))
        answer(m, "investigate")
        answer(m)  # commit nothing
        answer(m, "pass")  # Wendy keeps the token (A975.11)
        assert events(m, "test_failed")[-1].amount == (-2 if offered else -3)
        assert (kind(m) == "use_trigger") is offered
        if offered:
            answer(m, "yes")
            assert st(m).inv[0].clues == 2
        else:
            assert kind(m) == "action" and codes_in(m, "hand.0") == ["01079"]


SPELL = {"code": "x_spell", "name": "Spark", "type_code": "event", "cost": 0,
         "traits": "Spell.", "effects": [{"op": "gain_resources", "amount": 1}]}


def test_A974_6_heirloom_of_hyperborea_draws_after_a_spell() -> None:
    """Heirloom of Hyperborea (01012): after Agnes plays a Spell event she may draw 1 card
    (declined: none)."""
    for use in ("yes", "no"):
        m = scenario(desc(inv("01004", assets=["01012"], hand=["x_spell"], deck=["01089"] * 3),
                          cards=[SPELL]))
        play(m, "x_spell")
        assert kind(m) == "use_trigger"
        answer(m, use)
        assert codes_in(m, "hand.0") == (["01089"] if use == "yes" else [])
        assert len(codes_in(m, "deck.0")) == (2 if use == "yes" else 3)


def test_A975_10_guard_dog_bites_back() -> None:
    m = scenario(desc(inv(assets=["01021"]), phase="enemy",
                      enemies=[{"code": "t_ghoul", "engaged": 0}]))
    pass_until(m, "assign_damage")
    answer(m, f"asset:{enemy(m, '01021')}")
    pass_until(m, "action")
    assert st(m).cards[enemy(m, "t_ghoul")].counters.get("damage") == 1


# ------------------------------------------------------------------ basic weaknesses


def test_A976_1_amnesia_and_paranoia() -> None:
    m = scenario(desc(inv(hand=["01020", "01089", "01016"], deck=["01096", *DECK]),
                      phase="upkeep"))
    pass_until(m, "action")
    assert codes_in(m, "hand.0") == ["01016"]  # keeps the most expensive card
    m2 = scenario(desc(inv(deck=["01097", *DECK]), phase="upkeep"))
    pass_until(m2, "action")
    assert st(m2).inv[0].resources == 1  # all lost, then 1 gained in upkeep


def test_A976_2_haunted_minus_one_and_two_action_discard() -> None:
    m = scenario(desc(inv(threat=["01098"])))
    assert skill_value(st(m), 0, "combat") == 3
    activate(m, "01098")
    assert st(m).inv[0].actions == 1 and "01098" in codes_in(m, "discard.0")


def test_A976_3_psychosis_and_hypochondria() -> None:
    m = scenario(desc(inv(threat=["01099"]), phase="mythos", round=2, encounter_deck=["t_dread"],
                      tokens=["-4"]))
    pass_until(m, "action")
    assert st(m).inv[0].damage == 1
    m2 = scenario(desc(inv(threat=["01100"]), phase="mythos", round=2,
                       encounter_deck=["t_grasp"], tokens=["-4"]))
    pass_until(m2, "action")
    assert st(m2).inv[0].horror >= 1


def test_A976_4_weakness_enemies_hunt_their_bearer() -> None:
    m = scenario(desc(inv(), inv("01002", location="t_loc_b", deck=["01101", *DECK]),
                      phase="upkeep"))
    pass_until(m, "action")
    mob = enemy(m, "01101")
    assert st(m).cards[mob].zone == "threat.1"
    m2 = scenario(desc(inv(resources=5), enemies=[{"code": "01101", "engaged": 0}]))
    activate(m2, "01101")
    assert st(m2).inv[0].resources == 1 and "01101" in codes_in(m2, "discard.0")
    m3 = scenario(desc(inv(), enemies=[{"code": "01102", "engaged": 0}]))
    answer(m3, "end_turn")
    pass_until(m3, "action")
    assert events(m3, "doom_placed")


@pytest.mark.parametrize("code", ["01001", "01002", "01003", "01004", "01005"])
def test_every_investigator_plays_the_gathering(code: str) -> None:
    import tcgcore

    m = tcgcore.new_match("arkham_card", seed=11, investigators=[code])
    tcgcore.play_out(m, [tcgcore.make_agent(m.spec, "heuristic", 3)], max_decisions=3000)
    assert m.result is not None


def test_A976_5_stubborn_detective_blanks_only_the_investigator_card() -> None:
    """Under Stubborn Detective (01103) Skids' own fast ability is gone, but the ability of
    an asset in play after his card (.38 Special, 01006) is still offered."""
    m = scenario(desc(inv("01003", assets=["01006"]), enemies=[{"code": "01103", "engaged": 0}]))
    gun = enemy(m, "01006")
    assert f"activate:{gun}:0" in keys(m)
    assert not any(k.startswith(f"fast:{st(m).inv[0].card}:") for k in keys(m))


def test_A976_5_stubborn_detective_blanks_its_bearer() -> None:
    from tcgcore_arkham_card.queries import dof, investigator_blank

    m = scenario(desc(inv(), tokens=["elder_sign"], locations=[{"code": "t_loc_a", "clues": 2}],
                      enemies=[{"code": "01103", "engaged": 0}]))
    assert investigator_blank(st(m), 0)
    assert dof(st(m), st(m).inv[0].card).elder_sign is None
    answer(m, "investigate")  # Roland's elder sign (+1 per clue here) has no effect: 3 vs 2
    assert events(m, "test_succeeded")[0].data["value"] == 3
    m2 = scenario(desc(inv("01003", resources=5), enemies=[{"code": "01103", "location": "t_loc_b"}]))
    assert not investigator_blank(st(m2), 0)
    assert any(k.startswith(f"fast:{st(m2).inv[0].card}:") for k in keys(m2))
    m3 = scenario(desc(inv("01003", resources=5), enemies=[{"code": "01103", "engaged": 0}]))
    assert not any(k.startswith(f"fast:{st(m3).inv[0].card}:") for k in keys(m3))


def test_A994_8_a_treachery_without_a_skill_bonus_leaves_the_skills_alone() -> None:
    """Hospital Debts (01011) in Skids' threat area changes none of his skills, with or
    without scenario-defined cards in the match (which take the rules' general path)."""
    extra = [{"code": "x_note", "name": "Note", "type_code": "asset", "cost": 0}]
    for cards in ([], extra):
        m = scenario(desc(inv("01003", threat=["01011"]), cards=cards))
        assert [skill_value(st(m), 0, s) for s in ("willpower", "intellect", "combat",
                                                    "agility")] == [2, 3, 3, 4]
