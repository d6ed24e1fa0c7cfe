"""Every ability of every card of the starter set, played in a scenario (rules 027, 073-076,
122; the effect vocabulary of ``cards.py``).

Each test puts one card where its ability's timing fires (hand, unit slot, Spirit World), fires
it, answers any target choice with the first option and checks what the effect op promises.
"""

from __future__ import annotations

from typing import Any

import pytest
from tcgcore_guimi_revival import get_pool
from tcgcore_guimi_revival.cards import CardDef
from tcgcore_guimi_revival.rules import strength
from tcgcore_guimi_revival.state import GuimiState
from tcgcore_guimi_revival.testing import build, codes, covers, find, ids

import tcgcore

POOL = get_pool("builtin").cards
CASES = [(code, i) for code, d in sorted(POOL.items()) for i in range(len(d.abilities))]


def _path(d: CardDef) -> str:
    if d.pathway in {"seer", "marauder", "hunter", "assassin", "sailor", "sleepless"}:
        return d.pathway
    if d.theme in {"seer", "marauder", "hunter", "assassin", "sailor", "sleepless"}:
        return d.theme
    return "seer"


def _scenario(d: CardDef, timing: str, op: str) -> tuple[dict[str, Any], str]:
    """The position for one ability and the phase it starts in."""
    path = _path(d)
    seq = 5 if op == "seek" else 0
    units: list[Any] = ["", "", "", {"code": f"{path}_b9", "tapped": True}]
    spirit: list[Any] = [f"{path}_potion9"]
    hand: list[str] = []
    rb = f"rb_{path}"
    phase = {"start_of_battle": "battle", "revival_phase": "revival",
             "end_phase": "end"}.get(timing, "main")
    if d.card_type == "revival_beyonder":
        rb = d.id
    elif d.extra_kind is not None:
        spirit.append({"code": d.id, "face_down": True})
    elif d.event_kind == "quick":  # set before, used in the battle phase's first window (074.6)
        spirit.append({"code": d.id, "face_down": True})
        phase = "battle"
    elif timing == "continuous":
        spirit.append(d.id)
    elif timing == "on_play":
        hand.append(d.id)
    else:
        units[0] = d.id
    p0 = {"revival": rb, "sequence": seq,
          "stack": [{"code": f"{path}_potion8", "face_down": True}],
          "units": units, "spirit_world": spirit, "hand": hand,
          "deck": [f"{path}_potion{k}" for k in range(9, 1, -1)]
          + [f"{path}_b4", f"{path}_b9", f"{path}_b8"] * 3,
          "extra": [f"uniq_{path}"],
          "status": [{"code": "hunter_b9", "face_down": True}] * 2,
          "underworld": [f"{path}_b3", f"{path}_b9"]}
    p1 = {"revival": "rb_hunter", "units": ["hunter_b9", "hunter_b8", "hunter_it_trap", ""],
          "spirit_world": ["seer_ev_tarot"], "deck": ["hunter_b9"] * 12}
    return {"players": [p0, p1], "first_player": 0, "phase": phase}, phase


def _snapshot(m: tcgcore.Match[GuimiState]) -> dict[str, Any]:
    st = m.state
    return {
        "hand": len(ids(m, "hand.0")), "deck": len(ids(m, "deck.0")),
        "status_fd": sum(1 for c in ids(m, "status.0") if st.cards[c].face_down),
        "opp_units": codes(m, "units.1"), "opp_spirit": codes(m, "spirit.1"),
        "spirit": codes(m, "spirit.0"), "units": codes(m, "units.0"),
        "opp_corruption": st.corruption[1], "events": st.event_count,
    }


def _resolve(m: tcgcore.Match[GuimiState]) -> None:
    for _ in range(20):
        ch = m.pending
        if ch is None or ch.kind not in ("effect_target", "source_trigger", "order_effects"):
            return
        m.choose(ch.player, ch.options[0].key)


def _fire(m: tcgcore.Match[GuimiState], d: CardDef, index: int, timing: str) -> None:
    ch = m.pending
    if timing in ("start_of_battle", "revival_phase", "end_phase", "continuous"):
        return  # fired by the phase itself (or always on)
    if d.event_kind == "quick":
        assert ch is not None and ch.kind == "quick_event", (ch, d.id)
        m.choose(0, f"quick:{find(m, d.id, 'spirit.0')}")
        return
    assert ch is not None and ch.kind == "main_action", (ch, d.id)
    if d.card_type == "revival_beyonder":
        key = f"ignite:{m.state.rb[0]}:{index}"
    elif d.extra_kind is not None:
        key = f"extra:{find(m, d.id, 'spirit.0')}"
    elif timing == "on_play" and d.card_type == "event":
        key = f"event:{find(m, d.id, 'hand.0')}:up"
    elif timing == "on_play":
        key = f"play:{find(m, d.id, 'hand.0')}:0"
    else:
        key = f"ignite:{find(m, d.id, 'units.0')}:{index}"
    assert key in ch.keys, (key, ch.keys)
    m.choose(0, key)


def _check(op: str, amount: int, m: tcgcore.Match[GuimiState], before: dict[str, Any],
           d: CardDef) -> None:
    st = m.state
    after = _snapshot(m)
    kinds = [e.kind for e in m.events_since(before["events"], player="all")]
    own = [st.cards[c] for c in ids(m, "units.0")]
    if op == "draw":
        assert "drawn" in kinds and after["deck"] == before["deck"] - amount
    elif op == "heal":
        assert after["status_fd"] == max(0, before["status_fd"] - amount)
    elif op == "strength":
        assert any(c.counters.get("bp_str") == amount for c in own)
    elif op == "weaken":
        assert any(st.cards[c].counters.get("bp_weak") == amount for c in ids(m, "units.1"))
    elif op == "corrupt":
        assert after["opp_corruption"] == before["opp_corruption"] + amount
    elif op == "madden":
        assert st.mad[1] > 0
    elif op == "untap":
        assert all(not c.exhausted for c in own)
    elif op == "destroy_item":
        assert "hunter_it_trap" not in after["opp_units"]
    elif op == "destroy_event":
        assert "seer_ev_tarot" not in after["opp_spirit"]
    elif op == "spirit_to_hand":
        moved = [e for e in m.events_since(before["events"], player="all") if e.kind == "to_hand"]
        assert moved and moved[0].src == "spirit.0" and moved[0].dst == "hand.0"
        assert len(after["spirit"]) == len(before["spirit"]) - 1
    elif op == "recur":
        _check_recur(m, before)
    elif op == "static_strength":
        b9 = find(m, f"{_path(d)}_b9", "units.0")
        assert strength(m.engine, b9) == POOL[st.cards[b9].code].strength + amount
    elif op in ("destroy_unit", "bounce"):
        assert "destroyed" in kinds if op == "destroy_unit" else "bounced" in kinds
        assert len(after["opp_units"]) == len(before["opp_units"]) - 1
    elif op == "tap_unit":
        assert any(st.cards[c].exhausted for c in ids(m, "units.1"))
    elif op == "shield":
        assert any(c.counters.get("unhittable") for c in own)
    elif op in ("search_potion", "search_beyonder"):
        assert "searched" in kinds and after["deck"] == before["deck"] - 1
    elif op == "set_extra":
        assert "uniq_" + _path(d) in after["spirit"]
    elif op == "converge":
        conv = [c for c in ids(m, "spirit.0") if st.cards[c].counters.get("seq") == 1]
        assert conv and "converged" in kinds
    elif op == "to_spirit":
        assert d.id in after["spirit"] and d.id not in after["units"]
    elif op == "source_trigger":
        assert "source_trigger" in kinds
        _check_source(d.source or "", m, before)
    elif op == "digest":
        assert "digested" in kinds
        assert not any(st.cards[c].face_down for c in ids(m, "stack.0"))
    elif op == "seek":
        assert "sought" in kinds and after["deck"] == before["deck"] - 1
    else:  # pragma: no cover - a new op needs a check here
        raise AssertionError(f"no check for op {op!r}")


def _check_recur(m: tcgcore.Match[GuimiState], before: dict[str, Any]) -> None:
    """102.3, 013.3: a Beyonder card from the Underworld, sequence number >= RB - 2, tapped in
    a unit slot."""
    st = m.state
    moved = [e for e in m.events_since(before["events"], player="all") if e.kind == "recurred"]
    assert moved and moved[0].src == "underworld.0" and moved[0].dst == "units.0"
    assert moved[0].card is not None
    card = st.cards[moved[0].card]
    d = POOL[card.code]
    assert card.exhausted and d.is_beyonder
    assert d.sequence is not None and d.sequence >= st.sequence[0] - 2


def _check_source(source: str, m: tcgcore.Match[GuimiState], before: dict[str, Any]) -> None:
    """What each Source trigger of the starter set's Source cards does (102.1-102.4)."""
    st = m.state
    own = [st.cards[c] for c in ids(m, "units.0")]
    if source == "sefirah_castle":  # 102.1: one own Spirit World card to the hand
        assert len(codes(m, "spirit.0")) == len(before["spirit"]) - 1
        assert len(ids(m, "hand.0")) == before["hand"] + 1
    elif source == "city_of_calamity":  # 102.4
        assert any(c.counters.get("bp_str") == 400 for c in own)
    elif source == "chaos_sea":  # 102.2
        assert any(c.counters.get("bonus_dmg") == 1 for c in own)
    elif source == "river_of_eternal_darkness":  # 102.3
        _check_recur(m, before)
    else:  # pragma: no cover - a new Source card needs a check here
        raise AssertionError(f"no check for Source {source!r}")


@covers(*sorted({code for code, _ in CASES}))
@pytest.mark.parametrize(("code", "index"), CASES, ids=[f"{c}-{i}" for c, i in CASES])
def test_card_ability(code: str, index: int) -> None:
    """Each ability of each card does what its effect ops say (027, 075, 122)."""
    d = POOL[code]
    ab = d.abilities[index]
    op = ab.effects[0].op
    desc, phase = _scenario(d, ab.timing, op)
    m = build(desc)
    before = _snapshot(m)
    if phase in ("battle", "revival", "end") and d.event_kind != "quick":
        # the timed effects already happened while the scenario's first steps ran
        before = {**before, "events": 0, "status_fd": 2, "deck": before["deck"] + sum(
            1 for e in m.events_since(0, player="all") if e.kind == "drawn" and e.player == 0),
            "opp_corruption": 0, "opp_units": ["hunter_b9", "hunter_b8", "hunter_it_trap"]}
    _fire(m, d, index, ab.timing)
    _resolve(m)
    for e in ab.effects:
        _check(e.op, e.amount, m, before, d)


def test_every_card_with_text_has_abilities_or_is_vanilla_by_design() -> None:
    """Every card's ability is data from the shared vocabulary: potions and the RBs' numbers
    carry the rules' own behaviour; every other non-potion card has at least one ability."""
    for d in POOL.values():
        if d.is_potion:
            assert d.sequence is not None and (d.sequence > 5 or d.ritual is not None)
            continue
        assert d.abilities, d.id
