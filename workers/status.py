"""The platform at a glance: queues, running matches, backlog, and worker heartbeats.

What `arena status` prints. The database holds everything but the queue lengths (read
from the broker now); with Redis, the workers are also asked directly (`celery inspect
ping`), which the SQL broker cannot do (it has no broadcast). The web site's admin page
reads the same rows through `arena.store.heartbeats` and `arena.store.dispatch`. The
embedded broker of `arena platform` has a heartbeat of its own (role ``broker``, written
by the platform's supervisor): whether it runs, is being restarted or was given up, how
often it was restarted and how it ended last (`describe_broker_server`).
"""

from __future__ import annotations

import dataclasses
from datetime import datetime, timedelta
from typing import Any

from celery import Celery

from arena.store import heartbeats
from arena.store.dispatch import match_counts, running_matches, version_counts
from arena.store.heartbeats import HeartbeatRow

from . import context
from .queues import queue_lengths


@dataclasses.dataclass(frozen=True)
class PlatformStatus:
    """A snapshot of the platform."""

    broker: str
    queues: dict[str, int] | None
    queue_error: str | None
    running: list[tuple[int, int | None, datetime | None]]
    matches: dict[str, int]
    versions: dict[str, int]
    heartbeats: list[HeartbeatRow]
    stale_after: timedelta
    pings: dict[str, Any] | None

    @property
    def broker_server(self) -> str | None:
        """The embedded broker's state in words (None: no platform supervises one)."""
        row = next((row for row in self.heartbeats if row.role == "broker"), None)
        if row is None:
            return None
        return describe_broker_server(row.info, row.is_fresh(self.stale_after), row.age)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready (`arena status --json`)."""
        return {
            "broker": self.broker,
            "broker_server": self.broker_server,
            "queues": self.queues,
            "queue_error": self.queue_error,
            "running": [
                {"match_id": i, "season_id": s, "started_at": t.isoformat() if t else None}
                for i, s, t in self.running
            ],
            "matches": self.matches,
            "versions": self.versions,
            "heartbeats": [
                {
                    "name": row.name,
                    "role": row.role,
                    "hostname": row.hostname,
                    "pid": row.pid,
                    "seen_seconds_ago": round(row.age.total_seconds(), 1),
                    "fresh": row.is_fresh(self.stale_after),
                    "info": row.info,
                }
                for row in self.heartbeats
            ],
            "pings": self.pings,
        }


def describe_broker_server(info: dict[str, Any], fresh: bool, age: timedelta) -> str:
    """The embedded broker's heartbeat `info` in words.

    >>> from datetime import timedelta as td
    >>> describe_broker_server({"state": "running", "pid": 41, "restarts": 0}, True, td(0))
    'running (pid 41)'
    >>> describe_broker_server({"state": "running", "pid": 57, "restarts": 1,
    ...     "last_exit": "killed by signal 9 (SIGKILL)"}, True, td(0))
    'running (pid 57); restarted 1 time, it was last killed by signal 9 (SIGKILL)'
    >>> describe_broker_server({"state": "restarting", "restarts": 2,
    ...     "last_exit": "exited with status 1"}, True, td(0))
    'down (exited with status 1): being restarted (restart 2)'
    >>> describe_broker_server({"state": "running", "pid": 41}, False, td(seconds=90))
    'no word for 90 s: is `arena platform` still running?'
    """
    if not fresh:
        return f"no word for {age.total_seconds():.0f} s: is `arena platform` still running?"
    state, restarts, last = info.get("state"), int(info.get("restarts") or 0), info.get("last_exit")
    if state == "given up":
        return f"down ({last}): given up after {restarts} restarts; restart the platform"
    if state == "restarting":
        return f"down ({last}): being restarted (restart {restarts})"
    said = f"running (pid {info.get('pid')})"
    if restarts:
        said += f"; restarted {restarts} time{'s' if restarts > 1 else ''}"
        said += f", it was last {last}" if last else ""
    return said


def _redacted(url: str) -> str:
    scheme, sep, rest = url.partition("://")
    if "@" in rest:
        rest = "***@" + rest.split("@", 1)[1]
    return f"{scheme}{sep}{rest}"


def collect_status(app: Celery, *, ping_timeout: float = 1.0) -> PlatformStatus:
    """Read everything `arena status` shows (the database must be reachable)."""
    settings = context.settings()
    queues: dict[str, int] | None = None
    error: str | None = None
    try:
        queues = queue_lengths(app)
    except Exception as failure:  # the broker is down: say so, show the rest
        error = f"{type(failure).__name__}: {failure}"
    with context.sessions()() as session:
        running = running_matches(session)
        matches = match_counts(session)
        versions = version_counts(session)
        rows = heartbeats.heartbeats(session)
    pings: dict[str, Any] | None = None
    if settings.broker_is_redis and error is None:
        try:
            pings = dict(app.control.inspect(timeout=ping_timeout).ping() or {})
        except Exception as failure:
            pings = {"error": str(failure)}
    return PlatformStatus(
        broker=_redacted(settings.broker_url),
        queues=queues,
        queue_error=error,
        running=running,
        matches=matches,
        versions=versions,
        heartbeats=rows,
        stale_after=timedelta(seconds=3 * settings.heartbeat_seconds),
        pings=pings,
    )
