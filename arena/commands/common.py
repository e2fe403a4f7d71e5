"""Options and helpers shared by the subcommands."""

from __future__ import annotations

import signal
from types import FrameType

import click
from rich.console import Console

from arena.engine import PRESETS, Rules, RulesError, preset

console = Console(soft_wrap=True)
err_console = Console(stderr=True, soft_wrap=True)


def rules_from_option(name: str, players: int | None) -> Rules:
    """A preset by name, as a click parameter error when it cannot be built."""
    try:
        return preset(name, players)
    except RulesError as error:
        raise click.BadParameter(str(error), param_hint="--rules") from None


rules_option = click.option(
    "--rules",
    "rules_name",
    default="standard",
    show_default=True,
    type=click.Choice(sorted(PRESETS)),
    help="Rules preset.",
)


def exit_on_sigterm() -> None:
    """Make SIGTERM a clean exit: SystemExit unwinds like Ctrl-C, so `with` blocks close
    what they started (the platform's processes, a bench's pool of players) instead of
    leaving them running when a service manager or `kill` stops the command."""

    def handler(_signum: int, _frame: FrameType | None) -> None:
        raise SystemExit(0)

    signal.signal(signal.SIGTERM, handler)
