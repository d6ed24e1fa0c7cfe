"""The mutation-testing driver (``mutation/run.py``, docs/testing.md): its sample of a
target's mutants and the interval its score comes with."""

from __future__ import annotations

import importlib.util
import sys
import tomllib
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _runner() -> ModuleType:
    spec = importlib.util.spec_from_file_location("mutation_run", ROOT / "mutation" / "run.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["mutation_run"] = module
    spec.loader.exec_module(module)
    return module


run = _runner()


def test_wilson_interval_matches_known_values() -> None:
    low, high = run.wilson(19, 20)  # 95 %: about 76.4-99.1 %
    assert round(low, 1) == 76.4 and round(high, 1) == 99.1
    low, high = run.wilson(20, 20)
    assert round(low, 1) == 83.9 and high == 100.0
    low, high = run.wilson(0, 10)
    assert low == 0.0 and round(high, 1) == 27.8


def _session(tmp_path: Path, count: int) -> Path:
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import MutationSpec, WorkerOutcome, WorkItem, WorkResult

    db = tmp_path / "s.sqlite"
    with use_db(str(db), WorkDB.Mode.create) as work_db:
        for i in range(count):
            work_db.add_work_item(WorkItem(job_id=f"job{i}", mutations=[MutationSpec(
                module_path="m.py", operator_name="core/AddNot", occurrence=i,
                start_pos=(i + 1, 0), end_pos=(i + 1, 4))]))
        # one mutant the driver left out before any sample (say, in an annotation)
        work_db.set_result("job0", WorkResult(worker_outcome=WorkerOutcome.SKIPPED,
                                              output="in an annotation"))
    return db


def _to_run(db: Path) -> set[str]:
    from cosmic_ray.work_db import WorkDB, use_db

    with use_db(str(db), WorkDB.Mode.open) as work_db:
        return {item.job_id for item in work_db.pending_work_items}


def test_a_sample_is_fixed_by_its_seed_and_a_larger_one_holds_the_smaller(tmp_path: Path) -> None:
    pytest.importorskip("cosmic_ray")
    db = _session(tmp_path, 40)
    run.sample(db, 10, seed=0)
    ten = _to_run(db)
    assert len(ten) == 10 and "job0" not in ten
    run.sample(db, 10, seed=0)
    assert _to_run(db) == ten
    run.sample(db, 25, seed=0)
    twenty_five = _to_run(db)
    assert len(twenty_five) == 25 and ten < twenty_five
    run.sample(db, 10, seed=1)
    assert _to_run(db) != ten
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import TestOutcome, WorkerOutcome, WorkResult

    ran = sorted(ten)[0]
    with use_db(str(db), WorkDB.Mode.open) as work_db:  # one mutant of the sample has run
        work_db.set_result(ran, WorkResult(worker_outcome=WorkerOutcome.NORMAL,
                                           test_outcome=TestOutcome.KILLED))
    run.sample(db, 1, seed=1)  # a smaller sample of another seed keeps its result
    with use_db(str(db), WorkDB.Mode.open) as work_db:
        assert dict(work_db.results)[ran].test_outcome == TestOutcome.KILLED
    assert ran not in _to_run(db) and len(_to_run(db)) <= 1
    run.sample(db, None, seed=0)  # no sample: every selected mutant, not the one skipped
    assert _to_run(db) == {f"job{i}" for i in range(1, 40)} - {ran}


def test_every_target_names_a_module_functions_and_test_files_that_exist() -> None:
    with open(ROOT / "mutation" / "targets.toml", "rb") as f:
        targets = tomllib.load(f)["target"]
    for name, target in targets.items():
        module = ROOT / target["module"]
        assert module.is_file(), name
        if target.get("functions"):
            run.function_lines(module, target["functions"])  # SystemExit on a missing one
        for test in target["tests"]:
            assert (ROOT / test.split("::")[0]).is_file(), (name, test)


def test_every_equivalent_mutant_names_a_line_its_module_has() -> None:
    """An entry of mutation/equivalent.toml whose line (and line before, ``after``) its module
    no longer has would hide nothing and let the mutant count as a survivor again: moving code
    to another module means moving its entries too."""
    entries = tomllib.loads((ROOT / "mutation" / "equivalent.toml").read_text())["equivalent"]
    stale = []
    for e in entries:
        lines = [line.strip() for line in (ROOT / e["module"]).read_text().splitlines()]
        at = [k for k, line in enumerate(lines) if line == e["line"]]
        if "after" in e:
            at = [k for k in at if k and lines[k - 1] == e["after"]]
        if not at:
            stale.append(f'{e["module"]}: {e["line"]}')
    assert not stale, stale


def test_the_validity_check_agrees_with_compiling_each_mutant_whole() -> None:
    # valid_mutants parses once per operator and compiles only the changed top-level statement;
    # every mutant must count as valid exactly when cosmic-ray's own mutant of the whole module
    # compiles (the keyword-only ``*`` turned into ``+`` does not; one occurrence too many has
    # no mutant at all)
    pytest.importorskip("cosmic_ray")
    import cosmic_ray.plugins
    from cosmic_ray.work_item import MutationSpec

    code = ("from __future__ import annotations\n\nLIMIT = 3\n\n\n"
            "def f(a: int, *, b: int = 2) -> bool:\n"
            "    # a comment\n"
            "    for i in range(a * b):\n"
            "        if i < LIMIT and not b or i >= 2:\n"
            "            continue\n"
            "        a = a + i - 1\n"
            "    return a % 2 == 0 if a is not None else False\n\n\n"
            "class C:\n"
            "    def g(self, *args: int) -> int:\n"
            "        while True:\n"
            "            break\n"
            "        return -len(args) << 1\n")
    names = [n for n in cosmic_ray.plugins.operator_names() if run.OPERATORS.match(n)]
    specs = [MutationSpec(module_path="m.py", operator_name=n, occurrence=k, start_pos=(1, 0),
                          end_pos=(1, 1)) for n in names for k in range(6)]
    fast = run.valid_mutants(code, specs)
    assert fast == [run._compiles(code, m) for m in specs]
    assert any(fast) and not all(fast)
