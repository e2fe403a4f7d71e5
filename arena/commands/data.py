"""`arena data export|verify|licence`: a season's games as open data, for organisers
(docs/open-data.md)."""

from __future__ import annotations

import os
from pathlib import Path

import click
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from arena.store.commands import URL_OPTION

from .common import console


def default_folder() -> Path:
    """Where dumps go unless told: `$ARENA_DATA_DIR/open-data` (the site serves them from
    there: `OPEN_DATA_DIR`), else `var/open-data`."""
    return Path(os.environ.get("ARENA_DATA_DIR") or "var") / "open-data"


@click.group("data")
def data() -> None:
    """Open data: export a season's rated matches, verify a dump, choose its licence."""


@data.command("export")
@click.argument("season_id", type=int)
@URL_OPTION
@click.option(
    "--month",
    default=None,
    metavar="YYYY-MM",
    help="Only the matches finished in this month (a long ladder's monthly dump).",
)
@click.option(
    "--out",
    "folder",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="The open-data folder [default: $ARENA_DATA_DIR/open-data, else var/open-data].",
)
@click.option("--quiet", is_flag=True, help="No progress bar.")
def export(
    season_id: int, url: str | None, month: str | None, folder: Path | None, quiet: bool
) -> None:
    """Write SEASON's rated matches as JSON lines, a Parquet table of hands, a schema, a
    licence and checksums (a finished season whole, or one month that is over)."""
    from arena.data.export import ExportError, export_season
    from arena.store.database import make_engine, make_sessionmaker

    root = folder or default_folder()
    sessions = make_sessionmaker(make_engine(url))
    with (
        sessions() as session,
        Progress(
            TextColumn("[bold]exporting[/bold]"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("matches"),
            TimeElapsedColumn(),
            console=console,
            disable=quiet,
        ) as bar,
    ):
        task = bar.add_task("export", total=None)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        try:
            dump = export_season(session, season_id, root, month=month, progress=progress)
        except ExportError as error:
            raise click.ClickException(str(error)) from None
        where = root / dump.folder
        console.print(
            f"{where}: {dump.matches} matches, {dump.hands} hands, licence {dump.licence}, "
            f"schema version {dump.schema_version}",
            markup=False,
        )
        for entry in dump.files:
            console.print(f"  {entry['sha256']}  {entry['size']:>12,}  {entry['name']}")


@data.command("verify")
@click.argument("folder", type=click.Path(exists=True, file_okay=False, path_type=Path))
def verify(folder: Path) -> None:
    """Read a dump back: checksums, schema, every replay re-played, the table's rows."""
    from arena.data.check import DumpError, check_dump

    try:
        checked = check_dump(folder)
    except DumpError as error:
        raise click.ClickException(str(error)) from None
    schema = "schema checked" if checked.schema_checked else "schema not checked (no jsonschema)"
    console.print(
        f"{folder}: {checked.files} checksums match; {checked.matches} replays verify; "
        f"{checked.table_rows} table rows for {checked.hands} hands played "
        f"({checked.row_groups} row groups); {schema}",
        markup=False,
    )


@data.command("licence")
@click.argument("season_id", type=int)
@click.argument("licence", required=False)
@URL_OPTION
def licence(season_id: int, licence: str | None, url: str | None) -> None:
    """Show SEASON's data licence, or set it to LICENCE (an SPDX identifier)."""
    from arena.data.export import LICENCES
    from arena.store import write_transaction
    from arena.store.database import make_engine, make_sessionmaker
    from arena.store.models import Season

    if licence is not None and licence not in LICENCES:
        raise click.BadParameter(f"one of {', '.join(LICENCES)}", param_hint="LICENCE")
    sessions = make_sessionmaker(make_engine(url))
    with sessions() as session, write_transaction(session):
        season = session.get(Season, season_id)
        if season is None:
            raise click.ClickException(f"no season {season_id}")
        if licence is not None:
            season.data_licence = licence
        console.print(f"season {season_id} ({season.name}): {season.data_licence}", markup=False)
