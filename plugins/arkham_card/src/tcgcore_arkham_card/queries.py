"""State queries of the arkham_card rules: what the state says, never a change to it.

The lowest layer of the rules engine (above :mod:`.cards` and :mod:`.state`): card
definitions as they stand now (blank text boxes, :func:`dof`), zones, investigators and
their skills, locations and their links (:func:`distances_from`), enemies and prey, doom
and the act/agenda thresholds, and the ability conditions (A981.3, A984.2). Every other
rules module imports from here; this module imports none of them. Rule numbers refer to
``docs/arkham_card/rules.md`` (A-numbers).
"""

from __future__ import annotations

from collections import deque
from typing import Final

import msgspec

from tcgcore import Engine, Trigger

from .cards import SKILLS, CardDef, card_pool
from .state import (
    ArkhamState,
)

GAME: Final = "arkham_card"
HAND_SIZE: Final = 8
#: Safety bound on chained surge draws (an encounter deck made only of surge cards would
#: otherwise never stop); far above anything a real deck produces.
MAX_SURGE: Final = 30
SLOT_LIMITS: Final[dict[str, int]] = {"hand": 2, "arcane": 2, "accessory": 1, "body": 1, "ally": 1}
Eng = Engine[ArkhamState]

# ============================================================================ cards and zones


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
        if stamp and blank_now(state, stamp):
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


def phase_stamp(state: ArkhamState) -> int:
    """A number unique to the current phase of the current round (never 0)."""
    phases = ("setup", "mythos", "investigation", "enemy", "upkeep")
    return state.turn * 8 + (phases.index(state.phase) if state.phase in phases else 0) + 1


def blank_now(state: ArkhamState, stamp: int) -> bool:
    """Whether a Mind Wipe ``blank`` counter set at phase ``stamp`` still holds."""
    return stamp == phase_stamp(state)


def clues_blocked(state: ArkhamState, seat: int) -> bool:
    """A984.2: an investigator engaged with an enemy that has the ``no_clues_engaged``
    keyword (The Masked Hunter) cannot discover or spend clues."""
    return any("no_clues_engaged" in dof(state, e).keywords for e in engaged_enemies(state, seat))


def _spenders(state: ArkhamState) -> list[int]:
    return [s for s in player_order(state) if not clues_blocked(state, s)]


def condition_met(state: ArkhamState, seat: int, cid: int, cond: str) -> bool:
    """Whether an ability's ``condition`` holds (A981.3, A983.2, A984.1).

    Conditions: ``hand:N`` (N cards in hand), ``clues:N`` (N clues the investigator may
    spend), ``group_clues_per_inv:N`` (the group may spend N clues per investigator and
    the Cultist deck is not empty), ``damaged``, ``horrified``, ``deck`` (cards in deck).
    Unknown conditions are false.
    """
    inv = state.inv[seat]
    kind, _, arg = cond.partition(":")
    if kind == "hand":
        return len(state.zones[Z_HAND[seat]].cards) >= int(arg)
    if kind == "clues":
        return inv.clues >= int(arg) and not clues_blocked(state, seat)
    if kind == "group_clues_per_inv":
        zone = state.zones.get(CULTIST_ZONE)
        if zone is None or not zone.cards:
            return False
        return sum(state.inv[s].clues for s in _spenders(state)) >= int(arg) * state.num_players
    if kind == "damaged":
        return inv.damage > 0
    if kind == "horrified":
        return inv.horror > 0
    if kind == "deck":
        return bool(state.zones[Z_DECK[seat]].cards)
    return False


#: Zone id of the Cultist deck.
CULTIST_ZONE: Final = "cultists"


def is_player_card(d: CardDef) -> bool:
    """Player cards (assets, events, skills, weaknesses) go to their owner's discard pile;
    story assets and scenario cards do not (A113.2, A208.3)."""
    return (d.type_code in ("asset", "event", "skill") and not d.encounter_code) or \
        d.is_weakness()


def _enemies_in_play(state: ArkhamState) -> list[int]:
    return _in_play_with(state, None if state.extra_defs else ENEMY_CODES)


def _in_play_with(state: ArkhamState, codes: frozenset[str] | None) -> list[int]:
    """The enemies in play (areas at locations and threat areas) in card id order: those
    whose code is in ``codes``, or with ``None`` (scenario-supplied definitions) every
    enemy by printed type."""
    out: list[int] = []
    cards = state.cards
    zones = state.zones
    for zid in zone_ids(state, ENEMY_ZONE_PREFIXES):
        for c in zones[zid].cards:  # a plain loop: no comprehension call
            if c >= 0 and (cards[c].code in codes if codes is not None
                           else is_enemy(state, c)):
                out.append(c)
    out.sort()
    return out


def _with_trait(state: ArkhamState, trait: str) -> list[int]:
    return [e for e in _enemies_in_play(state) if trait in _traits(dof(state, e))]


def max_doom_on_trait(state: ArkhamState, trait: str) -> int:
    """A983.4: the most doom on any one enemy with ``trait`` in play (the Skull token)."""
    return max((state.cards[e].counters.get("doom", 0) for e in _with_trait(state, trait)),
               default=0)


def unique_trait_in_victory(state: ArkhamState, trait: str) -> list[str]:
    """Codes of the different unique enemies with ``trait`` in the victory display."""
    seen: dict[str, str] = {}
    for c in state.zones["victory"].cards:
        d = dof(state, c)
        if d.type_code == "enemy" and d.is_unique and trait in _traits(d):
            seen.setdefault(d.title, d.code)
    return sorted(seen.values())
