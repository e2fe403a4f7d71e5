"""The open data's tests run on SQLite and on PostgreSQL (the store's fixtures)."""

from tests.store.databases import (
    db_url,
    engine,
    postgres_migrated,
    session,
    sessions,
    sqlite_template,
)

__all__ = ["db_url", "engine", "postgres_migrated", "session", "sessions", "sqlite_template"]
