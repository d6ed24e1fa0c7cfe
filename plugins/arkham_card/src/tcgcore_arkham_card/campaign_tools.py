"""Campaign state files, the AI deck-upgrade policy and ArkhamDB deck export
(rules A979).

A campaign state file is JSON: a versioned envelope around :class:`Campaign` plus the
scenarios still to play, so a campaign can be saved between scenarios and resumed::

    data = save_campaign(camp, remaining=["01120", "01142"])
    camp, remaining = load_campaign(data)
"""

from __future__ import annotations

import json

import msgspec

import tcgcore

from .campaign import Campaign, buy_card
from .cards import CardDef, card_pool
from .decks import option_allows

__all__ = [
    "CAMPAIGN_FORMAT",
    "CAMPAIGN_VERSION",
    "CampaignFile",
    "campaign_problems",
    "export_deck",
    "load_campaign",
    "load_campaign_file",
    "save_campaign",
    "upgrade_policy",
]

#: The ``format`` field of every campaign state file.
CAMPAIGN_FORMAT = "tcgcore-arkham-campaign"
#: The file version this module writes and reads (A979.1).
CAMPAIGN_VERSION = 1


class CampaignFile(msgspec.Struct, kw_only=True):
    """A saved campaign (A979.1).

    Attributes:
        format: always :data:`CAMPAIGN_FORMAT`.
        version: :data:`CAMPAIGN_VERSION`.
        campaign: the campaign log, decks, trauma and experience.
        remaining: codes of the scenarios still to play, in order.
        match: a scenario in progress (the first of ``remaining``), as the match's own
            JSON save (:meth:`tcgcore.Match.to_json`); ``""`` between scenarios.
        seed: the campaign seed (match seeds and AI seeds derive from it), so a resumed
            campaign plays on as the uninterrupted one would.
        humans: the seats people play; a resumed campaign keeps them.
    """

    format: str = CAMPAIGN_FORMAT
    version: int = CAMPAIGN_VERSION
    campaign: Campaign
    remaining: list[str] = []
    match: str = ""
    seed: int = 1
    humans: list[int] = []


def save_campaign(campaign: Campaign, remaining: list[str] | None = None,
                  match: str = "", *, seed: int = 1, humans: list[int] | None = None) -> bytes:
    """The campaign as a state file (JSON bytes, A979.1); ``match`` is the JSON save of
    a scenario in progress, ``seed`` the campaign seed and ``humans`` the human seats."""
    return msgspec.json.encode(CampaignFile(campaign=campaign, remaining=list(remaining or ()),
                                            match=match, seed=seed,
                                            humans=sorted(set(humans or ()))))


#: Scenario codes a campaign file may list, by campaign, in play order.
_SCENARIO_ORDER = ("01104", "01120", "01142")


def campaign_problems(f: CampaignFile) -> list[str]:
    """What is wrong with a decoded campaign file (A979.1): 1 to 4 different
    investigators, each an investigator card with known deck codes, no negative
    experience or trauma, remaining scenarios that are known and in campaign order,
    human seats inside the campaign. Returns one line per problem (empty when sound)."""
    problems: list[str] = []
    pool = card_pool()
    invs = f.campaign.investigators
    if not 1 <= len(invs) <= 4:
        problems.append(f"campaign.investigators: 1 to 4 investigators, not {len(invs)}")
    codes = [i.code for i in invs]
    if len(set(codes)) != len(codes):
        problems.append("campaign.investigators: an investigator appears twice")
    for s, inv in enumerate(invs):
        where = f"campaign.investigators[{s}]"
        d = pool.get(inv.code)
        if d is None or d.type_code != "investigator":
            problems.append(f"{where}.code: {inv.code!r} is not an investigator card")
        for field in ("xp", "physical", "mental"):
            if getattr(inv, field) < 0:
                problems.append(f"{where}.{field}: must not be negative")
        unknown = sorted({c for c in [*inv.deck, *inv.story] if c not in pool})
        if unknown:
            problems.append(f"{where}.deck: unknown card code(s) {', '.join(unknown)}")
    known = [c for c in f.remaining if c in _SCENARIO_ORDER]
    if len(known) != len(f.remaining):
        bad = [c for c in f.remaining if c not in _SCENARIO_ORDER]
        problems.append(f"remaining: unknown scenario(s) {', '.join(bad)} "
                        f"(known: {', '.join(_SCENARIO_ORDER)})")
    elif [_SCENARIO_ORDER.index(c) for c in known] != sorted(
            _SCENARIO_ORDER.index(c) for c in set(known)):
        problems.append("remaining: scenarios must be listed once each, in campaign order")
    if f.match and not f.remaining:
        problems.append("match: a scenario in progress but no scenario remaining")
    bad_seats = [h for h in f.humans if not 0 <= h < len(invs)]
    if bad_seats:
        problems.append(f"humans: seat(s) {bad_seats} not in the campaign")
    return problems


def load_campaign_file(data: bytes | str) -> CampaignFile:
    """Read a campaign state file, with any scenario in progress.

    Raises:
        tcgcore.OptionsError: not a campaign file, another version, or malformed.
    """
    try:
        raw = msgspec.json.decode(data)
    except msgspec.DecodeError as exc:
        raise tcgcore.OptionsError(f"arkham_card: campaign file is not JSON: {exc}") from None
    if not isinstance(raw, dict) or raw.get("format") != CAMPAIGN_FORMAT:
        raise tcgcore.OptionsError("arkham_card: not an arkham_card campaign file")
    if raw.get("version") != CAMPAIGN_VERSION:
        raise tcgcore.OptionsError(
            f"arkham_card: campaign file version {raw.get('version')!r} is not supported "
            f"(this engine reads version {CAMPAIGN_VERSION})")
    if "campaign" in raw and (not isinstance(raw["campaign"], dict)
                              or "investigators" not in raw["campaign"]):
        raise tcgcore.OptionsError("arkham_card: bad campaign file: campaign.investigators "
                                   "is missing")
    try:
        f = msgspec.convert(raw, CampaignFile)
    except msgspec.ValidationError as exc:
        raise tcgcore.OptionsError(f"arkham_card: bad campaign file: {exc}") from None
    problems = campaign_problems(f)
    if problems:
        raise tcgcore.OptionsError("arkham_card: bad campaign file: " + "; ".join(problems))
    return f


def load_campaign(data: bytes | str) -> tuple[Campaign, list[str]]:
    """Read a campaign state file: the campaign and the scenarios still to play.

    Raises:
        tcgcore.OptionsError: not a campaign file, another version, or malformed.
    """
    f = load_campaign_file(data)
    return f.campaign, list(f.remaining)


def export_deck(campaign: Campaign, seat: int, *, name: str = "") -> str:
    """The seat's current deck as ArkhamDB deck JSON (A979.3): ``investigator_code``,
    ``slots`` (story assets included), ``xp`` (unspent experience) and ``name``."""
    inv = campaign.investigators[seat]
    slots: dict[str, int] = {}
    for code in [*inv.deck, *inv.story]:
        slots[code] = slots.get(code, 0) + 1
    d = card_pool()[inv.code]
    out = {"name": name or f"{d.name} (campaign)", "investigator_code": inv.code,
           "slots": dict(sorted(slots.items())), "sideSlots": [], "xp": inv.xp,
           "meta": json.dumps({"physical_trauma": inv.physical,
                               "mental_trauma": inv.mental})}
    return json.dumps(out, indent=1, ensure_ascii=False)


def _level(d: CardDef) -> int:
    return d.xp or 0


def _removable(inv_def: CardDef, d: CardDef, code: str) -> bool:
    return not d.is_weakness() and not d.restrictions and not d.encounter_code and \
        code not in inv_def.deck_requirements


def _purchases(campaign: Campaign, seat: int) -> list[tuple[int, int, str, str | None]]:
    """Legal purchases as (priority, cost, add, remove) — see A979.2."""
    pool = card_pool()
    inv = campaign.investigators[seat]
    idef = pool[inv.code]
    deck = [c for c in inv.deck if c in pool]  # "01000" (a random weakness) is skipped
    titles: dict[str, int] = {}
    for code in deck:
        titles[pool[code].title] = titles.get(pool[code].title, 0) + 1
    out: list[tuple[int, int, str, str | None]] = []
    xp_cards = sorted((c for c, d in pool.items() if (d.xp or 0) > 0 and not c.startswith("t")
                       and option_allows(idef, d) and not d.restrictions), key=str)
    for code in xp_cards:
        d = pool[code]
        lower = [c for c in deck if pool[c].title == d.title and
                 _level(pool[c]) < _level(d)]
        if lower:  # an upgrade of a copy already in the deck
            old = max(lower, key=lambda c: (_level(pool[c]), c))
            cost = max(1, _level(d) - _level(pool[old]))
            out.append((0, cost, code, None))
            continue
        if titles.get(d.title, 0) >= 2 or (d.is_unique and titles.get(d.title, 0) >= 1):
            continue
        # a new card replaces the level-0 card of the lowest printed cost
        repl = sorted((c for c in deck if _level(pool[c]) == 0 and
                       _removable(idef, pool[c], c) and pool[c].type_code != "skill"),
                      key=lambda c: (pool[c].cost or 0, c))
        if not repl:
            continue
        out.append((1, max(1, _level(d)), code, repl[0]))
    return out


def upgrade_policy(campaign: Campaign, seat: int) -> Campaign:
    """The AI's deck upgrade step (A979.2): while experience allows, first upgrade a card
    already in the deck to a higher level of the same title (the cheapest upgrade first,
    ties by code), otherwise buy the highest-level affordable card the investigator may
    take, replacing the cheapest level-0 asset or event (ties by code). Deterministic."""
    c = campaign
    for _ in range(40):
        inv = c.investigators[seat]
        if inv.killed or inv.insane:
            return c
        options = [p for p in _purchases(c, seat) if p[1] <= inv.xp]
        if not options:
            return c
        options.sort(key=lambda p: (p[0], p[1] if p[0] == 0 else -p[1], p[2]))
        _, _, add, remove = options[0]
        try:
            c = buy_card(c, seat, add, remove)
        except tcgcore.DeckError:  # e.g. an unresolved "01000" in the deck
            return c
    return c
