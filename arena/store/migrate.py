"""Alembic migrations run from code: `upgrade(url)`, `current(url)`, `head()`.

The migration scripts live in this package (`arena/store/migrations/`), so an installed
`arena` can migrate any database without an alembic.ini: `arena db upgrade` calls
`upgrade()` with the configured URL.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine
from sqlalchemy.engine import URL

from .database import database_url, make_engine

MIGRATIONS: Final = Path(__file__).with_name("migrations")


def alembic_config(url: str | URL | None = None, engine: Engine | None = None) -> Config:
    """An Alembic `Config` for our scripts and `url` (or an existing `engine`)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option(
        "sqlalchemy.url", database_url(url).render_as_string(hide_password=False)
    )
    if engine is not None:
        config.attributes["engine"] = engine
    return config


def upgrade(url: str | URL | None = None, revision: str = "head") -> None:
    """Migrate the database at `url` (see `database_url`) up to `revision`."""
    engine = make_engine(url)
    try:
        command.upgrade(alembic_config(url, engine), revision)
    finally:
        engine.dispose()


def downgrade(url: str | URL | None, revision: str) -> None:
    """Migrate the database at `url` down to `revision` ("base" empties it)."""
    engine = make_engine(url)
    try:
        command.downgrade(alembic_config(url, engine), revision)
    finally:
        engine.dispose()


def current(url: str | URL | None = None) -> str | None:
    """The revision the database at `url` is at (None for a database never migrated)."""
    engine = make_engine(url)
    try:
        with engine.connect() as connection:
            return MigrationContext.configure(connection).get_current_revision()
    finally:
        engine.dispose()


def head() -> str:
    """The newest revision among our migration scripts."""
    revision = ScriptDirectory.from_config(alembic_config("sqlite://")).get_current_head()
    assert revision is not None
    return revision
