"""The step-queue engine: moves, zones, choices, timing windows and trigger policies."""

from __future__ import annotations

from typing import Any

import pytest

import tcgcore
from tcgcore import ALL_PLAYERS, EngineError, Option, Step, Trigger
from tcgcore.examples import sparks

from .helpers import give_hand, set_cards, skip_mulligans


def _new(registry: tcgcore.Registry, seed: int = 1) -> tcgcore.Match[Any]:
    return tcgcore.new_match("sparks", seed=seed, registry=registry)


def _round_with(registry: tcgcore.Registry, p0: str, p1: str, seed: int = 1) -> tcgcore.Match[Any]:
    m = _new(registry, seed)
    a = give_hand(m, 0, [p0, "spark3", "spark4"])[0]
    b = give_hand(m, 1, [p1, "spark3", "spark4"])[0]
    skip_mulligans(m)
    set_cards(m, a, b)
    return m


def test_move_emits_one_redacted_event(registry: tcgcore.Registry) -> None:
    m = _new(registry)
    eng = m.engine
    card = eng.zone("deck.0").cards[0]
    ev = eng.move(card, "hand.0")
    assert (ev.kind, ev.src, ev.dst, ev.card) == ("moved", "deck.0", "hand.0", card)
    assert ev.seen_by == 0b01  # deck hidden to all, hand seen by its owner
    assert m.state.cards[card].zone == "hand.0"
    public = eng.move(card, "discard.0")
    assert public.seen_by == ALL_PLAYERS
    # the owner sees the identity, the opponent and spectators do not
    e0 = m.events_since(ev.seq, player=0)[0]
    e1 = m.events_since(ev.seq, player=1)[0]
    spectator = m.events_since(ev.seq, player=None)[0]
    assert e0.code is not None and e1.code is None and e1.card is None and spectator.card is None
    assert e1.src == "deck.0" and e1.dst == "hand.0"  # where it went is public


def test_move_index_slot_capacity_and_failures_are_atomic(registry: tcgcore.Registry) -> None:
    m = _new(registry)
    eng = m.engine
    deck = eng.zone("deck.0")
    top, second = deck.cards[0], deck.cards[1]
    eng.move(second, "deck.0", index=0)
    assert deck.cards[:2] == [second, top]
    eng.move(top, "arena.0")  # first empty slot
    assert eng.zone("arena.0").cards == [top]
    before = list(deck.cards)
    with pytest.raises(EngineError, match="no empty slot"):
        eng.move(second, "arena.0")
    assert deck.cards == before and m.state.cards[second].zone == "deck.0"
    with pytest.raises(EngineError, match="no slot 3"):
        eng.move(second, "arena.1", slot=3)
    bottom = len(deck.cards)
    eng.move(deck.cards[0], "deck.0", index=bottom - 1)  # to the last position, from the top
    last = deck.cards[-1]
    eng.move(top, "hand.0")
    eng.move(top, "deck.0", index=len(deck.cards))  # the position after the last: the bottom
    assert deck.cards[-2:] == [last, top]
    with pytest.raises(EngineError, match=r"has no position 99"):
        eng.move(top, "deck.0", index=99)
    with pytest.raises(EngineError, match="no slot 1"):  # one slot: slot 0 only
        eng.move(second, "arena.1", slot=1)
    with pytest.raises(EngineError, match="no slot -1"):  # not the last slot counted from the end
        eng.move(second, "arena.1", slot=-1)
    assert eng.zone("arena.1").cards == [tcgcore.EMPTY_SLOT]
    with pytest.raises(EngineError, match="no zone"):
        eng.move(second, "graveyard")
    with pytest.raises(EngineError, match="no card instance"):
        eng.move(10_000, "hand.0")


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"face_down": 1}, "face_down must be True, False or None, not 1"),
    ({"face_down": "x"}, "face_down must be"),
    ({"reveal": 1}, "reveal must be True or False, not 1"),
    ({"reveal": None}, "reveal must be"),
    ({"reset": "yes"}, "reset must be True, False or None"),
    ({"controller": 7}, r"controller must be a seat \(0\.\.1\) or None, not 7"),
    ({"controller": 2}, r"controller must be a seat \(0\.\.1\) or None, not 2"),
    ({"controller": -1}, "controller must be a seat"),
    ({"controller": True}, "controller must be a seat"),
    ({"controller": "0"}, "controller must be a seat"),
])
def test_move_refuses_a_bad_facing_controller_or_flag(registry: tcgcore.Registry,
                                                       kwargs: dict[str, Any],
                                                       message: str) -> None:
    """A plugin passing a wrong-typed facing or a seat that does not exist gets EngineError
    and the match is unchanged (such a card never reaches the state and its save, which then
    would not load)."""
    m = _new(registry)
    eng = m.engine
    card = eng.zone("deck.0").cards[0]
    before = m.state_bytes()
    with pytest.raises(EngineError, match=message):
        eng.move(card, "hand.0", **kwargs)
    assert m.state_bytes() == before
    eng.move(card, "hand.0", face_down=True, controller=1, reveal=True, reset=False)
    assert m.state.cards[card].controller == 1 and m.state.cards[card].face_down


@pytest.mark.parametrize("face_down", [1, None, "no"])
def test_flip_refuses_a_facing_that_is_not_a_bool(registry: tcgcore.Registry,
                                                 face_down: Any) -> None:
    m = _new(registry)
    card = m.engine.zone("deck.0").cards[0]
    before = m.state_bytes()
    with pytest.raises(EngineError, match="face_down must be True or False"):
        m.engine.flip(card, face_down=face_down)
    assert m.state_bytes() == before


def test_a_new_zone_is_public_ordered_and_open_by_default(registry: tcgcore.Registry) -> None:
    """Engine.add_zone defaults: public, ordered, no owner, no capacity, not slotted."""
    zone = _new(registry).engine.add_zone("pile", "pile")
    assert (zone.visibility, zone.ordered, zone.owner, zone.capacity, zone.slotted) == (
        "public", True, None, None, False)


def test_zone_and_card_creation_errors(registry: tcgcore.Registry) -> None:
    eng = _new(registry).engine
    with pytest.raises(EngineError, match="already exists"):
        eng.add_zone("hand.0", "hand")
    with pytest.raises(EngineError, match="capacity"):
        eng.add_zone("x", "x", slotted=True)
    capped = eng.add_zone("capped", "pile", capacity=1)
    eng.add_card("spark3", 0, "capped")
    with pytest.raises(EngineError, match="full"):
        eng.add_card("spark3", 0, "capped")
    assert len(capped.cards) == 1


def test_ask_validates_the_choice_it_builds(registry: tcgcore.Registry) -> None:
    eng = _new(registry).engine
    with pytest.raises(EngineError, match="pending"):
        eng.ask(0, "x", "?", [Option(key="a", label="A")], resume=sparks.StartRound())
    eng.state.pending = None
    with pytest.raises(EngineError, match="repeated"):
        eng.ask(0, "x", "?", [Option(key="a", label="A"), Option(key="a", label="B")],
                resume=sparks.StartRound())
    with pytest.raises(EngineError, match=r"asks 2\.\.2 of 1"):
        eng.ask(0, "x", "?", [Option(key="a", label="A")], min=2, max=2,
                resume=sparks.StartRound())
    with pytest.raises(EngineError, match=r"asks -1\.\.1 of 1"):  # min below 0 alone
        eng.ask(0, "x", "?", [Option(key="a", label="A")], min=-1, max=1,
                resume=sparks.StartRound())
    with pytest.raises(EngineError, match=r"asks 1\.\.0 of 1"):  # max below min alone
        eng.ask(0, "x", "?", [Option(key="a", label="A")], min=1, max=0,
                resume=sparks.StartRound())
    # at the boundaries: all of the options, or none of none, are legal questions
    eng.ask(0, "x", "?", [Option(key="a", label="A"), Option(key="b", label="B")], min=2,
            max=2, resume=sparks.StartRound())
    pending = eng.state.pending
    assert pending is not None and (pending.min, pending.max) == (2, 2)
    eng.state.pending = None
    eng.ask(0, "y", "?", [], min=0, max=0, resume=sparks.StartRound())
    assert eng.state.pending is not None and eng.state.pending.options == []
    with pytest.raises(EngineError, match="answer"):
        _ = eng.answer


def test_missing_handler_and_empty_stack_are_engine_errors(registry: tcgcore.Registry) -> None:
    class Orphan(Step, tag="test.orphan"):
        pass

    eng = _new(registry).engine
    eng.state.pending = None
    eng.state.stack = [Orphan()]
    with pytest.raises(EngineError, match="no handler for step Orphan"):
        eng.run()
    eng.state.stack = []
    with pytest.raises(EngineError, match="no pending work"):
        eng.run()


def test_forced_after_trigger_resolves_without_a_choice(registry: tcgcore.Registry) -> None:
    # Blaze: forced "after revealed" trigger mills its owner's top card
    m = _round_with(registry, "blaze", "spark3")
    kinds = [e.kind for e in m.events_since(0, player="all")]
    assert "milled" in kinds
    ability = [e for e in m.events_since(0, player="all") if e.kind == "ability"]
    assert ability and ability[0].data["ability"] == "blaze_mill"


def test_simultaneous_optional_triggers_are_ordered_then_opted_in(
    registry: tcgcore.Registry,
) -> None:
    # Flare has two optional abilities on one event: its controller orders them
    m = _round_with(registry, "flare", "spark3")
    choice = m.pending
    assert choice is not None and choice.kind == "order_triggers" and choice.player == 0
    assert len(choice.options) == 2
    mill_key = next(o.key for o in choice.options if "opponent" in o.label)
    m.choose(0, mill_key)
    optin = m.pending
    assert optin is not None and optin.kind == "use_trigger" and optin.keys == ["yes", "no"]
    opp_deck = len(m.state.zones["deck.1"].cards)
    m.choose(0, "yes")
    assert len(m.state.zones["deck.1"].cards) == opp_deck - 1
    # the remaining trigger is offered next; declining records an event
    again = m.pending
    assert again is not None and again.kind == "use_trigger"
    m.choose(0, "no")
    assert any(e.kind == "trigger_declined" for e in m.events_since(0, player="all"))


def test_when_trigger_changes_the_outcome_before_it_happens(registry: tcgcore.Registry) -> None:
    # Shield (2) gets +3 "when" the clash would be scored: 5 beats Bright Spark (4)
    m = _round_with(registry, "shield", "spark4")
    won = [e for e in m.events_since(0, player="all") if e.kind == "clash_won"]
    assert won and won[0].player == 0 and won[0].amount == 5


def test_active_player_first_policy_orders_seats(registry: tcgcore.Registry) -> None:
    eng = _new(registry).engine
    eng.state.active_player = 1
    trigs = [Trigger(id="a", player=0, ability="x"), Trigger(id="b", player=1, ability="y")]
    seat, pool = tcgcore.active_player_first(eng, trigs)
    assert seat == 1 and [t.id for t in pool] == ["b"]


def test_active_player_first_falls_back_to_the_first_trigger_of_no_seat(
        registry: tcgcore.Registry) -> None:
    """A trigger of no seat of the match (a plugin's mistake) is not lost: the first one's
    player decides."""
    eng = _new(registry).engine
    trigs = [Trigger(id="a", player=5, ability="x"), Trigger(id="b", player=6, ability="y")]
    seat, pool = tcgcore.active_player_first(eng, trigs)
    assert seat == 5 and [t.id for t in pool] == ["a", "b"]


def test_active_player_first_goes_round_the_table_from_the_active_player(
        registry: tcgcore.Registry) -> None:
    """active_player_first with three seats: after the active seat 1 comes seat 2, then 0."""
    eng = _new(registry).engine
    eng.state.num_players = 3  # the policy reads only the seat count and the active player
    eng.state.active_player = 1
    trigs = [Trigger(id="a", player=0, ability="x"), Trigger(id="c", player=2, ability="z")]
    seat, pool = tcgcore.active_player_first(eng, trigs)
    assert seat == 2 and [t.id for t in pool] == ["c"]
    eng.state.active_player = 2
    seat, pool = tcgcore.active_player_first(eng, trigs)
    assert seat == 2
    eng.state.active_player = 0
    seat, pool = tcgcore.active_player_first(eng, trigs[1:])
    assert seat == 2 and [t.id for t in pool] == ["c"]


def test_each_choice_gets_the_next_sequence_number(registry: tcgcore.Registry) -> None:
    """Choice.seq counts the choices asked so far: 0, 1, 2, ... (state.choice_count)."""
    m = _new(registry)
    seqs = []
    for _ in range(3):
        assert m.pending is not None
        seqs.append(m.pending.seq)
        m.choose(m.pending.player, [] if m.pending.min == 0 else m.pending.keys[0])
    assert seqs == [0, 1, 2] and m.state.choice_count == 4  # the third answer asked a fourth


def test_priority_and_decided_by_policies(registry: tcgcore.Registry) -> None:
    eng = _new(registry).engine
    trigs = [Trigger(id="slow", player=0, ability="x", priority=100),
             Trigger(id="fast", player=1, ability="y", priority=400)]
    seat, pool = tcgcore.highest_priority_first(eng, trigs)
    assert seat == 1 and [t.id for t in pool] == ["fast"]
    lead = tcgcore.decided_by(lambda e: 1)
    seat, pool = lead(eng, trigs)
    assert seat == 1 and len(pool) == 2


def test_each_trigger_resolves_once_per_occurrence(registry: tcgcore.Registry) -> None:
    m = _round_with(registry, "blaze", "blaze")
    abilities = [e for e in m.events_since(0, player="all") if e.kind == "ability"]
    assert sorted(e.player for e in abilities if e.player is not None) == [0, 1]
    # the active player of that round (seat 0 in round 1) resolved first
    first_round = next(e for e in m.events_since(0, player="all") if e.kind == "round_started")
    assert first_round.amount == 1
    assert abilities[0].player == first_round.player == 0


def test_spec_rejects_duplicate_handlers() -> None:
    with pytest.raises(EngineError, match="already has a handler"):
        sparks.spec.handles(sparks.StartRound)(lambda eng, step: None)


def test_spec_takes_its_presentation_attributes_at_construction() -> None:
    """A plugin builds its GameSpec in one call: the presentation attributes are arguments."""
    def tags(view: tcgcore.View, card: tcgcore.CardView) -> list[str] | None:
        return None

    spec = tcgcore.GameSpec(
        name="toy_game", version="1.0", state_type=sparks.SparksState, setup=sparks.spec.setup,
        title="Toy Game", zone_words={"hand": "your hand"}, slot_names={"row": ["L", "R"]},
        card_tags=tags, point_choices=["assign"], view_fact=lambda state, seat, name: 0)
    assert (spec.title, spec.zone_words, spec.slot_names) == (
        "Toy Game", {"hand": "your hand"}, {"row": ("L", "R")})
    assert spec.card_tags is tags and spec.point_choices == frozenset({"assign"})
    assert spec.view_fact is not None and spec.optional_window is None
    plain = tcgcore.GameSpec(name="toy_game", version="1.0", state_type=sparks.SparksState,
                             setup=sparks.spec.setup)
    assert (plain.title, plain.zone_words, plain.point_choices) == ("Toy game", {}, frozenset())


def test_move_hands_a_card_to_any_seat_including_the_first(registry: tcgcore.Registry) -> None:
    """Engine.move(controller=...): seats 0 and n-1 are seats."""
    m = _new(registry)
    eng = m.engine
    card = eng.zone("hand.1").cards[0]
    assert eng.move(card, "discard.1", controller=0).player == 0
    assert m.state.cards[card].controller == 0
    assert eng.move(card, "discard.0", controller=1).player == 1


def test_move_reset_policy(registry: tcgcore.Registry) -> None:
    m = _new(registry)
    eng = m.engine
    card = eng.zone("hand.0").cards[0]
    eng.update_card(card, exhausted=True, counters={"damage": 2})
    eng.move(card, "hand.0", index=0)  # same kind: state kept by default
    inst = m.state.cards[card]  # a move replaces the (immutable) instance
    assert inst.exhausted and inst.counters == {"damage": 2}
    eng.move(card, "discard.0", reset=False)  # another kind, but told to keep it
    assert m.state.cards[card].counters == {"damage": 2}
    eng.move(card, "discard.1", reset=True)  # same kind, told to clear
    inst = m.state.cards[card]
    assert not inst.exhausted and inst.counters == {}
    eng.update_card(card, counters={"doom": 1})
    eng.move(card, "deck.0")  # another kind: cleared by default
    assert m.state.cards[card].counters == {}


def test_order_triggers_hides_cards_the_decider_cannot_see(registry: tcgcore.Registry) -> None:
    """A trigger of a card in another player's hand is ordered without naming the card."""
    m = _new(registry)
    skip_mulligans(m)
    eng = m.engine
    state = m.state
    state.pending = None
    hidden = eng.zone("hand.1").cards[0]
    mine = eng.zone("hand.0").cards[0]
    secret = Trigger(id="t1.0", player=1, ability="x", source=hidden, label="P1: play Flare")
    own = Trigger(id="t1.1", player=0, ability="y", source=mine, label="P0: play Spark")
    eng.push(tcgcore.TriggerWindow(triggers=[secret, own]))
    eng.state.active_player = 0
    eng.spec.trigger_policy, saved = tcgcore.decided_by(lambda e: 0), eng.spec.trigger_policy
    try:
        eng.run()
    finally:
        eng.spec.trigger_policy = saved
    choice = m.pending
    assert choice is not None and choice.kind == "order_triggers" and choice.player == 0
    labels = {o.key: (o.label, o.card) for o in choice.options}
    assert labels["t1.0"] == ("P1: an ability of a card you cannot see", None)
    assert labels["t1.1"] == ("P0: play Spark", mine)


def test_a_state_field_without_a_default_is_refused_when_the_game_is_defined() -> None:
    """The engine creates a state with the seats, the seed and the generator only: a field a
    game adds without a default is refused with a typed error, not a bare TypeError at new_match."""

    class NoDefault(tcgcore.GameState[tcgcore.CoreStep]):
        scores: list[int]

    with pytest.raises(EngineError, match=r"NoDefault has none for scores \(for example"):
        tcgcore.GameSpec(name="nodefault", version="1.0.0", state_type=NoDefault,
                         setup=lambda eng, opts: None)
    with pytest.raises(EngineError, match=r"subclass of tcgcore\.GameState"):
        tcgcore.GameSpec(name="notastate", version="1.0.0", state_type=dict,  # type: ignore[type-var]
                         setup=lambda eng, opts: None)


def test_seen_by_names_exactly_the_seats_that_saw_the_card(registry: tcgcore.Registry) -> None:
    """Event redaction (architecture.md, "The data model"): a move or a flip is seen by the
    seats that could see the card before or after it; a spectator sees only public cards, so a
    card every seat saw in its own hand is seen by the seats (0b11) and not by spectators, and a
    seat that saw neither side gets the event without the card."""
    m = _new(registry)
    eng = m.engine
    card = eng.zone("hand.0").cards[0]
    # owner-only hand of seat 0 -> owner-only hand of seat 1: both seats, not spectators
    moved = eng.move(card, "hand.1", controller=1)
    assert moved.seen_by == 0b11 and not moved.visible_to(None)
    # hidden deck -> hand.1: seat 1 only
    top = eng.zone("deck.1").cards[0]
    assert eng.move(top, "hand.1").seen_by == 0b10
    assert m.events_since(m.state.event_count - 1, player=0)[0].card is None
    assert m.events_since(m.state.event_count - 1, player="all")[0].card == top
    assert m.events_since(m.state.event_count - 1, player=1)[0].card is not None
    # a face-down card controlled by seat 1 in seat 0's hand, turned face up: seat 1 saw it
    # face down, seat 0 sees it in its hand: both seats
    mine = eng.zone("hand.0").cards[0]
    eng.update_card(mine, face_down=True, controller=1)
    assert eng.seen_mask(m.state.cards[mine]) == 0b10
    assert eng.flip(mine, face_down=False).seen_by == 0b11
    # seat 0's own card turned face down in its hand: seat 0 before and after, only seat 0
    eng.update_card(mine, controller=0)
    assert eng.flip(mine, face_down=True).seen_by == 0b01
    assert eng.seen_mask(m.state.cards[mine]) == 0b01
    spectator = m.events_since(m.state.event_count - 1, player=None)[0]
    assert spectator.card is None
    # and seat 1's own card turned face down in its hand: only seat 1
    theirs = eng.zone("hand.1").cards[-1]
    assert eng.flip(theirs, face_down=True).seen_by == 0b10


def test_move_into_an_open_zone_with_a_capacity_stops_at_the_capacity(
        registry: tcgcore.Registry) -> None:
    """A zone with a capacity that is not slotted takes cards up to it; one more is refused
    and the card stays where it was (the move's fast path is only for zones without one)."""
    m = _new(registry)
    eng = m.engine
    eng.add_zone("pile", "pile", capacity=2)
    first, second, third = eng.zone("deck.0").cards[:3]
    eng.move(first, "pile")
    eng.move(second, "pile")
    assert eng.zone("pile").cards == [first, second]
    with pytest.raises(EngineError, match=r"zone 'pile' is full \(2\)"):
        eng.move(third, "pile")
    assert eng.zone("pile").cards == [first, second]
    assert m.state.cards[third].zone == "deck.0" and third in eng.zone("deck.0").cards


def test_can_see_follows_zone_visibility_and_facing(registry: tcgcore.Registry) -> None:
    """Engine.can_see: nobody sees into a hidden zone (not even the owner); a face-down card
    only its controller; a public face-up card everybody (spectators too); an owner-only zone
    its owner."""
    m = _new(registry)
    eng = m.engine
    state = m.state
    deck_card = state.cards[eng.zone("deck.0").cards[0]]
    assert [eng.can_see(p, deck_card) for p in (0, 1, None)] == [False, False, False]
    hand_card = state.cards[eng.zone("hand.0").cards[0]]
    assert [eng.can_see(p, hand_card) for p in (0, 1, None)] == [True, False, False]
    eng.move(hand_card.id, "discard.0")
    public = state.cards[hand_card.id]
    assert [eng.can_see(p, public) for p in (0, 1, None)] == [True, True, True]
    down = eng.update_card(hand_card.id, face_down=True, controller=1)
    assert [eng.can_see(p, down) for p in (0, 1, None)] == [False, True, False]
