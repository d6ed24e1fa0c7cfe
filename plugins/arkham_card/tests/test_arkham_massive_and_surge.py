"""Massive attacks in the enemy phase (A611.2) and surge gained while a card resolves
(A612.2), in small described scenarios."""

from __future__ import annotations

from typing import Any

from tcgcore_arkham_card import scenario
from tcgcore_arkham_card.testkit import answer, codes_in, desc, enemy, kind, st, who

import tcgcore

DECK = ["t_guts"] * 6


def inv(code: str = "t_inv_guard", **kw: Any) -> dict[str, Any]:
    return {"code": code, "location": "t_loc_a", "deck": list(DECK), **kw}


def _all(m: tcgcore.Match[Any]) -> list[tcgcore.Event]:
    return m.events_since(0, player="all")


def test_A611_2_the_lead_orders_a_massive_enemys_attacks() -> None:
    """Test Brute (massive) ready at a location with three investigators, the lead being
    seat 1: the lead chooses whom it attacks next (keys ``inv:<seat>``), one at a time."""
    m = scenario(desc(inv(), inv("t_inv_seeker"), inv("t_inv_mystic"), phase="enemy", lead=1,
                      enemies=[{"code": "t_brute", "location": "t_loc_a"}]))
    assert kind(m) == "massive_order" and who(m) == 1
    assert m.pending is not None and m.pending.keys == ["inv:1", "inv:2", "inv:0"]
    answer(m, "inv:2")
    assert kind(m) == "massive_order" and m.pending is not None
    assert m.pending.keys == ["inv:1", "inv:0"]
    answer(m, "inv:0")
    attacks = [e.player for e in _all(m) if e.kind == "enemy_attacks"]
    assert attacks == [2, 0, 1]


def test_A611_2_a_massive_enemy_exhausts_after_its_last_attack_as_an_event() -> None:
    """After its last attack the brute is exhausted, and ``enemy_exhausted`` comes after
    the last ``enemy_attacks`` (A417.5), as for any other enemy."""
    m = scenario(desc(inv(), inv("t_inv_seeker"), phase="enemy",
                      enemies=[{"code": "t_brute", "location": "t_loc_a"}]))
    brute = enemy(m, "t_brute")
    answer(m, "inv:0")
    kinds = [(e.kind, e.player) for e in _all(m)
             if e.kind in ("enemy_attacks", "enemy_exhausted") and e.card == brute]
    assert kinds == [("enemy_attacks", 0), ("enemy_attacks", 1), ("enemy_exhausted", None)]


def test_A611_2_one_investigator_is_attacked_without_a_question() -> None:
    m = scenario(desc(inv(), phase="enemy",
                      enemies=[{"code": "t_brute", "location": "t_loc_a"}]))
    brute = enemy(m, "t_brute")
    assert [e.player for e in _all(m) if e.kind == "enemy_attacks"] == [0]
    assert [e.card for e in _all(m) if e.kind == "enemy_exhausted"] == [brute]
    assert st(m).inv[0].damage == 2


def test_A611_2_an_exhausted_massive_enemy_does_not_attack() -> None:
    m = scenario(desc(inv(), inv("t_inv_seeker"), phase="enemy",
                      enemies=[{"code": "t_brute", "location": "t_loc_a", "exhausted": True}]))
    assert kind(m) != "massive_order"
    assert not [e for e in _all(m) if e.kind == "enemy_attacks"]


def _order(m: tcgcore.Match[Any], cid: int, nxt: int) -> tuple[int, int]:
    """Event numbers of card ``cid`` going to the discard pile and of ``nxt`` being drawn
    from the encounter deck."""
    left = next(e.seq for e in _all(m) if e.card == cid and e.kind == "discarded")
    drawn = next(e.seq for e in _all(m) if e.card == nxt and e.kind == "encounter_drawn")
    return left, drawn


def test_A612_2_false_lead_gains_surge_and_the_next_card_comes_after_it_leaves() -> None:
    """False Lead 01136 drawn with no clues gains surge: the next encounter card is drawn
    only after False Lead has finished resolving and is in the discard pile."""
    m = scenario(desc(inv(clues=0), phase="mythos", round=2,
                      encounter_deck=["01136", "t_voices", "t_voices"]))
    lead, voices = enemy(m, "01136"), enemy(m, "t_voices")
    assert codes_in(m, "encounter_discard") == ["01136"]
    assert codes_in(m, "threat.0") == ["t_voices"]  # the surge drew exactly one more card
    left, drawn = _order(m, lead, voices)
    assert left < drawn


def test_A612_2_any_card_that_gains_surge_draws_after_it_resolves() -> None:
    """A described treachery whose revelation gains surge (op ``surge``) and then makes
    its drawer gain 1 resource: the resource comes first, the next card afterwards."""
    card = {"code": "x_gloom", "name": "Gloom", "type_code": "treachery",
            "revelation": [{"op": "surge"}, {"op": "gain_resources", "amount": 1}]}
    m = scenario(desc(inv(resources=0), phase="mythos", round=2, cards=[card],
                      encounter_deck=["x_gloom", "t_voices"]))
    gloom, voices = enemy(m, "x_gloom"), enemy(m, "t_voices")
    gained = next(e.seq for e in _all(m) if e.kind == "resource_gained")
    left, drawn = _order(m, gloom, voices)
    assert gained < left < drawn
    assert codes_in(m, "threat.0") == ["t_voices"]


def test_A612_2_a_surge_chain_stops_at_its_cap_and_leaves_no_surge_mark() -> None:
    """An encounter deck of cards that each gain surge stops after MAX_SURGE further draws
    (the safety bound), and the last card's gained surge is cleared, not left in the state."""
    from tcgcore_arkham_card.queries import MAX_SURGE

    card = {"code": "x_gloom", "name": "Gloom", "type_code": "treachery",
            "revelation": [{"op": "surge"}]}
    m = scenario(desc(inv(), phase="mythos", round=2, cards=[card],
                      encounter_deck=["x_gloom"] * (MAX_SURGE + 5)))
    assert codes_in(m, "encounter_discard").count("x_gloom") == MAX_SURGE + 1
    assert not [k for k in st(m).inv[0].limits if k.startswith("surge:")]


def test_A612_2_surge_from_a_card_that_is_not_resolving_draws_at_once() -> None:
    """A surge gained from a card in play (not an encounter card resolving) draws the next
    encounter card at once (A612.2): a scenario-defined asset's fast ability with the op."""
    bell = {"code": "x_bell", "name": "Bell", "type_code": "asset", "cost": 0,
            "abilities": [{"kind": "fast", "exhaust": True, "effects": [{"op": "surge"}]}]}
    m = scenario(desc(inv(assets=["x_bell"]), cards=[bell], encounter_deck=["t_dread", "t_omen"]))
    answer(m, f"fast:{enemy(m, 'x_bell')}:0")
    assert codes_in(m, "encounter") == ["t_omen"]
    assert "t_dread" in codes_in(m, "encounter_discard")


def test_A612_2_a_card_that_could_gain_surge_but_did_not_draws_nothing_more() -> None:
    """A described treachery that first gives a skill bonus for the phase (a limit the drawer
    then holds) and then offers "Surge" or "Gain 1 resource": choosing the resource, it
    gains no surge, so the next encounter card stays in the deck though a limit is held."""
    card = {"code": "x_fork", "name": "Test Fork in the Road", "type_code": "treachery",
            "revelation": [{"op": "skill_bonus", "skill": "willpower", "amount": 1},
                           {"op": "choose", "codes": ["Surge", "Gain 1 resource"],
                            "on_success": [{"op": "surge"}],
                            "on_fail": [{"op": "gain_resources", "amount": 1}]}]}
    m = scenario(desc(inv(resources=0), phase="mythos", round=2, cards=[card],
                      encounter_deck=["x_fork", "t_voices"]))
    assert kind(m) == "choose_effect" and st(m).inv[0].limits == {"skill:willpower:phase": 1}
    answer(m, "b")
    assert st(m).inv[0].resources == 1
    assert codes_in(m, "encounter") == ["t_voices"] and codes_in(m, "threat.0") == []
    assert codes_in(m, "encounter_discard") == ["x_fork"]
