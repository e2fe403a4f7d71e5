"""Bots and their versions: status and validation log, ratings over time, recent matches,
head-to-head results, per-seat figures; the owner's logs (owner and admins only).

The owner also decides where the bot plays: enter it in a season, withdraw it, or pin the
version that plays for it (`arena.seasons.entries`); every version says what happens next.

A version's status reason can hold the bot's own words (a rejection quotes its exception,
up to 4,000 characters, whatever they hold): the owner and admins read it whole, anyone
else only the kind of failure (`public_reason`), as with the bot's other logs.
"""

from __future__ import annotations

import re
from typing import Any, Final

from flask import Blueprint, abort, flash, jsonify, redirect, render_template, request, url_for
from sqlalchemy import select
from werkzeug.wrappers import Response
from wtforms import BooleanField, SubmitField

from arena.seasons import (
    SeasonError,
    enter_bot,
    next_step,
    pin_version,
    playing_version,
    withdraw_bot,
)
from arena.seasons.entries import entered_seasons
from arena.store.bots import archive_content
from arena.store.dispatch import REQUEUED
from arena.store.models import (
    Bot,
    BotVersion,
    MatchSeat,
    Rating,
    Season,
    SeasonStatus,
    VersionStatus,
)
from arena.store.stats import (
    bot_seasons,
    head_to_head,
    rating_history,
    recent_matches,
    seat_stats,
)
from arena.uploads import archive_kind

from . import database
from .auth import current_user
from .charts import elo_chart
from .forms import EnterForm, FlaskForm, PinForm, WithdrawForm, choices
from .loaders import load_bot, load_match, load_version, may_see_logs, require_logs
from .replays import stored_replay

bp = Blueprint("bots", __name__)


class NotesPublicForm(FlaskForm):
    """The owner's opt-in to publish the bot's notes in the open data (docs/open-data.md:
    without it the dumps leave them out)."""

    public = BooleanField("Publish this bot's match notes in the open data")
    submit = SubmitField("Save")


SETTLED_STATUSES = frozenset({VersionStatus.READY, VersionStatus.REJECTED, VersionStatus.DISABLED})

PLATFORM_FAILURES: Final = (
    "the platform failed to validate it twice",
    "the platform could not finish validating this version twice",
    "this platform cannot run uploaded bots",
)
"""How the reasons of versions our side could not validate start (arena.store.dispatch,
workers.validation): the public reads that much of them."""
REFUSED_PUBLICLY: Final = "refused before it could play (its owner sees why)"
"""A rejection's public reason when the reason is not one of the known forms (an archive
or requirements refused by the worker, or words we do not know)."""
_KIND: Final = re.compile(r"[a-z][a-z_ -]{0,47}")
_CLAUSE: Final = re.compile(r" — |: | \(|; ")


def public_reason(status: VersionStatus, reason: str | None) -> str | None:
    """What anyone may read of a version's status reason: its kind, never the bot's words.

    A ready version's reason is the platform's own and is shown whole; a check's failure
    ("failed: <kind> — <the bot's words>") and a version put back in the queue show their
    kind; the platform's own failures their first clause; anything else a fixed sentence.

    >>> public_reason(VersionStatus.REJECTED, "failed: error — ValueError: \u202eboom")
    'failed: error'
    >>> public_reason(VersionStatus.REJECTED, "failed: protocol: on Play the stream ended")
    'failed: protocol'
    >>> public_reason(VersionStatus.PENDING, "requeued: platform error: KeyError: 'x'")
    'requeued: platform error'
    >>> public_reason(VersionStatus.REJECTED, "'evil\\u202e.py' is a symbolic link")
    'refused before it could play (its owner sees why)'
    >>> public_reason(VersionStatus.READY, "passed: ready, then 2 hands")
    'passed: ready, then 2 hands'
    """
    if reason is None or status is VersionStatus.READY:
        return reason
    for prefix in ("failed: ", f"{REQUEUED}: "):
        if reason.startswith(prefix):
            kind = _CLAUSE.split(reason.removeprefix(prefix), maxsplit=1)[0]
            return prefix + kind if _KIND.fullmatch(kind) else prefix.removesuffix(": ")
    for failure in PLATFORM_FAILURES:
        if reason.startswith(failure):
            return failure
    return REFUSED_PUBLICLY


def shown_reason(version: BotVersion) -> str | None:
    """The version's status reason as the signed-in user may read it: whole for the bot's
    owner and admins, its kind for anyone else (`public_reason`)."""
    if may_see_logs(version.bot):
        return version.status_reason
    return public_reason(version.status, version.status_reason)


def _versions(bot_id: int) -> list[BotVersion]:
    return list(
        database.session().scalars(
            select(BotVersion).where(BotVersion.bot_id == bot_id).order_by(BotVersion.number.desc())
        )
    )


def _open_seasons() -> list[Season]:
    return list(
        database.session().scalars(
            select(Season)
            .where(Season.status != SeasonStatus.FINISHED)
            .order_by(Season.starts_at.desc())
        )
    )


@bp.get("/bots/<int:bot_id>")
def show(bot_id: int) -> str:
    """A bot: versions, rating history in a season, recent matches, head-to-head, seats."""
    bot = load_bot(bot_id)
    db = database.session()
    versions = _versions(bot.id)
    seasons = bot_seasons(db, bot.id)
    chosen = request.args.get("season", type=int)
    season = next((s for s in seasons if s.id == chosen), seasons[0] if seasons else None)
    ids = [v.id for v in versions]
    history = rating_history(db, season.id, ids) if season is not None else []
    ratings = (
        db.scalars(
            select(Rating).where(Rating.season_id == season.id, Rating.bot_version_id.in_(ids))
        ).all()
        if season is not None
        else []
    )
    owner_view = may_see_logs(bot)
    user = current_user()
    owner = user is not None and user.id == bot.owner_id and not bot.is_house
    entered = entered_seasons(db, bot.id)
    playing = playing_version(db, bot)
    return render_template(
        "bots/show.html",
        bot=bot,
        versions=versions,
        seasons=seasons,
        season=season,
        chart=elo_chart([p.elo for p in history]),
        history=history,
        ratings={r.bot_version_id: r for r in ratings},
        matches=recent_matches(db, bot.id, limit=20),
        rivals=head_to_head(db, bot.id),
        seats=seat_stats(db, bot.id),
        owner_view=owner_view,
        reasons={v.id: shown_reason(v) for v in versions},
        entered=entered,
        playing=playing,
        next_step=next_step(db, versions[0]) if versions else None,
        enter=_enter_form(bot.id, entered) if owner else None,
        pin=_pin_form(bot.pinned_number or 0, versions) if owner else None,
        withdraw=WithdrawForm(formdata=None) if owner else None,
        notes_form=NotesPublicForm(formdata=None, public=bot.notes_public) if owner else None,
    )


def _enter_form(bot_id: int, entered: list[tuple[Season, BotVersion]]) -> EnterForm | None:
    """The form entering the bot in a season it is not in (None when there is none)."""
    taken = {season.id for season, _ in entered}
    form = EnterForm(formdata=None)
    form.season.choices = choices((s.id, s.name) for s in _open_seasons() if s.id not in taken)
    return form if form.season.choices else None


def _pin_form(pinned: int, versions: list[BotVersion]) -> PinForm:
    """The form choosing the version that plays (0: the newest ready one)."""
    form = PinForm(formdata=None, version=pinned)
    form.version.choices = _pin_choices(versions)
    return form


def _pin_choices(versions: list[BotVersion]) -> Any:
    ready = [v for v in versions if v.status is VersionStatus.READY]
    return choices([(0, "the newest ready version")] + [(v.number, f"v{v.number}") for v in ready])


def _owned_bot(bot_id: int) -> Bot:
    """The bot, if the signed-in user owns it (401/403 otherwise; house bots are not)."""
    bot = load_bot(bot_id)
    user = current_user()
    if user is None:
        abort(401, "Sign in to change where your bot plays.")
    if user.id != bot.owner_id or bot.is_house:
        abort(403, "Only the bot's owner may change where it plays.")
    return bot


@bp.post("/bots/<int:bot_id>/enter")
def enter(bot_id: int) -> Response:
    """Enter the bot in a season: the version that plays for it takes a place there."""
    bot = _owned_bot(bot_id)
    form = EnterForm()
    form.season.choices = choices((s.id, s.name) for s in _open_seasons())
    if not form.validate_on_submit():
        abort(400, "Choose a season that is not finished.")
    try:
        with database.writing() as db:
            enter_bot(db, bot.id, int(form.season.data or 0))
            playing = playing_version(db, bot)
            step = "" if playing is None else f"v{playing.number}: {next_step(db, playing)}"
    except SeasonError as error:
        abort(409, str(error))
    flash(f"{bot.name} entered. {step}", "success")
    return redirect(url_for("bots.show", bot_id=bot.id))


@bp.post("/bots/<int:bot_id>/withdraw")
def withdraw(bot_id: int) -> Response:
    """Take the bot out of a season (its games and ratings there stay on record)."""
    bot = _owned_bot(bot_id)
    form = WithdrawForm()
    if not form.validate_on_submit():
        abort(400, "Say which season to withdraw from.")
    season_id = int(form.season.data or 0)
    try:
        with database.writing() as db:
            season = db.get(Season, season_id)
            if season is None:
                abort(404, f"There is no season {season_id}.")
            name = season.name
            was_in = withdraw_bot(db, bot.id, season_id)
    except SeasonError as error:
        abort(409, str(error))
    flash(
        f"{bot.name} is out of {name}: no more tables there."
        if was_in
        else f"{bot.name} was not in {name}.",
        "info",
    )
    return redirect(url_for("bots.show", bot_id=bot.id))


@bp.post("/bots/<int:bot_id>/pin")
def pin(bot_id: int) -> Response:
    """Pin the version that plays for the bot, or follow the newest ready one (0)."""
    bot = _owned_bot(bot_id)
    form = PinForm()
    form.version.choices = _pin_choices(_versions(bot.id))
    if not form.validate_on_submit():
        abort(400, "Choose one of the bot's ready versions.")
    number = int(form.version.data or 0) or None
    try:
        with database.writing() as db:
            pin_version(db, bot.id, number)
    except SeasonError as error:
        abort(409, str(error))
    flash(
        f"v{number} is pinned: it plays wherever {bot.name} is entered."
        if number
        else f"{bot.name} follows its newest ready version again.",
        "success",
    )
    return redirect(url_for("bots.show", bot_id=bot.id))


@bp.post("/bots/<int:bot_id>/notes-public")
def notes_public(bot_id: int) -> Response:
    """The owner's consent (box ticked) or its withdrawal to publish the bot's notes in the
    open data written from now on (the API's PUT /api/v1/bots/ID/notes-public alike)."""
    bot = _owned_bot(bot_id)
    form = NotesPublicForm()
    if not form.validate_on_submit():
        abort(400, "The form was not valid.")
    public = bool(form.public.data)
    with database.writing() as db:
        owned = db.get(Bot, bot.id)
        assert owned is not None
        owned.notes_public = public
    flash(
        f"{bot.name}'s notes will be published in the open data written from now on."
        if public
        else f"{bot.name}'s notes are left out of the open data written from now on.",
        "success",
    )
    return redirect(url_for("bots.show", bot_id=bot.id))


def version_status(version: BotVersion) -> dict[str, Any]:
    """A version's status as the live page and the API show it (the log and the whole
    reason for its owner and admins)."""
    bot = version.bot
    data: dict[str, Any] = {
        "id": version.id,
        "bot_id": version.bot_id,
        "bot": bot.name,
        "number": version.number,
        "status": version.status.value,
        "reason": shown_reason(version),
        "settled": version.status in SETTLED_STATUSES,
        "created_at": version.created_at.isoformat(),
        "status_changed_at": version.status_changed_at.isoformat(),
        "archive_sha256": version.archive_sha256,
        "next": next_step(database.session(), version),
    }
    if may_see_logs(bot):
        data["log"] = version.status_detail
    return data


@bp.get("/versions/<int:version_id>")
def version(version_id: int) -> str:
    """A bot version: its status (updated live while it validates) and validation log."""
    found = load_version(version_id)
    return render_template(
        "bots/version.html",
        version=found,
        bot=found.bot,
        status=version_status(found),
        owner_view=may_see_logs(found.bot),
    )


@bp.get("/versions/<int:version_id>/status")
def status(version_id: int) -> Response:
    """The version's status as JSON (what the version page polls)."""
    response = jsonify(version_status(load_version(version_id)))
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/versions/<int:version_id>/archive")
def archive(version_id: int) -> Response:
    """The uploaded archive, as uploaded (the owner and admins only)."""
    found = load_version(version_id)
    require_logs(found.bot)
    content = archive_content(database.session(), found.archive_sha256)
    suffix = {"zip": "zip", "tar": "tar", "file": "py"}[archive_kind(content)]
    response = Response(content, mimetype="application/octet-stream")
    name = f"{found.bot.name}-v{found.number}.{suffix}"
    response.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@bp.get("/bots/<int:bot_id>/logs")
def logs(bot_id: int) -> str:
    """The bot's logs: validation logs and its matches' faults (the owner and admins only)."""
    bot = load_bot(bot_id)
    require_logs(bot)
    return render_template(
        "bots/logs.html",
        bot=bot,
        versions=_versions(bot.id),
        matches=recent_matches(database.session(), bot.id, limit=50),
    )


@bp.get("/bots/<int:bot_id>/logs/<int:match_id>")
def match_log(bot_id: int, match_id: int) -> str:
    """What the bot wrote to stderr in one match, and its faults (owner and admins only)."""
    bot = load_bot(bot_id)
    require_logs(bot)
    match = load_match(match_id)
    db = database.session()
    seats = db.scalars(
        select(MatchSeat.seat)
        .join(BotVersion, BotVersion.id == MatchSeat.bot_version_id)
        .where(MatchSeat.match_id == match.id, BotVersion.bot_id == bot.id)
    ).all()
    if not seats:
        abort(404, f"{bot.name} did not play match {match_id}.")
    replay = stored_replay(db, match.id)  # its logs and faults: the same in either version
    entries = []
    for seat in seats:
        logs_text = replay["logs"][seat] if replay and seat < len(replay["logs"]) else None
        faults = [f for f in (replay or {}).get("faults", []) if f.get("entrant") == seat]
        entries.append({"seat": seat, "log": logs_text, "faults": faults})
    return render_template("bots/match_log.html", bot=bot, match=match, entries=entries)
