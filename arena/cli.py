"""The `arena` command line: one group; the subcommands live in `arena.commands`."""

from __future__ import annotations

import click

from arena.commands.bench import bench
from arena.commands.bot import bot
from arena.commands.bot_upload import upload as bot_upload
from arena.commands.demo import demo
from arena.commands.match import match
from arena.commands.operations import COMMANDS as OPERATIONS_COMMANDS
from arena.commands.operations import season as bench_season
from arena.commands.platform import COMMANDS as PLATFORM_COMMANDS
from arena.commands.replay import replay
from arena.store.commands import db


@click.group()
@click.version_option(package_name="hearts-arena")
def main() -> None:
    """Hearts Arena: run matches, bots, benchmarks and the platform."""


bot.add_command(bot_upload)
bench.add_command(bench_season)
for command in (bench, bot, db, demo, match, replay, *PLATFORM_COMMANDS, *OPERATIONS_COMMANDS):
    main.add_command(command)


if __name__ == "__main__":
    main()
