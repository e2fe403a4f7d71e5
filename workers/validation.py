"""`validate_bot_version`: a thin shell that checks one uploaded version, once.

1. `claim_version` moves the version pending → validating, once (a duplicate delivery
   does nothing).
2. Its archive is unpacked (`arena.uploads`) and its environment built under the data
   folder: a venv with the bot's requirements installed as wheels (`workers.sandbox`).
3. The bot is started in the sandbox and plays `arena.match.check`'s short match against
   house bots.
4. The version becomes *ready*, or *rejected* with the reason; either way the bot's own
   output is kept in `status_detail` for its owner, the worker's folders named as the
   sandbox names them (`workers.environments.host_paths`). In the same transaction a
   ready version takes its bot's place in its seasons (`arena.seasons.promote_version`).

A bad archive, bad requirements, a bot that does not start or faults are the bot's
failures: rejected, never retried. A machine that cannot sandbox rejects the version with
the sandbox's own explanation (an uploaded bot never runs outside it). Our own errors put
the version back to pending once (`release_version`); transient infrastructure faults
before the check are retried. A package index that does not answer while the requirements
install is not the bot's failure either: the version waits and is validated again a minute
later, as often as it takes (`defer_version`), its page saying what it waits for.
"""

from __future__ import annotations

import dataclasses
import logging
from typing import Any

from hearts_bot import transport
from sqlalchemy.orm import Session, selectinload

from arena.match.check import check_seat
from arena.match.remote import GrpcSeat
from arena.seasons import promote_version
from arena.store.bots import archive_content, trusted_house_bot
from arena.store.bots import set_version_status as _set_status
from arena.store.database import write_transaction
from arena.store.dispatch import claim_version, defer_version, release_version
from arena.store.models import Bot, BotVersion, VersionStatus
from arena.uploads import UploadError

from . import context
from .app import VALIDATE, ArenaTask, app
from .environments import host_paths, version_environment
from .metrics import worker_metrics
from .sandbox import (
    EnvironmentBuildError,
    PackageIndexUnavailableError,
    SandboxError,
    SandboxPolicy,
    SandboxUnavailableError,
)
from .sandbox.host import SandboxHost
from .sandbox.local import shared_sandbox
from .transient import is_transient, retrying

log = logging.getLogger(__name__)

DETAIL_CAP = 32 * 1024


@dataclasses.dataclass(frozen=True)
class Candidate:
    """The version being validated, as read when it was claimed."""

    version_id: int
    label: str
    archive_sha256: str
    content: bytes
    trusted_house: bool


@dataclasses.dataclass(frozen=True)
class ValidationSummary:
    """What one delivery of `validate_bot_version` did (the task's result)."""

    version_id: int
    status: str
    reason: str = ""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        return dataclasses.asdict(self)


def load_candidate(session: Session, version_id: int) -> Candidate:
    """Read the version and its archive (ends the read transaction it opens)."""
    version = session.get(
        BotVersion,
        version_id,
        options=[selectinload(BotVersion.bot).selectinload(Bot.owner)],
        populate_existing=True,
    )
    if version is None:
        raise LookupError(f"no bot version {version_id}")
    bot = version.bot
    content = archive_content(session, version.archive_sha256)
    trusted = trusted_house_bot(bot, content) is not None
    candidate = Candidate(
        version.id,
        f"{bot.owner.username}/{bot.name} v{version.number}",
        version.archive_sha256,
        content,
        trusted,
    )
    session.rollback()
    return candidate


def finish(
    session: Session,
    version_id: int,
    status: VersionStatus,
    reason: str,
    detail: str | None = None,
) -> bool:
    """validating → `status` with the reason and the bot's output (its own transaction);
    False if the version is no longer validating. A ready version takes its bot's place
    in the same transaction, so a second delivery promotes nothing twice."""
    with write_transaction(session):
        version = session.get(BotVersion, version_id, with_for_update=True, populate_existing=True)
        if version is None or version.status is not VersionStatus.VALIDATING:
            return False
        _set_status(
            session,
            version,
            status,
            reason=reason[:4000],
            detail=(detail or "")[-DETAIL_CAP:] or None,
        )
        if status is VersionStatus.READY:
            promote_version(session, version_id)
        return True


@dataclasses.dataclass(frozen=True)
class Verdict:
    """The validation's verdict before it is stored (None status: our own failure)."""

    status: VersionStatus | None
    reason: str
    detail: str | None = None
    waits: bool = False
    """Something outside the platform is down (the package index): validate it later,
    and do not count it as a failure of ours (`arena.store.dispatch.defer_version`)."""


def judge(candidate: Candidate) -> Verdict:
    """Build the environment, start the bot in the sandbox, play the check match."""
    if candidate.trusted_house:
        return Verdict(VersionStatus.READY, "house bot")
    settings = context.settings()
    try:
        env = version_environment(settings, candidate.archive_sha256, lambda: candidate.content)
    except PackageIndexUnavailableError as error:
        return Verdict(None, host_paths(settings)(str(error)), waits=True)
    except (UploadError, EnvironmentBuildError) as error:
        return Verdict(VersionStatus.REJECTED, host_paths(settings)(str(error)))
    scrub = host_paths(settings, env)
    try:
        sandbox = shared_sandbox()
    except SandboxUnavailableError as error:
        worker_metrics().sandbox_refusals.inc()
        return Verdict(
            VersionStatus.REJECTED,
            f"this platform cannot run uploaded bots (the sandbox is unavailable: {error}); "
            "it never runs them outside the sandbox",
        )
    process = sandbox.start(env, seat=0, policy=SandboxPolicy())
    host = SandboxHost(process, scrub)
    try:
        seat = GrpcSeat(process.address, candidate.label, host=host)
        report = transport.run(check_seat(seat))
    finally:
        host.stop()
    log_text = scrub(report.log or process.log_excerpt())
    if report.outcome.void:
        return Verdict(None, scrub(report.summary), log_text)
    status = VersionStatus.READY if report.passed else VersionStatus.REJECTED
    return Verdict(status, scrub(report.summary), log_text)


def execute_validation(version_id: int) -> ValidationSummary:
    """Validate version `version_id` if it is pending (what the task does)."""
    settings = context.settings()
    sessions = context.sessions()
    extra = {"version_id": version_id}
    with sessions() as session:
        if not claim_version(session, version_id):
            log.info("version %s is not pending: nothing to do", version_id, extra=extra)
            return ValidationSummary(version_id, "skipped", "not pending")
    try:
        with sessions() as session:
            candidate = load_candidate(session, version_id)
        verdict = judge(candidate)
    except Exception as error:
        reason = (
            f"{type(error).__name__}: {error}"
            if is_transient(error) or isinstance(error, SandboxError)
            else f"platform error: {type(error).__name__}: {error}"
        )
        log.error(
            "validating version %s failed: %s", version_id, reason, exc_info=True, extra=extra
        )
        verdict = Verdict(None, reason)
    if verdict.waits:
        deferred = retrying(
            lambda: _defer(version_id, verdict.reason),
            seconds=settings.db_retry_seconds,
            what=f"deferring version {version_id}",
        )
        log.warning("version %s waits: %s", version_id, verdict.reason, extra=extra)
        status = deferred.value if deferred is not None else "unchanged"
        return ValidationSummary(version_id, status, verdict.reason)
    if verdict.status is None:
        released = retrying(
            lambda: _release(version_id, verdict.reason),
            seconds=settings.db_retry_seconds,
            what=f"releasing version {version_id}",
        )
        status = released.value if released is not None else "unchanged"
        return ValidationSummary(version_id, status, verdict.reason)
    stored_status = verdict.status
    retrying(
        lambda: _finish(version_id, stored_status, verdict.reason, verdict.detail),
        seconds=settings.db_retry_seconds,
        what=f"recording the validation of version {version_id}",
    )
    log.info("version %s %s: %s", version_id, stored_status.value, verdict.reason, extra=extra)
    return ValidationSummary(version_id, stored_status.value, verdict.reason)


def _defer(version_id: int, reason: str) -> VersionStatus | None:
    with context.sessions()() as session:
        return defer_version(session, version_id, reason)


def _release(version_id: int, reason: str) -> VersionStatus | None:
    with context.sessions()() as session:
        return release_version(session, version_id, reason)


def _finish(version_id: int, status: VersionStatus, reason: str, detail: str | None) -> bool:
    with context.sessions()() as session:
        return finish(session, version_id, status, reason, detail)


_settings = context.settings()


@app.task(
    name=VALIDATE,
    base=ArenaTask,
    soft_time_limit=int(_settings.validation_hard_limit * 5 / 6),
    time_limit=int(_settings.validation_hard_limit),
    ignore_result=False,
)
def validate_bot_version(version_id: int) -> dict[str, Any]:
    """Validate bot version `version_id` (idempotent: a second delivery does nothing)."""
    summary = execute_validation(int(version_id))
    if summary.status != "skipped":
        worker_metrics().validations.labels(summary.status).inc()
    return summary.to_dict()


def enqueue_validations(version_ids: list[int]) -> None:
    """Put `version_ids` on the ``validate`` queue."""
    if not version_ids:
        return
    with app.producer_or_acquire() as producer:
        for version_id in version_ids:
            validate_bot_version.apply_async((version_id,), producer=producer)
