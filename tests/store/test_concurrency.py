"""Real processes recording at the same time: one result per match, and every update counts."""

from __future__ import annotations

import pytest
from sqlalchemy import select
from sqlalchemy.engine import URL
from sqlalchemy.orm import Session, sessionmaker

from arena.store import recompute_ratings
from arena.store.models import Match, MatchStatus, Rating, RatingChange, Replay, Season
from tests.store.concurrent import record_in_child
from tests.store.factories import queued_match, result_for, running_season
from tests.store.processes import run_together

pytestmark = pytest.mark.timeout(180)

DELAY = 0.5  # seconds each child sleeps while holding its locks


def test_the_same_match_recorded_by_two_processes_gives_one_result(
    db_url: URL, sessions: sessionmaker[Session]
) -> None:
    with sessions() as session:
        season, versions = running_season(session, 4)
        match = queued_match(session, season, versions)
    ids = [v.id for v in versions]
    url = db_url.render_as_string(hide_password=False)
    first = result_for(ids, [10, 20, 30, 40], match_id=match.id)
    second = result_for(ids, [40, 30, 20, 10], match_id=match.id)
    reports = run_together(
        record_in_child, [(url, match.id, first, DELAY), (url, match.id, second, DELAY)]
    )
    assert sorted(r["recorded"] for r in reports) == [False, True]
    assert max(r["began"] for r in reports) < min(r["ended"] for r in reports)  # overlapped
    winner = next(r for r in reports if r["recorded"])
    with sessions() as session:
        stored = session.get(Match, match.id)
        assert stored is not None and stored.status is MatchStatus.DONE
        assert stored.rating_seq == winner["rating_seq"] == 1
        assert len(session.scalars(select(RatingChange)).all()) == 4
        assert len(session.scalars(select(Replay)).all()) == 1
        assert all(r.games == 1 for r in session.scalars(select(Rating)))
        assert session.scalars(select(Season.rated_matches)).one() == 1


def test_two_matches_finishing_together_both_count(
    db_url: URL, sessions: sessionmaker[Session]
) -> None:
    with sessions() as session:
        season, versions = running_season(session, 7, house_bots=False)
        shared = versions[0]
        one = queued_match(session, season, versions[0:4])
        other = queued_match(session, season, [shared, *versions[4:7]])
    url = db_url.render_as_string(hide_password=False)
    results = [
        (url, one.id, result_for([v.id for v in versions[0:4]], [5, 20, 30, 40]), DELAY),
        (
            url,
            other.id,
            result_for([shared.id] + [v.id for v in versions[4:7]], [5, 20, 30, 40]),
            DELAY,
        ),
    ]
    reports = run_together(record_in_child, results)
    assert all(r["recorded"] and r["rated"] for r in reports)
    assert sorted(r["rating_seq"] for r in reports) == [1, 2]
    assert max(r["began"] for r in reports) < min(r["ended"] for r in reports)  # overlapped
    with sessions() as session:
        rating = session.scalars(select(Rating).where(Rating.bot_version_id == shared.id)).one()
        assert rating.games == 2
        history = session.scalars(
            select(RatingChange)
            .join(Match, Match.id == RatingChange.match_id)
            .where(RatingChange.bot_version_id == shared.id)
            .order_by(Match.rating_seq)
        ).all()
        assert len(history) == 2
        assert history[1].elo_before == history[0].elo_after  # the second saw the first
        assert history[1].elo_after == rating.elo
        replayed = recompute_ratings(session, season.id)
        stored = {r.bot_version_id: (r.elo, r.games) for r in session.scalars(select(Rating))}
        assert stored == {k: (v.elo, v.games) for k, v in replayed.items()}
