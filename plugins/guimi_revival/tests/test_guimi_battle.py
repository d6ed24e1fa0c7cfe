"""The shared battle phase, attack and damage checks, Source triggers and digestion
(rules.md sections 9 and 10)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tcgcore_guimi_revival.rules import strength
from tcgcore_guimi_revival.state import GuimiState
from tcgcore_guimi_revival.testing import (
    build,
    codes,
    find,
    finish_round,
    game,
    ids,
    keys,
    pick,
    player,
    until,
)

import tcgcore

POOL = str(Path(__file__).parent / "data" / "test_pool.toml")
Match = tcgcore.Match[GuimiState]


def battle(p0: dict[str, Any], p1: dict[str, Any], **opts: Any) -> Match:
    return build(game(p0, p1, phase="battle"), pool=POOL, **opts)


def hunter(**kw: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"deck": ["assassin_b9"] * 20}
    out.update(kw)
    return player("rb_hunter", **out)


def wait_for(m: Match, attacker: int) -> None:
    """Pass every attack choice until ``attacker``'s turn to attack comes."""
    until(m, "attack")
    while m.state.attack_order[getattr(m.state.stack[-1], "index", 0)] != attacker:
        pick(m, "pass")
        until(m, "attack")


def test_093_1_attack_order() -> None:
    """093.1, 093.2, 093.3, 093.4, 032.3: untapped front-row Beyonders and RBs, by agility;
    ties: first player's first, RB before units, then slot order."""
    m = battle(player(units=["t_weak", "t_strong", "t_sob_fast", "it_charm"]),
               hunter(units=["t_onplay", {"code": "t_revival", "tapped": True}, "", ""]))
    until(m, "attack")
    st = m.state
    expect = [find(m, "t_strong"), st.rb[0], st.rb[1], find(m, "t_onplay"), find(m, "t_weak")]
    assert st.attack_order == expect


def test_093_3_ties_put_the_first_player_first_when_that_is_seat_1() -> None:
    """093.2, 093.3 with seat 1 as the first player: at equal agility (3) seat 1's RB and
    Beyonder come before seat 0's, and each player's RB before their Beyonder."""
    m = build(game(player(units=["seer_b5", "", "", ""]), hunter(units=["hunter_b9", "", "", ""]),
                   phase="battle", first_player=1), pool=POOL)
    until(m, "attack")
    st = m.state
    assert st.attack_order == [st.rb[1], find(m, "hunter_b9"), st.rb[0], find(m, "seer_b5")]


def test_092_1_start_of_battle_effects_in_agility_order() -> None:
    """092.1, 092.2, 091.1, 012.5: characters' start-of-battle effects by agility, then
    other cards' (first player first), before the attack order is fixed."""
    m = battle(player(units=["", "", "t_sob_slow", "t_sob_item"]), hunter(units=["t_sob_fast"]))
    until(m, "attack")
    evs = [e for e in m.events_since(0, player="all") if e.kind in ("effect", "attack_order")]
    sources = [m.state.cards[e.card].code if e.card is not None else e.kind for e in evs]
    assert sources == ["t_sob_fast", "t_sob_slow", "t_sob_item", "attack_order"]
    assert m.state.corruption[1] == 1


def test_094_3_targets_and_pass() -> None:
    """094.1, 094.2, 094.3, 017.1, 017.2, 023.3, 024.2: targets are opponent front-row
    Beyonders, the RB and items in any slot; back-row Beyonders are not targets; passing is
    allowed."""
    m = battle(player(units=["t_strong", "", "", ""]),
               hunter(units=["hunter_b9", "", "hunter_b8", "it_charm"]))
    until(m, "attack")
    targets = {m.state.cards[o.card].code for o in m.pending.options  # type: ignore[union-attr]
               if o.card is not None}
    assert targets == {"hunter_b9", "rb_hunter", "it_charm"} and "pass" in keys(m)
    a = find(m, "t_strong")
    pick(m, f"attack:{find(m, 'hunter_b9')}")
    assert m.state.cards[a].exhausted  # 016.2


def test_094_4_no_target_passes() -> None:
    """094.4, 089.5: with no legal target there is no attack choice."""
    m = battle(player(units=["t_strong", "", "", ""], ascend_round=1, sequence=0),
               hunter(ascend_round=1, sequence=0))
    assert m.pending is None or m.pending.kind != "attack"


def test_095_1_support_intercept_and_hit() -> None:
    """095.1, 095.2, 095.3, 016.2, 097.1: supporters add to the attack, interceptors
    (RB included, not the target) to the defence; attack >= defence hits."""
    m = battle(player(units=["seer_b9", "", "seer_b8", ""]),
               hunter(units=["hunter_b9", "", "hunter_b8", ""]))
    a, s = find(m, "seer_b9"), find(m, "seer_b8")
    t, i = find(m, "hunter_b9"), find(m, "hunter_b8")
    wait_for(m, a)
    pick(m, f"attack:{t}")
    assert keys(m) == [f"card:{s}"]
    pick(m, [f"card:{s}"], "support")
    assert m.state.cards[s].exhausted
    assert set(keys(m)) == {f"card:{i}", f"card:{m.state.rb[1]}"}
    pick(m, [f"card:{i}"], "intercept")
    # 300 + 400 = 700 >= 300 + 400 = 700: a hit (013.1)
    assert any(e.kind == "hit" and e.data["target"] == t for e in m.events_since(0, player="all"))
    assert any(e.kind == "intercepted" and e.card == i for e in m.events_since(0, player="all"))


def test_096_1_item_attack() -> None:
    """096.1, 096.2, 096.3: against an item there is no support, at most one interceptor and the
    item adds nothing; ``item_intercept_rb = forbidden`` keeps the RB out."""
    for opt, rb_allowed in (("allowed", True), ("forbidden", False)):
        m = battle(player(units=["seer_b9", "", "seer_b8", ""]),
                   hunter(units=["", "", "hunter_b8", "it_charm"]), item_intercept_rb=opt)
        a = find(m, "seer_b9")
        until(m, "attack")
        while m.state.attack_order[getattr(m.state.stack[-1], "index", 0)] != a:
            pick(m, "pass")
            until(m, "attack")
        pick(m, f"attack:{find(m, 'it_charm')}")
        assert m.pending is not None and m.pending.kind == "intercept" and m.pending.max == 1
        assert (f"card:{m.state.rb[1]}" in keys(m)) == rb_allowed
        pick(m, [])
        assert any(e.kind == "hit" and e.data["defence"] == 0 for e in m.events_since(0, player="all"))


def test_098_2_damage_step_after_all_attacks() -> None:
    """098.1, 098.2, 094.5, 097.2: hits resolve after the last attack; a unit hit earlier still
    attacks; hit units go to the Underworld together."""
    m = battle(player(units=["t_strong", "t_weak", "", ""]), hunter(units=["t_onplay"]))
    strong, weak, onplay = find(m, "t_strong"), find(m, "t_weak"), find(m, "t_onplay")
    pick(m, f"attack:{onplay}", "attack")
    until(m, "attack")  # RBs pass by default below
    while m.state.attack_order[getattr(m.state.stack[-1], "index", 0)] != onplay:
        pick(m, "pass")
        until(m, "attack")
    assert m.state.cards[onplay].zone == "units.1"
    pick(m, f"attack:{weak}")
    until(m, "attack")  # t_weak's turn: its target is still on the field
    assert f"attack:{onplay}" in keys(m)
    pick(m, "pass")
    finish_round(m)
    assert set(codes(m, "underworld.0")) == {"t_weak"}
    assert set(codes(m, "underworld.1")) == {"t_onplay"}
    assert not m.state.cards[weak].face_down and not m.state.cards[onplay].face_down  # 031.5
    assert m.state.cards[strong].zone == "units.0"


def test_098_3_a_hit_on_the_rb_after_a_hit_on_a_unit_still_checks() -> None:
    """098.2, 098.3: in the damage step a hit on a unit does not end the step: the hit on the
    RB made after it still makes its damage check."""
    m = battle(player(units=["t_strong", "t_strong", "", ""]), hunter(units=["t_onplay"]))
    first, second = (c for c in ids(m, "units.0"))
    onplay = find(m, "t_onplay")
    wait_for(m, first)
    pick(m, f"attack:{onplay}")
    wait_for(m, second)
    pick(m, f"attack:{m.state.rb[1]}")
    finish_round(m)
    assert set(codes(m, "underworld.1")) == {"t_onplay"}
    assert len(ids(m, "status.1")) == 1 and m.state.corruption[1] == 2


def _rb_hit(p1: dict[str, Any], **opts: Any) -> Match:
    """p0's 2000-strength unit hits p1's RB; returns after the damage step."""
    m = battle(player(units=["t_strong", "", "", ""]), p1, **opts)
    pick(m, f"attack:{m.state.rb[1]}", "attack")
    finish_round(m)
    return m


def test_103_1_damage_check_outcomes() -> None:
    """103.1, 103.2, 103.3, 103.4, 103.5, 098.3, 035.1, 111.1, 036.1: a potion is prevented and
    goes to the bottom; same pathway, sequence number >= RB: face up, no corruption; same
    pathway, lower number: face down, 1 corruption; anything else: face down, 2 corruption."""
    cases = [
        (9, "hunter_potion9", 0, 0, False),
        (9, "hunter_b9", 1, 0, False),
        (8, "hunter_b7", 1, 1, True),
        (9, "assassin_b9", 1, 2, True),
        (9, "ev_insight", 1, 2, True),
    ]
    for seq, top, n_status, corr, fd in cases:
        m = _rb_hit(hunter(sequence=seq, deck=[top] + ["assassin_b8"] * 10))
        assert len(ids(m, "status.1")) == n_status, top
        assert m.state.corruption[1] == corr, top
        # 103.1: the checked card is revealed to both players (into the status zone face down
        # or up, or a potion to the bottom of the deck)
        seen = [e for e in m.events_since(0, player=0) if e.kind in ("damage", "to_bottom")]
        assert [e.code for e in seen] == [top], top
        if n_status:
            assert m.state.cards[ids(m, "status.1")[0]].face_down == fd
        else:
            assert codes(m, "deck.1")[-1] == top  # to the bottom


def test_103_6_potion_prevents_one_check_and_option() -> None:
    """103.6, 098.3, 102.2: a hit with a damage bonus makes 2 checks; a potion prevents one, or
    with ``potion_prevention = whole_hit`` the rest of the hit."""
    for opt, n in (("one_check", 1), ("whole_hit", 0)):
        m = battle(player(units=[{"code": "t_strong", "counters": {"bonus_dmg": 1}}, "", "", ""]),
                   hunter(deck=["hunter_potion9"] + ["assassin_b9"] * 10),
                   potion_prevention=opt)
        pick(m, f"attack:{m.state.rb[1]}", "attack")
        finish_round(m)
        assert len(ids(m, "status.1")) == n, opt


def test_098_4_no_checks_for_dead_rb() -> None:
    """098.4, 113.1, 113.2, 113.3, 033.3, 023.4: the 7th status card kills the RB; later hits
    on it make no checks; a dead RB is not attackable."""
    from tcgcore_guimi_revival.rules import attack_targets

    m = battle(player(units=["t_strong", "t_strong", "", ""], rb_tapped=True),
               hunter(status=[{"code": "assassin_b9", "face_down": False}] * 6,
                      deck=["assassin_b9"] * 10, stack=["hunter_potion8"]))
    rb1 = m.state.rb[1]
    second = ids(m, "units.0")[1]
    pick(m, f"attack:{rb1}", "attack")
    wait_for(m, second)
    pick(m, f"attack:{rb1}")
    finish_round(m)
    assert sum(1 for e in m.events_since(0, player="all") if e.kind == "hit") == 2
    assert sum(1 for e in m.events_since(0, player="all") if e.kind == "damage_check") == 1
    assert m.state.dead[1] and m.state.cards[rb1].zone == "underworld.1"
    assert len(ids(m, "status.1")) == 7
    assert codes(m, "stack.1") == ["hunter_potion8"] and m.result is None
    assert rb1 not in attack_targets(m.engine, 0)


def test_099_1_status_abilities_and_battle_effects_end() -> None:
    """099.1, 099.2, 035.2: face-up status cards' abilities happen in the end step; "this battle
    phase" effects end."""
    m = battle(player(status=["t_status"], units=[{"code": "seer_b9",
                                                   "counters": {"bp_str": 400}}, "", "", ""]),
               hunter())
    unit = find(m, "seer_b9")
    assert strength(m.engine, unit) == 700
    hand = len(ids(m, "hand.0"))
    finish_round(m)
    assert strength(m.engine, unit) == 300
    assert len(ids(m, "hand.0")) >= hand + 1


def test_099_1_a_face_up_status_card_draws_in_the_end_step() -> None:
    """099.1, 035.2: a face-up status card's ability (t_status: draw 1) happens in the end
    step, before the next round starts: one card drawn there, so round 2's draw makes two."""
    m = battle(player(status=["t_status"]), hunter())
    hand, deck = len(ids(m, "hand.0")), len(ids(m, "deck.0"))
    finish_round(m)
    evs = m.events_since(0, player="all")
    end = next(i for i, e in enumerate(evs)
               if e.kind == "phase" and e.data.get("phase") == "battle end step")
    nxt = next(i for i, e in enumerate(evs) if e.kind == "round_started" and i > end)
    assert [e.kind for e in evs[end:nxt] if e.kind == "drawn" and e.player == 0] == ["drawn"]
    assert len(ids(m, "hand.0")) == hand + 2 and len(ids(m, "deck.0")) == deck - 2


def test_101_1_only_rb_makes_attack_check() -> None:
    """101.1, 101.2, 101.4, 101.5, 101.7: an attacking RB reveals its top card, which goes to
    hand (not a draw); a unit's attack makes no check."""
    m = battle(player(deck=["seer_b7", "seer_b8"]), hunter())
    pick(m, f"attack:{m.state.rb[1]}", "attack")
    assert "seer_b7" in codes(m, "hand.0")
    assert any(e.kind == "checked_to_hand" for e in m.events_since(0, player="all"))
    assert not any(e.kind == "drawn" for e in m.events_since(0, player="all"))
    m = battle(player(units=["t_strong", "", "", ""]), hunter())
    pick(m, f"attack:{m.state.rb[1]}", "attack")
    assert not any(e.kind == "revealed" for e in m.events_since(0, player="all"))


def _trigger(top: str, p0: dict[str, Any] | None = None, p1: dict[str, Any] | None = None,
             **opts: Any) -> Match:
    """p0's RB (the only attacker) attacks p1's RB with ``top`` on its deck."""
    base: dict[str, Any] = {"deck": [top] + ["seer_b8"] * 10}
    base.update(p0 or {})
    m = battle(player(**base), p1 or hunter(), **opts)
    wait_for(m, m.state.rb[0])
    pick(m, f"attack:{m.state.rb[1]}")
    while m.pending is not None and m.pending.kind in ("support", "intercept", "quick_event"):
        pick(m, "pass" if m.pending.kind == "quick_event" else [])
    return m


def test_102_1_sefirah_castle() -> None:
    """102.1, 101.3, 101.6: a card from the own Spirit World (face down allowed) to hand."""
    m = _trigger("seer_potion9", {"spirit_world": [{"code": "slate", "face_down": True}]})
    ward = find(m, "slate")
    pick(m, f"card:{ward}", "source_trigger")
    assert m.state.cards[ward].zone == "hand.0"
    assert "seer_potion9" in codes(m, "hand.0")


def test_102_2_chaos_sea() -> None:
    """102.2: one own Beyonder's hits on RBs cause one extra damage check."""
    m = _trigger("t_potion_spectator", {"units": ["", "", "seer_b9", ""]})
    unit = find(m, "seer_b9")
    pick(m, f"card:{unit}", "source_trigger")
    assert m.state.cards[unit].counters.get("bonus_dmg") == 1


def test_102_3_river_of_eternal_darkness() -> None:
    """102.3, 072.3, 013.3: a Beyonder of sequence number >= RB - 2 from the Underworld,
    tapped, into an empty slot."""
    m = _trigger("t_potion_sleepless", {"underworld": ["seer_b2", "seer_b7"]})
    b7 = find(m, "seer_b7")
    assert {k.split(":")[1] for k in keys(m)} == {str(b7)}
    pick(m, f"card:{b7}:2", "effect_target")
    assert m.state.zones["units.0"].cards[2] == b7 and m.state.cards[b7].exhausted
    assert b7 not in m.state.attack_order  # 093.4


def test_102_4_city_of_calamity_and_scope() -> None:
    """102.4, 102.10: +400 to one own Beyonder; ``include`` also offers the RB."""
    m = _trigger("hunter_potion9", {"units": ["", "", "seer_b9", ""]})
    unit = find(m, "seer_b9")
    assert keys(m) == [f"card:{unit}"]
    pick(m, f"card:{unit}")
    assert strength(m.engine, unit) == 700
    m = _trigger("hunter_potion9", {"units": ["", "", "seer_b9", ""]}, trigger_rb_scope="include")
    assert f"card:{m.state.rb[0]}" in keys(m)


def test_101_6_trigger_without_choice_does_nothing() -> None:
    """101.6: a trigger with no legal choice does nothing."""
    m = _trigger("hunter_potion9")
    assert m.pending is None or m.pending.kind != "source_trigger"


def test_102_5_nation_of_disorder() -> None:
    """102.5: an opponent Beyonder cannot attack this battle phase."""
    m = _trigger("t_potion_lawyer", None, hunter(units=["t_onplay", "", "", ""]))
    foe = find(m, "t_onplay")
    pick(m, f"card:{foe}", "source_trigger")
    finish_round(m)
    assert not any(e.kind == "attack_declared" and e.card == foe for e in m.events_since(0, player="all"))


def test_102_6_knowledge_moor() -> None:
    """102.6: an own item cannot be targeted by the opponent until the next battle phase."""
    m = _trigger("t_potion_mystery_pryer", {"units": ["", "", "", "it_charm"]},
                 hunter(units=["t_onplay", "", "", ""]))
    item = find(m, "it_charm")
    pick(m, f"card:{item}", "source_trigger")
    until(m, "attack")
    assert f"attack:{item}" not in keys(m)


def test_102_6_protection_ends_at_the_next_battle_phase_for_both_seats() -> None:
    """102.6: "until the next battle phase" ends when that battle phase starts, for the
    first player's item as for the second player's: both are attack targets again."""
    prot: dict[str, Any] = {"code": "it_charm", "counters": {"protect": 1}}
    m = battle(player(units=["t_strong", "", "", prot]), hunter(units=["t_strong", "", "", prot]))
    for p in (0, 1):
        item = ids(m, f"units.{p}")[-1]
        assert not m.state.cards[item].counters.get("protect")
    until(m, "attack")
    assert f"attack:{ids(m, 'units.1')[-1]}" in keys(m)


def test_102_7_tenebrous_world_and_scope() -> None:
    """102.7, 102.10, 013.6: the opponent's characters get -100 (the RB too by default), never
    below 0 by default (``strength_floor = none`` allows negatives)."""
    m = _trigger("t_potion_prisoner", None, hunter(units=["t_weak", "t_onplay", "", ""]))
    assert strength(m.engine, find(m, "t_onplay")) == 200
    assert strength(m.engine, m.state.rb[1]) == 400
    assert strength(m.engine, find(m, "t_weak")) == 0
    m = _trigger("t_potion_prisoner", None, hunter(units=["t_weak", "", "", ""]),
                 trigger_rb_scope="exclude", strength_floor="none")
    assert strength(m.engine, m.state.rb[1]) == 500
    assert strength(m.engine, find(m, "t_weak")) == -100


def test_102_8_brood_hive() -> None:
    """102.8, 097.3: an own Beyonder cannot be hit this battle phase."""
    m = _trigger("t_potion_planter", {"units": ["seer_b9", "", "", ""]},
                 hunter(units=["hunter_b2", "", "", ""]))
    unit = find(m, "seer_b9")
    pick(m, f"card:{unit}", "source_trigger")
    foe = find(m, "hunter_b2")
    wait_for(m, foe)
    pick(m, f"attack:{unit}")
    if m.pending is not None and m.pending.kind == "intercept":
        pick(m, [])
    finish_round(m)
    assert m.state.cards[unit].zone == "units.0"


def test_102_9_key_of_light() -> None:
    """102.9, 101.3, 101.5, 016.4: the attacking player draws two cards. The revealed potion
    is not one of them: it stays revealed on top of the deck while the trigger resolves and
    then goes to the hand, so the two cards drawn are the ones under it (the draw never takes
    the revealed potion as its first card)."""
    m = battle(player(deck=["t_potion_monster", "seer_b8", "seer_b9", "seer_b7"]), hunter())
    wait_for(m, m.state.rb[0])
    pick(m, f"attack:{m.state.rb[1]}")
    while m.pending is not None and m.pending.kind in ("support", "intercept", "quick_event"):
        pick(m, "pass" if m.pending.kind == "quick_event" else [])
    assert sorted(codes(m, "hand.0")) == ["seer_b8", "seer_b9", "t_potion_monster"]
    assert codes(m, "deck.0") == ["seer_b7"]
    kinds = [(e.kind, m.state.cards[e.card].code) for e in m.events_since(0, player="all")
             if e.kind in ("drawn", "checked_to_hand") and e.card is not None]
    assert kinds == [("drawn", "seer_b8"), ("drawn", "seer_b9"),
                     ("checked_to_hand", "t_potion_monster")]  # trigger first (101.3)


def test_102_9_key_of_light_deck_out() -> None:
    """102.9, 133.1: with only one card under the revealed potion, the second draw finds no
    card to draw (the revealed card is not drawable), and the attacking player loses."""
    m = battle(player(deck=["t_potion_monster", "seer_b8"]), hunter())
    wait_for(m, m.state.rb[0])
    pick(m, f"attack:{m.state.rb[1]}")
    while m.pending is not None and m.pending.kind in ("support", "intercept", "quick_event"):
        pick(m, "pass" if m.pending.kind == "quick_event" else [])
    assert m.result is not None and m.result.losers == [0]
    assert m.result.reason == "deck_out"
    assert "seer_b8" in codes(m, "hand.0")


def test_104_1_digestion() -> None:
    """104.1, 104.2, 104.3, 033.2, 022.2, 028.4: an attacking RB turns its topmost face-down
    characteristic face up and gains its characteristic ability (+100); a unit's own
    characteristic is inactive unless ``characteristic_on_unit = active``."""
    p0 = {"stack": [{"code": "seer_potion7", "face_down": True},
                    {"code": "seer_potion8", "face_down": True}], "sequence": 7,
          "units": ["", "", "seer_b9", ""]}
    m = _trigger("seer_b8", p0)
    top, low = find(m, "seer_potion7"), find(m, "seer_potion8")
    assert not m.state.cards[top].face_down and m.state.cards[low].face_down
    assert strength(m.engine, m.state.rb[0]) == 600
    assert strength(m.engine, find(m, "seer_b9")) == 300
    m = _trigger("seer_b8", p0, characteristic_on_unit="active")
    assert strength(m.engine, find(m, "seer_b9")) == 400


def test_022_2_characteristic_on_unit_active_gives_agility_too() -> None:
    """022.2 (option ``characteristic_on_unit``), 093.2, 093.3: with ``active`` a unit uses its
    whole characteristic ability, agility as well as strength, so Magician (seer_b7: agility
    4, characteristic +100 strength and +1 agility) ties Miracle Invoker (seer_b2: agility 5)
    and goes first as the first player's unit; with ``inactive`` neither bonus applies."""
    from tcgcore_guimi_revival.rules import agility

    desc = game(player(units=["seer_b7", "", "", ""]),
                player("rb_hunter", units=["seer_b2", "", "", ""]), phase="battle")
    for option, strong, agile, first in (("inactive", 500, 4, "seer_b2"),
                                         ("active", 600, 5, "seer_b7")):
        m = build(desc, characteristic_on_unit=option)
        unit = find(m, "seer_b7")
        assert (strength(m.engine, unit), agility(m.engine, unit)) == (strong, agile), option
        until(m, "attack")
        order = [m.state.cards[c].code for c in m.state.attack_order]
        assert order[:2] == [first, ({"seer_b2", "seer_b7"} - {first}).pop()], option


def test_112_4_mad_rb_attacks_but_cannot_intercept() -> None:
    """112.3, 112.4, 095.2: a mad RB still attacks and digests, but cannot intercept."""
    m = _trigger("seer_b8", {"mad": 1, "stack": [{"code": "seer_potion8", "face_down": True}]})
    assert not m.state.cards[find(m, "seer_potion8")].face_down
    m = battle(player(units=["t_strong", "", "", ""]),
               hunter(mad=1, units=["t_onplay", "", "t_weak", ""]))
    pick(m, f"attack:{find(m, 't_onplay')}", "attack")
    assert m.pending is not None and m.pending.kind == "intercept"
    assert keys(m) == [f"card:{find(m, 't_weak')}"]


def test_091_2_nothing_untaps_in_battle() -> None:
    """091.2: tapped cards stay tapped through the battle phase."""
    m = battle(player(units=[{"code": "seer_b9", "tapped": True}, "", "", ""]), hunter())
    finish_round(m)
    assert m.state.round == 2


def test_a_source_trigger_prompt_names_the_source_in_words() -> None:
    """The prompt says "Source trigger of Sefirah Castle", and the heuristic agent still reads
    which Source it is."""
    from tcgcore_guimi_revival.agents import _op_of
    from tcgcore_guimi_revival.cards import load_pathways


    seen = 0
    for seed in range(3):
        m = tcgcore.new_match("guimi_revival", seed=seed)
        agents = [tcgcore.make_agent(m.spec, "heuristic", i) for i in range(2)]
        while m.result is None:
            c = m.pending
            assert c is not None
            if c.kind == "source_trigger":
                seen += 1
                assert "_" not in c.prompt and c.prompt.startswith("Source trigger of "), c.prompt
                assert _op_of(c) in load_pathways().sources
            m.choose(c.player, agents[c.player].decide(m, c))
    assert seen
