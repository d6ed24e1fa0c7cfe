"""Which build is running: the modules that were loaded compiled (an optional mypyc build).

tcgcore and the game plugins install as pure Python by default. A plugin may offer an
optional compiled build (the Arkham plugin does: README.md, "Compiled Arkham rules") that turns
its hot modules into C extension modules which play identically and faster. Benchmarks record
which modules ran compiled, and tests and front ends may ask (``docs/plugin-guide.md``, "An
optional compiled build").
"""

from __future__ import annotations

import sys

__all__ = ["compiled_modules"]

_SOURCE_SUFFIXES = (".py", ".pyc")


def compiled_modules() -> list[str]:
    """The imported modules of tcgcore and of its game plugins (every package whose name starts
    with ``tcgcore``) that are compiled extension modules, sorted by name.

    Returns:
        module names such as ``["tcgcore_arkham_card.actions", "tcgcore_arkham_card.rules"]``; empty when
        everything imported so far runs interpreted. Only modules already imported count: load
        a game first (``tcgcore.default_registry().game(name)``) to include its plugin.
    """
    return sorted(name for name, module in list(sys.modules.items())
                  if name.split(".")[0].startswith("tcgcore")
                  and getattr(module, "__file__", None)
                  and not str(module.__file__).endswith(_SOURCE_SUFFIXES))
