"""Passwords: argon2id hashes (argon2-cffi), and older scrypt hashes upgraded at sign-in.

`arena.store.accounts` keeps scrypt hashes (`scrypt$…`) for accounts made outside the
site; the site writes argon2id (`$argon2id$…`, RFC 9106) and, when such an account signs
in, replaces its scrypt hash by an argon2id one. Either way only the hash is kept.
"""

from __future__ import annotations

from argon2 import PasswordHasher, profiles
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from flask import current_app

from arena.store.accounts import verify_password as verify_scrypt


def _hasher() -> PasswordHasher:
    """The hasher for the app's `ARGON2_PROFILE` (tests use the cheapest)."""
    profile = getattr(profiles, current_app.config["ARGON2_PROFILE"])
    return PasswordHasher.from_parameters(profile)


def hash_password(password: str) -> str:
    """A salted argon2id hash of `password`."""
    return _hasher().hash(password)


def check_password(stored: str, password: str) -> tuple[bool, str | None]:
    """Whether `password` matches `stored`, and a new hash to keep when it should change
    (an scrypt hash, or argon2 parameters older than the current ones); else None."""
    if stored.startswith("scrypt$"):
        return (True, hash_password(password)) if verify_scrypt(stored, password) else (False, None)
    hasher = _hasher()
    try:
        hasher.verify(stored, password)
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False, None
    return True, (hasher.hash(password) if hasher.check_needs_rehash(stored) else None)
