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
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any, Final

from flask import Flask, current_app, request
from flask_limiter import Limiter, RateLimitExceeded
from flask_limiter.util import get_remote_address
from werkzeug.wrappers import Response

from .errors import cheap_refusal

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
    """A 429 that costs little to answer (no template): a flood gets thousands of them.

    A refusal by the address's limit also tells `RefusedSignins` (through the request's
    environ) until when the limiter will refuse that address: the moment the oldest
    failure in the breached window leaves it."""
    limiter: Limiter | None = current_app.extensions.get(EXTENSION)
    if limiter is not None and error.limit.key_func is not account_key:
        for limit in limiter.current_limits:
            if limit.breached and limit.limit == error.limit.limit:
                request.environ[REFUSED_UNTIL] = float(limit.window[0])
    # Retry-After: the window, at most.
    expiry = error.limit.limit.get_expiry()
    return cheap_refusal(429, str(error.description), REFUSED_PAGE, expiry)


REFUSED_UNTIL: Final = "arena.signin_refused_until"
"""The environ key by which `_refused` tells `RefusedSignins` until when an address is
refused."""
SIGNIN_PATH: Final = "/signin"


class RefusedSignins:
    """WSGI middleware: a sign-in from an address the limiter refused is answered here,
    before Flask, with the refusal that address got, until the limiter would try it again.

    Why: a refusal through Flask cost what the cheapest page costs (request context,
    session, CSRF, two limit checks: about 2 ms of the interpreter), and a flood of them
    from one address doubled the pages' latency (docs/benchmarks.md). Replayed from here,
    it costs a dictionary lookup. Nothing is admitted that the limiter would refuse, and
    nothing refused that it would admit: an address is remembered only once the limiter
    refused it, and only until the oldest failure in the breached window expires (as
    refusals do not count, nothing else can move that time). Each process keeps its own
    memory; the counts themselves stay the limiter's (shared through Redis).
    """

    MAX_ADDRESSES: Final = 10_000
    """Addresses remembered at most (past that, expired ones are dropped, and new ones
    go through Flask as before until there is room)."""

    def __init__(self, app: Callable[..., Iterable[bytes]], path: str = SIGNIN_PATH) -> None:
        self.app = app
        self.path = path
        self.refused: dict[tuple[str, str], tuple[float, str, list[tuple[str, str]], bytes]] = {}
        self._lock = threading.Lock()

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        if environ.get("REQUEST_METHOD") != "POST" or environ.get("PATH_INFO") != self.path:
            return self.app(environ, start_response)
        key = (str(environ.get("REMOTE_ADDR", "")), str(environ.get("HTTP_ACCEPT", "")))
        known = self.refused.get(key)
        if known is not None:
            until, status, headers, body = known
            if time.time() < until:
                start_response(status, headers)
                return [body]
            self.refused.pop(key, None)
        captured: list[Any] = []

        def capture(status: str, headers: list[tuple[str, str]], *args: Any) -> Any:
            captured[:] = [status, headers]
            return start_response(status, headers, *args)

        answer = self.app(environ, capture)
        refused_until = environ.get(REFUSED_UNTIL)
        if refused_until is None or not captured:
            return answer
        try:
            body = b"".join(answer)
        finally:
            close = getattr(answer, "close", None)
            if close is not None:
                close()
        status, headers = captured
        kept = [(name, value) for name, value in headers if name.lower() != "set-cookie"]
        self._remember(key, (float(refused_until), status, kept, body))
        return [body]

    def _remember(
        self, key: tuple[str, str], entry: tuple[float, str, list[tuple[str, str]], bytes]
    ) -> None:
        with self._lock:
            if len(self.refused) >= self.MAX_ADDRESSES:
                now = time.time()
                for old in [k for k, v in self.refused.items() if v[0] <= now]:
                    del self.refused[old]
            if len(self.refused) < self.MAX_ADDRESSES:
                self.refused[key] = entry


def init_app(app: Flask) -> Limiter:
    """A limiter of the app's own (its own counts) guarding the sign-in view, and the
    `RefusedSignins` middleware in front of the app."""
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
    app.wsgi_app = RefusedSignins(app.wsgi_app)  # type: ignore[method-assign]
    return limiter
