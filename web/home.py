"""The front page: the seasons being played, the top of the newest one's ladder, and the
matches playing now (to watch live) and just finished."""

from __future__ import annotations

from flask import Blueprint, render_template
from sqlalchemy import select

from arena.store.live import watchable_matches
from arena.store.models import MatchStatus, Season, SeasonStatus
from arena.store.stats import ladder_page

from . import database

bp = Blueprint("home", __name__)


def featured_season() -> Season | None:
    """The season to show first: the newest running one, else the newest of any status."""
    db = database.session()
    running = db.scalars(
        select(Season)
        .where(Season.status == SeasonStatus.RUNNING)
        .order_by(Season.starts_at.desc(), Season.id.desc())
    ).first()
    return running or db.scalars(select(Season).order_by(Season.id.desc())).first()


@bp.get("/")
def index() -> str:
    """The seasons being played, the top ten of the featured season, the matches being
    played and the last ones finished."""
    season = featured_season()
    top = ladder_page(database.session(), season.id, limit=10) if season is not None else None
    seasons = database.session().scalars(
        select(Season).where(Season.status != SeasonStatus.FINISHED).order_by(Season.starts_at)
    )
    db = database.session()
    return render_template(
        "home.html",
        season=season,
        top=top,
        seasons=list(seasons),
        playing=watchable_matches(db, MatchStatus.RUNNING, limit=8),
        finished=watchable_matches(db, MatchStatus.DONE, limit=8),
    )
