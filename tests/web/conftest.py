"""Fixtures for the site's tests: `app`, `client`, `auth` (as in Flask's tutorial), a
database to arrange rows in, and `world`: a small season with a recorded match.

Each test runs twice, on SQLite and on PostgreSQL (the production database): on its own
SQLite file, copied from one migrated once per session, and on the session's migrated
PostgreSQL database, emptied before each test (tests/store/databases.py; without a
server the PostgreSQL half is skipped, or fails under CI). The browser tests run on
SQLite only (tests/web/browser/conftest.py). CSRF protection stays on: the `auth` helper
reads the token from a page, as a browser does.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session

from arena.store import migrate
from tests.store.databases import (
    BACKENDS,
    commit_without_flushing,
    create_postgres_database,
    drop_postgres_database,
    empty_all,
    postgres_migrated,
)
from tests.web.factories import World
from tests.web.world_snapshot import WorldSnapshot, restore_snapshot, take_snapshot
from web import create_app
from web.database import dispose, sessions

CSRF = re.compile(
    r'name="csrf_token" type="hidden" value="([^"]+)"|name="csrf_token" value="([^"]+)"'
)


@pytest.fixture(scope="session")
def migrated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A migrated, empty SQLite database file that each test copies."""
    path = tmp_path_factory.mktemp("web-template") / "arena.db"
    migrate.upgrade(f"sqlite:///{path}")
    return path


__all__ = ["postgres_migrated"]  # the PostgreSQL fixture, registered for these tests


def make_app(database: str, **config: Any) -> Flask:
    """The site on the `database` URL, configured for tests (cheap password hashing)."""
    settings = {
        "TESTING": True,
        "DATABASE_URL": database,
        "SECRET_KEY": "test secret",
        "ARGON2_PROFILE": "CHEAPEST",
    }
    settings.update(config)
    return create_app(settings)


@pytest.fixture(params=BACKENDS)
def database(request: pytest.FixtureRequest, migrated: Path, tmp_path: Path) -> str:
    """This test's database URL: a fresh SQLite file, or the emptied PostgreSQL database."""
    if request.param == "sqlite":
        path = tmp_path / "arena.db"
        shutil.copy(migrated, path)
        return f"sqlite:///{path}"
    url = request.getfixturevalue("postgres_migrated")
    empty_all(url)
    return str(url.render_as_string(hide_password=False))


@pytest.fixture
def app(database: str) -> Iterator[Flask]:
    """The site, on this test's database."""
    application = make_app(database)
    yield application
    dispose(application)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """A test client of the site."""
    return app.test_client()


@pytest.fixture
def db(app: Flask) -> Iterator[Session]:
    """A session on the site's database, to arrange and inspect rows."""
    with sessions(app)() as session:
        yield session


def csrf_token(client: FlaskClient, path: str = "/signin") -> str:
    """The CSRF token of the client's session, read from a form page."""
    page = client.get(path).get_data(as_text=True)
    found = CSRF.search(page)
    assert found, f"no CSRF token on {path}"
    return found.group(1) or found.group(2)


class AuthActions:
    """Sign up, in and out through the real forms."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client

    def signup(self, username: str = "alice", password: str = "correct horse") -> Any:
        return self.client.post(
            "/signup",
            data={
                "username": username,
                "password": password,
                "confirm": password,
                "csrf_token": csrf_token(self.client, "/signup"),
            },
        )

    def login(self, username: str = "alice", password: str = "correct horse") -> Any:
        return self.client.post(
            "/signin",
            data={
                "username": username,
                "password": password,
                "csrf_token": csrf_token(self.client),
            },
        )

    def logout(self) -> Any:
        return self.client.post("/signout", data={"csrf_token": csrf_token(self.client, "/")})

    def token(self) -> str:
        return csrf_token(self.client, "/")


@pytest.fixture
def auth(client: FlaskClient) -> AuthActions:
    """Sign-up, sign-in and sign-out helpers on `client`."""
    return AuthActions(client)


@pytest.fixture(scope="session")
def world_snapshots() -> dict[str, WorldSnapshot]:
    """The world as built once per backend this session (tests/web/world_snapshot.py)."""
    return {}


@pytest.fixture
def world(
    request: pytest.FixtureRequest,
    app: Flask,
    db: Session,
    database: str,
    world_snapshots: dict[str, WorldSnapshot],
) -> World:
    """Users alice (with a ready bot in a running season), bob and an admin, and one
    recorded match of that season with a replay (one seat faulting, with logs): built by
    `build_world` once per backend and session, copied into this test's database."""
    backend = make_url(database).get_backend_name()
    if backend not in world_snapshots:
        world_snapshots[backend] = built_world(request, backend)
    return restore_snapshot(world_snapshots[backend], db)


def built_world(request: pytest.FixtureRequest, backend: str) -> WorldSnapshot:
    """The world built on `backend`, in a migrated database of its own."""
    if backend == "postgresql":
        url = create_postgres_database("arena_world")
        try:
            commit_without_flushing(url)
            migrate.upgrade(url)
            return snapshot_of(url.render_as_string(hide_password=False))
        finally:
            drop_postgres_database(url)
    folder = request.getfixturevalue("tmp_path_factory").mktemp("web-world")
    shutil.copy(request.getfixturevalue("migrated"), folder / "arena.db")
    return snapshot_of(f"sqlite:///{folder / 'arena.db'}")


def snapshot_of(database: str) -> WorldSnapshot:
    """The world built and read back in `database` by a site of its own."""
    builder = make_app(database)
    try:
        return take_snapshot(builder)
    finally:
        dispose(builder)
