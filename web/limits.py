"""Sign-in rate limits (Flask-Limiter), per address and per account.

Why: without them, forty wrong passwords and then the right one signed in, and eight
anonymous sign-in loops starved every page (each attempt is an argon2 hash). Failed
sign-ins count against two moving windows: the address's (`SIGNIN_ADDRESS_LIMITS`) and
the account's (`SIGNIN_ACCOUNT_LIMITS`, keyed by the username tried, known or not). The
account's limits read "3 per 10 seconds; 10 per hour": a burst of wrong passwords is
slowed (a 429 with `Retry-After` until the window moves) and then refused until the hour
is over, even with the right password. A successful sign-in (a redirect) costs nothing.

The counts live in the platform's Redis when the platform runs on Redis
(`ARENA_BROKER_URL=redis://…`, the local platform's embedded server on its unix socket,
or `ARENA_RATELIMIT_STORAGE_URI`), so that every server process shares them; on the SQL
broker they stay in the process's memory. A Redis that goes away falls back to memory
rather than failing sign-ins.
"""

from __future__ import annotations

import os
from typing import Any, Final

from flask import Flask, jsonify, request
from flask_limiter import Limiter, RateLimitExceeded
from flask_limiter.util import get_remote_address
from markupsafe import escape
from werkzeug.wrappers import Response

from .errors import wants_json

SIGNIN_ENDPOINT: Final = "auth.signin"
SIGNIN_ADDRESS_LIMITS: Final = "10 per minute; 100 per hour"
SIGNIN_ACCOUNT_LIMITS: Final = "3 per 10 seconds; 10 per hour"
EXTENSION: Final = "arena.limiter"


def storage_uri(env: dict[str, str] | None = None) -> str:
    """Where the counts live: `$ARENA_RATELIMIT_STORAGE_URI`, else the broker's Redis when
    the platform runs on Redis, else this process's memory.

    >>> storage_uri({"ARENA_BROKER_URL": "redis://cache:6379/0"})
    'redis://cache:6379/0'
    >>> storage_uri({"ARENA_BROKER_URL": "redis+socket:///srv/arena/broker/redis.sock"})
    'redis+unix:///srv/arena/broker/redis.sock'
    >>> storage_uri({"ARENA_BROKER_URL": "sqla+sqlite:///var/broker.db"})
    'memory://'
    """
    env = dict(os.environ) if env is None else env
    chosen = env.get("ARENA_RATELIMIT_STORAGE_URI")
    if chosen:
        return chosen
    broker = env.get("ARENA_BROKER_URL", "")
    if broker.startswith("redis+socket://"):  # kombu's spelling of a unix socket; limits'
        return "redis+unix://" + broker.removeprefix("redis+socket://")
    return broker if broker.startswith(("redis://", "rediss://")) else "memory://"


def account_key() -> str:
    """The account a sign-in tries (the username as typed, cut short), known or not: an
    unknown name is limited exactly like a known one, so limits reveal nothing."""
    username = request.form.get("username", "")[:64].strip().lower()
    return f"account:{username}"


def _failed(response: Response) -> bool:
    """Whether a sign-in failed: the form answered 400 (a wrong password, an unknown name,
    a bad form). A success (302) costs nothing, and neither does a refusal (429, 503): the
    limits count failed checks, so a refused flood does not keep them shut forever, and
    answering it costs the server as little as possible."""
    return response.status_code == 400


REFUSED_PAGE: Final = (
    '<!doctype html><html lang="en"><meta charset="utf-8"><title>Too many sign-ins</title>'
    '<p>{message} <a href="/signin">Sign in</a> again later.</p></html>'
)


def _refused(error: RateLimitExceeded) -> Response:
    """A 429 that costs little to answer (no template): a flood gets thousands of them."""
    message = str(error.description)
    if wants_json():
        body = {"error": {"status": 429, "code": "too_many_requests", "message": message}}
        answer: Response = jsonify(body)
    else:
        answer = Response(REFUSED_PAGE.format(message=escape(message)), mimetype="text/html")
    answer.status_code = 429
    answer.headers["Retry-After"] = str(error.limit.limit.get_expiry())  # the window, at most
    return answer


def init_app(app: Flask) -> Limiter:
    """A limiter of the app's own (its own counts) guarding the sign-in view."""
    app.config.setdefault("RATELIMIT_STORAGE_URI", storage_uri())
    app.config.setdefault("RATELIMIT_STRATEGY", "moving-window")
    app.config.setdefault("RATELIMIT_HEADERS_ENABLED", False)  # Retry-After: `_refused`
    app.config.setdefault("RATELIMIT_IN_MEMORY_FALLBACK_ENABLED", True)
    app.config.setdefault("RATELIMIT_KEY_PREFIX", "arena-signin")
    app.config.setdefault("SIGNIN_ADDRESS_LIMITS", SIGNIN_ADDRESS_LIMITS)
    app.config.setdefault("SIGNIN_ACCOUNT_LIMITS", SIGNIN_ACCOUNT_LIMITS)
    limiter = Limiter(get_remote_address, app=app)
    view: Any = app.view_functions[SIGNIN_ENDPOINT]
    view = limiter.limit(
        lambda: str(app.config["SIGNIN_ADDRESS_LIMITS"]),
        methods=["POST"],
        deduct_when=_failed,
        error_message="Too many failed sign-ins from this address; wait a moment.",
    )(view)
    view = limiter.limit(
        lambda: str(app.config["SIGNIN_ACCOUNT_LIMITS"]),
        key_func=account_key,
        methods=["POST"],
        deduct_when=_failed,
        error_message="Too many failed sign-ins to this account; wait a moment.",
    )(view)
    app.view_functions[SIGNIN_ENDPOINT] = view
    app.register_error_handler(RateLimitExceeded, _refused)
    app.extensions[EXTENSION] = limiter
    return limiter
