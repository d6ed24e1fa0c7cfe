"""Every rule number of docs/arkham_card/rules.md is cited by a test (except the ones
listed in UNCOVERED, which the report names)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
RULES = ROOT / "docs" / "arkham_card" / "rules.md"
TESTS = Path(__file__).resolve().parent
RULE_RE = re.compile(r"^\*\*(A\d{3}\.\d+[a-z]?)\.\*\*", re.MULTILINE)

#: Rule numbers not yet implemented or not yet covered by a scenario test.
UNCOVERED: frozenset[str] = frozenset()


def _cited() -> str:
    text = []
    for path in sorted(TESTS.glob("test_arkham_*.py")):
        if path.name != Path(__file__).name:
            text.append(path.read_text(encoding="utf-8"))
    return "\n".join(text)


@pytest.mark.skipif(not RULES.exists(), reason="rules document not written yet")
def test_every_rule_number_is_cited() -> None:
    numbers = RULE_RE.findall(RULES.read_text(encoding="utf-8"))
    assert numbers
    cited = _cited()
    missing = []
    for number in numbers:
        token = number.replace(".", "_")
        if number in UNCOVERED:
            continue
        if not re.search(rf"{re.escape(token)}(?![0-9])|{re.escape(number)}(?![0-9])", cited):
            missing.append(number)
    assert not missing, f"rules not cited by any test: {' '.join(missing)}"
