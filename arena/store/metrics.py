"""The store's Prometheus metrics: commit latency and pool use, and the platform's state read
from the database at scrape time (queues, running work, seasons' rounds).

Two kinds, both used by the site and the workers (docs/operations.md, "Metrics"):

* `watch_store(engine, sessions)` hooks SQLAlchemy's events of one engine and its
  sessions: every `Session.commit()` is timed (``arena_store_commit_seconds``: from the
  call to its end, the flush of pending writes and the database's commit together) and
  every connection checked out of the pool counted (``arena_store_connections_in_use``,
  a gauge summed over a worker's live pool processes).
* `PlatformCollector(sessions)` is a custom collector: each scrape runs a few small
  queries, so there is no polling thread and the figures are the database's own, whatever
  the broker (the embedded one included): the queue of matches is the queued matches,
  the queue of validations the pending versions, each with the age of its oldest.

No label carries user data: queues and statuses are fixed words, a season is its id.
Metrics are made on first use (`store_metrics()`), never at import, so a worker can
choose prometheus-client's multiprocess mode before any value exists.
"""

from __future__ import annotations

import dataclasses
import functools
import time
from collections.abc import Iterator
from datetime import datetime
from typing import Any

from prometheus_client import Gauge, Histogram
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector
from sqlalchemy import Engine, event, func, select
from sqlalchemy.orm import Session, sessionmaker

from .models import (
    IN_FLIGHT_MATCH_STATUSES,
    BotVersion,
    Match,
    MatchStatus,
    Season,
    SeasonStatus,
    VersionStatus,
)
from .types import utc_now

COMMIT_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
_STARTED = "arena.commit_started"


@dataclasses.dataclass(frozen=True)
class StoreMetrics:
    """The store's metrics of this process (made once: `store_metrics()`)."""

    commit_seconds: Histogram
    connections_in_use: Gauge


@functools.cache
def store_metrics() -> StoreMetrics:
    """This process's store metrics, registered in the default registry on first use."""
    return StoreMetrics(
        commit_seconds=Histogram(
            "arena_store_commit_seconds",
            "Session.commit() from its call to its end (the flush of pending writes and the "
            "database's commit).",
            buckets=COMMIT_BUCKETS,
        ),
        connections_in_use=Gauge(
            "arena_store_connections_in_use",
            "Database connections checked out of this process's pool (summed over a "
            "worker's live pool processes).",
            multiprocess_mode="livesum",
        ),
    )


def watch_store(engine: Engine, sessions: sessionmaker[Session]) -> None:
    """Time the commits of `sessions` and count `engine`'s checked-out connections.

    Call it once per engine (each call adds listeners).
    """
    metrics = store_metrics()

    def before_commit(session: Session) -> None:
        session.info[_STARTED] = time.perf_counter()

    def after_commit(session: Session) -> None:
        started = session.info.pop(_STARTED, None)
        if started is not None:
            metrics.commit_seconds.observe(time.perf_counter() - started)

    def after_rollback(session: Session) -> None:
        session.info.pop(_STARTED, None)

    def checkout(*_: Any) -> None:
        metrics.connections_in_use.inc()

    def checkin(*_: Any) -> None:
        metrics.connections_in_use.dec()

    event.listen(sessions, "before_commit", before_commit)
    event.listen(sessions, "after_commit", after_commit)
    event.listen(sessions, "after_rollback", after_rollback)
    event.listen(engine.pool, "checkout", checkout)
    event.listen(engine.pool, "checkin", checkin)


def _age(now: datetime, oldest: datetime | None) -> float:
    if oldest is None:
        return 0.0
    if oldest.tzinfo is None:  # SQLite gives naive UTC back
        oldest = oldest.replace(tzinfo=now.tzinfo)
    return max(0.0, (now - oldest).total_seconds())


class PlatformCollector(Collector):
    """The platform's state from the database, read at each scrape (see the module)."""

    def __init__(self, sessions: sessionmaker[Session]) -> None:
        self.sessions = sessions

    def describe(self) -> list[Any]:
        """Nothing up front: the registry then never runs the queries at registration."""
        return []

    def collect(self) -> Iterator[GaugeMetricFamily]:
        """The families below; raises the database's error when it cannot be read (the
        scrape then fails, which Prometheus records as ``up`` staying 1 with an error)."""
        now = utc_now()
        with self.sessions() as session:
            yield from self._queues(session, now)
            yield from self._seasons(session, now)
            session.rollback()

    def _queues(self, session: Session, now: datetime) -> Iterator[GaugeMetricFamily]:
        depth = GaugeMetricFamily(
            "arena_queue_depth",
            "Work waiting, from the database: queued matches (matches), pending bot "
            "versions (validate).",
            labels=["queue"],
        )
        oldest = GaugeMetricFamily(
            "arena_queue_oldest_age_seconds",
            "Age of the oldest waiting item of each queue (since it was made); 0 when empty.",
            labels=["queue"],
        )
        rows = {
            "matches": session.execute(
                select(func.count(), func.min(Match.created_at)).where(
                    Match.status == MatchStatus.QUEUED
                )
            ).one(),
            "validate": session.execute(
                select(func.count(), func.min(BotVersion.created_at)).where(
                    BotVersion.status == VersionStatus.PENDING
                )
            ).one(),
        }
        for queue, (count, first) in rows.items():
            depth.add_metric([queue], float(count))
            oldest.add_metric([queue], _age(now, first))
        yield depth
        yield oldest
        busy = GaugeMetricFamily(
            "arena_work_in_progress",
            "Matches running and versions being validated now.",
            labels=["kind"],
        )
        running = session.scalar(
            select(func.count()).select_from(Match).where(Match.status == MatchStatus.RUNNING)
        )
        validating = session.scalar(
            select(func.count())
            .select_from(BotVersion)
            .where(BotVersion.status == VersionStatus.VALIDATING)
        )
        busy.add_metric(["matches"], float(running or 0))
        busy.add_metric(["validations"], float(validating or 0))
        yield busy

    def _seasons(self, session: Session, now: datetime) -> Iterator[GaugeMetricFamily]:
        rounds = GaugeMetricFamily(
            "arena_season_rounds",
            "Rounds scheduled so far in each running season.",
            labels=["season"],
        )
        matches = GaugeMetricFamily(
            "arena_season_round_matches",
            "Matches of each running season's current round, by status.",
            labels=["season", "status"],
        )
        age = GaugeMetricFamily(
            "arena_season_round_age_seconds",
            "Seconds since each running season's current round was scheduled.",
            labels=["season"],
        )
        cadence = GaugeMetricFamily(
            "arena_season_cadence_seconds",
            "Each running season's planned time between rounds.",
            labels=["season"],
        )
        finish = GaugeMetricFamily(
            "arena_season_round_finish_seconds",
            "How long each running season's newest finished round took, from its matches' "
            "creation to its last match's end.",
            labels=["season"],
        )
        running = session.execute(
            select(Season.id, Season.round_number, Season.cadence_seconds).where(
                Season.status == SeasonStatus.RUNNING
            )
        ).all()
        for season_id, number, seconds in running:
            label = str(season_id)
            rounds.add_metric([label], float(number))
            cadence.add_metric([label], float(seconds))
            if number < 1:
                continue
            grouped = session.execute(
                select(
                    Match.round,
                    Match.status,
                    func.count(),
                    func.min(Match.created_at),
                    func.max(Match.finished_at),
                )
                .where(Match.season_id == season_id, Match.round >= number - 1)
                .group_by(Match.round, Match.status)
            ).all()
            by_round: dict[int, list[tuple[MatchStatus, int, Any, Any]]] = {}
            for round_number, status, count, first, last in grouped:
                by_round.setdefault(round_number or 0, []).append((status, count, first, last))
            current = by_round.get(number, [])
            for status in MatchStatus:
                count = sum(c for s, c, _, _ in current if s is status)
                matches.add_metric([label, status.value], float(count))
            firsts = [first for _, _, first, _ in current if first is not None]
            age.add_metric([label], _age(now, min(firsts)) if firsts else 0.0)
            for candidate in (number, number - 1):
                rows = by_round.get(candidate, [])
                if not rows or any(s in IN_FLIGHT_MATCH_STATUSES for s, *_ in rows):
                    continue
                starts = [first for _, _, first, _ in rows if first is not None]
                ends = [last for *_, last in rows if last is not None]
                if starts and ends:
                    finish.add_metric([label], _age(max(ends), min(starts)))
                break
        yield rounds
        yield matches
        yield age
        yield cadence
        yield finish
