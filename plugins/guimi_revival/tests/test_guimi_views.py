"""Hidden information in views and events (rules.md 031.3, 016.3)."""

from __future__ import annotations

from pathlib import Path

from tcgcore_guimi_revival.state import GuimiState
from tcgcore_guimi_revival.testing import build, find, game, ids, new_match, pick, player

import tcgcore
from tcgcore.testing import assert_illegal_choices_atomic, assert_view_hides

POOL = str(Path(__file__).parent / "data" / "test_pool.toml")


def test_031_3_hidden_zones_and_face_down_cards() -> None:
    """031.3, 016.3, 033.2: hands, decks and face-down cards are hidden from the opponent (and
    spectators); counts are public; the owner sees their own face-down cards."""
    desc = game(player(hand=["seer_b9"], stack=[{"code": "seer_potion8", "face_down": True}],
                       spirit_world=[{"code": "ev_ward", "face_down": True}],
                       status=[{"code": "seer_b7", "face_down": True}]))
    m = build(desc, pool=POOL)
    for viewer in (1, None):
        view = m.view(viewer)
        zones = {z.id: z for z in view.zones}
        assert zones["hand.0"].count == 1 and zones["hand.0"].cards == []
        assert zones["deck.0"].count == 20 and zones["deck.0"].cards == []
        for zid in ("stack.0", "spirit.0", "status.0"):
            assert all(c is not None and c.code is None and c.id is None
                       for c in zones[zid].cards), zid
        assert_view_hides(m, viewer)
    own = {z.id: z for z in m.view(0).zones}
    assert [c.code for c in own["spirit.0"].cards if c] == ["ev_ward"]
    assert [c.code for c in own["hand.0"].cards if c] == ["seer_b9"]
    assert_view_hides(m, 0)


def _seen_by(m: tcgcore.Match[GuimiState], seat: int, zone: str) -> list[str | None]:
    """The codes ``seat``'s view shows in ``zone`` (None: a hidden card)."""
    view = {z.id: z for z in m.view(seat).zones}[zone]
    return [c.code for c in view.cards if c is not None]


def test_031_3_healed_card_is_face_up_in_the_underworld_and_when_recurred() -> None:
    """031.5, 031.3, 036.1, 073.1, 016.1, 102.3: a face-down status card healed into the public
    Underworld is put there face up, and both players see it (the opponent too; the damage
    check had revealed it already); returned from there to a unit slot (a recursion
    placement, as 102.3) it enters face up and tapped, never face down."""
    m = build(game(player(sequence=4, status=[{"code": "marauder_b8", "face_down": True}],
                          hand=["seer_b3"]), player("rb_hunter"), phase="main"))
    rb = m.state.rb[0]
    pick(m, f"ignite:{rb}:0", "main_action")  # Klein's 【起】: heal 1
    card = find(m, "marauder_b8")
    assert m.state.cards[card].zone == "underworld.0" and not m.state.cards[card].face_down
    assert _seen_by(m, 1, "underworld.0") == ["marauder_b8"]
    healed = [e for e in m.events_since(0, player=1) if e.kind == "healed"]
    assert [e.code for e in healed] == ["marauder_b8"]
    pick(m, f"play:{find(m, 'seer_b3')}:0", "main_action")  # on play: recur
    pick(m, f"card:{card}:1", "effect_target")
    c = m.state.cards[card]
    assert c.zone == "units.0" and not c.face_down and c.exhausted
    assert _seen_by(m, 1, "units.0") == ["seer_b3", "marauder_b8"]
    assert_view_hides(m, 1)


def test_031_3_revival_moves_status_cards_face_up() -> None:
    """031.5, 031.3, 036.1, 114.1: a revival effect's status cards go to the Underworld face up,
    face-down ones included, and the RB returns face up."""
    p0 = player(dead=True, hand=["ev_return"],
                status=[{"code": "seer_b7", "face_down": True}, "seer_b9",
                        {"code": "seer_b8", "face_down": True}, "marauder_b9"])
    m = build(game(p0), pool=POOL)
    pick(m, f"event:{find(m, 'ev_return')}:up")
    moved = [c for c in ids(m, "underworld.0") if m.state.cards[c].code != "ev_return"]
    assert len(moved) == 3 and not any(m.state.cards[c].face_down for c in moved)
    assert None not in _seen_by(m, 1, "underworld.0")
    rb = m.state.cards[m.state.rb[0]]
    assert rb.zone == "revival.0" and not rb.face_down


def test_events_are_redacted() -> None:
    """Draws and sets are seen only by their owner; reveals by everyone."""
    m = build(game(player(hand=["ev_ward"])), pool=POOL)
    pick(m, f"event:{find(m, 'ev_ward')}:set")
    ev = [e for e in m.events_since(0, player=1) if e.kind == "set"][-1]
    assert ev.card is None and ev.code is None
    ev0 = [e for e in m.events_since(0, player=0) if e.kind == "set"][-1]
    assert ev0.code == "ev_ward"


def test_views_and_illegal_answers_in_a_normal_game() -> None:
    """The conformance helpers hold through a stretch of a normal game."""
    m = new_match(11)
    for _ in range(60):
        if m.pending is None:
            break
        for seat in (0, 1, None):
            assert_view_hides(m, seat)
        assert_illegal_choices_atomic(m)
        ch = m.pending
        m.choose(ch.player, ch.options[-1].key if ch.min else [])


def test_describe_and_panel_for_a_whole_game() -> None:
    """Every event has a readable line; the panel is present for every seat and spectators."""
    from tcgcore_guimi_revival.plugin import describe

    import tcgcore

    m = new_match(4)
    tcgcore.play_out(m, [tcgcore.RandomAgent(1), tcgcore.RandomAgent(2)])
    assert m.result is not None
    lines = [describe(m.state, e) for e in m.events_since(0, player="all")]
    assert all(lines)
    for seat in (0, 1, None):
        panel = m.view(seat).panel
        assert set(panel) == {"round", "phase", "phase_name", "first", "turn_player", "players",
                              "stats"}


def test_scenario_doc_example_runs() -> None:
    """The example in docs/guimi_revival/scenario-format.md builds and behaves as described."""
    import re

    doc = Path(__file__).resolve().parents[3] / "docs" / "guimi_revival" / "scenario-format.md"
    match = re.search(r"```toml\n(.*?)```", doc.read_text(encoding="utf-8"), re.S)
    assert match is not None
    m = build(match.group(1))
    pot = find(m, "seer_potion7")
    pick(m, f"promote:{pot}", "promotion")
    assert m.state.mad[0] == 1 and m.state.sequence[0] == 8


def test_plugin_registers_the_game() -> None:
    """The plugin module registers ``guimi_revival`` through the tcgcore hook."""
    from tcgcore_guimi_revival.testing import registry

    assert "guimi_revival" in registry().names()


def test_075_ignition_options_say_which_ability() -> None:
    """075.1: a card with two 【起】 abilities offers two options whose labels differ and say
    what each ability does (the option keys stay ``ignite:ID:INDEX``)."""
    import tcgcore

    m = new_match(1)
    agents = [tcgcore.RandomAgent(1), tcgcore.RandomAgent(2)]
    while m.result is None:
        choice = m.pending
        assert choice is not None
        ignite = [o for o in choice.options if o.key.startswith("ignite:")]
        by_card: dict[str, list[str]] = {}
        for o in ignite:
            by_card.setdefault(o.key.rsplit(":", 1)[0], []).append(o.label)
        twins = [labels for labels in by_card.values() if len(labels) > 1]
        if twins:
            labels = twins[0]
            assert len(set(labels)) == len(labels), labels
            assert all(label.startswith("Activate ") and ": " in label for label in labels)
            return
        m.choose(choice.player, agents[choice.player].decide(m, choice))
    raise AssertionError("no card offered two 【起】 abilities")


def test_ability_summary_falls_back_to_the_ability_number() -> None:
    from tcgcore_guimi_revival.cards import Ability, get_pool
    from tcgcore_guimi_revival.rules import _ability_summary

    seer = get_pool("builtin").cards["rb_seer"]
    assert _ability_summary(seer, 0).startswith("move 1 face-down card")
    assert _ability_summary(seer, 1).endswith("…") and len(_ability_summary(seer, 1)) <= 72
    blank = seer.__class__(**{**{f: getattr(seer, f) for f in seer.__struct_fields__},
                              "abilities": (Ability(timing="ignition"),) * 2})
    assert [_ability_summary(blank, i) for i in (0, 1)] == ["ability 1", "ability 2"]


def test_played_log_lines_are_whole_sentences() -> None:
    """A card played to the unit zone or face up into the Spirit World: no dangling "to"."""
    from tcgcore_guimi_revival.plugin import describe

    import tcgcore

    m = new_match(4)
    tcgcore.play_out(m, [tcgcore.RandomAgent(1), tcgcore.RandomAgent(2)])
    lines = [describe(m.state, e) for e in m.events_since(0, player="all") if e.kind == "played"]
    assert lines and not [line for line in lines if line.rstrip().endswith(" to")]
    event = tcgcore.Event(seq=0, kind="played", player=0, code="seer_ev_figurine",
                          src="hand.0", dst="spirit.0")
    line = describe(m.state, event)
    assert line.endswith("face up into the Spirit World") and " to " not in line, line


def test_loss_and_game_over_lines_give_the_reason_in_words() -> None:
    """Reason and damage-check codes (``deck_out``, ``corruption_2``) are not shown as codes."""
    from tcgcore_guimi_revival.plugin import describe

    loss = tcgcore.Event(seq=1, kind="loss_condition", player=0, data={"reason": "deck_out"})
    over = tcgcore.Event(seq=2, kind="game_over", data={"reason": "deck_out", "draw": False})
    check = tcgcore.Event(seq=3, kind="damage_check", player=1, data={"outcome": "corruption_2"})
    m = new_match(4)
    assert "no card left to draw or reveal" in describe(m.state, loss)
    assert describe(m.state, over) == "=== Game over: decided (no card left to draw or reveal) ==="
    assert "2 corruption" in describe(m.state, check)
    for seed in (4, 5, 6):
        m = new_match(seed)
        tcgcore.play_out(m, [tcgcore.RandomAgent(1), tcgcore.RandomAgent(2)])
        for e in m.events_since(0):
            if e.kind in ("loss_condition", "game_over", "damage_check"):
                assert "_" not in describe(m.state, e), describe(m.state, e)
