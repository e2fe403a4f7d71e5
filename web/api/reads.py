"""The API's reads: seasons, ladders, bots, versions, matches and replays."""

from __future__ import annotations

from typing import Any

from flask import abort, request
from sqlalchemy import Select, false, func, select
from sqlalchemy.orm import joinedload
from werkzeug.wrappers import Response

from arena.store.ladder import LadderRow, house_rows
from arena.store.models import (
    IN_FLIGHT_MATCH_STATUSES,
    Bot,
    BotVersion,
    Match,
    MatchSeat,
    MatchStatus,
    Replay,
    Season,
    SeasonEntry,
    SeasonStatus,
    User,
)
from arena.store.stats import (
    DEFAULT_DESCENDING,
    LADDER_SORTS,
    FinalLine,
    LadderLine,
    final_results,
    ladder_page,
    recent_matches,
    season_counts,
)

from .. import database
from ..bots import version_status
from ..bounds import is_id, quoted
from ..ladder import play_table
from ..live import live_response
from ..loaders import load_bot, load_match, load_season, load_version
from ..matches import replay_response, seat_rows
from ..rulebook import describe
from .blueprint import api, int_arg, paginated, pagination, token_user
from .entries import entries_json


def season_json(season: Season, *, full: bool = False) -> dict[str, Any]:
    """A season as the API shows it (with its full rules when `full`)."""
    data: dict[str, Any] = {
        "id": season.id,
        "name": season.name,
        "status": season.status.value,
        "rules_name": season.ruleset.name,
        "players": season.players,
        "starts_at": season.starts_at.isoformat(),
        "ends_at": season.ends_at.isoformat(),
        "cadence_seconds": season.cadence_seconds,
        "is_default": season.is_default,
        "round": season.round_number,
        "rated_matches": season.rated_matches,
    }
    if full:
        data["rules"] = season.ruleset.data
        data["rules_text"] = [
            {"topic": topic, "text": text} for topic, text in describe(season.ruleset.rules)
        ]
        data["matchmaking"] = season.matchmaking
        data["counts"] = season_counts(database.session(), season.id)
        data["final_report"] = season.final_report
    return data


def bot_json(bot: Bot) -> dict[str, Any]:
    """A bot: its name and owner."""
    return {
        "id": bot.id,
        "name": bot.name,
        "owner": bot.owner.username,
        "is_house": bot.is_house,
        "is_demo": bot.is_demo,
        "created_at": bot.created_at.isoformat(),
    }


def line_json(line: LadderLine) -> dict[str, Any]:
    """A ladder line."""
    stats = line.stats
    return {
        "rank": line.rank,
        "bot_id": line.bot_id,
        "bot": line.bot_name,
        "owner": line.owner,
        "version_id": line.bot_version_id,
        "version": line.version,
        "is_house": line.is_house,
        "is_demo": line.is_demo,
        "elo": round(line.elo, 1),
        "elo_error": round(line.elo_error, 1),
        "provisional": line.provisional,
        "settled": line.settled,
        "elo_interval": [round(line.interval[0], 1), round(line.interval[1], 1)],
        "tie_group": [line.tie_first, line.tie_last] if line.tie_first is not None else None,
        "tie_label": line.tie_label,
        "games": line.games,
        "points_per_hand": None
        if stats.points_per_hand is None
        else round(stats.points_per_hand, 3),
        "moons": stats.moons,
        "faults_per_100_hands": None
        if stats.faults_per_100_hands is None
        else round(stats.faults_per_100_hands, 3),
    }


def house_json(row: LadderRow) -> dict[str, Any]:
    """A house bot beside the ladder: it fills seats and is rated, but takes no rank."""
    return {
        "bot_id": row.bot_id,
        "bot": row.bot_name,
        "version_id": row.bot_version_id,
        "elo": round(row.elo, 1),
        "games": row.games,
    }


def match_json(
    match: Match, *, seats: bool = True, has_replay: bool | None = None
) -> dict[str, Any]:
    """A match, with its seats. `has_replay` (when the caller knows it, as a list does
    for a whole page in one query) spares loading the match's replay row."""
    if has_replay is None:
        has_replay = match.replay is not None
    data: dict[str, Any] = {
        "id": match.id,
        "season_id": match.season_id,
        "round": match.round,
        "table": match.table_number,
        "status": match.status.value,
        "reason": match.status_reason,
        "rated": match.rating_seq is not None,
        "format": match.format.value,
        # the seed deals every hand: never told while the match is played (a person at a
        # human table would read the bots' cards from it, docs/api.md "Playing at a table")
        "seed": None if match.status in IN_FLIGHT_MATCH_STATUSES else match.seed,
        "rules_name": match.ruleset.name,
        "hands_played": match.hands_played,
        "created_at": match.created_at.isoformat(),
        "started_at": match.started_at.isoformat() if match.started_at else None,
        "finished_at": match.finished_at.isoformat() if match.finished_at else None,
        "replay": f"/api/v1/matches/{match.id}/replay" if has_replay else None,
    }
    if seats:
        data["seats"] = [
            {
                k: row[k]
                for k in (
                    "seat",
                    "bot_id",
                    "bot",
                    "owner",
                    "bot_version_id",
                    "version",
                    "score",
                    "rank",
                    "faults",
                    "moons",
                    "disqualified",
                )
            }
            for row in seat_rows(match)
        ]
    return data


@api.get("/")
def index() -> dict[str, Any]:
    """What the API offers."""
    return {
        "version": 1,
        "documentation": "docs/api.md",
        "links": {
            "seasons": "/api/v1/seasons",
            "bots": "/api/v1/bots",
            "matches": "/api/v1/matches",
            "me": "/api/v1/me",
        },
    }


@api.get("/me")
def me() -> dict[str, Any]:
    """The user the token belongs to (a token only, as documented: never the cookie)."""
    user = token_user()
    return {"id": user.id, "username": user.username, "is_admin": user.is_admin}


def _count(statement: Select[Any]) -> int:
    return int(
        database.session().scalar(select(func.count()).select_from(statement.subquery())) or 0
    )


@api.get("/seasons")
def seasons() -> dict[str, Any]:
    """Every season, newest first (`status` filters)."""
    page, per_page = pagination()
    statement = select(Season)
    status = request.args.get("status")
    if status is not None:
        if status not in ("scheduled", "running", "finished"):
            abort(400, "status must be scheduled, running or finished.")
        statement = statement.where(Season.status == status)
    total = _count(statement)
    rows = database.session().scalars(
        statement.order_by(Season.starts_at.desc(), Season.id.desc())
        .offset((page - 1) * per_page)
        .limit(per_page)
    )
    return paginated([season_json(s) for s in rows], total, page, per_page)


@api.get("/seasons/<int:season_id>")
def season(season_id: int) -> dict[str, Any]:
    """One season with its full rules and the rules in words."""
    return season_json(load_season(season_id), full=True)


@api.get("/seasons/<int:season_id>/ladder")
def ladder(season_id: int) -> dict[str, Any]:
    """A page of the season's ladder (`sort`, `order`, `page`, `per_page`)."""
    found = load_season(season_id)
    page, per_page = pagination()
    sort = request.args.get("sort", "rank")
    if sort not in LADDER_SORTS:
        abort(400, f"sort must be one of {', '.join(LADDER_SORTS)}, not {quoted(sort)}.")
    order = request.args.get("order")
    if order not in (None, "asc", "desc"):
        abort(400, f"order must be asc or desc, not {quoted(order)}.")
    result = ladder_page(
        database.session(),
        found.id,
        sort=sort,
        descending=DEFAULT_DESCENDING[sort] if order is None else order == "desc",
        limit=per_page,
        offset=(page - 1) * per_page,
        play_table=play_table(found.id, sort),
    )
    body = paginated([line_json(line) for line in result.lines], result.total, page, per_page)
    body.update(season_id=found.id, sort=result.sort, order="desc" if result.descending else "asc")
    body["house"] = [house_json(row) for row in house_rows(database.session(), found.id)]
    return body


def final_json(line: FinalLine) -> dict[str, Any]:
    """A finished season's frozen line: place, the batch fit's interval and tie group."""

    def rounded(value: float | None) -> float | None:
        return None if value is None else round(value, 3)

    return {
        "rank": line.rank,
        "bot_id": line.bot_id,
        "bot": line.bot_name,
        "owner": line.owner,
        "version_id": line.bot_version_id,
        "version": line.version,
        "is_house": line.is_house,
        "is_demo": line.is_demo,
        "points_vs_field": rounded(line.points),
        "interval": None
        if line.low is None or line.high is None
        else [rounded(line.low), rounded(line.high)],
        "tie_group": [line.tie_first, line.tie_last] if line.tie_first is not None else None,
        "tie_label": line.tie_label,
        "final_elo": None if line.elo is None else round(line.elo, 1),
        "games": line.games,
    }


@api.get("/seasons/<int:season_id>/final")
def final(season_id: int) -> dict[str, Any]:
    """A finished season's final order (`page`, `per_page`); 409 while it is not finished."""
    found = load_season(season_id)
    if found.status is not SeasonStatus.FINISHED:
        abort(409, f"Season {found.name!r} is {found.status.value}: no final order yet.")
    page, per_page = pagination()
    db = database.session()
    total = int(
        db.scalar(
            select(func.count())
            .select_from(SeasonEntry)
            .where(SeasonEntry.season_id == found.id, SeasonEntry.final_rank.is_not(None))
        )
        or 0
    )
    lines = final_results(db, found.id, limit=per_page, offset=(page - 1) * per_page)
    body = paginated([final_json(line) for line in lines], total, page, per_page)
    body.update(season_id=found.id, report=found.final_report)
    return body


@api.get("/bots")
def bots() -> dict[str, Any]:
    """Bots by name (`owner` filters by the owner's username)."""
    page, per_page = pagination()
    statement = select(Bot).join(User, User.id == Bot.owner_id)
    owner = request.args.get("owner")
    if owner is not None:
        statement = statement.where(User.username == owner)
    total = _count(statement)
    rows = database.session().scalars(
        statement.order_by(User.username, Bot.name).offset((page - 1) * per_page).limit(per_page)
    )
    return paginated([bot_json(b) for b in rows], total, page, per_page)


@api.get("/bots/<int:bot_id>")
def bot(bot_id: int) -> dict[str, Any]:
    """A bot and its versions, newest first."""
    found = load_bot(bot_id)
    versions = database.session().scalars(
        select(BotVersion).where(BotVersion.bot_id == found.id).order_by(BotVersion.number.desc())
    )
    return {
        **bot_json(found),
        "versions": [version_status(v) for v in versions],
        "entries": entries_json(found),
    }


@api.get("/bots/<int:bot_id>/matches")
def bot_matches(bot_id: int) -> dict[str, Any]:
    """The bot's matches, newest first."""
    found = load_bot(bot_id)
    page, per_page = pagination()
    total = _count(
        select(MatchSeat.match_id)
        .join(BotVersion, BotVersion.id == MatchSeat.bot_version_id)
        .where(BotVersion.bot_id == found.id)
    )
    lines = recent_matches(
        database.session(), found.id, limit=per_page, offset=(page - 1) * per_page
    )
    items = [
        {
            "match_id": line.match_id,
            "season_id": line.season_id,
            "status": line.status.value,
            "version_id": line.bot_version_id,
            "version": line.version,
            "seat": line.seat,
            "score": line.score,
            "rank": line.rank,
            "faults": line.faults,
            "players": line.players,
            "finished_at": line.finished_at.isoformat() if line.finished_at else None,
        }
        for line in lines
    ]
    return paginated(items, total, page, per_page)


@api.get("/versions/<int:version_id>")
def version(version_id: int) -> dict[str, Any]:
    """A bot version's status (and its validation log, for its owner and admins)."""
    return version_status(load_version(version_id))


@api.get("/matches")
def matches() -> dict[str, Any]:
    """Matches, newest first (`season`, `status` and `bot` filter)."""
    page, per_page = pagination()
    statement = select(Match)
    season_id = int_arg("season")
    if season_id is not None:
        statement = statement.where(Match.season_id == season_id if is_id(season_id) else false())
    status = request.args.get("status")
    if status is not None:
        if status not in {s.value for s in MatchStatus}:
            abort(400, f"status must be one of {', '.join(s.value for s in MatchStatus)}.")
        statement = statement.where(Match.status == status)
    bot_id = int_arg("bot")
    if bot_id is not None and not is_id(bot_id):
        statement = statement.where(false())  # beyond the id column: no such bot
    elif bot_id is not None:
        statement = statement.where(
            Match.id.in_(
                select(MatchSeat.match_id)
                .join(BotVersion, BotVersion.id == MatchSeat.bot_version_id)
                .where(BotVersion.bot_id == bot_id)
            )
        )
    total = _count(statement)
    db = database.session()
    rows = db.scalars(
        statement.options(joinedload(Match.ruleset))
        .order_by(Match.id.desc())
        .offset((page - 1) * per_page)
        .limit(per_page)
    ).all()
    ids = [m.id for m in rows]
    replayed = set(db.scalars(select(Replay.match_id).where(Replay.match_id.in_(ids))))
    items = [match_json(m, seats=False, has_replay=m.id in replayed) for m in rows]
    return paginated(items, total, page, per_page)


@api.get("/matches/<int:match_id>")
def match(match_id: int) -> dict[str, Any]:
    """A match with its seats and results."""
    return match_json(load_match(match_id))


@api.get("/matches/<int:match_id>/replay")
def replay(match_id: int) -> Response:
    """The match's replay document (other bots' logs and fault texts blanked)."""
    return replay_response(load_match(match_id))


@api.get("/matches/<int:match_id>/live")
def live(match_id: int) -> Response:
    """The match as it is played: server-sent events (docs/api.md, "Watching live")."""
    return live_response(load_match(match_id))
