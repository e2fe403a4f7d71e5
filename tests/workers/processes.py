"""Real Redis and real worker processes for the integration tests.

Redis is the server at 127.0.0.1:6379 (how this machine and CI run it); each test
session takes one database number of its own and flushes it. When Redis is unreachable
the tests skip with the reason, unless `CI` is set: then they fail. Every process started
here is in a process group of its own and is killed when its test ends, whatever happened.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
import redis

REDIS_HOST = "127.0.0.1"
REDIS_PORT = 6379
REDIS_START = [
    "redis-server",
    "--daemonize",
    "yes",
    "--bind",
    "127.0.0.1",
    "-::1",
    "--port",
    str(REDIS_PORT),
    "--save",
    "",
    "--appendonly",
    "no",
    "--dir",
    "/var/lib/redis",
    "--logfile",
    "/var/log/redis/ci.log",
]
"""How this machine starts its Redis (the restart test starts it again the same way)."""

_T = TypeVar("_T")


def redis_client(db: int = 0) -> redis.Redis:
    """A client of the test Redis (short timeouts)."""
    return redis.Redis(REDIS_HOST, REDIS_PORT, db=db, socket_timeout=2, socket_connect_timeout=2)


def require_redis() -> None:
    """Skip (fail under CI) when Redis does not answer."""
    try:
        redis_client().ping()
    except redis.RedisError as error:
        reason = f"Redis at {REDIS_HOST}:{REDIS_PORT} is unreachable: {error}"
        if os.environ.get("CI"):
            pytest.fail(f"{reason} (CI is set, so Redis is required)")
        pytest.skip(reason)


def restart_redis(down_for: float = 1.0) -> None:
    """Stop Redis without saving (its queues are lost) and start it again."""
    with contextlib.suppress(redis.RedisError):
        redis_client().shutdown(nosave=True)
    wait_until(lambda: not redis_alive(), 10, "Redis to stop")
    time.sleep(down_for)
    ensure_redis()


def redis_alive() -> bool:
    """Whether Redis answers PING."""
    try:
        return bool(redis_client().ping())
    except redis.RedisError:
        return False


def ensure_redis() -> None:
    """Start Redis the machine's way if it is down (also after a failed test)."""
    if redis_alive():
        return
    Path("/var/log/redis").mkdir(parents=True, exist_ok=True)
    Path("/var/lib/redis").mkdir(parents=True, exist_ok=True)
    subprocess.run(REDIS_START, check=True, timeout=30)
    wait_until(redis_alive, 15, "Redis to start")


def pick_redis_db() -> int:
    """A database number for this test session (2-15: 0 and 1 are the platform's own)."""
    return random.Random(os.getpid()).randint(2, 15)


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
