"""Mutation testing of the engine core and the plugins' rules modules with cosmic-ray.

Usage, from the repository root, in a virtualenv with the ``mutation`` extra installed
(``pip install -e ".[mutation]"``)::

    nice -n 15 .venv/bin/python mutation/run.py [TARGET ...] [--list] [--rerun-survivors]
                                                [--sample N [--sample-seed S]] [--report]

Each target of ``mutation/targets.toml`` names one module, the test files that cover it and,
optionally, the functions to mutate (a qualified name such as ``Engine.run``; none: the
whole module). Without targets every one runs, in the file's order.

For each target the script:

1. copies the working tree (the files git tracks or would track) to ``mutation/work/tree``
   and runs everything there, so a stopped run can never leave a mutant in your sources;
   ``PYTHONPATH`` puts the copy's packages before the editable installs;
2. makes a cosmic-ray session (``mutation/work/<target>.sqlite``), or keeps the one made for
   the same module text, operators and functions: a stopped run continues where it stopped;
3. skips the mutants of operators outside ``OPERATORS``, of lines outside the functions, of
   annotations and those that are not valid Python;
4. runs the selected tests once unmutated (they must pass; the time sets the timeout), then
   ``cosmic-ray exec``: one mutant at a time, each against those tests (``pytest -x``);
5. prints the score: killed / (killed + surviving - equivalent), the equivalent mutants
   being those listed in ``mutation/equivalent.toml`` (matched by module, operator and the
   text of the mutated line, and of the line before it where ``after`` gives it), and
   writes every other survivor with its diff to ``mutation/work/<target>.survivors.txt``.

``--sample N`` runs only N of a target's selected mutants, drawn in a fixed pseudo-random order
(by a hash of ``--sample-seed``, default 0, and each mutant's operator, place and occurrence,
so the same N always picks the same mutants and a larger N keeps the smaller sample and adds
to it; a mutant that has run is never dropped again); the score of a sample comes with its
Wilson 95 % interval. Give ``--rerun-survivors`` the same ``--sample``: without one, every
mutant of the target runs. A whole module of a
plugin's rules has thousands of mutants, which a sample of a hundred or so estimates within a
few points in a few minutes of CPU.

``--rerun-survivors`` runs the survivors again (after new tests); ``--report`` only prints
the scores of the sessions there are. Exit status 0 unless a baseline fails.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import math
import os
import re
import resource
import shutil
import sqlite3
import subprocess
import sys
import time
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / "mutation" / "work"
TREE = WORK / "tree"
COSMIC_RAY = str(Path(sys.executable).parent / "cosmic-ray")
PACKAGES = ["src", "plugins/guimi_revival/src", "plugins/arkham_card/src"]

#: The operators that stand for the small bugs people write: a boundary moved by one
#: (``<`` / ``<=``), a comparison or arithmetic sign flipped, a condition negated or dropped,
#: ``and`` / ``or`` swapped, a constant off by one, a loop that never runs, ``break`` /
#: ``continue`` swapped. The rest of cosmic-ray's operators (every binary operator into
#: every other, variable replacement, exception replacement, decorator removal) make many
#: more mutants that are mostly killed by any test at all, or are not Python anyone writes.
OPERATORS = re.compile(
    r"core/(ReplaceComparisonOperator_(Lt_LtE|LtE_Lt|Gt_GtE|GtE_Gt|Eq_NotEq|NotEq_Eq|Is_IsNot"
    r"|IsNot_Is|Lt_Gt|Gt_Lt|LtE_GtE|GtE_LtE)"
    r"|ReplaceBinaryOperator_(Add_Sub|Sub_Add|Mul_Add|FloorDiv_Mul|Mod_FloorDiv|BitOr_BitAnd"
    r"|BitAnd_BitOr|LShift_RShift)"
    r"|ReplaceUnaryOperator_(USub_UAdd|Delete_Not)|AddNot|ReplaceTrueWithFalse"
    r"|ReplaceFalseWithTrue|ReplaceAndWithOr|ReplaceOrWithAnd|ReplaceBreakWithContinue"
    r"|ReplaceContinueWithBreak|NumberReplacer|ZeroIterationForLoop)$")


def load_targets() -> dict[str, dict[str, Any]]:
    with open(ROOT / "mutation" / "targets.toml", "rb") as f:
        return dict(tomllib.load(f)["target"])


def load_equivalent() -> list[dict[str, str]]:
    with open(ROOT / "mutation" / "equivalent.toml", "rb") as f:
        return list(tomllib.load(f).get("equivalent", []))


def snapshot() -> None:
    """Copy the working tree's files (tracked and untracked-but-not-ignored) into TREE."""
    names = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                           cwd=ROOT, check=True, capture_output=True).stdout.decode().split("\0")
    for name in filter(None, names):
        src = ROOT / name
        if name.startswith("mutation/work/") or not src.is_file():
            continue
        dst = TREE / name
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, dst)
    # compiled with source hashes: an unchanged module loads from its .pyc, a mutated one is
    # always compiled afresh (a timestamp check could miss a change within one second)
    subprocess.run([sys.executable, "-m", "compileall", "-q", "--invalidation-mode",
                    "checked-hash", *PACKAGES, "tests", "plugins"], cwd=TREE, check=True)


def environment() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(str(TREE / p) for p in PACKAGES)
    return env


def function_lines(module: Path, functions: list[str]) -> set[int]:
    """Line numbers of the named functions (``name`` or ``Class.name``) of a module."""
    tree = ast.parse(module.read_text())
    found: dict[str, range] = {}

    def walk(body: list[ast.stmt], prefix: str) -> None:
        for node in body:
            if isinstance(node, ast.ClassDef):
                walk(node.body, f"{prefix}{node.name}.")
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                found[prefix + node.name] = range(node.lineno, (node.end_lineno or node.lineno) + 1)

    walk(tree.body, "")
    missing = [f for f in functions if f not in found]
    if missing:
        raise SystemExit(f"{module}: no function {', '.join(missing)}")
    return {line for f in functions for line in found[f]}


def test_command(tests: list[str]) -> str:
    # without hypothesis's pytest plugin, whose start-up costs more CPU than the selected tests
    # (@given tests run the same without it)
    return (f"{sys.executable} -m pytest -x -q -p no:cacheprovider -p no:hypothesispytest "
            f"--no-header {' '.join(tests)}")


def write_config(name: str, target: dict[str, Any], timeout: float) -> Path:
    cfg = WORK / f"{name}.toml"
    cfg.write_text(
        "[cosmic-ray]\n"
        f'module-path = "{TREE / target["module"]}"\n'
        f"timeout = {timeout:.1f}\n"
        "excluded-modules = []\n"
        f'test-command = "{test_command(target["tests"])}"\n'
        "\n[cosmic-ray.distributor]\nname = \"local\"\n")
    return cfg


def session_key(target: dict[str, Any]) -> str:
    text = (TREE / target["module"]).read_bytes()
    extra = repr((OPERATORS.pattern, target.get("functions"))).encode()
    return hashlib.sha256(text + extra).hexdigest()


def prepare_session(name: str, target: dict[str, Any], cfg: Path) -> Path:
    """A session for the target's module as it is now; unselected mutants marked skipped."""
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import WorkerOutcome, WorkResult

    db = WORK / f"{name}.sqlite"
    keyfile = WORK / f"{name}.key"
    key = session_key(target)
    if db.exists() and keyfile.exists() and keyfile.read_text() == key:
        return db
    subprocess.run([COSMIC_RAY, "init", str(cfg), str(db), "--force"], check=True,
                   env=environment(), cwd=TREE)
    functions = target.get("functions")
    lines = function_lines(TREE / target["module"], functions) if functions else None
    code = (TREE / target["module"]).read_text()
    with use_db(str(db), WorkDB.Mode.open) as work_db:
        items = list(work_db.pending_work_items)
        skip = [item.job_id for item in items
                if not all(OPERATORS.match(m.operator_name)
                           and (lines is None or m.start_pos[0] in lines)
                           for m in item.mutations)]
        work_db.set_multiple_results(skip, WorkResult(worker_outcome=WorkerOutcome.SKIPPED,
                                                      output="not selected"))
        chosen = set(skip)
        typed = annotation_spans(code)
        notes = [item.job_id for item in items if item.job_id not in chosen
                 and in_annotation(typed, item.mutations[0].start_pos)]
        work_db.set_multiple_results(notes, WorkResult(worker_outcome=WorkerOutcome.SKIPPED,
                                                       output="in an annotation"))
        chosen.update(notes)
        rest = [item for item in items if item.job_id not in chosen]
        valid = valid_mutants(code, [item.mutations[0] for item in rest])
        invalid = [item.job_id for item, ok in zip(rest, valid, strict=True) if not ok]
        work_db.set_multiple_results(invalid, WorkResult(worker_outcome=WorkerOutcome.SKIPPED,
                                                         output="not valid Python"))
    keyfile.write_text(key)
    return db


def annotation_spans(code: str) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """Where the annotations are (parameters, return types, annotated names), as
    ``((line, column), (end line, end column))``. With ``from __future__ import annotations``
    they are strings no rule evaluates; mutating them tests the type checker, not the tests."""
    spans = []
    for node in ast.walk(ast.parse(code)):
        notes: list[ast.expr | None] = []
        if isinstance(node, ast.arg):
            notes.append(node.annotation)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            notes.append(node.returns)
        elif isinstance(node, ast.AnnAssign):
            notes.append(node.annotation)
        for note in notes:
            if note is not None and note.end_lineno is not None and note.end_col_offset is not None:
                spans.append(((note.lineno, note.col_offset), (note.end_lineno, note.end_col_offset)))
    return spans


def in_annotation(spans: list[tuple[tuple[int, int], tuple[int, int]]],
                  pos: tuple[int, int]) -> bool:
    return any(a <= tuple(pos) < b for a, b in spans)


def valid_mutants(code: str, mutations: list[Any]) -> list[bool]:
    """For each mutation, whether its mutant is Python at all (cosmic-ray turns the ``*`` that
    starts keyword-only parameters into ``+``, for one): a mutant that cannot compile is no test
    of the tests. The same answer as ``_compiles`` for each, at a fraction of the cost: the
    module is parsed once per operator rather than once per mutant, each mutation is applied
    to that tree and undone, and only the top-level statement it changed is printed again and
    compiled (after the module's ``from __future__`` imports, whose flags it compiles under);
    a statement's syntax does not depend on the module's other statements."""
    import cosmic_ray.plugins
    import parso
    import parso.tree

    answers = [False] * len(mutations)
    groups: dict[tuple[str, str], list[int]] = {}
    for i, m in enumerate(mutations):
        groups.setdefault((m.operator_name, repr(sorted(m.operator_args.items()))), []).append(i)
    for indices in groups.values():
        first = mutations[indices[0]]
        operator = cosmic_ray.plugins.get_operator(first.operator_name)(**first.operator_args)
        module = parso.parse(code)
        # a statement compiled alone is compiled under the module's own future imports
        future = "".join(c.get_code() for c in module.children
                         if c.type == "import_from" and c.children[1].get_code().strip()
                         == "__future__")
        if module.get_code() != code:  # parso prints back what it parsed; if not, the slow way
            for i in indices:
                answers[i] = _compiles(code, mutations[i])
            continue
        # the places in the order cosmic-ray's MutationVisitor counts them: a pre-order walk
        points: list[tuple[Any, int]] = []
        stack: list[Any] = [module]
        while stack:
            node = stack.pop()
            points.extend((node, index) for index, _ in enumerate(operator.mutation_positions(node)))
            if isinstance(node, parso.tree.BaseNode):
                stack.extend(reversed(node.children))
        for i in indices:
            occurrence = mutations[i].occurrence
            if occurrence >= len(points):
                continue  # no such mutant: cosmic-ray's mutate_code gives None
            node, index = points[occurrence]
            top = node
            while top.parent is not None and top.parent is not module:
                top = top.parent
            saved = [(n, list(n.children)) if isinstance(n, parso.tree.BaseNode) else (n, n.value)
                     for n in _subtree(node)]
            parent = node.parent
            slot = next(k for k, c in enumerate(parent.children) if c is node) if parent else -1
            mutant = operator.mutate(node, index)
            if mutant is not node and parent is not None:
                if mutant is None:
                    del parent.children[slot]
                else:
                    parent.children[slot] = mutant
            try:
                if top is module or (top is node and parent is None):
                    text = (mutant or module).get_code()
                else:
                    text = future + top.get_code()
            finally:
                if mutant is not node and parent is not None:
                    if mutant is None:
                        parent.children.insert(slot, node)
                    else:
                        parent.children[slot] = node
                for n, value in saved:
                    if isinstance(n, parso.tree.BaseNode):
                        n.children = value
                    else:
                        n.value = value
            try:
                compile(text, "<mutant>", "exec")
            except SyntaxError:
                continue
            answers[i] = True
    return answers


def _subtree(node: Any) -> list[Any]:
    import parso.tree

    found = [node]
    for n in found:
        if isinstance(n, parso.tree.BaseNode):
            found.extend(n.children)
    return found


def _compiles(code: str, mutation: Any) -> bool:
    """Whether one mutant is Python at all, the plain way: cosmic-ray applies the mutation to
    a fresh parse of the whole module. The reference ``valid_mutants`` is tested against."""
    import cosmic_ray.plugins
    from cosmic_ray.mutating import mutate_code

    operator = cosmic_ray.plugins.get_operator(mutation.operator_name)(**mutation.operator_args)
    mutated = mutate_code(code, operator, mutation.occurrence)
    if mutated is None:
        return False
    try:
        compile(mutated, "<mutant>", "exec")
    except SyntaxError:
        return False
    return True


def baseline(target: dict[str, Any]) -> float:
    env = environment()
    probe = subprocess.run([sys.executable, "-c", "import tcgcore, tcgcore_arkham_card, "
                            "tcgcore_guimi_revival as g; print(tcgcore.__file__, g.__file__)"],
                           cwd=TREE, env=env, check=True, capture_output=True, text=True).stdout
    if str(TREE) not in probe or probe.count(str(TREE)) != 2:
        raise SystemExit(f"the copy does not shadow the installed packages: {probe}")
    start = time.perf_counter()
    run = subprocess.run(test_command(target["tests"]).split(), cwd=TREE, env=env,
                         capture_output=True, text=True)
    took = time.perf_counter() - start
    if run.returncode != 0:
        print(run.stdout[-3000:], file=sys.stderr)
        raise SystemExit(f"{target['module']}: the selected tests fail without a mutant")
    return took


OUTSIDE_SAMPLE = "outside the sample"


def sample(db: Path, size: int | None, seed: int) -> None:
    """Keep ``size`` of the session's selected mutants to run (``None``: every one); the rest
    not yet run are marked skipped as outside the sample (a mutant that has run keeps its
    result, so a smaller sample or another seed afterwards only adds). The order is a hash
    of ``seed`` and each mutant's operator, position and occurrence (cosmic-ray's job ids are
    new on every init), so a sample is the same on every run and a larger one holds every
    smaller one."""
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import WorkerOutcome, WorkResult

    con = sqlite3.connect(db)
    with con:  # what an earlier, smaller sample left out is back in the pool
        con.execute("DELETE FROM work_results WHERE output = ?", (OUTSIDE_SAMPLE,))
    con.close()
    with use_db(str(db), WorkDB.Mode.open) as work_db:
        done = dict(work_db.results)
        items = [i for i in work_db.work_items if i.job_id not in done
                 or done[i.job_id].worker_outcome != WorkerOutcome.SKIPPED]
        if size is None or size >= len(items):
            return

        def rank(item: Any) -> str:
            m = item.mutations[0]
            key = f"{seed}|{m.operator_name}|{m.start_pos[0]}:{m.start_pos[1]}|{m.occurrence}"
            return hashlib.sha256(key.encode()).hexdigest()

        # a mutant that has run keeps its result (a smaller sample or another seed later
        # leaves it counted); only mutants not yet run are left out
        left_out = [i.job_id for i in sorted(items, key=rank)[size:] if i.job_id not in done]
        work_db.set_multiple_results(left_out, WorkResult(worker_outcome=WorkerOutcome.SKIPPED,
                                                          output=OUTSIDE_SAMPLE))


def wilson(killed: int, n: int) -> tuple[float, float]:
    """The Wilson score interval (95 %) of a proportion ``killed / n``, in percent."""
    z = 1.959964
    p = killed / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return 100 * max(0.0, centre - half), 100 * min(1.0, centre + half)


def rerun_survivors(db: Path, target: dict[str, Any]) -> None:
    """Forget the results of the surviving mutants outside annotations, so exec runs them again."""
    typed = annotation_spans((TREE / target["module"]).read_text())
    con = sqlite3.connect(db)
    with con:
        rows = con.execute(
            "SELECT r.job_id, m.start_pos_row, m.start_pos_col FROM work_results r JOIN "
            "mutation_specs m ON m.job_id = r.job_id WHERE r.test_outcome IN ('SURVIVED', "
            "'survived')").fetchall()
        again = [(job,) for job, row, col in rows if not in_annotation(typed, (row, col))]
        con.executemany("DELETE FROM work_results WHERE job_id = ?", again)
    con.close()


def report(name: str, target: dict[str, Any]) -> str:
    """Count the session's outcomes; write the survivors that are not listed as equivalent."""
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import TestOutcome, WorkerOutcome

    db = WORK / f"{name}.sqlite"
    if not db.exists():
        return f"| {name} | not run | | | | |"
    code = (ROOT / target["module"]).read_text()
    source = code.splitlines()
    typed = annotation_spans(code)
    equivalent = [e for e in load_equivalent() if e["module"] == target["module"]]
    killed = survived = equiv = pending = outside = 0
    lines: list[str] = []
    with use_db(str(db), WorkDB.Mode.open) as work_db:
        results = dict(work_db.results)
        for item in work_db.work_items:
            result = results.get(item.job_id)
            if result is None:
                pending += 1
                continue
            if result.output == OUTSIDE_SAMPLE:
                outside += 1
                continue
            if result.worker_outcome == WorkerOutcome.SKIPPED or in_annotation(
                    typed, item.mutations[0].start_pos):
                continue
            if result.test_outcome != TestOutcome.SURVIVED:
                killed += 1  # a failing test, a timeout or a mutant that cannot even import
                continue
            m = item.mutations[0]
            text = source[m.start_pos[0] - 1].strip()
            before = source[m.start_pos[0] - 2].strip() if m.start_pos[0] > 1 else ""
            if any(e["operator"] == m.operator_name and e["line"] == text
                   and e.get("after", before) == before for e in equivalent):
                equiv += 1
                continue
            survived += 1
            lines.append(f"{target['module']}:{m.start_pos[0]} {m.operator_name} "
                         f"(occurrence {m.occurrence})\n    {text}\n{result.diff or ''}\n")
    (WORK / f"{name}.survivors.txt").write_text("\n".join(lines))
    live = killed + survived
    score = f"{100 * killed / live:.1f} %" if live else "-"
    note = f" ({pending} not run yet)" if pending else ""
    if outside and live:
        low, high = wilson(killed, live)
        note += (f" (a sample of {killed + survived + equiv + pending} of "
                 f"{killed + survived + equiv + pending + outside}; 95 % interval "
                 f"{low:.0f}-{high:.0f} %)")
    return f"| {name} | {killed + survived + equiv} | {killed} | {equiv} | {survived} | {score}{note} |"


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("targets", nargs="*", help="targets of mutation/targets.toml (default: all)")
    parser.add_argument("--list", action="store_true", help="list the targets and stop")
    parser.add_argument("--rerun-survivors", action="store_true",
                        help="run the surviving mutants again (after new tests)")
    parser.add_argument("--sample", type=_positive, metavar="N",
                        help="run only N of each target's mutants, in a fixed pseudo-random "
                             "order (a larger N keeps the smaller sample)")
    parser.add_argument("--sample-seed", type=int, default=0, metavar="S",
                        help="the seed of the sample's order (default 0)")
    parser.add_argument("--report", action="store_true", help="only print the scores")
    args = parser.parse_args(argv)
    targets = load_targets()
    names = args.targets or list(targets)
    unknown = [n for n in names if n not in targets]
    if unknown:
        parser.error(f"unknown target {', '.join(unknown)} (known: {', '.join(targets)})")
    if args.list:
        for n in names:
            print(f"{n}: {targets[n]['module']} <- {' '.join(targets[n]['tests'])}")
        return 0
    WORK.mkdir(parents=True, exist_ok=True)
    rows = []
    if not args.report:
        snapshot()
    for n in names:
        target = targets[n]
        if not args.report:
            took = baseline(target)
            cfg = write_config(n, target, timeout=max(15.0, 4 * took))
            db = prepare_session(n, target, cfg)
            sample(db, args.sample, args.sample_seed)
            if args.rerun_survivors:
                rerun_survivors(db, target)
            before = _children_cpu()
            subprocess.run([COSMIC_RAY, "exec", str(cfg), str(db)], check=True,
                           env=environment(), cwd=TREE)
            print(f"{n}: {_children_cpu() - before:.0f} s of CPU", file=sys.stderr)
        rows.append(report(n, target))
    print("| target | mutants | killed | equivalent | surviving | score |")
    print("| --- | --- | --- | --- | --- | --- |")
    print("\n".join(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
