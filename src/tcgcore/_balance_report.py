"""The balance lab's reports: their data (msgspec Structs) and how they are written as
Markdown, HTML and (with the ``lab`` extra) plots.

A report is built once as a list of blocks (headings, paragraphs, tables, pictures) and
rendered twice, so the Markdown and the HTML page always say the same. Plots are drawn with
matplotlib's Agg backend (no display, no network) into PNG files next to the reports;
without matplotlib the reports say how to get them.
"""

from __future__ import annotations

import html
import warnings
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import msgspec

#: how to get the plots, in words
LAB_HINT = 'pip install "tcgcore[lab]"'

# a block: ("h1" | "h2" | "p", text) | ("table", headers, rows) | ("img", name, caption)
Block = tuple[Any, ...]


class Rate(msgspec.Struct, kw_only=True, array_like=True):
    """``count`` of ``of`` with the observed ``rate`` and its Wilson 95 % interval
    ``low .. high`` (``of`` 0: rate 0, interval 0 .. 1)."""

    count: int
    of: int
    rate: float
    low: float
    high: float


class Matchup(msgspec.Struct, kw_only=True):
    """The row deck against the column deck, over both seatings.

    Attributes:
        deck, against: the two decks (``deck == against``: the mirror match, whose figure
            is seat 0's).
        wins: games ``deck`` won, of ``games``; ``rate`` with its Wilson interval.
    """

    deck: str
    against: str
    wins: int
    games: int
    rate: Rate


class GameQuality(msgspec.Struct, kw_only=True):
    """Game-quality figures in the manner of Ludii's metrics (docs/balance.md defines each).

    Attributes:
        balance: 1 minus the spread (largest minus smallest) of the seats' win rates
            (1: every seat wins equally often; a solo or co-operative game: 1).
        completion: share of games someone won.
        drawishness: share of drawn games.
        decisiveness: share of games with exactly one winner (a competitive game) or with
            a winner at all (a solo or co-operative one).
        duration: median length in turns (``state.turn`` at the end); ``mean_turns`` the mean.
        decisions_per_turn: decisions made per turn, over all games.
        branching_factor: options offered per decision, over all games.
    """

    balance: float
    completion: float
    drawishness: float
    decisiveness: float
    duration: float
    mean_turns: float
    decisions_per_turn: float
    branching_factor: float


class CardFigure(msgspec.Struct, kw_only=True):
    """One card's figures, counted over seat-games (a seat in a game whose deck held it),
    a win being that seat among the winners (in a co-operative scenario: the scenario won).

    Attributes:
        code, name: the card.
        games: seat-games with the card in the deck; ``won`` the rate they won.
        drawn: won when drawn (opening hand included; 17lands' "GIH WR").
        opening: won when in the opening hand ("OH WR").
        played: won when played or used ("GP WR").
        not_drawn: won when never drawn ("GNS WR").
        improvement: ``drawn - not_drawn`` with its Newcombe 95 % interval ("IWD"),
            ``[d, low, high]``.
        play_rate: share of its seat-games in which it was played.
        sample_ok: whether both ``drawn`` and ``not_drawn`` reach the report's minimum
            sample (tables show the figures only where their own sample does).
    """

    code: str
    name: str
    games: int
    won: Rate
    drawn: Rate
    opening: Rate
    played: Rate
    not_drawn: Rate
    improvement: list[float]
    play_rate: float
    sample_ok: bool


class GameRecord(msgspec.Struct, kw_only=True, array_like=True):
    """One game of a balance run, kept for pairing (:func:`balance_ab`).

    Attributes:
        run: which run (its label, e.g. ``"seer v hunter"``).
        index: the game's index in that run (match seed = base seed + index).
        decks: the seats' decks (empty when the game's default).
        winners, reason, turns, first_player: the outcome.
    """

    run: str
    index: int
    decks: list[str]
    winners: list[int]
    reason: str
    turns: int
    first_player: int


class BalanceReport(msgspec.Struct, kw_only=True):
    """What :func:`balance` measured.

    Attributes:
        game, seed, agents, options: what was run (``options`` without the decks).
        games: games played in all; ``games_per_run`` per run; ``decks``: the decks
            compared (the matrix's rows and columns; empty when there is no matrix).
        players: seats per game; ``cooperative``: no game had one winner and a loser (a
            solo or co-operative game: no seat or first-player advantage to measure).
        seat_wins: per seat, its games won.
        first_player: the first player's wins among decided games (``None``: no decided
            game).
        matchups: the matrix, row deck by column deck (empty without decks).
        reasons: how games ended, by result reason.
        lengths: games per length in turns.
        quality: the Ludii-style figures.
        cards: the card-level figures (empty when the game has no ``card_usage`` hook),
            most-drawn first.
        min_sample: the smallest sample a card figure is shown for.
        records: every game (for pairing).
    """

    game: str
    seed: int
    agents: list[str]
    options: dict[str, Any]
    games: int
    games_per_run: int
    decks: list[str]
    players: int
    cooperative: bool
    seat_wins: list[Rate]
    first_player: Rate | None
    matchups: list[Matchup]
    reasons: dict[str, int]
    lengths: dict[int, int]
    quality: GameQuality
    cards: list[CardFigure]
    min_sample: int
    records: list[GameRecord] = []

    def markdown(self, plots: Mapping[str, str] | None = None) -> str:
        """The report as Markdown (``plots``: picture name -> file name, linked when given)."""
        return balance_markdown(self, plots or {})

    def write(self, out: str | Path) -> list[Path]:
        """Write ``report.md``, ``report.html``, ``report.json`` and (with the ``lab``
        extra) the plots as PNG files into the folder ``out`` (made if missing); returns
        the files written.

        Raises:
            OSError: the folder cannot be made or written.
        """
        return write_balance(self, Path(out))


class Moved(msgspec.Struct, kw_only=True):
    """One figure of an A/B comparison.

    Attributes:
        what: the figure (``"win rate: seer"``, ``"ends by deck_out"``, ``"turns"``,
            ``"drawn win rate: Fool"`` …).
        a, b: its value under A and under B.
        delta: ``b - a``; ``low .. high`` its 95 % interval.
        p: the two-sided p-value (McNemar's exact test for paired yes/no figures, a normal
            test of the mean paired difference for lengths, the Newcombe interval's normal
            approximation for unpaired card figures).
        significant: ``p < 0.05``.
        pairs: the paired games (or, for a card, the smaller of its two samples).
        paired: whether the games were compared seed by seed.
    """

    what: str
    a: float
    b: float
    delta: float
    low: float
    high: float
    p: float
    significant: bool
    pairs: int
    paired: bool


class ABReport(msgspec.Struct, kw_only=True):
    """What :func:`balance_ab` measured: both reports and what moved from A to B, most
    significant first.

    Attributes:
        label_a, label_b: what A and B are (``"pool builtin"``, ``"defeat_condition=death"``).
        a, b: the two balance reports (same game, seeds, decks and agents).
        pairs: games played under both settings with the same seeds.
        moved: every compared figure; ``significant`` marks the ones that moved.
    """

    label_a: str
    label_b: str
    a: BalanceReport
    b: BalanceReport
    pairs: int
    moved: list[Moved]

    def markdown(self, plots: Mapping[str, str] | None = None) -> str:
        """The comparison as Markdown."""
        return ab_markdown(self, plots or {})

    def write(self, out: str | Path) -> list[Path]:
        """Write the comparison (``report.md``, ``report.html``, ``report.json``, plots) into
        ``out``; returns the files written."""
        return write_ab(self, Path(out))


def _pct(x: float) -> str:
    return f"{100 * x:.1f} %"


def _rate_cell(r: Rate, min_sample: int = 1) -> str:
    if r.of < min_sample:
        return f"– (n={r.of})"
    return f"{_pct(r.rate)} [{_pct(r.low)} – {_pct(r.high)}] (n={r.of})"


def _balance_blocks(rep: BalanceReport, plots: Mapping[str, str]) -> list[Block]:
    q = rep.quality
    opts = ", ".join(f"{k}={Path(str(v)).name if k == 'pool' else v}"
                     for k, v in sorted(rep.options.items())) or "none"
    blocks: list[Block] = [
        ("h1", f"{rep.game}: balance report"),
        ("p", f"{rep.games} games ({rep.games_per_run} per run, match seeds {rep.seed}.."
              f"{rep.seed + rep.games_per_run - 1} in every run); agents "
              f"{', '.join(rep.agents)}; options: {opts}. Intervals are Wilson 95 % "
              "intervals."),
        ("h2", "Seats and the first player"),
    ]
    if rep.cooperative:
        blocks.append(("p", "No game had exactly one winner and a losing seat (a solo or "
                            "co-operative game): the table gives each seat's share of games "
                            "won, with no seat advantage to measure."))
    blocks.append(("table", ["seat", "agent", "wins", "win rate"],
                   [[str(s), rep.agents[s] if s < len(rep.agents) else "", str(r.count),
                     _rate_cell(r)] for s, r in enumerate(rep.seat_wins)]))
    if rep.first_player is not None:
        fp = rep.first_player
        blocks.append(("p", f"The first player won {fp.count} of {fp.of} decided games: "
                            f"{_rate_cell(fp)}."))
    if rep.matchups:
        blocks += [("h2", "Deck matchups"),
                   ("p", "Rows: the deck whose win rate the cell gives; columns: its opponent. "
                         "Each pair played in both seatings; the diagonal is the mirror match "
                         "(seat 0's figure).")]
        by = {(m.deck, m.against): m for m in rep.matchups}
        rows = []
        for a in rep.decks:
            cells = [a]
            for b in rep.decks:
                r = by[a, b].rate
                cells.append(f"{_pct(r.rate)} [{_pct(r.low)} – {_pct(r.high)}]")
            won = sum(by[a, b].wins for b in rep.decks)
            of = sum(by[a, b].games for b in rep.decks)
            cells.append(_pct(won / of) if of else "–")
            rows.append(cells)
        blocks.append(("table", ["deck \\ against", *rep.decks, "all"], rows))
        blocks.append(("img", "matchups", "matchup heatmap"))
    blocks += [("h2", "How games end"),
               ("table", ["reason", "games", "share"],
                [[k, str(v), _pct(v / rep.games)] for k, v in rep.reasons.items()]),
               ("h2", "Game length"),
               ("p", f"Median {q.duration:g} turns, mean {q.mean_turns:.1f} (the game's turn "
                     "count at the end)."),
               ("table", ["turns", "games"], _length_rows(rep.lengths)),
               ("img", "lengths", "game-length histogram"),
               ("h2", "Game quality"),
               ("p", "In the manner of Ludii's metrics; each is defined in docs/balance.md."),
               ("table", ["metric", "value"], [
                   ["balance", f"{q.balance:.3f}"], ["completion", _pct(q.completion)],
                   ["drawishness", _pct(q.drawishness)], ["decisiveness", _pct(q.decisiveness)],
                   ["duration (median turns)", f"{q.duration:g}"],
                   ["decisions per turn", f"{q.decisions_per_turn:.2f}"],
                   ["branching factor (options per decision)", f"{q.branching_factor:.2f}"]])]
    blocks += _card_blocks(rep)
    return [b for b in blocks if b[0] != "img" or b[1] in plots or not plots]


def _length_rows(lengths: Mapping[int, int]) -> list[list[str]]:
    """Game lengths in at most a dozen bins."""
    if not lengths:
        return []
    lo, hi = min(lengths), max(lengths)
    width = max(1, -(-(hi - lo + 1) // 12))
    rows = []
    for start in range(lo, hi + 1, width):
        end = min(hi, start + width - 1)
        n = sum(v for k, v in lengths.items() if start <= k <= end)
        rows.append([f"{start}" if start == end else f"{start}–{end}", str(n)])
    return rows


def _card_blocks(rep: BalanceReport) -> list[Block]:
    if not rep.cards:
        return [("h2", "Cards"), ("p", f"{rep.game} reports no card usage (its GameSpec has no "
                                       "card_usage hook), so there are no card figures.")]
    ms = rep.min_sample
    win = "won the scenario" if rep.cooperative else "won"
    shown = [c for c in rep.cards if c.drawn.of >= ms]
    rows = []
    for c in shown:
        d, low, high = c.improvement
        iwd = (f"{100 * d:+.1f} [{100 * low:+.1f} – {100 * high:+.1f}]" if c.sample_ok
               else "–")
        rows.append([c.name, str(c.games), _rate_cell(c.drawn, ms), _rate_cell(c.opening, ms),
                     _rate_cell(c.played, ms), _rate_cell(c.not_drawn, ms), iwd,
                     _pct(c.play_rate)])
    few = [c.name for c in rep.cards if c.drawn.of < ms]
    blocks: list[Block] = [
        ("h2", "Cards"),
        ("p", f"Per card, over the seat-games whose deck held it: how often that seat {win} "
              "when the card was drawn (opening hand included), was in the opening hand, was "
              "played, was never drawn, and the improvement when drawn (drawn minus not "
              "drawn, in points, with Newcombe's 95 % interval). A figure is shown only when "
              f"its own sample has at least {ms} seat-games (n: the sample)."),
        ("table", ["card", "seat-games", "won when drawn", "in opening hand", "when played",
                   "when not drawn", "improvement when drawn", "play rate"], rows),
        ("img", "cards", "win rate when drawn against play rate"),
    ]
    if few:
        blocks.append(("p", f"Drawn in fewer than {ms} seat-games (no figures): "
                            + ", ".join(sorted(few)) + "."))
    return blocks


def _ab_blocks(rep: ABReport, plots: Mapping[str, str]) -> list[Block]:
    sig = [m for m in rep.moved if m.significant]
    rows = []
    for m in rep.moved:
        scale = 1.0 if m.what == "turns" else 100.0
        unit = "" if m.what == "turns" else " pts"
        fmt = (lambda x: f"{x:.1f}") if m.what == "turns" else _pct
        rows.append([m.what, fmt(m.a), fmt(m.b),
                     f"{scale * m.delta:+.1f}{unit} [{scale * m.low:+.1f} – {scale * m.high:+.1f}]",
                     f"{m.p:.3g}", "yes" if m.significant else "no",
                     f"{m.pairs}{'' if m.paired else ' (unpaired)'}"])
    blocks: list[Block] = [
        ("h1", f"{rep.a.game}: A/B comparison"),
        ("p", f"A: {rep.label_a}. B: {rep.label_b}. {rep.pairs} games played under both "
              f"settings with the same seeds, decks and agents ({', '.join(rep.a.agents)})."),
        ("h2", "What moved"),
        ("p", (f"{len(sig)} of {len(rep.moved)} figures moved (p < 0.05): "
               + ", ".join(m.what for m in sig) + ".") if sig else
              f"None of the {len(rep.moved)} figures moved (p < 0.05 for none)."),
        ("p", "Paired figures compare each game under A with the same game under B "
              "(McNemar's exact test; lengths: the mean paired difference); card figures "
              "compare two samples (Newcombe's interval). With many figures, about one in "
              "twenty passes p < 0.05 by chance."),
        ("table", ["figure", "A", "B", "B − A [95 %]", "p", "moved", "pairs"], rows),
        ("img", "ab", "A/B differences with their intervals"),
        ("h2", "A in brief"),
        ("p", _brief(rep.a)),
        ("h2", "B in brief"),
        ("p", _brief(rep.b)),
    ]
    return [b for b in blocks if b[0] != "img" or b[1] in plots or not plots]


def _brief(rep: BalanceReport) -> str:
    q = rep.quality
    ends = ", ".join(f"{k} {_pct(v / rep.games)}" for k, v in rep.reasons.items())
    return (f"{rep.games} games; seat wins "
            + ", ".join(_pct(r.rate) for r in rep.seat_wins)
            + f"; median {q.duration:g} turns; ends: {ends}.")


def _md(blocks: Sequence[Block], plots: Mapping[str, str]) -> str:
    out: list[str] = []
    for block in blocks:
        kind = block[0]
        if kind == "h1":
            out += [f"# {block[1]}", ""]
        elif kind == "h2":
            out += [f"## {block[1]}", ""]
        elif kind == "p":
            out += [block[1], ""]
        elif kind == "table":
            headers, rows = block[1], block[2]
            out.append("| " + " | ".join(headers) + " |")
            out.append("|" + "---|" * len(headers))
            out += ["| " + " | ".join(r) + " |" for r in rows]
            out.append("")
        elif kind == "img" and block[1] in plots:
            out += [f"![{block[2]}]({plots[block[1]]})", ""]
    return "\n".join(out)


_CSS = ("body{font-family:sans-serif;max-width:70em;margin:2em auto;padding:0 1em}"
        "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #bbb;"
        "padding:.2em .5em;text-align:left}th{background:#eee}img{max-width:100%}")


def _html(blocks: Sequence[Block], plots: Mapping[str, str], title: str) -> str:
    e = html.escape
    out = ["<!DOCTYPE html>", "<html lang=\"en\"><head><meta charset=\"utf-8\">",
           f"<title>{e(title)}</title><style>{_CSS}</style></head><body>"]
    hinted = False
    for block in blocks:
        kind = block[0]
        if kind in ("h1", "h2", "p"):
            out.append(f"<{kind}>{e(block[1])}</{kind}>")
        elif kind == "table":
            out.append("<table><tr>" + "".join(f"<th>{e(h)}</th>" for h in block[1]) + "</tr>")
            out += ["<tr>" + "".join(f"<td>{e(c)}</td>" for c in r) + "</tr>" for r in block[2]]
            out.append("</table>")
        elif kind == "img":
            if block[1] in plots:
                out.append(f"<p><img src=\"{e(plots[block[1]])}\" alt=\"{e(block[2])}\"></p>")
            elif not hinted:
                hinted = True
                out.append(f"<p><em>Plots need matplotlib: {e(LAB_HINT)}, then run the "
                           "report again.</em></p>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"


def balance_markdown(rep: BalanceReport, plots: Mapping[str, str]) -> str:
    """The Markdown text of a balance report."""
    return _md(_balance_blocks(rep, plots), plots)


def ab_markdown(rep: ABReport, plots: Mapping[str, str]) -> str:
    """The Markdown text of an A/B comparison."""
    return _md(_ab_blocks(rep, plots), plots)


def _pyplot() -> Any:
    """matplotlib's pyplot on the Agg backend, or ``None`` without the ``lab`` extra."""
    try:
        import matplotlib
    except ImportError:
        return None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def _balance_plots(rep: BalanceReport, out: Path, plt: Any) -> dict[str, str]:
    plots: dict[str, str] = {}
    if rep.matchups:
        by = {(m.deck, m.against): m.rate.rate for m in rep.matchups}
        grid = [[by[a, b] for b in rep.decks] for a in rep.decks]
        fig, ax = plt.subplots(figsize=(1.2 * len(rep.decks) + 2, 1.0 * len(rep.decks) + 1.5))
        im = ax.imshow(grid, cmap="RdBu", vmin=0, vmax=1)
        ax.set_xticks(range(len(rep.decks)), rep.decks, rotation=45, ha="right")
        ax.set_yticks(range(len(rep.decks)), rep.decks)
        for i, row in enumerate(grid):
            for j, v in enumerate(row):
                ax.text(j, i, f"{100 * v:.0f}", ha="center", va="center", fontsize=8)
        ax.set_xlabel("against")
        ax.set_ylabel("deck (its win rate, %)")
        fig.colorbar(im, ax=ax)
        plots["matchups"] = _save(fig, out, "matchups.png", plt)
    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.bar(list(rep.lengths), list(rep.lengths.values()), width=1.0, color="#4878a8")
    ax.set_xlabel("turns")
    ax.set_ylabel("games")
    ax.set_title("game length")
    plots["lengths"] = _save(fig, out, "lengths.png", plt)
    shown = [c for c in rep.cards if c.drawn.of >= rep.min_sample]
    if shown:
        fig, ax = plt.subplots(figsize=(7, 5))
        xs = [c.play_rate for c in shown]
        ys = [c.drawn.rate for c in shown]
        err = [[c.drawn.rate - c.drawn.low for c in shown], [c.drawn.high - c.drawn.rate for c in shown]]
        ax.errorbar(xs, ys, yerr=err, fmt="o", ms=4, alpha=0.6, elinewidth=0.6)
        for c, x, y in zip(shown, xs, ys, strict=True):  # the name before any translation
            ax.annotate(c.name.split(" (")[0], (x, y), fontsize=6, alpha=0.8)
        ax.set_xlabel("play rate (share of seat-games with the card in the deck)")
        ax.set_ylabel("win rate when drawn")
        plots["cards"] = _save(fig, out, "cards.png", plt)
    return plots


def _ab_plot(rep: ABReport, out: Path, plt: Any) -> dict[str, str]:
    rows = [m for m in rep.moved if m.what != "turns"][:30]
    if not rows:
        return {}
    fig, ax = plt.subplots(figsize=(7, 0.3 * len(rows) + 1.5))
    ys = list(range(len(rows)))
    ax.errorbar([100 * m.delta for m in rows], ys,
                xerr=[[100 * (m.delta - m.low) for m in rows], [100 * (m.high - m.delta) for m in rows]],
                fmt="o", ms=4)
    for y, m in zip(ys, rows, strict=True):
        if m.significant:
            ax.plot(100 * m.delta, y, "o", color="#c03030", ms=6)
    ax.axvline(0, color="#888", lw=0.8)
    ax.set_yticks(ys, [m.what for m in rows], fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel("B − A, points (95 % interval; red: moved)")
    return {"ab": _save(fig, out, "ab.png", plt)}


def _save(fig: Any, out: Path, name: str, plt: Any) -> str:
    with warnings.catch_warnings():  # a label in a script the default font lacks
        warnings.filterwarnings("ignore", message="Glyph .* missing from font", category=UserWarning)
        fig.tight_layout()
        fig.savefig(out / name, dpi=110)
    plt.close(fig)
    return name


def _write(out: Path, rep: Any, title: str,
           draw: Callable[[Any, Path, Any], dict[str, str]],
           blocks_of: Callable[[Any, Mapping[str, str]], list[Block]]) -> list[Path]:
    """Write ``rep``'s plots (``draw``, with matplotlib), Markdown, HTML and JSON into
    ``out`` (made if missing); returns the files written."""
    out.mkdir(parents=True, exist_ok=True)
    plt = _pyplot()
    plots = draw(rep, out, plt) if plt is not None else {}
    blocks = blocks_of(rep, plots)
    files = [out / "report.md", out / "report.html", out / "report.json"]
    files[0].write_text(_md(blocks, plots), encoding="utf-8")
    files[1].write_text(_html(blocks, plots, title), encoding="utf-8")
    files[2].write_bytes(msgspec.json.encode(rep))
    return files + [out / name for name in plots.values()]


def write_balance(rep: BalanceReport, out: Path) -> list[Path]:
    """Write a balance report into the folder ``out`` (see BalanceReport.write)."""
    return _write(out, rep, f"{rep.game} balance", _balance_plots, _balance_blocks)


def write_ab(rep: ABReport, out: Path) -> list[Path]:
    """Write an A/B comparison into the folder ``out`` (see ABReport.write)."""
    return _write(out, rep, f"{rep.a.game} A/B", _ab_plot, _ab_blocks)
