"""The fast paths of the Guimi rules give exactly what a fresh computation gives.

``rules`` reads per-card facts from caches built once from the immutable card definitions
(:func:`rules.card_infos` and the main-phase option records ``rules._OPTS``, which also hold
each unit's move options per slot and empty slots). Each test here recomputes the
same answer the plain way, straight from the :class:`CardDef` records (the code before the
caches), and compares it at every decision of several seeded random games, with default and
with non-default rules options and decks.
"""

from __future__ import annotations

from typing import Any

import msgspec
from tcgcore_guimi_revival import rules
from tcgcore_guimi_revival.cards import RANK_GATE, CardDef, get_pool
from tcgcore_guimi_revival.state import AttackAnswer, GuimiState

import tcgcore
from tcgcore import EMPTY_SLOT, Option

Eng = tcgcore.Engine[GuimiState]

#: (seed, match options): default decks and options, other decks, and other rules options
GAMES: list[tuple[int, dict[str, Any]]] = [
    (0, {}),
    (1, {}),
    (2, {"decks": ["hunter", "seer"]}),
    (3, {"decks": ["marauder", "sailor"], "quick_event_from_hand": "allowed",
         "set_event_activation": "cannot_set", "characteristic_on_unit": "active",
         "untap_scope": "all"}),
    (4, {"decks": ["assassin", "sleepless"], "threshold_checks": "while_at_or_above",
         "ascension_start": "automatic", "trigger_rb_scope": "exclude"}),
    (5, {"decks": ["sailor", "seer"]}),
]


def _defs(eng: Eng) -> dict[str, CardDef]:
    return get_pool(eng.state.pool).cards


def _d(eng: Eng, cid: int) -> CardDef:
    return _defs(eng)[eng.state.cards[cid].code]


def _in(eng: Eng, kind: str, p: int) -> list[int]:
    return [c for c in eng.state.zones[f"{kind}.{p}"].cards if c != EMPTY_SLOT]


# ----------------------------------------------------------------------------- references


def ref_main_options(eng: Eng, p: int) -> list[Option]:
    """071-077, 122.1 built from scratch, with no cache."""
    state = eng.state
    defs = _defs(eng)
    cards = state.cards
    zones = state.zones
    out: list[Option] = []
    units = zones[f"units.{p}"].cards
    empty = [i for i, c in enumerate(units) if c == EMPTY_SLOT]
    sw = zones[f"spirit.{p}"].cards
    sw_full = len(sw) >= 7
    o = state.options
    seq = state.sequence[p]
    can_event = state.events_played[p] == 0 and not sw_full
    activated = state.events_activated[p] > 0

    def can_act(cid: int, d: CardDef, timing: str) -> bool:
        return (d.event_kind == "continuous" and timing == "on_play") or any(
            rules.effect_can_act(eng, p, cid, e.op, e.amount)
            for ab in d.abilities if ab.timing == timing for e in ab.effects)

    for cid in zones[f"hand.{p}"].cards:
        d = defs[cards[cid].code]
        if d.rank is None or seq > RANK_GATE[d.rank]:
            continue
        if d.card_type in ("beyonder", "item"):
            out += [Option(key=f"play:{cid}:{s}", label=f"Play {d.name_en} to "
                           f"{rules.SLOT_NAMES[s]}", card=cid,
                           data={"zone": f"units.{p}", "slot": s}) for s in empty]
        elif d.card_type == "event" and can_event:
            if (not activated and (d.event_kind != "quick" or o.quick_event_from_hand == "allowed")
                    and can_act(cid, d, "on_play")):
                out.append(Option(key=f"event:{cid}:up", label=f"Activate {d.name_en}", card=cid))
            if d.event_kind == "quick" or o.set_event_activation == "later_main_phase":
                out.append(Option(key=f"event:{cid}:set", label=f"Set {d.name_en}", card=cid))
    for cid in sw:
        card = cards[cid]
        if not card.face_down:
            continue
        d = defs[card.code]
        if d.extra_kind is not None:
            if rules.cond_ok(eng, p, d.activation_condition):
                out.append(Option(key=f"extra:{cid}", label=f"Activate {d.name_en}", card=cid))
        elif (d.card_type == "event" and d.event_kind != "quick" and not activated
              and card.counters.get("set_turn", -1) != state.turn and can_act(cid, d, "on_play")):
            out.append(Option(key=f"flip:{cid}", label=f"Activate set {d.name_en}", card=cid))
    rb = state.rb[p]
    ignite_ids = [c for c in units if c != EMPTY_SLOT]
    if cards[rb].zone == f"revival.{p}" and not state.mad[p]:
        ignite_ids.append(rb)
    for cid in ignite_ids:
        card = cards[cid]
        d = defs[card.code]
        if d.item_kind == "potion" and cid != rb and not sw_full:
            out.append(Option(key=f"potion:{cid}", label=f"Activate potion {d.name_en}",
                              card=cid))
        if cid in state.used_ignition or card.counters.get("no_act") or (
                cid != rb and card.counters.get("mad")):
            continue
        for i, ab in enumerate(d.abilities):
            if ab.timing == "ignition" and any(
                    rules.effect_can_act(eng, p, cid, e.op, e.amount) for e in ab.effects):
                out.append(Option(key=f"ignite:{cid}:{i}", card=cid,
                                  label=f"Activate {d.name_en}'s ability: {rules._ability_summary(d, i)}"))
    for s, cid in enumerate(units):
        if cid == EMPTY_SLOT:
            continue
        for t in range(4):
            free = units[t] == EMPTY_SLOT
            after = list(units)
            after[s], after[t] = units[t], units[s]
            if t != s and (free or t > s) and tuple(after) not in state.arrangements:
                out.append(Option(key=f"move:{cid}:{t}", card=cid,
                                      label=f"{'Move' if free else 'Swap'} "
                                            f"{rules.SLOT_NAMES[s]} -> {rules.SLOT_NAMES[t]}"))
    out.append(Option(key="end", label="End the main phase"))
    return out


def ref_is_characteristic(eng: Eng, cid: int) -> bool:
    card = eng.state.cards[cid]
    d = _d(eng, cid)
    return (not card.face_down and card.zone.startswith("spirit.") and d.pathway is not None
            and d.sequence is not None)


def ref_strength(eng: Eng, cid: int) -> int:
    state = eng.state
    card = state.cards[cid]
    d = _d(eng, cid)
    p = card.controller
    opts = state.options
    value = d.strength
    is_rb = cid == state.rb[p]
    if is_rb:
        for sc in state.zones[f"stack.{p}"].cards:
            ch = _d(eng, sc).characteristic
            if not state.cards[sc].face_down and ch is not None:
                value += ch.strength
    elif opts.characteristic_on_unit == "active" and d.characteristic is not None:
        value += d.characteristic.strength
    if card.counters:
        value += card.counters.get("bp_str", 0) - card.counters.get("bp_weak", 0)
    for sw in state.zones[f"spirit.{p}"].cards:
        sd = _d(eng, sw)
        if not state.cards[sw].face_down and sd.event_kind == "continuous":
            value += sum(e.amount for ab in sd.abilities if ab.timing == "continuous"
                         for e in ab.effects if e.op == "static_strength")
    if state.bp_minus[p] and (not is_rb or opts.trigger_rb_scope != "exclude"):
        value -= state.bp_minus[p]
    if opts.strength_floor == "zero" and value < 0:
        value = 0
    return value


def ref_agility(eng: Eng, cid: int) -> int:
    state = eng.state
    p = state.cards[cid].controller
    d = _d(eng, cid)
    value = d.agility
    if cid == state.rb[p]:
        for sc in state.zones[f"stack.{p}"].cards:
            ch = _d(eng, sc).characteristic
            if not state.cards[sc].face_down and ch is not None:
                value += ch.agility
    elif state.options.characteristic_on_unit == "active" and d.characteristic is not None:
        value += d.characteristic.agility  # 022.2: the whole characteristic, as strength
    return value


def ref_timed_sources(eng: Eng, p: int, timing: str) -> list[int]:
    out = []
    for kind in ("revival", "units", "spirit"):
        for cid in _in(eng, kind, p):
            d = _d(eng, cid)
            if eng.state.cards[cid].face_down or timing not in {a.timing for a in d.abilities}:
                continue
            if kind == "spirit" and d.pathway is not None and d.sequence is not None:
                continue
            out.append(cid)
    return out


def ref_effects_of(eng: Eng, p: int, cid: int, timing: str) -> list[Any]:
    return [(p, cid, e.op, e.amount) for ab in _d(eng, cid).abilities if ab.timing == timing
            for e in ab.effects]


def ref_promotion_candidates(eng: Eng, p: int) -> list[int]:
    state = eng.state
    seq = state.sequence[p]
    if seq <= 0:
        return []
    target = seq - 1
    path = _d(eng, state.rb[p]).pathway
    out = []
    for c in _in(eng, "spirit", p):
        if not ref_is_characteristic(eng, c) or _d(eng, c).pathway != path:
            continue
        if rules.char_seq(eng, c) != target:
            continue
        assert path is not None
        if 1 <= target <= 5 and not rules.ritual_ok(eng, p, path, target):
            continue
        if target == 0 and not rules._seq0_ok(eng, p, c):
            continue
        out.append(c)
    return out


def ref_attack_targets(eng: Eng, p: int) -> list[int]:
    state = eng.state
    o = 1 - p
    units = state.zones[f"units.{o}"].cards
    out = [units[s] for s in (0, 1) if units[s] != EMPTY_SLOT and _d(eng, units[s]).is_beyonder]
    if rules.rb_on_field(eng, o):
        out.append(state.rb[o])
    out += [c for c in units if c != EMPTY_SLOT and _d(eng, c).card_type == "item"
            and not state.cards[c].counters.get("protect")]
    return out


def ref_search_codes(eng: Eng, p: int, op: str) -> list[str]:
    state = eng.state
    path = _d(eng, state.rb[p]).pathway
    target = state.sequence[p] - 1
    seen: list[str] = []
    for c in state.zones[f"deck.{p}"].cards:
        d = _d(eng, c)
        if d.id in seen or d.pathway != path:
            continue
        if op == "seek":
            ok = d.card_type == "beyonder" and d.sequence == target
        elif op == "search_potion":
            ok = d.item_kind == "potion"
        else:
            ok = d.card_type == "beyonder"
        if ok:
            seen.append(d.id)
    return sorted(seen)


def ref_quick_window_cards(eng: Eng, p: int) -> list[int]:
    state = eng.state
    token = f"b{state.round}" if state.in_battle else f"t{state.turn}"
    if state.result is not None or state.quick_used[p] == token:
        return []
    if not state.in_battle and state.active_player == p:
        return []
    out = []
    for cid in state.zones[f"spirit.{p}"].cards:
        card = state.cards[cid]
        if not card.face_down or "set_turn" not in card.counters:
            continue
        if state.in_battle:
            if (state.options.quick_event_same_round_battle == "forbidden"
                    and card.counters.get("set_round", -1) == state.round):
                continue
        elif card.counters.get("set_turn", -1) == state.turn:
            continue
        out.append(cid)
    return out


def ref_order_key(eng: Eng, cid: int) -> tuple[int, int, int, int]:
    state = eng.state
    card = state.cards[cid]
    p = card.controller
    is_rb = cid == state.rb[p]
    slot = -1
    if not is_rb and card.zone.startswith("units."):
        slot = state.zones[card.zone].cards.index(cid)
    return (-ref_agility(eng, cid), 0 if p == state.first else 1, 0 if is_rb else 1, slot)


def ref_attack_options(eng: Eng, attacker: int) -> list[Option]:
    p = eng.state.cards[attacker].controller
    opts = [Option(key=f"attack:{t}", label=f"Attack {_d(eng, t).name_en}", card=t,
                   data={"attacker": attacker}) for t in ref_attack_targets(eng, p)]
    return [*opts, Option(key="pass", label="Do not attack")]


# ----------------------------------------------------------------------------- checks

TIMINGS = ("revival_phase", "promotion_phase", "end_phase", "start_of_battle", "status",
           "on_play", "ignition")


def _check_position(eng: Eng) -> None:
    state = eng.state
    enc = msgspec.json.encode
    for p in (0, 1):
        assert enc(rules.main_options(eng, p)) == enc(ref_main_options(eng, p))
        for timing in TIMINGS:
            assert rules._timed_sources(eng, p, timing) == ref_timed_sources(eng, p, timing)
        assert rules.promotion_candidates(eng, p) == ref_promotion_candidates(eng, p)
        assert rules.attack_targets(eng, p) == ref_attack_targets(eng, p)
        assert rules.rb_path(eng, p) == _d(eng, state.rb[p]).pathway
        assert rules.quick_window_cards(eng, p) == ref_quick_window_cards(eng, p)
        for op in ("search_potion", "search_beyonder", "seek"):
            assert rules._search_codes(eng, p, op) == ref_search_codes(eng, p, op)
    chars = rules._char_ids(eng, 0) + rules._char_ids(eng, 1)
    assert rules._by_order(eng, chars) == sorted(chars, key=lambda c: ref_order_key(eng, c))
    assert rules._by_order(eng, chars[::-1]) == sorted(chars[::-1],
                                                      key=lambda c: ref_order_key(eng, c))
    for cid, card in enumerate(state.cards):
        assert rules.is_characteristic(eng, cid) == ref_is_characteristic(eng, cid)
        for timing in TIMINGS:
            got = [(e.player, e.source, e.op, e.amount)
                   for e in rules._effects_of(eng, card.controller, cid, timing)]
            assert got == ref_effects_of(eng, card.controller, cid, timing)
        if card.zone.startswith(("units.", "revival.")):
            assert rules.strength(eng, cid) == ref_strength(eng, cid)
            assert rules.agility(eng, cid) == ref_agility(eng, cid)


def test_fast_paths_equal_fresh_computations_at_every_decision() -> None:
    checked = attacks = 0
    for seed, options in GAMES:
        m = tcgcore.new_match("guimi_revival", seed=seed, **options)
        agents = [tcgcore.RandomAgent(seed * 31 + s) for s in range(2)]
        while (choice := m.pending) is not None:
            _check_position(m.engine)
            if choice.kind == "main_action":
                assert [o.key for o in choice.options] == [
                    o.key for o in ref_main_options(m.engine, choice.player)]
            if choice.kind == "attack":
                resume = m.state.stack[-1]
                assert isinstance(resume, AttackAnswer)
                attacker = m.state.attack_order[resume.index]
                assert msgspec.json.encode(choice.options) == msgspec.json.encode(
                    ref_attack_options(m.engine, attacker))
                attacks += 1
            checked += 1
            m.choose(choice.player, agents[choice.player].decide(m, choice))
    assert checked > 500 and attacks > 20


def test_option_records_follow_a_card_id_that_holds_another_code() -> None:
    """Two interleaved matches whose card ids name different cards share ``rules._OPTS``."""
    a = tcgcore.new_match("guimi_revival", seed=5)
    b = tcgcore.new_match("guimi_revival", seed=5, decks=["sailor", "marauder"])
    assert [c.code for c in a.state.cards] != [c.code for c in b.state.cards]
    agents = {id(a): [tcgcore.RandomAgent(1), tcgcore.RandomAgent(2)],
              id(b): [tcgcore.RandomAgent(3), tcgcore.RandomAgent(4)]}
    enc = msgspec.json.encode
    checked = 0
    while a.pending is not None or b.pending is not None:
        for m in (a, b):
            choice = m.pending
            if choice is None:
                continue
            for p in (0, 1):
                assert enc(rules.main_options(m.engine, p)) == enc(
                    ref_main_options(m.engine, p))
            checked += 1
            m.choose(choice.player, agents[id(m)][choice.player].decide(m, choice))
    assert checked > 100


def test_card_infos_match_the_definitions() -> None:
    m = tcgcore.new_match("guimi_revival", seed=0)
    infos = rules.card_infos(m.state)
    defs = get_pool("builtin").cards
    assert set(infos) == set(defs)
    for code, d in defs.items():
        i = infos[code]
        assert i.d is d
        assert i.timings == {a.timing for a in d.abilities}
        assert i.beyonder == d.is_beyonder and i.card_type == d.card_type
        assert i.char == (d.pathway is not None and d.sequence is not None)
        ch = d.characteristic
        assert (i.ch_strength, i.ch_agility) == ((ch.strength, ch.agility) if ch else (0, 0))
        for timing in TIMINGS:
            assert i.effects.get(timing, ()) == tuple(
                (e.op, e.amount) for a in d.abilities if a.timing == timing for e in a.effects)


def test_cleared_caches_give_the_same_games() -> None:
    """Emptying every cache mid-run changes nothing (same decisions, same final state)."""
    def run(clear: bool) -> tuple[str, int]:
        m = tcgcore.new_match("guimi_revival", seed=9)
        agents = [tcgcore.RandomAgent(7), tcgcore.RandomAgent(8)]
        n = 0
        while (choice := m.pending) is not None:
            if clear and n % 7 == 0:
                rules._OPTS.clear()
                rules._INFO.clear()
                rules._SEARCHABLE.clear()
                rules._HAVING.clear()
            m.choose(choice.player, agents[choice.player].decide(m, choice))
            n += 1
        return m.digest(), n

    assert run(False) == run(True)


def test_state_checks_follow_each_match_options() -> None:
    """Interleaved matches with the default options and with the optional state checks
    (``while_at_or_above`` thresholds, automatic ascension) play as each plays alone: the
    shortcut after a step for default options reads the match's own options, so it never
    skips another match's checks (018.1 (3), 089.3, 112.2, 113.1)."""
    checks = {"threshold_checks": "while_at_or_above", "ascension_start": "automatic"}
    setups: list[tuple[int, dict[str, Any]]] = [(s, o) for s in range(4) for o in ({}, checks)]

    def agents(seed: int) -> list[tcgcore.RandomAgent]:
        return [tcgcore.RandomAgent(seed * 31 + s) for s in range(2)]

    alone = []
    for seed, options in setups:
        m = tcgcore.new_match("guimi_revival", seed=seed, **options)
        tcgcore.play_out(m, agents(seed))
        alone.append((m.digest(), len(m.decisions)))
    matches = [tcgcore.new_match("guimi_revival", seed=seed, **options)
               for seed, options in setups]
    players = [agents(seed) for seed, _ in setups]
    while any(m.pending is not None for m in matches):
        for m, ags in zip(matches, players, strict=True):
            if (choice := m.pending) is not None:
                m.choose(choice.player, ags[choice.player].decide(m, choice))
    assert [(m.digest(), len(m.decisions)) for m in matches] == alone
    assert alone[0::2] != alone[1::2]  # the checks changed some game


def test_attack_options_are_not_shared_between_matches() -> None:
    """An attack option carries a data map (the attacker, 094.3), so it is built for its
    choice: a host that writes into one cannot change what another match offers."""
    def first_attack(seed: int) -> tcgcore.Match[Any]:
        m = tcgcore.new_match("guimi_revival", seed=seed)
        agents = [tcgcore.RandomAgent(seed), tcgcore.RandomAgent(seed + 1)]
        while (choice := m.pending) is not None and choice.kind != "attack":
            m.choose(choice.player, agents[choice.player].decide(m, choice))
        assert m.pending is not None
        return m

    a = first_attack(3)
    clean = first_attack(3).digest()
    assert a.pending is not None
    a.pending.options[0].data["attacker"] = 999  # a misbehaving host
    b = first_attack(3)
    assert b.pending is not None and b.pending.options[0] is not a.pending.options[0]
    assert b.digest() == clean

