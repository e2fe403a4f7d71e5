"""The runtime every sandboxed Python bot runs on (workers/sandbox/environment.py): it holds
uvloop, so the SDK serves a bot on uvloop's event loop (hearts_bot.transport picks it up
when importable), started cold or forked from the warm template (zygote.py imports it)."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from tests.sandbox.client import BotClient
from tests.sandbox.conftest import MakeEnv
from workers.sandbox import Sandbox

pytestmark = pytest.mark.timeout(90)


@pytest.fixture
def cold_sandbox(sandbox: Sandbox) -> Iterator[Sandbox]:
    cold = Sandbox(warm=False)
    yield cold
    cold.close()


@pytest.mark.parametrize("path", ["warm", "cold"])
def test_a_sandboxed_bot_is_served_on_uvloop(
    path: str, sandbox: Sandbox, cold_sandbox: Sandbox, make_env: MakeEnv
) -> None:
    starter = cold_sandbox if path == "cold" else sandbox
    if path == "warm" and starter.templates is None:
        pytest.skip("warm starts are off here (ARENA_WARM_STARTS=0)")
    bot = starter.start(make_env("loop_report"), seat=1)
    client = BotClient(bot.address, seat=1)
    try:
        assert bot.wait_ready(30), bot.log_excerpt()
        assert bot.warm is (path == "warm"), bot.cold_reason
        client.start()
        client.play(timeout=10.0)
        deadline = time.monotonic() + 10
        while "LOOP " not in bot.stderr.text():
            assert time.monotonic() < deadline, bot.log_excerpt()
            time.sleep(0.01)
    finally:
        client.close()
        bot.stop()
    lines = [line for line in bot.stderr.text().splitlines() if line.startswith("LOOP ")]
    assert lines == ["LOOP uvloop.Loop"], bot.log_excerpt()
