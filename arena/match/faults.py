"""A bot's faults are data, not exceptions: what went wrong, where, and what was played instead.

Only `SeatFault` crosses from a seat to the runner; the runner turns it into a `Fault`
record in the replay and applies the `FaultPolicy`. Our own bugs raise anything else and
void the match.
"""

from __future__ import annotations

import dataclasses
from enum import StrEnum
from typing import Any


class FaultKind(StrEnum):
    """Every way a bot can fail a decision (docs/replay.md lists them for owners)."""

    TIMEOUT = "timeout"  # no answer within the decision's allowance plus the bank
    CRASH = "crash"  # the bot process died
    OUT_OF_MEMORY = "out_of_memory"  # the sandbox killed it at its memory limit
    CPU_LIMIT = "cpu_limit"  # the sandbox killed it at its CPU time limit
    DISCONNECT = "disconnect"  # the connection broke or never came up
    MALFORMED = "malformed"  # an answer we cannot read (wrong kind, bad card text, wrong id)
    ILLEGAL = "illegal"  # a card the rules forbid now
    NOT_HELD = "not_held"  # a card the bot does not hold
    NOT_READY = "not_ready"  # the bot never became ready
    ERROR = "error"  # the bot's own code raised (reported by the SDK as INTERNAL)
    UNSUPPORTED_RULES = "unsupported_rules"  # the bot does not read the state these rules send


_EXIT_FAULTS = {"memory": FaultKind.OUT_OF_MEMORY, "cpu_time": FaultKind.CPU_LIMIT}
"""The host's exit kinds (workers.sandbox.ExitKind values) that are faults of their own."""


def exit_fault_kind(reason: object) -> FaultKind:
    """The fault of a bot whose process ended: its own kind when the host typed the exit
    (the sandbox's `ExitReason.kind` "memory" or "cpu_time"), else CRASH.

    >>> from types import SimpleNamespace
    >>> exit_fault_kind(SimpleNamespace(kind="memory")).value
    'out_of_memory'
    >>> exit_fault_kind("exited with status 1").value
    'crash'
    """
    return _EXIT_FAULTS.get(str(getattr(reason, "kind", "")), FaultKind.CRASH)


class SeatFault(Exception):  # noqa: N818 - a bot's fault, not our error
    """Raised by a seat when its bot failed a decision; carries the kind and details."""

    def __init__(self, kind: FaultKind, detail: str) -> None:
        super().__init__(f"{kind.value}: {detail}")
        self.kind = kind
        self.detail = detail


@dataclasses.dataclass(frozen=True)
class Fault:
    """One recorded fault, with its place in the match."""

    entrant: int
    seat: int
    game: int
    hand: int
    trick: int | None  # None for a pass
    kind: FaultKind
    detail: str
    substitute: tuple[str, ...]  # the card(s) played in the bot's place
    elapsed_ms: float

    def to_dict(self) -> dict[str, Any]:
        """The replay's JSON form."""
        data = dataclasses.asdict(self)
        data["kind"] = self.kind.value
        data["substitute"] = list(self.substitute)
        return data


@dataclasses.dataclass(frozen=True)
class FaultPolicy:
    """What a fault costs. Documented in docs/replay.md 'Faults'.

    Each fault is recorded and the engine plays a default for that decision (the lowest
    legal card; for a pass, the lowest cards held) so the others' game goes on. After
    `max_faults` faults a bot is disqualified from the match: it is asked nothing more,
    its decisions are defaults, and it ranks last.
    """

    max_faults: int = 3

    def __post_init__(self) -> None:
        if self.max_faults < 1:
            raise ValueError("max_faults must be at least 1")
