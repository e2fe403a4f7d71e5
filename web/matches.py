"""Matches: the page with every seat, the score sheet, the faults and the replay viewer,
and the replay's JSON to download (other bots' logs and fault texts blanked).
"""

from __future__ import annotations

import gzip
import json
from typing import Any

from flask import Blueprint, abort, jsonify, render_template, request
from sqlalchemy import select
from werkzeug.wrappers import Response

from arena.match.replay import ReplayError
from arena.match.sentences import with_words
from arena.store.models import Bot, BotVersion, Final, FinalTable, Match, MatchSeat, User
from arena.store.people import human_table

from . import database
from .auth import current_user
from .loaders import load_match
from .replays import (
    owned_entrants,
    readable_faults,
    redact,
    replay_document,
    score_sheet,
    stored_replay,
)

bp = Blueprint("matches", __name__, url_prefix="/matches")


def seat_rows(match: Match) -> list[dict[str, Any]]:
    """Each seat with its bot, version, owner and result."""
    rows = database.session().execute(
        select(MatchSeat, BotVersion.number, Bot.id, Bot.name, Bot.is_house, User.id, User.username)
        .join(BotVersion, BotVersion.id == MatchSeat.bot_version_id)
        .join(Bot, Bot.id == BotVersion.bot_id)
        .join(User, User.id == Bot.owner_id)
        .where(MatchSeat.match_id == match.id)
        .order_by(MatchSeat.seat)
    )
    table = human_table(database.session(), match.id)  # a person's seat, named as they are
    person = database.session().get(User, table.user_id) if table is not None else None
    return [
        {
            "seat": seat.seat,
            "bot_version_id": seat.bot_version_id,
            "version": number,
            "bot_id": bot_id,
            "bot": bot_name,
            "is_house": is_house,
            "owner_id": owner_id,
            "owner": owner,
            "label": f"{person.username} (a person)"
            if person is not None and table is not None and seat.seat == table.seat
            else f"{owner}/{bot_name} v{number}",
            "score": seat.score,
            "rank": seat.rank,
            "faults": seat.faults,
            "moons": seat.moons,
            "disqualified": seat.disqualified,
        }
        for seat, number, bot_id, bot_name, is_house, owner_id, owner in rows
    ]


def _replay(match: Match, layout: bool = True) -> dict[str, Any] | None:
    """The match's replay in v1's layout (the viewer's), or as stored (either version)
    unless `layout`; 500 when it cannot be read."""
    try:
        if layout:
            return replay_document(database.session(), match.id)
        return stored_replay(database.session(), match.id)
    except ReplayError as error:
        abort(500, f"The stored replay cannot be read: {error}")


@bp.get("/<int:match_id>")
def show(match_id: int) -> str:
    """A match: seats and results, the replay viewer, the score sheet and the faults."""
    match = load_match(match_id)
    seats = seat_rows(match)
    replay = _replay(match, layout=False)  # the viewer fetches its layout (replay.json)
    readable = owned_entrants(database.session(), match, current_user())
    viewer_seats = [{"seat": s["seat"], "label": s["label"]} for s in seats]
    try:
        sheet = score_sheet(replay) if replay else []
    except ReplayError as error:
        abort(500, f"The stored replay cannot be read: {error}")
    return render_template(
        "matches/show.html",
        match=match,
        seats=seats,
        viewer_seats=viewer_seats,
        replay=replay,
        sheet=sheet,
        faults=readable_faults(replay, readable) if replay else [],
        readable=readable,
        final=final_of(match.id),
    )


def final_of(match_id: int) -> Final | None:
    """The final whose table this match plays, if any (a final's matches are outside any
    season, as challenges are)."""
    return database.session().scalar(
        select(Final)
        .join(FinalTable, FinalTable.final_id == Final.id)
        .where(FinalTable.match_id == match_id)
    )


@bp.get("/<int:match_id>/status")
def status(match_id: int) -> Response:
    """The match's status as JSON (what the page of a queued match polls)."""
    match = load_match(match_id)
    response = jsonify(
        {"id": match.id, "status": match.status.value, "reason": match.status_reason}
    )
    response.headers["Cache-Control"] = "no-store"
    return response


def replay_response(match: Match) -> Response:
    """The match's replay JSON for the current viewer (404 while there is none)."""
    replay = _replay(match)
    if replay is None:
        abort(404, f"Match {match.id} has no replay (it is {match.status.value}).")
    readable = owned_entrants(database.session(), match, current_user())
    # each decision's sentence beside it, as the server says it: the viewer draws it
    body = json.dumps(redact(with_words(replay), readable), separators=(",", ":")).encode()
    response = Response(mimetype="application/json")
    if request.accept_encodings["gzip"]:
        response.set_data(gzip.compress(body, compresslevel=5))
        response.headers["Content-Encoding"] = "gzip"
    else:
        response.set_data(body)
    response.headers["Vary"] = "Accept-Encoding, Cookie"
    response.headers["Content-Disposition"] = f'attachment; filename="match-{match.id}.json"'
    return response


@bp.get("/<int:match_id>/replay.json")
def replay(match_id: int) -> Response:
    """The replay as JSON, to download or for the viewer."""
    return replay_response(load_match(match_id))
