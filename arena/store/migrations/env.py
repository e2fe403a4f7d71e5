"""Alembic's environment for the arena schema (run by `arena.store.migrate`)."""

from __future__ import annotations

from alembic import context
from sqlalchemy import Engine

from arena.store.database import make_engine
from arena.store.models import Base


def run_migrations_online() -> None:
    """Migrate over a connection of our own engine (so SQLite gets its pragmas)."""
    config = context.config
    given = config.attributes.get("engine")
    url = config.get_main_option("sqlalchemy.url")
    engine: Engine = given if given is not None else make_engine(url)
    with engine.connect() as connection:
        context.configure(
            connection=connection,
            target_metadata=Base.metadata,
            render_as_batch=connection.dialect.name == "sqlite",
            compare_type=True,
        )
        with context.begin_transaction():
            context.run_migrations()
    if given is None:
        engine.dispose()


# Alembic runs this file with `context` set up; imported any other way (e.g. by pytest's
# doctest collection) it does nothing.
if hasattr(context, "config"):
    if context.is_offline_mode():
        raise SystemExit("offline (SQL script) migrations are not supported; give a URL")
    run_migrations_online()
