"""Defeat order in the Arkham plugin: defeat resolves before the harm's
"after" abilities (Psychosis and Hypochondria together, A703.3) and an eliminated
investigator's abilities never resolve (A705.10); a lower sanity defeats at once (Dreams
of R'lyeh, A703.2); Lita Chantler's bonus by every route into play (A216.3); enemies
left behind by disengage-and-move effects engage who is still there (A602.5, A975.14);
and a clear error for an investigators option entry that is not a code."""

from __future__ import annotations

from typing import Any

import pytest
from tcgcore_arkham_card import scenario
from tcgcore_arkham_card.queries import inv_sanity, skill_value
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
    pass_until,
    pending,
    play_card,
    st,
    who,
)

import tcgcore

DECK = ["t_guts"] * 10


def inv(code: str = "01001", **kw: Any) -> dict[str, Any]:
    """Roland (by default) in room A with :data:`DECK` (testkit.investigator's room)."""
    return investigator(code, kw.pop("deck", DECK), **kw)


# ---------------------------------------------------------------------------- A703.3


def test_A703_3_psychosis_and_hypochondria_end_in_defeat_not_a_loop() -> None:
    """Each took the other's harm forever: the defeat check came after the forced
    "after you take damage/horror" triggers. Roland (9 health, 5 sanity) is defeated
    when his horror reaches 5, and nothing resolves after that."""
    m = scenario(desc(inv(threat=["01099", "01100"]), enemies=[{"code": "t_rat", "engaged": 0}]))
    answer(m, "draw")  # the rat's attack of opportunity starts the chain
    assert m.result is not None and m.result.reason == "all_defeated"
    roland = st(m).inv[0]
    assert roland.status == "defeated" and roland.trauma == "mental"
    assert roland.horror == 5 and roland.damage <= 9
    placed = events(m, "harm_placed")
    assert len(placed) <= 12  # one placement per point, then the defeat


def test_A703_3_psychosis_hypochondria_real_play_two_investigators() -> None:
    """Hypochondria drawn from the deck joins Psychosis; Grasping Hands in the mythos
    phase starts the chain. Roland is eliminated, the other investigator plays on, and
    nobody is asked anything on Roland's behalf."""
    m = scenario(desc(inv(deck=["01100", "t_guts", "t_guts"], threat=["01099"]),
                      inv("t_inv_seeker", location="t_loc_b"),
                      encounter_deck=["01162", "t_guts", "t_guts"], tokens=["auto_fail"] * 3))
    answer(m, "inv:0")
    answer(m, "draw")  # Hypochondria's revelation: into the threat area
    assert codes_in(m, "threat.0") == ["01099", "01100"]
    answer(m, "end_turn")
    while st(m).inv[0].status == "" and m.result is None:
        assert who(m) in (0, 1)
        c = pending(m)
        answer(m) if c.min == 0 else answer(m, c.keys[0])
    assert st(m).inv[0].status == "defeated"
    assert m.result is None and who(m) == 1
    pass_until(m, "action")
    assert who(m) == 1


def test_A705_10_no_reaction_of_an_investigator_defeated_by_a_forced_effect() -> None:
    """Roland (4 horror) defeats Goat Spawn; its forced effect gives him the horror that
    defeats him. His own "after you defeat an enemy" reaction was waiting in the same
    window: it is dropped, not offered to the eliminated seat."""
    m = scenario(desc(inv(horror=4), inv("t_inv_seeker", location="t_loc_b"),
                      enemies=[{"code": "01180", "engaged": 0, "damage": 2}], tokens=["0"]))
    answer(m, "inv:0")
    answer(m, f"fight:{enemy(m, '01180')}")
    assert st(m).inv[0].status == "defeated"
    assert not (kind(m) == "use_trigger" and who(m) == 0)
    pass_until(m, "action")
    assert who(m) == 1
    gone = next(e.seq for e in events(m, "investigator_eliminated"))
    assert not [e for e in events(m, "ability") if e.player == 0 and e.seq > gone]


def test_A703_3_agnes_reaction_not_offered_when_the_horror_defeats_her() -> None:
    """Agnes (6 health, 5 damage) takes an attack of opportunity that defeats her: her
    "after horror is placed on you" reaction is not offered, nor does Psychosis resolve."""
    m = scenario(desc(inv("01004", damage=5, threat=["01099"]),
                      inv("t_inv_seeker"),
                      enemies=[{"code": "t_ghoul", "engaged": 0}, {"code": "t_rat", "engaged": 1}]))
    answer(m, "inv:0")
    answer(m, "draw")
    assert st(m).inv[0].status == "defeated"
    assert not (kind(m) == "use_trigger" and who(m) == 0)


# ---------------------------------------------------------------------------- A703.2


def test_A703_2_dreams_of_rlyeh_defeats_at_once_when_horror_reaches_the_new_sanity() -> None:
    m = scenario(desc(inv(horror=4), encounter_deck=["01182"], phase="mythos", round=2))
    assert m.result is not None and m.result.reason == "all_defeated"
    assert st(m).inv[0].status == "defeated" and st(m).inv[0].trauma == "mental"


def test_A703_2_dreams_of_rlyeh_below_the_limit_only_lowers_sanity() -> None:
    m = scenario(desc(inv(horror=3), encounter_deck=["01182"], phase="mythos", round=2))
    pass_until(m, "action")
    assert st(m).inv[0].status == "" and inv_sanity(st(m), 0) == 4
    assert codes_in(m, "threat.0") == ["01182"]


# ---------------------------------------------------------------------------- A216.3


def test_A216_3_lita_played_from_hand_gives_her_bonus() -> None:
    m = scenario(desc(inv(hand=["01117"]), inv("01002"),
                      enemies=[{"code": "01160", "location": "t_loc_b"}], tokens=["0", "0"]))
    answer(m, "inv:0")
    assert [skill_value(st(m), s, "combat") for s in (0, 1)] == [4, 2]
    play_card(m, "01117")
    pass_until(m, "action")
    lita = enemy(m, "01117")
    assert st(m).cards[lita].zone == "play.0" and st(m).auras == [lita]
    assert [skill_value(st(m), s, "combat") for s in (0, 1)] == [5, 3]


def test_A216_3_lita_as_a_builder_asset_adds_monster_damage() -> None:
    m = scenario(desc(inv(assets=["01117"]), inv("01002"),
                      enemies=[{"code": "01160", "engaged": 1}], tokens=["0", "0"]))
    assert [skill_value(st(m), s, "combat") for s in (0, 1)] == [5, 3]
    answer(m, "inv:1")
    ghoul = enemy(m, "01160")  # Ghoul Minion: a Monster with 2 health
    answer(m, f"fight:{ghoul}")
    pass_until(m, "action")
    assert st(m).cards[ghoul].zone == "encounter_discard"  # 1 + 1 (Lita) damage


def test_A216_3_lita_leaving_play_ends_her_bonus() -> None:
    m = scenario(desc(inv(assets=[{"code": "01117", "damage": 2}]), inv("01002"),
                      enemies=[{"code": "t_ghoul", "engaged": 0}]))
    answer(m, "inv:0")
    assert [skill_value(st(m), s, "combat") for s in (0, 1)] == [5, 3]
    answer(m, "draw")  # attack of opportunity: 1 damage to Lita defeats her
    lita = enemy(m, "01117")
    answer(m, f"asset:{lita}")
    pass_until(m, "action")
    assert st(m).cards[lita].zone == "out" and st(m).auras == []
    assert [skill_value(st(m), s, "combat") for s in (0, 1)] == [4, 2]


# ---------------------------------------------------------------------------- A602.5


def test_A602_5_elusive_move_leaves_the_enemy_to_engage_the_other_investigator() -> None:
    m = scenario(desc(inv("01003", hand=["01050"]), inv("t_inv_seeker"),
                      enemies=[{"code": "t_ghoul", "engaged": 0}]))
    answer(m, "inv:0")
    play_card(m, "01050")
    answer(m, f"location:{loc(m, 't_loc_b')}")
    ghoul = enemy(m, "t_ghoul")
    assert st(m).cards[ghoul].zone == "threat.1"
    assert [i.location for i in st(m).inv] == [loc(m, "t_loc_b"), loc(m, "t_loc_a")]


def test_A602_5_elusive_with_no_destination_reengages() -> None:
    """Every other location has an enemy: Elusive offers no move, Skids stays, and the
    ghoul engages him again (no free turn beside a ready unengaged enemy)."""
    m = scenario(desc(inv("01003", hand=["01050"]),
                      locations=[{"code": "t_loc_a"}, {"code": "t_loc_b"}],
                      enemies=[{"code": "t_ghoul", "engaged": 0},
                               {"code": "t_rat", "location": "t_loc_b"}]))
    play_card(m, "01050")
    assert kind(m) == "action"
    assert st(m).cards[enemy(m, "t_ghoul")].zone == "threat.0"
    assert f"engage:{enemy(m, 't_ghoul')}" not in keys(m)


def test_A602_5_survival_instinct_move_leaves_the_rat_to_engage_the_other() -> None:
    m = scenario(desc(inv("t_inv_guard", hand=["01081"]), inv("t_inv_seeker"),
                      enemies=[{"code": "t_ghoul", "engaged": 0}, {"code": "t_rat", "engaged": 0}],
                      tokens=["+1"]))
    answer(m, "inv:0")
    answer(m, f"evade:{enemy(m, 't_ghoul')}")
    answer(m, f"commit:{enemy(m, '01081')}")
    answer(m, "disengage")  # Survival Instinct 01081: disengaging is optional (A975.14)
    answer(m, f"location:{loc(m, 't_loc_b')}")
    pass_until(m, "action")
    assert st(m).inv[0].location == loc(m, "t_loc_b")
    assert st(m).cards[enemy(m, "t_rat")].zone == "threat.1"


def test_A602_5_on_wings_of_darkness_leaves_the_enemy_to_engage_the_other() -> None:
    m = scenario(desc(inv("t_inv_guard"), inv("t_inv_seeker"),
                      locations=[{"code": "t_loc_a"}, {"code": "01125", "connections": ["t_loc_a"]}],
                      enemies=[{"code": "t_ghoul", "engaged": 1}],
                      encounter_deck=["01173", "01166"], tokens=["auto_fail"] * 4,
                      phase="mythos", round=2, lead=1))
    for _ in range(8):
        if kind(m) in ("action", "turn_order"):
            break
        answer(m) if pending(m).min == 0 else answer(m, keys(m)[0])
    assert st(m).inv[1].location == loc(m, "01125")
    assert st(m).cards[enemy(m, "t_ghoul")].zone == "threat.0"


# ---------------------------------------------------------------------------- options


@pytest.mark.parametrize("entry", [[], 1001, None])
def test_investigators_option_entry_that_is_not_a_code_is_an_options_error(entry: Any) -> None:
    with pytest.raises(tcgcore.OptionsError, match=r"option 'investigators'.*entry 0") as err:
        tcgcore.new_match("arkham_card", players=1, seed=1, investigators=[entry])
    assert repr(entry) in str(err.value)
