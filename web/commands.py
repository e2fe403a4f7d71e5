"""`flask --app web users …`: make accounts and admins from the command line.

flask --app web users create alice --admin      # asks for the password twice
flask --app web users promote alice             # make an existing account an admin
flask --app web users signout alice             # end every session of the account
"""

from __future__ import annotations

import click
from flask import current_app
from flask.cli import AppGroup
from sqlalchemy import select

from arena.store import write_transaction
from arena.store.accounts import AccountError, create_user
from arena.store.models import User

from .database import sessions
from .passwords import hash_password
from .sessions import end_everywhere

users = AppGroup("users", help="Accounts: create users and admins, sign them out.")
"""The commands run in the app's context (as `flask --app web users …` does anyway)."""


@users.command("create")
@click.argument("username")
@click.option("--admin", is_flag=True, help="Make the account an admin.")
@click.password_option(help="The password (asked for when not given).")
def create(username: str, admin: bool, password: str) -> None:
    """Create an account (an admin with --admin)."""
    with sessions(current_app)() as db, write_transaction(db):
        try:
            user = create_user(db, username, None, is_admin=admin)
        except AccountError as error:
            raise click.ClickException(str(error)) from None
        user.password_hash = hash_password(password)
    click.echo(f"created {'admin' if admin else 'user'} {username}")


@users.command("signout")
@click.argument("username")
def signout(username: str) -> None:
    """Sign a user out everywhere: every session of theirs ends at its next request."""
    with sessions(current_app)() as db, write_transaction(db):
        user = db.scalars(select(User).where(User.username == username)).one_or_none()
        if user is None:
            raise click.ClickException(f"there is no user {username[:64]!r}")
        end_everywhere(db, user.id)
    click.echo(f"{username} is signed out everywhere")


@users.command("promote")
@click.argument("username")
def promote(username: str) -> None:
    """Make an existing account an admin."""
    with sessions(current_app)() as db, write_transaction(db):
        user = db.scalars(select(User).where(User.username == username)).one_or_none()
        if user is None:
            raise click.ClickException(f"there is no user {username!r}")
        user.is_admin = True
    click.echo(f"{username} is now an admin")
