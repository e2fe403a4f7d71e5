"""Finals: the list, an organiser's new final, and a final's page (its schedule's progress
and standings, refreshed live while it runs). The beat runs finals
(`arena.seasons.finals.advance_finals`); the site only writes rows."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, url_for
from sqlalchemy import select
from werkzeug.wrappers import Response
from wtforms import DateTimeLocalField, IntegerField, SelectField, StringField, SubmitField
from wtforms.validators import DataRequired, Length, NumberRange, Optional

from arena.seasons.brackets import Bracket, bracket
from arena.seasons.finals import (
    FinalError,
    create_final,
    entrants,
    progress,
    season_finalists,
    seat_balance,
    standings,
    tied_places,
)
from arena.store.models import Bot, Final, FinalFormat, FinalStatus, Season, User

from . import database
from .auth import admin_required
from .bounds import is_id
from .forms import FlaskForm, add_error

bp = Blueprint("finals", __name__, url_prefix="/finals")


class FinalForm(FlaskForm):
    """An organiser's new final: the top finalists of a season, frozen at a deadline."""

    name = StringField("Name", validators=[DataRequired(), Length(max=100)])
    season = IntegerField("Season (its top bots are the finalists)", validators=[DataRequired()])
    finalists = IntegerField("Finalists", default=8, validators=[NumberRange(4, 64)])
    format = SelectField(
        "Format",
        choices=[
            ("round_robin", "Balanced round robin of duplicate sets"),
            ("knockout", "Knockout (exhibition): tables of four, top two go on"),
        ],
    )
    freeze_at = DateTimeLocalField("Versions frozen at (UTC)", validators=[DataRequired()])
    worker_share = IntegerField(
        "Worker share (its matches in flight at once)", default=1, validators=[NumberRange(1, 1000)]
    )
    cycles = IntegerField("Passes of the design", default=1, validators=[NumberRange(1, 100)])
    max_cycles = IntegerField(
        "At most (more passes while places are tied)", validators=[Optional(), NumberRange(1, 100)]
    )
    submit = SubmitField("Create final")


def load_final(final_id: int) -> Final:
    """The final, or 404."""
    final = database.session().get(Final, final_id) if is_id(final_id) else None
    if final is None:
        abort(404, f"There is no final {final_id}.")
    return final


@bp.get("/")
def index() -> str:
    """Every final, newest first."""
    finals = database.session().scalars(select(Final).order_by(Final.id.desc()))
    return render_template("finals/index.html", finals=list(finals))


@bp.route("/new", methods=["GET", "POST"])
@admin_required
def create() -> Response | tuple[str, int]:
    """Create a final of a season's top bots (admins)."""
    form = FinalForm()
    if form.validate_on_submit():
        try:
            with database.writing() as db:
                season = db.get(Season, form.season.data)
                if season is None:
                    raise FinalError(f"there is no season {form.season.data}")
                bots = season_finalists(db, season.id, form.finalists.data or 8)
                freeze_at = form.freeze_at.data
                assert freeze_at is not None
                final = create_final(
                    db,
                    name=(form.name.data or "").strip(),
                    rules=season.ruleset.rules,
                    bots=bots,
                    freeze_at=freeze_at.replace(tzinfo=UTC),
                    format=FinalFormat(form.format.data),
                    worker_share=form.worker_share.data or 1,
                    cycles=form.cycles.data or 1,
                    max_cycles=form.max_cycles.data,
                    season_id=season.id,
                )
        except FinalError as error:
            add_error(form.name, str(error))
        else:
            flash(f"Final {final.name} created.", "success")
            return redirect(url_for("finals.show", final_id=final.id))
    elif not form.is_submitted():
        form.freeze_at.data = datetime.now(UTC).replace(second=0, microsecond=0, tzinfo=None)
        form.freeze_at.data += timedelta(hours=1)
    return render_template("finals/new.html", form=form), 400 if form.errors else 200


def final_view(final: Final) -> dict[str, Any]:
    """What the page and the API show of a final: progress, standings, ties, balance."""
    db = database.session()
    finalists = entrants(db, final.id)
    names = dict(
        db.execute(select(Bot.id, Bot.name).where(Bot.id.in_([e.bot_id for e in finalists]))).all()
    )
    owners = dict(
        db.execute(
            select(Bot.id, User.username)
            .join(User, User.id == Bot.owner_id)
            .where(Bot.id.in_([e.bot_id for e in finalists]))
        ).all()
    )
    by_number = {e.number: e for e in finalists}
    order = standings(db, final) if final.status is not FinalStatus.SCHEDULED else []
    lines = [
        {
            "place": s.rank,
            "entrant": s.entrant,
            "bot_id": by_number[int(s.entrant)].bot_id,  # type: ignore[call-overload]
            "bot": names.get(by_number[int(s.entrant)].bot_id, "?"),  # type: ignore[call-overload]
            "owner": owners.get(by_number[int(s.entrant)].bot_id, "?"),  # type: ignore[call-overload]
            "bot_version_id": by_number[int(s.entrant)].bot_version_id,  # type: ignore[call-overload]
            "points": s.points,
            "low": s.low,
            "high": s.high,
            "tables": s.tables,
            "tie_first": s.tie_first,
            "tie_last": s.tie_last,
        }
        for s in order
    ]
    shown = bracket(db, final, len(finalists))
    if shown is not None:
        # A knockout places by the round reached, then points at that round's table: one
        # table a round gives no interval, so the page names the round instead.
        reached = {
            seat.entrant: played.name
            for played in shown.rounds
            for table in played.tables
            for seat in table.seats
        }
        for line, standing in zip(lines, order, strict=True):
            line["reached"] = reached.get(int(standing.entrant))  # type: ignore[call-overload]
    return {
        "id": final.id,
        "name": final.name,
        "status": final.status.value,
        "format": final.format.value,
        "season_id": final.season_id,
        "freeze_at": final.freeze_at.isoformat(),
        "worker_share": final.worker_share,
        "cycles": final.cycles,
        "max_cycles": (final.design or {}).get("max_cycles", final.cycles),
        "lam": (final.design or {}).get("lam"),
        "finalists": [
            {
                "number": e.number,
                "bot_id": e.bot_id,
                "bot": names.get(e.bot_id, "?"),
                "bot_version_id": e.bot_version_id,
            }
            for e in finalists
        ],
        "progress": progress(db, final.id).to_dict(),
        "standings": lines,
        "tied": tied_places(order),
        "balance": seat_balance(db, final) if final.status is not FinalStatus.SCHEDULED else None,
        "error": (final.report or {}).get("error"),
        "bracket": bracket_view(
            shown,
            lambda entrant: names.get(by_number[entrant].bot_id, "?"),
        ),
    }


def bracket_view(shown: Bracket | None, name: Callable[[int], str]) -> dict[str, Any] | None:
    """A knockout's bracket as the page and the API show it (None for a round robin):
    each round's tables with their finalists named, their points per hand and places once
    done, who goes on, and the winner once the Final is done."""
    if shown is None:
        return None
    return {
        "rounds": [
            {
                "stage": played.stage,
                "name": played.name,
                "tables": [
                    {
                        "number": table.number,
                        "match_id": table.match_id,
                        "state": table.state,
                        "seats": [
                            {
                                "entrant": seat.entrant,
                                "bot": name(seat.entrant),
                                "points": seat.points,
                                "place": seat.place,
                                "goes_on": seat.goes_on,
                            }
                            for seat in table.seats
                        ],
                    }
                    for table in played.tables
                ],
            }
            for played in shown.rounds
        ],
        "winner": None if shown.winner is None else _winner(shown, name),
    }


def _winner(shown: Bracket, name: Callable[[int], str]) -> dict[str, Any]:
    """The winner, and who was level with them on points at the Final's table (the
    better seed takes a tie, `designs.next_round`)."""
    first, *others = shown.rounds[-1].tables[0].seats
    level = [name(seat.entrant) for seat in others if seat.points == first.points]
    return {"entrant": first.entrant, "bot": name(first.entrant), "level_with": level}


@bp.get("/<int:final_id>")
def show(final_id: int) -> str:
    """A final: its finalists, its schedule's progress and its standings (live)."""
    final = load_final(final_id)
    return render_template("finals/show.html", final=final, view=final_view(final))


@bp.get("/<int:final_id>/live")
def live(final_id: int) -> str:
    """The live part of a final's page, which the page fetches again while it runs."""
    final = load_final(final_id)
    return render_template("finals/_live.html", final=final, view=final_view(final))
