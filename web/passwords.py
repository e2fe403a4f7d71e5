"""Passwords for the site: `arena.store.accounts`' argon2id hashes, with the app's profile.

The store keeps one scheme for every account (argon2id, RFC 9106); the site only picks
the parameters (`ARGON2_PROFILE`; its tests use the cheapest) and, at sign-in, keeps the
new hash `check_password` hands back for an older scrypt hash or stale parameters.
"""

from __future__ import annotations

from flask import current_app

from arena.store import accounts


def _profile() -> str:
    profile: str = current_app.config["ARGON2_PROFILE"]
    return profile


def hash_password(password: str) -> str:
    """A salted argon2id hash of `password`, with the app's parameters."""
    return accounts.hash_password(password, profile=_profile())


def check_password(stored: str, password: str) -> tuple[bool, str | None]:
    """Whether `password` matches `stored`, and a new hash to keep when it should change
    (an scrypt hash, or argon2 parameters older than the current ones); else None."""
    return accounts.check_password(stored, password, profile=_profile())
