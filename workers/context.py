"""This process's settings and database connections (one engine per process).

`use_settings` is called by `workers.app.configure`; tasks call `sessions()`. A forked
worker process drops the connections it inherited (`worker_process_init`), so no two
processes ever share one.
"""

from __future__ import annotations

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
        if _state.engine is None:
            _state.engine = make_engine(current.database_url, pool_pre_ping=True)
            _state.sessions = make_sessionmaker(_state.engine)
        return _state.engine


def sessions() -> sessionmaker[Session]:
    """Sessions on this process's database."""
    engine()
    assert _state.sessions is not None
    return _state.sessions


@signals.worker_process_init.connect
def _forget_inherited_connections(**_: Any) -> None:
    """A forked pool process must not use its parent's connections."""
    with _state.lock:
        if _state.engine is not None:
            _state.engine.dispose(close=False)
