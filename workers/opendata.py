"""The platform writes its open data itself (issue 35, item 4; docs/open-data.md).

`publish_open_data` (beat, every `OPEN_DATA_SECONDS`, on the default queue, never the
matches queue) writes, into the folder the site serves downloads from
(``$ARENA_DATA_DIR/open-data``: `web.data.open_data_dir`, `arena data export`'s default):

* the dump of every finished season with rated matches that has none yet;
* for a season still running (a long ladder), the dump of every calendar month that has
  ended, in which rated matches finished, and that has none yet.

It is idempotent: what has a `DataExport` row is never written again (an organiser's
`arena data export` replaces a dump on purpose). Two runs at once (two workers, or a beat
tick while a long export is still writing) are safe: each dump is written under an
exclusive, non-blocking lock on a file of its own in the open-data folder, and the
`DataExport` row is looked for again once the lock is held, so the second run skips it.
"""

from __future__ import annotations

import fcntl
import logging
import os
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

from sqlalchemy import exists, select, text
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from arena.data.export import ExportError, _rated, export_season, month_bounds
from arena.store.models import DataExport, Match, Season, SeasonStatus
from arena.store.types import utc_now

from . import context
from .app import OPEN_DATA, app

log = logging.getLogger(__name__)

SOFT_LIMIT: Final = 3_600
"""The task's own time limits, far above Celery's default of two minutes: an export of
6,557 matches took 119 core-seconds (docs/benchmarks.md, "Open data export")."""


@dataclass(frozen=True)
class Due:
    """A dump to write: a season whole (`month` None) or one ended month of it."""

    season_id: int
    month: str | None

    @property
    def name(self) -> str:
        return f"season-{self.season_id}" + (f"-{self.month}" if self.month else "")


def open_data_root() -> Path:
    """The folder the site serves dumps from (`web.data.open_data_dir` without a Flask
    setting): ``$ARENA_DATA_DIR/open-data``, where ARENA_DATA_DIR is the workers' data
    folder."""
    return context.settings().data_dir / "open-data"


def _month(when: datetime) -> str:
    return when.astimezone(UTC).strftime("%Y-%m")


def _ended_months(start: datetime, now: datetime) -> Iterator[str]:
    """Every calendar month from `start`'s up to the last one that ended before `now`."""
    month = _month(start)
    while True:
        _, end = month_bounds(month)
        if end > now:
            return
        yield month
        month = _month(end)


def _has_dump(session: Session, season_id: int, period: str) -> bool:
    return bool(
        session.scalar(
            select(exists().where(DataExport.season_id == season_id, DataExport.period == period))
        )
    )


def _has_rated(session: Session, season_id: int, month: str | None) -> bool:
    return bool(session.scalar(select(exists().where(*_rated(season_id, month)))))


def due_dumps(session: Session, now: datetime | None = None) -> list[Due]:
    """The dumps that should exist and do not, oldest season first."""
    when = now or utc_now()
    due: list[Due] = []
    rows = session.execute(
        select(Season.id, Season.status, Season.starts_at)
        .where(Season.status.in_((SeasonStatus.FINISHED, SeasonStatus.RUNNING)))
        .order_by(Season.id)
    ).all()
    for season_id, status, starts_at in rows:
        if status is SeasonStatus.FINISHED:
            if not _has_dump(session, season_id, "") and _has_rated(session, season_id, None):
                due.append(Due(season_id, None))
            continue
        first = session.scalar(
            select(Match.finished_at)
            .where(*_rated(season_id, None))
            .order_by(Match.finished_at)
            .limit(1)
        )
        for month in _ended_months(first or starts_at, when):
            if not _has_dump(session, season_id, month) and _has_rated(session, season_id, month):
                due.append(Due(season_id, month))
    session.rollback()
    return due


LOCK_CLASS: Final = 0x0DA7A
"""The first key of the PostgreSQL advisory locks taken here (the second: the dump's
name's CRC-32), so they meet no other advisory lock."""


@contextmanager
def dump_lock(root: Path, name: str, engine: Engine | None = None) -> Iterator[bool]:
    """Hold the lock of dump `name` if no one else does: yields whether it is held.

    The lock is a `flock` on a file of the open-data folder (runs on one host, or on hosts
    sharing a local folder) and, on PostgreSQL (`engine`), also a session advisory lock on
    a connection of its own, so that workers on different hosts with the same database
    never write the same dump at once either."""
    if engine is not None and engine.dialect.name == "postgresql":
        with engine.connect() as connection:
            key = {"a": LOCK_CLASS, "b": zlib.crc32(name.encode()) - 2**31}
            got = connection.scalar(text("SELECT pg_try_advisory_lock(:a, :b)"), key)
            if not got:
                yield False
                return
            try:
                with _file_lock(root, name) as held:
                    yield held
            finally:
                connection.scalar(text("SELECT pg_advisory_unlock(:a, :b)"), key)
        return
    with _file_lock(root, name) as held:
        yield held


@contextmanager
def _file_lock(root: Path, name: str) -> Iterator[bool]:
    root.mkdir(parents=True, exist_ok=True)
    fd = os.open(root / f".{name}.lock", os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            yield False
            return
        try:
            yield True
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


def write_due_dumps(
    session: Session, root: Path, now: datetime | None = None
) -> dict[str, list[str]]:
    """Write every due dump under `root`; what was written, and what another run held."""
    written: list[str] = []
    busy: list[str] = []
    failed: list[str] = []
    for due in due_dumps(session, now):
        with dump_lock(root, due.name, session.get_bind().engine) as held:
            if not held:
                busy.append(due.name)
                continue
            if _has_dump(session, due.season_id, due.month or ""):
                session.rollback()
                continue  # written by another run between our look and our lock
            session.rollback()
            try:
                export_season(session, due.season_id, root, month=due.month, now=now)
            except ExportError:  # a season's state changed meanwhile: the next tick sees
                log.exception("open data %s not written", due.name)
                session.rollback()
                failed.append(due.name)
                continue
            written.append(due.name)
    return {"written": written, "busy": busy, "failed": failed}


@app.task(
    name=OPEN_DATA, ignore_result=True, soft_time_limit=SOFT_LIMIT, time_limit=SOFT_LIMIT + 60
)
def publish_open_data() -> dict[str, Any]:
    """Write the dumps of finished seasons and of a running season's ended months."""
    with context.sessions()() as session:
        summary = write_due_dumps(session, open_data_root())
    if summary["written"] or summary["failed"]:
        log.info("open data published", extra=summary)
    return summary
