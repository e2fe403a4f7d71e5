"""Passwords for the site: `arena.store.accounts`' argon2id hashes, with the app's profile.

The store keeps one scheme for every account (argon2id, RFC 9106); the site only picks
the parameters (`ARGON2_PROFILE`; its tests use the cheapest) and, at sign-in, keeps the
new hash `check_password` hands back for an older scrypt hash or stale parameters.

Two guards against sign-in floods, both here because each hash is the expensive part
(argon2id with RFC 9106's parameters: 64 MiB and four lanes, half a second of every core):
hashes run on `PASSWORD_HASHING_SLOTS` threads of their own (one per process by default)
at a lower CPU priority (`HASHING_NICENESS`; the lanes' threads inherit it), so a queue of
sign-ins waits for those threads, and the pages' threads come first for the cores; a
sign-in that waits longer than `WAIT_SECONDS` gets a 503 with `Retry-After`. At most
`PASSWORD_HASHING_QUEUE` sign-ins (default 2) wait for a slot: any more get that 503 at
once. Why: a waiting sign-in holds one of the web server's threads (waitress has eight),
and a flood from many addresses (which the address limit does not stop) once held all of
them, waiting for the one hashing thread, while the pages queued behind: the ladder took
ten times as long (docs/benchmarks.md). Now a flood holds at most slots + queue threads,
and the rest serve the pages. And
`check_unknown_password` does the same work for a username that does not exist, so the
time of an answer does not tell which names do.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Final, TypeVar

from flask import Flask, current_app
from werkzeug.exceptions import ServiceUnavailable
from werkzeug.wrappers import Response

from arena.store import accounts

from .errors import cheap_refusal

EXTENSION: Final = "arena.password_slots"
POOL: Final = "arena.password_threads"
ADMITTED: Final = "arena.password_admitted"
"""The sign-ins hashing or waiting to (a semaphore of slots + queue)."""
WAIT_SECONDS: Final = 10.0
"""How long a sign-in waits for a free hashing slot before the 503."""
HASHING_NICENESS: Final = 19
"""How much lower the hashing threads' CPU priority is than the pages' (Linux `nice`)."""
T = TypeVar("T")


def _profile() -> str:
    profile: str = current_app.config["ARGON2_PROFILE"]
    return profile


def _lower_priority() -> None:
    """Run this thread (and the threads it starts) at a lower CPU priority (Linux: a
    thread's nice value is its own); where that cannot be done, as it is."""
    with contextlib.suppress(AttributeError, OSError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), HASHING_NICENESS)


def init_app(app: Flask) -> None:
    """The app's hashing threads (`PASSWORD_HASHING_SLOTS`, default 1 per process) and
    the sign-ins that may wait for them (`PASSWORD_HASHING_QUEUE`, default 2)."""
    app.config.setdefault("PASSWORD_HASHING_SLOTS", 1)
    app.config.setdefault("PASSWORD_HASHING_QUEUE", 2)
    slots = app.config["PASSWORD_HASHING_SLOTS"]
    app.extensions[EXTENSION] = threading.BoundedSemaphore(slots)
    app.extensions[ADMITTED] = threading.BoundedSemaphore(
        slots + app.config["PASSWORD_HASHING_QUEUE"]
    )
    app.register_error_handler(HashingBusyError, _busy_answer)
    app.extensions[POOL] = ThreadPoolExecutor(
        slots, thread_name_prefix="argon2", initializer=_lower_priority
    )


class HashingBusyError(ServiceUnavailable):
    """No hashing slot for this sign-in (the queue is full, or it waited too long)."""


BUSY_PAGE: Final = (
    '<!doctype html><html lang="en"><meta charset="utf-8"><title>Too many sign-ins</title>'
    '<p>{message} <a href="/signin">Sign in</a> again in a few seconds.</p></html>'
)


def _busy() -> HashingBusyError:
    return HashingBusyError("Too many sign-ins at once; try again in a few seconds.", retry_after=5)


def _busy_answer(error: HashingBusyError) -> Response:
    """A 503 that costs little to answer (no template): a flood gets thousands of them."""
    return cheap_refusal(503, str(error.description), BUSY_PAGE, 5)


def _hashing(work: Callable[[], T]) -> T:
    """`work()` on a hashing thread once a slot is free; 503 at once when the queue is
    full, or after `WAIT_SECONDS` in it."""
    slots: threading.BoundedSemaphore | None = current_app.extensions.get(EXTENSION)
    admitted: threading.BoundedSemaphore | None = current_app.extensions.get(ADMITTED)
    pool: ThreadPoolExecutor | None = current_app.extensions.get(POOL)
    if slots is None or admitted is None or pool is None:  # made without init_app
        return work()
    if not admitted.acquire(blocking=False):
        raise _busy()
    try:
        if not slots.acquire(timeout=WAIT_SECONDS):
            raise _busy()
        try:
            return pool.submit(work).result()
        finally:
            slots.release()
    finally:
        admitted.release()


def hash_password(password: str) -> str:
    """A salted argon2id hash of `password`, with the app's parameters."""
    profile = _profile()
    return _hashing(lambda: accounts.hash_password(password, profile=profile))


def check_password(stored: str, password: str) -> tuple[bool, str | None]:
    """Whether `password` matches `stored`, and a new hash to keep when it should change
    (an scrypt hash, or argon2 parameters older than the current ones); else None."""
    profile = _profile()
    return _hashing(lambda: accounts.check_password(stored, password, profile=profile))


def check_unknown_password(password: str) -> None:
    """The work of checking a password, for a username that has no account (always False)."""
    profile = _profile()
    decoys: dict[str, str] = current_app.extensions.setdefault("arena.decoy_hashes", {})
    if profile not in decoys:
        decoys[profile] = accounts.hash_password("decoy password", profile=profile)
    _hashing(lambda: accounts.check_password(decoys[profile], password, profile=profile))
