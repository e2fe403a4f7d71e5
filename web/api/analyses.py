"""The API's analyses of matches (issue 33; docs/analysis.md): read a match's analysis,
ask for one (token required; the site's rules and quota), read a bot's summary."""

from __future__ import annotations

from typing import Any

from flask import url_for

from arena.store import analyses as stored

from .. import database
from ..analyses import ask, state
from ..loaders import load_bot, load_match
from .blueprint import api, api_user


@api.get("/matches/<int:match_id>/analysis")
def match_analysis(match_id: int) -> dict[str, Any]:
    """The match's analysis at the site's depth: `status` (none, queued, running, done,
    failed), its progress (`done` of `total` decisions), and once done `analysis`
    (`arena.analysis.MatchAnalysis.to_dict`: every judged decision with every answer's
    evaluation, the marks and each entrant's summary)."""
    return state(load_match(match_id), api_user())


@api.post("/matches/<int:match_id>/analysis")
def request_match_analysis(match_id: int) -> tuple[dict[str, Any], int, dict[str, str]]:
    """Ask for the match's analysis: 202 when this asked for it, 200 when it was asked
    for already (served from the store, no quota spent); 401 without a token, 403 for a
    match of which no bot is yours (unless its season has public analyses), 429 over
    the day's quota (`ANALYSES_PER_DAY`)."""
    match = load_match(match_id)
    user = api_user(required=True)
    assert user is not None
    _, asked = ask(match, user)
    location = url_for("api.match_analysis", match_id=match.id)
    return state(match, user), 202 if asked else 200, {"Location": location}


@api.get("/bots/<int:bot_id>/analysis")
def bot_analysis(bot_id: int) -> dict[str, Any]:
    """The bot's points lost per hand by phase over its latest analysed matches, its marks
    and its worst decisions there."""
    bot = load_bot(bot_id)
    return {"bot_id": bot.id, **stored.bot_summary(database.session(), bot.id)}
