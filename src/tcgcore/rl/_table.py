"""The seat-facing side of a match for learning agents: encodings and single-pick decisions.

Everything here reads the acting seat's view and choice, and answers it, through three small
functions (:func:`seat_view`, :func:`seat_choice`, :func:`answer`), so that the adapters
(PettingZoo in ``_pettingzoo.py``, OpenSpiel in ``openspiel.py``) never touch ``match.state``.

A choice of ``min..max`` keys is played as a sequence of single picks (:class:`Table`): each
step picks one more option, or takes the extra ``stop`` action once ``min`` are picked; the
answer goes to the match when ``max`` are picked, when nothing pickable is left, or on ``stop``.
"""

from __future__ import annotations

import zlib
from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any, TypeAlias

import numpy as np
import numpy.typing as npt

import tcgcore
from tcgcore import Agent, Choice, GameSpec, IllegalChoice, Match, Option, View

__all__ = ["Encoder", "Table", "answer", "build_encoder", "seat_choice", "seat_view"]

#: options the generic action space reaches in one choice (more are out of its reach)
DEFAULT_MAX_ACTIONS = 64
#: buckets card codes, choice kinds and option templates are hashed into (generic encoding)
_CODE_BUCKETS = 32
_KIND_BUCKETS = 16
_TEMPLATE_BUCKETS = 8
_PANEL_BUCKETS = 32
#: bounds of the generic features (raw counts and panel numbers, clipped)
_GENERIC_LIMIT = 1000.0

Obs: TypeAlias = npt.NDArray[np.float32]
Mask: TypeAlias = npt.NDArray[np.int8]


# ---------------------------------------------------------------- the seat-facing reads


def seat_view(match: Match[Any], seat: int) -> View:
    """What ``seat`` may know now (the only way the adapters read a match)."""
    return match.view(seat)


def seat_choice(match: Match[Any], seat: int, view: View) -> Choice | None:
    """The choice ``seat`` must answer now, as that seat sees it (``None``: not its turn)."""
    return view.pending


def answer(match: Match[Any], seat: int, keys: list[str]) -> None:
    """Answer ``seat``'s pending choice with ``keys`` (the keys its view shows) and run to
    the next decision."""
    match.answer(seat, keys)


# ---------------------------------------------------------------- encodings


#: (text, buckets) -> bucket: a memo of pure results (card codes, kinds, panel paths are few)
_BUCKETS: dict[tuple[str, int], int] = {}


def _bucket(text: str, buckets: int) -> int:
    got = _BUCKETS.get((text, buckets))
    if got is None:
        got = zlib.crc32(text.encode()) % buckets
        if len(_BUCKETS) < 1 << 16:
            _BUCKETS[text, buckets] = got
    return got


def _template(key: str) -> str:
    """An option key without its numbers (which may be card instance ids)."""
    return "".join("#" if ch.isdigit() else ch for ch in key)


class Encoder:
    """Turns a seat's view (and the picks made so far) into a fixed-length float32 vector,
    and the options of its choice into action ids.

    Built by :func:`build_encoder` from the game's ``observation_layout`` and
    ``action_layout`` hooks, or the generic ones: the generic observation counts, for each
    zone kind and owner (the seat itself, the next seats in turn order, shared), the cards,
    face-down cards, exhausted cards and counters, with a histogram of the visible card
    codes hashed into buckets; adds numbers of the game's panel hashed by name, the seat, the
    choice's kind, ``min``, ``max`` and count, and for each of the first ``max_actions``
    options whether it is there and picked, its key without digits (hashed) and the code of
    the card it names (hashed). The generic action id of an option is its position.
    Instance ids never enter an encoding. Every observation ends with the decision block:
    per action id how many of its options are picked so far in a multi-pick choice, the
    number picked and whether ``stop`` is legal.
    """

    def __init__(self, spec: GameSpec[Any], players: int, kinds: Sequence[str],
                 max_actions: int) -> None:
        self.spec = spec
        self.players = players
        self.kinds = {k: i for i, k in enumerate(kinds)}  # zone kinds seen at setup; +1 other
        obs_hook = spec.observation_layout(players) if spec.observation_layout else None
        act_hook = spec.action_layout(players) if spec.action_layout else None
        self.obs_layout = obs_hook
        self.act_layout = act_hook
        self.num_ids = len(act_hook.names) if act_hook is not None else max_actions
        self.max_actions = max_actions
        self.stop_id = self.num_ids
        self.num_actions = self.num_ids + 1
        names: list[str]
        if obs_hook is not None:
            names = list(obs_hook.names)
            self.low, self.high = obs_hook.low, obs_hook.high
        else:
            names = self._generic_names()
            self.low, self.high = -_GENERIC_LIMIT, _GENERIC_LIMIT
        self.base_size = len(names)
        names += [f"picked[{a}]" for a in self.action_names()[:-1]] + ["picked_count", "can_stop"]
        self.names = tuple(names)
        self.size = len(names)

    def action_names(self) -> list[str]:
        """One name per action id, ``stop`` last."""
        if self.act_layout is not None:
            return [*self.act_layout.names, "stop"]
        return [*(f"option[{i}]" for i in range(self.max_actions)), "stop"]

    # -- generic layout
    def _groups(self) -> list[str]:
        return ["self", *(f"next{k}" for k in range(1, self.players)), "shared"]

    def _generic_names(self) -> list[str]:
        names: list[str] = []
        for g in self._groups():
            for kind in [*self.kinds, "other"]:
                prefix = f"{g}.{kind}"
                names += [f"{prefix}.count", f"{prefix}.face_down", f"{prefix}.exhausted",
                          f"{prefix}.counters"]
                names += [f"{prefix}.code[{b}]" for b in range(_CODE_BUCKETS)]
        names += [f"seat[{s}]" for s in range(self.players)]
        names += ["my_turn", "turn", "result", "choice.options", "choice.min", "choice.max"]
        names += [f"choice.kind[{b}]" for b in range(_KIND_BUCKETS)]
        names += [f"panel[{b}]" for b in range(_PANEL_BUCKETS)]
        for i in range(self.max_actions):
            names += [f"opt{i}.present", f"opt{i}.picked"]
            names += [f"opt{i}.key[{b}]" for b in range(_TEMPLATE_BUCKETS)]
            names += [f"opt{i}.code[{b}]" for b in range(_CODE_BUCKETS)]
        return names

    def _generic(self, view: View, seat: int, choice: Choice | None, picked: Sequence[int],
                 out: defaultdict[int, float]) -> None:
        n_kinds = len(self.kinds) + 1
        block = 4 + _CODE_BUCKETS
        codes: dict[int, str] = {}
        for zone in view.zones:
            group = (self.players if zone.owner is None or not 0 <= zone.owner < self.players
                     else (zone.owner - seat) % self.players)
            base = (group * n_kinds + self.kinds.get(zone.kind, n_kinds - 1)) * block
            out[base] += zone.count
            for card in zone.cards:
                if card is None:
                    continue
                out[base + 1] += card.face_down
                out[base + 2] += card.exhausted
                if card.counters:
                    out[base + 3] += sum(card.counters.values())
                if card.code is not None:
                    out[base + 4 + _bucket(card.code, _CODE_BUCKETS)] += 1
                    if card.id is not None:
                        codes[card.id] = card.code
        i = (self.players + 1) * n_kinds * block
        out[i + seat] = 1
        i += self.players
        out[i] = view.active_player == seat
        out[i + 1] = view.turn
        if view.result is not None:
            out[i + 2] = (1 if seat in view.result.winners
                          else -1 if seat in view.result.losers else 0)
        if choice is not None:
            out[i + 3] = len(choice.options)
            out[i + 4] = choice.min
            out[i + 5] = choice.max
            out[i + 6 + _bucket(choice.kind, _KIND_BUCKETS)] = 1
        i += 6 + _KIND_BUCKETS
        acc = [0.0] * _PANEL_BUCKETS
        _panel_numbers(view.panel, "", acc)
        for b, value in enumerate(acc):
            if value:
                out[i + b] = value
        i += _PANEL_BUCKETS
        if choice is None:
            return
        width = 2 + _TEMPLATE_BUCKETS + _CODE_BUCKETS
        chosen = set(picked)
        for k, opt in enumerate(choice.options[: self.max_actions]):
            at = i + k * width
            out[at] = 1
            out[at + 1] = k in chosen
            out[at + 2 + _bucket(_template(opt.key), _TEMPLATE_BUCKETS)] = 1
            code = codes.get(opt.card) if opt.card is not None else None
            if code is not None:
                out[at + 2 + _TEMPLATE_BUCKETS + _bucket(code, _CODE_BUCKETS)] = 1

    # -- both layouts
    def ids(self, view: View, choice: Choice) -> list[int | None]:
        """The action id of each option of ``choice`` (``None``: out of reach)."""
        layout = self.act_layout
        if layout is None:
            return [k if k < self.max_actions else None for k in range(len(choice.options))]
        out: list[int | None] = []
        for opt in choice.options:
            a = layout.action_id(view, opt)
            if a is not None and not 0 <= a < self.num_ids:
                raise tcgcore.EngineError(
                    f"{self.spec.name}: action_layout gave id {a} for option {opt.key!r} of "
                    f"{choice.kind!r}; ids are 0..{self.num_ids - 1}")
            out.append(a)
        return out

    def encode(self, view: View, seat: int, choice: Choice | None, picked: Sequence[int],
               ids: Sequence[int | None], can_stop: bool) -> Obs:
        """The observation vector (``self.size`` float32 values within ``low..high``)."""
        out = np.zeros(self.size, dtype=np.float32)
        layout = self.obs_layout
        if layout is not None:
            values = layout.encode(view)
            if len(values) != self.base_size:
                raise tcgcore.EngineError(
                    f"{self.spec.name}: observation_layout gave {len(values)} features, its "
                    f"names promise {self.base_size}")
            out[: self.base_size] = values
        else:
            # mostly zeros, and numpy is slow one element at a time: the non-zero entries
            # go into a dict, then into the array at once
            sparse: defaultdict[int, float] = defaultdict(float)
            self._generic(view, seat, choice, picked, sparse)
            if sparse:
                out[np.fromiter(sparse.keys(), np.intp, len(sparse))] = list(sparse.values())
        d = self.base_size
        for k in picked:
            a = ids[k]
            if a is not None:
                out[d + a] += 1
        out[d + self.num_ids] = len(picked)
        out[d + self.num_ids + 1] = can_stop
        np.clip(out, self.low, self.high, out=out)
        return out


def _panel_numbers(value: Any, path: str, acc: list[float]) -> None:
    """Add the numbers of a panel (nested dicts and lists, as views hold them) into
    ``acc``'s buckets, named by their path."""
    kind = type(value)
    if kind is int or kind is float or kind is bool:
        acc[_bucket(path, _PANEL_BUCKETS)] += value
    elif kind is dict:
        for k, v in value.items():
            _panel_numbers(v, f"{path}.{k}", acc)
    elif kind is list or kind is tuple:
        for k, v in enumerate(value):
            _panel_numbers(v, f"{path}[{k}]", acc)


def build_encoder(match: Match[Any], max_actions: int = DEFAULT_MAX_ACTIONS) -> Encoder:
    """The encoder for matches like ``match`` (its game and seat count; the generic layout
    takes its zone kinds from the zones ``match`` has).

    Raises:
        OptionsError: ``max_actions`` is not a positive int.
    """
    if type(max_actions) is not int or max_actions < 1:
        raise tcgcore.OptionsError(f"max_actions must be a positive int, got {max_actions!r}")
    kinds = sorted({z.kind for z in seat_view(match, 0).zones})
    return Encoder(match.spec, match.state.num_players, kinds, max_actions)


# ---------------------------------------------------------------- single-pick decisions


class Table:
    """A match seen by learning agents: who acts, their observation and mask, and
    single-pick actions (see the module docstring), with bound seats played by agents.

    Args:
        match: the match (driven from here on).
        encoder: from :func:`build_encoder`.
        bound: seats answered by agents, automatically, whenever they must decide.
    """

    def __init__(self, match: Match[Any], encoder: Encoder,
                 bound: Mapping[int, Agent] | None = None) -> None:
        self.match = match
        self.encoder = encoder
        self.bound = dict(bound or {})
        self.picked: list[int] = []
        #: per seat, what it sees now (view, choice, action ids); emptied when the match moves
        self._seen: dict[int, tuple[View, Choice | None, list[int | None]]] = {}
        self.play_bound()

    def clone(self) -> Table:
        """An independent copy (the match cloned; agents shared)."""
        twin = Table.__new__(Table)
        twin.match = self.match.clone()
        twin.encoder = self.encoder
        twin.bound = self.bound
        twin.picked = list(self.picked)
        twin._seen = {}
        return twin

    def play_bound(self) -> None:
        """Let the bound seats' agents answer until a free seat must decide or the match ends."""
        match = self.match
        while match.result is None and match.pending is not None \
                and match.pending.player in self.bound:
            choice = match.pending
            match.choose(choice.player, self.bound[choice.player].decide(match, choice))

    @property
    def actor(self) -> int | None:
        """The seat that must act now (``None`` once the match is over)."""
        match = self.match
        if match.result is not None or match.pending is None:
            return None
        return match.pending.player

    def sees(self, seat: int) -> tuple[View, Choice | None, list[int | None]]:
        """``seat``'s view now, its pending choice (``None``: not its turn) and the action
        id of each option (computed once per position of the match)."""
        seen = self._seen.get(seat)
        if seen is None:
            view = seat_view(self.match, seat)
            choice = seat_choice(self.match, seat, view)
            seen = (view, choice, self.encoder.ids(view, choice) if choice is not None else [])
            self._seen[seat] = seen
        return seen

    def _legal(self, choice: Choice, ids: list[int | None]) -> tuple[Mask, bool]:
        mask = np.zeros(self.encoder.num_actions, dtype=np.int8)
        picked = self.picked
        if len(picked) < choice.max:
            chosen = set(picked)
            for k, a in enumerate(ids):
                if a is not None and k not in chosen:
                    mask[a] = 1
        can_stop = len(picked) >= choice.min and (choice.max != 1 or choice.min != 1)
        if can_stop:
            mask[self.encoder.stop_id] = 1
        if not mask.any():
            raise tcgcore.EngineError(
                f"{self.encoder.spec.name}: choice {choice.kind!r} ({choice.min}..{choice.max} of "
                f"{len(choice.options)} options) cannot be answered within the action space "
                f"({self.encoder.num_ids} ids): raise max_actions or fix the action_layout")
        return mask, can_stop

    def observe(self, seat: int) -> tuple[Obs, Mask]:
        """``seat``'s observation and action mask (all zeros when it need not act)."""
        view, choice, ids = self.sees(seat)
        if choice is None:
            mask = np.zeros(self.encoder.num_actions, dtype=np.int8)
            return self.encoder.encode(view, seat, None, (), (), False), mask
        mask, can_stop = self._legal(choice, ids)
        return self.encoder.encode(view, seat, choice, self.picked, ids, can_stop), mask

    def legal_actions(self, seat: int) -> list[int]:
        """The legal action ids of ``seat``, ascending (empty when it need not act)."""
        _, choice, ids = self.sees(seat)
        if choice is None:
            return []
        return [int(a) for a in np.flatnonzero(self._legal(choice, ids)[0])]

    def act(self, seat: int, action: int) -> bool:
        """Pick action ``action`` for ``seat``; returns whether the match moved on (the
        choice was answered). Bound seats then play until a free seat must decide.

        Raises:
            IllegalChoice: ``seat`` need not act or ``action`` is masked out (nothing
                changes).
        """
        _, choice, ids = self.sees(seat)
        if choice is None:
            raise IllegalChoice(f"seat {seat} has nothing to decide", reason="wrong_player")
        mask, _ = self._legal(choice, ids)
        if type(action) is not int:
            action = int(action)
        if not 0 <= action < len(mask) or not mask[action]:
            raise IllegalChoice(f"{choice.kind}: action {action} is not legal now (legal: "
                                f"{np.flatnonzero(mask).tolist()})", reason="unknown_key")
        picked = self.picked
        if action != self.encoder.stop_id:
            chosen = set(picked)
            picked.append(next(k for k, a in enumerate(ids) if a == action and k not in chosen))
            chosen.add(picked[-1])
            left = any(a is not None and k not in chosen for k, a in enumerate(ids))
            if len(picked) < choice.max and left:
                return False
        keys = [choice.options[k].key for k in picked]
        self.picked = []
        self._seen = {}
        answer(self.match, seat, keys)
        self.play_bound()
        return True

    def choose(self, seat: int, keys: list[str]) -> None:
        """Answer ``seat``'s whole pending choice at once with engine keys (what a
        :class:`tcgcore.Agent` returns, see :meth:`tcgcore.Match.choose`), dropping any
        picks in progress; bound seats then play until a free seat must decide.

        Raises:
            IllegalChoice: the keys do not answer the choice (nothing changes).
        """
        self.match.choose(seat, keys)
        self.picked = []
        self._seen = {}
        self.play_bound()

    def option_for(self, seat: int, action: int) -> Option | None:
        """The option ``action`` would pick for ``seat`` now (``None`` for ``stop``)."""
        _, choice, ids = self.sees(seat)
        if choice is None or action == self.encoder.stop_id:
            return None
        chosen = set(self.picked)
        for k, a in enumerate(ids):
            if a == action and k not in chosen:
                return choice.options[k]
        return None

    def returns(self) -> list[float]:
        """Per seat: +1 a winner, -1 a loser, 0 otherwise (a draw, or not over yet)."""
        result = self.match.result
        n = self.match.state.num_players
        if result is None:
            return [0.0] * n
        return [1.0 if s in result.winners else -1.0 if s in result.losers else 0.0
                for s in range(n)]
