"""The schema's constraints hold on both backends: uniqueness, checks, foreign keys, enums."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from sqlalchemy import insert, select, text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from arena.store.models import (
    Bot,
    BotVersion,
    Match,
    MatchSeat,
    Rating,
    Replay,
    Season,
    User,
)
from tests.store.factories import NOW, owner, queued_match, ready_version, running_season

pytestmark = pytest.mark.timeout(60)


def fails_to_commit(session: Session, *objects: object) -> bool:
    session.add_all(objects)
    try:
        session.commit()
    except IntegrityError:
        session.rollback()
        return True
    return False


def test_username_is_unique(session: Session) -> None:
    owner(session, "alice")
    session.commit()
    assert fails_to_commit(session, User(username="alice", password_hash="!"))


def test_bot_name_unique_per_owner(session: Session) -> None:
    alice = owner(session, "alice")
    bob = owner(session, "bob")
    ready_version(session, alice, "shooter")
    ready_version(session, bob, "shooter")  # another owner may use the name
    session.commit()
    assert fails_to_commit(session, Bot(owner_id=alice.id, name="shooter"))


def test_version_numbers_unique_per_bot(session: Session) -> None:
    version = ready_version(session, owner(session), "ducker")
    session.commit()
    duplicate = BotVersion(bot_id=version.bot_id, number=1, archive_sha256=version.archive_sha256)
    assert fails_to_commit(session, duplicate)


def test_version_archive_must_exist(session: Session) -> None:
    version = ready_version(session, owner(session), "ducker")
    session.commit()
    orphan = BotVersion(bot_id=version.bot_id, number=2, archive_sha256="0" * 64)
    assert fails_to_commit(session, orphan)


def test_a_seat_and_a_version_appear_once_per_match(session: Session) -> None:
    season, versions = running_season(session, 4)
    match = queued_match(session, season, versions)
    taken_seat = {"match_id": match.id, "seat": 0, "bot_version_id": versions[1].id}
    seated_twice = {"match_id": match.id, "seat": 4, "bot_version_id": versions[0].id}
    for row in (taken_seat, seated_twice):
        with pytest.raises(IntegrityError):
            session.execute(insert(MatchSeat).values(**row))
        session.rollback()


def test_match_checks(session: Session) -> None:
    season, versions = running_season(session, 4)
    assert fails_to_commit(
        session, Match(season_id=season.id, ruleset_id=season.ruleset_id, seed=-1)
    )
    match = queued_match(session, season, versions)
    match.seats[0].rank = 0
    with pytest.raises(IntegrityError):
        session.commit()
    session.rollback()


def test_one_rating_per_season_and_version(session: Session) -> None:
    season, versions = running_season(session, 1)
    row = {"elo": 1500.0, "mu": 25.0, "sigma": 8.0}
    session.add(Rating(season_id=season.id, bot_version_id=versions[0].id, **row))
    session.commit()
    assert fails_to_commit(
        session, Rating(season_id=season.id, bot_version_id=versions[0].id, **row)
    )


def test_one_replay_per_match(session: Session) -> None:
    season, versions = running_season(session, 4)
    match = queued_match(session, season, versions)
    replay = {"sha256": "a" * 64, "encoding": "gzip", "size": 1, "content": b"x"}
    session.add(Replay(match_id=match.id, **replay))
    session.commit()
    assert fails_to_commit(session, Replay(match_id=match.id, **replay))


def test_season_must_end_after_it_starts(session: Session) -> None:
    season, _ = running_season(session, 0)
    season.ends_at = season.starts_at - timedelta(seconds=1)
    with pytest.raises(IntegrityError):
        session.commit()
    session.rollback()


def test_foreign_keys_are_enforced(session: Session) -> None:
    assert fails_to_commit(session, Bot(owner_id=999, name="ghost"))


def test_enum_columns_refuse_unknown_values(session: Session) -> None:
    season, versions = running_season(session, 4)
    match = queued_match(session, season, versions)
    with pytest.raises(IntegrityError):
        session.execute(text("UPDATE matches SET status = 'lost' WHERE id = :id"), {"id": match.id})
    session.rollback()


def test_bot_versions_are_immutable(session: Session) -> None:
    version = ready_version(session, owner(session), "ducker")
    with pytest.raises(ValueError, match="immutable"):
        version.archive_sha256 = "b" * 64
    with pytest.raises(ValueError, match="immutable"):
        version.number = 2


def test_timestamps_come_back_aware_and_in_utc(session: Session) -> None:
    season, _ = running_season(session, 0)
    eastern = timezone(timedelta(hours=-5))
    season.starts_at = datetime(2030, 1, 1, 7, 0, tzinfo=eastern)
    session.commit()
    session.expire_all()
    stored = session.scalars(select(Season)).one()
    assert stored.starts_at == datetime(2030, 1, 1, 12, 0, tzinfo=UTC)
    assert stored.starts_at.tzinfo is not None and stored.starts_at.utcoffset() == timedelta(0)
    assert stored.created_at.tzinfo is not None


def test_naive_timestamps_are_refused(session: Session) -> None:
    season, _ = running_season(session, 0)
    season.ends_at = NOW.replace(tzinfo=None) + timedelta(days=30)
    with pytest.raises(Exception, match="naive datetime"):
        session.commit()
    session.rollback()
