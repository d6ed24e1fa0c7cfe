"""benchmarks/run.py's command line: argument and file checks up front, rendering, output.

No test here measures anything: the measuring function is replaced by a stub (or must not
be reached), and rendering works on small hand-written result files.
"""

from __future__ import annotations

import copy
import gc
import importlib.util
import json
import os
import re
import time
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import tcgcore

RUN_PY = Path(__file__).resolve().parent.parent / "benchmarks" / "run.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("tcgcore_benchmarks_run", RUN_PY)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


run = _load()
#: the real measuring function (the fixture below replaces it in every test)
_bench_config = run.bench_config


@pytest.fixture(autouse=True)
def _no_measuring(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail any test that would start a real measurement."""
    def forbidden(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a measurement started")

    monkeypatch.setattr(run, "bench_config", forbidden)


def _config() -> dict[str, Any]:
    """One configuration's figures, in the shape a current run writes."""
    spread = {"median": 20_500.0, "min": 19_000.0, "max": 21_000.0}
    return {
        "random_playout": {"decisions_per_cpu_s": spread, "games_per_cpu_s": spread,
                           "decisions_per_s": spread, "games_per_s": spread,
                           "others_and_steal_cores": {"median": 0.1, "min": 0.0, "max": 0.2}},
        "random_playout_keeping_events": {
            "decisions_per_cpu_s": {"median": 19_400.0, "min": 18_000.0, "max": 20_000.0},
            "games_per_cpu_s": spread, "decisions_per_s": spread, "games_per_s": spread},
        "keeping_events_cost": 0.057,
        "midgame_cards": 80, "midgame_decision": 40, "clone_us": 30.0,
        "encode_msgpack_us": 10.0, "decode_msgpack_us": 40.0, "encode_json_us": 20.0,
        "decode_json_us": 60.0, "size_msgpack_bytes": 5000, "size_json_bytes": 9000,
        "save_to_bytes_us": 12.5, "load_from_bytes_us": 145.0, "save_bytes": 5600,
        "view_us": 8.0, "replay_decisions_per_s": 15_000.0, "replay_decisions_per_cpu_s": 16_000.0,
        "deepcopy_us": 12_345.0, "pickle_roundtrip_us": 2_345.0, "clone_speedup_vs_deepcopy": 41.0,
        "micro_rounds": {
            name: {"best": best, "median": best * 1.1, "worst": best * 2.0, "rounds": 9}
            for name, best in (("clone_us", 30.0), ("encode_msgpack_us", 10.0),
                               ("decode_msgpack_us", 40.0), ("encode_json_us", 20.0),
                               ("decode_json_us", 60.0), ("save_to_bytes_us", 12.5),
                               ("load_from_bytes_us", 145.0), ("view_us", 8.0),
                               ("deepcopy_us", 12_345.0), ("pickle_roundtrip_us", 2_345.0))},
        "flatness_pooled": {
            "games_played": 40, "games_pooled": 10, "min_decisions_pooled": 100, "longest": 300,
            "decisions_pooled": 2000, "first_tenth_us": 50.0, "last_tenth_us": 60.0,
            "final_decision_us": 300.0, "raw_first_over_last": 0.83,
            "mix_adjusted_first_over_last": 0.85, "mix_adjusted_interval_90": [0.712, 0.798],
            "kinds_compared": ["a", "b", "c"], "kinds_compared_share": 0.997,
            "events_per_decision_first_last": [3.0, 4.0], "per_event_first_over_last": 0.95},
        "one_match_peak_kib": 1234.0,
        "logging_off": {"paired": {"median": 0.005, "q1": -0.01, "q3": 0.0197, "n": 30},
                        "games_per_round": 3, "decisions": 1000, "check_ns_per_decision": 30.0,
                        "direct_estimate": 0.0006},
        "logging_off_overhead": 0.005,
        "simulate": {"games": 100, "repeats": 3, "workers_1_games_per_s": 50.0,
                     "workers_2_games_per_s": 89.8, "speedup_2_over_1": 1.796,
                     "speedups": [1.7, 1.796, 1.9], "cpu_work_2_over_1": 1.01,
                     "others_and_steal_cores_during_2_workers": [0.01, 0.02, 0.03],
                     "others_and_steal_cores_during_1_worker": [0.01, 0.02, 0.03],
                     "load_during_2_workers": [1.0, 1.1, 1.2], "idle_enough": True},
        "simulation_memory": {"games": 1000, "peak_rss_kib_after_tenth": 60_000,
                              "peak_rss_kib_after_all": 60_512, "growth_ratio": 1.0085,
                              "rss_growth_kib": 512},
    }


def _results() -> dict[str, Any]:
    return {
        "when": "2026-11-30 12:00 UTC", "quick": True, "label": "test",
        "machine": {"platform": "Linux", "python": "3.11.7", "cpus": 2}, "load": 1.0,
        "configs": {"guimi_revival": _config()},
        "peers": {"openspiel": {"leduc_poker": {"decisions_per_s": 200_000.0}},
                  "rlcard": {"skipped": "not installed"}},
    }


def _old_results() -> dict[str, Any]:
    """A result file from before the CPU-time figures: wall clock only."""
    data = _results()
    cfg = data["configs"]["guimi_revival"]
    rp = cfg["random_playout"]
    for key in ("decisions_per_cpu_s", "games_per_cpu_s", "others_and_steal_cores"):
        del rp[key]
    for key in ("replay_decisions_per_cpu_s", "save_to_bytes_us", "load_from_bytes_us",
                "save_bytes", "flatness_pooled", "logging_off", "micro_rounds"):
        del cfg[key]
    return data


def _write(path: Path, data: Any) -> str:
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return str(path)


def _exit(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """Run main(argv), expecting SystemExit: (exit code, stderr)."""
    with pytest.raises(SystemExit) as info:
        run.main(argv)
    code = info.value.code
    assert isinstance(code, int)
    return code, capsys.readouterr().err


def _outputs(tmp_path: Path) -> list[str]:
    return ["--out", str(tmp_path / "r.json"), "--markdown", str(tmp_path / "r.md"),
            "--notes", ""]


def _error_line(err: str) -> str:
    """The one error line argparse prints (after the usage lines)."""
    lines = [line for line in err.splitlines() if "error:" in line]
    assert len(lines) == 1, err
    return lines[0]


# ---- 1. configuration labels

@pytest.mark.parametrize("label", ["nosuch", "arkham_card", "arkham_card solo x"])
def test_unknown_configuration_is_refused_before_measuring(
        label: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, err = _exit(["--configs", "sparks", label, *_outputs(tmp_path)], capsys)
    line = _error_line(err)
    assert code == 2
    assert repr(label) in line and "'arkham_card solo'" in line and "'sparks'" in line
    assert not (tmp_path / "r.json").exists()


def test_empty_configs_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, err = _exit(["--configs", *_outputs(tmp_path)], capsys)
    assert code == 2 and "at least one" in _error_line(err)


# ---- 2. sizes

@pytest.mark.parametrize("flag", ["--repeats", "--sim-repeats", "--log-rounds", "--mem-games",
                                  "--flat-games"])
@pytest.mark.parametrize("value", ["0", "-3", "two"])
def test_counts_must_be_at_least_one(flag: str, value: str, tmp_path: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    code, err = _exit([flag, value, *_outputs(tmp_path)], capsys)
    line = _error_line(err)
    assert code == 2 and flag in line and value in line


@pytest.mark.parametrize("flag", ["--seconds", "--sim-seconds", "--flat-seconds",
                                  "--log-round-seconds", "--mem-seconds"])
@pytest.mark.parametrize("value", ["0", "-1.5", "nan", "inf", "soon"])
def test_seconds_must_be_positive(flag: str, value: str, tmp_path: Path,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    code, err = _exit([flag, value, *_outputs(tmp_path)], capsys)
    line = _error_line(err)
    assert code == 2 and flag in line and "> 0" in line


# ---- 3. the baseline, read before measuring

@pytest.mark.parametrize(("content", "says"), [
    (None, "cannot read"),
    ("{not json", "not valid JSON"),
    ([1, 2], "found a list"),
    ({}, '"configs"'),
    ({"configs": []}, '"configs"'),
    ({"configs": {"sparks": 5}}, "configs['sparks'] is not an object (found int)"),
    ({"configs": {"sparks": {}, "guimi_revival": [1]}}, "configs['guimi_revival']"),
])
def test_bad_baseline_is_refused_before_measuring(
        content: Any, says: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "base.json"
    if content is not None:
        _write(path, content)
    code, err = _exit(["--configs", "sparks", "--baseline", str(path), *_outputs(tmp_path)],
                      capsys)
    line = _error_line(err)
    assert code == 2 and "--baseline" in line and says in line


def test_a_malformed_baseline_is_named_with_render_only_too(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _write(tmp_path / "r.json", _results())
    base = _write(tmp_path / "base.json", {"configs": {"guimi_revival": 5}})
    code, err = _exit(["--render-only", *_outputs(tmp_path), "--baseline", base], capsys)
    line = _error_line(err)
    assert code == 2 and f"--baseline {base}" in line and "--out" not in line
    assert not (tmp_path / "r.md").exists()


def test_odd_figures_in_a_baseline_are_left_out_of_the_comparison(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    old = _results()
    old.update(label=7, when=["not", "a", "date"])
    cfg = old["configs"]["guimi_revival"]
    cfg.update(clone_us="fast", view_us=10 ** 400, decode_msgpack_us=True)
    cfg["random_playout"] = 5
    base = _write(tmp_path / "base.json", old)
    text, _ = _render(_results(), tmp_path, capsys, "--baseline", base)
    rows = [line for line in text[text.index("## Before and after"):].splitlines()
            if line.startswith("| guimi_revival |")]
    assert any("encode msgpack µs" in row for row in rows)      # good figures still compared
    for name in ("| clone µs |", "| view µs |", "decode msgpack", "no event history"):
        assert not any(name in row for row in rows), name


def test_a_baseline_that_cannot_be_rendered_is_the_file_named(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    def broken(results: dict[str, Any], baseline: dict[str, Any]) -> list[str]:
        raise TypeError("odd baseline")

    monkeypatch.setattr(run, "_comparison", broken)
    _write(tmp_path / "r.json", _results())
    base = _write(tmp_path / "base.json", _old_results())
    code, err = _exit(["--render-only", *_outputs(tmp_path), "--baseline", base], capsys)
    line = _error_line(err)
    assert code == 2 and f"--baseline {base}" in line and "odd baseline" in line
    assert "--out" not in line


def test_a_bad_baseline_after_measuring_leaves_only_the_comparison_out(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    def broken(results: dict[str, Any], baseline: dict[str, Any]) -> list[str]:
        raise TypeError("odd baseline")

    monkeypatch.setattr(run, "_comparison", broken)
    monkeypatch.setattr(run, "bench_config", lambda *a: {"skipped": "stub"})
    base = _write(tmp_path / "base.json", _old_results())
    code = run.main(["--configs", "sparks", "--no-peers", "--baseline", base, *_outputs(tmp_path)])
    captured = capsys.readouterr()
    assert code == 1                                   # 2 would mean "nothing measured"
    assert f"--baseline {base}: cannot render the before/after table" in captured.err
    text = (tmp_path / "r.md").read_text()
    assert "## Throughput" in text and "## Before and after" not in text
    assert f"wrote {tmp_path / 'r.md'} and {tmp_path / 'r.json'}" in captured.out


def test_a_render_failure_after_measuring_keeps_the_json_and_exits_1(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(run, "bench_config", lambda *a: {"random_playout": {}})
    code = run.main(["--configs", "sparks", "--no-peers", *_outputs(tmp_path)])
    captured = capsys.readouterr()
    assert code == 1
    written = json.loads((tmp_path / "r.json").read_text())
    assert written["configs"] == {"sparks": {"random_playout": {}}}
    assert "cannot render the Markdown report" in captured.err
    assert f"the measured figures are in {tmp_path / 'r.json'}" in captured.err
    assert not (tmp_path / "r.md").exists()
    assert captured.out.strip() == f"wrote {tmp_path / 'r.json'}"


# ---- 4. output paths, checked up front; a late failure falls back to the temp dir

@pytest.mark.parametrize("flag", ["--out", "--markdown"])
def test_output_in_a_missing_directory_is_refused(
        flag: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--configs", "sparks", *_outputs(tmp_path)]
    argv[argv.index(flag) + 1] = str(tmp_path / "missing" / "x")
    code, err = _exit(argv, capsys)
    line = _error_line(err)
    assert code == 2 and flag in line and "does not exist" in line


def test_output_that_is_a_directory_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--configs", "sparks", *_outputs(tmp_path)]
    argv[argv.index("--out") + 1] = str(tmp_path)
    code, err = _exit(argv, capsys)
    assert code == 2 and "is a directory" in _error_line(err)


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0,
                    reason="needs POSIX permissions and a user other than root")
def test_output_in_a_read_only_directory_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        code, err = _exit(["--configs", "sparks", "--out", str(locked / "r.json"),
                           "--markdown", str(tmp_path / "r.md"), "--notes", ""], capsys)
    finally:
        locked.chmod(0o700)
    assert code == 2 and "not writable" in _error_line(err)


def test_a_late_write_failure_keeps_the_run_in_the_temp_dir(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    out_dir = tmp_path / "vanishing"
    out_dir.mkdir()

    def bench(label: str, repeats: int, seconds: float, sizes: dict[str, Any]) -> dict[str, Any]:
        out_dir.rmdir()  # the output directory disappears while the run measures
        return {"skipped": "stub"}

    monkeypatch.setattr(run, "bench_config", bench)
    code = run.main(["--configs", "sparks", "--no-peers", "--out", str(out_dir / "r.json"),
                     "--markdown", str(tmp_path / "r.md"), "--notes", ""])
    err = capsys.readouterr().err
    assert code == 1
    found = re.search(r"cannot write the results JSON to \S+ \(.*\); wrote it to (\S+) instead", err)
    assert found, err
    fallback = Path(found.group(1))
    try:
        assert json.loads(fallback.read_text())["configs"] == {"sparks": {"skipped": "stub"}}
    finally:
        fallback.unlink()


@pytest.mark.parametrize("how", ["same", "dotted", "symlink", "render-only"])
def test_markdown_and_out_must_be_different_files(
        how: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r.json"
    markdown = str(out)
    if how == "dotted":
        markdown = str(tmp_path / "sub" / ".." / "r.json")
    elif how == "symlink":
        (tmp_path / "r.md").symlink_to(out)   # dangling until the JSON is written
        markdown = str(tmp_path / "r.md")
    extra = ["--configs", "sparks"]
    if how == "render-only":
        _write(out, _results())
        extra = ["--render-only"]
    code, err = _exit([*extra, "--out", str(out), "--markdown", markdown, "--notes", ""], capsys)
    line = _error_line(err)
    assert code == 2 and "--markdown" in line and "the same file as --out" in line
    if how == "render-only":
        assert json.loads(out.read_text()) == _results()
    else:
        assert not out.exists()


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_json_write_that_fails_is_not_claimed_as_written(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(run, "bench_config", lambda *a: {"skipped": "stub"})
    code = run.main(["--configs", "sparks", "--no-peers", "--out", "/dev/full",
                     "--markdown", str(tmp_path / "r.md"), "--notes", ""])
    captured = capsys.readouterr()
    assert code == 1
    assert f"wrote {tmp_path / 'r.md'}" in captured.out and "/dev/full" not in captured.out
    found = re.search(r"cannot write the results JSON to /dev/full \(.*\); wrote it to (\S+) "
                      "instead", captured.err)
    assert found, captured.err
    Path(found.group(1)).unlink()


@pytest.mark.skipif(not Path("/sys").is_dir(), reason="needs Linux's /sys")
def test_a_directory_refusing_new_files_is_refused_up_front_even_for_root(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # for root, os.access calls /sys writable; creating a file there fails all the same
    target = "/sys/tcgcore-bench-r.json"
    code, err = _exit(["--configs", "sparks", "--out", target, "--markdown", str(tmp_path / "r.md"),
                       "--notes", ""], capsys)
    line = _error_line(err)
    assert code == 2 and f"--out {target}" in line and "not writable" in line
    assert not Path(target).exists()


def test_the_write_probe_leaves_nothing_behind(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(run, "bench_config", lambda *a: {"skipped": "stub"})
    (tmp_path / "r.md").write_text("old report")   # an existing file is opened, not replaced
    assert run._unwritable(str(tmp_path / "r.md")) is None
    assert (tmp_path / "r.md").read_text() == "old report"
    assert run.main(["--configs", "sparks", "--no-peers", *_outputs(tmp_path)]) == 0
    assert sorted(f.name for f in tmp_path.iterdir()) == ["r.json", "r.md"]


# ---- notes, checked up front

@pytest.mark.parametrize(("make", "says"), [
    ("missing", "no such file"),
    ("directory", "is a directory"),
    ("binary", "not a UTF-8 text file"),
    ("nul", "not a UTF-8 text file"),
    ("unreadable", "cannot read it"),
])
def test_a_bad_notes_file_is_refused_before_measuring(
        make: str, says: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "notes.md"
    if make == "directory":
        path.mkdir()
    elif make == "binary":
        path.write_bytes(b"\x7fELF\x02\x01\x01\x00\xff\xfe\x00\x00")
    elif make == "nul":
        path.write_bytes(b"findings\x00more")
    elif make == "unreadable":
        if os.name != "posix" or os.geteuid() == 0:
            pytest.skip("needs POSIX permissions and a user other than root")
        path.write_text("notes")
        path.chmod(0)
    argv = ["--configs", "sparks", *_outputs(tmp_path)]
    argv[argv.index("--notes") + 1] = str(path)
    code, err = _exit(argv, capsys)
    line = _error_line(err)
    assert code == 2 and f"--notes {path}" in line and says in line
    assert not (tmp_path / "r.json").exists()


def test_notes_are_copied_and_the_default_notes_file_is_optional(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    notes = _write(tmp_path / "n.md", "Findings: the décor is fine.")
    text, _ = _render(_results(), tmp_path, capsys, "--notes", notes)
    assert "Findings: the décor is fine." in text
    monkeypatch.setattr(run, "ROOT", tmp_path)      # no benchmarks/notes.md there
    _write(tmp_path / "r.json", _results())
    out = ["--out", str(tmp_path / "r.json"), "--markdown", str(tmp_path / "r.md")]
    assert run.main(["--render-only", *out]) == 0
    (tmp_path / "benchmarks").mkdir()
    _write(tmp_path / "benchmarks" / "notes.md", "Default notes.")
    assert run.main(["--render-only", *out]) == 0
    assert "Default notes." in (tmp_path / "r.md").read_text()


# ---- a configuration that fails part-way

def test_a_failing_figure_keeps_the_figures_measured_before_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    partial = _config()
    del partial["simulate"], partial["simulation_memory"]

    def bench(label: str, repeats: int, seconds: float, sizes: dict[str, Any]) -> dict[str, Any]:
        raise run.FigureError("simulate", partial, RuntimeError("no\nworkers | today"))

    monkeypatch.setattr(run, "bench_config", bench)
    code = run.main(["--configs", "guimi_revival", "--no-peers", *_outputs(tmp_path)])
    captured = capsys.readouterr()
    assert code == 1                                   # after writing everything
    cfg = json.loads((tmp_path / "r.json").read_text())["configs"]["guimi_revival"]
    assert cfg["failed_figure"] == "simulate"
    assert cfg["error"] == "simulate: RuntimeError: no workers | today"
    assert cfg["clone_us"] == 30.0 and cfg["logging_off"] == partial["logging_off"]
    errors = [line for line in captured.err.splitlines() if "error" in line]
    assert errors == ["error: guimi_revival: the figure simulate failed (RuntimeError: no workers "
                      "| today); the figures measured before it are kept"]
    text = (tmp_path / "r.md").read_text()
    assert "**Failed.** guimi_revival: simulate: RuntimeError: no workers \\| today." in text
    assert "| guimi_revival | 20,500" in text and "| 12.5 / 145.0 (5,600) |" in text
    workers = text[text.index("## Workers"):text.index("## Peers")]
    assert "| guimi_revival |" not in workers
    assert "flatness ≥ 0.8 (mix-adjusted)" in captured.out
    assert ("| guimi_revival 2 workers ≥ 1.8× | not measured: the run of this configuration "
            "failed at `simulate` | not measured |") in captured.out
    assert ("| guimi_revival simulation memory does not grow with games | not measured: the run "
            "of this configuration failed at `simulate` | not measured |") in captured.out
    # the failure is said under the machine line, before the notes
    assert text.index("**Failed.**") < text.index("## Throughput")
    assert f"wrote {tmp_path / 'r.md'} and {tmp_path / 'r.json'}" in captured.out


def test_a_configuration_failing_outright_is_reported_and_the_others_kept(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    def bench(label: str, repeats: int, seconds: float, sizes: dict[str, Any]) -> dict[str, Any]:
        if label == "sparks":
            raise ValueError("bad setup")
        return _config()

    monkeypatch.setattr(run, "bench_config", bench)
    code = run.main(["--configs", "sparks", "guimi_revival", "--no-peers", *_outputs(tmp_path)])
    captured = capsys.readouterr()
    assert code == 1
    configs = json.loads((tmp_path / "r.json").read_text())["configs"]
    assert configs["sparks"] == {"error": "ValueError: bad setup", "failed_figure": None}
    assert configs["guimi_revival"] == _config()
    assert "error: sparks: failed (ValueError: bad setup)" in captured.err
    assert "| sparks | ValueError: bad setup |" in (tmp_path / "r.md").read_text()
    assert ("| sparks flatness ≥ 0.8 | not measured: the run of this configuration failed "
            "| not measured |") in captured.out


def test_a_failing_peer_keeps_every_other_figure_and_exits_1(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    def broken(seconds: float) -> dict[str, Any]:
        raise RuntimeError("pyspiel\nbroke")

    monkeypatch.setattr(run, "bench_config", lambda *a: _config())
    monkeypatch.setattr(run.peers, "openspiel", broken)
    monkeypatch.setattr(run.peers, "rlcard", lambda seconds: {
        "uno": {"error": "ValueError: no uno"}, "doudizhu": {"steps_per_s": 5_400.0}})
    outputs = ["--out", str(tmp_path / "r.json"), "--markdown", str(tmp_path / "r.md"),
               "--notes", ""]
    assert run.main(["--configs", "guimi_revival", *outputs]) == 1
    err = capsys.readouterr().err
    assert "error: peer openspiel: failed (RuntimeError: pyspiel broke)" in err
    assert "error: peer rlcard uno: failed (ValueError: no uno)" in err
    data = json.loads((tmp_path / "r.json").read_text())
    assert data["configs"]["guimi_revival"] == _config()
    assert data["peers"]["rlcard"]["doudizhu"] == {"steps_per_s": 5_400.0}
    text = (tmp_path / "r.md").read_text()
    assert "- openspiel: failed (RuntimeError: pyspiel broke)" in text
    assert "- rlcard uno: failed (ValueError: no uno)" in text
    assert "- rlcard doudizhu: 5,400 env steps/s" in text
    assert "Host factor 1.00" in text                  # read on the peer that ran


def test_the_report_may_not_overwrite_the_default_notes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    notes = tmp_path / "benchmarks" / "notes.md"
    notes.parent.mkdir()
    notes.write_text("hand-written\n")
    monkeypatch.setattr(run, "ROOT", tmp_path)   # where the default notes file is looked for
    out = _write(tmp_path / "r.json", _results())
    with pytest.raises(SystemExit) as info:
        run.main(["--render-only", "--out", out, "--markdown", str(notes)])
    assert info.value.code == 2 and "hand-written notes" in capsys.readouterr().err
    assert notes.read_text() == "hand-written\n"


def test_the_report_may_not_overwrite_the_baseline_or_the_notes(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    base = _write(tmp_path / "base.json", _results())
    notes = tmp_path / "n.md"
    notes.write_text("hand-written\n")
    out = _write(tmp_path / "r.json", _results())
    for argv in (["--render-only", "--out", out, "--markdown", base, "--baseline", base],
                 ["--render-only", "--out", out, "--markdown", str(notes), "--notes", str(notes)],
                 ["--out", base, "--markdown", str(tmp_path / "r.md"), "--baseline", base],
                 ["--out", str(notes), "--markdown", str(tmp_path / "r.md"),
                  "--notes", str(notes)]):
        with pytest.raises(SystemExit) as info:
            run.main([*argv, "--no-peers"])
        assert info.value.code == 2
        assert "would overwrite the" in capsys.readouterr().err
    assert notes.read_text() == "hand-written\n"
    assert json.loads(Path(base).read_text()) == _results()


def test_bench_config_names_the_figure_that_failed(monkeypatch: pytest.MonkeyPatch) -> None:
    figures = {"decisions_per_cpu_s": 100.0, "games_per_cpu_s": 1.0, "decisions_per_s": 90.0,
               "games_per_s": 0.9}

    def broken(*args: Any) -> Any:
        raise RuntimeError("no replay")

    monkeypatch.setattr(run, "_playouts", lambda *a, **k: dict(figures))
    monkeypatch.setattr(run, "_replay_rates", broken)
    monkeypatch.setattr(run, "_loop_size", lambda fn, seconds: 1)  # one call a loop: quick
    with pytest.raises(run.FigureError) as info:
        _bench_config("sparks", 2, 0.01, {})   # the real one, on stubbed figures
    assert info.value.figure == "replay"
    assert isinstance(info.value.cause, RuntimeError)
    partial = info.value.partial
    assert partial["random_playout"]["decisions_per_cpu_s"]["median"] == 100.0
    assert partial["keeping_events_cost"] == 0.0
    # the first group of clone/codec rounds ran before the playouts
    assert partial["micro_rounds"]["clone_us"]["rounds"] == run._MICRO_GROUP
    assert "replay_repeats" not in partial and "error" not in partial


def test_clone_and_codec_rounds_are_spread_over_the_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """Three groups of rounds: before the playouts, after them, after the flatness games."""
    order: list[str] = []
    real_run = run._MicroRounds.run

    def spy_run(self: Any, rounds: int) -> None:
        order.append(f"micro×{rounds}")
        real_run(self, rounds)

    monkeypatch.setattr(run._MicroRounds, "run", spy_run)
    monkeypatch.setattr(run, "_loop_size", lambda fn, seconds: 1)  # one call a loop: quick
    def playouts(*args: Any, **kwargs: Any) -> dict[str, float]:
        order.append("playouts")
        return {"decisions_per_cpu_s": 100.0, "games_per_cpu_s": 1.0, "decisions_per_s": 90.0,
                "games_per_s": 0.9}

    def flatness(*args: Any) -> None:
        order.append("flatness")

    monkeypatch.setattr(run, "_playouts", playouts)
    monkeypatch.setattr(run, "_flatness", flatness)
    monkeypatch.setattr(run, "_replay_rates", lambda record: {})
    monkeypatch.setattr(run, "_one_match_peak_kib", lambda *a: 1.0)
    monkeypatch.setattr(run, "_logging_overhead", lambda *a: {"paired": {"median": 0.0}})
    monkeypatch.setattr(run, "_simulate_throughput", lambda *a: {})
    monkeypatch.setattr(run, "_simulation_memory", lambda *a: {"games": 1})
    sizes = {"flatness_s": 0.1, "flatness_min_games": 1, "logging_round_s": 0.1,
             "logging_rounds": 1, "sim_s": 0.1, "sim_repeats": 1, "mem_games": 1, "mem_s": None}
    out = _bench_config("sparks", 1, 0.01, sizes)
    g = f"micro×{run._MICRO_GROUP}"
    assert order == [g, "playouts", "playouts", g, "flatness", g]
    assert out["micro_rounds"]["decode_msgpack_us"]["rounds"] == run._MICRO_ROUNDS == 9


# ---- the replay figure: repeated, the median reported

def test_replay_is_repeated_for_a_minimum_of_cpu_time_and_calls(
        monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[object] = []

    class Record:
        decisions = [None] * 13

    def replay(record: object) -> None:
        calls.append(record)
        end = time.process_time() + 0.001
        while time.process_time() < end:
            pass

    monkeypatch.setattr(run.tcgcore, "replay", replay)
    monkeypatch.setattr(run, "_REPLAY_MIN_CPU_S", 0.02)
    got = run._replay_rates(Record())
    assert got["replay_repeats"] == len(calls) >= 15
    assert got["replay_decisions"] == 13
    assert 13 / 0.002 < got["replay_decisions_per_cpu_s"] <= 13 / 0.001
    assert got["replay_decisions_per_s"] is not None and got["replay_decisions_per_s"] > 0
    calls.clear()
    monkeypatch.setattr(run, "_REPLAY_MIN_CPU_S", 1e-9)
    assert run._replay_rates(Record())["replay_repeats"] == len(calls) == 5


def test_replay_is_compared_only_between_repeated_figures(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    old = _results()                       # one replay call: no replay_repeats
    base = _write(tmp_path / "base.json", old)
    new = _results()
    new["configs"]["guimi_revival"]["replay_repeats"] = 400
    text, _ = _render(new, tmp_path, capsys, "--baseline", base)
    assert "replay verify" not in text[text.index("## Before and after"):]
    old["configs"]["guimi_revival"]["replay_repeats"] = 300
    _write(tmp_path / "base.json", old)
    text, _ = _render(new, tmp_path, capsys, "--baseline", base)
    assert ("| guimi_revival | replay verify decisions per CPU-second (median of repeats) "
            "| 16,000 | 16,000 | 1.00× |") in text


# ---- 5. --render-only with a bad --out file

@pytest.mark.parametrize(("content", "says"), [
    (None, "cannot read"),
    ("", "not valid JSON"),
    ("null", "found a NoneType"),
    ({}, '"configs"'),
    ({"configs": {}}, '"machine"'),
    ({"configs": {}, "machine": {"platform": "x", "python": "3", "cpus": 1}}, '"when"'),
    ({"configs": {"sparks": {"random_playout": {}}}, "when": "now",
      "machine": {"platform": "x", "python": "3", "cpus": 1}}, "cannot render it"),
])
def test_render_only_with_a_bad_results_file(
        content: Any, says: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "r.json"
    if content is not None:
        _write(path, content)
    code, err = _exit(["--render-only", *_outputs(tmp_path)], capsys)
    line = _error_line(err)
    assert code == 2 and "--out" in line and says in line
    assert not (tmp_path / "r.md").exists()


# ---- rendering: headings, digits, short summary (6, 7, 8, 10, 12)

def _render(data: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str],
            *extra: str) -> tuple[str, str]:
    _write(tmp_path / "r.json", data)
    assert run.main(["--render-only", *_outputs(tmp_path), *extra]) == 0
    return (tmp_path / "r.md").read_text(), capsys.readouterr().out


def test_render_prints_a_short_summary_only(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text, out = _render(_results(), tmp_path, capsys)
    assert "## Throughput" in text and "## Throughput" not in out
    assert f"wrote {tmp_path / 'r.md'}" in out and "## Targets" in out
    assert len(out.splitlines()) < 30


def test_render_of_an_old_file_says_wall_clock(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text, out = _render(_old_results(), tmp_path, capsys)
    table = text[text.index("## Throughput"):text.index("## Flatness")]
    assert "CPU-second" not in table
    assert "random: decisions per wall-clock second, median (min–max)" in table
    assert "predates the CPU-time figures" in text
    assert "per wall-clock second (this file has no CPU-time figures)" in out


def test_render_names_the_state_codec_and_the_public_save(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text, out = _render(_results(), tmp_path, capsys)
    assert "state codec encode / decode msgpack µs" in text
    assert "save `to_bytes` / load `from_bytes` µs (save bytes)" in text
    assert "| 12.5 / 145.0 (5,600) |" in text
    assert "encode ≤ 25 µs, decode ≤ 50 µs (state codec, msgpack)" in out
    assert "load `from_bytes` 12.5 / 145.0 µs" in out
    # thousands separators, a 99.7 % share not shown as 100 %, the RSS growth
    assert "| 12,345 |" in text and "| 2,345 |" in text
    assert "3 (99.7 %)" in text
    assert "60,000 → 60,512 (1,000 games; +512 KiB)" in text
    assert "orders of magnitude" in text
    assert "| 1.796× (1.70–1.90) |" in text


def test_clone_and_codec_targets_show_the_median_round_beside_the_best(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, out = _render(_results(), tmp_path, capsys)
    assert "| 30.0 µs (median of 9 rounds 33.0), 41× | yes |" in out
    assert "10.0 / 40.0 µs (medians 11.0 / 44.0); public save" in out
    _, out = _render(_old_results(), tmp_path, capsys)  # best of three loops: no rounds
    assert "median of" not in out and "medians" not in out


def test_micro_rounds_are_interleaved_and_summarised() -> None:
    calls: list[str] = []
    figures = run._micro_us({"a": (lambda: calls.append("a"), 0.0),
                             "b": (lambda: calls.append("b"), 0.0)}, 4)
    # a zero loop time sizes each loop at one call: one calibration call each, then the rounds
    # alternate a, b, a, b … instead of timing every round of a before b
    assert calls == ["a", "b"] + ["a", "b"] * 4
    for f in figures.values():
        assert f["rounds"] == 4 and 0 < f["best"] <= f["median"] <= f["worst"]


def test_shown_figures_agree_with_the_verdicts(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, out = _render(_results(), tmp_path, capsys)
    assert "0.712–0.798" in out          # an interval below 0.8 is not shown as ending at 0.80
    assert "+1.97 %" in out              # a quartile below 2 % is not shown as +2.0 %
    assert "| 1.796× |" in out           # a speed-up below 1.8 is not shown as 1.80
    assert run._near(19_999.6, 20_000, 0, ",f") == "19,999.6"
    assert run._near(50.04, 50, 1) == "50.04"
    assert run._near(0.85, 0.8, 3) == "0.850"
    assert run._floor_pct(0.9999) == "99.9 %"


def test_flatness_breakdown_only_where_below_the_target(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = _results()
    flat = data["configs"]["guimi_revival"]["flatness_pooled"]
    flat["by_kind"] = {
        "action": {"share": 0.6, "first_us": 100.0, "last_us": 140.0,
                   "decisions_first_last": [400, 300],
                   "events_per_decision_first_last": [5.8, 6.9]},
        "rare": {"share": 0.004, "first_us": 10.0, "last_us": 90.0,
                 "decisions_first_last": [1, 2], "events_per_decision_first_last": [1.0, 2.0]},
    }
    text, _ = _render(data, tmp_path, capsys)    # mix-adjusted 0.85: no breakdown
    assert "Where the growth comes from" not in text
    flat["mix_adjusted_first_over_last"] = 0.74
    text, _ = _render(data, tmp_path, capsys)
    assert "Where the growth comes from" in text
    assert "| guimi_revival | action | 60% | 100 → 140 | 0.71 | 5.8 → 6.9 | 400 / 300 |" in text
    assert "| rare |" not in text                  # kinds under 1 % of decisions left out


def test_no_flatness_verdict_from_few_pooled_games(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = _results()
    flat = data["configs"]["guimi_revival"]["flatness_pooled"]
    flat.update(games_pooled=2, mix_adjusted_first_over_last=0.95,
                mix_adjusted_interval_90=[0.9, 1.0])
    _, out = _render(data, tmp_path, capsys)
    row = next(line for line in out.splitlines() if "flatness ≥ 0.8" in line)
    assert row.endswith("| not measurable: only 2 games pooled; run longer with --flat-seconds |")
    flat["games_pooled"] = 10
    _, out = _render(data, tmp_path, capsys)
    assert next(line for line in out.splitlines() if "flatness ≥ 0.8" in line).endswith("| yes |")


def test_flatness_reports_each_kind_it_compares() -> None:
    f = run._flatness("sparks", None, {}, 0.05, 8)
    assert f is not None and f["games_pooled"] >= 1
    by_kind = f["by_kind"]
    assert sorted(by_kind) == f["kinds_compared"]
    shares = [k["share"] for k in by_kind.values()]
    assert shares == sorted(shares, reverse=True) and sum(shares) <= 1.0 + 1e-9
    for k in by_kind.values():
        assert k["first_us"] > 0 and k["last_us"] > 0
        assert min(k["decisions_first_last"]) >= 1


def test_work_matched_flatness_compares_cells_of_equal_work() -> None:
    # one kind, two amounts of work: early decisions are mostly cheap (1 event), late ones
    # mostly dear (5 events), and each cell costs the same early and late. Mix-adjusted by
    # kind this reads as growth; matched on the work it is flat.
    game = {"commit/1": [3 * 10.0, 3, 3 * 10.0, 3],
            "commit/5": [3 * 50.0, 3, 9 * 50.0, 9],
            "commit/9": [90.0, 1, 90.0, 2]}       # too thin in the first pool: left out
    share = {"commit/1": 50, "commit/5": 40, "commit/9": 10}
    ratio, covered = run._work_matched([game], share, 100)
    assert ratio == pytest.approx(1.0)
    assert covered == pytest.approx(0.9)
    by_kind = {"commit": [3 * 10.0 + 3 * 50.0 + 90.0, 7, 3 * 10.0 + 9 * 50.0 + 180.0, 14]}
    _, mix, _ = run._flat_ratios([by_kind], {"commit": 100}, 100)
    assert mix is not None and mix < 0.9
    # a cell that got dearer late shows
    game["commit/5"][2] = 9 * 100.0
    ratio, _ = run._work_matched([game], share, 100)
    assert ratio == pytest.approx((50 * 10 + 40 * 50) / (50 * 10 + 40 * 100))
    assert run._work_matched([{}], {}, 0) == (None, 0.0)


def test_flatness_takes_the_clock_reads_out_of_every_figure() -> None:
    overhead = run._clock_overhead_s()
    assert 0.0 < overhead < 50e-6 and run._clock_overhead_s() == overhead  # measured once
    f = run._flatness("sparks", None, {}, 0.05, 8)
    assert f is not None and f["clock_overhead_us"] == pytest.approx(overhead * 1e6)
    assert all(t >= 0.0 for _, t, _ in run._timed_game("sparks", None, {}, 3))


def test_flatness_reports_the_work_matched_figure(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = run._flatness("sparks", None, {}, 0.05, 8)
    assert f is not None and 0.0 <= f["work_matched_share"] <= 1.0
    data = _results()
    flat = data["configs"]["guimi_revival"]["flatness_pooled"]
    text, _ = _render(data, tmp_path, capsys)      # a file written before the figure existed
    row = next(line for line in text.splitlines() if "flatness ≥ 0.8" in line)
    assert "work-matched" not in row and "(raw 0.83; 10 games)" in row
    assert "| 0.95 | n/a |" in text
    flat.update(work_matched_first_over_last=0.912, work_matched_interval_90=[0.85, 0.97],
                work_matched_share=0.7444)
    text, _ = _render(data, tmp_path, capsys)
    assert "| 0.95 | 0.912 (0.850–0.970; 74.4 %) |" in text
    assert "(raw 0.83; work-matched 0.912; 10 games)" in text


def test_simulation_memory_counts_blocks_at_a_tenth_half_and_all() -> None:
    sm = run._simulation_memory("sparks", None, {}, 40)
    assert sm["checkpoints"] == [10, 20, 40]  # the end of the first chunk past each mark
    assert sm["blocks_per_game_second_half"] < 1.0
    assert sm["grows"] is None  # fewer games than the verdict needs (bounded caches fill)
    assert sm["rss_kib_after_all"] > 0 and sm["peak_rss_kib_after_all"] > 0
    # fewer than ten games: the first checkpoint is the first game, never game 0
    assert run._simulation_memory("sparks", None, {}, 3)["checkpoints"][0] >= 1
    bad = run._simulation_memory("sparks", None, {"colour": 1}, 20)
    assert "unknown option" in bad["error"]


def test_simulation_memory_verdict_and_table(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = _results()
    text, _ = _render(data, tmp_path, capsys)  # an old file: the peak RSS only, no verdict
    assert "peak RSS 60,000 → 60,512 (1,000 games; +512 KiB)" in text
    assert "simulation memory does not grow" not in text
    sm = {"games": 1000, "checkpoints": [100, 500, 1000], "blocks_after_tenth": 130_000,
          "blocks_after_half": 130_010, "blocks_after_all": 134_010,
          "blocks_per_game_second_half": 8.0, "grows": True, "rss_kib_after_tenth": 38_000,
          "rss_kib_after_all": 39_000, "rss_growth_kib": 1000,
          "peak_rss_kib_after_tenth": 39_500, "peak_rss_kib_after_all": 39_500}
    data["configs"]["guimi_revival"]["simulation_memory"] = sm
    text, _ = _render(data, tmp_path, capsys)
    assert "130,000 → 130,010 → 134,010 (+8.00 per game); RSS 38,000 → 39,000" in text
    assert ("| guimi_revival simulation memory does not grow with games | +8.00 allocated "
            "blocks per game over the second half of 1,000 games (RSS +1,000 KiB from a tenth "
            "to all) | no |") in text
    sm.update(blocks_per_game_second_half=0.02, grows=False)
    text, _ = _render(data, tmp_path, capsys)
    assert "| +0.02 allocated blocks per game" in text and "to all) | yes |" in text
    sm.update(grows=None)
    text, _ = _render(data, tmp_path, capsys)
    assert "to all) | not measurable (fewer than 2,000 games) |" in text


def test_render_with_a_baseline_adds_the_comparison(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    base = _write(tmp_path / "base.json", _old_results())
    text, _ = _render(_results(), tmp_path, capsys, "--baseline", base)
    assert "## Before and after" in text


def test_playouts_without_history_are_shown_beside_those_keeping_events(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text, _ = _render(_results(), tmp_path, capsys)
    row = next(line for line in text.splitlines() if line.startswith("| guimi_revival | 20,500"))
    assert "| 19,400 (+5.7%) |" in row
    target = next(line for line in text.splitlines() if "random playout ≥ 20,000" in line)
    assert "without event history" in target and "keeping every event: 19,400" in target


def test_comparison_reads_like_with_like_across_the_event_history_change(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A baseline from before playouts dropped event history kept events in
    ``random_playout``: it is compared with this run's events-kept figure, and the
    no-history figure has nothing to be compared with."""
    old = _results()
    old_cfg = old["configs"]["guimi_revival"]
    del old_cfg["random_playout_keeping_events"], old_cfg["keeping_events_cost"]
    old_cfg["random_playout"]["decisions_per_cpu_s"] = {"median": 9_700.0, "min": 9_000.0,
                                                         "max": 10_000.0}
    base = _write(tmp_path / "base.json", old)
    text, _ = _render(_results(), tmp_path, capsys, "--baseline", base)
    rows = [line for line in text.splitlines() if line.startswith("| guimi_revival | random")]
    kept = next(line for line in rows if "CPU-second, events kept" in line)
    assert "| 9,700 | 19,400 | 2.00× |" in kept
    assert not any("no event history" in line for line in rows)
    cfg = _results()["configs"]["guimi_revival"]
    assert run._dig(cfg, ("@sim", "random_playout", "decisions_per_cpu_s", "median")) == 20_500
    assert run._dig(old_cfg, ("@sim", "random_playout", "decisions_per_cpu_s", "median")) is None
    assert run._dig(old_cfg, ("@kept", "decisions_per_cpu_s", "median")) == 9_700


# ---- 9. explicit sizes win over --quick

def test_explicit_sizes_win_over_quick(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    seen: list[tuple[int, float, dict[str, Any]]] = []

    def bench(label: str, repeats: int, seconds: float, sizes: dict[str, Any]) -> dict[str, Any]:
        seen.append((repeats, seconds, copy.deepcopy(sizes)))
        return {"skipped": "stub"}

    monkeypatch.setattr(run, "bench_config", bench)
    assert run.main(["--quick", "--repeats", "5", "--sim-repeats", "4", "--configs", "sparks",
                     "--no-peers", *_outputs(tmp_path)]) == 0
    (repeats, seconds, sizes), = seen
    assert (repeats, seconds) == (5, 0.5)
    assert sizes["sim_repeats"] == 4 and sizes["sim_s"] == 2.0 and sizes["mem_games"] == 1_000
    written = json.loads((tmp_path / "r.json").read_text())
    assert written["sizes"]["repeats"] == 5 and written["quick"] is True
    assert "## Throughput" not in capsys.readouterr().out


def test_a_quick_look_writes_beside_the_record(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Without --out/--markdown, --quick writes quick.json and quick.md under
    benchmarks/results (ignored by git), never latest.json or docs/performance.md."""
    monkeypatch.setattr(run, "ROOT", tmp_path)
    (tmp_path / "benchmarks" / "results").mkdir(parents=True)
    (tmp_path / "docs").mkdir()
    monkeypatch.setattr(run, "bench_config", lambda *a: {"skipped": "stub"})
    assert run.main(["--quick", "--configs", "sparks", "--no-peers"]) == 0
    written = sorted(str(f.relative_to(tmp_path)) for f in tmp_path.rglob("*") if f.is_file())
    assert written == ["benchmarks/results/quick.json", "benchmarks/results/quick.md"]


# ---- host speed, read on the peers (issue #8: ratios, not only absolute times)

def test_host_speed_reads_the_peers_against_their_anchors() -> None:
    host = run.peers.host_speed({
        "rlcard": {"uno": {"steps_per_s": 27_000.0}, "doudizhu": {"steps_per_s": 2_700.0}},
        "openspiel": {"gin_rummy": {"decisions_per_s": 18_500.0},
                      "hearts": {"decisions_per_s": 100_000.0},
                      "leduc_poker": {"decisions_per_s": 1.0}},   # no anchor: left out
        "other": {"skipped": "not installed"},
    })
    assert host is not None
    assert host["factor"] == pytest.approx(0.5)
    assert sorted(host["basis"]) == ["openspiel gin_rummy", "rlcard doudizhu", "rlcard uno"]
    hearts = next(row for row in host["peers"] if row["peer"] == "openspiel hearts")
    assert hearts["anchor"] == [173_000.0, 253_000.0]
    assert hearts["ratio"] == pytest.approx([100 / 253, 100 / 173])
    assert len(host["peers"]) == 4
    # no peer with an anchor, or only ranges: no section, or no factor
    assert run.peers.host_speed({"rlcard": {"skipped": "x"}}) is None
    assert run.peers.host_speed({}) is None
    only_ranges = run.peers.host_speed({"openspiel": {"euchre": {"decisions_per_s": 90_000.0}}})
    assert only_ranges is not None and only_ranges["factor"] is None


def test_render_shows_the_host_factor_beside_the_throughput_target(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text, out = _render(_results(), tmp_path, capsys)       # no anchored peer ran
    assert "host speed" not in text and "anchors' host speed" not in out
    data = _results()
    data["peers"]["rlcard"] = {"uno": {"steps_per_s": 27_000.0}}
    data["configs"]["guimi_revival"]["random_playout"]["decisions_per_cpu_s"]["median"] = 19_000.0
    text, out = _render(data, tmp_path, capsys)
    assert "## This host's speed, read on the peers" in text
    assert "| rlcard uno | 27,000 | 54,000 | 0.50 |" in text
    assert "Host factor 0.50" in text
    assert "anchors' host speed" not in out   # never applied to a target


def test_compiled_modules_are_recorded_and_shown(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # what the function reports is what this process imported as extension modules (none in
    # the plain install; the Arkham rules in the compiled build's environment)
    import sys

    import tcgcore

    tcgcore.default_registry().game("arkham_card")
    got = run.compiled_modules()
    assert got == sorted(got)
    assert "tcgcore" not in got and "tcgcore_arkham_card.state" not in got  # never compiled
    for name in got:
        assert not str(sys.modules[name].__file__).endswith(".py")
    assert ("tcgcore_arkham_card.rules" in got) == (
        not str(sys.modules["tcgcore_arkham_card.rules"].__file__).endswith(".py"))
    text, _ = _render(_results(), tmp_path, capsys)
    assert "Compiled modules" not in text  # older files and interpreted runs say nothing
    results = _results()
    results["machine"]["compiled_modules"] = ["tcgcore_arkham_card.rules"]
    text, _ = _render(results, tmp_path, capsys)
    assert ("Compiled modules in this run (mypyc): `tcgcore_arkham_card.rules`; every other "
            "module ran interpreted.") in text


# ---- some configurations only, and --configs with --render-only

def _stub_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(run, "ROOT", tmp_path)
    (tmp_path / "benchmarks" / "results").mkdir(parents=True)
    (tmp_path / "docs").mkdir()
    monkeypatch.setattr(run, "bench_config", lambda *a: {"skipped": "stub"})


def _files(root: Path) -> list[str]:
    return sorted(str(f.relative_to(root)) for f in root.rglob("*") if f.is_file())


def test_a_partial_run_writes_beside_the_record(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """--configs naming fewer than all configurations writes partial.json and partial.md
    (ignored by git), never latest.json or docs/performance.md, and says so."""
    _stub_root(tmp_path, monkeypatch)
    assert run.main(["--configs", "sparks", "arkham_card solo", "--no-peers"]) == 0
    assert _files(tmp_path) == ["benchmarks/results/partial.json", "benchmarks/results/partial.md"]
    captured = capsys.readouterr()
    assert "note: --configs names only some configurations" in captured.err
    results = tmp_path / "benchmarks" / "results"
    assert f"wrote {results / 'partial.md'} and {results / 'partial.json'}" in captured.out
    # an explicit --out leaves the report's default partial too
    assert run.main(["--configs", "sparks", "--no-peers", "--out", str(tmp_path / "mine.json")]) == 0
    assert "docs/performance.md" not in _files(tmp_path) and (tmp_path / "mine.json").exists()
    ignored = (RUN_PY.parent.parent / ".gitignore").read_text().splitlines()
    assert {"benchmarks/results/partial.json", "benchmarks/results/partial.md"} <= set(ignored)


def test_every_configuration_named_writes_the_record(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    _stub_root(tmp_path, monkeypatch)
    assert run.main(["--configs", *reversed(list(run.CONFIGS)), "--no-peers"]) == 0
    assert _files(tmp_path) == ["benchmarks/results/latest.json", "docs/performance.md"]
    assert "note:" not in capsys.readouterr().err


def test_duplicate_configurations_run_once_each_in_order(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[str] = []

    def bench(label: str, repeats: int, seconds: float, sizes: dict[str, Any]) -> dict[str, Any]:
        seen.append(label)
        return {"skipped": "stub"}

    monkeypatch.setattr(run, "bench_config", bench)
    assert run.main(["--configs", "sparks", "guimi_revival", "sparks", "guimi_revival",
                     "--no-peers", *_outputs(tmp_path)]) == 0
    assert seen == ["sparks", "guimi_revival"]
    assert list(json.loads((tmp_path / "r.json").read_text())["configs"]) == seen


def test_configs_with_render_only_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _write(tmp_path / "r.json", _results())
    code, err = _exit(["--render-only", "--configs", "sparks", *_outputs(tmp_path)], capsys)
    line = _error_line(err)
    assert code == 2 and "--configs" in line and "--render-only" in line
    assert not (tmp_path / "r.md").exists()


def test_history_figure_replays_the_last_tenth_in_a_copy_without_history() -> None:
    length = len(run._timed_game("sparks", None, {}, 4))
    fresh, full = run._history_pair("sparks", None, {}, 4, length)
    assert fresh > 0.0 and full > 0.0
    assert run._history_ratio([(1.0, 2.0), (3.0, 2.0)]) == pytest.approx(1.0)
    assert run._history_ratio([]) is None
    assert gc.get_freeze_count() == 0
    f = run._flatness("sparks", None, {}, 0.05, 8)
    assert f is not None and f["history_free_over_full"] is not None
    assert f["history_free_over_full"] > 0.0
    assert gc.get_freeze_count() == 0  # the objects set aside for the timed games are back


def test_history_figure_catches_a_match_that_reads_its_history_each_decision(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # an engine that rescans its whole event log on every decision: the copy made at the
    # start of the last tenth has an empty log, the match that played the game a long one
    choose = tcgcore.Match.choose

    def rescanning(self: tcgcore.Match[Any], player: int, keys: Any) -> None:
        for _ in range(20):
            for _ in self.events_since(0, player="all"):
                pass
        choose(self, player, keys)

    monkeypatch.setattr(tcgcore.Match, "choose", rescanning)
    options = {"copies": 40, "target": 1000}  # the long Sparks game of the flatness figure
    length = len(run._timed_game("sparks", None, options, 2))
    assert length >= 200
    fresh, full = run._history_pair("sparks", None, options, 2, length)
    assert fresh / full < 0.5


def test_history_figure_catches_a_match_that_reads_its_decisions_each_decision(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # the copy carries no decisions either: rereading them shows as history too
    choose = tcgcore.Match.choose

    def rereading(self: tcgcore.Match[Any], player: int, keys: Any) -> None:
        for _ in range(20):
            for _ in self.decisions:
                pass
        choose(self, player, keys)

    monkeypatch.setattr(tcgcore.Match, "choose", rereading)
    options = {"copies": 40, "target": 1000}
    length = len(run._timed_game("sparks", None, options, 2))
    fresh, full = run._history_pair("sparks", None, options, 2, length)
    assert fresh / full < 0.5


def test_history_figure_refuses_a_copy_that_diverged(monkeypatch: pytest.MonkeyPatch) -> None:
    clone = tcgcore.Match.clone

    def reseeded(self: tcgcore.Match[Any]) -> tcgcore.Match[Any]:
        copy = clone(self)
        copy.state.event_count += 1  # a difference that does not change the play
        return copy

    monkeypatch.setattr(tcgcore.Match, "clone", reseeded)
    length = len(run._timed_game("sparks", None, {}, 4))
    with pytest.raises(AssertionError, match="diverged"):
        run._history_pair("sparks", None, {}, 4, length)
    # inside the flatness figure, the failure keeps the other figures and unfreezes the gc
    f = run._flatness("sparks", None, {}, 0.05, 8)
    assert f is not None and f["mix_adjusted_first_over_last"] is not None
    assert f["history_free_over_full"] is None and f["history_interval_90"] is None
    assert "diverged" in f["history_error"]
    assert gc.get_freeze_count() == 0


def test_a_failed_history_figure_fails_the_run_and_keeps_the_figures(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    def bench(label: str, repeats: int, seconds: float, sizes: dict[str, Any]) -> dict[str, Any]:
        cfg = _config()
        cfg["flatness_pooled"].update(history_free_over_full=None, history_interval_90=None,
                                      history_error="AssertionError: seed 3 diverged",
                                      work_matched_first_over_last=0.9,
                                      work_matched_interval_90=[0.85, 0.95],
                                      work_matched_share=0.9)
        return cfg

    monkeypatch.setattr(run, "bench_config", bench)
    code = run.main(["--configs", "guimi_revival", "--no-peers", *_outputs(tmp_path)])
    captured = capsys.readouterr()
    assert code == 1
    assert ("error: guimi_revival: the without-history flatness figure failed (AssertionError: "
            "seed 3 diverged)") in captured.err
    row = next(line for line in captured.out.splitlines() if "flatness ≥ 0.8" in line)
    assert row.endswith("| not measurable (the without-history figure failed: AssertionError: "
                        "seed 3 diverged) |")
    assert "without history n/a" in row


def test_flatness_verdict_reads_the_work_matched_and_history_figures(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = _results()
    flat = data["configs"]["guimi_revival"]["flatness_pooled"]
    flat.update(mix_adjusted_first_over_last=0.62, mix_adjusted_interval_90=[0.60, 0.64],
                work_matched_first_over_last=0.914, work_matched_interval_90=[0.902, 0.923],
                work_matched_share=0.86, history_free_over_full=1.02,
                history_interval_90=[0.97, 1.08])

    def row() -> str:
        _, out = _render(data, tmp_path, capsys)
        return next(line for line in out.splitlines() if "flatness ≥ 0.8" in line)

    text = row()
    assert "(work-matched; same board without history)" in text
    assert ("0.914, 90 % interval 0.902–0.923 over 86.0 % of decisions; without history 1.020 "
            "(0.970–1.080)") in text
    assert "(mix-adjusted 0.620, raw 0.83; 10 games)" in text
    # a yes names the figures below the bar
    assert text.endswith("| yes on our reading (mix-adjusted 0.620, which also counts the extra "
                         "rules work of the game's late turns, is below 0.8) |")
    flat["raw_first_over_last"] = 0.71
    assert row().endswith("| yes on our reading (raw 0.71 and mix-adjusted 0.620, which also "
                          "count the extra rules work of the game's late turns, are below 0.8) |")
    flat["mix_adjusted_first_over_last"] = None
    assert row().endswith("(raw 0.71, which also counts the extra rules work of the game's late "
                          "turns, is below 0.8) |")
    flat["raw_first_over_last"] = 0.83
    flat["mix_adjusted_first_over_last"] = 0.85
    assert row().endswith("| yes |")
    flat["work_matched_share"] = 0.3                      # a few kinds of decision only
    assert row().endswith("| not measurable (the work-matched cells cover only 30.0 % of the "
                          "decisions) |")
    flat["work_matched_share"] = 0.86
    flat["history_interval_90"] = [0.70, 0.79]           # the history costs: no
    assert row().endswith("| no |")
    flat["history_interval_90"] = [0.75, 0.85]
    assert row().endswith("| not measurable now (an interval straddles 0.8) |")
    flat["work_matched_interval_90"] = [0.70, 0.79]      # either figure wholly below: no
    assert row().endswith("| no |")
    # a figure of this run without an interval: no verdict, and no fall-back to mix-adjusted
    for key in ("work_matched_interval_90", "history_interval_90"):
        saved = flat[key]
        flat[key] = None
        assert row().endswith("| not measurable (a figure has no interval) |")
        flat[key] = saved
    flat["history_free_over_full"] = None
    assert "without history n/a" in row()
    flat["history_free_over_full"] = 1.02
    flat["games_pooled"] = 1
    assert row().endswith("| not measurable: only 1 game pooled; run longer with --flat-seconds |")
    flat["games_pooled"] = 3
    assert "not measurable: only 3 games pooled" in row()
    text, _ = _render(data, tmp_path, capsys)
    assert "| 0.914 (0.700–0.790; 86.0 %) | 1.020 (0.750–0.850) |" in text
    del flat["history_free_over_full"]                  # a file from before the history figure
    flat["games_pooled"] = 10
    flat["mix_adjusted_first_over_last"] = 0.62
    text = row()
    assert "(mix-adjusted) | 0.620, 90 % interval 0.600–0.640" in text
    assert text.endswith("| no |")
    flat["games_pooled"] = 0                            # no game long enough
    assert row().endswith("| no game of ≥ 20 decisions | not measurable |")
