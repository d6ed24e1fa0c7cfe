"""The balance lab: many seeded games of one game summarised for its designer.

:func:`balance` plays its games through :func:`tcgcore.simulate` (its worker processes or
its Ray backend: there is no second game loop) and folds the outcomes into a
:class:`BalanceReport`: seat and first-player advantage, the deck matchup matrix, how games
end, game lengths, game-quality figures in the manner of Ludii, and card-level figures in
the manner of 17lands, read through the game's ``card_usage`` hook. :func:`balance_ab`
plays two settings (two card pools, two rules settings) over the same seeds and says what
moved and whether it is significant. ``_balance_report.py`` writes the reports.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import msgspec

from ._balance_report import (
    ABReport,
    BalanceReport,
    CardFigure,
    GameQuality,
    GameRecord,
    Matchup,
    Moved,
    Rate,
)
from ._errors import OptionsError
from ._model import Event, GameState, SeatCards
from ._plugins import default_registry
from ._simulate import GameOutcome, simulate, wilson_interval

__all__ = ["ABReport", "BalanceReport", "CardFigure", "GameQuality", "Matchup", "Moved", "Rate",
           "balance", "balance_ab", "mcnemar_p", "newcombe_interval", "read_card_usage"]

#: z of a two-sided 95 % interval
_Z95 = 1.959964


def _rate(count: int, of: int) -> Rate:
    rate, low, high = wilson_interval(count, of)
    return Rate(count=count, of=of, rate=rate, low=low, high=high)


def newcombe_interval(x1: int, n1: int, x2: int, n2: int) -> list[float]:
    """``[d, low, high]``: the difference ``d = x1/n1 - x2/n2`` of two independent rates
    and its 95 % interval by Newcombe's hybrid score method (from the two Wilson
    intervals; Newcombe 1998, method 10). An empty sample gives ``[0, -1, 1]``."""
    if n1 == 0 or n2 == 0:
        return [0.0, -1.0, 1.0]
    p1, l1, u1 = wilson_interval(x1, n1)
    p2, l2, u2 = wilson_interval(x2, n2)
    d = p1 - p2
    low = d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    high = d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return [d, max(-1.0, low), min(1.0, high)]


def mcnemar_p(only_a: int, only_b: int) -> float:
    """The exact two-sided McNemar p-value of paired yes/no outcomes: ``only_a`` pairs were
    yes under A only, ``only_b`` under B only (the pairs that agree carry no information).
    Binomial test of ``min(only_a, only_b)`` in ``only_a + only_b`` trials at 1/2; 1.0
    when no pair disagrees."""
    n = only_a + only_b
    if n == 0:
        return 1.0
    k = min(only_a, only_b)
    tail = sum(math.comb(n, i) for i in range(k + 1)) / (1 << n)
    return min(1.0, 2 * tail)


def _normal_p(z: float) -> float:
    """Two-sided p-value of a standard normal statistic ``z``."""
    return math.erfc(abs(z) / math.sqrt(2))


def _everything(code: str) -> bool:
    return True


def _nothing(code: str) -> bool:
    return False


def read_card_usage(state: GameState[Any], events: Sequence[Event], *, first_turn: str,
                    played: Callable[[Event], bool], counts: Callable[[str], bool] = _everything,
                    at_start: Callable[[str], bool] = _nothing) -> list[SeatCards]:
    """A ``GameSpec.card_usage`` hook's usual reading, configured by the game: per seat,
    the codes of the cards it owns (that ``counts``), of those it drew (events of kind
    ``"drawn"``), of its hand (zone ``hand.<seat>``) when the first event of kind
    ``first_turn`` happens (the opening hand after mulligans; the hand at the end if there
    is none), and of the events ``played`` accepts. Cards ``at_start`` (a leader, an extra
    deck: at hand from the start) count as drawn and in the opening hand.

    Args:
        state: the final state (card owners and codes).
        events: the whole event log, in order (``events_since(0, player="all")``).
        first_turn: the event kind that starts play after setup (``"turn_started"``).
        played: whether an event shows its card played or used.
        counts: whether a code is a card of a seat's deck (e.g. player cards only).
        at_start: whether a code is at its owner's disposal from the start.
    """
    n = state.num_players
    cards = state.cards
    deck: list[set[str]] = [set() for _ in range(n)]
    for card in cards:
        if 0 <= card.owner < n and counts(card.code):
            deck[card.owner].add(card.code)
    early = [{c for c in d if at_start(c)} for d in deck]
    drawn = [set(e) for e in early]
    used: list[set[str]] = [set() for _ in range(n)]
    hands: list[dict[int, str]] = [{} for _ in range(n)]
    opening: list[set[str]] | None = None
    for e in events:
        if opening is None and e.kind == first_turn:
            opening = [set(h.values()) for h in hands]
        if e.card is None or e.code is None or not 0 <= e.card < len(cards):
            continue
        owner = cards[e.card].owner
        if not 0 <= owner < n:
            continue
        hand = f"hand.{owner}"
        if e.kind == "drawn":
            drawn[owner].add(e.code)
        if e.dst == hand:
            hands[owner][e.card] = e.code
        elif e.src == hand:
            hands[owner].pop(e.card, None)
        if played(e):
            used[owner].add(e.code)
    if opening is None:  # a game that ended before play began (a built position)
        opening = [set(h.values()) for h in hands]
    return [SeatCards(deck=sorted(deck[p]), drawn=sorted(drawn[p] & deck[p]),
                      opening=sorted((opening[p] | early[p]) & deck[p]),
                      played=sorted(used[p] & deck[p]))
            for p in range(n)]


class _Run(msgspec.Struct, kw_only=True):
    label: str
    decks: list[str]
    options: dict[str, Any]


def _deck(entry: str) -> tuple[str, str]:
    """A deck as ``(label, value)``: a deck file is named by its file name without suffix and
    passed as its text (as the command line passes deck files), anything else as given.

    Raises:
        OptionsError: the file cannot be read as UTF-8 text.
    """
    path = Path(entry)
    if "\n" not in entry and path.is_file():
        try:
            return path.stem, path.read_text(encoding="utf-8-sig")
        except (OSError, UnicodeDecodeError) as exc:
            raise OptionsError(f"deck {entry}: cannot read it as a text deck list ({exc})") \
                from None
    return (entry if "\n" not in entry else f"deck {len(entry)}"), entry


def _plan(game: str, decks: Sequence[str], options: dict[str, Any]) -> tuple[list[_Run], bool]:
    """The runs of a balance measurement and whether they form a matchup matrix: every
    ordered pair of ``decks`` for a game of exactly two seats (each pair once per seating,
    so seat advantage cancels in the matrix), else one run with ``decks`` as the seats'
    decks (a co-operative game's investigators, or none: the game's defaults). Runs and
    records name decks by their labels (:func:`_deck`)."""
    spec = default_registry().game(game)
    named = [_deck(d) for d in decks]
    labels = [label for label, _ in named]
    if len(set(labels)) != len(labels):
        raise OptionsError(f"{game}: the decks {', '.join(labels)} name one deck twice")
    if len(named) >= 2 and spec.players == (2, 2):
        return [_Run(label=f"{a} v {b}", decks=[a, b], options={**options, "decks": [va, vb]})
                for a, va in named for b, vb in named], True
    opts = dict(options)
    if named:
        opts["decks"] = [value for _, value in named]
    return [_Run(label=" + ".join(labels) or "default", decks=labels, options=opts)], False


class _Progress:
    """One bar over every run of a measurement: tqdm when installed, else the
    simulate command's progress line."""

    def __init__(self, total: int, label: str) -> None:
        self.total = total
        self.base = 0
        self._bar: Any = None
        self._line: Callable[[int, int], None] | None = None
        try:
            from tqdm import tqdm
        except ImportError:
            from ._progress import ProgressLine
            self._line = ProgressLine()
        else:
            self._bar = tqdm(total=total, desc=label, unit="game", leave=True)

    def __call__(self, done: int, total: int) -> None:
        if self._bar is not None:
            self._bar.update(self.base + done - self._bar.n)
        elif self._line is not None:
            self._line(self.base + done, self.total)

    def next_run(self, games: int) -> None:
        self.base += games

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()


def balance(
    game: str,
    *,
    games: int = 100,
    decks: Sequence[str] = (),
    agents: Sequence[str] | None = None,
    options: Mapping[str, Any] | None = None,
    pool: str | Path | None = None,
    seed: int = 0,
    workers: int | None = None,
    backend: str = "local",
    address: str | None = None,
    min_sample: int = 20,
    progress: bool | Callable[[int, int], None] = False,
    out: str | Path | None = None,
) -> BalanceReport:
    """Play a balance measurement of ``game`` and return (and, with ``out``, write) its report.

    With two or more ``decks`` and a game of exactly two seats, every ordered pair of decks
    plays ``games`` games (so each pair meets in both seatings, mirrors included); else one
    run of ``games`` games gives ``decks`` to the seats in order (one seat per deck where the
    game's seat count can vary; none: the game's own decks). Game
    ``i`` of every run has match seed ``seed + i``, so the same arguments give the same
    report, and :func:`balance_ab` can pair two settings game by game.

    Args:
        game: registered game name.
        games: games per run (``>= 1``).
        decks: deck names or deck files (read and passed as their text, named by the
            file's name without its suffix), as the game's ``decks`` option takes them.
        agents: agent names, one for every seat or one per seat (default: the game's
            default agent).
        options: other game options (rules variants …).
        pool: a card pool file for the game's ``pool`` option (Guimi Revival: cards that
            add to or replace the built-in ones); a game without that option refuses it.
        seed: base seed.
        workers, backend, address: as :func:`tcgcore.simulate` (worker processes, or
            ``"ray"``).
        min_sample: the smallest sample (seat-games) a card figure is shown for.
        progress: ``True`` shows a progress bar over all runs (tqdm with the ``lab``
            extra, else a line on stderr); a function gets ``(done, total)`` per run.
        out: a folder to write the report into (:meth:`BalanceReport.write`).

    Raises:
        OptionsError: bad counts, unknown game options, agents or decks (as
            :func:`tcgcore.simulate` raises them), or a ``min_sample`` below 1.
        UnknownGameError: ``game`` is not installed.
    """
    if type(min_sample) is not int or min_sample < 1:
        raise OptionsError(f"min_sample must be a positive int, got {min_sample!r}")
    if type(games) is not int or games < 1:
        raise OptionsError(f"games must be a positive int, got {games!r}")
    spec = default_registry().game(game)
    names = list(agents) if agents else [spec.default_agent]
    opts = dict(options or {})
    if pool is not None:
        opts["pool"] = str(Path(pool).resolve())
    runs, matrix = _plan(game, list(decks), opts)
    lo, hi = spec.players
    seats = len(decks) if not matrix and decks and lo < hi and lo <= len(decks) <= hi else None
    bar = _Progress(games * len(runs), f"{game} balance") if progress is True else None
    callback = progress if callable(progress) else bar
    records: list[GameRecord] = []
    outcomes: list[tuple[_Run, GameOutcome]] = []
    players = 0
    seat_names: list[str] = names
    try:
        for run in runs:
            rep = simulate(game, games=games, seed=seed, players=seats, options=run.options,
                           agents=names,
                           workers=workers, backend=backend, address=address,
                           progress=callback, keep_outcomes=True, card_usage=True)
            players = rep.players
            seat_names = rep.agents
            for o in rep.outcomes:
                outcomes.append((run, o))
                records.append(GameRecord(run=run.label, index=o.index, decks=run.decks,
                                          winners=o.winners, reason=o.reason, turns=o.turns,
                                          first_player=o.first_player))
            if bar is not None:
                bar.next_run(games)
    finally:
        if bar is not None:
            bar.close()
    shown = {k: v for k, v in opts.items() if k != "decks"}
    if not matrix and runs[0].decks:
        shown["decks"] = ", ".join(runs[0].decks)
    labels = list(dict.fromkeys(d for run in runs for d in run.decks)) if matrix else []
    report = _fold(game, seed, seat_names, shown, games, labels, players, outcomes, min_sample,
                   spec.card_name)
    report.records = records
    if out is not None:
        report.write(out)
    return report


def _fold(game: str, seed: int, agents: list[str], options: dict[str, Any], per_run: int,
          decks: list[str], players: int, outcomes: list[tuple[_Run, GameOutcome]],
          min_sample: int, card_name: Callable[[str], str] | None) -> BalanceReport:
    """The report of the played games."""
    total = len(outcomes)
    wins = [0] * players
    decisive = first_wins = draws = won_any = single = 0
    reasons: Counter[str] = Counter()
    lengths: Counter[int] = Counter()
    turns: list[int] = []
    decisions = offered = 0
    pair_wins: Counter[tuple[str, str]] = Counter()
    pair_games: Counter[tuple[str, str]] = Counter()
    for run, o in outcomes:
        for w in o.winners:
            wins[w] += 1
        draws += o.draw
        won_any += bool(o.winners)
        if len(o.winners) == 1 and players > 1 and o.losers:
            decisive += 1
            first_wins += o.winners[0] == o.first_player
        single += len(o.winners) == 1
        reasons[o.reason] += 1
        lengths[o.turns] += 1
        turns.append(o.turns)
        decisions += o.decisions
        offered += o.offered
        if decks and len(run.decks) == 2:
            a, b = run.decks
            pair_games[a, b] += 1
            pair_wins[a, b] += 0 in o.winners
            if a != b:  # the mirror's figure is seat 0's alone
                pair_games[b, a] += 1
                pair_wins[b, a] += 1 in o.winners
    cooperative = decisive == 0
    rates = [w / total for w in wins] if total else [0.0]
    quality = GameQuality(
        balance=1.0 if cooperative else 1.0 - (max(rates) - min(rates)),
        completion=won_any / total,
        drawishness=draws / total,
        decisiveness=(won_any if cooperative else single) / total,
        duration=float(statistics.median(turns)),
        mean_turns=statistics.fmean(turns),
        decisions_per_turn=decisions / max(1, sum(turns)),
        branching_factor=offered / max(1, decisions))
    matchups = [Matchup(deck=a, against=b, wins=pair_wins[a, b], games=pair_games[a, b],
                        rate=_rate(pair_wins[a, b], pair_games[a, b]))
                for a in decks for b in decks]
    return BalanceReport(
        game=game, seed=seed, agents=agents, options=options, games=total,
        games_per_run=per_run, decks=decks, players=players, cooperative=cooperative,
        seat_wins=[_rate(w, total) for w in wins],
        first_player=_rate(first_wins, decisive) if decisive else None,
        matchups=matchups, reasons=dict(reasons.most_common()),
        lengths=dict(sorted(lengths.items())), quality=quality,
        cards=_card_figures([o for _, o in outcomes], min_sample, card_name),
        min_sample=min_sample)


def _card_figures(outcomes: list[GameOutcome], min_sample: int,
                  card_name: Callable[[str], str] | None) -> list[CardFigure]:
    """17lands-style figures per card code, over the seat-games whose deck held it."""
    # per code: [games, won, drawn, drawn_won, opening, opening_won, played, played_won]
    counts: dict[str, list[int]] = {}
    for o in outcomes:
        winners = set(o.winners)
        for seat, used in enumerate(o.cards):
            won = seat in winners
            drawn, opening, played = set(used.drawn), set(used.opening), set(used.played)
            for code in set(used.deck):
                c = counts.setdefault(code, [0] * 8)
                c[0] += 1
                c[1] += won
                if code in drawn:
                    c[2] += 1
                    c[3] += won
                if code in opening:
                    c[4] += 1
                    c[5] += won
                if code in played:
                    c[6] += 1
                    c[7] += won
    figures = []
    for code, (n, w, d, dw, oh, ow, pl, pw) in counts.items():
        nd, ndw = n - d, w - dw
        figures.append(CardFigure(
            code=code, name=card_name(code) if card_name else code, games=n, won=_rate(w, n),
            drawn=_rate(dw, d), opening=_rate(ow, oh), played=_rate(pw, pl),
            not_drawn=_rate(ndw, nd), improvement=newcombe_interval(dw, d, ndw, nd),
            play_rate=pl / n, sample_ok=d >= min_sample and nd >= min_sample))
    figures.sort(key=lambda f: (-f.drawn.of, f.code))
    return figures


def _label(options: Mapping[str, Any], base: Mapping[str, Any]) -> str:
    """What a setting changes, in words: ``pool FILE``, ``defeat_condition=death``."""
    parts = []
    for key in sorted(set(options) | set(base)):
        if options.get(key) != base.get(key) and key != "decks":
            value = options.get(key, "(default)")
            parts.append(f"pool {Path(str(value)).name}" if key == "pool" and value != "(default)"
                         else f"{key}={value}")
    return ", ".join(parts) or "as given"


def balance_ab(
    game: str,
    *,
    a: Mapping[str, Any] | None = None,
    b: Mapping[str, Any],
    games: int = 100,
    decks: Sequence[str] = (),
    agents: Sequence[str] | None = None,
    options: Mapping[str, Any] | None = None,
    seed: int = 0,
    workers: int | None = None,
    backend: str = "local",
    address: str | None = None,
    min_sample: int = 20,
    progress: bool = False,
    out: str | Path | None = None,
) -> ABReport:
    """Compare two settings of ``game`` over the same seeds, decks and agents.

    ``a`` and ``b`` are game options laid over ``options`` (``{"pool": "my_cards.toml"}``,
    ``{"defeat_condition": "death"}``); ``a`` defaults to none (the game as given). Both
    settings play the runs of :func:`balance` with the same seeds, so game ``i`` of a run
    under A is paired with game ``i`` under B: win rates per deck (per seat when there are
    no decks), the first player's wins and each way a game ends are compared by McNemar's
    exact test on the pairs that disagree, lengths by the mean paired difference; card
    figures (their samples differ between settings) by Newcombe's interval of the
    difference of two rates. A figure moved when ``p < 0.05``; with many figures, about
    one in twenty crosses that line by chance.

    Args: as :func:`balance`; ``out`` writes the comparison (:meth:`ABReport.write`).
        A ``pool`` in ``a`` or ``b`` is a card pool file (made absolute here).

    Raises:
        OptionsError: as :func:`balance`, or ``a`` and ``b`` are the same setting.
    """
    base = dict(options or {})
    set_a = {**base, **dict(a or {})}
    set_b = {**base, **dict(b)}
    for s in (set_a, set_b):
        if "pool" in s:
            s["pool"] = str(Path(str(s["pool"])).resolve())
    if set_a == set_b:
        raise OptionsError("balance_ab: settings A and B are the same; give b= the options "
                           "that differ (a pool file, a rules option)")
    common = dict(games=games, decks=decks, agents=agents, seed=seed, workers=workers,
                  backend=backend, address=address, min_sample=min_sample, progress=progress)
    rep_a = balance(game, options=set_a, **common)  # type: ignore[arg-type]
    rep_b = balance(game, options=set_b, **common)  # type: ignore[arg-type]
    moved, pairs = _compare(rep_a, rep_b, min_sample)
    report = ABReport(label_a=_label(set_a, base) if a else "as given",
                      label_b=_label(set_b, base), a=rep_a, b=rep_b, pairs=pairs, moved=moved)
    if out is not None:
        report.write(out)
    return report


def _paired_yes_no(what: str, pairs: list[tuple[bool, bool]]) -> Moved:
    n = len(pairs)
    ya = sum(x for x, _ in pairs)
    yb = sum(y for _, y in pairs)
    only_a = sum(x and not y for x, y in pairs)
    only_b = sum(y and not x for x, y in pairs)
    d = (only_b - only_a) / n
    # the interval of a paired difference of rates: normal, variance from the discordant pairs
    se = math.sqrt(max(0.0, (only_a + only_b) - (only_b - only_a) ** 2 / n)) / n
    p = mcnemar_p(only_a, only_b)
    return Moved(what=what, a=ya / n, b=yb / n, delta=d, low=max(-1.0, d - _Z95 * se),
                 high=min(1.0, d + _Z95 * se), p=p, significant=p < 0.05, pairs=n, paired=True)


def _compare(ra: BalanceReport, rb: BalanceReport, min_sample: int) -> tuple[list[Moved], int]:
    """Every compared figure of two reports of the same runs."""
    by_b = {(r.run, r.index): r for r in rb.records}
    pairs = [(r, by_b[r.run, r.index]) for r in ra.records if (r.run, r.index) in by_b]
    moved: list[Moved] = []
    if not pairs:
        return moved, 0
    n_seats = ra.players
    if ra.decks:  # per deck, over every seat it sat in
        for deck in ra.decks:
            yes = [(seat in x.winners, seat in y.winners) for x, y in pairs
                   for seat, d in enumerate(x.decks) if d == deck]
            if yes:
                moved.append(_paired_yes_no(f"win rate: {deck}", yes))
    else:
        for seat in range(n_seats):
            moved.append(_paired_yes_no(f"win rate: seat {seat}",
                                        [(seat in x.winners, seat in y.winners) for x, y in pairs]))
    if not (ra.cooperative and rb.cooperative):
        decided = [(x, y) for x, y in pairs if len(x.winners) == 1 and len(y.winners) == 1]
        if decided:
            moved.append(_paired_yes_no("first player wins (games decided under both)",
                                        [(x.winners[0] == x.first_player,
                                          y.winners[0] == y.first_player) for x, y in decided]))
    for reason in sorted(set(ra.reasons) | set(rb.reasons)):
        moved.append(_paired_yes_no(f"ends by {reason}",
                                    [(x.reason == reason, y.reason == reason) for x, y in pairs]))
    diffs = [y.turns - x.turns for x, y in pairs]
    mean = statistics.fmean(diffs)
    sd = statistics.stdev(diffs) if len(diffs) > 1 else 0.0
    se = sd / math.sqrt(len(diffs))
    p = _normal_p(mean / se) if se > 0 else (1.0 if mean == 0 else 0.0)
    moved.append(Moved(what="turns", a=ra.quality.mean_turns, b=rb.quality.mean_turns,
                       delta=mean, low=mean - _Z95 * se, high=mean + _Z95 * se, p=p,
                       significant=p < 0.05, pairs=len(diffs), paired=True))
    cards_b = {c.code: c for c in rb.cards}
    for ca in ra.cards:
        cb = cards_b.get(ca.code)
        if cb is None or min(ca.drawn.of, cb.drawn.of) < min_sample:
            continue
        d, low, high = newcombe_interval(cb.drawn.count, cb.drawn.of, ca.drawn.count, ca.drawn.of)
        half = (high - low) / 2
        p = _normal_p(d / (half / _Z95)) if half > 0 else 1.0
        moved.append(Moved(what=f"drawn win rate: {ca.name}", a=ca.drawn.rate, b=cb.drawn.rate,
                           delta=d, low=low, high=high, p=p, significant=low > 0 or high < 0,
                           pairs=min(ca.drawn.of, cb.drawn.of), paired=False))
    moved.sort(key=lambda m: (not m.significant, m.p, m.what))
    return moved, len(pairs)
