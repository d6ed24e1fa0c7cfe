"""The arkham_card game state and its step types (tagged, data only).

Zones (ids; see ``docs/arkham_card/scenario-format.md``):

* per investigator ``s``: ``deck.s`` (hidden), ``hand.s`` (owner), ``discard.s``,
  ``play.s`` (investigator card and assets), ``threat.s`` (engaged enemies and
  threat-area treacheries; kind ``area``), ``aside.s`` (weaknesses set aside during
  the opening hand; owner);
* shared: ``locations`` (in play), ``at.<location id>`` (unengaged enemies and
  attachments at a location; kind ``area``), ``setaside``, ``acts``, ``agendas``
  (current card first), ``encounter`` (hidden), ``encounter_discard``, ``victory``,
  ``committed``, ``resolving``, ``out`` (removed from the game, public) and
  ``removed`` (removed from the game, hidden).
"""

from __future__ import annotations

from typing import Union

import msgspec

import tcgcore

from .cards import CardDef, Effect, TokenEffect

__all__ = ["ArkhamState", "Inv", "SkillTest"]


class Inv(msgspec.Struct, kw_only=True, omit_defaults=True):
    """One investigator (seat) in a scenario.

    Attributes:
        code: investigator card code.
        card: the investigator card's instance id.
        location: instance id of its location (-1 before setup places it).
        resources, clues, damage, horror: token counts on the investigator.
        actions: actions left this turn.
        acted: it has taken its turn this investigation phase.
        status: ``""`` (playing), ``"defeated"`` or ``"resigned"``.
        trauma: trauma suffered this scenario (``"physical"``, ``"mental"``, ``""``).
        limits: ability uses, key ``"<card id>:<ability index>"``.
        mulliganed: its one mulligan is done.
        special_actions: additional actions this turn usable only to activate an ability
            of a card with the given trait (A404.3).
    """

    code: str
    card: int
    location: int = -1
    resources: int = 0
    clues: int = 0
    damage: int = 0
    horror: int = 0
    actions: int = 0
    acted: bool = False
    status: str = ""
    trauma: str = ""
    limits: dict[str, int] = {}
    mulliganed: bool = False
    special_actions: list[str] = []


class SkillTest(msgspec.Struct, kw_only=True, omit_defaults=True):
    """The skill test in progress (RR: Skill Test Timing; tests never nest).

    Attributes:
        seat: the tester.
        skill: tested skill.
        difficulty: the (modified) difficulty.
        kind: ``"investigate"``, ``"fight"``, ``"evade"``, ``"parley"`` or ``"effect"``.
        target: enemy or location instance id the test is about (-1 = none).
        source: card that caused it (-1 = none).
        skill_bonus: modifiers from the action's source and fast abilities.
        damage_bonus: extra damage of a successful attack.
        committed: committed card ids (ST.2).
        tokens: revealed chaos tokens.
        value: modified skill value (ST.5).
        success: result (ST.6).
        margin: value minus difficulty.
        on_success, on_fail: effects of the test's source.
        ready_target: the target enemy was ready when the test began (retaliate/alert).
        peril: the test comes from a peril card (others cannot commit).
        commit_seats: seats still to be asked to commit, in order.
        auto: ``"success"`` or ``"fail"`` when set before ST.3 (A504.3).
        double_negative: negative token modifiers are doubled (a Nightgaunt-style evade).
    """

    seat: int
    skill: str
    difficulty: int
    kind: str = "effect"
    target: int = -1
    source: int = -1
    skill_bonus: int = 0
    damage_bonus: int = 0
    committed: list[int] = []
    tokens: list[str] = []
    value: int = 0
    success: bool = False
    margin: int = 0
    on_success: tuple[Effect, ...] = ()
    on_fail: tuple[Effect, ...] = ()
    ready_target: bool = False
    peril: bool = False
    auto_fail: bool = False
    auto: str = ""
    double_negative: bool = False
    commit_seats: list[int] = []


# ----------------------------------------------------------------------------- steps


Step = tcgcore.Step


class Mulligan(Step, tag="arkham.mulligan"):
    seat: int


class MulliganAnswer(Step, tag="arkham.mulligan_answer"):
    seat: int


class BeginRound(Step, tag="arkham.begin_round"):
    pass


class ScenarioSetup(Step, tag="arkham.scenario_setup"):
    """Follow the scenario's own setup after the mulligans (A301.1)."""

    scenario: str


class MythosPhase(Step, tag="arkham.mythos_phase"):
    pass


class EncounterDraws(Step, tag="arkham.encounter_draws"):
    seats: list[int]


class DrawEncounter(Step, tag="arkham.draw_encounter"):
    seat: int
    depth: int = 0


class ResolveEncounter(Step, tag="arkham.resolve_encounter"):
    seat: int
    card: int
    depth: int = 0


class DiscoverClues(Step, tag="arkham.discover_clues"):
    """Discover ``amount`` clues at the investigator's location, after the "when you would
    discover clues" window of event ``event`` (Cover Up, A974.1): if Cover Up's reaction
    was used (``event`` in ``cancelled``), the clues come off ``cover`` instead."""

    seat: int
    amount: int
    cover: int
    event: int


class GainedSurge(Step, tag="arkham.gained_surge"):
    """A612.2: after encounter card ``card`` has resolved and left the resolving area, the
    drawer draws again if the card gained surge while it resolved."""

    seat: int
    card: int
    depth: int = 0


class EndPeril(Step, tag="arkham.end_peril"):
    card: int


class FinishTreachery(Step, tag="arkham.finish_treachery"):
    card: int
    seat: int


class InvestigationPhase(Step, tag="arkham.investigation_phase"):
    pass


class NextTurn(Step, tag="arkham.next_turn"):
    pass


class TurnPick(Step, tag="arkham.turn_pick"):
    pass


class TurnAction(Step, tag="arkham.turn_action"):
    seat: int


class ActionChosen(Step, tag="arkham.action_chosen"):
    seat: int


class EndTurn(Step, tag="arkham.end_turn"):
    seat: int


class AttacksOfOpportunity(Step, tag="arkham.aoo"):
    seat: int
    pending: list[int] = []
    started: bool = False


class AooPick(Step, tag="arkham.aoo_pick"):
    seat: int
    pending: list[int]


class DoMove(Step, tag="arkham.do_move"):
    seat: int
    location: int
    checked: bool = False  # "when you would move" forced abilities resolved (A992.3)


class DoDraw(Step, tag="arkham.do_draw"):
    seat: int
    count: int = 1


class DoEngage(Step, tag="arkham.do_engage"):
    seat: int
    enemy: int


class DoPlay(Step, tag="arkham.do_play"):
    seat: int
    card: int


class DoActivate(Step, tag="arkham.do_activate"):
    seat: int
    card: int
    index: int


class DoResign(Step, tag="arkham.do_resign"):
    seat: int


class StartTest(Step, tag="arkham.start_test"):
    test: SkillTest


class CommitStep(Step, tag="arkham.commit"):
    pass


class CommitAnswer(Step, tag="arkham.commit_answer"):
    seat: int


class TestWindow(Step, tag="arkham.test_window"):
    seats: list[int]


class TestWindowAnswer(Step, tag="arkham.test_window_answer"):
    seats: list[int]


class RevealToken(Step, tag="arkham.reveal_token"):
    pass


class DetermineResult(Step, tag="arkham.determine_result"):
    pass


class ApplyResults(Step, tag="arkham.apply_results"):
    pass


class EndTest(Step, tag="arkham.end_test"):
    pass


class Effects(Step, tag="arkham.effects"):
    """Resolve effects one at a time for ``seat`` (source card ``source``)."""

    seat: int
    effects: tuple[Effect, ...]
    source: int = -1
    margin: int = 0


class Harm(Step, tag="arkham.harm"):
    """Deal damage/horror to an investigator: assignment, then placement (RR: Damage)."""

    seat: int
    damage: int = 0
    horror: int = 0
    direct_damage: int = 0
    direct_horror: int = 0
    source: int = -1
    assigned: dict[str, int] = {}
    asked: bool = False


class HarmAnswer(Step, tag="arkham.harm_answer"):
    harm: Harm
    kind: str


class CheckDefeat(Step, tag="arkham.check_defeat"):
    seat: int


class TraumaAnswer(Step, tag="arkham.trauma_answer"):
    seat: int


class Eliminate(Step, tag="arkham.eliminate"):
    seat: int
    reason: str


class LeadAnswer(Step, tag="arkham.lead_answer"):
    pass


class EnemyAttack(Step, tag="arkham.enemy_attack"):
    enemy: int
    seat: int
    exhaust: bool = False


class AfterAttack(Step, tag="arkham.after_attack"):
    enemy: int
    seat: int
    exhaust: bool = False


class EngageCheck(Step, tag="arkham.engage_check"):
    enemy: int


class EngageAnswer(Step, tag="arkham.engage_answer"):
    enemy: int


class DamageEnemy(Step, tag="arkham.damage_enemy"):
    enemy: int
    amount: int
    seat: int = -1


class ElusiveMove(Step, tag="arkham.elusive"):
    enemy: int


class ElusiveAnswer(Step, tag="arkham.elusive_answer"):
    enemy: int


class EnemyPhase(Step, tag="arkham.enemy_phase"):
    pass


class HunterMoves(Step, tag="arkham.hunter_moves"):
    pending: list[int] = []
    started: bool = False


class HunterPick(Step, tag="arkham.hunter_pick"):
    pending: list[int]


class MoveOne(Step, tag="arkham.move_one"):
    enemy: int


class MoveOneAnswer(Step, tag="arkham.move_one_answer"):
    enemy: int
    what: str


class EnemyAttacks(Step, tag="arkham.enemy_attacks"):
    seats: list[int]
    pending: list[int] = []
    started: bool = False


class AttackPick(Step, tag="arkham.attack_pick"):
    seats: list[int]
    pending: list[int]


class MassiveAttacks(Step, tag="arkham.massive_attacks"):
    """A611.2: a massive enemy attacks each investigator at its location, in the order the
    lead chooses; ``seats`` are the investigators still to attack (``started`` once listed)."""

    enemy: int
    seats: list[int] = []
    started: bool = False


class MassivePick(Step, tag="arkham.massive_pick"):
    enemy: int
    seats: list[int]


class EndEnemyPhase(Step, tag="arkham.end_enemy_phase"):
    pass


class UpkeepPhase(Step, tag="arkham.upkeep_phase"):
    pass


class HandSize(Step, tag="arkham.hand_size"):
    seats: list[int]


class HandSizeAnswer(Step, tag="arkham.hand_size_answer"):
    seats: list[int]


class EndRound(Step, tag="arkham.end_round"):
    pass


class RoundEndObjective(Step, tag="arkham.round_end_objective"):
    pass


class ObjectiveAnswer(Step, tag="arkham.objective_answer"):
    pass


class AdvanceAgenda(Step, tag="arkham.advance_agenda"):
    pass


class AdvanceAct(Step, tag="arkham.advance_act"):
    pass


class SlotAnswer(Step, tag="arkham.slot_answer"):
    seat: int
    card: int


class ChooseEnemyAnswer(Step, tag="arkham.choose_enemy_answer"):
    """Resume of an enemy choice: ``mode`` ``"damage"`` deals ``amount``; ``"event"``
    and ``"ability"`` start the fight/evade test of card ``source`` (ability ``index``)."""

    seat: int
    amount: int = 0
    mode: str = "damage"
    source: int = -1
    index: int = -1


class SpawnAt(Step, tag="arkham.spawn_at"):
    enemy: int
    seat: int


class SpawnAnswer(Step, tag="arkham.spawn_answer"):
    enemy: int


class SpendCluesAnswer(Step, tag="arkham.spend_clues_answer"):
    """Resume of the group's choice of which clues pay for the act (A801.3)."""


class WouldFailAnswer(Step, tag="arkham.would_fail_answer"):
    pass


class AttackHits(Step, tag="arkham.attack_hits"):
    enemy: int
    seat: int
    event: int
    exhaust: bool = False


class AfterTest(Step, tag="arkham.after_test"):
    seat: int
    effects: tuple[Effect, ...]


class ChooseAnswer(Step, tag="arkham.choose_answer"):
    """Resume of a ``choose`` effect: ``a`` or ``b`` resolves for ``seat``."""

    seat: int
    a: tuple[Effect, ...]
    b: tuple[Effect, ...]
    source: int = -1


class AssetDiscardAnswer(Step, tag="arkham.asset_discard_answer"):
    seat: int


class CardChoiceAnswer(Step, tag="arkham.card_choice_answer"):
    """Resume of a player card's choice (A975.9, A978.9): ``op`` names what was asked
    (``"investigator"``, ``"location"``, ``"scry_deck"``, ``"scry_order"``, ``"wendy"``,
    ``"statue"`` ...); ``cards`` and ``effects`` carry what the answer resolves."""

    seat: int
    op: str
    source: int = -1
    amount: int = 0
    cards: list[int] = []
    effects: tuple[Effect, ...] = ()


class MidnightAnswer(Step, tag="arkham.midnight_answer"):
    """Resume of a lead's tie-break in The Midnight Masks (``midnight_masks``): ``op``
    ``"doom"`` puts ``amount`` doom on the chosen enemy, ``"attach"`` attaches card
    ``source`` to the chosen location (A984.3, A985.3)."""

    op: str
    seat: int
    source: int = -1
    amount: int = 0


ArkhamStep = Union[  # noqa: UP007
    tcgcore.CoreStep, Mulligan, MulliganAnswer, BeginRound, ScenarioSetup, MythosPhase, EncounterDraws,
    DrawEncounter, ResolveEncounter, EndPeril, FinishTreachery, InvestigationPhase, NextTurn,
    TurnPick, TurnAction, ActionChosen, EndTurn, AttacksOfOpportunity, AooPick, DoMove, DoDraw,
    DoEngage, DoPlay, DoActivate, DoResign, StartTest, CommitStep, CommitAnswer, TestWindow,
    TestWindowAnswer, RevealToken, DetermineResult, ApplyResults, EndTest, Effects, Harm,
    HarmAnswer, CheckDefeat, TraumaAnswer, Eliminate, LeadAnswer, EnemyAttack, AfterAttack,
    EngageCheck, EngageAnswer, DamageEnemy, ElusiveMove, ElusiveAnswer, EnemyPhase, HunterMoves,
    HunterPick, MoveOne, MoveOneAnswer, EnemyAttacks, AttackPick, EndEnemyPhase, UpkeepPhase,
    HandSize, HandSizeAnswer, EndRound, RoundEndObjective, ObjectiveAnswer, AdvanceAgenda,
    AdvanceAct, SlotAnswer, ChooseEnemyAnswer, SpawnAt, SpawnAnswer, WouldFailAnswer,
    AttackHits, AfterTest, ChooseAnswer, AssetDiscardAnswer, SpendCluesAnswer,
    CardChoiceAnswer,
    MidnightAnswer, MassiveAttacks, MassivePick, GainedSurge, DiscoverClues,
]


class ArkhamState(tcgcore.GameState[ArkhamStep], kw_only=True):
    """The whole state of one Arkham Horror scenario.

    Attributes:
        scenario: scenario code; ``difficulty`` its difficulty.
        inv: one :class:`Inv` per seat.
        lead: the lead investigator's seat (RR: Lead Investigator).
        phase: ``"setup"``, ``"mythos"``, ``"investigation"``, ``"enemy"``, ``"upkeep"``.
        turn_seat: investigator whose turn it is (-1 outside turns).
        bag: chaos bag contents (public); ``next_tokens``: forced next reveals (tests).
        tokens: the scenario reference card side in use (symbol -> effect).
        test: the skill test in progress.
        adj: location id -> connected location ids (in play).
        extra_defs: card definitions supplied by a scenario description.
        resolutions: resolution code -> ``"win"`` / ``"loss"``.
        peril: seat resolving a peril card (-1 = none).
        act_advanced: acts advanced so far.
        group_limits: uses of "group limit" abilities (A107.2).
        cancelled: seqs of attack events cancelled by "when" effects (A901.1); ``-1 - id``
            for an encounter card whose revelation was cancelled (Ward of Protection).
        auras: cards in play giving a bonus to investigators at their location.
        extra_trauma: ``"<seat>:<kind>"`` trauma from "when the game ends" effects
            (A705.2).
        deferred_tests: tests waiting for the current one to end (A501.2).
        campaign_log: the live (not crossed-out) campaign-log entries the scenario was
            started with (match option ``log``, A952.3); setups read them.
        log_out: campaign-log entries this scenario writes in addition to its scenario
            file's per-resolution entries (e.g. ``"cultists who got away: 01137"``).
        cross_out: campaign-log entries this scenario crosses out (A952.2).
        chaos_add_out: tokens added to the chaos bag for the rest of the campaign (A957.1).
        deck_add: ``"<seat>:<code>"`` cards added to a deck for the rest of the campaign
            (for example a Madness weakness, A956.7).
    """

    scenario: str = ""
    mode: str = "standalone"
    difficulty: str = "standard"
    inv: list[Inv] = []
    lead: int = 0
    phase: str = "setup"
    turn_seat: int = -1
    bag: list[str] = []
    next_tokens: list[str] = []
    tokens: dict[str, TokenEffect] = {}
    test: SkillTest | None = None
    adj: dict[str, list[int]] = {}
    extra_defs: dict[str, CardDef] = {}
    resolutions: dict[str, str] = {}
    peril: int = -1
    act_advanced: int = 0
    group_limits: dict[str, int] = {}
    cancelled: list[int] = []
    auras: list[int] = []
    extra_trauma: list[str] = []
    deferred_tests: list[SkillTest] = []
    campaign_log: list[str] = []
    log_out: list[str] = []
    cross_out: list[str] = []
    chaos_add_out: list[str] = []
    deck_add: list[str] = []
