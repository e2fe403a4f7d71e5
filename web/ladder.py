"""Ladders: a season's standings, sortable and paginated, with a season selector."""

from __future__ import annotations

from collections.abc import Mapping

from flask import Blueprint, abort, current_app, redirect, render_template, request, url_for
from sqlalchemy import select
from werkzeug.wrappers import Response

from arena.bots.descriptions import describe_house_bot
from arena.store.ladder import house_rows
from arena.store.models import Season
from arena.store.stats import (
    DEFAULT_DESCENDING,
    LADDER_SORTS,
    PLAY_SORTS,
    PlayStats,
    ladder_page,
    season_play_table,
)

from . import database
from .bounds import quoted
from .caches import kept_values
from .home import featured_season
from .loaders import load_season

bp = Blueprint("ladder", __name__)

TABLES = "arena.play_tables"


def play_table(season_id: int, sort: str) -> Mapping[int, PlayStats] | None:
    """The season's play figures when `sort` needs them, kept `LADDER_STATS_SECONDS`
    (a minute) in this process: summing a large season's seats takes about a second."""
    if sort not in PLAY_SORTS:
        return None
    seconds = current_app.config["LADDER_STATS_SECONDS"]
    tables = kept_values(current_app, TABLES, seconds)  # computed once, however many ask
    table: Mapping[int, PlayStats] = tables.get(
        season_id, lambda: season_play_table(database.session(), season_id)
    )
    return table


def page_number() -> int:
    """The `page` query argument (1 when absent; 404 when it is not a positive number)."""
    text = request.args.get("page", "1")
    if not text.isdigit() or not 1 <= int(text) <= 1_000_000:
        abort(404, f"There is no page {quoted(text)}.")
    return int(text)


@bp.get("/ladder")
def current() -> Response:
    """The ladder of the season chosen (`season`), else of the featured season."""
    chosen = request.args.get("season", type=int)
    season = load_season(chosen) if chosen is not None else featured_season()
    if season is None:
        abort(404, "There is no season yet.")
    return redirect(url_for("ladder.show", season_id=season.id))


@bp.get("/seasons/<int:season_id>/ladder")
def show(season_id: int) -> str:
    """A page of the season's ladder in the order asked for (`sort`, `order`, `page`)."""
    season = load_season(season_id)
    sort = request.args.get("sort", "rank")
    if sort not in LADDER_SORTS:
        abort(400, f"Unknown order {quoted(sort)}; choose one of {', '.join(LADDER_SORTS)}.")
    order = request.args.get("order")
    if order not in (None, "asc", "desc"):
        abort(400, "The order must be asc or desc.")
    descending = DEFAULT_DESCENDING[sort] if order is None else order == "desc"
    size = current_app.config["LADDER_PAGE_SIZE"]
    number = page_number()
    page = ladder_page(
        database.session(),
        season.id,
        sort=sort,
        descending=descending,
        limit=size,
        offset=(number - 1) * size,
        play_table=play_table(season.id, sort),
    )
    pages = max(1, -(-page.total // size))
    if number > pages:
        abort(404, f"The ladder has {pages} page(s).")
    seasons = database.session().scalars(select(Season).order_by(Season.starts_at.desc())).all()
    return render_template(
        "ladder.html",
        season=season,
        seasons=seasons,
        page=page,
        number=number,
        pages=pages,
        size=size,
        sorts=LADDER_SORTS,
        natural=DEFAULT_DESCENDING,
        house=house_rows(database.session(), season.id) if number == pages else [],
        describe_house_bot=describe_house_bot,
    )
