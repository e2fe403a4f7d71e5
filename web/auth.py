"""Accounts: sign up, sign in and out; who is signed in; the guards views use.

The session cookie holds only the user's id and session version (signed, HttpOnly,
SameSite=Lax; `web.sessions`). Signing out is a POST with a CSRF token, so another site
cannot sign anyone out, and it ends the session on the server too. Failed sign-ins are
rate-limited per address and per account and address, and slow an account that fails
from many addresses for a while (`web.limits`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from datetime import timedelta
from typing import Final, ParamSpec, TypeVar
from urllib.parse import urlsplit

from flask import (
    Blueprint,
    abort,
    flash,
    g,
    redirect,
    render_template,
    request,
    url_for,
)
from sqlalchemy import ColumnElement, delete, select
from werkzeug.wrappers import Response

from arena.store.accounts import AccountError, create_user
from arena.store.models import User
from arena.store.types import utc_now

from . import database, sessions
from .forms import ActionForm, SignInForm, SignUpForm, add_error
from .passwords import check_password, check_unknown_password, hash_password

bp = Blueprint("auth", __name__)

P = ParamSpec("P")
R = TypeVar("R")

ViewResult = Response | str | tuple[str, int]


@bp.before_app_request
def load_signed_in_user() -> None:
    """Put the signed-in user (or None) in `g.user`."""
    g.user = sessions.signed_in_user()


def current_user() -> User | None:
    """The signed-in user, if any."""
    user: User | None = g.get("user")
    return user


def login_required(view: Callable[P, R]) -> Callable[P, R | Response]:
    """Send people who are not signed in to the sign-in page (then back here)."""

    @functools.wraps(view)
    def wrapped(*args: P.args, **kwargs: P.kwargs) -> R | Response:
        if current_user() is None:
            return redirect(url_for("auth.signin", next=request.full_path.rstrip("?")))
        return view(*args, **kwargs)

    return wrapped


def admin_required(view: Callable[P, R]) -> Callable[P, R | Response]:
    """Admins only: others are refused (403), people not signed in sent to sign in."""

    @functools.wraps(view)
    def wrapped(*args: P.args, **kwargs: P.kwargs) -> R | Response:
        user = current_user()
        if user is None:
            return redirect(url_for("auth.signin", next=request.full_path.rstrip("?")))
        if not user.is_admin:
            abort(403, "This page is for admins.")
        return view(*args, **kwargs)

    return wrapped


def _safe_next(target: str | None) -> str:
    """A local path to go to after signing in or up (never another site).

    Browsers read a backslash as a slash and drop tabs and newlines, so "/\\evil.example"
    and "/\t/evil.example" mean "//evil.example": any of them sends people home instead.
    """
    if (
        target
        and target.startswith("/")
        and not target.startswith("//")
        and "\\" not in target
        and not any(ch.isspace() or ord(ch) < 0x20 or ord(ch) == 0x7F for ch in target)
    ):
        parts = urlsplit(target)
        if not parts.scheme and not parts.netloc:
            return target
    return url_for("home.index")


@bp.app_template_global()
def came_from() -> str:
    """The `next` to put on sign-in and sign-up links: the page being read (on the
    sign-in and sign-up pages, the `next` they were given)."""
    if request.endpoint in ("auth.signin", "auth.signup"):
        return request.args.get("next", "")
    if request.method != "GET":
        return ""
    return request.full_path.rstrip("?")


@bp.route("/signup", methods=["GET", "POST"])
def signup() -> ViewResult:
    """Create an account and sign in to it.

    The name is claimed before the password is hashed: a row with a reserved, unusable
    hash decides a race of sign-ups under the unique constraint at once, so only the
    winner spends a hashing slot and the others hear "taken" without waiting (sixteen
    sign-ups of one name used to queue for the one hashing thread, and the queue's
    overflow answered 503). A claim whose hashing fails is given back; one left by a
    process that died lapses after `CLAIM_SECONDS`.
    """
    form = SignUpForm()
    if request.method == "GET":
        form.next.data = request.args.get("next", "")
    if form.validate_on_submit():
        username = form.username.data or ""
        try:
            user_id = _claim_username(username)
        except AccountError:
            add_error(form.username, "that username is taken")
        else:
            try:
                password_hash = hash_password(form.password.data or "")  # outside the lock
            except BaseException:
                with database.writing() as db:
                    db.execute(delete(User).where(User.id == user_id, _claimed()))
                raise
            with database.writing() as db:
                user = db.get(User, user_id)
                assert user is not None  # a claim is ours until it lapses
                user.password_hash = password_hash
            sessions.begin(user)
            flash(f"Welcome, {user.username}.", "success")
            return redirect(_safe_next(form.next.data))
    status = 400 if form.errors else 200
    return render_template("auth/signup.html", form=form), status


CLAIMED_PASSWORD: Final = "!claimed"
"""The hash of an account whose sign-up is hashing its password (no password matches)."""
CLAIM_SECONDS: Final = 300
"""After this long a claim is a dead process's: the name is free again."""


def _claimed() -> ColumnElement[bool]:
    return User.password_hash == CLAIMED_PASSWORD


def _claim_username(username: str) -> int:
    """Insert `username`'s row with a claimed hash; its id. AccountError when taken
    (a claim older than `CLAIM_SECONDS` is dropped first)."""
    lapsed = utc_now() - timedelta(seconds=CLAIM_SECONDS)
    for attempt in database.conflict_retries():  # a racing sign-up of the same name
        with attempt as db:
            db.execute(
                delete(User).where(User.username == username, _claimed(), User.created_at < lapsed)
            )
            user = create_user(db, username, None)
            user.password_hash = CLAIMED_PASSWORD
    return user.id


@bp.route("/signin", methods=["GET", "POST"])
def signin() -> ViewResult:
    """Sign in with a username and password."""
    form = SignInForm()
    if request.method == "GET":
        form.next.data = request.args.get("next", "")
    if form.validate_on_submit():
        db = database.session()
        user = db.scalars(select(User).where(User.username == form.username.data)).one_or_none()
        matched, new_hash = (
            check_password(user.password_hash, form.password.data or "")
            if user is not None
            else (False, None)
        )
        if user is None:
            check_unknown_password(form.password.data or "")  # the same work: no enumeration
        if user is None or not matched:
            add_error(form.password, "unknown username or wrong password")
        else:
            if new_hash is not None:
                with database.writing() as db:
                    stored = db.get(User, user.id)
                    if stored is not None:
                        stored.password_hash = new_hash
            sessions.begin(user)
            return redirect(_safe_next(form.next.data))
    status = 400 if form.errors else 200
    return render_template("auth/signin.html", form=form), status


@bp.post("/signout")
def signout() -> Response:
    """Sign out (a POST carrying the CSRF token)."""
    form = ActionForm()
    if not form.validate_on_submit():
        abort(400, "The sign-out form was not valid.")
    sessions.end(current_user())  # every copy of the cookie, not only this one
    flash("Signed out.", "info")
    return redirect(url_for("home.index"))
