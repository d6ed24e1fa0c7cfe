"""The optional compiled build of the Arkham rule modules (mypyc; docs/compiled.md).

The modules named in ``plugins/arkham_card/pyproject.toml`` (the mypyc build hook's ``include``)
are compiled when the plugin is installed with ``HATCH_BUILD_HOOK_ENABLE_MYPYC=1``. A compiled
build must play exactly as the interpreted one. What these tests hold it to:

* always: the modules define no msgspec ``Struct`` class (mypyc does not pass class keywords
  such as ``tag=`` or ``array_like=`` to a compiled class's metaclass, so a struct defined there
  would save differently);
* with a compiled install (skipped otherwise; an error instead when the environment variable
  ``TCGCORE_EXPECT_COMPILED=1`` says a compiled build was meant, as in CI, so a build that
  silently stopped compiling cannot pass): every listed module is compiled, and seeded games
  of the three scenarios, with 1, 2 and 4 investigators, random and heuristic agents, and games
  with the other setup options (difficulty, lead, trauma, chaos_add, decks by name, campaign
  mode), give the same choices (kinds, keys and labels), the same number of decisions and the
  same final state digest as the interpreted source in this checkout.
"""

from __future__ import annotations

import importlib
import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import msgspec
import pytest

import tcgcore

PLUGIN_DIR = Path(__file__).resolve().parents[1]


def _compiled_module_names() -> list[str]:
    """The module names the mypyc build hook compiles, read from the plugin's pyproject."""
    config = tomllib.loads((PLUGIN_DIR / "pyproject.toml").read_text(encoding="utf-8"))
    hook = config["tool"]["hatch"]["build"]["targets"]["wheel"]["hooks"]["mypyc"]
    assert hook["enable-by-default"] is False  # the default install stays pure Python
    names = []
    for path in hook["include"]:
        assert path.startswith("src/tcgcore_arkham_card/") and path.endswith(".py"), path
        names.append("tcgcore_arkham_card." + path[len("src/tcgcore_arkham_card/"):-3])
    return names


def _is_compiled(module_name: str) -> bool:
    tcgcore.default_registry().game("arkham_card")  # import the plugin package in order
    return not str(importlib.import_module(module_name).__file__).endswith(".py")


def test_compiled_modules_define_no_struct_classes() -> None:
    names = _compiled_module_names()
    assert len(names) >= 6
    tcgcore.default_registry().game("arkham_card")
    for name in names:
        module = importlib.import_module(name)
        for attr, value in vars(module).items():
            if isinstance(value, type) and value.__module__ == name:
                assert not issubclass(value, msgspec.Struct), (
                    f"{name}.{attr} is a msgspec Struct: move it to a module the mypyc build "
                    "does not compile (state.py holds the game's structs)")


def test_the_source_tree_holds_no_compiled_modules() -> None:
    left = sorted(str(p.relative_to(PLUGIN_DIR)) for p in (PLUGIN_DIR / "src").rglob("*")
                  if p.suffix in (".so", ".pyd"))
    assert not left, (
        f"compiled modules in the source tree: {left}; an editable install would import them "
        "instead of the .py files. Delete them (rm -f plugins/arkham_card/src/*.so "
        "plugins/arkham_card/src/tcgcore_arkham_card/*.so). A compiled build leaves them when "
        "it fails part-way or runs without HATCH_BUILD_CLEAN_HOOKS_AFTER=1 (docs/compiled.md)")


_COMPILED = [n for n in _compiled_module_names() if _is_compiled(n)]
_EXPECTED = os.environ.get("TCGCORE_EXPECT_COMPILED") == "1"

needs_compiled = pytest.mark.skipif(
    not _COMPILED and not _EXPECTED,
    reason="needs the compiled build (docs/compiled.md)")


@needs_compiled
def test_every_listed_module_is_compiled() -> None:
    assert _COMPILED == _compiled_module_names(), (
        "the modules the mypyc build hook lists are not all compiled in this environment")


#: Plays the seeded games and prints, per game, a hash of every choice met on the way (kind,
#: option keys and labels, the keys chosen), the decision count and the final digest.
_PLAY = r"""
import hashlib, json, sys
import tcgcore
import tcgcore_arkham_card.rules as rules
out = {"rules_file": rules.__file__, "games": {}}

def play(key, seed, players, agent, **options):
    m = tcgcore.new_match("arkham_card", seed=seed, players=players, keep_events=False,
                          **options)
    agents = [tcgcore.make_agent(m.spec, agent, seed * 7 + s)
              for s in range(m.state.num_players)]
    h = hashlib.blake2b(digest_size=12)
    while m.result is None and len(m.decisions) < 5000:
        c = m.pending
        keys = agents[c.player].decide(m, c)
        h.update(repr((c.player, c.kind, [(o.key, o.label) for o in c.options],
                       keys)).encode())
        m.choose(c.player, keys)
    out["games"][key] = [h.hexdigest(), len(m.decisions), m.digest()]

for scen in ("01104", "01120", "01142"):
    for players in (1, 2, 4):
        for agent, seeds in (("random", range(6)), ("heuristic", range(2))):
            for seed in seeds:
                play(f"{scen}/{players}/{agent}/{seed}", seed, players, agent, scenario=scen)
OPTION_GAMES = [
    (1, {"difficulty": "easy"}), (1, {"difficulty": "hard"}), (2, {"difficulty": "expert"}),
    (2, {"lead": 1}), (3, {"lead": 2, "trauma": [[1, 0], [0, 2], [2, 1]]}),
    (1, {"chaos_add": ["-2", "elder_thing"]}), (2, {"decks": ["Roland Banks", "Agnes Baker"],
                                                    "investigators": ["01001", "01004"]}),
    (2, {"mode": "campaign", "scenario": "01120"}),
]
for n, (players, options) in enumerate(OPTION_GAMES):
    for seed in range(3):
        play(f"options{n}/{seed}", seed, players, "random", **options)
json.dump(out, sys.stdout)
"""


def _play(pure_src: Path | None) -> dict[str, object]:
    env = dict(os.environ)
    if pure_src is not None:  # interpreted sources, ahead of the installed build
        env["PYTHONPATH"] = os.pathsep.join(
            [str(pure_src), *filter(None, [env.get("PYTHONPATH")])])
    done = subprocess.run([sys.executable, "-c", _PLAY], env=env, capture_output=True,
                          text=True, timeout=600, check=True)
    result: dict[str, object] = json.loads(done.stdout)
    return result


@needs_compiled
def test_compiled_build_plays_like_the_interpreted_source(tmp_path: Path) -> None:
    # the interpreted side: this checkout's sources alone (.py files only)
    shutil.copytree(PLUGIN_DIR / "src" / "tcgcore_arkham_card", tmp_path / "tcgcore_arkham_card",
                    ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__"))
    assert _COMPILED == _compiled_module_names()
    compiled, pure = _play(None), _play(tmp_path)
    assert not str(compiled["rules_file"]).endswith(".py")
    assert str(pure["rules_file"]) == str(tmp_path / "tcgcore_arkham_card" / "rules.py")
    games_c, games_p = compiled["games"], pure["games"]
    assert isinstance(games_c, dict) and isinstance(games_p, dict)
    assert len(games_c) == 3 * 3 * 8 + 8 * 3
    differ = [k for k in games_p if games_c.get(k) != games_p[k]]
    assert not differ, f"compiled and interpreted games differ: {differ[:5]}"
