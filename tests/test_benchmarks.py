"""The benchmark harness (benchmarks/): runners, per-call medians, flatness, interleaved
rounds and ratios, targets, extra measurement modules, the report block and the command line.
Everything runs on tiny sizes; no test reads a figure, only the shapes and the arithmetic."""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import tcgcore

BENCH = Path(__file__).resolve().parent.parent / "benchmarks"


def _module(name: str) -> ModuleType:
    if str(BENCH) not in sys.path:
        sys.path.insert(0, str(BENCH))
    return importlib.import_module(name)


run, workloads, micro, report, peers = (_module(n) for n in
                                        ("run", "workloads", "micro", "report", "peers"))
SPARKS = workloads.CONFIGS[0]


class FixedRate:
    """A runner that makes ``rate`` decisions per CPU-second and records when it ran."""

    def __init__(self, rate: float, calls: list[str], name: str) -> None:
        self.rate, self.calls, self.name = rate, calls, name

    def run(self, seconds: float) -> tuple[int, float]:
        self.calls.append(self.name)
        return round(self.rate * seconds), seconds


def test_runner_plays_on_across_calls_and_counts_decisions() -> None:
    runner = workloads.Runner(SPARKS, "random")
    decisions, cpu = runner.run(0.02)
    assert decisions >= 8 and cpu >= 0.02
    games_before = runner.seed
    more, _ = runner.run(0.02)
    assert more >= 8 and runner.seed >= games_before  # the same sequence of seeded games


def test_midgame_is_the_seeded_game_halfway_and_deterministic() -> None:
    config = workloads.CONFIGS[1]  # guimi_revival, heuristic agents
    a, b = workloads.midgame(config, "heuristic"), workloads.midgame(config, "heuristic")
    assert a.digest() == b.digest() and a.result is None
    full = tcgcore.new_match(config.game, seed=2024, keep_events=False)
    tcgcore.play_out(full, [tcgcore.make_agent(full.spec, "heuristic", 7 + s) for s in range(2)])
    assert len(a.decisions) == len(full.decisions) // 2


def test_match_calls_are_the_public_copy_save_load_and_view() -> None:
    mid = workloads.midgame(SPARKS, "random")
    calls = micro.match_calls(mid)
    assert sorted(calls) == ["clone", "from_bytes", "to_bytes", "view"]
    assert calls["from_bytes"]().digest() == calls["clone"]().digest() == mid.digest()
    assert calls["to_bytes"]() == mid.to_bytes()
    assert calls["view"]() == mid.view(mid.pending.player)


def test_per_call_us_is_a_median_per_operation() -> None:
    slow = list(range(2000))
    figures = micro.per_call_us({"fast": lambda: None, "slow": lambda: sorted(slow)},
                                batches=3, batch_s=0.0005)
    assert sorted(figures) == ["fast", "slow"]
    assert 0 <= figures["fast"] < figures["slow"]


def test_flatness_is_last_tenth_median_over_first_and_leaves_out_short_games(
        monkeypatch: pytest.MonkeyPatch) -> None:
    games = {1000: [1e-6] * 2 + [5e-6] * 16 + [3e-6] * 2,   # 20 decisions: kept
             1001: [9e-6] * 10,                            # too short: left out
             1002: [1e-6] * 4 + [7e-6] * 32 + [2e-6] * 4}   # 40 decisions: kept
    monkeypatch.setattr(workloads, "decision_times", lambda c, a, seed: games[seed])
    out = workloads.flatness(SPARKS, "random", 0.0)
    assert (out["games"], out["kept"]) == (3, 2)
    assert out["first_us"] == pytest.approx(1.0) and out["last_us"] == pytest.approx(2.0)
    assert out["value"] == pytest.approx(2.0)


def test_decision_times_use_the_long_flatness_games_of_sparks() -> None:
    times = workloads.decision_times(SPARKS, "random", 1000)
    assert len(times) >= workloads.FLAT_MIN_DECISIONS and all(t >= 0 for t in times)


def test_throughput_interleaves_rounds_and_reads_ratios_to_uno() -> None:
    calls: list[str] = []
    named = {name: ("random", FixedRate(rate, calls, name))
             for name, rate in (("a", 1000.0), ("rlcard uno", 4000.0), ("b", 2000.0))}
    out = run.throughput(named, rounds=3, sample_s=0.5, log=lambda s: None)
    assert calls[3:] == ["a", "rlcard uno", "b", "rlcard uno", "b", "a", "b", "a", "rlcard uno"]
    assert out["a"]["samples"] == [1000.0] * 3 and out["a"]["median"] == 1000.0
    assert out["a"]["ratio"] == pytest.approx(0.25) and out["b"]["ratio"] == pytest.approx(0.5)


def test_targets_read_each_figure_as_met_not_met_or_not_measured() -> None:
    results: dict[str, Any] = {
        "throughput": {"guimi_revival heuristic": {"ratio": 0.5},
                       "arkham_card solo heuristic": {"ratio": 0.2}},
        "per_call_us": {"arkham_card 4p": {"view": 40.0, "clone": 10.5}},
        "flatness": {"sparks": {"value": 1.0}}, "simulate": {}, "extras": {}}
    verdicts = {row["target"]: row["met"] for row in report.targets(results)}
    assert verdicts["Guimi heuristic games ≥ 0.45× uno"] is True
    assert verdicts["Arkham solo heuristic games ≥ 0.25× uno"] is False
    assert verdicts["Arkham 4p mid-game view ≤ 40 µs"] is True
    assert verdicts["Arkham 4p mid-game clone ≤ 10 µs"] is False
    assert verdicts["flatness sparks ≤ 1.25"] is True
    assert verdicts["Arkham 4p heuristic games ≥ 0.25× uno"] is None
    assert report.parse_target("≥ 1.8") == (">=", 1.8) and report.parse_target("<= 40") == ("<=", 40.0)
    assert report.parse_target("fast") is None
    assert report.parse_target("< 5") == ("<", 5.0) and report.met(5.0, "<", 5.0) is False
    assert report.met(4.9, "<", 5.0) is True and report.met(1.7, ">", 1.7) is False


def test_extra_modules_are_found_run_and_their_targets_read(tmp_path: Path) -> None:
    (tmp_path / "measure_scaling.py").write_text(
        "def measure(quick):\n"
        "    return {'note': 'two nodes', 'rows': [\n"
        "        {'name': 'scaling', 'value': 1.5 if quick else 1.9, 'unit': '×', 'target': '≥ 1.8'},\n"
        "        {'name': 'tasks', 'value': 120.0, 'unit': 'tasks/s'}]}\n", encoding="utf-8")
    (tmp_path / "helpers.py").write_text("raise SystemExit('not a measurement module')\n")
    paths = run.extra_modules(tmp_path)
    assert [p.name for p in paths] == ["measure_scaling.py"]
    out = run.run_extra(paths[0], quick=True)
    assert out["rows"][0]["value"] == 1.5
    rows = [r for r in report.targets({"extras": {"measure_scaling": out}}) if "source" in r]
    assert rows == [{"target": "scaling ≥ 1.8 ×", "today": 1.5, "met": False,
                     "source": "measure_scaling"}]


#: the least a results file holds for :func:`report.markdown`
_RESULTS_SHELL: dict[str, Any] = {
    "when": "2026-01-01 00:00 UTC", "quick": True, "duration_s": 1.0,
    "host": {"python": "3.11", "cpus": 2, "pinned_cpu": 1, "load_start": 0.0, "load_end": 0.0,
             "others_cores": None, "compiled_modules": []},
    "versions": {"tcgcore": "0"}, "sizes": {"rounds": 1}, "throughput": {}, "per_call_us": {},
    "flatness": {}, "simulate": {}, "not_available": {}, "errors": [], "targets": []}


def test_an_extra_module_without_its_extra_is_skipped_not_failed(tmp_path: Path) -> None:
    (tmp_path / "measure_cluster.py").write_text(
        "def measure(quick):\n    return {'rows': [], 'skipped': 'Ray is not installed'}\n",
        encoding="utf-8")
    out = run.run_extra(tmp_path / "measure_cluster.py", quick=True)
    assert "error" not in out and out["skipped"] == "Ray is not installed"
    text = report.markdown({**_RESULTS_SHELL, "extras": {"measure_cluster": out}})
    assert "### measure_cluster\n\nSkipped: Ray is not installed" in text


@pytest.mark.parametrize("body", ["def measure(quick):\n    raise RuntimeError('no cluster')\n",
                                  "def measure(quick):\n    return {'rows': [{'value': 1}]}\n",
                                  "def measure(quick):\n    return [1, 2]\n",
                                  "x = 1\n"])
def test_a_failing_or_malformed_extra_module_is_an_error_not_a_crash(tmp_path: Path,
                                                                     body: str) -> None:
    path = tmp_path / "measure_bad.py"
    path.write_text(body, encoding="utf-8")
    out = run.run_extra(path, quick=True)
    assert set(out) == {"error"} and out["error"]


def test_peers_are_runners_or_named_as_not_available() -> None:
    found, missing = peers.runners()
    expected = {f"rlcard {n}" for n in peers.RLCARD_ENVS} | {
        f"openspiel {n}" for n in peers.OPENSPIEL_GAMES}
    assert set(found) | set(missing) == expected and not set(found) & set(missing)
    assert all(isinstance(why, str) and why for why in missing.values())
    for runner in found.values():
        decisions, cpu = runner.run(0.005)
        assert decisions > 0 and cpu >= 0.005


def test_a_tiny_run_writes_one_schema_and_renders_it(tmp_path: Path) -> None:
    sizes = run.Sizes(rounds=2, sample_s=0.01, batches=2, batch_s=0.0005, flatness_s=0.0,
                      simulate_s=0.05, simulate_repeats=1)
    results = run.measure(sizes, [SPARKS], with_peers=False, extras=[], quick=True,
                          progress=lambda s: None)
    assert set(results) >= {"schema", "host", "versions", "sizes", "throughput", "per_call_us",
                            "flatness", "simulate", "not_available", "extras", "errors", "targets"}
    assert results["errors"] == [] and list(results["throughput"]) == ["sparks random"]
    assert results["simulate"]["sparks"]["value"] > 0
    out, docs = tmp_path / "r.json", tmp_path / "perf.md"
    out.write_text(json.dumps(results), encoding="utf-8")
    docs.write_text(f"intro\n{report.BEGIN}\nold\n{report.END}\noutro\n", encoding="utf-8")
    assert run.main(["--render-only", "--out", str(out), "--docs", str(docs)]) == 0
    text = docs.read_text(encoding="utf-8")
    assert text.startswith("intro\n") and text.endswith(f"{report.END}\noutro\n")
    assert "old" not in text and "| flatness sparks ≤ 1.25 |" in text
    docs.write_text("no markers\n", encoding="utf-8")
    with pytest.raises(ValueError, match="figures:begin"):
        report.render_into(docs, results)
