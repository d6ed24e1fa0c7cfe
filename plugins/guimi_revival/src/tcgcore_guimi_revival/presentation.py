"""The card catalogue of Guimi Revival (``GameSpec.card_info``): names and text from the card
data, in Chinese (the designer's Simplified Chinese, for both Chinese interfaces: the data has
no Traditional text) or in English."""

from __future__ import annotations

from typing import Any

import tcgcore

from .cards import get_pool, load_pathways

__all__ = ["card_info", "table_layout"]

_TYPE_ZH = {"revival_beyonder": "复苏非凡者", "beyonder": "非凡者", "item": "物品", "event": "事件"}


def card_info(code: str, lang: str, full_text: str = "") -> tcgcore.CardInfo | None:
    """A built-in card as people read it: name, type, rank, strength and agility, sequence and
    its text in ``lang`` (``zh_Hans``/``zh_Hant``: the Chinese data; otherwise English); the full
    rules text ``full_text`` (the plugin's ``card_text``) follows in English."""
    d = get_pool("builtin").cards.get(code)
    if d is None:
        return None
    zh = lang.startswith("zh")
    stats: dict[str, str] = {}
    if d.card_type in ("beyonder", "revival_beyonder"):
        stats["strength"] = str(d.strength)
        stats["agility"] = str(d.agility)
    if d.sequence is not None:
        stats["sequence"] = str(d.sequence)
    if d.rank is not None:
        stats["rank"] = str(d.rank)
    if d.grade is not None:
        stats["grade"] = str(d.grade)
    own = (d.text_zh or d.text_en) if zh else (d.text_en or d.text_zh)
    full = full_text
    return tcgcore.CardInfo(
        code=code, name=d.name_zh if zh else d.name_en,
        type=_TYPE_ZH.get(d.card_type, d.card_type) if zh else d.card_type.replace("_", " "),
        stats=stats, text="\n".join(t for t in (own, full) if t),
        lang="zh_Hans" if zh else "en")


# ----------------------------------------------------------------------------- table layout


def N_(word: str) -> str:
    """Mark an interface word for the catalogues (``pybabel extract -k N_``); the front end
    translates it."""
    return word


#: words the layout takes from the panel (the phases' names, ``plugin.phase_words``), marked
#: for the catalogues
PHASE_WORDS = (N_("start of the game"), N_("setup"), N_("draw phase"), N_("revival phase"),
               N_("main phase"), N_("end phase"), N_("promotion phase 1"),
               N_("promotion phase 2"), N_("battle phase"), N_("damage step"),
               N_("end of the battle"))

#: a unit's counters shown as state words (``plugin.card_tags`` reads the same)
_MARKS = (("mad", N_("mad")), ("unhittable", N_("cannot be hit")),
          ("protect", N_("protected")), ("no_act", N_("cannot act")))


def _slot(view: tcgcore.View, zone: tcgcore.ZoneView | None, index: int | None,
          card: tcgcore.CardView | None, name: str = "") -> tcgcore.Slot:
    """One card place of the layout: the card (if the viewer may identify it) with its
    current strength and agility from the view's ``stats`` panel."""
    zone_id = zone.id if zone is not None else ""
    if card is None:
        return tcgcore.Slot(zone=zone_id, slot=index, name=name)
    if card.code is None or card.id is None:
        return tcgcore.Slot(zone=zone_id, slot=index, name=name, face_down=True)
    facts: list[tcgcore.Cell] = []
    stats = view.panel.get("stats", {}).get(str(card.id))
    if stats:
        facts = [tcgcore.Cell(label=N_("strength"), value=stats[0]),
                 tcgcore.Cell(label=N_("agility"), value=stats[1])]
    marks = [N_("tapped")] if card.exhausted else []
    marks += [word for counter, word in _MARKS if card.counters.get(counter)]
    if card.face_down:
        marks.append(N_("face down"))
    return tcgcore.Slot(card=card.id, code=card.code, zone=zone_id, slot=index, name=name,
                        facts=facts, marks=marks)


def _pathway(code: Any) -> str:
    """A pathway's names, English then Chinese (as ``card_name`` names cards); "—" for none."""
    pw = load_pathways().pathways.get(str(code)) if code else None
    return f"{pw.name_en} ({pw.name_zh})" if pw is not None else str(code or "—")


def table_layout(view: tcgcore.View) -> list[tcgcore.Block] | None:
    """The Guimi table (``GameSpec.table_layout``), from the view only: round, phase and
    whose turn; per seat its front row (F1, F2) and back row (B1, B2) with each unit's current
    strength and agility (the rules' own stat functions, through the panel's ``stats``), the
    Revival Beyonder, the Spirit World, the status zone and the characteristic stack (cards the
    viewer may not identify as backs); then a table of each seat's sequence, pathway,
    corruption, stack, counts and state. ``None`` before the panel exists."""
    from .rules import SLOT_NAMES

    panel = view.panel
    players = panel.get("players")
    if not players:
        return None
    zones = {zv.id: zv for zv in view.zones}
    turn = panel.get("turn_player")
    head = tcgcore.TextBlock(
        text=N_("Round {round}, {phase}"),
        args={"round": tcgcore.Cell(value=panel.get("round")),
              "phase": tcgcore.Cell(word=str(panel.get("phase_name", "")))},
        cells=[tcgcore.Cell(label=N_("turn"), seat=turn) if turn is not None
               else tcgcore.Cell(word=N_("battle (no turn player)"))])
    blocks: list[tcgcore.Block] = [head]
    for p in range(len(players)):
        units = zones.get(f"units.{p}")
        cards = list(units.cards) if units is not None else []
        cards += [None] * (len(SLOT_NAMES) - len(cards))
        for title, first in ((N_("front row"), 0), (N_("back row"), 2)):
            blocks.append(tcgcore.CardsBlock(title=title, owner=p, slots=[
                _slot(view, units, s, cards[s], SLOT_NAMES[s]) for s in (first, first + 1)]))
        for kind, title in (("revival", N_("Revival Beyonder")), ("spirit", N_("Spirit World")),
                            ("status", N_("status zone")),
                            ("stack", N_("characteristic stack"))):
            zone = zones.get(f"{kind}.{p}")
            shown = list(zone.cards) if zone is not None else []
            blocks.append(tcgcore.CardsBlock(title=title, owner=p, slots=[
                _slot(view, zone, i, c) for i, c in enumerate(shown)]))

    def row(label: str, fact: Any) -> tcgcore.TableRow:
        return tcgcore.TableRow(label=label, cells=[fact(q) for q in players])

    blocks.append(tcgcore.TableBlock(
        title=N_("players"), columns=[tcgcore.Cell(seat=p) for p in range(len(players))],
        rows=[
            row(N_("pathway"), lambda q: tcgcore.Cell(value=_pathway(q.get("pathway")))),
            row(N_("sequence"), lambda q: tcgcore.Cell(value=q.get("sequence"))),
            row(N_("corruption"), lambda q: tcgcore.Cell(
                value=str(q.get("corruption")) + (f" (+{q['step_corruption']})"
                                                  if q.get("step_corruption") else ""))),
            row(N_("characteristic stack"), lambda q: tcgcore.Cell(
                value=f"{q.get('digested')}/{q.get('stack')}", label=N_("digested"))),
            row(N_("Spirit World"), lambda q: tcgcore.Cell(value=f"{q.get('spirit_world')}/7")),
            row(N_("status zone"), lambda q: tcgcore.Cell(value=f"{q.get('status')}/7")),
            row(N_("face-down status cards"), lambda q: tcgcore.Cell(
                value=q.get("status_face_down"))),
            row(N_("hand"), lambda q: tcgcore.Cell(value=q.get("hand"))),
            row(N_("deck"), lambda q: tcgcore.Cell(value=q.get("deck"))),
            row(N_("extra"), lambda q: tcgcore.Cell(value=q.get("extra"))),
            *[row(word, lambda q, key=key: tcgcore.Cell(word=N_("yes") if q.get(key) else "—",
                                                        mark=key if q.get(key) else ""))
              for key, word in (("mad", N_("mad")), ("dead", N_("dead")),
                                ("slumbering", N_("slumbering")))
              if any(q.get(key) for q in players)]]))
    return blocks
