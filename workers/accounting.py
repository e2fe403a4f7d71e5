"""Where one match's CPU went, from the kernel's accounting (never a wall clock).

`execute_match` fills a `MatchAccount` as it goes and logs it with the match's
"recorded" line (``cpu`` in the JSON log), so an operator sees each match's cost in
core-seconds, and `arena bench season` sums them:

* the worker process's own CPU (``getrusage``, every thread of the process: a pool
  process runs one task at a time) while it loads the match and starts the seats, while
  the runner plays (in-process house bots included), and while it records;
* each sandboxed bot's tree from its cgroup's ``cpu.stat``: up to its readiness, and
  from readiness to its stop (its own code deciding, and its gRPC server).
"""

from __future__ import annotations

import dataclasses
import resource
from collections.abc import Iterable
from typing import Protocol

PARTS = ("seats", "bots_start", "bots_play", "runner", "recording")


def self_cpu_seconds() -> float:
    """User plus system CPU seconds of this process so far (every thread)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


class Accounted(Protocol):
    """What a sandboxed bot reports of its tree's CPU (`BotProcess`)."""

    cpu_at_ready: float | None
    cpu_at_stop: float | None
    warm: bool


@dataclasses.dataclass
class MatchAccount:
    """Core-seconds of one match by part (see the module's docstring)."""

    seats: float = 0.0
    """The worker loading the match and starting the seats (spawning the sandboxes)."""
    bots_start: float = 0.0
    """The sandboxed bots' trees up to readiness (bubblewrap, interpreter, imports)."""
    bots_play: float = 0.0
    """The sandboxed bots' trees from readiness to their stop."""
    runner: float = 0.0
    """The worker while the runner played (in-process bots and live events included)."""
    recording: float = 0.0
    """The worker recording the result (seats, replay, ratings) and clearing live events."""
    sandboxed: int = 0
    """How many seats ran in the sandbox."""
    warm: int = 0
    """How many of those were forked from a warm template (the rest started cold)."""

    def add_bots(self, bots: Iterable[Accounted]) -> None:
        """Add the trees of `bots` (stopped: their figures are final)."""
        for bot in bots:
            self.sandboxed += 1
            self.warm += 1 if bot.warm else 0
            ready = bot.cpu_at_ready or 0.0
            stopped = bot.cpu_at_stop if bot.cpu_at_stop is not None else ready
            self.bots_start += ready
            self.bots_play += max(0.0, stopped - ready)

    @property
    def total(self) -> float:
        """Every part together."""
        return self.seats + self.bots_start + self.bots_play + self.runner + self.recording

    def to_dict(self) -> dict[str, float]:
        """The parts and the total, in seconds (for the log)."""
        figures = {part: round(getattr(self, part), 6) for part in PARTS}
        figures["total"] = round(self.total, 6)
        figures["sandboxed"] = self.sandboxed
        figures["warm"] = self.warm
        return figures
