"""Covert channels between two bots at one table (hostile/covert.py), each shown open without
the sandbox and closed with it, in the same test.

The positive control runs the two halves as plain processes on this machine and reads
the 16-bit pattern back exactly: the attack works, so the containment below means
something. The sandboxed run starts the same halves as two sandboxed bots, drives them
through the same steps with plays (each bot thawed for its play and frozen again, as in
a match), and finds that the receiver learns nothing: the kernel refuses the calls
(``x``) or the counter it reads never moves. One channel is known to stay open (the
inode numbers of pipes and memfds, docs/sandbox.md): its test says so and measures it.
"""

from __future__ import annotations

import errno
import json
import socket
import subprocess
import sys
import sysconfig
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.sandbox.client import BotClient, BotFaultError
from tests.sandbox.conftest import HOSTILE, MakeEnv, processes_of
from workers.sandbox import BotProcess, ExitKind, Sandbox, SandboxPolicy, seccomp
from workers.sandbox.policy import MIB
from workers.sandbox.syscalls import X86_64

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
    if channel in ("pidfs", "inodes", "cookie"):  # a reading, a bit, a reading, ...
        chained: Schedule = []
        for bit in range(len(BITS)):
            chained += [("recv", bit), ("send", bit)]
        return [*chained, ("recv", len(BITS))]
    return [("send", 0), ("recv", 0)]


def params(channel: str, role: str, fill_dir: str) -> dict[str, Any]:
    return {
        "channel": channel,
        "role": role,
        "files": shared_files(),
        "bits": BITS if role == "send" else "",
        "fill_dir": fill_dir,
        "pin": True,  # some counters are per CPU: both halves move to CPU 0
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


def run_plain_until(
    channel: str, folder: Path, read: Callable[[str], bool], attempts: int = 3
) -> dict[str, list[str]]:
    """`run_plain` of a channel through something the whole (shared) machine also moves (a
    counter, the page cache): up to `attempts` runs, until the receiver's last line
    `read`s the pattern."""
    for _ in range(attempts):
        plain = run_plain(channel, folder)
        if read(plain["recv"][-1]):
            break
    return plain


def read_every_way(line: str) -> bool:
    """Whether every reader of a counter channel's last line got the pattern."""
    return all(reading.endswith(f"={BITS}") for reading in line.split())


def covert_lines(bot: BotProcess) -> list[str]:
    return [line for line in bot.stderr.text().splitlines() if line.startswith("COVERT ")]


def run_sandboxed(channel: str, sandbox: Sandbox, make_env: MakeEnv) -> dict[str, list[str]]:
    """Both halves as sandboxed bots (seats 1 and 2), one play per step; each bot is
    frozen but for its own steps, as the match runner freezes a seat off-turn."""
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
            bot.freeze()
        for role, step in schedule(channel):
            bots[role].thaw()
            try:
                clients[role].play(timeout=20.0)
            except BotFaultError as error:
                raise AssertionError(f"{error}: {bots[role].stderr.text()[-3000:]}") from None
            finally:
                bots[role].freeze()
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
    """The page cache is the machine's: another process reading the same library files
    (a build, a scan) warms a 0 bit, so the positive control gets up to three runs."""
    plain = run_plain_until("pagecache", scratch, lambda line: line == BITS)
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


def test_the_filter_closes_every_way_to_a_pidfd_and_to_socket_cookies() -> None:
    """pidfd_open answers as on a kernel without it, clone may not ask for a pidfd, and a
    socket may not hand one out nor tell its cookie; threads, forks and the other socket
    options stay."""
    program = seccomp.build_filter(X86_64)

    def answer(name: str, *args: int) -> int:
        return seccomp.evaluate(program, X86_64[name], args)

    def refusal(code: int) -> int:
        return 0x00050000 | code

    fork = 0x01200011  # glibc's fork: CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID | SIGCHLD
    assert answer("pidfd_open", 1, 0) == refusal(errno.ENOSYS)
    assert answer("clone", fork | seccomp.CLONE_PIDFD) == refusal(errno.EPERM)
    assert answer("clone", fork) == seccomp.RET_ALLOW
    assert answer("clone", 0x3D0F00) == seccomp.RET_ALLOW  # pthread_create
    assert answer("clone3") == refusal(errno.ENOSYS)
    for call in ("getsockopt", "setsockopt"):
        for option in (57, 76, 77):  # SO_COOKIE, SO_PASSPIDFD, SO_PEERPIDFD
            assert answer(call, 3, socket.SOL_SOCKET, option) == refusal(errno.ENOPROTOOPT)
            assert answer(call, 3, socket.IPPROTO_TCP, option) == seccomp.RET_ALLOW
        for option in (socket.SO_PEERCRED, socket.SO_RCVBUF, socket.SO_PASSCRED):
            assert answer(call, 3, socket.SOL_SOCKET, option) == seccomp.RET_ALLOW
    assert answer("pidfd_send_signal", 3, 9) == seccomp.RET_ALLOW  # a /proc/<pid> fd works


def test_pidfs_channel_is_open_without_the_sandbox_and_closed_with_it(
    sandbox: Sandbox, make_env: MakeEnv, scratch: Path
) -> None:
    """The count of processes and threads made on the machine, read as a pidfd's inode
    number: the sender makes 32 processes for a 1, the receiver reads the count before and
    after, through pidfd_open, clone(CLONE_PIDFD), SO_PEERPIDFD and SCM_PIDFD."""
    plain = run_plain_until("pidfs", scratch, read_every_way)
    readers = ("pidfd_open", "clone_pidfd", "peer_pidfd", "scm_pidfd")
    assert plain["recv"][-1] == " ".join(f"{reader}={BITS}" for reader in readers)

    boxed = run_sandboxed("pidfs", sandbox, make_env)
    made = [line.split(" in ")[0] for line in boxed["send"]]
    assert made == [f"made {32 if bit == '1' else 0} processes" for bit in BITS]
    refused = (
        "pidfd_open=refused:ENOSYS clone_pidfd=refused:EPERM"
        " peer_pidfd=refused:ENOPROTOOPT scm_pidfd=refused:ENOPROTOOPT"
    )
    assert boxed["recv"][:-1] == [refused] * len(BITS)
    assert boxed["recv"][-1] == " ".join(f"{reader}={'x' * len(BITS)}" for reader in readers)


def test_socket_cookie_channel_is_open_without_the_sandbox_and_closed_with_it(
    sandbox: Sandbox, make_env: MakeEnv, scratch: Path
) -> None:
    """The socket cookies (SO_COOKIE), numbered machine-wide in the order sockets are asked
    for theirs: the sender asks 32 new sockets for a 1, the receiver one before and after."""
    plain = run_plain_until("cookie", scratch, read_every_way)
    assert plain["recv"][-1] == f"cookie={BITS}"

    boxed = run_sandboxed("cookie", sandbox, make_env)
    moved = [
        line if line.startswith("refused") else line.split(" in ")[0] for line in boxed["send"]
    ]
    assert moved == ["refused:ENOPROTOOPT" if bit == "1" else "moved cookie by 0" for bit in BITS]
    assert boxed["recv"][:-1] == ["cookie=refused:ENOPROTOOPT"] * len(BITS)
    assert boxed["recv"][-1] == "cookie=" + "x" * len(BITS)


def test_inode_number_counters_are_a_channel_the_sandbox_leaves_open(
    sandbox: Sandbox, make_env: MakeEnv, scratch: Path
) -> None:
    """Known open (docs/sandbox.md, "Shared kernel objects"): the inode numbers of new pipes
    (and sockets and /proc's inodes: the kernel's get_next_ino) and of new memfds (and
    SysV segments and shared anonymous mappings: shmem's internal mount) are two more
    machine-wide counters, per CPU in batches of 1024, which no bot can be kept from
    moving and reading. Pinned to one CPU, a sandboxed pair reads the whole pattern, each
    frozen while the other runs. Should this fail because the pattern no longer comes
    through, the channel was closed: say so in docs/sandbox.md."""
    plain = run_plain_until("inodes", scratch, read_every_way)
    assert plain["recv"][-1] == f"pipe={BITS} memfd={BITS}"

    for _ in range(3):  # others on the machine move the counters too
        boxed = run_sandboxed("inodes", sandbox, make_env)
        if boxed["recv"][-1] == f"pipe={BITS} memfd={BITS}":
            break
    assert boxed["recv"][-1] == f"pipe={BITS} memfd={BITS}", boxed


def test_an_honest_bot_still_starts_and_waits_for_its_children(
    sandbox: Sandbox, make_env: MakeEnv
) -> None:
    """The refusals leave the ordinary ways to a child process working (hostile/children.py:
    subprocess, posix_spawn, asyncio's default watcher, os.system); only asyncio's
    PidfdChildWatcher, which a bot must choose on Python 3.11, fails (ENOSYS), as on a
    kernel without pidfd_open."""
    bot = sandbox.start(make_env("children"), seat=1, policy=POLICY)
    client = BotClient(bot.address, seat=1)
    try:
        assert bot.wait_ready(), bot.exit_reason()
        client.start()
        client.play(timeout=60.0)
        deadline = time.monotonic() + 20
        while "CHILDREN DONE" not in bot.stderr.text():
            assert time.monotonic() < deadline, bot.stderr.text()[-2000:]
            time.sleep(0.01)
    finally:
        client.close()
        assert bot.stop().kind is ExitKind.STOPPED, bot.stderr.text()[-2000:]
    results = dict(
        line.removeprefix("CHILDREN ").split(" ", 1)
        for line in bot.stderr.text().splitlines()
        if line.startswith("CHILDREN ") and line != "CHILDREN DONE"
    )
    assert results == {
        "subprocess": "child",
        "posix_spawn": "status 0",
        "asyncio": "child",
        "system": "status 3",
        "pidfd_watcher": f"failed: OSError: [Errno {errno.ENOSYS}] Function not implemented",
    }
    assert processes_of(bot.uid) == []
