"""Recording a match's result: once, in one transaction, with the season's ratings.

The match runner (a worker) calls `record_match_result(session, match_id, result)` with a
`MatchResult`. In one transaction it stores every seat's result, the replay (compressed
bytes kept as they are, with their SHA-256) and the match's timings and status, and, for
a match of a running season, applies the rating update and appends the rating history.

Idempotent: the first call moves the match from queued/running to done (or void); every
later call finds it already recorded and changes nothing. Two processes recording the
same match at once serialise on the match row, so exactly one of them writes.

Two matches of one season finishing at once both count: the rating update holds the
season's row lock (`SELECT ... FOR NO KEY UPDATE` on PostgreSQL; on SQLite the whole
transaction is `BEGIN IMMEDIATE`), so updates to one season are applied one after the
other, each reading the ratings the previous one wrote. Each rated match gets the next
`rating_seq` of its season: the order in which ratings were applied is recorded, and
`arena.store.ladder.recompute_ratings` replays the history in that order to the same
numbers. Locks are always taken season first, then match, so recorders and the season's
own transitions (rounds, finishing) never deadlock.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from datetime import datetime
from itertools import zip_longest
from typing import TYPE_CHECKING, Any

from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from arena.match.replay import dumps as replay_dumps
from arena.ratings.elo import DEFAULT_SETTINGS, EloRating, EloSettings, rate_table
from arena.ratings.uncertainty import DEFAULT_SKILL, Skill, rate_skills

from .bots import sha256_hex
from .database import write_transaction
from .models import (
    TERMINAL_MATCH_STATUSES,
    Match,
    MatchStatus,
    Rating,
    RatingChange,
    Replay,
    Season,
    SeasonStatus,
)
from .types import utc_now

if TYPE_CHECKING:
    from arena.match.runner import MatchOutcome


class MatchResultError(ValueError):
    """A result that does not fit its match (our bug, not a bot's fault)."""


class MatchNotFoundError(LookupError):
    """No match with that id."""


@dataclasses.dataclass(frozen=True)
class SeatResult:
    """One seat's result: who sat there, final score, place (1 = best, ties share), faults."""

    bot_version_id: int
    score: int
    rank: int
    faults: int = 0
    disqualified: bool = False
    moons: int = 0
    hand_points: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if self.rank < 1:
            raise MatchResultError(f"seat of version {self.bot_version_id}: rank {self.rank} < 1")
        if self.faults < 0 or self.moons < 0:
            raise MatchResultError(f"seat of version {self.bot_version_id}: negative counts")


@dataclasses.dataclass(frozen=True)
class MatchResult:
    """What the match runner hands over: seats in seat order, the replay, the timings.

    `replay` is the replay document already compressed (`replay_encoding`, gzip by
    default); it is stored byte for byte. A `void` match is stored but never rated.
    """

    seats: tuple[SeatResult, ...]
    hands_played: int
    replay: bytes | None
    started_at: datetime
    finished_at: datetime
    void: bool = False
    reason: str | None = None
    replay_encoding: str = "gzip"

    def __post_init__(self) -> None:
        if not self.seats:
            raise MatchResultError("a result needs its seats")
        if self.started_at.tzinfo is None or self.finished_at.tzinfo is None:
            raise MatchResultError("started_at and finished_at must be timezone-aware")
        if self.finished_at < self.started_at:
            raise MatchResultError("finished_at is before started_at")
        if self.hands_played < 0:
            raise MatchResultError(f"hands_played {self.hands_played} < 0")


def hand_points(replay: dict[str, Any], entrant: int) -> tuple[int, ...]:
    """The entrant's points per hand (in a duplicate set: summed over the rotations).

    >>> game = {"seating": [1, 0], "hands": [{"points": [3, 10]}, {"points": [0, 13]}]}
    >>> hand_points({"games": [game]}, 0)
    (10, 13)
    """
    per_game = []
    for game in replay["games"]:
        seat = game["seating"].index(entrant)
        per_game.append([hand["points"][seat] for hand in game["hands"]])
    return tuple(sum(points) for points in zip_longest(*per_game, fillvalue=0))


def outcome_result(
    outcome: MatchOutcome,
    version_ids: Sequence[int],
    started_at: datetime,
    finished_at: datetime,
) -> MatchResult:
    """The `MatchResult` of a runner's outcome whose entrant i is the bot version
    `version_ids[i]`: what a worker records, and what the benches and the open data's
    played seasons record the same way (hands played: every game's, duplicate rotations
    included)."""
    replay = outcome.replay
    return MatchResult(
        seats=tuple(
            SeatResult(
                bot_version_id=version_ids[result.entrant],
                score=result.score,
                rank=result.rank,
                faults=result.faults,
                disqualified=result.disqualified,
                moons=result.moons,
                hand_points=hand_points(replay, result.entrant),
            )
            for result in outcome.results
        ),
        hands_played=sum(len(game["hands"]) for game in replay["games"]),
        replay=replay_dumps(replay),
        started_at=started_at,
        finished_at=finished_at,
        void=outcome.void,
        reason=outcome.void_reason,
    )


@dataclasses.dataclass(frozen=True)
class EloUpdate:
    """One bot version's Elo before and after a rated match."""

    bot_version_id: int
    before: float
    after: float


@dataclasses.dataclass(frozen=True)
class RecordOutcome:
    """What `record_match_result` did: `recorded` is False when it had been recorded before."""

    match_id: int
    recorded: bool
    status: MatchStatus
    rated: bool
    rating_seq: int | None = None
    updates: tuple[EloUpdate, ...] = ()


def rating_places(seats: Sequence[SeatResult]) -> tuple[int, ...]:
    """The places the ratings use: the ranks, but a disqualified seat below every other.

    >>> rating_places([SeatResult(1, 50, 2), SeatResult(2, 20, 1, disqualified=True)])
    (1, 2)
    """
    keys = [(seat.disqualified, seat.rank) for seat in seats]
    return tuple(1 + sum(other < key for other in keys) for key in keys)


def _lock_season(session: Session, season_id: int) -> Season:
    statement = (
        select(Season)
        .where(Season.id == season_id)
        .with_for_update(key_share=True)
        .execution_options(populate_existing=True)
    )
    return session.scalars(statement).one()


def _lock_match(session: Session, match_id: int) -> Match:
    statement = (
        select(Match)
        .where(Match.id == match_id)
        .with_for_update()
        .options(selectinload(Match.seats))
        .execution_options(populate_existing=True)
    )
    return session.scalars(statement).one()


def record_match_result(
    session: Session,
    match_id: int,
    result: MatchResult,
    *,
    settings: EloSettings = DEFAULT_SETTINGS,
    now: datetime | None = None,
) -> RecordOutcome:
    """Store `result` for match `match_id` and rate it; a second call changes nothing.

    Runs its own transaction and commits: pass a session with no transaction open.
    Raises MatchNotFoundError for an unknown match, MatchResultError when the result's
    seats are not the match's seats, RuntimeError when `session` is already in a
    transaction.
    """
    with write_transaction(session):
        season_id = session.scalar(select(Match.season_id).where(Match.id == match_id))
        if season_id is None and session.get(Match, match_id) is None:
            raise MatchNotFoundError(f"no match {match_id}")
        season = None if season_id is None else _lock_season(session, season_id)
        match = _lock_match(session, match_id)
        if match.status in TERMINAL_MATCH_STATUSES:
            return RecordOutcome(
                match_id, False, match.status, match.rating_seq is not None, match.rating_seq
            )
        _store(session, match, result, now or utc_now())
        if match.status is MatchStatus.DONE and season is not None:
            if season.status is SeasonStatus.RUNNING:
                updates = _rate(session, season, match, result, settings)
                return RecordOutcome(match_id, True, match.status, True, match.rating_seq, updates)
            match.status_reason = f"not rated: the season was {season.status.value}"
        return RecordOutcome(match_id, True, match.status, False)


def _store(session: Session, match: Match, result: MatchResult, now: datetime) -> None:
    expected = [seat.bot_version_id for seat in match.seats]
    given = [seat.bot_version_id for seat in result.seats]
    if expected != given:
        raise MatchResultError(
            f"match {match.id} seats versions {expected}, the result has {given}"
        )
    for seat, seat_result in zip(match.seats, result.seats, strict=True):
        seat.score = seat_result.score
        seat.rank = seat_result.rank
        seat.faults = seat_result.faults
        seat.disqualified = seat_result.disqualified
        seat.moons = seat_result.moons
        seat.hand_points = list(seat_result.hand_points)
    if result.replay is not None:
        session.add(
            Replay(
                match_id=match.id,
                sha256=sha256_hex(result.replay),
                encoding=result.replay_encoding,
                size=len(result.replay),
                content=result.replay,
            )
        )
    match.hands_played = result.hands_played
    match.started_at = result.started_at
    match.finished_at = result.finished_at
    match.recorded_at = now
    match.status = MatchStatus.VOID if result.void else MatchStatus.DONE
    match.status_reason = result.reason


def _rate(
    session: Session,
    season: Season,
    match: Match,
    result: MatchResult,
    settings: EloSettings,
) -> tuple[EloUpdate, ...]:
    """Apply one match to its season's ratings (the caller holds the season's lock)."""
    ids = [seat.bot_version_id for seat in result.seats]
    rows = {
        row.bot_version_id: row
        for row in session.scalars(
            select(Rating)
            .where(Rating.season_id == season.id, Rating.bot_version_id.in_(ids))
            .execution_options(populate_existing=True)
        )
    }
    for version_id in ids:
        if version_id not in rows:
            rows[version_id] = new_rating(season.id, version_id, settings)
            session.add(rows[version_id])
    ratings = [rows[version_id] for version_id in ids]
    places = rating_places(result.seats)
    elos = rate_table([EloRating(r.elo, r.games) for r in ratings], places, settings)
    skills = rate_skills([Skill(r.mu, r.sigma) for r in ratings], places)
    season.rated_matches += 1
    match.rating_seq = season.rated_matches
    updates = []
    for row, elo, skill in zip(ratings, elos, skills, strict=True):
        updates.append(EloUpdate(row.bot_version_id, row.elo, elo.elo))
        session.add(
            RatingChange(
                match_id=match.id,
                season_id=season.id,
                bot_version_id=row.bot_version_id,
                elo_before=row.elo,
                elo_after=elo.elo,
                mu_after=skill.mu,
                sigma_after=skill.sigma,
                games_after=elo.games,
            )
        )
        row.elo, row.games = elo.elo, elo.games
        row.provisional = elo.is_provisional(settings)
        row.mu, row.sigma = skill.mu, skill.sigma
        row.last_match_id = match.id
        row.updated_at = match.recorded_at or utc_now()
    return tuple(updates)


def new_rating(season_id: int, bot_version_id: int, settings: EloSettings) -> Rating:
    """The rating every bot version starts a season with."""
    start = EloRating()
    return Rating(
        season_id=season_id,
        bot_version_id=bot_version_id,
        elo=start.elo,
        games=0,
        provisional=start.is_provisional(settings),
        mu=DEFAULT_SKILL.mu,
        sigma=DEFAULT_SKILL.sigma,
    )


def start_match(session: Session, match_id: int, *, now: datetime | None = None) -> bool:
    """Mark a queued match running (its own transaction); False if it was not queued.

    A worker that gets False does not run the match: another worker has it, it was
    recorded already, or the season voided it.
    """
    with write_transaction(session):
        match = session.scalars(
            select(Match).where(Match.id == match_id).with_for_update()
        ).one_or_none()
        if match is None:
            raise MatchNotFoundError(f"no match {match_id}")
        if match.status is not MatchStatus.QUEUED:
            return False
        match.status = MatchStatus.RUNNING
        match.started_at = now or utc_now()
        return True


def fail_match(
    session: Session, match_id: int, reason: str, *, now: datetime | None = None
) -> bool:
    """Mark an unfinished match failed with `reason` (its own transaction).

    For our own errors; a bot's faults are part of a result instead. False if the match had
    already ended (recorded, void or failed): nothing is changed then.
    """
    with write_transaction(session):
        match = session.scalars(
            select(Match).where(Match.id == match_id).with_for_update()
        ).one_or_none()
        if match is None:
            raise MatchNotFoundError(f"no match {match_id}")
        if match.status in TERMINAL_MATCH_STATUSES:
            return False
        match.status = MatchStatus.FAILED
        match.status_reason = reason
        match.finished_at = now or utc_now()
        return True
