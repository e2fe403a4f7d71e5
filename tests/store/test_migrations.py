"""Migrations from an empty database, and the models agreeing with them, on both backends."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from click.testing import CliRunner
from sqlalchemy import inspect
from sqlalchemy.engine import URL

from arena.store import make_engine, migrate
from arena.store.commands import db
from arena.store.database import database_url
from arena.store.models import Base
from tests.store.databases import BACKENDS, create_postgres_database, drop_postgres_database

pytestmark = pytest.mark.timeout(120)


@pytest.fixture(params=BACKENDS)
def empty_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[URL]:
    """A database that has never been migrated."""
    if request.param == "sqlite":
        yield database_url(f"sqlite:///{tmp_path / 'empty.db'}")
        return
    url = create_postgres_database("arena_test_empty")
    try:
        yield url
    finally:
        drop_postgres_database(url)


def table_names(url: URL) -> set[str]:
    engine = make_engine(url)
    try:
        return set(inspect(engine).get_table_names()) - {"alembic_version"}
    finally:
        engine.dispose()


def schema_differences(url: URL) -> list[object]:
    engine = make_engine(url)
    try:
        with engine.connect() as connection:
            context = MigrationContext.configure(connection, opts={"compare_type": True})
            return list(compare_metadata(context, Base.metadata))
    finally:
        engine.dispose()


def test_upgrade_from_empty_creates_every_table(empty_url: URL) -> None:
    assert migrate.current(empty_url) is None
    migrate.upgrade(empty_url)
    assert migrate.current(empty_url) == migrate.head()
    assert table_names(empty_url) == set(Base.metadata.tables)


def test_models_and_migrations_agree(empty_url: URL) -> None:
    migrate.upgrade(empty_url)
    assert schema_differences(empty_url) == []


def test_downgrade_to_base_and_back(empty_url: URL) -> None:
    migrate.upgrade(empty_url)
    migrate.downgrade(empty_url, "base")
    assert table_names(empty_url) == set()
    migrate.upgrade(empty_url)
    assert table_names(empty_url) == set(Base.metadata.tables)


def test_upgrade_twice_is_harmless(empty_url: URL) -> None:
    migrate.upgrade(empty_url)
    migrate.upgrade(empty_url)
    assert migrate.current(empty_url) == migrate.head()


def test_db_commands(empty_url: URL) -> None:
    url = empty_url.render_as_string(hide_password=False)
    runner = CliRunner()
    before = runner.invoke(db, ["current", "--url", url])
    assert before.exit_code == 0, before.output
    assert "(none)" in before.output and "needs `arena db upgrade`" in before.output
    upgraded = runner.invoke(db, ["upgrade", "--url", url])
    assert upgraded.exit_code == 0, upgraded.output
    assert f"at revision {migrate.head()}" in upgraded.output
    after = runner.invoke(db, ["current", "--url", url])
    assert "up to date" in after.output


def test_sqlite_default_url_is_a_file_under_var(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("ARENA_DATABASE_URL", raising=False)
    migrate.upgrade()
    assert (tmp_path / "var" / "arena.db").exists()
    engine = make_engine()
    try:
        with engine.connect() as connection:
            assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
            assert connection.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
            assert connection.exec_driver_sql("PRAGMA busy_timeout").scalar() == 30_000
    finally:
        engine.dispose()


def test_url_from_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARENA_DATABASE_URL", "postgresql://u@db.example/arena")
    url = database_url()
    assert url.drivername == "postgresql+psycopg"
    assert url.database == "arena"


def test_0003_flags_the_open_demo_season_default_and_keeps_data(empty_url: URL) -> None:
    """Entries follow the bot (0003) on a database with seasons and versions in it."""
    from sqlalchemy import text

    migrate.upgrade(empty_url, "0002")
    engine = make_engine(empty_url)
    try:
        with engine.begin() as connection:
            connection.execute(
                text(
                    "INSERT INTO rulesets (id, sha256, name, data, created_at) "
                    "VALUES (1, :sha, 'standard', '{}', CURRENT_TIMESTAMP)"
                ),
                {"sha": "0" * 64},
            )
            for number, (name, status) in enumerate(
                [("Demo season 1", "finished"), ("Demo season 2", "running"), ("Cup", "running")],
                start=1,
            ):
                connection.execute(
                    text(
                        "INSERT INTO seasons (id, name, ruleset_id, players, starts_at,"
                        " ends_at, cadence_seconds, matchmaking, status, round_number,"
                        " rated_matches, created_at) VALUES (:id, :name, 1, 4,"
                        " '2030-01-01 00:00:00', '2030-01-02 00:00:00', 30, '{}', :status, 0, 0,"
                        " '2030-01-01 00:00:00')"
                    ),
                    {"id": number, "name": name, "status": status},
                )
        migrate.upgrade(empty_url)
        with engine.connect() as connection:
            rows = connection.execute(text("SELECT name, is_default FROM seasons")).all()
            flags: dict[str, bool] = {name: bool(flag) for name, flag in rows}
    finally:
        engine.dispose()
    assert flags == {"Demo season 1": False, "Demo season 2": True, "Cup": False}


def test_0007_trusts_the_house_accounts_bots_only(empty_url: URL) -> None:
    """Trust (0007) goes to the house bots and the house account's demo players; not to a
    person who signed up as "house" (a usable password), nor to anyone else's bots."""
    from sqlalchemy import text

    migrate.upgrade(empty_url, "0006")
    engine = make_engine(empty_url)
    users = [(1, "house", "!"), (2, "alice", "hash"), (3, "house2", "!")]
    bots = [
        (1, 1, "heuristic-1", True),  # a house bot
        (2, 1, "demo-random-1", False),  # a demo player of the house account
        (3, 2, "mine", False),
        (4, 3, "other", False),  # an unusable password, but not the house account
    ]
    try:
        with engine.begin() as connection:
            for user_id, name, password in users:
                connection.execute(
                    text(
                        "INSERT INTO users (id, username, password_hash, is_admin, created_at,"
                        " session_version) VALUES (:id, :name, :password, FALSE,"
                        " CURRENT_TIMESTAMP, 0)"
                    ),
                    {"id": user_id, "name": name, "password": password},
                )
            for bot_id, owner, name, is_house in bots:
                connection.execute(
                    text(
                        "INSERT INTO bots (id, owner_id, name, is_house, created_at)"
                        " VALUES (:id, :owner, :name, :house, CURRENT_TIMESTAMP)"
                    ),
                    {"id": bot_id, "owner": owner, "name": name, "house": is_house},
                )
        migrate.upgrade(empty_url)
        with engine.connect() as connection:
            rows = connection.execute(text("SELECT name, trusted FROM bots")).all()
    finally:
        engine.dispose()
    assert {name: bool(flag) for name, flag in rows} == {
        "heuristic-1": True,
        "demo-random-1": True,
        "mine": False,
        "other": False,
    }


def test_0008_gives_the_demo_players_their_own_account(empty_url: URL) -> None:
    """The house account's demo players (trusted, not house bots) move to a new `demo`
    account no one can sign in to; the house bots, and anyone else's bots, stay."""
    from sqlalchemy import text

    migrate.upgrade(empty_url, "0007")
    engine = make_engine(empty_url)
    users = [(1, "house", "!"), (2, "alice", "hash")]
    bots = [
        (1, 1, "heuristic-1", True, True),  # a house bot
        (2, 1, "demo-random-1", False, True),  # a demo player of the house account
        (3, 2, "mine", False, False),
    ]
    try:
        with engine.begin() as connection:
            for user_id, name, password in users:
                connection.execute(
                    text(
                        "INSERT INTO users (id, username, password_hash, is_admin, created_at,"
                        " session_version) VALUES (:id, :name, :password, FALSE,"
                        " CURRENT_TIMESTAMP, 0)"
                    ),
                    {"id": user_id, "name": name, "password": password},
                )
            for bot_id, owner, name, is_house, trusted in bots:
                connection.execute(
                    text(
                        "INSERT INTO bots (id, owner_id, name, is_house, trusted, created_at)"
                        " VALUES (:id, :owner, :name, :house, :trusted, CURRENT_TIMESTAMP)"
                    ),
                    {"id": bot_id, "owner": owner, "name": name, "house": is_house,
                     "trusted": trusted},
                )  # fmt: skip
        migrate.upgrade(empty_url)
        with engine.connect() as connection:
            owners: dict[str, str] = dict(
                connection.execute(
                    text("SELECT b.name, u.username FROM bots b JOIN users u ON u.id = b.owner_id")
                ).all()
            )
            demo = connection.execute(
                text("SELECT password_hash FROM users WHERE username = 'demo'")
            ).scalar_one()
        migrate.downgrade(empty_url, "0007")
        with engine.connect() as connection:
            back = connection.execute(
                text(
                    "SELECT u.username FROM bots b JOIN users u ON u.id = b.owner_id WHERE b.id = 2"
                )
            ).scalar_one()
    finally:
        engine.dispose()
    assert owners == {"heuristic-1": "house", "demo-random-1": "demo", "mine": "alice"}
    assert demo == "!"  # no one signs in to it
    assert back == "house"
