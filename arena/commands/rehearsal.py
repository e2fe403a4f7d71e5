"""`arena bench rehearsal`: a season as a real competition looks, through the real platform,
checked against a known truth (`workers.rehearsal`; docs/scaling.md)."""

from __future__ import annotations

import os
import statistics
from pathlib import Path
from typing import TYPE_CHECKING

import click

from .common import console

if TYPE_CHECKING:
    from arena.benchmarks.rehearsal import Agreement
    from workers.rehearsal_figures import FinalRow, RehearsalFigures


@click.command("rehearsal")
@click.option("--entrants", type=click.IntRange(4, 2000), default=48, show_default=True)
@click.option("--rounds", type=click.IntRange(2, 1000), default=16, show_default=True)
@click.option("--workers", type=click.IntRange(1, 256), default=2, show_default=True)
@click.option(
    "--broken",
    type=click.IntRange(0, 1000),
    default=3,
    show_default=True,
    help="Entrants that crash, time out or play an illegal card now and then.",
)
@click.option(
    "--updaters",
    type=click.IntRange(0, 2000),
    default=None,
    help="Entrants that upload a new version half way [default: one in eight].",
)
@click.option(
    "--finalists",
    type=click.IntRange(0, 16),
    default=8,
    show_default=True,
    help="The season's top N then play a final (a round robin of duplicate sets); 0: none.",
)
@click.option(
    "--hands",
    type=click.IntRange(1, 100),
    default=None,
    help="Hands per match (default: the standard game to 100).",
)
@click.option(
    "--broker",
    default="embedded",
    show_default=True,
    help="embedded (a scratch embedded server, as `arena platform` runs), sql (a scratch "
    "SQL broker), redis (a Redis server of the run's own on a free port of 127.0.0.1, "
    "stopped at the end), or a Redis URL (flushed first: give a scratch one).",
)
@click.option(
    "--database",
    default="sqlite",
    show_default=True,
    help="sqlite (a scratch file), postgresql (a PostgreSQL server of the run's own on a "
    "free port of 127.0.0.1, removed at the end), or a PostgreSQL URL of an empty "
    "scratch database.",
)
@click.option(
    "--kit-cache",
    type=click.Path(file_okay=False, path_type=Path),
    default=lambda: (
        Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
        / "hearts-arena"
        / "rehearsal-kits"
    ),
    show_default="$XDG_CACHE_HOME/hearts-arena/rehearsal-kits",
    help="Keep the built kits here and reuse them while their sources are unchanged.",
)
@click.option("--rebuild-kits", is_flag=True, help="Build the kits even if cached.")
@click.option(
    "--keep",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Run in this folder and keep its database, logs and built kits.",
)
@click.option(
    "--metrics-port",
    type=click.IntRange(0, 65535),
    default=None,
    help="Serve the workers' Prometheus metrics on this port of 127.0.0.1 (0: a free one), "
    "for a Prometheus to scrape during the rehearsal (docs/operations.md, Dashboards).",
)
def rehearsal(
    entrants: int,
    rounds: int,
    workers: int,
    broken: int,
    updaters: int | None,
    finalists: int,
    hands: int | None,
    broker: str,
    database: str,
    kit_cache: Path,
    rebuild_kits: bool,
    keep: Path | None,
    metrics_port: int | None,
) -> None:
    """Run a season of starter-kit bots of known strength through the real platform."""
    from arena.benchmarks.rehearsal import plan_entrants
    from workers.config import REDIS_SCHEMES
    from workers.rehearsal import rehearse
    from workers.rehearsal_entrants import KitBuildError
    from workers.rehearsal_errors import RehearsalError
    from workers.scratch_servers import ScratchServerError

    try:
        plans = plan_entrants(entrants, broken=broken, updaters=updaters)
    except ValueError as error:
        raise click.BadParameter(str(error)) from None
    kind = broker if broker in ("embedded", "sql", "redis") else "url"
    if kind == "url" and not broker.startswith(REDIS_SCHEMES):
        raise click.BadParameter(
            f"{broker!r}: embedded, sql, redis or a Redis URL", param_hint="--broker"
        )
    if database not in ("sqlite", "postgresql") and not database.startswith("postgresql"):
        raise click.BadParameter(
            f"{database!r}: sqlite, postgresql or a PostgreSQL URL", param_hint="--database"
        )
    database_url = None if database in ("sqlite", "postgresql") else database
    console.print(
        f"arena bench rehearsal: {entrants} entrants, {rounds} rounds, {workers} worker(s); "
        f"load average {os.getloadavg()[0]:.1f}"
    )
    try:
        figures = rehearse(
            plans,
            workers=workers,
            rounds=rounds,
            broker_url=broker if kind == "url" else None,
            broker=kind,
            database_url=database_url,
            database=database if database_url is None else "url",
            hands=hands,
            keep=keep,
            kit_cache=None if rebuild_kits else kit_cache,
            finalists=finalists,
            metrics_port=metrics_port,
            progress=lambda line: console.print(f"  {line}", markup=False),
        )
    except (RehearsalError, KitBuildError, ScratchServerError) as error:
        raise click.ClickException(str(error)) from None
    print_report(figures)
    console.print(f"load average at the end: {os.getloadavg()[0]:.1f}")
    if not figures.nothing_lost:
        raise SystemExit(1)


def print_report(figures: RehearsalFigures) -> None:
    """The rehearsal's figures and checks, as the command prints them."""
    rounds = figures.round_seconds
    console.print(
        f"{figures.entrants} entrants, {figures.workers} worker(s), broker {figures.broker}, "
        f"{figures.database}; load average {figures.load[0]:.1f} at the start of the season, "
        f"{figures.load[1]:.1f} at its end"
    )
    built = ", ".join(f"{k} {v:.1f} s" for k, v in figures.build_seconds.items())
    console.print(
        (
            f"kits from the cache (built earlier in {built})"
            if figures.kits_cached
            else f"kits built in {built}"
        )
        + f"; uploads validated in {figures.validation_seconds:.1f} s"
    )
    console.print(
        f"season: {figures.recorded}/{figures.scheduled} matches in {figures.season_seconds:.1f} s"
        f" = {figures.per_minute:.1f} matches/min ({figures.hands_per_match:.1f} hands a match)"
    )
    if rounds:
        console.print(
            f"rounds ({len(rounds)}, {min(figures.round_matches)}-{max(figures.round_matches)} "
            f"matches each): median {statistics.median(rounds):.1f} s, "
            f"{min(rounds):.1f}-{max(rounds):.1f} s; each: "
            + " ".join(f"{value:.0f}" for value in rounds)
        )
    console.print(
        f"per match: wall time {_spread(figures.match_seconds)}; wait in the queue "
        f"{_spread(figures.wait_seconds)}; per upload, to its verdict: "
        f"{_spread(figures.validation_seconds_each)}"
    )
    cpu = figures.cpu_per_match
    if cpu:
        parts = ("seats", "bots_start", "bots_play", "runner", "recording", "total")
        console.print(
            "core-seconds per match by part: "
            + ", ".join(f"{part} {cpu.get(part, 0.0):.3f}" for part in parts)
            + f" (bots started {cpu.get('sandboxed', 0.0):g} a match, "
            f"{cpu.get('warm', 0.0):g} of them warm)"
        )
    faults = ", ".join(f"{kind} {count}" for kind, count in sorted(figures.faults.items()))
    faulted = ", ".join(f"{k} {v}" for k, v in sorted(figures.faulted_matches.items()))
    console.print(f"faults by kind: {faults or 'none'}; matches with one: {faulted or 'none'}")
    who = ", ".join(f"{k} {v}" for k, v in sorted(figures.faults_by_entrant.items()))
    console.print(f"faults by entrant: {who or 'none'}", markup=False)
    _print_rows("the season's standings (frozen at its finish)", figures.standings)
    _print_agreement("the season's order", figures.agreement)
    if figures.final:
        console.print(
            f"the final: {figures.final_matches} duplicate sets in {figures.final_seconds:.1f} s"
        )
        _print_rows("the final's standings (frozen at its finish)", figures.final)
        _print_agreement("the final's order", figures.final_agreement)
    if figures.wall_seconds:
        console.print(
            f"wall time {figures.wall_seconds:.1f} s end to end: "
            + ", ".join(f"{stage} {seconds:.1f} s" for stage, seconds in figures.stages.items())
        )
    statuses = ", ".join(f"{k} {v}" for k, v in sorted(figures.statuses.items()))
    if figures.nothing_lost:
        console.print(
            f"[green]nothing lost[/green]: {figures.scheduled} scheduled matches, each recorded "
            f"once ({statuses}), rated once per seat; the final's {figures.final_matches} tables "
            f"done; {figures.replays_verified} replays verified"
        )
    else:
        console.print(f"[red]LOST OR DOUBLED[/red]: matches {statuses}")
        for line in figures.duplicates[:20] + figures.replay_failures[:20]:
            console.print(f"  {line}", markup=False)


def _spread(values: list[float]) -> str:
    """Median, 95th percentile and largest of `values` (seconds)."""
    if not values:
        return "-"
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return (
        f"median {statistics.median(ordered):.1f} s, 95th percentile {p95:.1f} s, "
        f"largest {ordered[-1]:.1f} s"
    )


def _print_agreement(what: str, judged: Agreement | None) -> None:
    if judged is None:
        return
    console.print(
        f"{what} against the truth ({judged.entrants} sound entrants): Kendall's tau "
        f"{judged.tau:.3f}; true neighbours in the right order {judged.adjacent_right}/"
        f"{judged.adjacent}; neighbours the ranking's 95 % intervals tell apart "
        f"{judged.adjacent_separated}/{judged.adjacent}; pairs told apart "
        f"{judged.pairs_separated}, of them the wrong way round {judged.separated_wrong}"
    )


def _print_rows(title: str, rows: list[FinalRow]) -> None:
    """One line per entrant (plain text, so that no terminal width cuts a name)."""
    console.print(f"{title}, against the handicaps:")
    console.print(
        f"{'rank':>4}  {'entrant':<22} {'kit':<10} {'p':>5} {'ver':>3} {'games':>5} "
        f"{'pts/hand':>8}  95 % interval",
        markup=False,
    )
    for row in rows:
        points = f"{row.points:.2f}" if row.points is not None else "-"
        interval = (
            f"{row.low:.2f}..{row.high:.2f}"
            if row.low is not None and row.high is not None
            else "-"
        )
        console.print(
            f"{row.rank or '-':>4}  {row.name:<22} {row.kind:<10} {row.handicap:>5.2f} "
            f"v{row.version:<2} {row.games:>5} {points:>8}  {interval}",
            markup=False,
            highlight=False,
        )
