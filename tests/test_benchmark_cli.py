"""benchmarks/run.py's command line: argument and file checks up front, rendering, output.

No test here measures anything: the measuring function is replaced by a stub (or must not
be reached), and rendering works on small hand-written result files.
"""

from __future__ import annotations

import copy
import importlib.util
import json
import os
import re
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

RUN_PY = Path(__file__).resolve().parent.parent / "benchmarks" / "run.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("tcgcore_benchmarks_run", RUN_PY)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


run = _load()


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
