"""Workers on many hosts, and faults between them (issue 36, item 2).

The test builds its hosts (tests/hosts/network.py): a namespace `db` running a Redis and
a PostgreSQL of the test's own, listening on its 198.51.100.x address, and the scheduler
(`arena beat`); two worker hosts `h1` and `h2`, each running `arena worker`; all joined
through a bridge, the test process on a link of its own. A season of house bots (in-process
seats: no sandbox) runs several rounds while the network fails:

1. `h1` is cut off (its link down) in the middle of a match: the reaper, on `h2`, finds
   the lost match after the stall window and `h2` plays and records it; when `h1` comes
   back its late result is refused;
2. a partition between the worker hosts and `db` heals after longer than the stall window;
3. (a test of its own) a link with 100 ms of latency and 5 % loss (`tc netem`);
4. the broker's Redis is restarted (without persistence: its queues are lost).

Then every scheduled match is recorded exactly once, every replay verifies, the ratings
are their own history replayed; the recovery times are printed, with no timed assertion
beyond the platform's own windows.
"""

from __future__ import annotations

import contextlib
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

import pytest
import redis
from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from arena.match import replay as replay_io
from arena.match import replay_view
from arena.match.verify import verify
from arena.store import make_engine, make_sessionmaker, migrate
from arena.store.models import Match, MatchStatus, Replay
from arena.store.types import utc_now
from tests.hosts.network import Network, namespaces_or_skip, network_of
from tests.store.private_postgres import PrivatePostgres, require_postgres
from tests.workers.processes import (
    PrivateRedis,
    Process,
    Processes,
    platform_env,
    processes_for,
    require_redis_server,
    wait_until,
)
from tests.workers.test_integration import assert_recorded_once, wait_for_workers
from workers.seed import ensure_demo_season

pytestmark = pytest.mark.slow

# The strong search bot makes a match last seconds, so that a host can be cut off in the
# middle of one; the heuristic bots keep the rest quick.
PLAYERS = (("strong", 4), ("heuristic", 4))
ROLES = ("db", "h1", "h2")
STALL_SECONDS = 6  # platform_env's ARENA_STALL_SECONDS
PARTITION_SECONDS = 10.0  # longer than the stall window: the reaper is put to the test
# The platform's window for lost work: the stall window, a reaper period (2 s), a match.
LOST_WORK_WINDOW = STALL_SECONDS + 2 + 60


class HostRedis(PrivateRedis):
    """The test's Redis inside a host's namespace, listening on that host's address."""

    def __init__(self, binary: str, root: Path, network: Network, role: str) -> None:
        super().__init__(binary, root)
        self.network = network
        self.role = role
        self.host = network.address(role)
        self.port = 6379  # the namespace's own ports: nothing else listens there

    def url(self, db: int = 0) -> str:
        return f"redis://{self.host}:{self.port}/{db}"

    def client(self, db: int = 0) -> redis.Redis:
        return redis.Redis(self.host, self.port, db=db, socket_timeout=2, socket_connect_timeout=2)

    def start(self) -> None:
        command = self.network.command(
            self.role,
            self.binary,
            "--bind", self.host,
            "--port", str(self.port),
            "--protected-mode", "no",
            "--save", "",
            "--appendonly", "no",
            "--dir", str(self.root),
            "--logfile", str(self.root / "redis.log"),
        )  # fmt: skip
        self.popen = subprocess.Popen(command, stdin=subprocess.DEVNULL, start_new_session=True)
        wait_until(self.alive, 15, f"Redis on {self.role} to start")


class HostPostgres(PrivatePostgres):
    """The test's PostgreSQL inside a host's namespace, on that host's address; the
    subnet may connect (trust, as the private server's 127.0.0.1 may)."""

    def __init__(self, bin_dir: Path, root: Path, network: Network, role: str) -> None:
        self.network = network
        self.role = role
        super().__init__(bin_dir, root)
        self.port = 5432
        self.url = self.url.set(host=network.address(role), port=self.port)
        with (self.data / "pg_hba.conf").open("a") as hba:
            hba.write(f"host all all {network.subnet} trust\n")

    def _run(self, tool: str, *args: str) -> None:
        command = [str(self.bin_dir / tool), *args]
        if self._user is not None:
            command = ["runuser", "-u", self._user, "--", *command]
        subprocess.run(
            self.network.command(self.role, *command), check=True, capture_output=True, timeout=120
        )

    def start(self) -> None:
        options = (
            f"-p {self.port} -k {self.socket_dir} -c fsync=off"
            f" -c listen_addresses={self.network.address(self.role)}"
        )
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", options, "-w", "start")

    def create_database(self) -> None:
        host = self.network.address(self.role)
        self._run("createdb", "-h", host, "-p", str(self.port), "-U", "postgres", "arena")


class HostProcess(Process):
    """A platform process (`arena worker`, `arena beat`) run inside a host's namespace."""

    def __init__(
        self, network: Network, role: str, name: str, args: list[str], env: dict[str, str]
    ) -> None:
        self.name = name
        self.log_path = Path(env["ARENA_DATA_DIR"]).parent / f"{name}.log"
        self._log = self.log_path.open("wb")
        command = [sys.executable, "-m", "arena.commands.platform", *args]
        self.popen = subprocess.Popen(
            network.command(role, *command),
            env=env,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )

    def events(self, match_id: int) -> list[str]:
        """Its log messages about match `match_id`."""
        prefix = f"match {match_id} "
        return [
            message
            for entry in self.log_entries()
            if (message := str(entry.get("msg", ""))).startswith(prefix)
        ]

    def running(self) -> list[int]:
        """The matches it says it started and has not yet said it recorded."""
        started: list[int] = []
        finished: set[int] = set()
        for entry in self.log_entries():
            match_id, message = entry.get("match_id"), str(entry.get("msg", ""))
            if not isinstance(match_id, int):
                continue
            if message.endswith(" started"):
                started.append(match_id)
            elif any(word in message for word in ("recorded", "failed", "put back")):
                finished.add(match_id)
        return [m for m in started if m not in finished]


@dataclass
class Cluster:
    """The hosts, the servers on `db`, the season's processes and this process's view."""

    network: Network
    redis: HostRedis
    postgres: HostPostgres
    sessions: sessionmaker[Session]
    root: Path
    group: Processes
    hosts: dict[str, HostProcess] = field(default_factory=dict)
    season_id: int = 0

    def env(self, role: str) -> dict[str, str]:
        data_dir = self.root / role / "data"
        data_dir.mkdir(parents=True, exist_ok=True)
        return platform_env(
            data_dir=data_dir,
            database_url=self.postgres.url.render_as_string(hide_password=False),
            broker_url=self.redis.url(0),
        )

    def start(self, role: str, name: str, args: list[str]) -> HostProcess:
        process = HostProcess(self.network, role, name, args, self.env(name))
        self.group.started.append(process)
        self.hosts[name] = process
        return process

    def start_season(self) -> None:
        with self.sessions() as session:
            self.season_id = ensure_demo_season(
                session, players=PLAYERS, cadence=timedelta(seconds=1)
            )
        for role in ("h1", "h2"):
            self.start(role, role, ["worker", "--name", f"{role}@%h"])
        wait_for_workers(self.sessions, "h1", "h2")
        self.start("db", "beat", ["beat"])

    def count(self, *statuses: MatchStatus) -> int:
        with self.sessions() as session:
            query = (
                select(func.count())
                .select_from(Match)
                .where(Match.season_id == self.season_id, Match.status.in_(statuses))
            )
            return session.scalar(query) or 0

    def ids(self, *statuses: MatchStatus) -> set[int]:
        with self.sessions() as session:
            query = select(Match.id).where(
                Match.season_id == self.season_id, Match.status.in_(statuses)
            )
            return set(session.scalars(query))

    def claimed_since(self, when: datetime) -> bool:
        """Whether a worker claimed a match of the season after `when`."""
        with self.sessions() as session:
            query = select(func.max(Match.started_at)).where(Match.season_id == self.season_id)
            latest = session.scalar(query)
            return latest is not None and latest > when

    def status(self, match_id: int) -> MatchStatus:
        with self.sessions() as session:
            status = session.scalar(select(Match.status).where(Match.id == match_id))
            assert status is not None
            return status

    def wait_for_done(self, match_ids: set[int], timeout: float, what: str) -> float:
        """Seconds until every match of `match_ids` has ended (done, or void)."""
        ended = (MatchStatus.DONE, MatchStatus.VOID)
        began = time.monotonic()
        wait_until(lambda: match_ids <= self.ids(*ended), timeout, what, interval=0.1)
        return time.monotonic() - began

    def finish(self) -> None:
        """Stop the scheduler and let the workers play out what it made."""
        self.hosts["beat"].stop()
        wait_until(
            lambda: self.count(MatchStatus.QUEUED, MatchStatus.RUNNING) == 0,
            90,
            "the last round's tables to finish",
        )

    def check_ledger(self) -> int:
        """Every match ended once, rated once, its replay verifying; returns how many."""
        with self.sessions() as session:
            outcomes = session.execute(
                select(Match.id, Match.status, Match.status_reason).where(
                    Match.season_id == self.season_id
                )
            ).all()
            voids = {
                row.id: row.status_reason or ""
                for row in outcomes
                if row.status is MatchStatus.VOID
            }
            assert {row.status for row in outcomes} <= {MatchStatus.DONE, MatchStatus.VOID}
            # Void only for a match whose run was lost twice (the platform's rule).
            assert all("for the second time" in reason for reason in voids.values()), voids
            rated = assert_recorded_once(session, self.season_id)
            contents = session.scalars(
                select(Replay.content)
                .join(Match, Match.id == Replay.match_id)
                .where(Match.season_id == self.season_id)
            ).all()
            assert len(contents) == rated
            for content in contents:
                assert verify(replay_view.readable(replay_io.loads(content))).hands > 0
        print(f"{rated} matches recorded and verified, {len(voids)} void: {voids}")
        return rated


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[Cluster]:
    """The hosts and their servers, migrated and running; all of it gone afterwards."""
    namespaces_or_skip()
    bin_dir = require_postgres()
    redis_binary = require_redis_server()
    # The server runs as `postgres`, who cannot enter pytest's (root-only) folders.
    pg_root = Path(tempfile.mkdtemp(prefix="arena-hosts-pg-"))
    with contextlib.ExitStack() as stack:
        stack.callback(shutil.rmtree, pg_root, ignore_errors=True)
        network = stack.enter_context(network_of(*ROLES))
        postgres = HostPostgres(bin_dir, pg_root, network, "db")
        postgres.start()
        stack.callback(stop_quietly, postgres)
        postgres.create_database()
        migrate.upgrade(postgres.url)
        redis_server = HostRedis(redis_binary, tmp_path / "redis", network, "db")
        redis_server.root.mkdir()
        redis_server.start()
        stack.callback(redis_server.stop)
        engine = make_engine(postgres.url, connect_args={"connect_timeout": 5})
        stack.callback(engine.dispose)
        group = stack.enter_context(processes_for(tmp_path))
        yield Cluster(network, redis_server, postgres, make_sessionmaker(engine), tmp_path, group)


def stop_quietly(server: HostPostgres) -> None:
    with contextlib.suppress(subprocess.CalledProcessError, subprocess.TimeoutExpired):
        server.stop()


def cut_mid_match(cluster: Cluster, role: str) -> tuple[int, float]:
    """Take `role`'s link down while it plays a match; the match's id and the moment."""
    host = cluster.hosts[role]
    for _ in range(5):
        playing = wait_until(host.running, 90, f"a match on {role}", interval=0.05)
        cluster.network.cut(role)
        cut_at = time.monotonic()
        if cluster.status(playing[-1]) is MatchStatus.RUNNING:
            return playing[-1], cut_at
        cluster.network.heal(role)  # it finished just before the cut: try the next one
    pytest.fail(f"{role} was never caught in the middle of a match")
    raise AssertionError("unreachable")


def reaped(cluster: Cluster, match_id: int) -> bool:
    """Whether a reaper's log says it queued `match_id` again."""
    return any(
        match_id in entry.get("requeued_matches", ())
        for process in cluster.hosts.values()
        for entry in process.log_entries()
        if entry.get("msg") == "reaped stalled work"
    )


@pytest.mark.timeout(400)
def test_workers_on_two_hosts_lose_nothing_to_a_cut_a_partition_and_a_broker_restart(
    cluster: Cluster,
) -> None:
    cluster.start_season()
    h1, h2 = cluster.hosts["h1"], cluster.hosts["h2"]
    wait_until(lambda: cluster.count(MatchStatus.DONE) >= 2, 120, "the first tables played")
    measured: dict[str, float] = {}

    # 1. h1 cut off in the middle of a match, until the match is recorded elsewhere.
    victim, cut_at = cut_mid_match(cluster, "h1")
    wait_until(lambda: reaped(cluster, victim), LOST_WORK_WINDOW, f"match {victim} reaped")
    measured["host cut off: its match queued again by the reaper"] = time.monotonic() - cut_at
    cluster.wait_for_done({victim}, LOST_WORK_WINDOW, f"match {victim}, lost with h1, re-run")
    measured["host cut off: its match recorded by the other host"] = time.monotonic() - cut_at
    assert cluster.status(victim) is MatchStatus.DONE
    assert any(e.startswith(f"match {victim} recorded") for e in h2.events(victim))
    cluster.network.heal("h1")
    healed_at = time.monotonic()
    # The cut-off host comes back, and its late result for the victim is refused.
    wait_until(
        lambda: any("already-recorded" in e for e in h1.events(victim)),
        LOST_WORK_WINDOW,
        f"h1's late result for match {victim}",
    )
    measured["host back: its late result refused"] = time.monotonic() - healed_at

    # 2. A partition between the worker hosts and db, longer than the stall window.
    wait_until(lambda: cluster.ids(MatchStatus.RUNNING), 60, "a match under way")
    for role in ("h1", "h2"):
        cluster.network.cut(role)
    caught = cluster.ids(MatchStatus.RUNNING, MatchStatus.QUEUED)
    time.sleep(1.0)  # a result written as the links went down has landed by now
    done_before = cluster.count(MatchStatus.DONE)
    time.sleep(PARTITION_SECONDS - 1.0)
    # The partition is real: nothing reached the database while it lasted.
    assert cluster.count(MatchStatus.DONE) == done_before
    for role in ("h1", "h2"):
        cluster.network.heal(role)
    measured["partition healed: the matches it caught ended"] = cluster.wait_for_done(
        caught, LOST_WORK_WINDOW, "the matches caught by the partition"
    )
    after_heal = time.monotonic()
    wait_until(
        lambda: cluster.count(MatchStatus.DONE) >= done_before + len(caught) + 2,
        LOST_WORK_WINDOW,
        "the season to go on after the partition",
    )
    measured["partition healed: two new tables recorded"] = (
        time.monotonic() - after_heal + measured["partition healed: the matches it caught ended"]
    )

    # 4. The broker's host restarts its Redis (its queues are lost).
    done_before = cluster.count(MatchStatus.DONE)
    restarted_at = time.monotonic()
    cluster.redis.restart(down_for=2.0)
    back, back_at = utc_now(), time.monotonic()
    wait_until(lambda: cluster.claimed_since(back), LOST_WORK_WINDOW, "a match claimed")
    measured["Redis back: first match delivered and claimed"] = time.monotonic() - back_at
    wait_until(
        lambda: cluster.count(MatchStatus.DONE) >= done_before + 4,
        LOST_WORK_WINDOW,
        "four tables recorded after Redis restarted",
    )
    measured["Redis restarted (down 2 s): four tables recorded"] = time.monotonic() - restarted_at

    cluster.finish()
    rated = cluster.check_ledger()
    assert rated >= 8
    for role in ("h1", "h2"):  # both hosts played their part
        assert any(
            "recorded: done" in str(entry.get("msg", ""))
            for entry in cluster.hosts[role].log_entries()
        ), role
    for what, seconds in measured.items():
        print(f"recovery: {what}: {seconds:.1f} s")


def netem_or_skip(network: Network, role: str) -> None:
    """100 ms of latency and 5 % loss each way on `role`'s link, or skip with the reason."""
    try:
        network.netem(role, "delay", "100ms", "loss", "5%")
    except subprocess.CalledProcessError as error:
        pytest.skip(f"tc netem is unavailable here (no sch_netem in this kernel): {error.stderr}")


@pytest.mark.timeout(300)
def test_a_slow_lossy_link_to_one_worker_host_loses_nothing(cluster: Cluster) -> None:
    netem_or_skip(cluster.network, "h1")
    began = time.monotonic()
    cluster.start_season()
    h1 = cluster.hosts["h1"]

    def h1_recorded() -> int:
        return sum("recorded: done" in str(e.get("msg", "")) for e in h1.log_entries())

    wait_until(
        lambda: cluster.count(MatchStatus.DONE) >= 8 and h1_recorded() >= 2,
        180,
        "eight tables, two of them on the slow host",
    )
    cluster.finish()
    cluster.check_ledger()
    print(cluster.network.netem_statistics("h1"))
    print(f"eight tables through a slow, lossy link in {time.monotonic() - began:.1f} s")
