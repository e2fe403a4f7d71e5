"""Seasons: the list, each season's rules in words, schedule, standings and final results;
admins create them, change a scheduled one's window, start, run a round, and finish them.

A round made here is stored as queued matches and nothing more: the workers' dispatch
runs queued matches (the site never talks to the workers).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from flask import Blueprint, abort, flash, g, redirect, render_template, url_for
from sqlalchemy import select
from werkzeug.wrappers import Response
from wtforms import BooleanField, SelectField, SubmitField
from wtforms.validators import AnyOf

from arena.data.export import LICENCES
from arena.engine import RulesError, preset
from arena.ratings.collusion import OwnerPair
from arena.seasons import (
    MatchmakingSettings,
    SeasonError,
    create_season,
    finish_season,
    schedule_round,
    start_season,
)
from arena.seasons.evidence import owner_pairs
from arena.seasons.leagues import DEFAULT_MIN_GAMES, league_settings, set_leagues
from arena.seasons.rounds import lock_season
from arena.store.models import Season, SeasonStatus, User
from arena.store.stats import final_results, ladder_page, season_counts

from . import database
from .auth import admin_required
from .forms import ActionForm, FlaskForm, ScheduleForm, SeasonForm, add_error, choices
from .loaders import load_season
from .rulebook import describe

bp = Blueprint("seasons", __name__, url_prefix="/seasons")


class LicenceForm(FlaskForm):
    """An admin's choice of the licence the season's open data is published under
    (docs/open-data.md; dumps already written keep the licence they were written with)."""

    licence = SelectField(
        "Open data licence",
        choices=choices((key, f"{title} ({key})") for key, (title, _) in LICENCES.items()),
        validators=[AnyOf(list(LICENCES))],
    )
    submit = SubmitField("Save licence")


class AnalysesForm(FlaskForm):
    """An admin's choice of who may ask for the analysis of the season's matches: anyone
    signed in, or only the bots' owners (docs/analysis.md)."""

    public = BooleanField("Anyone signed in may ask for a match's analysis")
    submit = SubmitField("Save")


def cadence_text(seconds: int) -> str:
    """The round cadence as a visitor reads it.

    >>> cadence_text(30), cadence_text(60), cadence_text(600), cadence_text(5400)
    ('every 30 seconds', 'every minute', 'every 10 minutes', 'every 90 minutes')
    """
    if seconds % 3600 == 0:
        hours = seconds // 3600
        return "every hour" if hours == 1 else f"every {hours} hours"
    if seconds % 60 == 0:
        minutes = seconds // 60
        return "every minute" if minutes == 1 else f"every {minutes} minutes"
    return "every second" if seconds == 1 else f"every {seconds} seconds"


def _utc(value: datetime | None) -> datetime:
    assert value is not None
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


@bp.get("/")
def index() -> str:
    """Every season, newest first."""
    seasons = database.session().scalars(
        select(Season).order_by(Season.starts_at.desc(), Season.id.desc())
    )
    return render_template("seasons/index.html", seasons=list(seasons))


@bp.get("/<int:season_id>")
def show(season_id: int) -> str:
    """A season: its rules in words, its schedule and status, standings or final results."""
    season = load_season(season_id)
    db = database.session()
    finished = season.status is SeasonStatus.FINISHED
    schedule = ScheduleForm(
        formdata=None,
        starts_at=season.starts_at.replace(tzinfo=None),
        ends_at=season.ends_at.replace(tzinfo=None),
        cadence_minutes=season.cadence_seconds // 60 or 1,
    )
    return render_template(
        "seasons/show.html",
        season=season,
        rules=describe(season.ruleset.rules),
        rules_json=season.ruleset.data,
        matchmaking=MatchmakingSettings.from_dict(season.matchmaking),
        standings=None if finished else ladder_page(db, season.id, limit=20),
        final=final_results(db, season.id) if finished else None,
        counts=season_counts(db, season.id),
        cadence=cadence_text(season.cadence_seconds),
        action=ActionForm(),
        schedule=schedule,
        owner_pairs=suspicious_pairs(season.id),
        leagues=league_settings(db, season.id),
        licence_form=LicenceForm(formdata=None, licence=season.data_licence),
        licence_name=LICENCES.get(season.data_licence, (season.data_licence, ""))[0],
        analyses_form=AnalysesForm(formdata=None, public=season.public_analyses),
    )


def suspicious_pairs(season_id: int) -> list[tuple[str, str, OwnerPair]] | None:
    """For admins only: the season's owner pairs, most suspicious first (the ten lowest z,
    from `arena.seasons.evidence.owner_pairs`), with the owners' names; None for others."""
    user = g.get("user")
    if user is None or not user.is_admin:
        return None
    db = database.session()
    pairs = owner_pairs(db, season_id)[:10]
    ids = {o for p in pairs for o in p.owners}
    names: dict[Any, str] = dict(
        db.execute(select(User.id, User.username).where(User.id.in_(ids))).all()
    )
    return [(names.get(p.owners[0], "?"), names.get(p.owners[1], "?"), p) for p in pairs]


@bp.route("/new", methods=["GET", "POST"])
@admin_required
def create() -> Response | tuple[str, int]:
    """Create a scheduled season (admins)."""
    form = SeasonForm()
    if form.validate_on_submit():
        try:
            rules = preset(form.preset.data or "standard", form.players.data)
            with database.writing() as db:
                season = create_season(
                    db,
                    name=(form.name.data or "").strip(),
                    rules=rules,
                    starts_at=_utc(form.starts_at.data),
                    ends_at=_utc(form.ends_at.data),
                    cadence=timedelta(minutes=form.cadence_minutes.data or 10),
                    matchmaking=MatchmakingSettings(
                        duplicate_sets=bool(form.duplicate_sets.data),
                        active_choice=bool(form.active_choice.data),
                    ),
                    house_bots=bool(form.house_bots.data) or bool(form.leagues.data),
                    is_default=bool(form.is_default.data),
                )
                if form.leagues.data:  # its bosses are house bots: they are entered
                    bosses = (form.league_bosses.data or "").replace(",", " ").split()
                    set_leagues(
                        db,
                        season,
                        bosses=bosses or None,
                        min_games=form.league_min_games.data or DEFAULT_MIN_GAMES,
                    )
        except (RulesError, SeasonError) as error:
            add_error(form.name, str(error))
        else:
            flash(f"Season {season.name} created.", "success")
            return redirect(url_for("seasons.show", season_id=season.id))
    elif not form.is_submitted():
        now = datetime.now(UTC).replace(second=0, microsecond=0, tzinfo=None)
        form.starts_at.data = now + timedelta(hours=1)
        form.ends_at.data = now + timedelta(days=30)
    return render_template(
        "seasons/new.html", form=form, evidence=format_evidence()
    ), 400 if form.errors else 200


def format_evidence(limit: int = 5) -> list[tuple[Season, dict[str, Any]]]:
    """The latest finished seasons' measured luck (`final_report["evidence"]`): what
    single games and duplicate sets achieved on real entrants, to choose a format by."""
    finished = database.session().scalars(
        select(Season)
        .where(Season.status == SeasonStatus.FINISHED, Season.final_report.is_not(None))
        .order_by(Season.finished_at.desc())
        .limit(limit)
    )
    return [
        (season, season.final_report["evidence"])
        for season in finished
        if season.final_report and season.final_report.get("evidence")
    ]


@bp.post("/<int:season_id>/schedule")
@admin_required
def reschedule(season_id: int) -> Response:
    """Change a scheduled season's window and cadence (admins)."""
    load_season(season_id)
    form = ScheduleForm()
    if not form.validate_on_submit():
        abort(400, "; ".join(f"{k}: {', '.join(v)}" for k, v in form.errors.items()))
    starts, ends = _utc(form.starts_at.data), _utc(form.ends_at.data)
    if ends <= starts:
        abort(400, "The season must end after it starts.")
    with database.writing() as db:
        season = lock_season(db, season_id)
        if season.status is not SeasonStatus.SCHEDULED:
            abort(409, f"The season is {season.status.value}: only a scheduled one can move.")
        season.starts_at, season.ends_at = starts, ends
        season.cadence_seconds = 60 * (form.cadence_minutes.data or 10)
    flash("Schedule saved.", "success")
    return redirect(url_for("seasons.show", season_id=season_id))


@bp.post("/<int:season_id>/licence")
@admin_required
def set_licence(season_id: int) -> Response:
    """Choose the licence of the season's open data (admins): the dumps written from now
    on carry it (`arena data licence` does the same from the command line)."""
    load_season(season_id)
    form = LicenceForm()
    if not form.validate_on_submit():
        abort(400, "; ".join(f"{k}: {', '.join(v)}" for k, v in form.errors.items()))
    with database.writing() as db:
        season = lock_season(db, season_id)
        season.data_licence = form.licence.data
    flash(f"Open data licence set to {form.licence.data}.", "success")
    return redirect(url_for("seasons.show", season_id=season_id))


@bp.post("/<int:season_id>/analyses")
@admin_required
def set_public_analyses(season_id: int) -> Response:
    """Open the analysis of the season's matches to anyone signed in, or close it to the
    bots' owners again (admins); each ask still counts against the asker's quota."""
    load_season(season_id)
    form = AnalysesForm()
    if not form.validate_on_submit():
        abort(400, "; ".join(f"{k}: {', '.join(v)}" for k, v in form.errors.items()))
    with database.writing() as db:
        season = lock_season(db, season_id)
        season.public_analyses = bool(form.public.data)
    who = "anyone signed in" if form.public.data else "the bots' owners"
    flash(f"Analyses of this season's matches: {who} may ask.", "success")
    return redirect(url_for("seasons.show", season_id=season_id))


def _action(season_id: int) -> None:
    load_season(season_id)
    if not ActionForm().validate_on_submit():
        abort(400, "The form was not valid.")


@bp.post("/<int:season_id>/start")
@admin_required
def start(season_id: int) -> Response:
    """Start a scheduled season now (admins)."""
    _action(season_id)
    started = start_season(database.idle(), season_id)
    flash("Season started." if started else "The season was not scheduled.", "info")
    return redirect(url_for("seasons.show", season_id=season_id))


@bp.post("/<int:season_id>/round")
@admin_required
def run_round(season_id: int) -> Response:
    """Make the next round now: its matches are queued for the workers (admins)."""
    _action(season_id)
    try:
        report = schedule_round(database.idle(), season_id, lambda ids: None)
    except SeasonError as error:
        abort(409, str(error))
    flash(f"Round {report.round_number}: {report.tables} tables queued.", "success")
    return redirect(url_for("seasons.show", season_id=season_id))


@bp.post("/<int:season_id>/finish")
@admin_required
def finish(season_id: int) -> Response:
    """Finish the season now, freezing its results (admins)."""
    _action(season_id)
    finished = finish_season(database.idle(), season_id)
    flash("Season finished: results frozen." if finished else "It was already finished.", "info")
    return redirect(url_for("seasons.show", season_id=season_id))
