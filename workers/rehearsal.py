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
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import secrets
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from arena.benchmarks.rehearsal import Agreement, EntrantPlan, agreement, true_order
from arena.engine import preset
from arena.match import replay as replay_io
from arena.match.replay_v2 import ReplayV2, verify_v2
from arena.match.verify import ReplayMismatchError
from arena.seasons import MatchmakingSettings, create_season, finish_season, schedule_round
from arena.seasons import start_season as start
from arena.store import migrate
from arena.store.accounts import create_user, issue_token
from arena.store.database import write_transaction
from arena.store.models import (
    Bot,
    BotVersion,
    Match,
    MatchSeat,
    MatchStatus,
    RatingChange,
    Replay,
    Season,
    SeasonEntry,
    User,
    VersionStatus,
)
from arena.store.types import utc_now

from . import context
from .app import app, configure
from .bench import _start_worker, _stop, _wait, cpu_per_match
from .config import Settings
from .rehearsal_entrants import BuiltKits, cached_kits, pack, python_kit, upload_files
from .scratch_servers import scratch_postgres, scratch_redis


class RehearsalError(RuntimeError):
    """The rehearsal could not run to its end; the message says where (and the log)."""


@dataclasses.dataclass(frozen=True)
class FinalRow:
    """One entrant's line of the final standings."""

    name: str
    kind: str
    handicap: float
    fault: str | None
    version: int
    rank: int | None
    points: float | None
    low: float | None
    high: float | None
    games: int


@dataclasses.dataclass
class RehearsalFigures:
    """What one rehearsal measured and checked."""

    entrants: int
    workers: int
    broker: str
    database: str
    build_seconds: dict[str, float]
    validation_seconds: float
    season_seconds: float
    scheduled: int
    recorded: int
    statuses: dict[str, int]
    duplicates: list[str]
    replays_verified: int
    replay_failures: list[str]
    cpu_per_match: dict[str, float]
    faults: dict[str, int]
    faulted_matches: dict[str, int]
    faults_by_entrant: dict[str, int]
    round_seconds: list[float]
    round_matches: list[int]
    standings: list[FinalRow]
    agreement: Agreement | None
    load: tuple[float, float]
    """The load average (1 minute) when the season started and when it ended."""
    hands_per_match: float
    final: list[FinalRow] = dataclasses.field(default_factory=list)
    """The final's standings (`rank` its place), when one was played."""
    final_agreement: Agreement | None = None
    final_seconds: float = 0.0
    final_matches: int = 0
    kits_cached: bool = False
    """The kits came from the cache (`build_seconds` are then the cached build's)."""
    match_seconds: list[float] = dataclasses.field(default_factory=list)
    """Per recorded match: its wall time, from a worker starting it to its end."""
    wait_seconds: list[float] = dataclasses.field(default_factory=list)
    """Per recorded match: its wait in the queue, from its creation to a worker starting it."""
    validation_seconds_each: list[float] = dataclasses.field(default_factory=list)
    """Per uploaded version: from the upload to its validation's verdict."""
    wall_seconds: float = 0.0
    """The whole run, end to end: kits, servers, uploads, season, final and checks."""
    stages: dict[str, float] = dataclasses.field(default_factory=dict)
    """Where the wall time went, stage by stage (seconds, in order; they add up to
    `wall_seconds` but for the stop of the servers at the end)."""

    @property
    def per_minute(self) -> float:
        """Matches recorded per minute of the season (first round enqueued to last recorded)."""
        return 60.0 * self.recorded / self.season_seconds if self.season_seconds > 0 else 0.0

    @property
    def nothing_lost(self) -> bool:
        """Every scheduled match (and final table) done, recorded once, its replay verifying."""
        return (
            self.recorded == self.scheduled
            and not self.duplicates
            and not self.replay_failures
            and self.replays_verified == self.scheduled + self.final_matches
        )


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _start_site(env: dict[str, str], port: int, log: Path) -> subprocess.Popen[bytes]:
    with log.open("ab") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "arena.commands.platform", "web", "--port", str(port)],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )


def _site_up(base: str) -> bool:
    """Whether the site answers (any HTTP status: it serves)."""
    try:
        with urllib.request.urlopen(f"{base}/api/v1/me", timeout=5):
            return True
    except urllib.error.HTTPError:
        return True
    except (urllib.error.URLError, OSError):
        return False


def upload(base: str, token: str, name: str, archive: bytes) -> dict[str, Any]:
    """POST one upload to the site's API as `arena bot upload` does; its JSON answer.
    Raises RehearsalError when the site refuses it."""
    boundary = "rehearsal-" + secrets.token_hex(12)
    body = (
        (
            f'--{boundary}\r\nContent-Disposition: form-data; name="file"; '
            f'filename="{name}.tar.gz"\r\nContent-Type: application/octet-stream\r\n\r\n'
        ).encode()
        + archive
        + f"\r\n--{boundary}--\r\n".encode()
    )
    request = urllib.request.Request(
        f"{base}/api/v1/bots/{name}/versions",
        data=body,
        method="POST",
        headers={
            "Authorization": f"Bearer {token}",
            "Content-Type": f"multipart/form-data; boundary={boundary}",
            "Accept": "application/json",
        },
    )
    try:
        with urllib.request.urlopen(request, timeout=120) as answer:
            data: dict[str, Any] = json.loads(answer.read())
    except urllib.error.HTTPError as error:
        text = error.read()[:500].decode(errors="replace")
        raise RehearsalError(f"the site refused {name}'s upload: {error.code} {text}") from None
    return data


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
        tokens = _accounts(sessions, plans)
        season_id = _default_season(sessions, hands)
        port = _free_port()
        base = f"http://127.0.0.1:{port}"
        site = _start_site(env, port, root / "site.log")
        stack.callback(_stop, site)
        procs = [_start_worker(f"rehearsal{i}", env, log) for i in range(workers)]
        for process in procs:
            stack.callback(_stop, process)
        _wait(lambda: _site_up(base), 60, f"the site (see {root / 'site.log'})")
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
            _wait(_all_terminal(sessions, these), timeout, f"round {number} (see {log})", 0.1)
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
            final_id = _play_final(sessions, season_id, finalists, workers, timeout, log)
            final_seconds = time.perf_counter() - started
        stages["final"] = time.perf_counter() - wall - sum(stages.values())
        progress("checking every match and replay")
        figures = _collect(sessions, plans, season_id, scheduled, final_id)
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


def _play_final(
    sessions: sessionmaker[Session],
    season_id: int,
    count: int,
    workers: int,
    timeout: float,
    log: Path,
) -> int:
    """The final of the finished season's top `count` (its rules, one match in flight per
    worker), advanced as beat would until it finishes; its id."""
    from arena.seasons.finals import advance_final, create_final, season_finalists

    from .matches import enqueue_matches

    with sessions() as session, write_transaction(session):
        season = session.get(Season, season_id)
        assert season is not None
        bots = season_finalists(session, season_id, count)
        final = create_final(
            session,
            name=f"{season.name} final",
            rules=season.ruleset.rules,
            bots=bots,
            freeze_at=utc_now(),
            worker_share=workers,
            season_id=season_id,
        )
        final_id: int = final.id
    deadline = time.monotonic() + timeout
    while True:
        with sessions() as session:
            report = advance_final(session, final_id)
        if report.released:
            enqueue_matches(list(report.released))
        if final_id in report.finished:
            return final_id
        if time.monotonic() > deadline:
            raise RehearsalError(f"the final did not finish in {timeout:g} s (see {log})")
        time.sleep(0.25)


def _all_terminal(sessions: sessionmaker[Session], ids: list[int]) -> Callable[[], bool]:
    from arena.store.models import TERMINAL_MATCH_STATUSES

    def check() -> bool:
        with sessions() as session:
            left = session.scalar(
                select(func.count())
                .select_from(Match)
                .where(Match.id.in_(ids), Match.status.not_in(TERMINAL_MATCH_STATUSES))
            )
        return left == 0

    return check


def _accounts(sessions: sessionmaker[Session], plans: Sequence[EntrantPlan]) -> dict[str, str]:
    """One account and API token per entrant (one owner per bot: a table seats one
    version per owner)."""
    tokens = {}
    with sessions() as session, write_transaction(session):
        for plan in plans:
            user = create_user(session, f"owner-{plan.name}", None)
            tokens[plan.name] = issue_token(session, user, "rehearsal")[1]
    return tokens


def _default_season(sessions: sessionmaker[Session], hands: int | None) -> int:
    """The season every entrant's first ready version joins: standard rules (to 100, or
    `hands` hands), no house bots, every entrant at a table each round."""
    rules = preset("standard")
    if hands is not None:
        rules = rules.replace(target_score=None, max_hands=hands, moon="old")
    with sessions() as session, write_transaction(session):
        season = create_season(
            session,
            name="rehearsal",
            rules=rules,
            starts_at=utc_now(),
            ends_at=utc_now() + timedelta(days=1),
            cadence=timedelta(seconds=1),
            matchmaking=MatchmakingSettings(fill_with_house=False),
            house_bots=False,
            is_default=True,
        )
        season_id: int = season.id
    return season_id


def _collect(
    sessions: sessionmaker[Session],
    plans: Sequence[EntrantPlan],
    season_id: int,
    scheduled: list[int],
    final_id: int | None = None,
) -> RehearsalFigures:
    """The checks and figures read back from the database once the season (and its final)
    is finished. The final's matches are outside the season (unrated): every one of its
    tables must be done and verify too."""
    by_name = {plan.name: plan for plan in plans}
    final_matches: set[int] = set()
    final_rows: list[FinalRow] = []
    final_order: list[str] = []
    with sessions() as session:
        if final_id is not None:
            final_matches, final_rows = _final_standings(session, final_id, by_name)
            final_order = [row.name for row in final_rows]
        matches = session.execute(
            select(Match.id, Match.status, Match.hands_played).where(Match.season_id == season_id)
        ).all()
        times = session.execute(
            select(Match.created_at, Match.started_at, Match.finished_at).where(
                Match.season_id == season_id, Match.status == MatchStatus.DONE
            )
        ).all()
        validations = session.execute(
            select(BotVersion.created_at, BotVersion.status_changed_at)
            .join(Bot, Bot.id == BotVersion.bot_id)
            .where(Bot.is_house.is_(False), BotVersion.status == VersionStatus.READY)
        ).all()
        seats = session.execute(
            select(MatchSeat.match_id, MatchSeat.seat, MatchSeat.score, Bot.name)
            .join(BotVersion, BotVersion.id == MatchSeat.bot_version_id)
            .join(Bot, Bot.id == BotVersion.bot_id)
            .join(Match, Match.id == MatchSeat.match_id)
            .where((Match.season_id == season_id) | Match.id.in_(final_matches))
        ).all()
        final_statuses = Counter(
            str(status.value)
            for status in session.scalars(select(Match.status).where(Match.id.in_(final_matches)))
        )
        changes = dict(
            session.execute(
                select(RatingChange.match_id, func.count())
                .where(RatingChange.season_id == season_id)
                .group_by(RatingChange.match_id)
            ).all()
        )
        replays = dict(
            session.execute(
                select(Replay.match_id, func.count())
                .join(Match)
                .where((Match.season_id == season_id) | Match.id.in_(final_matches))
                .group_by(Replay.match_id)
            ).all()
        )
        entries = session.execute(
            select(SeasonEntry, Bot.name, BotVersion.number)
            .join(BotVersion, BotVersion.id == SeasonEntry.bot_version_id)
            .join(Bot, Bot.id == BotVersion.bot_id)
            .where(SeasonEntry.season_id == season_id, SeasonEntry.active.is_(True))
        ).all()
        games = session.scalar(
            select(func.sum(SeasonEntry.final_games)).where(SeasonEntry.season_id == season_id)
        )
    statuses = Counter(str(status.value) for _, status, _ in matches)
    done = {match_id for match_id, status, _ in matches if status is MatchStatus.DONE}
    seat_names: dict[int, dict[int, str]] = {}
    seat_scores: dict[int, dict[int, int | None]] = {}
    for match_id, seat, score, name in seats:
        seat_names.setdefault(match_id, {})[seat] = name
        seat_scores.setdefault(match_id, {})[seat] = score
    duplicates = []
    if len(scheduled) != len(set(scheduled)) or set(scheduled) != {m for m, _, _ in matches}:
        duplicates.append("the season's matches are not the scheduled ones, once each")
    for match_id in sorted(done):
        if replays.get(match_id, 0) != 1:
            duplicates.append(f"match {match_id}: {replays.get(match_id, 0)} replays")
        if changes.get(match_id, 0) != len(seat_names.get(match_id, {})):
            duplicates.append(
                f"match {match_id}: rated {changes.get(match_id, 0)} times for its seats"
            )
    if games is not None and games != sum(len(seat_names.get(m, {})) for m in done):
        duplicates.append(f"the entries' games add up to {games}, not 4 per match")
    if final_id is not None and final_statuses != {"done": len(final_matches)}:
        duplicates.append(f"the final's tables' matches: {dict(final_statuses)}")
    for match_id in sorted(final_matches):
        if replays.get(match_id, 0) != 1:
            duplicates.append(f"final match {match_id}: {replays.get(match_id, 0)} replays")
    faults: Counter[str] = Counter()
    faulted: Counter[str] = Counter()
    by_entrant: Counter[str] = Counter()
    verified = 0
    failures = []
    for match_id in sorted(done | final_matches):
        with sessions() as session:
            content = session.scalar(select(Replay.content).where(Replay.match_id == match_id))
        if content is None:
            failures.append(f"match {match_id}: no replay")
            continue
        try:
            document = replay_io.loads(content, (2,))
            verify_v2(ReplayV2.from_dict(document))
        except (ReplayMismatchError, ValueError, KeyError) as error:
            failures.append(f"match {match_id}: {error}")
            continue
        results = document["result"]["entrants"]
        totals = {int(r["entrant"]): r["score"] for r in results}
        stored = seat_scores.get(match_id, {})
        if totals != stored:
            failures.append(f"match {match_id}: replay scores {totals}, stored {stored}")
            continue
        verified += 1
        kinds = Counter(str(fault.get("kind")) for fault in document.get("faults", ()))
        faults.update(kinds)
        faulted.update(kinds.keys())
        for fault in document.get("faults", ()):
            by_entrant[seat_names[match_id].get(int(fault.get("entrant", -1)), "?")] += 1
    final = []
    for entry, name, number in entries:
        plan = by_name[name]
        final.append(
            FinalRow(
                name=name,
                kind=plan.kind,
                handicap=plan.handicap,
                fault=plan.fault,
                version=number,
                rank=entry.final_rank,
                points=entry.final_points,
                low=entry.final_low,
                high=entry.final_high,
                games=entry.final_games or 0,
            )
        )
    final.sort(key=lambda row: (row.rank is None, row.rank or 0, row.name))
    sound = set(true_order(plans))
    ranked = [row for row in final if row.name in sound and row.low is not None]
    found = [row.name for row in ranked]
    truth = [name for name in true_order(plans) if name in set(found)]
    judged = (
        agreement(truth, found, {row.name: (row.low or 0.0, row.high or 0.0) for row in ranked})
        if len(truth) >= 2
        else None
    )
    hands = [h for m, _, h in matches if m in done and h]
    final_truth = [name for name in true_order(plans) if name in set(final_order)]
    final_judged = (
        agreement(
            final_truth,
            [name for name in final_order if name in set(final_truth)],
            {row.name: (row.low or 0.0, row.high or 0.0) for row in final_rows},
        )
        if len(final_truth) >= 2
        else None
    )
    return RehearsalFigures(
        entrants=len(plans),
        workers=0,
        broker="",
        database="",
        build_seconds={},
        validation_seconds=0.0,
        season_seconds=0.0,
        scheduled=len(scheduled),
        recorded=len(done),
        statuses=dict(statuses),
        duplicates=duplicates,
        replays_verified=verified,
        replay_failures=failures,
        cpu_per_match={},
        faults=dict(faults),
        faulted_matches=dict(faulted),
        faults_by_entrant=dict(by_entrant),
        round_seconds=[],
        round_matches=[],
        standings=final,
        agreement=judged,
        load=(0.0, 0.0),
        hands_per_match=sum(hands) / len(hands) if hands else 0.0,
        match_seconds=[(f - s).total_seconds() for _, s, f in times if s and f],
        wait_seconds=[(s - c).total_seconds() for c, s, _ in times if s],
        validation_seconds_each=[(d - c).total_seconds() for c, d in validations],
        final=final_rows,
        final_agreement=final_judged,
        final_matches=len(final_matches),
    )


def _final_standings(
    session: Session, final_id: int, by_name: dict[str, EntrantPlan]
) -> tuple[set[int], list[FinalRow]]:
    """The final's tables' matches, and its frozen standings as rows (place first)."""
    from arena.store.models import Final, FinalTable

    final = session.get(Final, final_id)
    assert final is not None
    assert final.report is not None
    matches = set(
        session.scalars(
            select(FinalTable.match_id).where(
                FinalTable.final_id == final_id, FinalTable.match_id.is_not(None)
            )
        )
    )
    names = dict(session.execute(select(Bot.id, Bot.name)).all())
    numbers = dict(session.execute(select(BotVersion.id, BotVersion.number)).all())
    rows = []
    for standing in final.report["standings"]:
        name = names[standing["bot_id"]]
        plan = by_name[name]
        rows.append(
            FinalRow(
                name=name,
                kind=plan.kind,
                handicap=plan.handicap,
                fault=plan.fault,
                version=numbers[standing["bot_version_id"]],
                rank=standing["place"],
                points=standing["points"],
                low=standing["low"],
                high=standing["high"],
                games=standing["tables"],
            )
        )
    rows.sort(key=lambda row: (row.rank or 0, row.name))
    return {m for m in matches if m is not None}, rows


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
