"""The curated public namespace: exports, docstrings, typing marker."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest

import tcgcore


def test_all_is_sorted_and_importable() -> None:
    names = list(tcgcore.__all__)
    assert len(set(names)) == len(names)
    for name in tcgcore.__all__:
        assert hasattr(tcgcore, name), name


def test_public_objects_have_docstrings() -> None:
    missing = []
    for name in tcgcore.__all__:
        obj = getattr(tcgcore, name)
        if (inspect.isclass(obj) or inspect.isfunction(obj)) and not inspect.getdoc(obj):
            missing.append(name)
    assert missing == []


def test_package_is_typed() -> None:
    assert (Path(tcgcore.__file__).parent / "py.typed").exists()


def test_exception_tree() -> None:
    assert issubclass(tcgcore.IllegalChoice, tcgcore.TcgcoreError)
    assert issubclass(tcgcore.IllegalChoice, ValueError)
    assert issubclass(tcgcore.DeckError, tcgcore.OptionsError)
    assert issubclass(tcgcore.FormatVersionError, tcgcore.StateDecodeError)
    assert issubclass(tcgcore.UnknownGameError, LookupError)


def test_compiled_modules_lists_only_tcgcore_extension_modules(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``compiled_modules`` names the imported modules of tcgcore and its plugins that are
    extension modules (an optional compiled build), and nothing else."""
    import sys
    import types

    tcgcore.default_registry().game("arkham_card")
    plain = tcgcore.compiled_modules()
    assert plain == sorted(plain)
    assert "tcgcore" not in plain and "tcgcore._engine" not in plain  # the core is never compiled
    for name in plain:
        assert not str(sys.modules[name].__file__).endswith(".py")
    fake = types.ModuleType("tcgcore_fake_game.rules")
    fake.__file__ = "/site-packages/tcgcore_fake_game/rules.cpython-311-x86_64-linux-gnu.so"
    other = types.ModuleType("numpy_fake.core")
    other.__file__ = "/site-packages/numpy_fake/core.cpython-311-x86_64-linux-gnu.so"
    source = types.ModuleType("tcgcore_fake_game.state")
    source.__file__ = "/site-packages/tcgcore_fake_game/state.py"
    for module in (fake, other, source):
        monkeypatch.setitem(sys.modules, module.__name__, module)
    assert tcgcore.compiled_modules() == sorted([*plain, "tcgcore_fake_game.rules"])
    # per package (what `tcgcore games` shows for each game), any package name
    from tcgcore._build import compiled_in

    assert compiled_in("tcgcore_fake_game") == ["tcgcore_fake_game.rules"]
    assert compiled_in("numpy_fake") == ["numpy_fake.core"] and compiled_in("") == []
    monkeypatch.setitem(sys.modules, "tcgcore_blocked", None)  # an import blocked on purpose
    monkeypatch.setitem(sys.modules, "tcgcore_odd", types.ModuleType("tcgcore_odd"))
    assert tcgcore.compiled_modules() == sorted([*plain, "tcgcore_fake_game.rules"])
