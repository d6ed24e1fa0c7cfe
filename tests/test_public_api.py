"""The curated public namespace: exports, docstrings, typing marker."""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any

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


def test_compiled_modules_lists_only_extension_modules_of_the_packages_asked(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """``compiled_modules`` names the imported modules that were loaded from extension-module
    files (an optional compiled build): of tcgcore and the ``tcgcore*`` packages by default,
    of the named top-level packages otherwise. It never loads a module and skips what it
    cannot read."""
    import importlib.util
    import sys
    import types
    from importlib.machinery import EXTENSION_SUFFIXES

    tcgcore.default_registry().game("arkham_card")
    plain = tcgcore.compiled_modules()
    assert plain == sorted(plain)
    assert "tcgcore" not in plain and "tcgcore._engine" not in plain  # the core is never compiled
    for name in plain:
        assert str(sys.modules[name].__file__).endswith(tuple(EXTENSION_SUFFIXES))
    suffix = EXTENSION_SUFFIXES[0]

    def fake(name: str, path: object) -> types.ModuleType:
        module = types.ModuleType(name)
        module.__file__ = path  # type: ignore[assignment]
        monkeypatch.setitem(sys.modules, name, module)
        return module

    fake("tcgcore_fake_game.rules", f"/site-packages/tcgcore_fake_game/rules{suffix}")
    fake("numpy_fake.core", f"/site-packages/numpy_fake/core{suffix}")
    fake("pebbles.rules", f"/site-packages/pebbles/rules{suffix}")
    fake("tcgcore_fake_game.state", "/site-packages/tcgcore_fake_game/state.py")
    fake("tcgcore_fake_game.rules__mypyc", f"/site-packages/tcgcore_fake_game/rules__mypyc{suffix}")
    fake("tcgcore_fake_game.generated", "<generated cards>")  # not a file: not compiled
    fake("tcgcore_fake_game.typed", "/site-packages/tcgcore_fake_game/typed.pyi")
    fake("tcgcore_fake_game.bytes_path", f"/x/y{suffix}".encode())
    monkeypatch.setitem(sys.modules, "tcgcore_blocked", None)  # an import blocked on purpose
    odd_keys: Any = sys.modules
    monkeypatch.setitem(odd_keys, ("odd", "key"), types.ModuleType("odd"))

    class Touchy(types.ModuleType):
        @property
        def __file__(self) -> str:  # type: ignore[override]
            raise OSError("no file for you")

    monkeypatch.setitem(sys.modules, "tcgcore_touchy", Touchy("tcgcore_touchy"))
    assert tcgcore.compiled_modules() == sorted([*plain, "tcgcore_fake_game.rules"])
    assert tcgcore.compiled_modules("pebbles", "numpy_fake") == ["numpy_fake.core", "pebbles.rules"]
    assert tcgcore.compiled_modules("tcgcore_fake_game") == ["tcgcore_fake_game.rules"]
    assert tcgcore.compiled_modules("no_such_package") == []
    # a lazily loaded module is not run by looking
    source = tmp_path / "tcgcore_lazy_probe.py"
    source.write_text("raise RuntimeError('the lazy module ran')\n")
    spec = importlib.util.spec_from_file_location("tcgcore_lazy_probe", source)
    assert spec is not None and spec.loader is not None
    spec.loader = importlib.util.LazyLoader(spec.loader)
    lazy = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(lazy)
    monkeypatch.setitem(sys.modules, "tcgcore_lazy_probe", lazy)
    assert "tcgcore_lazy_probe" not in tcgcore.compiled_modules()
    with pytest.raises(RuntimeError, match="the lazy module ran"):
        lazy.anything  # noqa: B018  (the probe is real: reading an attribute runs it)


def test_game_packages_name_where_a_game_lives() -> None:
    registry = tcgcore.default_registry()
    assert registry.game_packages("arkham_card") == ["tcgcore_arkham_card"]
    assert registry.game_packages("guimi_revival") == ["tcgcore_guimi_revival"]
    assert registry.game_packages("sparks") == ["tcgcore"]
    with pytest.raises(tcgcore.UnknownGameError):
        registry.game_packages("nope")
    # the setup's module counts whatever kind of callable it is (a compiled function is a
    # builtin, not a Python function); the standard library never does
    import functools
    import types

    import msgspec

    from tcgcore.examples import sparks

    for setup, expected in ((msgspec.json.encode, ["msgspec", "tcgcore_odd_plugin"]),
                            (functools.partial(sparks.setup), ["tcgcore_odd_plugin"]),
                            (print, ["tcgcore_odd_plugin"])):
        plugin = types.ModuleType("tcgcore_odd_plugin.plugin")
        spec = tcgcore.GameSpec(name="odd", version="1.0.0", state_type=sparks.SparksState,
                                setup=setup)  # type: ignore[arg-type]
        plugin.tcgcore_games = tcgcore.hookimpl(lambda s=spec: [s])  # type: ignore[attr-defined]
        reg = tcgcore.load_registry(load_entrypoints=False, plugins=[plugin])
        assert reg.game_packages("odd") == expected, setup


def test_engine_and_game_spec_annotations_resolve_at_run_time() -> None:
    """Runtime type checkers and documentation tools read the annotations of the engine and
    the game definition (they live in two modules that import each other)."""
    import subprocess
    import sys
    import typing

    for fn in (tcgcore.Engine.__init__, tcgcore.GameSpec.handles, tcgcore.Engine.move,
               tcgcore.decided_by):
        assert typing.get_type_hints(fn)
    # every public function and method, the agents' and the game definition's included
    # (their annotations name the match, the agent protocol and the view)
    unresolved = []
    for name in tcgcore.__all__:
        obj = getattr(tcgcore, name)
        members: list[Any] = ([m.fget if isinstance(m, property) else getattr(m, "__func__", m)
                    for m in vars(obj).values()
                    if inspect.isfunction(m) or isinstance(m, (staticmethod, classmethod,
                                                               property))]
                   if inspect.isclass(obj) else [obj] if inspect.isfunction(obj) else [])
        for member in members:
            try:
                typing.get_type_hints(member)
            except NameError as error:
                unresolved.append(f"{name}.{member.__name__}: {error}")
    assert unresolved == []
    for first in ("tcgcore._spec", "tcgcore._engine", "tcgcore._trigger_steps", "tcgcore.cli",
                  "tcgcore._agents", "tcgcore._views", "tcgcore._match"):
        done = subprocess.run([sys.executable, "-c", f"import {first}; import tcgcore"],
                              capture_output=True, text=True, check=False)
        assert done.returncode == 0, done.stderr
