"""A season's tables for the batch fit, and its final standings frozen at the finish.

`season_tables` reads every done match of the season (one query over its seats) as
`arena.ratings.batch.TableResult`s: each seat's total points and the match's hands (a
duplicate set is one table, its totals over the rotations). `freeze_standings` fits them
(`arena.ratings.batch.fit_standings`) and writes each entry's final place, points per
hand against the field, 95 % interval and tie group; `arena.seasons.lifecycle` calls it
inside the finishing transaction.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from sqlalchemy import select
from sqlalchemy.orm import Session

from arena.ratings.batch import (
    DEFAULT_BOOTSTRAP,
    Standing,
    TableResult,
    fit_standings,
    tie_groups,
)

from .models import Match, MatchSeat, MatchStatus, SeasonEntry

LARGE_SEASON: Final = 250
"""Above this many entrants the fit solves by conjugate gradients; fewer replicates keep
the finishing transaction to seconds."""


def season_tables(session: Session, season_id: int) -> list[TableResult]:
    """The season's done matches as tables (seats without a score are left out)."""
    rows = session.execute(
        select(Match.id, Match.hands_played, MatchSeat.bot_version_id, MatchSeat.score)
        .join(MatchSeat, MatchSeat.match_id == Match.id)
        .where(Match.season_id == season_id, Match.status == MatchStatus.DONE)
        .order_by(Match.id, MatchSeat.seat)
    ).all()
    tables: dict[int, tuple[int, list[tuple[int, int]]]] = {}
    for match_id, hands, version_id, score in rows:
        if score is None:
            continue
        tables.setdefault(match_id, (max(hands or 0, 1), []))[1].append((version_id, score))
    return [
        TableResult(tuple(v for v, _ in seats), tuple(float(s) for _, s in seats), hands)
        for hands, seats in tables.values()
        if len(seats) >= 2
    ]


def replicates_for(tables: Sequence[TableResult]) -> int:
    """Bootstrap replicates for a season of these tables: fewer for a large field."""
    entrants = {p for t in tables for p in t.players}
    return DEFAULT_BOOTSTRAP if len(entrants) <= LARGE_SEASON else 20


def fit_season(
    tables: Sequence[TableResult], *, order: Sequence[int] = (), seed: int = 0
) -> list[Standing]:
    """The batch fit of a season's tables (fewer bootstrap replicates for a large field);
    `order` breaks exact ties (best first). Empty when there is nothing to fit."""
    if not tables:
        return []
    try:
        return fit_standings(tables, bootstrap=replicates_for(tables), seed=seed, tiebreak=order)
    except ValueError:  # entrants not connected by any table: no common scale
        return []


def freeze_standings(
    session: Session, season_id: int, entries: Sequence[SeasonEntry], elo_order: Sequence[int]
) -> dict[str, Any]:
    """Fit the season and write each ranked entry's final place and interval (flushes).

    `entries` are the season's entries; only the active ones present in `elo_order` (best
    Elo first) are ranked: fitted entrants by the fit, any others after them in Elo order.
    Returns the report stored with the season.
    """
    tables = season_tables(session, season_id)
    standings = fit_season(tables, order=elo_order, seed=season_id)
    ranked = set(elo_order)
    by_version: Mapping[Any, Standing] = {s.entrant: s for s in standings if s.entrant in ranked}
    fitted = [s for s in standings if s.entrant in ranked]
    rest = [v for v in elo_order if v not in by_version]
    place = {s.entrant: i for i, s in enumerate(fitted, start=1)}
    place.update({v: len(fitted) + i for i, v in enumerate(rest, start=1)})
    # tie groups among the ranked entries only (withdrawn ones drop out)
    groups = tie_groups([(s.low, s.high) for s in fitted])
    group = {s.entrant: g for s, g in zip(fitted, groups, strict=True)}
    for entry in entries:
        version = entry.bot_version_id
        entry.final_rank = place.get(version)
        standing = by_version.get(version)
        if standing is not None:
            entry.final_points = standing.points
            entry.final_low = standing.low
            entry.final_high = standing.high
            entry.final_tie_first, entry.final_tie_last = group[version]
    session.flush()
    return {
        "method": "points per hand against the field (weighted least squares), "
        "95 % bootstrap intervals over tables",
        "tables": len(tables),
        "bootstrap": replicates_for(tables),
        "fitted": len(fitted),
    }
