"""The arkham_card rules engine: helpers, the :data:`spec` and the round structure.

The engine is split by concept; this module is the hub the others import from:

* :mod:`.rules` (here): state queries (card definitions, locations, enemies, skills,
  doom), setup flow (mulligan), rounds and the mythos phase (encounter draws, spawn,
  engagement), upkeep and the end of the round, acts and agendas, triggered abilities
  (collector and resolver for the core's trigger windows, ordered by the lead);
* :mod:`.actions`: the investigation phase (turn order, actions, attacks of
  opportunity, play, activate);
* :mod:`.skill_tests`: skill tests ST.1–ST.8 (commit, windows, tokens, results);
* :mod:`.effects`: the effect language (:class:`~tcgcore_arkham_card.cards.Effect` ops);
* :mod:`.enemies`: damage, defeat and elimination; enemy attacks and the enemy phase
  (hunter, patrol, elusive, massive).

Every piece of pending work is a tagged :mod:`~tcgcore_arkham_card.state` step; every
decision is an ``eng.ask`` whose resume step reads ``eng.answer``. Rule numbers in
comments refer to ``docs/arkham_card/rules.md`` (A-numbers).
"""

from __future__ import annotations

from collections import deque
from typing import Any, Final, Literal

import msgspec

import tcgcore
from tcgcore import Engine, Event, Option, Trigger

from .cards import SKILLS, Ability, CardDef, Effect, TokenEffect, card_pool, load_scenario
from .state import (
    AdvanceAct,
    AdvanceAgenda,
    ArkhamState,
    BeginRound,
    ChooseEnemyAnswer,
    DiscoverClues,
    DoDraw,
    DrawEncounter,
    Effects,
    EncounterDraws,
    EndPeril,
    EndRound,
    EngageAnswer,
    EngageCheck,
    FinishTreachery,
    GainedSurge,
    HandSize,
    HandSizeAnswer,
    Harm,
    InvestigationPhase,
    Mulligan,
    MulliganAnswer,
    MythosPhase,
    ObjectiveAnswer,
    ResolveEncounter,
    RoundEndObjective,
    SpawnAnswer,
    SpawnAt,
    SpendCluesAnswer,
    UpkeepPhase,
)

GAME: Final = "arkham_card"
HAND_SIZE: Final = 8
#: Safety bound on chained surge draws (an encounter deck made only of surge cards would
#: otherwise never stop); far above anything a real deck produces.
MAX_SURGE: Final = 30
SLOT_LIMITS: Final[dict[str, int]] = {"hand": 2, "arcane": 2, "accessory": 1, "body": 1, "ally": 1}
Eng = Engine[ArkhamState]

# ============================================================================ helpers


_POOL: Final = card_pool()


class ZoneKeys(dict[int, str]):
    """Zone ids of one kind by number, e.g. ``Z_AT[12] == "at.12"``, each string built
    once (with its hash) instead of formatted anew for every lookup."""

    def __init__(self, prefix: str) -> None:
        super().__init__()
        self.prefix = prefix

    def __missing__(self, n: int) -> str:
        key = self[n] = f"{self.prefix}{n}"
        return key


#: Per-seat zone ids (``Z_PLAY[seat] == f"play.{seat}"``), plain dicts for the fastest
#: lookup; a seat outside them raises KeyError as the zone lookup itself would.
_SEATS: Final = range(64)
Z_PLAY: Final = {s: f"play.{s}" for s in _SEATS}
Z_HAND: Final = {s: f"hand.{s}" for s in _SEATS}
Z_THREAT: Final = {s: f"threat.{s}" for s in _SEATS}
Z_DISCARD: Final = {s: f"discard.{s}" for s in _SEATS}
Z_DECK: Final = {s: f"deck.{s}" for s in _SEATS}
#: Zone ids of the areas at locations, by location card id (any number).
Z_AT: Final = ZoneKeys("at.")


def cdef(state: ArkhamState, code: str) -> CardDef:
    """The definition of ``code`` (scenario-supplied definitions first).

    Raises:
        KeyError: unknown code.
    """
    extra = state.extra_defs
    if extra:
        d = extra.get(code)
        if d is not None:
            return d
    return _POOL[code]


def dof(state: ArkhamState, cid: int) -> CardDef:
    """The definition of card instance ``cid``."""
    card = state.cards[cid]
    code = card.code
    extra = state.extra_defs
    if extra:
        d = extra.get(code)
        if d is not None:
            return d
    counters = card.counters
    if counters:
        stamp = counters.get("blank")
        if stamp and _card_choices.blank_now(state, stamp):
            return _blank(_POOL[code])  # Mind Wipe: until the end of the phase (A978.6)
    d = _POOL[code]
    if code in _INVESTIGATOR_CODES and card.zone.startswith("play.") and \
            investigator_blank(state, int(card.zone[5:])):
        return _blank_investigator(d)  # Stubborn Detective (A976.5)
    return d


def printed(state: ArkhamState, cid: int) -> CardDef:
    """The printed definition of card instance ``cid``: :func:`dof` without the blank
    text box checks (A976.5, A978.6). Use it only for what a blank text box leaves as it
    is: type, name, traits, cost, ``play_when`` and the other printed numbers."""
    code = state.cards[cid].code
    extra = state.extra_defs
    return ((extra.get(code) if extra else None) or _POOL[code])


#: Codes of the pool's cards with at least one forced ability (a blank text box only
#: removes them, so no other card has one).
FORCED_CODES: Final = frozenset(code for code, d in _POOL.items() if d.forced)
#: Codes of the pool's cards with printed bonuses (a blank text box only removes them).
BONUS_CODES: Final = frozenset(code for code, d in _POOL.items() if d.bonus)
#: Codes of the pool's cards with a ``cost:<trait>`` bonus (Easttown).
_COST_BONUS_CODES: Final = frozenset(code for code, d in _POOL.items()
                              if any(k.startswith("cost:") for k in d.bonus))
#: Codes of the pool's investigator cards (the only ones Stubborn Detective blanks).
_INVESTIGATOR_CODES: Final = frozenset(code for code, d in _POOL.items()
                                if d.type_code == "investigator")
_KW_CODES: Final[dict[str, frozenset[str]]] = {}


def keyword_codes(kw: str) -> frozenset[str]:
    """Codes of the pool's cards whose printed keywords hold ``kw`` (computed once per
    keyword from the immutable pool). A card whose printed definition lacks ``kw`` never
    has it: a blank text box only removes keywords (A976.5, A978.6)."""
    codes = _KW_CODES.get(kw)
    if codes is None:
        codes = _KW_CODES[kw] = frozenset(code for code, d in _POOL.items()
                                          if kw in d.keywords)
    return codes


def any_has_kw(state: ArkhamState, cids: list[int], kw: str) -> bool:
    """Whether one of the card instances ``cids`` has keyword ``kw`` now, i.e.
    ``any(kw in dof(state, c).keywords for c in cids)``; cards whose printed definition
    lacks ``kw`` are skipped without a :func:`dof` lookup."""
    if not cids:
        return False
    if state.extra_defs:
        return any(kw in dof(state, c).keywords for c in cids)
    codes = _KW_CODES.get(kw)
    if codes is None:
        codes = keyword_codes(kw)
    cards = state.cards
    for c in cids:
        if cards[c].code in codes and kw in dof(state, c).keywords:
            return True
    return False


#: Codes of the pool's enemies that blank their bearer's investigator card (A976.5).
_BLANK_BEARERS: Final = frozenset(code for code, d in _POOL.items()
                           if d.type_code == "enemy" and "blank_bearer" in d.keywords)


def _holds_blank_bearer(state: ArkhamState, seat: int, cids: list[int]) -> bool:
    """Whether ``cids`` hold an enemy owned by ``seat`` that blanks its bearer (A976.5)."""
    cards = state.cards
    extra = state.extra_defs
    for cid in cids:
        card = cards[cid]
        if card.owner != seat:
            continue
        d = extra.get(card.code) if extra else None
        if d is None:
            if card.code in _BLANK_BEARERS:
                return True
        elif d.type_code == "enemy" and "blank_bearer" in d.keywords:
            return True
    return False


def investigator_blank(state: ArkhamState, seat: int) -> bool:
    """Whether the investigator card of ``seat`` has a blank text box: its own Stubborn
    Detective is at its location (A976.5). Looks at the cards :func:`enemies_at` would
    (engaged ones included), by code, without building the enemy list."""
    loc = state.inv[seat].location
    if loc < 0:
        return False
    zones = state.zones
    here = zones[Z_AT[loc]].cards
    if here and _holds_blank_bearer(state, seat, here):
        return True
    for s, inv in enumerate(state.inv):
        if inv.location == loc and not inv.status:
            threat = zones[Z_THREAT[s]].cards
            if threat and _holds_blank_bearer(state, seat, threat):
                return True
    return False


def _blank(d: CardDef) -> CardDef:
    """``d`` with a blank text box: traits and printed numbers stay (A978.6)."""
    return msgspec.structs.replace(d, keywords=(), forced={}, abilities=(), spawn="",
                                   prey="", revelation=())


def _blank_investigator(d: CardDef) -> CardDef:
    """An investigator card with a blank text box: no abilities, no elder sign effect,
    no bonuses (A976.5)."""
    return msgspec.structs.replace(d, abilities=(), elder_sign=None, bonus={})


def playing(state: ArkhamState, seat: int) -> bool:
    """Whether ``seat`` has not been eliminated (A705.9)."""
    return not state.inv[seat].status


def player_order(state: ArkhamState) -> list[int]:
    """Seats still playing, from the lead in seating order (A104.1, A705.9)."""
    invs = state.inv
    lead = state.lead
    n = state.num_players
    if n == 1:  # solo
        return [] if invs[0].status else [0]
    out: list[int] = []  # plain loops: no comprehension call
    for s in range(lead, n):
        if not invs[s].status:
            out.append(s)
    for s in range(lead):
        if not invs[s].status:
            out.append(s)
    return out


def location_of(state: ArkhamState, cid: int) -> int:
    """Location id of an enemy/treachery in an ``at.`` or ``threat.`` zone (-1 if none)."""
    zone = state.cards[cid].zone
    if zone.startswith("at."):
        return int(zone[3:])
    if zone.startswith("threat."):
        return state.inv[int(zone[7:])].location
    return -1


def seats_at(state: ArkhamState, loc: int) -> list[int]:
    """Investigators still playing at location ``loc``, in player order."""
    invs = state.inv
    if len(invs) == 1:  # solo
        return [] if invs[0].location != loc or invs[0].status else [0]
    lead = state.lead
    here: list[int] = []  # player order: from the lead on, then the seats before it
    for s in range(lead, len(invs)):
        inv = invs[s]
        if inv.location == loc and not inv.status:
            here.append(s)
    for s in range(lead):
        inv = invs[s]
        if inv.location == loc and not inv.status:
            here.append(s)
    return here


def is_enemy(state: ArkhamState, cid: int) -> bool:
    """Whether card instance ``cid`` is an enemy: its printed type, which a blank text box
    (A976.5, A978.6) leaves as it is, so no :func:`dof` blank checks are needed."""
    code = state.cards[cid].code
    extra = state.extra_defs
    return ((extra.get(code) if extra else None) or _POOL[code]).type_code == "enemy"


def has_kw(d: CardDef, kw: str) -> bool:
    return kw in d.keywords


def enemies_at(state: ArkhamState, loc: int) -> list[int]:
    """Every enemy at ``loc``: unengaged ones and those engaged with investigators there."""
    zones = state.zones
    if state.extra_defs:
        out = [c for c in zones[Z_AT[loc]].cards if is_enemy(state, c)]
        for s in seats_at(state, loc):
            threat = zones[Z_THREAT[s]].cards
            if threat:
                out += [c for c in threat if is_enemy(state, c)]
        return out
    cards = state.cards
    enemy = ENEMY_CODES
    out = []
    for c in zones[Z_AT[loc]].cards:  # plain loops: no comprehension call
        if cards[c].code in enemy:
            out.append(c)
    for s in seats_at(state, loc):
        for c in zones[Z_THREAT[s]].cards:
            if cards[c].code in enemy:
                out.append(c)
    return out


#: Codes of the pool's enemies (printed type, which a blank text box keeps).
ENEMY_CODES: Final = frozenset(code for code, d in _POOL.items() if d.type_code == "enemy")


def engaged_enemies(state: ArkhamState, seat: int) -> list[int]:
    """Enemies engaged with ``seat``: its threat area plus ready massive enemies at its
    location (A611.1)."""
    cards = state.cards
    if state.extra_defs:
        out = [c for c in state.zones[Z_THREAT[seat]].cards if is_enemy(state, c)]
        massive: frozenset[str] | None = None
    else:
        enemy = ENEMY_CODES
        out = []
        for c in state.zones[Z_THREAT[seat]].cards:  # a plain loop: no comprehension call
            if cards[c].code in enemy:
                out.append(c)
        massive = _KW_CODES.get("massive") or keyword_codes("massive")  # others never are
    loc = state.inv[seat].location
    if loc >= 0:
        for c in state.zones[Z_AT[loc]].cards:
            card = cards[c]
            if massive is not None and card.code not in massive:
                continue
            if not card.exhausted and is_enemy(state, c) and has_kw(dof(state, c), "massive"):
                out.append(c)
    return out


def engaged_seat(state: ArkhamState, eid: int) -> int:
    """Seat whose threat area holds enemy ``eid`` (-1 if unengaged)."""
    zone = state.cards[eid].zone
    return int(zone[7:]) if zone.startswith("threat.") else -1


def enemy_health(state: ArkhamState, eid: int) -> int:
    """Printed health, multiplied per investigator (A110.1, A209.2)."""
    d = dof(state, eid)
    hp = d.health or 0
    hp = hp * state.num_players if d.health_per_investigator else hp
    return hp + d.bonus.get("health_per_inv", 0) * state.num_players  # A983.1


def skill_value(state: ArkhamState, seat: int, skill: str) -> int:
    """Base skill plus constant bonuses of assets the investigator controls (A112.1)."""
    inv = state.inv[seat]
    base = int(getattr(cdef(state, inv.code), "skill_" + skill))
    cards = state.cards
    extra = state.extra_defs
    for cid in state.zones[Z_PLAY[seat]].cards:
        if cid != inv.card:  # only an investigator card's blank text box drops bonuses
            code = cards[cid].code
            if extra:
                b = printed(state, cid).bonus.get(skill)
            elif code in BONUS_CODES:  # printed, inline; other pool cards have no bonus
                b = _POOL[code].bonus.get(skill)
            else:
                continue
            if b:
                base += b
    if inv.limits and inv.limits.get(f"skill:{skill}:phase"):
        base += inv.limits[f"skill:{skill}:phase"]  # Encyclopedia (A978.3)
    if inv.limits and skill in ("combat", "agility") and \
            inv.limits.get("flag:mind_over_matter:round"):
        base = max(base, skill_value(state, seat, "intellect"))  # Mind over Matter
    threat = state.zones[Z_THREAT[seat]].cards
    if threat and state.extra_defs:
        base -= sum(1 for c in threat if "haunted" in dof(state, c).keywords)  # Haunted
        base += sum(dof(state, c).bonus.get(skill, 0) for c in threat  # Dreams of R'lyeh
                    if dof(state, c).type_code == "treachery")  # (A994.8)
    elif threat:  # the same, looking up only cards whose printed text could count
        haunted = keyword_codes("haunted")
        for c in threat:
            code = state.cards[c].code
            if code in haunted and "haunted" in dof(state, c).keywords:
                base -= 1  # Haunted
            if code in BONUS_CODES:
                d = dof(state, c)
                if d.type_code == "treachery":
                    base += d.bonus.get(skill, 0)  # Dreams of R'lyeh (A994.8)
    if state.auras:
        # "investigators at your location get +1 <skill>" (e.g. Lita Chantler)
        for cid in state.auras:
            zone = state.cards[cid].zone
            if zone.startswith("play.") and \
                    state.inv[int(zone[5:])].location == inv.location:
                base += dof(state, cid).bonus_here.get(skill, 0)
    return base


def inv_health(state: ArkhamState, seat: int) -> int:
    return cdef(state, state.inv[seat].code).health or 0


def inv_sanity(state: ArkhamState, seat: int) -> int:
    """Printed sanity, plus ``sanity`` bonuses of treacheries in the threat area (A994.8)."""
    base = cdef(state, state.inv[seat].code).sanity or 0
    threat = state.zones[Z_THREAT[seat]].cards if state.zones else []
    if not threat:
        return base
    cards = state.cards
    bonus = None if state.extra_defs else BONUS_CODES  # others add nothing: skipped
    for c in threat:  # a plain loop: no generator per call
        if bonus is not None and cards[c].code not in bonus:
            continue
        d = dof(state, c)
        if d.type_code == "treachery":
            base += d.bonus.get("sanity", 0)
    return base


def lethal(state: ArkhamState, seat: int) -> bool:
    """Whether the investigator's damage reaches their health or their horror their
    current sanity (A703): they are defeated, whatever is still waiting to resolve."""
    inv = state.inv[seat]
    return inv.damage >= inv_health(state, seat) or inv.horror >= inv_sanity(state, seat)


def trigger_of_eliminated(state: ArkhamState, trig: Trigger) -> bool:
    """Whether ``trig`` is an ability of an eliminated investigator (A705): their seat
    is the trigger's player and its source is their investigator card or one of their
    own player cards. Scenario and encounter cards' forced abilities that merely name
    that seat (their owner is seat 0 whoever it is) are not theirs, and still resolve."""
    seat = trig.player
    if not 0 <= seat < len(state.inv) or not state.inv[seat].status:
        return False
    src = trig.source
    if src is None:
        return False
    if src == state.inv[seat].card:
        return True
    return state.cards[src].owner == seat and is_player_card(printed(state, src))


def register_aura(state: ArkhamState, cid: int) -> None:
    """List card ``cid`` in ``state.auras`` when it has a "while at your location"
    bonus (Lita Chantler, A216.3); called by every route into a play area. The bonus
    counts only while the card is in a play area, and leaving play unlists it."""
    if dof(state, cid).bonus_here and cid not in state.auras:
        state.auras.append(cid)


def current_agenda(state: ArkhamState) -> int:
    cards = state.zones["agendas"].cards
    return cards[0] if cards else -1


def current_act(state: ArkhamState) -> int:
    cards = state.zones["acts"].cards
    return cards[0] if cards else -1


_PLAY_ZONE_PREFIXES: Final = ("at.", "threat.", "play.")
#: Prefixes of the zones where enemies and treacheries in play are: the areas at locations
#: and the threat areas.
ENEMY_ZONE_PREFIXES: Final = ("at.", "threat.")
#: Zones in play besides the areas whose doom counts (A402.2).
_DOOM_ZONES: Final = ("locations", "agendas")
#: The last ``(zone ids, answer)`` of :func:`zone_ids` per ``(prefixes, named)``: a match
#: asks again and again with the very same zone ids (at most 256 kinds of question kept).
_ZONE_IDS_LAST: dict[tuple[tuple[str, ...], tuple[str, ...]],
                     tuple[tuple[str, ...], tuple[str, ...]]] = {}


def zone_ids(state: ArkhamState, prefixes: tuple[str, ...],
             named: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The ids of the state's zones that are in ``named`` or start with one of
    ``prefixes``, in the zones' order: ``tuple(z for z in state.zones if z in named or
    z.startswith(prefixes))``. The answer depends on the zone ids alone (not on the cards
    in the zones), so the last answer per question is kept with the zone ids it was
    computed from and reused while they are the same (a match that adds a zone, or
    another match, gets it computed afresh)."""
    names = tuple(state.zones)
    asked = (prefixes, named)
    last = _ZONE_IDS_LAST.get(asked)
    if last is not None and last[0] == names:
        return last[1]
    got = tuple(z for z in names if z in named or z.startswith(prefixes))
    if len(_ZONE_IDS_LAST) < 256 or asked in _ZONE_IDS_LAST:  # bounded, whatever is asked
        _ZONE_IDS_LAST[asked] = (names, got)
    return got


def doom_in_play(state: ArkhamState) -> int:
    """All doom on the agenda and on every other card in play (A402.2, A402.3)."""
    total = 0
    cards = state.cards
    zones = state.zones
    for zid in zone_ids(state, _PLAY_ZONE_PREFIXES, _DOOM_ZONES):
        for cid in zones[zid].cards:
            if cid >= 0:
                counters = cards[cid].counters
                if counters:
                    total += counters.get("doom", 0)
    return total


def agenda_threshold(state: ArkhamState) -> int:
    ag = current_agenda(state)
    return (printed(state, ag).doom or 0) if ag >= 0 else 0  # a printed number


def act_threshold(state: ArkhamState) -> int:
    """Clues needed to advance the current act, per investigator multiplied (A801.1)."""
    act = current_act(state)
    if act < 0:
        return 0
    d = printed(state, act)  # printed numbers: a blank text box keeps them
    if d.clues is None:
        return 0
    return d.clues if d.clues_fixed else d.clues * state.num_players


def is_revealed(state: ArkhamState, loc: int) -> bool:
    return state.cards[loc].counters.get("revealed", 0) == 1


def can_investigate(state: ArkhamState, loc: int) -> bool:
    """A985.3: whether ``loc`` (a location id, ``-1`` for none) may be investigated; a
    location with a ``no_investigate`` attachment (Locked Door) refuses every
    investigation: the basic action, card abilities and events alike."""
    return loc >= 0 and not any_has_kw(state, state.zones[Z_AT[loc]].cards, "no_investigate")


def shroud(state: ArkhamState, loc: int) -> int:
    base = dof(state, loc).shroud or 0
    for c in state.zones[Z_AT[loc]].cards:
        base += dof(state, c).bonus.get("shroud", 0)
    return max(0, base)


#: :func:`rebuild_adjacency` answers for the pool's locations: ``(location id, code,
#: unrevealed side showing)`` of each location in play, in order -> ``state.adj`` as
#: ``(key, connected ids)`` pairs. A pure function of that key and the immutable pool
#: (a blank text box keeps symbols and connections), so it never goes stale; bounded.
_ADJ_MEMO: Final[dict[tuple[tuple[int, str, bool], ...], tuple[tuple[str, tuple[int, ...]], ...]]] = {}


def rebuild_adjacency(state: ArkhamState) -> None:
    """Recompute connections between locations in play (A211.5); called when the set of
    locations in play changes or a location's side does (A992.1). Sets ``state.adj``:
    ``{str(location id): sorted connected location ids}`` in the order of the
    ``locations`` zone; connections are symmetric."""
    cards = state.cards
    extra = state.extra_defs
    places: list[tuple[int, CardDef, bool]] = []
    asked: list[tuple[int, str, bool]] = []
    for loc in state.zones["locations"].cards:
        card = cards[loc]
        code = card.code
        # printed: a blank text box keeps symbols and connections (A978.6)
        d = (extra.get(code) if extra else None) or _POOL[code]
        hidden = bool(d.unrevealed_symbol) and card.counters.get("revealed", 0) != 1
        places.append((loc, d, hidden))  # hidden: the unrevealed side links (A992.1)
        asked.append((loc, code, hidden))
    key = None if extra else tuple(asked)
    got = _ADJ_MEMO.get(key) if key is not None else None
    if got is None:
        got = _adjacency(places)
        if key is not None and len(_ADJ_MEMO) < 4096:  # bounded, whatever is asked
            _ADJ_MEMO[key] = got
    state.adj = {k: list(v) for k, v in got}


def _adjacency(places: list[tuple[int, CardDef, bool]]
               ) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """:func:`rebuild_adjacency`'s answer for ``(location id, definition, unrevealed side
    showing)`` of the locations in play: a location links to those it names by code or
    by symbol, and to those that name it."""
    by_symbol: dict[str, list[int]] = {}
    by_code: dict[str, int] = {}
    for loc, d, hidden in places:
        sym = d.unrevealed_symbol if hidden else d.symbol
        if sym:
            by_symbol.setdefault(sym, []).append(loc)
        by_code[d.code] = loc
    links: dict[int, set[int]] = {}
    for loc, d, hidden in places:
        targets = links.setdefault(loc, set())
        for ref in d.unrevealed_connections if hidden else d.connections:
            if ref in by_code:
                targets.add(by_code[ref])
            targets.update(by_symbol.get(ref, ()))
        targets.discard(loc)
    for loc, targets in list(links.items()):  # connections are symmetric
        for t in targets:
            links[t].add(loc)
    return tuple((str(loc), tuple(sorted(links[loc]))) for loc, _, _ in places)


def distances_from(state: ArkhamState, start: int) -> dict[int, int]:
    """BFS distances (connections) from ``start`` over locations in play (A605.2)."""
    dist = {start: 0}
    queue = deque([start])
    adj = state.adj
    while queue:
        cur = queue.popleft()
        for nxt in adj.get(str(cur), ()):
            if nxt not in dist:
                dist[nxt] = dist[cur] + 1
                queue.append(nxt)
    return dist


def can_enter(state: ArkhamState, loc: int) -> bool:
    """Whether a location may be entered (an unrevealed barrier cannot; A605.6)."""
    return not (dof(state, loc).cannot_enter_unrevealed and not is_revealed(state, loc))


def location_by_code(state: ArkhamState, code: str) -> int:
    for loc in state.zones["locations"].cards:
        if state.cards[loc].code == code:
            return loc
    return -1


def name_of(state: ArkhamState, cid: int) -> str:
    """The card's name (a blank text box keeps it)."""
    code = state.cards[cid].code
    extra = state.extra_defs
    return ((extra.get(code) if extra else None) or _POOL[code]).name


def prey_is_exclusive(prey: str) -> bool:
    """Whether a prey string is a "Prey - X only" form (A607.2): ``"bearer"`` (the weakness
    enemy's bearer) or ``"only:<seat>"``. Such an enemy engages and hunts nobody else; the
    other forms only break ties (A607.1)."""
    return prey == "bearer" or prey.startswith("only:")


def prey_filter(state: ArkhamState, eid: int, seats: list[int]) -> list[int]:
    """Narrow candidate investigators by the enemy's prey (A607.1).

    Prey strings: ``"highest:<skill>"``, ``"lowest:<skill>"``, ``"most:clues"``,
    ``"lowest:remaining_health"``, ``"only:<seat>"``.
    """
    prey = dof(state, eid).prey
    if prey == "bearer":  # a weakness enemy hunts only the investigator who drew it
        return [s for s in seats if s == state.cards[eid].owner]
    if not prey or len(seats) <= 1:
        if prey.startswith("only:"):
            return [s for s in seats if str(s) == prey[5:]]
        return seats
    kind, _, what = prey.partition(":")
    if kind == "only":
        return [s for s in seats if str(s) == what]

    def score(s: int) -> int:
        inv = state.inv[s]
        if what == "clues":
            return inv.clues
        if what == "remaining_sanity":  # Screeching Byakhee (A994.2)
            return inv_sanity(state, s) - inv.horror
        if what == "hand":  # Yithian Observer: fewest cards in hand (A994.4)
            return len(state.zones[Z_HAND[s]].cards)
        if what == "remaining_health":
            return inv_health(state, s) - inv.damage
        if what in SKILLS:
            return skill_value(state, s, what)
        return 0

    scores = {s: score(s) for s in seats}
    best = max(scores.values()) if kind in ("highest", "most") else min(scores.values())
    return [s for s in seats if scores[s] == best]


#: Codes of the pool's weaknesses (the printed subtype, which a blank text box keeps).
_WEAKNESS_CODES: Final = frozenset(code for code, d in _POOL.items() if d.is_weakness())


def draw_cards(eng: Eng, seat: int, count: int) -> None:
    """Draw ``count`` cards; an empty deck is reset from the discard pile and the
    investigator takes 1 horror after the whole draw (A907.1, A907.2)."""
    state = eng.state
    deck = state.zones[Z_DECK[seat]]
    emptied = False
    drawn: list[int] = []
    for _ in range(count):
        if not deck.cards:
            discard = state.zones[Z_DISCARD[seat]]
            emptied = True
            if not discard.cards:
                break
            for cid in list(discard.cards):
                eng.move(cid, Z_DECK[seat])
            eng.shuffle(Z_DECK[seat])
            eng.emit("deck_reset", player=seat)
        cid = deck.cards[0]
        eng.move(cid, Z_HAND[seat], kind="drawn")
        drawn.append(cid)
    if emptied:
        eng.push(Harm(seat=seat, horror=1))
    # weaknesses drawn take effect at once (A208.2); pushed so they resolve after the draw
    cards = state.cards
    weak = None if state.extra_defs else _WEAKNESS_CODES  # a blank text box keeps it
    for cid in reversed(drawn):
        if weak is not None and cards[cid].code not in weak:
            continue
        d = dof(state, cid)
        if d.is_weakness() and (d.type_code in ("treachery", "enemy") or d.revelation):
            eng.push(ResolveEncounter(seat=seat, card=cid))


def place_clues(eng: Eng, loc: int) -> None:
    """Put a location's printed clues on it (per investigator unless fixed, A211.4)."""
    state = eng.state
    d = dof(state, loc)
    if d.clues:
        n = d.clues if d.clues_fixed else d.clues * state.num_players
        eng.add_counter(loc, "clues", n)


def reveal_location(eng: Eng, loc: int) -> None:
    """Reveal a location and place its clues, once (A211.2–A211.4)."""
    state = eng.state
    if state.cards[loc].counters.get("revealed", 0):
        return
    eng.set_counter(loc, "revealed", 1)
    _devourer_rules.identify_woods(eng, loc)  # A991.2: which Woods it is, decided now
    place_clues(eng, loc)
    if dof(state, loc).unrevealed_symbol:
        rebuild_adjacency(state)  # its revealed side links differently (A992.1)
    card = state.cards[loc]  # re-read: identify_woods and place_clues replaced it
    eng.emit("location_revealed", card=loc, code=card.code,
             amount=card.counters.get("clues", 0))


def engage_unengaged_at(eng: Eng, loc: int) -> None:
    """Give every enemy at ``loc`` that is engaged with nobody the engagement check (A602.1):
    after an effect disengaged it and the investigator stayed (Elusive with nowhere to go,
    a cancelled move, Cat Burglar's "stay")."""
    state = eng.state
    eng.push(*(EngageCheck(enemy=x) for x in enemies_at(state, loc)
               if not state.cards[x].zone.startswith("threat.")))


def enter_location(eng: Eng, seat: int, loc: int, *, reveal: bool = True) -> None:
    """Put an investigator at ``loc`` (engaged enemies come along, A603.1), reveal it,
    emit ``entered`` (forced "after you enter" abilities) and check engagement (A602.1)
    at the new location and at the one left: ready enemies an effect disengaged there
    (Elusive, Survival Instinct, On Wings of Darkness) engage who is still there."""
    state = eng.state
    inv = state.inv[seat]
    left = inv.location
    inv.location = loc
    if left >= 0 and left != loc:  # Barricade: discarded when an investigator leaves
        for cid in list(state.zones[Z_AT[left]].cards):
            if "barricade" in dof(state, cid).keywords:
                discard_card(eng, cid)
            elif not state.cards[cid].exhausted and is_enemy(state, cid):
                eng.push(EngageCheck(enemy=cid))  # A602.5 (runs after the new location's)
    if reveal:
        reveal_location(eng, loc)
    eng.emit("entered", player=seat, card=loc, code=state.cards[loc].code)
    for eid in state.zones[Z_AT[loc]].cards:
        if is_enemy(state, eid):
            eng.push(EngageCheck(enemy=eid))


def add_doom(eng: Eng, cid: int, amount: int) -> int:
    """Place ``amount`` doom on card ``cid`` and emit ``doom_placed``; returns the doom
    now in play (:func:`doom_in_play`, A402.2), which the event also carries."""
    state = eng.state
    eng.add_counter(cid, "doom", amount)
    in_play = doom_in_play(state)
    eng.emit("doom_placed", card=cid, code=state.cards[cid].code, amount=amount,
             data={"in_play": in_play, "threshold": agenda_threshold(state)})
    return in_play


def cannot_leave_play(state: ArkhamState, cid: int) -> bool:
    """The Necronomicon (A974.2): it cannot leave play while it has horror on it."""
    return state.cards[cid].counters.get("horror", 0) > 0 and \
        "necronomicon" in dof(state, cid).keywords and \
        state.cards[cid].zone.startswith(_PLAY_ZONE_PREFIXES)


def _amulet_takes(state: ArkhamState, card: Any, d: CardDef) -> bool:
    """Wendy's Amulet (A975.13): an event of its controller discarded from play goes to
    the bottom of their deck."""
    return d.type_code == "event" and card.zone.startswith(_PLAY_ZONE_PREFIXES) and \
        0 <= card.owner < len(state.inv) and any(
            "amulet_events" in dof(state, c).keywords for c in state.zones[Z_PLAY[card.owner]].cards)


def discard_card(eng: Eng, cid: int, *, defeated: bool = False,
                 eliminated: bool = False) -> None:
    """Send a card that leaves play to the discard pile it belongs in (A208.3, A615.2);
    The Necronomicon with horror on it stays (A974.2), unless its investigator is
    eliminated (``eliminated``, A705.7), and an event Wendy's Amulet takes goes under its
    owner's deck (A975.13)."""
    state = eng.state
    card = state.cards[cid]
    d = printed(state, cid)  # type, weakness, victory: kept by a blank text box
    if d.type_code == "asset" and not eliminated and cannot_leave_play(state, cid):
        eng.emit("cannot_leave_play", card=cid, code=card.code)
        return
    if d.type_code == "event" and _amulet_takes(state, card, d):
        eng.move(cid, Z_DECK[card.owner], kind="to_deck_bottom")
        return
    if cid in state.auras:
        state.auras.remove(cid)
    if d.type_code in ("enemy", "treachery") and not d.is_weakness():
        if defeated and d.victory is not None and d.type_code == "enemy":
            eng.move(cid, "victory", kind="to_victory")
        else:
            eng.move(cid, "encounter_discard", kind="discarded")
    elif is_player_card(d):
        eng.move(cid, Z_DISCARD[card.owner], kind="discarded")
    else:
        eng.move(cid, "out", kind="removed")


def is_player_card(d: CardDef) -> bool:
    """Player cards (assets, events, skills, weaknesses) go to their owner's discard pile;
    story assets and scenario cards do not (A113.2, A208.3)."""
    return (d.type_code in ("asset", "event", "skill") and not d.encounter_code) or \
        d.is_weakness()


def gain_clues(eng: Eng, seat: int, amount: int) -> None:
    """Discover ``amount`` clues at the investigator's location (A109.3)."""
    state = eng.state
    inv = state.inv[seat]
    if inv.location < 0:
        return
    got = min(amount, state.cards[inv.location].counters.get("clues", 0))
    if got <= 0 or _midnight_rules.clues_blocked(state, seat):  # The Masked Hunter (A984.2)
        return
    for cid in state.zones[Z_THREAT[seat]].cards:
        cc = state.cards[cid].counters
        if cc.get("clues", 0) > 0 and "cover_up" in dof(state, cid).keywords:
            # Cover Up's reaction: "when you would discover clues" (A974.1), declinable
            ev = eng.emit("clues_would_discover", player=seat, card=cid, amount=got)
            eng.push(DiscoverClues(seat=seat, amount=got, cover=cid, event=ev.seq))
            return
    _discover(eng, seat, got)


def _discover(eng: Eng, seat: int, got: int) -> None:
    """Move ``got`` clues from the investigator's location onto them (A109.3)."""
    state = eng.state
    inv = state.inv[seat]
    eng.add_counter(inv.location, "clues", -got)
    inv.clues += got
    eng.emit("clues_discovered", player=seat, card=inv.location, amount=got)


def pick_token(eng: Eng) -> str:
    """Draw a chaos token at random (or the next forced token of a test scenario)."""
    state = eng.state
    if state.next_tokens:
        return state.next_tokens.pop(0)
    return state.bag[eng.rng.randbelow(len(state.bag))]


def end_with(eng: Eng, resolution: str) -> None:
    """End the scenario with a resolution (A804.1)."""
    state = eng.state
    seats = list(range(state.num_players))
    outcome = state.resolutions.get(resolution, "win")
    detail: dict[str, tcgcore.Scalar] = {
        "resolution": resolution, "outcome": outcome, "mode": state.mode, "lead": state.lead,
        "victory": final_victory(state), "round": state.turn,
    }
    for s, inv in enumerate(state.inv):
        detail[f"status{s}"] = inv.status or "playing"
        if inv.trauma:
            detail[f"trauma{s}"] = inv.trauma
        _game_end_weaknesses(state, s)
    _extra_trauma_detail(state, detail)
    _summary_detail(state, detail)
    if outcome == "win":
        eng.end(winners=seats, reason="resolution", detail=detail)
    else:
        eng.end(losers=seats, reason="resolution", detail=detail)


def _summary_detail(state: ArkhamState, detail: dict[str, tcgcore.Scalar]) -> None:
    """Result facts for people and ``tcgcore simulate``: the experience each investigator
    earns (victory display + the resolution's bonus), the campaign-log entries, the team
    and, per investigator name, the resolution (string values are tabulated)."""
    res = str(detail.get("resolution", ""))
    names = [cdef(state, i.code).name for i in state.inv]
    detail["team"] = " + ".join(names)
    for name in names:
        detail[name] = res
    if state.scenario in ("", "description"):
        return
    _midnight_rules.write_log(state, res)  # A985.5
    try:
        sdef = load_scenario(state.scenario)
    except tcgcore.CardDataError:  # pragma: no cover - scenarios come from data files
        return
    victory = int(detail.get("victory", 0) or 0)
    if res in sdef.xp_bonus:
        detail["xp"] = victory + sdef.xp_bonus[res]
        if sdef.lead_xp_bonus.get(res):
            detail["xp_lead_bonus"] = sdef.lead_xp_bonus[res]
    entries = list(sdef.log.get(res, ())) + [e for e in state.log_out
                                              if e not in sdef.log.get(res, ())]
    if entries:
        detail["log"] = "; ".join(entries)
    if state.cross_out:
        detail["cross_out"] = "; ".join(state.cross_out)
    if state.chaos_add_out:
        detail["chaos_add"] = ",".join(state.chaos_add_out)
    per: dict[str, list[str]] = {}
    for item in state.deck_add:
        seat, _, code = item.partition(":")
        per.setdefault(seat, []).append(code)
    for seat, codes in per.items():
        detail[f"deck_add{seat}"] = ",".join(codes)


def _game_end_weaknesses(state: ArkhamState, seat: int) -> None:
    """"When the game ends" weaknesses still in the threat area: Cover Up (mental trauma
    while clues remain on it) and Hospital Debts (2 less experience under 6 resources)."""
    for cid in state.zones[Z_THREAT[seat]].cards:
        d = dof(state, cid)
        fx = d.forced.get("game_end")
        if not fx or not d.is_weakness() or not _game_end_applies(state, cid):
            continue
        for e in fx:
            if e.op == "suffer_trauma":
                state.extra_trauma.append(f"{seat}:{e.code}")
            elif e.op == "xp":
                state.extra_trauma.append(f"{seat}:xp{e.amount:+d}")


def _game_end_applies(state: ArkhamState, cid: int) -> bool:
    """Conditions of "when the game ends" weaknesses: Cover Up only while clues remain on
    it, Hospital Debts only while it holds fewer than 6 resources."""
    d = dof(state, cid)
    counters = state.cards[cid].counters
    if "cover_up" in d.keywords:
        return counters.get("clues", 0) > 0
    if d.code == "01011":
        return counters.get("resources", 0) < 6
    return True


def _extra_trauma_detail(state: ArkhamState, detail: dict[str, tcgcore.Scalar]) -> None:
    """Trauma from "when the game ends" effects, ``extra_trauma<seat>`` = ``"mental,..."``."""
    per: dict[str, list[str]] = {}
    for item in state.extra_trauma:
        seat, _, kind = item.partition(":")
        if kind.startswith("xp"):
            key = f"xp_adjust{seat}"
            detail[key] = int(detail.get(key, 0) or 0) + int(kind[2:])
            continue
        per.setdefault(seat, []).append(kind)
    for seat, kinds in per.items():
        detail[f"extra_trauma{seat}"] = ",".join(kinds)


def victory_total(state: ArkhamState) -> int:
    """Victory points in the victory display (A955.1)."""
    return sum(dof(state, c).victory or 0 for c in state.zones["victory"].cards)


def final_victory(state: ArkhamState) -> int:
    """Victory at the end of the scenario: the victory display plus each revealed location
    in play with Victory X and no clues on it (RR: Victory Display)."""
    total = victory_total(state)
    for loc in state.zones["locations"].cards:
        d = dof(state, loc)
        counters = state.cards[loc].counters
        if d.victory and counters.get("revealed") and not counters.get("clues"):
            total += d.victory
    return total


def run_effects(eng: Eng, seat: int, effects: tuple[Effect, ...], source: int = -1,
                margin: int = 0) -> None:
    if effects:
        eng.push(Effects(seat=seat, effects=effects, source=source, margin=margin))


# ============================================================================ spec


def _setup(eng: Eng, options: dict[str, Any]) -> None:
    from .scenario_setup import setup

    setup(eng, options)


def _lead(eng: Engine[Any]) -> int:
    state: ArkhamState = eng.state
    return state.lead


spec: tcgcore.GameSpec[ArkhamState] = tcgcore.GameSpec(
    name=GAME,
    version="0.1.0",
    state_type=ArkhamState,
    setup=_setup,
    players=(1, 4),
    default_players=1,
    description="Arkham Horror: The Card Game (詭鎮奇談：卡牌版), cooperative, 1-4 investigators",
    trigger_policy=tcgcore.decided_by(_lead),
    forced_first=True,
    # event data naming cards: harm's source, the enemy entering, the location left, the
    # spawn location; zones at.<location> are named after the location's alias
    card_data_keys=("source", "enemy", "from", "location"),
    card_zone_prefixes=("at.",),
)

# ============================================================================ setup flow


@spec.handles(Mulligan)
def _mulligan(eng: Eng, step: Mulligan) -> None:
    state = eng.state
    hand = state.zones[Z_HAND[step.seat]].cards
    opts = [Option(key=f"card:{c}", label=name_of(state, c), card=c) for c in hand]
    eng.ask(step.seat, "mulligan", "Choose cards to set aside and redraw (one mulligan)",
            opts, min=0, max=len(opts), resume=MulliganAnswer(seat=step.seat))


@spec.handles(MulliganAnswer)
def _mulligan_answer(eng: Eng, step: MulliganAnswer) -> None:
    # A305.1-A305.3: set aside, draw replacements (weaknesses set aside again), shuffle in
    state = eng.state
    seat = step.seat
    chosen = [int(k.split(":")[1]) for k in eng.answer]
    for cid in chosen:
        eng.move(cid, f"aside.{seat}")
    from .scenario_setup import draw_opening

    draw_opening(eng, seat, len(chosen))
    for cid in list(state.zones[f"aside.{seat}"].cards):
        eng.move(cid, Z_DECK[seat])
    eng.shuffle(Z_DECK[seat])
    state.inv[seat].mulliganed = True
    eng.emit("mulligan", player=seat, amount=len(chosen))


# ============================================================================ rounds


@spec.handles(BeginRound)
def _begin_round(eng: Eng, step: BeginRound) -> None:
    state = eng.state
    state.turn += 1
    eng.emit("round_started", amount=state.turn)
    if state.turn == 1:
        eng.push(InvestigationPhase())  # A401.2: no mythos phase in round 1
    else:
        eng.push(MythosPhase())


def end_phase_limits(state: ArkhamState) -> None:
    """A phase ends: drop what lasts "until the end of the phase" (limit keys ending in
    ``:phase``, e.g. Encyclopedia's skill bonus, A978.3) and group limits ``_phase``."""
    for inv in state.inv:
        if inv.limits:
            inv.limits = {k: v for k, v in inv.limits.items() if not k.endswith(":phase")}
    if state.group_limits:
        state.group_limits = {k: v for k, v in state.group_limits.items()
                              if not k.endswith(("_phase", ":phase"))}


@spec.handles(MythosPhase)
def _mythos(eng: Eng, step: MythosPhase) -> None:
    state = eng.state
    end_phase_limits(state)  # the upkeep phase ended
    state.phase = "mythos"
    eng.emit("phase", data={"phase": "mythos"})
    ag = current_agenda(state)
    in_play = add_doom(eng, ag, 1) if ag >= 0 else 0  # A402.1
    steps: list[tcgcore.Step] = []
    if ag >= 0 and in_play >= agenda_threshold(state):  # A402.2
        steps.append(AdvanceAgenda())
    steps += [EncounterDraws(seats=player_order(state)),
              Effects(seat=state.lead, effects=_MYTHOS_END),  # A982.3
              InvestigationPhase()]
    eng.push(*steps)


@spec.handles(EncounterDraws)
def _encounter_draws(eng: Eng, step: EncounterDraws) -> None:
    # A402.4: in player order, each resolves completely before the next
    state = eng.state
    invs = state.inv
    seats: list[int] = []  # a plain loop: no comprehension call
    for s in step.seats:
        if not invs[s].status:
            seats.append(s)
    if not seats:
        return
    eng.push(DrawEncounter(seat=seats[0]), EncounterDraws(seats=seats[1:]))


def _refill_encounter(eng: Eng) -> None:
    """A908.1: an empty encounter deck is reshuffled from its discard pile."""
    state = eng.state
    if not state.zones["encounter"].cards and state.zones["encounter_discard"].cards:
        for cid in list(state.zones["encounter_discard"].cards):
            eng.move(cid, "encounter")
        eng.shuffle("encounter")
        eng.emit("encounter_reshuffled")


@spec.handles(DrawEncounter)
def _draw_encounter(eng: Eng, step: DrawEncounter) -> None:
    state = eng.state
    if state.inv[step.seat].status:
        return
    _refill_encounter(eng)
    deck = state.zones["encounter"].cards
    if not deck:
        return
    cid = deck[0]
    eng.move(cid, "resolving", kind="encounter_drawn", data={"seat": step.seat})
    _refill_encounter(eng)
    eng.push(ResolveEncounter(seat=step.seat, card=cid, depth=step.depth))


@spec.handles(ResolveEncounter)
def _resolve_encounter(eng: Eng, step: ResolveEncounter) -> None:
    """Resolve a drawn encounter card or weakness: treachery revelation (A210.1), enemy
    spawn (A601), surge (A612.1) and peril (A613)."""
    state = eng.state
    cid, seat = step.card, step.seat
    d = dof(state, cid)
    if state.cards[cid].zone != "resolving":
        eng.move(cid, "resolving", kind="revealed")
    after: list[tcgcore.Step] = []
    if -1 - cid in state.cancelled:  # its revelation was cancelled (Ward of Protection)
        state.cancelled.remove(-1 - cid)
        eng.emit("revelation_cancelled", player=seat, card=cid, code=d.code)
        eng.push(FinishTreachery(card=cid, seat=seat))
        return
    if has_kw(d, "peril"):
        state.peril = seat
        after.append(EndPeril(card=cid))
    if has_kw(d, "surge") and step.depth < MAX_SURGE:
        after.append(DrawEncounter(seat=seat, depth=step.depth + 1))
    elif seat >= 0 and _may_gain_surge(d.revelation):  # A612.2 (at the cap: only clears)
        after.append(GainedSurge(seat=seat, card=cid, depth=step.depth + 1))
    if d.type_code == "enemy":
        eng.push(SpawnAt(enemy=cid, seat=seat), *after)
    else:
        eng.push(Effects(seat=seat, effects=d.revelation, source=cid),
                 FinishTreachery(card=cid, seat=seat), *after)


@spec.handles(DiscoverClues)
def _discover_clues(eng: Eng, step: DiscoverClues) -> None:
    """A974.1: after the "would discover" window, the clues come off Cover Up if its
    reaction was used, otherwise from the location (re-read: the window may change both)."""
    state = eng.state
    seat = step.seat
    inv = state.inv[seat]
    if inv.status or inv.location < 0:
        return
    if step.event in state.cancelled:
        state.cancelled.remove(step.event)
        took = min(step.amount, state.cards[step.cover].counters.get("clues", 0))
        if took > 0:
            eng.add_counter(step.cover, "clues", -took)
            eng.emit("clues_covered", player=seat, card=step.cover, amount=took)
        return
    got = min(step.amount, state.cards[inv.location].counters.get("clues", 0))
    if got > 0:
        _discover(eng, seat, got)


#: Effect ops with which a card can gain surge while it resolves (A612.2).
_SURGE_OPS: Final = frozenset({"surge", "false_lead"})


def _may_gain_surge(effects: tuple[Effect, ...]) -> bool:
    """Whether ``effects`` (a revelation, nested results included) can gain surge."""
    for e in effects:
        if e.op in _SURGE_OPS or _may_gain_surge(e.on_success) or _may_gain_surge(e.on_fail):
            return True
    return False


def gain_surge(eng: Eng, seat: int, source: int) -> None:
    """An encounter card gains surge (False Lead, the ``surge`` op): while ``source`` is
    resolving, the drawer draws the next card only after it has finished resolving and
    left play (A612.2, through :class:`GainedSurge`); otherwise at once."""
    state = eng.state
    eng.emit("surge", player=seat, card=source)
    if source >= 0 and state.cards[source].zone == "resolving" and seat >= 0:
        state.inv[seat].limits[f"surge:{source}"] = 1
        return
    eng.push(DrawEncounter(seat=seat))


@spec.handles(GainedSurge)
def _gained_surge(eng: Eng, step: GainedSurge) -> None:
    """A612.2: the card has left play; if it gained surge, its drawer draws the next card
    (unless the chain is at :data:`MAX_SURGE`). The card's surge mark is cleared either way."""
    limits = eng.state.inv[step.seat].limits
    if limits and limits.pop(f"surge:{step.card}", 0) and step.depth <= MAX_SURGE:
        eng.push(DrawEncounter(seat=step.seat, depth=step.depth))


@spec.handles(EndPeril)
def _end_peril(eng: Eng, step: EndPeril) -> None:
    eng.state.peril = -1  # A613.1


@spec.handles(FinishTreachery)
def _finish_treachery(eng: Eng, step: FinishTreachery) -> None:
    state = eng.state
    card = state.cards[step.card]
    if card.zone != "resolving":
        return  # it went to a threat area or was attached
    d = dof(state, step.card)
    if d.victory is not None and not d.is_weakness():
        eng.move(step.card, "victory", kind="to_victory")  # A615.4
    elif d.type_code == "event" and step.seat >= 0 and state.cards[step.card].owner == \
            step.seat and any("amulet_events" in dof(state, c).keywords
                              for c in state.zones[Z_PLAY[step.seat]].cards):
        # Wendy's Amulet (A975.13): a played event goes to the bottom of the deck
        eng.move(step.card, Z_DECK[step.seat], kind="to_deck_bottom")
    else:
        discard_card(eng, step.card)


@spec.handles(SpawnAt)
def _spawn(eng: Eng, step: SpawnAt) -> None:
    """A601: spawn at the named location (discarded if none in play), else engaged with
    the drawer (aloof: at the drawer's location unengaged)."""
    state = eng.state
    eid = step.enemy
    d = dof(state, eid)
    seat = step.seat
    redirect = _midnight_rules.spawn_redirect(state, state.cards[eid].code)
    if redirect >= 0:  # Your House and the Ghoul Priest (A982.1)
        _spawn_at_location(eng, eid, redirect)
        return
    if d.spawn:
        fits = _spawn_fits(state, d.spawn)
        if not fits:
            eng.emit("spawn_failed", card=eid, code=state.cards[eid].code)
            discard_card(eng, eid)  # A601.2
            return
        if len(fits) > 1:  # A601.1: the lead chooses
            eng.ask(state.lead, "spawn_location", f"Where does {d.name} spawn?",
                    [Option(key=f"loc:{x}", label=name_of(state, x), card=x) for x in fits],
                    resume=SpawnAnswer(enemy=eid))
            return
        _spawn_at_location(eng, eid, fits[0])
        return
    if seat < 0 or state.inv[seat].status or state.inv[seat].location < 0:
        discard_card(eng, eid)
        return
    loc = state.inv[seat].location
    if has_kw(d, "aloof") or has_kw(d, "massive"):
        eng.move(eid, Z_AT[loc], kind="spawned", data={"location": loc})  # A601.4
    else:
        eng.move(eid, Z_THREAT[seat], kind="spawned", data={"location": loc})  # A601.3
        eng.emit("enemy_engaged", player=seat, card=eid)


def _spawn_fits(state: ArkhamState, spawn: str) -> list[int]:
    """Locations in play that fit a spawn instruction: a location code, ``"empty"`` (any
    location without investigators) or ``"trait:<Trait>"``."""
    locs = state.zones["locations"].cards
    if spawn == "empty":
        return [x for x in locs if not seats_at(state, x)]
    if spawn.startswith("trait:"):
        trait = spawn[6:]
        return [x for x in locs if trait in _traits(dof(state, x))]
    if spawn.startswith("name:"):  # "Spawn - Downtown" (A984.1)
        return [x for x in locs if dof(state, x).name == spawn[5:]]
    x = location_by_code(state, spawn)
    return [x] if x >= 0 else []


def _spawn_at_location(eng: Eng, eid: int, loc: int) -> None:
    eng.move(eid, Z_AT[loc], kind="spawned", data={"location": loc})
    eng.push(EngageCheck(enemy=eid))
    after = dof(eng.state, eid).forced.get("after_spawn")
    if after:  # "after it enters play" (Acolyte, A982.2)
        eng.push(Effects(seat=eng.state.lead, effects=after, source=eid))
    _enemy_entered(eng, eid, loc)  # A601.5: spawning there is entering it


def _enemy_entered(eng: Eng, eid: int, loc: int) -> None:
    """Announce that an enemy entered a location (forced "enemy_enters" abilities)."""
    eng.emit("enemy_entered", card=loc, code=eng.state.cards[loc].code,
             data={"enemy": eid})


@spec.handles(SpawnAnswer)
def _spawn_answer(eng: Eng, step: SpawnAnswer) -> None:
    _spawn_at_location(eng, step.enemy, int(eng.answer[0].split(":")[1]))


@spec.handles(EngageCheck)
def _engage_check(eng: Eng, step: EngageCheck) -> None:
    """A602.1/A602.2: a ready unengaged non-aloof enemy engages an investigator at its
    location; prey chooses, then the lead breaks ties."""
    state = eng.state
    eid = step.enemy
    card = state.cards[eid]
    if not card.zone.startswith("at.") or card.exhausted:
        return
    d = dof(state, eid)
    if has_kw(d, "aloof") or has_kw(d, "massive"):
        return
    loc = int(card.zone[3:])
    cands = prey_filter(state, eid, seats_at(state, loc))
    if not cands:
        return
    if len(cands) == 1:
        _engage(eng, eid, cands[0])
        return
    eng.ask(state.lead, "engage_target", f"Which investigator does {d.name} engage?",
            [Option(key=f"inv:{s}", label=dof(state, state.inv[s].card).name) for s in cands],
            resume=EngageAnswer(enemy=eid))


@spec.handles(EngageAnswer)
def _engage_answer(eng: Eng, step: EngageAnswer) -> None:
    _engage(eng, step.enemy, int(eng.answer[0].split(":")[1]))


def _engage(eng: Eng, eid: int, seat: int) -> None:
    if eng.state.cards[eid].zone == Z_THREAT[seat]:
        return
    eng.move(eid, Z_THREAT[seat], kind="engaged")
    eng.emit("enemy_engaged", player=seat, card=eid)


def _ability_payable(state: ArkhamState, seat: int, cid: int, ab: Ability) -> bool:
    card = state.cards[cid]
    if ab.exhaust and card.exhausted:
        return False
    if ab.uses and card.counters.get("uses", 0) < ab.uses:
        return False
    if ab.resources and state.inv[seat].resources < ab.resources:
        return False
    if ab.clue_cost and state.inv[seat].clues < ab.clue_cost:
        return False  # A993.6
    if ab.requires and not any(state.cards[c].code == ab.requires
                               for c in state.zones[Z_PLAY[seat]].cards):
        return False
    if ab.condition and not _midnight_rules.condition_met(state, seat, cid, ab.condition):
        return False  # A981.3
    if ab.limit:
        used = limit_store(state, seat, ab.limit)
        most = 2 if ab.limit.startswith("twice:") else 1  # Hospital Debts (A974.3)
        if used.get(f"{cid}:{ab.limit}", 0) >= most:  # A107.1, A107.2, A910.1
            return False
    return True


def limit_store(state: ArkhamState, seat: int, limit: str) -> dict[str, int]:
    """Where uses of an ability with ``limit`` are counted (keys ``<card>:<limit>``):
    ``group_limits`` for a group limit (A107.2) and for a limit that belongs to the card
    copy whoever uses it (``twice:round``, Hospital Debts, A974.3); otherwise the
    investigator's own ``limits`` (A107.1)."""
    if limit.startswith(("group", "twice:")):
        return state.group_limits
    return state.inv[seat].limits


def _fight_targets(state: ArkhamState, seat: int) -> list[int]:
    """A413.1/A604.2: enemies at your location; unengaged aloof enemies excluded."""
    here = enemies_at(state, state.inv[seat].location)
    if not here:
        return here  # a new list: the caller may keep it
    out = []
    cards = state.cards
    # a card whose printed keywords lack "aloof" never has it (a blank text box only
    # removes keywords): only the others are looked up
    aloof = None if state.extra_defs else (_KW_CODES.get("aloof") or keyword_codes("aloof"))
    for eid in here:
        if (aloof is None or cards[eid].code in aloof) and engaged_seat(state, eid) < 0 and \
                has_kw(dof(state, eid), "aloof"):
            continue
        out.append(eid)
    return out


def _evade_targets(state: ArkhamState, seat: int) -> list[int]:
    """A412.1: enemies engaged with you (ready massive enemies included)."""
    return engaged_enemies(state, seat)


def card_cost(state: ArkhamState, cid: int) -> int:
    """What playing card ``cid`` costs now: its printed cost (a blank text box keeps it),
    lowered by its owner's location (A202, A982.4)."""
    return cost_of(state, cid, printed(state, cid))


def cost_of(state: ArkhamState, cid: int, d: CardDef) -> int:
    """:func:`card_cost` of card ``cid`` whose printed definition ``d`` the caller has."""
    cost = max(0, d.cost or 0)
    if not cost:
        return 0
    owner = state.cards[cid].owner
    if cost and d.type_code == "asset" and 0 <= owner < len(state.inv):
        loc = state.inv[owner].location
        if loc >= 0 and (state.extra_defs or state.cards[loc].code in _COST_BONUS_CODES):
            # Easttown: "Ally assets you play here cost 2 less" (A982.4)
            for key, mod in printed(state, loc).bonus.items():  # kept by a blank box
                if key.startswith("cost:") and key[5:] in _traits(d):
                    cost = max(0, cost + mod)
    return cost


def _unique_blocked(state: ArkhamState, d: CardDef) -> bool:
    """A108.1/A911.1: a unique title already in play blocks another copy."""
    if not d.is_unique:
        return False
    title = d.title
    for s in range(state.num_players):
        for cid in state.zones[Z_PLAY[s]].cards:
            if printed(state, cid).title == title:  # a blank text box keeps the title
                return True
    return False


def _threat_keyword(state: ArkhamState, seat: int, kw: str) -> bool:
    """Whether a card in the investigator's threat area has keyword ``kw``."""
    return any_has_kw(state, state.zones[Z_THREAT[seat]].cards, kw)


_KIND_ABILITIES: Final[dict[tuple[str, str], tuple[tuple[int, Ability], ...]]] = {}


def _abilities_of_kind(d: CardDef, kind: str) -> tuple[tuple[int, Ability], ...]:
    """``(index, ability)`` of the abilities of ``d`` of ``kind`` (``""``: every kind
    but reactions; ``"turn"``: those but fast abilities that boost a test, which a turn
    never offers; ``"boost"``: only those), in printed order; cached per pool code (pool definitions never
    change), computed afresh for scenario-supplied definitions."""
    if not d.abilities:
        return ()
    pooled = _POOL.get(d.code) is d
    if pooled:
        got = _KIND_ABILITIES.get((d.code, kind))
        if got is not None:
            return got
    if kind == "turn":  # what a turn may offer: "" without fast test boosts
        out = tuple((idx, ab) for idx, ab in enumerate(d.abilities)
                    if ab.kind != "reaction" and not (
                        ab.kind == "fast" and any(e.op == "test_bonus" for e in ab.effects)))
    elif kind == "boost":  # what a skill test's window may offer: fast test boosts
        out = tuple((idx, ab) for idx, ab in enumerate(d.abilities)
                    if ab.kind == "fast" and any(e.op == "test_bonus" for e in ab.effects))
    else:
        out = tuple((idx, ab) for idx, ab in enumerate(d.abilities)
                    if (ab.kind == kind if kind else ab.kind != "reaction"))
    if pooled:
        _KIND_ABILITIES[(d.code, kind)] = out
    return out


#: ``{code: _abilities_of_kind(d, kind)}`` of the pool's cards with such abilities, per
#: kind the rules ask about (built once; the pool never changes).
_KIND_TABLES: Final[dict[str, dict[str, tuple[tuple[int, Ability], ...]]]] = {
    kind: {code: abilities for code, d in _POOL.items()
           if (abilities := _abilities_of_kind(d, kind))}
    for kind in ("", "turn", "boost", "fast", "action")}


def _activatables(state: ArkhamState, seat: int, kind: str) -> list[tuple[int, int, Ability]]:
    """Abilities of ``kind`` (``""``: action and fast; ``"turn"``: those but fast test
    boosts; ``"boost"``: fast test boosts) the investigator may trigger now
    (A407.1): its own cards, its location and cards at it, the current act and agenda.
    Returns ``(card, ability index, ability)`` in source order."""
    inv = state.inv[seat]
    zones = state.zones
    loc = inv.location
    out: list[tuple[int, int, Ability]] = []
    cards = state.cards
    extra = state.extra_defs
    tables = None if extra else _KIND_TABLES.get(kind)
    if tables is not None:
        # the usual case: most cards have no such ability; gather only those that may,
        # in the same source order as below
        # (plain loops: a comprehension is one more call per use)
        sources: list[int] = []
        for cid in zones[Z_PLAY[seat]].cards:
            if cards[cid].code in tables:
                sources.append(cid)
        if loc >= 0:
            if cards[loc].code in tables:
                sources.append(loc)
            for cid in zones[Z_AT[loc]].cards:
                if cards[cid].code in tables:
                    sources.append(cid)
            for s in ((() if inv.status else (seat,)) if len(state.inv) == 1
                      else seats_at(state, loc)):
                for cid in zones[Z_THREAT[s]].cards:
                    if cards[cid].code in tables:
                        sources.append(cid)
        top = zones["acts"].cards
        if top and cards[top[0]].code in tables:
            sources.append(top[0])
        top = zones["agendas"].cards
        if top and cards[top[0]].code in tables:
            sources.append(top[0])
        if not sources:
            return out
    else:
        sources = list(zones[Z_PLAY[seat]].cards)
        if loc >= 0:
            sources.append(loc)
            sources += zones[Z_AT[loc]].cards
            for s in seats_at(state, loc):
                sources += zones[Z_THREAT[s]].cards
        for z in ("acts", "agendas"):
            top = zones[z].cards
            if top:
                sources.append(top[0])
    # answers that do not depend on the ability: asked at most once per call
    fight: bool | None = None
    evade: bool | None = None
    investigate: bool | None = None
    pool = _POOL
    by_code = tables
    for cid in sources:
        code = cards[cid].code
        if by_code is not None:  # the usual case: most cards have no such ability
            abilities = by_code.get(code)
            if abilities is None:
                continue
            d = pool[code]
        else:
            d = (extra.get(code) if extra else None) or pool[code]
            abilities = _abilities_of_kind(d, kind)
            if not abilities:
                continue
        if d.type_code == "location" and not is_revealed(state, cid):
            continue
        if cid == inv.card and investigator_blank(state, seat):
            continue  # Stubborn Detective (A976.5)
        counters = cards[cid].counters
        if counters:
            stamp = counters.get("blank")
            if stamp and _card_choices.blank_now(state, stamp):
                continue  # Mind Wipe: a blank text box has no abilities (A978.6)
        for idx, ab in abilities:
            if not _ability_payable(state, seat, cid, ab):
                continue
            action = ab.action
            if action == "fight":
                if fight is None:
                    fight = bool(_fight_targets(state, seat))
                if not fight:
                    continue
            elif action == "evade":
                if evade is None:
                    evade = bool(_evade_targets(state, seat))
                if not evade:
                    continue
            elif action == "investigate":
                if investigate is None:
                    investigate = can_investigate(state, loc)
                if not investigate:
                    continue  # A985.3
            effects = ab.effects
            if effects:
                op = effects[0].op
                if op == "return_to_hand" and (
                        loc < 0 or cards[loc].counters.get("clues", 0) > 0):
                    continue  # Magnifying Glass (1): only where no clues are left (A978.9)
                if action == "parley" and d.type_code == "enemy" and \
                        location_of(state, cid) != loc:
                    continue
                if op == "take_control" and all(
                        e.op == "take_control" for e in effects) and not any(
                        cards[x].code == e.code for e in effects
                        for x in zones["setaside"].cards):
                    continue  # A904.2: nothing left to take control of
                if op in ("choose_investigator", "add_uses_here") and \
                        not _card_choices.choice_useful(state, seat, effects[0]):
                    continue  # A904.2: First Aid with nobody hurt here, Old Book on empty decks
            elif action == "parley" and d.type_code == "enemy" and \
                    location_of(state, cid) != loc:
                continue
            out.append((cid, idx, ab))
    return out


def _spend_group_clues(eng: Eng, seat: int, need: int, seats: list[int] | None = None) -> None:
    """A801.3: the group spends clues. When several investigators could contribute and
    there is more than one way to pay, the lead (for the group) picks exactly ``need`` of
    the clues held (keys ``clue:<seat>:<n>``); otherwise they are simply taken. Call it
    after pushing what follows the payment: the question's resume runs first."""
    state = eng.state
    order = seats if seats is not None else [seat] + [s for s in player_order(state) if s != seat]
    holders = [s for s in order if state.inv[s].clues > 0]
    if len(holders) > 1 and sum(state.inv[s].clues for s in holders) > need:
        opts = [Option(key=f"clue:{s}:{k}", label=f"Investigator {s}: clue {k}")
                for s in holders for k in range(1, state.inv[s].clues + 1)]
        eng.ask(state.lead, "spend_clues", f"Choose the {need} clues the group spends",
                opts, min=need, max=need, resume=SpendCluesAnswer())
        return
    _take_clues(eng, order, need)


def _take_clues(eng: Eng, order: list[int], need: int) -> None:
    state = eng.state
    for s in order:
        if need <= 0:
            break
        take = min(need, state.inv[s].clues)
        state.inv[s].clues -= take
        need -= take
        if take:
            eng.emit("clues_spent", player=s, amount=take)


def _ask_enemy(eng: Eng, seat: int, targets: list[int], resume: ChooseEnemyAnswer) -> None:
    """Choose one enemy (no question when only one fits), then continue with ``resume``."""
    state = eng.state
    if not targets:
        return
    if len(targets) == 1:
        _action_rules._enemy_chosen(eng, resume, targets[0])
        return
    eng.ask(seat, "choose_enemy", "Choose an enemy",
            [Option(key=f"enemy:{e}", label=name_of(state, e), card=e) for e in targets],
            resume=resume)


_AUTO_FAIL: Final = TokenEffect(auto_fail=True)
#: "Gain 1 resource" (upkeep, the resource action); effects are frozen, so shared.
GAIN_ONE: Final = (Effect(op="gain_resources", amount=1),)
#: End of the mythos phase: forced abilities of enemies in play (A982.3).
_MYTHOS_END: Final = (Effect(op="enemies_forced", code="mythos_end"),)


_TRAITS: Final[dict[str, tuple[str, ...]]] = {}


def _traits(d: CardDef) -> tuple[str, ...]:
    """The card's traits, e.g. ``("Item", "Weapon", "Firearm")`` (parsed once per
    distinct traits text)."""
    out = _TRAITS.get(d.traits)
    if out is None:
        out = _TRAITS[d.traits] = tuple(t.strip() for t in d.traits.split(".") if t.strip())
    return out


_SYMBOLS: Final = frozenset({"skull", "cultist", "tablet", "elder_thing", "auto_fail"})


def barricaded(state: ArkhamState, eid: int, loc: int) -> bool:
    """Barricade (A975.12): a non-Elite enemy cannot move into a location it is attached to."""
    return "Elite" not in _traits(dof(state, eid)) and any(
        "barricade" in dof(state, c).keywords for c in state.zones[Z_AT[loc]].cards)


def _enemy_enters(eng: Eng, eid: int, loc: int) -> None:
    state = eng.state
    if not can_enter(state, loc) or barricaded(state, eid, loc):
        return  # A605.6, A975.12
    eng.move(eid, Z_AT[loc], kind="enemy_moved", data={"location": loc})
    eng.push(EngageCheck(enemy=eid))  # A602.1
    _enemy_entered(eng, eid, loc)


def _agenda_forced(state: ArkhamState, when: str) -> list[tcgcore.Step]:
    """Forced abilities of the current agenda and act for a timing point (RR step 3.4, A418.5)."""
    out: list[tcgcore.Step] = []
    zones = state.zones
    cards = state.cards
    forced = None if state.extra_defs else FORCED_CODES  # cards without any: skipped
    for z in ("agendas", "acts"):  # the current agenda, then the current act
        top = zones[z].cards
        if top:
            cid = top[0]
            if forced is not None and cards[cid].code not in forced:
                continue
            effects = dof(state, cid).forced.get(when)
            if effects:
                out.append(Effects(seat=state.lead, effects=effects, source=cid))
    return out


# ============================================================================ upkeep


@spec.handles(UpkeepPhase)
def _upkeep(eng: Eng, step: UpkeepPhase) -> None:
    """A418: reset, ready everything, draw 1 and gain 1 each, hand size, round end."""
    state = eng.state
    state.phase = "upkeep"
    eng.emit("phase", data={"phase": "upkeep"})
    readied: list[int] = []
    cards = state.cards
    zones = state.zones
    for zid in zone_ids(state, _PLAY_ZONE_PREFIXES):
        for cid in zones[zid].cards:
            if cid >= 0 and cards[cid].exhausted:
                eng.update_card(cid, exhausted=False)  # A418.2
                readied.append(cid)
    seats = player_order(state)
    for s in seats:
        inv = state.inv[s]
        if inv.limits:  # an empty one stays empty
            inv.limits = {k: v for k, v in inv.limits.items()
                          if not k.endswith((":round", ":turn", ":phase"))}
    for card in cards:
        counters = card.counters
        if counters and "blank" in counters:
            eng.remove_counter(card.id, "blank")  # Mind Wipe ends (A978.6)
    if state.group_limits:
        state.group_limits = {k: v for k, v in state.group_limits.items()
                              if not k.endswith(("_round", "_turn", "_phase",
                                                 ":round", ":turn", ":phase"))}
    steps: list[tcgcore.Step] = []  # plain loops: no comprehension calls
    for c in readied:
        if is_enemy(state, c):
            steps.append(EngageCheck(enemy=c))
    for s in seats:
        steps.append(DoDraw(seat=s))
    for s in seats:
        steps.append(Effects(seat=s, effects=GAIN_ONE))
    eng.push(*steps, HandSize(seats=seats), EndRound())  # A418.3-A418.5


@spec.handles(HandSize)
def _hand_size(eng: Eng, step: HandSize) -> None:
    state = eng.state
    for i, seat in enumerate(step.seats):
        if state.inv[seat].status:
            continue
        hand = state.zones[Z_HAND[seat]].cards
        excess = len(hand) - HAND_SIZE
        if excess > 0:
            eng.ask(seat, "hand_size", f"Discard {excess} card(s) down to {HAND_SIZE}",
                    [Option(key=f"card:{c}", label=name_of(state, c), card=c) for c in hand],
                    min=excess, max=excess, resume=HandSizeAnswer(seats=step.seats[i:]))
            return


@spec.handles(HandSizeAnswer)
def _hand_size_answer(eng: Eng, step: HandSizeAnswer) -> None:
    for key in eng.answer:
        discard_card(eng, int(key.split(":")[1]))
    if len(step.seats) > 1:
        eng.push(HandSize(seats=step.seats[1:]))


@spec.handles(EndRound)
def _end_round(eng: Eng, step: EndRound) -> None:
    """A418.5: round-end effects (objectives, "until end of round" treacheries)."""
    state = eng.state
    steps: list[tcgcore.Step] = []
    cards = state.cards
    forced = None if state.extra_defs else FORCED_CODES
    zones = state.zones
    for zid in zone_ids(state, ENEMY_ZONE_PREFIXES):  # nothing below changes the zones
        for cid in zones[zid].cards:
            if forced is not None and cards[cid].code not in forced:
                continue  # no forced ability at all
            d = dof(state, cid)
            if d.type_code in ("treachery", "enemy") and "round_end" in d.forced:
                steps.append(Effects(seat=_seat_of_zone(zid, state), effects=d.forced["round_end"],
                                     source=cid))
    for loc in state.zones["locations"].cards:  # Ritual Site (A992.6)
        if forced is not None and cards[loc].code not in forced:
            continue
        fx = dof(state, loc).forced.get("round_end")
        if fx:
            steps.append(Effects(seat=state.lead, effects=fx, source=loc))
    eng.emit("round_ended", amount=state.turn)
    steps += _agenda_forced(state, "round_end")
    eng.push(*steps, RoundEndObjective(), BeginRound())


def _seat_of_zone(zid: str, state: ArkhamState) -> int:
    return int(zid[7:]) if zid.startswith("threat.") else state.lead


@spec.handles(RoundEndObjective)
def _round_end_objective(eng: Eng, step: RoundEndObjective) -> None:
    """An Objective "when the round ends, investigators at X may spend clues" (A801.4)."""
    state = eng.state
    act = current_act(state)
    if act < 0:
        return
    obj = dof(state, act).objective
    if not obj.startswith("round_end_at:"):
        return
    loc = location_by_code(state, obj.split(":", 1)[1])
    seats = seats_at(state, loc) if loc >= 0 else []
    need = act_threshold(state)
    if not seats or sum(state.inv[s].clues for s in seats) < need:
        return
    eng.ask(state.lead, "advance_act", "Spend clues to advance the act?",
            [Option(key="yes", label="Spend and advance"), Option(key="no", label="Not now")],
            resume=ObjectiveAnswer())


@spec.handles(ObjectiveAnswer)
def _objective_answer(eng: Eng, step: ObjectiveAnswer) -> None:
    state = eng.state
    if eng.answer[0] != "yes":
        return
    act = current_act(state)
    loc = location_by_code(state, dof(state, act).objective.split(":", 1)[1])
    seats = seats_at(state, loc)
    eng.push(AdvanceAct())
    _spend_group_clues(eng, seats[0], act_threshold(state), seats)


# ============================================================================ act / agenda


@spec.handles(AdvanceAgenda)
def _advance_agenda(eng: Eng, step: AdvanceAgenda) -> None:
    """A803.1: remove all doom in play, flip, resolve the b side, next agenda."""
    state = eng.state
    ag = current_agenda(state)
    if ag < 0:
        return
    for zid, zone in state.zones.items():
        if zid in ("locations", "agendas") or zid.startswith(_PLAY_ZONE_PREFIXES):
            for cid in zone.cards:
                if cid >= 0 and "doom" in state.cards[cid].counters:
                    eng.remove_counter(cid, "doom")
    eng.emit("agenda_advanced", card=ag, code=state.cards[ag].code)
    eng.move(ag, "out", kind="flipped")
    run_effects(eng, state.lead, dof(state, ag).back, ag)


@spec.handles(AdvanceAct)
def _advance_act(eng: Eng, step: AdvanceAct) -> None:
    """A803.2: flip the act, resolve its b side, next act."""
    state = eng.state
    act = current_act(state)
    if act < 0:
        return
    state.act_advanced += 1
    eng.emit("act_advanced", card=act, code=state.cards[act].code)
    eng.move(act, "out", kind="flipped")
    run_effects(eng, state.lead, dof(state, act).back, act)


# ============================================================================ triggers


def collect(eng: Eng, event: Event) -> list[Trigger]:
    """Forced abilities and reactions an event triggers (A902): location "after you
    enter" forced effects, investigator reactions "after you defeat an enemy"."""
    kind = event.kind
    state = eng.state
    if kind == "phase":  # the most frequent: only player cards' "after a phase begins"
        if not state.extra_defs and not _owns_play_when(state, "phase_begins"):
            return []  # nobody's deck list has such a card (public): no window (A913.1)
        return _card_choices.card_triggers(eng, event)
    # A994.5, A994.7 (the Devourer Below's collector answers only these two kinds)
    found: list[Trigger] = _devourer_rules.collect(eng, event) if kind in (
        "enemy_engaged", "enemy_defeated") else []
    if kind == "entered" and event.card is not None and event.player is not None:
        d = dof(state, event.card)
        if "after_enter" in d.forced:
            found.append(Trigger(id="", player=event.player, ability="forced:after_enter",
                                 source=event.card, label=f"{d.name}: forced"))
    elif kind == "enemy_attacks" and event.player is not None:
        # "when" an enemy attacks an investigator at your location: fast cards such as
        # the test Dodge may cancel it (A901.1); peril blocks the others (A613.1)
        loc = state.inv[event.player].location
        for s in seats_at(state, loc):
            if (state.peril >= 0 and s != state.peril) or _threat_keyword(state, s, "no_play"):
                continue  # peril (A613.1); an encounter "cannot play" wins (A106.2, A106.4)
            found += _hand_plays(state, s, "enemy_attacks", "")  # A913.1
    elif kind == "clues_would_discover" and event.player is not None and \
            event.card is not None:  # Cover Up (A974.1): a reaction, so it may be declined
        found.append(Trigger(id="", player=event.player, ability="cover_up",
                             source=event.card, optional=True, timing="when",
                             label=f"{name_of(state, event.card)}: reaction"))
    elif kind == "enemy_entered" and event.card is not None:
        d = dof(state, event.card)
        if "enemy_enters" in d.forced:
            found.append(Trigger(id="", player=state.lead, ability="forced:enemy_enters",
                                 source=event.card, label=f"{d.name}: forced"))
    elif kind == "encounter_drawn" and event.card is not None:
        # Ward of Protection: "when you draw a treachery that is not a weakness"
        seat = int(str((event.data or {}).get("seat", -1)))
        d = dof(state, event.card)
        if seat >= 0 and not state.inv[seat].status and d.type_code == "treachery" and \
                not d.is_weakness() and not _threat_keyword(state, seat, "no_play"):
            found += _hand_plays(state, seat, "treachery_drawn", f":{event.card}")
    elif kind == "test_failed" and event.player is not None:
        # "Look what I found!": after you fail an investigation by 2 or less
        seat = event.player
        if (event.data or {}).get("kind") == "investigate" and (event.amount or 0) >= -2 and \
                not state.inv[seat].status and not _threat_keyword(state, seat, "no_play"):
            found += _hand_plays(state, seat, "failed_investigate_by2", "")
    elif kind == "harm_placed" and event.player is not None:
        seat = event.player
        data = event.data or {}
        # A703.3: an investigator whose damage or horror now reaches the limit is defeated
        # at once; none of their "after you take damage/horror" abilities resolve (their
        # CheckDefeat runs next). Psychosis and Hypochondria feed each other until then.
        if not state.inv[seat].status and not lethal(state, seat):
            hits: list[str] = []  # plain: no comprehension call
            if int(data.get("damage", 0) or 0) > 0:
                hits.append("damage")
            if int(data.get("horror", 0) or 0) > 0:
                hits.append("horror")
            cards = state.cards
            pooled = not state.extra_defs  # then cards without forced abilities are skipped
            for k in hits:
                for cid in state.zones[Z_THREAT[seat]].cards:
                    if pooled and cards[cid].code not in FORCED_CODES:
                        continue
                    if f"after_{k}" in dof(state, cid).forced:  # Psychosis, Hypochondria
                        found.append(Trigger(id="", player=seat, ability=f"forced:after_{k}",
                                             source=cid, label=f"{name_of(state, cid)}: forced"))
            inv = state.inv[seat]
            if "horror" in hits and (not pooled or
                                     cards[inv.card].code in reaction_codes("after_horror")):
                d = dof(state, inv.card)  # blank under Stubborn Detective
                for idx, ab in enumerate(d.abilities):
                    if ab.kind == "reaction" and ab.trigger == "after_horror" and \
                            _ability_payable(state, seat, inv.card, ab) and \
                            enemies_at(state, inv.location):
                        found.append(Trigger(id="", player=seat, ability=f"reaction:{idx}",
                                             source=inv.card, optional=True,
                                             label=f"{d.name}: reaction"))
    elif kind == "played" and event.player is not None and event.card is not None:
        seat = event.player
        d = dof(state, event.card)
        if d.type_code == "event" and not state.inv[seat].status:
            cards = state.cards
            pooled = not state.extra_defs  # then cards without forced abilities are skipped
            for cid in state.zones[Z_PLAY[seat]].cards:
                if pooled and cards[cid].code not in FORCED_CODES:
                    continue
                fx = dof(state, cid).forced
                for key in fx:
                    if key.startswith("after_play:") and key[11:] in _traits(d):
                        found.append(Trigger(id="", player=seat, ability=f"forced:{key}",
                                             source=cid, optional=True,
                                             label=f"{name_of(state, cid)}: reaction"))
    elif kind == "enemy_defeated" and event.player is not None:
        seat = event.player
        if not state.inv[seat].status:
            if not _threat_keyword(state, seat, "no_play"):  # Evidence! (A913.1)
                found += _hand_plays(state, seat, "after_defeat_enemy", "", timing="after")
            inv = state.inv[seat]
            d = dof(state, inv.card)  # blank under Stubborn Detective
            for idx, ab in enumerate(d.abilities):
                if ab.kind == "reaction" and ab.trigger == "after_defeat_enemy":
                    if not _ability_payable(state, seat, inv.card, ab):
                        continue
                    found.append(Trigger(id="", player=seat, ability=f"reaction:{idx}",
                                         source=inv.card, optional=True,
                                         label=f"{d.name}: reaction"))
    if kind in ("enemy_evaded", "enemy_auto_evaded") and event.card is not None and \
            "after_evaded" in dof(state, event.card).forced:
        # Ruth Turner (A984.4): a forced trigger, so it resolves before any reaction or
        # play such as Close Call at the same moment (A902.1)
        found.append(Trigger(id="", player=event.player if event.player is not None
                             else state.lead, ability="forced:after_evaded",
                             source=event.card, label=f"{name_of(state, event.card)}: forced"))
    if kind in _CARD_TRIGGER_KINDS:  # player cards reacting to enemies and phases (A978.9)
        found += _card_choices.card_triggers(eng, event)
    return found


_CARD_TRIGGER_KINDS: Final = frozenset({"spawned", "enemy_attacks", "enemy_evaded", "enemy_auto_evaded",
                                 "phase"})


def _inv_name(state: ArkhamState, seat: int) -> str:
    """The seat's investigator's name, for option and trigger labels."""
    return cdef(state, state.inv[seat].code).name


def playable_hand(state: ArkhamState, seat: int) -> list[int]:
    """The cards the seat may play as from hand: its hand, plus the event on top of its
    discard pile while Wendy's Amulet is in play (A975.13), in every timing window."""
    hand = state.zones[Z_HAND[seat]].cards
    top = _action_rules.amulet_event(state, seat)
    return [*hand, top] if top >= 0 else list(hand)


_PLAY_WHEN: Final[dict[str, frozenset[str]]] = {}


def _play_when_codes(when: str) -> frozenset[str]:
    """Codes of the pool's cards whose ``play_when`` is ``when`` (computed once per
    timing from the immutable pool)."""
    codes = _PLAY_WHEN.get(when)
    if codes is None:
        codes = _PLAY_WHEN[when] = frozenset(code for code, d in _POOL.items()
                                             if d.play_when == when)
    return codes


_REACTS: Final[dict[str, frozenset[str]]] = {}


def reaction_codes(trigger: str) -> frozenset[str]:
    """Codes of the pool's cards with a reaction ability whose ``trigger`` is
    ``trigger`` (computed once per trigger from the immutable pool; a blank text box
    only removes abilities, so other cards never react)."""
    codes = _REACTS.get(trigger)
    if codes is None:
        codes = _REACTS[trigger] = frozenset(
            code for code, d in _POOL.items()
            if any(ab.kind == "reaction" and ab.trigger == trigger for ab in d.abilities))
    return codes


def _owns_play_when(state: ArkhamState, when: str) -> bool:
    """Whether any seat owns a card (in any zone) whose printed ``play_when`` is ``when``:
    a public fact of the deck lists."""
    codes = _PLAY_WHEN.get(when) or _play_when_codes(when)
    if not codes:
        return False
    for card in state.cards:
        if card.code in codes:
            return True
    return False


def _may_play_when(state: ArkhamState, seat: int, when: str) -> bool:
    """False when no card :func:`playable_hand` could hold has ``play_when`` ``when``:
    none in the seat's hand, and the top of its discard pile (Wendy's Amulet) is not
    one; True otherwise (then the caller looks card by card). Codes only, no lookups."""
    if state.extra_defs:
        return True
    codes = _PLAY_WHEN.get(when)
    if codes is None:
        codes = _play_when_codes(when)
    if not codes:
        return False
    cards = state.cards
    pile = state.zones[Z_DISCARD[seat]].cards
    if pile and cards[pile[-1]].code in codes:
        return True
    for c in state.zones[Z_HAND[seat]].cards:
        if cards[c].code in codes:
            return True
    return False


def response_cards(state: ArkhamState, seat: int, when: str) -> list[int]:
    """The cards the seat could play now from hand (or from the top of its discard pile,
    Wendy's Amulet) whose ``play_when`` is ``when`` and that it can afford."""
    cards = state.cards
    extra = state.extra_defs
    out: list[int] = []
    for cid in playable_hand(state, seat):
        code = cards[cid].code
        d = (extra.get(code) if extra else None) or _POOL[code]  # play_when: printed
        if d.play_when == when and state.inv[seat].resources >= card_cost(state, cid):
            out.append(cid)
    return out


def may_respond(state: ArkhamState, seat: int, when: str) -> bool:
    """A913.1 (response windows): whether the seat gets a window to play a ``when`` card
    from hand, decided from public facts only, so that the window itself tells nobody
    what the hand holds: the seat's deck list (every card it owns, wherever it is) has
    a card with that timing which it could afford now, and its hand is not empty; or the
    event on top of its discard pile (Wendy's Amulet, public) could be played now."""
    top = _action_rules.amulet_event(state, seat)
    if top >= 0 and dof(state, top).play_when == when and \
            state.inv[seat].resources >= card_cost(state, top):
        return True
    if not state.zones[Z_HAND[seat]].cards:
        return False
    codes = _PLAY_WHEN.get(when) or _play_when_codes(when)
    extra = state.extra_defs
    resources = state.inv[seat].resources
    for card in state.cards:
        if card.owner != seat or (card.code not in codes and not extra):
            continue
        if dof(state, card.id).play_when == when and resources >= card_cost(state, card.id):
            return True
    return False


def _hand_plays(state: ArkhamState, seat: int, when: str, suffix: str, *,
                timing: Literal["when", "after"] = "when") -> list[Trigger]:
    """The seat's response window for ``when`` (A913.1), as one optional trigger: opened
    whenever :func:`may_respond` says so from public facts. It plays the first card of
    :func:`response_cards` (key ``play_when:<card><suffix>``), or, when the hand holds
    none, it is a window the seat can only pass (``pass_when:<when><suffix>``, its source
    a card of the hand, so that to every other seat it looks the same)."""
    if not may_respond(state, seat, when):
        return []
    real = response_cards(state, seat, when)
    name = _inv_name(state, seat)
    if real:
        cid = real[0]
        return [Trigger(id="", player=seat, ability=f"play_when:{cid}{suffix}", source=cid,
                        optional=True, timing=timing,
                        label=f"{name}: play {dof(state, cid).name}")]
    hand = state.zones[Z_HAND[seat]].cards
    return [Trigger(id="", player=seat, ability=f"pass_when:{when}{suffix}", source=hand[0],
                    optional=True, timing=timing,
                    label=f"{name}: no card to play now (answer no)")]


def resolve(eng: Eng, trigger: Trigger) -> None:
    """Carry out one forced ability or reaction."""
    state = eng.state
    if trigger_of_eliminated(state, trigger):
        return  # A705.10: an eliminated investigator's abilities no longer resolve
    src = trigger.source if trigger.source is not None else -1
    if _devourer_rules.resolve(eng, trigger):
        pass
    elif trigger.ability == "forced:after_enter" and src >= 0:
        run_effects(eng, trigger.player, dof(state, src).forced["after_enter"], src)
    elif trigger.ability == "forced:enemy_enters" and src >= 0:
        run_effects(eng, trigger.player, dof(state, src).forced["enemy_enters"], src)
    elif trigger.ability.startswith("forced:") and src >= 0:
        fx = dof(state, src).forced.get(trigger.ability[7:])
        if fx and state.cards[src].zone.startswith(_PLAY_ZONE_PREFIXES):
            run_effects(eng, trigger.player, fx, src)
    elif trigger.ability == "cover_up" and src >= 0:
        state.cancelled.append(trigger.event)  # the discovery comes off Cover Up (A974.1)
    elif trigger.ability.startswith("pass_when:"):
        return  # a response window the seat could only pass (A913.1): nothing happens
    elif trigger.ability.startswith("play_when:") and src >= 0:
        seat = trigger.player
        card = state.cards[src]
        if (card.zone != Z_HAND[seat] and src != _action_rules.amulet_event(state, seat)) \
                or state.inv[seat].resources < card_cost(state, src):
            return  # no longer in hand (nor on top of the discard pile, A975.13)
        d = dof(state, src)
        state.inv[seat].resources -= card_cost(state, src)
        eng.move(src, "resolving", kind="played")
        rest = tuple(e for e in d.effects if e.op not in ("cancel_attack", "cancel_revelation"))
        if any(e.op == "cancel_attack" for e in d.effects):
            state.cancelled.append(trigger.event)
        parts = trigger.ability.split(":")
        if len(parts) > 2 and any(e.op == "cancel_revelation" for e in d.effects):
            state.cancelled.append(-1 - int(parts[2]))  # Ward of Protection
        if len(parts) > 2:  # the card the play reacts to (Close Call, A978.6)
            rest = _card_choices.with_trigger_card(rest, int(parts[2]))
        eng.push(Effects(seat=seat, effects=rest, source=src),
                 FinishTreachery(card=src, seat=seat))
    elif trigger.ability.startswith("reaction:") and src >= 0:
        parts = trigger.ability.split(":")
        ab = dof(state, src).abilities[int(parts[1])]
        if ab.limit:
            key = f"{src}:{ab.limit}"
            lim = state.inv[trigger.player].limits
            lim[key] = lim.get(key, 0) + 1
        if len(parts) > 2:  # a player card's reaction to an enemy (A978.9)
            _card_choices.card_reaction(eng, trigger.player, src, ab, int(parts[2]),
                                        trigger.event)
        else:
            run_effects(eng, trigger.player, ab.effects, src)
    eng.emit("ability", player=trigger.player, card=trigger.source,
             data={"ability": trigger.ability})


spec.collect_triggers = collect
spec.trigger_kinds = frozenset({"entered", "enemy_defeated", "enemy_attacks", "enemy_entered",
                                "harm_placed", "played", "encounter_drawn", "test_failed",
                                "enemy_engaged", "clues_would_discover"}) | _CARD_TRIGGER_KINDS
spec.resolve_trigger = resolve


# ---------------------------------------------------------------------------- modules
# The other rule modules register their step handlers on ``spec`` when imported here
# (they import their helpers from this module); calls into them go through the module
# objects, so importing any of them first works.
from . import actions as _action_rules  # noqa: E402
from . import card_choices as _card_choices  # noqa: E402
from . import devourer_below as _devourer_rules  # noqa: E402
from . import effects as _effect_rules  # noqa: E402, F401
from . import enemies as _enemy_rules  # noqa: E402, F401
from . import midnight_masks as _midnight_rules  # noqa: E402
from . import skill_tests as _skill_test_rules  # noqa: E402, F401
