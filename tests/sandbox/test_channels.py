"""Covert channels between two bots at one table (hostile/covert.py), each shown open without
the sandbox and closed with it, in the same test.

The positive control runs the two halves as plain processes on this machine and reads
the 16-bit pattern back exactly: the attack works, so the containment below means
something. The sandboxed run starts the same halves as two sandboxed bots, drives them
through the same steps with plays, and finds that the receiver learns nothing: the
kernel refuses the calls (``x``) or the counter it reads never moves.
"""

from __future__ import annotations

import json
import subprocess
import sys
import sysconfig
import time
from pathlib import Path
from typing import Any

import pytest

from tests.sandbox.client import BotClient, BotFaultError
from tests.sandbox.conftest import HOSTILE, MakeEnv, processes_of
from workers.sandbox import BotProcess, ExitKind, Sandbox, SandboxPolicy
from workers.sandbox.policy import MIB

pytestmark = pytest.mark.timeout(120)

BITS = "1011001110001011"
POLICY = SandboxPolicy(
    memory_bytes=256 * MIB,
    tmp_bytes=48 * MIB,
    file_size_bytes=40 * MIB,
    cpu_seconds=30,
    ready_timeout=20,
)
Schedule = list[tuple[str, int]]


def shared_files() -> list[str]:
    """16 files of the standard library that both bots see read-only and nobody else reads
    (IDLE's modules), one per bit."""
    folder = Path(sysconfig.get_paths()["stdlib"]) / "idlelib"
    files = sorted(str(path) for path in folder.glob("*.py") if path.stat().st_size > 4096)
    assert len(files) >= len(BITS)
    return files[: len(BITS)]


def schedule(channel: str) -> Schedule:
    """The order of the halves' steps (the receiver's last step gives the pattern)."""
    if channel == "inotify":
        return [("recv", 0), ("send", 0), ("recv", 1)]
    if channel == "counter":
        steps: Schedule = []
        for bit in range(len(BITS)):
            steps += [("send", 2 * bit), ("recv", 2 * bit), ("send", 2 * bit + 1)]
            steps += [("recv", 2 * bit + 1)]
        return [*steps, ("recv", 2 * len(BITS))]
    return [("send", 0), ("recv", 0)]


def params(channel: str, role: str, fill_dir: str) -> dict[str, Any]:
    return {
        "channel": channel,
        "role": role,
        "files": shared_files(),
        "bits": BITS if role == "send" else "",
        "fill_dir": fill_dir,
    }


def run_plain(channel: str, folder: Path) -> dict[str, list[str]]:
    """Both halves as plain processes (no sandbox); each half's results in order."""
    halves: dict[str, subprocess.Popen[str]] = {}
    results: dict[str, list[str]] = {"send": [], "recv": []}
    try:
        for role in ("send", "recv"):
            path = folder / f"{channel}-{role}.json"
            path.write_text(json.dumps(params(channel, role, "/dev/shm")))
            halves[role] = subprocess.Popen(
                [sys.executable, str(HOSTILE / "covert.py"), str(path)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
            )
        for role, step in schedule(channel):
            half = halves[role]
            assert half.stdin is not None and half.stdout is not None
            half.stdin.write(f"{step}\n")
            half.stdin.flush()
            results[role].append(half.stdout.readline().strip())
    finally:
        for half in halves.values():
            half.kill()
            half.wait()
    return results


def covert_lines(bot: BotProcess) -> list[str]:
    return [line for line in bot.stderr.text().splitlines() if line.startswith("COVERT ")]


def run_sandboxed(channel: str, sandbox: Sandbox, make_env: MakeEnv) -> dict[str, list[str]]:
    """Both halves as sandboxed bots (seats 1 and 2), one play per step."""
    bots: dict[str, BotProcess] = {}
    clients: dict[str, BotClient] = {}
    results: dict[str, list[str]] = {"send": [], "recv": []}
    try:
        for seat, role in ((1, "send"), (2, "recv")):
            env = make_env("covert", params(channel, role, "/tmp"))
            bots[role] = sandbox.start(env, seat=seat, policy=POLICY)
        for role, bot in bots.items():
            assert bot.wait_ready(), bot.exit_reason()
            clients[role] = BotClient(bot.address, seat=1)
            clients[role].start()
        for role, step in schedule(channel):
            try:
                clients[role].play(timeout=20.0)
            except BotFaultError as error:
                raise AssertionError(f"{error}: {bots[role].stderr.text()[-3000:]}") from None
            deadline = time.monotonic() + 20
            prefix = f"COVERT {role} {step} "
            while not any(line.startswith(prefix) for line in covert_lines(bots[role])):
                assert time.monotonic() < deadline, bots[role].stderr.text()[-2000:]
                time.sleep(0.01)
            line = next(line for line in covert_lines(bots[role]) if line.startswith(prefix))
            results[role].append(line.removeprefix(prefix))
    finally:
        for client in clients.values():
            client.close()
        for bot in bots.values():
            assert bot.stop().kind is ExitKind.STOPPED, bot.stderr.text()[-2000:]
            assert processes_of(bot.uid) == []
    return results


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("covert")


def test_locks_channel_is_open_without_the_sandbox_and_closed_with_it(
    sandbox: Sandbox, make_env: MakeEnv, scratch: Path
) -> None:
    plain = run_plain("locks", scratch)
    assert plain["send"][-1] == "flock,posix"
    assert plain["recv"][-1] == f"flock={BITS} posix={BITS}"

    boxed = run_sandboxed("locks", sandbox, make_env)
    assert "flock-refused:EPERM" in boxed["send"][-1]
    assert "posix-refused:EPERM" in boxed["send"][-1]
    blind = "x" * len(BITS)
    assert boxed["recv"][-1] == f"flock={blind} posix={blind}"


def test_inotify_channel_is_open_without_the_sandbox_and_closed_with_it(
    sandbox: Sandbox, make_env: MakeEnv, scratch: Path
) -> None:
    plain = run_plain("inotify", scratch)
    assert plain["recv"] == ["watching", BITS]

    boxed = run_sandboxed("inotify", sandbox, make_env)
    assert boxed["recv"][0] == "refused:EPERM"
    assert boxed["recv"][-1] == "x" * len(BITS)


def test_page_cache_channel_is_open_without_the_sandbox_and_closed_with_it(
    sandbox: Sandbox, make_env: MakeEnv, scratch: Path
) -> None:
    plain = run_plain("pagecache", scratch)
    assert plain["send"][-1] == "evicted,warmed"
    assert plain["recv"][-1] == BITS

    boxed = run_sandboxed("pagecache", sandbox, make_env)
    assert boxed["send"][-1] == "evict-refused:EPERM,warmed"
    assert boxed["recv"][-1] == "x" * len(BITS)


def test_global_counter_channel_is_open_without_the_sandbox_and_closed_with_it(
    sandbox: Sandbox, make_env: MakeEnv, scratch: Path
) -> None:
    if not Path("/dev/shm").is_dir():
        pytest.skip("no /dev/shm tmpfs for the positive control")
    plain = run_plain("counter", scratch)
    assert plain["send"].count("filled") == BITS.count("1")
    assert plain["recv"][-1] == BITS

    boxed = run_sandboxed("counter", sandbox, make_env)
    assert boxed["send"].count("filled") == BITS.count("1")  # the sender did its part
    readings = boxed["recv"][:-1]
    assert len(set(readings)) == 1, readings  # Shmem never moved
    assert boxed["recv"][-1] == "0" * len(BITS)
