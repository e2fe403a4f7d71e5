"""The platform at a glance: queues, running matches, backlog, and worker heartbeats.

What `arena status` prints. The database holds everything but the queue lengths (read
from the broker now); with Redis, the workers are also asked directly (`celery inspect
ping`), which the SQL broker cannot do (it has no broadcast). The web site's admin page
reads the same rows through `arena.store.heartbeats` and `arena.store.dispatch`.
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

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready (`arena status --json`)."""
        return {
            "broker": self.broker,
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
