"""Which errors are transient infrastructure faults (retried) and which are not.

Two kinds are retried. The database or the broker being unreachable, restarting, or
timing out (`TRANSIENT_ERRORS`: the task retries itself, up to 20 times). And a worker's
own environment failing before a match is played (`WorkerEnvironmentError`: a ready
version's environment that this worker cannot build, for a full disk, a folder it cannot
write or a package index that is down; a sandbox this worker cannot start): the match is
queued again and retried after a growing pause, on whichever worker takes it, up to
`ENVIRONMENT_RETRIES` times, and only then failed with the reason. A bot's failure is
never an exception here (the runner records it as a fault, the validation as a
rejection), and our own bugs fail the task once, recorded on the match or version, for a
person to look at.
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


ENVIRONMENT_RETRIES = 5
"""Retries of a match whose worker's environment failed before it was played."""
ENVIRONMENT_PAUSE = 10.0
"""Seconds before the first of them; each pause doubles, up to `ENVIRONMENT_PAUSE_MAX`."""
ENVIRONMENT_PAUSE_MAX = 300.0


class WorkerEnvironmentError(RuntimeError):
    """A worker could not set up what a match needs (a version's environment, the
    sandbox): our infrastructure's fault, never the bot's. The match was queued again;
    the task retries it (`environment_pause`)."""


def environment_pause(tries: int) -> float:
    """Seconds before the retry that follows `tries` failed environments (from 1).

    >>> [environment_pause(n) for n in (1, 2, 3, 6)]
    [10.0, 20.0, 40.0, 300.0]
    """
    return min(ENVIRONMENT_PAUSE * 2.0 ** (tries - 1), ENVIRONMENT_PAUSE_MAX)


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
