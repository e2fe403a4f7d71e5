"""`arena match run`: one match between bots, with a progress bar, a score table and a replay."""

from __future__ import annotations

from pathlib import Path

import click
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from arena.engine.rules import Settlement
from arena.match import replay as replay_io
from arena.match.clock import TimePolicy
from arena.match.faults import FaultPolicy
from arena.match.runner import Entrant, MatchOutcome, MatchRunner
from arena.match.runner import Progress as MatchProgress
from arena.match.spec import BotSpecError, parse_bot_spec

from .common import console, err_console, rules_from_option, rules_option
from .seating import SandboxRequiredError, SeatFactory


@click.group()
def match() -> None:
    """Matches between bots."""


@match.command("run")
@rules_option
@click.option(
    "--bot",
    "bots",
    multiple=True,
    required=True,
    help="A bot per seat, in seat order: house:NAME, a bot .py file, package.module:Class, "
    "command:CMD (a bot in any language: CMD is run here with --address unix:PATH appended, "
    "e.g. 'command:./bot' or 'command:node dist/bot.js'), unix:/path or host:port.",
)
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the deals.")
@click.option(
    "--duplicate", is_flag=True, help="Play a duplicate set: the same deals once per seat rotation."
)
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write the replay here (.json.gz compressed, .json readable).",
)
@click.option(
    "--decision-ms",
    type=click.IntRange(1, 600_000),
    default=1000,
    show_default=True,
    help="Free time per decision.",
)
@click.option(
    "--bank-ms",
    type=click.IntRange(0, 3_600_000),
    default=10_000,
    show_default=True,
    help="Overtime bank per bot for the whole match.",
)
@click.option(
    "--max-faults",
    type=click.IntRange(1, 1000),
    default=3,
    show_default=True,
    help="Faults before a bot is disqualified from the match.",
)
@click.option(
    "--hands",
    type=click.IntRange(1, 100_000),
    default=None,
    help="Play this many hands per game instead of to the rules' target (a chip game "
    "still ends when a seat runs out of chips; Danger Hearts plays on to break a tie).",
)
@click.option(
    "--sandbox/--no-sandbox",
    default=None,
    help="Run bot files inside the sandbox (the default); --no-sandbox runs them as plain "
    "local processes (only for your own code). A command:CMD bot always runs here, never "
    "in the sandbox (upload it for that).",
)
@click.option("--quiet", is_flag=True, help="No progress bar.")
def run_command(
    rules_name: str,
    bots: tuple[str, ...],
    seed: int,
    duplicate: bool,
    out: Path | None,
    decision_ms: int,
    bank_ms: int,
    max_faults: int,
    hands: int | None,
    sandbox: bool | None,
    quiet: bool,
) -> None:
    """Run one match and print the score table."""
    rules = rules_from_option(rules_name, len(bots))
    if hands is not None:
        # Exactly `hands` hands: no target score ends it sooner, except a chip game's
        # stake, which it cannot do without (a seat that runs out of chips ends it).
        chips = rules.settlement is not Settlement.POINTS
        rules = rules.replace(
            target_score=rules.target_score if chips else None,
            max_hands=hands,
            moon="old" if rules.moon.value == "add_unless_losing" else rules.moon,
        )
    try:
        specs = [parse_bot_spec(text) for text in bots]
    except BotSpecError as error:
        raise click.BadParameter(str(error), param_hint="--bot") from None
    if sandbox and any(spec.kind == "command" for spec in specs):
        raise click.UsageError(
            "a command:CMD bot runs your own program here, never in the sandbox: drop "
            "--sandbox (the platform sandboxes it once uploaded)"
        )
    time_policy = TimePolicy(per_decision=decision_ms / 1000, bank=bank_ms / 1000)
    names = tuple(spec.name for spec in specs)
    with SeatFactory(sandbox=sandbox is not False, time_policy=time_policy) as factory:
        try:
            entrants = [
                Entrant(spec.name, factory.seat(spec, seed + i, names))
                for i, spec in enumerate(specs)
            ]
        except SandboxRequiredError as error:
            raise click.UsageError(str(error)) from None
        outcome = _run(rules, entrants, seed, duplicate, time_policy, max_faults, quiet)
    if out is not None:
        replay_io.save(outcome.replay, out)
        console.print(f"replay written to {out}")
    _print_result(outcome)
    if outcome.void:
        raise SystemExit(3)


def _run(rules, entrants, seed, duplicate, time_policy, max_faults, quiet) -> MatchOutcome:  # type: ignore[no-untyped-def]
    runner_kwargs = {
        "duplicate": duplicate,
        "time_policy": time_policy,
        "fault_policy": FaultPolicy(max_faults=max_faults),
    }
    if quiet:
        return MatchRunner(rules, entrants, seed, **runner_kwargs).run()
    games = rules.players if duplicate else 1
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.fields[totals]}"),
        TimeElapsedColumn(),
        console=err_console,
        transient=True,
    ) as bar:
        task = bar.add_task("starting", total=games, totals="")

        def on_progress(event: MatchProgress) -> None:
            bar.update(
                task,
                completed=event.game + (1 if _over(rules, event) else 0),
                description=f"game {event.game + 1}/{event.games} hand {event.hand + 1}",
                totals=" ".join(str(t) for t in event.totals),
            )

        return MatchRunner(
            rules,
            entrants,
            seed,
            on_progress=on_progress,
            **runner_kwargs,
        ).run()


def _over(rules, event: MatchProgress) -> bool:  # type: ignore[no-untyped-def]
    target = rules.target_score
    return target is not None and max(event.totals) >= target


def _print_result(outcome: MatchOutcome) -> None:
    if outcome.void:
        err_console.print("[red]VOID[/red]: the platform failed; the match is not scored.")
        # A local run is the user's own machine: the traceback is theirs to read.
        err_console.print(outcome.void_detail or outcome.void_reason or "", markup=False)
        return
    table = Table(title=f"match {outcome.replay['match_id']}")
    for column in ("rank", "bot", "score", "hands", "moons", "faults"):
        table.add_column(column, justify="left" if column == "bot" else "right")
    for result in sorted(outcome.results, key=lambda r: (r.rank, r.entrant)):
        name = result.name + (" [red](disqualified)[/red]" if result.disqualified else "")
        table.add_row(
            str(result.rank),
            name,
            str(result.score),
            str(result.hands),
            str(result.moons),
            str(result.faults),
        )
    console.print(table)
    for fault in outcome.replay["faults"][:20]:
        console.print(
            f"  [yellow]fault[/yellow] {outcome.results[fault['entrant']].name}: "
            f"{fault['kind']} — {fault['detail']}"
        )
