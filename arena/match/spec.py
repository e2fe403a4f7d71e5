"""Turn a `--bot` argument into a seat: a house bot, a bot file run locally, or an address.

Forms: ``house:random`` / ``house:heuristic`` (in-process); ``unix:/path/sock`` or
``host:port`` (a bot already serving); a path to a ``.py`` bot file, or an installed
``package.module:Class`` (started here in its own process through the SDK's server,
in the sandbox unless explicitly asked not to).
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from arena.bots import HOUSE_BOTS

from .seats import InProcessSeat, Seat


class BotSpecError(ValueError):
    """A `--bot` value we cannot turn into a seat."""


@dataclasses.dataclass(frozen=True)
class BotSpec:
    """A parsed `--bot` value."""

    kind: str  # "house", "address", "file" or "module"
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
        return self.value


def parse_bot_spec(text: str) -> BotSpec:
    """Classify a `--bot` value; BotSpecError says what forms are accepted."""
    text = text.strip()
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
        "unix:/path or host:port"
    )


def house_seat(spec: BotSpec, seed: int) -> Seat:
    """An in-process seat for a house bot."""
    return InProcessSeat(HOUSE_BOTS[spec.value](seed))
