"""Setup's per-process caches give exactly what a fresh computation gives (rules.md section 5).

Setup (051.1-051.3) reads three things it computes once per process: each precon's cards as
immutable tuples (:func:`decks.precon_cards`), the zone table of section 3 (031.1-036.3), and,
when no rules option is given, one shared default :class:`RulesOptions` (section 14). These
tests empty the caches and check that a match set up afresh is the match set up from the
caches, that deck lists given in full deal the same cards as the precon names, that deck
validation (041-043) still refuses bad decks after the precons were cached, and that what a
match holds of the cached data cannot be written into, so one match never changes another.
"""

from __future__ import annotations

import copy
import tomllib
from pathlib import Path
from typing import Any

import pytest
from tcgcore_guimi_revival import decks, setup
from tcgcore_guimi_revival.decks import PRECONS, default_decks, precon_cards
from tcgcore_guimi_revival.options import RulesOptions, parse_rules_options

import tcgcore

DECK_DIR = Path(decks.__file__).parent / "data" / "decks"
POOL = str(Path(__file__).parent / "data" / "test_pool.toml")


def _state(m: tcgcore.Match[Any]) -> bytes:
    return m.state_bytes()


def _fresh_match(seed: int, **options: Any) -> tcgcore.Match[Any]:
    """A match set up with every setup cache emptied first."""
    precon_cards.cache_clear()
    setup._VALID.clear()
    return tcgcore.new_match("guimi_revival", seed=seed, **options)


def _precon_raw(name: str) -> dict[str, Any]:
    return tomllib.loads((DECK_DIR / f"{name}.toml").read_text(encoding="utf-8"))


def test_051_1_precon_cards_are_the_deck_lists_as_tuples() -> None:
    """051.1: the cached cards of each precon are its RB, its main deck in list order and its
    extra deck, as a fresh reading of the deck list gives them, in tuples."""
    precon_cards.cache_clear()
    for name in PRECONS:
        deck = default_decks()[name]
        got = precon_cards(name)
        assert got == (deck.revival, tuple(deck.main_codes()), tuple(deck.extra))
        assert not hasattr(got[1], "append") and not hasattr(got[2], "append")  # tuples
        assert precon_cards(name) is got  # computed once
    with pytest.raises(KeyError):
        precon_cards("no_such_deck")


@pytest.mark.parametrize("options", [
    {},
    {"first_player": "p1"},
    {"decks": ["marauder", "assassin"]},
    {"decks": ["sailor", "sleepless"], "extra_deck_size": "up_to_7"},
    {"potion_limit": "per_pathway_sequence", "off_pathway_count": "pathway_cards_only"},
    {"deck_check": False},
])
def test_051_cached_setup_equals_fresh_setup(options: dict[str, Any]) -> None:
    """Section 5 (051.1-051.3, 052.1): the state after setup from warm caches is the state
    a setup with emptied caches gives, byte for byte, with the same first choice."""
    for seed in range(6):
        fresh = _fresh_match(seed, **copy.deepcopy(options))
        cached = tcgcore.new_match("guimi_revival", seed=seed, **copy.deepcopy(options))
        assert _state(cached) == _state(fresh)
        assert cached.pending == fresh.pending
        assert cached.to_bytes() == fresh.to_bytes()


def test_051_1_full_deck_lists_deal_what_precon_names_deal() -> None:
    """051.1: a deck given as a deck-list table or as a deck file's text (not cached) deals
    the same cards, shuffled the same, as the precon of that name (cached)."""
    seer, hunter = _precon_raw("seer"), _precon_raw("hunter")
    text = (DECK_DIR / "seer.toml").read_text(encoding="utf-8")
    for seed in range(4):
        named = tcgcore.new_match("guimi_revival", seed=seed)
        listed = tcgcore.new_match("guimi_revival", seed=seed, decks=[seer, hunter])
        as_text = tcgcore.new_match("guimi_revival", seed=seed, decks=[text, "hunter"])
        assert _state(listed) == _state(named) == _state(as_text)


def test_section_14_default_rules_options_are_what_parsing_gives() -> None:
    """Section 14: with no rules option the match holds the defaults (equal to parsing no
    option; frozen, so one shared instance); a given option is parsed as before."""
    a = tcgcore.new_match("guimi_revival", seed=1)
    b = tcgcore.new_match("guimi_revival", seed=2, decks=["sailor", "seer"])
    assert a.state.options == parse_rules_options({}) == RulesOptions()
    assert b.state.options == a.state.options
    with pytest.raises(AttributeError):
        a.state.options.first_player = "p1"
    c = tcgcore.new_match("guimi_revival", seed=1, first_player="p1", untap_scope="all")
    assert c.state.options == parse_rules_options({"first_player": "p1", "untap_scope": "all"})
    assert c.state.first == 1
    with pytest.raises(tcgcore.OptionsError, match="unknown option"):
        tcgcore.new_match("guimi_revival", seed=1, no_such_option=1)


def test_041_043_validation_still_refuses_bad_decks_after_caching() -> None:
    """041.1, 041.2, 041.3: with the precons cached and validated, a bad deck still raises
    DeckError naming every problem, and a precon checked against another pool still fails."""
    tcgcore.new_match("guimi_revival", seed=0)  # warm every cache
    seer = _precon_raw("seer")
    short = copy.deepcopy(seer)
    main = short["main"]
    main[next(iter(main))] -= 1
    with pytest.raises(tcgcore.DeckError) as exc:
        tcgcore.new_match("guimi_revival", seed=0, decks=[short, "hunter"])
    assert any("(041.1)" in p for p in exc.value.problems)
    few = copy.deepcopy(seer)
    few["extra"] = list(seer["extra"])[:5]
    with pytest.raises(tcgcore.DeckError) as exc:
        tcgcore.new_match("guimi_revival", seed=0, decks=[few, "hunter"])
    assert any("(041.2)" in p for p in exc.value.problems)
    tcgcore.new_match("guimi_revival", seed=0, decks=[few, "hunter"], extra_deck_size="up_to_7")
    bad_rb = dict(seer, revival="no_such_card")
    with pytest.raises(tcgcore.DeckError) as exc:
        tcgcore.new_match("guimi_revival", seed=0, decks=[bad_rb, "hunter"])
    assert any("(041.3)" in p for p in exc.value.problems)
    with pytest.raises(tcgcore.DeckError):  # the precons' cards are not in the test pool
        tcgcore.new_match("guimi_revival", seed=0, pool=POOL)
    with pytest.raises(tcgcore.OptionsError, match="unknown precon deck 'nope'"):
        tcgcore.new_match("guimi_revival", seed=0, decks=["nope", "seer"])


def test_031_a_match_writing_into_its_setup_data_changes_no_other_match() -> None:
    """031.1, 051.1: each match gets its own zones and card lists; the shared precon tuples
    and default options cannot be written into, so after one match is played out and its
    zones are scribbled on, a new match is still the one a fresh setup gives."""
    before = _fresh_match(5)
    cards = precon_cards("seer")
    with pytest.raises(TypeError):
        cards[1][0] = "x"  # type: ignore[index]
    a = tcgcore.new_match("guimi_revival", seed=5)
    b = tcgcore.new_match("guimi_revival", seed=5)
    for zone_id, zone in a.state.zones.items():
        assert zone.cards is not b.state.zones[zone_id].cards
    tcgcore.play_out(a, [tcgcore.RandomAgent(1), tcgcore.RandomAgent(2)])
    a.state.zones["deck.0"].cards.reverse()
    a.state.zones["extra.1"].cards.clear()
    a.state.zones["hand.0"].cards.append(0)
    assert _state(b) == _state(before)
    after = tcgcore.new_match("guimi_revival", seed=5)
    assert _state(after) == _state(before)
    assert precon_cards("seer") == cards


#: each player's zones as section 3 describes them (031-036), in creation order:
#: (kind, visibility, ordered, capacity, slotted), written out here independently of the
#: table setup builds them from, so an edit of that table shows
_SECTION_3_ZONES = [
    ("deck", "hidden", True, None, False),
    ("extra", "owner", False, None, False),
    ("hand", "owner", False, None, False),
    ("revival", "public", True, 1, True),
    ("stack", "public", True, None, False),
    ("units", "public", True, 4, True),
    ("spirit", "public", True, 7, False),
    ("status", "public", True, None, False),
    ("underworld", "public", True, None, False),
    ("astral", "public", True, None, False),
]


def test_031_036_setup_creates_the_section_3_zones() -> None:
    m = tcgcore.new_match("guimi_revival", seed=4)
    zones = list(m.state.zones.values())
    assert [(z.owner, z.kind, z.visibility, z.ordered, z.capacity, z.slotted)
            for z in zones] == [(p, *spec) for p in (0, 1) for spec in _SECTION_3_ZONES]
    assert [z.id for z in zones] == [rules_z(kind, p) for p in (0, 1)
                                     for kind, *_ in _SECTION_3_ZONES]


def rules_z(kind: str, p: int) -> str:
    from tcgcore_guimi_revival.rules import z

    return z(kind, p)
