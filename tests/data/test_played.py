"""`play_season` with child processes: each round's tables played by two processes while
this one records them in order make the same season, match for match, as one process
does (a match is determined by its table; the ratings by the order they are recorded)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import select

from arena.data.played import play_season
from arena.store import make_engine, make_sessionmaker, migrate
from arena.store.models import Match, MatchSeat, RatingChange

STRENGTHS = (0.0, 0.3, 0.6, 1.0, 0.2, 0.8, 0.5, 0.9)


def _season(path: Path, processes: int) -> tuple[Any, list[tuple[Any, ...]]]:
    """A season of 8 entrants and at least 10 matches played into a fresh SQLite file:
    what it played, and every seat's match, seed, status, hands, score and rating."""
    url = f"sqlite:///{path}"
    migrate.upgrade(url)
    engine = make_engine(url)
    start = datetime(2026, 1, 1, tzinfo=UTC)
    ticks = iter(range(10**6))
    try:
        with make_sessionmaker(engine)() as session:
            played = play_season(
                session,
                name="parallel",
                strengths=STRENGTHS,
                matches=10,
                now=lambda: start + timedelta(minutes=next(ticks)),
                processes=processes,
            )
            rows = session.execute(
                select(
                    Match.id,
                    Match.seed,
                    Match.status,
                    Match.hands_played,
                    Match.rating_seq,
                    MatchSeat.seat,
                    MatchSeat.bot_version_id,
                    MatchSeat.score,
                    RatingChange.elo_after,
                    RatingChange.mu_after,
                )
                .join(MatchSeat, MatchSeat.match_id == Match.id)
                .join(
                    RatingChange,
                    (RatingChange.match_id == Match.id)
                    & (RatingChange.bot_version_id == MatchSeat.bot_version_id),
                )
                .order_by(Match.id, MatchSeat.seat)
            ).all()
    finally:
        engine.dispose()
    return played, [tuple(row) for row in rows]


def test_two_processes_play_the_same_season_as_one(tmp_path: Path) -> None:
    one, alone = _season(tmp_path / "one.db", processes=1)
    two, shared = _season(tmp_path / "two.db", processes=2)
    assert one.matches == two.matches >= 10
    assert one.hands == two.hands > one.matches
    assert len(alone) == 4 * one.matches  # every seat of every match, rated
    assert shared == alone
    assert two.play_seconds > 0  # the children's runner CPU is counted
