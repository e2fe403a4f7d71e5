"""`arena status` (queues, running matches, workers' heartbeats) and `arena bench season`."""

from __future__ import annotations

import json
import statistics
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

import click
from rich.table import Table

from .common import console

if TYPE_CHECKING:
    from workers.bench import SeasonFigures


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
    if snapshot.broker_server is not None:  # the embedded broker `arena platform` supervises
        console.print(f"broker server: {snapshot.broker_server}", markup=False)
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
    "--broker",
    default="sql",
    show_default=True,
    help="sql (a scratch SQL broker), embedded (a scratch embedded server, as `arena "
    "platform` runs), both comma-separated to alternate them, or a broker URL.",
)
@click.option(
    "--round-size",
    type=click.IntRange(1),
    default=None,
    help="Enqueue this many matches at a time, the next once they are recorded, and "
    "print the rounds' latency and the matches' pick-up delay (2: a round of 8 players).",
)
@click.option(
    "--repeats",
    type=click.IntRange(1, 100),
    default=1,
    show_default=True,
    help="Runs of every broker and worker count, alternated.",
)
@click.option(
    "--keep",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Keep the scratch databases and logs here.",
)
def season(
    matches: int,
    worker_counts: str,
    hands: int | None,
    broker: str,
    round_size: int | None,
    repeats: int,
    keep: Path | None,
) -> None:
    """Play a fixed season of sandboxed trivial bots with 1, then 2 worker processes."""
    from workers.bench import bench_season

    counts = [int(part) for part in worker_counts.split(",") if part.strip()]
    kinds = [part.strip() for part in broker.split(",") if part.strip()]
    url = None if set(kinds) <= {"sql", "embedded"} else broker

    def report(figures: SeasonFigures) -> None:
        line = (
            f"{figures.broker}, {figures.workers} worker(s): {figures.done}/{figures.matches} "
            f"matches in {figures.seconds:.1f} s = {figures.per_minute:.1f} matches/min"
        )
        if figures.round_seconds:
            line += (
                f"; round latency median {_ms(figures.round_seconds)}, pick-up delay "
                f"median {_ms(figures.pickup_seconds)}"
            )
        console.print(line)

    results = bench_season(
        counts,
        matches,
        broker_url=url,
        brokers=kinds,
        repeats=repeats,
        hands=hands,
        round_size=round_size,
        keep=keep,
        report=report,
    )
    if round_size:
        _print_rounds(results)
    base = results[0].per_minute
    table = Table(title=f"arena bench season: {matches} matches of sandboxed trivial bots")
    for column in ("broker", "workers", "matches/min", "ratio"):
        table.add_column(column, justify="right")
    for figures in results:
        ratio = figures.per_minute / base if base else 0.0
        table.add_row(
            figures.broker, str(figures.workers), f"{figures.per_minute:.1f}", f"{ratio:.2f}"
        )
    console.print(table)
    _print_cpu(results)


def _ms(seconds: list[float]) -> str:
    return f"{statistics.median(seconds) * 1e3:.0f} ms" if seconds else "-"


def _print_rounds(results: list[SeasonFigures]) -> None:
    """Per broker and worker count: the range of the runs' median round latency and
    pick-up delay, and the medians over every run's rounds and matches."""
    table = Table(title="round latency (enqueued to the round's last match recorded)")
    for column in (
        "broker",
        "workers",
        "runs",
        "round: runs' medians",
        "all rounds",
        "pick-up: runs' medians",
        "all matches",
    ):
        table.add_column(column, justify="right")
    groups: dict[tuple[str, int], list[SeasonFigures]] = {}
    for figures in results:
        groups.setdefault((figures.broker, figures.workers), []).append(figures)
    for (broker, workers), runs in groups.items():
        rounds = [statistics.median(run.round_seconds) for run in runs if run.round_seconds]
        picks = [statistics.median(run.pickup_seconds) for run in runs if run.pickup_seconds]
        table.add_row(
            broker,
            str(workers),
            str(len(runs)),
            f"{min(rounds) * 1e3:.0f}–{max(rounds) * 1e3:.0f} ms" if rounds else "-",
            _ms([value for run in runs for value in run.round_seconds]),
            f"{min(picks) * 1e3:.0f}–{max(picks) * 1e3:.0f} ms" if picks else "-",
            _ms([value for run in runs for value in run.pickup_seconds]),
        )
    console.print(table)


def _print_cpu(results: list[SeasonFigures]) -> None:
    """Core-seconds per match by part. Cold-started bots' start-up is split as `arena bench
    sandbox` measures it (the same trivial bot, started alone on this machine); warm
    starts (forked from the template) are one part: they run no interpreter or import."""
    accounted = [figures for figures in results if figures.cpu_per_match]
    if not accounted:
        console.print("[yellow]no worker logged a match's CPU account[/yellow]")
        return
    cold = all(not figures.cpu_per_match.get("warm", 0.0) for figures in accounted)
    startup = None
    if cold:
        from workers.bench import startup_parts

        startup = startup_parts()
    table = Table(title="core-seconds per match, by part (the workers' CPU accounting)")
    table.add_column("part")
    for figures in accounted:
        table.add_column(f"{figures.broker}, {figures.workers} worker(s)", justify="right")
    if startup is not None:
        share = {name: value / startup.bot_total for name, value in startup.parts.items()}
        starts = [(f"bots to ready: {name}", "bots_start", share[name]) for name in share]
    else:
        warm = ", ".join(
            f"{figures.cpu_per_match.get('warm', 0.0):g} of "
            f"{figures.cpu_per_match.get('sandboxed', 0.0):g}"
            for figures in accounted
        )
        starts = [(f"bots to ready (warm starts per match: {warm})", "bots_start", 1.0)]
    rows: list[tuple[str, str, float]] = [
        ("worker: loading, starting the seats", "seats", 1.0),
        *starts,
        ("bots playing (their own code and gRPC)", "bots_play", 1.0),
        ("worker: the runner (and live events)", "runner", 1.0),
        ("worker: recording", "recording", 1.0),
        ("total", "total", 1.0),
    ]
    for label, key, fraction in rows:
        table.add_row(
            label,
            *[f"{figures.cpu_per_match.get(key, 0.0) * fraction:.3f}" for figures in accounted],
        )
    console.print(table)
    if startup is not None:
        console.print(
            f"(the bots' start-up split by {startup.starts} starts per part of one trivial "
            "bot: "
            + ", ".join(f"{name} {value * 1e3:.1f} ms" for name, value in startup.parts.items())
            + ")"
        )


COMMANDS = (status,)
"""Registered on `arena` by `arena.cli`; `season` goes on the `arena bench` group."""
