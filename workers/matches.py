"""`run_match`: a thin shell that plays one stored match and records it, once.

The task takes a match id only and re-reads everything from the database:

1. `start_match` moves the match queued → running, once: a second delivery of the same
   id (a duplicate, a redelivery, the reaper's requeue racing the first run) finds it
   running or ended and does nothing. That is what makes the task idempotent.
2. Each seat becomes a seat of the match runner: a house bot (a version of the house
   user whose archive is a house manifest: our own code) plays in-process; every
   uploaded version runs in the sandbox, in its environment on this machine (built from
   the stored archive if this machine has not got it yet).
3. `arena.match.runner.MatchRunner` plays it; a bot's failures are faults in the result,
   never errors here.
4. `record_match_result` stores seats, replay and rating update in one transaction;
   it is idempotent too. A database outage at that point is waited out (`retrying`).

Errors: transient infrastructure faults before the match is played put it back in the
queue and retry the task. So does this worker's own environment failing while it sets
the match up (`ENVIRONMENT_ERRORS`: a ready version's environment it cannot build, for a
full disk, a folder it cannot write, a package index that is down; a sandbox it cannot
start; a house bot its build lacks): nothing of that is the bot's fault, which its
validation already passed, so the match is queued again and the task retried after a
growing pause on whichever worker takes it (`workers.transient.environment_pause`), up
to `ENVIRONMENT_RETRIES` times before it is failed with the reason. Our own bugs fail
the match with the reason, never retried. A bot's faults are never errors here: the
runner records them in the result.
"""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from typing import Any, TypeVar

from hearts_bot import transport
from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload, sessionmaker

from arena.bots import HOUSE_BOTS
from arena.engine import Rules
from arena.match.clock import TimePolicy
from arena.match.human import HumanSeat
from arena.match.remote import GrpcSeat
from arena.match.runner import Entrant, EventSink, MatchOutcome, MatchRunner
from arena.match.seats import InProcessSeat, Seat
from arena.store import MatchResult, fail_match, record_match_result, start_match
from arena.store.bots import archive_content, trusted_house_bot
from arena.store.dispatch import release_match
from arena.store.live import LiveWriter, clear_events
from arena.store.models import Bot, BotVersion, Match, MatchFormat, MatchSeat, User
from arena.store.people import TableDesk, human_table
from arena.store.results import outcome_result
from arena.store.types import utc_now
from arena.uploads import UploadError

from . import context
from .accounting import MatchAccount, self_cpu_seconds
from .app import RUN_MATCH, ArenaTask, app
from .config import Settings
from .environments import host_paths, version_environment
from .metrics import record_match, worker_metrics
from .sandbox import EnvironmentBuildError, SandboxError, SandboxPolicy
from .sandbox.host import SandboxHost
from .sandbox.local import shared_sandbox
from .transient import (
    ENVIRONMENT_RETRIES,
    WorkerEnvironmentError,
    environment_pause,
    is_transient,
    retrying,
)

log = logging.getLogger(__name__)

_T = TypeVar("_T")

ENVIRONMENT_ERRORS: tuple[type[BaseException], ...] = (
    OSError,  # a full disk, a folder that cannot be written, a tool that cannot be run
    SandboxError,  # the sandbox unavailable or failing here; an environment not built
    UploadError,  # a stored archive this worker's unpacker refuses (a ready version's)
    WorkerEnvironmentError,  # a house bot this worker's build lacks
)
"""What a worker's own environment raises while it sets a match up: retried (the
version passed its validation, so none of it is the bot's fault)."""


@dataclasses.dataclass(frozen=True)
class SeatPlan:
    """Who sits at one seat, and how to run it."""

    seat: int
    version_id: int
    label: str
    archive_sha256: str
    house: tuple[str, int] | None
    """(house bot, seed) for a trusted house version, played in-process; None: sandbox."""
    person: bool = False
    """A person's seat at a human table (arena/store/people.py): asked through the store."""


@dataclasses.dataclass
class MatchRun:
    """The state of one run of one match (made fresh by every delivery of the task)."""

    match_id: int
    rules: Rules
    seed: int
    duplicate: bool
    seats: tuple[SeatPlan, ...]
    started_at: datetime
    hosts: list[SandboxHost] = dataclasses.field(default_factory=list)
    time_policy: TimePolicy | None = None
    """A human table's clock (its seconds per decision, no bank); None: the default."""


@dataclasses.dataclass(frozen=True)
class RunSummary:
    """What one delivery of `run_match` did (the task's result)."""

    match_id: int
    action: str  # "recorded", "already-recorded", "skipped", "failed", "requeued"
    status: str
    detail: str = ""
    cpu: dict[str, float] = dataclasses.field(default_factory=dict)
    """Core-seconds by part of a match played here (`MatchAccount.to_dict`)."""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        return dataclasses.asdict(self)


# -- loading -----------------------------------------------------------------------------


def load_run(session: Session, match_id: int, started_at: datetime) -> MatchRun:
    """Read what running match `match_id` needs (ends the read transaction it opens)."""
    match = session.scalars(
        select(Match)
        .where(Match.id == match_id)
        .options(
            selectinload(Match.ruleset),
            selectinload(Match.seats)
            .selectinload(MatchSeat.bot_version)
            .selectinload(BotVersion.bot)
            .selectinload(Bot.owner),
        )
        .execution_options(populate_existing=True)
    ).one()
    plans = []
    table = human_table(session, match_id)
    for seat in match.seats:
        version = seat.bot_version
        bot = version.bot
        label = f"{bot.owner.username}/{bot.name} v{version.number}"
        if table is not None and seat.seat == table.seat:
            person = session.get(User, table.user_id)
            label = f"{person.username if person else table.user_id} (a person)"
            plans.append(SeatPlan(seat.seat, version.id, label, version.archive_sha256, None, True))
            continue
        house = None
        if bot.trusted:
            house = trusted_house_bot(bot, archive_content(session, version.archive_sha256))
            if house is not None and house[0] not in HOUSE_BOTS:
                raise WorkerEnvironmentError(
                    f"{label}: no house bot {house[0]!r} in this worker's build"
                )
        plans.append(SeatPlan(seat.seat, version.id, label, version.archive_sha256, house))
    run = MatchRun(
        match_id=match.id,
        rules=match.ruleset.rules,
        seed=match.seed,
        duplicate=match.format is MatchFormat.DUPLICATE,
        seats=tuple(plans),
        started_at=match.started_at or started_at,
        time_policy=None
        if table is None
        else TimePolicy(per_decision=table.per_decision, bank=0.0),
    )
    session.rollback()
    return run


# -- playing -----------------------------------------------------------------------------


def house_seed(manifest_seed: int, match_seed: int) -> int:
    """A house bot's seed for one match: its own seed mixed with the match's."""
    return (manifest_seed << 32) ^ (match_seed & 0xFFFF_FFFF)


def build_seats(run: MatchRun, settings: Settings, archive: Callable[[str], bytes]) -> list[Seat]:
    """A seat per plan; uploaded versions are started in the sandbox (recorded in
    `run.hosts`, which the caller stops if anything fails).

    Raises SandboxUnavailableError, SandboxError, UploadError, EnvironmentBuildError.
    """
    labels = tuple(plan.label for plan in run.seats)
    seats: list[Seat] = []
    for plan in run.seats:
        if plan.person:  # a person at a human table: asked through the store
            desk = TableDesk(context.sessions(), run.match_id)
            desk.clear()  # an earlier run's moments, if the match starts again
            seats.append(HumanSeat(desk, plan.label))
            continue
        if plan.house is not None:
            kind, seed = plan.house
            bot = HOUSE_BOTS[kind](house_seed(seed, run.seed))
            seats.append(InProcessSeat(bot, plan.label))
            continue
        sha = plan.archive_sha256
        env = version_environment(settings, sha, lambda sha=sha: archive(sha))  # type: ignore[misc]
        process = shared_sandbox().start(env, seat=plan.seat, policy=SandboxPolicy())
        host = SandboxHost(process, host_paths(settings, env))
        run.hosts.append(host)
        seats.append(GrpcSeat(process.address, plan.label, host=host, names=labels))
    return seats


def live_writer(sessions: sessionmaker[Session], run: MatchRun) -> LiveWriter:
    """The writer of the match's live events (arena/store/live.py).

    Bots alone: batched (a write every `DEFAULT_INTERVAL` at most, and at a hand's end) and
    only while someone watches, which protects the database from a fast match's ~950
    events a game. A person's table: every event written as it is told, whoever watches,
    so a person never waits on the batching. A batch is written only when an event comes:
    a bot's card kept for it waited for the next event, and while the person is asked
    none comes, so the card reached them only after they answered. Written at once, every
    event the match told is stored before the person is asked (the desk's `ask` comes
    after them); and a table is small and slow (at most `MAX_HANDS` hands at a person's
    pace, arena/store/people.py), so its writes are few."""
    if any(plan.person for plan in run.seats):
        return LiveWriter(sessions, run.match_id, interval=0.0)
    return LiveWriter(sessions, run.match_id, on_demand=True)


def play(run: MatchRun, seats: Sequence[Seat], on_event: EventSink | None = None) -> MatchOutcome:
    """Play the match (the runner never raises for a bot's behaviour); `on_event` hears
    its progress (the live events people watch it by)."""
    entrants = [
        Entrant(plan.label, seat, version=str(plan.version_id))
        for plan, seat in zip(run.seats, seats, strict=True)
    ]
    runner = MatchRunner(
        run.rules,
        entrants,
        run.seed,
        duplicate=run.duplicate,
        time_policy=run.time_policy,
        match_id=str(run.match_id),
        on_event=on_event,
    )
    return transport.run(runner.run_async())


def match_result(run: MatchRun, outcome: MatchOutcome, finished_at: datetime) -> MatchResult:
    """The store's `MatchResult` for an outcome (entrant i sat at seat i)."""
    return outcome_result(
        outcome,
        [plan.version_id for plan in run.seats],
        run.started_at,
        max(finished_at, run.started_at),
    )


# -- the task ------------------------------------------------------------------------------


def _in_session(sessions: sessionmaker[Session], action: Callable[[Session], _T]) -> _T:
    with sessions() as session:
        return action(session)


def _status(sessions: sessionmaker[Session], match_id: int) -> str:
    def read(session: Session) -> str:
        status = session.scalar(select(Match.status).where(Match.id == match_id))
        return "missing" if status is None else str(status.value)

    return _in_session(sessions, read)


def _stop_all(hosts: Iterable[SandboxHost]) -> None:
    for host in hosts:
        try:
            host.stop()
        except Exception:
            log.exception("stopping a bot failed")


def execute_match(match_id: int, *, environment_tries: int | None = None) -> RunSummary:
    """Run match `match_id` if it is queued, and record it (what `run_match` does).

    Raises a transient infrastructure error (to be retried) only before the match was
    played; the match is then queued again. `environment_tries` is how many times this
    worker's or another's environment already failed to set the match up (`run_match`
    counts them): below `ENVIRONMENT_RETRIES`, such a failure queues the match again and
    raises WorkerEnvironmentError (to be retried); at the bound, or when None (a caller
    that does not retry), it fails the match with the reason.
    """
    settings = context.settings()
    sessions = context.sessions()
    extra = {"match_id": match_id}
    if not _in_session(sessions, lambda s: start_match(s, match_id)):
        status = _status(sessions, match_id)
        log.info("match %s is %s: nothing to do", match_id, status, extra=extra)
        return RunSummary(match_id, "skipped", status, "not queued")
    metrics = worker_metrics()
    metrics.started.inc()
    claimed = time.perf_counter()
    run: MatchRun | None = None
    account = MatchAccount()
    mark = self_cpu_seconds()
    setting_up = True
    try:
        run = _in_session(sessions, lambda s: load_run(s, match_id, utc_now()))
        with sessions() as session:
            seats = build_seats(run, settings, lambda sha: archive_content(session, sha))
            session.rollback()
        setting_up = False
        log.info("match %s started", match_id, extra={**extra, "seats": len(seats)})
        account.seats, mark = self_cpu_seconds() - mark, self_cpu_seconds()
        outcome = play(run, seats, live_writer(sessions, run))
        account.runner, mark = self_cpu_seconds() - mark, self_cpu_seconds()
    except Exception as error:
        if run is not None:
            _stop_all(run.hosts)
        environment = setting_up and isinstance(error, ENVIRONMENT_ERRORS)
        tries_left = 0 if environment_tries is None else ENVIRONMENT_RETRIES - environment_tries
        retry_environment = environment and tries_left > 0
        if is_transient(error) or retry_environment:
            released = retrying(
                lambda: _in_session(sessions, lambda s: release_match(s, match_id)),
                seconds=settings.db_retry_seconds,
                what=f"queueing match {match_id} again",
            )
            log.warning("match %s put back in the queue (%s)", match_id, error, extra=extra)
            if released:
                metrics.requeued.labels("environment" if retry_environment else "transient").inc()
            if released and retry_environment:
                raise WorkerEnvironmentError(_platform_reason(error)) from error
            if released:
                raise
            return RunSummary(match_id, "requeued", _status(sessions, match_id), str(error))
        reason = _platform_reason(error)
        if environment and environment_tries:
            reason += f" (on each of {environment_tries + 1} tries)"
        log.error("match %s failed: %s", match_id, reason, exc_info=True, extra=extra)
        retrying(
            lambda: _in_session(sessions, lambda s: fail_match(s, match_id, reason)),
            seconds=settings.db_retry_seconds,
            what=f"failing match {match_id}",
        )
        _forget_live_events(sessions, match_id)
        metrics.finished.labels("failed").inc()
        return RunSummary(match_id, "failed", "failed", reason)
    result = match_result(run, outcome, utc_now())
    recorded = retrying(
        lambda: _in_session(sessions, lambda s: record_match_result(s, match_id, result)),
        seconds=settings.db_retry_seconds,
        what=f"recording match {match_id}",
    )
    _forget_live_events(sessions, match_id)
    account.recording = self_cpu_seconds() - mark
    _stop_all(run.hosts)  # stopped by the runner already: this only makes it certain
    account.add_bots(host.process for host in run.hosts)
    action = "recorded" if recorded.recorded else "already-recorded"
    record_match(
        recorded.status.value if recorded.recorded else "duplicate",
        time.perf_counter() - claimed,
        account.to_dict(),
        outcome.replay.get("faults", ()),
    )
    log.info(
        "match %s %s: %s",
        match_id,
        action,
        recorded.status.value,
        extra={
            **extra,
            "rated": recorded.rated,
            "void": outcome.void,
            "cpu": account.to_dict(),
        },
    )
    return RunSummary(
        match_id, action, recorded.status.value, outcome.void_reason or "", account.to_dict()
    )


def _forget_live_events(sessions: sessionmaker[Session], match_id: int) -> None:
    """Delete the match's live events once it is stored (its replay says it all); a
    failure leaves them for the next run of the match to clear, and is only logged."""
    try:
        _in_session(sessions, lambda s: clear_events(s, match_id))
    except Exception:
        log.exception("match %s: its live events were not deleted", match_id)


def _platform_reason(error: BaseException) -> str:
    """The reason recorded on a match our side could not play."""
    if isinstance(error, UploadError | EnvironmentBuildError):
        return f"a bot version's environment cannot be built on this worker: {error}"
    if isinstance(error, SandboxError):
        return f"the sandbox failed on this worker: {error}"
    if isinstance(error, WorkerEnvironmentError):
        return str(error)
    if isinstance(error, OSError):
        return f"this worker's environment failed: {type(error).__name__}: {error}"
    return f"platform error: {type(error).__name__}: {error}"


_settings = context.settings()


@app.task(
    name=RUN_MATCH,
    base=ArenaTask,
    bind=True,
    soft_time_limit=int(_settings.match_soft_limit),
    time_limit=int(_settings.match_hard_limit),
    ignore_result=False,
)
def run_match(self: ArenaTask, match_id: int, environment_tries: int = 0) -> dict[str, Any]:
    """Play and record match `match_id` (idempotent: a second delivery does nothing).

    A failed environment (`WorkerEnvironmentError`) is retried through the broker, after
    `environment_pause`, on whichever worker takes it; `environment_tries` counts them
    (apart from the transient faults' retries)."""
    try:
        return execute_match(int(match_id), environment_tries=environment_tries).to_dict()
    except WorkerEnvironmentError as error:
        tries = environment_tries + 1
        log.warning(
            "match %s: the environment failed (%s); retried in %.0f s",
            match_id,
            error,
            environment_pause(tries),
            extra={"match_id": match_id, "environment_tries": tries},
        )
        raise self.retry(
            args=(match_id,),
            kwargs={"environment_tries": tries},
            exc=error,
            countdown=environment_pause(tries),
        ) from None


def enqueue_matches(match_ids: Sequence[int]) -> None:
    """Put `match_ids` on the ``matches`` queue (call after the commit that made them)."""
    if not match_ids:
        return
    with app.producer_or_acquire() as producer:
        for match_id in match_ids:
            run_match.apply_async((match_id,), producer=producer)
