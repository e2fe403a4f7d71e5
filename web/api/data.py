"""The API's open data: the published dumps and their files, and a bot owner's consent to
publish the bot's notes in them (docs/open-data.md)."""

from __future__ import annotations

from typing import Any

from flask import abort, request

from arena.data.record import SCHEMA_VERSION
from arena.store.models import Bot

from .. import database
from ..data import dump_json, dumps, load_dump
from ..loaders import load_season
from .blueprint import api, token_user


@api.get("/data")
def data_dumps() -> dict[str, Any]:
    """Every published dump, newest season first, with its files' addresses and SHA-256."""
    return {
        "schema_version": SCHEMA_VERSION,
        "items": [dump_json(dump, name) for dump, name in dumps()],
    }


@api.get("/data/<int:dump_id>")
def data_dump(dump_id: int) -> dict[str, Any]:
    """One published dump."""
    dump = load_dump(dump_id)
    return dump_json(dump, load_season(dump.season_id).name)


@api.get("/seasons/<int:season_id>/data")
def season_data(season_id: int) -> dict[str, Any]:
    """A season's published dumps: the whole season, and its months."""
    season = load_season(season_id)
    return {
        "season": {"id": season.id, "name": season.name, "data_licence": season.data_licence},
        "items": [dump_json(dump, name) for dump, name in dumps(season_id)],
    }


@api.put("/bots/<int:bot_id>/notes-public")
def notes_public(bot_id: int) -> dict[str, Any]:
    """Your consent (`{"public": true}`) or its withdrawal (`false`) to publish the bot's
    notes in the open data written from now on. 403 for another's bot."""
    user = token_user()
    body = request.get_json(silent=True)
    if not isinstance(body, dict) or not isinstance(body.get("public"), bool):
        abort(400, 'Send JSON {"public": true} or {"public": false}.')
    with database.writing() as db:
        bot = db.get(Bot, bot_id)
        if bot is None:
            abort(404, f"No bot {bot_id}.")
        if bot.owner_id != user.id:
            abort(403, "Only the bot's owner decides whether its notes are published.")
        bot.notes_public = body["public"]
        return {"bot": bot.id, "notes_public": bot.notes_public}
