"""Shared fixtures for the core tests."""

from __future__ import annotations

import pytest

import tcgcore
from tcgcore.examples import sparks


@pytest.fixture
def registry() -> tcgcore.Registry:
    """A registry with only the example game, independent of installed plugins."""
    return tcgcore.load_registry(load_entrypoints=False, plugins=[sparks])
