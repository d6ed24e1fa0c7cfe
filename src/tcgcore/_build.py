"""Which build is running: the modules that were loaded compiled (an optional mypyc build).

tcgcore and the game plugins install as pure Python by default. A plugin may offer an
optional compiled build (the Arkham plugin does: README.md, "Compiled Arkham rules") that turns
its hot modules into C extension modules which play identically and faster. Benchmarks record
which modules ran compiled, and tests and front ends may ask (``docs/plugin-guide.md``, "An
optional compiled build").
"""

from __future__ import annotations

import sys
from collections.abc import Callable

__all__ = ["compiled_modules"]

_SOURCE_SUFFIXES = (".py", ".pyc")


def compiled_modules() -> list[str]:
    """The imported modules of tcgcore and of its game plugins (every package whose name starts
    with ``tcgcore``) that are compiled extension modules, sorted by name.

    Returns:
        module names such as ``["tcgcore_arkham_card.actions", "tcgcore_arkham_card.rules"]``;
        empty when everything imported so far runs interpreted. Only modules already imported
        count: load a game first (``tcgcore.default_registry().game(name)``) to include its
        plugin. Raises nothing.
    """
    return _compiled(lambda top: top.startswith("tcgcore"))


def compiled_in(package: str) -> list[str]:
    """The imported modules of the top-level package ``package`` (``"tcgcore_arkham_card"``,
    or any third-party game package) that are compiled extension modules, sorted; ``[]`` for
    an empty name. Used by ``tcgcore games`` for each game's package."""
    return _compiled(lambda top: top == package) if package else []


def _compiled(wanted: Callable[[str], bool]) -> list[str]:
    return sorted(name for name, module in list(sys.modules.items())
                  if wanted(name.split(".")[0])
                  and getattr(module, "__file__", None)
                  and not str(module.__file__).endswith(_SOURCE_SUFFIXES))
