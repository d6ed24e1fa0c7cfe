"""Extra-deck cards (rules.md section 12)."""

from __future__ import annotations

from pathlib import Path

from tcgcore_guimi_revival.rules import is_characteristic
from tcgcore_guimi_revival.testing import build, codes, covers, find, game, ids, keys, pick, player

POOL = str(Path(__file__).parent / "data" / "test_pool.toml")


def _fd(code: str) -> dict[str, object]:
    return {"code": code, "face_down": True}


def test_121_2_face_down_extra_card_is_hidden_and_not_a_characteristic() -> None:
    """121.1, 121.2, 028.3, 034.1: a face-down extra-deck card in the Spirit World is hidden
    from the opponent, counts toward the limit and is not a characteristic."""
    m = build(game(player(sequence=2, spirit_world=[_fd("g0_seer")] + ["ev_ward"] * 6,
                          hand=["ev_insight"])), pool=POOL)
    g0 = find(m, "g0_seer")
    assert not is_characteristic(m.engine, g0)
    assert not any(k.startswith("event:") for k in keys(m))  # Spirit World is full
    spirit = next(z for z in m.view(1).zones if z.id == "spirit.0")
    assert spirit.count == 7 and all(c is None or c.code != "g0_seer" for c in spirit.cards)
    mine = next(z for z in m.view(0).zones if z.id == "spirit.0")
    assert any(c is not None and c.code == "g0_seer" for c in mine.cards)


def test_122_1_activation_needs_the_condition() -> None:
    """122.1, 071.1, 027.4: a face-down extra-deck card is activated in the main phase once its
    condition holds (the same turn it was set is fine)."""
    m = build(game(player(spirit_world=[_fd("god_seer"), _fd("x_gift")])), pool=POOL)
    god, gift = find(m, "god_seer"), find(m, "x_gift")
    assert f"extra:{gift}" in keys(m) and f"extra:{god}" not in keys(m)


def test_122_2_destinations() -> None:
    """122.2: after activation the card goes to the Underworld or hand as its text says, or
    remains face up; ``extra_card_default_destination = underworld`` changes silent cards."""
    m = build(game(player(spirit_world=[_fd("x_gift"), _fd("x_hand"), _fd("uniq_seer")],
                          sequence=2)), pool=POOL)
    for code in ("x_gift", "x_hand", "uniq_seer"):
        pick(m, f"extra:{find(m, code)}")
    assert codes(m, "underworld.0") == ["x_gift"]
    assert "x_hand" in codes(m, "hand.0") and len(ids(m, "hand.0")) == 3  # + draw 2
    assert codes(m, "spirit.0") == ["uniq_seer"]
    assert not m.state.cards[find(m, "uniq_seer")].face_down  # 122.4
    m = build(game(player(spirit_world=[_fd("uniq_seer")], sequence=2)), pool=POOL,
              extra_card_default_destination="underworld")
    pick(m, f"extra:{find(m, 'uniq_seer')}")
    assert codes(m, "underworld.0") == ["uniq_seer"]


def test_122_3_activated_card_with_sequence_is_a_characteristic() -> None:
    """122.3, 126.1, 028.2: a Grade 0 Sealed Artifact with pathway and sequence that remains face
    up is a characteristic; a Uniqueness (no sequence) keeps its properties."""
    m = build(game(player(spirit_world=[_fd("g0_seer"), "uniq_seer"], sequence=2)), pool=POOL)
    g0 = find(m, "g0_seer")
    pick(m, f"extra:{g0}")
    assert is_characteristic(m.engine, g0)
    assert not is_characteristic(m.engine, find(m, "uniq_seer"))


def test_126_1_extra_card_in_hand_is_played_as_an_item() -> None:
    """126.1, 072.2: an extra-deck card in hand is played into a unit slot as an item,
    subject to the rank gate."""
    m = build(game(player(hand=["x_hand", "god_seer"],
                          status=[{"code": "marauder_b9", "face_down": True}])), pool=POOL)
    xh, god = find(m, "x_hand"), find(m, "god_seer")
    assert f"play:{xh}:0" in keys(m) and f"play:{god}:0" not in keys(m)
    pick(m, f"play:{xh}:0")
    assert f"ignite:{xh}:0" in keys(m)


@covers("bcard_seer")
def test_122_5_blasphemy_card_activation_effect_happens_once() -> None:
    """122.5 (R31): Blasphemy Card: Fool gives +300 when activated and goes to the hand;
    played from hand later it is an item with no second +300 (no target is asked)."""
    m = build(game(player(sequence=7, units=["seer_b9", "", "", ""],
                          spirit_world=[{"code": "bcard_seer", "face_down": True}])))
    bcard, b9 = find(m, "bcard_seer"), find(m, "seer_b9")
    pick(m, f"extra:{bcard}", "main_action")
    pick(m, f"card:{b9}", "effect_target")
    assert m.state.cards[b9].counters.get("bp_str") == 300
    assert m.state.cards[bcard].zone == "hand.0"
    start = m.state.event_count
    pick(m, f"play:{bcard}:1", "main_action")
    assert m.pending is not None and m.pending.kind == "main_action"
    assert m.state.cards[b9].counters.get("bp_str") == 300
    assert not [e for e in m.events_since(start, player=0) if e.kind == "effect"]
    assert m.state.cards[bcard].zone == "units.0"


@covers("slate_1")
def test_122_5_blasphemy_slate_untaps_once() -> None:
    """122.5 (R31): the First Blasphemy Slate untaps your units when activated; played later
    from hand it untaps nothing."""
    tapped = {"code": "seer_b9", "tapped": True}
    m = build(game(player(sequence=7, units=[tapped, "", "", ""],
                          spirit_world=[{"code": "slate_1", "face_down": True}])))
    slate, b9 = find(m, "slate_1"), find(m, "seer_b9")
    pick(m, f"extra:{slate}", "main_action")
    assert not m.state.cards[b9].exhausted and m.state.cards[slate].zone == "hand.0"
    m2 = build(game(player(sequence=7, units=[tapped, "", "", ""], hand=["slate_1"])))
    pick(m2, f"play:{find(m2, 'slate_1')}:1", "main_action")
    assert m2.state.cards[find(m2, "seer_b9")].exhausted
