"""The starter card set (rules.md sections 2, 4, 10.2 and 12): its shape, its names, its effect
vocabulary, and the generated card list ``docs/guimi_revival/cards.md``."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import get_args

from tcgcore_guimi_revival import get_pool, load_pathways
from tcgcore_guimi_revival.carddoc import DOC_PATH, render_cards_md
from tcgcore_guimi_revival.cards import RANK_GATE, EffectOp
from tcgcore_guimi_revival.decks import PRECONS

ROOT = Path(__file__).resolve().parents[3]
POOL = get_pool("builtin").cards
PW = load_pathways()
PATHS = sorted({d.pathway for d in POOL.values() if d.card_type == "revival_beyonder"
                and d.pathway is not None})
RANK_OF = {9: "low", 8: "low", 7: "low", 6: "mid", 5: "mid", 4: "high", 3: "high", 2: "angel"}


def test_pathways_sources_and_an_adjacent_pair() -> None:
    """At least 6 pathways from at least 4 Sources, with adjacent pairs (089.2)."""
    assert len(PATHS) >= 6 and sorted(PRECONS) == PATHS
    sources = Counter(PW.source_of(p) for p in PATHS)
    assert len(sources) >= 4
    assert any(n >= 2 for n in sources.values())
    assert PW.adjacent("seer", "marauder") and PW.adjacent("hunter", "assassin")


def test_each_pathway_has_its_cards() -> None:
    """Per pathway: a Revival Beyonder, potions 9..2 with rituals on 5..2, Beyonder cards of
    sequences 9..2 across the four ranks, items, and normal, continuous and quick events."""
    for p in PATHS:
        mine = [d for d in POOL.values() if (d.theme or d.pathway) == p]
        assert sum(d.card_type == "revival_beyonder" for d in mine) == 1
        potions = {d.sequence: d for d in mine if d.is_potion and d.sequence is not None}
        assert sorted(potions) == list(range(2, 10))
        for k, d in potions.items():
            assert (d.ritual is not None) == (k <= 5), d.id
            assert d.ritual is None or (d.ritual.pathway, d.ritual.sequence) == (p, k)
        beyonders = {d.sequence: d for d in mine if d.is_beyonder and d.sequence is not None}
        assert sorted(beyonders) == list(range(2, 10))
        assert {d.rank for d in beyonders.values()} == set(RANK_GATE)
        for k, d in beyonders.items():
            assert d.rank == RANK_OF[k] and d.strength % 100 == 0 and d.strength >= 300
            seqname = PW.pathways[p].sequences[str(k)]
            assert (d.name_en, d.name_zh) == (seqname.en, seqname.zh)
        assert sum(d.card_type == "item" and not d.is_potion and d.extra_kind is None
                   for d in mine) >= 2
        assert {d.event_kind for d in mine if d.card_type == "event"} == {
            "normal", "continuous", "quick"}


def test_extra_deck_cards() -> None:
    """Per pathway a Uniqueness, God card and Blasphemy Card; a Source card per Source used;
    Blasphemy Slates; Grade 0 Sealed Artifacts; each with a real condition and effect."""
    kinds = Counter((d.extra_kind, d.pathway) for d in POOL.values() if d.extra_kind)
    for p in PATHS:
        for k in ("uniqueness", "god", "blasphemy_card"):
            assert kinds[(k, p)] == 1, (k, p)
        assert kinds[("grade0_sealed_artifact", p)] == 1
    used = {PW.source_of(p) for p in PATHS}
    assert {d.source for d in POOL.values() if d.extra_kind == "source"} == used
    assert sum(d.extra_kind == "blasphemy_slate" for d in POOL.values()) >= 2
    for d in POOL.values():
        if d.extra_kind is not None:
            assert d.activation_condition and all(c.kind != "always"
                                                  for c in d.activation_condition), d.id
            assert d.abilities and d.abilities[0].effects, d.id


def test_sequence_1_characteristics_are_obtainable() -> None:
    """Main decks stop at sequence 2 (042.6); sequence-1 characteristics come from Grade 0
    Sealed Artifacts (pathway + sequence 1) and from the ``converge`` effect, and a ritual
    for sequence 1 is on every Blasphemy Card, so sequence 0 is reachable in play."""
    for p in PATHS:
        assert any(d.extra_kind == "grade0_sealed_artifact" and d.pathway == p
                   and d.sequence == 1 for d in POOL.values())
        bcard = POOL[f"bcard_{p}"]
        assert any(r.sequence == 1 for r in bcard.rituals)
    assert any(e.op == "converge" for d in POOL.values() for ab in d.abilities
               for e in ab.effects)


def test_abilities_use_the_shared_vocabulary() -> None:
    """Abilities are composed from the effect ops of cards.py; every op is used by a card."""
    ops = {e.op for d in POOL.values() for ab in d.abilities for e in ab.effects}
    vocab = set(get_args(EffectOp))
    assert ops <= vocab
    assert vocab - ops <= {"revive", "madden_unit"}  # for custom pools (114.1, 112.7)


def test_cards_md_matches_the_generator() -> None:
    """docs/guimi_revival/cards.md is the output of ``python -m tcgcore_guimi_revival.carddoc``
    (rerun it after changing the card data)."""
    committed = (ROOT / DOC_PATH).read_text(encoding="utf-8")
    assert committed == render_cards_md()
    for p in PATHS:
        assert PW.pathways[p].name_zh in committed
