"""The Ray backend of ``simulate``: the local pool's report, worker faults, Ctrl-C, progress.

Runs on one local Ray cluster of two CPUs for the whole module. Skipped when Ray is not
installed, unless ``TCGCORE_EXPECT_RAY=1`` (CI), which turns the skip into a failure.
"""

from __future__ import annotations

import importlib
import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import tcgcore
from tcgcore import simulate

from .helpers import held_growth

if os.environ.get("TCGCORE_EXPECT_RAY") == "1":
    import ray  # TCGCORE_EXPECT_RAY=1: Ray must be there, a missing one fails here
else:
    ray = pytest.importorskip("ray", reason="the ray extra is not installed "
                              "(pip install -e '.[ray]'; TCGCORE_EXPECT_RAY=1 makes this fail)")


@pytest.fixture(scope="module", autouse=True)
def cluster() -> Iterator[int]:
    """One local cluster of two CPUs for every test of the module."""
    with tcgcore.ray_session(workers=2) as cpus:
        yield cpus


def _processes() -> dict[int, tuple[int, int, str]]:
    """Every process of the machine: pid -> (parent pid, session id, first word of its
    command line, which Ray sets to ``ray::TASK`` while a worker runs a task)."""
    out = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                first = f.read().split(b"\0")[0].decode(errors="replace")
        except OSError:
            continue
        out[int(entry)] = (int(fields[1]), int(fields[3]), first)
    return out


def _descendants(root: int) -> dict[int, str]:
    procs = _processes()
    found: dict[int, str] = {}
    frontier = [root]
    while frontier:
        parent = frontier.pop()
        for pid, (ppid, _sid, cmd) in procs.items():
            if ppid == parent and pid not in found:
                found[pid] = cmd
                frontier.append(pid)
    return found


def test_the_ray_report_is_the_local_pools_field_for_field(cluster: int) -> None:
    """Same seeds, agents and options: the same report, whatever the workers (one chunk at
    a time or two) and the order the chunks finish in; with outcomes, in game order."""
    assert cluster == 2
    local = simulate("sparks", games=90, seed=11, options={"target": 3})
    for workers in (1, 2):
        assert simulate("sparks", games=90, seed=11, options={"target": 3}, backend="ray",
                        workers=workers) == local
    guimi = dict(games=24, seed=5, agents=["heuristic", "random"],
                 options={"decks": ["seer", "hunter"]})
    ours = simulate("guimi_revival", backend="ray", keep_outcomes=True, **guimi)  # type: ignore[arg-type]
    assert ours == simulate("guimi_revival", workers=2, **guimi)  # type: ignore[arg-type]
    assert [o.index for o in ours.outcomes] == list(range(24))
    lean = simulate("guimi_revival", backend="ray", keep_outcomes=False, **guimi)  # type: ignore[arg-type]
    assert lean.outcomes == [] and lean.wins == ours.wins and lean.reasons == ours.reasons


def test_the_command_line_runs_on_ray() -> None:
    import io

    from tcgcore.cli import main

    ours, theirs = io.StringIO(), io.StringIO()
    assert main(["simulate", "sparks", "--games", "30", "--seed", "2", "--json", "--outcomes",
                 "--backend", "ray", "--workers", "2"], out=ours) == 0
    assert main(["simulate", "sparks", "--games", "30", "--seed", "2", "--json", "--outcomes"],
                out=theirs) == 0
    assert ours.getvalue() == theirs.getvalue()


def test_progress_reaches_the_callback_after_every_chunk() -> None:
    seen: list[tuple[int, int]] = []
    simulate("sparks", games=60, seed=1, backend="ray", progress=lambda d, t: seen.append((d, t)))
    assert seen[-1] == (60, 60) and len(seen) > 2
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)

    def stop_here(done: int, total: int) -> None:
        seen.append((done, total))
        raise RuntimeError("stop here")

    seen.clear()
    with pytest.raises(RuntimeError, match="stop here"):  # the run stops, its tasks cancelled
        simulate("sparks", games=2_000, seed=1, backend="ray", progress=stop_here)
    assert len(seen) == 1


def test_a_worker_killed_mid_run_has_its_chunk_re_run() -> None:
    """SIGKILL to a worker process that is playing a chunk: Ray re-runs the chunk, and the
    report still counts every game exactly once."""
    killed: list[int] = []

    def kill_a_busy_worker(done: int, total: int) -> None:
        if killed:
            return
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            busy = [pid for pid, cmd in _descendants(os.getpid()).items()
                    if cmd.startswith("ray::_play_chunk")]
            if busy:
                os.kill(busy[0], signal.SIGKILL)
                killed.append(busy[0])
                return
            time.sleep(0.05)

    options = {"decks": ["marauder", "sailor"]}
    report = simulate("guimi_revival", games=60, seed=3, agents=["heuristic"], options=options,
                      backend="ray", keep_outcomes=True, progress=kill_a_busy_worker)
    assert killed, "no worker was seen playing a chunk"
    assert report == simulate("guimi_revival", games=60, seed=3, agents=["heuristic"],
                              options=options)
    assert [o.index for o in report.outcomes] == list(range(60))


@pytest.fixture
def crashy_plugin(tmp_path: Path) -> Iterator[dict[str, Any]]:
    """An installed plugin (a module and its entry point in a folder on the path, here and,
    through the runtime environment, on the Ray workers): the game ``faulty_sparks``,
    Sparks with an agent ``crashy`` that raises in game 7 of a run from seed 0."""
    from tcgcore._simulate import _agent_seed

    (tmp_path / "tcgcore_faulty_sparks.py").write_text(textwrap.dedent(f"""
        import copy
        import tcgcore
        from tcgcore.examples import sparks

        CRASH_SEED = {_agent_seed(0, 7, 0)}

        class Crashy(tcgcore.RandomAgent):
            def __init__(self, seed):
                super().__init__(seed)
                self.crash = seed == CRASH_SEED

            def decide(self, match, choice):
                if self.crash:
                    raise RuntimeError("the crashy agent breaks on purpose")
                return super().decide(match, choice)

        spec = copy.copy(sparks.spec)
        spec.name = "faulty_sparks"
        spec.agents = {{"crashy": Crashy}}

        @tcgcore.hookimpl
        def tcgcore_games():
            return [spec]
        """))
    dist = tmp_path / "tcgcore_faulty_sparks-0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: tcgcore-faulty-sparks\nVersion: 0\n")
    (dist / "entry_points.txt").write_text("[tcgcore]\nfaulty_sparks = tcgcore_faulty_sparks\n")
    sys.path.insert(0, str(tmp_path))
    importlib.invalidate_caches()
    tcgcore.default_registry(refresh=True)
    try:
        yield {"env_vars": {"PYTHONPATH": str(tmp_path)}}
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("tcgcore_faulty_sparks", None)
        importlib.invalidate_caches()
        tcgcore.default_registry(refresh=True)


def test_a_plugin_error_on_a_worker_names_the_game_and_seed_and_stops_the_run(
        crashy_plugin: dict[str, Any]) -> None:
    with pytest.raises(RuntimeError, match="breaks on purpose"):  # the local pool: as raised
        simulate("faulty_sparks", games=12, agents=["crashy"])
    with pytest.raises(tcgcore.SimulationError) as caught:
        simulate("faulty_sparks", games=40, agents=["crashy"], backend="ray",
                 runtime_env=crashy_plugin)
    err = caught.value
    assert (err.game, err.index, err.seed) == ("faulty_sparks", 7, 7)
    assert "game 7 (match seed 7)" in str(err) and "breaks on purpose" in str(err)
    assert "Traceback" in err.traceback and "in decide" in err.traceback
    # the run stopped cleanly: the cluster plays the next run as usual
    assert simulate("faulty_sparks", games=6, agents=["crashy"], backend="ray",
                    runtime_env=crashy_plugin) == simulate("faulty_sparks", games=6,
                                                           agents=["crashy"])


def _write_plugin(folder: Path, version: str, note: str) -> Path:
    """An installable plugin in ``folder``: the game ``versioned_sparks`` (Sparks under
    another name) of the distribution ``tcgcore-versioned-sparks`` at ``version``, whose
    module carries ``note`` as a comment (other content, same rules)."""
    folder.mkdir()
    (folder / "tcgcore_versioned_sparks.py").write_text(textwrap.dedent(f"""
        # {note}
        import copy
        import tcgcore
        from tcgcore.examples import sparks

        spec = copy.copy(sparks.spec)
        spec.name = "versioned_sparks"

        @tcgcore.hookimpl
        def tcgcore_games():
            return [spec]
        """))
    dist = folder / f"tcgcore_versioned_sparks-{version}.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: tcgcore-versioned-sparks\nVersion: {version}\n")
    (dist / "entry_points.txt").write_text(
        "[tcgcore]\nversioned_sparks = tcgcore_versioned_sparks\n")
    return folder


@pytest.fixture
def versioned_plugin(tmp_path: Path) -> Iterator[Path]:
    """The plugin of :func:`_write_plugin` at version 1.0 installed in this process (the
    driver); yields a folder for the workers' copies."""
    here = _write_plugin(tmp_path / "driver", "1.0", "the driver's copy")
    sys.path.insert(0, str(here))
    importlib.invalidate_caches()
    tcgcore.default_registry(refresh=True)
    try:
        yield tmp_path
    finally:
        sys.path.remove(str(here))
        sys.modules.pop("tcgcore_versioned_sparks", None)
        importlib.invalidate_caches()
        tcgcore.default_registry(refresh=True)


@pytest.mark.parametrize(("version", "note", "package"), [
    ("1.1", "the driver's copy", "tcgcore-versioned-sparks"),  # another plugin version
    ("1.0", "an edited copy", "versioned_sparks content"),  # same version, other content
])
def test_a_worker_with_other_packages_refuses_the_run(
        versioned_plugin: Path, version: str, note: str, package: str) -> None:
    """A worker whose plugin version or game content is not the driver's refuses the run
    with a typed error naming the package and both versions, before it plays a game."""
    there = _write_plugin(versioned_plugin / "worker", version, note)
    on_workers = {"env_vars": {"PYTHONPATH": str(there)}}
    with pytest.raises(tcgcore.WorkerMismatchError) as caught:
        simulate("versioned_sparks", games=8, backend="ray", runtime_env=on_workers)
    err = caught.value
    driver = tcgcore.default_registry().plugin_versions("versioned_sparks")
    assert (err.game, err.package) == ("versioned_sparks", package)
    if package == "tcgcore-versioned-sparks":
        assert (err.driver, err.worker) == ("1.0", "1.1") == (driver[package], version)
        assert "tcgcore-versioned-sparks 1.1, this process 1.0" in str(err)
    else:
        assert err.driver != err.worker and len(err.worker) == 32
    assert isinstance(err, tcgcore.BackendError)
    # the same copy on the workers as here: the run plays, as on the local pool
    same = _write_plugin(versioned_plugin / "same", "1.0", "the driver's copy")
    assert simulate("versioned_sparks", games=8, backend="ray",
                    runtime_env={"env_vars": {"PYTHONPATH": str(same)}}) == simulate(
        "versioned_sparks", games=8)


def test_a_worker_without_the_game_names_the_missing_plugin() -> None:
    from tcgcore._ray_backend import first_mismatch
    from tcgcore._simulate import _fingerprint

    driver = _fingerprint("guimi_revival", tcgcore.default_registry())
    worker = _fingerprint("no_such_game", tcgcore.default_registry())
    assert worker == {"tcgcore": driver["tcgcore"]}
    assert first_mismatch(driver, worker) == ("tcgcore-guimi-revival",
                                              driver["tcgcore-guimi-revival"], "missing")
    assert first_mismatch(driver, dict(driver)) is None


def test_ray_arguments_are_checked_before_anything_runs() -> None:
    with pytest.raises(tcgcore.OptionsError, match="backend must be"):
        simulate("sparks", games=2, backend="spark")
    with pytest.raises(tcgcore.OptionsError, match="belong to backend='ray'"):
        simulate("sparks", games=2, address="auto")
    local = tcgcore.load_registry(load_entrypoints=False)
    with pytest.raises(tcgcore.OptionsError, match="does not reach Ray workers"):
        simulate("sparks", games=2, backend="ray", registry=local)
    with pytest.raises(tcgcore.OptionsError, match="unknown agent"):
        simulate("sparks", games=2, backend="ray", agents=["genius"])


def test_the_balance_lab_runs_its_matchups_on_ray() -> None:
    from tcgcore_guimi_revival.balance import run_pair

    on_ray = run_pair("seer", "assassin", 8, workers=2, backend="ray")
    assert on_ray == run_pair("seer", "assassin", 8, workers=1)
    assert on_ray["games"] == 8 and len(on_ray["turns"]) == 8


def test_tcgcore_balance_on_ray_is_the_local_report() -> None:
    # card usage and every game's record travel back from the Ray chunks unchanged
    on_ray = tcgcore.balance("sparks", games=6, seed=4, workers=2, backend="ray", min_sample=2)
    local = tcgcore.balance("sparks", games=6, seed=4, min_sample=2)
    assert on_ray == local and on_ray.cards


def test_ctrl_c_stops_the_run_and_leaves_no_ray_process(tmp_path: Path) -> None:
    """Ctrl-C at the terminal (SIGINT to the command's process group) during a run on a
    local cluster the command started: it exits with 130, and no process of its session
    (Ray's head processes, raylet, workers) is left."""
    env = dict(os.environ)
    env.pop("RAY_ADDRESS", None)
    cmd = [sys.executable, "-m", "tcgcore.cli", "simulate", "guimi_revival", "--games", "100000",
           "--agents", "heuristic", "--backend", "ray", "--workers", "1", "-q"]
    # a test run started in the background of a shell inherits SIGINT ignored, and so would
    # the command; a terminal's Ctrl-C reaches a command that has its default handler
    proc = subprocess.Popen(cmd, env=env, cwd=tmp_path, start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        deadline = time.monotonic() + 120
        while not any(cmd.startswith("ray::_play_chunk")
                      for cmd in _descendants(proc.pid).values()):
            assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
            assert time.monotonic() < deadline, "the run did not start"
            time.sleep(0.2)
        os.killpg(proc.pid, signal.SIGINT)
        # a loaded two-core machine can take a while to stop a local cluster
        _out, err = proc.communicate(timeout=180)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()  # reaps it and closes its stderr pipe
    assert proc.returncode == 130, err.decode(errors="replace")[-2000:]
    deadline = time.monotonic() + 20
    while True:
        left = {pid: cmd for pid, (_p, sid, cmd) in _processes().items() if sid == proc.pid}
        if not left or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert left == {}


def test_the_driver_holds_no_more_with_more_games_when_outcomes_are_not_kept() -> None:
    """Chunk reports are folded in as they arrive and dropped, and only a bounded number of
    tasks is out at a time: what this process holds at the end of a run does not grow
    with its games."""
    growth = held_growth(backend="ray")
    # keeping 900 more outcomes would hold about 400 KiB more
    assert growth < 100 * 1024, growth
