"""A user's account: their bots, and their API tokens (made, listed, revoked).

A token's text is shown once, in the answer to the request that made it; only its
SHA-256 is kept (`arena.store.accounts`). It comes with the line that signs the command
line in to this site (`site_url`): the configured address, never the request's `Host`
header, which whoever sends the request writes.
"""

from __future__ import annotations

from flask import Blueprint, abort, current_app, flash, redirect, render_template, request, url_for
from sqlalchemy import select
from werkzeug.wrappers import Response

from arena.store.accounts import issue_token, revoke_token
from arena.store.models import ApiToken, Bot, User
from arena.store.people import tables_of

from . import database, sessions
from .auth import current_user, login_required
from .forms import ActionForm, PasswordForm, TokenForm, add_error
from .passwords import check_password, hash_password

bp = Blueprint("account", __name__)

DEFAULT_PORTS = {"http": "80", "https": "443"}


def site_url() -> str:
    """The site's address for `arena login`: `SITE_URL` (`$ARENA_SITE_URL`) when set, else
    the address the server listens on (the WSGI server's own `SERVER_NAME` and
    `SERVER_PORT`). Never the request's `Host` header: the client writes that one, and a
    token's login line must not send the token wherever it says."""
    configured = current_app.config.get("SITE_URL")
    if configured:
        return str(configured).rstrip("/")
    environ = request.environ
    scheme = str(environ.get("wsgi.url_scheme", "http"))
    host = str(environ.get("SERVER_NAME", "localhost"))
    if ":" in host and not host.startswith("["):  # an IPv6 address
        host = f"[{host}]"
    port = str(environ.get("SERVER_PORT", ""))
    shown_port = "" if port in ("", DEFAULT_PORTS.get(scheme)) else f":{port}"
    return f"{scheme}://{host}{shown_port}{request.script_root}"


def _page(
    form: TokenForm,
    new_token: str | None = None,
    status: int = 200,
    password: PasswordForm | None = None,
) -> tuple[str, int]:
    user = current_user()
    assert user is not None
    db = database.session()
    tokens = db.scalars(
        select(ApiToken).where(ApiToken.user_id == user.id).order_by(ApiToken.id.desc())
    ).all()
    bots = db.scalars(select(Bot).where(Bot.owner_id == user.id).order_by(Bot.name)).all()
    page = render_template(
        "account/index.html",
        form=form,
        tokens=tokens,
        bots=bots,
        new_token=new_token,
        site_url=site_url(),
        revoke=ActionForm(),
        password=password or PasswordForm(formdata=None),
    )
    return page, status


@bp.get("/account")
@login_required
def index() -> tuple[str, int]:
    """Your bots and your API tokens."""
    return _page(TokenForm())


@bp.post("/account/tokens")
@login_required
def create_token() -> tuple[str, int]:
    """Make an API token and show its text, once."""
    form = TokenForm()
    if not form.validate_on_submit():
        return _page(form, status=400)
    user = current_user()
    assert user is not None
    with database.writing() as db:
        owner = db.get(User, user.id)
        assert owner is not None
        _token, text = issue_token(db, owner, form.name.data or "token")
    return _page(TokenForm(formdata=None), new_token=text)


@bp.post("/account/tokens/<int:token_id>/revoke")
@login_required
def revoke(token_id: int) -> Response:
    """Revoke one of your tokens."""
    user = current_user()
    assert user is not None
    with database.writing() as db:
        token = db.get(ApiToken, token_id)
        if token is None or token.user_id != user.id:
            abort(404, f"You have no token {token_id}.")
        revoke_token(db, token)
    flash("Token revoked.", "info")
    return redirect(url_for("account.index"))


@bp.post("/account/password")
@login_required
def change_password() -> Response | tuple[str, int]:
    """Change your password: every other session of the account ends, this one goes on."""
    form = PasswordForm()
    user = current_user()
    assert user is not None
    if form.validate_on_submit():
        matched, _new_hash = check_password(user.password_hash, form.current.data or "")
        if not matched:
            add_error(form.current, "that is not your current password")
        else:
            new_hash = hash_password(form.password.data or "")
            with database.writing() as db:
                sessions.end_everywhere(db, user.id)
                owner = db.get(User, user.id)
                assert owner is not None
                owner.password_hash = new_hash
                db.flush()
                db.refresh(owner)
            sessions.begin(owner)
            flash("Password changed; every other session of your account has ended.", "success")
            return redirect(url_for("account.index"))
    return _page(TokenForm(formdata=None), status=400, password=form)


@bp.post("/account/signout-everywhere")
@login_required
def signout_everywhere() -> Response:
    """End every session of your account, this one included."""
    if not ActionForm().validate_on_submit():
        abort(400, "The form was not valid.")
    sessions.end(current_user())
    flash("Signed out everywhere.", "info")
    return redirect(url_for("home.index"))


@bp.get("/users/<int:user_id>")
def user_page(user_id: int) -> str:
    """A contestant's public page: their bots."""
    db = database.session()
    owner = db.get(User, user_id)
    if owner is None:
        abort(404, f"There is no user {user_id}.")
    bots = db.scalars(select(Bot).where(Bot.owner_id == owner.id).order_by(Bot.name)).all()
    tables = tables_of(db, owner.id)  # the games they played themselves (human tables)
    return render_template("account/user.html", owner=owner, bots=bots, tables=tables)
