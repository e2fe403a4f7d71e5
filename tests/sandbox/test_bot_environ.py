"""What a sandboxed bot gets (issue 31, item 3): the platform's `PWD` and `LC_CTYPE`, the
``[env]`` of its ``hearts-bot.toml``, and nothing of the worker's environment, whether it
was started cold (bubblewrap's ``--setenv``) or warm (the template's request): one value,
`workers.sandbox.variables.bot_environ`.

The bot (hostile/environ_report.py) writes its whole environment to stderr once loaded;
a secret sits in this process's environment, which the bot must not see.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from tests.sandbox.conftest import MakeEnv
from workers.sandbox import Sandbox
from workers.sandbox.variables import BASE_ENVIRON, bot_environ

pytestmark = pytest.mark.timeout(90)

MANIFEST = """kind = "python"
entry = "environ_report.py"
protocol = "hearts.v1"

[env]
SEARCH_DEPTH = "3"
GREETING = "hello world"
"""
SDK_OWN = {"GRPC_EXPERIMENTS": "-event_engine_client,-event_engine_listener"}
"""What the SDK sets in its own process as it loads (hearts_bot.transport)."""
SECRET = "HEARTS_ARENA_TEST_SECRET"


@pytest.fixture
def cold_sandbox(sandbox: Sandbox) -> Iterator[Sandbox]:
    cold = Sandbox(warm=False)
    yield cold
    cold.close()


@pytest.mark.parametrize("path", ["warm", "cold"])
def test_a_bot_gets_its_manifests_variables_and_nothing_of_the_workers(
    path: str,
    sandbox: Sandbox,
    cold_sandbox: Sandbox,
    make_env: MakeEnv,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    starter = cold_sandbox if path == "cold" else sandbox
    if path == "warm" and starter.templates is None:
        pytest.skip("warm starts are off here (ARENA_WARM_STARTS=0)")
    monkeypatch.setenv(SECRET, "the worker's own")
    env = make_env("environ_report", extra={"hearts-bot.toml": MANIFEST})
    wanted = {**BASE_ENVIRON, "SEARCH_DEPTH": "3", "GREETING": "hello world"}
    assert bot_environ(env) == wanted
    bot = starter.start(env, seat=1)
    try:
        assert bot.wait_ready(30), bot.log_excerpt()
        assert bot.warm is (path == "warm"), bot.cold_reason
        line = next(text for text in bot.stderr.text().splitlines() if text.startswith("ENVIRON "))
    finally:
        bot.stop()
    assert json.loads(line.removeprefix("ENVIRON ")) == {**wanted, **SDK_OWN}


def test_without_a_manifest_a_bot_gets_the_platforms_two(make_env: MakeEnv) -> None:
    assert bot_environ(make_env("environ_report")) == {"PWD": "/bot", "LC_CTYPE": "C.UTF-8"}
