"""The test databases' own helper: `empty_all` leaves PostgreSQL as a freshly migrated
database would be (every table empty, every id starting at 1 again), which each
PostgreSQL test counts on (tests/store/databases.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import func, select, text
from sqlalchemy.engine import URL
from sqlalchemy.orm import Session

from arena.store import make_engine, make_sessionmaker, record_match_result
from arena.store.models import Base
from tests.store.databases import empty_all
from tests.store.factories import queued_match, result_for, running_season

pytestmark = pytest.mark.timeout(60)


@pytest.fixture
def postgres(postgres_migrated: URL) -> Iterator[Session]:
    """A session on the session's PostgreSQL database, emptied before the test."""
    empty_all(postgres_migrated)
    engine = make_engine(postgres_migrated)
    with make_sessionmaker(engine)() as session:
        yield session
    engine.dispose()


def fill(session: Session) -> None:
    """Users, bots, versions, a season and a recorded, rated match: rows in most tables."""
    season, versions = running_season(session, 4)
    match = queued_match(session, season, versions)
    ids = [version.id for version in versions]
    session.close()
    record_match_result(session, match.id, result_for(ids, [3, 9, 1, 13], match_id=match.id))
    session.close()


def counts(session: Session) -> dict[str, int]:
    return {
        table.name: session.scalar(select(func.count()).select_from(table)) or 0
        for table in Base.metadata.sorted_tables
    }


def test_empty_all_empties_every_table_and_restarts_every_id(
    postgres: Session, postgres_migrated: URL
) -> None:
    fill(postgres)
    filled = counts(postgres)
    assert sum(1 for rows in filled.values() if rows) >= 8, filled
    postgres.close()

    empty_all(postgres_migrated)

    assert set(counts(postgres).values()) == {0}
    drawn = postgres.execute(
        text("SELECT sequencename FROM pg_sequences WHERE last_value IS NOT NULL")
    ).all()
    assert drawn == []
    postgres.close()
    fill(postgres)
    assert counts(postgres) == filled
    assert postgres.scalar(text("SELECT min(id) FROM users")) == 1
    assert postgres.scalar(text("SELECT min(id) FROM matches")) == 1


def test_empty_all_keeps_the_migrations_record(postgres: Session, postgres_migrated: URL) -> None:
    before = postgres.scalar(text("SELECT version_num FROM alembic_version"))
    postgres.close()
    empty_all(postgres_migrated)
    assert postgres.scalar(text("SELECT version_num FROM alembic_version")) == before
    assert before
