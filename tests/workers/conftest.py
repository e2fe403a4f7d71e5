"""Fixtures for the workers' tests: the store's databases, and this process's settings."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy.engine import URL

from tests.store.databases import (
    db_url,
    engine,
    postgres_migrated,
    session,
    sessions,
    sqlite_template,
)
from tests.store.private_postgres import private_postgres
from workers.config import Settings

__all__ = [
    "db_url",
    "engine",
    "postgres_migrated",
    "private_postgres",
    "session",
    "sessions",
    "settings",
    "shared_runtime",
    "sqlite_template",
]


@pytest.fixture(scope="session")
def shared_runtime(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One folder for the bots' runtime, shared by every test (built once, ~seconds)."""
    return tmp_path_factory.mktemp("sandbox-runtime")


def sandbox_or_skip() -> None:
    """Skip the calling test where the sandbox cannot run, except under CI (then fail)."""
    from workers.sandbox import SandboxUnavailableError, check_available

    try:
        check_available()
    except SandboxUnavailableError as error:
        if os.environ.get("CI"):
            raise
        pytest.skip(f"the sandbox is unavailable here: {error}")


def link_runtime(data_dir: Path, runtime: Path) -> None:
    """Make `data_dir` use the shared runtime folder."""
    data_dir.mkdir(parents=True, exist_ok=True)
    (data_dir / "sandbox").symlink_to(runtime, target_is_directory=True)


@pytest.fixture
def settings(db_url: URL, tmp_path: Path, shared_runtime: Path) -> Iterator[Settings]:
    """This process configured for the test database, an in-memory broker and `tmp_path`."""
    from workers.app import app, configure

    link_runtime(tmp_path / "data", shared_runtime)
    chosen = Settings(
        data_dir=tmp_path / "data",
        database_url=db_url.render_as_string(hide_password=False),
        broker_url="memory://",
        result_backend=None,
        heartbeat_seconds=1,
        stall_seconds=5,
        db_retry_seconds=5,
    )
    configure(app, chosen)
    yield chosen
    configure(app, Settings.from_environ())
