"""Users and API tokens: passwords kept as scrypt hashes, tokens kept as SHA-256 hashes.

Why two hashes: a password is low-entropy and chosen by a person, so it gets a slow,
salted hash (scrypt from the standard library); an API token is 32 random bytes, so a
fast SHA-256 is already impossible to invert and lets `user_for_token` find the token by
an indexed equality lookup. The token's text is returned once, at issue, and never kept.

These functions flush but never commit: the caller's transaction decides.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from datetime import datetime
from typing import Final

from sqlalchemy import select
from sqlalchemy.orm import Session

from .models import ApiToken, User
from .types import utc_now

SCRYPT_N: Final = 2**14
SCRYPT_R: Final = 8
SCRYPT_P: Final = 1
TOKEN_PREFIX: Final = "ha_"
UNUSABLE_PASSWORD: Final = "!"
"""A password hash no password matches (accounts that only exist to own house bots)."""


class AccountError(ValueError):
    """A bad username, a taken username, or an unusable password."""


def _scrypt(password: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    return hashlib.scrypt(password.encode(), salt=salt, n=n, r=r, p=p, dklen=32)


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def hash_password(password: str) -> str:
    """A salted scrypt hash in the form `scrypt$n$r$p$salt$hash` (base64 parts).

    Raises AccountError for an empty password.
    """
    if not password:
        raise AccountError("the password is empty")
    salt = secrets.token_bytes(16)
    digest = _scrypt(password, salt, SCRYPT_N, SCRYPT_R, SCRYPT_P)
    return f"scrypt${SCRYPT_N}${SCRYPT_R}${SCRYPT_P}${_b64(salt)}${_b64(digest)}"


def verify_password(stored: str, password: str) -> bool:
    """Whether `password` matches `stored` (constant-time; False for unusable hashes)."""
    parts = stored.split("$")
    if len(parts) != 6 or parts[0] != "scrypt":
        return False
    n, r, p = (int(x) for x in parts[1:4])
    salt, expected = base64.b64decode(parts[4]), base64.b64decode(parts[5])
    return hmac.compare_digest(_scrypt(password, salt, n, r, p), expected)


def create_user(
    session: Session, username: str, password: str | None, *, is_admin: bool = False
) -> User:
    """A new user (`password=None` makes an account no one can log in to).

    Raises AccountError when the username is empty, too long, or taken.
    """
    if not username or len(username) > 64 or not username.isprintable():
        raise AccountError(f"username {username!r} must be 1-64 printable characters")
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
