"""Registers the guimi_revival game with tcgcore (entry point group ``tcgcore``).

The game definition is :data:`tcgcore_guimi_revival.rules.spec`; this module adds the public
panel (``view_extra``), the front-end hooks (readable event lines, card names and texts, card
look-up, the board panel), deck checking, the agents, and exposes the pluggy hook.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import tcgcore
from tcgcore import Event, View

from . import rules, search_hooks, validation
from .agents import make_heuristic, make_random
from .card_usage import card_usage
from .cards import _POOLS, CardDef, get_pool, load_pathways
from .decks import check_deck_text
from .options import RULES_OPTION_NAMES, parse_rules_options
from .presentation import card_info as _catalogue_entry
from .presentation import table_layout
from .rules import SLOT_NAMES, agility, cdef, spec, strength, z
from .state import GuimiState

__all__ = ["card_name", "card_text", "describe", "find_card", "render_panel", "spec",
           "tcgcore_games", "view_extra", "view_fact"]


def view_extra(state: GuimiState, viewer: int | None) -> dict[str, Any]:
    """Public panels per player (only public facts: counts, sequence, counters).

    Returns ``{"round", "phase", "first", "turn_player", "players": [panel, panel],
    "stats", "phase_name"}`` (``turn_player``: the seat whose turn it is, ``None`` during the
    battle phase, which belongs to no player; the text board's header reads it) where a
    panel has ``sequence``, ``pathway``, ``stack``, ``digested``, ``corruption``,
    ``step_corruption``, ``dead_corruption``, ``mad``, ``dead``, ``slumbering``, ``status``,
    ``status_face_down``, ``spirit_world``, ``hand``, ``deck``, ``extra``,
    ``events_played``, ``events_activated``, ``rewarded``; ``stats`` maps the viewer's alias
    of each face-up character on the field to its current ``[strength, agility]``.
    """
    return {name: fact(state, viewer) for name, fact in _FACTS.items()}


def view_fact(state: GuimiState, viewer: int | None, name: str) -> Any:
    """One entry of :func:`view_extra`'s panel, computed alone (``spec.view_fact``, what
    :class:`tcgcore.SeatReader` asks).

    Raises:
        KeyError: the panel has no entry ``name``.
    """
    return _FACTS[name](state, viewer)


def _players(state: GuimiState, viewer: int | None) -> list[dict[str, Any]]:
    """The ``players`` panels of :func:`view_extra` (public facts of each seat)."""
    pool = get_pool(state.pool)
    players = []
    for p in range(state.num_players):
        zones = state.zones
        stack = zones[z("stack", p)].cards
        status = zones[z("status", p)].cards
        rb = state.cards[state.rb[p]]
        players.append({
            "sequence": state.sequence[p],
            "pathway": pool.cards[rb.code].pathway if not rb.face_down else None,
            "stack": len(stack),
            "digested": sum(1 for c in stack if not state.cards[c].face_down),
            "corruption": state.corruption[p],
            "step_corruption": state.step_corruption[p],
            "dead_corruption": state.dead_corruption[p],
            "mad": state.mad[p] > 0,
            "dead": state.dead[p],
            "slumbering": state.ascend_round[p] >= 0,
            "status": len(status),
            "status_face_down": sum(1 for c in status if state.cards[c].face_down),
            "spirit_world": len(zones[z("spirit", p)].cards),
            "hand": len(zones[z("hand", p)].cards),
            "deck": len(zones[z("deck", p)].cards),
            "extra": len(zones[z("extra", p)].cards),
            "events_played": state.events_played[p],
            "events_activated": state.events_activated[p],
            "rewarded": state.rewarded[p],
        })
    return players


def _stat_panel(state: GuimiState, viewer: int | None) -> dict[str, list[int]]:
    """Current strength and agility of the face-up characters, by the viewer's aliases."""
    return {str(tcgcore.card_alias(state, cid, viewer)): list(v)
            for cid, v in _stats(state).items()}


#: :func:`view_extra`'s entries in order, each computed alone
_FACTS: dict[str, Callable[[GuimiState, int | None], Any]] = {
    "round": lambda state, viewer: state.round,
    "phase": lambda state, viewer: state.phase,
    "first": lambda state, viewer: state.first,
    "turn_player": lambda state, viewer: None if state.in_battle else state.active_player,
    "players": _players,
    "stats": _stat_panel,
    "phase_name": lambda state, viewer: phase_words(state.phase),
}


# ----------------------------------------------------------------------------- card texts


def _defs() -> dict[str, CardDef]:
    return get_pool("builtin").cards


def card_name(code: str) -> str:
    """``English name (中文名)`` of a built-in card, else of a card of a pool file this
    process has loaded (a designer's card), or the code itself."""
    d = _defs().get(code)
    if d is None:
        d = next((p.cards[code] for p in list(_POOLS.values()) if code in p.cards), None)
    return f"{d.name_en} ({d.name_zh})" if d is not None else code


def _seq_name(pathway: str | None, seq: int | None) -> str:
    if pathway is None:
        return ""
    pw = load_pathways().pathways.get(pathway)
    if pw is None:
        return pathway
    if seq is None:
        return f"{pw.name_en} ({pw.name_zh}) pathway"
    sn = pw.sequences.get(str(seq))
    label = f" {sn.en} / {sn.zh}" if sn is not None else ""
    return f"{pw.name_en} ({pw.name_zh}) pathway, sequence {seq}{label}"


#: activation and ritual conditions (cards.py ``ConditionKind``) in words ({n}: the value)
_CONDITION_WORDS = {
    "always": "always",
    "rb_sequence_at_most": "your Revival Beyonder's sequence number is {n} or less",
    "spirit_world_at_least": "you have {n} or more cards in your Spirit World",
    "characteristics_at_least": "you have {n} or more characteristics in your Spirit World",
    "underworld_at_least": "you have {n} or more cards in your Underworld",
    "units_at_least": "you have {n} or more cards in your unit zone",
    "status_at_least": "you have {n} or more cards in your status zone",
    "hand_at_least": "you have {n} or more cards in your hand",
    "corruption_at_least": "you have {n} or more corruption",
    "opponent_status_at_least": "the opponent has {n} or more cards in their status zone",
}

#: where an extra-deck card goes after its activation
_AFTER_WORDS = {"hand": "it returns to its owner's hand", "underworld": "it goes to the "
                "Underworld", "remain": "it stays face up"}


def _cond(conds: Any) -> str:
    if not conds:
        return "none"
    return " and ".join(_CONDITION_WORDS.get(str(c.kind), "a condition").format(n=c.value)
                        for c in conds)


def english_text(text: str) -> str:
    """English card text for people: the ignition mark 【起】 reads "Activated ability"."""
    return text.replace("【起】:", "Activated ability:").replace("【起】", "Activated ability")


def card_text(code: str) -> str | None:
    """The full text of a built-in card: both names, type, pathway and sequence, rank, numbers,
    abilities, rituals and conditions (``None`` for an unknown code)."""
    d = _defs().get(code)
    if d is None:
        return None
    kind = d.card_type.replace("_", " ")
    if d.extra_kind:
        kind = f"extra-deck item: {d.extra_kind.replace('_', ' ')}"
    elif d.item_kind:
        kind = f"item: {d.item_kind.replace('_', ' ')}" + (f" (grade {d.grade})"
                                                           if d.grade is not None else "")
    elif d.event_kind:
        kind = f"{d.event_kind} event"
    lines = [f"{d.name_en} / {d.name_zh}", f"Type: {kind}"]
    if d.pathway is not None:
        lines.append("Pathway: " + _seq_name(d.pathway, d.sequence))
    if d.source is not None:
        src = load_pathways().sources.get(d.source)
        lines.append(f"Source: {src.name_en} ({src.name_zh})" if src else f"Source: {d.source}")
    if d.rank is not None:
        lines.append(f"Rank: {d.rank}")
    if d.card_type in ("beyonder", "revival_beyonder"):
        lines.append(f"Strength {d.strength}, agility {d.agility}")
    if d.characteristic is not None:
        ch = d.characteristic
        lines.append(f"Characteristic: {ch.text_en or f'+{ch.strength} strength'}"
                     + (f" / {ch.text_zh}" if ch.text_zh else ""))
    if d.activation_condition:
        lines.append(f"Activation condition: {_cond(d.activation_condition)}; afterwards "
                     f"{_AFTER_WORDS.get(d.after_activation or 'remain', 'it stays face up')}")
    if d.text_en:
        lines.append(english_text(d.text_en))
    if d.text_zh:
        lines.append(d.text_zh)
    for r in ([d.ritual] if d.ritual else []) + list(d.rituals) + (
            [d.apotheosis_ritual] if d.apotheosis_ritual else []):
        pw = load_pathways().pathways.get(r.pathway)
        lines.append(f"Ritual: to sequence {r.sequence} of the "
                     f"{pw.name_en if pw else 'own'} pathway, when {_cond(r.condition)}")
    return "\n".join(lines)


def card_info(code: str, lang: str) -> tcgcore.CardInfo | None:
    """The card catalogue hook (``GameSpec.card_info``): the card's entry with its full text."""
    return _catalogue_entry(code, lang, card_text(code) or "")


def find_card(name: str) -> str | None:
    """A built-in card's code from its code, English name or Chinese name (case-insensitive);
    a unique prefix of a name also works."""
    wanted = name.strip().lower()
    if not wanted:
        return None
    defs = _defs()
    if wanted in defs:
        return wanted
    prefix: list[str] = []
    for code, d in defs.items():
        names = (d.name_en.lower(), d.name_zh.lower())
        if wanted in names:
            return code
        if any(n.startswith(wanted) for n in names):
            prefix.append(code)
    return prefix[0] if len(prefix) == 1 else None


# ----------------------------------------------------------------------------- board panel


def render_panel(view: View) -> list[str]:
    """The Guimi part of a text board, drawn from the view only: round, phase and whose turn,
    then per player the RB's sequence, digested characteristics, Spirit World, status zone,
    corruption, madness, death and slumber."""
    panel = view.panel
    if not panel:
        return []
    defs = _defs()
    phase = panel.get("phase", "")
    battle = panel["turn_player"] is None if "turn_player" in panel else \
        phase in ("battle", "damage", "battle_end")
    turn = "battle (no turn player)" if battle else f"P{view.active_player}'s turn"
    lines = [f"Round {panel.get('round')}  {phase_words(str(phase))}  {turn}  "
             f"(first player P{panel.get('first')})"]
    zones = {zv.id: zv for zv in view.zones}
    for p, pl in enumerate(panel.get("players", [])):
        seq = pl.get("sequence", 9)
        path = pl.get("pathway")
        rb_name = "RB"
        for zid in (f"revival.{p}", f"underworld.{p}", f"astral.{p}"):
            zv = zones.get(zid)
            for cv in (zv.cards if zv else []):
                if cv is not None and cv.code and defs.get(cv.code) is not None \
                        and defs[cv.code].card_type == "revival_beyonder":
                    rb_name = defs[cv.code].name_en
        seq_label = ""
        if path is not None:
            pw = load_pathways().pathways.get(path)
            sn = pw.sequences.get(str(seq)) if pw else None
            if sn is not None:
                seq_label = f" {sn.en} {sn.zh}"
        state = []
        if pl.get("mad"):
            state.append("MAD")
        if pl.get("dead"):
            state.append(f"DEAD (dead corruption {pl.get('dead_corruption')}/3)")
        if pl.get("slumbering"):
            state.append("SLUMBERING (Great Old One ascension)")
        lines.append(
            f"P{p} {rb_name}: sequence {seq}{seq_label} | characteristics {pl.get('stack')} "
            f"(digested {pl.get('digested')}) | Spirit World {pl.get('spirit_world')}/7 | "
            f"status {pl.get('status')}/7 ({pl.get('status_face_down')} face down) | "
            f"corruption {pl.get('corruption')}" + (" | " + ", ".join(state) if state else ""))
        lines.append(f"    hand {pl.get('hand')}  deck {pl.get('deck')}  extra {pl.get('extra')}"
                     f"  events played {pl.get('events_played')}"
                     f"  activated {pl.get('events_activated', 0)}")
    return lines


# ----------------------------------------------------------------------------- event lines


def _name(state: GuimiState, code: str | None) -> str:
    if not code:
        return "a hidden card"
    d = get_pool(state.pool).cards.get(code)
    return d.name_en if d is not None else code


def _id_name(state: GuimiState, cid: Any) -> str:
    try:
        named = tcgcore.card_named(state, int(cid))  # an instance id or a seat's alias
    except (TypeError, ValueError):
        return "?"
    if named is None:
        return "?"
    card = state.cards[named]
    return _name(state, card.code)


_MOVES = {
    "drawn": "draws {c}", "played": "plays {c}{slot}", "set": "sets {c} face down in the "
    "Spirit World", "resolved": "{c} goes to the Underworld", "to_hand": "puts {c} into the hand",
    "potion_activated": "activates the potion {c} (now a characteristic in the Spirit World)",
    "absorbed": "absorbs {c} into the characteristic stack", "to_bottom": "puts {c} on the "
    "bottom of the deck", "destroyed": "{c} is destroyed", "died": "'s Revival Beyonder DIES",
    "revived": "'s Revival Beyonder is revived", "healed": "moves {c} from the status zone to "
    "the Underworld", "recurred": "returns {c} from the Underworld (tapped)",
    "checked_to_hand": "puts the checked card {c} into the hand", "damage": "puts {c} into the "
    "status zone {facing}", "slumber": "'s Revival Beyonder SLUMBERS in the Astral World",
    "woke": "'s Revival Beyonder wakes up", "searched": "searches the deck for {c}",
    "bounced": "{c} returns to its owner's hand", "converged": "puts {c} into the Spirit World "
    "as a sequence-1 characteristic", "to_spirit": "moves {c} into the Spirit World as a "
    "characteristic", "mulligan": "puts {c} back for the mulligan",
    "sought": "puts {c} into the Spirit World as a characteristic",
}


#: the words for a result or loss-condition reason code (``Result.reason`` keeps the code)
_REASON_WORDS = {
    "deck_out": "no card left to draw or reveal",
    "death": "the Revival Beyonder died",
    "mad_while_dead": "the Revival Beyonder is dead and mad",
    "simultaneous_losses": "both players lost at once",
    "double_ascension": "both players ascended at once",
    "great_old_one": "ascension as a Great Old One",
}

#: the words for a damage check's outcome
_OUTCOME_WORDS = {
    "deck_out": "no card left to reveal",
    "prevented": "a potion prevents it",
    "face_up": "the card goes face up into the status zone (no corruption)",
    "corruption_1": "the card goes face down into the status zone, 1 corruption",
    "corruption_2": "the card goes face down into the status zone, 2 corruption",
}


def reason_words(reason: str) -> str:
    """A result or loss-condition reason code as words (``deck_out`` -> readable text)."""
    return _REASON_WORDS.get(reason, reason.replace("_", " "))


def describe(state: GuimiState, event: Event) -> str:
    """One readable line per event (round, phases, actions, promotions, battles with their
    arithmetic, checks and the result)."""
    k = event.kind
    who = f"P{event.player}" if event.player is not None else ""
    c = _name(state, event.code)
    data = event.data
    if k == "round_started":
        return f"=== Round {event.amount} ==="
    if k == "turn_started":
        return f"--- {who}'s turn ---"
    if k == "phase":
        return f"  [{phase_words(str(data.get('phase')))}]"
    if k in _MOVES and (event.src or event.dst):
        slot = ""
        if event.dst and event.dst.startswith("units."):
            slot = " to the unit zone"
        elif event.dst and event.dst.startswith("spirit."):
            slot = " face up into the Spirit World"
        facing = "face down" if data.get("face_down") else ""
        text = _MOVES[k].format(c=c, slot=slot, facing=facing).strip()
        return f"  {who}{text}" if text.startswith("'") else f"  {who} {text}"
    if k == "revealed":
        why = _REVEAL_WORDS.get(str(data.get("why", "")), "")
        return f"  {who} reveals {c}" + (f" ({why})" if why else "")
    if k == "shuffled":
        return f"  {who} shuffles".rstrip()
    if k == "promoted":
        return f"  {who} PROMOTES to sequence {event.amount}"
    if k == "promotion_failed":
        return f"  {who} fails the promotion check (stays at sequence {event.amount})"
    if k == "went_mad":
        if event.card is not None and event.code:
            return f"  {who}'s {c} goes MAD"
        return f"  {who}'s Revival Beyonder goes MAD ({mad_words(data.get('why'))})"
    if k == "madness_ended":
        if event.card is not None and event.code:
            return f"  {who}'s {c} is no longer mad"
        return f"  {who}'s madness ends"
    if k == "search_failed":
        where = ("the Underworld and the main deck" if data.get("op") == "seek"
                 else "the main deck")
        return f"  {who} searches {where} and finds nothing"
    if k == "corruption":
        return f"  {who} receives {event.amount} corruption (total {data.get('total')})"
    if k == "untapped":
        return f"  {who} untaps {c}"
    if k == "tapped":
        return f"  {c} is tapped"
    if k == "event_activated":
        return f"  {who} activates the event {c}"
    if k == "extra_activated":
        return f"  {who} activates the extra-deck card {c}"
    if k == "ignition":
        return f"  {who} uses the activated ability of {c}"
    if k == "effect":
        origin = f" of {c}" if event.code else ""  # the card, when the reader may know it
        return f"  {who} resolves the effect{origin}: {effect_words(data.get('op'), data.get('amount'))}"
    if k == "units_moved":
        return f"  {who} moves a unit from slot {data.get('from')} to slot {data.get('to')}"
    if k == "battle_started":
        return f"=== Battle phase of round {event.amount} ==="
    if k == "attack_order":
        order = [_id_name(state, x) for x in str(data.get("order", "")).split(",") if x]
        return "  attack order: " + (", ".join(order) or "(nobody)")
    if k == "attack_declared":
        return f"  {who} {c} attacks {_id_name(state, data.get('target'))}"
    if k == "digested":
        return f"  {who} digests {c}"
    if k == "supported":
        return f"  {who} {c} supports"
    if k == "intercepted":
        return f"  {who} {c} intercepts"
    if k == "source_trigger":
        src = load_pathways().sources.get(str(data.get("source")))
        return f"  {who} Source trigger: {src.name_en if src else data.get('source')}"
    if k in ("hit", "missed"):
        target = _id_name(state, data.get("target"))
        calc = data.get("calc")
        if event.amount is None:
            return f"  the attack on {target} misses (target gone or cannot be hit)"
        verdict = "HIT" if k == "hit" else "miss"
        return (f"  attack {event.amount} vs defence {data.get('defence')} on {target}"
                f"{' (' + str(calc) + ')' if calc else ''}: {verdict}")
    if k == "damage_check":
        outcome = str(data.get("outcome"))
        return f"  {who} damage check: {_OUTCOME_WORDS.get(outcome, outcome.replace('_', ' '))}"
    if k == "loss_condition":
        return f"  {who} meets a loss condition: {reason_words(str(data.get('reason')))}"
    if k == "ascension_began":
        return f"  {who} begins the GREAT OLD ONE ascension"
    if k == "ascension_failed":
        return f"  {who}'s ascension fails"
    if k == "mulligan":
        return f"  {who} mulligans {event.amount} card(s)"
    if k == "game_over":
        reason = reason_words(str(data.get("reason")))
        return f"=== Game over: {'draw' if data.get('draw') else 'decided'} ({reason}) ==="
    if k == "scenario_loaded":
        return f"scenario loaded at round {event.amount}"
    if event.src or event.dst:
        return f"  {who} {k}: {c} ({event.src} -> {event.dst})"
    extra = f" {dict(data)}" if data else ""
    amount = f" {event.amount}" if event.amount is not None else ""
    return f"  {who} {k}{amount}{': ' + c if event.code else ''}{extra}".rstrip()


def optional_window(state: GuimiState, choice: tcgcore.Choice) -> tuple[str, bool] | None:
    """Auto-pass (a front-end setting, see ``docs/cli.md``): a quick-event window (074.8)
    may be passed with ``pass``; it offers something to play when it lists a quick event
    that can be activated. Other choices are not optional windows."""
    if choice.kind != "quick_event":
        return None
    return "pass", any(o.key != "pass" for o in choice.options)


#: why a card was revealed, in words (``reveal_top``'s reasons)
_REVEAL_WORDS = {"promotion_check": "promotion check", "attack_check": "attack check",
                 "damage_check": "damage check", "start": "the game starts"}

#: the phases and steps of a round as the log and the panel name them
_PHASE_WORDS = {"start": "start of the game", "setup": "setup", "draw": "draw phase",
                "revival": "revival phase", "main": "main phase", "end": "end phase",
                "promotion1": "promotion phase 1", "promotion2": "promotion phase 2",
                "promotion 1": "promotion phase 1", "promotion 2": "promotion phase 2",
                "battle": "battle phase", "damage": "damage step",
                "damage step": "damage step", "battle_end": "end of the battle",
                "battle end step": "end of the battle"}


def phase_words(phase: str) -> str:
    """A phase name of the state or of a ``phase`` event as words (``damage step``)."""
    return _PHASE_WORDS.get(phase, phase.replace("_", " "))


def _stats(state: GuimiState) -> dict[int, tuple[int, int]]:
    """Current strength and agility of every face-up character on the field (Beyonders in
    the unit zones and the Revival Beyonders), by instance id."""
    eng = cast("rules.Eng", _StateOnly(state))
    out: dict[int, tuple[int, int]] = {}
    for p in range(state.num_players):
        ids = [*state.zones[z("units", p)].cards, state.rb[p]]
        for cid in ids:
            if cid < 0 or state.cards[cid].face_down:
                continue
            d = cdef(eng, cid)
            if d.is_beyonder or cid == state.rb[p]:
                out[cid] = (strength(eng, cid), agility(eng, cid))
    return out


class _StateOnly:
    """What the strength rules read of an engine (its state), for the view's panel."""

    def __init__(self, state: GuimiState) -> None:
        self.state = state


def card_tags(view: View, card: tcgcore.CardView) -> list[str] | None:
    """A card's tags on the text board: a character's current strength and agility (from
    the view's ``stats`` panel), tapped, mad, cannot be hit, protected; never the names of
    the counters that hold them."""
    if card.id is None:
        return None
    stats = view.panel.get("stats", {}).get(str(card.id))
    tags = [f"strength {stats[0]}, agility {stats[1]}"] if stats else []
    if card.exhausted:
        tags.append("tapped")
    counters = card.counters
    for name, words in (("mad", "mad"), ("unhittable", "cannot be hit"),
                        ("protect", "protected"), ("no_act", "cannot act")):
        if counters.get(name):
            tags.append(words)
    if counters.get("bonus_dmg"):
        tags.append(f"+{counters['bonus_dmg']} damage")
    return tags


def mad_words(why: Any) -> str:
    """Why an RB went mad (112.1), in words for the log: ``face_down_<n>`` is the n-th
    face-down status card; an unknown reason is "a madness rule" (never the internal name)."""
    text = str(why)
    if text.startswith("face_down_") and text[10:].isdigit():
        return f"{text[10:]} face-down status cards"
    return _MAD_WORDS.get(text, "a madness rule")


#: the reasons of ``went_mad`` events (112.1, 113.4, 085.5), in words
_MAD_WORDS = {
    "three_in_damage_step": "3 or more corruption in one damage step",
    "face_down_at_or_above_5": "5 or more face-down status cards",
    "dead_corruption": "3 corruption while dead",
    "promotion_failed": "a failed promotion",
    "effect": "an effect",
}


#: what each effect op does, in words, for the event log ({n}: its amount)
_OP_WORDS = {
    "draw": "draw {n}", "heal": "move up to {n} face-down status card(s) to the Underworld",
    "strength": "a Beyonder gets +{n} strength", "weaken": "an opposing Beyonder gets -{n} "
    "strength", "corrupt": "the opposing Revival Beyonder receives {n} corruption",
    "madden": "the opposing Revival Beyonder goes mad", "untap": "untap own units",
    "destroy_item": "destroy an opposing item", "destroy_event": "destroy an opposing event",
    "revive": "revive the Revival Beyonder", "spirit_to_hand": "a Spirit World card to the hand",
    "recur": "return a Beyonder from the Underworld", "static_strength": "+{n} strength",
    "destroy_unit": "destroy an opposing Beyonder with strength {n} or less",
    "bounce": "return an opposing Beyonder with strength {n} or less to the hand",
    "tap_unit": "tap an opposing Beyonder", "shield": "a Beyonder cannot be hit",
    "search_potion": "search the deck for a potion", "search_beyonder": "search the deck for a "
    "Beyonder", "set_extra": "set an extra-deck card", "converge": "a card becomes a "
    "sequence-1 characteristic", "to_spirit": "this card becomes a characteristic",
    "source_trigger": "a Source trigger", "digest": "digest a characteristic",
    "seek": "search for the next sequence's Beyonder card", "madden_unit": "an opposing "
    "Beyonder goes mad",
}


def effect_words(op: Any, amount: Any) -> str:
    """An effect op and its amount as words for the log (people see words, not op names)."""
    words = _OP_WORDS.get(str(op))
    return words.format(n=amount) if words is not None else "an effect"


def _check_deck(text: str, source: str) -> list[str]:
    return check_deck_text(text, source)


def _check_deck_with(text: str, source: str, options: dict[str, Any]) -> list[str]:
    """A deck's problems against the options' ``pool`` (a designer's card file) and rules
    options; a pool that cannot be loaded is the one problem."""
    tcgcore.check_options(options, ("pool", *RULES_OPTION_NAMES), "guimi_revival")
    try:
        pool = get_pool(str(options.get("pool", "builtin")))
    except tcgcore.CardDataError as exc:
        return [str(exc)]
    return check_deck_text(text, source, parse_rules_options(options), pool)


spec.view_extra = view_extra
spec.view_fact = view_fact
spec.validate_state = validation.validate_state
spec.resume_steps = validation.RESUME_STEPS
spec.trigger_abilities = frozenset()  # Guimi resolves its abilities as steps, not core triggers
spec.describe_event = describe
spec.title = "Guimi Revival"
spec.zone_words = {"extra": "extra deck", "revival": "Revival Beyonder",
                   "stack": "characteristic stack", "units": "unit zone",
                   "spirit": "Spirit World", "status": "status zone",
                   "astral": "astral zone", "underworld": "Underworld"}
spec.optional_window = optional_window
spec.slot_names = {"units": SLOT_NAMES}
spec.card_tags = card_tags
spec.card_name = card_name
spec.card_text = card_text

spec.card_info = card_info
spec.table_layout = table_layout
spec.find_card = find_card
spec.render_panel = render_panel
spec.check_deck = _check_deck
spec.check_deck_with = _check_deck_with
spec.agents["heuristic"] = make_heuristic
spec.agents["random"] = make_random
spec.default_agent = "heuristic"
# determinisation and search hooks (tcgcore.determinize, the ismcts agent)
spec.sample_pool = search_hooks.sample_pool
spec.evaluate = search_hooks.evaluate
# the balance lab's card figures (tcgcore.balance)
spec.card_usage = card_usage


@tcgcore.hookimpl
def tcgcore_games() -> list[tcgcore.GameSpec[Any]]:
    """Register the game."""
    return [spec]
