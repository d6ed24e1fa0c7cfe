"""What an investigator may do now: costs, activatable abilities, fight and evade
targets, playable cards and the response windows of cards in hand (A913.1).

Queries only (no state change), above :mod:`.queries`; :mod:`.actions`, :mod:`.rules`,
:mod:`.skill_tests` and :mod:`.card_choices` build their options from them.
"""

from __future__ import annotations

from typing import Final, Literal

from tcgcore import Trigger

from .cards import Ability, CardDef, Effect, TokenEffect
from .queries import (
    _COST_BONUS_CODES,
    _KW_CODES,
    _POOL,
    Z_AT,
    Z_DECK,
    Z_DISCARD,
    Z_HAND,
    Z_PLAY,
    Z_THREAT,
    _traits,
    any_has_kw,
    blank_now,
    can_investigate,
    cdef,
    condition_met,
    current_agenda,
    dof,
    enemies_at,
    engaged_enemies,
    engaged_seat,
    has_kw,
    inv_sanity,
    investigator_blank,
    is_revealed,
    keyword_codes,
    location_of,
    player_order,
    printed,
    seats_at,
)
from .state import (
    ArkhamState,
)


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
    if ab.condition and not condition_met(state, seat, cid, ab.condition):
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
            if stamp and blank_now(state, stamp):
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
                        not choice_useful(state, seat, effects[0]):
                    continue  # A904.2: First Aid with nobody hurt here, Old Book on empty decks
            elif action == "parley" and d.type_code == "enemy" and \
                    location_of(state, cid) != loc:
                continue
            out.append((cid, idx, ab))
    return out


_AUTO_FAIL: Final = TokenEffect(auto_fail=True)


#: "Gain 1 resource" (upkeep, the resource action); effects are frozen, so shared.
GAIN_ONE: Final = (Effect(op="gain_resources", amount=1),)


def _inv_name(state: ArkhamState, seat: int) -> str:
    """The seat's investigator's name, for option and trigger labels."""
    return cdef(state, state.inv[seat].code).name


def playable_hand(state: ArkhamState, seat: int) -> list[int]:
    """The cards the seat may play as from hand: its hand, plus the event on top of its
    discard pile while Wendy's Amulet is in play (A975.13), in every timing window."""
    hand = state.zones[Z_HAND[seat]].cards
    top = amulet_event(state, seat)
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
    top = amulet_event(state, seat)
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


def chooseable_seats(state: ArkhamState, seat: int, e: Effect) -> list[int]:
    """The investigators a ``choose_investigator`` effect may choose: those at the
    seat's location (the seat first) it could change (A904.2): with damage for First
    Aid's ``damaged``, with horror for ``horrified``, with cards in their deck when the
    effect searches the chosen investigator's deck (Old Book of Lore)."""
    loc = state.inv[seat].location
    seats = list(dict.fromkeys(s for s in [seat, *player_order(state)] if not state.inv[s].status
                               and state.inv[s].location == loc))
    if e.target == "damaged":  # First Aid: only someone it can heal
        seats = [s for s in seats if state.inv[s].damage > 0]
    elif e.target == "horrified":
        seats = [s for s in seats if state.inv[s].horror > 0]
    if any(x.op == "search_top" and x.target == "chosen" for x in e.on_success):
        seats = [s for s in seats if state.zones[Z_DECK[s]].cards]
    return seats


def _any_chooseable(state: ArkhamState, seat: int, e: Effect) -> bool:
    """``bool(chooseable_seats(state, seat, e))``, stopping at the first one."""
    loc = state.inv[seat].location
    target = e.target
    need_deck: bool | None = None  # looked at once a seat passes the other checks
    for s, inv in enumerate(state.inv):
        if inv.status or inv.location != loc:
            continue
        if (target == "damaged" and inv.damage <= 0) or \
                (target == "horrified" and inv.horror <= 0):
            continue
        if need_deck is None:  # it searches the chosen investigator's deck (plain loop)
            need_deck = False
            for x in e.on_success:
                if x.op == "search_top" and x.target == "chosen":
                    need_deck = True
                    break
        if need_deck and not state.zones[Z_DECK[s]].cards:
            continue
        return True
    return False


def uses_targets_here(state: ArkhamState, seat: int, trait: str) -> list[int]:
    """Assets with uses and ``trait`` controlled by investigators at the seat's location
    (the seat's own first): what Extra Ammunition may add uses to (A904.2)."""
    loc = state.inv[seat].location
    here = [seat, *(s for s in player_order(state) if s != seat and not state.inv[s].status
                    and state.inv[s].location == loc)]
    return [c for s in here for c in state.zones[Z_PLAY[s]].cards
            if dof(state, c).uses is not None and trait in _traits(dof(state, c))]


def choice_useful(state: ArkhamState, seat: int, e: Effect) -> bool:
    """Whether a choice op could change the game state now (A904.2): an investigator
    to choose (:func:`chooseable_seats`), an asset to add uses to."""
    if e.op == "choose_investigator":
        return _any_chooseable(state, seat, e)
    if e.op == "add_uses_here":
        return bool(uses_targets_here(state, seat, e.trait))
    return True


def amulet_event(state: ArkhamState, seat: int) -> int:
    """Wendy's Amulet (A975.13): the event on top of the seat's discard pile, playable as
    if it were in hand while the amulet is in play (-1: none)."""
    pile = state.zones[Z_DISCARD[seat]].cards
    if not pile:
        return -1
    top = pile[-1]
    code = state.cards[top].code  # printed(state, top), inline: the type is printed
    extra = state.extra_defs
    if ((extra.get(code) if extra else None) or _POOL[code]).type_code != "event" or \
            not any_has_kw(state, state.zones[Z_PLAY[seat]].cards, "amulet_events"):
        return -1
    return top


def enemy_stat_mod(state: ArkhamState, eid: int) -> int:
    """Modifier to an enemy's fight and evade: the current agenda's ``enemy_fight`` bonus
    (The Ritual Begins, A993.2) and +1 for a Screeching Byakhee engaged with an
    investigator at 4 or less remaining sanity (A994.2)."""
    mod = 0
    ag = current_agenda(state)
    if ag >= 0:
        mod += dof(state, ag).bonus.get("enemy_fight", 0)
    d = dof(state, eid)
    if "byakhee" in d.keywords:
        seat = engaged_seat(state, eid)
        if seat >= 0 and inv_sanity(state, seat) - state.inv[seat].horror <= 4:
            mod += 1
    return mod
