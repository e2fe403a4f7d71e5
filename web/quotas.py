"""Per-user quotas: how many bot versions a user may upload, and how many challenges
they may queue, so that one account cannot fill the workers' queues or the disk.

Counted from the database (the rows are the record; every server process sees the same
count), inside the write's transaction: on SQLite that transaction holds the write lock,
so the count is exact; on PostgreSQL two requests at the very same moment may both pass
at the limit (one over, at most, per concurrent request). A user over a quota gets a
429 saying which quota and when it frees up. Admins and house bots have none.

Settings: `UPLOADS_PER_DAY` (default 50 new versions in any 24 hours),
`CHALLENGES_PER_DAY` (200 in any 24 hours), `CHALLENGES_QUEUED` (20 waiting at once) and
`ANALYSES_PER_DAY` (20 analyses of matches asked in any 24 hours; one already made is
served from the store and costs nothing).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Final, NoReturn

from flask import Flask, current_app
from sqlalchemy import func, select
from sqlalchemy.orm import Session
from werkzeug.exceptions import TooManyRequests

from arena.store import analyses
from arena.store.models import Bot, BotVersion, FinalTable, Match, MatchSeat, MatchStatus, User
from arena.store.types import utc_now

DAY: Final = timedelta(hours=24)


def init_app(app: Flask) -> None:
    """The quotas' defaults (docs/api.md)."""
    app.config.setdefault("UPLOADS_PER_DAY", 50)
    app.config.setdefault("CHALLENGES_PER_DAY", 200)
    app.config.setdefault("CHALLENGES_QUEUED", 20)
    app.config.setdefault("ANALYSES_PER_DAY", 20)


def _refuse(message: str) -> NoReturn:
    raise TooManyRequests(message, retry_after=3600)


def check_upload(db: Session, user: User) -> None:
    """429 when `user` uploaded `UPLOADS_PER_DAY` versions in the last 24 hours."""
    if user.is_admin:
        return
    limit: int = current_app.config["UPLOADS_PER_DAY"]
    uploaded = db.scalar(
        select(func.count(BotVersion.id))
        .join(Bot, Bot.id == BotVersion.bot_id)
        .where(Bot.owner_id == user.id, BotVersion.created_at > utc_now() - DAY)
    )
    if (uploaded or 0) >= limit:
        _refuse(f"You uploaded {uploaded} bot versions in the last 24 hours; the quota is {limit}.")


def check_challenge(db: Session, user: User) -> None:
    """429 when `user` has `CHALLENGES_QUEUED` challenges waiting, or made
    `CHALLENGES_PER_DAY` in the last 24 hours."""
    if user.is_admin:
        return
    mine = (
        select(Match.id, Match.status, Match.created_at)
        .join(MatchSeat, (MatchSeat.match_id == Match.id) & (MatchSeat.seat == 0))
        .join(BotVersion, BotVersion.id == MatchSeat.bot_version_id)
        .join(Bot, Bot.id == BotVersion.bot_id)
        .where(
            Bot.owner_id == user.id,
            Match.season_id.is_(None),
            Match.created_at > utc_now() - DAY,
            # a final's matches are outside any season too, but no one asked for them
            Match.id.not_in(select(FinalTable.match_id).where(FinalTable.match_id.is_not(None))),
        )
        .subquery()
    )
    today, waiting = db.execute(
        select(
            func.count(mine.c.id),
            func.count(mine.c.id).filter(mine.c.status == MatchStatus.QUEUED),
        )
    ).one()
    queued_limit: int = current_app.config["CHALLENGES_QUEUED"]
    daily_limit: int = current_app.config["CHALLENGES_PER_DAY"]
    if waiting >= queued_limit:
        _refuse(f"You have {waiting} challenges waiting to be played; the quota is {queued_limit}.")
    if today >= daily_limit:
        _refuse(f"You made {today} challenges in the last 24 hours; the quota is {daily_limit}.")


def check_analysis(db: Session, user: User) -> None:
    """429 when `user` asked for `ANALYSES_PER_DAY` analyses in the last 24 hours."""
    if user.is_admin:
        return
    limit: int = current_app.config["ANALYSES_PER_DAY"]
    asked = analyses.asked_since(db, user.id, utc_now() - DAY)
    if asked >= limit:
        _refuse(f"You asked for {asked} analyses in the last 24 hours; the quota is {limit}.")
