"""Users and tokens: passwords as argon2id hashes (older scrypt ones still verify and are
replaced), tokens stored only as their SHA-256."""

from __future__ import annotations

import base64
import hashlib
import secrets

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from arena.store.accounts import (
    AccountError,
    authenticate,
    check_password,
    create_user,
    hash_password,
    issue_token,
    revoke_token,
    token_hash,
    user_for_token,
    verify_password,
)
from arena.store.models import ApiToken

pytestmark = pytest.mark.timeout(60)


def test_password_hash_is_salted_and_verifies() -> None:
    first, second = hash_password("hunter2"), hash_password("hunter2")
    assert first != second and "hunter2" not in first
    assert verify_password(first, "hunter2")
    assert not verify_password(first, "hunter3")
    assert not verify_password("!", "anything")


def scrypt_hash(password: str) -> str:
    """A hash as accounts made before argon2id kept it: `scrypt$n$r$p$salt$hash`."""
    salt = secrets.token_bytes(16)
    digest = hashlib.scrypt(password.encode(), salt=salt, n=2**14, r=8, p=1, dklen=32)
    encoded = [base64.b64encode(part).decode() for part in (salt, digest)]
    return "$".join(["scrypt", "16384", "8", "1", *encoded])


def test_new_hashes_are_argon2id_and_older_scrypt_ones_verify_and_are_replaced() -> None:
    assert hash_password("hunter2").startswith("$argon2id$")
    old = scrypt_hash("hunter2")
    assert verify_password(old, "hunter2")
    assert not verify_password(old, "hunter3")
    matched, replacement = check_password(old, "hunter2")
    assert matched and replacement is not None and replacement.startswith("$argon2id$")
    assert check_password(replacement, "hunter2") == (True, None)  # current: kept as is
    assert check_password(old, "wrong") == (False, None)
    assert not verify_password("scrypt$x$8$1$AA==$AA==", "hunter2")  # malformed: no match


def test_stale_argon2_parameters_are_replaced_at_the_next_check() -> None:
    cheap = hash_password("hunter2", profile="CHEAPEST")
    matched, replacement = check_password(cheap, "hunter2")  # the default profile is dearer
    assert matched and replacement is not None and replacement != cheap
    assert check_password(cheap, "hunter2", profile="CHEAPEST") == (True, None)


def test_empty_password_is_refused() -> None:
    with pytest.raises(AccountError, match="empty"):
        hash_password("")


def test_authenticate(session: Session) -> None:
    create_user(session, "alice", "correct horse")
    assert authenticate(session, "alice", "correct horse") is not None
    assert authenticate(session, "alice", "wrong") is None
    assert authenticate(session, "nobody", "correct horse") is None


def test_usernames_are_checked(session: Session) -> None:
    create_user(session, "alice", None)
    with pytest.raises(AccountError, match="taken"):
        create_user(session, "alice", None)
    with pytest.raises(AccountError, match="printable"):
        create_user(session, "", None)


def test_tokens_are_stored_hashed_and_found(session: Session) -> None:
    user = create_user(session, "alice", None)
    token, text = issue_token(session, user, "laptop")
    session.commit()
    stored = session.scalars(select(ApiToken)).one()
    assert stored.token_hash == token_hash(text) and text not in stored.token_hash
    assert stored.prefix == text[:10]
    assert user_for_token(session, text) == user
    assert stored.last_used_at is not None
    assert user_for_token(session, text + "x") is None
    revoke_token(session, token)
    assert user_for_token(session, text) is None
