"""Recording results: stored once, rated once, void never rated; and the ladder that reads them."""

from __future__ import annotations

import gzip
import json
from typing import Any

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from arena.ratings.uncertainty import Skill, settled_ranks
from arena.seasons import finish_season
from arena.store import (
    MatchNotFoundError,
    MatchResultError,
    fail_match,
    ladder,
    recompute_ratings,
    record_match_result,
    start_match,
)
from arena.store.bots import sha256_hex
from arena.store.models import Match, MatchStatus, Rating, RatingChange, Replay, Season
from arena.store.results import SeatResult, rating_places
from tests.store.factories import queued_match, result_for, running_season

pytestmark = pytest.mark.timeout(60)


def snapshot(session: Session) -> dict[str, Any]:
    """Everything recording could change, to compare before and after."""
    session.expire_all()
    return {
        "matches": [
            (m.id, m.status, m.rating_seq, m.finished_at, m.recorded_at)
            for m in session.scalars(select(Match).order_by(Match.id))
        ],
        "ratings": [
            (r.bot_version_id, r.elo, r.games, r.mu, r.sigma)
            for r in session.scalars(select(Rating).order_by(Rating.bot_version_id))
        ],
        "history": session.scalar(select(func.count()).select_from(RatingChange)),
        "replays": session.scalar(select(func.count()).select_from(Replay)),
        "rated": session.scalar(select(Season.rated_matches)),
    }


def test_recording_stores_seats_replay_and_ratings(session: Session) -> None:
    season, versions = running_season(session, 4)
    match = queued_match(session, season, versions)
    ids = [v.id for v in versions]
    result = result_for(ids, [40, 10, 77, 10], match_id=match.id, faults=[0, 2, 0, 0])
    session.close()
    outcome = record_match_result(session, match.id, result)
    assert outcome.recorded and outcome.rated and outcome.status is MatchStatus.DONE
    assert outcome.rating_seq == 1
    stored = session.get(Match, match.id)
    assert stored is not None and stored.status is MatchStatus.DONE
    assert [(s.score, s.rank, s.faults) for s in stored.seats] == [
        (40, 3, 0), (10, 1, 2), (77, 4, 0), (10, 1, 0),
    ]  # fmt: skip
    assert stored.finished_at == result.finished_at and stored.hands_played == 1
    replay = session.scalars(select(Replay)).one()
    assert replay.content == result.replay and replay.sha256 == sha256_hex(result.replay or b"")
    assert json.loads(gzip.decompress(replay.content))["match"] == match.id
    ratings = {r.bot_version_id: r for r in session.scalars(select(Rating))}
    assert ratings[ids[1]].elo == ratings[ids[3]].elo > ratings[ids[0]].elo > ratings[ids[2]].elo
    assert all(r.games == 1 and r.provisional for r in ratings.values())
    assert ratings[ids[1]].sigma < 25 / 3
    history = session.scalars(select(RatingChange)).all()
    assert {h.bot_version_id for h in history} == set(ids)


def test_recording_twice_changes_nothing(session: Session) -> None:
    season, versions = running_season(session, 4)
    match = queued_match(session, season, versions)
    ids = [v.id for v in versions]
    session.close()
    record_match_result(session, match.id, result_for(ids, [1, 2, 3, 4], match_id=match.id))
    before = snapshot(session)
    session.close()
    again = record_match_result(session, match.id, result_for(ids, [4, 3, 2, 1]))
    assert not again.recorded and again.rated and again.rating_seq == 1
    assert snapshot(session) == before


def test_a_void_match_is_stored_but_never_rated(session: Session) -> None:
    season, versions = running_season(session, 4)
    match = queued_match(session, season, versions)
    session.close()
    result = result_for([v.id for v in versions], [1, 2, 3, 4], void=True)
    outcome = record_match_result(session, match.id, result)
    assert outcome.recorded and not outcome.rated and outcome.status is MatchStatus.VOID
    assert session.scalar(select(func.count()).select_from(Rating)) == 0
    assert session.scalar(select(func.count()).select_from(Replay)) == 1
    assert session.get(Match, match.id).status_reason == "test void"  # type: ignore[union-attr]


def test_a_result_for_other_seats_is_refused_and_nothing_stored(session: Session) -> None:
    season, versions = running_season(session, 5)
    match = queued_match(session, season, versions[:4])
    session.close()
    wrong = result_for([v.id for v in versions[1:]], [1, 2, 3, 4])
    with pytest.raises(MatchResultError, match="seats versions"):
        record_match_result(session, match.id, wrong)
    assert session.get(Match, match.id).status is MatchStatus.QUEUED  # type: ignore[union-attr]


def test_unknown_match(session: Session) -> None:
    with pytest.raises(MatchNotFoundError):
        record_match_result(session, 404, result_for([1, 2], [1, 2]))


def test_the_session_must_not_be_in_a_transaction(session: Session) -> None:
    season, versions = running_season(session, 4)
    match = queued_match(session, season, versions)
    session.scalars(select(Match)).all()  # a read opens a transaction
    with pytest.raises(RuntimeError, match="no transaction open"):
        record_match_result(session, match.id, result_for([v.id for v in versions], [1, 2, 3, 4]))


def test_a_disqualified_seat_ranks_below_everyone() -> None:
    seats = [SeatResult(1, 5, 1, disqualified=True), SeatResult(2, 50, 3), SeatResult(3, 20, 2)]
    assert rating_places(seats) == (3, 2, 1)


def test_results_after_the_season_finished_are_kept_but_not_rated(session: Session) -> None:
    season, versions = running_season(session, 4)
    match = queued_match(session, season, versions)
    start_match(session, match.id)
    finish_season(session, season.id)
    outcome = record_match_result(
        session, match.id, result_for([v.id for v in versions], [1, 2, 3, 4])
    )
    assert outcome.recorded and not outcome.rated
    stored = session.get(Match, match.id)
    assert stored is not None and stored.status_reason == "not rated: the season was finished"


def test_start_and_fail_are_status_transitions(session: Session) -> None:
    season, versions = running_season(session, 4)
    first, second = queued_match(session, season, versions), queued_match(session, season, versions)
    session.close()
    assert start_match(session, first.id)
    assert not start_match(session, first.id)  # a second worker does not run it
    assert fail_match(session, second.id, "sandbox image missing")
    assert not fail_match(session, second.id, "again")
    assert not start_match(session, second.id)
    outcome = record_match_result(
        session, second.id, result_for([v.id for v in versions], [1, 2, 3, 4])
    )
    assert not outcome.recorded and outcome.status is MatchStatus.FAILED


def play_results(
    sessions: sessionmaker[Session], season: Season, versions: list[Any], rounds: int
) -> None:
    """Record `rounds` matches where lower-indexed versions always do better."""
    n = len(versions)
    for r in range(rounds):
        table = [versions[(r + k * 3) % n] for k in range(4)]
        if len({v.id for v in table}) < 4:
            continue
        with sessions() as session:
            match = queued_match(session, season, table, seed=r)
            match_id = match.id
        with sessions() as session:
            scores = [versions.index(v) * 5 for v in table]
            record_match_result(session, match_id, result_for([v.id for v in table], scores))


def test_ladder_orders_ranks_and_pages(sessions: sessionmaker[Session]) -> None:
    with sessions() as session:
        season, versions = running_season(session, 8, house_bots=False)
    play_results(sessions, season, versions, 30)
    with sessions() as session:
        rows = ladder(session, season.id, limit=100)
        assert [row.rank for row in rows] == list(range(1, 9))
        assert [row.bot_version_id for row in rows] == [v.id for v in versions]
        assert [row.elo for row in rows] == sorted((row.elo for row in rows), reverse=True)
        assert rows[0].owner == "spring-owner0" and rows[0].bot_name == "spring-bot0"
        assert rows[0].elo_error > 0 and not rows[0].provisional
        page = ladder(session, season.id, limit=3, offset=3)
        assert [(row.rank, row.bot_version_id) for row in page] == [
            (row.rank, row.bot_version_id) for row in rows[3:6]
        ]
        assert [row.settled for row in page] == [row.settled for row in rows[3:6]]
        skills = [Skill(row.mu, row.sigma) for row in rows]
        assert [row.settled for row in rows] == list(settled_ranks(skills))


def test_stored_ratings_equal_the_history_replayed(sessions: sessionmaker[Session]) -> None:
    with sessions() as session:
        season, versions = running_season(session, 6, house_bots=False)
    play_results(sessions, season, versions, 20)
    with sessions() as session:
        replayed = recompute_ratings(session, season.id)
        stored = {r.bot_version_id: (r.elo, r.games) for r in session.scalars(select(Rating))}
        assert stored == {k: (v.elo, v.games) for k, v in replayed.items()}
