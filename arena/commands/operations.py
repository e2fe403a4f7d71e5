"""`arena status` (queues, running matches, workers' heartbeats) and `arena bench season`."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import click
from rich.table import Table

from .common import console


def _ago(when: datetime | None) -> str:
    if when is None:
        return "-"
    from arena.store.types import utc_now

    return f"{(utc_now() - when).total_seconds():.0f} s ago"


@click.command("status")
@click.option("--json", "as_json", is_flag=True, help="Print the snapshot as JSON.")
def status(as_json: bool) -> None:
    """Show the queues, the running matches and the workers' heartbeats."""
    from workers.app import app
    from workers.status import collect_status

    snapshot = collect_status(app)
    if as_json:
        click.echo(json.dumps(snapshot.to_dict(), indent=2, default=str))
        return
    console.print(f"broker: {snapshot.broker}")
    if snapshot.queues is None:
        console.print(f"[red]queues unreadable[/red]: {snapshot.queue_error}")
    else:
        console.print(
            "queues: " + ", ".join(f"{name} {length}" for name, length in snapshot.queues.items())
        )
    console.print(
        "matches: " + (", ".join(f"{k} {v}" for k, v in sorted(snapshot.matches.items())) or "none")
    )
    console.print(
        "bot versions: "
        + (", ".join(f"{k} {v}" for k, v in sorted(snapshot.versions.items())) or "none")
    )
    processes = Table(title="heartbeats")
    for column in ("name", "role", "host", "pid", "seen", "state", "doing"):
        processes.add_column(column)
    for row in snapshot.heartbeats:
        fresh = row.is_fresh(snapshot.stale_after)
        doing = ", ".join(
            f"{key} {value}" for key, value in row.info.items() if key in ("matches", "queues")
        )
        processes.add_row(
            row.name,
            row.role,
            row.hostname,
            str(row.pid),
            _ago(row.seen_at),
            "[green]alive[/green]" if fresh else "[red]stale[/red]",
            doing,
        )
    console.print(processes)
    running = Table(title=f"running matches ({len(snapshot.running)})")
    for column in ("match", "season", "started"):
        running.add_column(column)
    for match_id, season_id, started_at in snapshot.running[:50]:
        running.add_row(str(match_id), str(season_id or "-"), _ago(started_at))
    console.print(running)
    if snapshot.pings is not None:
        console.print(f"workers answering ping: {len(snapshot.pings)} {sorted(snapshot.pings)}")


@click.command("season")
@click.option("--matches", type=click.IntRange(2, 100_000), default=200, show_default=True)
@click.option(
    "--workers",
    "worker_counts",
    default="1,2",
    show_default=True,
    help="Worker process counts to run, comma-separated.",
)
@click.option(
    "--hands",
    type=click.IntRange(1, 100),
    default=None,
    help="Hands per match (default: the standard game to 100).",
)
@click.option(
    "--broker", default=None, help="Broker URL (default: the SQL broker on a scratch SQLite file)."
)
@click.option(
    "--keep",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Keep the scratch databases and logs here.",
)
def season(
    matches: int, worker_counts: str, hands: int | None, broker: str | None, keep: Path | None
) -> None:
    """Play a fixed season of sandboxed trivial bots with 1, then 2 worker processes."""
    from workers.bench import SeasonFigures, bench_season

    counts = [int(part) for part in worker_counts.split(",") if part.strip()]

    def report(figures: SeasonFigures) -> None:
        console.print(
            f"{figures.workers} worker(s): {figures.done}/{figures.matches} matches in "
            f"{figures.seconds:.1f} s = {figures.per_minute:.1f} matches/min"
        )

    results = bench_season(
        counts, matches, broker_url=broker, hands=hands, keep=keep, report=report
    )
    base = results[0].per_minute
    table = Table(title=f"arena bench season: {matches} matches of sandboxed trivial bots")
    for column in ("workers", "matches/min", "ratio"):
        table.add_column(column, justify="right")
    for figures in results:
        ratio = figures.per_minute / base if base else 0.0
        table.add_row(str(figures.workers), f"{figures.per_minute:.1f}", f"{ratio:.2f}")
    console.print(table)


COMMANDS = (status,)
"""Registered on `arena` by `arena.cli`; `season` goes on the `arena bench` group."""
