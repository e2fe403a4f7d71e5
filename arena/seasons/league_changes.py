"""An admin's change to a league season's bosses while it is scheduled or running.

Why a module of its own: the change enters the new bosses' house bots in the season
(`lifecycle.enter_season`), and the season's lifecycle reaches the leagues through its
rounds; kept beside `leagues`, it would close that circle.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import select
from sqlalchemy.orm import Session

from arena.store.models import BotVersion, Season, SeasonEntry, SeasonLeagues, SeasonStatus

from .errors import SeasonError
from .leagues import boss_versions, current_places, league_name, league_settings, set_leagues
from .lifecycle import enter_season


def change_bosses(session: Session, season: Season, bosses: Sequence[str]) -> SeasonLeagues:
    """Change the bosses of a league season already made, scheduled or running (an admin's
    edit; flushes, the caller commits holding the season's lock). docs/ratings.md,
    "Changing the leagues", says what it does to the bots already placed:

    * every bot keeps its league, by number (Wood is league 0 whatever its boss): nothing
      demotes a bot, and nothing promotes one but the rule;
    * a league whose boss changes keeps its bots, who are judged against the new boss from
      the next round on: only their matches shared with the new boss since they reached
      the league count (the rule and `min_games` are unchanged);
    * bosses added at the end make new leagues above: the bots of the old top league then
      have a boss to beat;
    * the list may not lose a league that holds bots: a bot in league k has beaten k
      bosses, so at least k bosses stay (with exactly k, its league becomes the top one).

    The new bosses' house bots are entered in the season when they are not. Raises
    SeasonError, its message saying why, for a finished season, a season without leagues,
    a boss that is no house bot kind here or is named twice, no boss, or fewer bosses than
    the highest league reached.
    """
    if season.status is SeasonStatus.FINISHED:
        raise SeasonError(f"season {season.name!r} is finished: its leagues are frozen")
    config = league_settings(session, season.id)
    if config is None:
        raise SeasonError(f"season {season.name!r} does not run as leagues")
    kinds = tuple(bosses)
    twice = sorted({kind for kind in kinds if kinds.count(kind) > 1})
    if twice:
        raise SeasonError(f"a boss guards one league: {', '.join(twice)} is named twice")
    reached = max(
        (place.league for place in current_places(session, season.id).values()), default=0
    )
    if len(kinds) < reached:
        raise SeasonError(
            f"a bot has reached {league_name(reached, len(config.bosses))} (league {reached + 1}): "
            f"keep at least {reached} bosses, so no league that holds bots is removed"
        )
    row = set_leagues(session, season, bosses=kinds, min_games=config.min_games)
    versions = boss_versions(session, kinds)
    missing = [kind for kind, version in zip(kinds, versions, strict=True) if version is None]
    if missing:
        raise SeasonError(f"no house bot {', '.join(f'{k}-1' for k in missing)} here")
    entered = set(
        session.scalars(
            select(SeasonEntry.bot_version_id).where(
                SeasonEntry.season_id == season.id, SeasonEntry.active.is_(True)
            )
        )
    )
    for version_id in versions:
        if version_id is not None and version_id not in entered:
            version = session.get(BotVersion, version_id)
            assert version is not None
            enter_season(session, season, version, replace_previous=False)
    return row
