"""What the workers' scheduler and reaper ask of the database.

* **Dispatch**: which queued matches and pending bot versions to put on the queue
  (`queued_match_ids`, `pending_version_ids`); a worker claims a version with
  `claim_version` (pending → validating, once), as `start_match` claims a match.
* **Reaping**: a match left *running* by a worker that died is found by
  `reap_stalled_matches`: one that no live worker holds for `stall_after`, or that is past
  the hard deadline whoever holds it. The first time it is queued again (and run again);
  a match whose second run is lost too is made void, so a match that keeps killing its
  workers cannot loop. `reap_stalled_validations` does the same for versions stuck in
  *validating*.

Every function that writes runs its own transaction (pass a session with none open) and
re-checks the row under its lock, so the reaper never undoes a result recorded meanwhile.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection
from datetime import datetime, timedelta
from typing import Final

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from .database import write_transaction
from .models import BotVersion, Match, MatchStatus, VersionStatus
from .types import utc_now

REQUEUED: Final = "requeued"
"""How `status_reason` starts on a match or version the reaper put back in the queue."""
WAITING: Final = "waiting"
"""How `status_reason` starts on a version that waits for something outside the platform
(the package index): validated again after `WAIT_SECONDS`, never rejected for it."""
WAIT_SECONDS: Final = 60.0


def queued_match_ids(
    session: Session,
    *,
    limit: int,
    created_after: datetime | None = None,
    created_before: datetime | None = None,
    challenges_only: bool = False,
) -> list[int]:
    """Queued matches, oldest first (ends the read transaction it opens).

    `challenges_only`: matches outside any season (the web's challenges);
    `created_after` / `created_before`: only those created in that window.
    """
    query = select(Match.id).where(Match.status == MatchStatus.QUEUED)
    if challenges_only:
        query = query.where(Match.season_id.is_(None))
    if created_after is not None:
        query = query.where(Match.created_at > created_after)
    if created_before is not None:
        query = query.where(Match.created_at <= created_before)
    ids = list(session.scalars(query.order_by(Match.id).limit(limit)))
    session.rollback()
    return ids


def pending_version_ids(
    session: Session,
    *,
    limit: int,
    created_after: datetime | None = None,
    now: datetime | None = None,
) -> list[int]:
    """Bot versions waiting for validation, oldest first (ends its read transaction).

    A version deferred (`defer_version`) less than `WAIT_SECONDS` ago is left out. A new
    upload has no reason at all (NULL): it is read as "" here, since in SQL `NOT (NULL
    LIKE 'waiting%' AND recent)` is NULL, which left every fresh upload out for its first
    `WAIT_SECONDS` as if it were waiting (a minute on each validation).
    """
    query = select(BotVersion.id).where(BotVersion.status == VersionStatus.PENDING)
    if created_after is not None:
        query = query.where(BotVersion.status_changed_at > created_after)
    waited = (now or utc_now()) - timedelta(seconds=WAIT_SECONDS)
    reason = func.coalesce(BotVersion.status_reason, "")
    query = query.where(
        ~(reason.startswith(WAITING, autoescape=True) & (BotVersion.status_changed_at > waited))
    )
    ids = list(session.scalars(query.order_by(BotVersion.id).limit(limit)))
    session.rollback()
    return ids


def claim_version(session: Session, version_id: int, *, now: datetime | None = None) -> bool:
    """pending → validating (its own transaction); False if it was not pending.

    A version the reaper put back keeps saying so in its reason while it is validated again.
    Raises LookupError for an unknown version.
    """
    with write_transaction(session):
        version = session.get(BotVersion, version_id, with_for_update=True)
        if version is None:
            raise LookupError(f"no bot version {version_id}")
        if version.status is not VersionStatus.PENDING:
            return False
        retried = (version.status_reason or "").startswith(REQUEUED)
        version.status = VersionStatus.VALIDATING
        version.status_reason = version.status_reason if retried else None
        version.status_detail = None
        version.status_changed_at = now or utc_now()
        return True


@dataclasses.dataclass(frozen=True)
class ReapReport:
    """What one reaping pass did: ids queued again, and ids made void (or rejected)."""

    requeued: tuple[int, ...] = ()
    voided: tuple[int, ...] = ()


def running_matches(session: Session) -> list[tuple[int, int | None, datetime | None]]:
    """(id, season id, started at) of every running match (ends its read transaction)."""
    rows = [
        (row.id, row.season_id, row.started_at)
        for row in session.execute(
            select(Match.id, Match.season_id, Match.started_at)
            .where(Match.status == MatchStatus.RUNNING)
            .order_by(Match.id)
        )
    ]
    session.rollback()
    return rows


def reap_stalled_matches(
    session: Session,
    *,
    held: Collection[int],
    stall_after: timedelta,
    deadline: timedelta,
    now: datetime | None = None,
) -> ReapReport:
    """Queue again (or void) the running matches whose run was lost.

    Stalled: running for over `stall_after` and not in `held` (the match ids live workers
    say they are running), or running for over `deadline` whoever holds it. Each match is
    its own transaction; returns the ids requeued (to enqueue) and voided.
    """
    when = now or utc_now()
    requeued, voided = [], []
    for match_id, _, started_at in running_matches(session):
        if started_at is None:
            continue
        age = when - started_at
        if not (age > deadline or (age > stall_after and match_id not in held)):
            continue
        with write_transaction(session):
            match = session.get(Match, match_id, with_for_update=True, populate_existing=True)
            if match is None or match.status is not MatchStatus.RUNNING:
                continue  # recorded (or reaped) meanwhile
            lost = f"its run on a worker was lost (running since {started_at:%H:%M:%S} UTC)"
            if (match.status_reason or "").startswith(REQUEUED):
                match.status = MatchStatus.VOID
                match.status_reason = f"void: {lost}, for the second time"
                match.finished_at = when
                voided.append(match_id)
            else:
                match.status = MatchStatus.QUEUED
                match.status_reason = f"{REQUEUED}: {lost}"
                match.started_at = None
                requeued.append(match_id)
    return ReapReport(tuple(requeued), tuple(voided))


def reap_stalled_validations(
    session: Session,
    *,
    held: Collection[int],
    stall_after: timedelta,
    deadline: timedelta,
    now: datetime | None = None,
) -> ReapReport:
    """Put versions stuck in *validating* back to pending (rejected the second time).

    Same rule as `reap_stalled_matches`, on `status_changed_at`.
    """
    when = now or utc_now()
    rows = list(
        session.execute(
            select(BotVersion.id, BotVersion.status_changed_at).where(
                BotVersion.status == VersionStatus.VALIDATING
            )
        )
    )
    session.rollback()
    requeued, rejected = [], []
    for version_id, changed_at in rows:
        age = when - changed_at
        if not (age > deadline or (age > stall_after and version_id not in held)):
            continue
        with write_transaction(session):
            version = session.get(
                BotVersion, version_id, with_for_update=True, populate_existing=True
            )
            if version is None or version.status is not VersionStatus.VALIDATING:
                continue
            if (version.status_reason or "").startswith(REQUEUED):
                version.status = VersionStatus.REJECTED
                version.status_reason = (
                    "the platform could not finish validating this version twice (not a "
                    "fault of the bot's that we saw): upload it again or ask an admin"
                )
                rejected.append(version_id)
            else:
                version.status = VersionStatus.PENDING
                version.status_reason = f"{REQUEUED}: its validation on a worker was lost"
                requeued.append(version_id)
            version.status_changed_at = when
    return ReapReport(tuple(requeued), tuple(rejected))


def match_counts(session: Session) -> dict[str, int]:
    """How many matches are in each status (ends its read transaction)."""
    counts = {
        str(status.value if isinstance(status, MatchStatus) else status): int(count)
        for status, count in session.execute(
            select(Match.status, func.count()).group_by(Match.status)
        )
    }
    session.rollback()
    return counts


def version_counts(session: Session) -> dict[str, int]:
    """How many bot versions are in each status (ends its read transaction)."""
    counts = {
        str(status.value if isinstance(status, VersionStatus) else status): int(count)
        for status, count in session.execute(
            select(BotVersion.status, func.count()).group_by(BotVersion.status)
        )
    }
    session.rollback()
    return counts


def release_match(session: Session, match_id: int) -> bool:
    """running → queued, for a worker that could not play it (its own transaction).

    For a transient fault before the match was played: it is queued again as it was.
    False if the match was not running.
    """
    with write_transaction(session):
        match = session.get(Match, match_id, with_for_update=True, populate_existing=True)
        if match is None or match.status is not MatchStatus.RUNNING:
            return False
        match.status = MatchStatus.QUEUED
        match.started_at = None
        return True


def defer_version(
    session: Session, version_id: int, reason: str, *, now: datetime | None = None
) -> VersionStatus | None:
    """validating → pending while something outside the platform is down (its own
    transaction); the new status, None if it was not validating.

    Unlike `release_version` this does not count as our failure: a package index that is
    down for an hour rejects no one. The reason, shown on the version's page, says what it
    waits for; the dispatcher leaves it for `WAIT_SECONDS` (`pending_version_ids`).
    """
    with write_transaction(session):
        version = session.get(BotVersion, version_id, with_for_update=True, populate_existing=True)
        if version is None or version.status is not VersionStatus.VALIDATING:
            return None
        version.status = VersionStatus.PENDING
        version.status_reason = f"{WAITING} (validated again every {WAIT_SECONDS:.0f} s): {reason}"
        version.status_changed_at = now or utc_now()
        return version.status


def release_version(
    session: Session, version_id: int, reason: str, *, now: datetime | None = None
) -> VersionStatus | None:
    """validating → pending after our own error (its own transaction); the new status.

    The first time the version goes back to pending (marked `REQUEUED`); a version our
    side failed twice is rejected with `reason`, so it cannot loop. None if it was not
    validating.
    """
    with write_transaction(session):
        version = session.get(BotVersion, version_id, with_for_update=True, populate_existing=True)
        if version is None or version.status is not VersionStatus.VALIDATING:
            return None
        if (version.status_reason or "").startswith(REQUEUED):
            version.status = VersionStatus.REJECTED
            version.status_reason = f"the platform failed to validate it twice: {reason}"
        else:
            version.status = VersionStatus.PENDING
            version.status_reason = f"{REQUEUED}: {reason}"
        version.status_changed_at = now or utc_now()
        return version.status
