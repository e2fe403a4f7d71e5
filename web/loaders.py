"""Loaders the views share: each finds a row by id or aborts (404), and the log guard (403).

An id no row can have (below 1, or beyond the id column: `web.bounds.MAX_ID`) is a 404
before any query: PostgreSQL refuses to compare an INTEGER column with 2³¹.
"""

from __future__ import annotations

from flask import abort

from arena.store.models import Bot, BotVersion, Match, Season

from . import database
from .auth import current_user
from .bounds import is_id


def load_season(season_id: int) -> Season:
    """The season, or 404."""
    season = database.session().get(Season, season_id) if is_id(season_id) else None
    if season is None:
        abort(404, f"There is no season {season_id}.")
    return season


def load_bot(bot_id: int) -> Bot:
    """The bot, or 404."""
    bot = database.session().get(Bot, bot_id) if is_id(bot_id) else None
    if bot is None:
        abort(404, f"There is no bot {bot_id}.")
    return bot


def load_version(version_id: int) -> BotVersion:
    """The bot version, or 404."""
    version = database.session().get(BotVersion, version_id) if is_id(version_id) else None
    if version is None:
        abort(404, f"There is no bot version {version_id}.")
    return version


def load_match(match_id: int) -> Match:
    """The match, or 404."""
    match = database.session().get(Match, match_id) if is_id(match_id) else None
    if match is None:
        abort(404, f"There is no match {match_id}.")
    return match


def may_see_logs(bot: Bot) -> bool:
    """Whether the signed-in user may read the bot's logs: its owner, or an admin."""
    user = current_user()
    return user is not None and (user.is_admin or user.id == bot.owner_id)


def require_logs(bot: Bot) -> None:
    """Refuse (401 when signed out, 403 otherwise) anyone who may not read the bot's logs."""
    if current_user() is None:
        abort(401, "Sign in to read a bot's logs.")
    if not may_see_logs(bot):
        abort(403, "Only the bot's owner and admins may read its logs.")
