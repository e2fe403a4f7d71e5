"""A bot's start-up inside the sandbox: its CPU accounted by part, and the runtime's
bytecode used as built (nothing of it compiled again at a start).

No figure is asserted against a time: the accounting's shape and plausibility are (the
parts add up to the whole, every rung used some CPU); speed is `arena bench sandbox`'s.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from tests.sandbox.conftest import MakeEnv
from workers.sandbox import BotEnvironment, Sandbox, SandboxPolicy
from workers.sandbox.accounting import RUNGS, _probe_commands, _ProbeSandbox, measure_startup

pytestmark = pytest.mark.timeout(180)


def test_the_start_up_parts_add_up_to_the_whole(sandbox: Sandbox, make_env: MakeEnv):
    env = make_env("honest")
    figures = measure_startup(env, starts=1)
    assert list(figures.parts) == list(RUNGS)
    assert all(value > 0 for value in figures.rungs.values())
    assert sum(figures.parts.values()) == pytest.approx(figures.bot_total)
    assert figures.bot_total == figures.rungs["serving"]
    # Which rung costs more than which is a speed figure (`arena bench sandbox`), not a
    # test: two rungs a millisecond apart swap places under a loaded machine's noise.
    assert figures.worker > 0
    assert figures.total == pytest.approx(figures.bot_total + figures.worker)
    # The warm starts measured beside the rungs were warm, and accounted.
    assert figures.warm_problem is None
    assert figures.warm is not None and figures.warm > 0
    assert figures.warm_worker is not None and figures.warm_worker > 0


def test_each_rung_runs_the_previous_rungs_work_and_one_step_more(make_env: MakeEnv):
    """The parts are differences of rungs, so each rung must add exactly one step to the
    one before it: the shell alone, the bot's own interpreter, the SDK's imports, the bot."""
    env = make_env("honest")
    probes = _probe_commands(env)
    assert list(probes) == list(RUNGS)
    shell, interpreter, imports = (probes[rung] for rung in RUNGS[:3])
    assert shell is not None and shell[0] == "/bin/sh"
    assert interpreter is not None and interpreter[0] == str(env.python)
    assert imports is not None and imports[:-1] == interpreter[:-1]
    assert imports[-1] == f"import hearts_bot.cli; {interpreter[-1]}"
    assert probes["serving"] is None  # the bot's real command, as a match starts it


def test_a_started_bot_reports_its_trees_cpu(sandbox: Sandbox, make_env: MakeEnv):
    bot = sandbox.start(make_env("honest"), seat=0)
    try:
        assert bot.wait_ready(60), bot.exit_reason()
        assert bot.cpu_at_ready is not None and bot.cpu_at_ready > 0
    finally:
        bot.stop()
    assert bot.cpu_at_stop is not None and bot.cpu_at_stop >= bot.cpu_at_ready


VERBOSE_LOG_BYTES = 16 * 1024 * 1024
"""Room for all of ``python -v``'s lines: a bot's usual 64 KiB cap keeps a head and a
tail, and a path cut at the head's end would read as a module compiled from source."""
IMPORTS_DONE = "HEARTS-BOT IMPORTS DONE"


def _verbose_imports(env: BotEnvironment) -> str:
    """All that ``python -v`` says while the serving imports load inside the sandbox."""
    sandbox = _ProbeSandbox(warm=False)  # the probe runs in place of a cold start's server
    sandbox.probe = [
        str(env.python),
        "-B",
        "-v",
        "-c",
        "import hearts_bot.cli, sys; print('HEARTS-BOT READY', flush=True); "
        f"print({IMPORTS_DONE!r}, file=sys.stderr, flush=True); "
        "import signal; signal.pause()",
    ]
    bot = sandbox.start(env, seat=0, policy=SandboxPolicy(log_bytes=VERBOSE_LOG_BYTES))
    try:
        deadline = time.monotonic() + 60
        # The marker follows every import's lines on stderr: once it is read, so are they.
        while IMPORTS_DONE not in bot.stderr.text() or "READY" not in bot.stdout.text():
            assert bot.alive() and time.monotonic() < deadline, bot.log_excerpt()
            time.sleep(0.01)
        assert not bot.stderr.truncated, f"{bot.stderr.total} bytes of stderr"
        return bot.stderr.text()
    finally:
        bot.stop()


def test_the_runtime_is_used_as_compiled(sandbox: Sandbox, make_env: MakeEnv):
    env = make_env("honest")
    log = _verbose_imports(env)
    runtime = str(env.runtime)
    loaded = re.findall(r"^# code object from '?([^'\n]+)'?$", log, re.MULTILINE)
    from_runtime = [path for path in loaded if path.startswith(runtime)]
    # A positive control: the runtime's modules are there, read from bytecode ...
    assert any("/hearts_bot/__pycache__/" in path for path in from_runtime)
    assert any("/grpc/__pycache__/" in path for path in from_runtime)
    # ... and none of them, nor of the standard library, is compiled from source.
    compiled = [path for path in loaded if not path.endswith(".pyc")]
    assert compiled == []
    # The runtime holds no stale or missing bytecode to fall back from.
    sources = list(Path(runtime).rglob("*.py"))
    missing = [
        source
        for source in sources
        if not any((source.parent / "__pycache__").glob(f"{source.stem}.*.pyc"))
    ]
    assert missing == []
