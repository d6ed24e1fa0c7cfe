"""Setup, mulligan, options and the scenario builder (rules.md sections 5 and 14)."""

from __future__ import annotations

from pathlib import Path

import pytest
from tcgcore_guimi_revival import RulesOptions
from tcgcore_guimi_revival.testing import build, game, ids, new_match, pick, player, registry

import tcgcore

POOL = str(Path(__file__).parent / "data" / "test_pool.toml")


def test_051_1_setup_zones_and_face_down_rb() -> None:
    """051.1, 051.3, 031.1: decks shuffled, extra decks placed, RBs face down, 5 cards each."""
    m = new_match(3)
    st = m.state
    for p in (0, 1):
        assert len(ids(m, f"hand.{p}")) == 5
        assert len(ids(m, f"deck.{p}")) == 37
        assert len(ids(m, f"extra.{p}")) == 7
        assert st.cards[st.rb[p]].face_down
        for kind in ("revival", "stack", "units", "spirit", "status", "underworld", "astral"):
            assert f"{kind}.{p}" in st.zones
    assert st.zones["units.0"].capacity == 4  # 032.1
    assert st.zones["spirit.0"].capacity == 7  # 034.1


def test_051_2_first_player_random_and_fixed() -> None:
    """051.2 (015.2): first player from the seeded RNG or the ``first_player`` option."""
    firsts = {new_match(s).state.first for s in range(12)}
    assert firsts == {0, 1}
    m = new_match(5, first_player="p1")
    assert m.state.first == 1
    assert m.pending is not None and m.pending.player == 1 and m.pending.kind == "mulligan"


def test_052_1_mulligan_puts_cards_back_and_redraws() -> None:
    """052.1, 052.2: chosen cards go to the deck, as many are drawn, then the deck shuffles;
    the first player decides first."""
    m = new_match(1, first_player="p0")
    hand = ids(m, "hand.0")
    before = len(m.events_since(0, player="all"))
    pick(m, [f"card:{hand[0]}", f"card:{hand[1]}"], "mulligan")
    evs = m.events_since(before, player="all")
    assert any(e.kind == "shuffled" and e.src == "deck.0" for e in evs)
    assert len(ids(m, "hand.0")) == 5 and len(ids(m, "deck.0")) == 37
    assert m.pending is not None and m.pending.player == 1 and m.pending.kind == "mulligan"


def test_052_1_only_one_mulligan_then_round_1() -> None:
    """052.1, 053.1, 053.2, 063.2: after both mulligans the RBs turn face up at sequence 9 and
    round 1 begins with the first player's draw."""
    m = new_match(2, first_player="p0")
    pick(m, [], "mulligan")
    pick(m, [], "mulligan")
    st = m.state
    assert m.pending is not None and m.pending.kind != "mulligan"
    assert not st.cards[st.rb[0]].face_down and not st.cards[st.rb[1]].face_down
    assert st.sequence == [9, 9] and st.corruption == [0, 0] and st.mad == [0, 0]
    assert st.round == 1 and len(ids(m, "hand.0")) == 6 and len(ids(m, "hand.1")) == 5


def test_141_1_options_validated_and_stored() -> None:
    """141.1, 141.2: options are validated, stored in the state, defaults fill the rest."""
    with pytest.raises(tcgcore.OptionsError, match="no_such_option"):
        new_match(0, no_such_option=1)
    with pytest.raises(tcgcore.OptionsError, match="defeat_condition"):
        new_match(0, defeat_condition="boredom")
    with pytest.raises(tcgcore.OptionsError, match="max_moves_per_turn"):
        new_match(0, max_moves_per_turn=4)  # withdrawn: moves have no cap (077.5, R9)
    m = new_match(0, defeat_condition="death", untap_scope="all")
    assert m.state.options.defeat_condition == "death"
    assert m.state.options.potion_limit == RulesOptions().potion_limit == "per_sequence"
    loaded = tcgcore.Match.from_bytes(m.to_bytes(), registry=registry())
    assert loaded.state.options == m.state.options


def test_deck_options() -> None:
    """``decks`` takes built-in names or deck lists; illegal decks raise DeckError unless
    ``deck_check`` is false; ``pool`` must be a string."""
    m = new_match(0, decks=["hunter", "hunter"])
    assert m.state.cards[m.state.rb[0]].code == "rb_hunter"
    bad = {"revival": "rb_seer", "main": {"seer_b9": 42}, "extra": []}
    with pytest.raises(tcgcore.DeckError):
        new_match(0, decks=[bad, "seer"])
    m = new_match(0, decks=[bad, "seer"], deck_check=False, extra_deck_size="up_to_7")
    assert len(ids(m, "deck.0")) == 37
    with pytest.raises(tcgcore.OptionsError):
        new_match(0, decks=["seer"])
    with pytest.raises(tcgcore.OptionsError):
        new_match(0, decks=["nobody", "seer"])
    with pytest.raises(tcgcore.OptionsError):
        new_match(0, deck_check="yes")
    with pytest.raises(tcgcore.OptionsError):
        new_match(0, pool=3)


SCENARIO_TOML = '''
first_player = 0
round = 2
phase = "main"

[[players]]
revival = "rb_seer"
sequence = 7
hand = ["seer_b9"]
deck = ["seer_b8", "seer_b7"]
units = ["seer_b6", "", { code = "it_charm", tapped = true }, ""]
spirit_world = [{ code = "ev_ward", face_down = true }, "seer_potion6"]
stack = [{ code = "seer_potion7", face_down = true }, "seer_potion8"]
status = [{ code = "marauder_b9", face_down = true }]
corruption = 2

[[players]]
revival = "rb_hunter"
deck = ["hunter_b9"]
'''


def test_scenario_from_toml_matches_dict() -> None:
    """The scenario builder takes TOML text or a dict and builds the same position."""
    import tomllib

    a = build(SCENARIO_TOML, pool=POOL)
    b = build(tomllib.loads(SCENARIO_TOML), pool=POOL)
    assert a.state_bytes() == b.state_bytes()
    st = a.state
    assert st.sequence[0] == 7 and st.corruption[0] == 2 and st.round == 2
    assert [st.cards[c].code for c in ids(a, "deck.0")] == ["seer_b8", "seer_b7"]
    units = st.zones["units.0"].cards
    assert st.cards[units[0]].code == "seer_b6" and units[1] == tcgcore.EMPTY_SLOT
    assert st.cards[units[2]].exhausted
    assert a.pending is not None and a.pending.kind == "main_action" and a.pending.player == 0


def test_scenario_saves_loads_and_replays() -> None:
    """A scenario match is a normal match: save, load and replay reproduce it."""
    m = build(SCENARIO_TOML, pool=POOL)
    pick(m, "end")
    loaded = tcgcore.Match.from_json(m.to_json(), registry=registry())
    assert loaded.state_bytes() == m.state_bytes()
    rebuilt = tcgcore.replay(m.replay(), registry=registry())
    assert rebuilt.digest() == m.digest()


def test_scenario_errors_name_the_field() -> None:
    """Bad scenarios raise OptionsError naming the problem."""
    with pytest.raises(tcgcore.OptionsError, match="unknown card"):
        build(game(player(hand=["no_such_card"])), pool=POOL)
    with pytest.raises(tcgcore.OptionsError, match="Revival Beyonder"):
        build(game(player("seer_b9")), pool=POOL)
    with pytest.raises(tcgcore.OptionsError, match="2 players"):
        build({"players": [player()]}, pool=POOL)
    with pytest.raises(tcgcore.OptionsError, match="TOML"):
        build("players = [", pool=POOL)
    with pytest.raises(tcgcore.OptionsError, match="units"):
        build(game(player(units=["seer_b9"] * 5)), pool=POOL)
    with pytest.raises(tcgcore.OptionsError, match="spirit_world"):
        build(game(player(spirit_world=["seer_b9"] * 8)), pool=POOL)
    with pytest.raises(tcgcore.OptionsError, match="sequence"):
        build(game(player(sequence=11)), pool=POOL)
    with pytest.raises(tcgcore.OptionsError, match="round"):
        build(game(round=0), pool=POOL)
    with pytest.raises(tcgcore.OptionsError, match="first_player"):
        build(game(first_player=2), pool=POOL)
    with pytest.raises(tcgcore.OptionsError):
        build(game(phase="teatime"), pool=POOL)


def test_scenario_phases() -> None:
    """Scenarios may start at any phase, at the start of a turn, in the battle phase or at the
    mulligan."""
    m = build(game(phase="mulligan", players=[player(hand=["seer_b9"]),
                                              player("rb_hunter")]), pool=POOL)
    assert m.pending is not None and m.pending.kind == "mulligan"
    m = build(game(player(units=["seer_b9", "", "", ""]), phase="battle"), pool=POOL)
    assert m.pending is not None and m.pending.kind == "attack"
    m = build(game(phase="start", active=1), pool=POOL)
    assert m.state.active_player == 1 and m.state.turn == 2
    m = build(game(phase="draw"), pool=POOL)
    assert len(ids(m, "hand.0")) == 1


def test_141_2_options_match_the_rules_document() -> None:
    """141.1, 141.2: every option in section 14 exists with the same values, default first."""
    import re
    import typing

    doc = Path(__file__).resolve().parents[3] / "docs" / "guimi_revival" / "rules.md"
    if not doc.exists():
        pytest.skip("rules.md not written yet")
    text = doc.read_text(encoding="utf-8")
    rows = re.findall(r"^\| `(\w+)` \| (.*?) \|", text[text.index("## 14."):], flags=re.M)
    hints = typing.get_type_hints(RulesOptions)
    assert rows
    for name, cell in rows:
        values = re.findall(r"`(\w+)`", cell)
        assert getattr(RulesOptions(), name) == values[0], name
        assert set(typing.get_args(hints[name])) == set(values), name
