"""Turn a `--bot` argument into a seat: a house bot, a bot file run locally, or an address.

Forms: ``house:random`` / ``house:heuristic`` (in-process); ``unix:/path/sock`` or
``host:port`` (a bot already serving); a path to a ``.py`` bot file, or an installed
``package.module:Class`` (started here in its own process through the SDK's server,
in the sandbox unless explicitly asked not to); ``command:./bot`` or ``command:node
dist/bot.js`` (a bot in any language: that command is run here, with ``--address
unix:PATH`` appended, as a plain local process: your own program, never sandboxed).
"""

from __future__ import annotations

import dataclasses
import re
import shlex
from pathlib import Path

from arena.bots import HOUSE_BOTS

from .seats import InProcessSeat, Seat


class BotSpecError(ValueError):
    """A `--bot` value we cannot turn into a seat."""


@dataclasses.dataclass(frozen=True)
class BotSpec:
    """A parsed `--bot` value."""

    kind: str  # "house", "address", "file", "module" or "command"
    value: str

    @property
    def name(self) -> str:
        """A display name for score tables and replays."""
        if self.kind == "house":
            return f"house:{self.value}"
        if self.kind == "file":
            return Path(self.value).stem
        if self.kind == "module":
            return self.value.rpartition(":")[2] or self.value
        if self.kind == "command":
            return command_name(self.argv)
        return self.value

    @property
    def argv(self) -> list[str]:
        """A command bot's command line, split as a shell would (without the address)."""
        return shlex.split(self.value)


def command_name(argv: list[str]) -> str:
    """A bot's name from the command that serves it: the program's file name when the
    command runs a program of its own (a path), else the file an interpreter found on
    PATH runs (its first argument that names a file, or the module of ``-m``), without
    the suffix; the first word when there is none.

    >>> command_name(["./bot"]), command_name(["node", "dist/bot.js", "--fast"])
    ('bot', 'bot')
    >>> command_name(["python3", "-u", "shark.py"]), command_name(["java", "-jar", "owl.jar"])
    ('shark', 'owl')
    >>> command_name(["./run.sh", "--config", "deep.json"]), command_name(["python3", "-m", "kit"])
    ('run', 'kit')
    """
    if not argv:
        return "command"
    program, arguments = argv[0], argv[1:]
    chosen = program
    if "/" not in program:  # an interpreter on PATH: name it after what it runs
        for index, word in enumerate(arguments):
            if word == "-m" and index + 1 < len(arguments):
                chosen = arguments[index + 1]
                break
            if not word.startswith("-") and ("/" in word or Path(word).suffix):
                chosen = word
                break
    return Path(chosen).stem or program


def parse_bot_spec(text: str) -> BotSpec:
    """Classify a `--bot` value; BotSpecError says what forms are accepted."""
    text = text.strip()
    if text.startswith("command:"):
        command = text.removeprefix("command:").strip()
        try:
            argv = shlex.split(command)
        except ValueError as error:
            raise BotSpecError(f"cannot read the command {command!r}: {error}") from None
        if not argv:
            raise BotSpecError("command: needs the command that serves the bot, e.g. command:./bot")
        return BotSpec("command", command)
    if text.startswith("house:"):
        name = text.removeprefix("house:")
        if name not in HOUSE_BOTS:
            raise BotSpecError(
                f"unknown house bot {name!r}; known: {', '.join(sorted(HOUSE_BOTS))}"
            )
        return BotSpec("house", name)
    if text.startswith("unix:"):
        return BotSpec("address", text)
    if text.endswith(".py") or Path(text).is_file():
        if not Path(text).is_file():
            raise BotSpecError(f"bot file {text!r} does not exist")
        return BotSpec("file", str(Path(text).resolve()))
    host, _, port = text.rpartition(":")
    if host and port.isdigit():
        return BotSpec("address", text)
    if host and re.fullmatch(r"[A-Za-z_][\w.]*", host) and port.isidentifier():
        return BotSpec("module", text)  # an installed bot, package.module:Class
    raise BotSpecError(
        f"cannot use {text!r} as a bot: give house:NAME, a bot .py file, package.module:Class, "
        "command:CMD, unix:/path or host:port"
    )


def house_seat(spec: BotSpec, seed: int) -> Seat:
    """An in-process seat for a house bot."""
    return InProcessSeat(HOUSE_BOTS[spec.value](seed))
