"""The per-card-code shortcuts of the rules engine answer exactly what the plain
card-by-card lookups answer.

The fast paths skip cards by code using data computed once from the immutable card pool
(:func:`queries.keyword_codes`, :func:`abilities.reaction_codes`, :data:`queries.FORCED_CODES`,
``play_when`` codes, abilities per kind) and read printed definitions where a blank text
box changes nothing (:func:`queries.printed`, :func:`queries.name_of`, :func:`abilities.card_cost`).
Here every shortcut is compared, at every decision of several seeded random games of the
three scenarios (one and four investigators), with a reference written the slow way: one
:func:`queries.dof` lookup per card, as the rules read before the shortcuts.
"""

from __future__ import annotations

from importlib import resources

import pytest
import tcgcore_arkham_card.rules as rules
from tcgcore_arkham_card import (
    abilities,
    actions,
    card_choices,
    enemies,
    operations,
    queries,
    skill_tests,
)
from tcgcore_arkham_card.cards import Ability, CardDef
from tcgcore_arkham_card.state import ArkhamState, DoActivate, Effects

import tcgcore

_KEYWORDS = ("no_play", "frozen", "no_investigate", "amulet_events", "grotesque_statue",
             "necronomicon", "haunted", "massive", "aloof", "barricade", "blank_bearer",
             "ready_turn_end")
_TIMINGS = ("phase_begins", "enemy_attacks", "after_defeat_enemy", "after_evade",
            "treachery_drawn", "failed_investigate_by2", "token_negative", "would_fail")
#: Every choose_investigator effect of the pool's abilities (First Aid, Old Book of Lore).
_CHOICES = [e for d in queries._POOL.values() for ab in d.abilities for e in ab.effects
            if e.op == "choose_investigator"]
_SKILLS = ("willpower", "intellect", "combat", "agility")
_REACTIONS = ("enemy_spawns_here", "enemy_attacks_you", "after_defeat_enemy", "after_horror")


def _ref_activatables(state: ArkhamState, seat: int,
                      kind: str) -> list[tuple[int, int, Ability]]:
    """:func:`abilities._activatables` as it read before the per-code ability tables."""
    inv = state.inv[seat]
    zones = state.zones
    sources: list[int] = list(zones[f"play.{seat}"].cards)
    loc = inv.location
    if loc >= 0:
        sources.append(loc)
        sources += zones[f"at.{loc}"].cards
        for s in queries.seats_at(state, loc):
            sources += zones[f"threat.{s}"].cards
    for z in ("acts", "agendas"):
        top = zones[z].cards
        if top:
            sources.append(top[0])
    out: list[tuple[int, int, Ability]] = []
    cards = state.cards
    for cid in sources:
        d = queries.dof(state, cid)  # Mind Wipe's blank text box has no abilities (A978.6)
        if not d.abilities:
            continue
        if d.type_code == "location" and not queries.is_revealed(state, cid):
            continue
        blank_checked = cid != inv.card
        for idx, ab in enumerate(d.abilities):
            if ab.kind != kind if kind else ab.kind == "reaction":
                continue
            if not blank_checked:
                if queries.investigator_blank(state, seat):
                    break
                blank_checked = True
            if not abilities._ability_payable(state, seat, cid, ab):
                continue
            if ab.action == "fight" and not abilities._fight_targets(state, seat):
                continue
            if ab.action == "evade" and not abilities._evade_targets(state, seat):
                continue
            if ab.action == "investigate" and not queries.can_investigate(state, loc):
                continue
            if ab.effects and ab.effects[0].op == "return_to_hand" and (
                    loc < 0 or cards[loc].counters.get("clues", 0) > 0):
                continue
            if ab.action == "parley" and d.type_code == "enemy" and \
                    queries.location_of(state, cid) != loc:
                continue
            if ab.effects and ab.effects[0].op == "take_control" and all(
                    e.op == "take_control" for e in ab.effects) and not any(
                    cards[x].code == e.code for e in ab.effects
                    for x in zones["setaside"].cards):
                continue
            if ab.effects and not abilities.choice_useful(state, seat, ab.effects[0]):
                continue
            out.append((cid, idx, ab))
    return out


def _ref_window(state: ArkhamState, seat: int) -> list[tcgcore.Option]:
    """:func:`skill_tests._window_options` as it read before the "boost" table."""
    test = state.test
    assert test is not None
    if test.peril and seat != test.seat:
        return []
    opts: list[tcgcore.Option] = []
    for cid, idx, ab in _ref_activatables(state, seat, "fast"):
        for e in ab.effects:
            if e.op == "test_bonus" and e.skill == test.skill and seat == test.seat:
                opts.append(tcgcore.Option(
                    key=f"fast:{cid}:{idx}", label=f"{queries.name_of(state, cid)}: "
                    f"+{e.amount} {e.skill}", card=cid))
                break
    return opts


def _ref_lend(state: ArkhamState, seat: int, loc: int) -> list[tcgcore.Option]:
    """:func:`actions._lend_options` as it read before the lender codes."""
    out: list[tcgcore.Option] = []
    refused = state.inv[seat].limits
    for s in queries.player_order(state):
        if s == seat or state.inv[s].status or state.inv[s].location != loc:
            continue
        for cid in state.zones[f"play.{s}"].cards:
            for idx, ab in enumerate(queries.dof(state, cid).abilities):
                if ab.kind == "fast" and any(e.target == "active" for e in ab.effects) and \
                        not refused.get(f"lend:{cid}:{idx}:turn") and \
                        abilities._ability_payable(state, s, cid, ab):
                    who = queries.cdef(state, state.inv[s].code).name
                    out.append(tcgcore.Option(
                        key=f"lend:{s}:{cid}:{idx}",
                        label=f"Ask {who} to use {queries.name_of(state, cid)}", card=cid))
    return out


def _ref_committable(state: ArkhamState, seat: int) -> list[int]:
    """:func:`skill_tests._committable` as it read before the icon codes."""
    test = state.test
    assert test is not None
    titles = [queries.dof(state, c).title for c in test.committed]
    out = []
    for cid in state.zones[f"hand.{seat}"].cards:
        d = queries.dof(state, cid)
        if d.is_weakness() or d.icons(test.skill) <= 0:
            continue
        if d.max_per_test and titles.count(d.title) >= d.max_per_test:
            continue
        if d.own_test_only and seat != test.seat:
            continue
        out.append(cid)
    return out


def _ref_engaged(state: ArkhamState, seat: int) -> list[int]:
    out = [c for c in state.zones[f"threat.{seat}"].cards if queries.is_enemy(state, c)]
    loc = state.inv[seat].location
    if loc >= 0:
        for c in state.zones[f"at.{loc}"].cards:
            if not state.cards[c].exhausted and queries.is_enemy(state, c) and \
                    "massive" in queries.dof(state, c).keywords:
                out.append(c)
    return out


def _ref_threat_skill(state: ArkhamState, seat: int, skill: str) -> int:
    """What the threat area adds to a skill, as :func:`queries.skill_value` computed it."""
    threat = state.zones[f"threat.{seat}"].cards
    return -sum(1 for c in threat if "haunted" in queries.dof(state, c).keywords) + sum(
        queries.dof(state, c).bonus.get(skill, 0) for c in threat
        if queries.dof(state, c).type_code == "treachery")


def _ref_hand_plays(state: ArkhamState, seat: int, when: str) -> list[str]:
    """The trigger keys of :func:`abilities._hand_plays` looked up card by card: one window
    (A913.1) when the seat's deck list has an affordable card with that timing and its
    hand is not empty, or the Amulet's event could be played; it plays the first such
    card in hand, or can only be passed."""
    def fits(cid: int) -> bool:
        return queries.dof(state, cid).play_when == when and \
            state.inv[seat].resources >= abilities.card_cost(state, cid)

    real = [cid for cid in abilities.playable_hand(state, seat) if fits(cid)]
    top = _ref_amulet(state, seat)
    window = (top >= 0 and fits(top)) or (bool(state.zones[f"hand.{seat}"].cards) and any(
        c.owner == seat and fits(c.id) for c in state.cards))
    if not window:
        return []
    return [f"play_when:{real[0]}"] if real else [f"pass_when:{when}"]


def _ref_amulet(state: ArkhamState, seat: int) -> int:
    pile = state.zones[f"discard.{seat}"].cards
    if not pile or queries.dof(state, pile[-1]).type_code != "event" or not any(
            "amulet_events" in queries.dof(state, c).keywords
            for c in state.zones[f"play.{seat}"].cards):
        return -1
    return pile[-1]


def _ref_cost(state: ArkhamState, cid: int) -> int:
    d = queries.dof(state, cid)
    cost = max(0, d.cost or 0)
    owner = state.cards[cid].owner
    if cost and d.type_code == "asset" and 0 <= owner < len(state.inv):
        loc = state.inv[owner].location
        if loc >= 0:
            for key, mod in queries.dof(state, loc).bonus.items():
                if key.startswith("cost:") and key[5:] in queries._traits(d):
                    cost = max(0, cost + mod)
    return cost


def _same_printed_parts(a: CardDef, b: CardDef) -> bool:
    return (a.name, a.type_code, a.traits, a.cost, a.play_when, a.title, a.objective,
            a.cannot_enter_unrevealed) == \
        (b.name, b.type_code, b.traits, b.cost, b.play_when, b.title, b.objective,
         b.cannot_enter_unrevealed)


def _with_dof_for_printed(state: ArkhamState) -> tuple[object, ...]:
    """Skill values, unique blocks and costs as the rules give them with every
    :func:`queries.printed` read replaced by a full :func:`queries.dof` lookup."""
    spaces = [ns for ns in (vars(rules), vars(actions), vars(enemies), vars(skill_tests))
              if "printed" in ns]  # (enemies reads printed definitions inline)
    saved = [ns["printed"] for ns in spaces]
    for ns in spaces:
        ns["printed"] = queries.dof
    try:
        return _printed_reads(state)
    finally:
        for ns, fn in zip(spaces, saved, strict=True):
            ns["printed"] = fn


def _printed_reads(state: ArkhamState) -> tuple[object, ...]:
    seats = [s for s in range(state.num_players) if not state.inv[s].status]
    return (
        [queries.skill_value(state, s, k) for s in seats for k in ("willpower", "intellect",
                                                                 "combat", "agility")],
        [abilities._unique_blocked(state, queries.dof(state, c)) for s in seats
         for c in state.zones[f"hand.{s}"].cards],
        [abilities.card_cost(state, c) for s in seats for c in state.zones[f"hand.{s}"].cards],
        [abilities.amulet_event(state, s) for s in seats],
        queries.act_threshold(state), queries.agenda_threshold(state),
        [enemies._soakers(state, s, k, {}) for s in seats for k in ("damage", "horror")],
        [actions._slot_overflow(state, s, queries.dof(state, c)) for s in seats
         for c in state.zones[f"hand.{s}"].cards if queries.dof(state, c).type_code == "asset"],
        [(skill_tests._committable(state, s, state.test), skill_tests._kind_bonus(state, state.test))
         for s in seats] if state.test is not None else [],
    )


def _check_state(state: ArkhamState) -> int:
    """Compare every shortcut with its reference on one state; the number of checks."""
    checks = 1
    assert _printed_reads(state) == _with_dof_for_printed(state)
    cards = state.cards
    for cid in range(len(cards)):
        d = queries.dof(state, cid)
        assert _same_printed_parts(queries.printed(state, cid), d)
        assert queries.name_of(state, cid) == d.name
        if d.forced:
            assert cards[cid].code in queries.FORCED_CODES or state.extra_defs
        checks += 1
    for zid, zone in state.zones.items():
        cids = [c for c in zone.cards if c >= 0]
        for kw in _KEYWORDS:
            assert queries.any_has_kw(state, cids, kw) == any(
                kw in queries.dof(state, c).keywords for c in cids), (zid, kw)
            checks += 1
    assert queries._enemies_in_play(state) == sorted(
        c for z, zone in state.zones.items() if zone.cards and z.startswith(("at.", "threat."))
        for c in zone.cards if c >= 0 and queries.is_enemy(state, c))
    for loc in state.zones["locations"].cards:
        order = [*range(state.lead, state.num_players), *range(state.lead)]
        assert queries.seats_at(state, loc) == [
            s for s in order if state.inv[s].location == loc and not state.inv[s].status]
        assert queries.enemies_at(state, loc) == [
            c for c in [*state.zones[f"at.{loc}"].cards,
                        *(x for s in queries.seats_at(state, loc)
                          for x in state.zones[f"threat.{s}"].cards)]
            if queries.dof(state, c).type_code == "enemy"]
        assert queries.can_investigate(state, loc) == (not any(
            "no_investigate" in queries.dof(state, c).keywords
            for c in state.zones[f"at.{loc}"].cards))
        checks += 2
    for seat in range(state.num_players):
        if state.inv[seat].status:
            continue
        assert abilities.amulet_event(state, seat) == _ref_amulet(state, seat)
        for kind in ("", "fast", "action"):
            assert abilities._activatables(state, seat, kind) == \
                _ref_activatables(state, seat, kind)
        if state.test is not None:
            assert skill_tests._window_options(state, seat) == _ref_window(state, seat)
            assert skill_tests._committable(state, seat, state.test) == \
                _ref_committable(state, seat)
        assert abilities._activatables(state, seat, "boost") == [
            x for x in _ref_activatables(state, seat, "fast")
            if any(e.op == "test_bonus" for e in x[2].effects)]
        assert abilities._activatables(state, seat, "turn") == [
            x for x in _ref_activatables(state, seat, "") if not (
                x[2].kind == "fast" and any(e.op == "test_bonus" for e in x[2].effects))]
        for when in _TIMINGS:
            ref = _ref_hand_plays(state, seat, when)
            assert [t.ability for t in abilities._hand_plays(state, seat, when, "")] == ref
        for trigger in _REACTIONS:
            if not any(state.cards[c].code in abilities.reaction_codes(trigger)
                       for c in state.zones[f"play.{seat}"].cards):
                assert not any(ab.kind == "reaction" and ab.trigger == trigger
                               for c in state.zones[f"play.{seat}"].cards
                               for ab in queries.dof(state, c).abilities)
        for cid in abilities.playable_hand(state, seat):
            assert abilities.card_cost(state, cid) == _ref_cost(state, cid)
        assert queries.engaged_enemies(state, seat) == _ref_engaged(state, seat)
        loc = state.inv[seat].location
        if loc >= 0:
            assert actions._lend_options(state, seat, loc) == _ref_lend(state, seat, loc)
        assert queries.inv_sanity(state, seat) == (
            queries.cdef(state, state.inv[seat].code).sanity or 0) + \
            _ref_threat_skill(state, seat, "sanity") + sum(
                1 for c in state.zones[f"threat.{seat}"].cards
                if "haunted" in queries.dof(state, c).keywords)
        saved = state.zones[f"threat.{seat}"].cards
        state.zones[f"threat.{seat}"].cards = []
        try:
            bare = {k: queries.skill_value(state, seat, k) for k in _SKILLS}
        finally:
            state.zones[f"threat.{seat}"].cards = saved
        for k in _SKILLS:
            assert queries.skill_value(state, seat, k) == bare[k] + \
                _ref_threat_skill(state, seat, k)
        for e in _CHOICES:
            assert abilities.choice_useful(state, seat, e) == \
                bool(abilities.chooseable_seats(state, seat, e))
        checks += 4
    return checks


def _ref_plays(state: ArkhamState, seat: int) -> list[tuple[str, str, int]]:
    """The ``play:`` and ``fastplay:`` options of :func:`actions.turn_options` as they
    read before the hand loop inlined :func:`actions._playable_now` (one call per card)."""
    inv = state.inv[seat]
    hand = list(state.zones[f"hand.{seat}"].cards)
    top = abilities.amulet_event(state, seat)
    if top >= 0:
        hand.append(top)
    if not hand or abilities._threat_keyword(state, seat, "no_play"):
        return []
    plays: list[tuple[str, str, int]] = []
    fast: list[tuple[str, str, int]] = []
    for cid in hand:
        d = queries.printed(state, cid)
        if d.type_code not in ("asset", "event") or d.play_when:
            continue
        if d.fast:
            if actions._playable_now(state, seat, cid, d):
                fast.append((f"fastplay:{cid}", f"Play {d.name} (fast, cost {max(0, d.cost or 0)})",
                             cid))
        elif inv.actions > 0 and actions._playable_now(state, seat, cid, d):
            plays.append((f"play:{cid}", f"Play {d.name} (cost {max(0, d.cost or 0)})", cid))
    return plays + fast


@pytest.mark.parametrize(("scenario", "players", "seeds"), [
    ("01104", 1, range(6)), ("01104", 4, range(2)), ("01120", 2, range(2)),
    ("01142", 1, range(3)), ("01142", 3, range(1)),
])
def test_fast_paths_equal_card_by_card_lookups(scenario: str, players: int,
                                               seeds: range) -> None:
    checks = 0
    decisions = 0
    for seed in seeds:
        m = tcgcore.new_match("arkham_card", seed=seed, players=players, scenario=scenario)
        agents = [tcgcore.RandomAgent(seed * 31 + s) for s in range(players)]
        while (choice := m.pending) is not None and decisions < 4000:
            state = m.engine.state
            checks += _check_state(state)
            # the collector's inline "phase" check answers what card_triggers answers
            phase = tcgcore.Event(seq=state.event_count, kind="phase",
                                  data={"phase": state.phase})
            assert rules.collect(m.engine, phase) == \
                card_choices.card_triggers(m.engine, phase)
            # _agenda_forced skips cards without forced abilities by code
            for when in ("round_end", "enemy_phase_end", "mythos", "investigation_end"):
                assert operations._agenda_forced(state, when) == [
                    Effects(seat=state.lead, effects=fx, source=cid)
                    for cid in (queries.current_agenda(state), queries.current_act(state))
                    if cid >= 0 and (fx := queries.dof(state, cid).forced.get(when))]
            if choice.kind == "action":
                seat = choice.player
                got = [(o.key, o.label, o.card) for o in actions.turn_options(state, seat)]
                assert [(o.key, o.label, o.card) for o in choice.options] == got
                assert [o for o in got if o[0].startswith(("play:", "fastplay:"))] == \
                    _ref_plays(state, seat)
            m.choose(choice.player, agents[choice.player].decide(m, choice))
            decisions += 1
    assert decisions > 30 and checks > 1000


def test_hand_info_table_matches_the_definitions() -> None:
    for code, d in queries._POOL.items():
        info = actions._HAND_INFO[code]
        if d.type_code not in ("asset", "event") or d.play_when:
            assert info is None
        else:
            assert info == (max(0, d.cost or 0) - (2 if "Ally" in d.traits else 0),
                            f"Play {d.name} (cost {max(0, d.cost or 0)})",
                            f"Play {d.name} (fast, cost {max(0, d.cost or 0)})", max(0, d.cost or 0))


def test_weakness_codes_are_the_pool_weaknesses() -> None:
    assert operations._WEAKNESS_CODES == {c for c, d in queries._POOL.items() if d.is_weakness()}
    for d in queries._POOL.values():  # a blank text box keeps the subtype
        assert queries._blank(d).is_weakness() == d.is_weakness()


def test_traits_parse_once_and_match_the_text() -> None:
    for d in queries._POOL.values():
        assert list(queries._traits(d)) == [t.strip() for t in d.traits.split(".") if t.strip()]
        assert queries._traits(d) is queries._traits(d)


def test_scenario_names_list_the_data_folder_and_return_a_copy() -> None:
    from tcgcore_arkham_card.scenario_setup import scenario_names

    base = resources.files("tcgcore_arkham_card") / "data"
    listed = sorted(f.name[len("scenario_"):-len(".json")] for f in base.iterdir()
                    if f.name.startswith("scenario_") and f.name.endswith(".json"))
    names = scenario_names()
    assert names == listed
    names.append("changed")
    assert scenario_names() == listed


def test_a_repeated_match_is_identical_after_the_tables_are_filled() -> None:
    """The code tables are built lazily; a match played with them empty and one played
    with them filled agree byte for byte."""
    for table in (queries._KW_CODES, abilities._PLAY_WHEN, abilities._REACTS, abilities._KIND_ABILITIES):
        table.clear()
    a = tcgcore.new_match("arkham_card", seed=5, players=2)
    tcgcore.play_out(a, [tcgcore.RandomAgent(1), tcgcore.RandomAgent(2)])
    b = tcgcore.new_match("arkham_card", seed=5, players=2)
    tcgcore.play_out(b, [tcgcore.RandomAgent(1), tcgcore.RandomAgent(2)])
    assert a.digest() == b.digest() and a.decisions == b.decisions


_BLANKED = {"keywords", "forced", "abilities", "spawn", "prey", "revelation"}
_INVESTIGATOR_BLANKED = {"abilities", "elder_sign", "bonus"}


def test_a_blank_text_box_changes_only_what_printed_reads_skip() -> None:
    """:func:`queries.printed` stands in for :func:`queries.dof` for every field but these:
    a blank text box (A976.5, A978.6) must change nothing else."""
    for d in queries._POOL.values():
        for blank, allowed in ((queries._blank(d), _BLANKED),
                               (queries._blank_investigator(d), _INVESTIGATOR_BLANKED)):
            changed = {f for f in d.__struct_fields__ if getattr(blank, f) != getattr(d, f)}
            assert changed <= allowed, (d.code, changed)


def test_seats_at_and_player_order_follow_any_lead() -> None:
    m = tcgcore.new_match("arkham_card", seed=3, players=4)
    state: ArkhamState = m.engine.state
    state.inv[2].location = -1
    state.inv[3].status = "resigned"
    for lead in range(4):
        state.lead = lead
        order = [*range(lead, 4), *range(lead)]
        assert queries.player_order(state) == [s for s in order if not state.inv[s].status]
        for loc in [-1, *state.zones["locations"].cards]:
            assert queries.seats_at(state, loc) == [
                s for s in order if state.inv[s].location == loc and not state.inv[s].status]


def test_A978_6_an_enemy_blanked_by_mind_wipe_offers_no_parley() -> None:
    """Mob Enforcer's parley is an activated ability; Mind Wipe blanks the enemy's text box
    until the phase ends, so its parley is neither offered nor resolvable (A978.6)."""
    m = tcgcore.new_match("arkham_card", seed=3, players=1)
    while (ch := m.pending) is not None and ch.kind != "action":
        m.choose(ch.player, [] if ch.min == 0 else [ch.options[0].key])
    state, eng = m.state, m.engine
    eid = eng.add_card("01101", 0, f"at.{state.inv[0].location}").id  # Mob Enforcer
    state.inv[0].resources = 10

    def parleys() -> list[str]:
        assert m.pending is not None
        return [o.key for o in m.pending.options if o.key.startswith(f"activate:{eid}:")]

    m.choose(0, "resource")  # any action: the turn options are built again
    assert parleys(), "unblanked, the parley is offered"
    card_choices.blank_enemy(eng, 0, eid)  # what Mind Wipe does
    m.choose(0, "resource")
    assert parleys() == []
    assert abilities._activatables(state, 0, "") == _ref_activatables(state, 0, "")
    before = m.state_bytes()  # an activation chosen before the blank resolves to nothing
    actions._do_activate(eng, DoActivate(seat=0, card=eid, index=0))
    assert m.state_bytes() == before


# ---------------------------------------------------------------- pool shortcuts


def _slow_paths(state: ArkhamState) -> dict[str, CardDef]:
    """A scenario-supplied definition nobody uses: with ``extra_defs`` non-empty every
    rule takes its general path (no per-code tables, one definition lookup per card),
    which is the reference the pool shortcuts must equal. Returns the old value."""
    saved = state.extra_defs
    state.extra_defs = {"zz_unused": queries._POOL["01001"]}
    return saved


def _check_against_slow_paths(state: ArkhamState) -> int:
    """The pool shortcuts against the general path on one state."""
    checks = 0
    for prefixes, named in (((("at.", "threat.", "play.")), ()), (("at.", "threat."), ()),
                            (("at.", "threat.", "play."), ("locations", "agendas"))):
        assert queries.zone_ids(state, prefixes, named) == tuple(
            z for z in state.zones if z in named or z.startswith(prefixes))
    assert queries.doom_in_play(state) == sum(
        state.cards[c].counters.get("doom", 0) for z, zone in state.zones.items()
        if z in ("locations", "agendas") or z.startswith(("at.", "threat.", "play."))
        for c in zone.cards if c >= 0)
    fast: list[object] = []
    slow: list[object] = []
    for out in (fast, slow):
        if out is slow:
            saved = _slow_paths(state)
        try:
            out.append(queries._enemies_in_play(state))
            out.append([e for e in queries._in_play_with(
                state, None if state.extra_defs else operations._FORCED_ENEMY_CODES)
                if queries.dof(state, e).forced])
            for seat in range(state.num_players):
                if state.inv[seat].status:
                    continue
                out.append([queries.skill_value(state, seat, k) for k in _SKILLS])
                out.append([enemies._soakers(state, seat, k, {}) for k in ("damage", "horror")])
                out.append(abilities.amulet_event(state, seat))
                if state.inv[seat].location >= 0:
                    out.append(queries.enemies_at(state, state.inv[seat].location))
                out.append(queries.engaged_enemies(state, seat))
                out.append([(o.key, o.label, o.card) for o in actions.turn_options(state, seat)])
                if state.test is not None:
                    out.append(skill_tests._committable(state, seat, state.test))
        finally:
            if out is slow:
                state.extra_defs = saved
        checks += 1
    assert fast == slow
    return checks


@pytest.mark.parametrize(("scenario", "players", "seeds"), [
    ("01104", 1, range(6)), ("01104", 4, range(2)), ("01120", 2, range(3)),
    ("01142", 1, range(6)), ("01142", 3, range(1)),
])
def test_third_round_shortcuts_equal_the_general_path(scenario: str, players: int,
                                                      seeds: range) -> None:
    """Zone ids by prefix, doom in play, forced enemies by code, skill values, soakers,
    the Wendy's Amulet check, enemies here and engaged, turn options and committable cards
    answer what the general (scenario-definition) path answers, at every decision."""
    checks = 0
    for seed in seeds:
        m = tcgcore.new_match("arkham_card", seed=seed, players=players, scenario=scenario)
        agents = [tcgcore.RandomAgent(seed * 31 + s) for s in range(players)]
        decisions = 0
        while (choice := m.pending) is not None and decisions < 3000:
            checks += _check_against_slow_paths(m.engine.state)
            m.choose(choice.player, agents[choice.player].decide(m, choice))
            decisions += 1
    assert checks > 60


def test_zone_ids_follow_zones_added_later() -> None:
    """A zone added during a match is listed from then on (the answer is kept by the zone
    ids, so a new zone makes a new key)."""
    m = tcgcore.new_match("arkham_card", seed=1, players=2)
    state: ArkhamState = m.engine.state
    before = queries.zone_ids(state, ("at.",))
    m.engine.add_zone("at.9999", "area", ordered=False)
    after = queries.zone_ids(state, ("at.",))
    assert after == (*before, "at.9999")
    assert queries.zone_ids(state, ("at.",), ("locations",)) == tuple(
        z for z in state.zones if z == "locations" or z.startswith("at."))


@pytest.mark.parametrize("scenario", ["01104", "01120", "01142"])
def test_remembered_adjacency_equals_a_fresh_one(scenario: str) -> None:
    """A211.5, A992.1: :func:`queries.rebuild_adjacency` answers from its memo exactly what it
    computes afresh, at every few decisions of seeded games (locations entering play,
    revealed, flipped or removed)."""
    for seed in range(3):
        m = tcgcore.new_match("arkham_card", seed=seed, players=2, scenario=scenario)
        agents = [tcgcore.RandomAgent(seed * 31 + s) for s in range(2)]
        n = 0
        while (choice := m.pending) is not None:
            if n % 3 == 0:
                warm = m.clone().state
                queries.rebuild_adjacency(warm)   # memo filled (or hit)
                hit = dict(warm.adj)
                queries._ADJ_MEMO.clear()
                cold = m.clone().state
                queries.rebuild_adjacency(cold)
                assert hit == cold.adj
                queries.rebuild_adjacency(cold)   # a hit hands out fresh lists
                for links in cold.adj.values():
                    links.append(-1)
                again = m.clone().state
                queries.rebuild_adjacency(again)
                assert again.adj == hit
            m.choose(choice.player, agents[choice.player].decide(m, choice))
            n += 1
