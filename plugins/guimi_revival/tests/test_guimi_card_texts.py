"""The printed texts that are not abilities, card by card: potions (activation 076 and the
ritual they print, 083), characteristic abilities (104.3), extra-deck activation conditions
and destinations (122), Blasphemy rituals (083.3, 127, 128) and apotheosis rituals (088.4).

Every card of the starter set is in at least one test here or in
``test_guimi_card_abilities.py`` (the coverage table, ``docs/guimi_revival/card-coverage.md``,
is generated from the ``covers`` marks).
"""

from __future__ import annotations

from typing import Any

import pytest
from tcgcore_guimi_revival import get_pool
from tcgcore_guimi_revival.cards import Condition
from tcgcore_guimi_revival.rules import agility, is_characteristic, strength
from tcgcore_guimi_revival.testing import build, covers, find, game, keys, pick, player

POOL = get_pool("builtin").cards
PATHS = ("seer", "marauder", "hunter", "assassin", "sailor", "sleepless")
POTIONS = sorted(c for c, d in POOL.items() if d.is_potion)
CHARACTERISTICS = sorted(c for c, d in POOL.items() if d.characteristic is not None)
EXTRA = sorted(c for c, d in POOL.items() if d.extra_kind is not None)
BLASPHEMY = [(c, i) for c in sorted(POOL) if POOL[c].extra_kind in ("blasphemy_slate",
                                                                   "blasphemy_card")
             for i in range(len(POOL[c].rituals))]
GODS = sorted(c for c, d in POOL.items() if d.extra_kind == "god")


def _other(path: str) -> str:
    return "marauder" if path != "marauder" else "seer"


def _rich(path: str) -> dict[str, Any]:
    """Zones that meet every ritual condition of the starter set (4 characteristics, 2 units,
    2 hand cards, 3 Underworld cards, a status card, 1 corruption), built from vanilla cards
    of another pathway, which carry no ritual of their own."""
    o = _other(path)
    return {"spirit_world": [f"{o}_b9"] * 3, "units": ["", "", f"{o}_b9", f"{o}_b9"],
            "hand": [f"{o}_b9"] * 2, "underworld": [f"{o}_b9"] * 3,
            "status": [{"code": f"{path}_b9"}], "corruption": 1}


def _holds(c: Condition, counts: dict[str, int], seq: int) -> bool:
    """A ritual condition (013.1: inclusive) read straight from the card record."""
    if c.kind == "always":
        return True
    if c.kind == "rb_sequence_at_most":
        return seq <= c.value
    return counts[c.kind.removesuffix("_at_least")] >= c.value


@covers(*POTIONS)
@pytest.mark.parametrize("code", POTIONS)
def test_potion_is_played_activated_and_promotes(code: str) -> None:
    """073.1, 072.1, 076.1, 076.2, 082.1, 083.1-083.4, 086.1: a potion is played from hand at
    the rank its text prints, activated into the Spirit World, where it is a characteristic of
    its pathway and sequence, and promotes an RB one sequence lower to that sequence when the
    ritual it prints (sequences 5-2) holds."""
    d = POOL[code]
    assert d.pathway is not None and d.sequence is not None
    path, seq = d.pathway, d.sequence
    rb_seq = min(9, seq + 1)
    for rich in (True, False):
        p0: dict[str, Any] = {**(_rich(path) if rich else {}), "revival": f"rb_{path}",
                              "sequence": rb_seq, "deck": [f"{path}_b9"] * 10}
        p0["hand"] = [*p0.get("hand", []), code]
        m = build(game(p0, player("rb_hunter", status=[{"code": "hunter_b9"}])))
        pot = find(m, code, "hand.0")
        pick(m, f"play:{pot}:0", "main_action")
        pick(m, f"potion:{pot}", "main_action")
        card = m.state.cards[pot]
        assert card.zone == "spirit.0" and not card.face_down and is_characteristic(m.engine, pot)
        if seq == 9:
            return  # a sequence-9 characteristic: no RB is below sequence 9 to promote with it
        counts = {"characteristics": 4 if rich else 1, "units": 2 if rich else 0,
                  "hand": 2 if rich else 0, "underworld": 3 if rich else 0,
                  "status": 1 if rich else 0, "corruption": 1 if rich else 0,
                  "opponent_status": 1, "spirit_world": 4 if rich else 1}
        ritual_ok = seq > 5 or (d.ritual is not None and d.ritual.sequence == seq
                                and all(_holds(c, counts, rb_seq) for c in d.ritual.condition))
        if m.pending is not None and m.pending.kind == "main_action":
            pick(m, "end")
        offered = (m.pending is not None and m.pending.kind == "promotion"
                   and f"promote:{pot}" in keys(m))
        assert offered == ritual_ok, (rich, keys(m))
        if offered:
            pick(m, f"promote:{pot}")
            assert m.state.sequence[0] == seq
    assert seq > 5 or (d.ritual is not None and d.ritual.condition), code


@covers(*CHARACTERISTICS)
@pytest.mark.parametrize("code", CHARACTERISTICS)
def test_characteristic_ability_of_a_digested_card(code: str) -> None:
    """104.3, 022.2, 033.2: a card's characteristic ability ("Digested: your RB gets ...")
    counts for the RB once the card is face up in its characteristic stack, not while face
    down, and not for the card itself as a unit (option default ``inactive``)."""
    d = POOL[code]
    ch = d.characteristic
    assert ch is not None
    rb = POOL["rb_seer"]
    for face_down in (True, False):
        m = build(game(player(stack=[{"code": code, "face_down": face_down}])))
        got_s, got_a = strength(m.engine, m.state.rb[0]), agility(m.engine, m.state.rb[0])
        bonus_s, bonus_a = (0, 0) if face_down else (ch.strength, ch.agility)
        assert (got_s, got_a) == (rb.strength + bonus_s, rb.agility + bonus_a)
    if d.is_beyonder:
        m = build(game(player(units=[code, "", "", ""])))
        assert strength(m.engine, find(m, code)) == d.strength


@covers(*EXTRA)
@pytest.mark.parametrize("code", EXTRA)
def test_extra_card_condition_and_destination(code: str) -> None:
    """122.1, 122.2, 122.3, 028.1, 028.2: an extra-deck card set in the Spirit World can be
    activated exactly when the condition its text prints holds (your RB at that sequence or
    higher), and then goes where its text says: into the hand, or it stays face up (a
    characteristic when it has a pathway and a sequence)."""
    d = POOL[code]
    (cond,) = d.activation_condition
    assert cond.kind == "rb_sequence_at_most"
    path = d.pathway if d.pathway in PATHS else "seer"

    def setup(seq: int) -> Any:
        return build(game(player(f"rb_{path}", sequence=seq,
                                 units=[f"{path}_b9", "", "", ""],
                                 status=[{"code": "hunter_b9", "face_down": True}],
                                 spirit_world=[{"code": code, "face_down": True},
                                               "seer_potion9"]),
                          player("rb_hunter", units=["hunter_b9", "", "hunter_it_trap", ""])))

    if cond.value < 9:
        m = setup(cond.value + 1)
        assert f"extra:{find(m, code)}" not in keys(m)
    m = setup(cond.value)
    cid = find(m, code)
    pick(m, f"extra:{cid}", "main_action")
    for _ in range(5):  # its activation effect's choices
        if m.pending is None or m.pending.kind == "main_action":
            break
        pick(m, next(o.key for o in m.pending.options if o.card != cid))
    card = m.state.cards[cid]
    if d.after_activation == "hand":
        assert card.zone == "hand.0"
        assert "into your hand" in d.text_en
    else:
        assert card.zone == "spirit.0" and not card.face_down and "stays face up" in d.text_en
        assert is_characteristic(m.engine, cid) == (d.sequence is not None)


def _ritual_scenario(code: str, index: int, slate: bool) -> Any:
    d = POOL[code]
    r = d.rituals[index]
    path, seq = r.pathway, r.sequence
    own = [{"code": f"g0_{path}"}] if seq == 1 else [f"{path}_b{seq}"]  # the characteristic
    rich = _rich(path)
    holder = [code] if d.extra_kind == "blasphemy_slate" or not slate else [code, "slate_1"]
    p0 = {**rich, "revival": f"rb_{path}", "sequence": seq + 1, "deck": [f"{path}_b9"] * 5,
          "spirit_world": [*own, *rich["spirit_world"], *holder]}
    if d.extra_kind == "blasphemy_card" and not slate:
        p0["spirit_world"] = [*own, *rich["spirit_world"], code]
    return build(game(p0, player("rb_hunter", status=[{"code": "hunter_b9"}]),
                      phase="promotion1")), r


@covers(*sorted({c for c, _ in BLASPHEMY}))
@pytest.mark.parametrize(("code", "index"), BLASPHEMY, ids=[f"{c}-{i}" for c, i in BLASPHEMY])
def test_blasphemy_ritual(code: str, index: int) -> None:
    """083.1-083.4, 127.1, 128.1: every ritual printed on a Blasphemy Slate or Blasphemy Card
    allows the promotion to its sequence of its pathway while its controller controls a
    Blasphemy Slate; a Blasphemy Card alone does not."""
    m, r = _ritual_scenario(code, index, slate=True)
    target = find(m, f"g0_{r.pathway}" if r.sequence == 1 else f"{r.pathway}_b{r.sequence}")
    assert m.pending is not None and f"promote:{target}" in keys(m), keys(m)
    pick(m, f"promote:{target}")
    assert m.state.sequence[0] == r.sequence
    if POOL[code].extra_kind == "blasphemy_card":
        m, _ = _ritual_scenario(code, index, slate=False)
        assert f"promote:{target}" not in keys(m)


@covers(*GODS, *(f"uniq_{p}" for p in PATHS))
@pytest.mark.parametrize("code", GODS)
def test_god_card_apotheosis(code: str) -> None:
    """088.1-088.5, 123.1, 123.2, 124.1: face up, a God card is a sequence-0 characteristic of
    its pathway; with three sequence-1 characteristics and the pathway's Uniqueness face up
    and its apotheosis ritual holding, it promotes a sequence-1 RB to sequence 0; without the
    Uniqueness it does not."""
    d = POOL[code]
    path = d.pathway
    assert path is not None and d.apotheosis_ritual is not None
    ones = [{"code": f"{path}_b2", "counters": {"seq": 1}}] * 2 + [f"g0_{path}"]
    for uniq in (True, False):
        sw = [code, *ones, *([f"uniq_{path}"] if uniq else [])]
        m = build(game(player(f"rb_{path}", sequence=1, spirit_world=sw,
                              deck=[f"{path}_b9"] * 5), phase="promotion1"))
        god = find(m, code)
        assert is_characteristic(m.engine, god)
        assert (f"promote:{god}" in keys(m)) == uniq
        if uniq:
            pick(m, f"promote:{god}")
            assert m.state.sequence[0] == 0
