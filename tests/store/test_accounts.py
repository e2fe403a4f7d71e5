"""Users and tokens: passwords as scrypt hashes, tokens stored only as their SHA-256."""

from __future__ import annotations

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from arena.store.accounts import (
    AccountError,
    authenticate,
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
