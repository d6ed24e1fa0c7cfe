"""Structured logging that stays silent unless the host asks for it.

tcgcore never calls :func:`structlog.configure`. Its logger is chosen per match:

* a logger the host passes to :func:`tcgcore.new_match` (``logger=``);
* otherwise, if the host configured structlog, ``structlog.get_logger("tcgcore")``;
* otherwise a structlog wrapper around the standard library logger ``"tcgcore"``,
  which is silent until the host configures :mod:`logging` for it.

Engine code checks :func:`debug_enabled` once per decision and skips building
log records entirely when it is off, so logging costs nothing measurable then.
"""

from __future__ import annotations

import logging
from typing import Any

import structlog

__all__ = ["configure_cli_logging", "debug_enabled", "get_logger"]

_STDLIB = logging.getLogger("tcgcore")


def get_logger() -> Any:
    """Return the logger tcgcore uses when the host passes none (see module doc)."""
    if structlog.is_configured():
        return structlog.get_logger("tcgcore")
    return structlog.wrap_logger(
        _STDLIB,
        wrapper_class=structlog.stdlib.BoundLogger,
        processors=[
            structlog.stdlib.filter_by_level,
            structlog.processors.KeyValueRenderer(key_order=["event"], sort_keys=True),
        ],
    )


def debug_enabled() -> bool:
    """Whether debug records would go anywhere (host configured logging or structlog)."""
    return structlog.is_configured() or _STDLIB.isEnabledFor(logging.DEBUG)


def configure_cli_logging(level: str) -> None:
    """Send tcgcore's records to stderr at ``level`` (used by the CLI only, never by the library)."""
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(levelname)s %(name)s %(message)s"))
    _STDLIB.addHandler(handler)
    _STDLIB.setLevel(level.upper())
