"""`arena bench season`: a fixed season played by one, then two worker processes.

Each run gets a fresh SQLite database and broker (the SQL broker, or the Redis given) in
a scratch folder, eight uploads of a trivial bot (validated by the workers first, so every
bot's environment is built before the clock starts), and a season of `matches` matches
(two tables a round) scheduled up front. The clock runs from enqueueing every match to
the last one recorded; the figure is matches recorded per minute. Every bot runs in the
sandbox, as on the real platform: the cost measured is sandbox start-up, gRPC decisions,
the engine, and recording (replay, ratings) in the database.

With `round_size`, the matches are enqueued a round at a time (two tables of four, as
the scheduler seats eight players), the next round once the last is recorded: each
round's latency, from enqueueing to its last match recorded, and each match's pick-up
delay, from enqueueing to a worker starting it (the database's `started_at`), show what
the broker adds to a round (`arena bench season --round-size 2`). `broker="embedded"`
runs each season on a fresh embedded server (`workers.embedded_broker`), as the local
platform does.

Each match's CPU by part (`workers.accounting.MatchAccount`: the worker starting the
seats, the bots' start-up and play from their cgroups, the runner, the recording) comes
from the workers' own JSON log, where every recorded match carries it; `cpu_per_match`
averages it over the season's matches.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from datetime import timedelta
from pathlib import Path

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session, sessionmaker

from arena.engine import preset
from arena.seasons import MatchmakingSettings, create_season, enter_season, schedule_round
from arena.seasons import start_season as start
from arena.store import migrate
from arena.store.accounts import create_user
from arena.store.bots import add_version, create_bot
from arena.store.database import write_transaction
from arena.store.models import (
    TERMINAL_MATCH_STATUSES,
    BotVersion,
    Match,
    MatchStatus,
    VersionStatus,
)
from arena.store.types import utc_now

from . import context
from .app import app, configure
from .config import Settings
from .sandbox.accounting import StartupParts
from .sandbox.bench import run_startup

BOT = b'''"""The benchmark's bot: the first legal card, the first cards of the hand."""

from hearts_bot import Bot


class FirstLegal(Bot):
    def pass_cards(self, view):
        return list(view.hand[: view.count])

    def play_card(self, view):
        return view.legal[0]
'''
PLAYERS = 8


@dataclasses.dataclass(frozen=True)
class SeasonFigures:
    """One run: how many worker processes, matches, seconds, and the rate."""

    workers: int
    matches: int
    done: int
    seconds: float
    cpu_per_match: dict[str, float] = dataclasses.field(default_factory=dict)
    """Core-seconds per match by part (`workers.accounting.PARTS` and ``total``), the
    mean over the matches whose account the workers logged; empty if none did."""
    broker: str = "sql"
    round_seconds: list[float] = dataclasses.field(default_factory=list)
    """Per round (with `round_size`): enqueueing to its last match's `finished_at`."""
    pickup_seconds: list[float] = dataclasses.field(default_factory=list)
    """Per match (with `round_size`): enqueueing to its `started_at` (a worker took it)."""

    @property
    def per_minute(self) -> float:
        """Matches recorded per minute."""
        return 60.0 * self.done / self.seconds if self.seconds > 0 else 0.0


def all_terminal(sessions: sessionmaker[Session], ids: list[int]) -> Callable[[], bool]:
    """A check that every match of `ids` has ended (done, failed or void)."""

    def check() -> bool:
        with sessions() as session:
            left = session.scalar(
                select(func.count())
                .select_from(Match)
                .where(Match.id.in_(ids), Match.status.not_in(TERMINAL_MATCH_STATUSES))
            )
        return left == 0

    return check


def _wait(predicate: Callable[[], bool], timeout: float, what: str, interval: float = 0.25) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out after {timeout:g} s waiting for {what}")
        time.sleep(interval)


def _start_worker(name: str, env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    with log.open("ab") as out:
        return subprocess.Popen(
            [
                sys.executable,
                "-m",
                "arena.commands.platform",
                "worker",
                "--name",
                f"{name}@%h",
                "--queues",
                "matches,validate",
            ],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )


def _stop(process: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError):
        process.send_signal(signal.SIGTERM)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=30)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=10)


def run_season(
    workers: int,
    matches: int,
    *,
    root: Path,
    runtime: Path,
    broker_url: str | None = None,
    hands: int | None = None,
    timeout: float = 3600.0,
    round_size: int | None = None,
    broker: str = "sql",
    beside: Callable[[dict[str, str], Path], Callable[[], None]] | None = None,
) -> SeasonFigures:
    """Play a fresh season of `matches` matches with `workers` worker processes, all
    enqueued at once, or `round_size` at a time (see the module's docstring). `beside`,
    given the processes' environment and the folder, starts other work before the clock
    starts (`workers.analysis_bench`: analyses queued beside the season) and returns
    what stops it once the season is over."""
    from .config import prepare_sql_broker

    root.mkdir(parents=True, exist_ok=True)
    data_dir = root / "data"
    data_dir.mkdir()
    (data_dir / "sandbox").symlink_to(runtime, target_is_directory=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("ARENA_")}
    env.update(
        ARENA_DATA_DIR=str(data_dir),
        ARENA_DATABASE_URL=f"sqlite:///{root / 'arena.db'}",
        ARENA_BROKER_URL=broker_url or f"sqla+sqlite:///{root / 'broker.sqlite'}",
        ARENA_LOG_FORMAT="json",
        ARENA_LOG_LEVEL="INFO",  # each recorded match's line carries its CPU account
    )
    settings = Settings.from_environ(env)
    configure(app, settings)
    if settings.broker_is_sql:
        prepare_sql_broker(settings.broker_url)
    migrate.upgrade(settings.database_url)
    from .matches import enqueue_matches
    from .validation import enqueue_validations

    sessions = context.sessions()
    with sessions() as session, write_transaction(session):
        # One owner per bot: a rated table seats one version per owner (matchmaking),
        # so eight bots of one owner would never be seated together.
        versions = [
            add_version(
                session,
                create_bot(session, create_user(session, f"bench-{i}", None), "trivial"),
                BOT,
            ).id
            for i in range(PLAYERS)
        ]
    procs = [_start_worker(f"bench{i}", env, root / "workers.log") for i in range(workers)]
    stack_stop: list[Callable[[], None]] = []
    try:
        enqueue_validations(versions)

        def validated() -> bool:
            with sessions() as session:
                statuses = set(
                    session.scalars(select(BotVersion.status).where(BotVersion.id.in_(versions)))
                )
            if VersionStatus.REJECTED in statuses:
                raise RuntimeError(f"the benchmark's bot was rejected; see {root}/workers.log")
            return statuses == {VersionStatus.READY}

        _wait(validated, 600, "the bots' validation")
        rules = preset("standard")
        if hands is not None:
            rules = rules.replace(target_score=None, max_hands=hands, moon="old")
        ids: list[int] = []
        with sessions() as session:
            with write_transaction(session):
                season = create_season(
                    session,
                    name="bench",
                    rules=rules,
                    starts_at=utc_now(),
                    ends_at=utc_now() + timedelta(days=1),
                    cadence=timedelta(seconds=1),
                    matchmaking=MatchmakingSettings(
                        max_in_flight=matches, fill_with_house=False, repeat_window_rounds=0
                    ),
                    house_bots=False,
                )
                for version_id in versions:
                    version = session.get(BotVersion, version_id)
                    assert version is not None
                    enter_season(session, season, version)
                season_id = season.id
            start(session, season_id)
            while len(ids) < matches:
                if not schedule_round(session, season_id, ids.extend).match_ids:
                    raise RuntimeError("matchmaking seated no table: the season cannot fill")
        ids = ids[:matches]
        if len(ids) < len(set(ids)):
            raise RuntimeError("duplicate match ids")
        with sessions() as session, write_transaction(session):  # only the first `matches`
            session.execute(
                update(Match)
                .where(Match.season_id == season_id, Match.id.not_in(ids))
                .values(status=MatchStatus.VOID, status_reason="not part of the benchmark")
            )

        stop_beside = beside(env, root) if beside is not None else None
        if stop_beside is not None:
            stack_stop.append(stop_beside)
        started = time.perf_counter()
        rounds: list[float] = []
        pickups: list[float] = []
        if round_size:
            for first in range(0, len(ids), round_size):
                these = ids[first : first + round_size]
                enqueued = utc_now()
                enqueue_matches(these)
                _wait(all_terminal(sessions, these), timeout, "a round", interval=0.05)
                with sessions() as session:
                    times = session.execute(
                        select(Match.started_at, Match.finished_at).where(Match.id.in_(these))
                    ).all()
                pickups += [(s - enqueued).total_seconds() for s, _ in times if s is not None]
                ends = [f for _, f in times if f is not None]
                if ends:
                    rounds.append((max(ends) - enqueued).total_seconds())
        else:
            enqueue_matches(ids)
            _wait(all_terminal(sessions, ids), timeout, "the season")
        seconds = time.perf_counter() - started
        with sessions() as session:
            done = session.scalar(
                select(func.count())
                .select_from(Match)
                .where(Match.id.in_(ids), Match.status == MatchStatus.DONE)
            )
    finally:
        for process in procs:
            _stop(process)
        for stop in stack_stop:
            stop()
    cpu = cpu_per_match(root / "workers.log", set(ids))
    return SeasonFigures(workers, len(ids), int(done or 0), seconds, cpu, broker, rounds, pickups)


def cpu_per_match(log: Path, match_ids: set[int]) -> dict[str, float]:
    """The mean CPU account (core-seconds by part) of `match_ids`' recorded lines in the
    workers' JSON log `log`; empty when none is there."""
    accounts: dict[int, dict[str, float]] = {}
    with log.open(errors="replace") as lines:
        for line in lines:
            if '"cpu"' not in line:
                continue
            try:
                entry = json.loads(line)
            except ValueError:
                continue
            if entry.get("match_id") in match_ids and isinstance(entry.get("cpu"), dict):
                accounts[entry["match_id"]] = entry["cpu"]
    if not accounts:
        return {}
    keys = sorted({key for account in accounts.values() for key in account})
    return {
        key: sum(float(account.get(key, 0.0)) for account in accounts.values()) / len(accounts)
        for key in keys
    }


def bench_season(
    worker_counts: Sequence[int] = (1, 2),
    matches: int = 200,
    *,
    broker_url: str | None = None,
    brokers: Sequence[str] = ("sql",),
    repeats: int = 1,
    hands: int | None = None,
    round_size: int | None = None,
    keep: Path | None = None,
    report: Callable[[SeasonFigures], None] = lambda figures: None,
) -> list[SeasonFigures]:
    """`run_season` once per worker count and broker, the brokers alternating, the whole
    `repeats` times, each run in a fresh scratch folder. A broker is "sql" (a fresh SQL
    broker), "embedded" (a fresh embedded server) or, with `broker_url`, that server
    (flushed first: give a scratch one)."""
    from .embedded_broker import EmbeddedBroker

    figures = []
    with tempfile.TemporaryDirectory(prefix="arena-bench-season-") as scratch:
        base = keep or Path(scratch)
        runtime = base / "runtime"
        runtime.mkdir(parents=True, exist_ok=True)
        kinds = ["url"] if broker_url else list(brokers)
        for repeat in range(repeats):
            for count in worker_counts:
                for kind in kinds:
                    root = base / f"{kind}-workers-{count}-run-{repeat + 1}"
                    with contextlib.ExitStack() as stack:
                        url = broker_url
                        if kind == "url" and broker_url and broker_url.startswith("redis"):
                            import redis

                            redis.Redis.from_url(broker_url).flushdb()
                        elif kind == "embedded":
                            server = EmbeddedBroker(root / "broker")
                            url = server.start()
                            stack.callback(server.stop)
                        result = run_season(
                            count,
                            matches,
                            root=root,
                            runtime=runtime,
                            broker_url=url,
                            hands=hands,
                            round_size=round_size,
                            broker=broker_url or kind,
                        )
                    report(result)
                    figures.append(result)
    configure(app, Settings.from_environ())
    return figures


def startup_parts(starts: int = 3) -> StartupParts:
    """The benchmark's trivial bot's start-up CPU by part (`arena bench sandbox`'s, the
    same bot source), measured here. Raises SandboxUnavailableError."""
    return run_startup(starts=starts)
