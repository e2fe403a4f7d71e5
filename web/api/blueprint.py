"""The API's blueprint and what its routes share: the caller's token, ids, pages."""

from __future__ import annotations

from datetime import timedelta
from typing import Any, NoReturn

from flask import Blueprint, abort, current_app, g, request, url_for
from sqlalchemy import select
from werkzeug.datastructures import WWWAuthenticate

from arena.store.accounts import token_hash, user_for_token
from arena.store.models import ApiToken, User
from arena.store.types import utc_now

from .. import database
from ..bounds import quoted

api = Blueprint("api", __name__, url_prefix="/api/v1")

LARGEST = 2**53
"""No id or page number goes beyond this (the databases' integers hold it everywhere)."""

TOKEN_TOUCH_INTERVAL = timedelta(minutes=5)
"""A token's `last_used_at` is written at most this often (reads need no write lock)."""


def _unauthorized(message: str, error: str | None = None) -> NoReturn:
    parameters: dict[str, str | None] = {"realm": "hearts-arena"}
    if error:
        parameters["error"] = error
    abort(401, message, www_authenticate=WWWAuthenticate("Bearer", parameters))


def _token_user(text: str) -> User | None:
    db = database.session()
    token = db.scalars(
        select(ApiToken).where(ApiToken.token_hash == token_hash(text))
    ).one_or_none()
    if token is None or token.revoked_at is not None:
        return None
    if token.last_used_at is not None and utc_now() - token.last_used_at < TOKEN_TOUCH_INTERVAL:
        return token.user
    with database.writing() as db:
        return user_for_token(db, text)


@api.before_request
def authenticate() -> None:
    """Set `g.api_user` from the bearer token (401 for a bad one) or, for reads, the session."""
    header = request.headers.get("Authorization", "")
    g.api_user = None
    if header:
        scheme, _, text = header.partition(" ")
        if scheme.lower() != "bearer" or not text.strip():
            _unauthorized("Use 'Authorization: Bearer <token>'.", "invalid_request")
        user = _token_user(text.strip())
        if user is None:
            _unauthorized("The API token is unknown or revoked.", "invalid_token")
        g.api_user = g.user = user
        g.api_by_token = True
    elif request.method in ("GET", "HEAD", "OPTIONS"):
        g.api_user = g.get("user")


def api_user(*, required: bool = False) -> User | None:
    """The authenticated user; with `required`, 401 when there is none."""
    user: User | None = g.get("api_user")
    if required and user is None:
        _unauthorized("This needs an API token: 'Authorization: Bearer <token>'.")
    return user


def token_user() -> User:
    """The user of the request's bearer token; 401 without one (a session cookie is not
    enough, even to read: what answers to a token only)."""
    user = api_user() if g.get("api_by_token") else None
    if user is None:
        _unauthorized("This needs an API token: 'Authorization: Bearer <token>'.")
    return user


def int_arg(
    name: str, default: int | None = None, *, low: int = 1, high: int | None = None
) -> int | None:
    """An integer query argument within [low, high]; 400 with a clear message otherwise."""
    text = request.args.get(name)
    if text is None or text == "":
        return default
    try:
        value = int(text)
    except ValueError:
        abort(400, f"{name} must be a whole number, not {quoted(text)}.")
    top = LARGEST if high is None else high
    if not low <= value <= top:
        abort(400, f"{name} must be between {low} and {top}, not {value}.")
    return value


def pagination() -> tuple[int, int]:
    """(page, per_page) from the query, checked."""
    size = current_app.config["API_PAGE_SIZE"]
    largest = current_app.config["API_MAX_PAGE_SIZE"]
    page = int_arg("page", 1) or 1
    per_page = int_arg("per_page", size, high=largest) or size
    return page, per_page


def paginated(items: list[Any], total: int, page: int, per_page: int) -> dict[str, Any]:
    """A page of a list with its links."""
    pages = max(1, -(-total // per_page))
    args: dict[str, Any] = {k: v for k, v in request.args.items() if k != "page"}
    endpoint = request.endpoint or ""
    view_args = request.view_args or {}

    def link(number: int) -> str:
        return url_for(endpoint, **view_args, **args, page=number)

    return {
        "items": items,
        "page": page,
        "per_page": per_page,
        "total": total,
        "pages": pages,
        "next": link(page + 1) if page < pages else None,
        "prev": link(page - 1) if 1 < page <= pages else None,
    }
