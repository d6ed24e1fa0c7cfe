"""Plugin discovery: pluggy hookspecs, entry points, and the registry of games.

Games and card sets are pluggy plugins. A distribution announces its plugin
module in the entry-point group ``tcgcore``::

    [project.entry-points.tcgcore]
    my_game = "my_game_package.plugin"

and that module implements the hooks below with :data:`tcgcore.hookimpl`.
Entry points are loaded in sorted name order so hook results never depend on
the file system's order. Setting ``TCGCORE_DISABLE_PLUGIN_AUTOLOAD=1`` (or
``load_entrypoints=False``) turns discovery off; plugins can then be passed
explicitly. ``TCGCORE_BLOCK_PLUGINS=name1,name2`` (or ``blocked=``) skips the entry points
so named, for example a plugin that fails to import or registers a game name twice: the
error messages say so.
"""

from __future__ import annotations

import functools
import importlib.metadata
import os
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

import pluggy

from ._errors import DuplicateGameError, PluginError, UnknownGameError
from ._spec import GameSpec

__all__ = [
    "CardSet",
    "Registry",
    "default_registry",
    "hookimpl",
    "hookspec",
    "load_registry",
    "make_plugin_manager",
]

PROJECT = "tcgcore"
ENTRY_POINT_GROUP = "tcgcore"
DISABLE_ENV = "TCGCORE_DISABLE_PLUGIN_AUTOLOAD"

#: Environment variable naming entry points not to load, separated by commas.
BLOCK_ENV = "TCGCORE_BLOCK_PLUGINS"

#: Marks hook specifications (used by tcgcore itself).
hookspec = pluggy.HookspecMarker(PROJECT)
#: Marks hook implementations; plugin authors decorate their hook functions with it.
hookimpl = pluggy.HookimplMarker(PROJECT)


@dataclass(frozen=True)
class CardSet:
    """A named collection of card definitions for one game.

    Attributes:
        game: the game these cards belong to.
        name: the set's name, unique within the game.
        version: the set's version.
        cards: the game's own card definition objects.
    """

    game: str
    name: str
    version: str
    cards: Sequence[Any] = field(default_factory=tuple)


class _HookSpecs:
    """The hooks a tcgcore plugin may implement."""

    @hookspec
    def tcgcore_games(self) -> list[GameSpec[Any]]:  # type: ignore[empty-body]
        """Return the games this plugin provides.

        :returns: a list of :class:`tcgcore.GameSpec`; each name must be unique
            across all installed plugins.
        """

    @hookspec
    def tcgcore_card_sets(self, game: str) -> list[CardSet]:  # type: ignore[empty-body]
        """Return the card sets this plugin provides for ``game``.

        :param game: a registered game name.
        :returns: a list of :class:`tcgcore.CardSet` (empty if none).
        """


def make_plugin_manager(
    *,
    load_entrypoints: bool | None = None,
    plugins: Iterable[object] = (),
    blocked: Iterable[str] = (),
) -> tuple[pluggy.PluginManager, dict[str, tuple[str, str]]]:
    """Build a plugin manager with tcgcore's hookspecs.

    Args:
        load_entrypoints: load the ``tcgcore`` entry points; ``None`` means yes
            unless ``TCGCORE_DISABLE_PLUGIN_AUTOLOAD`` is set to a non-empty value.
        plugins: extra plugin objects or modules to register (after entry points).
        blocked: entry-point names not to load (besides those the environment variable
            ``TCGCORE_BLOCK_PLUGINS`` lists, comma-separated).

    Returns:
        The manager and, for each registered plugin name, the
        ``(distribution, version)`` that provided it.

    Raises:
        PluginError: if an entry point fails to import or registers twice.
    """
    pm = pluggy.PluginManager(PROJECT)
    pm.add_hookspecs(_HookSpecs)
    origins: dict[str, tuple[str, str]] = {}
    from_env = [n.strip() for n in os.environ.get(BLOCK_ENV, "").split(",") if n.strip()]
    for name in [*blocked, *from_env]:
        pm.set_blocked(name)
    if load_entrypoints is None:
        load_entrypoints = not os.environ.get(DISABLE_ENV)
    if load_entrypoints:
        eps = sorted(importlib.metadata.entry_points(group=ENTRY_POINT_GROUP),
                     key=lambda ep: (ep.name, ep.value))
        seen: dict[str, str] = {}
        for ep in eps:
            if pm.is_blocked(ep.name):
                continue
            if ep.name in seen:
                if seen[ep.name] == ep.value:
                    continue  # the same distribution seen twice on sys.path
                raise PluginError(
                    f"two tcgcore entry points are named {ep.name!r}: "
                    f"{seen[ep.name]} and {ep.value}"
                )
            seen[ep.name] = ep.value
            try:
                plugin = ep.load()
            except Exception as exc:
                raise PluginError(f"tcgcore plugin {ep.name!r} ({ep.value}) failed to load: "
                                  f"{exc}{_skip_hint(ep.name)}") from exc
            pm.register(plugin, name=ep.name)
            dist = ep.dist
            origins[ep.name] = (dist.name, dist.version) if dist is not None else (ep.name, "unknown")
    for plugin in plugins:
        name = plugin.__name__ if isinstance(plugin, ModuleType) else type(plugin).__name__
        if pm.get_plugin(name) is not None:
            continue
        pm.register(plugin, name=name)
        origins[name] = (name, "local")
    try:
        pm.check_pending()
    except pluggy.PluginValidationError as exc:  # a hook the spec does not know (a typo)
        culprit = getattr(exc, "plugin", None)
        culprit_name = pm.get_name(culprit) if culprit is not None else None
        raise PluginError(f"{exc}{_skip_hint(culprit_name) if culprit_name else ''}") from exc
    return pm, origins


def _skip_hint(plugin: str) -> str:
    """The end of an error message about one plugin: how to start without it."""
    return f" (to start without it: {BLOCK_ENV}={plugin}, or uninstall it)"


class Registry:
    """The games and card sets the installed plugins provide.

    A typed facade over the plugin manager's hooks (pluggy's own calls are untyped).

    Raises:
        DuplicateGameError: on construction, if two plugins register one game name.
    """

    def __init__(self, pm: pluggy.PluginManager, origins: dict[str, tuple[str, str]]) -> None:
        self.pm = pm
        self._origins = origins
        self._games: dict[str, GameSpec[Any]] = {}
        self._game_plugin: dict[str, str] = {}
        #: game -> (distribution, version) of the plugin that registered it, kept here and
        #: not on the GameSpec: one spec object can be registered by several registries
        #: (installed, or handed in as a local plugin) and must not carry one's origin
        self._game_origin: dict[str, tuple[str, str]] = {}
        for impl in self.pm.hook.tcgcore_games.get_hookimpls():
            name = impl.plugin_name
            hint = _skip_hint(name)
            try:
                result = impl.function()
            except Exception as exc:
                raise PluginError(
                    f"plugin {name!r}: tcgcore_games raised {type(exc).__name__}: {exc}{hint}"
                ) from exc
            if not isinstance(result, list):
                raise PluginError(f"plugin {name!r}: tcgcore_games must return a list{hint}")
            for spec in result:
                if not isinstance(spec, GameSpec):
                    raise PluginError(
                        f"plugin {name!r}: tcgcore_games returned {spec!r}, not a GameSpec{hint}"
                    )
                if spec.name in self._games:
                    first = self._game_plugin[spec.name]
                    if first == name:
                        raise DuplicateGameError(
                            f"plugin {name!r} ({_origin(origins, name)}) registers game "
                            f"{spec.name!r} twice{hint}")
                    raise DuplicateGameError(
                        f"game {spec.name!r} is registered by both plugin {first!r} "
                        f"({_origin(origins, first)}) and plugin {name!r} "
                        f"({_origin(origins, name)}); uninstall one, or skip one with "
                        f"{BLOCK_ENV}={first} or {BLOCK_ENV}={name}"
                    )
                dist, ver = origins.get(impl.plugin_name, (impl.plugin_name, "unknown"))
                self._game_origin[spec.name] = (dist, ver)
                self._games[spec.name] = spec
                self._game_plugin[spec.name] = impl.plugin_name

    def names(self) -> list[str]:
        """Registered game names, sorted."""
        return sorted(self._games)

    def game(self, name: str) -> GameSpec[Any]:
        """Return the spec of a registered game.

        Raises:
            UnknownGameError: naming the game and listing the registered ones.
        """
        try:
            return self._games[name]
        except KeyError:
            known = ", ".join(self.names()) or "none"
            blocked = os.environ.get(BLOCK_ENV, "").strip()
            note = f" ({BLOCK_ENV}={blocked} skips some plugins)" if blocked else ""
            raise UnknownGameError(
                f"unknown game {name!r}; registered games: {known}{note}") from None

    def card_sets(self, game: str) -> list[CardSet]:
        """Every card set the plugins provide for ``game``, sorted by name.

        Raises:
            UnknownGameError: if the game is not registered.
            PluginError: if two sets share a name.
        """
        self.game(game)
        sets: list[CardSet] = []
        for result in self.pm.hook.tcgcore_card_sets(game=game):
            sets.extend(result)
        names = [s.name for s in sets]
        dupes = sorted({n for n in names if names.count(n) > 1})
        if dupes:
            raise PluginError(f"game {game!r}: card set name(s) registered twice: {', '.join(dupes)}")
        return sorted(sets, key=lambda s: s.name)

    def game_packages(self, game: str) -> list[str]:
        """The top-level packages that hold ``game``'s code, sorted: the package of the plugin
        that registered it (a module plugin's own package; an object plugin's class's) and that
        of the module the game's setup function comes from (compiled or not), leaving out the
        standard library and ``__main__``. ``tcgcore games`` counts the compiled modules among
        them.

        Raises:
            UnknownGameError: if the game is not registered.
        """
        spec = self.game(game)
        plugin = self.pm.get_plugin(self._game_plugin[game])
        named: list[object] = [plugin.__name__ if isinstance(plugin, ModuleType)
                               else getattr(type(plugin), "__module__", None)]
        try:  # a function, a compiled function, a partial ("functools": standard library) …
            named.append(getattr(spec.setup, "__module__", None))
        except Exception:  # an odd callable whose attribute lookup fails: nothing to add
            pass
        tops = {n.partition(".")[0] for n in named if isinstance(n, str) and n}
        return sorted(t for t in tops if t not in sys.stdlib_module_names and t != "__main__")

    def plugin_versions(self, game: str) -> dict[str, str]:
        """``{distribution: version}`` of tcgcore and the plugin providing ``game``."""
        self.game(game)
        out = {"tcgcore": _tcgcore_version()}
        dist, version = self._game_origin[game]
        out[dist] = version
        return out


def _origin(origins: dict[str, tuple[str, str]], plugin: str) -> str:
    """Where a registered plugin came from, for messages: ``distribution tcgcore-x 0.1.0``."""
    dist, version = origins.get(plugin, (plugin, "unknown"))
    return "registered in this process" if version == "local" else f"distribution {dist} {version}"


@functools.cache
def _tcgcore_version() -> str:
    try:
        return importlib.metadata.version("tcgcore")
    except importlib.metadata.PackageNotFoundError:  # pragma: no cover - source checkout
        return "0+unknown"


def load_registry(
    *,
    load_entrypoints: bool | None = None,
    plugins: Iterable[object] = (),
    blocked: Iterable[str] = (),
) -> Registry:
    """Build a fresh :class:`Registry` (see :func:`make_plugin_manager` for the arguments)."""
    pm, origins = make_plugin_manager(load_entrypoints=load_entrypoints, plugins=plugins,
                                      blocked=blocked)
    return Registry(pm, origins)


_DEFAULT: list[Registry] = []


def _is_default_registry(registry: Registry) -> bool:
    """Whether ``registry`` is the cached default one (without building it)."""
    return bool(_DEFAULT) and registry is _DEFAULT[0]


def default_registry(*, refresh: bool = False) -> Registry:
    """The registry of installed plugins, built on first use and cached.

    Args:
        refresh: rebuild it (after installing a plugin at run time).
    """
    if refresh or not _DEFAULT:
        _DEFAULT[:] = [load_registry()]
    return _DEFAULT[0]
