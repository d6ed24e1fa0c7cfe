"""The curated public namespace: exports, docstrings, typing marker."""

from __future__ import annotations

import inspect
from pathlib import Path

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
