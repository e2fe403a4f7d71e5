"""Database fixtures: every store test runs on SQLite (a file) and on PostgreSQL.

PostgreSQL is the server at `ARENA_TEST_POSTGRES_URL` (default 127.0.0.1:5432, user
postgres, database `test`, trust auth). One database `arena_test_<random>` is created per
test session, migrated once and dropped at the end; each test starts from empty tables
(`empty_all`). SQLite tests get a fresh copy of a migrated file. When PostgreSQL cannot
be reached the PostgreSQL half is skipped with the reason, unless `CI` is set: then it
fails.
"""

from __future__ import annotations

import os
import secrets
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine, text
from sqlalchemy.engine import URL
from sqlalchemy.orm import Session, sessionmaker

from arena.store import make_engine, make_sessionmaker, migrate
from arena.store.database import database_url
from arena.store.models import Base

POSTGRES_URL = os.environ.get(
    "ARENA_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
)
BACKENDS = ["sqlite", "postgresql"]


def postgres_admin() -> Engine:
    """An autocommit engine on the administration database (CREATE/DROP DATABASE)."""
    return make_engine(
        POSTGRES_URL, isolation_level="AUTOCOMMIT", connect_args={"connect_timeout": 3}
    )


def require_postgres() -> None:
    """Skip the calling test (fail it under CI) when the PostgreSQL server is unreachable."""
    admin = postgres_admin()
    try:
        with admin.connect():
            pass
    except Exception as error:  # the server is not there: say so
        _unreachable(error)
    finally:
        admin.dispose()


def _unreachable(error: Exception) -> None:
    reason = f"PostgreSQL at {POSTGRES_URL} is unreachable: {type(error).__name__}: {error}"
    if os.environ.get("CI"):
        pytest.fail(f"{reason} (CI is set, so PostgreSQL is required)")
    pytest.skip(reason)


def create_postgres_database(prefix: str = "arena_test") -> URL:
    """A new empty PostgreSQL database; skips (or fails under CI) when the server is away."""
    name = f"{prefix}_{secrets.token_hex(4)}"
    admin = postgres_admin()
    try:
        with admin.connect() as connection:
            connection.execute(text(f'CREATE DATABASE "{name}"'))
    except Exception as error:  # the server is not there: say so
        _unreachable(error)
    finally:
        admin.dispose()
    return database_url(POSTGRES_URL).set(database=name)


def commit_without_flushing(url: URL) -> None:
    """Every later connection to the database made by `create_postgres_database` commits
    without waiting for its write-ahead log to reach the disk (synchronous_commit off).

    What a commit shows to other connections, and when, is unchanged; only a crash of the
    server could lose the last commits of a database the test session drops anyway (the
    outage tests crash a server of their own, tests/store/private_postgres.py). A commit
    took 9.5 ms on this machine at a load of 9, 0.25 ms without the wait.
    """
    admin = postgres_admin()
    try:
        with admin.connect() as connection:
            connection.execute(
                text(f'ALTER DATABASE "{url.database}" SET synchronous_commit = off')
            )
    finally:
        admin.dispose()


def drop_postgres_database(url: URL) -> None:
    """Drop a database made by `create_postgres_database`."""
    admin = postgres_admin()
    try:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{url.database}" WITH (FORCE)'))
    finally:
        admin.dispose()


@pytest.fixture(scope="session")
def postgres_migrated() -> Iterator[URL]:
    """The session's migrated PostgreSQL database, whose commits do not wait for the disk."""
    url = create_postgres_database()
    try:
        commit_without_flushing(url)
        migrate.upgrade(url)
        yield url
    finally:
        drop_postgres_database(url)


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A migrated SQLite file that each test copies."""
    path = tmp_path_factory.mktemp("sqlite-template") / "arena.db"
    migrate.upgrade(f"sqlite:///{path}")
    return path


# Children before parents, so no foreign key is left pointing at a deleted row; then every
# sequence a test drew from back to its start, as TRUNCATE ... RESTART IDENTITY would.
EMPTY_ALL = "; ".join(
    [f'DELETE FROM "{table.name}"' for table in reversed(Base.metadata.sorted_tables)]
    + [
        "SELECT setval((quote_ident(schemaname) || '.' || quote_ident(sequencename))::regclass,"
        " start_value, false) FROM pg_sequences"
        " WHERE schemaname = current_schema() AND last_value IS NOT NULL"
    ]
)


def empty_all(url: URL) -> None:
    """Empty every table of the store (ids restart at 1).

    DELETE, not TRUNCATE: a test leaves a handful of rows, and TRUNCATE gives each of the
    store's tables and indexes new files and waits for every lock on them: 0.5-0.9 s per
    test at a load of 13 against 0.07-0.2 s for the DELETEs, on every PostgreSQL test
    (docs/benchmarks.md, "CI run time").
    """
    engine = make_engine(url)
    try:
        with engine.begin() as connection:
            connection.exec_driver_sql(EMPTY_ALL)
    finally:
        engine.dispose()


@pytest.fixture(params=BACKENDS)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> URL:
    """A migrated, empty database of each backend."""
    if request.param == "sqlite":
        path = tmp_path / "arena.db"
        shutil.copy(request.getfixturevalue("sqlite_template"), path)
        return database_url(f"sqlite:///{path}")
    if request.param == "private_postgresql":  # a server of the test's own (outage tests)
        private: URL = request.getfixturevalue("private_postgres").url
        return private
    url: URL = request.getfixturevalue("postgres_migrated")
    empty_all(url)
    return url


@pytest.fixture
def engine(db_url: URL) -> Iterator[Engine]:
    """An engine on `db_url`, disposed after the test."""
    engine = make_engine(db_url)
    yield engine
    engine.dispose()


@pytest.fixture
def sessions(engine: Engine) -> sessionmaker[Session]:
    """A session factory on the test database."""
    return make_sessionmaker(engine)


@pytest.fixture
def session(sessions: sessionmaker[Session]) -> Iterator[Session]:
    """A session on the test database, closed after the test."""
    with sessions() as session:
        yield session
