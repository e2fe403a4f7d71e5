"""A season's life on both backends: create, enter, start, rounds, finish (frozen), next."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from arena.bots import HOUSE_BOTS
from arena.engine import preset
from arena.seasons import (
    MatchmakingSettings,
    SeasonError,
    advance_seasons,
    create_next_season,
    create_season,
    enter_season,
    finish_season,
    schedule_round,
    start_season,
)
from arena.seasons import rounds as rounds_module
from arena.store import record_match_result
from arena.store.bots import add_version, set_version_status
from arena.store.models import (
    Match,
    MatchFormat,
    MatchStatus,
    Season,
    SeasonEntry,
    SeasonStatus,
    VersionStatus,
)
from tests.store.factories import (
    NOW,
    owner,
    queued_match,
    ready_version,
    result_for,
    running_season,
)

pytestmark = pytest.mark.timeout(60)


def scheduled_season(session: Session, entrants: int = 4) -> Season:
    season, _ = running_season(session, entrants)
    season.status = SeasonStatus.SCHEDULED
    session.commit()
    return season


def test_a_season_carries_its_full_rules(session: Session) -> None:
    rules = preset("omnibus")
    season = create_season(
        session,
        name="omni",
        rules=rules,
        starts_at=NOW,
        ends_at=NOW + timedelta(days=1),
        cadence=timedelta(minutes=5),
    )
    session.commit()
    assert season.ruleset.rules == rules and season.players == 4
    assert season.status is SeasonStatus.SCHEDULED
    house = session.scalar(select(func.count()).select_from(SeasonEntry))
    assert house == 3 * len(HOUSE_BOTS)  # three of each house bot


def test_bad_seasons_are_refused(session: Session) -> None:
    with pytest.raises(SeasonError, match="ends"):
        create_season(session, name="x", rules=preset("standard"), starts_at=NOW,
                      ends_at=NOW, cadence=timedelta(minutes=1))  # fmt: skip
    running_season(session, 0, name="taken")
    with pytest.raises(SeasonError, match="exists"):
        create_season(session, name="taken", rules=preset("standard"), starts_at=NOW,
                      ends_at=NOW + timedelta(days=1), cadence=timedelta(minutes=1))  # fmt: skip


def test_only_ready_versions_enter_and_a_new_version_replaces_the_old(session: Session) -> None:
    season, (version,) = running_season(session, 1)
    newer = add_version(session, version.bot, b"v2")
    with pytest.raises(SeasonError, match="pending, not ready"):
        enter_season(session, season, newer)
    set_version_status(session, newer, VersionStatus.VALIDATING)
    set_version_status(session, newer, VersionStatus.READY)
    enter_season(session, season, newer)
    session.commit()
    active = session.scalars(
        select(SeasonEntry.bot_version_id).where(
            SeasonEntry.active.is_(True), SeasonEntry.bot_version_id.in_([version.id, newer.id])
        )
    ).all()
    assert active == [newer.id]


def test_start_then_finish_freezes_the_results(sessions: sessionmaker[Session]) -> None:
    with sessions() as session:
        season = scheduled_season(session, 4)
        assert start_season(session, season.id, now=NOW)
        assert not start_season(session, season.id, now=NOW)
        enqueued: list[int] = []
        report = schedule_round(session, season.id, enqueued.extend, now=NOW)
        played, waiting = report.match_ids[0], report.match_ids[1:]
        match = session.get(Match, played)
        assert match is not None
        ids = [seat.bot_version_id for seat in match.seats]
        session.rollback()
        record_match_result(session, played, result_for(ids, [10, 20, 30, 40]))
        assert finish_season(session, season.id, now=NOW + timedelta(days=8))
        assert not finish_season(session, season.id)
        frozen = session.scalars(select(Season).where(Season.id == season.id)).one()
        assert frozen.status is SeasonStatus.FINISHED and frozen.finished_at is not None
        statuses = session.scalars(select(Match.status).where(Match.id.in_(waiting))).all()
        assert set(statuses) <= {MatchStatus.VOID}
        entries = {
            e.bot_version_id: e
            for e in session.scalars(select(SeasonEntry).where(SeasonEntry.season_id == season.id))
        }
        assert entries[ids[0]].final_rank == 1 and entries[ids[0]].final_games == 1
        assert entries[ids[3]].final_rank == 4
        assert all(e.final_games is not None for e in entries.values())
        season_id = season.id
        session.rollback()
        with pytest.raises(SeasonError, match="finished"):
            schedule_round(session, season_id, enqueued.extend, now=NOW)


def test_the_next_season_starts_from_the_last(session: Session) -> None:
    season, versions = running_season(
        session, 3, matchmaking=MatchmakingSettings(duplicate_sets=True, search_width=4)
    )
    finish_season(session, season.id, now=NOW)
    following = create_next_season(
        session, season.id, name="summer", starts_at=NOW + timedelta(days=10)
    )
    session.commit()
    assert following.template_id == season.id and following.status is SeasonStatus.SCHEDULED
    assert following.ruleset_id == season.ruleset_id
    assert following.ends_at - following.starts_at == season.ends_at - season.starts_at
    assert following.cadence_seconds == season.cadence_seconds
    assert MatchmakingSettings.from_dict(following.matchmaking).duplicate_sets
    carried = session.scalars(
        select(SeasonEntry.bot_version_id).where(SeasonEntry.season_id == following.id)
    ).all()
    assert {v.id for v in versions} <= set(carried)


def test_a_round_is_enqueued_only_after_it_commits(sessions: sessionmaker[Session]) -> None:
    with sessions() as session:
        season, _ = running_season(session, 8, house_bots=False)
    seen: list[int] = []

    def enqueue(match_ids: Sequence[int]) -> None:
        with sessions() as other:  # another connection sees the committed round
            seen.extend(other.scalars(select(Match.id).where(Match.id.in_(match_ids))).all())

    with sessions() as session:
        report = schedule_round(session, season.id, enqueue, now=NOW)
    assert report.tables == 2 and sorted(seen) == sorted(report.match_ids)


def test_a_failed_round_enqueues_nothing(
    sessions: sessionmaker[Session], monkeypatch: pytest.MonkeyPatch
) -> None:
    with sessions() as session:
        season, _ = running_season(session, 8)

    def broken(*args: object, **kwargs: object) -> list[tuple[int, ...]]:
        raise RuntimeError("matchmaking bug")

    monkeypatch.setattr(rounds_module, "make_tables", broken)
    enqueued: list[int] = []
    with sessions() as session, pytest.raises(RuntimeError, match="matchmaking bug"):
        schedule_round(session, season.id, enqueued.extend, now=NOW)
    with sessions() as session:
        assert enqueued == [] and session.scalar(select(func.count()).select_from(Match)) == 0
        assert session.get(Season, season.id).round_number == 0  # type: ignore[union-attr]


def test_a_duplicate_set_is_one_match_the_runner_rotates(session: Session) -> None:
    season, _ = running_season(session, 8, matchmaking=MatchmakingSettings(duplicate_sets=True))
    report = schedule_round(session, season.id, lambda ids: None, now=NOW)
    matches = session.scalars(select(Match).where(Match.id.in_(report.match_ids))).all()
    assert report.tables == len(matches) == 2
    assert {m.format for m in matches} == {MatchFormat.DUPLICATE}
    assert all(len(m.seats) == 4 for m in matches)


def test_versions_with_a_match_in_flight_sit_out(session: Session) -> None:
    season, versions = running_season(session, 8, house_bots=False)
    queued_match(session, season, versions[:4])
    report = schedule_round(session, season.id, lambda ids: None, now=NOW)
    seated = session.scalars(select(Match).where(Match.id.in_(report.match_ids))).all()
    assert {s.bot_version_id for m in seated for s in m.seats} == {v.id for v in versions[4:]}


def test_disabled_versions_are_not_scheduled(session: Session) -> None:
    season, versions = running_season(session, 5, house_bots=False)
    set_version_status(session, versions[4], VersionStatus.DISABLED, reason="owner")
    session.commit()
    report = schedule_round(session, season.id, lambda ids: None, now=NOW)
    assert report.tables == 1
    match = session.get(Match, report.match_ids[0])
    assert match is not None and versions[4].id not in {s.bot_version_id for s in match.seats}


def test_advance_starts_schedules_respects_the_cadence_and_finishes(session: Session) -> None:
    season = scheduled_season(session, 4)
    enqueued: list[int] = []
    report = advance_seasons(session, enqueued.extend, now=NOW)
    assert report.started == (season.id,) and len(report.rounds) == 1 and enqueued
    for match in session.scalars(select(Match)):
        match.status = MatchStatus.DONE  # the workers played them
    session.commit()
    soon = advance_seasons(session, enqueued.extend, now=NOW + timedelta(minutes=5))
    assert soon.rounds == ()  # the cadence is ten minutes
    later = advance_seasons(session, enqueued.extend, now=NOW + timedelta(minutes=10))
    assert len(later.rounds) == 1 and later.rounds[0].round_number == 2
    done = advance_seasons(session, enqueued.extend, now=NOW + timedelta(days=8))
    assert done.finished == (season.id,) and done.rounds == ()


def test_rounds_count_up_and_vary_the_tables(session: Session) -> None:
    season, _ = running_season(session, 8, house_bots=False)
    tables = []
    for r in range(3):
        report = schedule_round(
            session, season.id, lambda ids: None, now=NOW + timedelta(minutes=10 * r)
        )
        assert report.round_number == r + 1
        matches = session.scalars(select(Match).where(Match.id.in_(report.match_ids))).all()
        tables.append({frozenset(s.bot_version_id for s in m.seats) for m in matches})
        for m in matches:
            m.status = MatchStatus.DONE
        session.commit()
    assert tables[0].isdisjoint(tables[1]) and tables[1].isdisjoint(tables[2])


def test_unknown_season(session: Session) -> None:
    with pytest.raises(SeasonError, match="no season"):
        schedule_round(session, 404, lambda ids: None)
    with pytest.raises(SeasonError, match="no season"):
        create_next_season(session, 404, name="x", starts_at=NOW)
    assert ready_version(session, owner(session), "lonely").status is VersionStatus.READY
