"""Run many seeded games with agents, in parallel processes, and summarise the outcomes.

The same arguments give the same report, whatever the number of workers: game
``i`` always uses match seed ``seed + i`` and agent seeds derived from it, and
results are combined in game order.
"""

from __future__ import annotations

import functools
import itertools
import math
import multiprocessing
import os
import signal
import traceback
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any

import msgspec

from . import _ray_backend
from ._agents import make_agent, play_out
from ._errors import OptionsError, SimulationError, UnknownGameError, WorkerMismatchError
from ._match import _create
from ._model import SeatCards
from ._plugins import Registry, _is_default_registry, _tcgcore_version, default_registry

__all__ = ["GameOutcome", "SimulationReport", "merge_reports", "simulate",
           "wilson_interval"]


class GameOutcome(msgspec.Struct, kw_only=True, array_like=True):
    """One simulated game.

    Attributes:
        index: position in the run (match seed = base seed + index).
        winners, losers, draw, reason: the result.
        first_player: the seat that took the first turn (the game's
            ``state.first_player`` if it has one, else seat 0).
        turns: ``state.turn`` at the end (rounds or turns, as the game counts).
        decisions: decisions made.
        detail: the result's detail map (e.g. a resolution).
        offered: the options offered, summed over the decisions (``offered / decisions``
            is the game's mean branching factor).
        cards: per seat, what the game's ``card_usage`` hook read (only when
            :func:`simulate` is asked for ``card_usage``; empty otherwise).
    """

    index: int
    winners: list[int]
    losers: list[int]
    draw: bool
    reason: str
    first_player: int
    turns: int
    decisions: int
    detail: dict[str, str | int | bool | None] = {}
    offered: int = 0
    cards: list[SeatCards] = []


class SimulationReport(msgspec.Struct, kw_only=True):
    """Summary of a simulation.

    Attributes:
        game, games, seed, players, agents, options: what was run.
        wins: games won by each seat.
        wins_by_agent: games won by each agent name (over all seats it played).
        draws: drawn games; ``no_winner``: games nobody won (e.g. a lost
            cooperative game).
        win_rate: per seat ``[rate, low, high]`` (Wilson 95 % interval).
        decisive: games with exactly one winner and at least one losing seat (never a
            solo game, nor a co-operative game that all seats win or lose together).
        first_player_wins: games the first player won, of ``decisive`` games;
            ``first_player_rate`` its ``[rate, low, high]``. :meth:`table` leaves the
            first-player line out when no game was decisive.
        reasons: how games ended, by result reason.
        details: counts of each ``key=value`` in result details (string values only).
        detail_games: per detail key, the games whose result reported it (the
            denominator of its rates; e.g. the games an investigator played).
        detail_rates: per detail key, per value ``[rate, low, high]`` (Wilson 95 %
            interval) of ``count / detail_games[key]``; :meth:`table` shows them as
            tables, one row per key (e.g. one per investigator name).
        avg_turns, avg_decisions: means per game.
        outcomes: every game, in order (omitted from tables).
    """

    game: str
    games: int
    seed: int
    players: int
    agents: list[str]
    options: dict[str, Any] = {}
    wins: list[int] = []
    wins_by_agent: dict[str, int] = {}
    draws: int = 0
    no_winner: int = 0
    win_rate: list[list[float]] = []
    decisive: int = 0
    first_player_wins: int = 0
    first_player_rate: list[float] = []
    reasons: dict[str, int] = {}
    details: dict[str, int] = {}
    detail_games: dict[str, int] = {}
    detail_rates: dict[str, dict[str, list[float]]] = {}
    avg_turns: float = 0.0
    avg_decisions: float = 0.0
    outcomes: list[GameOutcome] = []

    def table(self) -> str:
        """A readable Markdown table of the report."""
        lines = [
            f"{self.game}: {self.games} games, seeds {self.seed}..{self.seed + self.games - 1}, "
            f"agents {', '.join(self.agents)}",
            "",
            "| seat | agent | wins | win rate | 95 % interval |",
            "| --- | --- | --- | --- | --- |",
        ]
        for seat in range(self.players):
            rate, low, high = self.win_rate[seat]
            lines.append(f"| {seat} | {self.agents[seat]} | {self.wins[seat]} | {rate:.1%} "
                         f"| {low:.1%} – {high:.1%} |")
        lines.append("")
        lines.append(f"draws: {self.draws}; games with no winner: {self.no_winner}")
        if self.decisive:
            rate, low, high = self.first_player_rate
            lines.append(f"first player won {self.first_player_wins} of {self.decisive} decided "
                         f"games: {rate:.1%} ({low:.1%} – {high:.1%})")
        lines.append(f"average turns {self.avg_turns:.1f}, decisions {self.avg_decisions:.1f}")
        lines.append("how games ended: " + ", ".join(f"{k} {v}" for k, v in sorted(self.reasons.items())))
        lines.extend(self._detail_tables())
        return "\n".join(lines)

    def _detail_tables(self) -> list[str]:
        """The detail rates as Markdown tables: keys with a few short values (a resolution
        per investigator name, a status per seat) share a table whose columns are the
        values; the others (and a key alone with a single value) are listed one value per
        row."""
        groups: list[tuple[list[str], list[str]]] = []  # (keys, column values)
        long_rows: list[str] = []
        for key in sorted(self.detail_rates):
            values = sorted(self.detail_rates[key])
            if len(values) > _MAX_COLUMNS or any(len(v) > _MAX_COLUMN_TEXT for v in values):
                long_rows.extend(self._long_row(key, v) for v in values)
                continue
            for keys, columns in groups:
                union = set(columns) | set(values)
                if set(columns) & set(values) and len(union) <= _MAX_COLUMNS:
                    keys.append(key)
                    columns[:] = sorted(union)
                    break
            else:
                groups.append(([key], values))
        out: list[str] = []
        for keys, columns in groups:
            if len(columns) == 1 and len(keys) == 1:  # a lone key with a lone value
                long_rows.append(self._long_row(keys[0], columns[0]))
                continue
            out += ["", "| detail | games | " + " | ".join(columns) + " |",
                    "| --- | --- | " + " | ".join("---" for _ in columns) + " |"]
            for key in keys:
                of = self.detail_games.get(key, 0)
                cells = []
                for value in columns:
                    rate, low, high = self.detail_rates[key].get(value) or wilson_interval(0, of)
                    cells.append(f"{rate:.1%} [{low:.1%} – {high:.1%}]")
                out.append(f"| {key} | {of} | " + " | ".join(cells) + " |")
        if long_rows:
            out += ["", "| detail | value | games | rate | 95 % interval |",
                    "| --- | --- | --- | --- | --- |", *long_rows]
        return out

    def _long_row(self, key: str, value: str) -> str:
        rate, low, high = self.detail_rates[key][value]
        count = self.details.get(f"{key}={value}", 0)
        return (f"| {key} | {value} | {count} of {self.detail_games.get(key, 0)} | {rate:.1%} "
                f"| {low:.1%} – {high:.1%} |")


_MAX_COLUMNS = 6  # a detail key with more values is listed one value per row
_MAX_COLUMN_TEXT = 24  # ... and so is one with a longer value


def wilson_interval(successes: int, trials: int, z: float = 1.959964) -> list[float]:
    """``[rate, low, high]``: the observed rate and its Wilson score interval (95 % by default)."""
    if trials == 0:
        return [0.0, 0.0, 1.0]
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return [p, max(0.0, centre - half), min(1.0, centre + half)]


def _agent_seed(seed: int, index: int, seat: int) -> int:
    return ((seed + index) * 1_000_003 + seat * 7_919 + 17) % 2**64


def _play_game(game: str, seed: int, index: int, players: int | None, options: dict[str, Any],
               agent_names: list[str], registry: Registry | None,
               keep_events: bool, card_usage: bool = False) -> GameOutcome:
    """Game ``index`` of a run from base seed ``seed``: match seed ``seed + index``, agent
    seeds from :func:`_agent_seed`. ``registry=None`` is the default one (a worker's).
    ``card_usage``: keep the events and record the game's ``card_usage`` hook's reading."""
    # unless an agent or the card hook reads them, keep no events (same games, less memory)
    match = _create(game, seed=seed + index, players=players, registry=registry,
                    logger=None, options=dict(options), keep_events=keep_events or card_usage)
    spec = match.spec
    n = match.state.num_players
    agents = [make_agent(spec, agent_names[s % len(agent_names)], _agent_seed(seed, index, s))
              for s in range(n)]
    play_out(match, agents, max_decisions=1_000_000)
    res = match.result
    assert res is not None
    cards: list[SeatCards] = []
    if card_usage and spec.card_usage is not None:
        cards = list(spec.card_usage(match.state, match.events_since(0, player="all")))
    return GameOutcome(
        index=index, winners=list(res.winners), losers=list(res.losers), draw=res.draw,
        reason=res.reason, first_player=int(getattr(match.state, "first_player", 0)),
        turns=match.state.turn, decisions=len(match.decisions), detail=dict(res.detail),
        offered=sum(d.options for d in match.decisions), cards=cards,
    )


def _run_chunk(args: tuple[str, int, range, int | None, dict[str, Any], list[str],
                           Registry | None, bool, bool]) -> list[GameOutcome]:
    game, seed, indices, players, options, agent_names, registry, keep_events, usage = args
    out = []
    stop = _STOP[0] if _STOP else None
    for index in indices:
        if stop is not None and stop.value:
            break  # the run is being abandoned (see simulate): its caller reads no more
        out.append(_play_game(game, seed, index, players, options, agent_names, registry,
                              keep_events, usage))
    return out


class _ChunkFailure(msgspec.Struct, kw_only=True):
    """What a Ray chunk returns instead of its report when one of its games raised."""

    index: int
    error: str
    traceback: str


class _WorkerMismatch(msgspec.Struct, kw_only=True):
    """What a Ray chunk returns instead of playing when its worker runs other code than the
    driver (see :func:`tcgcore._ray_backend.first_mismatch`)."""

    package: str
    driver: str
    worker: str


#: a chunk's job for the Ray backend: game, base seed, players, options, seat agent
#: names, keep_events, keep_outcomes, card_usage, the driver's code fingerprint (put in the
#: object store once per run)
_Job = tuple[str, int, int | None, dict[str, Any], list[str], bool, bool, bool, dict[str, str]]


def _fingerprint(game: str, registry: Registry) -> dict[str, str]:
    """``{distribution: version}`` of tcgcore and ``game``'s plugin, and ``"<game>
    content"``: a digest of the packages that hold the game (only tcgcore's version when
    the game is not registered)."""
    try:
        versions = registry.plugin_versions(game)
    except UnknownGameError:
        return {"tcgcore": _tcgcore_version()}
    return {**versions, f"{game} content":
            _ray_backend.content_digest(tuple(registry.game_packages(game)))}


@functools.cache
def _worker_fingerprint(game: str) -> dict[str, str]:
    """:func:`_fingerprint` of this worker process, computed once: the code it loaded."""
    return _fingerprint(game, default_registry())


def _play_chunk(job: _Job, start: int, count: int) -> bytes | _ChunkFailure | _WorkerMismatch:
    """Games ``start .. start + count - 1`` of a run, on a Ray worker: the msgpack bytes of
    their own :class:`SimulationReport` (base seed ``seed + start``, which plays exactly
    those games), or the first failure with its traceback (the chunk stops there), or,
    before any game, the first package whose version or content differs from the
    driver's."""
    game, seed, players, options, names, keep_events, keep, usage, driver = job
    mismatch = _ray_backend.first_mismatch(driver, _worker_fingerprint(game))
    if mismatch is not None:
        return _WorkerMismatch(package=mismatch[0], driver=mismatch[1], worker=mismatch[2])
    tally = _Tally(len(names), names, keep)
    base = seed + start
    for i in range(count):
        try:
            outcome = _play_game(game, base, i, players, options, names, None, keep_events,
                                 usage)
        except Exception as exc:
            return _ChunkFailure(index=start + i, error=f"{type(exc).__name__}: {exc}",
                                 traceback=traceback.format_exc())
        tally.add([outcome])
    return msgspec.msgpack.encode(tally.report(game, base, options))


#: In a worker process of :func:`simulate`, the run's stop flag (a shared byte without a
#: lock, ``multiprocessing.RawValue``, handed over when the process starts, see
#: :func:`_init_worker`): set to 1 when the run is being abandoned, so that the jobs still
#: queued and the one being played end at the next game. A lock-free byte, because a
#: worker interrupted while holding a shared lock (an ``Event``'s) would leave it held and
#: every later reader and writer blocked. Empty in the parent process.
_STOP: list[Any] = []


def _init_worker(stop: Any) -> None:
    """Worker process start-up: keep the run's stop flag (:data:`_STOP`), and leave Ctrl-C
    to the parent process, which sets the flag (a worker interrupted in the middle of a
    game would only print a traceback)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _STOP[:] = [stop]


_MAX_CHUNK = 50  # games per job: enough to make a job's overhead small, few enough for progress

#: jobs handed to the worker processes ahead of the one whose results are awaited, per
#: worker: enough to keep every worker busy, few enough that a run of any length holds a
#: bounded number of jobs and results at a time
_JOBS_AHEAD_PER_WORKER = 4


def _batches(games: int, workers: int) -> Iterator[range]:
    """Game indices ``0 .. games - 1`` cut into jobs, in order, made as they are taken
    (a run of any length holds none of them in advance).

    One worker: equal chunks (a progress report per chunk). Several: chunks that shrink as
    the work runs out (each a quarter of the remaining games per worker, at most
    ``_MAX_CHUNK``, at least 1), so that the workers finish together instead of one of
    them playing a last large chunk alone while the others idle. Which games a job holds
    never changes a game's seeds, so the report is the same either way.
    """
    if workers == 1:
        chunk = max(1, min(_MAX_CHUNK, games // 4 or 1))
        for i in range(0, games, chunk):
            yield range(i, min(games, i + chunk))
        return
    start = 0
    while start < games:
        size = max(1, min(_MAX_CHUNK, -(-(games - start) // (workers * 4))))
        yield range(start, min(games, start + size))
        start += size


def _max_workers() -> int:
    """The most worker processes :func:`simulate` starts: four per CPU this process may
    run on (more only add memory and switching, never speed)."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not on Linux
        cpus = os.cpu_count() or 1
    return 4 * max(1, cpus)


def simulate(
    game: str,
    *,
    games: int,
    seed: int = 0,
    players: int | None = None,
    options: dict[str, Any] | None = None,
    agents: Sequence[str] = ("random",),
    workers: int | None = None,
    registry: Registry | None = None,
    progress: Callable[[int, int], None] | None = None,
    keep_outcomes: bool = True,
    keep_events: bool = False,
    backend: str = "local",
    address: str | None = None,
    runtime_env: Mapping[str, Any] | None = None,
    card_usage: bool = False,
) -> SimulationReport:
    """Play ``games`` seeded games and summarise them.

    Memory does not grow with ``games`` when ``keep_outcomes`` is ``False`` (beyond one
    counter per distinct string value the games' result details report): each game's
    outcome is counted into the report as it arrives, in game order, and dropped; the
    jobs of a run are made as the workers take them. If the run fails (a game raises, a
    ``progress`` callback raises, Ctrl-C), the worker processes stop at their next game
    and the error is raised.

    ``backend="ray"`` plays the games as Ray tasks, one chunk of consecutive seeds per
    task, on the cluster at ``address`` (or ``RAY_ADDRESS``), on the cluster this
    process is already connected to, or on a local one started for the call and stopped
    after it (:func:`tcgcore.ray_session` keeps one for several runs). The report is the
    local pool's, field for field, whatever the number of workers and the order the
    chunks finish in (each chunk's own report is folded in as it arrives, see
    :func:`merge_reports`). A chunk whose worker process dies is re-run (up to three
    times), so no game is lost or counted twice. Workers load the plugins through their
    entry points: every node needs the same packages (``runtime_env`` can add them).

    Args:
        game: registered game name.
        games: how many games (``>= 1``).
        seed: base seed; game ``i`` uses match seed ``seed + i``.
        players: seats (game default if ``None``).
        options: game options (rules variants, decks …): a mapping of option names
            (``str``) to values.
        agents: agent names per seat (one name for every seat, or one per seat; a
            single ``str`` is one name).
        workers: processes to use (default 1, which runs in this process). At most four
            per CPU this process may run on; no more processes start than there are jobs
            (a run of fewer games than workers starts fewer). The report does not depend
            on it. With ``backend="ray"``: the chunks that run at once (default: every
            CPU of the cluster); a local cluster started for the call gets that many CPUs.
        registry: where to find the game. Only with ``workers=1`` (or the default
            registry itself): worker processes use the default registry of installed
            plugins, so another registry (blocked plugins, plugins registered in this
            process) is refused with ``workers > 1`` rather than silently not used.
        progress: called as ``progress(done, total)`` after each chunk (in this
            process), or ``None``.
        keep_outcomes: keep every game's outcome in the report.
        keep_events: let the matches keep their event history (see
            :func:`tcgcore.new_match`). Off by default: the games are the same and
            run faster without it, but an agent whose ``decide`` reads
            ``match.events_since`` then gets an ``EngineError``; pass ``True`` for
            such agents.
        backend: ``"local"`` (this process and its worker processes) or ``"ray"``
            (needs the ``ray`` extra: ``pip install "tcgcore[ray]"``).
        address: with ``backend="ray"``, the cluster to join (``"auto"``,
            ``"ray://host:10001"``, ``"host:6379"``); ``None`` uses ``RAY_ADDRESS`` if set,
            else starts a local cluster. Not used when this process is already connected.
        runtime_env: with ``backend="ray"``, a Ray runtime environment for the game tasks
            (e.g. ``{"pip": ["tcgcore-guimi-revival"]}`` or ``{"env_vars": {...}}``).
        card_usage: record in each outcome (``GameOutcome.cards``) what every seat drew,
            held in its opening hand and played, as the game's ``card_usage`` hook reads
            it from the event log (the matches keep their events for it; a game without
            the hook records nothing). Used by :func:`tcgcore.balance`.

    Raises:
        OptionsError: bad counts (``games`` or ``workers`` not a positive int, more
            workers than the limit above), a seed that is not an int or seeds outside
            ``0..2**64-1``, ``options`` not a mapping with ``str`` keys, ``agents``
            not a name or a non-empty sequence of names, ``progress`` not callable,
            ``keep_outcomes`` or ``keep_events`` not a bool, unknown agents or options
            (checked on game 0 before any worker starts), or a registry other than
            the default one with ``workers > 1`` or ``backend="ray"``; an unknown
            backend, or ``address``/``runtime_env`` without ``backend="ray"``.
        BackendError: ``backend="ray"`` without Ray installed (the message says how to
            install it).
        WorkerMismatchError: with ``backend="ray"``, a worker has another version of
            tcgcore or of the game's plugin, or other game content, than this process
            (the error names the package and both versions); no game of it is counted.
        SimulationError: with ``backend="ray"``, a game raised on a worker (the error
            names the game, its seed and carries the worker's traceback) or a chunk's
            worker died more often than it may be re-run.
    """
    if type(games) is not int or games < 1:
        raise OptionsError(f"games must be a positive int, got {games!r}")
    if backend not in ("local", "ray"):
        raise OptionsError(f"backend must be 'local' or 'ray', got {backend!r}")
    if backend != "ray" and (address is not None or runtime_env is not None):
        raise OptionsError("address= and runtime_env= belong to backend='ray'")
    if workers is not None and (type(workers) is not int or workers < 1):
        raise OptionsError(f"workers must be a positive int, got {workers!r}")
    sized_elsewhere = False  # by a Ray cluster this process joins or already uses
    if backend == "ray":
        ray = _ray_backend.import_ray()  # first: without Ray, say how to install it
        if address is not None and not isinstance(address, str):
            raise OptionsError(f"address must be a Ray cluster address (str), got {address!r}")
        sized_elsewhere = bool(address is not None or os.environ.get("RAY_ADDRESS")
                               or ray.is_initialized())
        if registry is not None and not _is_default_registry(registry):
            raise OptionsError(
                "registry= does not reach Ray workers: they use the default registry of "
                "installed plugins (tcgcore.default_registry()); install the game's plugin on "
                "every node, or play with the local backend and workers=1")
        if runtime_env is not None and not isinstance(runtime_env, Mapping):
            raise OptionsError(f"runtime_env must be a dict, got {type(runtime_env).__name__}")
    limit = _max_workers()
    if workers is not None and workers > limit and not sized_elsewhere:
        raise OptionsError(f"workers={workers} is more than {limit} (four per CPU this process "
                           "may run on); more processes would only add memory and switching")
    if backend == "local" and workers is not None and workers > 1 and registry is not None \
            and not _is_default_registry(registry):
        raise OptionsError(
            "registry= works only with workers=1: worker processes use the default registry "
            "of installed plugins (tcgcore.default_registry()), not this one; play with "
            "workers=1, or install the game's plugin so that its entry point registers it")
    if type(seed) is not int:
        raise OptionsError(f"seed must be an int, got {type(seed).__name__}")
    if seed < 0 or seed + games - 1 >= 2**64:  # every game's seed is a match seed
        raise OptionsError(f"the seeds {seed}..{seed + games - 1} of {games} games must lie "
                           "in 0..2**64-1")
    if options is not None and not isinstance(options, Mapping):
        raise OptionsError(f"options must be a dict of option names to values, got "
                           f"{type(options).__name__}")
    bad_keys = [k for k in (options or {}) if type(k) is not str]
    if bad_keys:
        raise OptionsError(f"option names must be strings, got {bad_keys[0]!r}")
    if progress is not None and not callable(progress):
        raise OptionsError(f"progress must be a function progress(done, total) or None, got "
                           f"{type(progress).__name__}")
    if type(keep_outcomes) is not bool:
        raise OptionsError(f"keep_outcomes must be True or False, got {keep_outcomes!r}")
    if type(card_usage) is not bool:
        raise OptionsError(f"card_usage must be True or False, got {card_usage!r}")
    given: object = agents  # the annotation promises a sequence; a caller may pass anything
    if isinstance(given, str) and given:
        names = [str.__str__(given)]
    elif isinstance(given, Sequence) and not isinstance(given, str) and given and all(
            isinstance(a, str) and a for a in given):
        names = [str.__str__(a) for a in given]  # the text itself, also of a str subclass
    else:
        raise OptionsError("agents must be an agent name or a non-empty list of names, got "
                           f"{agents!r}")
    opts = dict(options or {})
    reg = registry if registry is not None else default_registry()
    probe = _create(game, seed=seed, players=players, registry=reg, logger=None,
                    options=dict(opts), keep_events=keep_events)
    n = probe.state.num_players
    if len(names) not in (1, n):
        raise OptionsError(f"{game}: give one agent name or {n}, got {len(names)}")
    for name in set(names):
        make_agent(probe.spec, name, 0)
    seat_names = [names[s % len(names)] for s in range(n)]
    tally = _Tally(n, seat_names, keep_outcomes)
    if backend == "ray":
        _run_on_ray(tally, (game, seed, players, opts, seat_names, keep_events, keep_outcomes,
                            card_usage, _fingerprint(game, reg)),
                    games=games, workers=workers, address=address,
                    runtime_env=None if runtime_env is None else dict(runtime_env),
                    progress=progress)
        return tally.report(game, seed, opts)
    workers = workers or 1
    if workers == 1:
        for batch in _batches(games, workers):
            tally.add(_run_chunk((game, seed, batch, players, opts, seat_names, registry,
                                  keep_events, card_usage)))
            if progress:
                progress(tally.games, games)
    else:
        method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
        ctx = multiprocessing.get_context(method)
        jobs = _batches(games, workers)
        # no more processes than jobs: a run of 3 games with 8 workers starts 3
        first = list(itertools.islice(jobs, workers * _JOBS_AHEAD_PER_WORKER))
        stop = ctx.RawValue("b", 0)
        with ProcessPoolExecutor(max_workers=min(workers, len(first)), mp_context=ctx,
                                 initializer=_init_worker, initargs=(stop,)) as pool:
            pending: deque[Future[list[GameOutcome]]] = deque()

            def submit(batch: range) -> None:
                pending.append(pool.submit(
                    _run_chunk, (game, seed, batch, players, opts, seat_names, None,
                                 keep_events, card_usage)))

            try:
                for batch in first:
                    submit(batch)
                while pending:  # results in job order, so outcomes arrive in game order
                    result = pending.popleft().result()
                    nxt = next(jobs, None)
                    if nxt is not None:
                        submit(nxt)
                    tally.add(result)
                    if progress:
                        progress(tally.games, games)
            except BaseException:
                # a game that failed, a progress callback that raised, Ctrl-C: the jobs not
                # handed to a process yet are dropped, and those the processes hold end at
                # their next game, so the error reaches the caller within a game's time
                # instead of after every queued job was played to no purpose
                stop.value = 1
                for future in pending:
                    future.cancel()
                raise
    return tally.report(game, seed, opts)


def _run_on_ray(tally: _Tally, job: _Job, *, games: int, workers: int | None,
                address: str | None, runtime_env: dict[str, Any] | None,
                progress: Callable[[int, int], None] | None) -> None:
    """Play the run's games as Ray tasks (:func:`_play_chunk`) and fold each chunk's report
    into ``tally`` as it arrives, in whatever order the chunks finish."""
    game, seed = job[0], job[1]

    def fold(chunk: range, result: bytes | _ChunkFailure | _WorkerMismatch) -> None:
        if isinstance(result, _WorkerMismatch):
            raise WorkerMismatchError(
                f"{game}: a Ray worker refused the run: it has {result.package} "
                f"{result.worker}, this process {result.driver} (every node needs the same "
                f"packages; docs/distributed.md)", game=game, package=result.package,
                driver=result.driver, worker=result.worker)
        if isinstance(result, _ChunkFailure):
            raise SimulationError(
                f"{game}: game {result.index} (match seed {seed + result.index}) failed on a "
                f"Ray worker: {result.error}\nworker traceback:\n{result.traceback}",
                game=game, index=result.index, seed=seed + result.index,
                traceback=result.traceback)
        tally.add_report(msgspec.msgpack.decode(result, type=SimulationReport),
                         offset=chunk.start)
        if progress:
            progress(tally.games, games)

    _ray_backend.run_chunks(_play_chunk, job, lambda slots: _batches(games, slots),
                            label=game, workers=workers, address=address,
                            runtime_env=runtime_env, on_result=fold)


class _Tally:
    """The counts of a :class:`SimulationReport`, folded one outcome at a time (in game
    order), so that a run holds no outcome it does not keep."""

    __slots__ = ("by_agent", "decisions", "decisive", "details", "draws", "first_wins",
                 "games", "keep", "n", "names", "no_winner", "outcomes", "per_key", "reasons",
                 "turns", "wins")

    def __init__(self, n: int, names: list[str], keep: bool) -> None:
        self.n = n
        self.names = names
        self.keep = keep
        self.outcomes: list[GameOutcome] = []
        self.games = self.turns = self.decisions = 0
        self.draws = self.no_winner = self.decisive = self.first_wins = 0
        self.wins = [0] * n
        self.by_agent: Counter[str] = Counter()
        self.reasons: Counter[str] = Counter()
        self.details: Counter[str] = Counter()
        self.per_key: dict[str, Counter[str]] = {}

    def add(self, outcomes: list[GameOutcome]) -> None:
        """Count ``outcomes`` (the next games, in order) into the report."""
        for o in outcomes:
            self.games += 1
            self.turns += o.turns
            self.decisions += o.decisions
            for w in o.winners:
                self.wins[w] += 1
                self.by_agent[self.names[w]] += 1
            self.draws += o.draw
            if not o.winners and not o.draw:
                self.no_winner += 1
            if len(o.winners) == 1 and self.n > 1:  # someone won and someone lost
                self.decisive += 1
                self.first_wins += o.winners[0] == o.first_player
            self.reasons[o.reason] += 1
            for key, value in o.detail.items():
                if isinstance(value, str):
                    self.details[f"{key}={value}"] += 1
                    self.per_key.setdefault(key, Counter())[value] += 1
        if self.keep:
            self.outcomes += outcomes

    def add_report(self, part: SimulationReport, *, offset: int) -> None:
        """Count a partial report (its games are this run's ``offset ..``) into this one.

        The per-game sums and the per-value detail counts come back exactly from the
        report's means and rates (``round(mean * games)``: a float holds an integer's
        quotient closely enough for that below 2**51); a figure that does not come back
        (a report not made by tcgcore) is refused with ``OptionsError``."""
        self.games += part.games
        self.turns += _count_back(part.avg_turns, part.games, "avg_turns")
        self.decisions += _count_back(part.avg_decisions, part.games, "avg_decisions")
        for seat, won in enumerate(part.wins):
            self.wins[seat] += won
        self.by_agent.update(part.wins_by_agent)
        self.draws += part.draws
        self.no_winner += part.no_winner
        self.decisive += part.decisive
        self.first_wins += part.first_player_wins
        self.reasons.update(part.reasons)
        self.details.update(part.details)
        for key, rates in part.detail_rates.items():
            of = part.detail_games.get(key, 0)
            counts = self.per_key.setdefault(key, Counter())
            for value, rate in rates.items():
                counts[value] += _count_back(rate[0], of, f"detail_rates[{key!r}]")
        if self.keep:
            self.outcomes += [msgspec.structs.replace(o, index=o.index + offset)
                              for o in part.outcomes]

    def report(self, game: str, seed: int, options: dict[str, Any]) -> SimulationReport:
        """The report of every game counted so far (at least one)."""
        total = self.games
        per_key = self.per_key
        self.outcomes.sort(key=_game_index)  # chunks of a Ray run arrive in any order
        return SimulationReport(
            game=game, games=total, seed=seed, players=self.n, agents=self.names,
            options=options, wins=self.wins, wins_by_agent=dict(sorted(self.by_agent.items())),
            draws=self.draws, no_winner=self.no_winner,
            win_rate=[wilson_interval(w, total) for w in self.wins], decisive=self.decisive,
            first_player_wins=self.first_wins,
            first_player_rate=wilson_interval(self.first_wins, self.decisive),
            reasons=dict(sorted(self.reasons.items())), details=dict(sorted(self.details.items())),
            detail_games={k: sum(c.values()) for k, c in sorted(per_key.items())},
            detail_rates={k: {v: wilson_interval(count, sum(c.values()))
                              for v, count in sorted(c.items())}
                          for k, c in sorted(per_key.items())},
            avg_turns=self.turns / total,
            avg_decisions=self.decisions / total,
            outcomes=self.outcomes,
        )


def _game_index(outcome: GameOutcome) -> int:
    return outcome.index


def _count_back(mean: float, of: int, field: str) -> int:
    """The integer ``count`` whose ``count / of`` is ``mean`` (0 when ``of`` is 0)."""
    if of == 0:
        return 0
    count = round(mean * of)
    if count / of != mean:
        raise OptionsError(f"{field} {mean!r} over {of} games is not a count of games: not a "
                           "report made by tcgcore.simulate")
    return count


def merge_reports(reports: Iterable[SimulationReport]) -> SimulationReport:
    """One report from partial reports of one run: the same game, players, agents and
    options, with seed ranges that follow each other without gap or overlap (in any
    order), e.g. ``simulate(g, games=500, seed=0)`` and ``simulate(g, games=500,
    seed=500)`` on two machines. The result equals ``simulate(g, games=1000, seed=0)``
    field for field: every figure is recounted from the parts' counts (means and rates
    are turned back into their exact counts), not averaged.

    Outcomes are kept (re-indexed from the first seed) only when every part kept all of
    its games' outcomes; otherwise the merged report has none.

    Raises:
        OptionsError: no reports, something that is not a ``SimulationReport``, parts of
            different runs (game, players, agents or options differ), seed ranges with a
            gap or an overlap, a part that kept only some outcomes, or figures that are no
            counts of games (a report not made by :func:`simulate`).
    """
    parts = list(reports)
    if not parts:
        raise OptionsError("merge_reports needs at least one report")
    for part in parts:
        if not isinstance(part, SimulationReport):
            raise OptionsError(f"merge_reports takes SimulationReports, got "
                               f"{type(part).__name__}")
    parts.sort(key=lambda r: r.seed)
    first = parts[0]
    same = (first.game, first.players, first.agents, msgspec.to_builtins(first.options))
    for prev, part in itertools.pairwise(parts):
        if (part.game, part.players, part.agents, msgspec.to_builtins(part.options)) != same:
            raise OptionsError(f"these reports are not parts of one run: seeds {prev.seed}.. "
                               f"and {part.seed}.. differ in game, players, agents or options")
        end = prev.seed + prev.games
        if part.seed != end:
            raise OptionsError(f"the seed ranges {prev.seed}..{end - 1} and {part.seed}.."
                               f"{part.seed + part.games - 1} "
                               + ("overlap" if part.seed < end else "leave a gap"))
    for part in parts:
        if len(part.wins) != part.players or len(part.agents) != part.players:
            raise OptionsError(f"the report of seeds {part.seed}.. has {len(part.wins)} win "
                               f"counts and {len(part.agents)} agents for {part.players} seats")
        if len(part.outcomes) not in (0, part.games):
            raise OptionsError(f"the report of seeds {part.seed}.. keeps {len(part.outcomes)} "
                               f"outcomes of {part.games} games")
    keep = all(len(p.outcomes) == p.games for p in parts)
    tally = _Tally(first.players, list(first.agents), keep)
    for part in parts:
        tally.add_report(part, offset=part.seed - first.seed)
    return tally.report(first.game, first.seed, first.options)


def _summarise(game: str, seed: int, n: int, names: list[str], options: dict[str, Any],
               outcomes: list[GameOutcome], keep: bool) -> SimulationReport:
    """The report of ``outcomes`` (in game order), as :func:`simulate` makes it."""
    tally = _Tally(n, names, keep)
    tally.add(outcomes)
    return tally.report(game, seed, options)
