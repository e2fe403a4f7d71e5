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
def show_command(path: Path, plain: bool) -> None:
    """Print the match trick by trick."""
    document = _load(path)
    for line in render(document, pretty=not plain):
        click.echo(line)


@replay.command("view")
@click.argument("path", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    help="The HTML file to write (default: the replay's name with .html).",
)
@click.option("--no-open", is_flag=True, help="Write the page only; do not open a browser.")
def view_command(path: Path, out: Path | None, no_open: bool) -> None:
    """Open the replay in the site's own viewer: one self-contained HTML file.

    The page inlines the viewer and the replay, so it works from disk with no server
    (arena/match/viewer.py says why a file rather than a local server). It is opened
    with the default browser; its path is printed either way.
    """
    import webbrowser

    from arena.match.viewer import ViewerAssetsError, write_page

    document = _load(path)
    target = out or path.with_name(path.name.removesuffix(".gz").removesuffix(".json") + ".html")
    try:
        written = write_page(document, target)
    except ViewerAssetsError as error:
        err_console.print(f"[red]{error}[/red]")
        raise SystemExit(2) from None
    except OSError as error:
        err_console.print(f"[red]cannot write {target}: {error.strerror}[/red]")
        raise SystemExit(2) from None
    click.echo(str(written))
    if not no_open and not webbrowser.open(written.as_uri()):
        click.echo("No browser to open it with: open the file above in one.")
