"""The balance lab's reports: Markdown, HTML and (with the ``lab`` extra) plots.

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
from typing import TYPE_CHECKING, Any

import msgspec

if TYPE_CHECKING:
    from ._balance import ABReport, BalanceReport, Rate

#: how to get the plots, in words
LAB_HINT = 'pip install "tcgcore[lab]"'

# a block: ("h1" | "h2" | "p", text) | ("table", headers, rows) | ("img", name, caption)
Block = tuple[Any, ...]


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
