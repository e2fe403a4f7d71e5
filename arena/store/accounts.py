"""Users and API tokens: passwords kept as argon2id hashes, tokens as SHA-256 hashes.

Why two hashes: a password is low-entropy and chosen by a person, so it gets a slow,
salted, memory-hard hash (argon2id, RFC 9106, from argon2-cffi); an API token is 32
random bytes, so a fast SHA-256 is already impossible to invert and lets `user_for_token`
find the token by an indexed equality lookup. The token's text is returned once, at
issue, and never kept.

One scheme for every account, made by the site or by the command line. Hashes written
before it (`scrypt$n$r$p$salt$hash`) still verify, and `check_password` hands back an
argon2id hash to keep in their place, as it does for argon2 parameters grown stale.

These functions flush but never commit: the caller's transaction decides.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from datetime import datetime
from functools import lru_cache
from typing import Final

from argon2 import PasswordHasher, profiles
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from sqlalchemy import select
from sqlalchemy.orm import Session

from .models import ApiToken, User
from .types import utc_now

DEFAULT_PROFILE: Final = "RFC_9106_LOW_MEMORY"
"""argon2-cffi's parameter profile for new hashes (the site's `ARGON2_PROFILE` may name
another: its tests use the cheapest)."""
TOKEN_PREFIX: Final = "ha_"
UNUSABLE_PASSWORD: Final = "!"
"""A password hash no password matches (accounts that only exist to own house bots)."""


class AccountError(ValueError):
    """A bad username, a taken username, or an unusable password."""


@lru_cache(maxsize=8)
def password_hasher(profile: str = DEFAULT_PROFILE) -> PasswordHasher:
    """The argon2id hasher of an argon2-cffi profile name (`RFC_9106_LOW_MEMORY`, ...)."""
    return PasswordHasher.from_parameters(getattr(profiles, profile))


def hash_password(password: str, *, profile: str = DEFAULT_PROFILE) -> str:
    """A salted argon2id hash (`$argon2id$...`). Raises AccountError for an empty password."""
    if not password:
        raise AccountError("the password is empty")
    return password_hasher(profile).hash(password)


def check_password(
    stored: str, password: str, *, profile: str = DEFAULT_PROFILE
) -> tuple[bool, str | None]:
    """Whether `password` matches `stored`, and a new hash to keep in its place when it
    should change (an older scrypt hash, or argon2 parameters other than `profile`'s);
    else None. False for unusable hashes."""
    if stored.startswith("scrypt$"):
        if not _verify_scrypt(stored, password):
            return False, None
        return True, hash_password(password, profile=profile)
    hasher = password_hasher(profile)
    try:
        hasher.verify(stored, password)
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False, None
    return True, (hasher.hash(password) if hasher.check_needs_rehash(stored) else None)


def verify_password(stored: str, password: str) -> bool:
    """Whether `password` matches `stored` (False for unusable hashes)."""
    return check_password(stored, password)[0]


def _verify_scrypt(stored: str, password: str) -> bool:
    """A hash from before argon2id: `scrypt$n$r$p$salt$hash`, base64 parts (constant-time)."""
    parts = stored.split("$")
    if len(parts) != 6:
        return False
    try:
        n, r, p = (int(x) for x in parts[1:4])
        salt, expected = base64.b64decode(parts[4]), base64.b64decode(parts[5])
    except ValueError:
        return False
    digest = hashlib.scrypt(password.encode(), salt=salt, n=n, r=r, p=p, dklen=len(expected))
    return hmac.compare_digest(digest, expected)


def create_user(
    session: Session, username: str, password: str | None, *, is_admin: bool = False
) -> User:
    """A new user (`password=None` makes an account no one can log in to).

    Raises AccountError when the username is empty, too long, or taken.
    """
    if not username or len(username) > 64 or not username.isprintable():
        raise AccountError(f"username {username[:64]!r} must be 1-64 printable characters")
    if session.scalar(select(User.id).where(User.username == username)) is not None:
        raise AccountError(f"username {username!r} is taken")
    password_hash = UNUSABLE_PASSWORD if password is None else hash_password(password)
    user = User(username=username, password_hash=password_hash, is_admin=is_admin)
    session.add(user)
    session.flush()
    return user


def authenticate(session: Session, username: str, password: str) -> User | None:
    """The user with this username and password, or None."""
    user = session.scalars(select(User).where(User.username == username)).one_or_none()
    if user is None or not verify_password(user.password_hash, password):
        return None
    return user


def token_hash(token: str) -> str:
    """The SHA-256 (hex) under which a token's text is stored."""
    return hashlib.sha256(token.encode()).hexdigest()


def issue_token(session: Session, user: User, name: str) -> tuple[ApiToken, str]:
    """A new API token for `user`: the row, and the token's text (shown once, never stored)."""
    text = TOKEN_PREFIX + secrets.token_urlsafe(32)
    token = ApiToken(user=user, name=name[:64], token_hash=token_hash(text), prefix=text[:10])
    session.add(token)
    session.flush()
    return token, text


def user_for_token(session: Session, text: str, *, now: datetime | None = None) -> User | None:
    """The owner of a valid (not revoked) token, noting when it was used; else None."""
    token = session.scalars(
        select(ApiToken).where(ApiToken.token_hash == token_hash(text))
    ).one_or_none()
    if token is None or token.revoked_at is not None:
        return None
    token.last_used_at = now or utc_now()
    return token.user


def revoke_token(session: Session, token: ApiToken, *, now: datetime | None = None) -> None:
    """Make `token` unusable from now on (kept for the record)."""
    if token.revoked_at is None:
        token.revoked_at = now or utc_now()
