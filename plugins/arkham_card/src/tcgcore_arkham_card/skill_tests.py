"""Skill tests ST.1–ST.8 (A501–A509): committing, player windows, chaos tokens,
results, and the core player cards' reactions to results.

Part of the rules engine (layers in ``docs/architecture.md``): imports the shared
:mod:`.queries`, :mod:`.abilities` and :mod:`.operations`; :func:`register` puts the step
handlers on the spec :func:`.plugin.build_spec` builds.
"""

from __future__ import annotations

from typing import Any, Final

import tcgcore
from tcgcore import Option

from .abilities import (
    _AUTO_FAIL,
    _activatables,
    _threat_keyword,
    card_cost,
    may_respond,
    response_cards,
)
from .card_choices import (
    ask_wendy,
    card_choice_answer,
    play_labels,
    wendy_can_react,
)
from .cards import Ability, Effect, card_pool
from .operations import (
    discard_card,
    pick_token,
    run_effects,
)
from .queries import (
    _POOL,
    _SYMBOLS,
    BONUS_CODES,
    FORCED_CODES,
    Z_AT,
    Z_HAND,
    Z_PLAY,
    Z_THREAT,
    Eng,
    _traits,
    any_has_kw,
    dof,
    doom_in_play,
    enemies_at,
    engaged_seat,
    has_kw,
    location_of,
    max_doom_on_trait,
    name_of,
    printed,
    seats_at,
    skill_value,
)
from .state import (
    ApplyResults,
    ArkhamState,
    CardChoiceAnswer,
    CommitAnswer,
    CommitStep,
    DamageEnemy,
    DetermineResult,
    DoActivate,
    Effects,
    ElusiveMove,
    EndTest,
    EnemyAttack,
    FinishTreachery,
    Harm,
    RevealToken,
    SkillTest,
    StartTest,
    TestWindow,
    TestWindowAnswer,
    WouldFailAnswer,
)

# ============================================================================ skill tests


def _start_test(eng: Eng, step: StartTest) -> None:
    """ST.1 (A502.1): set skill and difficulty; then commits, windows, token, result."""
    state = eng.state
    test = step.test
    if state.test is not None:
        state.deferred_tests.append(test)  # A501.2: tests do not nest
        return
    if state.inv[test.seat].status:
        return
    if test.kind in ("fight", "evade") and location_of(state, test.target) != \
            state.inv[test.seat].location:
        return
    if state.peril == test.seat:
        test.peril = True
    loc = state.inv[test.seat].location
    commit_seats = [test.seat]  # then the others at the location (none in peril)
    if not test.peril:
        for s in seats_at(state, loc):
            if s != test.seat:
                commit_seats.append(s)
    test.commit_seats = commit_seats
    state.test = test
    eng.emit("test_started", player=test.seat,
             data={"skill": test.skill, "difficulty": test.difficulty, "kind": test.kind})
    eng.push(TestWindow(seats=[test.seat]), CommitStep(),
             TestWindow(seats=[test.seat]), RevealToken(), DetermineResult(),
             ApplyResults(), EndTest())


#: Per skill, the codes of the pool's non-weakness cards with a matching or wild icon:
#: the only ones :func:`_committable` may offer (built once; the pool never changes).
_COMMIT_ICONS: Final[dict[str, frozenset[str]]] = {
    skill: frozenset(code for code, d in card_pool().items()
                     if not d.is_weakness() and d.icons(skill) > 0)
    for skill in ("willpower", "intellect", "combat", "agility")}


def _committable(state: ArkhamState, seat: int, test: SkillTest) -> list[int]:
    """A503.2/A503.3/A107.3: cards with a matching or wild icon; Max 1 per test."""
    out = []
    committed_titles = [printed(state, c).title for c in test.committed] \
        if test.committed else []
    cards = state.cards
    icons = None if state.extra_defs else _COMMIT_ICONS.get(test.skill)
    for cid in state.zones[Z_HAND[seat]].cards:
        if icons is not None:
            code = cards[cid].code
            if code not in icons:
                continue  # a weakness, or no matching nor wild icon
            d = _POOL[code]  # printed: in _COMMIT_ICONS, so no weakness and an icon
        else:
            d = printed(state, cid)  # icons, title, weakness: kept by a blank text box
            if d.is_weakness() or d.icons(test.skill) <= 0:
                continue
        if d.max_per_test and committed_titles.count(d.title) >= d.max_per_test:
            continue
        if d.own_test_only and seat != test.seat:
            continue  # Opportunist
        out.append(cid)
    return out


def _commit(eng: Eng, step: CommitStep) -> None:
    """ST.2: the tester commits any number, each other investigator at the location one
    (A503.1, A503.4); peril blocks the others (A613.1)."""
    state = eng.state
    test = state.test
    if test is None:
        return
    while test.commit_seats:
        seat = test.commit_seats.pop(0)
        if state.inv[seat].status:
            continue
        cards = _committable(state, seat, test)
        if not cards and not state.zones[Z_HAND[seat]].cards:
            continue  # A913.2: an empty hand (public) has nothing to commit
        most = len(cards) if seat == test.seat else 1
        # A913.2: the window opens for any hand, so that whether it holds a card with a
        # matching icon stays hidden; without one, "none" is the only answer
        options = [Option(key=f"commit:{c}", label=_commit_label(state, c, test.skill), card=c)
                   for c in cards]
        eng.ask(seat, "commit", _commit_prompt(state, test),
                options or [Option(key="none", label="Commit nothing")],
                min=0, max=most or 1, resume=CommitAnswer(seat=seat))
        return


def _commit_label(state: ArkhamState, cid: int, skill: str) -> str:
    """A commit option: the card and the icons it adds to this test (A908.1: matching and
    wild icons)."""
    d = printed(state, cid)
    icons = getattr(d, f"skill_{skill}", 0) + d.skill_wild
    return f"{name_of(state, cid)} (+{icons} {skill})" if icons else name_of(state, cid)


def _commit_prompt(state: ArkhamState, test: SkillTest) -> str:
    """The commit window's prompt with the test's running total (A907: skill value and
    bonuses so far, against the difficulty)."""
    base = skill_value(state, test.seat, test.skill) + test.skill_bonus
    who = name_of(state, state.inv[test.seat].card)
    return (f"Commit cards to {who}'s {test.skill} test? (so far {base} {test.skill} "
            f"vs difficulty {max(0, test.difficulty)}; each matching icon adds 1)")


def _commit_answer(eng: Eng, step: CommitAnswer) -> None:
    state = eng.state
    test = state.test
    if test is None:
        return
    chosen = [int(k.split(":")[1]) for k in eng.answer if k.startswith("commit:")]
    d_titles: list[str] = [dof(state, c).title for c in test.committed]
    for cid in chosen:
        d = dof(state, cid)
        if d.max_per_test and d_titles.count(d.title) >= d.max_per_test:
            continue  # A107.3 (several copies chosen at once)
        d_titles.append(d.title)
        eng.move(cid, "committed", kind="committed", reveal=True)
        test.committed.append(cid)
    if test.commit_seats:
        eng.push(CommitStep())


def _window_options(state: ArkhamState, seat: int) -> list[Option]:
    """Fast options that can matter during the current test (A906.1): [free] abilities
    that boost the tested skill."""
    test = state.test
    if test is None:
        return []
    if seat != test.seat:
        return []  # only the tester's own boosts are offered
    opts: list[Option] = []
    for cid, idx, ab in _activatables(state, seat, "boost"):  # fast, with a test_bonus
        for e in ab.effects:
            if e.op == "test_bonus" and e.skill == test.skill:
                opts.append(Option(key=f"fast:{cid}:{idx}",
                                   label=f"{name_of(state, cid)}: +{e.amount} {e.skill}",
                                   card=cid))
                break
    return opts


def _test_window(eng: Eng, step: TestWindow) -> None:
    state = eng.state
    for i, seat in enumerate(step.seats):
        opts = _window_options(state, seat)
        if opts:
            eng.ask(seat, "fast_window", "Use a fast ability before the token is revealed?",
                    [*opts, Option(key="pass", label="Pass")],
                    resume=TestWindowAnswer(seats=step.seats[i:]))
            return


def _test_window_answer(eng: Eng, step: TestWindowAnswer) -> None:
    key = eng.answer[0]
    if key == "pass":
        if len(step.seats) > 1:
            eng.push(TestWindow(seats=step.seats[1:]))
        return
    _, cid_s, idx_s = key.split(":")
    eng.push(DoActivate(seat=step.seats[0], card=int(cid_s), index=int(idx_s)),
             TestWindow(seats=step.seats))


def _reveal_token(eng: Eng, step: RevealToken) -> None:
    """ST.3/ST.4 (A504, A505): reveal a token and resolve its effect."""
    state = eng.state
    test = state.test
    if test is None or test.auto:
        return  # A504.3: an automatic result reveals no token
    if state.inv[test.seat].limits.get("flag:will_to_survive:turn"):
        eng.emit("no_token", player=test.seat)  # Will to Survive (A978.8)
        return
    statue = _statue(state, test.seat)
    if statue >= 0:  # Grotesque Statue (A978.7): "when you would reveal a chaos token"
        eng.ask(test.seat, "statue_use", "Spend a charge of Grotesque Statue to reveal 2 "
                "tokens and keep one?", [Option(key="use", label="Use Grotesque Statue"),
                                         Option(key="pass", label="Reveal one token")],
                resume=CardChoiceAnswer(seat=test.seat, op="statue_use", cards=[statue]))
        return
    reveal_picked(eng, pick_token(eng))


def statue_answer(eng: Eng, step: CardChoiceAnswer, key: str) -> None:
    """Grotesque Statue (A978.7): ``statue_use`` spends a charge and reveals 2 tokens,
    then the tester keeps one (``token:0`` / ``token:1``, the better one for the tester
    listed first); the other goes back to the bag."""
    state = eng.state
    seat, statue = step.seat, step.cards[0]
    if step.op == "statue_use":
        if key != "use":
            reveal_picked(eng, pick_token(eng))
            return
        first, second = pick_token(eng), pick_token(eng)
        counters = eng.add_counter(statue, "uses", -1).counters
        eng.emit("statue_used", player=seat, card=statue, data={"first": first,
                                                                "second": second})
        if counters["uses"] <= 0:
            discard_card(eng, statue)
        pair = sorted([first, second], key=lambda t: -_token_rank(state, seat, t))
        eng.ask(seat, "statue_keep", "Which token do you resolve?",
                [Option(key=f"token:{i}", label=t) for i, t in enumerate(pair)],
                resume=CardChoiceAnswer(seat=seat, op=f"statue_keep:{pair[0]}:{pair[1]}",
                                        cards=[statue]))
        return
    pair = step.op.split(":")[1:]
    reveal_picked(eng, pair[int(key.split(":")[1])])


def reveal_picked(eng: Eng, token: str) -> None:
    """ST.3: the token is revealed; Wendy Adams may cancel it (A975.15), else ST.4."""
    state = eng.state
    test = state.test
    if test is None:
        return
    test.tokens.append(token)
    eng.emit("token_revealed", player=test.seat, data={"token": token})
    if wendy_can_react(eng, test.seat):
        ask_wendy(eng, test.seat, token)
        return
    resolve_token_effect(eng)


def resolve_token_effect(eng: Eng) -> None:
    """ST.4 (A505): resolve the effect of the last revealed token."""
    state = eng.state
    test = state.test
    if test is None or not test.tokens:
        return
    eff = _token_effect(state, test.seat, test.tokens[-1])
    if eff is not None:
        if eff.reveal_another:
            eng.push(RevealToken())
        if eff.on_reveal and (not eff.if_trait_here or _trait_here(state, test.seat,
                                                                     eff.if_trait_here)):
            run_effects(eng, test.seat, eff.on_reveal)
    opts = sure_gamble_options(eng, test.seat, test.tokens[-1])
    if opts is not None:  # Sure Gamble (A978.5): after a token with a negative modifier is revealed
        eng.ask(test.seat, "sure_gamble", f"Turn the {test.tokens[-1]} token's modifier "
                "positive?", [*opts, Option(key="pass", label="Keep it")],
                resume=CardChoiceAnswer(seat=test.seat, op="sure_gamble",
                                        amount=len(test.tokens) - 1))


def sure_gamble_answer(eng: Eng, step: CardChoiceAnswer, key: str) -> None:
    """Sure Gamble (A978.5): pay for it; the token's negative modifier counts as positive."""
    state = eng.state
    test = state.test
    if key == "pass" or test is None or step.amount >= len(test.tokens):
        return
    cid = int(key.split(":")[1])
    state.inv[step.seat].resources -= card_cost(state, cid)
    eng.move(cid, "resolving", kind="played")
    mod = token_modifier(state, test.seat, test.tokens[step.amount])
    if mod < 0:
        test.skill_bonus -= 2 * mod
        eng.emit("modifier_flipped", player=step.seat, card=cid, amount=-mod,
                 data={"token": test.tokens[step.amount]})
    eng.push(FinishTreachery(card=cid, seat=step.seat))


def _statue(state: ArkhamState, seat: int) -> int:
    """A charged Grotesque Statue the investigator controls (-1: none)."""
    play = state.zones[Z_PLAY[seat]].cards
    if not any_has_kw(state, play, "grotesque_statue"):
        return -1  # the usual case, answered by code
    for cid in play:
        if "grotesque_statue" in dof(state, cid).keywords and \
                state.cards[cid].counters.get("uses", 0) > 0:
            return cid
    return -1


def _token_rank(state: ArkhamState, seat: int, token: str) -> int:
    """How good a token is for the tester (the statue keeps the better one)."""
    if token == "auto_fail":
        return -100
    eff = _token_effect(state, seat, token)
    if eff is not None and eff.auto_fail:
        return -100
    if token == "elder_sign":
        return 100 + token_modifier(state, seat, token)
    return token_modifier(state, seat, token) - (10 if eff is not None and
                                                (eff.on_reveal or eff.on_fail) else 0)


def _token_effect(state: ArkhamState, seat: int, token: str) -> Any:
    if token == "elder_sign":
        if any_has_kw(state, state.zones[Z_THREAT[seat]].cards, "necronomicon"):
            return _AUTO_FAIL  # The Necronomicon
        return dof(state, state.inv[seat].card).elder_sign  # blank: none (A976.5)
    return state.tokens.get(token)


def _trait_here(state: ArkhamState, seat: int, trait: str) -> int:
    loc = state.inv[seat].location
    return sum(1 for e in enemies_at(state, loc) if trait in _traits(dof(state, e)))


def token_modifier(state: ArkhamState, seat: int, token: str) -> int:
    """The skill modifier of one revealed token (A505.1, A505.2)."""
    if token.lstrip("+-").isdigit():
        return int(token)
    eff = _token_effect(state, seat, token)
    if eff is None:
        return 0
    mod = int(eff.modifier)
    x = str(eff.x)
    if x:
        if x.startswith("enemies_trait:"):
            mod += int(eff.x_sign) * _trait_here(state, seat, x.split(":", 1)[1])
        elif x == "clues_here":
            loc = state.inv[seat].location
            mod += int(eff.x_sign) * (state.cards[loc].counters.get("clues", 0) if loc >= 0 else 0)
        elif x == "horror_self":
            mod += int(eff.x_sign) * state.inv[seat].horror
        elif x == "doom_in_play":
            mod += int(eff.x_sign) * doom_in_play(state)
        elif x.startswith("enemies_trait_in_play:"):  # The Devourer Below's Skull (A995.2)
            trait = x.split(":", 1)[1]
            mod += int(eff.x_sign) * sum(
                1 for z, zone in state.zones.items() if z.startswith(("at.", "threat."))
                for c in zone.cards
                if dof(state, c).type_code == "enemy" and trait in _traits(dof(state, c)))
        elif x.startswith("max_doom_trait:"):  # The Midnight Masks' Skull (A983.4)
            mod += int(eff.x_sign) * max_doom_on_trait(state, x.split(":", 1)[1])
    return mod


def _determine(eng: Eng, step: DetermineResult) -> None:
    """ST.5/ST.6 (A506, A507): modified skill (floor 0), success if >= difficulty;
    auto-fail counts the skill as 0 and always fails (A505.3)."""
    state = eng.state
    test = state.test
    if test is None:
        return
    parts = _compute(state, test)
    if not test.success and not test.auto_fail and test.auto != "fail":
        opts = _would_fail_options(state, test.seat)
        if opts is not None:  # A507.3: "when you would fail" before the result is set
            eng.ask(test.seat, "would_fail", "The test would fail: play a card?",
                    [*opts, Option(key="pass", label="Let it fail")],
                    resume=WouldFailAnswer())
            return
    _announce(eng, test, parts)  # nothing changed since _compute: its parts still hold


#: What :func:`_compute` read and :func:`_announce` reports: the base skill value, the
#: committed icons, each token's own modifier and the kind bonus.
_Parts = tuple[int, int, list[int], int]


def _compute(state: ArkhamState, test: SkillTest) -> _Parts:
    """ST.5/ST.6: set the test's value, success and margin; return the parts read on the
    way (base skill, committed icons, each token's own modifier, kind bonus), which
    :func:`_announce` reports unless the state changed in between."""
    seat = test.seat
    auto_fail = test.auto == "fail"
    if not auto_fail:
        for t in test.tokens:  # any(...), as a plain loop (no generator per test)
            if t == "auto_fail" or bool(getattr(_token_effect(state, seat, t), "auto_fail",
                                                False)):
                auto_fail = True
                break
    base = skill_value(state, seat, test.skill)
    value = base + test.skill_bonus
    kind_bonus = 0
    if test.kind == "investigate":
        kind_bonus = _kind_bonus(state, test)  # Magnifying Glass
        value += kind_bonus
    auto_success = False
    if "elder_sign" in test.tokens:
        eff = _token_effect(state, test.seat, "elder_sign")
        if eff is not None and eff.auto_success_if and any(
                state.cards[c].code == eff.auto_success_if
                for c in state.zones[Z_PLAY[test.seat]].cards):
            auto_success = True  # Wendy Adams with Wendy's Amulet
            test.auto = "success"
    icons = 0
    for cid in test.committed:
        icons += dof(state, cid).icons(test.skill)
    value += icons
    mods: list[int] = []
    for tok in test.tokens:
        mods.append(token_modifier(state, seat, tok))
    double = test.double_negative
    for mod in mods:
        value += mod * 2 if mod < 0 and double else mod  # doubling: the token's own modifier
    value = max(0, value)
    if auto_fail:
        value = 0
    test.auto_fail = auto_fail
    test.value = value
    diff = 0 if test.auto == "success" or auto_success else max(0, test.difficulty)  # A507.2
    test.success = (not auto_fail) and value >= diff
    test.margin = value - diff
    return base, icons, mods, kind_bonus


def _announce(eng: Eng, test: SkillTest, parts: _Parts | None = None) -> None:
    """ST.7: emit ``test_succeeded`` / ``test_failed`` with what made the value; ``parts``
    are :func:`_compute`'s when nothing changed since (else they are read afresh)."""
    state = eng.state
    diff = 0 if test.auto == "success" else max(0, test.difficulty)
    if parts is None:
        base = skill_value(state, test.seat, test.skill)
        icons = sum(dof(state, c).icons(test.skill) for c in test.committed)
        token_mods = [token_modifier(state, test.seat, t) for t in test.tokens]
        kind_bonus = _kind_bonus(state, test)
    else:
        base, icons, token_mods, kind_bonus = parts
    tokens = test.tokens
    if len(tokens) == 1 and len(token_mods) == 1:  # the usual case: no comprehension call
        mods = f"{tokens[0]}:{token_mods[0]:+d}"
    else:
        mods = ",".join([f"{t}:{m:+d}" for t, m in zip(tokens, token_mods, strict=True)])
    eng.emit("test_succeeded" if test.success else "test_failed", player=test.seat,
             amount=test.margin, data={"value": test.value, "difficulty": diff,
                                       "kind": test.kind, "skill": test.skill, "base": base,
                                       "icons": icons, "bonus": test.skill_bonus + kind_bonus,
                                       "tokens": mods,
                                       "auto": test.auto or ("fail" if test.auto_fail else "")})


def _kind_bonus(state: ArkhamState, test: SkillTest) -> int:
    """Bonuses that apply only to one kind of test (Magnifying Glass: investigating)."""
    if test.kind != "investigate":
        return 0
    cards = state.cards
    bonus = None if state.extra_defs else BONUS_CODES  # cards without any: skipped
    return sum(dof(state, c).bonus.get("investigate:" + test.skill, 0)
               for c in state.zones[Z_PLAY[test.seat]].cards
               if bonus is None or cards[c].code in bonus)


def _would_fail_options(state: ArkhamState, seat: int) -> list[Option] | None:
    """The seat's "would fail" plays, or ``None`` when it gets no window: A913.1, the
    window opens from public facts, so its options may be only ``pass``."""
    if _threat_keyword(state, seat, "no_play") or not may_respond(state, seat, "would_fail"):
        return None  # A106.4: the encounter card's "cannot play" wins
    return play_labels(state, seat, response_cards(state, seat, "would_fail"))


def _would_fail_answer(eng: Eng, step: WouldFailAnswer) -> None:
    state = eng.state
    test = state.test
    if test is None:
        return
    key = eng.answer[0]
    if key == "pass":
        _announce(eng, test)
        return
    cid = int(key.split(":")[1])
    d = dof(state, cid)
    state.inv[test.seat].resources -= card_cost(state, cid)
    eng.move(cid, "resolving", kind="played")
    rest: list[Effect] = []
    for e in d.effects:
        if e.op == "test_bonus":
            test.skill_bonus += e.amount
        elif e.op == "flip_negative":  # Sure Gamble (A978.5): -X becomes +X
            for tok in test.tokens:
                mod = token_modifier(state, test.seat, tok)
                if mod < 0:
                    test.skill_bonus -= 2 * mod
        else:
            rest.append(e)
    done = FinishTreachery(card=cid, seat=test.seat)  # discarded (or Wendy's Amulet, A975.13)
    if rest:  # Lucky! (2): then draw 1 card
        eng.push(done, Effects(seat=test.seat, effects=tuple(rest), source=cid),
                 DetermineResult())
    else:
        eng.push(done, DetermineResult())


def _apply_results(eng: Eng, step: ApplyResults) -> None:
    """ST.7 (A508): apply results; committed cards are still committed (A508.2)."""
    state = eng.state
    test = state.test
    if test is None or state.inv[test.seat].status:
        return
    seat = test.seat
    steps: list[tcgcore.Step] = []
    fail_by = max(0, -test.margin) if not test.success else 0
    src_ab = _source_ability(state, test)
    if test.success:
        if test.kind == "investigate" and not (src_ab is not None and src_ab.no_clue):
            steps.append(Effects(seat=seat, effects=(Effect(op="discover_clues", amount=1),),
                                 source=test.source))
            if test.target >= 0:
                for cid in state.zones[Z_AT[test.target]].cards:
                    fx = dof(state, cid).forced.get("after_investigated")
                    if fx:
                        steps.append(Effects(seat=seat, effects=fx, source=cid))
        elif test.kind == "fight":
            extra = 0
            if state.auras and "Monster" in _traits(dof(state, test.target)):
                # Lita Chantler: attacks on Monsters at her location deal +1 damage
                loc = state.inv[seat].location
                for cid in state.auras:
                    zone = state.cards[cid].zone
                    if zone.startswith("play.") and state.inv[int(zone[5:])].location == loc:
                        extra += dof(state, cid).bonus_here.get("monster_damage", 0)
            if src_ab is not None and src_ab.margin_damage and \
                    test.margin >= src_ab.margin_damage:
                extra += 1  # Switchblade, .41 Derringer
            for cid in test.committed:
                cd = dof(state, cid)
                extra += sum(e.amount for e in cd.on_success if e.op == "attack_bonus")
            amount = 1 + test.damage_bonus + extra
            if src_ab is not None and src_ab.margin_is_damage:  # Shotgun (A978.2)
                amount = min(5, max(1, test.margin)) + extra
            steps.append(DamageEnemy(enemy=test.target, amount=amount, seat=seat))
        elif test.kind == "evade":
            steps.append(Effects(seat=seat, effects=(Effect(op="evaded", amount=test.target),)))
        if test.on_success:
            steps.append(Effects(seat=seat, effects=test.on_success, source=test.source))
        for cid in test.committed:
            d = dof(state, cid)
            if d.on_success and (not d.success_kind or d.success_kind == test.kind):
                fx = tuple(e for e in d.on_success if e.op != "attack_bonus")
                if fx:
                    # the committer's card, except where it names the evading investigator
                    # (Survival Instinct, target "evade": A975.14)
                    who = seat if any(e.target == "evade" for e in fx) else \
                        state.cards[cid].owner
                    steps.append(Effects(seat=who, effects=fx, source=cid))
        if test.source >= 0 and src_ab is None:
            sd = dof(state, test.source)
            if sd.type_code == "event" and sd.on_success:  # Blinding Light
                steps.append(Effects(seat=seat, effects=sd.on_success, source=test.source))
    else:
        if test.on_fail:
            steps.append(Effects(seat=seat, effects=test.on_fail, source=test.source,
                                 margin=fail_by))
        if test.kind == "fight":
            target = test.target
            other = engaged_seat(state, target)
            if other >= 0 and other != seat and not has_kw(dof(state, target), "massive"):
                # A413.3: the attack's damage goes to the investigator engaged with it
                hit = 1 + test.damage_bonus
                if src_ab is not None and src_ab.margin_is_damage:
                    hit = min(5, max(1, fail_by))  # Shotgun (A978.2)
                steps.append(Harm(seat=other, damage=hit, source=test.source))
    steps += _asset_test_reactions(eng, test)
    if test.source >= 0 and not _SYMBOLS.isdisjoint(test.tokens):  # any symbol token
        sd = dof(state, test.source)
        if src_ab is not None and src_ab.symbol_horror:
            steps.append(Harm(seat=seat, horror=src_ab.symbol_horror, source=test.source))
        if src_ab is not None and src_ab.break_on and any(
                t in (src_ab.break_on, "auto_fail") for t in test.tokens):
            steps.append(Effects(seat=seat, effects=(Effect(op="discard_self"),),
                                 source=test.source))  # Baseball Bat
        if sd.symbol_lose_action:
            steps.append(Effects(seat=seat, effects=(Effect(op="lose_actions", amount=1),)))
        if sd.symbol_horror:  # Blinding Light (2)
            steps.append(Harm(seat=seat, horror=sd.symbol_horror, source=test.source))
    for tok in test.tokens:
        eff = _token_effect(state, seat, tok)
        if eff is None:
            continue
        if test.success and eff.on_success:
            steps.append(Effects(seat=seat, effects=eff.on_success))
        if not test.success and eff.on_fail:
            steps.append(Effects(seat=seat, effects=eff.on_fail, margin=fail_by))
    if not test.success and test.ready_target and test.target >= 0:
        d = dof(state, test.target)
        if test.kind == "fight" and has_kw(d, "retaliate"):
            steps.append(EnemyAttack(enemy=test.target, seat=seat))  # A608.1
        if test.kind == "evade" and has_kw(d, "alert"):
            steps.append(EnemyAttack(enemy=test.target, seat=seat))  # A609.1
    if test.kind == "fight" and test.ready_target and has_kw(dof(state, test.target), "elusive"):
        steps.append(ElusiveMove(enemy=test.target))  # A610.1
    if steps:
        eng.push(*steps)


def _source_ability(state: ArkhamState, test: SkillTest) -> Ability | None:
    """The action ability of the test's source card (an asset) matching the test kind."""
    if test.source < 0:
        return None
    d = dof(state, test.source)
    if d.type_code != "asset":
        return None
    for ab in d.abilities:
        if ab.kind == "action" and ab.action == test.kind:
            return ab
    return None


def _asset_test_reactions(eng: Eng, test: SkillTest) -> list[tcgcore.Step]:
    """Assets reacting to the tester's results: ``after_success:<kind>``,
    ``after_success2:<kind>`` (succeeded by 2 or more) and ``after_fail``; with
    ``trigger_exhausts`` the asset exhausts and must be ready."""
    state = eng.state
    out: list[tcgcore.Step] = []
    if test.success:
        keys = [f"after_success:{test.kind}"]
        if test.margin >= 2:
            keys.append(f"after_success2:{test.kind}")
    else:
        keys = ["after_fail"]
    cards = state.cards
    forced = None if state.extra_defs else FORCED_CODES
    for cid in state.zones[Z_PLAY[test.seat]].cards:
        if forced is not None and cards[cid].code not in forced:
            continue  # no forced ability at all (most assets and the investigator)
        d = dof(state, cid)
        if not d.forced:
            continue
        for k in keys:
            fx = d.forced.get(k)
            if not fx:
                continue
            card = state.cards[cid]
            if d.trigger_exhausts:
                if card.exhausted:
                    continue
                eng.update_card(cid, exhausted=True)
            eng.emit("ability", player=test.seat, card=cid, data={"ability": k})
            out.append(Effects(seat=test.seat, effects=fx, source=cid))
    return out


def _end_test(eng: Eng, step: EndTest) -> None:
    """ST.8 (A509.1): committed cards to their owners' discard piles, tokens back."""
    state = eng.state
    test = state.test
    if test is None:
        return
    for cid in test.committed:
        if state.cards[cid].zone == "committed":
            ret = dof(state, cid).margin_return
            if ret and test.success and test.margin >= ret:
                eng.move(cid, f"hand.{state.cards[cid].owner}", kind="returned")  # Opportunist
                continue
            discard_card(eng, cid)
    eng.emit("test_ended", player=test.seat,
             data={"success": test.success, "tokens": ",".join(test.tokens)})
    state.test = None
    state.inv[test.seat].limits.pop("wendy:test", None)  # Wendy: once per test (A975.15)
    if not test.success:
        after: list[Effect] = []  # plain loops: no comprehension call
        for t in test.tokens:
            after += getattr(_token_effect(state, test.seat, t), "after_fail", ())
        if after:
            eng.push(Effects(seat=test.seat, effects=tuple(after)))
    if state.deferred_tests:
        eng.push(StartTest(test=state.deferred_tests.pop(0)))


def sure_gamble_options(eng: Eng, seat: int, token: str) -> list[Option] | None:
    """Sure Gamble (A978.5) in hand and affordable after a token with a negative
    modifier is revealed for your test; ``None`` when the seat gets no window (A913.1:
    decided from public facts, so the list may be empty)."""
    state = eng.state
    if token_modifier(state, seat, token) >= 0 or _threat_keyword(state, seat, "no_play") \
            or not may_respond(state, seat, "token_negative"):
        return None  # A913.1: whether the window opens depends on public facts only
    return play_labels(state, seat, response_cards(state, seat, "token_negative"))


def _card_choice_answer(eng: Eng, step: CardChoiceAnswer) -> None:
    """A card choice: the skill-test ones here (Wendy Adams A975.15, Sure Gamble A978.5,
    the statue ops), the others in :func:`.card_choices.card_choice_answer`."""
    op = step.op
    if op == "wendy":
        _wendy_answer(eng, step, eng.answer[0])
    elif op == "sure_gamble":
        sure_gamble_answer(eng, step, eng.answer[0])
    elif op.startswith("statue"):
        statue_answer(eng, step, eng.answer[0])
    else:
        card_choice_answer(eng, step)


def _wendy_answer(eng: Eng, step: CardChoiceAnswer, key: str) -> None:
    """Wendy Adams's reaction (A975.15): ``pass`` keeps the token, ``card:<id>`` discards
    that card to cancel it and reveal another."""
    state = eng.state
    seat = step.seat
    test = state.test
    if key == "pass" or test is None:
        resolve_token_effect(eng)
        return
    cid = int(key.split(":")[1])
    state.inv[seat].limits["wendy:test"] = 1
    token = test.tokens.pop()  # A975.15: cancelled, back in the bag
    eng.emit("token_cancelled", player=seat, card=cid, data={"token": token})
    discard_card(eng, cid)
    eng.push(RevealToken())


def register(spec: tcgcore.GameSpec[ArkhamState]) -> None:
    """Register this module's step handlers on ``spec`` (:func:`.plugin.build_spec` calls it
    once, on the spec it builds)."""
    spec.handles(StartTest)(_start_test)
    spec.handles(CommitStep)(_commit)
    spec.handles(CommitAnswer)(_commit_answer)
    spec.handles(TestWindow)(_test_window)
    spec.handles(TestWindowAnswer)(_test_window_answer)
    spec.handles(RevealToken)(_reveal_token)
    spec.handles(DetermineResult)(_determine)
    spec.handles(WouldFailAnswer)(_would_fail_answer)
    spec.handles(ApplyResults)(_apply_results)
    spec.handles(EndTest)(_end_test)
    spec.handles(CardChoiceAnswer)(_card_choice_answer)
