"""Bulk inserts of many rows in one statement on PostgreSQL, in large batches elsewhere.

Why: a round of a 10,000-version season inserts 2,500 matches and 10,000 seats, and the
per-parameter cost of multi-row VALUES statements dominates on PostgreSQL. There, rows are
sent column-wise as one typed array per column and inserted with
`INSERT ... SELECT * FROM unnest(...)`: one statement, a handful of parameters. Other
backends get SQLAlchemy's batched multi-row VALUES ("insertmanyvalues"). Columns a row
leaves out get their Python-side default, evaluated once for the whole batch.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import Enum
from typing import Any

from sqlalchemy import Table, insert, text
from sqlalchemy.orm import Session


def _plain(value: Any) -> Any:
    return value.value if isinstance(value, Enum) else value


def _column(rows: Sequence[Mapping[str, Any]], name: str) -> list[Any]:
    """One column of `rows` as a list, enums as their values."""
    if isinstance(rows[0][name], Enum):
        return [_plain(row[name]) for row in rows]
    return [row[name] for row in rows]


def _defaults(table: Table, given: set[str]) -> dict[str, Any]:
    """The Python-side defaults of the columns not in `given` (callables called once)."""
    values = {}
    for column in table.columns:
        default = column.default
        if column.key in given or default is None:
            continue
        if not (default.is_scalar or default.is_callable):
            continue  # a SQL expression or sequence: the database applies it
        arg = getattr(default, "arg", None)
        values[column.key] = arg(None) if default.is_callable and callable(arg) else arg
    return values


def insert_rows(
    session: Session,
    table: Table,
    rows: Sequence[Mapping[str, Any]],
    returning: Sequence[str] = (),
) -> list[tuple[Any, ...]]:
    """Insert `rows` (all with the same keys) into `table`; the `returning` columns per row,
    in no particular order.

    Raises KeyError when a row lacks a key the first row has.
    """
    if not rows:
        return []
    dialect = session.get_bind().dialect
    if dialect.name != "postgresql":  # SQLAlchemy fills in the column defaults itself
        statement = insert(table)
        if returning:
            statement = statement.returning(*(table.c[name] for name in returning))
            return [tuple(row) for row in session.execute(statement, list(rows))]
        session.execute(statement, list(rows))
        return []
    given = list(rows[0])
    defaults = _defaults(table, set(given))
    columns = given + list(defaults)
    values = [_column(rows, name) for name in given]
    values += [[_plain(value)] * len(rows) for value in defaults.values()]
    arrays = {f"c{i}": column for i, column in enumerate(values)}
    quote = dialect.identifier_preparer.quote
    casts = ", ".join(
        f"CAST(:c{i} AS {table.c[name].type.compile(dialect=dialect)}[])"
        for i, name in enumerate(columns)
    )
    sql = (
        f"INSERT INTO {quote(table.name)} ({', '.join(quote(name) for name in columns)}) "
        f"SELECT * FROM unnest({casts})"
    )
    if returning:
        sql += f" RETURNING {', '.join(quote(name) for name in returning)}"
        return [tuple(row) for row in session.execute(text(sql), arrays)]
    session.execute(text(sql), arrays)
    return []
