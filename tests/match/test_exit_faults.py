"""A bot killed by its sandbox for memory or CPU time is faulted as such, not as a crash.

The bot is a real process that dies mid-match (tests/match/bots/crash_bot.py); its host
reports the exit as the sandbox does (`workers.sandbox.ExitReason`: a kind and a message),
so the typed kind travels from the host's exit to the replay's fault record.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from arena.engine import preset
from arena.match.clock import TimePolicy
from arena.match.process import BotProcess
from arena.match.remote import BotHost, GrpcSeat
from arena.match.runner import Entrant, MatchRunner
from arena.match.verify import verify

BOTS = Path(__file__).parent / "bots"
LOW_BOT = Path(__file__).resolve().parents[2] / "sdk" / "examples" / "low_bot.py"

pytestmark = pytest.mark.timeout(120)


@dataclasses.dataclass(frozen=True)
class _Exit:
    kind: str
    message: str

    def __str__(self) -> str:
        return self.message


class SandboxLikeHost:
    """A real bot process whose end is reported with the sandbox's exit kind."""

    def __init__(self, process: BotProcess, kind: str, message: str) -> None:
        self.process = process
        self.address = process.address
        self.kind = kind
        self.message = message

    def wait_ready(self, timeout: float) -> bool:
        return self.process.wait_ready(timeout)

    def exit_reason(self) -> object | None:
        return None if self.process.exit_reason() is None else _Exit(self.kind, self.message)

    def log_excerpt(self) -> str:
        return self.process.log_excerpt()

    def stop(self) -> None:
        self.process.stop()


@pytest.mark.parametrize(
    ("exit_kind", "message", "fault_kind"),
    [
        ("memory", "killed: out of memory (limit 256 MiB)", "out_of_memory"),
        ("cpu_time", "killed: CPU time limit reached (5.0 s used, limit 5 s)", "cpu_limit"),
        ("crashed", "exited with status 3", "crash"),
    ],
)
def test_a_killed_bots_fault_says_why(exit_kind: str, message: str, fault_kind: str) -> None:
    rules = preset("standard").replace(target_score=None, max_hands=2)
    dying = SandboxLikeHost(BotProcess(BOTS / "crash_bot.py"), exit_kind, message)
    hosts: list[BotHost] = [dying, *(BotProcess(LOW_BOT) for _ in range(3))]
    try:
        entrants = [
            Entrant(f"bot {i}", GrpcSeat(h.address, f"bot {i}", host=h))
            for i, h in enumerate(hosts)
        ]
        outcome = MatchRunner(
            rules, entrants, 5, time_policy=TimePolicy(0.5, 1.0, ready_timeout=15.0)
        ).run()
    finally:
        for host in hosts:
            host.stop()
    faults = [f for f in outcome.v1["faults"] if f["entrant"] == 0]
    assert faults[0]["kind"] == fault_kind
    assert message in faults[0]["detail"]
    assert outcome.results[0].disqualified
    verify(outcome.v1)
