"""Fixtures for the store tests: each database test runs on SQLite and on PostgreSQL."""

from tests.store.databases import (
    db_url,
    engine,
    postgres_migrated,
    session,
    sessions,
    sqlite_template,
)

__all__ = ["db_url", "engine", "postgres_migrated", "session", "sessions", "sqlite_template"]
