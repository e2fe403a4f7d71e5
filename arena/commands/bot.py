"""`arena bot check`: the platform's upload checks, run on a bot here."""

from __future__ import annotations

import click

from arena.match.check import CHECK_HANDS, check
from arena.match.spec import BotSpecError, parse_bot_spec

from .common import console, err_console, rules_from_option, rules_option
from .seating import SandboxRequiredError, SeatFactory


@click.group()
def bot() -> None:
    """Bots: check and upload them."""


@bot.command("check")
@click.argument("spec")
@rules_option
@click.option("--hands", type=click.IntRange(1, 100), default=CHECK_HANDS, show_default=True)
@click.option(
    "--sandbox/--no-sandbox",
    default=True,
    show_default=True,
    help="Run the bot in the sandbox; --no-sandbox only for your own code.",
)
def check_command(spec: str, rules_name: str, hands: int, sandbox: bool) -> None:
    """Start the bot and play a short match against house bots: exit 0 if it passed."""
    try:
        parsed = parse_bot_spec(spec)
    except BotSpecError as error:
        raise click.BadParameter(str(error), param_hint="SPEC") from None
    rules = rules_from_option(rules_name, None)
    with SeatFactory(sandbox=sandbox) as factory:
        try:
            seat = factory.seat(parsed, 1)
        except SandboxRequiredError as error:
            raise click.UsageError(str(error)) from None
        report = check(seat, rules=rules, hands=hands)
    if report.passed:
        console.print(f"[green]✓[/green] {parsed.name}: {report.summary}")
        return
    err_console.print(f"[red]✗[/red] {parsed.name}: {report.summary}")
    if report.log.strip():
        err_console.print("[dim]--- the bot's output ---[/dim]")
        err_console.print(report.log, markup=False, highlight=False)
    raise SystemExit(1)
