"""Column types shared by the models: timezone-aware UTC timestamps on every backend."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import DateTime
from sqlalchemy.engine import Dialect
from sqlalchemy.types import TypeDecorator


def utc_now() -> datetime:
    """The current time, timezone-aware, in UTC (the only kind of time the store keeps)."""
    return datetime.now(UTC)


class UTCDateTime(TypeDecorator[datetime]):
    """A `DateTime(timezone=True)` that always hands back aware UTC datetimes.

    PostgreSQL keeps the zone itself (`timestamptz`); SQLite has no zone, so values are
    converted to UTC on the way in and marked UTC on the way out. A naive datetime is
    refused: it would be ambiguous.
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError(f"naive datetime {value!r}: the store keeps timezone-aware times")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: Any, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        assert isinstance(value, datetime)
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)
