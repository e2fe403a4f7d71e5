"""The workers' Prometheus metrics: matches started, finished, faulted and queued again, their
duration and CPU by part, bot starts, validations and sandbox refusals.

A Celery worker runs its tasks in prefork pool processes, so the metrics use
prometheus-client's multiprocess mode: each pool process writes its values to files in
one folder (``PROMETHEUS_MULTIPROC_DIR``), and the worker's main process serves their sum
(`start_exporter`). `arena worker --metrics-port` (``$ARENA_METRICS_PORT``) makes the
folder ``<data dir>/metrics/<worker name>`` (the name is unique across hosts, so workers
sharing a data volume never share it), empties it at start (`prepare_multiprocess_dir`:
the files of an earlier run would be summed in, and pids are reused) and serves it on
``$ARENA_METRICS_HOST`` (127.0.0.1 by default). `arena platform` does the same once for
all its workers (one folder, one port) and its workers only write (`ENV`).

Files are named by pool slot, not by pid (`use_pool_slots`): Celery replaces a pool
process after ``worker_max_tasks_per_child`` tasks (or a hard time limit), and files
named by pid would pile up, one set per process that ever ran, each read at every scrape;
a process taking a slot over carries on from its predecessor's values, so the folder
holds a few files per pool process whatever the uptime, and counters never go back.

Metrics are made on first use (`worker_metrics()`): the mode is chosen when the first
value is made, so a worker chooses it before any. In a process without the variable (the
tests' in-process tasks, `arena match run`) they are ordinary in-process metrics.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import re
import shutil
import threading
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any
from wsgiref.simple_server import WSGIServer

from billiard import current_process
from celery import signals
from prometheus_client import Counter, Histogram, start_http_server
from prometheus_client.metrics_core import Metric
from prometheus_client.registry import Collector, CollectorRegistry

from arena.match.faults import FaultKind

from .accounting import PARTS

ENV = "PROMETHEUS_MULTIPROC_DIR"
DURATION_BUCKETS = (0.5, 1.0, 2.5, 5.0, 10.0, 20.0, 30.0, 60.0, 120.0, 300.0, 600.0, 1800.0)
CPU_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 300.0)


@dataclasses.dataclass(frozen=True)
class WorkerMetrics:
    """The workers' metrics (docs/operations.md, "Metrics", names each)."""

    started: Counter
    finished: Counter
    requeued: Counter
    reaped: Counter
    faults: Counter
    faulted: Counter
    duration: Histogram
    cpu: Histogram
    bot_starts: Counter
    validations: Counter
    sandbox_refusals: Counter


@functools.cache
def worker_metrics() -> WorkerMetrics:
    """This process's worker metrics, registered in the default registry on first use."""
    return WorkerMetrics(
        started=Counter(
            "arena_matches_started", "Matches a worker claimed (queued → running) and set up."
        ),
        finished=Counter(
            "arena_matches_finished",
            "Matches a worker ended, by stored status (done, void, failed).",
            ["status"],
        ),
        requeued=Counter(
            "arena_matches_requeued",
            "Matches a worker put back in the queue before playing them: a transient "
            "infrastructure fault, or its own environment failing.",
            ["reason"],
        ),
        reaped=Counter(
            "arena_matches_reaped",
            "Stalled matches the reaper queued again (requeued) or made void (voided).",
            ["action"],
        ),
        faults=Counter(
            "arena_match_faults",
            "Bots' faults recorded in played matches, by kind.",
            ["kind"],
        ),
        faulted=Counter(
            "arena_matches_faulted",
            "Played matches with at least one fault of each kind.",
            ["kind"],
        ),
        duration=Histogram(
            "arena_match_duration_seconds",
            "Wall time of a played match, from its claim to its result stored.",
            buckets=DURATION_BUCKETS,
        ),
        cpu=Histogram(
            "arena_match_cpu_seconds",
            "Core-seconds of a played match by part (workers.accounting: seats, bots_start, "
            "bots_play, runner, recording).",
            ["part"],
            buckets=CPU_BUCKETS,
        ),
        bot_starts=Counter(
            "arena_bot_starts",
            "Sandboxed bots started for matches: forked from a warm template, or cold.",
            ["start"],
        ),
        validations=Counter(
            "arena_validations",
            "Validations a worker ended, by the version's status after it (ready, rejected, "
            "pending: waiting or released).",
            ["status"],
        ),
        sandbox_refusals=Counter(
            "arena_sandbox_refusals",
            "Uploaded versions rejected because this worker's sandbox is unavailable.",
        ),
    )


def record_match(
    status: str, duration: float, cpu: Mapping[str, float], faults: Iterable[Mapping[str, Any]]
) -> None:
    """Count one match a worker played and stored: its status, wall time, CPU by part
    (`MatchAccount.to_dict`), bot starts and the replay's faults."""
    metrics = worker_metrics()
    metrics.finished.labels(status).inc()
    metrics.duration.observe(duration)
    for part in PARTS:
        metrics.cpu.labels(part).observe(float(cpu.get(part, 0.0)))
    warm = int(cpu.get("warm", 0))
    cold = int(cpu.get("sandboxed", 0)) - warm
    if warm:
        metrics.bot_starts.labels("warm").inc(warm)
    if cold > 0:
        metrics.bot_starts.labels("cold").inc(cold)
    kinds: dict[str, int] = {}
    known = {kind.value for kind in FaultKind}
    for fault in faults:
        kind = str(fault.get("kind"))
        kind = kind if kind in known else "other"
        kinds[kind] = kinds.get(kind, 0) + 1
    for kind, count in kinds.items():
        metrics.faults.labels(kind).inc(count)
        metrics.faulted.labels(kind).inc()


# -- multiprocess mode ---------------------------------------------------------------------


def folder_name(worker_name: str) -> str:
    """A folder name for a worker's metrics (its Celery name, made file-safe).

    >>> folder_name("worker1@host.example")
    'worker1@host.example'
    >>> folder_name("../x y")
    '.._x_y'
    >>> folder_name(".."), folder_name("")
    ('worker', 'worker')
    """
    name = re.sub(r"[^A-Za-z0-9@._-]", "_", worker_name)
    return name if name.strip(".") else "worker"  # never "." or "..": it is emptied


def prepare_multiprocess_dir(path: Path) -> Path:
    """Make `path` this process's (and its children's) multiprocess folder, emptied first.

    Sets ``PROMETHEUS_MULTIPROC_DIR``. Raises RuntimeError when a metric value was already
    made in this process in single-process mode (the mode could no longer change).
    """
    from prometheus_client import values

    if path.exists():
        shutil.rmtree(path)
    path.mkdir(parents=True, mode=0o700)
    os.environ[ENV] = str(path)
    if values.ValueClass is values.MutexValue:  # imported before the variable was set
        if worker_metrics.cache_info().currsize:
            raise RuntimeError("worker metrics were made before the multiprocess folder was set")
        values.ValueClass = values.MultiProcessValue()  # type: ignore[no-untyped-call]
    return path


_slot_name: dict[str, str] = {}


def pool_slot() -> str:
    """This process's name in the multiprocess folder: the worker's name and its pool
    slot (``worker1@host-0``), ``…-main`` for the worker's main process. No underscore:
    prometheus-client reads the file name's parts by them."""
    index = getattr(current_process(), "index", None)
    return f"{_slot_name.get('worker', 'worker')}-{'main' if index is None else index}"


def use_pool_slots(worker_name: str) -> None:
    """Name this worker's multiprocess files by `pool_slot` rather than by pid.

    Raises RuntimeError when a worker metric was already made in this process."""
    from prometheus_client import values

    if worker_metrics.cache_info().currsize:
        raise RuntimeError("worker metrics were made before their files were named")
    _slot_name["worker"] = re.sub(r"[^A-Za-z0-9.@-]", "-", worker_name) or "worker"
    values.ValueClass = values.MultiProcessValue(process_identifier=pool_slot)  # type: ignore[no-untyped-call]


class FolderCollector(Collector):
    """prometheus-client's sum of a multiprocess folder, less the files caught empty.

    A process creates its file before sizing it, and a scrape in between would fail
    whole (prometheus/client_python#1199, open): an empty file holds no value yet, so it
    is left out of this scrape.
    """

    def __init__(self, path: Path) -> None:
        self.path = path

    def collect(self) -> Iterable[Metric]:
        """The sum of the folder's files that hold a header."""
        from prometheus_client.multiprocess import MultiProcessCollector

        files = []
        for file in sorted(self.path.glob("*.db")):
            try:
                if file.stat().st_size >= 8:
                    files.append(str(file))
            except FileNotFoundError:  # a live gauge's file removed meanwhile
                continue
        merged: Iterable[Metric] = MultiProcessCollector.merge(files, accumulate=True)  # type: ignore[no-untyped-call]
        return merged


def multiprocess_registry(path: Path) -> CollectorRegistry:
    """A registry that sums every process's files in `path` (`FolderCollector`)."""
    registry = CollectorRegistry()
    registry.register(FolderCollector(path))
    return registry


def start_exporter(path: Path, host: str, port: int) -> tuple[WSGIServer, threading.Thread]:
    """Serve the sum of `path`'s metrics on http://host:port/metrics in a thread.

    Port 0 takes a free port (the server's ``server_port``). Raises OSError when the
    address cannot be bound.
    """
    server, thread = start_http_server(port, addr=host, registry=multiprocess_registry(path))
    return server, thread


@signals.worker_process_shutdown.connect
def _forget_dead_process(pid: int | None = None, **_: Any) -> None:
    """A pool process that ends takes its live gauges (connections in use) with it."""
    folder = os.environ.get(ENV)
    if folder:
        from prometheus_client import multiprocess

        name = pool_slot() if _slot_name else (pid or os.getpid())
        multiprocess.mark_process_dead(name, folder)  # type: ignore[no-untyped-call]


@signals.worker_process_init.connect
def _watch_store(**_: Any) -> None:
    """A pool process of a worker that serves metrics times its commits and counts its
    connections (`arena.store.metrics.watch_store`)."""
    if os.environ.get(ENV):
        from arena.store.metrics import store_metrics, watch_store

        from . import context

        # A new process holds no connection, whatever a killed predecessor in its slot
        # left in the file.
        store_metrics().connections_in_use.set(0)
        watch_store(context.engine(), context.sessions())
