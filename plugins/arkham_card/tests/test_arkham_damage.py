"""Damage, horror, defeat, trauma and elimination (A205, A701–A709)."""

from __future__ import annotations

from tcgcore_arkham_card import scenario
from tcgcore_arkham_card.testkit import (
    answer,
    codes_in,
    desc,
    enemy,
    events,
    investigator,
    keys,
    kind,
    loc,
    result,
    st,
    who,
)

DECK = ["t_guts"] * 6


def inv(code: str = "t_inv_guard", **kw: object) -> dict[str, object]:
    return investigator(code, DECK, **kw)


def test_A701_1_A701_2_assigned_then_placed_at_once() -> None:
    m = scenario(desc(inv(assets=["t_dog"]), phase="enemy",
                      enemies=[{"code": "t_ghoul", "engaged": 0}]))
    dog = enemy(m, "t_dog")
    assert kind(m) == "assign_damage"
    answer(m, f"asset:{dog}")
    assert kind(m) == "assign_horror"
    assert not events(m, "harm_placed")  # nothing placed before assignment ends
    answer(m, "inv")
    placed = events(m, "harm_placed")
    assert len(placed) == 1 and {k: placed[0].data[k] for k in ("damage", "horror", "source")
                                 } == {"damage": 0, "horror": 1, "source": enemy(m, "t_ghoul")}
    assert st(m).cards[dog].counters["damage"] == 1


def test_A701_5_only_own_assets_soak() -> None:
    m = scenario(desc(inv(), inv("t_inv_seeker", assets=["t_coat"]), phase="enemy",
                      enemies=[{"code": "t_ghoul", "engaged": 0}]))
    assert st(m).inv[0].damage == 1 and st(m).inv[0].horror == 1


def test_A205_2_asset_defeated_by_horror() -> None:
    m = scenario(desc(inv(assets=[{"code": "t_dog"}]), phase="enemy",
                      enemies=[{"code": "t_ghoul", "engaged": 0}]))
    dog = enemy(m, "t_dog")
    answer(m, "inv")
    answer(m, f"asset:{dog}")  # sanity 1
    assert st(m).cards[dog].zone == "discard.0"


def test_A703_1_A704_1_defeat_by_damage_gives_physical_trauma() -> None:
    m = scenario(desc(inv(damage=8), phase="enemy", enemies=[{"code": "t_rat",
                                                              "engaged": 0}]))
    assert result(m).reason == "all_defeated"
    assert result(m).detail["trauma0"] == "physical" and result(m).losers == [0]


def test_A704_2_defeat_by_horror_gives_mental_trauma() -> None:
    m = scenario(desc(inv(horror=4), phase="enemy", enemies=[{"code": "t_ghoul",
                                                              "engaged": 0}]))
    assert result(m).detail["trauma0"] == "mental"


def test_A704_3_both_at_once_choose_one_trauma() -> None:
    m = scenario(desc(inv(horror=4, damage=8), phase="enemy",
                      enemies=[{"code": "t_ghoul", "engaged": 0}]))
    assert kind(m) == "trauma"
    answer(m, "mental")
    assert result(m).detail["trauma0"] == "mental"


def test_A705_1_to_A705_9_A101_3_elimination_steps() -> None:
    m = scenario(desc(inv(damage=8, clues=2, resources=4, hand=["t_guts"],
                          assets=["t_pistol"], threat=["t_voices"]),
                      inv("t_inv_seeker", location="t_loc_b"),
                      locations=[{"code": "t_loc_a", "clues": 0}, {"code": "t_loc_b"}],
                      phase="enemy", enemies=[{"code": "t_rat", "engaged": 0, "damage": 0}]))
    a = loc(m, "t_loc_a")
    assert st(m).inv[0].status == "defeated"
    assert st(m).cards[a].counters["clues"] == 2  # A705.3
    assert st(m).inv[0].resources == 0  # A705.4
    rat = enemy(m, "t_rat")
    assert st(m).cards[rat].zone == f"at.{a}" and st(m).cards[rat].exhausted is False
    voices = enemy(m, "t_voices")
    assert next(e.dst for e in events(m) if e.card == voices) == "encounter_discard"  # A705.7
    assert codes_in(m, "play.0") == ["t_inv_guard"]  # A705.8
    assert codes_in(m, "hand.0") == [] and codes_in(m, "deck.0") == []
    assert codes_in(m, "discard.0") == []
    # A705.9: the eliminated investigator no longer takes turns
    assert m.pending is not None and who(m) == 1


def test_A706_1_resign_no_trauma_A708_1_all_gone_no_resolution() -> None:
    m = scenario({"investigators": [inv(location="t_loc_vault")],
                  "locations": [{"code": "t_loc_vault"}]})
    answer(m, f"activate:{loc(m, 't_loc_vault')}:0")
    assert result(m).reason == "no_resolution"
    assert result(m).detail["resolution"] == "R-none" and "trauma0" not in result(m).detail
    assert result(m).losers == [] and result(m).winners == []


def test_A707_1_new_lead_named_by_next_in_player_order() -> None:
    m = scenario({"investigators": [inv(location="t_loc_vault"),
                                    inv("t_inv_seeker", location="t_loc_vault"),
                                    inv("t_inv_rogue", location="t_loc_vault")],
                  "locations": [{"code": "t_loc_vault"}]})
    answer(m, "inv:0")
    answer(m, f"activate:{loc(m, 't_loc_vault')}:0")
    assert kind(m) == "choose_lead" and who(m) == 1
    answer(m, "inv:2")
    assert st(m).lead == 2
    assert kind(m) == "turn_order" and who(m) == 2


def test_A709_1_healing_stops_at_zero() -> None:
    m = scenario(desc(inv(damage=1), cards=[
        {"code": "x_aid", "name": "Aid", "type_code": "event", "cost": 0,
         "effects": [{"op": "heal_damage", "amount": 3}]}], ))
    st(m)
    m2 = scenario(desc(inv(damage=1, hand=["x_aid"]), cards=[
        {"code": "x_aid", "name": "Aid", "type_code": "event", "cost": 0,
         "effects": [{"op": "heal_damage", "amount": 3}]}]))
    answer(m2, f"play:{enemy(m2, 'x_aid')}")
    assert st(m2).inv[0].damage == 0


def test_A907_3_empty_deck_horror_may_be_soaked() -> None:
    m = scenario(desc(inv(deck=[], discard=["t_guts"], assets=["t_charm"])))
    answer(m, "draw")
    assert kind(m) == "assign_horror"
    assert keys(m) == ["inv", f"asset:{enemy(m, 't_charm')}"]


def test_A705_2_when_the_game_ends_weakness_resolves_first() -> None:
    m = scenario(desc(inv(damage=8, threat=["x_secret"]), phase="enemy", cards=[
        {"code": "x_secret", "name": "Dark Secret", "type_code": "treachery",
         "subtype_code": "weakness", "forced": {"game_end": [
             {"op": "suffer_trauma", "code": "mental"}]}}],
        enemies=[{"code": "t_rat", "engaged": 0}]))
    assert result(m).detail["extra_trauma0"] == "mental"
    assert result(m).detail["trauma0"] == "physical"


def test_A701_6_prevention_after_assignment() -> None:
    m = scenario(desc(inv(assets=["x_helmet"]), phase="enemy", cards=[
        {"code": "x_helmet", "name": "Helmet", "type_code": "asset", "cost": 0,
         "bonus": {"prevent_damage": 1}}], enemies=[{"code": "t_ghoul", "engaged": 0}]))
    assert st(m).inv[0].damage == 0 and st(m).inv[0].horror == 1


def test_card_effects_change_experience() -> None:
    from tcgcore_arkham_card import new_campaign, record_scenario

    m = scenario(desc(inv(damage=8, threat=["x_debt"]), phase="enemy", cards=[
        {"code": "x_debt", "name": "Debts", "type_code": "treachery",
         "subtype_code": "weakness", "forced": {"game_end": [{"op": "xp", "amount": -2}]}}],
        enemies=[{"code": "t_rat", "engaged": 0}]))
    assert result(m).detail["xp_adjust0"] == -2
    camp = new_campaign(["t_inv_guard"])
    detail = dict(result(m).detail)
    detail["victory"] = 3
    import tcgcore

    camp = record_scenario(camp, tcgcore.Result(reason="x", detail=detail), xp_bonus=0)
    assert camp.investigators[0].xp == 1


def test_A705_9_defeated_by_an_attack_of_opportunity_the_action_never_happens() -> None:
    m = scenario(desc(inv(damage=8), inv("t_inv_seeker"),
                      enemies=[{"code": "t_ghoul", "engaged": 0}]))
    answer(m, "inv:0")
    answer(m, f"move:{loc(m, 't_loc_b')}")
    assert st(m).inv[0].status == "defeated"
    assert st(m).inv[0].location == loc(m, "t_loc_a")  # the move never resolved
    ghoul = enemy(m, "t_ghoul")
    assert st(m).cards[ghoul].zone == "threat.1"  # A705.6: engages the other investigator
    assert who(m) == 1


def test_A707_1_lead_defeated_in_the_enemy_phase_then_the_rest_is_attacked() -> None:
    m = scenario(desc(inv(damage=8), inv("t_inv_seeker", location="t_loc_b"),
                      inv("t_inv_rogue", location="t_loc_c"), phase="enemy",
                      enemies=[{"code": "t_ghoul", "engaged": 0},
                               {"code": "t_ghoul", "engaged": 2}]))
    assert kind(m) == "choose_lead" and who(m) == 1
    answer(m, "inv:2")
    assert st(m).lead == 2
    assert [e.player for e in events(m, "enemy_attacks")] == [0, 2]
    assert st(m).inv[2].damage == 1


def test_A701_agnes_reaction_after_horror_is_not_offered_after_damage_only() -> None:
    """Agnes Baker (01004) reacts after horror is placed on her: the Rat Swarm's attack (1
    damage, no horror) offers no reaction; the Ghoul's (1 and 1) does."""
    m = scenario(desc(inv("01004"), phase="enemy", enemies=[{"code": "t_rat", "engaged": 0}]))
    assert kind(m) == "action" and st(m).inv[0].damage == 1 and st(m).inv[0].horror == 0
    m2 = scenario(desc(inv("01004"), phase="enemy", enemies=[{"code": "t_ghoul", "engaged": 0}]))
    assert kind(m2) == "use_trigger" and st(m2).inv[0].horror == 1
