"""The real deployment, run for real: images built (with no registry: deploy/base-images.sh),
`compose up` of docker-compose.yml plus the offline and test overrides (host networking,
127.0.0.1, ports of its own), then, in order:

* Redis, PostgreSQL and the site listen on 127.0.0.1 only;
* the migration step ran and the site answers;
* a bot uploaded through the API is validated in a worker container's sandbox;
* a season plays matches on both worker containers, each recorded once with its ratings;
* Prometheus (docker-compose.yml's image, on the host's network: deploy/compose.test.yml's
  `prometheus-host`) scrapes the site with the metrics token and every worker container's
  exporter, and holds the season's matches and the site's requests;
* the worker container playing a match is killed (SIGKILL) mid-match: the other worker
  container plays it again, and it is recorded once;
* the sandbox battery's file and environment attacks, run inside a worker container;
* `compose down` and `up` again keep everything.

Its own CI stage: `make pytest-deploy` (marker `deploy`). Skipped when no Docker engine
can run here, except under CI, where that is a failure. Timings are printed at the end
(docs/operations.md keeps the figures).
"""

from __future__ import annotations

import functools
import importlib.util
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
import requests
from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from arena.seasons import enter_season, finish_season, schedule_round, start_season
from arena.store import heartbeats
from arena.store.accounts import create_user, issue_token
from arena.store.database import make_engine, make_sessionmaker, write_transaction
from arena.store.models import BotVersion, Match, MatchStatus, Rating, Replay, Season, User
from tests.deploy.conftest import TIMINGS
from tests.deploy.stack import (
    ROOT,
    DockerUnavailableError,
    Stack,
    compose_command,
    docker,
)
from tests.workers import bots
from tests.workers.processes import wait_until
from tests.workers.test_integration import assert_recorded_once
from workers.seed import ensure_demo_season

pytestmark = [pytest.mark.deploy, pytest.mark.timeout(2400)]

WORKER = "worker"
# Honest, but 0.12 s over every play: a match lasts ten seconds or so, long enough to be
# killed in the middle (tests/workers/bots.SLOW's 40 ms would end too soon here).
SLOWER = bots.SLOW.replace(b"time.sleep(0.04)", b"time.sleep(0.12)")
QUICK_PLAYERS = (("heuristic", 4), ("random", 4))
# The battery's attacks (tests/sandbox/test_hostile.py, test_attack_is_contained): files,
# environment, network, other bots, privileges, resources. Not proc_global: its check for
# host paths in /proc/1/cmdline counts sys.base_prefix, which in this image is /usr (Debian's
# python3), so bwrap's own path, /usr/bin/bwrap (bound read-only into every sandbox, no
# secret), reads as a leak; on a machine whose Python lives elsewhere it runs in tests/sandbox.
BATTERY = "test_attack_is_contained and not proc_global"
PYTEST_PARTS = (
    *("_pytest", "pytest", "iniconfig", "packaging", "pluggy", "pygments", "py"),
    "pytest_timeout",
)


def timed(step: str, started: float) -> None:
    TIMINGS[step] = time.monotonic() - started


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    try:
        compose = compose_command()
    except DockerUnavailableError as error:
        if os.environ.get("CI"):
            raise
        pytest.skip(f"Docker cannot run here, so the deployment test cannot: {error}")
    started = time.monotonic()
    subprocess.run(["sh", str(ROOT / "deploy" / "base-images.sh")], check=True, cwd=ROOT)
    timed("base images (deploy/base-images.sh)", started)
    stack = Stack(compose, tmp_path_factory.mktemp("prometheus-targets"))
    try:
        started = time.monotonic()
        stack.run("build", "migrate", "prometheus-host", timeout=1800)
        timed("build (compose build)", started)
        started = time.monotonic()
        stack.run("up", "-d", "--no-build", timeout=600)
        wait_until(lambda: site_answers(stack), 180, "the site to answer")
        timed("start (compose up until the site answers)", started)
        yield stack
    finally:
        for container in stack.containers(WORKER):
            print(f"--- logs of {container}", stack.logs(container)[-3000:], file=sys.stderr)
        stack.down("-v")
        left = docker(
            "volume", "ls", "-q", "--filter", f"label=com.docker.compose.project={stack.project}"
        )
        assert not left.split(), f"volumes left behind: {left}"


@pytest.fixture(scope="module")
def sessions(stack: Stack) -> Iterator[sessionmaker[Session]]:
    engine = make_engine(stack.database_url)
    yield make_sessionmaker(engine)
    engine.dispose()


@pytest.fixture(scope="module")
def token(sessions: sessionmaker[Session]) -> str:
    """An API token of a contestant made in the stack's database (as the account page does)."""
    with sessions() as session, write_transaction(session):
        user = create_user(session, "deployer", None)
        return issue_token(session, user, "e2e")[1]


def site_answers(stack: Stack) -> bool:
    try:
        return requests.get(stack.web + "/", timeout=5).status_code == 200
    except requests.RequestException:
        return False


def worker_containers(stack: Stack) -> list[str]:
    return stack.containers(WORKER)


def worker_name(stack: Stack, container: str) -> str:
    """The Celery name the container's worker took (its `worker … ready` log line)."""
    for entry in stack.log_entries(container):
        if entry.get("msg", "").endswith(" ready") and entry.get("worker"):
            return str(entry["worker"])
    raise AssertionError(f"{container} logged no `worker … ready` line")


def recorded_matches(stack: Stack, container: str) -> set[int]:
    """The ids of the matches the container's worker recorded (its JSON log)."""
    return {
        int(entry["match_id"])
        for entry in stack.log_entries(container)
        if entry.get("logger") == "workers.matches"
        and "recorded" in entry.get("msg", "")
        and "match_id" in entry
    }


def counts(sessions: sessionmaker[Session]) -> dict[str, Any]:
    with sessions() as session:
        return {
            "users": session.scalar(select(func.count()).select_from(User)),
            "versions": sorted(
                (v.id, v.status.value, v.archive_sha256)
                for v in session.scalars(select(BotVersion))
            ),
            "done": sorted(
                session.scalars(select(Match.id).where(Match.status == MatchStatus.DONE))
            ),
            "replays": session.scalar(select(func.count()).select_from(Replay)),
            "ratings": sorted(
                (r.season_id, r.bot_version_id, round(r.elo, 6), r.games)
                for r in session.scalars(select(Rating))
            ),
        }


def listening(port: int) -> set[str]:
    """The local addresses of the sockets listening on TCP `port` in this network namespace
    (the host's, which every container of the stack shares), from /proc/net/tcp{,6}."""
    found = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            local, state = line.split()[1], line.split()[3]
            address, hex_port = local.split(":")
            if state == "0A" and int(hex_port, 16) == port:
                found.add(address)
    return found


def test_the_stack_listens_on_127_0_0_1_only(stack: Stack) -> None:
    for name, port in stack.ports.items():
        # 0100007F is 127.0.0.1 (little-endian); nothing on 0.0.0.0 or on IPv6.
        assert listening(port) == {"0100007F"}, f"{name} {port}: {listening(port)}"


def test_the_migration_ran_and_the_site_answers(stack: Stack) -> None:
    (migrate,) = stack.containers("migrate")
    state = docker("inspect", "--format", "{{.State.Status}} {{.State.ExitCode}}", migrate)
    assert state.split() == ["exited", "0"]
    assert requests.get(stack.web + "/", timeout=10).status_code == 200
    api = requests.get(stack.web + "/api/v1/", timeout=10)
    assert api.status_code == 200, api.text
    assert len(worker_containers(stack)) == 2


@pytest.fixture(scope="module")
def slow_version(stack: Stack, token: str) -> int:
    """A bot uploaded through the API and validated by a worker container: its version id."""
    started = time.monotonic()
    answer = requests.post(
        stack.web + "/api/v1/bots/slow/versions",
        headers={"Authorization": f"Bearer {token}"},
        files={"file": ("bot.py", SLOWER)},
        data={"enter": "false"},
        timeout=30,
    )
    assert answer.status_code == 201, answer.text
    version_id = int(answer.json()["id"])

    def settled() -> dict[str, Any] | None:
        found = requests.get(f"{stack.web}/api/v1/versions/{version_id}", timeout=10).json()
        return found if found["settled"] else None

    status = wait_until(settled, 300, "the upload's validation", interval=1)
    assert status is not None and status["status"] == "ready", status
    timed("upload validated (API to ready)", started)
    return version_id


def test_an_uploaded_bot_is_validated_in_a_worker_containers_sandbox(
    stack: Stack, slow_version: int
) -> None:
    validated_by = [
        container
        for container in worker_containers(stack)
        for entry in stack.log_entries(container)
        if entry.get("version_id") == slow_version and entry.get("logger", "").startswith("workers")
    ]
    assert validated_by, "no worker container logged the validation"
    # The sandbox ran there: the bot's environment was built under the workers' volume.
    (container, *_) = validated_by
    listing = docker("exec", container, "ls", "/data/versions")
    assert listing.split(), "no bot environment in the worker container's /data"


def test_a_season_plays_on_both_worker_containers(
    stack: Stack, sessions: sessionmaker[Session]
) -> None:
    started = time.monotonic()
    with sessions() as session:
        season_id = ensure_demo_season(
            session, players=QUICK_PLAYERS, cadence=timedelta(seconds=1), name="E2E season"
        )
    first = wait_until(
        lambda: any(recorded_matches(stack, c) for c in worker_containers(stack)),
        300,
        "a first match recorded",
    )
    assert first
    timed("first match recorded (season created to result)", started)
    wait_until(
        lambda: all(recorded_matches(stack, c) for c in worker_containers(stack)),
        300,
        "both worker containers to record matches",
    )
    assert finish_season(sessions(), season_id)
    with sessions() as session:
        rated = assert_recorded_once(session, season_id)
    by_container = [recorded_matches(stack, c) for c in worker_containers(stack)]
    assert not set.intersection(*by_container), "a match was recorded by both containers"
    assert rated >= sum(len(found) for found in by_container) > 0


WORKER_SERVICES = ("worker", "worker-default", "worker-analysis")
METRICS_LINE = re.compile(r"worker metrics on http://(127\.0\.0\.1:\d+)/metrics")


def metrics_address(stack: Stack, container: str) -> str | None:
    """Where the container's worker serves its metrics (its start-up line says)."""
    found = METRICS_LINE.findall(stack.logs(container))
    return found[-1] if found else None


def prometheus(stack: Stack, path: str, **params: str) -> Any:
    """The `data` of a Prometheus HTTP API answer."""
    answer = requests.get(f"{stack.prometheus}/api/v1/{path}", params=params, timeout=10)
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["status"] == "success", body
    return body["data"]


def scraped(stack: Stack, expected: int) -> list[dict[str, Any]] | None:
    """Prometheus's active targets once there are `expected`, each scraped and up."""
    try:
        targets: list[dict[str, Any]] = prometheus(stack, "targets")["activeTargets"]
    except (requests.RequestException, AssertionError):
        return None  # not serving yet
    if len(targets) != expected or any(t["health"] != "up" for t in targets):
        return None
    return targets


def sample(stack: Stack, query: str) -> float:
    """The value of an instant query that yields one number (0 when it yields none)."""
    result = prometheus(stack, "query", query=query)["result"]
    return float(result[0]["value"][1]) if result else 0.0


def evaluated_rules(stack: Stack) -> list[dict[str, Any]] | None:
    """The alert rules once each has been evaluated (health no longer "unknown")."""
    groups = prometheus(stack, "rules")["groups"]
    rules = [rule for group in groups for rule in group["rules"]]
    return rules if rules and all(rule["health"] != "unknown" for rule in rules) else None


def test_prometheus_in_the_stack_scrapes_the_site_and_every_worker(stack: Stack) -> None:
    """docker-compose.yml's Prometheus image, its token and alert rules, in the running
    stack: the site's /metrics opens to the token only (ARENA_METRICS_ALLOW is empty
    there), every worker container's exporter is found and scraped, and what they
    counted is queryable: the season's matches (the test before this one played them)
    and the site's requests."""
    started = time.monotonic()
    containers = [c for service in WORKER_SERVICES for c in stack.containers(service)]
    assert len(containers) == 4  # two match workers, the default and the analysis worker
    addresses: list[str] = []
    for container in containers:
        found = wait_until(
            functools.partial(metrics_address, stack, container), 60, "a worker's metrics port"
        )
        assert found is not None
        addresses.append(found)
    stack.write_worker_targets(sorted(addresses))
    # the site refuses the scrape without the token, from the machine itself too
    metrics = f"{stack.web}/metrics"
    assert requests.get(metrics, timeout=10).status_code == 403
    with_token = {"Authorization": f"Bearer {stack.metrics_token}"}
    assert requests.get(metrics, headers=with_token, timeout=10).status_code == 200
    targets = wait_until(lambda: scraped(stack, 1 + len(addresses)), 120, "every target up")
    assert targets is not None
    jobs = sorted((t["labels"]["job"], t["labels"]["instance"]) for t in targets)
    site = f"127.0.0.1:{stack.ports['ARENA_E2E_WEB_PORT']}"
    assert jobs == [("arena-site", site)] + [("arena-workers", a) for a in sorted(addresses)]
    # the match workers' counters hold the season's matches (each worker's own share)
    finished = wait_until(
        lambda: sample(stack, 'sum(arena_matches_finished_total{job="arena-workers"})'),
        60,
        "the finished matches to be scraped",
    )
    assert finished >= 2, finished
    by_worker = 'count(sum by (instance) (arena_matches_finished_total{job="arena-workers"}) > 0)'
    assert sample(stack, by_worker) == 2  # both match workers recorded matches
    assert sample(stack, 'sum(arena_http_requests_total{job="arena-site"})') > 0
    # the alert rules (docker-compose.yml's file, baked into the image) load and evaluate
    rules = wait_until(lambda: evaluated_rules(stack), 60, "the alert rules to be evaluated")
    assert rules and all(rule["health"] == "ok" for rule in rules), rules
    timed("prometheus (worker ports to every target scraped)", started)


def holder_of(stack: Stack, sessions: sessionmaker[Session], match_id: int) -> str | None:
    """The worker container whose heartbeat names the running match, if any."""
    with sessions() as session:
        names = [
            row.name.removeprefix("worker:")
            for row in heartbeats.heartbeats(session)
            if match_id in row.info.get("matches", [])
        ]
    for container in worker_containers(stack):
        if stack.running(container) and worker_name(stack, container) in names:
            return container
    return None


def status_of(sessions: sessionmaker[Session], match_id: int) -> MatchStatus:
    with sessions() as session:
        status = session.scalar(select(Match.status).where(Match.id == match_id))
        assert status is not None
        return status


def test_a_worker_container_killed_mid_match_loses_nothing_and_counts_nothing_twice(
    stack: Stack, sessions: sessionmaker[Session], slow_version: int
) -> None:
    with sessions() as session:
        season_id = ensure_demo_season(
            session, players=(), cadence=timedelta(hours=1), name="E2E slow season"
        )
        with write_transaction(session):
            season = session.get(Season, season_id)
            version = session.get(BotVersion, slow_version)
            assert season is not None and version is not None
            enter_season(session, season, version)
        start_season(session, season_id)
        ids: list[int] = []
        schedule_round(session, season_id, ids.extend)  # beat's dispatch enqueues it
    (match_id,) = ids
    holder = wait_until(lambda: holder_of(stack, sessions, match_id), 120, "a worker to play it")
    assert holder is not None  # its heartbeat names the match: the sandboxed bot is playing
    assert status_of(sessions, match_id) is MatchStatus.RUNNING
    (survivor,) = [c for c in worker_containers(stack) if c != holder]
    docker("kill", holder)
    started = time.monotonic()
    wait_until(lambda: not stack.running(holder), 30, "the killed container to be gone")
    wait_until(
        lambda: status_of(sessions, match_id) is MatchStatus.DONE, 180, "the match played again"
    )
    timed("recovery (kill to the match recorded)", started)
    assert not stack.running(holder), "the killed worker came back: who played it is unknown"
    assert match_id in recorded_matches(stack, survivor)
    # The sandboxed bot was forked from the container's warm template, not started cold.
    (cpu,) = [
        entry["cpu"]
        for entry in stack.log_entries(survivor)
        if entry.get("logger") == "workers.matches"
        and "recorded" in entry.get("msg", "")
        and entry.get("match_id") == match_id
    ]
    assert cpu["sandboxed"] == cpu["warm"] == 1, cpu
    with sessions() as session:
        match = session.get(Match, match_id)
        assert match is not None and match.rating_seq == 1
        assert assert_recorded_once(session, season_id) == 1
    docker("start", holder)  # as an operator would: the stack is whole again


def pytest_packages() -> list[Path]:
    """pytest, what it imports and its timeout plugin, from this venv: copied into the
    container to run the battery there (pure Python; the image itself has no test tools)."""
    found = []
    for name in PYTEST_PARTS:
        spec = importlib.util.find_spec(name)
        assert spec is not None and spec.origin is not None, f"{name} is not installed"
        origin = Path(spec.origin)
        found.append(origin.parent if origin.name == "__init__.py" else origin)
    return found


def test_the_sandbox_battery_holds_inside_a_worker_container(stack: Stack) -> None:
    """The hostile bots' attacks, from the sandbox of a worker container: the platform's
    code (/opt/arena/venv, /app), its configuration and the worker's environment (database
    password, secret key) are out of their reach (read_secrets, read_worker_code,
    env_secrets, proc_snoop, ...), and so are the network, the other seat and the kernel
    interfaces the sandbox closes, under the container's own seccomp profile and rights."""
    container = next(c for c in worker_containers(stack) if stack.running(c))
    docker("exec", container, "rm", "-rf", "/tmp/battery")
    docker("exec", container, "mkdir", "-p", "/tmp/battery/site", "/tmp/battery/tests")
    for package in pytest_packages():
        docker("cp", str(package), f"{container}:/tmp/battery/site/{package.name}")
    for part in ("__init__.py", "sandbox"):
        docker("cp", str(ROOT / "tests" / part), f"{container}:/tmp/battery/tests/{part}")
    done = subprocess.run(
        [
            "docker",
            "exec",
            "-w",
            "/tmp/battery",
            "-e",
            "PYTHONPATH=/tmp/battery/site:/tmp/battery",
            "-e",
            "CI=1",
            container,
            "python",
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "-p",
            "pytest_timeout",
            "-q",
            "-rs",
            "tests/sandbox/test_hostile.py",
            "-k",
            BATTERY,
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=900,
    )
    print(done.stdout[-6000:], done.stderr[-3000:])
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-3000:]
    passed = re.search(r"(\d+) passed", done.stdout)
    assert passed and int(passed.group(1)) >= 20, done.stdout[-2000:]
    assert " skipped" not in done.stdout and " failed" not in done.stdout


def test_down_and_up_again_keeps_everything(
    stack: Stack, sessions: sessionmaker[Session], slow_version: int
) -> None:
    before = counts(sessions)
    assert before["done"] and before["replays"] == len(before["done"])
    for volume in stack.volumes():
        assert volume.startswith(f"{stack.project}_"), f"an anonymous volume: {volume}"
    stack.run("down", "--timeout", "30")
    assert not stack.containers(WORKER)
    started = time.monotonic()
    stack.run("up", "-d", "--no-build", timeout=600)
    wait_until(lambda: site_answers(stack), 180, "the site to answer again")
    timed("restart (compose down, up until the site answers)", started)
    after = counts(sessions)
    assert after["users"] == before["users"]
    assert after["versions"] == before["versions"]
    assert set(before["done"]) <= set(after["done"])
    assert after["replays"] >= before["replays"]
    found = requests.get(f"{stack.web}/api/v1/versions/{slow_version}", timeout=10).json()
    assert found["status"] == "ready"
    for match_id in before["done"][:3]:
        replay = requests.get(f"{stack.web}/api/v1/matches/{match_id}/replay", timeout=10)
        assert replay.status_code == 200
