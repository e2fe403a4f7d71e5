"""Live events: a running match's progress, for the site to stream to people watching it.

The worker and the site meet in the database (web never imports workers): the worker's
`LiveWriter`, the match runner's event callback, appends the runner's events in batches,
one row per batch, at most one write every `interval` seconds (and at the end of each
hand), so a fast match does not hammer SQLite; the site reads the rows after the last
one it sent (`events_after`). The rows are deleted once the match is stored
(`clear_events`): the replay says everything they said.

**A person's table is not batched** (`LiveWriter(..., interval=0.0)`, what the worker
uses there: workers/matches.py `live_writer`): every event is written as it is told,
watched or not, so all the match told is stored before the person is asked a decision
and a person never waits on the batching; a table is a few hands at a person's pace.

The rows hold the runner's full records, every hand included: what a watcher may see is
cut by the site (web/live.py), per watcher, as it streams them.

**Written only while someone watches** (`LiveWriter(..., on_demand=True)`, what the worker
uses for bots alone): most matches are watched by no one, and copying a game's ~950
events and writing them cost more CPU than the rest of an in-process match. The site
says it streams a match by a row in `live_watchers` (`watch`, refreshed every
`WATCH_BEAT_SECONDS` by each open stream); the writer looks at it at most every
`WATCH_POLL_SECONDS` (one primary-key read) and, while no stream refreshed it within
`WATCH_FRESH_SECONDS`, writes nothing: it keeps the match's events in memory as they
were told (by reference: the runner writes no more into an event once told, except the
hand's record of a "hand" event, which is copied; `tests/store/test_live.py` checks it
against eager copies on every kind of hand), and writes them all as one batch when a
watcher appears, so a late watcher sees the whole match so far.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import JSON, ForeignKey, delete, select
from sqlalchemy.orm import Mapped, Session, mapped_column, selectinload, sessionmaker

from .database import write_transaction
from .models import Base, Bot, BotVersion, Match, MatchSeat, MatchStatus
from .types import utc_now

log = logging.getLogger(__name__)

DEFAULT_INTERVAL = 0.5
"""Seconds between two writes of one match's events (a hand's end writes at once)."""
WATCH_BEAT_SECONDS = 1.0
"""How often an open stream refreshes its match's `LiveWatch` row."""
WATCH_FRESH_SECONDS = 5.0
"""A match is watched while its `LiveWatch` row is younger than this (a stream ends every
30 s and its browser reconnects a second later: the row outlives the gap). The site's
clock writes the row and the worker's reads it: like the workers' heartbeats, this
assumes the machines' clocks agree to within a second or two."""
WATCH_POLL_SECONDS = 0.5
"""How often an on-demand `LiveWriter` reads its match's `LiveWatch` row."""


class LiveEventBatch(Base):
    """Some consecutive events of one running match, in the order they happened."""

    __tablename__ = "live_events"
    # Ids never reused (SQLite's AUTOINCREMENT): a watcher resumes after the last id it saw.
    __table_args__ = {"sqlite_autoincrement": True}  # noqa: RUF012

    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(default=utc_now)
    events: Mapped[list[dict[str, Any]]] = mapped_column(JSON)


class LiveWatch(Base):
    """Someone streams this match's live events now (refreshed while they do)."""

    __tablename__ = "live_watchers"

    match_id: Mapped[int] = mapped_column(
        ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    seen_at: Mapped[datetime]


def watch(session: Session, match_id: int, *, now: datetime | None = None) -> None:
    """Say that match `match_id` is being watched now (its own transaction); the rows of
    matches no one watched for an hour go."""
    when = now or utc_now()
    with write_transaction(session):
        row = session.get(LiveWatch, match_id, with_for_update=True)
        if row is None:
            session.add(LiveWatch(match_id=match_id, seen_at=when))
        else:
            row.seen_at = when
        session.execute(delete(LiveWatch).where(LiveWatch.seen_at < when - timedelta(hours=1)))


def watched(
    session: Session,
    match_id: int,
    *,
    fresh: float = WATCH_FRESH_SECONDS,
    now: datetime | None = None,
) -> bool:
    """Whether a stream said within `fresh` seconds that it watches match `match_id`
    (ends the read transaction it opens)."""
    seen = session.scalar(select(LiveWatch.seen_at).where(LiveWatch.match_id == match_id))
    session.rollback()
    return seen is not None and (now or utc_now()) - seen <= timedelta(seconds=fresh)


def append_events(
    session: Session, match_id: int, events: list[dict[str, Any]], *, clear: bool = False
) -> int:
    """Store `events` as one batch of match `match_id`, after deleting its earlier batches
    if `clear` (one transaction); return the batch's id."""
    with write_transaction(session):
        if clear:
            session.execute(delete(LiveEventBatch).where(LiveEventBatch.match_id == match_id))
        batch = LiveEventBatch(match_id=match_id, events=events)
        session.add(batch)
        session.flush()
        return batch.id


def events_after(
    session: Session, match_id: int, after: int = 0, limit: int = 100
) -> list[tuple[int, list[dict[str, Any]]]]:
    """The batches of match `match_id` after batch id `after`, oldest first: (id, events)."""
    rows = session.execute(
        select(LiveEventBatch.id, LiveEventBatch.events)
        .where(LiveEventBatch.match_id == match_id, LiveEventBatch.id > after)
        .order_by(LiveEventBatch.id)
        .limit(limit)
    ).all()
    return [(row_id, events) for row_id, events in rows]


def clear_events(session: Session, match_id: int) -> int:
    """Delete match `match_id`'s events and its watchers' row (it is stored, or starts
    again); how many batches."""
    with write_transaction(session):
        result = session.execute(delete(LiveEventBatch).where(LiveEventBatch.match_id == match_id))
        session.execute(delete(LiveWatch).where(LiveWatch.match_id == match_id))
    return int(getattr(result, "rowcount", 0) or 0)


def _copy(event: dict[str, Any]) -> dict[str, Any]:
    copied: dict[str, Any] = json.loads(json.dumps(event))
    return copied


class LiveWriter:
    """The match runner's event callback that stores its events, batched and throttled.

    Each event is copied at once (the runner goes on writing into its records). A batch
    is written when `interval` seconds passed since the last write, or at a hand's end;
    `flush()` writes what is left. A failed write keeps the events for the next one; the
    runner logs the error and the match goes on.

    With `on_demand`, all this happens only while the match is watched (`watched`, read
    at most every `poll` seconds); until then the events are kept, uncopied, and the
    first write after a watcher appears holds every one of them (module docstring).
    """

    def __init__(
        self,
        sessions: sessionmaker[Session],
        match_id: int,
        *,
        interval: float = DEFAULT_INTERVAL,
        now: Callable[[], float] = time.monotonic,
        on_demand: bool = False,
        poll: float = WATCH_POLL_SECONDS,
    ) -> None:
        self.sessions = sessions
        self.match_id = match_id
        self.interval = interval
        self.on_demand = on_demand
        self.poll = poll
        self._now = now
        self._pending: list[dict[str, Any]] = []
        self._written_at = now()
        self._backlog: list[dict[str, Any]] = []  # on demand, unwatched: told, not copied
        self._watched = not on_demand
        self._looked_at: float | None = None
        self._clear = False  # delete an earlier run's batches with the next write
        self.looks = 0
        """How many times the writer read whether the match is watched."""

    def __call__(self, event: dict[str, Any]) -> None:
        kind = event.get("kind")
        if kind == "match":
            # A new run of this match (a redelivered task): forget the last run's events.
            self._pending.clear()
            self._backlog.clear()
            self._clear = True
        if self.on_demand:
            self._look()
            if not self._watched:
                # The runner writes into a hand's record until the hand ends; nothing
                # else it tells is changed afterwards.
                self._backlog.append(_copy(event) if kind == "hand" else event)
                return
        if self._clear and not self.on_demand:
            with self.sessions() as session:
                clear_events(session, self.match_id)
            self._clear = False
        self._pending.append(_copy(event))
        due = self._now() - self._written_at >= self.interval
        if due or kind == "hand_end":
            self.flush()

    def _look(self) -> None:
        """Read whether the match is watched, at most every `poll` seconds; a watcher's
        arrival writes the backlog, a departure what is pending."""
        now = self._now()
        if self._looked_at is not None and now - self._looked_at < self.poll:
            return
        self._looked_at = now
        self.looks += 1
        try:
            with self.sessions() as session:
                watching = watched(session, self.match_id)
        except Exception:
            log.exception("match %s: cannot tell whether it is watched", self.match_id)
            return
        if watching and not self._watched:
            # What a failed write left (told before the backlog), then the backlog.
            self._pending += _copy({"events": self._backlog})["events"]
            self._backlog = []
            self._watched = True
        elif not watching and self._watched:
            self._watched = False
        else:
            return
        if self._pending:
            self.flush()

    def flush(self) -> None:
        """Write the events not written yet (nothing when there are none)."""
        if not self._pending:
            return
        with self.sessions() as session:
            append_events(session, self.match_id, self._pending, clear=self._clear)
        self._clear = False
        self._pending = []
        self._written_at = self._now()


def watchable_matches(session: Session, status: MatchStatus, limit: int = 10) -> list[Match]:
    """Matches of `status`, newest first (running: by start; others: by finish), with their
    seats' bots loaded: the home page's "playing now" and "just finished"."""
    order = Match.started_at if status is MatchStatus.RUNNING else Match.finished_at
    return list(
        session.scalars(
            select(Match)
            .where(Match.status == status)
            .order_by(order.desc(), Match.id.desc())
            .limit(limit)
            .options(
                selectinload(Match.ruleset),
                selectinload(Match.seats)
                .selectinload(MatchSeat.bot_version)
                .selectinload(BotVersion.bot)
                .selectinload(Bot.owner),
            )
        )
    )
