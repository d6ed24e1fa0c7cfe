"""Campaign mode (劇本模式): the campaign log, trauma, experience and deck upgrades
carried between scenarios (rules A951–A956).

A :class:`Campaign` is a plain msgspec Struct; every function returns a new campaign
and leaves its argument unchanged. Playing the next scenario::

    opts = scenario_options(camp)
    match = tcgcore.new_match("arkham_card", seed=1, players=len(opts["investigators"]),
                              **opts)
    ...  # play it to the end
    camp = record_scenario(camp, match.result)
"""

from __future__ import annotations

from typing import Any

import msgspec

import tcgcore

from .cards import CardDef, card_pool, load_scenario
from .decks import option_allows

__all__ = [
    "Campaign",
    "CampaignInvestigator",
    "add_chaos_token",
    "available_investigators",
    "buy_card",
    "check_lost",
    "cross_out",
    "earn_story_asset",
    "has_entry",
    "new_campaign",
    "record_entry",
    "record_scenario",
    "replace_investigator",
    "scenario_options",
    "validate_deck",
]


class CampaignInvestigator(msgspec.Struct, kw_only=True):
    """One seat's investigator in the campaign log (A952.1).

    Attributes:
        code: investigator card code.
        deck: deck card codes (weaknesses included).
        xp: unspent experience (A955.3).
        physical, mental: trauma (A953).
        killed, insane: the investigator can no longer be used (A954.1).
        story: story assets earned (not counted in deck size, A956.5).
    """

    code: str
    deck: list[str]
    xp: int = 0
    physical: int = 0
    mental: int = 0
    killed: bool = False
    insane: bool = False
    story: list[str] = []


class Campaign(msgspec.Struct, kw_only=True):
    """The campaign log (A952).

    Attributes:
        difficulty: chosen once for the whole campaign (A951.2).
        investigators: one entry per seat.
        log: story entries recorded by resolutions (A952.1).
        crossed: entries crossed out (they count as absent, A952.2).
        chaos_add: tokens added to the chaos bag for the rest of the campaign (A957.1).
        played: ``"<scenario>:<resolution>"`` for each scenario played.
        retired: investigator codes that were killed or driven insane (A954.1).
        lost: the campaign is lost (A954.3).
    """

    difficulty: str = "standard"
    investigators: list[CampaignInvestigator] = []
    log: list[str] = []
    crossed: list[str] = []
    chaos_add: list[str] = []
    played: list[str] = []
    retired: list[str] = []
    lost: bool = False


def _deck_error(message: str) -> tcgcore.DeckError:
    return tcgcore.DeckError("arkham_card: campaign deck change refused", [message])


def _copy(c: Campaign) -> Campaign:
    return msgspec.convert(msgspec.to_builtins(c), Campaign)


def _def(code: str) -> CardDef:
    try:
        return card_pool()[code]
    except KeyError:
        raise _deck_error(f"arkham_card: unknown card code {code!r}") from None


def new_campaign(investigators: list[str], *, difficulty: str = "standard",
                 decks: list[list[str]] | None = None) -> Campaign:
    """Start a campaign; default decks come from the test scenario's starter decks.

    Raises:
        tcgcore.DeckError: unknown or repeated investigators.
    """
    if len(set(investigators)) != len(investigators) or not 1 <= len(investigators) <= 4:
        raise _deck_error("arkham_card: 1 to 4 different investigators")
    starter = load_scenario("test").decks
    invs = []
    for i, code in enumerate(investigators):
        if _def(code).type_code != "investigator":
            raise _deck_error(f"arkham_card: {code} is not an investigator")
        deck = list(decks[i]) if decks is not None else list(starter.get(code, ()))
        invs.append(CampaignInvestigator(code=code, deck=deck))
    return Campaign(difficulty=difficulty, investigators=invs)


def scenario_options(campaign: Campaign, scenario: str = "test") -> dict[str, Any]:
    """Match options for the next scenario: investigators, decks and trauma as starting
    damage and horror (A309.1, A953.2)."""
    invs = campaign.investigators
    return {
        "mode": "campaign",
        "scenario": scenario,
        "difficulty": campaign.difficulty,
        "investigators": [i.code for i in invs],
        "decks": [list(i.deck) + list(i.story) for i in invs],
        "trauma": [[i.physical, i.mental] for i in invs],
        "chaos_add": list(campaign.chaos_add),
        "log": [e for e in campaign.log if e not in campaign.crossed],  # A952.3
    }


def record_entry(campaign: Campaign, entry: str) -> Campaign:
    """Write a story entry into the campaign log (A952.1)."""
    c = _copy(campaign)
    if entry not in c.log:
        c.log.append(entry)
    return c


def cross_out(campaign: Campaign, entry: str) -> Campaign:
    """Cross an entry out: from then on it counts as absent (A952.2)."""
    c = _copy(campaign)
    if entry not in c.crossed:
        c.crossed.append(entry)
    return c


def has_entry(campaign: Campaign, entry: str) -> bool:
    """Whether the log holds ``entry`` and it is not crossed out (A952.2)."""
    return entry in campaign.log and entry not in campaign.crossed


def add_chaos_token(campaign: Campaign, token: str) -> Campaign:
    """Add a token to the chaos bag for the rest of the campaign (A957.1)."""
    c = _copy(campaign)
    c.chaos_add.append(token)
    return c


def record_scenario(campaign: Campaign, result: tcgcore.Result, *,
                    xp_bonus: int | None = None, scenario: str = "test") -> Campaign:
    """Apply a finished scenario: experience = victory display + resolution bonus for
    every investigator (A955.1, A955.2), trauma from defeats (A704), killed/insane when
    trauma reaches printed health/sanity (A953.3, A953.4).

    Args:
        result: the match result (its ``detail`` carries resolution, victory and the
            trauma each seat suffered).
        xp_bonus: overrides the scenario file's resolution bonus.
    """
    c = _copy(campaign)
    res = str(result.detail.get("resolution", "R-none"))
    bonus = xp_bonus
    if bonus is None:
        bonus = load_scenario(scenario).xp_bonus.get(res, 0)
    lead_bonus = load_scenario(scenario).lead_xp_bonus.get(res, 0) if xp_bonus is None else 0
    lead = result.detail.get("lead")
    earned = int(result.detail.get("victory", 0) or 0) + bonus
    c.played.append(f"{scenario}:{res}")
    sdef = load_scenario(scenario)
    written = str(result.detail.get("log", "") or "")
    entries = [e for e in written.split("; ") if e] if written else list(sdef.log.get(res, ()))
    for entry in entries:
        if entry not in c.log:
            c.log.append(entry)  # A952.1, A952.3
    for entry in str(result.detail.get("cross_out", "") or "").split("; "):
        if entry and entry not in c.crossed:
            c.crossed.append(entry)  # A952.2
    for token in str(result.detail.get("chaos_add", "") or "").split(","):
        if token:
            c.chaos_add.append(token)  # A957.1
    lead_seat = result.detail.get("lead")
    lead_idx = lead_seat if isinstance(lead_seat, int) and not isinstance(lead_seat, bool) \
        else 0
    if 0 <= lead_idx < len(c.investigators):
        lead_inv = c.investigators[lead_idx]
        kind = sdef.lead_trauma.get(res)
        if kind == "mental":
            lead_inv.mental += 1
        elif kind == "physical":
            lead_inv.physical += 1
    for s, inv in enumerate(c.investigators):
        kinds = [str(result.detail.get(f"trauma{s}", ""))]
        kinds += str(result.detail.get(f"extra_trauma{s}", "")).split(",")
        for trauma in kinds:
            if trauma == "physical":
                inv.physical += 1
            elif trauma == "mental":
                inv.mental += 1
            elif trauma == "killed":
                inv.killed = True  # a resolution kills directly (The Gathering R3)
        for code in str(result.detail.get(f"deck_add{s}", "") or "").split(","):
            if code:
                inv.deck.append(code)  # a weakness earned during the scenario (A956.8)
        d = _def(inv.code)
        if d.health is not None and inv.physical >= d.health:
            inv.killed = True
        if d.sanity is not None and inv.mental >= d.sanity:
            inv.insane = True
        if inv.killed or inv.insane:
            if inv.code not in c.retired:
                c.retired.append(inv.code)
            continue
        extra = lead_bonus if lead == s else 0
        inv.xp = max(0, inv.xp + max(0, earned + extra
                                     + int(result.detail.get(f"xp_adjust{s}", 0) or 0)))
    _earn_lead_story(c, sdef.lead_story.get(res, ()), lead_idx)
    return c


def _earn_lead_story(c: Campaign, codes: tuple[str, ...], lead: int) -> None:
    """Story assets a resolution gives the lead investigator (A216.2): if the lead was
    killed or driven insane, the first surviving investigator in seat order earns them
    instead; with nobody left, nobody does."""
    order = [lead] + [s for s in range(len(c.investigators)) if s != lead]
    alive = [s for s in order if 0 <= s < len(c.investigators)
             and not (c.investigators[s].killed or c.investigators[s].insane)]
    if not alive:
        return
    inv = c.investigators[alive[0]]
    for code in codes:
        if code not in inv.story:
            inv.story.append(code)


def earn_story_asset(campaign: Campaign, seat: int, code: str) -> Campaign:
    """Add a story asset earned in a scenario (e.g. Lita Chantler 01117) to an
    investigator: it goes into the deck but does not count toward deck size (A956.5)."""
    c = _copy(campaign)
    inv = c.investigators[seat]
    if code not in inv.story:
        inv.story.append(code)
    return c


def available_investigators(campaign: Campaign) -> list[str]:
    """Investigator codes not yet used in the campaign (A954.2). If a seat's investigator
    is killed or insane and this list is empty, the campaign is lost (A954.3)."""
    used = {i.code for i in campaign.investigators} | set(campaign.retired)
    return sorted(code for code, d in card_pool().items()
                  if d.type_code == "investigator" and code not in used)


def check_lost(campaign: Campaign) -> Campaign:
    """Mark the campaign lost when a retired investigator cannot be replaced (A954.3)."""
    c = _copy(campaign)
    if any(i.killed or i.insane for i in c.investigators) and not available_investigators(c):
        c.lost = True
    return c


def validate_deck(investigator: str, deck: list[str]) -> list[str]:
    """Deckbuilding problems of ``deck`` for ``investigator`` (A201.2, A201.3): the deck
    size without weaknesses, at most ``deck_limit`` (2; exceptional 1) copies per title,
    and the investigator's ``deck_options`` (allowed faction codes; empty = any).

    Returns:
        One line per problem (empty when the deck is legal).
    """
    inv = _def(investigator)
    problems: list[str] = []
    size = 0
    titles: dict[str, int] = {}
    for code in deck:
        d = card_pool().get(code)
        if d is None:
            problems.append(f"{code}: unknown card")
            continue
        if d.is_weakness() or d.encounter_code or code in inv.deck_requirements:
            continue  # weaknesses, signature and story cards do not count (A201.2, A956.5)
        size += 1
        titles[d.title] = titles.get(d.title, 0) + 1
        limit = 1 if d.exceptional else d.deck_limit
        if titles[d.title] == limit + 1:
            problems.append(f"{d.title}: more than {limit} copies")
        if not option_allows(inv, d):
            problems.append(f"{d.name} ({code}): faction {d.faction_code} not allowed")
    if size != inv.deck_size:
        problems.append(f"deck has {size} cards, {inv.name} needs {inv.deck_size}")
    return problems


def _level(d: CardDef) -> int:
    return d.xp or 0


def buy_card(campaign: Campaign, seat: int, add: str, remove: str | None = None) -> Campaign:
    """Spend experience on a card (A956).

    A card with the same title and a lower level already in the deck is upgraded: the
    lower copy is removed and the level difference paid (minimum 1). Otherwise the
    card costs its level (minimum 1) and ``remove`` names the card it replaces, so the
    deck size stays fixed (A956.3). Weaknesses cannot be removed (A956.4); at most 2
    copies of a title (A956.6).

    Raises:
        tcgcore.DeckError: not enough experience, an illegal removal, or too many copies.
    """
    c = _copy(campaign)
    inv = c.investigators[seat]
    new = _def(add)
    lower = [code for code in inv.deck if _def(code).title == new.title
             and _level(_def(code)) < _level(new)]
    if lower and remove is None:
        old = max(lower, key=lambda code: _level(_def(code)))
        cost = max(1, _level(new) - _level(_def(old)))
        out = old
    else:
        if remove is None:
            raise _deck_error("arkham_card: name the card to remove (deck size is fixed)")
        if remove not in inv.deck:
            raise _deck_error(f"arkham_card: {remove} is not in the deck")
        if _def(remove).is_weakness():
            raise _deck_error("arkham_card: weaknesses cannot be removed")
        cost = max(1, _level(new))
        out = remove
    if cost > inv.xp:
        raise _deck_error(f"arkham_card: {add} costs {cost} experience, "
                                f"{inv.xp} unspent")
    deck = list(inv.deck)
    deck.remove(out)
    if sum(1 for code in deck if _def(code).title == new.title) >= 2:
        raise _deck_error(f"arkham_card: at most 2 copies of {new.title}")
    deck.append(add)
    inv.deck = deck
    inv.xp -= cost
    return c


def replace_investigator(campaign: Campaign, seat: int, code: str,
                         deck: list[str] | None = None) -> Campaign:
    """Replace a killed or insane investigator with a new one: a level-0 deck, 0
    experience and no trauma (A954.2).

    Raises:
        tcgcore.DeckError: the old investigator can still play, the new one was used
            before, or the deck has cards above level 0.
    """
    c = _copy(campaign)
    old = c.investigators[seat]
    if not (old.killed or old.insane):
        raise _deck_error("arkham_card: only a killed or insane investigator is replaced")
    used = {i.code for i in c.investigators} | set(c.retired)
    if code in used:
        raise _deck_error(f"arkham_card: {code} was already used in this campaign")
    cards = list(deck) if deck is not None else list(load_scenario("test").decks.get(code, ()))
    if any(_level(_def(x)) > 0 for x in cards):
        raise _deck_error("arkham_card: a replacement deck holds only level-0 cards")
    c.investigators[seat] = CampaignInvestigator(code=code, deck=cards)
    return c
