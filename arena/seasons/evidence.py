"""What luck a season's format removed, what the luck adjustment would remove, and which
owners do suspiciously well together: measured on the season's own recorded games.

`measure_season` reads the replays of the season's latest done matches (at most
`limit`, newest first: a replay holds every hand's deal and points), and computes

- the format's variance reduction (`arena.ratings.luck.measure_format`): every game is
  also a single game, and the games of one duplicate set summed are the set; their
  per-hand variances' ratio is the factor of hands duplicate sets saved on these
  entrants (None for a season of single games: it has no sets to compare);
- the luck adjustment's (`arena.ratings.luck.measure_luck`): each deal replayed by house
  bots, raw against luck-adjusted points (`luck=False` skips it: it costs four house-bot
  playouts per deal).

`store_evidence` writes the figures into the season's `final_report` (own transaction);
the workers call it right after a season finishes, outside the finishing transaction
(it reads replays and plays hands, seconds to minutes). `arena season-report` prints it.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, Final

from sqlalchemy import select
from sqlalchemy.orm import Session

from arena.match.replay import ReplayError, loads
from arena.ratings.collusion import OwnerPair, collusion_report
from arena.ratings.luck import PlayedGame, games_from_replay, measure_format, measure_luck
from arena.store.database import write_transaction
from arena.store.models import Bot, BotVersion, Match, MatchSeat, MatchStatus, Replay, Season
from arena.store.standings import season_tables

from .errors import SeasonError

SAMPLE: Final = 300
"""Matches read per season: enough for the variance ratios to about +-10 %."""


def season_games(session: Session, season_id: int, *, limit: int = SAMPLE) -> list[PlayedGame]:
    """The games of the season's latest `limit` done matches, seats named by version id
    (a replay that cannot be read is skipped)."""
    matches = session.scalars(
        select(Match)
        .where(Match.season_id == season_id, Match.status == MatchStatus.DONE)
        .order_by(Match.id.desc())
        .limit(limit)
    ).all()
    if not matches:
        return []
    ids = [m.id for m in matches]
    seats: dict[int, dict[int, int]] = {}
    for match_id, seat, version_id in session.execute(
        select(MatchSeat.match_id, MatchSeat.seat, MatchSeat.bot_version_id).where(
            MatchSeat.match_id.in_(ids)
        )
    ):
        seats.setdefault(match_id, {})[seat] = version_id
    games: list[PlayedGame] = []
    for match_id, content in session.execute(
        select(Replay.match_id, Replay.content).where(Replay.match_id.in_(ids))
    ):
        seating = seats.get(match_id, {})
        entrants = [seating[s] for s in sorted(seating)]
        try:
            games.extend(games_from_replay(match_id, loads(content), entrants))
        except (ReplayError, KeyError, IndexError, TypeError, ValueError):
            continue
    return games


def measure_season(
    session: Session, season_id: int, *, limit: int = SAMPLE, luck: bool = True
) -> dict[str, Any]:
    """The season's format and luck figures as a JSON-ready dict (with a one-line summary)."""
    season = session.get(Season, season_id)
    if season is None:
        raise SeasonError(f"no season {season_id}")
    games = season_games(session, season_id, limit=limit)
    if not games or not any(g.hands for g in games):
        return {"games": 0, "summary": "no recorded games to measure"}
    formats = measure_format(games)
    data: dict[str, Any] = {
        "games": formats.single_games,
        "duplicate_sets": formats.duplicate_sets,
        "single_variance": round(formats.single_variance, 2),
        "duplicate_variance": None
        if formats.duplicate_variance is None
        else round(formats.duplicate_variance, 2),
        "duplicate_reduction": None if formats.reduction is None else round(formats.reduction, 2),
    }
    parts = [f"{formats.single_games} recorded games"]
    if formats.reduction is not None:
        parts.append(
            f"duplicate sets needed {formats.reduction:.2f}x fewer hands than single games"
        )
    else:
        parts.append("single games only: no duplicate sets to compare")
    if luck:
        figures = measure_luck(season.ruleset.rules, games)
        data.update(
            luck_raw_variance=round(figures.raw_variance, 2),
            luck_adjusted_variance=round(figures.adjusted_variance, 2),
            luck_reduction=round(figures.reduction, 3),
        )
        parts.append(f"the luck adjustment {figures.reduction:.2f}x")
    data["summary"] = "; ".join(parts)
    return data


def store_evidence(
    session: Session, season_id: int, *, limit: int = SAMPLE, luck: bool = True
) -> dict[str, Any]:
    """Measure the season and keep the figures in its `final_report` (own transaction)."""
    evidence = measure_season(session, season_id, limit=limit, luck=luck)
    session.rollback()
    with write_transaction(session):
        season = session.get(Season, season_id)
        if season is None:
            raise SeasonError(f"no season {season_id}")
        season.final_report = {**(season.final_report or {}), "evidence": evidence}
    return evidence


def owner_pairs(session: Session, season_id: int) -> list[OwnerPair]:
    """The season's owner pairs, most suspicious first (`arena.ratings.collusion`)."""
    tables = season_tables(session, season_id)
    if not tables:
        return []
    versions = {v for t in tables for v in t.players}
    owners: dict[Hashable, Hashable] = {
        version: owner
        for version, owner, is_house in session.execute(
            select(BotVersion.id, Bot.owner_id, Bot.is_house)
            .join(Bot, Bot.id == BotVersion.bot_id)
            .where(BotVersion.id.in_(versions))
        )
        if not is_house
    }
    try:
        return collusion_report(tables, owners)
    except ValueError:
        return []
