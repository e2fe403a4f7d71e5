"""Inserts that race safely: a row keyed by a unique value, stored once however many
writers ask for it at the same moment.

Why: check-then-insert is a race on PostgreSQL (two transactions both see no row, both
insert, one fails on the unique constraint) that SQLite hides by serialising writers.
`INSERT … ON CONFLICT DO NOTHING` lets the database settle it: the loser's insert does
nothing, waits for the winner's commit, and the row is read back. Both dialects have it.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Insert, Table
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session


def insert_if_absent(session: Session, table: Table, values: dict[str, Any], key: str) -> None:
    """Insert `values` into `table` unless a row with the same unique `key` exists (or is
    being inserted by a concurrent transaction, which this one then waits for)."""
    dialect = session.get_bind().dialect.name
    statement: Insert
    if dialect == "postgresql":
        statement = (
            postgresql.insert(table).values(values).on_conflict_do_nothing(index_elements=[key])
        )
    elif dialect == "sqlite":
        statement = sqlite.insert(table).values(values).on_conflict_do_nothing(index_elements=[key])
    else:  # pragma: no cover - the store runs on SQLite and PostgreSQL only
        raise NotImplementedError(f"no conflict-safe insert for {dialect}")
    session.execute(statement)
