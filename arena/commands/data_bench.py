"""`arena bench export` and `arena bench baseline` (attached to `arena bench` by arena.cli):
the open data's export memory, and the baseline control per core-second."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from .common import console, err_console, exit_on_sigterm

if TYPE_CHECKING:
    from arena.data.bench import ExportFigures

URL_HELP = (
    "A PostgreSQL server URL: a fresh database is created on it and dropped afterwards "
    "[default: a temporary SQLite file]."
)


def _bar(what: str, *, json_out: bool = False) -> Progress:
    """The bar of matches played: on stderr when stdout carries JSON (`--json`)."""
    return Progress(
        TextColumn(f"[bold]{what}[/bold]"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("matches"),
        TimeElapsedColumn(),
        console=err_console if json_out else console,
    )


@click.command("export")
@click.option("--url", default=None, help=URL_HELP)
@click.option("--matches", type=click.IntRange(1), default=10_000, show_default=True)
@click.option("--entrants", type=click.IntRange(4), default=40, show_default=True)
@click.option(
    "--season",
    type=int,
    default=None,
    help="Measure the export of this finished season of the database at --url instead.",
)
@click.option(
    "--processes",
    type=click.IntRange(1),
    default=2,
    show_default=True,
    help="Child processes that play each round's tables while this one records them.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the figures as one JSON object.")
def bench_export(
    url: str | None,
    matches: int,
    entrants: int,
    season: int | None,
    processes: int,
    as_json: bool,
) -> None:
    """Play and store a season, export it as open data in a child process: its peak memory."""
    from arena.data.bench import bench_export as run
    from arena.data.bench import measure_export

    if season is not None:
        import tempfile
        from pathlib import Path

        from arena.store.database import database_url

        with tempfile.TemporaryDirectory() as folder:
            figures = measure_export(database_url(url), season, Path(folder))
        _print_export(figures, as_json)
        return
    exit_on_sigterm()  # a stopped bench stops its players (the pool's `with`) too
    with _bar("playing and storing", json_out=as_json) as bar:
        task = bar.add_task("play", total=matches)
        figures = run(
            url,
            matches=matches,
            entrants=entrants,
            progress=lambda done, total: bar.update(task, completed=done),
            processes=processes,
        )
    _print_export(figures, as_json)


def _print_export(figures: ExportFigures, as_json: bool) -> None:
    """The export bench's lines, or its figures as one JSON object (`--json`)."""
    from arena.data.bench import describe_export

    if as_json:
        import dataclasses
        import json

        click.echo(json.dumps(dataclasses.asdict(figures)))
        return
    for line in describe_export(figures):
        console.print(line, markup=False)


@click.command("baseline")
@click.option("--url", default=None, help=URL_HELP)
@click.option("--sets", type=click.IntRange(2), default=150, show_default=True)
@click.option(
    "--reference", default="heuristic", show_default=True, help="The house bot that replays."
)
@click.option(
    "--platform-match-seconds",
    type=click.FloatRange(0.0, min_open=True),
    default=1.504,
    show_default=True,
    help="Core-seconds of one platform match (docs/benchmarks.md: arena bench season).",
)
def bench_baseline(
    url: str | None, sets: int, reference: str, platform_match_seconds: float
) -> None:
    """The baseline control against duplicate sets, per core-second, on a stored season."""
    from arena.data.bench import bench_baseline as run
    from arena.data.bench import describe_baseline

    with _bar("playing and storing") as bar:
        task = bar.add_task("play", total=sets)
        bench = run(
            url,
            sets=sets,
            reference=reference,
            platform_match_seconds=platform_match_seconds,
            progress=lambda done, total: bar.update(task, completed=done),
        )
    for line in describe_baseline(bench):
        console.print(line, markup=False)
