"""The API's competitions beyond the ladder: a league season's leagues, and finals."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from arena.store.models import Final

from .. import database
from ..finals import final_view, load_final
from ..leagues import league_rows
from ..loaders import load_season
from .blueprint import api


@api.get("/seasons/<int:season_id>/leagues")
def season_leagues(season_id: int) -> dict[str, Any]:
    """A league season's leagues, top first: each one's boss and entrants, with each
    entrant's games against the boss, its interval and about how many more games it
    needs (404 for a season that does not run as leagues)."""
    load_season(season_id)
    config, leagues = league_rows(season_id)
    return {
        "season_id": season_id,
        "bosses": list(config.bosses),
        "min_games": config.min_games,
        "leagues": [
            {
                "number": league.number,
                "name": league.name,
                "boss": league.boss,
                "entrants": [
                    {
                        "bot_id": row["bot_id"],
                        "bot": row["bot"],
                        "owner": row["owner"],
                        "bot_version_id": row["version_id"],
                        "reached_at": row["reached_at"].isoformat(),
                        "games": row["verdict"].games,
                        "mean": row["verdict"].mean,
                        "low": row["verdict"].low,
                        "high": row["verdict"].high,
                        "needs_games": row["verdict"].needs,
                        "progress": row["progress"],
                        "promoted_from": row["promotions"],
                    }
                    for row in league.rows
                ],
            }
            for league in leagues
        ],
    }


@api.get("/finals")
def final_list() -> dict[str, Any]:
    """Every final, newest first (id, name, format, status)."""
    rows = database.session().scalars(select(Final).order_by(Final.id.desc()))
    return {
        "finals": [
            {"id": f.id, "name": f.name, "format": f.format.value, "status": f.status.value}
            for f in rows
        ]
    }


@api.get("/finals/<int:final_id>")
def final_detail(final_id: int) -> dict[str, Any]:
    """A final: its finalists and frozen versions, its schedule's progress, its standings
    with 95 % intervals and tied places, and the seat balance of its played tables."""
    return final_view(load_final(final_id))
