"""`arena db …`: the database's migrations from the command line (registered by arena.cli).

The URL is `--url`, else `ARENA_DATABASE_URL`, else `sqlite:///var/arena.db`.
"""

from __future__ import annotations

import click

from . import migrate
from .database import database_url

URL_OPTION = click.option(
    "--url",
    default=None,
    help="Database URL (default: $ARENA_DATABASE_URL or sqlite:///var/arena.db).",
)


@click.group("db")
def db() -> None:
    """The database: create or migrate its schema, show its revision."""


@db.command("upgrade")
@URL_OPTION
@click.option("--revision", default="head", show_default=True, help="Target revision.")
def upgrade(url: str | None, revision: str) -> None:
    """Migrate the database to the newest schema (creating it when empty)."""
    migrate.upgrade(url, revision)
    shown = database_url(url).render_as_string(hide_password=True)
    click.echo(f"{shown}: at revision {migrate.current(url)}")


@db.command("current")
@URL_OPTION
def current(url: str | None) -> None:
    """Print the database's revision and the newest one available."""
    shown = database_url(url).render_as_string(hide_password=True)
    revision = migrate.current(url)
    head = migrate.head()
    state = "up to date" if revision == head else "needs `arena db upgrade`"
    click.echo(f"{shown}: at revision {revision or '(none)'}; newest {head} ({state})")
