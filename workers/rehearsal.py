"""`arena bench rehearsal`: a season the way a real competition looks, through the real
platform, checked against a known truth (issue 36, item 3; docs/scaling.md).

One run, in a scratch folder: the starter kits built once (`workers.rehearsal_entrants`),
in the background while the platform starts and the Python entrants are uploaded and
validated (they need no build); a fresh database (SQLite; a PostgreSQL server of the
run's own, `workers.scratch_servers`; or the PostgreSQL URL given, which must be empty)
and broker (the embedded server, a scratch SQL broker, a Redis server of the run's own,
or the Redis URL given, flushed first); the real site (`arena web`) and real worker
processes (`arena worker`, the sandbox for every bot). The entrants
(`arena.benchmarks.rehearsal.plan_entrants`) each get an account and an API token and
upload their bot over HTTP to `POST /api/v1/bots/<name>/versions`, as `arena bot upload`
does; their first ready version joins the default season, as a contestant's does
(`arena.seasons.entries.promote_version`).

The driver then plays beat's part, as `workers.bench` does: it enqueues the pending
versions (what `dispatch` would), starts the season and schedules each round
(`arena.seasons.schedule_round`, whose matchmaking seats the tables) once the last is
recorded, so that each round's duration is its own. Half way, the entrants that update
upload their second version; it is validated while the next round plays and takes its
bot's place. After the last round the season is finished (`finish_season`): its frozen
standings (the batch fit with 95 % intervals and tie groups) are the ladder's order. Then
the top `finalists` of them play a final (`arena.seasons.finals`, issue 35): each one's
playing version frozen, a balanced round robin of duplicate sets, released up to one
match per worker, its standings frozen in turn; the driver plays beat's part there too
(`advance_final`, then enqueueing what it released).

Then the checks: every scheduled match recorded exactly once (done, one replay, rated
once: one rating change per seat, and the entries' games adding up), every replay
verifying through the engine with the seats' stored scores, the faults counted by kind
from the replays, and the final order against the truth (`arena.benchmarks.rehearsal`).

This module runs the stages in order and times them; each part lives in a module of its
own: the kits and the entrants' files (`rehearsal_entrants`), the site and the uploads
to it (`rehearsal_site`), the accounts, the season and the final driven as beat would
(`rehearsal_season`), the checks read back from the database (`rehearsal_checks`), what
they found (`rehearsal_figures`), and the servers of the run's own (`scratch_servers`).
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import secrets
import tempfile
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from arena.benchmarks.rehearsal import EntrantPlan
from arena.ports import free_port
from arena.seasons import finish_season, schedule_round
from arena.seasons import start_season as start
from arena.store import migrate
from arena.store.models import Bot, BotVersion, Match, SeasonEntry, User, VersionStatus
from arena.store.types import utc_now

from . import context
from .app import app, configure
from .bench import _start_worker, _stop, _wait, all_terminal, cpu_per_match
from .config import Settings, prepare_sql_broker
from .embedded_broker import EmbeddedBroker
from .matches import enqueue_matches
from .rehearsal_checks import collect
from .rehearsal_entrants import BuiltKits, cached_kits, pack, python_kit, upload_files
from .rehearsal_errors import RehearsalError
from .rehearsal_figures import RehearsalFigures
from .rehearsal_season import accounts, default_season, play_final
from .rehearsal_site import site_up, start_site, upload
from .scratch_servers import scratch_postgres, scratch_redis
from .validation import enqueue_validations


@dataclasses.dataclass(frozen=True)
class _Servers:
    """The broker and the database the run uses (URLs; None: the run's own files), and
    how the report names them."""

    broker_url: str | None
    broker: str
    database_url: str | None
    database: str


@dataclasses.dataclass(frozen=True)
class _Platform:
    """What `_start_platform` started: the processes' environment, the database's
    sessions, the site's address, the workers' log, each entrant's API token and the
    default season they join."""

    env: dict[str, str]
    sessions: sessionmaker[Session]
    base: str
    log: Path
    tokens: dict[str, str]
    season_id: int


@dataclasses.dataclass(frozen=True)
class _Uploads:
    """What `_upload_entrants` did: the kits used, whether from the cache, the seconds
    from the first upload to the last version ready, and the part of them spent waiting
    for the kits' build (None: the kits were given)."""

    kits: BuiltKits
    kits_cached: bool
    validation_seconds: float
    kits_waited: float | None


@dataclasses.dataclass(frozen=True)
class _Season:
    """What `_run_season` played: every match scheduled, each round's duration and
    tables, the season's wall seconds and the load average (1 minute) at its start and
    end."""

    scheduled: list[int]
    round_seconds: list[float]
    round_matches: list[int]
    seconds: float
    load: tuple[float, float]


class _Stages:
    """The run's wall seconds by stage, in order: each `lap` is the time since the last."""

    def __init__(self) -> None:
        self.wall = time.perf_counter()
        self.seconds: dict[str, float] = {}

    def lap(self, name: str) -> None:
        self.seconds[name] = time.perf_counter() - self.wall - sum(self.seconds.values())


def run_rehearsal(
    plans: Sequence[EntrantPlan],
    *,
    workers: int,
    rounds: int,
    root: Path,
    broker_url: str | None = None,
    broker: str = "embedded",
    database_url: str | None = None,
    database: str = "sqlite",
    hands: int | None = None,
    kits: BuiltKits | None = None,
    kit_cache: Path | None = None,
    finalists: int = 8,
    timeout: float = 3600.0,
    metrics_port: int | None = None,
    progress: Callable[[str], None] = lambda line: None,
) -> RehearsalFigures:
    """One rehearsal of `plans` with `workers` worker processes and `rounds` rounds (the
    module's docstring says what it does). `hands` caps a match (default: standard rules
    to 100). The broker: `broker_url` when given, else `broker` "embedded", "sql" or
    "redis" (a Redis server of the run's own); the database: `database_url` when given
    (an empty one), else `database` "sqlite" or "postgresql" (a server of the run's own).
    The kits are built once (or taken from `kit_cache`, where a build of the same
    sources was kept), beside the platform's start. With `metrics_port`, the workers'
    Prometheus metrics are summed and served on 127.0.0.1:`metrics_port` (0: a free one,
    said by `progress`) as `arena platform` serves its own, so a Prometheus can watch the
    rehearsal (docs/operations.md, Dashboards). Raises RehearsalError, KitBuildError when
    a kit cannot be built, or ScratchServerError when a server of the run's own cannot
    start."""
    _check_choices(rounds, broker_url, broker, database_url, database)
    stages = _Stages()
    root.mkdir(parents=True, exist_ok=True)
    (root / "data").mkdir()
    with contextlib.ExitStack() as stack:
        building = None
        if kits is None:
            building = _build_kits(stack, root, kit_cache, progress)
        servers = _start_servers(stack, root, broker_url, broker, database_url, database, progress)
        platform = _start_platform(
            stack, root, plans, servers, workers, hands, metrics_port, progress
        )
        stages.lap("start")
        uploads = _upload_entrants(platform, plans, kits, building, timeout, progress)
        if uploads.kits_waited is not None:
            stages.seconds["kits waited for"] = uploads.kits_waited
        stages.seconds["uploads to ready"] = uploads.validation_seconds - (
            uploads.kits_waited or 0.0
        )
        season = _run_season(platform, plans, rounds, uploads.kits, timeout, progress)
        stages.lap("season")
        final_id, final_seconds = _run_final(platform, plans, finalists, workers, timeout, progress)
        stages.lap("final")
        figures = _check_nothing_lost(platform, plans, season.scheduled, final_id, progress)
        stages.lap("checks")
    return dataclasses.replace(
        figures,
        workers=workers,
        broker=servers.broker,
        database=servers.database,
        build_seconds=uploads.kits.seconds,
        kits_cached=uploads.kits_cached,
        validation_seconds=uploads.validation_seconds,
        season_seconds=season.seconds,
        cpu_per_match=cpu_per_match(platform.log, set(season.scheduled)),
        round_seconds=season.round_seconds,
        round_matches=season.round_matches,
        load=season.load,
        final_seconds=final_seconds,
        wall_seconds=time.perf_counter() - stages.wall,
        stages=stages.seconds,
    )


def _check_choices(
    rounds: int, broker_url: str | None, broker: str, database_url: str | None, database: str
) -> None:
    """Refuse what the rehearsal cannot run, before anything starts. Raises
    RehearsalError."""
    if rounds < 2:
        raise RehearsalError("a rehearsal needs two rounds at least (updates come half way)")
    if broker_url is None and broker not in ("embedded", "sql", "redis"):
        raise RehearsalError(f"no broker {broker!r}: embedded, sql, redis or a Redis URL")
    if database_url is None and database not in ("sqlite", "postgresql"):
        raise RehearsalError(f"no database {database!r}: sqlite, postgresql or a URL")


def _build_kits(
    stack: contextlib.ExitStack,
    root: Path,
    kit_cache: Path | None,
    progress: Callable[[str], None],
) -> Future[tuple[BuiltKits, bool]]:
    """The starter kits built (or taken from `kit_cache`) in a thread of its own: the
    builds are subprocesses, the C++ kit's is the run's longest wait before a match (25 s
    on a quiet machine, 273 s at load 30), and nothing before the C++ and TypeScript
    uploads needs it."""
    progress(
        "building the starter kits in the background"
        + (f" (or from {kit_cache})" if kit_cache else "")
    )
    pool = stack.enter_context(ThreadPoolExecutor(1, thread_name_prefix="kits"))
    return pool.submit(cached_kits, root / "kits", kit_cache)


def _start_servers(
    stack: contextlib.ExitStack,
    root: Path,
    broker_url: str | None,
    broker: str,
    database_url: str | None,
    database: str,
    progress: Callable[[str], None],
) -> _Servers:
    """The broker (the embedded server, a Redis server of the run's own, or the Redis URL
    given, flushed first; "sql" needs none) and the database (a PostgreSQL server of the
    run's own, or the URL given; SQLite needs none), stopped when `stack` closes."""
    broker_label = broker if broker_url is None else broker_url
    database_label = database if database_url is None else "postgresql (URL given)"
    if broker_url is None and broker == "embedded":
        server = EmbeddedBroker(root / "broker")
        broker_url = server.start()
        stack.callback(server.stop)
    elif broker_url is None and broker == "redis":
        broker_url = stack.enter_context(scratch_redis(root / "redis"))
        broker_label = "redis (a server of its own)"
        progress(f"a Redis server of the rehearsal's own: {broker_url}")
    elif broker_url is not None and broker_url.startswith("redis"):
        import redis

        redis.Redis.from_url(broker_url).flushdb()
    if database_url is None and database == "postgresql":
        database_url = stack.enter_context(scratch_postgres())
        database_label = "postgresql (a server of its own)"
        progress(f"a PostgreSQL server of the rehearsal's own: {database_url}")
    return _Servers(broker_url, broker_label, database_url, database_label)


def _start_platform(
    stack: contextlib.ExitStack,
    root: Path,
    plans: Sequence[EntrantPlan],
    servers: _Servers,
    workers: int,
    hands: int | None,
    metrics_port: int | None,
    progress: Callable[[str], None],
) -> _Platform:
    """The database migrated (it must hold no users), the entrants' accounts and the
    default season made, and the site and `workers` worker processes started and
    answering; all stopped when `stack` closes. Raises RehearsalError."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("ARENA_")}
    env.update(
        ARENA_DATA_DIR=str(root / "data"),
        ARENA_DATABASE_URL=servers.database_url or f"sqlite:///{root / 'arena.db'}",
        ARENA_BROKER_URL=servers.broker_url or f"sqla+sqlite:///{root / 'broker.sqlite'}",
        ARENA_LOG_FORMAT="json",
        ARENA_LOG_LEVEL="INFO",  # each recorded match's line carries its CPU account
        ARENA_SECRET_KEY=secrets.token_hex(32),
    )
    if metrics_port is not None:
        _serve_worker_metrics(env, root / "data" / "metrics", metrics_port, stack, progress)
    settings = Settings.from_environ(env)
    configure(app, settings)
    stack.callback(lambda: configure(app, Settings.from_environ()))
    if settings.broker_is_sql:
        prepare_sql_broker(settings.broker_url)
    migrate.upgrade(settings.database_url)
    sessions = context.sessions()
    with sessions() as session:
        if session.scalar(select(func.count()).select_from(User)):
            raise RehearsalError("the database holds users already: give an empty one")
    tokens = accounts(sessions, plans)
    season_id = default_season(sessions, hands)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = root / "workers.log"
    site = start_site(env, port, root / "site.log")
    stack.callback(_stop, site)
    for i in range(workers):
        stack.callback(_stop, _start_worker(f"rehearsal{i}", env, log))
    _wait(lambda: site_up(base), 60, f"the site (see {root / 'site.log'})")
    return _Platform(env, sessions, base, log, tokens, season_id)


def _upload(
    platform: _Platform, which: Sequence[EntrantPlan], first: bool, kits: BuiltKits
) -> list[int]:
    """Each of `which` uploads its bot (its first version's handicap when `first`) over
    HTTP, and its version is enqueued for validation as beat's dispatch would; their ids."""
    ids = []
    for plan in which:
        p = plan.first_handicap if first and plan.first_handicap is not None else plan.handicap
        archive = pack(upload_files(plan, kits, p))
        ids.append(int(upload(platform.base, platform.tokens[plan.name], plan.name, archive)["id"]))
    enqueue_validations(ids)
    return ids


def _settled(platform: _Platform, ids: list[int]) -> Callable[[], bool]:
    """A check that versions `ids` are all ready. Raises RehearsalError when one was
    rejected."""

    def check() -> bool:
        with platform.sessions() as session:
            rows = session.execute(
                select(Bot.name, BotVersion.status, BotVersion.status_reason)
                .join(Bot, Bot.id == BotVersion.bot_id)
                .where(BotVersion.id.in_(ids))
            ).all()
        rejected = [f"{name}: {reason}" for name, s, reason in rows if s is VersionStatus.REJECTED]
        if rejected:
            raise RehearsalError("versions rejected: " + "; ".join(rejected)[:2000])
        return all(s is VersionStatus.READY for _, s, _ in rows)

    return check


def _upload_entrants(
    platform: _Platform,
    plans: Sequence[EntrantPlan],
    kits: BuiltKits | None,
    building: Future[tuple[BuiltKits, bool]] | None,
    timeout: float,
    progress: Callable[[str], None],
) -> _Uploads:
    """Every entrant's first version uploaded and ready, each in the default season (the
    Python entrants first while the kits build: they need none). Raises RehearsalError."""
    progress(f"uploading {len(plans)} entrants through {platform.base}/api/v1")
    started = time.perf_counter()
    kits_cached = False
    kits_waited = None
    if kits is None:
        assert building is not None
        first_ids = _upload(platform, [p for p in plans if p.kind == "python"], True, python_kit())
        waited = time.perf_counter()
        kits, kits_cached = building.result()
        kits_waited = time.perf_counter() - waited
        first_ids += _upload(platform, [p for p in plans if p.kind != "python"], True, kits)
    else:
        first_ids = _upload(platform, plans, True, kits)
    _wait(_settled(platform, first_ids), timeout, f"the entrants' validation (see {platform.log})")
    validation_seconds = time.perf_counter() - started
    with platform.sessions() as session:
        entered = session.scalar(
            select(func.count())
            .select_from(SeasonEntry)
            .where(SeasonEntry.season_id == platform.season_id, SeasonEntry.active.is_(True))
        )
    if entered != len(plans):
        raise RehearsalError(f"{entered} of {len(plans)} entrants joined the default season")
    return _Uploads(kits, kits_cached, validation_seconds, kits_waited)


def _run_season(
    platform: _Platform,
    plans: Sequence[EntrantPlan],
    rounds: int,
    kits: BuiltKits,
    timeout: float,
    progress: Callable[[str], None],
) -> _Season:
    """The season started and its `rounds` rounds played one after the other, as beat
    would schedule them; half way, the entrants that update upload their second version,
    validated while the next round plays. Raises RehearsalError."""
    with platform.sessions() as session:
        start(session, platform.season_id)
    load_start = os.getloadavg()[0]
    season = _Season([], [], [], 0.0, (load_start, load_start))
    started = time.perf_counter()
    half = rounds // 2 + 1
    update_ids: list[int] = []
    for number in range(1, rounds + 1):
        if number == half:
            updaters = [plan for plan in plans if plan.updates]
            if updaters:
                progress(f"round {number}: {len(updaters)} entrants upload a new version")
                update_ids = _upload(platform, updaters, False, kits)
        _play_round(platform, number, season, timeout, progress)
        if number == half and update_ids:
            what = f"the new versions' validation (see {platform.log})"
            _wait(_settled(platform, update_ids), timeout, what)
    return dataclasses.replace(
        season, seconds=time.perf_counter() - started, load=(load_start, os.getloadavg()[0])
    )


def _play_round(
    platform: _Platform,
    number: int,
    season: _Season,
    timeout: float,
    progress: Callable[[str], None],
) -> None:
    """Round `number` scheduled and waited for until each of its matches ended; its
    matches and its duration (from enqueueing to the last match's end) added to
    `season`. Raises RehearsalError when it seated no table."""
    enqueued = utc_now()
    with platform.sessions() as session:
        report = schedule_round(session, platform.season_id, enqueue_matches)
    these = list(report.match_ids)
    if not these:
        raise RehearsalError(f"round {number} seated no table ({report.skipped})")
    season.scheduled.extend(these)
    _wait(
        all_terminal(platform.sessions, these), timeout, f"round {number} (see {platform.log})", 0.1
    )
    with platform.sessions() as session:
        last = session.scalar(select(func.max(Match.finished_at)).where(Match.id.in_(these)))
    season.round_seconds.append((last - enqueued).total_seconds() if last else 0.0)
    season.round_matches.append(len(these))
    progress(f"round {number}: {len(these)} matches in {season.round_seconds[-1]:.1f} s")


def _run_final(
    platform: _Platform,
    plans: Sequence[EntrantPlan],
    finalists: int,
    workers: int,
    timeout: float,
    progress: Callable[[str], None],
) -> tuple[int | None, float]:
    """The season finished (its standings frozen), then the final of its top `finalists`
    (at most 16, a round robin's limit; none under 4) played to its end; the final's id
    and its seconds."""
    with platform.sessions() as session:
        finish_season(session, platform.season_id)
    finalists = min(finalists, len(plans), 16)
    if finalists < 4:
        return None, 0.0
    progress(f"season finished: the final of its top {finalists}")
    started = time.perf_counter()
    final_id = play_final(
        platform.sessions, platform.season_id, finalists, workers, timeout, platform.log
    )
    return final_id, time.perf_counter() - started


def _check_nothing_lost(
    platform: _Platform,
    plans: Sequence[EntrantPlan],
    scheduled: list[int],
    final_id: int | None,
    progress: Callable[[str], None],
) -> RehearsalFigures:
    """The checks read back from the database (`rehearsal_checks.collect`): every match
    recorded once and its replay verifying, the faults by kind, the order against the
    truth."""
    progress("checking every match and replay")
    return collect(platform.sessions, plans, platform.season_id, scheduled, final_id)


def _serve_worker_metrics(
    env: dict[str, str],
    folder: Path,
    port: int,
    stack: contextlib.ExitStack,
    progress: Callable[[str], None],
) -> None:
    """The workers write their metrics in `folder` (named in `env` only: this driver's own
    process keeps its single-process metrics) and this process serves their sum."""
    from .metrics import ENV, start_exporter

    folder.mkdir(parents=True, mode=0o700)
    env[ENV] = str(folder)
    env.pop("ARENA_METRICS_PORT", None)  # every worker would ask for the same port
    server, _thread = start_exporter(folder, "127.0.0.1", port)
    stack.callback(server.server_close)
    stack.callback(server.shutdown)
    progress(f"the workers' metrics on http://127.0.0.1:{server.server_port}/metrics")


def rehearse(
    plans: Sequence[EntrantPlan],
    *,
    workers: int = 2,
    rounds: int = 16,
    broker_url: str | None = None,
    broker: str = "embedded",
    database_url: str | None = None,
    database: str = "sqlite",
    hands: int | None = None,
    keep: Path | None = None,
    kit_cache: Path | None = None,
    finalists: int = 8,
    metrics_port: int | None = None,
    progress: Callable[[str], None] = lambda line: None,
) -> RehearsalFigures:
    """`run_rehearsal` in a scratch folder (or `keep`, whose logs and database stay)."""
    with tempfile.TemporaryDirectory(prefix="arena-rehearsal-") as scratch:
        root = keep or Path(scratch)
        return run_rehearsal(
            plans,
            workers=workers,
            rounds=rounds,
            root=root / "run" if keep is None else root,
            broker_url=broker_url,
            broker=broker,
            database_url=database_url,
            database=database,
            hands=hands,
            kit_cache=kit_cache,
            finalists=finalists,
            metrics_port=metrics_port,
            progress=progress,
        )
