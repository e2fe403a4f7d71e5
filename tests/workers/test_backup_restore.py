"""The restore drill of docs/operations.md ("Backups and restore"), for real: a PostgreSQL
database of the test's own filled through the platform's own code (a running season,
rounds scheduled, matches played by the worker's task, ratings and ladders updated),
dumped with `pg_dump --format=custom`, restored with `pg_restore` into a NEW database; the
site pointed at the new database shows the same ladder and the same match page and
replay, every table holds the same rows, and the migrations are at head. The drill's
steps are timed and printed (not asserted). Needs the PostgreSQL server of the store's
tests (127.0.0.1:5432; skipped without it, failed under CI) and Debian's
postgresql-client (pg_dump, pg_restore)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import click.testing
import pytest
from sqlalchemy import func, inspect, select, table
from sqlalchemy.engine import URL

from arena.commands.bench import bench
from arena.seasons import schedule_round, start_season
from arena.store import make_engine, make_sessionmaker, migrate
from arena.store.models import Match, MatchStatus, Rating
from arena.store.types import utc_now
from tests.store.databases import (
    POSTGRES_URL,
    create_postgres_database,
    drop_postgres_database,
    require_postgres,
)
from tests.web.conftest import make_app
from tests.workers.conftest import link_runtime
from web.database import dispose
from workers import matches as match_tasks
from workers.app import app, configure
from workers.config import Settings
from workers.seed import ensure_demo_season

pytestmark = pytest.mark.timeout(300)

PLAYERS = (("heuristic", 4), ("random", 4))
ROUNDS = 2


def client_tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        reason = f"{name} is not installed (Debian: apt-get install postgresql-client)"
        if os.environ.get("CI"):
            pytest.fail(f"{reason}; CI is set, so the restore drill must run")
        pytest.skip(reason)
    return found


def libpq(url: URL) -> str:
    """The URL as libpq's tools take it (no SQLAlchemy driver name)."""
    return url.set(drivername="postgresql").render_as_string(hide_password=False)


@pytest.fixture
def databases() -> Iterator[tuple[URL, URL]]:
    """The production stand-in and the new database of the restore, both dropped after."""
    source = create_postgres_database("arena_backup")
    target = create_postgres_database("arena_restore")
    try:
        yield source, target
    finally:
        drop_postgres_database(source)
        drop_postgres_database(target)


def fill(source: URL, tmp_path: Path, shared_runtime: Path) -> tuple[int, list[int]]:
    """A running season of house players with ROUNDS rounds played by the worker's task:
    the season's id and its recorded matches."""
    migrate.upgrade(source)
    link_runtime(tmp_path / "data", shared_runtime)
    configure(
        app,
        Settings(
            data_dir=tmp_path / "data",
            database_url=source.render_as_string(hide_password=False),
            broker_url="memory://",
            result_backend=None,
            heartbeat_seconds=1,
            stall_seconds=5,
            db_retry_seconds=5,
        ),
    )
    engine = make_engine(source)
    sessions = make_sessionmaker(engine)
    played: list[int] = []
    try:
        with sessions() as session:
            season_id = ensure_demo_season(
                session, players=PLAYERS, cadence=timedelta(seconds=1), now=utc_now()
            )
            start_season(session, season_id)
        for _ in range(ROUNDS):
            ids: list[int] = []
            with sessions() as session:
                schedule_round(session, season_id, ids.extend)
            for match_id in ids:
                match_tasks.run_match.apply(args=(match_id,)).get()
            played.extend(ids)
        with sessions() as session:
            done = session.scalar(
                select(func.count()).select_from(Match).where(Match.status == MatchStatus.DONE)
            )
            rated = session.scalar(select(func.count()).select_from(Rating))
    finally:
        engine.dispose()
        configure(app, Settings.from_environ())
    assert played and done == len(played)
    assert rated, "the matches moved no rating: no ladder to restore"
    return season_id, played


def row_counts(url: URL) -> dict[str, int]:
    engine = make_engine(url)
    try:
        names = inspect(engine).get_table_names()
        with engine.connect() as connection:
            return {
                name: int(connection.scalar(select(func.count()).select_from(table(name))) or 0)
                for name in names
            }
    finally:
        engine.dispose()


def pages(url: URL, season_id: int, match_id: int) -> dict[str, str]:
    """What the site shows of the season and a match, on the database at `url`."""
    site = make_app(url.render_as_string(hide_password=False))
    try:
        client = site.test_client()
        found = {}
        for path in (
            f"/seasons/{season_id}/ladder",
            f"/matches/{match_id}",
            f"/matches/{match_id}/replay.json",
        ):
            answer = client.get(path)
            assert answer.status_code == 200, path
            found[path] = answer.get_data(as_text=True)
        return found
    finally:
        dispose(site)


def ladder_rows(page: str) -> list[str]:
    """The ladder's rows as text (tags and whitespace out): names, ratings, counts."""
    body = page[page.index("<tbody") : page.index("</tbody>")]
    rows = re.findall(r"<tr.*?</tr>", body, flags=re.DOTALL)
    return [" ".join(re.sub(r"<[^>]+>", " ", row).split()) for row in rows]


def test_a_dump_restored_into_a_new_database_serves_the_same_site(
    databases: tuple[URL, URL], tmp_path: Path, shared_runtime: Path
) -> None:
    pg_dump, pg_restore = client_tool("pg_dump"), client_tool("pg_restore")
    source, target = databases
    season_id, played = fill(source, tmp_path, shared_runtime)
    before = pages(source, season_id, played[0])
    counts = row_counts(source)

    dump = tmp_path / "arena.dump"
    started = time.perf_counter()
    subprocess.run(
        [pg_dump, "--format=custom", "--no-owner", "--file", str(dump), libpq(source)],
        check=True,
        timeout=120,
    )
    dumped = time.perf_counter() - started
    started = time.perf_counter()
    subprocess.run(
        [
            pg_restore,
            "--no-owner",
            "--no-privileges",
            "--exit-on-error",
            "--single-transaction",
            "--dbname",
            libpq(target),
            str(dump),
        ],
        check=True,
        timeout=120,
    )
    restored = time.perf_counter() - started

    assert migrate.current(target) == migrate.head()
    assert row_counts(target) == counts
    after = pages(target, season_id, played[0])
    ladder = f"/seasons/{season_id}/ladder"
    assert ladder_rows(after[ladder]) == ladder_rows(before[ladder])
    rows = ladder_rows(after[ladder])
    assert len(rows) == sum(count for _kind, count in PLAYERS)  # every entrant, rated
    for path in before:
        if path != ladder:
            assert after[path] == before[path], path
    print(
        f"\nrestore drill: {sum(counts.values())} rows in {len(counts)} tables, "
        f"{len(played)} matches; pg_dump {dumped:.2f} s ({dump.stat().st_size} bytes), "
        f"pg_restore {restored:.2f} s"
    )


def test_the_timed_drill_command_restores_a_filled_season_and_checks_it() -> None:
    client_tool("pg_dump")
    require_postgres()
    result = click.testing.CliRunner().invoke(
        bench,
        ["restore-drill", "--url", POSTGRES_URL, "--versions", "8", "--matches", "6"],
    )
    assert result.exit_code == 0, result.output + repr(result.exception)
    assert "restore drill: 8 versions, 6 matches" in result.output
    assert "pg_restore (jobs 1)" in result.output
    assert "the ladder page equal" in result.output
