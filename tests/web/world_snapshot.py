"""The site tests' world built once per session and backend, then copied into each test's
database: building it (accounts hashed, a season, a match played and recorded) took
0.25-0.5 s of every one of the ~640 tests that use it (docs/benchmarks.md, "CI run time").

A snapshot is what `build_world` left in the database: every row of every table, read in
stored order and written back in that order; where the ids would go next (PostgreSQL's
sequences, SQLite's AUTOINCREMENT counters); and when it was built, so that a copy's times
are moved by how long ago that was: a copy made now is the world as built now.
"""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime
from typing import Any

from flask import Flask
from sqlalchemy import Connection, Table, insert, select, text
from sqlalchemy.orm import Session

from arena.store.models import Base
from arena.store.types import UTCDateTime
from tests.web.factories import World, build_world
from web.database import sessions

Rows = tuple[dict[str, Any], ...]


@dataclasses.dataclass(frozen=True)
class WorldSnapshot:
    """A built world's rows, id counters and build time."""

    world: World
    built_at: datetime
    rows: tuple[tuple[Table, Rows], ...]
    counters: tuple[tuple[str, int], ...]


def take_snapshot(app: Flask) -> WorldSnapshot:
    """Build the world in `app`'s (empty) database and read it back."""
    with sessions(app)() as db:
        built_at = datetime.now(UTC)
        world = build_world(db, app)
        db.commit()
        connection = db.connection()
        rows = tuple((table, read_rows(connection, table)) for table in Base.metadata.sorted_tables)
        counters = read_counters(connection)
        db.rollback()
    return WorldSnapshot(world, built_at, rows, counters)


def restore_snapshot(snapshot: WorldSnapshot, db: Session) -> World:
    """Write the snapshot into the (empty) database of `db`, its times moved to now; commits."""
    shift = datetime.now(UTC) - snapshot.built_at
    db.rollback()
    connection = db.connection()
    for table, rows in snapshot.rows:
        if not rows:
            continue
        times = [column.name for column in table.columns if isinstance(column.type, UTCDateTime)]
        moved = [
            {**row, **{name: row[name] + shift for name in times if row[name] is not None}}
            for row in rows
        ]
        connection.execute(insert(table), moved)
    if connection.dialect.name == "postgresql":
        for name, value in snapshot.counters:
            connection.execute(
                text("SELECT setval(:name, :value, true)"), {"name": name, "value": value}
            )
    else:
        for name, value in snapshot.counters:
            connection.execute(
                text("DELETE FROM sqlite_sequence WHERE name = :name"), {"name": name}
            )
            connection.execute(
                text("INSERT INTO sqlite_sequence (name, seq) VALUES (:name, :value)"),
                {"name": name, "value": value},
            )
    db.commit()
    return snapshot.world


def read_rows(connection: Connection, table: Table) -> Rows:
    """The table's rows in the order the database keeps them (a query without ORDER BY
    reads them so, and a test may lean on it)."""
    query = select(table)
    if connection.dialect.name == "postgresql":
        query = query.order_by(text("ctid"))
    return tuple(dict(row._mapping) for row in connection.execute(query))


def read_counters(connection: Connection) -> tuple[tuple[str, int], ...]:
    """Where each id counter stands: PostgreSQL's sequences that were drawn from, SQLite's
    AUTOINCREMENT tables'."""
    if connection.dialect.name == "postgresql":
        found = connection.execute(
            text(
                "SELECT quote_ident(schemaname) || '.' || quote_ident(sequencename), last_value"
                " FROM pg_sequences"
                " WHERE schemaname = current_schema() AND last_value IS NOT NULL"
            )
        ).all()
    else:
        exists = connection.execute(
            text("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sqlite_sequence'")
        ).first()
        found = (
            connection.execute(text("SELECT name, seq FROM sqlite_sequence")).all()
            if exists
            else []
        )
    return tuple((str(name), int(value)) for name, value in found)
