"""Sparks: the tiny example game that shows how to write a tcgcore game plugin.

Two players each bring a deck of numbered cards (values 1 to 6, ``copies`` of
each). Every round both players secretly set one card from hand face down in
their arena; then both are revealed and the higher value wins the clash and
scores a point. First to ``target`` points wins. Some cards have abilities:

* Ember (1): after you lose a clash with it, you may draw a card (optional).
* Shield (2): when a clash with it would be scored, it counts 3 higher (forced, a
  "when" trigger that changes the outcome before it happens).
* Flare (5): after it is revealed, you may draw a card, and you may make your
  opponent discard the top card of their deck (two optional triggers at once:
  the player orders them).
* Blaze (6): after it is revealed, discard the top card of your own deck (forced).

It uses only the public ``tcgcore`` API; ``docs/plugin-guide.md`` walks through it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Union

import msgspec

import tcgcore
from tcgcore import Engine, Event, Key, Option, Step, Trigger

GAME = "sparks"

#: code -> (name, value, ability text)
CARDS: dict[str, tuple[str, int, str]] = {
    "ember": ("Ember", 1, "After you lose a clash with this card, you may draw a card."),
    "shield": ("Shield", 2, "When a clash with this card would be scored, it counts 3 higher."),
    "spark3": ("Spark", 3, ""),
    "spark4": ("Bright Spark", 4, ""),
    "flare": ("Flare", 5, "After this card is revealed, you may draw a card; you may also make "
                          "your opponent discard the top card of their deck."),
    "blaze": ("Blaze", 6, "After this card is revealed, discard the top card of your own deck."),
}


class SparksOptions(msgspec.Struct, kw_only=True, frozen=True, forbid_unknown_fields=True):
    """Options: ``target`` points to win (1..1000), ``copies`` of each card (1..50)."""

    target: int = 4
    copies: int = 2


# ----------------------------------------------------------------- steps (tagged, data only)


class Mulligan(Step, tag="sparks.mulligan"):
    """Ask a seat which cards to put back and redraw (once, at the start)."""

    player: int


class MulliganAnswer(Step, tag="sparks.mulligan_answer"):
    """Resume step: put the chosen cards on the bottom, draw as many, shuffle."""

    player: int


class StartRound(Step, tag="sparks.start_round"):
    """Begin a round: end the game if a hand is empty, else queue the round's steps."""


class SetCard(Step, tag="sparks.set_card"):
    """Ask a seat which hand card to set face down in its arena."""

    player: int


class SetCardAnswer(Step, tag="sparks.set_card_answer"):
    """Resume step: set the chosen card face down."""

    player: int


class Reveal(Step, tag="sparks.reveal"):
    """Turn both arena cards face up, then announce the clash (its 'when' window)."""


class ScoreClash(Step, tag="sparks.score_clash"):
    """Compare the values (with bonuses); the higher one scores a point."""


class Cleanup(Step, tag="sparks.cleanup"):
    """Discard both arena cards; each seat draws one; queue the next round."""


SparksStep = Union[  # noqa: UP007
    tcgcore.CoreStep, Mulligan, MulliganAnswer, StartRound, SetCard, SetCardAnswer, Reveal,
    ScoreClash, Cleanup,
]


class SparksState(tcgcore.GameState[SparksStep], kw_only=True):
    """Sparks' own state: scores, the clash bonus and the options."""

    scores: list[int] = []
    bonus: list[int] = []
    options: SparksOptions = SparksOptions()


Eng = Engine[SparksState]


def _z(kind: str, seat: int) -> str:
    return f"{kind}.{seat}"


def _draw(eng: Eng, seat: int) -> None:
    deck = eng.zone(_z("deck", seat))
    if deck.cards:
        eng.move(deck.cards[0], _z("hand", seat), kind="drawn")


def _mill(eng: Eng, seat: int) -> None:
    deck = eng.zone(_z("deck", seat))
    if deck.cards:
        eng.move(deck.cards[0], _z("discard", seat), kind="milled")


def setup(eng: Eng, options: dict[str, Any]) -> None:
    """Build both decks, shuffle, deal 3, then ask each seat to mulligan."""
    tcgcore.check_options(options, ("target", "copies"), GAME)
    try:
        opts = msgspec.convert(options, SparksOptions)
    except msgspec.ValidationError as exc:
        raise tcgcore.OptionsError(f"{GAME}: {exc}") from None
    if not 1 <= opts.target <= 1000 or not 1 <= opts.copies <= 50:
        raise tcgcore.OptionsError(f"{GAME}: target must be 1..1000 and copies 1..50")
    state = eng.state
    state.options = opts
    state.scores = [0, 0]
    state.bonus = [0, 0]
    for seat in range(2):
        eng.add_zone(_z("deck", seat), "deck", owner=seat, visibility="hidden")
        eng.add_zone(_z("hand", seat), "hand", owner=seat, visibility="owner", ordered=False)
        eng.add_zone(_z("arena", seat), "arena", owner=seat, capacity=1, slotted=True)
        eng.add_zone(_z("discard", seat), "discard", owner=seat)
        for code in CARDS:
            for _ in range(opts.copies):
                eng.add_card(code, seat, _z("deck", seat))
        eng.shuffle(_z("deck", seat))
        for _ in range(3):
            _draw(eng, seat)
    eng.push(Mulligan(player=0), Mulligan(player=1), StartRound())


def _hand_options(eng: Eng, seat: int) -> list[Option]:
    """One option per hand card, key ``card:<id>`` (built by the core's key codec)."""
    options = []
    for cid in eng.zone(_z("hand", seat)).cards:
        name, value, _ = CARDS[eng.state.cards[cid].code]
        options.append(tcgcore.card_option("card", cid, f"{name} ({value})"))
    return options


spec: tcgcore.GameSpec[SparksState] = tcgcore.GameSpec(
    name=GAME,
    version="1.0.0",
    state_type=SparksState,
    setup=setup,
    players=(2, 2),
    description="Tiny example game: secret clashes of numbered cards (the plugin-guide tutorial)",
)


@spec.handles(Mulligan)
def _mulligan(eng: Eng, step: Mulligan) -> None:
    eng.ask(step.player, "mulligan", "Choose any cards to put on the bottom and redraw",
            _hand_options(eng, step.player), min=0, max=3,
            resume=MulliganAnswer(player=step.player))


@spec.resumes(MulliganAnswer)
def _mulligan_answer(eng: Eng, step: MulliganAnswer, answer: list[Key]) -> None:
    seat = step.player
    chosen = [key.card for key in answer]
    for cid in chosen:
        eng.move(cid, _z("deck", seat))
    for _ in chosen:
        _draw(eng, seat)
    if chosen:
        eng.shuffle(_z("deck", seat))


@spec.handles(StartRound)
def _start_round(eng: Eng, step: StartRound) -> None:
    state = eng.state
    hands = [eng.zone(_z("hand", s)).cards for s in range(2)]
    if not hands[0] or not hands[1]:
        a, b = state.scores
        if a == b:
            eng.end(draw=True, reason="exhausted", detail={"score0": a, "score1": b})
        else:
            eng.end(winners=[0 if a > b else 1], losers=[1 if a > b else 0], reason="exhausted",
                    detail={"score0": a, "score1": b})
        return
    state.turn += 1
    state.active_player = (state.turn - 1) % 2
    eng.emit("round_started", player=state.active_player, amount=state.turn)
    first = state.active_player
    eng.push(SetCard(player=first), SetCard(player=1 - first), Reveal(), ScoreClash(), Cleanup())


@spec.handles(SetCard)
def _set_card(eng: Eng, step: SetCard) -> None:
    eng.ask(step.player, "set_card", "Choose a card to set face down in your arena",
            _hand_options(eng, step.player), resume=SetCardAnswer(player=step.player))


@spec.resumes(SetCardAnswer)
def _set_card_answer(eng: Eng, step: SetCardAnswer, answer: list[Key]) -> None:
    eng.move(answer[0].card, _z("arena", step.player), face_down=True, kind="set")


@spec.handles(Reveal)
def _reveal(eng: Eng, step: Reveal) -> None:
    for seat in (eng.state.active_player, 1 - eng.state.active_player):
        eng.flip(eng.zone(_z("arena", seat)).cards[0], face_down=False)
    # "when" window: the clash is announced before it is scored
    eng.emit("clash_scoring")


@spec.handles(ScoreClash)
def _score(eng: Eng, step: ScoreClash) -> None:
    state = eng.state
    values = []
    for seat in range(2):
        cid = eng.zone(_z("arena", seat)).cards[0]
        values.append(CARDS[state.cards[cid].code][1] + state.bonus[seat])
    state.bonus = [0, 0]
    if values[0] == values[1]:
        eng.emit("clash_tied", amount=values[0])
        return
    winner = 0 if values[0] > values[1] else 1
    state.scores[winner] += 1
    eng.emit("clash_won", player=winner, amount=values[winner],
             data={"against": values[1 - winner], "score": state.scores[winner]})
    eng.emit("clash_lost", player=1 - winner, card=eng.zone(_z("arena", 1 - winner)).cards[0])
    if state.scores[winner] >= state.options.target:
        eng.end(winners=[winner], losers=[1 - winner], reason="points",
                detail={"score0": state.scores[0], "score1": state.scores[1]})


@spec.handles(Cleanup)
def _cleanup(eng: Eng, step: Cleanup) -> None:
    for seat in range(2):
        for cid in list(eng.zone(_z("arena", seat)).cards):
            if cid != tcgcore.EMPTY_SLOT:
                eng.move(cid, _z("discard", seat))
        _draw(eng, seat)
    eng.push(StartRound())


# ----------------------------------------------------------------- the cards' abilities
# Each card's triggered abilities are registered under its code in one place (the core's
# CardBook); the book collects them from events and resolves them for the engine.

cards: tcgcore.CardBook[SparksState] = tcgcore.CardBook(GAME)


@cards.scope("clash_scoring")
def _arena_cards(eng: Eng, event: Event) -> list[int]:
    """A clash being scored concerns both arena cards (seat 0's first)."""
    return [eng.zone(_z("arena", seat)).cards[0] for seat in range(2)]


# Ember (1): after you lose a clash with it, you may draw a card.
@cards.triggered("ember", "ember_draw", on="clash_lost", optional=True,
                 label="Ember: draw a card")
def _ember_draw(eng: Eng, trigger: Trigger) -> None:
    _draw(eng, trigger.player)


# Shield (2): when a clash with it would be scored, it counts 3 higher.
@cards.triggered("shield", "shield_bonus", on="clash_scoring", timing="when",
                 label="Shield: +3 to this clash")
def _shield_bonus(eng: Eng, trigger: Trigger) -> None:
    eng.state.bonus[trigger.player] += 3


# Flare (5): after it is revealed, you may draw a card, and you may make your opponent
# discard the top card of their deck (two optional triggers: the player orders them).
@cards.triggered("flare", "flare_draw", on="revealed", optional=True,
                 label="Flare: draw a card")
def _flare_draw(eng: Eng, trigger: Trigger) -> None:
    _draw(eng, trigger.player)


@cards.triggered("flare", "flare_mill", on="revealed", optional=True,
                 label="Flare: opponent discards their top card")
def _flare_mill(eng: Eng, trigger: Trigger) -> None:
    _mill(eng, 1 - trigger.player)


# Blaze (6): after it is revealed, discard the top card of your own deck.
@cards.triggered("blaze", "blaze_mill", on="revealed", label="Blaze: discard your top card")
def _blaze_mill(eng: Eng, trigger: Trigger) -> None:
    _mill(eng, trigger.player)


def resolve(eng: Eng, trigger: Trigger) -> None:
    """Carry out one triggered ability, then announce it (an ``ability`` event)."""
    cards.resolve(eng, trigger)
    eng.emit("ability", player=trigger.player, card=trigger.source,
             data={"ability": trigger.ability})


cards.install(spec, resolve=resolve)


def view_extra(state: SparksState, viewer: int | None) -> dict[str, Any]:
    """Public panel: the round (``state.turn``: Sparks counts rounds), scores and the target."""
    return {"round": state.turn, "scores": list(state.scores), "target": state.options.target}


#: card-move event kinds as verbs in a sentence
_VERBS = {"moved": "moves {c}", "drawn": "draws {c}", "set": "sets {c} face down",
          "milled": "mills {c}"}


def _zone_words(zone: str | None) -> str:
    """``deck.0`` as people say it: ``P0's deck``."""
    if not zone:
        return "-"
    kind, _, seat = zone.partition(".")
    return f"P{seat}'s {kind}" if seat else kind


def describe(state: SparksState, event: Event) -> str:
    """One readable line per event."""
    name = CARDS[event.code][0] if event.code else "a card"
    who = f"P{event.player}" if event.player is not None else ""
    if event.kind in _VERBS:
        return (f"{who} {_VERBS[event.kind].format(c=name)} "
                f"({_zone_words(event.src)} -> {_zone_words(event.dst)})")
    if event.kind == "revealed":
        return f"{who} reveals {name}"
    if event.kind == "clash_won":
        return f"{who} wins the clash with {event.amount} against {event.data.get('against')}"
    if event.kind == "round_started":
        return f"--- round {event.amount} ---"
    if event.kind == "clash_scoring":
        return "the clash is scored"
    if event.kind == "clash_tied":
        return f"the clash is tied at {event.amount}"
    if event.kind == "clash_lost":
        return f"{who} loses the clash"
    if event.kind == "shuffled":
        return f"{who} shuffles their deck"
    if event.kind == "ability":
        text = _ABILITY_TEXT.get(str(event.data.get("ability")), "uses an ability")
        return f"{who} {text}"
    return f"{who} {event.kind.replace('_', ' ')}".strip()


#: what each triggered ability did, as the end of a log sentence ("P0 ...")
_ABILITY_TEXT = {"blaze_mill": "discards their top card (Blaze)",
                 "flare_draw": "draws a card (Flare)",
                 "flare_mill": "makes the opponent discard their top card (Flare)",
                 "shield_bonus": "gets +3 to this clash (Shield)",
                 "ember_draw": "draws a card (Ember)"}


#: Each zone of a Sparks match: kind, owner, visibility, capacity, slotted (see ``setup``).
_ZONES: dict[str, tuple[str, int, str, int | None, bool]] = {
    _z(kind, seat): (kind, seat, vis, cap, slotted) for seat in range(2)
    for kind, vis, cap, slotted in (("deck", "hidden", None, False),
                                    ("hand", "owner", None, False),
                                    ("arena", "public", 1, True),
                                    ("discard", "public", None, False))}

#: The triggered abilities :func:`resolve` carries out.
ABILITIES = cards.names

#: One letter per step type, to check the stack's order as a word.
_LETTERS: dict[type[Any], str] = {
    Mulligan: "M", MulliganAnswer: "m", StartRound: "R", SetCard: "S", SetCardAnswer: "s",
    Reveal: "V", ScoreClash: "C", Cleanup: "X", tcgcore.TriggerWindow: "W",
    tcgcore.TriggerPick: "P", tcgcore.TriggerOptIn: "O", tcgcore.ResolveTrigger: "T",
}

#: The stacks a Sparks match can wait on (bottom first): a mulligan, a card to set, or a
#: trigger choice after the reveal (Flare, Blaze, Shield) or after the clash (Ember).
_WAITING = re.compile(r"RM?m|XCVS?s|XC?W?[PO]")

_STEP_RULES = {"player": tcgcore.rule_seat}


def _arena(state: SparksState, seat: int) -> int:
    return state.zones[_z("arena", seat)].cards[0]


def _pending_problem(state: SparksState, word: str) -> str | None:
    """The pending choice against the step that asked it (the top of the stack)."""
    pending = state.pending
    assert pending is not None
    top = state.stack[-1]
    if isinstance(top, (MulliganAnswer, SetCardAnswer)):
        mulligan = isinstance(top, MulliganAnswer)
        seat = top.player
        if word in ("RMm", "XCVSs"):  # the first of the two seats to answer
            first = 0 if mulligan else state.active_player
        else:
            first = 1 if mulligan else 1 - state.active_player
        if seat != first or any(getattr(s, "player", -1) == seat for s in state.stack[:-1]):
            return f"stack[-1].player: seat {seat} does not answer at this point"
        kind, lo, hi = ("mulligan", 0, 3) if mulligan else ("set_card", 1, 1)
        hand = state.zones[_z("hand", seat)].cards
        if (pending.kind != kind or pending.player != seat or (pending.min, pending.max) != (lo, hi)
                or [(o.key, o.card) for o in pending.options]
                != [(tcgcore.option_key("card", c), c) for c in hand]):
            return f"pending: not the {kind} choice of seat {seat} (one option per hand card)"
        if not mulligan:
            for other in range(2):
                filled = _arena(state, other) != tcgcore.EMPTY_SLOT
                if filled != (other != seat and word == "XCVs"):
                    return f"zones['arena.{other}']: does not fit the set_card choice of {seat}"
        return None
    # a trigger choice (the core checked it against its window): after the reveal or clash
    if any(_arena(state, seat) == tcgcore.EMPTY_SLOT for seat in range(2)):
        return "zones: a trigger waits but an arena is empty"
    return None


def validate(state: SparksState) -> str | None:
    """Game facts a loaded save must respect (``spec.validate_state``), so that it can be
    played on: the zones of two seats, known card codes, one score and one bonus per seat in
    the ranges the rules use, the options' ranges, a stack in an order the rules produce, each
    waiting step's seat, the triggers' sources (the cards in the arenas) and the pending
    choice equal to the one its step asks (the hand's cards as ``card:<id>``).

    Returns:
        ``None``, or the problem naming the field path.
    """
    opts = state.options
    if not 1 <= opts.target <= 1000 or not 1 <= opts.copies <= 50:
        return f"options: target {opts.target} / copies {opts.copies} out of range"
    zones = state.zones
    if len(zones) != 8:
        return f"zones: {len(zones)} zones, Sparks has 8"
    for zone_id, shape in _ZONES.items():
        zone = zones.get(zone_id)
        if zone is None or (zone.kind, zone.owner, zone.visibility, zone.capacity,
                            zone.slotted) != shape:
            return f"zones[{zone_id!r}]: missing or not the zone setup makes"
    for card in state.cards:
        if card.code not in CARDS:
            return f"cards[{card.id}].code: unknown code {card.code!r}"
        if card.controller != card.owner or zones[card.zone].owner != card.owner:
            return f"cards[{card.id}]: a card stays its owner's, in its owner's zones"
    if len(state.scores) != 2 or len(state.bonus) != 2:
        return "scores, bonus: one entry per seat"
    for seat in range(2):
        if not 0 <= state.scores[seat] <= opts.target:
            return f"scores[{seat}]: {state.scores[seat]} is outside 0..{opts.target}"
        if state.bonus[seat] not in (0, 3):
            return f"bonus[{seat}]: {state.bonus[seat]} is not 0 or 3"
    if state.result is not None:
        return None
    if any(score >= opts.target for score in state.scores):
        return "scores: a seat reached the target but the match goes on"
    problem = tcgcore.check_fields(state, state.stack, _STEP_RULES, "stack")
    if problem:
        return problem
    word = "".join(_LETTERS.get(type(step), "?") for step in state.stack)
    if not _WAITING.fullmatch(word):
        return f"stack: steps in an order the rules never wait in ({word})"
    for step in state.stack:
        if isinstance(step, (tcgcore.TriggerWindow, tcgcore.TriggerPick, tcgcore.TriggerOptIn)):
            triggers = step.trigger if isinstance(step, tcgcore.TriggerOptIn) else step.triggers
            for trig in [triggers] if isinstance(triggers, Trigger) else triggers:
                if trig.source is None or trig.source != _arena(state, trig.player):
                    return f"stack: trigger {trig.id!r} is not about the card in its seat's arena"
    return _pending_problem(state, word)


def card_name(code: str) -> str:
    """Display name of a card code."""
    return CARDS[code][0] if code in CARDS else code


def card_text(code: str) -> str | None:
    """Full text of a card: name, value and ability."""
    if code not in CARDS:
        return None
    name, value, text = CARDS[code]
    return f"{name} ({code}) value {value}" + (f": {text}" if text else " (no ability)")


def find_card(name: str) -> str | None:
    """Look a card up by code or by name (case-insensitive; first match)."""
    wanted = name.strip().lower()
    for code, (card, _, _) in CARDS.items():
        if wanted in (code, card.lower()):
            return code
    return None


def render_panel(view: tcgcore.View) -> list[str]:
    """The Sparks panel of a text board: scores against the target."""
    scores = view.panel.get("scores", [0, 0])
    return [f"Scores: P0 {scores[0]} - P1 {scores[1]} (first to {view.panel.get('target')})"]


spec.view_extra = view_extra
spec.describe_event = describe
spec.validate_state = validate
spec.card_name = card_name
spec.card_text = card_text
spec.find_card = find_card
spec.render_panel = render_panel


# ----------------------------------------------------------------- encodings for learning agents

_CODES = tuple(CARDS)
_KINDS = ("mulligan", "set_card", "use_trigger", "order_triggers")


def _rl_names(players: int) -> tuple[str, ...]:
    names = [f"my_hand.{c}" for c in _CODES] + ["my_deck"] + [f"my_discard.{c}" for c in _CODES]
    names += ["their_hand", "their_deck"] + [f"their_discard.{c}" for c in _CODES]
    names += [f"my_arena.{c}" for c in _CODES] + ["their_arena.face_down"]
    names += [f"their_arena.{c}" for c in _CODES]
    names += ["my_score", "their_score", "target", "round", "i_set_first"]
    return (*names, *(f"choice.{k}" for k in _KINDS), "bias")


def encode_view(view: tcgcore.View) -> list[float]:
    """Sparks as numbers, from one seat's view (layout: :func:`_rl_names`)."""
    me = view.viewer if view.viewer is not None else 0
    out: list[float] = []
    zones = {z.id: z for z in view.zones}

    def codes(zone_id: str) -> list[float]:
        counts = dict.fromkeys(_CODES, 0.0)
        for card in zones[zone_id].cards:
            if card is not None and card.code in counts:
                counts[card.code] += 1
        return list(counts.values())

    out += [*codes(_z("hand", me)), float(zones[_z("deck", me)].count), *codes(_z("discard", me))]
    out += [float(zones[_z("hand", 1 - me)].count), float(zones[_z("deck", 1 - me)].count)]
    out += codes(_z("discard", 1 - me)) + codes(_z("arena", me))
    their_arena = [c for c in zones[_z("arena", 1 - me)].cards if c is not None]
    out += [float(any(c.code is None for c in their_arena)), *codes(_z("arena", 1 - me))]
    scores = view.panel.get("scores", [0, 0])
    out += [float(scores[me]), float(scores[1 - me]), float(view.panel.get("target", 0)),
            float(view.panel.get("round", 0)), float(view.active_player == me)]
    kind = view.pending.kind if view.pending is not None else ""
    return [*out, *(float(kind == k) for k in _KINDS), 1.0]


def observation_layout(players: int) -> tcgcore.ObservationLayout:
    """Sparks' feature layout for learning agents (counts and one-hots, from the view)."""
    return tcgcore.ObservationLayout(names=_rl_names(players), encode=encode_view,
                                     low=0.0, high=1000.0)


def action_id(view: tcgcore.View, option: Option) -> int | None:
    """Sparks' action ids: the card's code for a card choice (copies are interchangeable),
    yes/no for an optional trigger, the position for ordering triggers."""
    choice = view.pending
    if choice is None:
        return None
    if choice.kind in ("set_card", "mulligan"):
        for zone in view.zones:
            for card in zone.cards:
                if card is not None and card.id == option.card and card.code in CARDS:
                    return _CODES.index(card.code)
        return None
    if choice.kind == "use_trigger":
        return 6 if option.key == "yes" else 7
    if choice.kind == "order_triggers":
        index = choice.options.index(option)
        return 8 + index if index < 3 else None
    return None


def action_layout(players: int) -> tcgcore.ActionLayout:
    """Sparks' action space for learning agents."""
    names = (*(f"card.{c}" for c in _CODES), "trigger.yes", "trigger.no",
             *(f"order.{k}" for k in range(3)))
    return tcgcore.ActionLayout(names=names, action_id=action_id)


spec.observation_layout = observation_layout
spec.action_layout = action_layout


@tcgcore.hookimpl
def tcgcore_games() -> list[tcgcore.GameSpec[Any]]:
    """Register Sparks."""
    return [spec]


# ----------------------------------------------------------------- the balance lab's card figures


def card_usage(state: SparksState, events: Sequence[Event]) -> list[tcgcore.SeatCards]:
    """Per seat, the codes of its deck, drawn, in its hand when the first round starts
    (after the mulligan) and set into its arena (played), for ``tcgcore balance``."""
    return tcgcore.read_card_usage(state, events, first_turn="round_started",
                                   played=lambda e: e.kind == "set")


spec.card_usage = card_usage
