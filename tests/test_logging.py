"""Logging is silent unless the host configures it, and cheap when off."""

from __future__ import annotations

import logging

import pytest
import structlog

import tcgcore
from tcgcore.examples import sparks


def _play(registry: tcgcore.Registry, **kw: object) -> tcgcore.Match[sparks.SparksState]:
    m = tcgcore.new_match("sparks", seed=3, registry=registry, **kw)  # type: ignore[arg-type]
    tcgcore.play_out(m, [tcgcore.RandomAgent(1), tcgcore.RandomAgent(2)])
    return m


def test_silent_by_default(registry: tcgcore.Registry, capsys: pytest.CaptureFixture[str]) -> None:
    _play(registry)
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == ""


def test_host_logging_configuration_receives_decisions(
    registry: tcgcore.Registry, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.DEBUG, logger="tcgcore"):
        _play(registry)
    decisions = [r for r in caplog.records if "decision" in r.getMessage()]
    assert decisions and "kind='mulligan'" in decisions[0].getMessage()


def test_injected_logger_is_used(registry: tcgcore.Registry) -> None:
    with structlog.testing.capture_logs() as logs:
        _play(registry, logger=structlog.get_logger("host"))
    assert any(entry["event"] == "decision" for entry in logs)


def test_logging_off_builds_no_records(
    registry: tcgcore.Registry, monkeypatch: pytest.MonkeyPatch
) -> None:
    structlog.reset_defaults()  # capture_logs above leaves structlog marked as configured
    assert not tcgcore._logging.debug_enabled()

    def explode() -> object:
        raise AssertionError("a logger was built while logging is off")

    monkeypatch.setattr(tcgcore._match, "get_logger", explode)
    m = _play(registry)
    assert m.result is not None


def test_debug_enabled_follows_the_host_configuration() -> None:
    """The once-per-decision check follows ``structlog.configure`` / ``reset_defaults`` and
    every stdlib level change (including ``logging.disable``)."""
    from tcgcore._logging import debug_enabled

    structlog.reset_defaults()
    stdlib = logging.getLogger("tcgcore")
    old_level = stdlib.level
    try:
        assert not debug_enabled()
        structlog.configure(processors=[structlog.processors.KeyValueRenderer()])
        assert debug_enabled() is structlog.is_configured() is True
        structlog.reset_defaults()
        assert not debug_enabled()
        stdlib.setLevel(logging.DEBUG)
        assert debug_enabled()
        logging.disable(logging.DEBUG)
        assert not debug_enabled()
        logging.disable(logging.NOTSET)
        assert debug_enabled()
        stdlib.setLevel(logging.INFO)
        assert not debug_enabled()
    finally:
        logging.disable(logging.NOTSET)
        stdlib.setLevel(old_level)
        structlog.reset_defaults()
