"""The API's entries: where a bot plays (token required for changes).

A bot, not a version, is entered in a season; the version that plays for it is the one
its owner pinned, else its newest ready one (`arena.seasons.entries`). Every answer says
where the bot plays now, and `next` says what happens next to its newest version.
"""

from __future__ import annotations

from typing import Any

from flask import abort, request
from sqlalchemy import select

from arena.seasons import (
    SeasonError,
    enter_bot,
    next_step,
    pin_version,
    playing_version,
    withdraw_bot,
)
from arena.seasons.entries import entered_seasons
from arena.store.models import Bot, BotVersion, Season

from .. import database
from ..bounds import is_id, quoted
from ..loaders import load_bot
from .blueprint import api, api_user


def entries_json(bot: Bot) -> dict[str, Any]:
    """Where the bot plays: its seasons (with the version playing), its pin, and what next."""
    db = database.session()
    playing = playing_version(db, bot)
    newest = db.scalars(
        select(BotVersion).where(BotVersion.bot_id == bot.id).order_by(BotVersion.number.desc())
    ).first()
    return {
        "bot_id": bot.id,
        "pinned_version": bot.pinned_number,
        "playing_version": None if playing is None else playing.number,
        "seasons": [
            {
                "season_id": season.id,
                "season": season.name,
                "status": season.status.value,
                "version": version.number,
            }
            for season, version in entered_seasons(db, bot.id)
        ],
        "next": None if newest is None else next_step(db, newest),
    }


def _own_bot(bot_id: int) -> Bot:
    """The caller's own bot (401 without a token, 403 for someone else's or a house bot)."""
    user = api_user(required=True)
    assert user is not None
    bot = load_bot(bot_id)
    if bot.owner_id != user.id or bot.is_house:
        abort(403, "Only the bot's owner may change where it plays.")
    return bot


def _body() -> dict[str, Any]:
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        abort(400, "Send a JSON object (Content-Type: application/json).")
    return body


def _season_or_404(season_id: int) -> None:
    # An id no column can hold names no season (and would overflow the driver: a 500).
    if not is_id(season_id) or database.session().get(Season, season_id) is None:
        abort(404, f"There is no season {quoted(season_id)}.")


@api.get("/bots/<int:bot_id>/entries")
def entries(bot_id: int) -> dict[str, Any]:
    """Where the bot plays."""
    return entries_json(load_bot(bot_id))


@api.post("/bots/<int:bot_id>/entries")
def enter(bot_id: int) -> tuple[dict[str, Any], int]:
    """Enter your bot in a season: JSON {season}. 409 when it has no ready version or the
    season is finished."""
    bot = _own_bot(bot_id)
    season_id = _body().get("season")
    if not isinstance(season_id, int) or isinstance(season_id, bool):
        abort(400, "'season' must be the id of a season that is not finished.")
    _season_or_404(season_id)
    try:
        with database.writing() as db:
            enter_bot(db, bot.id, season_id)
    except SeasonError as error:
        abort(409, str(error))
    return entries_json(bot), 201


@api.delete("/bots/<int:bot_id>/entries/<int:season_id>")
def withdraw(bot_id: int, season_id: int) -> dict[str, Any]:
    """Withdraw your bot from a season (its games there stay on record)."""
    bot = _own_bot(bot_id)
    _season_or_404(season_id)
    try:
        with database.writing() as db:
            was_in = withdraw_bot(db, bot.id, season_id)
    except SeasonError as error:
        abort(409, str(error))
    return {**entries_json(bot), "withdrawn": was_in}


@api.put("/bots/<int:bot_id>/pin")
def pin(bot_id: int) -> dict[str, Any]:
    """Pin the version that plays for your bot: JSON {version: number}, or null to follow
    the newest ready version again. 409 for a version that is not ready."""
    bot = _own_bot(bot_id)
    body = _body()
    if "version" not in body:
        abort(400, "Send {'version': <number>} to pin, or {'version': null} to unpin.")
    number = body["version"]
    if number is not None and not is_id(number):
        abort(400, "'version' must be a version number (1, 2, …) or null.")
    try:
        with database.writing() as db:
            pin_version(db, bot.id, number)
    except SeasonError as error:
        abort(409, str(error))
    return entries_json(bot)
