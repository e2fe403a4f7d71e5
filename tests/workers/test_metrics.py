"""The workers' metrics: a match played by the task in this process moves the match
counters and the CPU histograms; a real `arena worker --metrics-port` empties its
multiprocess folder at start and serves what its pool process counted. Every test runs on
SQLite and on PostgreSQL (the store's `db_url` fixture)."""

from __future__ import annotations

import dataclasses
import os
import re
import socket
import subprocess
import sys
import urllib.request
from datetime import timedelta
from pathlib import Path

import pytest
import yaml
from prometheus_client import REGISTRY, generate_latest
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import select
from sqlalchemy.engine import URL
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session, sessionmaker

from arena.ports import free_port
from arena.seasons import schedule_round, start_season
from arena.store import heartbeats, start_match, write_transaction
from arena.store.accounts import create_user
from arena.store.bots import add_version, create_bot
from arena.store.metrics import PlatformCollector
from arena.store.models import Match
from arena.store.types import utc_now
from tests.workers import bots
from tests.workers.conftest import link_runtime
from tests.workers.processes import platform_env, processes_for, wait_until
from workers import matches as match_tasks
from workers import scheduling, validation
from workers.accounting import PARTS
from workers.app import app, configure
from workers.config import Settings, prepare_sql_broker
from workers.metrics import ENV, folder_name, multiprocess_registry, record_match, worker_metrics
from workers.sandbox import SandboxUnavailableError
from workers.seed import ensure_demo_season

pytestmark = pytest.mark.timeout(180)

QUICK_PLAYERS = (("heuristic", 4), ("random", 4))

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]
"""Samples by name and sorted labels."""


def new_round(sessions: sessionmaker[Session]) -> list[int]:
    """A running season of quick house players; its first round's match ids."""
    with sessions() as session:
        season_id = ensure_demo_season(
            session, players=QUICK_PLAYERS, cadence=timedelta(seconds=1), now=utc_now()
        )
        start_season(session, season_id)
        ids: list[int] = []
        schedule_round(session, season_id, ids.extend)
    assert ids
    return ids


def sample(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


def test_a_match_played_by_the_task_moves_the_counters_and_cpu_histograms(
    settings: Settings, sessions: sessionmaker[Session]
) -> None:
    ids = new_round(sessions)
    started = sample("arena_matches_started_total")
    done = sample("arena_matches_finished_total", status="done")
    durations = sample("arena_match_duration_seconds_count")
    cpu = {part: sample("arena_match_cpu_seconds_count", part=part) for part in PARTS}
    runner_sum = sample("arena_match_cpu_seconds_sum", part="runner")
    first = match_tasks.run_match.apply(args=(ids[0],)).get()
    again = match_tasks.run_match.apply(args=(ids[0],)).get()  # a second delivery: skipped
    assert (first["action"], again["action"]) == ("recorded", "skipped")
    assert sample("arena_matches_started_total") == started + 1
    assert sample("arena_matches_finished_total", status="done") == done + 1
    assert sample("arena_match_duration_seconds_count") == durations + 1
    for part in PARTS:
        assert sample("arena_match_cpu_seconds_count", part=part) == cpu[part] + 1
    # The runner's CPU is the account's own figure (house bots play in-process).
    assert sample("arena_match_cpu_seconds_sum", part="runner") == pytest.approx(
        runner_sum + first["cpu"]["runner"]
    )


def test_a_failed_match_counts_as_failed(
    settings: Settings, sessions: sessionmaker[Session], monkeypatch: pytest.MonkeyPatch
) -> None:
    ids = new_round(sessions)

    def broken(*_: object) -> None:
        raise ValueError("a bug of ours")

    monkeypatch.setattr(match_tasks, "play", broken)
    failed = sample("arena_matches_finished_total", status="failed")
    assert match_tasks.execute_match(ids[0]).action == "failed"
    assert sample("arena_matches_finished_total", status="failed") == failed + 1


def stale_counter(folder: Path) -> None:
    """A file a worker of an earlier run left: 1000 matches started, by a pid long gone."""
    folder.mkdir(parents=True)
    code = "from workers.metrics import worker_metrics; worker_metrics().started.inc(1000)"
    env = {**os.environ, ENV: str(folder)}
    subprocess.run([sys.executable, "-c", code], env=env, check=True, timeout=60)
    assert list(folder.glob("counter_*.db"))


def test_a_file_caught_empty_is_left_out_of_the_sum_not_fatal_to_it(tmp_path: Path) -> None:
    folder = tmp_path / "metrics"
    stale_counter(folder)  # a real file: 1000 matches started
    (folder / "counter_worker@host-1.db").touch()  # made, not yet sized (client_python#1199)
    text = generate_latest(multiprocess_registry(folder)).decode()
    assert "arena_matches_started_total 1000.0" in text


def heartbeat_of(sessions: sessionmaker[Session], prefix: str) -> bool:
    with sessions() as session:
        return any(row.name.startswith(prefix) for row in heartbeats.heartbeats(session))


def scrape(url: str) -> Samples:
    with urllib.request.urlopen(url, timeout=10) as answer:
        text = answer.read().decode()
    found = {}
    for family in text_string_to_metric_families(text):
        for item in family.samples:
            found[(item.name, tuple(sorted(item.labels.items())))] = item.value
    return found


def test_a_real_worker_empties_its_folder_and_sums_its_pool_slots_across_processes(
    db_url: URL, tmp_path: Path, shared_runtime: Path, sessions: sessionmaker[Session]
) -> None:
    data_dir = tmp_path / "data"
    link_runtime(data_dir, shared_runtime)
    broker = f"sqla+sqlite:///{tmp_path / 'broker.sqlite'}"
    env = platform_env(
        data_dir=data_dir,
        database_url=db_url.render_as_string(hide_password=False),
        broker_url=broker,
    )
    env.pop(ENV, None)
    prepare_sql_broker(broker)
    configure(app, Settings.from_environ(env))
    nodename = f"metered@{socket.gethostname()}"
    folder = data_dir / "metrics" / folder_name(nodename)
    stale_counter(folder)
    port = free_port()
    try:
        with processes_for(tmp_path) as procs:
            # A pool process per task: the second match is played by a new process.
            worker = procs.worker(
                "metered", env, "--metrics-port", str(port), "--max-tasks-per-child", "1"
            )
            url = f"http://127.0.0.1:{port}/metrics"

            def serving() -> bool:
                try:
                    scrape(url)
                except OSError:
                    return False
                return True

            wait_until(serving, 60, "the worker's metrics to be served")
            # Its main process has connected (its heartbeat is written) before its pool
            # process is first replaced: a fork in the middle of SQLAlchemy's first connect
            # would hand the new process a held lock.
            wait_until(lambda: heartbeat_of(sessions, "worker:metered@"), 60, "its heartbeat")
            assert scrape(url).get(("arena_matches_started_total", ()), 0.0) == 0.0
            ids = new_round(sessions)
            match_tasks.enqueue_matches(ids[:2])

            def recorded() -> bool:
                key = ("arena_matches_finished_total", (("status", "done"),))
                return scrape(url).get(key, 0.0) >= 2

            wait_until(recorded, 120, "the worker's metrics to count both matches")
            figures = scrape(url)
            writers = {p.stem.rsplit("_", 1)[1] for p in folder.glob("*.db")}
            players = {
                entry["pid"]
                for entry in worker.log_entries()
                if entry.get("match_id") in ids[:2] and " recorded" in entry.get("msg", "")
            }
    finally:
        configure(app, Settings.from_environ())
    assert len(players) == 2  # two pool processes, one after the other, in one slot
    assert figures[("arena_matches_started_total", ())] == 2.0  # not 1002: the old file went
    assert figures[("arena_matches_finished_total", (("status", "done"),))] == 2.0
    assert figures[("arena_match_cpu_seconds_count", (("part", "runner"),))] == 2.0
    assert figures[("arena_store_commit_seconds_count", ())] > 0  # the pool's own store
    assert writers == {f"{nodename}-0"}  # files by slot: none per pid, none of the old run


def collected(sessions: sessionmaker[Session]) -> Samples:
    """What `PlatformCollector` reports now, by name and sorted labels."""
    found = {}
    for family in PlatformCollector(sessions).collect():
        for item in family.samples:
            found[(item.name, tuple(sorted(item.labels.items())))] = item.value
    return found


def test_the_collector_follows_a_seasons_round_from_scheduled_to_finished(
    settings: Settings, sessions: sessionmaker[Session]
) -> None:
    ids = new_round(sessions)
    with sessions() as session:
        season_id = session.scalar(select(Match.season_id).where(Match.id == ids[0]))
    season = str(season_id)
    before = collected(sessions)
    assert before[("arena_season_rounds", (("season", season),))] == 1
    assert before[("arena_season_cadence_seconds", (("season", season),))] == 1
    queued = (("season", season), ("status", "queued"))
    assert before[("arena_season_round_matches", queued)] == len(ids)
    assert before[("arena_queue_depth", (("queue", "matches"),))] == len(ids)
    assert ("arena_season_round_finish_seconds", (("season", season),)) not in before
    for match_id in ids:
        assert match_tasks.execute_match(match_id).action == "recorded"
    after = collected(sessions)
    done = (("season", season), ("status", "done"))
    assert after[("arena_season_round_matches", done)] == len(ids)
    assert after[("arena_season_round_matches", queued)] == 0
    assert after[("arena_queue_depth", (("queue", "matches"),))] == 0
    assert after[("arena_queue_oldest_age_seconds", (("queue", "matches"),))] == 0
    assert after[("arena_season_round_finish_seconds", (("season", season),))] > 0


@pytest.mark.timeout(300)
def test_the_platform_serves_its_workers_metrics_on_the_port_it_prints(tmp_path: Path) -> None:
    from tests.workers.test_platform import ctrl_c, scalar, start_platform

    db = tmp_path / "var" / "arena.db"
    port = free_port()
    log = tmp_path / "platform.log"
    platform = start_platform(tmp_path, free_port(), log, "--no-web", "--metrics-port", str(port))
    url = f"http://127.0.0.1:{port}/metrics"
    try:
        wait_until(
            lambda: scalar(db, "SELECT count(*) FROM matches WHERE status = 'done'") >= 2,
            120,
            "matches recorded",
        )

        def counted() -> float:
            key = ("arena_matches_finished_total", (("status", "done"),))
            return scrape(url).get(key, 0.0)

        wait_until(lambda: counted() >= 2, 60, "the workers' metrics to count them")
        folder = tmp_path / "var" / "metrics" / "platform"
        host = socket.gethostname()
        both = {f"worker1@{host}-0", f"worker2@{host}-0"}
        # the platform's analysis worker (issue 33) writes there too once it has run a task
        platform_workers = both | {f"analysis@{host}-0"}

        def writers() -> set[str]:
            return {p.stem.rsplit("_", 1)[1] for p in folder.glob("*.db")}

        wait_until(lambda: both <= writers(), 90, "both workers to write into the one folder")
        assert writers() <= platform_workers, writers()
    finally:
        code = ctrl_c(platform)
    assert code == 0
    assert f"metrics: {url} (the workers)" in log.read_text()


ROOT = Path(__file__).resolve().parents[2]


def documented_names() -> set[str]:
    """The names in docs/operations.md's "Metrics" table."""
    text = (ROOT / "docs" / "operations.md").read_text()
    section = text.split("\n## Metrics\n", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"^\| `(arena_[a-z_]+)` \|", section, flags=re.MULTILINE))


def test_every_worker_family_is_documented_and_the_alerts_name_only_documented_ones() -> None:
    metrics = worker_metrics()
    names = set()
    for field in dataclasses.fields(metrics):
        metric = getattr(metrics, field.name)
        for family in metric.describe():
            suffix = "_total" if family.type == "counter" else ""
            names.add(family.name + suffix)
    documented = documented_names()
    assert len(names) == len(dataclasses.fields(metrics))
    assert names - documented == set()
    alerts = (ROOT / "deploy" / "prometheus-alerts.yml").read_text()
    rules = yaml.safe_load(alerts)["groups"][0]["rules"]
    used = {
        re.sub(r"_(bucket|sum|count)$", "", name)
        for rule in rules
        for name in re.findall(r"\barena_[a-z_]+", rule["expr"])
    }
    assert used and used - documented == set()


def test_a_sandbox_refusal_and_the_validations_end_are_counted(
    settings: Settings, sessions: sessionmaker[Session], monkeypatch: pytest.MonkeyPatch
) -> None:
    def unavailable() -> None:
        raise SandboxUnavailableError("bwrap is not installed (Debian package bubblewrap)")

    monkeypatch.setattr(validation, "shared_sandbox", unavailable)
    with sessions() as session, write_transaction(session):
        owner = create_user(session, "metered-owner", None)
        bot = create_bot(session, owner, "metered")
        version_id = add_version(session, bot, bots.FIRST_LEGAL).id
    refusals = sample("arena_sandbox_refusals_total")
    rejected = sample("arena_validations_total", status="rejected")
    result = validation.validate_bot_version.apply(args=(version_id,)).get()
    again = validation.validate_bot_version.apply(args=(version_id,)).get()  # skipped
    assert (result["status"], again["status"]) == ("rejected", "skipped"), result
    assert sample("arena_sandbox_refusals_total") == refusals + 1, result
    assert sample("arena_validations_total", status="rejected") == rejected + 1


def test_the_reaper_and_a_transient_fault_count_their_requeues(
    settings: Settings, sessions: sessionmaker[Session], monkeypatch: pytest.MonkeyPatch
) -> None:
    ids = new_round(sessions)
    with sessions() as session:  # a worker took it long ago, then died
        assert start_match(session, ids[0], now=utc_now() - timedelta(minutes=5))
    reaped = sample("arena_matches_reaped_total", action="requeued")
    assert list(scheduling.reap.apply().get()["requeued_matches"]) == [ids[0]]
    assert sample("arena_matches_reaped_total", action="requeued") == reaped + 1

    def down(*_: object) -> None:
        raise OperationalError("SELECT 1", {}, ConnectionRefusedError("database restarting"))

    monkeypatch.setattr(match_tasks, "load_run", down)
    transient = sample("arena_matches_requeued_total", reason="transient")
    with pytest.raises(OperationalError):
        match_tasks.execute_match(ids[0])
    assert sample("arena_matches_requeued_total", reason="transient") == transient + 1


def test_bot_starts_and_faults_are_counted_from_the_account_and_the_replay() -> None:
    warm, cold = (
        sample("arena_bot_starts_total", start="warm"),
        sample("arena_bot_starts_total", start="cold"),
    )
    timeouts = sample("arena_match_faults_total", kind="timeout")
    faulted = sample("arena_matches_faulted_total", kind="timeout")
    other = sample("arena_match_faults_total", kind="other")
    cpu = {"seats": 0.1, "bots_start": 0.2, "bots_play": 0.3, "runner": 0.4, "recording": 0.5}
    faults = [{"kind": "timeout"}, {"kind": "timeout"}, {"kind": "no such kind"}]
    record_match("done", 1.0, {**cpu, "sandboxed": 3, "warm": 2}, faults)
    assert sample("arena_bot_starts_total", start="warm") == warm + 2
    assert sample("arena_bot_starts_total", start="cold") == cold + 1
    assert sample("arena_match_faults_total", kind="timeout") == timeouts + 2
    assert sample("arena_matches_faulted_total", kind="timeout") == faulted + 1  # one match
    assert sample("arena_match_faults_total", kind="other") == other + 1  # never a free label
