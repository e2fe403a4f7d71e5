"""Engines and sessions from a URL: SQLite in a file (WAL) by default, PostgreSQL by URL.

The URL comes from the argument, else `ARENA_DATABASE_URL`, else `sqlite:///var/arena.db`
(relative to the working directory; the folder is created). `postgresql://` URLs use
psycopg 3.

SQLite is set up on every new connection: WAL journal (readers never wait for the
writer), foreign keys enforced, a generous busy timeout (a second writer waits instead of
failing), and transactions begun by us rather than by the driver, so that a writer can ask
for `BEGIN IMMEDIATE` (`write_session` / `begin_write`): it takes the write lock before
its first read, so what it reads cannot change before it writes. PostgreSQL writers lock
rows instead (`SELECT ... FOR UPDATE`), which SQLite ignores.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Final

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import URL, Connection, make_url
from sqlalchemy.orm import Session, sessionmaker

DEFAULT_URL: Final = "sqlite:///var/arena.db"
URL_ENV: Final = "ARENA_DATABASE_URL"
SQLITE_BUSY_TIMEOUT_MS: Final = 30_000
WRITE_OPTION: Final = "arena_write"
"""Execution option on a session's connection: begin with `BEGIN IMMEDIATE` on SQLite."""


def database_url(url: str | URL | None = None) -> URL:
    """The URL to use: `url`, else `$ARENA_DATABASE_URL`, else the SQLite default.

    Raises sqlalchemy.exc.ArgumentError for a malformed URL.
    """
    chosen = make_url(url if url is not None else os.environ.get(URL_ENV) or DEFAULT_URL)
    if chosen.drivername in ("postgresql", "postgres"):
        chosen = chosen.set(drivername="postgresql+psycopg")
    return chosen


def make_engine(url: str | URL | None = None, **kwargs: Any) -> Engine:
    """An engine for `url` (see `database_url`), with the SQLite settings installed.

    A relative SQLite path is taken from the working directory and its folder created.
    """
    chosen = database_url(url)
    if chosen.get_backend_name() == "sqlite":
        database = chosen.database
        if database and database != ":memory:" and not database.startswith("file:"):
            Path(database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(chosen, **kwargs)
        _install_sqlite_events(engine)
        return engine
    kwargs.setdefault("pool_pre_ping", True)
    return create_engine(chosen, **kwargs)


def _install_sqlite_events(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Hand transaction control to SQLAlchemy's "begin" event below (the documented
        # pysqlite recipe), so BEGIN can be IMMEDIATE when a writer asks for it.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA journal_mode = WAL")
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.execute("PRAGMA synchronous = NORMAL")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Connection) -> None:
        immediate = connection.get_execution_options().get(WRITE_OPTION, False)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")


def make_sessionmaker(engine: Engine) -> sessionmaker[Session]:
    """Sessions that keep loaded objects usable after commit (`expire_on_commit=False`)."""
    return sessionmaker(engine, expire_on_commit=False)


def begin_write(session: Session) -> None:
    """Start `session`'s transaction as a writer: `BEGIN IMMEDIATE` on SQLite.

    Call it first, before the transaction has touched the database. Raises RuntimeError
    if the session already has a transaction (it could not become IMMEDIATE any more).
    """
    if session.in_transaction():
        raise RuntimeError(
            "begin_write needs a session with no transaction open: the write lock must be "
            "taken before the first read (commit or roll back first, and note that reading "
            "an expired attribute, such as any attribute after a rollback, begins one)"
        )
    session.connection(execution_options={WRITE_OPTION: True})


@contextmanager
def write_transaction(session: Session) -> Iterator[Session]:
    """One writing transaction on `session`: `BEGIN IMMEDIATE` on SQLite, commit on success.

    Rolls back and re-raises on any error. Raises RuntimeError (from `begin_write`) if the
    session already has a transaction open.
    """
    begin_write(session)
    try:
        yield session
        session.commit()
    except BaseException:
        session.rollback()
        raise
