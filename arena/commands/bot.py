"""`arena bot check`: the platform's upload checks, run on a bot here."""

from __future__ import annotations

import click

from arena.match.check import CHECK_HANDS, check
from arena.match.seats import Seat
from arena.match.spec import BotSpecError, parse_bot_spec

from .common import console, err_console, rules_from_option, rules_option
from .seating import SandboxRequiredError, SeatFactory


@click.group()
def bot() -> None:
    """Bots: check them here, upload them, and say where they play."""


@bot.command("check")
@click.argument("spec", required=False)
@click.option(
    "--command",
    "command",
    help="A bot in any language: the command that serves it (e.g. './bot' or "
    "'node dist/bot.js'), run here with --address unix:PATH appended (your own code: "
    "never in the sandbox; upload it for that).",
)
@rules_option
@click.option("--hands", type=click.IntRange(1, 100), default=CHECK_HANDS, show_default=True)
@click.option(
    "--sandbox/--no-sandbox",
    default=None,
    help="Run the bot in the sandbox (the default for SPEC); --no-sandbox only for your own code.",
)
def check_command(
    spec: str | None, command: str | None, rules_name: str, hands: int, sandbox: bool | None
) -> None:
    """Start the bot, send it malformed and out-of-order requests, and play a short match
    against house bots: exit 0 if it passed every check."""
    if (spec is None) == (command is None):
        raise click.UsageError("give a bot SPEC or --command, one of them")
    rules = rules_from_option(rules_name, None)
    with SeatFactory(sandbox=sandbox is not False) as factory:
        seat: Seat
        if command is not None:
            if sandbox:
                raise click.UsageError(
                    "--command runs your own program here, never in the sandbox: "
                    "drop --sandbox (the platform sandboxes it once uploaded)"
                )
            try:
                parsed = parse_bot_spec(f"command:{command}")
            except BotSpecError as error:
                raise click.BadParameter(str(error), param_hint="--command") from None
            name = parsed.name  # the program's file name, not the command's last word
            seat = factory.seat(parsed, 1)
        else:
            try:
                parsed = parse_bot_spec(spec or "")
            except BotSpecError as error:
                raise click.BadParameter(str(error), param_hint="SPEC") from None
            name = parsed.name
            try:
                seat = factory.seat(parsed, 1)
            except SandboxRequiredError as error:
                raise click.UsageError(str(error)) from None
        report = check(seat, rules=rules, hands=hands)
    if report.passed:
        console.print(f"[green]✓[/green] {name}: {report.summary}")
        return
    err_console.print(f"[red]✗[/red] {name}: {report.summary}")
    if report.log.strip():
        err_console.print("[dim]--- the bot's output ---[/dim]")
        err_console.print(report.log, markup=False, highlight=False)
    raise SystemExit(1)
