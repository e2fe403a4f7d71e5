"""The database for a request: one SQLAlchemy session per request, closed at its end.

The engine comes from `arena.store` (`DATABASE_URL`, else `$ARENA_DATABASE_URL`, else the
SQLite default). Reads use the request's session as it is; a write goes through
`writing()`, which ends any read transaction first and then opens a writer's
transaction (`BEGIN IMMEDIATE` on SQLite, so it never fails halfway on a lock).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from flask import Flask, current_app, g
from sqlalchemy.orm import Session, sessionmaker

from arena.store import make_engine, make_sessionmaker, write_transaction

EXTENSION = "arena.sessions"


def init_app(app: Flask) -> None:
    """Open the app's engine and close each request's session at teardown."""
    engine = make_engine(app.config["DATABASE_URL"])
    app.extensions[EXTENSION] = make_sessionmaker(engine)
    app.teardown_appcontext(_close)


def sessions(app: Flask | None = None) -> sessionmaker[Session]:
    """The app's session factory (for work outside a request, such as CLI commands)."""
    factory: sessionmaker[Session] = (app or current_app).extensions[EXTENSION]
    return factory


def session() -> Session:
    """This request's session, opened on first use."""
    if "db" not in g:
        g.db = sessions()()
    current: Session = g.db
    return current


@contextmanager
def writing() -> Iterator[Session]:
    """A writer's transaction on the request's session, committed at the end of the block.

    Objects loaded before stay usable (sessions do not expire them on commit). Rolls back
    and re-raises on error.
    """
    current = session()
    if current.in_transaction():
        current.commit()  # end the read transaction: the write lock is taken first
    with write_transaction(current):
        yield current


def _close(_error: BaseException | None) -> None:
    current = g.pop("db", None)
    if current is not None:
        current.close()


def idle() -> Session:
    """The request's session with no transaction open, for `arena` functions that run
    their own (season transitions, rounds)."""
    current = session()
    if current.in_transaction():
        current.commit()
    return current


def dispose(app: Flask) -> None:
    """Close the app's database connections (at shutdown, or before removing the database)."""
    bind = sessions(app).kw.get("bind")
    if bind is not None:
        bind.dispose()
