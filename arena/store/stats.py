"""Read-only statistics for the web pages: sorted ladder pages, play figures, bot histories.

Everything here only reads. The default ladder order (best Elo first) goes through
`arena.store.ladder.ladder`, which walks the `(season_id, elo, bot_version_id)` index; the
play figures of a page (points per hand, moons, faults) are then summed for that page's
versions only, from their seats (`match_seats.bot_version_id` is indexed), so a page of a
10,000-version season reads a few thousand seat rows. Sorting by a play figure has to sum
the whole season's seats first, and costs accordingly (docs/benchmarks.md).

A bot's figures (recent matches, head-to-head, per-seat) gather all of its versions.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any, Final

from sqlalchemy import ColumnElement, Select, SQLColumnExpression, and_, case, func, select
from sqlalchemy.orm import Session, aliased

from arena.ratings.batch import elo_interval, tie_groups
from arena.ratings.uncertainty import sigma_as_elo

from .ladder import ladder
from .models import (
    Bot,
    BotVersion,
    Match,
    MatchSeat,
    MatchStatus,
    Rating,
    RatingChange,
    Season,
    SeasonEntry,
    User,
)

LADDER_SORTS: Final = ("rank", "bot", "owner", "elo_error", "games", "points", "moons", "faults")
"""The orders a ladder page can be read in (`rank` is the Elo order, the indexed one)."""

DEFAULT_DESCENDING: Final = {
    "rank": False,
    "bot": False,
    "owner": False,
    "elo_error": False,
    "games": True,
    "points": False,  # fewer points per hand is better at Hearts
    "moons": True,
    "faults": False,
}
"""The natural direction of each order (best first)."""

PLAY_SORTS: Final = frozenset({"points", "moons", "faults"})
"""The orders that need every version's play figures (`season_play_table`)."""


@dataclasses.dataclass(frozen=True)
class PlayStats:
    """A version's play in a season (done matches): sums and the rates the ladder shows."""

    matches: int = 0
    hands: int = 0
    points: int = 0
    moons: int = 0
    faults: int = 0

    @property
    def points_per_hand(self) -> float | None:
        """Average points taken per hand (None before any hand)."""
        return self.points / self.hands if self.hands else None

    @property
    def faults_per_100_hands(self) -> float | None:
        """Faults per hundred hands played (None before any hand)."""
        return 100.0 * self.faults / self.hands if self.hands else None


@dataclasses.dataclass(frozen=True)
class LadderLine:
    """One line of a ladder page: the rating, who it is, and the play figures."""

    rank: int
    bot_version_id: int
    bot_id: int
    bot_name: str
    version: int
    owner: str
    is_house: bool
    elo: float
    sigma: float
    games: int
    provisional: bool
    settled: bool | None  # None when the page is not in Elo order (it needs the neighbours)
    stats: PlayStats
    is_demo: bool = False  # a demo player: the platform's own bot, ranked like a contestant
    tie_first: int | None = None  # the Elo ranks this line cannot be told apart from
    tie_last: int | None = None

    @property
    def elo_error(self) -> float:
        """The rating's uncertainty in Elo points (one standard deviation)."""
        return sigma_as_elo(self.sigma)

    @property
    def interval(self) -> tuple[float, float]:
        """A 95 % interval for the Elo (Elo +- 1.96 uncertainties)."""
        return elo_interval(self.elo, self.elo_error)

    @property
    def tie_label(self) -> str | None:
        """ "3" or "3-5": the tie group's ranks (None when unknown)."""
        return tie_label(self.tie_first, self.tie_last)


def _line(
    rating: Rating,
    rank: int,
    names: Sequence[Any],
    stats: PlayStats,
    settled: bool | None = None,
) -> LadderLine:
    """A ladder line from a version's rating, its Elo rank, and (version number, bot id, bot
    name, is_house, owner, trusted), the columns every ladder query joins in."""
    number, bot_id, bot_name, is_house, owner, trusted = names
    return LadderLine(
        rank=rank,
        bot_version_id=rating.bot_version_id,
        bot_id=bot_id,
        bot_name=bot_name,
        version=number,
        owner=owner,
        is_house=is_house,
        elo=rating.elo,
        sigma=rating.sigma,
        games=rating.games,
        provisional=rating.provisional,
        settled=settled,
        stats=stats,
        is_demo=trusted and not is_house,
    )


@dataclasses.dataclass(frozen=True)
class LadderPage:
    """A page of a ladder, in the order asked for, and how many lines the ladder has."""

    lines: tuple[LadderLine, ...]
    total: int
    sort: str
    descending: bool


def _stats_query(
    season_id: int, *, whole_season: bool = False
) -> Select[int, int, int | None, int | None, int, int]:
    # For the whole season, group by `bot_version_id + 0`: reading the seats match by match
    # and grouping in a temporary tree is four times faster on SQLite than walking the
    # version index, which fetches the 400,000 seat rows of a large season one by one.
    version = MatchSeat.bot_version_id + 0 if whole_season else MatchSeat.bot_version_id
    return (
        select(
            version.label("version_id"),
            func.count().label("matches"),
            func.coalesce(func.sum(Match.hands_played), 0).label("hands"),
            func.coalesce(func.sum(MatchSeat.score), 0).label("points"),
            func.coalesce(func.sum(MatchSeat.moons), 0).label("moons"),
            func.coalesce(func.sum(MatchSeat.faults), 0).label("faults"),
        )
        .join(Match, Match.id == MatchSeat.match_id)
        .where(Match.season_id == season_id, Match.status == MatchStatus.DONE)
        .group_by(version)
    )


def season_play_stats(
    session: Session, season_id: int, version_ids: Iterable[int]
) -> dict[int, PlayStats]:
    """The play figures of `version_ids` in the season (versions with no match are absent)."""
    ids = sorted(set(version_ids))
    if not ids:
        return {}
    statement = _stats_query(season_id).where(MatchSeat.bot_version_id.in_(ids))
    return {
        row.version_id: PlayStats(row.matches, row.hands, row.points, row.moons, row.faults)
        for row in session.execute(statement)
    }


def season_play_table(session: Session, season_id: int) -> dict[int, PlayStats]:
    """The play figures of every version in the season: one pass over its seats.

    About a second for a season of 100,000 matches on SQLite: callers that sort a ladder
    by these figures keep the table for a while (the web site caches it for a minute).
    """
    return {
        row.version_id: PlayStats(row.matches, row.hands, row.points, row.moons, row.faults)
        for row in session.execute(_stats_query(season_id, whole_season=True))
    }


def _ranked(season_id: int) -> tuple[ColumnElement[bool], ...]:
    """The conditions of a ladder line (the query joins Rating, SeasonEntry and Bot)."""
    return (
        Rating.season_id == season_id,
        SeasonEntry.active.is_(True),
        Bot.is_house.is_(False),
    )


def ladder_size(session: Session, season_id: int) -> int:
    """How many lines the season's ladder has (rated, active entries; house bots take no
    rank, so they are not counted)."""
    statement = (
        select(func.count())
        .select_from(Rating)
        .join(
            SeasonEntry,
            (SeasonEntry.season_id == Rating.season_id)
            & (SeasonEntry.bot_version_id == Rating.bot_version_id),
        )
        .join(BotVersion, BotVersion.id == Rating.bot_version_id)
        .join(Bot, Bot.id == BotVersion.bot_id)
        .where(*_ranked(season_id))
    )
    return int(session.scalar(statement) or 0)


def ladder_page(
    session: Session,
    season_id: int,
    *,
    sort: str = "rank",
    descending: bool | None = None,
    limit: int = 50,
    offset: int = 0,
    play_table: Mapping[int, PlayStats] | None = None,
) -> LadderPage:
    """Lines `offset+1 … offset+limit` of the season's ladder in the order `sort`.

    `rank` is always the Elo rank, whatever the order. `descending` None takes the
    order's natural direction (`DEFAULT_DESCENDING`). Sorting by a play figure (`points`,
    `moons`, `faults`) needs every version's figures: pass `play_table`
    (`season_play_table`, perhaps kept from an earlier call) or it is computed. Raises
    ValueError for an unknown order, a negative offset or a limit below 1.
    """
    if sort not in LADDER_SORTS:
        raise ValueError(f"unknown ladder order {sort!r}; known: {', '.join(LADDER_SORTS)}")
    if limit < 1 or offset < 0:
        raise ValueError(f"limit must be >= 1 and offset >= 0, not {limit} and {offset}")
    page = _ladder_page(session, season_id, sort, descending, limit, offset, play_table)
    groups = elo_tie_groups(session, season_id)
    lines = tuple(
        dataclasses.replace(
            line, tie_first=groups[line.rank - 1][0], tie_last=groups[line.rank - 1][1]
        )
        if 0 < line.rank <= len(groups)
        else line
        for line in page.lines
    )
    return dataclasses.replace(page, lines=lines)


def elo_tie_groups(session: Session, season_id: int) -> list[tuple[int, int]]:
    """Every Elo rank's tie group (first, last rank), from the 95 % Elo intervals of the
    whole ladder: a group can reach past a page, so two numbers per row are read for every
    ladder line (`_ranked`: house fillers are rated but take no rank, so they neither
    stretch a group nor shift the ranks it is counted in)."""
    rows = session.execute(
        select(Rating.elo, Rating.sigma)
        .join(
            SeasonEntry,
            (SeasonEntry.season_id == Rating.season_id)
            & (SeasonEntry.bot_version_id == Rating.bot_version_id),
        )
        .join(BotVersion, BotVersion.id == Rating.bot_version_id)
        .join(Bot, Bot.id == BotVersion.bot_id)
        .where(*_ranked(season_id))
        .order_by(Rating.elo.desc(), Rating.bot_version_id.desc())
    ).all()
    return tie_groups([elo_interval(elo, sigma_as_elo(sigma)) for elo, sigma in rows])


def tie_label(first: int | None, last: int | None) -> str | None:
    """ "3", "3-5", or None when the group is unknown."""
    if first is None or last is None:
        return None
    return str(first) if first == last else f"{first}\u2013{last}"


def _ladder_page(
    session: Session,
    season_id: int,
    sort: str,
    descending: bool | None,
    limit: int,
    offset: int,
    play_table: Mapping[int, PlayStats] | None,
) -> LadderPage:
    """`ladder_page` without the tie groups."""
    natural = DEFAULT_DESCENDING[sort]
    down = natural if descending is None else descending
    total = ladder_size(session, season_id)
    if sort == "rank" and not down:
        rows = ladder(session, season_id, limit=limit, offset=offset)
        stats = season_play_stats(session, season_id, (row.bot_version_id for row in rows))
        lines = tuple(
            LadderLine(
                rank=row.rank,
                bot_version_id=row.bot_version_id,
                bot_id=row.bot_id,
                bot_name=row.bot_name,
                version=row.version,
                owner=row.owner,
                is_house=row.is_house,
                elo=row.elo,
                sigma=row.sigma,
                games=row.games,
                provisional=row.provisional,
                settled=row.settled,
                stats=stats.get(row.bot_version_id, PlayStats()),
                is_demo=row.is_demo,
            )
            for row in rows
        )
        return LadderPage(lines, total, sort, down)
    if sort in PLAY_SORTS:
        table = season_play_table(session, season_id) if play_table is None else play_table
        lines = _lines_by_play(session, season_id, sort, down, limit, offset, table)
        return LadderPage(lines, total, sort, down)
    return LadderPage(
        _sorted_lines(session, season_id, sort, down, limit, offset), total, sort, down
    )


def _sorted_lines(
    session: Session, season_id: int, sort: str, down: bool, limit: int, offset: int
) -> tuple[LadderLine, ...]:
    """A page in an order other than best-Elo-first: rank by window function, then sort."""
    position = (
        func.row_number()
        .over(order_by=(Rating.elo.desc(), Rating.bot_version_id.desc()))
        .label("position")
    )
    ranked = (
        select(Rating, position)
        .join(
            SeasonEntry,
            (SeasonEntry.season_id == Rating.season_id)
            & (SeasonEntry.bot_version_id == Rating.bot_version_id),
        )
        .join(BotVersion, BotVersion.id == Rating.bot_version_id)
        .join(Bot, Bot.id == BotVersion.bot_id)
        .where(*_ranked(season_id))
        .subquery("ranked")
    )
    rated = aliased(Rating, ranked)
    statement = (
        select(rated, ranked.c.position, BotVersion.number, Bot.id, Bot.name, Bot.is_house)
        .add_columns(User.username, Bot.trusted)
        .join(BotVersion, BotVersion.id == rated.bot_version_id)
        .join(Bot, Bot.id == BotVersion.bot_id)
        .join(User, User.id == Bot.owner_id)
    )
    key: SQLColumnExpression[Any] = {
        "rank": ranked.c.position,
        "bot": func.lower(Bot.name),
        "owner": func.lower(User.username),
        "elo_error": rated.sigma,
        "games": rated.games,
    }[sort]
    ordered = key.desc() if down else key.asc()
    statement = (
        statement.order_by(ordered.nulls_last(), ranked.c.position).offset(offset).limit(limit)
    )
    rows = session.execute(statement).all()
    stats = season_play_stats(session, season_id, (row[0].bot_version_id for row in rows))
    return tuple(
        _line(rating, position, names, stats.get(rating.bot_version_id, PlayStats()))
        for rating, position, *names in rows
    )


def _play_key(sort: str, stats: PlayStats | None) -> float | None:
    if stats is None:
        return None if sort != "moons" else 0.0
    if sort == "points":
        return stats.points_per_hand
    if sort == "faults":
        return stats.faults_per_100_hands
    return float(stats.moons)


def _lines_by_play(
    session: Session,
    season_id: int,
    sort: str,
    down: bool,
    limit: int,
    offset: int,
    table: Mapping[int, PlayStats],
) -> tuple[LadderLine, ...]:
    """A page in a play figure's order: the season's versions in Elo order (ids only, from
    the index), sorted here by the figure (unknown figures last, ties by Elo), then the
    page's lines read in full."""
    order = session.scalars(
        select(Rating.bot_version_id)
        .join(
            SeasonEntry,
            (SeasonEntry.season_id == Rating.season_id)
            & (SeasonEntry.bot_version_id == Rating.bot_version_id),
        )
        .join(BotVersion, BotVersion.id == Rating.bot_version_id)
        .join(Bot, Bot.id == BotVersion.bot_id)
        .where(*_ranked(season_id))
        .order_by(Rating.elo.desc(), Rating.bot_version_id.desc())
    ).all()
    sign = -1.0 if down else 1.0
    keyed = []
    for position, version_id in enumerate(order, start=1):
        value = _play_key(sort, table.get(version_id))
        keyed.append((value is None, 0.0 if value is None else sign * value, position, version_id))
    keyed.sort()
    page = [(position, version_id) for _, _, position, version_id in keyed[offset : offset + limit]]
    ids = [version_id for _, version_id in page]
    rows = {
        rating.bot_version_id: (rating, tuple(names))
        for rating, *names in session.execute(
            select(Rating, BotVersion.number, Bot.id, Bot.name, Bot.is_house, User.username)
            .add_columns(Bot.trusted)
            .join(BotVersion, BotVersion.id == Rating.bot_version_id)
            .join(Bot, Bot.id == BotVersion.bot_id)
            .join(User, User.id == Bot.owner_id)
            .where(Rating.season_id == season_id, Rating.bot_version_id.in_(ids))
        )
    }
    return tuple(
        _line(
            rows[version_id][0], position, rows[version_id][1], table.get(version_id, PlayStats())
        )
        for position, version_id in page
    )


# -- a bot's history ----------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class RatingPoint:
    """A version's Elo after one rated match."""

    match_id: int
    bot_version_id: int
    elo: float
    games: int
    at: datetime


def rating_history(
    session: Session, season_id: int, version_ids: Sequence[int], *, limit: int = 1000
) -> list[RatingPoint]:
    """The Elo after each rated match of these versions in the season, oldest first
    (the last `limit` points)."""
    if not version_ids:
        return []
    statement = (
        select(RatingChange)
        .where(
            RatingChange.season_id == season_id,
            RatingChange.bot_version_id.in_(list(version_ids)),
        )
        .order_by(RatingChange.id.desc())
        .limit(limit)
    )
    changes = list(session.scalars(statement))
    changes.reverse()
    return [
        RatingPoint(c.match_id, c.bot_version_id, c.elo_after, c.games_after, c.created_at)
        for c in changes
    ]


def bot_seasons(session: Session, bot_id: int) -> list[Season]:
    """The seasons any version of the bot was entered in, newest first."""
    statement = (
        select(Season)
        .where(
            Season.id.in_(
                select(SeasonEntry.season_id)
                .join(BotVersion, BotVersion.id == SeasonEntry.bot_version_id)
                .where(BotVersion.bot_id == bot_id)
            )
        )
        .order_by(Season.starts_at.desc(), Season.id.desc())
    )
    return list(session.scalars(statement))


@dataclasses.dataclass(frozen=True)
class MatchLine:
    """A match a bot played: where it sat and how it did."""

    match_id: int
    season_id: int | None
    status: MatchStatus
    finished_at: datetime | None
    created_at: datetime
    bot_version_id: int
    version: int
    seat: int
    score: int | None
    rank: int | None
    faults: int
    players: int


def recent_matches(
    session: Session, bot_id: int, *, limit: int = 20, offset: int = 0
) -> list[MatchLine]:
    """The bot's matches (any version, any status), newest first."""
    players = (
        select(func.count())
        .select_from(MatchSeat)
        .where(MatchSeat.match_id == Match.id)
        .correlate(Match)
        .scalar_subquery()
    )
    statement = (
        select(Match, MatchSeat, BotVersion.number, players)
        .join(MatchSeat, MatchSeat.match_id == Match.id)
        .join(BotVersion, BotVersion.id == MatchSeat.bot_version_id)
        .where(BotVersion.bot_id == bot_id)
        .order_by(Match.id.desc())
        .offset(offset)
        .limit(limit)
    )
    return [
        MatchLine(
            match_id=match.id,
            season_id=match.season_id,
            status=match.status,
            finished_at=match.finished_at,
            created_at=match.created_at,
            bot_version_id=seat.bot_version_id,
            version=number,
            seat=seat.seat,
            score=seat.score,
            rank=seat.rank,
            faults=seat.faults,
            players=count,
        )
        for match, seat, number, count in session.execute(statement)
    ]


@dataclasses.dataclass(frozen=True)
class HeadToHead:
    """A bot against one opponent bot over the matches they shared (done matches)."""

    opponent_bot_id: int
    opponent: str
    owner: str
    matches: int
    ahead: int  # the bot placed better
    behind: int
    level: int
    points_for: int
    points_against: int


def head_to_head(session: Session, bot_id: int, *, limit: int = 20) -> list[HeadToHead]:
    """The bot against each opponent bot it met most often (most shared matches first)."""
    mine, theirs = aliased(MatchSeat), aliased(MatchSeat)
    my_version, their_version = aliased(BotVersion), aliased(BotVersion)
    statement = (
        select(
            Bot.id,
            Bot.name,
            User.username,
            func.count(),
            func.sum(case((mine.rank < theirs.rank, 1), else_=0)),
            func.sum(case((mine.rank > theirs.rank, 1), else_=0)),
            func.sum(case((mine.rank == theirs.rank, 1), else_=0)),
            func.coalesce(func.sum(mine.score), 0),
            func.coalesce(func.sum(theirs.score), 0),
        )
        .select_from(mine)
        .join(my_version, my_version.id == mine.bot_version_id)
        .join(Match, Match.id == mine.match_id)
        .join(theirs, and_(theirs.match_id == mine.match_id, theirs.seat != mine.seat))
        .join(their_version, their_version.id == theirs.bot_version_id)
        .join(Bot, Bot.id == their_version.bot_id)
        .join(User, User.id == Bot.owner_id)
        .where(my_version.bot_id == bot_id, Bot.id != bot_id, Match.status == MatchStatus.DONE)
        .group_by(Bot.id, Bot.name, User.username)
        .order_by(func.count().desc(), Bot.id)
        .limit(limit)
    )
    return [
        HeadToHead(*(row[:3]), *(int(x or 0) for x in row[3:]))
        for row in session.execute(statement)
    ]


@dataclasses.dataclass(frozen=True)
class SeatStats:
    """How a bot did from one seat (in a duplicate set: its first-rotation seat)."""

    seat: int
    matches: int
    wins: int
    average_rank: float
    average_score: float
    faults: int


def seat_stats(session: Session, bot_id: int) -> list[SeatStats]:
    """The bot's done matches grouped by the seat it sat in, seat order."""
    statement = (
        select(
            MatchSeat.seat,
            func.count(),
            func.sum(case((MatchSeat.rank == 1, 1), else_=0)),
            func.avg(MatchSeat.rank),
            func.avg(MatchSeat.score),
            func.coalesce(func.sum(MatchSeat.faults), 0),
        )
        .join(BotVersion, BotVersion.id == MatchSeat.bot_version_id)
        .join(Match, Match.id == MatchSeat.match_id)
        .where(BotVersion.bot_id == bot_id, Match.status == MatchStatus.DONE)
        .group_by(MatchSeat.seat)
        .order_by(MatchSeat.seat)
    )
    return [
        SeatStats(seat, count, int(wins or 0), float(rank or 0), float(score or 0), int(faults))
        for seat, count, wins, rank, score, faults in session.execute(statement)
    ]


@dataclasses.dataclass(frozen=True)
class FinalLine:
    """A finished season's frozen result for one entry."""

    rank: int
    bot_version_id: int
    bot_id: int
    bot_name: str
    version: int
    owner: str
    is_house: bool
    elo: float | None
    games: int
    points: float | None = None  # the batch fit's points per hand against the field
    low: float | None = None  # its 95 % interval
    high: float | None = None
    tie_first: int | None = None
    tie_last: int | None = None
    is_demo: bool = False  # a demo player: the platform's own bot, ranked like a contestant

    @property
    def tie_label(self) -> str | None:
        """ "3" or "3-5": the places this entry cannot be told apart from."""
        return tie_label(self.tie_first, self.tie_last)


def final_results(
    session: Session, season_id: int, *, limit: int = 100, offset: int = 0
) -> list[FinalLine]:
    """The frozen final places of a finished season (ranked entries, best first)."""
    statement = (
        select(SeasonEntry, BotVersion.number, Bot.id, Bot.name, Bot.is_house, User.username)
        .add_columns(Bot.trusted)
        .join(BotVersion, BotVersion.id == SeasonEntry.bot_version_id)
        .join(Bot, Bot.id == BotVersion.bot_id)
        .join(User, User.id == Bot.owner_id)
        .where(SeasonEntry.season_id == season_id, SeasonEntry.final_rank.is_not(None))
        .order_by(SeasonEntry.final_rank)
        .offset(offset)
        .limit(limit)
    )
    return [
        FinalLine(
            rank=entry.final_rank or 0,
            bot_version_id=entry.bot_version_id,
            bot_id=bot_id,
            bot_name=name,
            version=number,
            owner=owner,
            is_house=is_house,
            elo=entry.final_elo,
            games=entry.final_games or 0,
            points=entry.final_points,
            low=entry.final_low,
            high=entry.final_high,
            tie_first=entry.final_tie_first,
            tie_last=entry.final_tie_last,
            is_demo=trusted and not is_house,
        )
        for entry, number, bot_id, name, is_house, owner, trusted in session.execute(statement)
    ]


def season_counts(session: Session, season_id: int) -> dict[str, int]:
    """A season's figures as its page shows them, agreeing with its ladder.

    `ranked`: the ladder's lines (rated, active contestants' entries); `waiting`: active
    contestants' entries with no rated game yet; `house`: the house bots that may fill
    empty seats; `matches_<status>`: matches by status.
    """
    active = (
        select(Bot.is_house, Rating.id.is_not(None), func.count())
        .select_from(SeasonEntry)
        .join(BotVersion, BotVersion.id == SeasonEntry.bot_version_id)
        .join(Bot, Bot.id == BotVersion.bot_id)
        .outerjoin(
            Rating,
            (Rating.season_id == SeasonEntry.season_id)
            & (Rating.bot_version_id == SeasonEntry.bot_version_id),
        )
        .where(SeasonEntry.season_id == season_id, SeasonEntry.active.is_(True))
        .group_by(Bot.is_house, Rating.id.is_not(None))
    )
    counts = {"ranked": 0, "waiting": 0, "house": 0}
    for is_house, rated, count in session.execute(active):
        key = "house" if is_house else "ranked" if rated else "waiting"
        counts[key] += int(count)
    for status, count in session.execute(
        select(Match.status, func.count())
        .where(Match.season_id == season_id)
        .group_by(Match.status)
    ):
        counts[f"matches_{MatchStatus(status).value}"] = int(count)
    return counts
