"""Text front end: human seats in a terminal, hot-seat play, undo, and a replay stepper.

Everything a person sees is drawn from :meth:`tcgcore.Match.view` (the seat's own view) and
:meth:`tcgcore.Match.events_since` redacted for that seat, so the terminal cannot show more
than the engine lets that seat know. Games add their own lines through the ``GameSpec`` hooks
``render_panel`` (board panel), ``describe_event`` (log lines), ``card_name``, ``find_card``
and ``card_text`` (the ``card NAME`` command); without them the generic renderer still works.

:class:`TerminalUI` and :class:`ReplayStepper` read commands from an input stream and write
to an output stream, so tests drive them in-process with :class:`io.StringIO` as well as
through the ``tcgcore`` command.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any, Literal, Protocol, TextIO

from ._agents import Agent
from ._errors import GameMismatchError, IllegalChoice, ReplayDivergence, TcgcoreError
from ._identity import seat_event
from ._match import Match, ReplayRecord, _create, replay
from ._model import Choice, Event, GameState, Result
from ._plugins import Registry
from ._spec import GameSpec
from ._views import CardView, View, ZoneView, build_view

__all__ = [
    "LineSource",
    "ReplayStepper",
    "TerminalUI",
    "check_replay",
    "describe_event",
    "log_header",
    "omniscient_view",
    "parse_answer",
    "parse_points",
    "render_board",
    "render_choice",
    "render_result",
    "zone_words",
]

#: Clears the screen and the scroll-back of an ANSI terminal (used between hot-seat turns).
CLEAR_SCREEN = "\x1b[2J\x1b[3J\x1b[H"

#: Longest list of cards shown for one zone before the rest is summarised.
MAX_CARDS_SHOWN = 24

Perspective = int | Literal["all"] | None

#: auto-pass settings for optional windows (see :class:`TerminalUI`)
AutoPass = Literal["smart", "always", "never"]
AUTO_PASS_MODES: tuple[AutoPass, ...] = ("smart", "always", "never")


class LineSource(Protocol):
    """Where typed lines come from: anything with ``readline()`` (a text stream); ``""`` = end."""

    def readline(self) -> str:
        """The next line with its newline, or ``""`` at the end of the input."""
        ...


# --------------------------------------------------------------------------- rendering


def describe_event(spec: GameSpec[Any], state: GameState[Any], event: Event, *,
                   viewer: Perspective = None) -> str:
    """One readable line for ``event``: the game's ``describe_event`` hook, else a generic line.

    Pass events already redacted for the reader (``match.events_since(n, player=seat)``);
    a hook that fails on an event falls back to the generic line. Zones in the generic line
    are words (:func:`zone_words`): "your hand" for ``viewer``'s own zones, "P1's deck" for
    another seat's.
    """
    if spec.describe_event is not None:
        try:
            return spec.describe_event(state, event)
        except (KeyError, IndexError, TypeError, ValueError, AttributeError):
            pass
    if event.src or event.dst:
        return _move_line(spec, state, event, viewer)
    parts = [event.kind.replace("_", " ")]
    if event.player is not None:
        parts.append(f"P{event.player}")
    if event.code is not None:
        parts.append(_card_name(spec, event.code))
    if event.amount is not None:
        parts.append(str(event.amount))
    if event.data:
        parts.append(json.dumps(event.data, sort_keys=True))
    return " ".join(parts)


#: present-tense verbs for the usual card-move event kinds (``"drawn"`` -> ``"draws"``)
MOVE_VERBS = {"moved": "moves", "drawn": "draws", "played": "plays", "discarded": "discards",
              "committed": "commits", "set": "sets", "milled": "mills", "returned": "returns",
              "revealed": "reveals", "destroyed": "destroys", "searched": "finds",
              "shuffled": "shuffles", "removed": "removes", "attached": "attaches",
              "exiled": "exiles", "sacrificed": "sacrifices", "mulligan": "puts back"}


def zone_words(spec: GameSpec[Any], zone_id: str, *, kind: str | None = None,
               owner: int | None = None, viewer: Perspective = None,
               names: Mapping[str, str] | None = None) -> str:
    """A zone as people name it: ``"your hand"``, ``"P1's deck"``, ``"encounter discard"``.

    The kind (``kind``, else the part of ``zone_id`` before the first dot) reads as the
    game's words for it (``spec.zone_words``), else as itself with spaces for underscores;
    a zone of a seat (``owner``, else a seat number after the dot) is ``viewer``'s own
    ("your") or that seat's ("P1's"). ``names`` (zone id -> words, such as a view's
    ``zone_names`` panel fact: the location an enemy zone belongs to) wins over both.
    """
    if names and zone_id in names:
        return str(names[zone_id])
    prefix, _, suffix = zone_id.partition(".")
    kind = kind or prefix
    words = spec.zone_words.get(prefix) or spec.zone_words.get(kind) or kind.replace("_", " ")
    if owner is None and suffix.isdigit() and kind == prefix:
        owner = int(suffix)
    if owner is None:
        return words
    return f"your {words}" if viewer == owner else f"P{owner}'s {words}"


def _event_zone(spec: GameSpec[Any], state: GameState[Any], zone_id: str,
                viewer: Perspective) -> str:
    zone = state.zones.get(zone_id)
    if zone is None:
        return zone_words(spec, zone_id, viewer=viewer)
    return zone_words(spec, zone_id, kind=zone.kind, owner=zone.owner, viewer=viewer)


def _move_line(spec: GameSpec[Any], state: GameState[Any], event: Event,
               viewer: Perspective) -> str:
    """A card move as a sentence by its kind: ``P0 draws Bright Spark (P0's deck -> P0's
    hand)``; a kind without a known verb reads ``P0: Bright Spark (kind) (P0's unit zone
    -> void)``."""
    who = f"P{event.player}" if event.player is not None else ""
    card = _card_name(spec, event.code) if event.code is not None else (
        "a card" if event.card is not None or event.kind != "shuffled" else "")
    src = _event_zone(spec, state, event.src, viewer) if event.src else "-"
    dst = _event_zone(spec, state, event.dst, viewer) if event.dst else "-"
    where = f"({src} -> {dst})" if event.dst else f"({src})"
    verb = MOVE_VERBS.get(event.kind)
    if verb is not None:
        text = " ".join(b for b in (who, verb, card, where) if b)
    else:
        kind = event.kind.replace("_", " ")
        text = " ".join(b for b in (f"{who}:" if who else "", card, f"({kind})", where) if b)
    if event.amount is not None:
        text += f" x{event.amount}"
    return text


def _card_name(spec: GameSpec[Any], code: str) -> str:
    if spec.card_name is not None:
        try:
            return spec.card_name(code)
        except (KeyError, IndexError, TypeError, ValueError):
            return code
    return code


def _seat(seat: int | None) -> str:
    return "spectator" if seat is None else f"P{seat}"


def _card_text(spec: GameSpec[Any], card: CardView | None, view: View | None = None) -> str:
    if card is None:
        return "(empty slot)"
    if card.code is None:
        text = "[face-down card]"
    else:
        text = _card_name(spec, card.code)
        if card.id is not None:
            text += f" #{card.id}"
        if card.face_down:
            text += " (face down)"
    tags = (spec.card_tags(view, card) if spec.card_tags is not None and view is not None
            else None)
    extras: list[str] = []
    if tags is not None:
        extras.extend(tags)
    elif card.exhausted:
        extras.append("exhausted")
    if tags is None and card.counters:
        extras.append(", ".join(f"{k.replace('_', ' ')} {v}"
                                for k, v in sorted(card.counters.items())))
    if card.attached_to is not None:
        extras.append(f"on #{card.attached_to}")
    if extras:
        text += " [" + "; ".join(extras) + "]"
    return text


def _zone_name(spec: GameSpec[Any], view: View, zone: ZoneView, viewer: Perspective) -> str:
    names = view.panel.get("zone_names")
    return zone_words(spec, zone.id, kind=zone.kind, owner=zone.owner,
                      viewer=viewer if isinstance(viewer, int) else None,
                      names=names if isinstance(names, dict) else None)


def _zone_line(spec: GameSpec[Any], view: View, zone: ZoneView,
               viewer: Perspective) -> str | None:
    """One line for a zone, or ``None`` for an empty one (summarised by the caller)."""
    name = _zone_name(spec, view, zone, viewer)
    if zone.count == 0:
        return None
    if not zone.cards:
        if zone.visibility == "owner" and zone.owner is not None:
            return f"  {name}: {zone.count} card{'s' if zone.count != 1 else ''} (hidden)"
        return f"  {name}: {zone.count} card{'s' if zone.count != 1 else ''} (face down)"
    cards = zone.cards
    slotted = any(c is None for c in cards)
    if slotted or zone.kind in spec.slot_names:
        slots = spec.slot_names.get(zone.kind, ())
        shown = [f"{slots[i] if i < len(slots) else i + 1}: {_card_text(spec, c, view)}"
                 for i, c in enumerate(cards) if c is not None]
    else:
        shown = [_card_text(spec, c, view) for c in cards]
    more = ""
    if len(shown) > MAX_CARDS_SHOWN:
        more = f", … {len(shown) - MAX_CARDS_SHOWN} more"
        shown = shown[:MAX_CARDS_SHOWN]
    mine = zone.visibility == "owner" and viewer is not None and viewer == zone.owner
    tag = " (hidden from others)" if mine else ""
    if zone.visibility == "hidden" and viewer == "all":
        tag = " (hidden zone, top first)"
    return f"  {name}{tag}: " + " | ".join(shown) + more


def _panel_lines(spec: GameSpec[Any], view: View) -> list[str]:
    if spec.render_panel is not None:
        return list(spec.render_panel(view))
    lines: list[str] = []
    for key, value in view.panel.items():
        text = json.dumps(value, ensure_ascii=False, separators=(", ", ": "), default=str)
        if len(text) > 160:
            text = text[:157] + "..."
        lines.append(f"{key}: {text}")
    return lines


def _clock(view: View) -> str:
    """``round N`` from the game's panel when it names a round (an int ``round`` fact),
    else ``turn N`` (``view.turn``, the engine's turn counter)."""
    rnd = view.panel.get("round")
    if isinstance(rnd, int) and not isinstance(rnd, bool):
        return f"round {rnd}"
    return f"turn {view.turn}"


def _turn_player(view: View) -> int | None:
    """Whose turn the header names: the panel's ``turn_player`` fact when the game gives one
    (``None`` there means nobody's turn, e.g. a battle both players fight), else
    ``view.active_player``."""
    if "turn_player" in view.panel:
        seat = view.panel["turn_player"]
        return seat if isinstance(seat, int) and not isinstance(seat, bool) else None
    return view.active_player


def render_board(spec: GameSpec[Any], view: View, *, perspective: Perspective | None = None,
                 title: str | None = None) -> list[str]:
    """Draw a text board from a :class:`tcgcore.View` (and nothing else).

    Shows the header (game; ``round N`` when the panel has an int ``round`` fact, else
    ``turn N`` from ``view.turn``; whose turn, from the panel's ``turn_player`` fact when
    present (``None``: nobody's turn, left out) else ``view.active_player``; the phase when
    the panel names one),
    every zone grouped by owner (cards of zones the viewer may see, counts of the others,
    face-down placeholders), the game's panel (``spec.render_panel(view)``, or the raw panel
    facts when the game has no renderer) and whom the match waits for.

    Args:
        spec: the game (for card names and the panel hook).
        view: what to draw.
        perspective: ``"all"`` when ``view`` is an omniscient view (see
            :func:`omniscient_view`); default ``view.viewer``.
        title: replaces the default header line.
    """
    viewer: Perspective = view.viewer if perspective is None else perspective
    who = "omniscient" if viewer == "all" else (
        "spectator" if viewer is None else f"you are P{viewer}")
    phase = view.panel.get("phase")
    phase_name = view.panel.get("phase_name")  # the game's words for it, when it gives them
    head = [spec.title if spec.name == view.game else view.game, _clock(view)]
    turn_player = _turn_player(view)
    if turn_player is not None:
        head.append(f"P{turn_player}'s turn")
    if isinstance(phase_name, str) and phase_name:
        head.append(phase_name)
    elif isinstance(phase, str) and phase:
        head.append(f"phase: {phase.replace('_', ' ')}")
    head.append(who)
    lines = [title or "=== " + " · ".join(head) + " ==="]
    groups: list[tuple[str, list[ZoneView]]] = []
    for seat in range(view.num_players):
        label = f"P{seat}" + (" (you)" if viewer == seat else "")
        groups.append((label, [z for z in view.zones if z.owner == seat]))
    groups.append(("Shared", [z for z in view.zones if z.owner is None]))
    for label, zones in groups:
        if not zones:
            continue
        lines.append(label)
        empty: list[str] = []
        for zone in zones:
            line = _zone_line(spec, view, zone, viewer)
            if line is None:
                empty.append(_zone_name(spec, view, zone, viewer))
            else:
                lines.append(line)
        if empty:
            lines.append("  empty: " + ", ".join(empty))
    panel = _panel_lines(spec, view)
    if panel:
        lines.append(f"--- {head[0]} ---")
        lines.extend(panel)
    if view.result is not None:
        lines.append(render_result(view.result))
    elif view.waiting_for is not None and (view.pending is None or viewer == "all"):
        lines.append(f"Waiting for P{view.waiting_for} to decide")
    return lines


def render_choice(choice: Choice, *, keys: bool = False, points: bool = False) -> list[str]:
    """The pending choice: prompt, numbered options and how to answer.

    People read the prompt and the labels (words); the option keys (ids a program answers
    with) are shown only with ``keys=True`` (the terminal's ``keys`` command). An option
    key typed in place of its number is accepted either way (:func:`parse_answer`).
    ``points``: the choice is one of a series asked point by point (``spec.point_choices``),
    and the terminal takes several points at once.
    """
    lines = [f"P{choice.player}, {choice.prompt}"]
    width = len(str(len(choice.options)))
    for i, opt in enumerate(choice.options, 1):
        lines.append(f"  {i:>{width}}) {opt.label}" + (f"   ({opt.key})" if keys else ""))
    if choice.min == choice.max == 1 and points:
        lines.append("Answer with a number, or several (such as 1 1 2) for several points "
                     "at once.")
    elif choice.min == choice.max == 1:
        lines.append("Answer with a number.")
    else:
        hi = min(choice.max, len(choice.options))
        count = f"{choice.min}" if choice.min == hi else f"{choice.min} to {hi}"
        none = "; 'none' to choose nothing" if choice.min == 0 else ""
        lines.append(f"Choose {count}: numbers separated by spaces or commas{none}.")
    lines.append("Commands: help, view, log, card NAME, keys, save FILE, undo, quit.")
    return lines


def render_result(result: Result) -> str:
    """One line for a finished match."""
    if result.draw:
        summary = "draw"
    elif result.winners:
        summary = "winner(s): " + ", ".join(f"P{w}" for w in result.winners)
    else:
        summary = "no winner: " + ", ".join(f"P{s}" for s in result.losers) + " lost"
    return f"Match over: {summary} ({result.reason.replace('_', ' ')})"


def parse_answer(choice: Choice, text: str) -> list[str]:
    """Turn typed input into option keys for ``choice``.

    Accepts a whole line equal to an option key; otherwise tokens separated by spaces or
    commas, each a 1-based option number or an option key; ``none`` or ``-`` for an empty
    selection. The count is checked here too, in the player's words (``choose at most 1
    option, got 2``); :meth:`tcgcore.Match.choose` checks everything again.

    Raises:
        ValueError: a number out of range, an unknown key, a repeated option or too few or
            too many options, with an explanation.
    """
    line = text.strip()
    keys = [o.key for o in choice.options]
    if line in keys:
        return [line]
    if line.lower() in ("none", "-"):
        if choice.min > 0:
            raise ValueError(f"choose at least {_count(choice.min)}; 'none' is not allowed here")
        return []
    out = _option_tokens(keys, line)
    if not out:
        raise ValueError("type an option number or key" +
                         (" ('none' to choose nothing)" if choice.min == 0 else ""))
    if len(set(out)) != len(out):
        raise ValueError("an option is given twice")
    if len(out) > choice.max:
        raise ValueError(f"choose at most {_count(choice.max)}, got {len(out)}")
    if len(out) < choice.min:
        raise ValueError(f"choose at least {_count(choice.min)}, got {len(out)}")
    return out


def parse_points(choice: Choice, text: str) -> list[str]:
    """Typed input for a choice asked point by point: option numbers or keys, repeats
    allowed (``1 1 2``: the next two points to option 1, the third to option 2).

    Raises:
        ValueError: nothing typed, or a number or key that is not an option.
    """
    line = text.strip()
    keys = [o.key for o in choice.options]
    if line in keys:
        return [line]
    out = _option_tokens(keys, line)
    if not out:
        raise ValueError("type one option number per point")
    return out


def _option_tokens(keys: list[str], line: str) -> list[str]:
    """The option keys named by the tokens of ``line`` (1-based numbers or keys, separated
    by spaces or commas), in order, repeats kept.

    Raises:
        ValueError: a number out of range or a token that is not a key.
    """
    out: list[str] = []
    for token in line.replace(",", " ").split():
        if token.isdigit():
            n = int(token)
            if not 1 <= n <= len(keys):
                raise ValueError(f"there is no option {n}: choose 1..{len(keys)}")
            out.append(keys[n - 1])
        elif token in keys:
            out.append(token)
        else:
            raise ValueError(f"{token!r} is neither an option number (1..{len(keys)}) nor an "
                             f"option key")
    return out


def _count(n: int) -> str:
    return f"{n} option" if n == 1 else f"{n} options"


def log_header(match: Match[Any], players: Mapping[int, str] | None = None) -> list[str]:
    """The lines that open every log of ``match``: the game, its version and seed, each
    seat's deck (the match's ``decks`` option, when it has one) and who plays it.

    ``players`` names who plays each seat (``{0: "you", 1: "heuristic"}``).
    """
    spec = match.spec
    lines = [f"# {spec.title} {spec.version} · seed {match.seed} · {match.players} "
             f"player{'s' if match.players != 1 else ''}"]
    decks = match.options.get("decks")
    deck_list = (list(decks) if isinstance(decks, (list, tuple))
                 else [decks] * match.players if decks is not None else [])
    rest = {k: v for k, v in sorted(match.options.items()) if k != "decks"}
    for seat in range(match.players):
        parts = [f"# P{seat}"]
        parts.append(_deck_words(deck_list[seat]) if seat < len(deck_list)
                     else "the game's default deck")
        if players and seat in players:
            parts.append(f"played by {players[seat]}")
        lines.append(" · ".join(parts))
    if rest:
        lines.append("# options: " + ", ".join(f"{k} {v}" for k, v in rest.items()))
    return lines


def _deck_words(deck: object) -> str:
    """A deck option for the log header: its name (a deck name, the stem of a file name,
    the ``name`` field of a deck's text or dict), else "a custom deck"."""
    if isinstance(deck, dict):
        name = deck.get("name")
        return f"deck {name}" if isinstance(name, str) and name else "a custom deck"
    if not isinstance(deck, str):
        return "a custom deck"
    if "\n" not in deck and "=" not in deck and not deck.lstrip().startswith("{"):
        return f"deck {Path(deck).stem}"
    found = re.search(r'^\s*"?name"?\s*[=:]\s*"([^"]+)"', deck, re.M)
    return f"deck {found.group(1)}" if found else "a custom deck"


def omniscient_view(match: Match[Any]) -> View:
    """A view showing every card of every zone (for replays and debugging, never for players).

    Panel facts are the spectator's (``spec.view_extra(state, None)``).
    """
    return build_view(match.spec, match.state, None, omniscient=True)


def _lookup_card(spec: GameSpec[Any], view: View, name: str) -> str:
    """Text for the ``card NAME`` command: by instance id (``#12``) on the board, by name
    or by code. A bare number is an instance id you can see, else a card code (Arkham's
    codes are all digits: ``card 01006``)."""
    wanted = name.strip()
    if not wanted:
        return "usage: card NAME (a card's name or code, or #ID of a card on the board)"
    code: str | None = None
    if wanted.lstrip("#").isdigit():
        cid = int(wanted.lstrip("#"))
        for zone in view.zones:
            for card in zone.cards:
                if card is not None and card.id == cid and card.code is not None:
                    code = card.code
        if code is None and not wanted.startswith("#") and spec.find_card is not None:
            code = spec.find_card(wanted)  # not an id this player sees: a code ("01006")
        if code is None:
            return f"no card #{cid} that you can see"
    elif spec.find_card is not None:
        code = spec.find_card(wanted)
    if code is None:
        low = wanted.lower()
        for zone in view.zones:
            for card in zone.cards:
                if card is not None and card.code is not None and low in (
                        card.code.lower(), _card_name(spec, card.code).lower()):
                    code = card.code
    if code is None:
        return f"no card called {wanted!r}"
    if spec.card_text is None:
        return f"{_card_name(spec, code)} ({code}): {spec.name} provides no card texts"
    text = spec.card_text(code)
    return text if text else f"{_card_name(spec, code)} ({code}): no text available"


# --------------------------------------------------------------------------- playing


class _Quit(Exception):
    """The player quit (or the input ended)."""

    def __init__(self, eof: bool) -> None:
        super().__init__("quit")
        self.eof = eof


HELP = """\
Answer the choice with its number or its option key; for a multi-select, several numbers or
keys separated by spaces or commas ('none' chooses nothing when that is allowed).
Commands:
  help          this text
  view          draw the board and the choice again
  log [N]       the last N events you may see (default 20)
  card NAME     a card's full text (NAME, code, or #ID of a card on the board)
  keys          the options again with their keys (what a program answers with)
  auto MODE     auto-pass for optional windows: smart (stop only when you have something
                to play), always (pass every optional window), never (ask every time)
  save FILE     save the match (msgpack; JSON if FILE ends in .json); resume with
                tcgcore play --resume FILE (the same seats are human again)
  undo          take back your last decision (solo games, or --allow-undo with AI opponents)
  quit          stop playing (save first if you want to continue later)"""


class TerminalUI:
    """Play a match in a terminal: humans answer their seats' choices, agents the rest.

    Before each human decision the seat sees the events since its last decision (redacted for
    it), its board (:func:`render_board` of ``match.view(seat)``) and the numbered options.
    With several human seats the screen is cleared and the device handed over between seats.

    Args:
        match: the match to play (continued from wherever it stands).
        humans: the seats people play.
        agents: an agent for every other seat, by seat number.
        inp, out: where typed lines come from (a text stream, or anything with
            ``readline()``) and the text stream the screen is written to.
        allow_undo: let a single human player take decisions back even though other seats
            are played by agents (solo games always allow it).
        clear: emit ANSI clear-screen codes between hot-seat turns (default: when ``out``
            is a terminal); without them a separator line is printed.
        replay_path: where to write the replay record when the match ends or the player quits.
        log_tail: how many recent events to show at most before a decision.
        auto_pass: per human seat, how optional windows the game marks
            (``spec.optional_window``: a quick-event window, a trigger that can do nothing)
            are answered: ``"smart"`` (the default) passes when passing is all the seat
            could do, ``"always"`` passes every one, ``"never"`` asks every time. It is a
            front-end setting: the pass is an ordinary answer, recorded like a typed one.
        agent_names: what plays each agent seat, for the log header (default: the agents'
            class names).

    Raises:
        TcgcoreError: a seat is not in the match, or has neither a human nor an agent, or
            undo was requested with several human seats; ``EngineError`` (a
            ``TcgcoreError``) if the match keeps no event history (``keep_events=False``).
    """

    def __init__(self, match: Match[Any], *, humans: Iterable[int],
                 agents: Mapping[int, Agent] | None = None, inp: LineSource, out: TextIO,
                 allow_undo: bool = False, clear: bool | None = None,
                 replay_path: str | None = None, log_tail: int = 12,
                 auto_pass: Mapping[int, AutoPass] | AutoPass = "smart",
                 agent_names: Mapping[int, str] | None = None) -> None:
        self.match = match
        self.humans = sorted(set(humans))
        self.agents: dict[int, Agent] = dict(agents or {})
        self.inp = inp
        self.out = out
        n = match.state.num_players
        for seat in self.humans:
            if not 0 <= seat < n:
                raise TcgcoreError(f"--human {seat}: the match has seats 0..{n - 1}")
        missing = [s for s in range(n) if s not in self.humans and s not in self.agents]
        if missing:
            raise TcgcoreError(f"no player for seat(s) {missing}")
        if allow_undo and len(self.humans) > 1:
            raise TcgcoreError("undo needs a single human seat (the others played by agents): "
                               "several people would see what the others took back")
        self.undo = n == 1 or (allow_undo and len(self.humans) == 1)
        self.clear = clear if clear is not None else _isatty(out)
        self.replay_path = replay_path
        self.log_tail = log_tail
        start = match.state.event_count - len(match.events_since(0, player="all"))
        self._seen: dict[int, int] = {s: start for s in self.humans}
        self._on_screen: int | None = None
        modes = (auto_pass if isinstance(auto_pass, Mapping)
                 else dict.fromkeys(self.humans, auto_pass))
        for seat, mode in modes.items():
            if mode not in AUTO_PASS_MODES:
                raise TcgcoreError(f"auto-pass for P{seat}: {mode!r} is not one of "
                                   f"{', '.join(AUTO_PASS_MODES)}")
        self.auto_pass: dict[int, AutoPass] = {s: modes.get(s, "smart") for s in self.humans}
        self._auto: set[int] = set()  # indexes of decisions auto-pass made
        self._auto_count: dict[int, int] = dict.fromkeys(self.humans, 0)
        self._names = {s: (agent_names or {}).get(s, type(a).__name__)
                       for s, a in self.agents.items()}

    # ---- output helpers
    def _write(self, *lines: str) -> None:
        for line in lines:
            self.out.write(line + "\n")
        self.out.flush()

    def _read(self, prompt: str) -> str:
        self.out.write(prompt)
        self.out.flush()
        line = self.inp.readline()
        if not line:
            raise _Quit(eof=True)
        return line.rstrip("\r\n")

    # ---- main loop
    def run(self) -> int:
        """Play until the match ends or a player quits.

        Returns:
            0 when the match ended or a player quit, 1 when the input ended first,
            130 after Ctrl-C.
        """
        self._write(*log_header(self.match, {
            s: "you" if len(self.humans) == 1 else "a person" for s in self.humans}
            | self._names))
        try:
            while self.match.result is None:
                match = self.match
                choice = match.pending
                assert choice is not None
                seat = choice.player
                if seat in self.humans:
                    if self._auto_passed(seat, choice):
                        continue
                    self._human_turn(seat)
                else:
                    keys = self.agents[seat].decide(match, choice)
                    match.choose(seat, keys)
        except KeyboardInterrupt:
            self._save_replay()
            self._write("", "Interrupted. The match was not finished.")
            return 130
        except _Quit as stop:
            self._save_replay()
            if stop.eof:
                self._write("", "Input ended before the match did.")
                return 1
            self._write("Quit. The match was not finished.")
            return 0
        self._finish()
        return 0

    def _finish(self) -> None:
        match = self.match
        if len(self.humans) == 1:
            seat: int | None = self.humans[0]
            self._show_events(self.humans[0])
        else:
            seat = None
            self._handover_screen("The match is over")
            self._show_events_for(None, self._seen_min())
        assert match.result is not None
        self._write(*render_board(match.spec, match.view(seat)))
        self._save_replay()

    def _auto_passed(self, seat: int, choice: Choice) -> bool:
        """Answer ``choice`` with its pass option when the seat's auto-pass setting says so."""
        hook = self.match.spec.optional_window
        mode = self.auto_pass.get(seat, "never")
        if hook is None or mode == "never":
            return False
        window = hook(self.match.state, choice)
        if window is None or (mode == "smart" and window[1]):
            return False
        self._auto.add(len(self.match.decisions))
        self._auto_count[seat] += 1
        self.match.answer(seat, [window[0]])  # a pass key names no card: the same for the seat
        return True

    def _seen_min(self) -> int:
        return min(self._seen.values()) if self._seen else 0

    def _save_replay(self) -> None:
        if self.replay_path:
            record = self.match.replay()
            path = Path(self.replay_path)
            path.write_bytes(record.to_json() if path.suffix == ".json" else record.to_bytes())
            self._write(f"Replay written to {self.replay_path}.")

    def _handover_screen(self, message: str) -> None:
        if self.clear:
            self.out.write(CLEAR_SCREEN)
        else:
            self._write("", "=" * 72)
        self._write(message)

    def _human_turn(self, seat: int) -> None:
        if len(self.humans) > 1 and self._on_screen != seat:
            self._handover_screen(f"Pass the device to P{seat}.")
            self._read(f"P{seat}, press Enter when only you can see the screen. ")
            if self.clear:
                self.out.write(CLEAR_SCREEN)
        self._on_screen = seat
        self._show_events(seat)
        if self._auto_count.get(seat):
            count = self._auto_count[seat]
            self._write(f"  ({count} optional window{'s' if count != 1 else ''} passed "
                        f"automatically; 'auto never' asks every time)")
            self._auto_count[seat] = 0
        self._show(seat)
        while True:
            choice = self.match.seat_choice(seat)  # the seat's keys, as its view shows
            assert choice is not None
            line = self._read(f"P{seat}> ")
            word, _, rest = line.strip().partition(" ")
            cmd = word.lower()
            if cmd in ("help", "?"):
                self._write(HELP)
            elif cmd == "view":
                self._show(seat)
            elif cmd == "keys":
                self._write(*render_choice(choice, keys=True))
            elif cmd == "auto":
                mode = rest.strip().lower()
                if mode not in AUTO_PASS_MODES:
                    self._write(f"usage: auto {'|'.join(AUTO_PASS_MODES)} "
                                f"(now: {self.auto_pass[seat]})")
                else:
                    self.auto_pass[seat] = mode
                    self._write(f"Auto-pass for P{seat}: {mode}.")
            elif cmd == "log":
                self._log(seat, rest)
            elif cmd == "card":
                self._write(_lookup_card(self.match.spec, self.match.view(seat), rest))
            elif cmd == "save":
                self._save(rest.strip())
            elif cmd == "undo":
                if self._undo(seat):
                    return
            elif cmd in ("quit", "exit"):
                raise _Quit(eof=False)
            elif not line.strip():
                self._write("Type an option number or key ('help' lists the commands).")
            else:
                points = choice.kind in self.match.spec.point_choices and \
                    choice.min == choice.max == 1
                try:
                    keys = parse_points(choice, line) if points else parse_answer(choice, line)
                except ValueError as exc:
                    self._write(f"Not accepted: {exc}. Try again ('view' shows the options).")
                    continue
                if points and len(keys) > 1:
                    self._answer_points(seat, choice.kind, keys)
                    return
                try:
                    self.match.answer(seat, keys)
                except IllegalChoice as exc:  # an error while the game runs an accepted
                    # answer is the plugin's, not the player's: it is not asked again
                    self._write(f"Not accepted: {exc}. Try again ('view' shows the options).")
                    continue
                return

    def _answer_points(self, seat: int, kind: str, keys: list[str]) -> None:
        """Give typed points one by one to the choices of ``kind`` the game asks in a row
        (each an ordinary decision); stop early when the series ends or an option is gone
        (an asset that cannot take more)."""
        given = 0
        for key in keys:
            current = self.match.seat_choice(seat)
            if current is None or current.kind != kind or \
                    key not in {o.key for o in current.options}:
                break
            self.match.answer(seat, [key])
            given += 1
        if given < len(keys):
            self._write(f"({len(keys) - given} of the {len(keys)} points typed could not be "
                        f"given that way; the game asks again if any are left)")

    def _show(self, seat: int) -> None:
        view = self.match.view(seat)
        self._write(*render_board(self.match.spec, view))
        if view.pending is not None:
            self._write(*render_choice(
                view.pending, points=view.pending.kind in self.match.spec.point_choices))

    def _show_events(self, seat: int) -> None:
        self._show_events_for(seat, self._seen[seat])

    def _show_events_for(self, seat: int | None, since: int) -> None:
        match = self.match
        events = match.events_since(since, player=seat)
        if events:
            skipped = len(events) - self.log_tail
            if skipped > 0:
                self._write(f"… {skipped} earlier event(s) ('log {len(events)}' shows them)")
                events = events[skipped:]
            self._write(*(f"  * {describe_event(match.spec, match.state, ev, viewer=seat)}"
                          for ev in events))
        for key in self._seen:
            if seat is None or key == seat:
                self._seen[key] = match.state.event_count

    def _log(self, seat: int, arg: str) -> None:
        arg = arg.strip()
        if arg and not arg.isdigit():
            self._write("usage: log [N]")
            return
        count = int(arg) if arg else 20
        match = self.match
        events = match.events_since(max(0, match.state.event_count - count), player=seat)
        if not events:
            self._write("(no events this session)")
        for ev in events:
            self._write(f"  {ev.seq:>5} {describe_event(match.spec, match.state, ev, viewer=seat)}")

    def _save(self, name: str) -> None:
        if not name:
            self._write("usage: save FILE")
            return
        path = Path(name)
        self.match.meta["human_seats"] = list(self.humans)
        data = self.match.to_json() if path.suffix == ".json" else self.match.to_bytes()
        try:
            path.write_bytes(data)
        except OSError as exc:
            self._write(f"Could not save: {exc}")
            return
        self._write(f"Saved to {name}. Continue with: tcgcore play --resume {name}")

    def _undo(self, seat: int) -> bool:
        """Take back ``seat``'s last decision; True when the match was rebuilt."""
        if not self.undo:
            self._write("Undo is only available in solo games, or with --allow-undo and only "
                        "AI opponents.")
            return False
        decisions = self.match.decisions
        last = max((i for i, d in enumerate(decisions)
                    if d.player == seat and i not in self._auto), default=None)
        if last is None:
            self._write("Nothing to undo: you have made no decision in this match.")
            return False
        old = self.match
        record = ReplayRecord(game=old.game, game_version=old.spec.version, plugins=old.plugins,
                              seed=old.seed, players=old.players, options=dict(old.options),
                              decisions=decisions[:last])
        try:
            rebuilt = replay(record, registry=old.registry, verify=False)
        except TcgcoreError as exc:  # pragma: no cover - a deterministic game replays its record
            self._write(f"Could not undo: {exc}")
            return False
        self.match = rebuilt
        self._auto = {i for i in self._auto if i < last}
        for key in self._seen:
            self._seen[key] = rebuilt.state.event_count
        taken = len(decisions) - last
        self._write(f"Undone: {taken} decision(s) taken back (yours and what followed it).")
        return True


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


# --------------------------------------------------------------------------- replays

STEP_HELP = """\
Commands:
  n [K] / Enter   next decision (K of them)
  p [K]           previous decision (K of them)
  g K             go to the state after decision K (0 = the start)
  r R             go to the first decision of round R (state.turn)
  start / end     first / last position
  b               show the board from the current perspective
  seat N          look as seat N; 'seat all' omniscient, 'seat none' spectator
  log             events of the current step again
  help            this text
  q               quit"""


class ReplayStepper:
    """Step through a replay record: forwards, backwards, to a round, from any perspective.

    Positions are 0 (the match as created) to the number of decisions; position ``k`` is the
    state after ``k`` decisions. Earlier positions are rebuilt from checkpoints (clones kept
    every ``checkpoint_every`` decisions), so stepping back is cheap.

    Args:
        record: the replay to show.
        inp, out: text streams for commands and output.
        registry: where to find the game (default: installed plugins).
        perspective: a seat, ``None`` (spectator) or ``"all"`` (omniscient, the default).
        limit: stop at this many decisions (e.g. where a replay diverged).
        checkpoint_every: decisions between kept clones.

    Raises:
        TcgcoreError: the game is not installed, the match cannot be created, or the
            installed game version cannot replay the record (:class:`GameMismatchError`).
    """

    def __init__(self, record: ReplayRecord, *, inp: LineSource, out: TextIO,
                 registry: Registry | None = None, perspective: Perspective = "all",
                 limit: int | None = None, checkpoint_every: int = 25) -> None:
        self.record = record
        self.inp = inp
        self.out = out
        self.perspective: Perspective = perspective
        self.total = len(record.decisions) if limit is None else min(limit, len(record.decisions))
        self.every = max(1, checkpoint_every)
        start = _create(record.game, seed=record.seed, players=record.players, registry=registry,
                        logger=None, options=dict(record.options))
        if not start.spec.is_compatible(record.game_version):
            raise GameMismatchError(
                f"replay is from {record.game} {record.game_version}; the installed plugin is "
                f"{start.spec.version} and cannot replay it")
        self._checkpoints: dict[int, Match[Any]] = {0: start.clone()}
        self.match: Match[Any] = start
        self.pos = 0
        self._setup_events: list[Event] = list(start.events_since(0, player="all"))
        self._step_events: list[Event] = list(self._setup_events)
        self._answer: list[str] = []
        self._rounds: dict[int, int] = {start.state.turn: 0}

    def _write(self, *lines: str) -> None:
        for line in lines:
            self.out.write(line + "\n")
        self.out.flush()

    def _apply(self, match: Match[Any], index: int) -> None:
        dec = self.record.decisions[index]
        match.choose(dec.player, dec.keys)

    def goto(self, target: int) -> None:
        """Move to position ``target`` (clamped to 0..total)."""
        target = max(0, min(self.total, target))
        if target == 0:
            self.match, self.pos = self._checkpoints[0].clone(), 0
            self._step_events = list(self._setup_events)
            return
        if target == self.pos + 1:
            match = self.match
        else:
            base = max(k for k in self._checkpoints if k <= target - 1)
            match = self._checkpoints[base].clone()
            while base < target - 1:
                self._apply(match, base)
                base += 1
                self._note(match, base)
        before = match.state.event_count
        pending = match.pending
        keys = self.record.decisions[target - 1].keys
        self._answer = [_label(pending, k) for k in keys] if pending is not None else list(keys)
        self._apply(match, target - 1)
        self._note(match, target)
        self._step_events = match.events_since(before, player="all")
        self.match, self.pos = match, target

    def _note(self, match: Match[Any], pos: int) -> None:
        if pos % self.every == 0 and pos not in self._checkpoints:
            self._checkpoints[pos] = match.clone()
        self._rounds.setdefault(match.state.turn, pos)

    def goto_round(self, round_no: int) -> bool:
        """Move to the first position whose ``state.turn`` is ``round_no``; False if none."""
        known = [pos for turn, pos in self._rounds.items() if turn >= round_no]
        if round_no in self._rounds:
            self.goto(self._rounds[round_no])
            return True
        if known:  # a later round is known, so this one never happened
            return False
        while self.pos < self.total and self.match.state.turn < round_no:
            self.goto(self.pos + 1)
        return bool(self.match.state.turn == round_no)

    def _view(self) -> tuple[View, Perspective]:
        if self.perspective == "all":
            return omniscient_view(self.match), "all"
        return self.match.view(self.perspective), self.perspective

    def show_step(self) -> None:
        """Describe the current position: the decision that led here and its events."""
        match = self.match
        head = f"[{self.pos}/{self.total}] round {match.state.turn}"
        if self.pos == 0:
            self._write(f"{head}: the match as created")
        else:
            dec = self.record.decisions[self.pos - 1]
            what = dec.kind or "choice"
            if self.perspective == "all" or self.perspective == dec.player:
                answer = ", ".join(self._answer) if self._answer else "(nothing)"
                self._write(f"{head}: P{dec.player} answered {what}: {answer}")
            else:
                self._write(f"{head}: P{dec.player} answered {what}")
        who: Perspective = self.perspective
        for ev in self._redacted(self._step_events, who):
            self._write(f"  * {describe_event(match.spec, match.state, ev)}")
        if match.result is not None:
            self._write(render_result(match.result))

    def _redacted(self, events: list[Event], who: Perspective) -> list[Event]:
        if who == "all":
            return events
        state = self.match.state
        return [seat_event(state, ev, who) for ev in events]

    def show_board(self) -> None:
        """Draw the board at the current position from the current perspective."""
        view, who = self._view()
        self._write(*render_board(self.match.spec, view, perspective=who))

    def run(self) -> int:
        """Read commands until ``q`` or the end of the input; returns 0."""
        self._write(*log_header(self.match))
        self._write(f"Replay of {self.match.spec.title} {self.record.game_version}, seed "
                    f"{self.record.seed}, {self.total} decisions. Type 'help' for the commands.")
        self.show_step()
        handlers: dict[str, Callable[[str], bool]] = {
            "n": self._cmd_next, "next": self._cmd_next, "": self._cmd_next,
            "p": self._cmd_prev, "prev": self._cmd_prev,
            "g": self._cmd_goto, "goto": self._cmd_goto,
            "r": self._cmd_round, "round": self._cmd_round,
            "start": lambda _: self._go(0), "end": lambda _: self._go(self.total),
            "b": self._cmd_board, "board": self._cmd_board,
            "seat": self._cmd_seat, "log": self._cmd_log,
            "help": self._cmd_help, "?": self._cmd_help,
        }
        while True:
            self.out.write(f"replay {self.pos}/{self.total}> ")
            self.out.flush()
            line = self.inp.readline()
            if not line:
                self._write("")
                return 0
            word, _, rest = line.strip().partition(" ")
            cmd = word.lower()
            if cmd in ("q", "quit", "exit"):
                return 0
            handler = handlers.get(cmd)
            if handler is None:
                self._write(f"unknown command {word!r}; type 'help'")
                continue
            try:
                handler(rest.strip())
            except ValueError as exc:
                self._write(f"{exc}")

    def _go(self, pos: int) -> bool:
        self.goto(pos)
        self.show_step()
        return True

    def _count(self, arg: str) -> int:
        if not arg:
            return 1
        if not arg.isdigit():
            raise ValueError(f"expected a number, got {arg!r}")
        return int(arg)

    def _cmd_next(self, arg: str) -> bool:
        if self.pos >= self.total:
            self._write("(at the end of the replay)")
            return False
        return self._go(self.pos + self._count(arg))

    def _cmd_prev(self, arg: str) -> bool:
        if self.pos == 0:
            self._write("(at the start of the replay)")
            return False
        return self._go(self.pos - self._count(arg))

    def _cmd_goto(self, arg: str) -> bool:
        if not arg.isdigit():
            raise ValueError("usage: g K (a decision number)")
        return self._go(int(arg))

    def _cmd_round(self, arg: str) -> bool:
        if not arg.isdigit():
            raise ValueError("usage: r R (a round number)")
        if not self.goto_round(int(arg)):
            self._write(f"round {arg} is not in this replay (now at round {self.match.state.turn})")
        self.show_step()
        return True

    def _cmd_board(self, arg: str) -> bool:
        self.show_board()
        return True

    def _cmd_log(self, arg: str) -> bool:
        self.show_step()
        return True

    def _cmd_help(self, arg: str) -> bool:
        self._write(STEP_HELP)
        return True

    def _cmd_seat(self, arg: str) -> bool:
        low = arg.lower()
        if low in ("all", "omniscient"):
            self.perspective = "all"
        elif low in ("none", "spectator"):
            self.perspective = None
        elif low.isdigit() and int(low) < self.match.state.num_players:
            self.perspective = int(low)
        else:
            raise ValueError(f"usage: seat 0..{self.match.state.num_players - 1} | all | none")
        who = "omniscient" if self.perspective == "all" else _seat(self.perspective)
        self._write(f"now looking as {who}")
        return True


def _label(choice: Choice, key: str) -> str:
    for opt in choice.options:
        if opt.key == key:
            return f"{opt.label} ({key})"
    return key


def check_replay(record: ReplayRecord, registry: Registry | None = None) -> tuple[str | None, int | None]:
    """Verify ``record``; returns ``(problem, index)``: ``(None, None)`` when it verifies.

    Raises:
        TcgcoreError: the game is missing or its installed version cannot replay the record.
    """
    try:
        replay(record, registry=registry, verify=True)
    except ReplayDivergence as exc:
        return str(exc), exc.index
    return None, None
