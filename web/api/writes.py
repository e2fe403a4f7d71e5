"""The API's writes: uploading a bot version, and challenging opponents (token required)."""

from __future__ import annotations

import re
from typing import Any

from flask import abort, request, url_for

from arena.store.bots import BotError
from arena.store.models import BotVersion, User
from arena.uploads import UploadError

from .. import database, quotas
from ..bots import version_status
from ..bounds import is_id, quoted
from ..challenges import (
    MAX_OPPONENTS,
    MAX_REFERENCE,
    ChallengeError,
    challenge_rules,
    create_challenge,
    find_opponent,
)
from ..errors import fail
from ..forms import NAME_MESSAGE, NAME_PATTERN
from ..submissions import read_upload, submit_bot
from .blueprint import api, api_user
from .reads import match_json


@api.post("/bots/<name>/versions")
def upload(name: str) -> tuple[dict[str, Any], int, dict[str, str]]:
    """Upload a new version of your bot `name` (made on first upload): multipart `file`,
    and `enter=false` (a form field or in the query) to keep a first bot out of the
    default season.

    201 with the new pending version; 200 with the existing one when the bytes are those
    of the bot's newest version; either way `next` says what happens next. 413 too
    large; 422 for an upload that is unsafe or not a bot (`error.reason` says which check
    failed).
    """
    user = api_user(required=True)
    assert user is not None
    if not re.match(NAME_PATTERN, name) or len(name) > 64:
        abort(400, f"The bot name {quoted(name)} is not allowed: use {NAME_MESSAGE}.")
    file = request.files.get("file")
    if file is None:
        abort(400, "Send the bot as a multipart/form-data field named 'file'.")
    join_default = _flag(request.values.get("enter", "true"), "enter")  # form or query
    filename, data = read_upload(file)
    try:
        for attempt in database.conflict_retries():  # a racing upload of the same name
            with attempt as db:
                owner = db.get(User, user.id)
                assert owner is not None
                quotas.check_upload(db, owner)
                version, created = submit_bot(
                    db, owner, name, filename, data, join_default=join_default
                )
                body = version_status(version)
    except UploadError as error:
        fail(413 if error.reason == "too_large" else 422, str(error), reason=error.reason)
    except BotError as error:
        abort(409, str(error))
    location = url_for("api.version", version_id=version.id)
    return body, 201 if created else 200, {"Location": location}


def _flag(text: str, name: str) -> bool:
    """A form flag: true/1/yes or false/0/no (400 otherwise)."""
    value = text.strip().lower()
    if value in ("true", "1", "yes", "on"):
        return True
    if value in ("false", "0", "no", "off"):
        return False
    abort(400, f"'{name}' must be true or false, not {quoted(text)}.")


def _json_body() -> dict[str, Any]:
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        abort(400, "Send a JSON object (Content-Type: application/json).")
    return body


@api.post("/challenges")
def challenge() -> tuple[dict[str, Any], int, dict[str, str]]:
    """Challenge opponents to an unrated match: JSON {version, opponents, rules?, hands?}."""
    user = api_user(required=True)
    assert user is not None
    body = _json_body()
    version_id, opponents = body.get("version"), body.get("opponents")
    rules_name, hands = body.get("rules", "standard"), body.get("hands")
    if not isinstance(version_id, int) or isinstance(version_id, bool):
        abort(400, "'version' must be the id of one of your ready bot versions.")
    if not isinstance(opponents, list) or not all(isinstance(o, str) for o in opponents):
        abort(400, "'opponents' must be a list of 'owner/bot' names.")
    if len(opponents) > MAX_OPPONENTS or any(len(o) > MAX_REFERENCE for o in opponents):
        abort(
            400,
            f"'opponents' holds at most {MAX_OPPONENTS} names of at most {MAX_REFERENCE} "
            "characters each.",
        )
    if not isinstance(rules_name, str) or len(rules_name) > 64:
        abort(400, "'rules' must be the name of a rules preset.")
    if hands is not None and (
        not isinstance(hands, int) or isinstance(hands, bool) or not 1 <= hands <= 50
    ):
        abort(400, "'hands' must be a whole number from 1 to 50.")
    try:
        with database.writing() as db:
            quotas.check_challenge(db, user)
            mine = db.get(BotVersion, version_id) if is_id(version_id) else None
            if mine is None or mine.bot.owner_id != user.id:
                raise ChallengeError(f"you have no bot version {version_id}")
            rivals = [find_opponent(db, reference) for reference in opponents]
            rules = challenge_rules(rules_name, len(opponents) + 1, hands)
            match = create_challenge(db, mine, rivals, rules)
            body = match_json(match)
    except ChallengeError as error:
        abort(422, str(error))
    return body, 201, {"Location": url_for("api.match", match_id=match.id)}
