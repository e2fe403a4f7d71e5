"""Submissions: uploading a bot version, and challenging opponents to an unrated match.

An upload is checked (`arena.uploads`), stored content-addressed, and becomes a *pending*
version; the workers validate pending versions and the version page shows the progress
live. A challenge becomes a queued match with no season.
"""

from __future__ import annotations

from flask import Blueprint, current_app, flash, redirect, render_template, url_for
from sqlalchemy import func, select
from sqlalchemy.orm import Session
from werkzeug.datastructures import FileStorage
from werkzeug.wrappers import Response

from arena.seasons import next_step
from arena.store.bots import BotError, add_version, create_bot
from arena.store.models import Bot, BotVersion, User, VersionStatus
from arena.uploads import Limits, UploadError, inspect_upload

from . import database, quotas
from .auth import current_user, login_required
from .challenges import (
    MAX_OPPONENTS,
    ChallengeError,
    challenge_rules,
    create_challenge,
    find_opponent,
)
from .forms import ChallengeForm, UploadForm, add_error, choices

bp = Blueprint("submissions", __name__)


def read_upload(file: FileStorage) -> tuple[str, bytes]:
    """The uploaded file's name and bytes, read no further than one byte past the cap."""
    limit = current_app.config["UPLOAD_MAX_BYTES"]
    return file.filename or "", file.stream.read(limit + 1)


def submit_bot(
    db: Session,
    owner: User,
    name: str,
    filename: str,
    data: bytes,
    *,
    join_default: bool = True,
) -> tuple[BotVersion, bool]:
    """Check an upload and store it as a new pending version of `owner`'s bot `name`
    (creating the bot); whether a version was created. Uploading the newest version's
    bytes again returns that version (and False). `join_default` False opts out of the
    default season a contestant's first ready bot joins (`arena.seasons.entries`).

    Raises UploadError (`arena.uploads`) or arena.store.bots.BotError.
    """
    inspect_upload(filename, data, Limits(upload_bytes=current_app.config["UPLOAD_MAX_BYTES"]))
    mine = select(Bot).where(Bot.owner_id == owner.id, Bot.name == name)
    bot = db.scalars(mine).one_or_none()
    if bot is None:
        try:
            bot = create_bot(db, owner, name)
        except BotError:  # made by a racing upload between the two reads (PostgreSQL)
            bot = db.scalars(mine).one_or_none()
            if bot is None:
                raise
    newest = db.scalar(select(func.max(BotVersion.id)).where(BotVersion.bot_id == bot.id))
    version = add_version(db, bot, data)
    created = version.id != newest
    if created:
        version.join_default_season = join_default
    return version, created


@bp.route("/upload", methods=["GET", "POST"])
@login_required
def upload() -> Response | tuple[str, int]:
    """Upload a bot: a .py file, or a zip or tar with bot.py and requirements.txt."""
    form = UploadForm()
    user = current_user()
    assert user is not None
    if form.validate_on_submit():
        filename, data = read_upload(form.file.data)
        try:
            for attempt in database.conflict_retries():  # a racing upload of the same name
                with attempt as db:
                    owner = db.get(User, user.id)
                    assert owner is not None
                    quotas.check_upload(db, owner)
                    version, _created = submit_bot(
                        db,
                        owner,
                        form.name.data or "",
                        filename,
                        data,
                        join_default=bool(form.enter.data),
                    )
                    step = next_step(db, version)
        except UploadError as error:
            add_error(form.file, str(error))
        except BotError as error:
            add_error(form.name, str(error))
        else:
            sentence = step[:1].upper() + step[1:]
            flash(f"Uploaded {version.bot.name} version {version.number}. {sentence}.", "success")
            return redirect(url_for("bots.version", version_id=version.id))
    bots = database.session().scalars(select(Bot).where(Bot.owner_id == user.id).order_by(Bot.name))
    return render_template("submissions/upload.html", form=form, bots=list(bots)), (
        400 if form.errors else 200
    )


def _ready_versions(user: User) -> list[tuple[int, str]]:
    rows = database.session().execute(
        select(BotVersion.id, Bot.name, BotVersion.number)
        .join(Bot, Bot.id == BotVersion.bot_id)
        .where(Bot.owner_id == user.id, BotVersion.status == VersionStatus.READY)
        .order_by(Bot.name, BotVersion.number.desc())
    )
    return [(version_id, f"{name} v{number}") for version_id, name, number in rows]


@bp.route("/challenge", methods=["GET", "POST"])
@login_required
def challenge() -> Response | tuple[str, int]:
    """Challenge opponents of your choice to an unrated match."""
    user = current_user()
    assert user is not None
    form = ChallengeForm()
    form.version.choices = choices(_ready_versions(user))
    if form.validate_on_submit():
        references = [r for r in (form.opponents.data or "").split(",") if r.strip()]
        try:
            if len(references) > MAX_OPPONENTS:  # checked before any name is looked up
                raise ChallengeError(f"name at most {MAX_OPPONENTS} opponents")
            with database.writing() as db:
                quotas.check_challenge(db, user)
                opponents = [find_opponent(db, reference) for reference in references]
                mine = db.get(BotVersion, form.version.data)
                if mine is None or mine.bot.owner_id != user.id:
                    raise ChallengeError("choose one of your own ready bots")
                rules = challenge_rules(
                    form.preset.data or "standard", len(references) + 1, form.hands.data
                )
                match = create_challenge(db, mine, opponents, rules)
        except ChallengeError as error:
            add_error(form.opponents, str(error))
        else:
            flash("Challenge queued: the match runs as soon as a worker is free.", "success")
            return redirect(url_for("matches.show", match_id=match.id))
    db = database.session()
    house = db.scalars(
        select(Bot.name)
        .where(Bot.is_house.is_(True), Bot.name != "person")  # a person's seat: not a bot
        .order_by(Bot.name)
    )
    demo = db.execute(
        select(User.username, Bot.name)
        .join(User, User.id == Bot.owner_id)
        .where(Bot.trusted.is_(True), Bot.is_house.is_(False))
        .order_by(Bot.name)
    )
    page = render_template(
        "submissions/challenge.html",
        form=form,
        house=list(house),
        demo=[f"{owner}/{name}" for owner, name in demo],
    )
    return page, (400 if form.errors else 200)
