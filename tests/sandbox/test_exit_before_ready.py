"""A sandboxed bot that exits before it is ready ends every wait for it at once, and its
failure is said once (issue 31, items 1 and 2).

The bot raises while it is imported (hostile/crash_at_import.py: the SDK exits 2), started
cold and warm (`BotProcess.warm` says which path it took). No clock is read: every wait
is given longer than the test may run, so a wait that returns at all returned because the
bot exited. The check is the upload validation's (`arena.match.check.check_seat` over a
`SandboxHost`): its summary is what the owner reads on the CLI, the version page and the
API.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterator
from typing import TypeVar

import pytest

from arena.match.check import check_seat
from arena.match.clock import TimePolicy
from arena.match.remote import GrpcSeat
from tests.sandbox.conftest import MakeEnv
from workers.sandbox import ExitKind, Sandbox
from workers.sandbox.host import SandboxHost

pytestmark = pytest.mark.timeout(90)

_T = TypeVar("_T")
PAST_THE_TIMEOUT = 180.0
"""Every wait is given longer than the test may take (its timeout, 90 s)."""
SAID_ONCE = "crashed: exited with status 2 before it was ready"


def in_a_thread(action: Callable[[], _T]) -> _T:
    """`action()` in a daemon thread, so that the test's timeout interrupts the join."""
    results: list[_T] = []
    thread = threading.Thread(target=lambda: results.append(action()), daemon=True)
    thread.start()
    thread.join()
    assert results, "the action raised (see the thread's traceback above)"
    return results[0]


@pytest.fixture
def cold_sandbox(sandbox: Sandbox) -> Iterator[Sandbox]:
    cold = Sandbox(warm=False)
    yield cold
    cold.close()


@pytest.fixture(params=["warm", "cold"])
def started_by(
    request: pytest.FixtureRequest, sandbox: Sandbox, cold_sandbox: Sandbox
) -> tuple[str, Sandbox]:
    return request.param, (cold_sandbox if request.param == "cold" else sandbox)


def test_the_wait_for_readiness_ends_at_the_exit(
    started_by: tuple[str, Sandbox], make_env: MakeEnv
) -> None:
    path, sandbox = started_by
    if path == "warm" and sandbox.templates is None:
        pytest.skip("warm starts are off here (ARENA_WARM_STARTS=0)")
    bot = sandbox.start(make_env("crash_at_import"), seat=1)
    try:
        assert bot.warm is (path == "warm"), bot.cold_reason
        assert in_a_thread(lambda: bot.wait_ready(PAST_THE_TIMEOUT)) is False
        reason = bot.exit_reason()
        assert reason is not None and reason.kind is ExitKind.CRASHED
        assert reason.message == SAID_ONCE
        assert "broken on purpose" in bot.stderr.text()
    finally:
        bot.stop()


def test_the_validation_check_says_it_once(sandbox: Sandbox, make_env: MakeEnv) -> None:
    bot = sandbox.start(make_env("crash_at_import"), seat=1)
    host = SandboxHost(bot)
    seat = GrpcSeat(bot.address, "candidate", host=host)
    policy = TimePolicy(ready_timeout=PAST_THE_TIMEOUT)
    try:
        report = in_a_thread(lambda: asyncio.run(check_seat(seat, time_policy=policy)))
    finally:
        host.stop()
    assert not report.passed
    assert report.summary == f"failed: crash — the bot {SAID_ONCE}"
    assert report.summary.count("before it was ready") == 1
    assert report.faults[0]["detail"] == f"the bot {SAID_ONCE}"
