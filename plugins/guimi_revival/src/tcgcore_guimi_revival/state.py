"""The Guimi Revival state and its step types (tagged, data only)."""

from __future__ import annotations

from typing import Union

import msgspec

import tcgcore
from tcgcore import Step

from .options import RulesOptions


def z(kind: str, p: int) -> str:
    """Zone id of a per-player zone: ``z("hand", 1) == "hand.1"``."""
    return f"{kind}.{p}"


class S(Step, kw_only=True):
    """Base for steps about one player."""

    player: int = 0


class Mulligan(S, tag="guimi.mulligan"):
    pass


class MulliganAnswer(S, tag="guimi.mulligan_answer"):
    pass


class StartGame(Step, tag="guimi.start_game"):
    pass


class StartRound(Step, tag="guimi.start_round"):
    pass


class StartTurn(S, tag="guimi.start_turn"):
    pass


class DrawPhase(S, tag="guimi.draw_phase"):
    pass


class RevivalPhase(S, tag="guimi.revival_phase"):
    pass


class PromotionPhase(S, tag="guimi.promotion_phase"):
    n: int = 1


class PromotionAnswer(S, tag="guimi.promotion_answer"):
    n: int = 1


class RewardAnswer(S, tag="guimi.reward_answer"):
    pass


class RewardPick(S, tag="guimi.reward_pick"):
    draw_after: bool = True


class RewardPickAnswer(S, tag="guimi.reward_pick_answer"):
    draw_after: bool = True


class MainPhase(S, tag="guimi.main_phase"):
    pass


class MainAnswer(S, tag="guimi.main_answer"):
    pass


class EndPhase(S, tag="guimi.end_phase"):
    pass


class EndTurn(S, tag="guimi.end_turn"):
    pass


class QuickWindow(S, tag="guimi.quick_window"):
    pass


class QuickAnswer(S, tag="guimi.quick_answer"):
    pass


class FinishEvent(S, tag="guimi.finish_event"):
    card: int = -1


class FinishExtra(S, tag="guimi.finish_extra"):
    card: int = -1


class DoEffect(S, tag="guimi.do_effect"):
    source: int = -1
    op: str = ""
    amount: int = 1


class EffectAnswer(S, tag="guimi.effect_answer"):
    source: int = -1
    op: str = ""
    amount: int = 1


class SourceTrigger(S, tag="guimi.source_trigger"):
    """A Source trigger (102). ``checked``: the attack check's revealed card, still on top of
    the deck until the trigger has resolved (016.4, 101.3), which draws skip (102.9); -1 for
    a trigger that no attack check revealed."""

    source: str = ""
    checked: int = -1


class BattleStart(Step, tag="guimi.battle_start"):
    pass


class BattleOrder(Step, tag="guimi.battle_order"):
    pass


class BattleNext(Step, tag="guimi.battle_next"):
    index: int = 0


class AttackAnswer(Step, tag="guimi.attack_answer"):
    index: int = 0


class SupportAnswer(Step, tag="guimi.support_answer"):
    pass


class InterceptAsk(Step, tag="guimi.intercept_ask"):
    pass


class InterceptAnswer(Step, tag="guimi.intercept_answer"):
    pass


class AttackCheck(Step, tag="guimi.attack_check"):
    pass


class HitCheck(Step, tag="guimi.hit_check"):
    pass


class DamageStep(Step, tag="guimi.damage_step"):
    pass


class BattleEnd(Step, tag="guimi.battle_end"):
    pass


class BattleCleanup(Step, tag="guimi.battle_cleanup"):
    pass


class PromotionAsk(S, tag="guimi.promotion_ask"):
    n: int = 1


class CheckToHand(S, tag="guimi.check_to_hand"):
    card: int = -1


class TimedEffects(S, tag="guimi.timed_effects"):
    """Resolve the timed abilities of ``sources`` one card at a time, in the order the player
    chooses (069.1)."""

    timing: str = ""
    sources: list[int] = []


class TimedAnswer(S, tag="guimi.timed_answer"):
    timing: str = ""
    sources: list[int] = []


GuimiStep = Union[  # noqa: UP007
    tcgcore.CoreStep, Mulligan, MulliganAnswer, StartGame, StartRound, StartTurn, DrawPhase,
    RevivalPhase, PromotionPhase, PromotionAnswer, RewardAnswer, RewardPick, RewardPickAnswer,
    MainPhase, MainAnswer, EndPhase, EndTurn, QuickWindow, QuickAnswer, FinishEvent, FinishExtra,
    DoEffect, EffectAnswer, SourceTrigger, BattleStart, BattleOrder, BattleNext,
    AttackAnswer, SupportAnswer, InterceptAsk, InterceptAnswer, AttackCheck, HitCheck, DamageStep,
    BattleEnd, BattleCleanup, PromotionAsk, CheckToHand, TimedEffects, TimedAnswer,
]


class Attack(msgspec.Struct, kw_only=True, omit_defaults=True):
    """The attack in progress (097.1): attacker, its seat, target, supporters, interceptors."""

    attacker: int
    player: int
    target: int
    support: list[int] = []
    intercept: list[int] = []


class Hit(msgspec.Struct, kw_only=True, omit_defaults=True, array_like=True):
    """A recorded hit (097.3): target, the attacker and the extra damage checks (102.2)."""

    target: int
    attacker: int
    bonus: int = 0


def _pair_int() -> list[int]:
    return [0, 0]


class GuimiState(tcgcore.GameState[GuimiStep], kw_only=True):
    """Guimi Revival's state (per-player lists are indexed by seat).

    Attributes:
        options: the rules options (section 14).
        pool: the card pool name (``"builtin"`` or a file path).
        first: the first player's seat (015.2).
        round: round number, from 1 (061.1).
        phase: the current phase name (for views).
        in_battle: whether the battle phase is in progress.
        rb: instance id of each player's Revival Beyonder.
        sequence: each RB's current sequence (023.2, 086.1).
        corruption, step_corruption, dead_corruption: the three counters (111.1).
        mad: 0 = not mad, 1 = mad and the controller's next turn has not begun, 2 = mad and
            that turn has begun (112.6).
        dead: the RB is dead (113).
        ascend_round: round in which the ascension began, or -1 (089).
        rewarded: the promotion reward was given this turn (087.2).
        events_played: events played from hand (activated or set) this turn (074.1).
        events_activated: events each player activated in their own current turn, from hand or
            set (074.9); reset when their turn starts.
        quick_used: token of the last window group each player used a quick event in (074.7).
        used_ignition: card ids whose 【起】 was used this turn (075.2).
        arrangements: the arrangements of the turn player's unit zone (card id or
            ``EMPTY_SLOT`` per slot F1, F2, B1, B2) seen in this main phase; a move or swap
            that would recreate one is not offered (077.5).
        attack_order, attack, hits: the battle in progress (093, 097).
        bp_minus: strength lost by each player's characters this battle phase (102.7).
        losses: seats that met a loss condition, not yet applied (134).
        loss_reason: reason code of the first loss.
        hold_losses: losses wait for the end of the damage step (134.2).
    """

    options: RulesOptions = RulesOptions()
    pool: str = "builtin"
    first: int = 0
    round: int = 0
    phase: str = "setup"
    in_battle: bool = False
    rb: list[int] = msgspec.field(default_factory=_pair_int)
    sequence: list[int] = msgspec.field(default_factory=lambda: [9, 9])
    corruption: list[int] = msgspec.field(default_factory=_pair_int)
    step_corruption: list[int] = msgspec.field(default_factory=_pair_int)
    dead_corruption: list[int] = msgspec.field(default_factory=_pair_int)
    mad: list[int] = msgspec.field(default_factory=_pair_int)
    dead: list[bool] = msgspec.field(default_factory=lambda: [False, False])
    ascend_round: list[int] = msgspec.field(default_factory=lambda: [-1, -1])
    rewarded: list[bool] = msgspec.field(default_factory=lambda: [False, False])
    events_played: list[int] = msgspec.field(default_factory=_pair_int)
    events_activated: list[int] = msgspec.field(default_factory=_pair_int)
    quick_used: list[str] = msgspec.field(default_factory=lambda: ["", ""])
    used_ignition: list[int] = []
    arrangements: list[tuple[int, int, int, int]] = []
    attack_order: list[int] = []
    attack: Attack | None = None
    hits: list[Hit] = []
    bp_minus: list[int] = msgspec.field(default_factory=_pair_int)
    losses: list[int] = []
    loss_reason: str = ""
    hold_losses: bool = False

    @property
    def first_player(self) -> int:
        """The first player's seat (015.2); the name ``tcgcore simulate`` reads."""
        return self.first
