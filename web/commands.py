"""`flask --app web users …`: make accounts and admins from the command line.

flask --app web users create alice --admin      # asks for the password twice
flask --app web users promote alice             # make an existing account an admin
"""

from __future__ import annotations

import click
from flask import current_app
from sqlalchemy import select

from arena.store import write_transaction
from arena.store.accounts import AccountError, create_user
from arena.store.models import User

from .database import sessions
from .passwords import hash_password


@click.group("users")
def users() -> None:
    """Accounts: create users and admins."""


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
