"""Card rulings of the Arkham plugin: investigations refused by Locked Door (A985.3),
validated trauma (A309.1), deck/scenario file errors of the command line, the campaign log's
cultists who got away (A991.5), Twisting Paths and engagement (A992.3), clue events that
cannot discover under The Masked Hunter (A904.2, A984.2), save-file checks, option labels
and player-chosen searches (A909.1); forced abilities before reactions (Ruth Turner,
A902.1), cards that could change nothing (A904.2), Hospital Debts' limit, Wendy's Amulet in
every window, hidden encounter searches, Disc of Itzamna, Police Badge requests, Cat
Burglar, Encyclopedia and On the Lam."""

from __future__ import annotations

from typing import Any

import pytest
from tcgcore_arkham_card import scenario
from tcgcore_arkham_card.testkit import (
    answer,
    desc,
    enemy,
    keys,
    loc,
    pass_until,
    pending,
    st,
)

import tcgcore

DECK = ["t_guts"] * 10


def _town(*invs: dict[str, Any], **kw: Any) -> dict[str, Any]:
    """Miskatonic University (3 clues) and Rivertown, Midnight Masks act and agendas."""
    d: dict[str, Any] = {"investigators": list(invs),
                         "locations": [{"code": "01129", "clues": 3}, {"code": "01125"}],
                         "acts": ["01123"], "agendas": ["01121", "01122"]}
    d.update(kw)
    return d


def _at_mu(code: str, **kw: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"code": code, "location": "01129", "deck": DECK}
    out.update(kw)
    return out


def _locked(*invs: dict[str, Any], **kw: Any) -> tcgcore.Match[Any]:
    """A Locked Door drawn in the mythos phase attaches to Miskatonic University (the most
    clues); play continues to the first action."""
    m = scenario(_town(*invs, phase="mythos", round=2, encounter_deck=["01174"],
                       tokens=["+1"] * 4, **kw))
    pass_until(m, "action")
    assert st(m).cards[enemy(m, "01174")].zone == f"at.{loc(m, '01129')}"
    return m


# ---------------------------------------------------------------------------- 1. A985.3


def test_A985_3_locked_door_refuses_investigate_abilities_of_cards() -> None:
    m = scenario(_town(_at_mu("01001", assets=["01087"])))  # no door: Flashlight offered
    assert f"activate:{enemy(m, '01087')}:0" in keys(m)
    m = _locked(_at_mu("01001", assets=["01087"]))  # Roland with a Flashlight
    flashlight = enemy(m, "01087")
    assert "investigate" not in keys(m)
    assert not [k for k in keys(m) if k.startswith(f"activate:{flashlight}:")]
    assert f"move:{loc(m, '01125')}" in keys(m)  # other actions stay available
    m = _locked(_at_mu("01003", assets=["01045"]))  # Skids with Burglary in play
    burglary = enemy(m, "01045")
    assert not [k for k in keys(m) if k.startswith(f"activate:{burglary}:")]
    m = _locked(_at_mu("01003", hand=["01045"]))
    assert f"play:{enemy(m, '01045')}" in keys(m)  # the asset itself can still be played


_PEEK = {"code": "t_peek", "name": "Quick Peek", "type_code": "event", "cost": 0,
         "play_action": "investigate", "text": "Investigate."}


def test_A985_3_locked_door_refuses_investigate_events() -> None:
    m = _locked(_at_mu("t_inv_seeker", hand=["t_peek"]), cards=[_PEEK])
    assert f"play:{enemy(m, 't_peek')}" not in keys(m)
    m = scenario(_town(_at_mu("t_inv_seeker", hand=["t_peek"]), cards=[_PEEK], tokens=["+1"]))
    assert f"play:{enemy(m, 't_peek')}" in keys(m)  # without the door it is offered


def test_A985_3_locked_door_abilities_name_their_skill() -> None:
    m = _locked(_at_mu("t_inv_guard"))
    door = enemy(m, "01174")
    labels = {o.key: o.label for o in pending(m).options}
    assert labels[f"activate:{door}:0"] == "Locked Door: test combat (4)"
    assert labels[f"activate:{door}:1"] == "Locked Door: test agility (4)"


# ---------------------------------------------------------------------------- 6. A904.2


def test_A904_2_A984_2_working_a_hunch_not_offered_while_clues_cannot_be_discovered() -> None:
    hunch = {"code": "01002", "location": "01129", "deck": DECK, "hand": ["01037"]}
    m = scenario(_town(hunch))  # Daisy at Miskatonic University (3 clues)
    assert f"fastplay:{enemy(m, '01037')}" in keys(m)
    m = scenario(_town(hunch, enemies=[{"code": "01121b", "engaged": 0}]))
    assert f"fastplay:{enemy(m, '01037')}" not in keys(m)  # engaged with the Masked Hunter
    m = scenario(_town(hunch, locations=[{"code": "01129", "clues": 0}, {"code": "01125"}]))
    assert f"fastplay:{enemy(m, '01037')}" not in keys(m)  # no clues to discover


# ---------------------------------------------------------------------------- 8. labels


def test_A983_1_masked_hunter_tie_names_the_investigators() -> None:
    m = scenario(_town(_at_mu("01001", clues=2), _at_mu("01002", clues=2),
                       phase="mythos", round=2, agenda_doom=5, set_aside=["01121b"],
                       tokens=["+1"]))
    pass_until(m, "engage_target")
    labels = sorted(o.label for o in pending(m).options)
    assert labels == ["Daisy Walker", "Roland Banks"]


_ = pytest


# ---------------------------------------------------------------------------- 2. A309.1


def test_A309_1_trauma_becomes_starting_damage_and_horror() -> None:
    m = tcgcore.new_match("arkham_card", seed=1, players=1, trauma=[[2, 1]])
    assert (st(m).inv[0].damage, st(m).inv[0].horror) == (2, 1)


@pytest.mark.parametrize("bad", [[[-5, 0]], [[0, -1]], [[1.5, 0]], [[True, 0]], [[0]],
                                 [[100, 0]], [[0, 100]], [7], [["1", 0]]])
def test_A309_1_trauma_option_is_validated(bad: Any) -> None:
    with pytest.raises(tcgcore.OptionsError, match="option 'trauma' seat 0"):
        tcgcore.new_match("arkham_card", seed=1, players=1, trauma=bad)


def test_A309_1_trauma_reaching_health_names_the_seat_and_the_limit() -> None:
    with pytest.raises(tcgcore.OptionsError, match=r"option 'trauma' seat 1: .*health"):
        tcgcore.new_match("arkham_card", seed=1, players=2, trauma=[[0, 0], [9, 0]])


# ---------------------------------------------------------------------------- 3. A971


def test_A971_4_play_deck_file_errors_name_the_file(tmp_path: Any,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    from tcgcore.cli import main

    binary = tmp_path / "deck.bin"
    binary.write_bytes(b"\xff\xfe\x00\x01binary")
    empty = tmp_path / "empty.json"
    empty.write_text("")
    for path, why in ((binary, "not a text deck list"), (empty, "empty file")):
        assert main(["play", "arkham_card", "--deck", str(path)]) == 2
        err = capsys.readouterr().err
        assert f"--deck {path}: {why}" in err and "codec" not in err


def test_A971_5_unknown_scenario_lists_the_scenarios() -> None:
    with pytest.raises(tcgcore.OptionsError) as info:
        tcgcore.new_match("arkham_card", seed=1, players=1, scenario="01999")
    assert "option 'scenario'" in str(info.value) and "'01999'" in str(info.value)
    assert "01104 (The Gathering), 01120 (The Midnight Masks), 01142 (The Devourer Below), " \
        "test (" in str(info.value)
    with pytest.raises(tcgcore.OptionsError, match="unknown scenario"):
        tcgcore.new_match("arkham_card", seed=1, players=1, scenario="../cards_core")


# ---------------------------------------------------------------------------- 4. A991.5

_GOT = "cultists who got away: "


def _devourer_doom(log: list[str]) -> int:
    m = tcgcore.new_match("arkham_card", seed=1, players=1, scenario="01142", log=log)
    answer(m)  # no mulligan; the scenario setup follows
    agenda = st(m).zones["agendas"].cards[0]
    return int(st(m).cards[agenda].counters.get("doom", 0))


@pytest.mark.parametrize(("log", "doom"), [
    ([_GOT + "Peter Warren, Ruth Turner, bogus"], 1),  # the unknown name is ignored
    ([_GOT + "01137"] * 6, 1),  # one cultist named six times counts once
    ([_GOT + "01138", _GOT + "herman collins"], 1),  # the same card by code and by name
    ([_GOT + "01137, 01138, 01139", _GOT + "Ghoul Priest", _GOT + "01104"], 2),  # not cultists
    ([_GOT + c for c in ("01137", "01138", "01139", "01140", "01141", "01121b")], 3),
])
def test_A991_5_only_known_cultists_count_once_for_the_starting_doom(log: list[str],
                                                                      doom: int) -> None:
    assert _devourer_doom(log) == doom


def test_A991_5_A993_4_a_cultist_named_twice_spawns_once() -> None:
    from tcgcore_arkham_card.testkit import codes_in, events

    locs: list[dict[str, Any]] = [{"code": "01149"}, {"code": "01150"}]
    d = {"investigators": [{"code": "t_inv_guard", "location": "01150", "deck": DECK,
                            "clues": 3}],
         "locations": locs, "acts": ["01146", "01147"], "set_aside": ["01156"],
         "encounter_deck": ["01166"] * 4}
    m = tcgcore.new_match("arkham_card", seed=0, players=1, scenario=d,
                          log=[_GOT + "01138", _GOT + "Herman Collins", _GOT + "01138",
                               _GOT + "bogus"])
    answer(m, "advance_act")
    assert codes_in(m, f"at.{loc(m, '01149')}") == ["01138"]
    assert [e.data["name"] for e in events(m, "spawn_failed")] == ["bogus"]


# ---------------------------------------------------------------------------- 5. A992.3

_WOODS = [{"code": "01149"}] + [{"code": c} for c in ("01150", "01151", "01152", "01153",
                                                        "01154", "01155")]


def test_A992_3_a_cancelled_move_lets_ready_enemies_engage_again() -> None:
    from tcgcore_arkham_card.testkit import events, kind

    m = scenario({"investigators": [{"code": "01003", "location": "01151", "deck": DECK,
                                     "assets": ["01055"]}],  # Skids with Cat Burglar
                  "locations": _WOODS, "enemies": [{"code": "t_ghoul", "engaged": 0}],
                  "tokens": ["-5"], "encounter_deck": ["01166"] * 4})
    ghoul = enemy(m, "t_ghoul")
    answer(m, f"activate:{enemy(m, '01055')}:0")  # disengage, then move to a connecting place
    assert kind(m) == "choose_location" and st(m).cards[ghoul].zone.startswith("at.")
    answer(m, f"location:{loc(m, '01149')}")  # Twisting Paths: intellect 3 - 5 fails
    assert events(m, "move_cancelled")
    assert st(m).inv[0].location == loc(m, "01151")
    assert st(m).cards[ghoul].zone == "threat.0"  # the ready Ghoul engages again (A602.1)


# ---------------------------------------------------------------------------- 7. saves


def _tampered(m: tcgcore.Match[Any], edit: Any) -> bytes:
    import msgspec

    doc = msgspec.json.decode(m.to_json())
    edit(doc["state"])
    return msgspec.json.encode(doc)


def _set_location(state: dict[str, Any]) -> None:
    state["inv"][0]["location"] = 9999


@pytest.mark.parametrize(("edit", "field"), [
    (_set_location, r"inv\[0\]\.location: 9999"),
    (lambda s: s.update(bag=[]), "bag: the chaos bag is empty"),
    (lambda s: s.update(bag=["skul"]), r"bag\[0\]"),
    (lambda s: s.update(scenario="01120"), "scenario: '01120' does not match"),
    (lambda s: s.update(scenario="01999"), "scenario: '01999' is not a scenario"),
])
def test_A302_5_A971_5_save_checks_name_the_tampered_field(edit: Any, field: str) -> None:
    """Tampered saves are refused with StateDecodeError naming the field (the chaos bag
    of A302.5 is never empty; a built-in scenario's acts and agendas match its name)."""
    m = tcgcore.new_match("arkham_card", seed=1, players=1, scenario="01142")
    answer(m)  # past the mulligan: The Devourer Below is set up
    assert tcgcore.Match.from_json(m.to_json()).digest() == m.digest()
    with pytest.raises(tcgcore.StateDecodeError, match=field):
        tcgcore.Match.from_json(_tampered(m, edit))


def test_A971_5_a_description_save_still_loads() -> None:
    m = scenario(_town(_at_mu("t_inv_guard")))
    assert tcgcore.Match.from_json(m.to_json()).digest() == m.digest()


# ---------------------------------------------------------------------------- 9. A909.1


def _search_keys(m: tcgcore.Match[Any], *codes: str) -> list[str]:
    return sorted(f"card:{enemy(m, c)}" for c in codes)


def test_A909_1_A975_7_research_librarian_lets_the_player_choose_the_tome() -> None:
    from tcgcore_arkham_card.testkit import codes_in, kind

    deck = ["t_guts", "01035", "t_guts", "01031", "01035"]  # Medical Texts x2, Old Book
    m = scenario(_town(_at_mu("01002", hand=["01032"], deck=deck)))
    answer(m, f"play:{enemy(m, '01032')}")
    assert kind(m) == "search" and sorted(keys(m)) == _search_keys(m, "01035", "01031")
    answer(m, f"card:{enemy(m, '01031')}")  # the second match in deck order
    assert codes_in(m, "hand.0") == ["01031"]
    assert sorted(codes_in(m, "deck.0")) == sorted(["t_guts", "t_guts", "01035", "01035"])
    m = scenario(_town(_at_mu("01002", hand=["01032"], deck=["t_guts", "01035", "01035"])))
    answer(m, f"play:{enemy(m, '01032')}")  # copies of one card: no question
    assert kind(m) == "action" and codes_in(m, "hand.0") == ["01035"]


def test_A909_1_A975_11_old_book_of_lore_lets_the_player_choose() -> None:
    from tcgcore_arkham_card.testkit import codes_in, kind

    m = scenario(_town(_at_mu("01002", assets=["01031"],
                              deck=["01035", "t_guts", "01042", "01061"])))
    answer(m, f"activate:{enemy(m, '01031')}:0")
    while kind(m) == "choose_investigator":
        answer(m, keys(m)[0])
    assert kind(m) == "search"
    assert sorted(keys(m)) == _search_keys(m, "01035", "t_guts", "01042")  # the top 3
    answer(m, f"card:{enemy(m, '01042')}")
    assert codes_in(m, "hand.0") == ["01042"]


def test_A909_1_A982_5_miskatonic_university_lets_the_player_choose() -> None:
    from tcgcore_arkham_card.testkit import codes_in, kind

    deck = ["t_guts", "01035", "01060", "t_guts", "t_guts", "t_guts", "01042"]
    m = scenario(_town(_at_mu("01002", deck=deck)))
    answer(m, f"activate:{loc(m, '01129')}:0")
    assert kind(m) == "search"  # Medical Texts and Shrivelling; Encyclopedia is 7th
    assert sorted(keys(m)) == _search_keys(m, "01035", "01060")
    answer(m, f"card:{enemy(m, '01060')}")
    assert codes_in(m, "hand.0") == ["01060"]


def test_A909_1_A982_4_mas_boarding_house_lets_the_player_choose_the_ally() -> None:
    from tcgcore_arkham_card.testkit import codes_in, kind

    d = _town(_at_mu("t_inv_guard", location="01127", deck=["01018", "t_guts", "01021"]),
              locations=[{"code": "01127"}, {"code": "01125"}])
    m = scenario(d)
    answer(m, f"activate:{loc(m, '01127')}:0")
    assert kind(m) == "search" and sorted(keys(m)) == _search_keys(m, "01018", "01021")
    answer(m, f"card:{enemy(m, '01021')}")
    assert codes_in(m, "hand.0") == ["01021"]


def test_A909_1_A984_3_mysterious_chanting_search_is_the_drawers_choice() -> None:
    from tcgcore_arkham_card.testkit import codes_in, kind

    m = scenario(_town(_at_mu("t_inv_guard"), phase="mythos", round=2,
                       encounter_deck=["01171", "01169", "01170"]))
    assert kind(m) == "search" and sorted(keys(m)) == _search_keys(m, "01169", "01170")
    answer(m, f"card:{enemy(m, '01170')}")
    if kind(m) == "spawn_location":
        answer(m, keys(m)[0])
    assert st(m).cards[enemy(m, "01170")].zone.startswith("at.")
    assert "01169" in codes_in(m, "encounter")


def test_A909_1_A995_2_skull_search_is_the_testers_choice() -> None:
    from tcgcore_arkham_card.testkit import kind

    skull = {"skull": {"modifier": -3,
                       "after_fail": [{"op": "search_encounter", "trait": "Monster"}]}}
    m = scenario(_town(_at_mu("t_inv_guard"), tokens=["skull"], token_effects=skull,
                       encounter_deck=["01160"], encounter_discard=["01161", "01160"]))
    answer(m, "investigate")
    while kind(m) not in ("search", "action"):
        answer(m) if pending(m).min == 0 else answer(m, keys(m)[0])
    assert kind(m) == "search" and sorted(keys(m)) == _search_keys(m, "01160", "01161")
    answer(m, f"card:{enemy(m, '01161')}")
    ravenous = st(m).cards[enemy(m, "01161")]
    assert ravenous.zone.startswith(("at.", "threat."))


def test_A984_6_herman_collins_parley_pays_the_discards_first() -> None:
    from tcgcore_arkham_card.testkit import codes_in, events, kind

    d = _town(_at_mu("t_inv_guard", location="01133", hand=["t_guts"] * 5),
              locations=[{"code": "01133"}, {"code": "01125"}],
              enemies=[{"code": "01138", "location": "01133", "exhausted": True}])
    m = scenario(d)
    answer(m, f"activate:{enemy(m, '01138')}:0")
    assert kind(m) == "hand_size" and "01138" not in codes_in(m, "victory")
    answer(m, *keys(m)[:4])
    assert "01138" in codes_in(m, "victory") and len(codes_in(m, "hand.0")) == 1
    order = [e.kind for e in events(m) if e.kind in ("discarded", "to_victory")]
    assert order[-1] == "to_victory" and order.count("discarded") >= 4


# ------------------------------------- forced abilities, offers that change nothing, limits


def _desc(*invs: dict[str, Any], **kw: Any) -> dict[str, Any]:
    from tcgcore_arkham_card.testkit import desc

    out: dict[str, Any] = desc(*invs, **kw)
    return out


def _until_action(m: Any) -> None:
    from tcgcore_arkham_card.testkit import kind

    for _ in range(20):
        if kind(m) == "action":
            return
        answer(m) if pending(m).min == 0 else answer(m, keys(m)[0])


def test_A902_1_A984_4_ruth_turner_leaves_before_close_call_is_offered() -> None:
    from tcgcore_arkham_card.testkit import codes_in, events, kind

    m = scenario(_desc({"code": "t_inv_rogue", "location": "t_loc_a", "hand": ["01083"],
                        "deck": ["01088"] * 5},
                       enemies=[{"code": "01141", "engaged": 0}], tokens=["+1"] * 4))
    answer(m, next(k for k in keys(m) if k.startswith("evade")))
    seen: list[str] = []
    while kind(m) != "action":
        seen.append(kind(m))
        answer(m) if pending(m).min == 0 else answer(m, keys(m)[0])
    assert "use_trigger" not in seen  # Close Call has nothing left to shuffle back
    assert codes_in(m, "victory") == ["01141"] and codes_in(m, "hand.0") == ["01083"]
    order = [e.kind for e in events(m)]
    assert order.index("enemy_evaded") < order.index("to_victory")


def test_A904_2_extra_ammunition_and_first_aid_need_something_to_change() -> None:
    m = scenario(_desc({"code": "t_inv_seeker", "location": "t_loc_a", "assets": ["01019"],
                        "hand": ["01026"], "resources": 5, "deck": ["01088"] * 5},
                       {"code": "t_inv_guard", "location": "t_loc_b", "damage": 2,
                        "assets": ["01016"], "deck": ["01088"] * 5}))
    answer(m, "inv:0")
    labels = [o.label for o in pending(m).options]
    assert not any("Extra Ammunition" in x or "First Aid" in x for x in labels)
    # the hurt Guardian with the Firearm comes over: now both can be used
    m2 = scenario(_desc({"code": "t_inv_seeker", "location": "t_loc_a", "assets": ["01019"],
                         "hand": ["01026"], "resources": 5, "deck": ["01088"] * 5},
                        {"code": "t_inv_guard", "location": "t_loc_a", "damage": 2,
                         "assets": ["01016"], "deck": ["01088"] * 5}))
    answer(m2, "inv:0")
    labels = [o.label for o in pending(m2).options]
    assert any("Extra Ammunition" in x for x in labels)
    assert sum("First Aid" in x for x in labels) == 1  # heal damage only: nobody has horror


def test_A904_2_old_book_of_lore_skips_empty_decks() -> None:
    from tcgcore_arkham_card.testkit import kind

    m = scenario(_desc({"code": "t_inv_guard", "location": "t_loc_a", "assets": ["01031"],
                        "deck": []},
                       {"code": "t_inv_seeker", "location": "t_loc_a", "deck": ["01088"]}))
    answer(m, "inv:0")
    book = next(o.key for o in pending(m).options if "Old Book" in o.label)
    answer(m, book)
    assert kind(m) != "choose_investigator"  # only the Seeker's deck can be searched
    m = scenario(_desc({"code": "t_inv_guard", "location": "t_loc_a", "assets": ["01031"],
                        "deck": []},
                       {"code": "t_inv_seeker", "location": "t_loc_b", "deck": ["01088"]}))
    answer(m, "inv:0")
    assert not any("Old Book" in o.label for o in pending(m).options)


def test_A904_2_A978_9_second_disc_of_itzamna_not_offered_for_a_discarded_enemy() -> None:
    from tcgcore_arkham_card.testkit import codes_in, kind

    m = scenario(_desc({"code": "t_inv_guard", "location": "t_loc_a", "assets": ["01041"],
                        "deck": ["01088"] * 5},
                       {"code": "t_inv_seeker", "location": "t_loc_a", "assets": ["01041"],
                        "deck": ["01088"] * 5},
                       encounter_deck=["t_rat", "t_ghoul", "t_rat", "t_rat"], phase="mythos",
                       round=2))
    assert kind(m) == "order_triggers" and len(keys(m)) == 2
    answer(m, keys(m)[0])
    answer(m, "yes")  # the Guardian's Disc discards the rat
    # the Seeker's Disc is next offered for the ghoul the Seeker draws, not for the rat
    assert kind(m) == "use_trigger" and pending(m).player == 1
    answer(m, "yes")
    _until_action(m)
    assert sorted(codes_in(m, "encounter_discard")) == ["t_ghoul", "t_rat"]
    assert codes_in(m, "threat.1") == [] and codes_in(m, "discard.1") == ["01041"]


def test_A974_3_hospital_debts_twice_per_round_counts_for_the_card() -> None:
    m = scenario(_desc({"code": "01003", "location": "t_loc_a", "threat": ["01011"],
                        "deck": ["01088"] * 5},
                       {"code": "t_inv_seeker", "location": "t_loc_a", "deck": ["01088"] * 5}))

    def debts() -> list[str]:
        return [o.key for o in pending(m).options if "Hospital" in o.label]

    answer(m, "inv:1")
    answer(m, debts()[0])
    answer(m, debts()[0])
    assert debts() == []
    answer(m, "end_turn")
    assert debts() == []  # Skids may not add two more this round
    debt = next(c for c in st(m).cards if c.code == "01011")
    assert debt.counters.get("resources") == 2


def test_A975_13_wendys_amulet_top_event_in_reaction_windows() -> None:
    from tcgcore_arkham_card.testkit import codes_in, kind

    # Sure Gamble on top of the discard pile: offered after a negative token
    m = scenario(_desc({"code": "01005", "location": "t_loc_a", "assets": ["01014"],
                        "discard": ["01088", "01056"], "deck": ["01037"] * 5},
                       tokens=["-2"] * 4))
    answer(m, "investigate")
    while kind(m) != "sure_gamble":
        answer(m) if pending(m).min == 0 else answer(m, keys(m)[0])
    gamble = next(k for k in keys(m) if k.startswith("play:"))
    answer(m, gamble)
    _until_action(m)
    assert codes_in(m, "discard.0") == ["01088"] and codes_in(m, "deck.0")[-1] == "01056"
    # Close Call on top: offered after an evasion like a hand card
    m = scenario(_desc({"code": "01005", "location": "t_loc_a", "assets": ["01014"],
                        "discard": ["01083"], "deck": ["01037"] * 5},
                       enemies=[{"code": "t_rat", "engaged": 0}], tokens=["+1"] * 4))
    answer(m, next(k for k in keys(m) if k.startswith("evade")))
    while kind(m) not in ("use_trigger", "action"):
        answer(m) if pending(m).min == 0 else answer(m, keys(m)[0])
    assert kind(m) == "use_trigger"
    answer(m, "yes")
    _until_action(m)
    assert "t_rat" in codes_in(m, "encounter") and codes_in(m, "deck.0")[-1] == "01083"


def test_A909_1_encounter_search_choices_stay_hidden_from_the_others() -> None:
    from tcgcore_arkham_card.testkit import codes_in, kind

    import tcgcore.testing as tt

    skull = {"skull": {"modifier": -5,
                       "after_fail": [{"op": "search_encounter", "trait": "Ghoul"}]}}
    m = scenario(_desc({"code": "t_inv_guard", "location": "t_loc_a", "deck": ["01088"] * 5},
                       {"code": "t_inv_seeker", "location": "t_loc_c", "deck": ["01088"] * 5},
                       tokens=["skull"], token_effects=skull,
                       encounter_deck=["t_rat", "t_ghoul", "t_rat", "t_brute", "t_boss",
                                       "t_ghoul"]))
    answer(m, "inv:0")
    answer(m, "investigate")
    while kind(m) != "search":
        answer(m) if pending(m).min == 0 else answer(m, keys(m)[0])
    for viewer in (0, 1, None):
        view = m.view(viewer)
        zones = {z.id: z for z in view.zones}
        assert zones["resolving"].count == 0
        assert [c.code for c in zones["aside.0"].cards if c is not None] == (
            ["t_ghoul", "t_boss"] if viewer == 0 else [])
        tt.assert_view_hides(m, viewer)
    answer(m, keys(m)[1])  # the Ghoul Lord
    _until_action(m)
    assert codes_in(m, "aside.0") == [] and sorted(codes_in(m, "encounter")) == [
        "t_brute", "t_ghoul", "t_ghoul", "t_rat", "t_rat"]


def test_A978_6_disc_of_itzamna_discards_a_weakness_enemy() -> None:
    from tcgcore_arkham_card.testkit import codes_in, kind

    m = scenario(_desc({"code": "t_inv_guard", "location": "t_loc_a", "assets": ["01041"],
                        "deck": ["01101", "01088"]}))
    answer(m, "draw")  # Mob Enforcer, a weakness enemy, spawns engaged with the Guardian
    assert kind(m) == "use_trigger"
    answer(m, "yes")
    assert codes_in(m, "threat.0") == [] and "01101" in codes_in(m, "discard.0")


def test_A978_4_police_badge_request_refused_once_per_turn_and_named() -> None:
    m = scenario(_desc({"code": "t_inv_guard", "location": "t_loc_a", "assets": ["01027"],
                        "deck": ["01088"] * 5},
                       {"code": "t_inv_seeker", "location": "t_loc_a", "deck": ["01088"] * 5}))
    answer(m, "inv:1")
    lend = next(o for o in pending(m).options if o.key.startswith("lend:"))
    assert lend.label == "Ask Test Guardian to use Police Badge"
    answer(m, lend.key)
    answer(m, "pass")
    assert lend.key not in keys(m)  # refused: not offered again this turn


def test_A904_2_labels_tell_first_aid_abilities_and_sure_gamble_copies_apart() -> None:
    from tcgcore_arkham_card.testkit import kind

    m = scenario(_desc({"code": "t_inv_seeker", "location": "t_loc_a", "assets": ["01019"],
                        "damage": 1, "horror": 1, "deck": ["01088"] * 5}))
    labels = sorted(o.label for o in pending(m).options if "First Aid" in o.label)
    assert labels == ["First Aid: heal damage", "First Aid: heal horror"]
    m = scenario(_desc({"code": "t_inv_rogue", "location": "t_loc_a",
                        "hand": ["01056", "01056"], "deck": ["01088"] * 5}, tokens=["-2"] * 4))
    answer(m, "investigate")
    while kind(m) != "sure_gamble":
        answer(m) if pending(m).min == 0 else answer(m, keys(m)[0])
    plays = [o for o in pending(m).options if o.key.startswith("play:")]
    assert len(plays) == 2 and len({o.label for o in plays}) == 2


def test_A975_14_A978_4_cat_burglar_moves_without_a_stay_option() -> None:
    from tcgcore_arkham_card.testkit import kind

    m = scenario(_desc({"code": "t_inv_rogue", "location": "t_loc_b", "assets": ["01055"],
                        "deck": ["01088"] * 5}, enemies=[{"code": "t_ghoul", "engaged": 0}]))
    answer(m, f"activate:{enemy(m, '01055')}:0")
    assert kind(m) == "choose_location" and "stay" not in keys(m)
    assert all(k.startswith("location:") for k in keys(m))


def test_A978_3_encyclopedia_bonus_ends_with_the_phase() -> None:
    from tcgcore_arkham_card.queries import skill_value
    from tcgcore_arkham_card.testkit import kind

    m = scenario(_desc({"code": "t_inv_seeker", "location": "t_loc_a", "assets": ["01042"],
                        "deck": ["01088"] * 5},
                       enemies=[{"code": "t_rat", "engaged": 0}, {"code": "t_rat", "engaged": 0}]))
    base = skill_value(st(m), 0, "agility")
    answer(m, next(o.key for o in pending(m).options if "Encyclopedia" in o.label))
    while kind(m) != "choose_skill":  # attacks of opportunity come first
        answer(m, keys(m)[0])
    answer(m, "skill:agility")
    _until_action(m)
    assert skill_value(st(m), 0, "agility") == base + 2
    answer(m, "end_turn")
    while kind(m) != "attack_order":  # the two rats attack in the enemy phase
        answer(m) if pending(m).min == 0 else answer(m, keys(m)[0])
    assert st(m).phase == "enemy"
    assert skill_value(st(m), 0, "agility") == base  # the investigation phase is over


def test_A974_6_on_the_lam_enemies_not_in_the_attack_order() -> None:
    from tcgcore_arkham_card.testkit import kind

    m = scenario(_desc({"code": "01003", "location": "t_loc_a", "hand": ["01010"],
                        "deck": ["01088"] * 5},
                       enemies=[{"code": "t_rat", "engaged": 0},
                                {"code": "t_rat", "engaged": 0}]))
    answer(m, f"fastplay:{enemy(m, '01010')}")  # as the turn begins (01010)
    _until_action(m)
    answer(m, "end_turn")
    seen = []
    while kind(m) != "action":  # through the enemy phase to the next round's first action
        seen.append(kind(m))
        answer(m) if pending(m).min == 0 else answer(m, keys(m)[0])
    assert "attack_order" not in seen  # neither rat could attack Skids
    assert "flag:on_the_lam:round" not in st(m).inv[0].limits  # the round did end


def test_A975_3_survival_instinct_moves_the_evading_investigator() -> None:
    """Committed by another investigator, Survival Instinct still acts on the one evading."""
    m = scenario(desc({"code": "t_inv_rogue", "location": "t_loc_b", "deck": ["01088"] * 5},
                      {"code": "t_inv_guard", "location": "t_loc_b", "hand": ["01081"],
                       "deck": ["01088"] * 5},
                      enemies=[{"code": "t_rat", "engaged": 0}, {"code": "t_ghoul", "engaged": 0}],
                      tokens=["+1"] * 4))
    answer(m, "inv:0")
    answer(m, next(k for k in keys(m) if k.startswith("evade")))
    for _ in range(8):
        p = m.pending
        assert p is not None
        if p.kind == "commit":
            answer(m, *([p.options[0].key] if p.player == 1 and p.options else []))
            continue
        break
    p = m.pending
    assert p is not None and p.kind == "disengage" and p.player == 0  # the evading one
    answer(m, "disengage")
    p = m.pending
    assert p is not None and p.kind == "choose_location" and p.player == 0
    assert st(m).zones["threat.0"].cards == []  # disengaged from the other enemy
