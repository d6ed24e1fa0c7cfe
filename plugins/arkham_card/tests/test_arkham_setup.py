"""Setup, options, card data and concepts (A1, A2 data rules, A3)."""

from __future__ import annotations

from typing import Any

import pytest
from tcgcore_arkham_card import parse_cards, scenario
from tcgcore_arkham_card.queries import player_order
from tcgcore_arkham_card.scenario_setup import chaos_bag
from tcgcore_arkham_card.testkit import answer, codes_in, desc, kind, loc, st, who

import tcgcore


def new(players: int = 1, **opts: Any) -> tcgcore.Match[Any]:
    opts.setdefault("scenario", "test")
    return tcgcore.new_match("arkham_card", seed=3, players=players, **opts)


def test_A101_2_seat_count_and_duplicate_investigators_refused() -> None:
    with pytest.raises(tcgcore.OptionsError):
        new(5)
    with pytest.raises(tcgcore.OptionsError):
        new(2, investigators=["t_inv_guard", "t_inv_guard"])
    with pytest.raises(tcgcore.OptionsError, match="difficulty"):
        new(1, difficulty="nightmare")
    with pytest.raises(tcgcore.OptionsError, match="bogus"):
        new(1, bogus=1)


def test_A102_1_each_investigator_has_its_own_zones() -> None:
    m = new(4)
    for s in range(4):
        for z in ("deck", "hand", "discard", "play", "threat"):
            assert st(m).zones[f"{z}.{s}"].owner == s
        assert len(st(m).zones[f"hand.{s}"].cards) == 5  # A304.1


def test_A201_1_investigator_stats_from_card_data() -> None:
    from tcgcore_arkham_card.queries import inv_health, inv_sanity, skill_value

    m = new(1)
    assert [skill_value(st(m), 0, k) for k in ("willpower", "intellect", "combat", "agility")] \
        == [3, 3, 4, 2]
    assert (inv_health(st(m), 0), inv_sanity(st(m), 0)) == (9, 5)


@pytest.mark.parametrize("difficulty,size", [("easy", 16), ("standard", 16), ("hard", 17),
                                             ("expert", 18)])
def test_A302_1_to_A302_4_chaos_bag_by_difficulty(difficulty: str, size: int) -> None:
    bag = chaos_bag(difficulty)
    assert len(bag) == size
    for sym in ("cultist", "tablet", "auto_fail", "elder_sign"):
        assert bag.count(sym) == 1
    assert bag.count("skull") == 2
    m = new(1, difficulty=difficulty)
    assert sorted(st(m).bag) == sorted(bag)


def test_A302_2_A302_3_bag_numbers() -> None:
    assert sorted(t for t in chaos_bag("standard") if t[-1].isdigit()) == sorted(
        ["+1", "0", "0", "-1", "-1", "-1", "-2", "-2", "-3", "-4"])
    assert sorted(t for t in chaos_bag("hard") if t[-1].isdigit()) == sorted(
        ["0", "0", "0", "-1", "-1", "-2", "-2", "-3", "-3", "-4", "-5"])


def test_A302_5_revealed_tokens_go_back_into_the_bag() -> None:
    m = scenario(desc({"code": "t_inv_guard", "location": "t_loc_a", "deck": ["t_guts"]}))
    before = sorted(st(m).bag)
    answer(m, "investigate")
    assert sorted(st(m).bag) == before


def test_A303_1_A306_1_A103_1_starting_resources_and_default_lead() -> None:
    m = new(3)
    assert [i.resources for i in st(m).inv] == [5, 5, 5]
    assert st(m).lead == 0
    m2 = new(3, lead=2)
    assert st(m2).lead == 2 and player_order(st(m2)) == [2, 0, 1]  # A104.1


def test_A304_2_A305_2_weaknesses_set_aside_and_shuffled_back() -> None:
    deck = ["t_w_dread"] * 4 + ["t_guts", "t_perception", "t_overpower", "t_dexterity",
                                "t_courage", "t_knife", "t_lamp", "t_bat", "t_coat", "t_cache",
                                "t_hunch"] * 2
    m = new(1, decks=[deck])
    hand = codes_in(m, "hand.0")
    assert len(hand) == 5 and "t_w_dread" not in hand
    assert kind(m) == "mulligan"
    answer(m)  # no mulligan (A305.3)
    assert codes_in(m, "aside.0") == []
    assert codes_in(m, "deck.0").count("t_w_dread") == 4


def test_A305_1_A305_3_one_mulligan_redraws() -> None:
    m = new(2)
    assert kind(m) == "mulligan" and who(m) == 0
    hand = list(st(m).zones["hand.0"].cards)
    answer(m, f"card:{hand[0]}", f"card:{hand[1]}")
    assert len(st(m).zones["hand.0"].cards) == 5
    assert st(m).inv[0].mulliganed
    assert kind(m) == "mulligan" and who(m) == 1
    assert len(st(m).zones["deck.0"].cards) + 5 == 23


def test_A307_1_A307_2_A308_1_A308_2_A301_1_scenario_setup_after_mulligans() -> None:
    m = new(2)
    assert st(m).zones["acts"].cards == []  # A301.1: mulligans first
    answer(m)
    answer(m)
    kinds = [e.kind for e in m.events_since(0, player="all") if e.kind in ("mulligan", "location_revealed")]
    assert kinds == ["mulligan", "mulligan", "location_revealed"]
    assert codes_in(m, "acts") == ["t_act1", "t_act2"]
    assert codes_in(m, "agendas") == ["t_agenda1", "t_agenda2"]
    assert len(st(m).zones["encounter"].cards) == 18
    assert codes_in(m, "setaside") == ["t_boss"]  # A307.3
    foyer = loc(m, "t_loc_foyer")
    assert all(i.location == foyer for i in st(m).inv)
    assert st(m).cards[foyer].counters == {"revealed": 1, "clues": 2}  # 1 per investigator
    assert "revealed" not in st(m).cards[loc(m, "t_loc_library")].counters


def test_A309_1_trauma_becomes_starting_damage_and_horror() -> None:
    m = new(2, trauma=[[1, 0], [0, 2]])
    assert [(i.damage, i.horror) for i in st(m).inv] == [(1, 0), (0, 2)]


def test_A401_2_round_one_has_no_mythos_phase() -> None:
    m = new(1)
    answer(m)
    assert kind(m) == "action"
    assert st(m).turn == 1 and st(m).phase == "investigation"
    agenda = st(m).zones["agendas"].cards[0]
    assert st(m).cards[agenda].counters.get("doom", 0) == 0
    assert len(st(m).zones["encounter"].cards) == 18


def test_card_data_errors_name_file_card_and_field() -> None:
    with pytest.raises(tcgcore.CardDataError, match=r"x\.json: card c1: .*health"):
        parse_cards(b'[{"code": "c1", "name": "A", "type_code": "enemy", "health": "x"}]',
                    source="x.json")
    with pytest.raises(tcgcore.CardDataError, match="type_code"):
        parse_cards(b'[{"code": "c1", "name": "A", "type_code": "gizmo"}]', source="x.json")
    with pytest.raises(tcgcore.CardDataError, match="code"):
        parse_cards(b'[{"name": "A"}]', source="x.json")
    with pytest.raises(tcgcore.CardDataError, match="repeated"):
        parse_cards(b'[{"code": "c", "name": "A", "type_code": "event"},'
                    b'{"code": "c", "name": "A", "type_code": "event"}]', source="x.json")


def test_description_errors_name_the_field() -> None:
    with pytest.raises(tcgcore.OptionsError, match="locations"):
        scenario({"investigators": [{"code": "t_inv_guard"}], "locations": [{"code": "nope"}]})
    with pytest.raises(tcgcore.OptionsError, match="phase"):
        scenario(desc(phase="lunch"))
    with pytest.raises(tcgcore.OptionsError):
        scenario({"investigators": [{"code": "t_inv_guard", "colour": 1}], "locations": []})


def test_scenario_builder_accepts_toml() -> None:
    m = scenario('''
phase = "investigation"
tokens = ["0"]
[[investigators]]
code = "t_inv_seeker"
location = "t_loc_b"
hand = ["t_perception"]
[[locations]]
code = "t_loc_a"
[[locations]]
code = "t_loc_b"
clues = 3
''')
    assert st(m).inv[0].location == loc(m, "t_loc_b")
    assert st(m).cards[loc(m, "t_loc_b")].counters["clues"] == 3
    assert codes_in(m, "hand.0") == ["t_perception"]


def test_description_overrides_investigator_stats() -> None:
    from tcgcore_arkham_card.queries import inv_health, skill_value

    m = scenario(desc({"code": "t_inv_guard", "location": "t_loc_a", "combat": 6,
                       "health": 2}))
    assert skill_value(st(m), 0, "combat") == 6 and inv_health(st(m), 0) == 2
    assert skill_value(st(m), 0, "intellect") == 3


def test_views_hide_forced_tokens_deck_order_and_hands() -> None:
    import msgspec

    def build(token: str) -> tcgcore.Match[Any]:
        return scenario(desc({"code": "t_inv_guard", "location": "t_loc_a",
                              "hand": ["t_guts"], "deck": ["t_knife", "t_lamp"]},
                             {"code": "t_inv_seeker", "location": "t_loc_a"},
                             tokens=[token], encounter_deck=["t_rat", "t_omen"]))

    a, b = build("elder_sign"), build("-8")
    assert msgspec.json.encode(a.view(1)) == msgspec.json.encode(b.view(1))
    for zone in a.view(1).zones:
        if zone.id in ("deck.0", "hand.0", "encounter"):
            assert zone.cards == [] and zone.count > 0


@pytest.mark.parametrize(("description", "message"), [
    ([], "table"),
    ({"investigators": [{"code": "t_inv_guard", "location": "t_loc_a"}],
      "locations": [{"code": "t_loc_a"}], "enemies": [{"code": "t_ghoul", "engaged": 9}]},
     r"enemies\[0\]\.engaged"),
    ({"investigators": [{"code": "t_inv_guard", "location": "t_loc_a"}],
      "locations": [{"code": "t_loc_a"}], "chaos_bag": []}, "at least one token"),
    ({"investigators": [{"code": "t_inv_guard", "location": "t_loc_a"}],
      "locations": [{"code": "t_loc_a"}], "lead": 9}, "lead 9"),
])
def test_A301_1_malformed_scenario_descriptions_are_options_errors(
        description: Any, message: str) -> None:
    """A301.1 (scenario builder input): malformed descriptions name the field at build time."""
    with pytest.raises(tcgcore.OptionsError, match=message):
        scenario(description)


@pytest.mark.parametrize("lead", [True, False, 2, -1, "0", 1.0, None])
def test_A306_1_the_lead_option_is_a_seat_number(lead: Any) -> None:
    # a bool is an int to isinstance, but not a seat: it was once stored as the lead, which
    # left a state its own save could not load (and the compiled build turned True into 1)
    with pytest.raises(tcgcore.OptionsError, match=r"option 'lead' must be a seat 0\.\.1"):
        new(2, lead=lead)
    assert new(2, lead=1).state.lead == 1


def test_A101_the_game_takes_one_to_four_investigators() -> None:
    """1 and 4 investigators are accepted, 0 and 5 refused with the range."""
    for n in (1, 4):
        assert tcgcore.new_match("arkham_card", seed=0, players=n).state.num_players == n
    for n in (0, 5):
        with pytest.raises(tcgcore.OptionsError, match=r"players must be 1\.\.4"):
            tcgcore.new_match("arkham_card", seed=0, players=n)


def test_A407_1_a_described_scenario_without_locations_offers_the_basic_actions() -> None:
    """A description with no locations leaves the investigator at none (location -1): the
    turn offers draw, resource and end turn (Burglary has no location to investigate), and no
    location -1 is looked up for abilities: neither card -1 nor the cards "at" it."""
    from tcgcore_arkham_card import scenario

    m = scenario({"investigators": [{"code": "t_inv_guard", "deck": ["t_guts"] * 6,
                                     "assets": ["01045"]}], "locations": []})
    assert st(m).inv[0].location == -1
    assert kind(m) == "action"
    assert m.pending is not None and m.pending.keys == ["draw", "resource", "end_turn"]
