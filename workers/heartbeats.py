"""Heartbeats: every worker and beat process writes one row every few seconds.

A thread in the worker's main process (started when the worker is ready) upserts its
row in ``heartbeats`` (`arena.store.heartbeats`) with the ids of the matches and
validations it is running, read from Celery's own record of its active requests. The
reaper trusts a running match to a worker only while that worker's heartbeat is fresh
and names it; `arena status` and the admin page show them. A clean shutdown removes the
row; a killed worker's row goes stale.
"""

from __future__ import annotations

import atexit
import logging
import os
import socket
import threading
from collections.abc import Callable
from datetime import datetime
from typing import Any

from celery import signals

from arena.store import heartbeats
from arena.store.types import utc_now

from . import context
from .app import RUN_MATCH, VALIDATE

log = logging.getLogger(__name__)


class HeartbeatThread:
    """Writes `name`'s heartbeat every `interval` seconds until stopped."""

    def __init__(
        self,
        name: str,
        role: str,
        info: Callable[[], dict[str, Any]],
        interval: float,
    ) -> None:
        self.name = name
        self.role = role
        self.info = info
        self.interval = interval
        self.started_at: datetime = utc_now()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"heartbeat-{role}", daemon=True)

    def start(self) -> HeartbeatThread:
        """Write the first heartbeat now, then keep writing in the background."""
        self._thread.start()
        return self

    def beat_once(self) -> None:
        """Write one heartbeat."""
        with context.sessions()() as session:
            heartbeats.beat(
                session,
                self.name,
                role=self.role,
                hostname=socket.gethostname(),
                pid=os.getpid(),
                started_at=self.started_at,
                info=self.info(),
            )

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self.beat_once()
            except Exception as error:  # the database is away: try again next time
                log.warning("heartbeat of %s not written: %s", self.name, error)
            self._stop.wait(self.interval)

    def stop(self) -> None:
        """Stop writing and remove the row (a clean shutdown)."""
        self._stop.set()
        self._thread.join(timeout=5)
        try:
            with context.sessions()() as session:
                heartbeats.forget(session, self.name)
        except Exception as error:
            log.warning("heartbeat of %s not removed: %s", self.name, error)


def active_work() -> dict[str, Any]:
    """The match and version ids this worker's pool is running now (Celery's own record)."""
    from celery.worker import state

    matches, validations = [], []
    for request in list(state.active_requests):
        try:
            target = int(request.args[0])
        except (IndexError, TypeError, ValueError):
            continue
        if request.name == RUN_MATCH:
            matches.append(target)
        elif request.name == VALIDATE:
            validations.append(target)
    return {
        "matches": sorted(matches),
        "validations": sorted(validations),
        "processed": int(sum(state.total_count.values())),
    }


_threads: dict[str, HeartbeatThread] = {}


def _consumed_queues(consumer: Any) -> list[str]:
    try:
        return sorted(consumer.app.amqp.queues.consume_from)
    except AttributeError:
        return []


@signals.worker_ready.connect
def _worker_ready(sender: Any = None, **_: Any) -> None:
    hostname = getattr(sender, "hostname", None) or f"celery@{socket.gethostname()}"
    queues = _consumed_queues(sender)
    thread = HeartbeatThread(
        f"worker:{hostname}",
        "worker",
        lambda: {**active_work(), "queues": queues},
        context.settings().heartbeat_seconds,
    ).start()
    _threads["worker"] = thread
    log.info("worker %s ready", hostname, extra={"worker": hostname, "queues": queues})


@signals.worker_shutdown.connect
def _worker_shutdown(**_: Any) -> None:
    thread = _threads.pop("worker", None)
    if thread is not None:
        thread.stop()


@signals.beat_init.connect
def _beat_init(**_: Any) -> None:
    thread = HeartbeatThread(
        f"beat@{socket.gethostname()}",
        "beat",
        lambda: {"pid": os.getpid()},
        context.settings().heartbeat_seconds,
    ).start()
    _threads["beat"] = thread
    atexit.register(thread.stop)
