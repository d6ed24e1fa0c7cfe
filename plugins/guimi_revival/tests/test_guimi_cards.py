"""Card data (rules.md sections 2 and 10.2 table): loading, validation and pathways."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from tcgcore_guimi_revival import get_pool, load_pathways, load_pool_file, parse_pool

import tcgcore

POOL = str(Path(__file__).parent / "data" / "test_pool.toml")


def _card(**kw: Any) -> dict[str, Any]:
    base: dict[str, Any] = {"id": "x", "name_zh": "甲", "name_en": "X", "card_type": "beyonder",
                            "pathway": "seer", "sequence": 9, "rank": "low", "strength": 300,
                            "agility": 1}
    base.update(kw)
    return base


def _bad(match: str, **kw: Any) -> None:
    with pytest.raises(tcgcore.CardDataError, match=match):
        parse_pool({"card": [_card(**kw)]}, "mem.toml")


def test_021_3_builtin_and_test_pools_load() -> None:
    """021.2: every record has id, names, card_type, texts and abilities; both pools load."""
    builtin = get_pool("builtin")
    test = load_pool_file(POOL)
    assert "rb_seer" in builtin and "t_onplay" in test
    assert all(c.name_zh and c.name_en for c in test.cards.values())


def test_021_1_card_types() -> None:
    """021.1, 026.1: three card types plus the Revival Beyonder; extra-deck cards are items."""
    pool = load_pool_file(POOL)
    types = {c.card_type for c in pool.cards.values()}
    assert types == {"beyonder", "item", "event", "revival_beyonder"}
    assert all(c.card_type == "item" for c in pool.cards.values() if c.extra_kind)


def test_card_data_error_names_file_card_and_field() -> None:
    """CardDataError names the file, the card and the field (type errors from msgspec)."""
    with pytest.raises(tcgcore.CardDataError) as exc:
        parse_pool({"card": [_card(strength="lots")]}, "mem.toml")
    msg = str(exc.value)
    assert "mem.toml" in msg and "'x'" in msg and "strength" in msg


def test_021_5_pathway_and_sequence_together() -> None:
    """021.4: a card has both pathway and sequence or neither; known pathway; 0..9."""
    _bad("sequence", sequence=None)
    _bad("pathway", pathway="nobody")
    _bad("sequence", sequence=12)


def test_021_6_rank_required() -> None:
    """021.5: rank is required on every card but the RB."""
    _bad("rank", rank=None)


def test_021_7_strength_multiple_of_100() -> None:
    """021.6 (013.5, 013.7): strength is a multiple of 100, agility is not negative."""
    _bad("strength", strength=250)
    _bad("agility", agility=-1)


def test_022_1_beyonder_fields() -> None:
    """022.1: Beyonder cards need pathway and sequence."""
    _bad("pathway", pathway=None, sequence=None)


def test_023_1_revival_beyonder_fields() -> None:
    """023.1: an RB has a pathway and no sequence or rank."""
    _bad("sequence", card_type="revival_beyonder", rank=None)
    _bad("pathway", card_type="revival_beyonder", rank=None, sequence=None, pathway=None)


def test_024_3_potion_needs_pathway_and_ritual() -> None:
    """024.1, 024.3, 024.4, 024.5: potions have pathway and sequence; sequences 5..1 a ritual."""
    _bad("item_kind", card_type="item")
    _bad("ritual", card_type="item", item_kind="potion", sequence=5)
    parse_pool({"card": [_card(card_type="item", item_kind="potion", sequence=5,
                               ritual={"pathway": "seer", "sequence": 5})]})


def test_025_1_event_fields() -> None:
    """025.1: events have an event_kind and no pathway."""
    _bad("event_kind", card_type="event", pathway=None, sequence=None)
    _bad("pathway", card_type="event", event_kind="normal")


def test_026_1_extra_kinds() -> None:
    """026.1, 123.1, 124.1, 125.1, 128.1: God (pathway, sequence 0, apotheosis ritual),
    Uniqueness (pathway, no sequence), Source (known source), Blasphemy Card (pathway, own rituals)."""
    base = {"card_type": "item", "sequence": None, "pathway": None}
    _bad("apotheosis_ritual", **{**base, "extra_kind": "god", "pathway": "seer", "sequence": 0})
    _bad("pathway", **{**base, "extra_kind": "uniqueness", "pathway": "seer", "sequence": 3})
    _bad("source", **{**base, "extra_kind": "source", "source": "nowhere"})
    _bad("rituals", **{**base, "extra_kind": "blasphemy_card", "pathway": "seer",
                       "rituals": [{"pathway": "hunter", "sequence": 5}]})
    _bad("extra_kind", extra_kind="god")


def test_027_4_conditions_are_data() -> None:
    """027.1-027.4: abilities name their timing; conditions are data with a kind and value."""
    _bad("timing", abilities=[{"timing": "whenever", "effects": []}])
    _bad("kind", card_type="item", extra_kind="uniqueness", sequence=None,
         activation_condition=[{"kind": "moon_is_full"}])


def test_024_1_grades_and_effect_amounts() -> None:
    """024.1, 013.5: main-deck sealed artifacts have grade 1-3; strength effects are
    multiples of 100; amounts are not negative."""
    _bad("grade", card_type="item", item_kind="sealed_artifact", pathway=None, sequence=None)
    _bad("grade", card_type="item", extra_kind="grade0_sealed_artifact", grade=2)
    _bad("abilities", abilities=[{"timing": "ignition",
                                  "effects": [{"op": "strength", "amount": 150}]}])
    _bad("abilities", abilities=[{"timing": "ignition", "effects": [{"op": "draw", "amount": -1}]}])


def test_duplicate_card_id() -> None:
    """Card ids are unique within a pool (021.2)."""
    with pytest.raises(tcgcore.CardDataError, match="duplicate"):
        parse_pool({"card": [_card(), _card()]})


def test_pool_json_and_bad_files(tmp_path: Path) -> None:
    """Pools load from JSON too; unreadable or malformed files raise CardDataError."""
    import json

    f = tmp_path / "p.json"
    f.write_text(json.dumps({"card": [_card()]}), encoding="utf-8")
    assert "x" in load_pool_file(f)
    bad = tmp_path / "bad.toml"
    bad.write_text("card = [", encoding="utf-8")
    with pytest.raises(tcgcore.CardDataError, match=r"bad\.toml"):
        load_pool_file(bad)
    with pytest.raises(tcgcore.CardDataError):
        load_pool_file(tmp_path / "missing.toml")
    with pytest.raises(tcgcore.CardDataError, match="list"):
        parse_pool({"card": 3})


def test_102_11_pathways_and_sources() -> None:
    """102.11, 089.2: 22 pathways, 9 Sources; adjacency is sharing a Source."""
    pw = load_pathways()
    assert len(pw.pathways) == 22 and len(pw.sources) == 9
    assert pw.adjacent("seer", "marauder") and not pw.adjacent("seer", "seer")
    assert not pw.adjacent("seer", "hunter")
    assert pw.source_of("monster") == "key_of_light"
    assert sum(1 for p in pw.pathways.values() if p.source == "key_of_light") == 1


def test_014_1_every_card_has_one_rank() -> None:
    """014.1, 014.2: every non-RB card prints one rank; the starter set ranks by sequence."""
    pool = get_pool("builtin")
    tiers = {9: "low", 8: "low", 7: "low", 6: "mid", 5: "mid", 4: "high", 3: "high", 2: "angel",
             1: "angel"}
    for c in pool.cards.values():
        if c.card_type != "revival_beyonder":
            assert c.rank in ("low", "mid", "high", "angel")
        if c.card_type == "beyonder" and c.sequence is not None:
            assert c.rank == tiers[c.sequence]
