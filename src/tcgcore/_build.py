"""Which build is running: the modules that were loaded compiled (an optional mypyc build).

tcgcore and the game plugins install as pure Python by default. A plugin may offer an
optional compiled build (the Arkham plugin does: docs/compiled.md) that turns
its hot modules into C extension modules which play identically and faster. Benchmarks record
which modules ran compiled, and tests and front ends may ask (``docs/plugin-guide.md``, "An
optional compiled build").
"""

from __future__ import annotations

import sys
from importlib.machinery import EXTENSION_SUFFIXES

__all__ = ["compiled_modules"]

_EXTENSION_SUFFIXES = tuple(EXTENSION_SUFFIXES)


def compiled_modules(*packages: str) -> list[str]:
    """The imported modules of some top-level packages that are compiled extension modules
    (loaded from a file ending in one of the interpreter's extension suffixes, such as
    ``.cpython-311-x86_64-linux-gnu.so``), sorted by name.

    Args:
        packages: top-level package names (``"tcgcore_arkham_card"``, or any third-party
            game's package). None given: tcgcore itself and every package whose name starts
            with ``tcgcore`` (the bundled game plugins); ``tcgcore games`` shows the count for
            each game's own packages, whatever their names.

    Returns:
        module names such as ``["tcgcore_arkham_card.actions", "tcgcore_arkham_card.rules"]``;
        empty when everything imported so far runs interpreted. Only modules already imported
        count: build the registry first (``tcgcore.default_registry()`` imports every plugin
        module and what it imports) to include a game's plugin. Looking never imports or
        runs a module (a lazily loaded one stays unloaded), and an entry of ``sys.modules``
        that cannot be read is skipped: nothing is raised.
    """
    wanted = set(packages)
    found = []
    entries: list[tuple[object, object]] = list(sys.modules.items())
    for name, module in entries:
        if not isinstance(name, str):  # someone put an odd key into sys.modules
            continue
        top = name.partition(".")[0]
        if ((top in wanted) if wanted else top.startswith("tcgcore")) \
                and not name.endswith("__mypyc") and _is_extension(module):
            found.append(name)  # (mypyc's support library "…__mypyc" holds no game code)
    return sorted(found)


def _is_extension(module: object) -> bool:
    """Whether ``module`` was loaded from an extension-module file. Reads the module's own
    ``__dict__`` (a lazily loaded module would run on any other attribute read)."""
    try:
        path = object.__getattribute__(module, "__dict__").get("__file__")
    except Exception:  # not a module, or an odd object: not a compiled module we can name
        return False
    return isinstance(path, str) and path.endswith(_EXTENSION_SUFFIXES)
