"""A league season's leagues: each league's boss and entrants, and each entrant's progress
to promotion (`arena.seasons.leagues`); an admin changes its bosses there while it runs
(`arena.seasons.league_changes`: what that does to the bots already placed is said on the
form and in docs/ratings.md, "Changing the leagues")."""

from __future__ import annotations

import dataclasses
from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, url_for
from sqlalchemy import select
from werkzeug.wrappers import Response
from wtforms import StringField, SubmitField
from wtforms.validators import DataRequired, Length

from arena.seasons.errors import SeasonError
from arena.seasons.league_changes import change_bosses
from arena.seasons.leagues import Standing, league_name, standings
from arena.seasons.rounds import lock_season
from arena.store.models import Bot, LeaguePlace, SeasonLeagues, SeasonStatus, User

from . import database
from .auth import admin_required
from .forms import FlaskForm, add_error
from .loaders import load_season

bp = Blueprint("leagues", __name__, url_prefix="/seasons")


class BossesForm(FlaskForm):
    """An admin's change to a league season's bosses (weakest first)."""

    bosses = StringField(
        "Bosses (house bots, weakest first)",
        description="e.g. random heuristic strong: one league per boss, and the top above",
        validators=[DataRequired(), Length(max=200)],
    )
    submit = SubmitField("Change the bosses")


@dataclasses.dataclass(frozen=True)
class League:
    """One league as a page shows it."""

    number: int
    name: str
    boss: str | None
    rows: list[dict[str, Any]]


def progress_text(row: Standing, min_games: int) -> str:
    """An entrant's progress to promotion in words.

    >>> from arena.seasons.leagues import Verdict
    >>> from datetime import datetime, UTC
    >>> row = Standing(1, 2, 0, datetime.now(UTC), "random", Verdict(8, -2.0, -3.0, -1.0, False, 4))
    >>> progress_text(row, 10)
    'needs about 4 more games'
    """
    verdict = row.verdict
    if row.boss is None:
        return "top league: no boss above it"
    if verdict.games == 0:
        return f"no games against {row.boss} yet (at least {min_games} needed)"
    if verdict.needs is None:
        return f"not ahead of {row.boss} yet after {_games(verdict.games)}"
    if verdict.needs == 0:
        return "promoted at the next round"
    return f"needs about {verdict.needs} more {'game' if verdict.needs == 1 else 'games'}"


def _games(count: int) -> str:
    return "1 game" if count == 1 else f"{count} games"


def league_rows(season_id: int) -> tuple[SeasonLeagues, list[League]]:
    """The season's leagues, top first, each with its entrants' rows; 404 for a season that
    does not run as leagues."""
    db = database.session()
    try:
        config, found = standings(db, season_id)
    except SeasonError as error:
        abort(404, str(error))
    names = {
        bot_id: (name, owner)
        for bot_id, name, owner in db.execute(
            select(Bot.id, Bot.name, User.username)
            .join(User, User.id == Bot.owner_id)
            .where(Bot.id.in_([r.bot_id for r in found]))
        )
    }
    promotions: dict[int, list[LeaguePlace]] = {}
    for place in db.scalars(
        select(LeaguePlace).where(
            LeaguePlace.season_id == season_id, LeaguePlace.promoted_at.is_not(None)
        )
    ):
        promotions.setdefault(place.bot_id, []).append(place)
    leagues = []
    count = len(config.bosses)
    for number in range(count, -1, -1):
        rows = [
            {
                "bot_id": r.bot_id,
                "bot": names.get(r.bot_id, ("?", "?"))[0],
                "owner": names.get(r.bot_id, ("?", "?"))[1],
                "version_id": r.version_id,
                "reached_at": r.reached_at,
                "verdict": r.verdict,
                "progress": progress_text(r, config.min_games),
                "promotions": sorted(p.league for p in promotions.get(r.bot_id, [])),
            }
            for r in found
            if min(r.league, count) == number  # past the last boss: the top league
        ]
        boss = config.bosses[number] if number < count else None
        leagues.append(League(number, league_name(number, count), boss, rows))
    return config, leagues


@bp.get("/<int:season_id>/leagues")
def show(season_id: int) -> str:
    """A league season's leagues, top first: each one's boss, its entrants and how far
    each is from beating the boss."""
    season = load_season(season_id)
    config, leagues = league_rows(season_id)
    form = BossesForm(formdata=None, bosses=" ".join(config.bosses))
    return render_template(
        "leagues/show.html", season=season, config=config, leagues=leagues, form=form
    )


@bp.post("/<int:season_id>/leagues")
@admin_required
def change(season_id: int) -> Response | tuple[str, int]:
    """Change a league season's bosses (admins): 400 with the form for an edit the leagues
    refuse (an unknown or repeated boss, a league that holds bots removed), 409 for a
    finished season, 404 for a season without leagues."""
    season = load_season(season_id)
    form = BossesForm()
    if form.validate_on_submit():
        kinds = (form.bosses.data or "").replace(",", " ").split()
        try:
            with database.writing() as db:
                locked = lock_season(db, season_id)
                if locked.status is SeasonStatus.FINISHED:
                    abort(409, "The season is finished: its leagues are frozen.")
                change_bosses(db, locked, kinds)
        except SeasonError as error:
            add_error(form.bosses, str(error))
        else:
            flash(f"Bosses changed: {', '.join(kinds)}. Every bot keeps its league.", "success")
            return redirect(url_for("leagues.show", season_id=season_id))
    elif "csrf_token" in form.errors:
        abort(400, "The form's CSRF token is missing or expired: reload the page and try again.")
    config, leagues = league_rows(season_id)
    page = render_template(
        "leagues/show.html", season=season, config=config, leagues=leagues, form=form
    )
    return page, 400
