"""The presentation hook ``GameSpec.table_layout`` (docs/web.md, "The presentation hook for
plugin authors"): Guimi Revival's and Arkham's layouts are built from a seat's view only, so
they name no card that view does not show; Guimi's rows carry each unit's current strength and
agility (the rules' own stat functions); Arkham's map carries the locations' connections."""

from __future__ import annotations

import json
import random
from typing import Any

import tcgcore
from tcgcore.testing import hidden_twin


def _played(game: str, seed: int, decisions: int, **options: Any) -> tcgcore.Match[Any]:
    match = tcgcore.new_match(game, seed=seed, **options)
    rng = random.Random(seed)
    for _ in range(decisions):
        choice = match.pending
        if choice is None or match.result is not None:
            break
        keys = [o.key for o in choice.options]
        plays = [k for k in keys if k.startswith("play:")]
        match.choose(choice.player, plays[:1] if plays and choice.max >= 1 else
                     rng.sample(keys, max(choice.min, min(1, choice.max))))
    return match


def _codes(value: Any) -> set[str]:
    """Every ``code`` of a layout or a view (as builtins)."""
    if isinstance(value, list):
        return set().union(*map(_codes, value)) if value else set()
    if isinstance(value, dict):
        out = {value["code"]} if isinstance(value.get("code"), str) else set()
        return out.union(*map(_codes, value.values())) if value else out
    return set()


def _view_codes(view: tcgcore.View) -> set[str]:
    return _codes(json.loads(msgspec_json(view)))


def msgspec_json(value: Any) -> bytes:
    import msgspec
    return msgspec.json.encode(value)


def test_guimi_layout_rows_show_current_strength_and_agility_and_no_hidden_card() -> None:
    """Guimi 073.1 (front row F1/F2, back row B1/B2): each unit in a row carries its current
    strength and agility as ``rules.strength``/``rules.agility`` compute them; the layout of a
    seat names no card its view hides (the other seat's hand, face-down cards, decks)."""
    from tcgcore_guimi_revival import rules
    from tcgcore_guimi_revival.plugin import _StateOnly
    match = _played("guimi_revival", 3, 80)
    state = match.state
    eng: Any = _StateOnly(state)
    checked = 0
    for seat in (0, 1, None):
        view = match.view(seat)
        layout = tcgcore.table_layout(match.spec, view)
        assert layout is not None
        assert _codes(layout) <= _view_codes(view)
        rows = [b for b in layout if b["kind"] == "cards" and b["title"] in ("front row", "back row")]
        assert len(rows) == 4 and all(len(b["slots"]) == 2 for b in rows)
        for p in (0, 1):
            units = state.zones[f"units.{p}"].cards
            for b in (b for b in rows if b["owner"] == p):
                for slot in b["slots"]:
                    cid = units[slot["slot"]]
                    assert slot["name"] == rules.SLOT_NAMES[slot["slot"]]
                    if cid < 0 or state.cards[cid].face_down:
                        assert "code" not in slot
                        continue
                    if not rules.cdef(eng, cid).is_beyonder:  # an item: no strength
                        assert "facts" not in slot
                        continue
                    facts = {f["label"]: f["value"] for f in slot["facts"]}
                    assert facts == {"strength": rules.strength(eng, cid),
                                     "agility": rules.agility(eng, cid)}
                    checked += 1
        if seat is not None:  # the other seat's hidden cards changed: the same layout
            twin = hidden_twin(match, seat)
            assert twin.state.zones[f"hand.{1 - seat}"].cards != state.zones[f"hand.{1 - seat}"].cards \
                or twin.state.zones[f"deck.{1 - seat}"].cards != state.zones[f"deck.{1 - seat}"].cards
            assert tcgcore.table_layout(twin.spec, twin.view(seat)) == layout
    assert checked >= 3


def test_guimi_play_options_name_the_slot_they_play_to() -> None:
    """Guimi 073.1: a play option's data names the unit zone and slot it fills, which the
    protocol sends as its target (the page highlights that slot)."""
    match = tcgcore.new_match("guimi_revival", seed=3)
    for _ in range(200):
        choice = match.pending
        assert choice is not None and match.result is None
        plays = [o for o in choice.options if o.key.startswith("play:")]
        if plays:
            break
        match.choose(choice.player, [choice.options[-1].key] if choice.max else [])
    assert plays and choice is not None
    for o in plays:
        slot = int(o.key.rsplit(":", 1)[1])
        assert o.data == {"zone": f"units.{choice.player}", "slot": slot}
        assert match.state.zones[f"units.{choice.player}"].cards[slot] == tcgcore.EMPTY_SLOT


def test_arkham_layout_maps_the_locations_with_their_connections() -> None:
    """Arkham (A250 locations and connections, A300 enemies): the map has one node per
    location in play with its connections as edges, an enemy's fight, health, evade, damage
    and horror; the layout names no card the seat's view hides (hands, decks, the encounter
    deck)."""
    match = _played("arkham_card", 5, 120, players=2)
    state = match.state
    for seat in (0, 1, None):
        view = match.view(seat)
        layout = tcgcore.table_layout(match.spec, view)
        assert layout is not None
        panel_codes = _codes(view.panel)
        assert _codes(layout) <= _view_codes(view) | panel_codes
        (themap,) = [b for b in layout if b["kind"] == "map"]
        locations = view.panel["locations"]
        assert [n["id"] for n in themap["nodes"]] == [loc["id"] for loc in locations]
        edges = {frozenset(e) for e in themap["edges"]}
        assert edges == {frozenset((loc["id"], c)) for loc in locations for c in loc["connections"]}
        if seat is not None:  # the other seat's and the encounter deck's order changed
            twin = hidden_twin(match, seat)
            assert any(twin.state.zones[z].cards != state.zones[z].cards
                       for z in ("encounter", "deck.0", "deck.1", f"hand.{1 - seat}"))
            assert tcgcore.table_layout(twin.spec, twin.view(seat)) == layout
        for block in layout:
            nodes = block.get("nodes", [])
            for slot in block.get("slots", []) + [s for n in nodes for s in n.get("cards", [])]:
                if slot.get("code") in {e["code"] for e in view.panel["enemies"].values()}:
                    assert {f["label"] for f in slot["facts"]} >= {
                        "fight", "health", "evade", "damage", "horror"}


def test_a_game_without_the_hook_has_no_layout() -> None:
    """Sparks sets no ``table_layout``: front ends draw the generic table (layout ``None``)."""
    match = tcgcore.new_match("sparks", seed=1)
    assert match.spec.table_layout is None
    assert tcgcore.table_layout(match.spec, match.view(0)) is None


def test_arkham_names_in_traditional_chinese_from_the_rules_summary() -> None:
    """The rules summary names the Study 書房 and Roland Banks 羅蘭·班克斯: their catalogue
    entries in zh_Hant carry those names; English and cards it does not name stay English."""
    spec = tcgcore.new_match("arkham_card", seed=1).spec
    study = tcgcore.card_info(spec, "01111", "zh_Hant")
    assert study is not None and study.name == "書房" and study.lang == "zh_Hant"
    roland = tcgcore.card_info(spec, "01001", "zh_Hant")
    assert roland is not None and roland.name == "羅蘭·班克斯"
    english = tcgcore.card_info(spec, "01111", "en")
    assert english is not None and english.name == "Study"


def test_the_serve_protocol_pushes_the_layout_in_its_updates() -> None:
    """``serve --stdio`` and the web table share the update: a subscribed Guimi seat gets the
    game's layout of its own view (``layout``), the same as ``tcgcore.table_layout`` of that
    view; Sparks' updates carry ``None``."""
    from tcgcore._serve import Server
    server = Server(tcgcore.default_registry(), rate=None)
    for game, has in (("guimi_revival", True), ("sparks", False)):
        created = server.handle({"op": "create", "game": game, "seed": 2})
        mid, tokens = created["match"], created["tokens"]
        got = server.handle({"op": "subscribe", "match": mid, "seat": 1, "token": tokens[1]})
        assert got["ok"], got
        (update,) = server.take_updates()
        assert update["type"] == "update"
        match = server.matches[mid].match
        expected = tcgcore.table_layout(match.spec, match.view(1))
        assert update["layout"] == expected and (expected is not None) == has
