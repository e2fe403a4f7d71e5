"""The workers for real: Redis, `arena worker` and `arena beat` processes, a database.

* a season runs several rounds, and every match is recorded once with its ratings;
* a worker killed with SIGKILL in the middle of a match (the whole worker, or only its
  pool process): the match is run again and recorded once;
* Redis restarted (without persistence) mid-season: nothing lost;
* PostgreSQL stopped at once (as in a crash) and restarted mid-season: nothing lost;
* the same task delivered twice: one result.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import func, select
from sqlalchemy.engine import URL
from sqlalchemy.orm import Session, sessionmaker

from arena.seasons import schedule_round, start_season
from arena.seasons.lifecycle import enter_season
from arena.store import heartbeats, ladder, recompute_ratings
from arena.store.accounts import create_user
from arena.store.bots import add_version, create_bot
from arena.store.database import write_transaction
from arena.store.models import (
    BotVersion,
    Match,
    MatchStatus,
    Rating,
    RatingChange,
    Replay,
    Season,
    VersionStatus,
)
from tests.store.private_postgres import PrivatePostgres
from tests.workers import bots
from tests.workers.conftest import link_runtime, sandbox_or_skip
from tests.workers.processes import (
    PrivateRedis,
    Processes,
    platform_env,
    private_redis_server,
    processes_for,
    wait_until,
)
from workers.app import app, configure
from workers.config import Settings
from workers.seed import ensure_demo_season

pytestmark = pytest.mark.long  # started first (tests/conftest.py)

QUICK_PLAYERS = (("heuristic", 4), ("random", 4))


@pytest.fixture(scope="session")
def private_redis(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PrivateRedis]:
    """The session's own Redis server (tests/workers/processes.py): never the machine's."""
    with private_redis_server(tmp_path_factory.mktemp("redis")) as server:
        yield server


@pytest.fixture
def env(
    private_redis: PrivateRedis, db_url: URL, tmp_path: Path, shared_runtime: Path
) -> Iterator[dict[str, str]]:
    """The platform's environment for this test; this process configured the same way."""
    if not private_redis.alive():  # a test that stopped it failed before starting it
        private_redis.start()
    private_redis.client().flushall()  # our own server: nothing else lives in it
    data_dir = tmp_path / "data"
    link_runtime(data_dir, shared_runtime)
    broker = private_redis.url(0)
    environment = platform_env(
        data_dir=data_dir,
        database_url=db_url.render_as_string(hide_password=False),
        broker_url=broker,
    )
    configure(app, Settings.from_environ(environment))
    yield environment
    configure(app, Settings.from_environ())


@pytest.fixture
def procs(tmp_path: Path) -> Iterator[Processes]:
    with processes_for(tmp_path) as group:
        yield group


def quick_season(sessions: sessionmaker[Session], cadence: float = 1.0) -> int:
    with sessions() as session:
        return ensure_demo_season(
            session, players=QUICK_PLAYERS, cadence=timedelta(seconds=cadence)
        )


def wait_for_workers(sessions: sessionmaker[Session], *names: str, timeout: float = 60) -> None:
    def ready() -> bool:
        with sessions() as session:
            seen = {row.name for row in heartbeats.heartbeats(session)}
        return all(f"worker:{name}@" in " ".join(seen) for name in names)

    wait_until(ready, timeout, f"workers {names} to write their heartbeats")


def status_of(sessions: sessionmaker[Session], match_id: int) -> MatchStatus:
    with sessions() as session:
        status = session.scalar(select(Match.status).where(Match.id == match_id))
        assert status is not None
        return status


def assert_recorded_once(session: Session, season_id: int) -> int:
    """Every rated match counted exactly once; the stored ratings are the replayed history.

    Returns the number of rated matches.
    """
    season = session.get(Season, season_id, populate_existing=True)
    assert season is not None
    seqs = list(
        session.scalars(
            select(Match.rating_seq)
            .where(Match.season_id == season_id, Match.rating_seq.is_not(None))
            .order_by(Match.rating_seq)
        )
    )
    assert seqs == list(range(1, season.rated_matches + 1))
    done = session.scalar(
        select(func.count())
        .select_from(Match)
        .where(Match.season_id == season_id, Match.status == MatchStatus.DONE)
    )
    assert done == season.rated_matches
    seats = season.rated_matches * 4
    history = session.scalar(
        select(func.count()).select_from(RatingChange).where(RatingChange.season_id == season_id)
    )
    games = session.scalar(select(func.sum(Rating.games)).where(Rating.season_id == season_id))
    assert history == seats
    assert (games or 0) == seats
    replays = session.scalar(
        select(func.count())
        .select_from(Replay)
        .join(Match, Match.id == Replay.match_id)
        .where(Match.season_id == season_id)
    )
    assert replays == done
    stored = {r.bot_version_id: r.elo for r in session.scalars(select(Rating))}
    replayed = recompute_ratings(session, season_id)
    assert {k: round(v.elo, 6) for k, v in replayed.items()} == {
        k: round(v, 6) for k, v in stored.items() if k in replayed
    }
    session.rollback()
    return season.rated_matches


@pytest.mark.timeout(240)
def test_a_season_runs_several_rounds_and_every_match_is_recorded_once(
    env: dict[str, str], procs: Processes, sessions: sessionmaker[Session]
) -> None:
    season_id = quick_season(sessions)
    procs.worker("w1", env)
    procs.worker("w2", env)
    wait_for_workers(sessions, "w1", "w2")
    beat = procs.beat(env)

    def season_matches(*statuses: MatchStatus) -> int:
        with sessions() as session:
            return (
                session.scalar(
                    select(func.count())
                    .select_from(Match)
                    .where(Match.season_id == season_id, Match.status.in_(statuses))
                )
                or 0
            )

    def progress() -> str:
        with sessions() as session:
            season = session.get(Season, season_id)
            assert season is not None
            counts = session.execute(
                select(Match.status, func.count())
                .where(Match.season_id == season_id)
                .group_by(Match.status)
            ).all()
        return f"round {season.round_number}, matches {dict(counts)}"

    def rounds_done() -> bool:
        # A version still playing sits out the next round (max_in_flight), so a round may
        # seat one table rather than two: wait for four rounds AND eight finished tables.
        with sessions() as session:
            season = session.get(Season, season_id)
            assert season is not None
            played = season.round_number
        return played >= 4 and season_matches(MatchStatus.DONE) >= 8

    try:
        wait_until(rounds_done, 180, "four rounds and eight tables played")
    except BaseException:
        print("season progress at the timeout:", progress())
        for process in procs.started:
            print(process.name, [e.get("msg") for e in process.log_entries()][-15:])
        raise
    beat.stop()
    # Whatever the beat made before it stopped is played out, by either worker.
    wait_until(
        lambda: season_matches(MatchStatus.QUEUED, MatchStatus.RUNNING) == 0,
        60,
        "the last round's tables to finish",
    )
    with sessions() as session:
        outcomes = session.execute(
            select(Match.id, Match.round, Match.status, Match.status_reason).where(
                Match.season_id == season_id
            )
        ).all()
        assert {row.status for row in outcomes} == {MatchStatus.DONE}, [
            tuple(row) for row in outcomes if row.status is not MatchStatus.DONE
        ]
        rated = assert_recorded_once(session, season_id)
        assert rated >= 8  # at least four rounds' worth of two tables, each counted once
        assert ladder(session, season_id)[0].games > 0
    workers_that_ran = {
        entry.get("pid")
        for process in procs.started
        for entry in process.log_entries()
        if entry.get("logger") == "workers.matches" and "recorded" in entry.get("msg", "")
    }
    assert len(workers_that_ran) >= 1


def slow_bot_match(sessions: sessionmaker[Session], procs: Processes, env: dict[str, str]) -> int:
    """A queued match of a sandboxed slow bot (validated by a real worker) and 3 house bots."""
    with sessions() as session, write_transaction(session):
        owner = create_user(session, "slowpoke", None)
        version_id = add_version(session, create_bot(session, owner, "slow"), bots.SLOW).id
    validator = procs.worker("validator", env, "--queues=validate")
    from workers.validation import enqueue_validations

    enqueue_validations([version_id])

    def validated() -> BotVersion | None:
        with sessions() as session:
            version = session.get(BotVersion, version_id)
            assert version is not None
            return version if version.status is VersionStatus.READY else None

    wait_until(validated, 90, "the slow bot's validation")
    validator.stop()
    with sessions() as session:
        season_id = ensure_demo_season(
            session, players=(), cadence=timedelta(hours=1), name="Slow season"
        )
        with write_transaction(session):
            season = session.get(Season, season_id)
            version = session.get(BotVersion, version_id)
            assert season is not None and version is not None
            enter_season(session, season, version)
        start_season(session, season_id)
        ids: list[int] = []
        schedule_round(session, season_id, ids.extend)
    assert len(ids) == 1
    return ids[0]


@pytest.mark.timeout(300)
@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
@pytest.mark.parametrize(
    "victim", ["whole-worker", pytest.param("pool-process", marks=pytest.mark.slow)]
)
def test_a_worker_killed_mid_match_loses_nothing_and_counts_nothing_twice(
    env: dict[str, str], procs: Processes, sessions: sessionmaker[Session], victim: str
) -> None:
    sandbox_or_skip()
    match_id = slow_bot_match(sessions, procs, env)
    doomed = procs.worker("doomed", env)
    wait_for_workers(sessions, "doomed")
    from workers.matches import enqueue_matches

    enqueue_matches([match_id])
    wait_until(lambda: status_of(sessions, match_id) is MatchStatus.RUNNING, 30, "the match")
    time.sleep(1.0)  # the bots are up and the match is under way
    if victim == "whole-worker":
        doomed.kill()
    else:
        for pid in wait_until(doomed.children, 10, "the pool process"):
            os.kill(pid, signal.SIGKILL)
    assert status_of(sessions, match_id) is MatchStatus.RUNNING
    procs.worker("survivor", env)
    procs.beat(env)  # its reaper finds the lost match
    wait_until(lambda: status_of(sessions, match_id) is MatchStatus.DONE, 120, "the match redone")
    with sessions() as session:
        match = session.get(Match, match_id)
        assert match is not None and match.rating_seq == 1
        assert assert_recorded_once(session, match.season_id or 0) == 1


def season_survives(
    env: dict[str, str],
    procs: Processes,
    sessions: sessionmaker[Session],
    outage: Callable[[], None],
) -> None:
    """A quick season with two workers and the scheduler; `outage` strikes once two rounds
    are done; then every match of three more rounds must be played and recorded once."""
    season_id = quick_season(sessions)
    procs.worker("w1", env)
    procs.worker("w2", env)
    wait_for_workers(sessions, "w1", "w2")
    procs.beat(env)

    def round_number() -> int:
        with sessions() as session:
            season = session.get(Season, season_id)
            assert season is not None
            return season.round_number

    wait_until(lambda: round_number() >= 2, 60, "two rounds")
    outage()
    target = round_number() + 3

    def all_done_up_to_target() -> bool:
        with sessions() as session:
            statuses = list(
                session.scalars(
                    select(Match.status).where(Match.season_id == season_id, Match.round <= target)
                )
            )
            done = session.scalar(
                select(func.count())
                .select_from(Match)
                .where(Match.season_id == season_id, Match.status == MatchStatus.DONE)
            )
        # A version still playing sits out the next round (max_in_flight), so a round may
        # seat one table: wait for the rounds AND as many finished tables as two a round.
        return (
            round_number() >= target
            and all(s is MatchStatus.DONE for s in statuses)
            and (done or 0) >= 2 * target
        )

    wait_until(all_done_up_to_target, 150, f"every match of rounds 1-{target} done")
    with sessions() as session:
        assert assert_recorded_once(session, season_id) >= 2 * target


@pytest.mark.slow
@pytest.mark.timeout(300)
@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_redis_restarted_mid_season_loses_nothing(
    env: dict[str, str],
    procs: Processes,
    sessions: sessionmaker[Session],
    private_redis: PrivateRedis,
) -> None:
    season_survives(env, procs, sessions, lambda: private_redis.restart(down_for=2.0))


@pytest.mark.slow
@pytest.mark.timeout(300)
@pytest.mark.parametrize("db_url", ["private_postgresql"], indirect=True)
def test_postgres_restarted_mid_season_loses_nothing(
    env: dict[str, str],
    procs: Processes,
    sessions: sessionmaker[Session],
    private_postgres: PrivatePostgres,
) -> None:
    # The database goes away mid-season, connections cut off mid-transaction: the workers
    # and the scheduler retry (workers/transient.py), and every match is recorded once.
    season_survives(env, procs, sessions, lambda: private_postgres.restart(down_for=3.0))
    assert "retrying" in procs.logs() or "OperationalError" in procs.logs()


@pytest.mark.timeout(120)
@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_the_same_task_delivered_twice_gives_one_result(
    env: dict[str, str], procs: Processes, sessions: sessionmaker[Session]
) -> None:
    season_id = quick_season(sessions, cadence=3600)
    with sessions() as session:
        start_season(session, season_id)
        ids: list[int] = []
        schedule_round(session, season_id, ids.extend)
    procs.worker("w1", env)
    procs.worker("w2", env)
    wait_for_workers(sessions, "w1", "w2")
    from workers.matches import run_match

    results = [run_match.apply_async((ids[0],)) for _ in range(3)]
    outcomes = sorted(result.get(timeout=60)["action"] for result in results)
    assert outcomes == ["recorded", "skipped", "skipped"]
    with sessions() as session:
        assert assert_recorded_once(session, season_id) == 1


@pytest.mark.timeout(300)
@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_a_workers_broken_environment_is_retried_by_another_worker(
    env: dict[str, str],
    procs: Processes,
    sessions: sessionmaker[Session],
    tmp_path: Path,
    shared_runtime: Path,
) -> None:
    """issue 31, item 18: a worker whose data folder cannot take a version's environment
    (its `versions` is a file, so the folder cannot be made: an OSError, as a broken disk
    raises) puts the match back with a retry instead of failing it; another worker plays
    and records it."""
    sandbox_or_skip()
    with sessions() as session, write_transaction(session):
        owner = create_user(session, "wanderer", None)
        version_id = add_version(session, create_bot(session, owner, "first"), bots.FIRST_LEGAL).id
    validator = procs.worker("validator", env, "--queues=validate")
    from workers.validation import enqueue_validations

    enqueue_validations([version_id])

    def validated() -> bool:
        with sessions() as session:
            version = session.get(BotVersion, version_id)
            return version is not None and version.status is VersionStatus.READY

    wait_until(validated, 90, "the bot's validation")
    validator.stop()
    with sessions() as session:
        season_id = ensure_demo_season(
            session, players=(), cadence=timedelta(hours=1), name="Wandering season"
        )
        with write_transaction(session):
            season = session.get(Season, season_id)
            version = session.get(BotVersion, version_id)
            assert season is not None and version is not None
            enter_season(session, season, version)
        start_season(session, season_id)
        ids: list[int] = []
        schedule_round(session, season_id, ids.extend)
    assert len(ids) == 1
    broken_data = tmp_path / "broken-data"
    link_runtime(broken_data, shared_runtime)
    (broken_data / "versions").write_text("not a folder")
    broken = procs.worker("broken", {**env, "ARENA_DATA_DIR": str(broken_data)})
    wait_for_workers(sessions, "broken")
    from workers.matches import enqueue_matches

    enqueue_matches(ids)

    def told() -> bool:
        return any(
            "the environment failed" in entry.get("msg", "") for entry in broken.log_entries()
        )

    wait_until(told, 60, "the broken worker to put the match back")
    assert f"File exists: '{broken_data / 'versions'}'" in broken.log()
    broken.stop()  # a warm shutdown gives back the retry it holds until its time
    assert status_of(sessions, ids[0]) is MatchStatus.QUEUED
    procs.worker("healthy", env)
    wait_until(lambda: status_of(sessions, ids[0]) is MatchStatus.DONE, 120, "the match played")
    with sessions() as session:
        match = session.get(Match, ids[0])
        assert match is not None and match.rating_seq == 1
        assert assert_recorded_once(session, season_id) == 1
