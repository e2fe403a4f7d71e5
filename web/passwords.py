"""Passwords for the site: `arena.store.accounts`' argon2id hashes, with the app's profile.

The store keeps one scheme for every account (argon2id, RFC 9106); the site only picks
the parameters (`ARGON2_PROFILE`; its tests use the cheapest) and, at sign-in, keeps the
new hash `check_password` hands back for an older scrypt hash or stale parameters.

Two guards against sign-in floods, both here because each hash is the expensive part:
at most `PASSWORD_HASHING_SLOTS` hashes run at once in a process (the others wait, then
get a 503 with `Retry-After`), so sign-ins cannot take every core from the pages; and
`check_unknown_password` does the same work for a username that does not exist, so the
time of an answer does not tell which names do.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Final, TypeVar

from flask import Flask, current_app
from werkzeug.exceptions import ServiceUnavailable

from arena.store import accounts

EXTENSION: Final = "arena.password_slots"
WAIT_SECONDS: Final = 10.0
"""How long a sign-in waits for a free hashing slot before the 503."""
T = TypeVar("T")


def _profile() -> str:
    profile: str = current_app.config["ARGON2_PROFILE"]
    return profile


def init_app(app: Flask) -> None:
    """The app's hashing slots (`PASSWORD_HASHING_SLOTS`, default 1 per process)."""
    app.config.setdefault("PASSWORD_HASHING_SLOTS", 1)
    app.extensions[EXTENSION] = threading.BoundedSemaphore(app.config["PASSWORD_HASHING_SLOTS"])


@contextmanager
def _slot() -> Iterator[None]:
    slots: threading.BoundedSemaphore | None = current_app.extensions.get(EXTENSION)
    if slots is None:  # an app made without init_app (a command): no contention
        yield
        return
    if not slots.acquire(timeout=WAIT_SECONDS):
        raise ServiceUnavailable(
            "Too many sign-ins at once; try again in a few seconds.", retry_after=5
        )
    try:
        yield
    finally:
        slots.release()


def _hashing(work: Callable[[], T]) -> T:
    with _slot():
        return work()


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
