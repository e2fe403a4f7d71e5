"""The arena's storage: SQLAlchemy models, repositories and Alembic migrations.

Free of Flask and Celery. `make_engine(url)` / `make_sessionmaker(engine)` open a
database (SQLite file by default, PostgreSQL by URL); `migrate.upgrade(url)` creates or
migrates its schema; `record_match_result` is what a match runner calls when a match
ends; `ladder` reads a season's standings.
"""

from .database import (
    DEFAULT_URL,
    begin_write,
    database_url,
    make_engine,
    make_sessionmaker,
    write_transaction,
)
from .heartbeats import Heartbeat, HeartbeatRow
from .ladder import LadderRow, ladder, recompute_ratings
from .live import LiveEventBatch, LiveWriter
from .people import HumanTable, TableMoment
from .results import (
    MatchNotFoundError,
    MatchResult,
    MatchResultError,
    RecordOutcome,
    SeatResult,
    fail_match,
    record_match_result,
    start_match,
)

__all__ = [
    "DEFAULT_URL",
    "Heartbeat",
    "HeartbeatRow",
    "HumanTable",
    "LadderRow",
    "LiveEventBatch",
    "LiveWriter",
    "MatchNotFoundError",
    "MatchResult",
    "MatchResultError",
    "RecordOutcome",
    "SeatResult",
    "TableMoment",
    "begin_write",
    "database_url",
    "fail_match",
    "ladder",
    "make_engine",
    "make_sessionmaker",
    "recompute_ratings",
    "record_match_result",
    "start_match",
    "write_transaction",
]
