"""Everything a sandbox started dies with the runner: at its exit, and when it is killed."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.sandbox.conftest import MakeEnv, processes_of
from workers.sandbox import Sandbox

pytestmark = pytest.mark.timeout(60)

RUNNER = """
import sys
from pathlib import Path
from workers.sandbox import Sandbox, BotEnvironment
bot = Sandbox().start(BotEnvironment.load(Path(sys.argv[1])), seat=0)
assert bot.wait_ready(30), bot.exit_reason()
print(bot.uid, flush=True)
sys.stdin.readline()  # then exit, leaving the bot to the interpreter's exit

"""


def start_runner(env_root: Path, how: str) -> tuple[subprocess.Popen[str], int]:
    runner = subprocess.Popen(
        [sys.executable, "-c", RUNNER, str(env_root), how],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=Path(__file__).parents[2],
    )
    assert runner.stdout is not None
    return runner, int(runner.stdout.readline())


def gone(uid: int, timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while processes_of(uid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


@pytest.mark.parametrize("how", ["exit", "sleep"])
def test_bots_die_with_their_runner(sandbox: Sandbox, make_env: MakeEnv, how: str) -> None:
    env = make_env("honest")
    runner, uid = start_runner(env.root, how)
    assert processes_of(uid)  # the bot runs
    assert runner.stdin is not None
    if how == "sleep":
        runner.send_signal(signal.SIGKILL)  # no chance to clean up: die-with-parent
    else:
        runner.stdin.write("exit\n")
        runner.stdin.flush()
    runner.wait(30)
    assert gone(uid), f"bot processes outlived their runner: {processes_of(uid)}"
    if how == "sleep":  # its cgroup is left behind, for the next sandbox to reap
        reaped = sandbox.cgroups.reap_stale()
        assert any(name.startswith(f"{runner.pid}-") for name in reaped), reaped


def test_stop_is_idempotent_and_a_context_manager(sandbox: Sandbox, make_env: MakeEnv) -> None:
    with sandbox.start(make_env("honest"), seat=0) as bot:
        assert bot.wait_ready(30)
        assert bot.exit_reason() is None and bot.alive()
    first = bot.exit_reason()
    assert first is not None and bot.stop() == first and not bot.alive()


def test_a_local_bot_file_runs_in_the_sandbox_as_the_runners_bot_host(tmp_path: Path) -> None:
    from tests.sandbox.conftest import HOSTILE, sandbox_or_skip
    from workers.sandbox import start_bot_file

    sandbox_or_skip()
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "honest.py").write_text((HOSTILE / "honest.py").read_text())
    (tmp_path / "mine" / ".git").mkdir()  # not copied
    host = start_bot_file(tmp_path / "mine" / "honest.py", seat=0)
    try:
        assert host.address.startswith("unix:/proc/self/fd/")  # known before it is ready
        assert host.wait_ready(30), host.log_excerpt()
        assert host.exit_reason() is None
    finally:
        host.stop()
    assert host.exit_reason() == "stopped at the end of the match"
