"""Which errors are transient infrastructure faults (retried) and which are not.

Only these are ever retried: the database or the broker being unreachable, restarting, or
timing out. A bot's failure is never an exception here (the runner records it as a
fault, the validation as a rejection), and our own bugs fail the task once, recorded on
the match or version, for a person to look at.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import TypeVar

import kombu.exceptions
import redis.exceptions
from sqlalchemy import exc as sa_exc

log = logging.getLogger(__name__)

_T = TypeVar("_T")

TRANSIENT_ERRORS: tuple[type[BaseException], ...] = (
    sa_exc.OperationalError,  # connection refused or dropped, server restarting, SQLite busy
    sa_exc.InterfaceError,
    sa_exc.TimeoutError,  # no connection free in the pool
    kombu.exceptions.OperationalError,  # the broker is unreachable
    redis.exceptions.ConnectionError,
    redis.exceptions.TimeoutError,
    ConnectionError,
)
"""Exceptions that mean "the infrastructure is away for now": try again later."""


def is_transient(error: BaseException) -> bool:
    """Whether `error` is a transient infrastructure fault.

    >>> is_transient(ConnectionRefusedError()), is_transient(ValueError())
    (True, False)
    """
    if isinstance(error, sa_exc.DBAPIError) and error.connection_invalidated:
        return True
    return isinstance(error, TRANSIENT_ERRORS)


def retrying(action: Callable[[], _T], *, seconds: float, what: str) -> _T:
    """Call `action` until it succeeds, retrying transient faults for up to `seconds`.

    Backs off from 0.5 s to 30 s between tries. Re-raises a non-transient error at once,
    and the last transient one when the time is up.
    """
    deadline = time.monotonic() + seconds
    pause = 0.5
    while True:
        try:
            return action()
        except Exception as error:
            if not is_transient(error) or time.monotonic() + pause > deadline:
                raise
            log.warning(
                "%s failed (%s: %s); retrying in %.1f s",
                what,
                type(error).__name__,
                str(error).splitlines()[0] if str(error) else "",
                pause,
                extra={"retry_in": pause},
            )
            time.sleep(pause)
            pause = min(pause * 2, 30.0)
