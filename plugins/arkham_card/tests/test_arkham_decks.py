"""ArkhamDB deck import, deck-building checks, starter decks, the default match, the
heuristic agent and the front-end hooks (A971, A972, A977)."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from tcgcore_arkham_card.agent import HeuristicAgent, success_chance
from tcgcore_arkham_card.decks import (
    STARTERS,
    basic_weaknesses,
    check_deck,
    deck_codes,
    deck_problems,
    load_deck,
    parse_deck,
    starter_deck,
)
from tcgcore_arkham_card.testkit import codes_in, st

import tcgcore

ROLAND = {"id": 20344, "name": "Roland Banks (Core Set)", "investigator_code": "01001",
          "investigator_name": "Roland Banks",
          "slots": {"01006": 1, "01007": 1, "01000": 1, "01016": 1, "01017": 2, "01020": 2,
                    "01021": 2, "01022": 2, "01023": 2, "01024": 1, "01025": 2, "01037": 2,
                    "01039": 2, "01086": 2, "01087": 2, "01088": 2, "01089": 2, "01091": 2,
                    "01093": 2},
          "sideSlots": [], "ignoreDeckLimitSlots": None, "xp": None, "taboo_id": None,
          "meta": "", "version": "1.0"}


def text(deck: dict[str, Any]) -> str:
    return json.dumps(deck)


# ------------------------------------------------------------------ import


def test_A971_1_arkhamdb_export_is_read_with_its_extra_fields() -> None:
    deck = parse_deck(text(ROLAND))
    assert deck.investigator == "01001" and deck.slots["01017"] == 2 and deck.side == {}
    assert deck_problems(deck) == []  # the public app's Roland deck is legal
    odd = dict(ROLAND, sideSlots={"01030": 1}, meta='{"alternate_front":""}', tags="guardian",
               date_creation="2017-01-01T00:00:00+00:00", xp_adjustment=0, problem=None)
    deck2 = parse_deck(text(odd))
    assert deck2.side == {"01030": 1} and deck_problems(deck2) == []
    assert 1 not in deck2.side.values() or "01030" not in deck_codes(deck2)  # side not played


def test_A971_1_bad_json_and_missing_fields_are_clear_errors() -> None:
    with pytest.raises(tcgcore.DeckError, match="not valid JSON"):
        parse_deck("{oops", "x.json")
    with pytest.raises(tcgcore.DeckError, match="investigator_code"):
        parse_deck(text({"slots": {}}))
    with pytest.raises(tcgcore.DeckError, match="quantity"):
        parse_deck(text(dict(ROLAND, slots={"01016": "two"})))
    assert check_deck("[1, 2]", "x") == ["an ArkhamDB deck is a JSON object"]


def test_A971_2_random_basic_weakness_uses_the_match_rng() -> None:
    pool = basic_weaknesses()
    assert len(pool) == 10 and pool.count("01096") == 2  # Amnesia x2 in the core set
    weak = set()
    for seed in range(12):
        m = tcgcore.new_match("arkham_card", seed=seed, decks=[text(ROLAND)])
        state = st(m)
        codes = [c.code for c in state.cards if c.owner == 0 and c.code in pool]
        assert len(codes) == 1
        weak.add(codes[0])
        again = tcgcore.new_match("arkham_card", seed=seed, decks=[text(ROLAND)])
        assert again.digest() == m.digest()
    assert len(weak) > 1


def test_A971_3_starter_decks_are_legal_arkhamdb_files() -> None:
    root = Path(__file__).resolve().parents[1] / "src" / "tcgcore_arkham_card" / "data" / "decks"
    for code, name in STARTERS.items():
        raw = json.loads((root / f"{name}.json").read_text(encoding="utf-8"))
        assert raw["investigator_code"] == code and "01000" in raw["slots"]
        deck = starter_deck(name)
        assert deck_problems(deck) == [], name
        assert sum(deck.slots.values()) == 33
    assert load_deck("Daisy Walker").investigator == "01002"
    assert load_deck("01003").investigator == "01003"
    with pytest.raises(tcgcore.DeckError, match="neither a starter deck"):
        load_deck("nobody")


def test_A971_4_deck_count_must_match_players() -> None:
    with pytest.raises(tcgcore.OptionsError, match=r"2 deck.*1 investigator.*players=2"):
        tcgcore.new_match("arkham_card", seed=1, decks=["roland", "daisy"])
    m = tcgcore.new_match("arkham_card", seed=1, players=2, decks=["roland", "daisy"])
    assert [i.code for i in st(m).inv] == ["01001", "01002"]
    with pytest.raises(tcgcore.OptionsError, match="disagrees"):
        tcgcore.new_match("arkham_card", seed=1, decks=["roland"], investigators=["01002"])
    with pytest.raises(tcgcore.DeckError) as err:
        tcgcore.new_match("arkham_card", seed=1, decks=[text(dict(ROLAND, slots={}))])
    assert any("seat 0" in p for p in err.value.problems)


def test_A971_5_default_match_is_the_gathering_with_rolands_starter_deck() -> None:
    m = tcgcore.new_match("arkham_card", seed=3)
    state = st(m)
    assert state.scenario == "01104" and [i.code for i in state.inv] == ["01001"]
    owned = sorted(c.code for c in state.cards if c.owner == 0 and c.zone != "play.0"
                   and c.code.startswith("010") and int(c.code) < 1096)
    assert "01006" in owned and "01007" in owned
    assert len(codes_in(m, "hand.0")) == 5
    m4 = tcgcore.new_match("arkham_card", seed=3, players=4)
    assert [i.code for i in st(m4).inv] == ["01001", "01002", "01003", "01004"]
    t = tcgcore.new_match("arkham_card", seed=3, scenario="test")
    assert st(t).scenario == "test"


# ------------------------------------------------------------------ deck building


def test_A972_1_to_A972_6_every_problem_at_once_with_code_and_name() -> None:
    bad = dict(ROLAND, slots={"01006": 1, "01020": 3, "99999": 1, "01060": 1, "01010": 1,
                              "01116": 1})
    problems = check_deck(text(bad), "bad.json")
    joined = "\n".join(problems)
    assert "unknown card code '99999'" in joined  # A972.6
    assert "01060 Shrivelling: mystic level 0 is not allowed for Roland Banks" in joined  # A972.2
    assert "01010 On the Lam: only" in joined  # A972.4
    assert "01020 Machete: 3 copies (limit 2 per title)" in joined  # A972.3
    assert "deck has 4 cards, Roland Banks needs 30" in joined  # A972.1
    assert "01007 Cover Up: required card of Roland Banks is missing" in joined  # A972.4
    assert "random basic weakness" in joined  # A972.5
    assert "01116 Ghoul Priest: a story card cannot be in a deck" in joined  # A972.6
    [line] = check_deck(text(dict(ROLAND, investigator_code="01999")), "x")
    assert line.startswith("unknown investigator code '01999' (the investigators are ")
    assert "01001 Roland Banks" in line and "01005 Wendy Adams" in line  # A972.6


def test_A972_2_secondary_class_levels() -> None:
    from tcgcore_arkham_card.cards import CardDef
    from tcgcore_arkham_card.decks import option_allows

    roland = starter_deck("roland")
    assert deck_problems(roland) == []
    inv = CardDef(code="x", name="X", type_code="investigator",
                  deck_options=("guardian:0-5", "seeker:0-2"))
    lvl3 = CardDef(code="y", name="Y", type_code="asset", faction_code="seeker", xp=3)
    lvl2 = CardDef(code="z", name="Z", type_code="asset", faction_code="seeker", xp=2)
    assert not option_allows(inv, lvl3) and option_allows(inv, lvl2)


def test_A972_deck_check_cli(tmp_path: Path) -> None:
    from tcgcore.cli import main

    good = tmp_path / "roland.json"
    good.write_text(text(ROLAND), encoding="utf-8")
    out = io.StringIO()
    assert main(["deck", "check", "arkham_card", str(good)], out=out) == 0
    assert "legal" in out.getvalue()
    bad = tmp_path / "bad.json"
    bad.write_text(text(dict(ROLAND, slots={"01020": 3})), encoding="utf-8")
    out = io.StringIO()
    assert main(["deck", "check", "arkham_card", str(bad)], out=out) == 1
    assert "01020 Machete" in out.getvalue()


# ------------------------------------------------------------------ agent and front end


def test_A977_1_heuristic_agent_is_the_default_and_deterministic() -> None:
    m = tcgcore.new_match("arkham_card", seed=5)
    assert m.spec.default_agent == "heuristic" and "heuristic" in m.spec.agents
    a, b = m.clone(), m.clone()
    tcgcore.play_out(a, [HeuristicAgent(1)])
    tcgcore.play_out(b, [HeuristicAgent(1)])
    assert a.digest() == b.digest() and a.result is not None
    assert a.result.detail["resolution"] in ("R1", "R2", "R3", "R-none")
    assert a.result.detail["team"] == "Roland Banks"
    assert success_chance({"0": 1, "auto_fail": 1}, 3, 3) == 0.5


def test_A977_2_agent_sees_only_the_view() -> None:
    """The agent's decisions do not change when hidden information does: two matches
    whose decks differ only below the top are decided identically for the first turn."""
    m = tcgcore.new_match("arkham_card", seed=8)
    agent = HeuristicAgent(2)
    choice = m.pending
    assert choice is not None
    keys1 = agent.decide(m, choice)
    state = st(m)
    deck = state.zones["deck.0"].cards
    deck[-1], deck[-2] = deck[-2], deck[-1]  # hidden: deeper deck order
    state.bag.reverse()  # hidden: the bag's order
    assert HeuristicAgent(2).decide(m, choice) == keys1


def test_A977_3_two_investigators_and_the_cli_log(tmp_path: Path) -> None:
    from tcgcore.cli import main

    out = io.StringIO()
    assert main(["play", "arkham_card", "--seed", "2"], out=out) == 0
    log = out.getvalue()
    assert "=== Round 1 ===" in log and "Roland Banks" in log
    assert "Resolution R" in log or "No resolution (" in log  # R-none reads as words
    assert " vs " in log and "chaos token" in log
    deck = tmp_path / "daisy.json"
    deck.write_text(starter_deck("daisy").name and json.dumps(
        {"investigator_code": "01002", "slots": starter_deck("daisy").slots}), encoding="utf-8")
    out = io.StringIO()
    assert main(["play", "arkham_card", "--players", "2", "--deck", "roland", "--deck",
                 str(deck), "--seed", "4"], out=out) == 0
    assert "Daisy Walker" in out.getvalue()


def test_A977_4_simulate_tabulates_resolutions_and_investigators() -> None:
    report = tcgcore.simulate("arkham_card", games=6, seed=1, agents=["heuristic"])
    assert sum(v for k, v in report.details.items() if k.startswith("resolution=")) == 6
    assert sum(v for k, v in report.details.items() if k.startswith("Roland Banks=")) == 6


def test_front_end_hooks_card_text_find_and_panel() -> None:
    spec = tcgcore.new_match("arkham_card", seed=1).spec
    assert spec.find_card is not None and spec.card_text is not None
    assert spec.find_card("machete") == "01020" and spec.find_card("01116") == "01116"
    text_ = spec.card_text("01020") or ""
    assert "Machete" in text_ and "guardian" in text_ and "cost 3" in text_ and "Fight" in text_
    assert "Lita" in (spec.card_text("01117") or "")
    m = tcgcore.new_match("arkham_card", seed=1)
    tcgcore.play_out(m, [HeuristicAgent(1)], max_decisions=15)
    assert spec.render_panel is not None
    lines = spec.render_panel(m.view(0))
    joined = "\n".join(lines)
    for word in ("Round", "doom", "Act", "Chaos bag", "Roland Banks", "actions"):
        assert word in joined, word


def test_A201_2_signature_cards_and_the_basic_weakness_come_once() -> None:
    """A201.2: exactly the two signature cards and one random basic weakness ride along."""
    from pathlib import Path

    import tcgcore_arkham_card
    from tcgcore_arkham_card.decks import check_deck

    folder = Path(tcgcore_arkham_card.__file__).parent / "data" / "decks"
    deck = json.loads((folder / "roland.json").read_text())
    deck["slots"]["01006"] = 3
    deck["slots"]["01000"] = 5
    problems = check_deck(json.dumps(deck), "roland-edited.json")
    assert any("01006" in p and "3 copies of a signature card" in p for p in problems)
    assert any("01000" in p and "5 copies" in p for p in problems)


def test_a_negative_quantity_names_the_field_card_and_value() -> None:
    with pytest.raises(tcgcore.DeckError) as info:
        parse_deck('{"investigator_code": "01001", "slots": {"01020": -3}}', "mine.json")
    assert ("field 'slots': card 01020: quantity must be a whole number (0 or more), got -3"
            in str(info.value))


def test_chaos_tokens_read_as_words_in_the_panel_and_the_log() -> None:
    from tcgcore_arkham_card.plugin import describe, render_panel

    m = tcgcore.new_match("arkham_card", seed=1)
    bag = next(line for line in render_panel(m.view(0)) if line.startswith("Chaos bag: "))
    assert "auto-fail" in bag and "elder sign" in bag and "skull x2" in bag, bag
    assert "_" not in bag, bag
    shown = tcgcore.Event(seq=1, kind="token_revealed", data={"token": "elder_sign"})
    assert describe(m.state, shown) == "  chaos token: elder sign"
