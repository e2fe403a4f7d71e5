"""Heartbeats: each worker and beat process says, every few seconds, that it is alive.

A row per process (`name`, e.g. ``worker:celery@host-1`` or ``beat@host-1``), upserted
by the process itself: when it was last seen, and in `info` what it is doing (the match
ids a worker is running, the queue lengths beat measured). The reaper trusts a running
match to a worker only while that worker's heartbeat is fresh; `arena status` and the
admin page read them. Free of Celery: the workers call these functions.
"""

from __future__ import annotations

import dataclasses
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import JSON, Integer, String, delete, select
from sqlalchemy.orm import Mapped, Session, mapped_column

from .database import write_transaction
from .models import Base
from .types import utc_now


class Heartbeat(Base):
    """The last sign of life of one platform process."""

    __tablename__ = "heartbeats"

    name: Mapped[str] = mapped_column(String(200), primary_key=True)
    role: Mapped[str] = mapped_column(String(32))
    hostname: Mapped[str] = mapped_column(String(200))
    pid: Mapped[int] = mapped_column(Integer)
    started_at: Mapped[datetime]
    seen_at: Mapped[datetime]
    info: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)


@dataclasses.dataclass(frozen=True)
class HeartbeatRow:
    """A heartbeat as read, with its age at the time of reading."""

    name: str
    role: str
    hostname: str
    pid: int
    started_at: datetime
    seen_at: datetime
    info: dict[str, Any]
    age: timedelta

    def is_fresh(self, stale_after: timedelta) -> bool:
        """Whether the process was seen within `stale_after`."""
        return self.age <= stale_after


def beat(
    session: Session,
    name: str,
    *,
    role: str,
    hostname: str,
    pid: int,
    started_at: datetime,
    info: dict[str, Any] | None = None,
    now: datetime | None = None,
) -> None:
    """Record that process `name` is alive now (its own transaction; creates the row)."""
    when = now or utc_now()
    with write_transaction(session):
        row = session.get(Heartbeat, name, with_for_update=True)
        if row is None:
            row = Heartbeat(name=name)
            session.add(row)
        row.role, row.hostname, row.pid = role, hostname, pid
        row.started_at, row.seen_at = started_at, when
        row.info = dict(info or {})


def forget(session: Session, name: str) -> None:
    """Remove process `name`'s heartbeat (it stopped cleanly; its own transaction)."""
    with write_transaction(session):
        session.execute(delete(Heartbeat).where(Heartbeat.name == name))


def heartbeats(session: Session, *, now: datetime | None = None) -> list[HeartbeatRow]:
    """Every heartbeat, newest first (ends the read transaction it opens)."""
    when = now or utc_now()
    rows = [
        HeartbeatRow(
            row.name,
            row.role,
            row.hostname,
            row.pid,
            row.started_at,
            row.seen_at,
            dict(row.info or {}),
            when - row.seen_at,
        )
        for row in session.scalars(select(Heartbeat).order_by(Heartbeat.seen_at.desc()))
    ]
    session.rollback()
    return rows


def prune(session: Session, older_than: timedelta, *, now: datetime | None = None) -> int:
    """Delete heartbeats not seen for `older_than` (dead processes); how many went."""
    cutoff = (now or utc_now()) - older_than
    with write_transaction(session):
        result = session.execute(delete(Heartbeat).where(Heartbeat.seen_at < cutoff))
    return int(getattr(result, "rowcount", 0) or 0)
