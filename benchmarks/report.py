"""The targets and the tables of a results file, and the figures block of docs/performance.md."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

BEGIN, END = "<!-- figures:begin -->", "<!-- figures:end -->"

#: ``(target, where the figure is in the results, "<=" or ">=", limit)``
TARGETS: list[tuple[str, tuple[str, ...], str, float]] = [
    ("Guimi heuristic games ≥ 0.45× uno", ("throughput", "guimi_revival heuristic", "ratio"),
     ">=", 0.45),
    ("Arkham solo heuristic games ≥ 0.25× uno",
     ("throughput", "arkham_card solo heuristic", "ratio"), ">=", 0.25),
    ("Arkham 4p heuristic games ≥ 0.25× uno",
     ("throughput", "arkham_card 4p heuristic", "ratio"), ">=", 0.25),
    ("Arkham 4p mid-game view ≤ 40 µs", ("per_call_us", "arkham_card 4p", "view"), "<=", 40),
    ("Arkham 4p mid-game clone ≤ 10 µs", ("per_call_us", "arkham_card 4p", "clone"), "<=", 10),
    ("Arkham 4p mid-game from_bytes ≤ 80 µs", ("per_call_us", "arkham_card 4p", "from_bytes"),
     "<=", 80),
    ("Arkham 4p mid-game to_bytes ≤ 20 µs", ("per_call_us", "arkham_card 4p", "to_bytes"),
     "<=", 20),
    *[(f"flatness {c} ≤ 1.25", ("flatness", c, "value"), "<=", 1.25)
      for c in ("sparks", "guimi_revival", "arkham_card solo", "arkham_card 4p")],
    *[(f"two workers ≥ 1.8× one, {c}", ("simulate", c, "value"), ">=", 1.8)
      for c in ("sparks", "guimi_revival", "arkham_card solo", "arkham_card 4p")],
]


def _dig(results: dict[str, Any], path: tuple[str, ...]) -> float | None:
    node: Any = results
    for key in path:
        if not isinstance(node, dict) or key not in node:
            return None
        node = node[key]
    return float(node) if isinstance(node, int | float) and not isinstance(node, bool) else None


def met(value: float | None, op: str, limit: float) -> bool | None:
    """Whether ``value op limit`` holds (``None`` when the figure was not measured)."""
    if value is None:
        return None
    if op in ("<", ">"):
        return value < limit if op == "<" else value > limit
    return value <= limit if op == "<=" else value >= limit


def parse_target(text: str) -> tuple[str, float] | None:
    """``"≥ 1.8"``, ``">= 1.8"``, ``"<= 40"``, ``"≤ 40"`` or a strict ``"< 5"``/``"> 1"`` as
    ``(op, limit)``; else ``None``."""
    found = re.fullmatch(r"\s*(>=|<=|≥|≤|<|>)\s*([-+0-9.eE]+)\s*", text)
    if found is None:
        return None
    op = {"≥": ">=", "≤": "<="}.get(found[1], found[1])
    try:
        return op, float(found[2])
    except ValueError:
        return None


def targets(results: dict[str, Any]) -> list[dict[str, Any]]:
    """Every target with today's figure and whether it is met, the extra modules' included."""
    rows = []
    for name, path, op, limit in TARGETS:
        value = _dig(results, path)
        rows.append({"target": name, "today": value, "met": met(value, op, limit)})
    for module, out in sorted(results.get("extras", {}).items()):
        for row in out.get("rows", []):
            parsed = parse_target(str(row.get("target", "")))
            if parsed is None:
                continue
            value = row.get("value")
            value = float(value) if isinstance(value, int | float) else None
            rows.append({"target": f"{row['name']} {row['target']} {row.get('unit', '')}".strip(),
                         "today": value, "met": met(value, *parsed), "source": module})
    return rows


def _num(x: Any, digits: int = 0) -> str:
    if not isinstance(x, int | float) or isinstance(x, bool):
        return "–"
    if abs(x) >= 100 or digits == 0:
        return f"{x:,.0f}"
    return f"{x:.{digits}f}"


def _verdict(ok: bool | None) -> str:
    return {True: "met", False: "**not met**", None: "not measured"}[ok]


def markdown(results: dict[str, Any]) -> str:
    """The figures of a results file as Markdown (what goes between the markers)."""
    host, ver = results["host"], results["versions"]
    lines = [
        f"Run of {results['when']} ({'quick' if results['quick'] else 'full'}, "
        f"{results['duration_s']:.0f} s): Python {host['python']}, {host['cpus']} CPUs, "
        f"pinned to CPU {host['pinned_cpu']}; load average {host['load_start']:.2f} at the "
        f"start, {host['load_end']:.2f} at the end; other processes used "
        f"{_num(host['others_cores'], 2)} cores on average meanwhile. "
        f"Compiled modules: {', '.join(host['compiled_modules']) or 'none'}. Versions: "
        + ", ".join(f"{k} {v or 'not installed'}" for k, v in ver.items()) + ".",
        "",
        "### Targets",
        "",
        "| target | today | |",
        "| --- | ---: | --- |",
    ]
    for row in results["targets"]:
        lines.append(f"| {row['target']} | {_num(row['today'], 2)} | {_verdict(row['met'])} |")
    ref = results["throughput"].get("rlcard uno", {}).get("median")
    lines += ["", "### Decisions per CPU-second", "",
              f"Medians of {results['sizes']['rounds']} interleaved rounds; ratio: the median of "
              f"the per-round ratios to rlcard uno ({_num(ref)} steps per CPU-second).", "",
              "| workload | agent | decisions / CPU-s | min | max | × uno |",
              "| --- | --- | ---: | ---: | ---: | ---: |"]
    for name, row in results["throughput"].items():
        lines.append(f"| {name} | {row['agent']} | {_num(row['median'])} | "
                     f"{_num(min(row['samples']))} | {_num(max(row['samples']))} | "
                     f"{_num(row.get('ratio'), 2)} |")
    for name, why in results["not_available"].items():
        lines.append(f"| {name} | not available: {why} | | | | |")
    lines += ["", "### Per call, mid-game (CPU µs, medians)", "",
              "| state | clone | to_bytes | from_bytes | view |", "| --- | ---: | ---: | ---: | ---: |"]
    for name, row in results["per_call_us"].items():
        lines.append(f"| {name} | " + " | ".join(_num(row.get(k), 2) for k in
                                                   ("clone", "to_bytes", "from_bytes", "view")) + " |")
    lines += ["", "For the peers, to_bytes is `serialize()` and from_bytes `deserialize_state()`; "
              "they have no view.", "",
              "### Flatness and workers", "",
              "| configuration | first tenth µs | last tenth µs | flatness | games (kept) | "
              "1 worker games/s | 2 workers games/s | 2 ÷ 1 |",
              "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for name in results["flatness"]:
        f, s = results["flatness"][name], results["simulate"].get(name, {})
        lines.append(f"| {name} | {_num(f.get('first_us'), 1)} | {_num(f.get('last_us'), 1)} | "
                     f"{_num(f.get('value'), 2)} | {f.get('games', 0)} ({f.get('kept', 0)}) | "
                     f"{_num(s.get('games_per_s_1'), 1)} | {_num(s.get('games_per_s_2'), 1)} | "
                     f"{_num(s.get('value'), 2)} |")
    for module, out in sorted(results.get("extras", {}).items()):
        lines += ["", f"### {module}", ""]
        if "error" in out:
            lines.append(f"Failed: {out['error']}")
            continue
        if out.get("skipped") and not out.get("rows"):
            lines.append(f"Skipped: {out['skipped']}")
            continue
        if out.get("note"):
            lines += [str(out["note"]), ""]
        lines += ["| figure | value | unit | target |", "| --- | ---: | --- | --- |"]
        for row in out.get("rows", []):
            lines.append(f"| {row['name']} | {_num(row.get('value'), 2)} | {row.get('unit', '')} | "
                         f"{row.get('target', '')} |")
    if results.get("errors"):
        lines += ["", "### Failures", ""] + [f"- {e}" for e in results["errors"]]
    return "\n".join(lines) + "\n"


def render_into(path: Path, results: dict[str, Any]) -> None:
    """Replace the text between :data:`BEGIN` and :data:`END` in ``path`` with the figures.

    Raises:
        ValueError: the file lacks the markers.
    """
    text = path.read_text(encoding="utf-8")
    head, sep, rest = text.partition(BEGIN + "\n")
    _, sep2, tail = rest.partition(END)
    if not sep or not sep2:
        raise ValueError(f"{path} has no {BEGIN} ... {END} block")
    path.write_text(head + sep + markdown(results) + sep2 + tail, encoding="utf-8")
