"""The `arena` command line: one group; the subcommands live in `arena.commands`.

Subcommands are imported only when they run (click's lazy-group pattern), so that a
contestant's light install (`pip install ./sdk .`, docs/tutorial.md) runs `arena match run`
and `arena replay …` without the platform's server libraries. A command that needs them
says so and how to install them, instead of failing with an import error.
"""

from __future__ import annotations

import importlib
from typing import Any, Final

import click

from arena.commands.extras import PlatformMissingError, missing_platform_library

# Each command's module and attribute, in the order `arena --help` lists them.
COMMANDS: Final[dict[str, tuple[str, str]]] = {
    "match": ("arena.commands.match", "match"),
    "replay": ("arena.commands.replay", "replay"),
    "bot": ("arena.commands.bot", "bot"),
    "login": ("arena.commands.login", "login"),
    "logout": ("arena.commands.login", "logout"),
    "demo": ("arena.commands.demo", "demo"),
    "bench": ("arena.commands.bench", "bench"),
    "platform": ("arena.commands.platform", "platform"),
    "setup": ("arena.commands.platform", "setup"),
    "web": ("arena.commands.platform", "web"),
    "live": ("arena.commands.live", "live"),
    "worker": ("arena.commands.platform", "worker"),
    "beat": ("arena.commands.platform", "beat"),
    "status": ("arena.commands.operations", "status"),
    "season-report": ("arena.commands.ratings", "season_report"),
    "data": ("arena.commands.data", "data"),
    "final": ("arena.commands.finals", "final"),
    "db": ("arena.store.commands", "db"),
}


class LazyGroup(click.Group):
    """A group that imports a subcommand's module only when that subcommand is used."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in COMMANDS:
            return None
        module_name, attribute = COMMANDS[cmd_name]
        try:
            command: click.Command = getattr(importlib.import_module(module_name), attribute)
        except ModuleNotFoundError as error:
            library = missing_platform_library(error)
            if library is None:
                raise
            return _needs_platform(cmd_name, library)
        _attach_subcommands(cmd_name, command)
        return command

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except ModuleNotFoundError as error:
            # A command that imports a server library only when it runs (`bench season`).
            library = missing_platform_library(error)
            if library is None:
                raise
            raise PlatformMissingError(library) from None


def _attach_subcommands(name: str, command: click.Command) -> None:
    """Subcommands that live in another module than their group (once per process)."""
    if name == "bot" and isinstance(command, click.Group) and "upload" not in command.commands:
        from arena.commands.bot_entries import enter, withdraw
        from arena.commands.bot_upload import upload

        for subcommand in (upload, enter, withdraw):
            command.add_command(subcommand)
    if name == "bench" and isinstance(command, click.Group) and "season" not in command.commands:
        from arena.commands.analysis import bench_analysis
        from arena.commands.data_bench import bench_baseline, bench_export
        from arena.commands.operations import season
        from arena.commands.rehearsal import rehearsal

        command.add_command(season)
        command.add_command(rehearsal)
        command.add_command(bench_analysis)
        command.add_command(bench_export)
        command.add_command(bench_baseline)
    if name == "replay" and isinstance(command, click.Group) and "analyse" not in command.commands:
        from arena.commands.analysis import analyse_command

        command.add_command(analyse_command)


def _needs_platform(name: str, library: str) -> click.Command:
    """What `arena NAME` is in an install without the platform's server libraries."""

    def refuse() -> None:
        raise PlatformMissingError(library)

    return click.Command(
        name,
        callback=refuse,
        help="(needs the platform's server libraries: pip install './[platform]')",
        context_settings={"ignore_unknown_options": True, "allow_extra_args": True},
    )


@click.group(cls=LazyGroup)
@click.version_option(package_name="hearts-arena")
def main() -> None:
    """Hearts Arena: run matches, bots, benchmarks and the platform."""


if __name__ == "__main__":
    main()
