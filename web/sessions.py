"""Signed-in sessions that end when they should: a session version per user.

The cookie is signed but lives in the browser, so clearing it at sign-out used to end
nothing: a copy taken before still worked. Now the cookie carries the user's
`session_version` as it was at sign-in, and a cookie whose version is not the user's
current one is no session at all. Signing out, changing the password and an admin's
"sign out everywhere" (`flask --app web users signout NAME`) bump the version, which ends
every session of that user on every device at once (one number per user: no session
table to keep or clean).
"""

from __future__ import annotations

from typing import Final

from flask import session
from sqlalchemy import update
from sqlalchemy.orm import Session

from arena.store.models import User

from . import database
from .bounds import is_id

USER_KEY: Final = "user_id"
VERSION_KEY: Final = "session_version"


def begin(user: User) -> None:
    """Sign `user` in on this browser (a new session: anything kept before is dropped)."""
    session.clear()
    session[USER_KEY] = user.id
    session[VERSION_KEY] = user.session_version


def signed_in_user() -> User | None:
    """The user this request's session belongs to, if it is still current; a session
    made under an older version (signed out since, elsewhere too) is cleared."""
    user_id = session.get(USER_KEY)
    if user_id is None:
        return None
    user = database.session().get(User, user_id) if is_id(user_id) else None
    if user is None or session.get(VERSION_KEY, 0) != user.session_version:
        session.clear()
        return None
    return user


def end_everywhere(db: Session, user_id: int) -> None:
    """End every session of the user (in the caller's write transaction)."""
    db.execute(
        update(User)
        .where(User.id == user_id)
        .values(session_version=User.session_version + 1)
        .execution_options(synchronize_session=False)
    )


def end(user: User | None) -> None:
    """Sign out: this browser's session, and with it every other copy of its cookie."""
    if user is not None:
        with database.writing() as db:
            end_everywhere(db, user.id)
    session.clear()
