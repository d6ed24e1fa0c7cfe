"""``docs/protocol.md`` "Event kinds": every kind each shipped game emits is documented, with
the fields it fills, and nothing is documented that no game emits.

Kinds are collected two ways: from seeded matches of each game played with random legal
answers (the kinds and fields that really occur), and from the games' code (every kind named
by an ``emit``, ``move`` or ``flip`` call, so a rare kind no seeded match reaches is still
caught)."""

from __future__ import annotations

import ast
import random
import re
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

import tcgcore

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "protocol.md"

#: where each shipped game's code is
SOURCES = {
    "sparks": [ROOT / "src" / "tcgcore" / "examples" / "sparks.py"],
    "guimi_revival": [ROOT / "plugins" / "guimi_revival" / "src"],
    "arkham_card": [ROOT / "plugins" / "arkham_card" / "src"],
}
ENGINE = ROOT / "src" / "tcgcore" / "_engine.py"
_GUIMI_DECKS = ["assassin", "hunter", "marauder", "sailor", "seer", "sleepless"]

#: seeded matches per game: (seed, seats, options)
MATCHES: dict[str, list[tuple[int, int | None, dict[str, Any]]]] = {
    "sparks": [(seed, None, {}) for seed in range(8)],
    "guimi_revival": [(seed, None, {"decks": [_GUIMI_DECKS[seed % 6], _GUIMI_DECKS[(seed * 5 + 1) % 6]]})
                      for seed in range(12)],
    "arkham_card": [(seed, 1 + seed % 2, {"scenario": scenario})
                    for scenario in ("01104", "01120", "01142") for seed in range(4)],
}
_FIELDS = ("player", "card", "code", "src", "dst", "amount")


def documented() -> dict[str, dict[str, set[str]]]:
    """The tables of "Event kinds": section name (``Every game`` or a game) -> kind -> the
    fields its row lists."""
    text = DOC.read_text().split("\n## Event kinds\n", 1)[1].split("\n## ", 1)[0]
    tables: dict[str, dict[str, set[str]]] = {}
    for part in text.split("\n### ")[1:]:
        name = part.split("\n", 1)[0].strip()
        rows: dict[str, set[str]] = {}
        for line in part.splitlines():
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) != 3 or not re.fullmatch(r"`[a-z_]+`", cells[0]):
                continue
            kind = cells[0].strip("`")
            assert kind not in rows, f"{name}: {kind} twice"
            rows[kind] = set(re.findall(r"`([a-z_.]+)`", cells[2]))
        tables[name] = rows
    return tables


def _strings(node: ast.expr) -> list[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        return _strings(node.body) + _strings(node.orelse)
    return []


def code_kinds(paths: list[Path]) -> dict[str, str]:
    """Kinds named in code: the first argument of ``emit`` and the ``kind`` of ``move`` and
    ``flip`` (string literals, or either branch of a conditional); kind -> where."""
    files = [f for p in paths for f in ([p] if p.is_file() else sorted(p.rglob("*.py")))]
    found: dict[str, str] = {}
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
                continue
            named: list[ast.expr] = []
            if node.func.attr == "emit" and node.args:
                named.append(node.args[0])
            if node.func.attr in ("move", "flip"):
                named += [kw.value for kw in node.keywords if kw.arg == "kind"]
            for expr in named:
                for kind in _strings(expr):
                    found.setdefault(kind, f"{path.name}:{node.lineno}")
    return found


def played_kinds(game: str) -> dict[str, set[str]]:
    """Kind -> the fields filled, over the seeded matches of ``game`` (omniscient events)."""
    seen: dict[str, set[str]] = defaultdict(set)
    for seed, seats, options in MATCHES[game]:
        match = tcgcore.new_match(game, seed=seed, players=seats, **options)
        rng = random.Random(seed)
        for _ in range(1500):
            choice = match.pending
            if match.result is not None or choice is None:
                break
            n = rng.randint(choice.min, min(choice.max, len(choice.options)))
            match.choose(choice.player, [o.key for o in rng.sample(choice.options, n)])
        for event in match.events_since(0, player="all"):
            fields = seen[event.kind]
            fields.update(f for f in _FIELDS if getattr(event, f) is not None)
            fields.update(f"data.{k}" for k in event.data)
            fields.update(f"secret.{k}" for k in event.secret)
    return seen


def test_the_doc_has_a_table_for_the_engine_and_each_shipped_game() -> None:
    tables = documented()
    assert set(tables) == {"Every game", *SOURCES}
    engine = ENGINE.read_text()
    # the engine's own kinds: each named in the engine's code
    assert tables["Every game"] and all(f'"{k}"' in engine for k in tables["Every game"])


@pytest.mark.parametrize("game", sorted(SOURCES))
def test_every_kind_a_game_emits_is_documented_with_its_fields(game: str) -> None:
    tables = documented()
    core, own = tables["Every game"], tables[game]
    in_code = code_kinds(SOURCES[game])
    played = played_kinds(game)
    assert len(played) > 8, played  # the seeded matches reach a good part of the game
    missing = {k: where for k, where in in_code.items() if k not in own and k not in core}
    assert not missing, f"{game}: kinds in the code but not in docs/protocol.md: {missing}"
    missing_played = set(played) - set(own) - set(core)
    assert not missing_played, f"{game}: kinds emitted but not documented: {missing_played}"
    for kind, fields in played.items():
        listed = own.get(kind, set()) | core.get(kind, set())
        assert fields <= listed, f"{game} {kind}: fields {sorted(fields - listed)} not documented"
    stale = set(own) - set(in_code) - set(played)
    assert not stale, f"{game}: documented kinds that the game never emits: {stale}"
