"""An honest bot plays normally under the sandbox and meets its deadlines."""

from __future__ import annotations

import asyncio
import statistics
import time
from typing import Any

import pytest

from arena.benchmarks.protocol import BotStream, HandDriver, RoundTrip, match_start_message
from tests.sandbox.conftest import MakeEnv, processes_of
from workers.sandbox import ExitKind, Sandbox, SandboxPolicy, start_unsandboxed

pytestmark = pytest.mark.timeout(120)
DEADLINE = 1.0  # the per-decision budget match_start_message announces


class TimedSeat(RoundTrip):
    """A seat whose every query must be answered within DEADLINE; records the times."""

    def __init__(self, inner: BotStream, times: list[float]) -> None:
        self.inner = inner
        self.times = times

    async def __call__(self, payload: Any) -> Any:
        start = time.perf_counter()
        answer = await asyncio.wait_for(self.inner(payload), DEADLINE)
        self.times.append(time.perf_counter() - start)
        return answer

    async def close(self) -> None:
        await self.inner.close()


async def play(addresses: list[str], hands: int) -> list[float]:
    times: list[float] = []
    streams = [BotStream(address) for address in addresses]
    for seat, stream in enumerate(streams):
        await stream.start(match_start_message(seat))
    driver = HandDriver([TimedSeat(stream, times) for stream in streams])
    try:
        for hand_number in range(hands):
            await driver.play_hand(hand_number)
    finally:
        for stream in streams:
            await stream.close()
    return times


def test_four_sandboxed_honest_bots_play_hands_within_their_deadlines(
    sandbox: Sandbox, make_env: MakeEnv
) -> None:
    policy = SandboxPolicy(ready_timeout=30)
    bots = [sandbox.start(make_env("honest"), seat=seat, policy=policy) for seat in range(4)]
    try:
        assert all(bot.wait_ready() for bot in bots), [bot.exit_reason() for bot in bots]
        assert len({bot.uid for bot in bots}) == 4  # a distinct uid per seat
        times = asyncio.run(play([bot.address for bot in bots], hands=3))
    finally:
        reasons = [bot.stop() for bot in bots]
    assert len(times) == 3 * (52 + 4)  # 13 tricks x 4 seats, and 4 passes, per hand
    assert max(times) < DEADLINE
    assert statistics.median(times) < 0.05
    assert all(reason.kind is ExitKind.STOPPED for reason in reasons), reasons
    assert all("passing from hand" in bot.stderr.text() for bot in bots)
    assert all(processes_of(bot.uid) == [] for bot in bots)


def test_unsandboxed_mode_is_explicit_and_works(make_env: MakeEnv) -> None:
    env = make_env("honest")
    bot = start_unsandboxed(env.bot_dir / env.entry, seat=0, python=env.python)
    with bot:
        assert not bot.sandboxed and "UNSANDBOXED" in repr(bot)
        assert bot.wait_ready(30), bot.exit_reason()
        times = asyncio.run(play([bot.address], hands=0))
    assert times == []
    assert bot.exit_reason() is not None and bot.exit_reason().kind is ExitKind.STOPPED  # type: ignore[union-attr]
