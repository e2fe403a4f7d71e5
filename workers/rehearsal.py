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
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from sqlalchemy import func, select

from arena.benchmarks.rehearsal import EntrantPlan
from arena.ports import free_port
from arena.seasons import finish_season, schedule_round
from arena.seasons import start_season as start
from arena.store import migrate
from arena.store.models import Bot, BotVersion, Match, SeasonEntry, User, VersionStatus
from arena.store.types import utc_now

from . import context
from .app import app, configure
from .bench import _start_worker, _stop, _wait, cpu_per_match
from .config import Settings
from .rehearsal_checks import collect
from .rehearsal_entrants import BuiltKits, cached_kits, pack, python_kit, upload_files
from .rehearsal_errors import RehearsalError
from .rehearsal_figures import RehearsalFigures
from .rehearsal_season import accounts, all_terminal, default_season, play_final
from .rehearsal_site import site_up, start_site, upload
from .scratch_servers import scratch_postgres, scratch_redis


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
    from .config import prepare_sql_broker
    from .embedded_broker import EmbeddedBroker
    from .matches import enqueue_matches
    from .validation import enqueue_validations

    if rounds < 2:
        raise RehearsalError("a rehearsal needs two rounds at least (updates come half way)")
    if broker_url is None and broker not in ("embedded", "sql", "redis"):
        raise RehearsalError(f"no broker {broker!r}: embedded, sql, redis or a Redis URL")
    if database_url is None and database not in ("sqlite", "postgresql"):
        raise RehearsalError(f"no database {database!r}: sqlite, postgresql or a URL")
    wall = time.perf_counter()
    stages: dict[str, float] = {}
    root.mkdir(parents=True, exist_ok=True)
    data_dir = root / "data"
    data_dir.mkdir()
    log = root / "workers.log"
    broker_label = broker if broker_url is None else broker_url
    database_label = database if database_url is None else "postgresql (URL given)"
    with contextlib.ExitStack() as stack:
        building = None
        if kits is None:
            # In a thread of its own (the builds are subprocesses): the C++ kit's build is
            # the run's longest wait before a match (25 s on a quiet machine, 273 s at load
            # 30), and nothing before the C++ and TypeScript uploads needs it.
            progress(
                "building the starter kits in the background"
                + (f" (or from {kit_cache})" if kit_cache else "")
            )
            pool = stack.enter_context(ThreadPoolExecutor(1, thread_name_prefix="kits"))
            building = pool.submit(cached_kits, root / "kits", kit_cache)
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
        env = {k: v for k, v in os.environ.items() if not k.startswith("ARENA_")}
        env.update(
            ARENA_DATA_DIR=str(data_dir),
            ARENA_DATABASE_URL=database_url or f"sqlite:///{root / 'arena.db'}",
            ARENA_BROKER_URL=broker_url or f"sqla+sqlite:///{root / 'broker.sqlite'}",
            ARENA_LOG_FORMAT="json",
            ARENA_LOG_LEVEL="INFO",  # each recorded match's line carries its CPU account
            ARENA_SECRET_KEY=secrets.token_hex(32),
        )
        if metrics_port is not None:
            _serve_worker_metrics(env, data_dir / "metrics", metrics_port, stack, progress)
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
        site = start_site(env, port, root / "site.log")
        stack.callback(_stop, site)
        procs = [_start_worker(f"rehearsal{i}", env, log) for i in range(workers)]
        for process in procs:
            stack.callback(_stop, process)
        _wait(lambda: site_up(base), 60, f"the site (see {root / 'site.log'})")
        stages["start"] = time.perf_counter() - wall

        def upload_all(which: Sequence[EntrantPlan], first: bool, kits: BuiltKits) -> list[int]:
            ids = []
            for plan in which:
                p = (
                    plan.first_handicap
                    if first and plan.first_handicap is not None
                    else plan.handicap
                )
                archive = pack(upload_files(plan, kits, p))
                ids.append(int(upload(base, tokens[plan.name], plan.name, archive)["id"]))
            enqueue_validations(ids)  # what beat's dispatch does with pending versions
            return ids

        def settled(ids: list[int]) -> Callable[[], bool]:
            def check() -> bool:
                with sessions() as session:
                    rows = session.execute(
                        select(Bot.name, BotVersion.status, BotVersion.status_reason)
                        .join(Bot, Bot.id == BotVersion.bot_id)
                        .where(BotVersion.id.in_(ids))
                    ).all()
                rejected = [
                    f"{name}: {reason}" for name, s, reason in rows if s is VersionStatus.REJECTED
                ]
                if rejected:
                    raise RehearsalError("versions rejected: " + "; ".join(rejected)[:2000])
                return all(s is VersionStatus.READY for _, s, _ in rows)

            return check

        progress(f"uploading {len(plans)} entrants through {base}/api/v1")
        started = time.perf_counter()
        kits_cached = False
        if kits is None:  # the Python entrants first, while the kits build: they need none
            assert building is not None
            python = [plan for plan in plans if plan.kind == "python"]
            first_ids = upload_all(python, True, python_kit())
            waited = time.perf_counter()
            kits, kits_cached = building.result()
            stages["kits waited for"] = time.perf_counter() - waited
            first_ids += upload_all([p for p in plans if p.kind != "python"], True, kits)
        else:
            first_ids = upload_all(plans, True, kits)
        _wait(settled(first_ids), timeout, f"the entrants' validation (see {log})")
        validation_seconds = time.perf_counter() - started
        stages["uploads to ready"] = validation_seconds - stages.get("kits waited for", 0.0)
        with sessions() as session:
            entered = session.scalar(
                select(func.count())
                .select_from(SeasonEntry)
                .where(SeasonEntry.season_id == season_id, SeasonEntry.active.is_(True))
            )
        if entered != len(plans):
            raise RehearsalError(f"{entered} of {len(plans)} entrants joined the default season")
        with sessions() as session:
            start(session, season_id)
        load_start = os.getloadavg()[0]
        scheduled: list[int] = []
        round_seconds: list[float] = []
        round_matches: list[int] = []
        updaters: list[EntrantPlan] = []
        update_ids: list[int] = []
        season_started = time.perf_counter()
        for number in range(1, rounds + 1):
            if number == rounds // 2 + 1:
                updaters = [plan for plan in plans if plan.updates]
                if updaters:
                    progress(f"round {number}: {len(updaters)} entrants upload a new version")
                    update_ids = upload_all(updaters, False, kits)
            enqueued = utc_now()
            with sessions() as session:
                report = schedule_round(session, season_id, enqueue_matches)
            these = list(report.match_ids)
            if not these:
                raise RehearsalError(f"round {number} seated no table ({report.skipped})")
            scheduled += these
            _wait(all_terminal(sessions, these), timeout, f"round {number} (see {log})", 0.1)
            with sessions() as session:
                last = session.scalar(
                    select(func.max(Match.finished_at)).where(Match.id.in_(these))
                )
            round_seconds.append((last - enqueued).total_seconds() if last else 0.0)
            round_matches.append(len(these))
            progress(f"round {number}: {len(these)} matches in {round_seconds[-1]:.1f} s")
            if number == rounds // 2 + 1 and updaters:
                _wait(settled(update_ids), timeout, f"the new versions' validation (see {log})")
        season_seconds = time.perf_counter() - season_started
        load_end = os.getloadavg()[0]
        stages["season"] = time.perf_counter() - wall - sum(stages.values())
        with sessions() as session:
            finish_season(session, season_id)
        final_id = None
        final_seconds = 0.0
        finalists = min(finalists, len(plans), 16)  # a round robin takes 4-16
        if finalists >= 4:
            progress(f"season finished: the final of its top {finalists}")
            started = time.perf_counter()
            final_id = play_final(sessions, season_id, finalists, workers, timeout, log)
            final_seconds = time.perf_counter() - started
        stages["final"] = time.perf_counter() - wall - sum(stages.values())
        progress("checking every match and replay")
        figures = collect(sessions, plans, season_id, scheduled, final_id)
        stages["checks"] = time.perf_counter() - wall - sum(stages.values())
    return dataclasses.replace(
        figures,
        workers=workers,
        broker=broker_label,
        database=database_label,
        build_seconds=kits.seconds,
        kits_cached=kits_cached,
        validation_seconds=validation_seconds,
        season_seconds=season_seconds,
        cpu_per_match=cpu_per_match(log, set(scheduled)),
        round_seconds=round_seconds,
        round_matches=round_matches,
        load=(load_start, load_end),
        final_seconds=final_seconds,
        wall_seconds=time.perf_counter() - wall,
        stages=stages,
    )


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
