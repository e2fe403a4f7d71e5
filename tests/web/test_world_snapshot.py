"""The site tests' `world`, copied from a snapshot (tests/web/world_snapshot.py), is the
world `build_world` makes: the same rows, its times as if built now, the next ids the
same, on SQLite and on PostgreSQL."""

from __future__ import annotations

import dataclasses
from datetime import timedelta
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import Table
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session

from arena.store.types import UTCDateTime
from tests.web.conftest import built_world
from tests.web.factories import PASSWORD
from tests.web.world_snapshot import WorldSnapshot, read_counters, read_rows, restore_snapshot
from web.passwords import check_password

# What differs between any two builds: the replay's per-decision timings, and each
# password's salt.
VARIES = {
    ("replays", "content"),
    ("replays", "sha256"),
    ("replays", "size"),
    ("users", "password_hash"),
}
AGO = timedelta(days=3)


def key_of(table: Table, row: dict[str, Any]) -> tuple[Any, ...]:
    """The row's primary key."""
    return tuple(row[column.name] for column in table.primary_key.columns)


def aged(snapshot: WorldSnapshot) -> WorldSnapshot:
    """The snapshot as if it had been built `AGO` earlier."""
    rows = tuple(
        (
            table,
            tuple(
                {
                    name: value - AGO
                    if value is not None and isinstance(table.c[name].type, UTCDateTime)
                    else value
                    for name, value in row.items()
                }
                for row in table_rows
            ),
        )
        for table, table_rows in snapshot.rows
    )
    return dataclasses.replace(snapshot, built_at=snapshot.built_at - AGO, rows=rows)


def test_a_copied_world_is_the_world_as_built_now(
    request: pytest.FixtureRequest, app: Flask, db: Session, database: str
) -> None:
    fresh = built_world(request, make_url(database).get_backend_name())
    assert sum(len(rows) for _table, rows in fresh.rows) >= 50

    assert restore_snapshot(aged(fresh), db) == fresh.world

    connection = db.connection()
    for table, built in fresh.rows:
        # By primary key: where PostgreSQL puts a row depends on the space earlier tests'
        # deleted rows left, in a fresh build as in a copy.
        copied = sorted(read_rows(connection, table), key=lambda row: key_of(table, row))
        assert len(copied) == len(built), table.name
        in_order = sorted(built, key=lambda row: key_of(table, row))
        for got, want in zip(copied, in_order, strict=True):
            for name, value in want.items():
                if isinstance(table.c[name].type, UTCDateTime) and value is not None:
                    # moved by as long as the copy came after the build (not three days)
                    assert timedelta(0) <= got[name] - value < timedelta(hours=1), name
                elif (table.name, name) not in VARIES:
                    assert got[name] == value, (table.name, name)
    assert read_counters(connection) == fresh.counters
    users = next(table for table, _rows in fresh.rows if table.name == "users")
    with app.app_context():
        people = [user for user in read_rows(connection, users) if user["username"] != "house"]
        assert [user["username"] for user in people] == ["alice", "bob", "root"]
        for user in people:
            assert check_password(user["password_hash"], PASSWORD)[0], user["username"]
