"""The investigation phase: turn order, the actions (A404–A416), attacks of
opportunity, playing cards and activating abilities.

Part of the rules engine (layers in ``docs/architecture.md``): imports the shared
:mod:`.queries`, :mod:`.abilities` and :mod:`.operations`; :func:`register` puts the step
handlers on the spec :func:`.plugin.build_spec` builds.
"""

from __future__ import annotations

from typing import Final

import tcgcore
from tcgcore import Option

from . import card_choices as _card_choices
from .abilities import (
    GAIN_ONE,
    _ability_payable,
    _activatables,
    _evade_targets,
    _fight_targets,
    _threat_keyword,
    _unique_blocked,
    amulet_event,
    card_cost,
    choice_useful,
    cost_of,
    enemy_stat_mod,
    limit_store,
)
from .cards import Ability, CardDef, Effect
from .operations import (
    _engage,
    _spend_group_clues,
    discard_card,
    draw_cards,
    end_phase_limits,
    engage_unengaged_at,
    enter_location,
    ready_at_turn_end,
    run_effects,
)
from .queries import (
    _POOL,
    BONUS_CODES,
    FORCED_CODES,
    SLOT_LIMITS,
    Z_AT,
    Z_DISCARD,
    Z_HAND,
    Z_PLAY,
    Z_THREAT,
    Eng,
    _traits,
    act_threshold,
    any_has_kw,
    can_investigate,
    cdef,
    clues_blocked,
    dof,
    enemies_at,
    engaged_enemies,
    has_kw,
    is_revealed,
    location_of,
    name_of,
    player_order,
    playing,
    printed,
    register_aura,
    shroud,
)
from .state import (
    ActionChosen,
    AdvanceAct,
    AooPick,
    ArkhamState,
    AttacksOfOpportunity,
    ChooseEnemyAnswer,
    DamageEnemy,
    DoActivate,
    DoDraw,
    DoEngage,
    DoMove,
    DoPlay,
    DoResign,
    Effects,
    Eliminate,
    EndTurn,
    EnemyAttack,
    EnemyPhase,
    FinishTreachery,
    InvestigationPhase,
    NextTurn,
    SkillTest,
    SlotAnswer,
    SpendCluesAnswer,
    StartTest,
    TurnAction,
    TurnPick,
)

# ============================================================================ investigation


def _investigation(eng: Eng, step: InvestigationPhase) -> None:
    state = eng.state
    end_phase_limits(state)  # the mythos phase (or the setup) ended (A978.3)
    state.phase = "investigation"
    for inv in state.inv:
        inv.acted = False
    eng.emit("phase", data={"phase": "investigation"})
    eng.push(NextTurn())


def _next_turn(eng: Eng, step: NextTurn) -> None:
    """A403.2: the lead names the next investigator to take a turn."""
    state = eng.state
    remaining: list[int] = []  # a plain loop: no comprehension call
    invs = state.inv
    for s in player_order(state):
        if not invs[s].acted:
            remaining.append(s)
    if not remaining:
        state.turn_seat = -1
        eng.push(EnemyPhase())
        return
    if len(remaining) == 1:
        _start_turn(eng, remaining[0])
        return
    eng.ask(state.lead, "turn_order", "Which investigator takes the next turn?",
            [Option(key=f"inv:{s}", label=cdef(state, state.inv[s].code).name)
             for s in remaining], resume=TurnPick())


def _turn_pick(eng: Eng, step: TurnPick) -> None:
    _start_turn(eng, int(eng.answer[0].split(":")[1]))


def _start_turn(eng: Eng, seat: int) -> None:
    state = eng.state
    state.turn_seat = seat
    state.active_player = seat
    inv = state.inv[seat]
    extra = 0
    special: list[str] = []
    cards = state.cards
    with_bonus = None if state.extra_defs else BONUS_CODES  # cards without any: skipped
    for c in state.zones[Z_PLAY[seat]].cards:  # the investigator card and its assets
        if with_bonus is not None and cards[c].code not in with_bonus:
            continue
        for key, n in dof(state, c).bonus.items():
            if key == "actions":
                extra += n
            elif key.startswith("action:"):
                special += [key[7:]] * n  # e.g. "action:Tome": 1 (Daisy Walker)
    inv.actions = 3 + extra  # A404.1, A404.3
    inv.special_actions = special
    if inv.limits:  # usually empty: no comprehension call then
        for key in [k for k in inv.limits if k.endswith(":turn")]:
            del inv.limits[key]
    eng.emit("turn_started", player=seat)
    eng.push(TurnAction(seat=seat))


def _action_cost(state: ArkhamState, seat: int, kind: str) -> int:
    """Actions an action costs: 1, or 2 for the first move/fight/evade each round while a
    "frozen" card (Frozen in Fear) is in the threat area."""
    if kind in ("move", "fight", "evade") and _threat_keyword(state, seat, "frozen") and \
            not state.inv[seat].limits.get("frozen:round"):
        return 2
    return 1


def _playable_now(state: ArkhamState, seat: int, cid: int, d: CardDef) -> bool:
    """Whether hand card ``cid`` (definition ``d``), an asset or event without a
    ``play_when`` timing, may be played now; :func:`turn_options` has checked its type,
    fast or not, and that no "cannot play" card (Dissonant Voices) is in the threat area.
    Here: On the Lam, the cost (A202), unique titles (A108.1) and an event's potential to
    change the game state (A904.2)."""
    if "turn_start" in d.keywords and state.inv[seat].limits.get("acted:turn"):
        return False  # On the Lam (A975.13): only after your turn begins, before an action
    if state.inv[seat].resources < cost_of(state, cid, d):
        return False
    if d.type_code == "asset" and _unique_blocked(state, d):
        return False
    if d.type_code == "event":
        return _event_useful(state, seat, d)
    return True


def _event_useful(state: ArkhamState, seat: int, d: CardDef) -> bool:
    """A904.2: an event needs the potential to change the game state."""
    if d.play_action == "fight":
        return bool(_fight_targets(state, seat))
    if d.play_action == "evade":
        return bool(_evade_targets(state, seat))
    if d.play_action == "investigate":
        return can_investigate(state, state.inv[seat].location)  # A985.3
    for e in d.effects:  # any(...), as a plain loop (no generator per call)
        if _effect_useful(state, seat, e):
            return True
    return False


def _effect_useful(state: ArkhamState, seat: int, e: Effect) -> bool:
    loc = state.inv[seat].location
    if e.op == "discover_clues":  # A904.2; no clues while the Masked Hunter blocks (A984.2)
        return loc >= 0 and state.cards[loc].counters.get("clues", 0) > 0 and \
            not clues_blocked(state, seat)
    if e.op == "damage_enemy":
        return bool(enemies_at(state, loc))
    if e.op == "test_bonus":
        return False
    if e.op == "auto_evade":
        return bool(engaged_enemies(state, seat))
    if e.op in ("take_investigate", "perform_investigate"):
        return can_investigate(state, loc)  # A985.3
    if e.op in ("add_uses_here", "choose_investigator"):  # Extra Ammunition: a Firearm here
        return choice_useful(state, seat, e)
    return True


def _ability_word(ab: Ability) -> str:
    """What an action ability's option label says: its designator (``fight``, ...), the
    test it starts (``test combat (4)``, Locked Door), what it heals (``heal damage``,
    First Aid) or ``ability``."""
    if ab.action:
        return ab.action
    first = ab.effects[0] if ab.effects else None
    if first is not None and first.op == "test" and first.skill:
        return f"test {first.skill} ({first.difficulty})"
    if first is not None and first.op == "choose_investigator" and first.on_success and \
            first.on_success[0].op.startswith("heal_"):  # First Aid: heal damage / horror
        return first.on_success[0].op.replace("_", " ")
    return "ability"


def turn_options(state: ArkhamState, seat: int) -> list[Option]:
    """The options of an investigator's turn: every legal action, [free] and fast
    option, and ``end_turn`` (A404, A801.2, A905)."""
    inv = state.inv[seat]
    opts: list[Option] = []
    loc = inv.location
    has_action = inv.actions > 0
    zones = state.zones
    threat = zones[Z_THREAT[seat]].cards  # usually empty: the checks below look first
    if has_action:
        opts += _BASIC_ACTIONS
        at = zones[Z_AT[loc]].cards if loc >= 0 else None
        if loc >= 0 and not (at and any_has_kw(state, at, "no_investigate")):
            # can_investigate (A985.3), inline
            opt = _INVESTIGATE_OPTS.get(loc)
            if opt is None:
                opt = _INVESTIGATE_OPTS[loc] = Option(key="investigate", label="Investigate",
                                                      card=loc)
            opts.append(opt)
        if loc >= 0:
            # a move, fight or evade costs 2 actions while Frozen in Fear applies
            # (_action_cost); with fewer than 2 left they are not offered
            ok = inv.actions >= 2 or not threat or _action_cost(state, seat, "move") == 1
            cards = state.cards
            extra = state.extra_defs
            if ok:
                for nxt in state.adj.get(str(loc), ()):
                    code = cards[nxt].code
                    nd = (extra.get(code) if extra else None) or _POOL[code]  # printed
                    if nd.cannot_enter_unrevealed and not is_revealed(state, nxt):
                        continue  # A605.6 (can_enter)
                    ck = ("move", nxt, code)
                    opt = None if extra else _OPTS.get(ck)
                    if opt is None:
                        opt = Option(key=f"move:{nxt}", label=f"Move to {nd.name}", card=nxt)
                        if not extra:
                            _remember(ck, opt)
                    opts.append(opt)
            here = enemies_at(state, loc)
            if here:
                engage_opts: list[Option] = []
                for eid in here:
                    d = dof(state, eid)  # aloof, massive: a blank text box drops them
                    zone = cards[eid].zone
                    engaged_to = int(zone[7:]) if zone.startswith("threat.") else -1
                    if ok and not (engaged_to < 0 and "aloof" in d.keywords):
                        opts.append(_named_option(state, "fight", eid, "Fight ", d.name))
                    if engaged_to != seat and "massive" not in d.keywords:
                        engage_opts.append(_named_option(state, "engage", eid, "Engage ",
                                                         d.name))
                opts += engage_opts
                if ok:
                    for eid in _evade_targets(state, seat):
                        opts.append(_named_option(state, "evade", eid, "Evade ",
                                                  name_of(state, eid)))
    fast_plays: list[Option] = []
    hand = zones[Z_HAND[seat]].cards
    top = amulet_event(state, seat) if zones[Z_DISCARD[seat]].cards else -1
    if top >= 0:  # Wendy's Amulet: the topmost event of the discard pile, as if in hand
        hand = [*hand, top]
    if hand and not (threat and _threat_keyword(state, seat, "no_play")):
        cards = state.cards
        extra = state.extra_defs
        resources = inv.resources
        for cid in hand:
            code = cards[cid].code
            if extra:
                d = extra.get(code) or _POOL[code]
                info = _hand_info(d)
            else:
                d = _POOL[code]
                info = _HAND_INFO[code]
            if info is None or resources < info[0]:
                continue  # cheap rejections first; _playable_now does the rest
            fast = d.fast
            if not fast and not has_action:
                continue
            if extra:
                if not _playable_now(state, seat, cid, d):
                    continue
            # _playable_now(state, seat, cid, d), inline for pool cards: On the Lam, the
            # cost (at most the printed one, as no pool location raises a cost; less only
            # for an asset, Easttown), unique titles, an event's potential to change the
            # game state
            elif "turn_start" in d.keywords and inv.limits.get("acted:turn"):
                continue  # On the Lam (A975.13): only as your turn begins, before an action
            elif resources < info[3] and (d.type_code != "asset" or
                                          resources < cost_of(state, cid, d)):
                continue  # A202
            elif d.type_code == "asset":
                if d.is_unique and _unique_blocked(state, d):
                    continue  # A108.1
            elif d.type_code == "event" and not _event_useful(state, seat, d):
                continue  # A904.2
            # a pool card's option is shared by (head, card, code): its labels follow
            # from its code
            head = "fastplay" if fast else "play"
            ck = (head, cid, code)
            opt = None if extra else _OPTS.get(ck)
            if opt is None:
                opt = Option(key=f"{head}:{cid}", label=info[2] if fast else info[1], card=cid)
                if not extra:
                    _remember(ck, opt)
            if fast:
                fast_plays.append(opt)
            else:
                opts.append(opt)
    fast_abilities: list[Option] = []
    extra = state.extra_defs
    cards = state.cards
    for cid, idx, ab in _activatables(state, seat, "turn"):
        # the option of a pool card's ability follows from (card, code, index): shared
        if ab.kind == "action":
            if ab.extra_actions and inv.actions < 1 + ab.extra_actions:
                continue
            if has_action or _special_action_for(state, seat, cid) >= 0:
                ak = ("activate", cid, cards[cid].code, idx)
                opt = None if extra else _OPTS.get(ak)
                if opt is None:
                    opt = Option(key=f"activate:{cid}:{idx}",
                                 label=f"{name_of(state, cid)}: {_ability_word(ab)}",
                                 card=cid)
                    if not extra:
                        _remember(ak, opt)
                opts.append(opt)
        elif ab.kind == "fast":  # not one that boosts a test ("turn" leaves those out)
            ak = ("fast", cid, cards[cid].code, idx)
            opt = None if extra else _OPTS.get(ak)
            if opt is None:
                opt = Option(key=f"fast:{cid}:{idx}", label=f"{name_of(state, cid)} (fast)",
                             card=cid)
                if not extra:
                    _remember(ak, opt)
            fast_abilities.append(opt)
    opts += fast_plays
    opts += fast_abilities
    if loc >= 0 and state.num_players > 1:
        opts += _lend_options(state, seat, loc)
    acts = zones["acts"].cards
    if acts:
        act = acts[0]
        ad = printed(state, act)  # kept by a blank text box
        if not ad.objective and ad.clues is not None:
            # act_threshold, inline
            need = ad.clues if ad.clues_fixed else ad.clues * state.num_players
            if need > 0:
                clues = 0
                for i in state.inv:
                    if not i.status:
                        clues += i.clues
                if clues >= need:
                    opts.append(Option(key="advance_act",
                                       label="Spend clues to advance the act", card=act))
    opts.append(_END_TURN)
    return opts


#: Turn options by ``(key head, card id, card code)`` (and ``(key head, card, code, ability
#: index)``): an option's key, label and card follow from those alone for pool cards, and
#: options are frozen, so turns share them (scenario-supplied definitions: built afresh).
_OPTS: Final[dict[tuple[str, int, str] | tuple[str, int, str, int], Option]] = {}
#: The ``investigate`` option by location id.
_INVESTIGATE_OPTS: Final[dict[int, Option]] = {}


def _remember(ck: tuple[str, int, str] | tuple[str, int, str, int], opt: Option) -> None:
    """Keep ``opt`` in :data:`_OPTS` (emptied first past 50,000 entries)."""
    if len(_OPTS) >= 50_000:
        _OPTS.clear()
    _OPTS[ck] = opt


def _named_option(state: ArkhamState, head: str, cid: int, verb: str, name: str) -> Option:
    """``Option(key=f"{head}:{cid}", label=verb + name, card=cid)`` where ``name`` is the
    card's name (which its code fixes; a blank text box keeps it): for a pool card the
    option is shared between turns, looked up by ``(head, cid, code)`` before any label is
    built (scenario-supplied definitions: built afresh)."""
    if state.extra_defs:
        return Option(key=f"{head}:{cid}", label=verb + name, card=cid)
    ck = (head, cid, state.cards[cid].code)
    opt = _OPTS.get(ck)
    if opt is None:
        opt = Option(key=f"{head}:{cid}", label=verb + name, card=cid)
        _remember(ck, opt)
    return opt


def _hand_info(d: CardDef) -> tuple[int, str, str, int] | None:
    """What :func:`turn_options` needs of a hand card's printed definition: ``None`` when
    it is never played as a turn option (not an asset or event, or played only at a
    ``play_when`` timing); else the least it can cost (an Ally 2 less, Easttown), its
    two labels, ``Play <name> (cost N)`` and ``Play <name> (fast, cost N)`` with the printed
    cost, and its printed cost (the
    most it costs, A202)."""
    if d.type_code not in ("asset", "event") or d.play_when:
        return None
    printed_cost = max(0, d.cost or 0)
    least = printed_cost - (2 if "Ally" in d.traits else 0)
    return (least, f"Play {d.name} (cost {printed_cost})",
            f"Play {d.name} (fast, cost {printed_cost})", printed_cost)


#: :func:`_hand_info` of every pool card, by code (the pool never changes).
_HAND_INFO: Final = {code: _hand_info(d) for code, d in _POOL.items()}


#: Options every turn offers while actions remain (A404.2) and the turn's end; options are
#: frozen, so every turn shares these.
_BASIC_ACTIONS: Final = (Option(key="draw", label="Draw a card"),
                  Option(key="resource", label="Gain a resource"))
_END_TURN: Final = Option(key="end_turn", label="End turn")


def _turn_action(eng: Eng, step: TurnAction) -> None:
    state = eng.state
    seat = step.seat
    if state.inv[seat].status or state.inv[seat].acted:
        eng.push(NextTurn())
        return
    opts = turn_options(state, seat)
    if len(opts) == 1:
        eng.push(EndTurn(seat=seat))  # A403.3: no actions left and nothing free to do
        return
    inv = state.inv[seat]
    eng.ask(seat, "action", f"Choose an action ({inv.actions} left)", opts,
            resume=ActionChosen(seat=seat))


def _lend_options(state: ArkhamState, seat: int, loc: int) -> list[Option]:
    """Fast abilities of other investigators' cards at your location that help the active
    investigator (Police Badge, A978.4): ``lend:<their seat>:<card>:<index>``. Once its
    owner has refused, the request is not offered again that turn (limit key
    ``lend:<card>:<index>:turn`` of the active investigator)."""
    out: list[Option] = []
    refused = state.inv[seat].limits
    cards = state.cards
    lenders = None if state.extra_defs else _LEND_CODES  # others have no such ability
    for s in player_order(state):
        if s == seat or state.inv[s].status or state.inv[s].location != loc:
            continue
        for cid in state.zones[Z_PLAY[s]].cards:
            if lenders is not None and cards[cid].code not in lenders:
                continue
            for idx, ab in enumerate(dof(state, cid).abilities):
                if ab.kind == "fast" and any(e.target == "active" for e in ab.effects) and \
                        not refused.get(f"lend:{cid}:{idx}:turn") and \
                        _ability_payable(state, s, cid, ab):
                    who = cdef(state, state.inv[s].code).name
                    out.append(Option(key=f"lend:{s}:{cid}:{idx}",
                                      label=f"Ask {who} to use {name_of(state, cid)}",
                                      card=cid))
    return out


#: Codes of the pool's cards with a fast ability for the active investigator (Police
#: Badge): the only ones :func:`_lend_options` offers (a blank text box only removes them).
_LEND_CODES: Final = frozenset(code for code, d in _POOL.items() if any(
    ab.kind == "fast" and any(e.target == "active" for e in ab.effects) for ab in d.abilities))


#: A416.1/A416.3: the actions that do not provoke attacks of opportunity.
_NOT_PROVOKING: Final = ("fight", "evade", "parley", "resign")


def _provokes(kind: str) -> bool:
    """A416.1/A416.3: every action but fight, evade, parley and resign provokes."""
    return kind not in _NOT_PROVOKING


def _special_action_for(state: ArkhamState, seat: int, cid: int) -> int:
    """Index of a restricted additional action that may pay for activating ``cid``."""
    special = state.inv[seat].special_actions
    if special:
        traits = _traits(dof(state, cid))
        for i, trait in enumerate(special):
            if trait in traits:
                return i
    return -1


def _spend_action(eng: Eng, seat: int, kind: str, card: int = -1,
                  provoke: bool = True) -> None:
    state = eng.state
    if card >= 0:
        i = _special_action_for(state, seat, card)
        if i >= 0:  # A404.3: the first action of that kind uses the restricted action
            del state.inv[seat].special_actions[i]
            eng.emit("action_taken", player=seat, data={"action": kind, "special": True})
            if provoke and _provokes(kind) and engaged_enemies(state, seat):
                eng.push(AttacksOfOpportunity(seat=seat))
            return
    inv = state.inv[seat]
    # _action_cost: 2 only with a "frozen" card in the threat area (usually empty)
    cost = _action_cost(state, seat, kind) if state.zones[Z_THREAT[seat]].cards else 1
    inv.limits["acted:turn"] = 1  # On the Lam: "after you take an action"
    if cost > 1:
        inv.limits["frozen:round"] = 1
    inv.actions = max(0, inv.actions - cost)
    eng.emit("action_taken", player=seat, data={"action": kind})
    if provoke and kind not in _NOT_PROVOKING and engaged_enemies(state, seat):
        eng.push(AttacksOfOpportunity(seat=seat))  # A416.2: after costs, before effect


def _action_chosen(eng: Eng, step: ActionChosen) -> None:
    state = eng.state
    seat = step.seat
    key = eng.answer[0]
    head, _, rest = key.partition(":")
    inv = state.inv[seat]
    follow = TurnAction(seat=seat)
    if key == "end_turn":
        eng.push(EndTurn(seat=seat))
        return
    if key == "advance_act":
        eng.push(AdvanceAct(), follow)
        _spend_group_clues(eng, seat, act_threshold(state))
        return
    if head == "fastplay":
        cid = int(rest)
        eng.push(DoPlay(seat=seat, card=cid), follow)
        return
    if head == "fast":
        cid_s, idx_s = rest.split(":")
        eng.push(DoActivate(seat=seat, card=int(cid_s), index=int(idx_s)), follow)
        return
    if head == "lend":  # ask another investigator to use their card for you (A978.4)
        owner_s, cid_s, idx_s = rest.split(":")
        eng.push(follow)
        _card_choices.ask_lend(eng, seat, int(owner_s), int(cid_s), int(idx_s))
        return
    # every remaining option spends one action (A404.1); the action's steps run after
    # any attacks of opportunity (pushed first, so they run first)
    if head == "draw":
        eng.push(DoDraw(seat=seat), follow)
        _spend_action(eng, seat, "draw")
    elif head == "resource":
        eng.push(Effects(seat=seat, effects=GAIN_ONE), follow)
        _spend_action(eng, seat, "resource")
    elif head == "investigate":
        test = SkillTest(seat=seat, skill="intellect", difficulty=shroud(state, inv.location),
                         kind="investigate", target=inv.location)
        eng.push(StartTest(test=test), follow)
        _spend_action(eng, seat, "investigate")
    elif head == "move":
        eng.push(DoMove(seat=seat, location=int(rest)), follow)
        _spend_action(eng, seat, "move")
    elif head == "fight":
        eid = int(rest)
        eng.push(StartTest(test=_fight_test(state, seat, eid, -1, "combat", 0, 0)), follow)
        _spend_action(eng, seat, "fight")
    elif head == "evade":
        eid = int(rest)
        eng.push(StartTest(test=_evade_test(state, seat, eid, -1, "agility", 0)), follow)
        _spend_action(eng, seat, "evade")
    elif head == "engage":
        eng.push(DoEngage(seat=seat, enemy=int(rest)), follow)
        _spend_action(eng, seat, "engage")
    elif head == "play":
        cid = int(rest)
        d = dof(state, cid)
        eng.push(DoPlay(seat=seat, card=cid), follow)
        # an event with an action designator but no test (Cunning Distraction: Evade)
        # is that action, so it provokes no attack of opportunity (A416.2)
        _spend_action(eng, seat, d.play_action or d.play_designator or "play")
    elif head == "activate":
        cid_s, idx_s = rest.split(":")
        cid, idx = int(cid_s), int(idx_s)
        ab = dof(state, cid).abilities[idx]
        eng.push(DoActivate(seat=seat, card=cid, index=idx), follow)
        _spend_action(eng, seat, ab.action or "activate", card=cid,
                      provoke=not ab.no_aoo)  # Cat Burglar (A978.4)
        if ab.extra_actions:
            inv.actions = max(0, inv.actions - ab.extra_actions)


def _fight_test(state: ArkhamState, seat: int, eid: int, source: int, skill: str,
                bonus: int, dmg: int) -> SkillTest:
    d = dof(state, eid)
    fight = (d.enemy_fight or 0) + enemy_stat_mod(state, eid)  # A993.2, A994.2
    return SkillTest(seat=seat, skill=skill, difficulty=max(0, fight), kind="fight",
                     target=eid, source=source, skill_bonus=bonus, damage_bonus=dmg,
                     ready_target=not state.cards[eid].exhausted)


def _evade_test(state: ArkhamState, seat: int, eid: int, source: int, skill: str,
                bonus: int) -> SkillTest:
    d = dof(state, eid)
    evade = (d.enemy_evade or 0) + enemy_stat_mod(state, eid)  # A993.2, A994.2
    return SkillTest(seat=seat, skill=skill, difficulty=max(0, evade), kind="evade",
                     target=eid, source=source, skill_bonus=bonus,
                     ready_target=not state.cards[eid].exhausted,
                     double_negative=has_kw(d, "double_negative_evade"))


def _spend_clues_answer(eng: Eng, step: SpendCluesAnswer) -> None:
    state = eng.state
    per: dict[int, int] = {}
    for key in eng.answer:
        s = int(key.split(":")[1])
        per[s] = per.get(s, 0) + 1
    for s, n in sorted(per.items()):
        state.inv[s].clues -= n
        eng.emit("clues_spent", player=s, amount=n)


def _end_turn(eng: Eng, step: EndTurn) -> None:
    state = eng.state
    inv = state.inv[step.seat]
    inv.acted = True  # A403.4
    inv.actions = 0
    eng.emit("turn_ended", player=step.seat)
    ends: list[tcgcore.Step] = []
    cards = state.cards
    forced = None if state.extra_defs else FORCED_CODES  # cards without any: skipped
    for cid in state.zones[Z_THREAT[step.seat]].cards:
        if forced is not None and cards[cid].code not in forced:
            continue
        d = dof(state, cid)
        if "turn_end" in d.forced:
            ends.append(Effects(seat=step.seat, effects=d.forced["turn_end"], source=cid))
    for cid in state.zones[Z_HAND[step.seat]].cards:
        if forced is not None and cards[cid].code not in forced:
            continue
        d = dof(state, cid)
        if "in_hand_end_turn" in d.forced:  # Dark Memory
            eng.emit("revealed_in_hand", player=step.seat, card=cid, code=d.code)
            ends.append(Effects(seat=step.seat, effects=d.forced["in_hand_end_turn"], source=cid))
    ready_at_turn_end(eng)  # Umôrdhoth readies (A994.6)
    eng.push(*ends, NextTurn())


def _aoo(eng: Eng, step: AttacksOfOpportunity) -> None:
    """A416: each ready engaged enemy attacks once, in the investigator's chosen order,
    without exhausting; massive enemies attack only the provoker (A611.5)."""
    state = eng.state
    seat = step.seat
    if state.inv[seat].status:
        return
    engaged = engaged_enemies(state, seat)  # read once: nothing here changes it
    cards = state.cards
    pending = [e for e in (step.pending if step.started else engaged)
               if not cards[e].exhausted and e in engaged] if engaged else []
    if not pending:
        return
    if len(pending) == 1:
        eng.push(EnemyAttack(enemy=pending[0], seat=seat))
        return
    eng.ask(seat, "attack_order", "Which enemy attacks you next?",
            [Option(key=f"enemy:{e}", label=name_of(state, e), card=e) for e in pending],
            resume=AooPick(seat=seat, pending=pending))


def _aoo_pick(eng: Eng, step: AooPick) -> None:
    eid = int(eng.answer[0].split(":")[1])
    rest = [e for e in step.pending if e != eid]
    eng.push(EnemyAttack(enemy=eid, seat=step.seat),
             AttacksOfOpportunity(seat=step.seat, pending=rest, started=True))


def _do_draw(eng: Eng, step: DoDraw) -> None:
    if playing(eng.state, step.seat):
        draw_cards(eng, step.seat, step.count)


def _do_move(eng: Eng, step: DoMove) -> None:
    state = eng.state
    if state.inv[step.seat].status:
        return
    src = state.inv[step.seat].location
    leave = dof(state, src).forced.get("before_leave") if src >= 0 else None
    if leave and not step.checked:  # "when you would move from here" (A992.3)
        eng.push(Effects(seat=step.seat, effects=leave, source=src),
                 DoMove(seat=step.seat, location=step.location, checked=True))
        return
    if state.inv[step.seat].limits.pop("move_cancelled", 0):
        eng.emit("move_cancelled", player=step.seat, card=step.location)
        # the investigator stays: ready enemies there that are not engaged (e.g. after Cat
        # Burglar or Elusive disengaged them) engage as usual (A992.3, A602.1)
        engage_unengaged_at(eng, src)
        return
    eng.emit("moved_location", player=step.seat, card=step.location, data={"from": src})
    enter_location(eng, step.seat, step.location)  # A409.1, A603.1 (engaged enemies follow)


def _do_engage(eng: Eng, step: DoEngage) -> None:
    state = eng.state
    if state.inv[step.seat].status:
        return
    if location_of(state, step.enemy) == state.inv[step.seat].location:
        _engage(eng, step.enemy, step.seat)  # A411.1


def _do_resign(eng: Eng, step: DoResign) -> None:
    if playing(eng.state, step.seat):
        eng.push(Eliminate(seat=step.seat, reason="resigned"))  # A415.1


# ---------------------------------------------------------------------------- play


def _slot_overflow(state: ArkhamState, seat: int, d: CardDef) -> list[int]:
    """Assets that must be discarded before ``d`` fits (A203.4): candidates sharing an
    over-full slot, or [] when it fits."""
    need = d.slots()
    if not need:
        return []
    used: dict[str, int] = {}
    holders: dict[str, list[int]] = {}
    for cid in state.zones[Z_PLAY[seat]].cards:
        for s in printed(state, cid).slots():  # printed slots: kept by a blank text box
            used[s] = used.get(s, 0) + 1
            holders.setdefault(s, []).append(cid)
    out: list[int] = []
    extra: dict[str, int] = {}
    only: dict[str, tuple[str, int]] = {}  # slot -> (trait, extra slots only it may use)
    cards = state.cards
    with_bonus = None if state.extra_defs else BONUS_CODES  # cards without any: skipped
    for cid in state.zones[Z_PLAY[seat]].cards:
        if with_bonus is not None and cards[cid].code not in with_bonus:
            continue
        for k, n in dof(state, cid).bonus.items():
            if k.startswith("slot:"):
                slot, _, trait = k[5:].partition(":")
                if trait:  # Daisy's Tote Bag: 2 more hand slots, for Tome assets only
                    only[slot] = (trait, only.get(slot, (trait, 0))[1] + n)
                else:
                    extra[slot] = extra.get(slot, 0) + n
    for s in dict.fromkeys(need):  # ordered: option order must not depend on hashing
        limit = SLOT_LIMITS.get(s, 99) + extra.get(s, 0)
        trait, more = only.get(s, ("", 0))
        if not more:
            if used.get(s, 0) + need.count(s) > limit:
                # a card holding two slots of a kind is listed twice in holders: offer
                # it once (an explicit loop, so the check sees what was just added)
                for c in holders.get(s, []):
                    if c not in out:
                        out.append(c)
            continue
        # restricted slots (Daisy's Tote Bag): cards with the trait fill them first; the
        # rest, and those that do not fit there, use the normal slots
        fits = [c for c in holders.get(s, []) if trait in _traits(dof(state, c))]
        n_trait = len(fits) + (need.count(s) if trait in _traits(d) else 0)
        n_other = used.get(s, 0) + need.count(s) - n_trait
        if n_other + max(0, n_trait - more) > limit:
            for c in holders.get(s, []):
                if c not in out and (c not in fits or n_trait > more):
                    out.append(c)
    return out


def _do_play(eng: Eng, step: DoPlay) -> None:
    """A408/A202/A206: pay the cost and play an asset or event."""
    state = eng.state
    seat, cid = step.seat, step.card
    if state.inv[seat].status or (state.cards[cid].zone != Z_HAND[seat] and
                                    cid != amulet_event(state, seat)):
        return
    d = dof(state, cid)
    cost = card_cost(state, cid)
    if state.inv[seat].resources < cost:
        return
    state.inv[seat].resources -= cost
    if d.type_code == "asset":
        eng.move(cid, "resolving", kind="played")
        _put_asset(eng, seat, cid)
        return
    eng.move(cid, "resolving", kind="played")
    after = FinishTreachery(card=cid, seat=seat)  # discards the event afterwards
    eng.push(after)
    if d.play_action == "fight":
        _ask_enemy(eng, seat, _fight_targets(state, seat),
                   ChooseEnemyAnswer(seat=seat, mode="event", source=cid))
    elif d.play_action == "evade":
        _ask_enemy(eng, seat, _evade_targets(state, seat),
                   ChooseEnemyAnswer(seat=seat, mode="event", source=cid))
    elif d.play_action == "investigate":
        loc = state.inv[seat].location
        test = SkillTest(seat=seat, skill=d.play_skill or "intellect",
                         difficulty=shroud(state, loc), kind="investigate", target=loc,
                         source=cid, skill_bonus=d.play_skill_bonus)
        eng.push(StartTest(test=test))
    else:
        run_effects(eng, seat, d.effects, cid)


def _choose_enemy_answer(eng: Eng, step: ChooseEnemyAnswer) -> None:
    _enemy_chosen(eng, step, int(eng.answer[0].split(":")[1]))


def _enemy_chosen(eng: Eng, step: ChooseEnemyAnswer, eid: int) -> None:
    state = eng.state
    seat = step.seat
    if step.mode == "damage":
        eng.push(DamageEnemy(enemy=eid, amount=step.amount, seat=seat))
        return
    src = step.source
    d = dof(state, src)
    if step.mode == "event":
        action, skill, bonus, dmg = d.play_action, d.play_skill, d.play_skill_bonus, \
            d.play_damage_bonus
    else:
        ab = d.abilities[step.index]
        action, skill, bonus, dmg = ab.action, ab.skill, ab.skill_bonus, ab.damage_bonus
        if ab.bonus_if_clues:
            loc = state.inv[seat].location
            if loc >= 0 and state.cards[loc].counters.get("clues", 0) > 0:
                bonus += ab.bonus_if_clues  # Roland's .38 Special
        if ab.damage_bonus_if_alone and engaged_enemies(state, seat) == [eid]:
            dmg += ab.damage_bonus_if_alone  # Machete
    if action == "fight":
        eng.push(StartTest(test=_fight_test(state, seat, eid, src, skill or "combat", bonus,
                                            dmg)))
    elif action == "evade":
        eng.push(StartTest(test=_evade_test(state, seat, eid, src, skill or "agility",
                                            bonus)))


def _put_asset(eng: Eng, seat: int, cid: int) -> None:
    state = eng.state
    d = dof(state, cid)
    over = _slot_overflow(state, seat, d)
    if over:
        eng.ask(seat, "slot_discard", f"Discard an asset to make room for {d.name}",
                [Option(key=f"asset:{c}", label=name_of(state, c), card=c) for c in over],
                resume=SlotAnswer(seat=seat, card=cid))
        return
    eng.move(cid, Z_PLAY[seat], kind="entered_play")
    register_aura(state, cid)  # Lita Chantler played from hand (A216.3)
    if d.uses is not None:
        eng.set_counter(cid, "uses", d.uses.count)  # A204.1
    eng.emit("asset_played", player=seat, card=cid, code=d.code)
    if d.effects:
        run_effects(eng, seat, d.effects, cid)  # "after it enters play" effects


def _slot_answer(eng: Eng, step: SlotAnswer) -> None:
    discard_card(eng, int(eng.answer[0].split(":")[1]))
    _put_asset(eng, step.seat, step.card)


def _do_activate(eng: Eng, step: DoActivate) -> None:
    """A407: pay an ability's costs and resolve it."""
    state = eng.state
    seat, cid = step.seat, step.card
    if state.inv[seat].status:
        return
    d = dof(state, cid)
    if step.index >= len(d.abilities):
        return  # its text box was blanked since it was chosen (Mind Wipe, A978.6)
    ab = d.abilities[step.index]
    if not _ability_payable(state, seat, cid, ab):
        return
    card = state.cards[cid]
    if ab.exhaust:
        card = eng.update_card(cid, exhausted=True)
    if ab.uses:
        card = eng.add_counter(cid, "uses", -ab.uses)
    if ab.resources:
        state.inv[seat].resources -= ab.resources
    if ab.clue_cost:  # A993.6
        state.inv[seat].clues -= ab.clue_cost
        eng.emit("clues_spent", player=seat, amount=ab.clue_cost)
    if ab.limit:
        key = f"{cid}:{ab.limit}"
        used = limit_store(state, seat, ab.limit)  # A107.1, A107.2, A974.3
        used[key] = used.get(key, 0) + 1
    eng.emit("ability_used", player=seat, card=cid, code=card.code, data={"index": step.index})
    if ab.discard:
        discard_card(eng, cid)
    if ab.action == "resign":
        eng.push(DoResign(seat=seat))
    elif ab.action in ("fight", "evade"):
        targets = _fight_targets(state, seat) if ab.action == "fight" else \
            _evade_targets(state, seat)
        _ask_enemy(eng, seat, targets, ChooseEnemyAnswer(seat=seat, mode="ability", source=cid,
                                                         index=step.index))
    elif ab.action == "investigate":
        loc = state.inv[seat].location
        test = SkillTest(seat=seat, skill=ab.skill or "intellect",
                         difficulty=max(0, shroud(state, loc) + ab.shroud_mod),
                         kind="investigate", target=loc, source=cid, skill_bonus=ab.skill_bonus,
                         on_success=ab.effects)
        eng.push(StartTest(test=test))
    elif ab.action == "parley" and ab.skill:
        test = SkillTest(seat=seat, skill=ab.skill, difficulty=ab.difficulty, kind="parley",
                         source=cid, target=cid, on_success=ab.effects)
        eng.push(StartTest(test=test))
    else:
        run_effects(eng, seat, ab.effects, cid)


def _ask_enemy(eng: Eng, seat: int, targets: list[int], resume: ChooseEnemyAnswer) -> None:
    """Choose one enemy (no question when only one fits), then continue with ``resume``."""
    state = eng.state
    if not targets:
        return
    if len(targets) == 1:
        _enemy_chosen(eng, resume, targets[0])
        return
    eng.ask(seat, "choose_enemy", "Choose an enemy",
            [Option(key=f"enemy:{e}", label=name_of(state, e), card=e) for e in targets],
            resume=resume)


def register(spec: tcgcore.GameSpec[ArkhamState]) -> None:
    """Register this module's step handlers on ``spec`` (:func:`.plugin.build_spec` calls it
    once, on the spec it builds)."""
    spec.handles(InvestigationPhase)(_investigation)
    spec.handles(NextTurn)(_next_turn)
    spec.handles(TurnPick)(_turn_pick)
    spec.handles(TurnAction)(_turn_action)
    spec.handles(ActionChosen)(_action_chosen)
    spec.handles(SpendCluesAnswer)(_spend_clues_answer)
    spec.handles(EndTurn)(_end_turn)
    spec.handles(AttacksOfOpportunity)(_aoo)
    spec.handles(AooPick)(_aoo_pick)
    spec.handles(DoDraw)(_do_draw)
    spec.handles(DoMove)(_do_move)
    spec.handles(DoEngage)(_do_engage)
    spec.handles(DoResign)(_do_resign)
    spec.handles(DoPlay)(_do_play)
    spec.handles(ChooseEnemyAnswer)(_choose_enemy_answer)
    spec.handles(SlotAnswer)(_slot_answer)
    spec.handles(DoActivate)(_do_activate)
