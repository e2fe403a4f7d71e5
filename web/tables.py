"""Human tables: a signed-in person plays a match against three bots in the browser (issue 34).

`GET /tables/new` (from the challenge page, or `?bot=<id>` from a bot's page: "play
against this bot") makes a table: the preset, the bots in the other seats (house bots,
your own, any ready bot, named `owner/bot`), the seconds per decision, the hands. The
table is a queued, unrated match with the person's seat held by the house's person bot
(arena/store/people.py); a worker plays it as any match, asking the person's decisions
through the store.

`GET /tables/<id>` is the person's page (anyone else is sent to the match's page, where
spectators watch it live with every hidden card hidden; at a table made with "show
spectators every hand's cards once the hand is over", every card of a hand is shown them
once that hand is over: web/live.py's `Cut`). Its script reads
`GET /tables/<id>/state`, which answers the table's latest moment as the person's seat saw
it (only that seat's view: the worker never writes more), with the decision asked, its
legal answers and the seconds left; then follows `GET /tables/<id>/live`, the same moments
and the match's live events cut for that seat as a stream (web/table_live.py: a bot's card
shows as it is played; `arena live` holds it when it stands in front), falling back to
polling the state when the stream is refused. It posts the person's answer to
`POST /tables/<id>/answer`, which takes only an answer the decision offers. A reload asks
the state again and resumes where the table stands.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from flask import Blueprint, abort, flash, jsonify, redirect, render_template, request, url_for
from sqlalchemy import select
from werkzeug.wrappers import Response
from wtforms import BooleanField, IntegerField, SelectField, StringField, SubmitField
from wtforms.validators import DataRequired, Length, NumberRange, Optional

from arena.engine import PRESETS
from arena.match.human import AnswerError, check_answer
from arena.store.models import Bot, BotVersion, Match, MatchSeat, User, VersionStatus
from arena.store.people import (
    MAX_HANDS,
    MAX_SECONDS,
    MIN_SECONDS,
    PERSON_BOT,
    HumanTable,
    TableError,
    TableMoment,
    answer_moment,
    create_table,
    human_ladder,
    human_table,
    latest_moment,
)

from . import database
from .auth import current_user, login_required
from .challenges import ChallengeError, challenge_rules, find_opponent
from .forms import FlaskForm, add_error, choices
from .live import held_stream
from .loaders import load_match
from .table_live import TableWatcher, moment_state, requested_position, stream_table

bp = Blueprint("tables", __name__, url_prefix="/tables")


class TableForm(FlaskForm):
    """A new human table: the rules, the bots in the other seats, the clock."""

    preset = SelectField(
        "Rules",
        choices=choices((name, name.replace("_", " ")) for name in sorted(PRESETS)),
        default="standard",
    )
    opponents = StringField(
        "Bots at the table",
        description="owner/bot names separated by commas: house bots, your own, any ready bot",
        validators=[DataRequired(), Length(max=500)],
    )
    seat = IntegerField("Your seat", default=0, validators=[Optional(), NumberRange(0, 9)])
    seconds = IntegerField(
        "Seconds per decision",
        default=60,
        validators=[Optional(), NumberRange(int(MIN_SECONDS), int(MAX_SECONDS))],
    )
    hands = IntegerField("Hands", default=1, validators=[Optional(), NumberRange(1, MAX_HANDS)])
    show_after_hand = BooleanField(
        "Show spectators every hand's cards once the hand is over",
        description="off: spectators see only the cards played until the match is over",
    )
    submit = SubmitField("Sit down")


DEFAULT_OPPONENTS = ("house/heuristic-1", "house/heuristic-2", "house/random-1")
"""The bots a new table offers when the person names none (house bots exist everywhere)."""


def _bot_name(bot_id: int | None) -> str | None:
    if bot_id is None:
        return None
    row = (
        database.session()
        .execute(
            select(User.username, Bot.name)
            .join(User, User.id == Bot.owner_id)
            .where(Bot.id == bot_id)
        )
        .first()
    )
    return f"{row[0]}/{row[1]}" if row else None


@bp.route("/new", methods=["GET", "POST"])
@login_required
def new() -> Response | tuple[str, int]:
    """Sit at a new table: the rules, the bots in the other seats, the clock."""
    user = current_user()
    assert user is not None
    form = TableForm()
    if request.method == "GET":
        against = _bot_name(request.args.get("bot", type=int))
        names = list(DEFAULT_OPPONENTS)
        if against:
            names = [against, *(n for n in names if n != against)][:3]
        form.opponents.data = ", ".join(names)
    if form.validate_on_submit():
        references = [r for r in (form.opponents.data or "").split(",") if r.strip()]
        try:
            if len(references) > 9:
                raise TableError("name at most 9 bots")
            with database.writing() as db:
                opponents = [find_opponent(db, reference) for reference in references]
                rules = challenge_rules(
                    form.preset.data or "standard", len(references) + 1, form.hands.data or 1
                )
                match = create_table(
                    db,
                    user,
                    opponents,
                    rules,
                    seat=min(form.seat.data or 0, rules.players - 1),
                    per_decision=float(form.seconds.data or 60),
                    show_after_hand=bool(form.show_after_hand.data),
                )
        except (ChallengeError, TableError) as error:
            add_error(form.opponents, str(error))
        else:
            flash("Your table is queued: the first hand is dealt as soon as a worker is free.")
            return redirect(url_for("tables.show", match_id=match.id))
    page = render_template("tables/new.html", form=form, bots=ready_bots())
    return page, (400 if form.errors else 200)


def _table(match_id: int) -> tuple[Match, HumanTable]:
    match = load_match(match_id)
    table = human_table(database.session(), match.id)
    if table is None:
        abort(404, f"Match {match_id} is not a human table.")
    return match, table


def _own_table(match_id: int) -> tuple[Match, HumanTable]:
    """The table if the signed-in person sits at it: 401 signed out, 403 anyone else."""
    user = current_user()
    if user is None:
        abort(401, "Sign in to play at your table.")
    match, table = _table(match_id)
    if table.user_id != user.id:
        abort(403, "This is another person's table: watch it from the match's page.")
    return match, table


def seat_labels(match: Match, table: HumanTable) -> list[str]:
    """Who sits where: `you` at the person's seat, `owner/bot vN` at the others."""
    rows = (
        database.session()
        .execute(
            select(MatchSeat.seat, User.username, Bot.name, BotVersion.number)
            .join(BotVersion, BotVersion.id == MatchSeat.bot_version_id)
            .join(Bot, Bot.id == BotVersion.bot_id)
            .join(User, User.id == Bot.owner_id)
            .where(MatchSeat.match_id == match.id)
            .order_by(MatchSeat.seat)
        )
        .all()
    )
    return [
        "you" if seat == table.seat else f"{owner}/{name} v{number}"
        for seat, owner, name, number in rows
    ]


@bp.get("/<int:match_id>")
def show(match_id: int) -> Response | str:
    """The person's table; anyone else watches the match's page."""
    match, table = _table(match_id)
    user = current_user()
    if user is None or user.id != table.user_id:
        return redirect(url_for("matches.show", match_id=match.id))
    return render_template(
        "tables/show.html", match=match, table=table, seats=seat_labels(match, table)
    )


@bp.get("/<int:match_id>/state")
def state(match_id: int) -> Response:
    """The table as the person's seat sees it now (JSON; `after`: the last moment seen)."""
    match, table = _own_table(match_id)
    after = request.args.get("after", default=0, type=int)
    db = database.session()
    moment = latest_moment(db, match.id)
    now = datetime.now(UTC)
    body: dict[str, Any] = {
        "status": match.status.value,
        "reason": match.status_reason,
        "seat": table.seat,
        "number": moment.number if moment else 0,
    }
    if moment is None or moment.number > after or moment.kind == "ask":
        body["moment"] = moment_state(moment, now)
    if match.status.value in ("done", "failed", "void"):
        body["replay"] = url_for("matches.show", match_id=match.id)
    response = jsonify(body)
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/<int:match_id>/live")
def live(match_id: int) -> Response:
    """The person's table as server-sent events: the seat's moments and the match's live
    events cut for that seat (web/table_live.py); `Last-Event-ID` or `?after=batch:moment`
    resumes. Through `arena live` when it stands in front, else from the site itself."""
    match, table = _own_table(match_id)
    batch, moment = requested_position()
    watcher = TableWatcher(match.id, frozenset({table.seat}), batch, moments=moment)
    return held_stream(
        watcher,
        lambda sessions, poll, duration: stream_table(
            sessions, watcher, poll=poll, duration=duration
        ),
    )


@bp.post("/<int:match_id>/answer")
def answer(match_id: int) -> tuple[Response, int] | Response:
    """Take the person's answer to the decision asked now ({"number", "cards"} or
    {"number", "choice"}): 400 for one the decision does not offer, 409 when that decision
    is no longer waiting (answered, or its clock ran out)."""
    match, _table_row = _own_table(match_id)
    data = request.get_json(silent=True)
    if not isinstance(data, dict) or type(data.get("number")) is not int:
        return jsonify({"error": "send the decision's number and your answer"}), 400
    db = database.session()
    moment = db.scalars(
        select(TableMoment).where(
            TableMoment.match_id == match.id, TableMoment.number == data["number"]
        )
    ).one_or_none()
    if moment is None or moment.kind != "ask":
        return jsonify({"error": f"moment {data['number']} is not a decision"}), 409
    try:
        checked = check_answer(moment.payload["ask"], data)
    except AnswerError as error:
        return jsonify({"error": str(error)}), 400
    table_id, number = match.id, moment.number
    db.rollback()  # the write lock is taken before the write's first read
    try:
        answer_moment(db, table_id, number, checked, now=datetime.now(UTC))
    except TableError as error:
        return jsonify({"error": str(error)}), 409
    return jsonify({"number": number, "answer": checked})


def ready_bots() -> list[str]:
    """Every bot with a ready version, as `owner/bot` (the new table's suggestions)."""
    rows = database.session().execute(
        select(User.username, Bot.name)
        .join(User, User.id == Bot.owner_id)
        .where(
            Bot.id.in_(select(BotVersion.bot_id).where(BotVersion.status == VersionStatus.READY)),
            ~((Bot.name == PERSON_BOT) & Bot.is_house.is_(True)),
        )
        .order_by(User.username, Bot.name)
        .limit(500)
    )
    return [f"{owner}/{name}" for owner, name in rows]


@bp.get("/ladder")
def ladder() -> str:
    """The human ladder: people rated by their tables against bots (never the bots' own
    ladders: a bot's rating here is its own human-ladder rating, kept apart)."""
    return render_template("tables/ladder.html", rows=human_ladder(database.session()))
