"""Every card with behaviour has a scenario test checking it against its text, and the
published table ``docs/guimi_revival/card-coverage.md`` is generated from those tests."""

from __future__ import annotations

import runpy
from pathlib import Path
from typing import Any

from tcgcore_guimi_revival import get_pool

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "card_coverage.py"


def _script() -> dict[str, Any]:
    """The generator script's globals (run as a module, not as ``__main__``)."""
    return runpy.run_path(str(SCRIPT))


def test_every_card_with_behaviour_has_a_test() -> None:
    """Each of the starter set's cards (all have behaviour) is named by a test's ``covers``."""
    cover = _script()["coverage_map"]()
    pool = get_pool("builtin").cards
    missing = sorted(c for c in pool if not cover.get(c))
    assert not missing, f"cards with no test against their text: {missing}"
    assert set(cover) <= set(pool) | set(get_pool(str(
        Path(__file__).parent / "data" / "test_pool.toml")).cards)


def test_coverage_table_is_generated_from_the_tests() -> None:
    """The committed table equals what the script generates now (rerun it after adding
    tests: ``python plugins/guimi_revival/scripts/card_coverage.py``)."""
    script = _script()
    assert script["DOC"].read_text(encoding="utf-8") == script["render"](script["coverage_map"]())
