"""Celery's own monitoring against our real workers (docs/operations.md, "Flower and
Celery's inspect"): an `arena worker` on a Redis broker of the test's own answers
`celery -A workers.app inspect` (the command the compose health checks and operators run)
and the control API Flower is built on, with its queues, its pool and its tasks. Runs on
SQLite (the database plays no part in the broadcast)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from arena.store import migrate
from tests.workers.conftest import link_runtime
from tests.workers.processes import (
    PrivateRedis,
    platform_env,
    private_redis_server,
    processes_for,
    wait_until,
)
from workers.app import RUN_MATCH, VALIDATE, app, configure
from workers.config import Settings

pytestmark = pytest.mark.timeout(180)

QUEUES = {"matches", "validate"}


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[PrivateRedis]:
    (tmp_path / "redis").mkdir()
    with private_redis_server(tmp_path / "redis") as server:
        yield server


@pytest.fixture
def env(
    redis_server: PrivateRedis, tmp_path: Path, shared_runtime: Path
) -> Iterator[dict[str, str]]:
    data_dir = tmp_path / "data"
    link_runtime(data_dir, shared_runtime)
    database = f"sqlite:///{tmp_path / 'arena.db'}"
    migrate.upgrade(database)
    environment = platform_env(
        data_dir=data_dir,
        database_url=database,
        broker_url=redis_server.url(0),
        ARENA_RESULT_BACKEND=redis_server.url(1),
    )
    configure(app, Settings.from_environ(environment))
    yield environment
    configure(app, Settings.from_environ())


def celery_inspect(env: dict[str, str], command: str, node: str) -> dict[str, Any]:
    """`celery -A workers.app inspect COMMAND --json -d NODE`, as an operator runs it."""
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "workers.app",
            "inspect",
            command,
            "--json",
            "--timeout",
            "10",
            "--destination",
            node,
        ],
        env=env,
        cwd=Path(__file__).resolve().parents[2],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    answer: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return answer


def test_a_real_worker_answers_celery_inspect_and_the_control_api(
    env: dict[str, str], tmp_path: Path
) -> None:
    node = f"inspected@{socket.gethostname()}"
    with processes_for(tmp_path) as procs:
        worker = procs.worker(
            "inspected", env, "--queues", ",".join(sorted(QUEUES)), "--concurrency", "1"
        )
        inspect = app.control.inspect(destination=[node], timeout=5)
        wait_until(inspect.ping, 90, "the worker to answer a ping")
        assert worker.alive()

        # The control API (what Flower calls): the worker's queues, pool and tasks.
        queues = inspect.active_queues()
        stats = inspect.stats()
        active = inspect.active()
        registered = inspect.registered()
        # The command line, as docs/operations.md and the compose health checks run it.
        cli_queues = celery_inspect(env, "active_queues", node)
        cli_stats = celery_inspect(env, "stats", node)
    assert queues is not None and stats is not None and registered is not None
    assert set(queues) == {node}
    assert {queue["name"] for queue in queues[node]} == QUEUES
    assert {queue["name"] for queue in cli_queues[node]} == QUEUES
    assert stats[node]["pool"]["max-concurrency"] == 1
    assert cli_stats[node]["pid"] == worker.pid  # the worker this test started
    assert stats[node]["broker"]["transport"] == "redis"
    assert active == {node: []}  # nothing running: no match was queued
    assert {RUN_MATCH, VALIDATE} <= set(registered[node])
    assert os.environ.get("ARENA_BROKER_URL") != env["ARENA_BROKER_URL"]  # our own Redis
