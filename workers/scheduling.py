"""Beat's periodic tasks: seasons on time, dispatching work, and the reaper.

* `advance_seasons` (every ``ARENA_BEAT_SECONDS``): starts and finishes seasons on time
  and schedules every running season's due round (`arena.seasons.advance_seasons`),
  enqueueing its matches after the round's commit; and advances every final
  (`arena.seasons.finals.advance_finals`): freezes what is due, and enqueues its next
  matches, never more in flight than the final's worker share.
* `dispatch` (same period): the web only writes rows (a pending bot version, a queued
  challenge match); this puts them on the queues. New ones go at once; besides, when a
  queue runs low, the oldest queued matches and pending versions are enqueued again, so
  whatever a broker lost (a restart without persistence, a worker killed on the SQL
  broker) is found again in the database. An id enqueued twice runs once: the task
  claims it first (`start_match`, `claim_version`).
* `reap` (every ``ARENA_REAPER_SECONDS``): a running match that no live worker's
  heartbeat names for ``ARENA_STALL_SECONDS``, or that is past the hard time limit, is
  queued again (and made void the second time); validations alike.
* `workers.opendata.publish_open_data` (every ``OPEN_DATA_SECONDS``, in a module of its
  own): the open-data dumps of finished seasons and of a running ladder's ended months.

A transient fault in a periodic task is not retried: the next tick does the same work.
"""

from __future__ import annotations

import logging
import os
import socket
from datetime import timedelta
from typing import Any

from arena.seasons import advance_seasons as advance
from arena.seasons.evidence import store_evidence
from arena.seasons.finals import advance_finals
from arena.store import analyses, heartbeats
from arena.store.database import write_transaction
from arena.store.dispatch import (
    pending_version_ids,
    queued_match_ids,
    reap_stalled_matches,
    reap_stalled_validations,
)
from arena.store.types import utc_now

from . import context
from .analysis import enqueue_analyses
from .app import ADVANCE, DISPATCH, REAP, app
from .matches import enqueue_matches
from .metrics import worker_metrics
from .queues import prune_sql_broker, queue_lengths
from .validation import enqueue_validations

log = logging.getLogger(__name__)

LOW_WATER = 20
"""A queue shorter than this is topped up from the database."""
TOP_UP = 100
"""At most this many items are enqueued again per queue and tick."""
HEARTBEAT_RETENTION = timedelta(days=1)


@app.task(name=ADVANCE, ignore_result=True)
def advance_seasons() -> dict[str, Any]:
    """Start, finish and schedule what is due now."""
    with context.sessions()() as session:
        report = advance(session, enqueue_matches)
        for season_id in report.finished:  # the luck figures of its own games, frozen with it
            try:
                store_evidence(session, season_id)
            except Exception:  # figures are a report: never let them stop the beat
                log.exception("measuring finished season %s failed", season_id)
        finals = advance_finals(session)  # a final's matches, up to its worker share
    enqueue_matches(finals.released)
    rounds = [(r.season_id, r.round_number, len(r.match_ids)) for r in report.rounds]
    if report.started or report.finished or rounds or finals.released:
        log.info(
            "seasons advanced",
            extra={"started": report.started, "finished": report.finished, "rounds": rounds},
        )
    return {
        "started": report.started,
        "finished": report.finished,
        "rounds": rounds,
        "finals": {"frozen": finals.frozen, "finished": finals.finished},
        "final_matches": finals.released,
    }


@app.task(name=DISPATCH, ignore_result=True)
def dispatch() -> dict[str, Any]:
    """Enqueue new challenge matches and pending versions; top up queues that run low."""
    settings = context.settings()
    now = utc_now()
    fresh = now - timedelta(seconds=3 * settings.beat_seconds)
    settled = now - timedelta(seconds=2 * settings.beat_seconds)
    lengths = queue_lengths(app)
    with context.sessions()() as session:
        matches = queued_match_ids(session, limit=500, created_after=fresh, challenges_only=True)
        versions = pending_version_ids(session, limit=500, created_after=fresh)
        if lengths.get("matches", 0) < LOW_WATER:
            matches += queued_match_ids(session, limit=TOP_UP, created_before=settled)
        if lengths.get("validate", 0) < LOW_WATER:
            versions += pending_version_ids(session, limit=TOP_UP)
    matches = sorted(set(matches))
    versions = sorted(set(versions))
    enqueue_matches(matches)
    enqueue_validations(versions)
    enqueue_analyses(_analyses_to_enqueue(lengths.get("analysis", 0)))
    with context.sessions()() as session:
        heartbeats.beat(
            session,
            "dispatch",
            role="dispatch",
            hostname=socket.gethostname(),
            pid=os.getpid(),
            started_at=now,
            info={"queues": lengths, "enqueued": {"matches": matches, "validations": versions}},
        )
    if matches or versions:
        log.info(
            "dispatched %d matches, %d validations",
            len(matches),
            len(versions),
            extra={"queues": lengths},
        )
    return {"queues": lengths, "matches": matches, "validations": versions}


ANALYSIS_STALL = timedelta(seconds=2000)
"""A running analysis older than this (past `analyse_match`'s hard time limit) is queued
again: its worker is gone."""


def _analyses_to_enqueue(waiting: int) -> list[int]:
    """Queued analyses to put on the "analysis" queue: none while it still holds work (an
    id enqueued twice runs once, but a queue of duplicates is waste), else the oldest."""
    with context.sessions()() as session, write_transaction(session):
        analyses.requeue_stalled(session, ANALYSIS_STALL)
    if waiting:
        return []
    with context.sessions()() as session:
        return analyses.queued_ids(session, limit=LOW_WATER)


def held_work(
    rows: list[heartbeats.HeartbeatRow], stale_after: timedelta
) -> tuple[set[int], set[int]]:
    """The match and version ids that live workers say they are running."""
    matches: set[int] = set()
    versions: set[int] = set()
    for row in rows:
        if row.role == "worker" and row.is_fresh(stale_after):
            matches.update(int(i) for i in row.info.get("matches", ()))
            versions.update(int(i) for i in row.info.get("validations", ()))
    return matches, versions


@app.task(name=REAP, ignore_result=True)
def reap() -> dict[str, Any]:
    """Queue again (or void) matches and validations whose worker is gone."""
    settings = context.settings()
    stale_after = timedelta(seconds=3 * settings.heartbeat_seconds)
    with context.sessions()() as session:
        rows = heartbeats.heartbeats(session)
        held_matches, held_versions = held_work(rows, stale_after)
        stall = timedelta(seconds=settings.stall_seconds)
        matches = reap_stalled_matches(
            session,
            held=held_matches,
            stall_after=stall,
            deadline=timedelta(seconds=settings.match_hard_limit + 60),
        )
        versions = reap_stalled_validations(
            session,
            held=held_versions,
            stall_after=stall,
            deadline=timedelta(seconds=settings.validation_hard_limit + 60),
        )
        pruned = heartbeats.prune(session, HEARTBEAT_RETENTION)
    enqueue_matches(matches.requeued)
    enqueue_validations(list(versions.requeued))
    reaped = worker_metrics().reaped
    reaped.labels("requeued").inc(len(matches.requeued))
    reaped.labels("voided").inc(len(matches.voided))
    broker_rows = prune_sql_broker(settings)
    summary = {
        "requeued_matches": matches.requeued,
        "voided_matches": matches.voided,
        "requeued_versions": versions.requeued,
        "rejected_versions": versions.voided,
        "pruned_heartbeats": pruned,
        "pruned_broker_messages": broker_rows,
    }
    if matches.requeued or matches.voided or versions.requeued or versions.voided:
        log.warning("reaped stalled work", extra=summary)
    return summary
