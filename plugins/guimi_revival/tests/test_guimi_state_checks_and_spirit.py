"""Automatic ascension begins only at sequence 0 (089.3, 089.4) and the ``to_spirit`` effect
moves its source only from its owner's units into a Spirit World with room (034.1, 034.2)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
from tcgcore_guimi_revival import rules
from tcgcore_guimi_revival.state import DoEffect, GuimiState
from tcgcore_guimi_revival.testing import build, codes, find, game, ids, player

import tcgcore

POOL = str(Path(__file__).parent / "data" / "test_pool.toml")
Match = tcgcore.Match[GuimiState]
GOO = ["g0_marauder", "uniq_seer", "src_sefirah_castle"]  # the Great Old One requirements


def test_089_3_automatic_ascension_begins_for_a_sequence_0_player() -> None:
    """089.3, 089.4: a qualifying RB at sequence 0 begins to slumber at the state check run
    after a step (not only through the promotion phase's own start, rules.py 889)."""
    m = build(game(player(sequence=0, spirit_world=GOO), phase="main"), pool=POOL)
    st = m.state
    assert st.ascend_round[0] == -1  # the default option: nothing began yet
    st.options = msgspec.structs.replace(st.options, ascension_start="automatic")
    rules._state_checks(m.engine)
    assert st.ascend_round[0] == st.round == 1 and st.sequence[0] == 0
    assert st.cards[st.rb[0]].zone == "astral.0" and ids(m, "revival.0") == []


def test_089_3_automatic_ascension_does_not_begin_again_for_a_slumbering_rb() -> None:
    """089.3, 089.4, 089.5: an RB already slumbering since round 1 (sequence 0, requirements
    still face up) is not sent to ascend again in round 2: its start round, sequence and
    zones stay as they were."""
    m = build(game(player(sequence=0, ascend_round=1, spirit_world=GOO),
                   phase="promotion1", round=2), pool=POOL, ascension_start="automatic")
    st = m.state
    spirit = ids(m, "spirit.0")
    rules._state_checks(m.engine)  # one more state check, as after any step
    assert st.ascend_round[0] == 1 and st.sequence[0] == 0
    assert st.cards[st.rb[0]].zone == "astral.0"
    assert ids(m, "spirit.0") == spirit and ids(m, "revival.0") == []


def test_089_3_automatic_ascension_needs_sequence_0() -> None:
    """089.1, 089.3: at sequence 1 with the same cards face up the RB stays in its revival
    zone and nothing starts."""
    m = build(game(player(sequence=1, spirit_world=GOO), phase="promotion1"), pool=POOL,
              ascension_start="automatic")
    st = m.state
    rules._state_checks(m.engine)
    assert st.ascend_round[0] == -1 and st.sequence[0] == 1
    assert st.cards[st.rb[0]].zone == "revival.0"


def _spirit_case(p0: dict[str, Any]) -> tuple[Match, int]:
    m = build(game(p0, phase="main", first_player=0), pool=POOL)
    return m, find(m, "seer_b9")


def _to_spirit(m: Match, source: int) -> None:
    """Resolve a ``to_spirit`` effect of ``source`` for player 0 (the step the engine runs
    when the ability resolves)."""
    rules._do_effect(m.engine, DoEffect(player=0, source=source, op="to_spirit"))


def test_034_to_spirit_moves_the_unit_into_a_spirit_world_with_room() -> None:
    """034.1, cards.py ``to_spirit``: a unit in its owner's units zone, 6 cards in the Spirit
    World: it goes there face up."""
    m, b9 = _spirit_case(player(units=["seer_b9", "", "", ""],
                                spirit_world=["seer_potion9"] * 6))
    _to_spirit(m, b9)
    card = m.state.cards[b9]
    assert card.zone == "spirit.0" and not card.face_down
    assert len(ids(m, "spirit.0")) == 7 and ids(m, "units.0") == []


def test_034_2_to_spirit_does_nothing_with_a_full_spirit_world() -> None:
    """034.1, 034.2: with 7 cards in the Spirit World the unit stays in its slot."""
    m, b9 = _spirit_case(player(units=["seer_b9", "", "", ""],
                                spirit_world=["seer_potion9"] * 7))
    _to_spirit(m, b9)
    assert m.state.cards[b9].zone == "units.0"
    assert ids(m, "units.0") == [b9] and codes(m, "spirit.0") == ["seer_potion9"] * 7


def test_to_spirit_does_nothing_when_the_source_left_the_units() -> None:
    """cards.py ``to_spirit`` (this unit into the Spirit World): a source destroyed before
    the effect resolves (now in the Underworld) stays there."""
    m, b9 = _spirit_case(player(underworld=["seer_b9"], spirit_world=["seer_potion9"]))
    _to_spirit(m, b9)
    assert m.state.cards[b9].zone == "underworld.0"
    assert codes(m, "spirit.0") == ["seer_potion9"]
