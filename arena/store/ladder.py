"""Reading ratings: a season's ladder (one indexed query) and the ratings replayed from history.

`ladder` reads the rows in Elo order from the `(season_id, elo, bot_version_id)` index and
joins each to its bot, owner and entry, so the top 100 of a 10,000-version season costs a
hundred index steps, not a sort of the season. Each row carries its certainty (the
Plackett-Luce sigma in Elo points) and whether its place is settled
(`arena.ratings.uncertainty.settled_ranks`, which needs the rows on either side; one extra
row is read at each end of the page for that).

House bots only fill empty seats: they are rated (their opponents' ratings need theirs)
but never take a rank; `house_rows` lists them apart.
"""

from __future__ import annotations

import dataclasses

from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from arena.ratings.elo import DEFAULT_SETTINGS, EloRating, EloSettings, rate_table
from arena.ratings.uncertainty import Skill, settled_ranks, sigma_as_elo

from .models import Bot, BotVersion, Match, Rating, SeasonEntry, User
from .results import SeatResult, rating_places


@dataclasses.dataclass(frozen=True)
class LadderRow:
    """One line of a season's ladder."""

    rank: int
    bot_version_id: int
    bot_id: int
    bot_name: str
    version: int
    owner: str
    is_house: bool
    elo: float
    games: int
    provisional: bool
    mu: float
    sigma: float
    settled: bool
    is_demo: bool = False  # a demo player: the platform's own bot, ranked like a contestant

    @property
    def elo_error(self) -> float:
        """The rating's uncertainty in Elo points (one standard deviation)."""
        return sigma_as_elo(self.sigma)


def ladder(
    session: Session, season_id: int, *, limit: int = 100, offset: int = 0
) -> list[LadderRow]:
    """Rows `offset+1 … offset+limit` of the season's ladder (active entries of contestants'
    bots, best Elo first; house bots take no rank).

    Raises ValueError for a negative offset or a limit below 1.
    """
    if limit < 1 or offset < 0:
        raise ValueError(f"limit must be >= 1 and offset >= 0, not {limit} and {offset}")
    first = max(offset - 1, 0)  # one row above the page, to judge the first row's place
    statement = (
        select(Rating, BotVersion.number, Bot.id, Bot.name, Bot.is_house, User.username)
        .add_columns(Bot.trusted)
        .join(BotVersion, BotVersion.id == Rating.bot_version_id)
        .join(Bot, Bot.id == BotVersion.bot_id)
        .join(User, User.id == Bot.owner_id)
        .join(
            SeasonEntry,
            (SeasonEntry.season_id == Rating.season_id)
            & (SeasonEntry.bot_version_id == Rating.bot_version_id),
        )
        .where(Rating.season_id == season_id, SeasonEntry.active.is_(True), Bot.is_house.is_(False))
        .order_by(Rating.elo.desc(), Rating.bot_version_id.desc())
        .offset(first)
        .limit(limit + 1 + (offset - first))
    )
    rows = session.execute(statement).all()
    settled = settled_ranks([Skill(row[0].mu, row[0].sigma) for row in rows])
    page = []
    for index, (row, is_settled) in enumerate(zip(rows, settled, strict=True)):
        rank = first + index + 1
        if not offset < rank <= offset + limit:
            continue
        rating, number, bot_id, bot_name, is_house, owner, trusted = row
        page.append(
            LadderRow(
                rank=rank,
                bot_version_id=rating.bot_version_id,
                bot_id=bot_id,
                bot_name=bot_name,
                version=number,
                owner=owner,
                is_house=is_house,
                elo=rating.elo,
                games=rating.games,
                provisional=rating.provisional,
                mu=rating.mu,
                sigma=rating.sigma,
                settled=is_settled,
                is_demo=trusted and not is_house,
            )
        )
    return page


def house_rows(session: Session, season_id: int) -> list[LadderRow]:
    """The season's rated house bots, best Elo first: listed apart, never ranked (rank 0)."""
    statement = (
        select(Rating, BotVersion.number, Bot.id, Bot.name, User.username)
        .join(BotVersion, BotVersion.id == Rating.bot_version_id)
        .join(Bot, Bot.id == BotVersion.bot_id)
        .join(User, User.id == Bot.owner_id)
        .where(Rating.season_id == season_id, Bot.is_house.is_(True))
        .order_by(Rating.elo.desc(), Rating.bot_version_id.desc())
    )
    return [
        LadderRow(
            rank=0,
            bot_version_id=rating.bot_version_id,
            bot_id=bot_id,
            bot_name=bot_name,
            version=number,
            owner=owner,
            is_house=True,
            elo=rating.elo,
            games=rating.games,
            provisional=rating.provisional,
            mu=rating.mu,
            sigma=rating.sigma,
            settled=False,
        )
        for rating, number, bot_id, bot_name, owner in session.execute(statement)
    ]


def recompute_ratings(
    session: Session, season_id: int, settings: EloSettings = DEFAULT_SETTINGS
) -> dict[int, EloRating]:
    """Every version's Elo replayed from the season's rated matches in `rating_seq` order.

    What the stored ratings must equal (the test of "applied in a deterministic order");
    also how a season would be re-rated with other settings. A version that took its
    bot's place starts from the Elo it inherited (`Rating.start_elo`).
    """
    starts = {
        version_id: EloRating(elo or 0.0)
        for version_id, elo in session.execute(
            select(Rating.bot_version_id, Rating.start_elo).where(
                Rating.season_id == season_id, Rating.start_elo.is_not(None)
            )
        )
    }
    matches = session.scalars(
        select(Match)
        .where(Match.season_id == season_id, Match.rating_seq.is_not(None))
        .order_by(Match.rating_seq)
        .options(selectinload(Match.seats))
    )
    ratings: dict[int, EloRating] = {}
    for match in matches:
        seats = [
            SeatResult(s.bot_version_id, s.score or 0, s.rank or 1, disqualified=s.disqualified)
            for s in match.seats
        ]
        before = [
            ratings.get(s.bot_version_id) or starts.get(s.bot_version_id, EloRating())
            for s in seats
        ]
        after = rate_table(before, rating_places(seats), settings)
        ratings.update((s.bot_version_id, r) for s, r in zip(seats, after, strict=True))
    return ratings
