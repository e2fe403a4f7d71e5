"""Scheduling a season's round: load what matchmaking needs, store the matches, enqueue them.

`schedule_round(session, season_id, enqueue)` is one transaction holding the season's
row lock: three queries load the eligible entries with their ratings, the matches in
flight, and the recent rounds' line-ups; `arena.seasons.matchmaking` makes the tables;
two bulk inserts store the matches and their seats. Only after the commit is
`enqueue(match_ids)` called (the hook the workers provide), so a worker never receives a
match it cannot read yet, and a round that failed to commit enqueues nothing. If the
enqueue itself fails the matches stay queued in the database for the workers' reaper.

Seeds come from a generator seeded by (season, round): a round is reproducible.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from typing import Any, cast

from sqlalchemy import Table, func, select
from sqlalchemy.orm import Session

from arena.ratings.batch import elo_interval
from arena.ratings.elo import DEFAULT_ELO
from arena.ratings.uncertainty import sigma_as_elo
from arena.store.bulk import insert_rows
from arena.store.database import write_transaction
from arena.store.models import (
    IN_FLIGHT_MATCH_STATUSES,
    Bot,
    BotVersion,
    Match,
    MatchFormat,
    MatchSeat,
    MatchStatus,
    Rating,
    Season,
    SeasonEntry,
    SeasonStatus,
    VersionStatus,
)
from arena.store.types import utc_now

from .errors import SeasonError
from .leagues import league_round
from .matchmaking import History, MatchmakingSettings, Player, make_tables

_MATCHES = cast(Table, Match.__table__)
_SEATS = cast(Table, MatchSeat.__table__)

Enqueue = Callable[[Sequence[int]], None]
"""The workers' hook: put these match ids on the queue (called after commit)."""


@dataclasses.dataclass(frozen=True)
class RoundReport:
    """What `schedule_round` did; `skipped` says why no round was made."""

    season_id: int
    round_number: int | None
    tables: int
    match_ids: tuple[int, ...]
    skipped: str | None = None


def lock_season(session: Session, season_id: int) -> Season:
    """The season's row, locked for this transaction (SeasonError when there is none).

    `FOR NO KEY UPDATE` on PostgreSQL: it excludes the other season writers but not rows
    that merely refer to the season (new matches, entries). SQLite's IMMEDIATE
    transaction already holds the database's write lock.
    """
    season = session.scalars(
        select(Season)
        .where(Season.id == season_id)
        .with_for_update(key_share=True)
        .execution_options(populate_existing=True)
    ).one_or_none()
    if season is None:
        raise SeasonError(f"no season {season_id}")
    return season


def is_round_due(season: Season, now: datetime) -> bool:
    """Whether a running season's next round is due at `now` (one cadence after the last)."""
    if season.status is not SeasonStatus.RUNNING or not season.starts_at <= now < season.ends_at:
        return False
    cadence = timedelta(seconds=season.cadence_seconds)
    return season.last_round_at is None or season.last_round_at + cadence <= now


def schedule_round(
    session: Session,
    season_id: int,
    enqueue: Enqueue,
    *,
    now: datetime | None = None,
    only_if_due: bool = False,
) -> RoundReport:
    """Make the season's next round, commit it, then `enqueue(match_ids)`.

    Runs its own transaction (pass a session with none open). With `only_if_due` a season
    that is not running, or whose round is not due, is skipped; without it, such a
    season raises SeasonError.
    """
    when = now or utc_now()
    with write_transaction(session):
        season = lock_season(session, season_id)
        if season.status is not SeasonStatus.RUNNING:
            reason = f"the season is {season.status.value}"
            if only_if_due:
                return RoundReport(season_id, None, 0, (), skipped=reason)
            raise SeasonError(f"season {season.name!r}: {reason}, not running")
        if only_if_due and not is_round_due(season, when):
            return RoundReport(season_id, None, 0, (), skipped="not due")
        settings = MatchmakingSettings.from_dict(season.matchmaking)
        players, house = load_players(session, season, settings)
        history = load_history(session, season, settings)
        number = season.round_number + 1
        rng = random.Random(f"arena season {season.id} round {number}")
        tables = league_round(session, season, players, house, settings, history, rng=rng, now=when)
        if tables is None:  # a plain ladder, not a league season
            tables = make_tables(players, season.players, settings, history, house=house, rng=rng)
        match_ids = _insert_matches(
            session,
            season=season,
            number=number,
            tables=tables,
            settings=settings,
            rng=rng,
            when=when,
        )
        season.round_number = number
        season.last_round_at = when
    if match_ids:
        enqueue(match_ids)
    return RoundReport(season_id, number, len(tables), match_ids)


def load_players(
    session: Session, season: Season, settings: MatchmakingSettings
) -> tuple[list[Player], list[Player]]:
    """The season's eligible entrants and its house bots, as matchmaking players.

    Eligible: an active entry, a ready version, fewer than `max_in_flight` matches queued
    or running. A player's games count its rated tables and its tables in flight; its
    owner keeps two versions of one owner off one table, and its interval (Elo +- 1.96
    uncertainty) serves active table choice.
    """
    rows = session.execute(
        select(SeasonEntry.bot_version_id, Bot.is_house, Rating.elo, Rating.games)
        .add_columns(Bot.owner_id, Rating.sigma, Bot.trusted)
        .join(BotVersion, BotVersion.id == SeasonEntry.bot_version_id)
        .join(Bot, Bot.id == BotVersion.bot_id)
        .outerjoin(
            Rating,
            (Rating.season_id == SeasonEntry.season_id)
            & (Rating.bot_version_id == SeasonEntry.bot_version_id),
        )
        .where(
            SeasonEntry.season_id == season.id,
            SeasonEntry.active.is_(True),
            BotVersion.status == VersionStatus.READY,
        )
    ).all()
    in_flight: dict[int, int] = dict(
        session.execute(
            select(MatchSeat.bot_version_id, func.count())
            .join(Match, Match.id == MatchSeat.match_id)
            .where(Match.season_id == season.id, Match.status.in_(IN_FLIGHT_MATCH_STATUSES))
            .group_by(MatchSeat.bot_version_id)
        ).all()
    )
    players, house = [], []
    for version_id, is_house, elo, games, owner, sigma, trusted in rows:
        busy = in_flight.get(version_id, 0)
        rating = DEFAULT_ELO if elo is None else elo
        interval = None if sigma is None else elo_interval(rating, sigma_as_elo(sigma))
        player = Player(
            version_id,
            rating,
            (games or 0) + busy,
            # the platform's own bots (house fillers, demo players) collude with no one
            owner=None if is_house or trusted else owner,
            interval=interval,
        )
        if is_house:
            house.append(player)
        elif busy < settings.max_in_flight:
            players.append(player)
    return players, house


def load_history(session: Session, season: Season, settings: MatchmakingSettings) -> History:
    """The line-ups of the last `repeat_window_rounds` rounds."""
    if settings.repeat_window_rounds == 0 or season.round_number == 0:
        return History()
    rows = session.execute(
        select(MatchSeat.match_id, MatchSeat.bot_version_id)
        .join(Match, Match.id == MatchSeat.match_id)
        .where(
            Match.season_id == season.id,
            Match.round > season.round_number - settings.repeat_window_rounds,
        )
    )
    tables: dict[int, list[int]] = {}
    for match_id, version_id in rows:
        tables.setdefault(match_id, []).append(version_id)
    return History(tables.values())


def _insert_matches(
    session: Session,
    *,
    season: Season,
    number: int,
    tables: Sequence[tuple[int, ...]],
    settings: MatchmakingSettings,
    rng: random.Random,
    when: datetime,
) -> tuple[int, ...]:
    """Bulk-insert the round's matches and seats; their ids in table order.

    `insert_rows` sends each as one statement on PostgreSQL and in large batches on
    SQLite. The returned ids come in no particular order, so each is matched to its table
    by the table's number in the round (unique per season and round). With duplicate
    sets a table is still one match: the runner plays its rotations.
    """
    match_format = MatchFormat.DUPLICATE if settings.duplicate_sets else MatchFormat.SINGLE
    matches: list[dict[str, Any]] = [
        {
            "season_id": season.id,
            "ruleset_id": season.ruleset_id,
            "round": number,
            "table_number": index,
            "seed": rng.getrandbits(63),
            "format": match_format,
            "status": MatchStatus.QUEUED,
            "created_at": when,
        }
        for index in range(len(tables))
    ]
    if not matches:
        return ()
    ids_by_table = dict(insert_rows(session, _MATCHES, matches, returning=("table_number", "id")))
    ids = tuple(ids_by_table[index] for index in range(len(tables)))
    insert_rows(
        session,
        _SEATS,
        [
            {"match_id": match_id, "seat": seat, "bot_version_id": version_id}
            for match_id, seating in zip(ids, tables, strict=True)
            for seat, version_id in enumerate(seating)
        ],
    )
    return ids
