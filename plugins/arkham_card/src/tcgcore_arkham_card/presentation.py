"""The card catalogue of Arkham Horror: The Card Game (``GameSpec.card_info``): cost, skill
icons, printed numbers (health and sanity, an enemy's fight, health, evade, damage and horror,
a location's shroud and clues, doom) and the card's text, in English, with the Chinese names
the rules summary gives in Traditional Chinese; and the table layout
(``GameSpec.table_layout``) drawn from a seat's view."""

from __future__ import annotations

import tcgcore

from .cards import card_pool

__all__ = ["card_info", "table_layout"]

_ICONS = (("skill_willpower", "willpower"), ("skill_intellect", "intellect"),
          ("skill_combat", "combat"), ("skill_agility", "agility"), ("skill_wild", "wild"))


#: Traditional Chinese names of the cards the rules summary names in Chinese (its tables of
#: investigators, locations and encounter cards); any other card keeps its English name
NAMES_ZH_HANT = {
    "01001": "羅蘭·班克斯", "01002": "黛西·沃克", "01003": "\u201c倒霉蛋\u201d奧圖爾",
    "01004": "艾格尼絲·貝克", "01005": "溫蒂·亞當斯", "01111": "書房", "01112": "走廊",
    "01113": "閣樓", "01114": "地窖", "01115": "客廳", "01116": "食屍鬼祭司",
    "01117": "麗塔·錢德勒", "01118": "食肉者", "01119": "冰封食屍鬼", "01159": "鼠群",
    "01160": "食屍鬼爪牙", "01161": "飢餓的食屍鬼", "01162": "攫噬之手", "01163": "腐爛的屍體",
    "01164": "呆若木雞", "01165": "刺耳之聲", "01166": "遠古惡魔", "01167": "地窖寒風",
    "01168": "朦朧之霧",
}


def card_info(code: str, lang: str, full_text: str = "") -> tcgcore.CardInfo | None:
    """A card of the pool as people read it (``None`` for an unknown code); ``full_text``:
    its whole text as the plugin writes it (``plugin.card_text``), shown as the text. In
    ``zh_Hant`` a card of :data:`NAMES_ZH_HANT` has its Chinese name (its English name
    leads the text); the text stays English."""
    d = card_pool().get(code)
    if d is None:
        return None
    stats: dict[str, str] = {}
    numbers: tuple[tuple[str, int | None], ...] = (
        ("fight", d.enemy_fight), ("health", d.health), ("evade", d.enemy_evade),
        ("sanity", d.sanity), ("shroud", d.shroud), ("clues", d.clues), ("doom", d.doom),
        ("xp", d.xp))
    for label, value in numbers:
        if value is not None:
            stats[label] = str(value) + ("/investigator" if label == "health" and
                                         d.health_per_investigator else "")
    if d.type_code == "enemy":
        stats["damage"] = str(d.enemy_damage)
        stats["horror"] = str(d.enemy_horror)
    icons = [word for field, word in _ICONS for _ in range(getattr(d, field))]
    name = d.name + (f": {d.subname}" if d.subname else "")
    zh = NAMES_ZH_HANT.get(code) if lang == "zh_Hant" else None
    return tcgcore.CardInfo(
        code=code, name=zh or name, type=d.type_code,
        cost=None if d.cost is None else str(d.cost), stats=stats, icons=icons,
        text=f"{name}\n{full_text}" if zh else full_text, lang="zh_Hant" if zh else "en")


# ----------------------------------------------------------------------------- table layout


def N_(word: str) -> str:
    """Mark an interface word for the catalogues (``pybabel extract -k N_``); the front end
    translates it."""
    return word


#: words the layout takes from the panel (phases, skills, chaos tokens), marked for the
#: catalogues; the Traditional Chinese words are those of the rules summary
PANEL_WORDS = (N_("mythos"), N_("investigation"), N_("enemy"), N_("upkeep"),
               N_("willpower"), N_("intellect"), N_("combat"), N_("agility"),
               N_("skull"), N_("cultist"), N_("tablet"), N_("elder sign"), N_("auto fail"),
               N_("investigate"), N_("fight"), N_("evade"))


def _enemy(view: tcgcore.View, alias: int) -> tcgcore.Slot | None:
    """An enemy of the panel as a card place: its printed fight, evade, damage and horror,
    its health with the damage on it, doom, exhausted and whom it is engaged with."""
    e = view.panel.get("enemies", {}).get(str(alias))
    if e is None:
        return None
    d = card_pool().get(str(e.get("code")))
    health = int(e.get("health", 0))
    facts = [tcgcore.Cell(label=N_("fight"), value=d.enemy_fight if d is not None else "?"),
             tcgcore.Cell(label=N_("health"), value=f"{health - int(e.get('damage', 0))}/{health}"),
             tcgcore.Cell(label=N_("evade"), value=d.enemy_evade if d is not None else "?"),
             tcgcore.Cell(label=N_("damage"), value=d.enemy_damage if d is not None else "?"),
             tcgcore.Cell(label=N_("horror"), value=d.enemy_horror if d is not None else "?")]
    if e.get("doom"):
        facts.append(tcgcore.Cell(label=N_("doom"), value=e["doom"]))
    engaged = e.get("engaged")
    if isinstance(engaged, int) and engaged >= 0:
        facts.append(tcgcore.Cell(label=N_("engaged with"), seat=engaged))
    return tcgcore.Slot(card=alias, code=str(e.get("code")), facts=facts,
                        marks=[N_("exhausted")] if e.get("exhausted") else [])


def _engaged(view: tcgcore.View, alias: int) -> bool:
    engaged = view.panel.get("enemies", {}).get(str(alias), {}).get("engaged")
    return isinstance(engaged, int) and engaged >= 0


def table_layout(view: tcgcore.View) -> list[tcgcore.Block] | None:
    """The Arkham table (``GameSpec.table_layout``), from the view only: round and phase;
    the skill test with its running total; the agenda with doom against its threshold and the
    act with the group's clues against what it needs; the locations as a map with their
    connections (shroud, clues, who is there, enemies with fight, health, evade, damage and
    horror); each investigator's numbers and threat area; the chaos bag. ``None`` before
    the investigators are chosen (an empty panel)."""
    panel = view.panel
    if not panel.get("locations") and not panel.get("investigators"):
        return None
    blocks: list[tcgcore.Block] = [tcgcore.TextBlock(
        text=N_("Round {round}, {phase} phase"),
        args={"round": tcgcore.Cell(value=panel.get("round")),
              "phase": tcgcore.Cell(word=str(panel.get("phase", "")))})]
    test = panel.get("test")
    if test and test.get("skill"):
        base, bonus = int(test.get("base", 0)), int(test.get("value", 0))
        tokens = [str(t).replace("_", " ") for t in test.get("tokens", [])]
        blocks.append(tcgcore.TextBlock(
            title=N_("skill test"),
            text=N_("{skill} test of {who} against {difficulty}: {base} before the chaos token"),
            args={"skill": tcgcore.Cell(word=str(test["skill"])),
                  "who": tcgcore.Cell(seat=test.get("seat")),
                  "difficulty": tcgcore.Cell(value=test.get("difficulty")),
                  "base": tcgcore.Cell(value=base)},
            cells=[tcgcore.Cell(label=N_("chaos token"), word=t) for t in tokens]
            + ([tcgcore.Cell(label=N_("total"), value=bonus, mark="total")] if tokens else [])
            + [tcgcore.Cell(label=N_("committed"), card=c) for c in test.get("committed", [])]))
    ag, act = panel.get("agenda") or {}, panel.get("act") or {}
    blocks.append(tcgcore.CardsBlock(title=N_("act and agenda"), slots=[
        tcgcore.Slot(code=ag.get("code"), name=N_("agenda"), facts=[tcgcore.Cell(
            label=N_("doom"), value=f"{ag.get('doom_in_play', 0)}/{ag.get('threshold', '?')}")]),
        tcgcore.Slot(code=act.get("code"), name=N_("act"), facts=[tcgcore.Cell(
            label=N_("clues"),
            value=f"{act.get('group_clues', 0)}/{act.get('clues_needed') or '—'}")])]))
    nodes, edges = [], []
    for loc in panel.get("locations", []):
        lid = int(loc["id"])
        facts = ([tcgcore.Cell(label=N_("shroud"), value=loc.get("shroud")),
                  tcgcore.Cell(label=N_("clues"), value=loc.get("clues"))]
                 if loc.get("revealed") else [])
        enemies = [s for s in (_enemy(view, int(e)) for e in loc.get("enemies", [])
                               if not _engaged(view, int(e))) if s]  # engaged: threat areas
        nodes.append(tcgcore.MapNode(id=lid, code=loc.get("code"), facts=facts, cards=enemies,
                                     seats=list(loc.get("investigators", [])),
                                     marks=[] if loc.get("revealed") else [N_("unrevealed")]))
        edges += [(lid, int(c)) for c in loc.get("connections", []) if (int(c), lid) not in edges]
    blocks.append(tcgcore.MapBlock(title=N_("locations"), nodes=nodes, edges=edges))
    zones = {zv.id: zv for zv in view.zones}
    for inv in panel.get("investigators", []):
        s = int(inv["seat"])
        blocks.append(tcgcore.TextBlock(
            title=N_("investigator"), owner=s, cells=[
                tcgcore.Cell(code=inv.get("code")),
                tcgcore.Cell(label=N_("resources"), value=inv.get("resources")),
                tcgcore.Cell(label=N_("clues"), value=inv.get("clues")),
                tcgcore.Cell(label=N_("damage"), value=f"{inv.get('damage')}/{inv.get('health')}"),
                tcgcore.Cell(label=N_("horror"), value=f"{inv.get('horror')}/{inv.get('sanity')}"),
                tcgcore.Cell(label=N_("actions"), value=inv.get("actions")),
                *[tcgcore.Cell(label=k, value=v) for k, v in (inv.get("skills") or {}).items()],
                *([tcgcore.Cell(word=str(inv["status"]), mark=str(inv["status"]))]
                  if inv.get("status") else [])]))
        threat = zones.get(f"threat.{s}")
        slots: list[tcgcore.Slot] = []
        for c in (threat.cards if threat is not None else []):
            if c is None or c.id is None:
                continue
            slots.append(_enemy(view, c.id) or tcgcore.Slot(
                card=c.id, code=c.code, marks=[N_("exhausted")] if c.exhausted else []))
        blocks.append(tcgcore.CardsBlock(title=N_("threat area"), owner=s, slots=slots))
    bag = panel.get("chaos_bag") or {}
    blocks.append(tcgcore.TextBlock(title=N_("chaos bag"), cells=[
        tcgcore.Cell(word=str(t).replace("_", " "), value=f"×{n}" if n > 1 else None)
        for t, n in bag.items()]))
    return blocks
