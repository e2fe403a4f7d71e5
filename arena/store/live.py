"""Live events: a running match's progress, for the site to stream to people watching it.

The worker and the site meet in the database (web never imports workers): the worker's
`LiveWriter`, the match runner's event callback, appends the runner's events in batches,
one row per batch, at most one write every `interval` seconds (and at the end of each
hand), so a fast match does not hammer SQLite; the site reads the rows after the last
one it sent (`events_after`). The rows are deleted once the match is stored
(`clear_events`): the replay says everything they said.

The rows hold the runner's full records, every hand included: what a watcher may see is
cut by the site (web/live.py), per watcher, as it streams them.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable
from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, delete, select
from sqlalchemy.orm import Mapped, Session, mapped_column, selectinload, sessionmaker

from .database import write_transaction
from .models import Base, Bot, BotVersion, Match, MatchSeat, MatchStatus
from .types import utc_now

log = logging.getLogger(__name__)

DEFAULT_INTERVAL = 0.5
"""Seconds between two writes of one match's events (a hand's end writes at once)."""


class LiveEventBatch(Base):
    """Some consecutive events of one running match, in the order they happened."""

    __tablename__ = "live_events"
    # Ids never reused (SQLite's AUTOINCREMENT): a watcher resumes after the last id it saw.
    __table_args__ = {"sqlite_autoincrement": True}  # noqa: RUF012

    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(default=utc_now)
    events: Mapped[list[dict[str, Any]]] = mapped_column(JSON)


def append_events(session: Session, match_id: int, events: list[dict[str, Any]]) -> int:
    """Store `events` as one batch of match `match_id`; return the batch's id."""
    with write_transaction(session):
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
    """Delete match `match_id`'s events (it is stored, or starts again); how many batches."""
    with write_transaction(session):
        result = session.execute(delete(LiveEventBatch).where(LiveEventBatch.match_id == match_id))
    return int(getattr(result, "rowcount", 0) or 0)


class LiveWriter:
    """The match runner's event callback that stores its events, batched and throttled.

    Each event is copied at once (the runner goes on writing into its records). A batch
    is written when `interval` seconds passed since the last write, or at a hand's end;
    `flush()` writes what is left. A failed write keeps the events for the next one; the
    runner logs the error and the match goes on.
    """

    def __init__(
        self,
        sessions: sessionmaker[Session],
        match_id: int,
        *,
        interval: float = DEFAULT_INTERVAL,
        now: Callable[[], float] = time.monotonic,
    ) -> None:
        self.sessions = sessions
        self.match_id = match_id
        self.interval = interval
        self._now = now
        self._pending: list[dict[str, Any]] = []
        self._written_at = now()

    def __call__(self, event: dict[str, Any]) -> None:
        if event.get("kind") == "match":
            # A new run of this match (a redelivered task): forget the last run's events.
            with self.sessions() as session:
                clear_events(session, self.match_id)
            self._pending.clear()
        self._pending.append(json.loads(json.dumps(event)))
        due = self._now() - self._written_at >= self.interval
        if due or event.get("kind") == "hand_end":
            self.flush()

    def flush(self) -> None:
        """Write the events not written yet (nothing when there are none)."""
        if not self._pending:
            return
        with self.sessions() as session:
            append_events(session, self.match_id, self._pending)
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
