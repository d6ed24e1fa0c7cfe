"""Measure the Guimi Revival agents and write ``docs/guimi_revival/balance.md``.

A thin wrapper around :mod:`tcgcore_guimi_revival.balance` (same as
``python -m tcgcore_guimi_revival.balance``)::

    python plugins/guimi_revival/scripts/measure_balance.py            # 500 games per matchup
    python plugins/guimi_revival/scripts/measure_balance.py --games 40 --out /tmp/balance.md
"""

from __future__ import annotations

from tcgcore_guimi_revival.balance import main

if __name__ == "__main__":
    raise SystemExit(main())
