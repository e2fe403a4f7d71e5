"""Sign-in rate limits (Flask-Limiter and its `limits`): per address, per account and
address, and a delay per account that grows instead of a lock.

Why: without limits, forty wrong passwords and then the right one signed in, and eight
anonymous sign-in loops starved every page (each attempt is an argon2 hash). But a limit
per account alone is a lock anyone can turn: ten wrong passwords for a name, from any
address, refused even its owner's right password for an hour. So failed sign-ins count
three ways:

- per address (`SIGNIN_ADDRESS_LIMITS`, 10 a minute and 100 an hour): a flood from one
  address, over any names, is refused;
- per account and address (`SIGNIN_ACCOUNT_LIMITS`, 3 per 10 seconds and 10 an hour): a
  guesser at one account from one address is slowed, then refused for the hour, even
  with the right password; the owner, from their own address, is not;
- per account from every address (`AccountDelay`): the first `SIGNIN_ACCOUNT_FREE_FAILURES`
  (10) failures of an hour cost nothing more; each one after them makes the account wait
  twice as long before its next attempt (2, 4, 8 s… up to `SIGNIN_ACCOUNT_MAX_DELAY`,
  60 s) from anywhere. Guessing spread over many addresses is slowed to one try a
  minute, and the worst a stranger can do to the owner is a wait of a minute, with
  `Retry-After` saying how long; one address alone cannot even do that (its 10 an hour
  stay within the free failures).

Keyed by the username tried, known or not: an unknown name is limited exactly like a
known one, so the limits reveal nothing. A successful sign-in (a redirect) costs nothing,
and neither does a refusal.

The counts live in the platform's Redis when the platform runs on Redis
(`ARENA_BROKER_URL=redis://…`, the local platform's embedded server on its unix socket,
or `ARENA_RATELIMIT_STORAGE_URI`), so that every server process shares them; on the SQL
broker they stay in the process's memory. A Redis that goes away falls back to memory
rather than failing sign-ins.
"""

from __future__ import annotations

import functools
import logging
import math
import os
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any, Final

from flask import Flask, current_app, make_response, request
from flask_limiter import Limiter, RateLimitExceeded
from flask_limiter.util import get_remote_address
from limits import RateLimitItemPerHour
from limits.strategies import MovingWindowRateLimiter
from werkzeug.wrappers import Response

from .errors import cheap_refusal

SIGNIN_ENDPOINT: Final = "auth.signin"
SIGNIN_ADDRESS_LIMITS: Final = "10 per minute; 100 per hour"
SIGNIN_ACCOUNT_LIMITS: Final = "3 per 10 seconds; 10 per hour"
SIGNIN_ACCOUNT_FREE_FAILURES: Final = 10
SIGNIN_ACCOUNT_MAX_DELAY: Final = 60
EXTENSION: Final = "arena.limiter"
DELAY_EXTENSION: Final = "arena.signin_delay"

log = logging.getLogger(__name__)


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


def account_name() -> str:
    """The account a sign-in tries (the username as typed, cut short), known or not: an
    unknown name is limited exactly like a known one, so limits reveal nothing."""
    return request.form.get("username", "")[:64].strip().lower()


def account_address_key() -> str:
    """The account a sign-in tries, from the address it comes from."""
    return f"account:{account_name()}@{get_remote_address()}"


def delay_seconds(failures: int, free: int, longest: int) -> int:
    """How long an account waits after its last failure, with `failures` in the hour.

    >>> [delay_seconds(n, free=10, longest=60) for n in (0, 10, 11, 12, 14, 15, 16, 40)]
    [0, 0, 2, 4, 16, 32, 60, 60]
    """
    if failures <= free:
        return 0
    return min(1 << min(failures - free, 16), longest)


class AccountDelay:
    """The per-account delay, in the limiter's storage (so every process shares it): each
    account's failed sign-ins of the last hour, from every address, in one moving window,
    and the moment until which it waits, as a key that expires then.

    A failure that makes F failures in the hour sets the wait to `delay_seconds(F)` from
    now; an attempt within it is refused (429, `Retry-After` the rest of the wait) before
    any password is hashed.
    """

    WINDOW: Final = RateLimitItemPerHour(1000)
    """The hour's failures of one account (far more than the delays let through)."""

    def __init__(self, limiter: Limiter, prefix: str, free: int, longest: int) -> None:
        self.limiter = limiter
        self.prefix = prefix
        self.free = free
        self.longest = longest

    def _window(self) -> MovingWindowRateLimiter:
        # The limiter's storage now (its memory fallback while Redis is away).
        return MovingWindowRateLimiter(self.limiter.limiter.storage)

    def _until_key(self, account: str) -> str:
        return f"{self.prefix}/account-delay-until/{account}"

    def wait(self, account: str) -> float:
        """Seconds `account` must still wait before its next attempt (0: none)."""
        storage = self.limiter.limiter.storage
        key = self._until_key(account)
        if not storage.get(key):
            return 0.0
        return max(0.0, storage.get_expiry(key) - time.time())

    def record(self, account: str) -> None:
        """Count a failed sign-in to `account`, and start the wait it earns."""
        window = self._window()
        window.hit(self.WINDOW, self.prefix, "account-delay", account)
        stats = window.get_window_stats(self.WINDOW, self.prefix, "account-delay", account)
        delay = delay_seconds(self.WINDOW.amount - stats.remaining, self.free, self.longest)
        if delay:
            key = self._until_key(account)
            window.storage.clear(key)
            window.storage.incr(key, delay)


def _delayed(view: Callable[..., Any]) -> Callable[..., Response]:
    """The sign-in view behind the account's delay: a sign-in to an account that must
    still wait is refused before its password is hashed; a failed one is counted."""

    @functools.wraps(view)
    def wrapped(*args: Any, **kwargs: Any) -> Response:
        delay: AccountDelay | None = current_app.extensions.get(DELAY_EXTENSION)
        if request.method != "POST" or delay is None:
            return make_response(view(*args, **kwargs))
        account = account_name()
        try:
            wait = delay.wait(account)
        except Exception:  # the storage failed: the other limits (memory) still stand
            log.warning("the sign-in delay's storage failed", exc_info=True)
            wait = 0.0
        if wait > 0:
            return cheap_refusal(
                429,
                "This account had many failed sign-ins lately; wait a little.",
                REFUSED_PAGE,
                math.ceil(wait),
            )
        response = make_response(view(*args, **kwargs))
        if _failed(response):
            try:
                delay.record(account)
            except Exception:
                log.warning("the sign-in delay's storage failed", exc_info=True)
        return response

    return wrapped


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
    if limiter is not None and error.limit.key_func is get_remote_address:
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
    """A limiter of the app's own (its own counts) guarding the sign-in view, the
    account's delay inside it, and the `RefusedSignins` middleware in front of the app."""
    app.config.setdefault("RATELIMIT_STORAGE_URI", storage_uri())
    app.config.setdefault("RATELIMIT_STRATEGY", "moving-window")
    app.config.setdefault("RATELIMIT_HEADERS_ENABLED", False)  # Retry-After: `_refused`
    app.config.setdefault("RATELIMIT_IN_MEMORY_FALLBACK_ENABLED", True)
    app.config.setdefault("RATELIMIT_KEY_PREFIX", "arena-signin")
    app.config.setdefault("SIGNIN_ADDRESS_LIMITS", SIGNIN_ADDRESS_LIMITS)
    app.config.setdefault("SIGNIN_ACCOUNT_LIMITS", SIGNIN_ACCOUNT_LIMITS)
    app.config.setdefault("SIGNIN_ACCOUNT_FREE_FAILURES", SIGNIN_ACCOUNT_FREE_FAILURES)
    app.config.setdefault("SIGNIN_ACCOUNT_MAX_DELAY", SIGNIN_ACCOUNT_MAX_DELAY)
    limiter = Limiter(get_remote_address, app=app)
    view: Any = _delayed(app.view_functions[SIGNIN_ENDPOINT])
    view = limiter.limit(
        lambda: str(app.config["SIGNIN_ADDRESS_LIMITS"]),
        key_func=get_remote_address,
        methods=["POST"],
        deduct_when=_failed,
        error_message="Too many failed sign-ins from this address; wait a moment.",
    )(view)
    view = limiter.limit(
        lambda: str(app.config["SIGNIN_ACCOUNT_LIMITS"]),
        key_func=account_address_key,
        methods=["POST"],
        deduct_when=_failed,
        error_message="Too many failed sign-ins to this account from here; wait a moment.",
    )(view)
    app.view_functions[SIGNIN_ENDPOINT] = view
    app.register_error_handler(RateLimitExceeded, _refused)
    app.extensions[EXTENSION] = limiter
    app.extensions[DELAY_EXTENSION] = AccountDelay(
        limiter,
        str(app.config["RATELIMIT_KEY_PREFIX"]),
        int(app.config["SIGNIN_ACCOUNT_FREE_FAILURES"]),
        int(app.config["SIGNIN_ACCOUNT_MAX_DELAY"]),
    )
    app.wsgi_app = RefusedSignins(app.wsgi_app)  # type: ignore[method-assign]
    return limiter
