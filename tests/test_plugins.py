"""Plugin discovery through entry points, registries, duplicates and unknown names."""

from __future__ import annotations

import importlib.metadata
import types
from typing import Any

import pytest

import tcgcore
from tcgcore.examples import sparks


def test_installed_plugins_are_discovered_in_sorted_order() -> None:
    reg = tcgcore.load_registry()
    names = reg.names()
    assert names == sorted(names)
    assert {"sparks", "guimi_revival", "arkham_card"} <= set(names)
    assert tcgcore.games() == tcgcore.default_registry().names()
    versions = reg.plugin_versions("guimi_revival")
    assert "tcgcore" in versions and "tcgcore-guimi-revival" in versions


def test_autoload_can_be_disabled(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TCGCORE_DISABLE_PLUGIN_AUTOLOAD", "1")
    assert tcgcore.load_registry().names() == []
    assert tcgcore.load_registry(plugins=[sparks]).names() == ["sparks"]


def test_blocked_entry_point_is_skipped() -> None:
    reg = tcgcore.load_registry(blocked=["sparks"])
    assert "sparks" not in reg.names()


def _plugin_module(name: str, game: str) -> types.ModuleType:
    mod = types.ModuleType(name)
    spec = tcgcore.GameSpec(name=game, version="1.0.0", state_type=sparks.SparksState,
                            setup=sparks.setup)

    @tcgcore.hookimpl
    def tcgcore_games() -> list[tcgcore.GameSpec[Any]]:
        return [spec]

    mod.tcgcore_games = tcgcore_games  # type: ignore[attr-defined]
    return mod


def test_duplicate_game_names_are_a_clear_error() -> None:
    with pytest.raises(tcgcore.DuplicateGameError, match=r"game 'sparks' is registered by both.*'copycat'"):
        tcgcore.load_registry(load_entrypoints=False,
                              plugins=[sparks, _plugin_module("copycat", "sparks")])
    # with entry points, the message names the distributions and how to skip one
    with pytest.raises(tcgcore.DuplicateGameError,
                       match=r"plugin 'sparks' \(distribution tcgcore [0-9.]+\) and plugin "
                             r"'copycat' \(registered in this process\); uninstall one, or skip "
                             r"one with TCGCORE_BLOCK_PLUGINS=sparks or "
                             r"TCGCORE_BLOCK_PLUGINS=copycat"):
        tcgcore.load_registry(plugins=[_plugin_module("copycat", "sparks")])


def test_every_plugin_failure_names_the_plugin_and_how_to_skip_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    hint = r"\(to start without it: TCGCORE_BLOCK_PLUGINS=bad, or uninstall it\)"
    raising = types.ModuleType("bad")

    @tcgcore.hookimpl
    def tcgcore_games() -> list[tcgcore.GameSpec[Any]]:
        raise RuntimeError("no cards today")

    raising.tcgcore_games = tcgcore_games  # type: ignore[attr-defined]
    with pytest.raises(tcgcore.PluginError, match=r"plugin 'bad': tcgcore_games raised "
                                                  r"RuntimeError: no cards today " + hint):
        tcgcore.load_registry(load_entrypoints=False, plugins=[raising])
    typo = types.ModuleType("bad")

    @tcgcore.hookimpl
    def tcgcore_game() -> list[tcgcore.GameSpec[Any]]:  # misspelt hook name
        return []

    typo.tcgcore_game = tcgcore_game  # type: ignore[attr-defined]
    with pytest.raises(tcgcore.PluginError, match=r"unknown hook 'tcgcore_game'.*" + hint):
        tcgcore.load_registry(load_entrypoints=False, plugins=[typo])
    twice = _plugin_module("bad", "demo")
    spec = twice.tcgcore_games()[0]
    twice.tcgcore_games = tcgcore.hookimpl(lambda: [spec, spec])  # type: ignore[attr-defined]
    with pytest.raises(tcgcore.DuplicateGameError,
                       match=r"plugin 'bad' \(registered in this process\) registers game "
                             r"'demo' twice " + hint):
        tcgcore.load_registry(load_entrypoints=False, plugins=[twice])
    # a game a blocked plugin would have brought is reported with the variable
    monkeypatch.setenv("TCGCORE_BLOCK_PLUGINS", "sparks")
    with pytest.raises(tcgcore.UnknownGameError,
                       match=r"unknown game 'sparks'.*\(TCGCORE_BLOCK_PLUGINS=sparks skips some"):
        tcgcore.load_registry().game("sparks")


def test_unknown_game_lists_known_ones() -> None:
    reg = tcgcore.load_registry(load_entrypoints=False, plugins=[sparks])
    with pytest.raises(tcgcore.UnknownGameError, match="registered games: sparks"):
        reg.game("poker")
    with pytest.raises(LookupError):
        reg.game("poker")


def test_card_sets_hook() -> None:
    mod = _plugin_module("setmaker", "demo")

    @tcgcore.hookimpl
    def tcgcore_card_sets(game: str) -> list[tcgcore.CardSet]:
        return [tcgcore.CardSet(game=game, name="base", version="1", cards=("a", "b"))]

    mod.tcgcore_card_sets = tcgcore_card_sets  # type: ignore[attr-defined]
    reg = tcgcore.load_registry(load_entrypoints=False, plugins=[mod])
    sets = reg.card_sets("demo")
    assert [s.name for s in sets] == ["base"] and list(sets[0].cards) == ["a", "b"]


def test_broken_entry_point_is_a_plugin_error(monkeypatch: pytest.MonkeyPatch) -> None:
    broken = importlib.metadata.EntryPoint(name="zzz_broken", value="no_such_module_xyz",
                                           group="tcgcore")
    real = importlib.metadata.entry_points

    def fake(**kwargs: Any) -> Any:
        eps = list(real(**kwargs))
        return [*eps, broken] if kwargs.get("group") == "tcgcore" else real(**kwargs)

    monkeypatch.setattr(importlib.metadata, "entry_points", fake)
    with pytest.raises(tcgcore.PluginError,
                       match=r"'zzz_broken'.*failed to load.*TCGCORE_BLOCK_PLUGINS=zzz_broken"):
        tcgcore.load_registry()
    # the way out the message gives: every other game loads
    monkeypatch.setenv("TCGCORE_BLOCK_PLUGINS", " other, zzz_broken ")
    assert "sparks" in tcgcore.load_registry().names()
    assert "sparks" not in tcgcore.load_registry(blocked=["sparks"]).names()
    monkeypatch.setenv("TCGCORE_BLOCK_PLUGINS", "sparks,zzz_broken")
    assert "sparks" not in tcgcore.load_registry().names()


def test_hook_returning_garbage_is_rejected() -> None:
    mod = types.ModuleType("garbage")

    @tcgcore.hookimpl
    def tcgcore_games() -> Any:
        return ["not a spec"]

    mod.tcgcore_games = tcgcore_games  # type: ignore[attr-defined]
    with pytest.raises(tcgcore.PluginError, match="not a GameSpec"):
        tcgcore.load_registry(load_entrypoints=False, plugins=[mod])


def test_a_local_registry_of_an_installed_plugin_leaves_the_installed_origin_alone() -> None:
    """Registering an installed game's module again as a local plugin (as tests and
    embedding programs do) must not change what an installed registry already built reports
    as the game's distribution: Ray workers compare that report with the driver's."""
    installed = tcgcore.load_registry()
    before = installed.plugin_versions("sparks")
    local = tcgcore.load_registry(load_entrypoints=False, plugins=[sparks])
    assert local.plugin_versions("sparks") != before
    assert installed.plugin_versions("sparks") == before
