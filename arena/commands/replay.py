"""`arena replay verify|show`: check a replay against the engine, or print it as text."""

from __future__ import annotations

from pathlib import Path

import click

from arena.match import replay as replay_io
from arena.match.render import render
from arena.match.verify import ReplayMismatchError, verify

from .common import console, err_console


@click.group()
def replay() -> None:
    """Replays: verify them, show them."""


def _load(path: Path) -> dict[str, object]:
    try:
        return replay_io.load(path)
    except replay_io.ReplayError as error:
        err_console.print(f"[red]{path}: {error}[/red]")
        raise SystemExit(2) from None


@replay.command("verify")
@click.argument("path", type=click.Path(dir_okay=False, path_type=Path))
def verify_command(path: Path) -> None:
    """Re-apply every decision through the engine and confirm every recorded score.

    Exits 0 when the replay is consistent, 1 naming the first mismatch, 2 when the file
    is not a replay.
    """
    document = _load(path)
    try:
        checked = verify(document)
    except ReplayMismatchError as mismatch:
        err_console.print(f"[red]MISMATCH[/red] at {mismatch}")
        raise SystemExit(1) from None
    console.print(
        f"[green]OK[/green] {path}: {checked.games} game(s), {checked.hands} hands, "
        f"{checked.decisions} decisions re-applied; every score confirmed"
    )


@replay.command("show")
@click.argument("path", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--ascii", "plain", is_flag=True, help="Cards as QS rather than Q♠.")
@click.option(
    "--notes/--no-notes",
    default=True,
    show_default=True,
    help="Print each bot's notes under its decisions.",
)
def show_command(path: Path, plain: bool, notes: bool) -> None:
    """Print the match trick by trick."""
    document = _load(path)
    for line in render(document, pretty=not plain, notes=notes):
        click.echo(line)
