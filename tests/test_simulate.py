"""The simulation runner: deterministic tables, parallel workers, confidence intervals."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

import tcgcore
from tcgcore import simulate, wilson_interval

from .helpers import held_growth


def test_wilson_interval_known_values() -> None:
    rate, low, high = wilson_interval(50, 100)
    assert rate == 0.5
    assert low == pytest.approx(0.4038, abs=1e-3) and high == pytest.approx(0.5962, abs=1e-3)
    assert wilson_interval(0, 0) == [0.0, 0.0, 1.0]
    assert wilson_interval(10, 10)[2] == pytest.approx(1.0)


def test_same_seeds_same_report(registry: tcgcore.Registry) -> None:
    a = simulate("sparks", games=40, seed=3, registry=registry)
    b = simulate("sparks", games=40, seed=3, registry=registry)
    assert a == b
    assert a.games == 40 and sum(a.wins) + a.draws == 40
    assert sum(a.reasons.values()) == 40
    assert a.avg_decisions > 10 and a.avg_turns >= 1
    assert "| 0 | random |" in a.table()


def test_workers_do_not_change_the_report() -> None:
    one = simulate("sparks", games=24, seed=9, workers=1)
    two = simulate("sparks", games=24, seed=9, workers=2)
    assert one == two


def test_a_registry_of_its_own_is_refused_with_worker_processes() -> None:
    """Worker processes load the installed plugins: a registry that differs from them
    (blocked plugins, a plugin registered in this process) would be silently ignored there,
    so it is refused up front; the default registry works with workers."""
    from tcgcore.examples import sparks

    local = tcgcore.load_registry(load_entrypoints=False, plugins=[sparks])
    with pytest.raises(tcgcore.OptionsError, match="registry= works only with workers=1"):
        simulate("sparks", games=4, workers=2, registry=local)
    assert simulate("sparks", games=4, workers=1, registry=local).games == 4
    default = simulate("sparks", games=4, seed=3, workers=2, registry=tcgcore.default_registry())
    assert default == simulate("sparks", games=4, seed=3, workers=1)


def test_bad_arguments(registry: tcgcore.Registry) -> None:
    with pytest.raises(tcgcore.OptionsError):
        simulate("sparks", games=0, registry=registry)
    with pytest.raises(tcgcore.OptionsError, match="unknown agent"):
        simulate("sparks", games=2, agents=["genius"], registry=registry)
    with pytest.raises(tcgcore.OptionsError, match="unknown option"):
        simulate("sparks", games=2, options={"colour": 1}, registry=registry)
    with pytest.raises(tcgcore.OptionsError):
        simulate("sparks", games=2, agents=["random"] * 3, registry=registry)


def test_rules_options_change_the_game(registry: tcgcore.Registry) -> None:
    short = simulate("sparks", games=20, seed=1, options={"target": 1}, registry=registry)
    long = simulate("sparks", games=20, seed=1, options={"target": 6}, registry=registry)
    assert short.avg_decisions < long.avg_decisions


def test_simulate_command_line() -> None:
    import io
    import json

    from tcgcore.cli import main

    out = io.StringIO()
    assert main(["simulate", "sparks", "--games", "12", "--seed", "4", "-q",
                 "--rules", "target=2"], out=out) == 0
    text = out.getvalue()
    assert "sparks: 12 games, seeds 4..15" in text and "95 % interval" in text
    out = io.StringIO()
    assert main(["simulate", "sparks", "--games", "6", "--json", "--outcomes"], out=out) == 0
    report = json.loads(out.getvalue())
    assert report["games"] == 6 and len(report["outcomes"]) == 6
    assert main(["simulate", "sparks", "--games", "3", "--agents", "nobody"],
                out=io.StringIO()) == 2
    # an empty agent list is not "the default"; --outcomes belongs to --json
    assert main(["simulate", "sparks", "--games", "3", "--agents", ""], out=io.StringIO()) == 2
    assert main(["simulate", "sparks", "--games", "3", "--outcomes"], out=io.StringIO()) == 2


def test_detail_tables_show_rates_with_intervals() -> None:
    """Per-key string details (e.g. a resolution per investigator name) become rates with
    Wilson 95 % intervals, out of the games that reported the key."""
    from tcgcore._simulate import GameOutcome, _summarise

    def game(i: int, detail: dict[str, str | int | bool | None]) -> GameOutcome:
        return GameOutcome(index=i, winners=[], losers=[0], draw=False, reason="resolution",
                           first_player=0, turns=5, decisions=9, detail=detail)

    outcomes = [game(0, {"Roland Banks": "R2", "status0": "resigned", "xp": 3,
                         "mode": "standalone"}),
                game(1, {"Roland Banks": "R3", "status0": "defeated"}),
                game(2, {"Roland Banks": "R2", "Daisy Walker": "R2",
                         "log": "a very long campaign log entry, longer than a column"}),
                game(3, {"Daisy Walker": "R3"})]
    report = _summarise("arkham_card", 0, 1, ["heuristic"], {}, outcomes, keep=False)
    assert report.details["Roland Banks=R2"] == 2
    assert report.detail_games == {"Daisy Walker": 2, "Roland Banks": 3, "log": 1, "mode": 1,
                                   "status0": 2}
    assert report.detail_rates["Roland Banks"]["R2"] == wilson_interval(2, 3)
    assert report.detail_rates["Daisy Walker"]["R3"] == wilson_interval(1, 2)
    assert "xp" not in report.detail_rates  # numbers are not tabulated
    text = report.table()
    rate, low, high = wilson_interval(2, 3)
    assert "| detail | games | R2 | R3 |" in text
    assert f"| Roland Banks | 3 | {rate:.1%} [{low:.1%} – {high:.1%}] |" in text
    assert "| Daisy Walker | 2 | 50.0% [" in text
    assert "| detail | games | defeated | resigned |" in text  # another column set
    assert "| log | a very long campaign log entry, longer than a column | 1 of 1 | 100.0% |" in text
    assert "| mode | standalone | 1 of 1 | 100.0% |" in text  # a lone key with one value


def test_arkham_simulation_reports_each_investigator() -> None:
    import io
    import json

    from tcgcore.cli import main

    out = io.StringIO()
    assert main(["simulate", "arkham_card", "--games", "3", "-q", "--players", "2",
                 "--deck", "roland", "--deck", "daisy"], out=out) == 0
    text = out.getvalue()
    assert "| Roland Banks | 3 |" in text and "| Daisy Walker | 3 |" in text
    out = io.StringIO()
    assert main(["simulate", "arkham_card", "--games", "3", "--json", "--players", "2",
                 "--deck", "roland", "--deck", "daisy"], out=out) == 0
    report = json.loads(out.getvalue())
    assert report["detail_games"]["Roland Banks"] == 3
    rates = report["detail_rates"]["Roland Banks"]
    assert sum(report["details"][f"Roland Banks={v}"] for v in rates) == 3
    assert all(len(r) == 3 and r[1] <= r[0] <= r[2] for r in rates.values())


def test_worker_jobs_cover_every_game_once_in_order() -> None:
    """Several workers get jobs that shrink towards the end (so they finish together); one
    worker keeps equal chunks. Either way every game index appears once, in order."""
    from tcgcore._simulate import _MAX_CHUNK, _batches

    for games in (1, 7, 40, 45, 135, 3000):
        for workers in (1, 2, 3):
            jobs = list(_batches(games, workers))
            assert [i for job in jobs for i in job] == list(range(games))
            assert all(1 <= len(job) <= _MAX_CHUNK for job in jobs)
            if workers > 1 and games >= 8 * workers:
                assert len(jobs[-1]) == 1 and len(jobs[0]) > len(jobs[-1])
    assert [len(j) for j in _batches(100, 1)] == [25] * 4
    # jobs are made as they are taken: a run of a billion games holds none in advance
    huge = _batches(10**9, 2)
    assert next(huge) == range(0, _MAX_CHUNK)


def test_an_uneven_split_between_workers_does_not_change_the_report() -> None:
    one = simulate("sparks", games=45, seed=2, workers=1)
    two = simulate("sparks", games=45, seed=2, workers=2)
    assert one == two


def test_memory_does_not_grow_with_games_when_outcomes_are_not_kept() -> None:
    """Outcomes are counted as they arrive and dropped unless kept: the traced memory a
    run holds at its end does not grow with the number of games."""
    growth = held_growth()
    # keeping 900 more outcomes would hold about 400 KiB more
    assert growth < 60 * 1024, growth
    kept = simulate("sparks", games=30, seed=1)
    assert [o.index for o in kept.outcomes] == list(range(30))
    assert simulate("sparks", games=30, seed=1, keep_outcomes=False) == \
        msgspec.structs.replace(kept, outcomes=[])


def test_no_more_processes_than_jobs_and_a_limit_on_workers() -> None:
    import multiprocessing

    from tcgcore._simulate import _max_workers

    # 3 games and as many workers as allowed (at least 4): 3 jobs, so 3 processes at most
    children: list[int] = []

    def progress(done: int, total: int) -> None:
        children.append(len(multiprocessing.active_children()))

    workers = _max_workers()
    report = simulate("sparks", games=3, seed=5, workers=workers, progress=progress)
    assert report == simulate("sparks", games=3, seed=5)
    assert children and max(children) <= 3 < workers
    with pytest.raises(tcgcore.OptionsError, match="four per CPU"):
        simulate("sparks", games=3, workers=workers + 1)


def test_bad_agents_progress_and_flags_are_options_errors(registry: tcgcore.Registry) -> None:
    for agents in (None, [], [""], "", [1], ["random", None], 7):
        with pytest.raises(tcgcore.OptionsError, match="agents must be"):
            simulate("sparks", games=2, agents=agents, registry=registry)  # type: ignore[arg-type]
    with pytest.raises(tcgcore.OptionsError, match="progress must be"):
        simulate("sparks", games=2, progress=5, registry=registry)  # type: ignore[arg-type]
    with pytest.raises(tcgcore.OptionsError, match="keep_outcomes"):
        simulate("sparks", games=2, keep_outcomes="no", registry=registry)  # type: ignore[arg-type]
    with pytest.raises(tcgcore.OptionsError, match="option names must be strings"):
        simulate("sparks", games=2, options={1: 2}, registry=registry)  # type: ignore[dict-item]


def test_an_error_in_progress_stops_the_run_and_drops_the_jobs_not_started() -> None:
    calls: list[int] = []

    def progress(done: int, total: int) -> None:
        calls.append(done)
        raise RuntimeError("stop here")

    for workers in (1, 2):
        calls.clear()
        with pytest.raises(RuntimeError, match="stop here"):
            simulate("sparks", games=400, seed=1, workers=workers, progress=progress)
        assert len(calls) == 1


def test_a_worker_stops_at_the_next_game_once_the_run_is_abandoned() -> None:
    """The stop flag a worker process gets at start-up (set when simulate unwinds) ends the
    job it plays and every queued one at the next game."""
    import multiprocessing
    import signal

    from tcgcore import _simulate

    stop = multiprocessing.get_context().RawValue("b", 0)
    options: dict[str, Any] = {}
    job = ("sparks", 0, range(0, 5), None, options, ["random"], None, False, False)
    saved = list(_simulate._STOP)
    handler = signal.getsignal(signal.SIGINT)
    try:
        _simulate._init_worker(stop)
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN  # Ctrl-C is the parent's
        assert [o.index for o in _simulate._run_chunk(job)] == [0, 1, 2, 3, 4]
        stop.value = 1
        assert _simulate._run_chunk(job) == []
    finally:
        _simulate._STOP[:] = saved
        signal.signal(signal.SIGINT, handler)


def test_partial_reports_merge_into_the_whole_runs_report() -> None:
    """Runs of consecutive seed ranges (on several machines, say) merge, in any order, into
    the report of one run over all of them, field for field; outcomes are re-indexed."""
    import itertools

    from tcgcore import merge_reports

    options = {"decks": ["sailor", "sleepless"]}
    whole = simulate("guimi_revival", games=30, seed=4, options=options)
    parts = [simulate("guimi_revival", games=n, seed=s, options=options)
             for s, n in ((4, 7), (11, 1), (12, 22))]
    for order in itertools.permutations(parts):
        assert merge_reports(order) == whole
    assert merge_reports([whole]) == whole
    lean = [msgspec.structs.replace(p, outcomes=[]) for p in parts]
    assert merge_reports(lean) == msgspec.structs.replace(whole, outcomes=[])
    assert merge_reports([parts[0], lean[1], parts[2]]).outcomes == []  # not all kept
    # a report read back from its JSON merges just as well
    again = [msgspec.json.decode(msgspec.json.encode(p), type=tcgcore.SimulationReport)
             for p in parts]
    assert merge_reports(again) == whole
    arkham = [simulate("arkham_card", games=2, seed=s, players=2, keep_outcomes=False)
              for s in (0, 2)]
    assert merge_reports(arkham) == simulate("arkham_card", games=4, players=2,
                                             keep_outcomes=False)


def test_reports_of_different_runs_do_not_merge() -> None:
    from tcgcore import merge_reports

    a = simulate("sparks", games=5, seed=0)
    with pytest.raises(tcgcore.OptionsError, match="overlap"):
        merge_reports([a, simulate("sparks", games=5, seed=3)])
    with pytest.raises(tcgcore.OptionsError, match="leave a gap"):
        merge_reports([a, simulate("sparks", games=5, seed=6)])
    with pytest.raises(tcgcore.OptionsError, match="not parts of one run"):
        merge_reports([a, simulate("sparks", games=5, seed=5, options={"target": 2})])
    with pytest.raises(tcgcore.OptionsError, match="at least one"):
        merge_reports([])
    with pytest.raises(tcgcore.OptionsError, match="not a count of games"):
        merge_reports([msgspec.structs.replace(a, avg_turns=a.avg_turns + 0.01)])
    with pytest.raises(tcgcore.OptionsError, match="keeps 2 outcomes of 5"):
        merge_reports([msgspec.structs.replace(a, outcomes=a.outcomes[:2])])


def test_the_ray_backend_without_ray_says_how_to_install_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import io
    import sys

    from tcgcore.cli import main

    monkeypatch.setitem(sys.modules, "ray", None)  # import ray fails as if not installed
    with pytest.raises(tcgcore.BackendError, match=r'pip install "tcgcore\[ray\]"'):
        simulate("sparks", games=4, backend="ray")
    with pytest.raises(tcgcore.BackendError, match="not installed"):
        with tcgcore.ray_session():
            pass
    err = io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    assert main(["simulate", "sparks", "--games", "4", "--backend", "ray"], out=io.StringIO()) == 2
    assert "tcgcore[ray]" in err.getvalue()
    assert main(["simulate", "sparks", "--games", "4", "--address", "auto"],
                out=io.StringIO()) == 2
    assert "belong to --backend ray" in err.getvalue()
    assert simulate("sparks", games=4, seed=2) == simulate("sparks", games=4, seed=2, workers=1)
