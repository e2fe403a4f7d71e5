"""This process's settings and database connections (one engine per process).

`use_settings` is called by `workers.app.configure`; tasks call `sessions()`. A forked
worker process drops the engine it inherited (`worker_process_init`) and makes its own, so
no two processes ever share a connection.

Why a fork hook as well: Celery forks its pool processes from a parent whose heartbeat
thread uses the database. A fork copies a lock held by another thread as held, and the
child, which has no such thread, waits for it for ever: this module's lock (held while the
parent makes its engine), and SQLAlchemy's own locks inside an engine (its first connect's
mutex). So the lock is taken around every fork (`os.register_at_fork`) and the child never
touches the inherited engine's locks: it makes a new engine and keeps the old one, unused
and unclosed, so that the parent's connections are not closed under it.
"""

from __future__ import annotations

import os
import threading
from typing import Any

from celery import signals
from sqlalchemy import Engine
from sqlalchemy.orm import Session, sessionmaker

from arena.store import make_engine, make_sessionmaker

from .config import Settings


class _Process:
    """The per-process state (one instance, `_state`)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.settings: Settings | None = None
        self.engine: Engine | None = None
        self.sessions: sessionmaker[Session] | None = None
        self.engine_pid = 0
        """The process that made `engine`: any other one inherited it by a fork."""
        self.inherited: list[Engine] = []
        """Engines a forked process inherited: kept, never used, so that their connections,
        the parent's, are neither closed nor shared."""


_state = _Process()


def use_settings(settings: Settings) -> None:
    """Make `settings` this process's settings (dropping any engine made for others)."""
    with _state.lock:
        if _state.engine is not None:
            _state.engine.dispose()
        _state.settings, _state.engine, _state.sessions = settings, None, None


def settings() -> Settings:
    """This process's settings (read from the environment if none were given)."""
    with _state.lock:
        if _state.settings is None:
            _state.settings = Settings.from_environ()
        return _state.settings


def engine() -> Engine:
    """This process's database engine (made on first use)."""
    current = settings()
    with _state.lock:
        _drop_inherited()
        if _state.engine is None:
            _state.engine = make_engine(current.database_url, pool_pre_ping=True)
            _state.sessions = make_sessionmaker(_state.engine)
            _state.engine_pid = os.getpid()
        return _state.engine


def _drop_inherited() -> None:
    """In a forked child, set the parent's engine aside (with `_state.lock` held)."""
    if _state.engine is not None and _state.engine_pid != os.getpid():
        _state.inherited.append(_state.engine)
        _state.engine, _state.sessions = None, None


def sessions() -> sessionmaker[Session]:
    """Sessions on this process's database."""
    engine()
    assert _state.sessions is not None
    return _state.sessions


def _before_fork() -> None:
    _state.lock.acquire()


def _after_fork_in_parent() -> None:
    _state.lock.release()


def _after_fork_in_child() -> None:
    _state.lock = threading.Lock()  # the parent's copy is held (taken before the fork)


os.register_at_fork(
    before=_before_fork, after_in_parent=_after_fork_in_parent, after_in_child=_after_fork_in_child
)


@signals.worker_process_init.connect
def _forget_inherited_connections(**_: Any) -> None:
    """A forked pool process must not use its parent's connections, nor its engine's locks
    (`engine()` checks too, whichever receiver of this signal runs first)."""
    with _state.lock:
        _drop_inherited()
