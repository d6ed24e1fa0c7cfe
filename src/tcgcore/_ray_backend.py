"""Ray as a backend of :func:`tcgcore.simulate`: chunks of seeds as Ray tasks on a cluster.

Ray is an optional dependency (the ``ray`` extra); it is imported only when a Ray run or
session starts. This module knows chunks and tasks, not games: :mod:`tcgcore._simulate`
hands it the function that plays a chunk and the one that folds a chunk's result in.
"""

from __future__ import annotations

import builtins
import contextlib
import hashlib
import importlib
import importlib.util
import itertools
import logging
import os
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from types import ModuleType
from typing import Any, TypeVar

from ._errors import BackendError, OptionsError, SimulationError

__all__ = ["content_digest", "first_mismatch", "import_ray", "ray_session", "run_chunks"]

INSTALL_HINT = 'pip install "tcgcore[ray]" (in a checkout: pip install -e ".[ray]")'

#: how often a chunk is re-run after its worker process died (Ray's ``max_retries``); a
#: chunk is deterministic, so a re-run plays the same games and nothing is counted twice
MAX_RETRIES = 3

_Job = TypeVar("_Job")
_Result = TypeVar("_Result")


def import_ray() -> ModuleType:
    """The ``ray`` module, or :class:`BackendError` saying how to install it."""
    try:
        return importlib.import_module("ray")
    except ImportError as exc:
        raise BackendError(f"the Ray backend needs Ray, which is not installed here: "
                           f"{INSTALL_HINT}") from exc


#: files a content digest leaves out: byte code and compiled extensions, which differ
#: between machines for the same source
_NOT_CONTENT = (".pyc", ".pyo", ".so", ".pyd")


def content_digest(packages: tuple[str, ...]) -> str:
    """A BLAKE2b digest (32 hex digits) of the source and data files of the importable
    packages or modules ``packages`` (every file under a package's folders, by relative
    path and bytes, without ``__pycache__``, byte code and compiled extensions): two
    processes with the same digest load the same rules and card data. A name that is
    not importable counts as ``missing``."""
    digest = hashlib.blake2b(digest_size=16)
    for name in packages:
        digest.update(f"\0package {name}\0".encode())
        spec = importlib.util.find_spec(name)
        if spec is None:
            digest.update(b"missing")
            continue
        entries: list[tuple[str, Path]] = []
        for root in (Path(p) for p in spec.submodule_search_locations or []):
            entries.extend((f.relative_to(root).as_posix(), f) for f in root.rglob("*")
                           if f.is_file() and "__pycache__" not in f.parts
                           and f.suffix not in _NOT_CONTENT)
        if spec.submodule_search_locations is None and spec.origin:  # a single module
            entries.append((Path(spec.origin).name, Path(spec.origin)))
        for rel, f in sorted(entries):
            digest.update(f"\0{rel}\0".encode())
            digest.update(f.read_bytes())
    return digest.hexdigest()


def first_mismatch(driver: Mapping[str, str],
                   worker: Mapping[str, str]) -> tuple[str, str, str] | None:
    """The first entry of ``driver``'s fingerprint (``{package: version or digest}``) that
    ``worker``'s lacks or differs in, as ``(package, driver's, worker's)`` (``"missing"``
    when the worker lacks it); ``None`` when the worker has every one of them."""
    for package, version in driver.items():
        theirs = worker.get(package, "missing")
        if theirs != version:
            return package, version, theirs
    return None


def _joins_a_cluster(address: str | None) -> bool:
    return address is not None or bool(os.environ.get("RAY_ADDRESS"))


@contextlib.contextmanager
def ray_session(address: str | None = None, *, workers: int | None = None,
                runtime_env: Mapping[str, Any] | None = None) -> Iterator[int]:
    """Connect this process to Ray for the ``with`` block, so that several
    ``simulate(..., backend="ray")`` runs share one cluster; yields the cluster's CPUs.

    Joins the cluster at ``address`` (or ``RAY_ADDRESS``; ``"auto"`` is the one started
    on this machine by ``ray start``), or starts a local cluster of ``workers`` CPUs
    (default: this machine's). What it started or joined it stops or leaves at the end,
    also on an error or Ctrl-C, so no Ray process of a local cluster outlives the block
    (and puts back the built-in ``print``, which Ray's driver replaces while workers log).
    When the process is already connected (``ray.init`` was called), that connection is
    used as it is and left open.

    Args:
        address: a Ray cluster address, or ``None``.
        workers: CPUs of a local cluster (only when it starts one).
        runtime_env: the job's Ray runtime environment (packages, environment variables)
            for every worker (only when it connects).

    Raises:
        BackendError: Ray is not installed, or the cluster cannot be reached.
        OptionsError: ``workers`` given to join an existing cluster, or not a positive int.
    """
    ray = import_ray()
    if ray.is_initialized():
        yield int(ray.cluster_resources().get("CPU", 1))
        return
    kwargs: dict[str, Any] = {"include_dashboard": False, "logging_level": logging.WARNING}
    if workers is not None and (type(workers) is not int or workers < 1):
        raise OptionsError(f"workers must be a positive int, got {workers!r}")
    if _joins_a_cluster(address):
        if workers is not None and address is not None:
            raise OptionsError("workers= sizes a local cluster; a cluster joined at an address "
                               "has its own CPUs (limit a run with simulate(workers=...))")
        kwargs["address"] = address
    else:  # "local": a new cluster, even beside one that `ray start` left on this machine
        kwargs["address"] = "local"
        kwargs["num_cpus"] = workers if workers is not None else (os.cpu_count() or 1)
    if runtime_env is not None:
        kwargs["runtime_env"] = dict(runtime_env)
    saved_print = builtins.print  # Ray's driver swaps in its own print once workers log
    try:
        ray.init(**kwargs)
    except (ConnectionError, RuntimeError, ValueError) as exc:
        raise BackendError(f"cannot start or join a Ray cluster ({address or 'local'}): "
                           f"{exc}") from exc
    try:
        yield int(ray.cluster_resources().get("CPU", 1))
    finally:
        ray.shutdown()
        builtins.print = saved_print


def run_chunks(play: Callable[[_Job, int, int], _Result], job: _Job,
               chunks: Callable[[int], Iterator[range]], *, label: str,
               workers: int | None, address: str | None,
               runtime_env: dict[str, Any] | None,
               on_result: Callable[[range, _Result], None]) -> None:
    """Run ``play(job, chunk.start, len(chunk))`` as a Ray task for every chunk of
    ``chunks(slots)`` and hand each result to ``on_result(chunk, result)`` in this
    process, in the order the tasks finish.

    ``slots`` is ``workers`` or else the cluster's CPUs: at most that many chunks play at
    a time. When they are the whole cluster, one more chunk per slot waits queued, so a
    worker that finishes a chunk starts the next at once instead of idling for the
    round trip to this process; with fewer slots than CPUs exactly ``slots`` tasks are
    out (a queued one would play at once on a free CPU). Either way a run of any length
    holds a bounded number of tasks and results. ``job`` goes into the object store
    once; a worker process loads the plugins once and keeps them for every later chunk
    (and run) it plays. A task whose worker process dies
    is re-run by Ray (:data:`MAX_RETRIES`). When anything raises (``on_result``, a
    task lost for good, Ctrl-C), the tasks still out are cancelled (their worker
    processes stopped) before the error goes on.

    Raises:
        SimulationError: a chunk's worker died more than :data:`MAX_RETRIES` times or Ray
            failed the task in another way.
    """
    ray = import_ray()
    with ray_session(address, workers=workers if not _joins_a_cluster(address) else None) as cpus:
        slots = workers or max(1, cpus)
        ahead = 2 * slots if slots >= cpus else slots
        task = ray.remote(num_cpus=1, max_retries=MAX_RETRIES)(play)
        if runtime_env is not None:
            task = task.options(runtime_env=runtime_env)
        job_ref = ray.put(job)
        todo = chunks(slots)
        out: dict[Any, range] = {}  # object ref -> chunk

        def submit(chunk: range) -> None:
            out[task.remote(job_ref, chunk.start, len(chunk))] = chunk

        try:
            for chunk in itertools.islice(todo, ahead):
                submit(chunk)
            while out:
                # a short wait, again and again: Ctrl-C (KeyboardInterrupt) is raised between
                # two waits at once, not only when a chunk of many games comes back
                ready, _ = ray.wait(list(out), num_returns=1, timeout=0.5)
                for ref in ready:
                    chunk = out.pop(ref)
                    try:
                        result = ray.get(ref)
                    except ray.exceptions.RayError as exc:
                        raise SimulationError(
                            f"{label}: the Ray task of games {chunk.start}..{chunk.stop - 1} "
                            f"failed ({type(exc).__name__}; a chunk whose worker dies is re-run "
                            f"{MAX_RETRIES} times): {exc}",
                            game=label, index=None, seed=None, traceback="") from exc
                    nxt = next(todo, None)
                    if nxt is not None:
                        submit(nxt)
                    on_result(chunk, result)
        except BaseException:
            for ref in out:  # stop what is still out, at once, then let the error go on
                with contextlib.suppress(Exception):
                    ray.cancel(ref, force=True)
            raise
