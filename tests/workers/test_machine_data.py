"""The test suite leaves the machine's data alone: a Redis at 127.0.0.1:6379 and a
PostgreSQL server at 127.0.0.1:5432 holding data of their own still hold it, unchanged,
after the tests that restart, flush, create and drop things have run.

How, without endangering real data itself: this test only adds things of its own, each
named with a random token no user would choose (a key in every Redis database, a schema
in the `test` database, a database of its own); runs the tests that touch Redis and
PostgreSQL the hardest in a subprocess (the Redis restart, the racing writes on
PostgreSQL, migrations up and down on new databases); checks that what it added is still
there, value for value; and removes only what it added.
"""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from sqlalchemy import text

from arena.store import make_engine
from tests.store.databases import (
    create_postgres_database,
    drop_postgres_database,
    postgres_admin,
    require_postgres,
)

ROOT = Path(__file__).resolve().parents[2]
MACHINE_REDIS = ("127.0.0.1", 6379)
DESTRUCTIVE_BEFORE = [
    "tests/workers/test_integration.py::test_redis_restarted_mid_season_loses_nothing",
    "tests/web/test_races.py",
    "tests/store/test_migrations.py",
]
"""The tests that used to flush or restart the machine's servers, and those that write
hardest to PostgreSQL."""


def machine_redis() -> redis.Redis:
    client = redis.Redis(*MACHINE_REDIS, socket_timeout=2, socket_connect_timeout=2)
    try:
        client.ping()
    except redis.RedisError as error:
        reason = f"no Redis at {MACHINE_REDIS[0]}:{MACHINE_REDIS[1]} to protect: {error}"
        if os.environ.get("CI"):
            pytest.fail(f"{reason} (CI starts one: it must be there)")
        pytest.skip(reason)
    return client


@pytest.fixture
def redis_sentinels() -> Iterator[dict[int, tuple[str, str]]]:
    """A key with a random value in each of the machine Redis's 16 databases."""
    tag = secrets.token_hex(8)
    sentinels = {db: (f"arena-test-sentinel:{tag}", secrets.token_hex(16)) for db in range(16)}
    machine_redis()
    for db, (key, value) in sentinels.items():
        redis.Redis(*MACHINE_REDIS, db=db).set(key, value)
    try:
        yield sentinels
    finally:
        for db, (key, _value) in sentinels.items():
            redis.Redis(*MACHINE_REDIS, db=db).delete(key)


@pytest.fixture
def postgres_sentinels() -> Iterator[tuple[str, str, list[str]]]:
    """A schema of ours in the `test` database and a database of ours, each with rows."""
    require_postgres()
    tag = secrets.token_hex(6)
    schema, rows = f"arena_sentinel_{tag}", [secrets.token_hex(8) for _ in range(3)]
    own = create_postgres_database(f"arena_sentinel_{tag}")
    admin = postgres_admin()
    own_engine = make_engine(own)
    try:
        for engine, table in ((admin, f'"{schema}".kept'), (own_engine, "kept")):
            with engine.begin() as connection:
                if engine is admin:
                    connection.execute(text(f'CREATE SCHEMA "{schema}"'))
                connection.execute(text(f"CREATE TABLE {table} (value text)"))
                for value in rows:
                    connection.execute(text(f"INSERT INTO {table} VALUES (:v)"), {"v": value})
        yield schema, str(own.database), rows
    finally:
        own_engine.dispose()
        with admin.begin() as connection:
            connection.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
        admin.dispose()
        drop_postgres_database(own)


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_the_tests_leave_the_machines_redis_and_postgresql_alone(
    redis_sentinels, postgres_sentinels
):
    schema, database, rows = postgres_sentinels
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "0",
         "--timeout", "400", *DESTRUCTIVE_BEFORE],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=560, check=False,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    summary = run.stdout.strip().splitlines()[-1]
    print(f"\nthe destructive tests, run in a subprocess: {summary}")
    assert " passed" in summary and "skipped" not in summary, run.stdout[-2000:]
    for db, (key, value) in redis_sentinels.items():
        kept = redis.Redis(*MACHINE_REDIS, db=db).get(key)
        assert kept == value.encode(), f"Redis database {db} lost {key}"
    admin = postgres_admin()
    try:
        with admin.connect() as connection:
            kept_rows = connection.scalars(text(f'SELECT value FROM "{schema}".kept')).all()
    finally:
        admin.dispose()
    assert sorted(kept_rows) == sorted(rows)
    own = make_engine(admin.url.set(database=database))
    try:
        with own.connect() as connection:
            assert sorted(connection.scalars(text("SELECT value FROM kept")).all()) == sorted(rows)
    finally:
        own.dispose()
