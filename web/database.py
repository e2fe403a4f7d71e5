"""The database for a request: one SQLAlchemy session per request, closed at its end.

The engine comes from `arena.store` (`DATABASE_URL`, else `$ARENA_DATABASE_URL`, else the
SQLite default). Reads use the request's session as it is; a write goes through
`writing()`, which ends any read transaction first and then opens a writer's
transaction (`BEGIN IMMEDIATE` on SQLite, so it never fails halfway on a lock).

Writes that can race on PostgreSQL (two uploads creating one bot, two sign-ups of one
name) run under `conflict_retries()`: a unique-constraint conflict with a concurrent
writer rolls back and runs the block again, when it sees the other's row. Whatever still
conflicts is a 409, and a database that cannot be reached a 503 with `Retry-After`:
never a 500 (the handlers installed by `init_app`).
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from types import TracebackType
from typing import Final

from flask import Flask, current_app, g, request
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError
from sqlalchemy.orm import Session, sessionmaker
from werkzeug.wrappers import Response

from arena.store import make_engine, make_sessionmaker, write_transaction

EXTENSION = "arena.sessions"
CONFLICT_ATTEMPTS: Final = 8
"""How often a write that lost a race on a unique constraint is tried in all."""
CONFLICT_BACKOFF_SECONDS: Final = 0.02
"""Each try after a lost race waits up to this much times its number, at random, so
that the losers of one race do not all meet again in the next."""
RETRY_AFTER_SECONDS: Final = 5
"""The retry hint of a 503 answered while the database is away."""


def init_app(app: Flask) -> None:
    """Open the app's engine and close each request's session at teardown."""
    engine = make_engine(app.config["DATABASE_URL"])
    app.extensions[EXTENSION] = make_sessionmaker(engine)
    app.teardown_appcontext(_close)
    app.register_error_handler(IntegrityError, _conflict)
    app.register_error_handler(OperationalError, _unavailable)
    app.register_error_handler(DBAPIError, _database_error)


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


class Attempt:
    """One try of a write under `conflict_retries()`: `with attempt as db:` is `writing()`,
    except that a unique-constraint conflict is swallowed while tries remain."""

    def __init__(self, last: bool) -> None:
        self.last = last
        self.done = False
        self._block: AbstractContextManager[Session] | None = None

    def __enter__(self) -> Session:
        self._block = writing()
        return self._block.__enter__()

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> bool:
        assert self._block is not None
        try:
            self._block.__exit__(kind, error, trace)  # commits, or rolls back
        except IntegrityError:  # raised by the commit itself
            if self.last:
                raise
            return True
        if error is None:
            self.done = True
            return False
        return isinstance(error, IntegrityError) and not self.last


def conflict_retries(attempts: int = CONFLICT_ATTEMPTS) -> Iterator[Attempt]:
    """Tries of one write, each its own transaction, until one commits:

        for attempt in conflict_retries():
            with attempt as db:
                ...

    A try that lost a race on a unique constraint is rolled back and made again (then it
    sees the winner's row); the last one's IntegrityError goes on (a 409). Any other
    error goes on at once."""
    for number in range(attempts):
        if number:
            time.sleep(random.uniform(0, CONFLICT_BACKOFF_SECONDS * number))
        attempt = Attempt(last=number == attempts - 1)
        yield attempt
        if attempt.done:
            return


def _conflict(_error: IntegrityError) -> Response:
    from .errors import error_response

    return error_response(409, "That conflicts with a change made at the same moment; try again.")


def _unavailable(error: DBAPIError) -> Response:
    """A 503 with a retry hint: the database is away, or too busy to answer (locked)."""
    from .errors import error_response

    current_app.logger.warning("database unavailable on %s: %s", request.path, error.orig)
    response = error_response(503, "The database is unavailable for a moment; try again shortly.")
    response.headers["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


def _database_error(error: DBAPIError) -> Response:
    """A lost connection is an outage (503); any other driver error is ours (500)."""
    from .errors import error_response

    if error.connection_invalidated:
        return _unavailable(error)
    current_app.logger.error("database error on %s", request.path, exc_info=error)
    return error_response(500, "Something went wrong on our side; it has been logged.")


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
