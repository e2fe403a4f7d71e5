"""The task shells in this process (no broker, no worker): matches, the reaper, dispatch.

Every test runs on SQLite and on PostgreSQL (the store's `db_url` fixture).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import func, select, update
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session, sessionmaker

from arena.match import replay as replay_io
from arena.match import replay_view
from arena.match.replay_v2 import ReplayV2, verify_v2
from arena.match.verify import verify
from arena.seasons import schedule_round
from arena.store import heartbeats, start_match
from arena.store.accounts import create_user
from arena.store.bots import add_version, create_bot
from arena.store.database import write_transaction
from arena.store.dispatch import REQUEUED, pending_version_ids, reap_stalled_matches
from arena.store.models import Match, MatchStatus, RatingChange, Replay, Season
from arena.store.types import utc_now
from tests.workers import bots
from workers import matches as match_tasks
from workers import scheduling
from workers.config import Settings
from workers.sandbox import SandboxUnavailableError
from workers.seed import ensure_demo_season
from workers.transient import ENVIRONMENT_RETRIES, WorkerEnvironmentError

pytestmark = pytest.mark.timeout(120)

QUICK_PLAYERS = (("heuristic", 4), ("random", 4))


def new_round(sessions: sessionmaker[Session]) -> tuple[int, list[int]]:
    """A running demo season of quick house players and its first round's match ids."""
    with sessions() as session:
        season_id = ensure_demo_season(
            session, players=QUICK_PLAYERS, cadence=timedelta(seconds=1), now=utc_now()
        )
        from arena.seasons import start_season

        start_season(session, season_id)
        ids: list[int] = []
        schedule_round(session, season_id, ids.extend)
    assert ids
    return season_id, ids


def test_a_queued_match_is_played_recorded_and_rated(
    settings: Settings, sessions: sessionmaker[Session]
) -> None:
    _season_id, ids = new_round(sessions)
    summary = match_tasks.execute_match(ids[0])
    assert (summary.action, summary.status) == ("recorded", "done")
    with sessions() as session:
        match = session.get(Match, ids[0])
        assert match is not None and match.status is MatchStatus.DONE
        assert match.rating_seq == 1
        assert all(seat.rank is not None and seat.hand_points for seat in match.seats)
        content = session.scalar(select(Replay.content).where(Replay.match_id == ids[0]))
        assert content is not None
        stored = replay_io.loads(content, (2,))  # the runner writes replay v2
        assert verify_v2(ReplayV2.from_dict(stored)).hands == match.hands_played
        assert verify(replay_view.readable(stored)).hands == match.hands_played
        history = session.scalar(
            select(func.count()).select_from(RatingChange).where(RatingChange.match_id == ids[0])
        )
        assert history == len(match.seats)


def test_the_same_match_delivered_twice_is_recorded_once(
    settings: Settings, sessions: sessionmaker[Session]
) -> None:
    season_id, ids = new_round(sessions)
    first = match_tasks.run_match.apply(args=(ids[0],)).get()
    second = match_tasks.run_match.apply(args=(ids[0],)).get()
    assert first["action"] == "recorded"
    assert (second["action"], second["status"]) == ("skipped", "done")
    with sessions() as session:
        season = session.get(Season, season_id)
        assert season is not None and season.rated_matches == 1
        assert session.scalar(select(func.count()).select_from(Replay)) == 1


def test_a_transient_fault_before_play_queues_the_match_again_and_retries(
    settings: Settings, sessions: sessionmaker[Session], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, ids = new_round(sessions)
    real = match_tasks.load_run
    calls = []

    def flaky(session: Session, match_id: int, started_at: object) -> match_tasks.MatchRun:
        calls.append(match_id)
        if len(calls) == 1:
            raise OperationalError("SELECT 1", {}, ConnectionRefusedError("database restarting"))
        return real(session, match_id, started_at)  # type: ignore[arg-type]

    monkeypatch.setattr(match_tasks, "load_run", flaky)
    with pytest.raises(OperationalError):
        match_tasks.execute_match(ids[0])
    with sessions() as session:
        assert session.get(Match, ids[0]).status is MatchStatus.QUEUED  # type: ignore[union-attr]
    # Through Celery (eagerly): the task's automatic retry plays it the second time.
    calls.clear()
    result = match_tasks.run_match.apply(args=(ids[0],))
    assert result.get()["action"] == "recorded"
    assert len(calls) == 2


def test_our_own_error_fails_the_match_once_without_a_retry(
    settings: Settings, sessions: sessionmaker[Session], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, ids = new_round(sessions)

    def broken(*_: object) -> None:
        raise ValueError("a bug of ours")

    monkeypatch.setattr(match_tasks, "load_run", broken)
    result = match_tasks.run_match.apply(args=(ids[0],)).get()
    assert result["action"] == "failed"
    with sessions() as session:
        match = session.get(Match, ids[0])
        assert match is not None and match.status is MatchStatus.FAILED
        assert "a bug of ours" in (match.status_reason or "")


def test_the_reaper_requeues_a_lost_match_once_then_voids_it(
    settings: Settings, sessions: sessionmaker[Session]
) -> None:
    _, ids = new_round(sessions)
    long_ago = utc_now() - timedelta(minutes=5)
    rules: dict[str, Any] = {"stall_after": timedelta(seconds=5), "deadline": timedelta(hours=1)}
    with sessions() as session:
        assert start_match(session, ids[0], now=long_ago)  # a worker took it, then died
        held = reap_stalled_matches(session, held={ids[0]}, **rules)  # ...but it is held
        assert held.requeued == ()
        first = reap_stalled_matches(session, held=set(), **rules)
        assert first.requeued == (ids[0],)
        match = session.get(Match, ids[0])
        assert match is not None and match.status is MatchStatus.QUEUED
        assert (match.status_reason or "").startswith(REQUEUED)
        session.rollback()
        assert start_match(session, ids[0], now=long_ago)  # run again, lost again
        second = reap_stalled_matches(session, held=set(), **rules)
        assert (second.requeued, second.voided) == ((), (ids[0],))
        session.expire_all()
        assert session.get(Match, ids[0]).status is MatchStatus.VOID  # type: ignore[union-attr]


def test_the_reaper_task_trusts_only_fresh_heartbeats(
    settings: Settings, sessions: sessionmaker[Session], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, ids = new_round(sessions)
    enqueued: list[int] = []
    monkeypatch.setattr(scheduling, "enqueue_matches", enqueued.extend)
    long_ago = utc_now() - timedelta(minutes=5)
    with sessions() as session:
        start_match(session, ids[0], now=long_ago)
        start_match(session, ids[1], now=long_ago)
        common: dict[str, Any] = {
            "role": "worker",
            "hostname": "h",
            "pid": 1,
            "started_at": long_ago,
        }
        heartbeats.beat(session, "worker:alive", info={"matches": [ids[0]]}, **common)
        heartbeats.beat(session, "worker:dead", info={"matches": [ids[1]]}, now=long_ago, **common)
    summary = scheduling.reap()
    assert summary["requeued_matches"] == (ids[1],)
    assert enqueued == [ids[1]]


def test_dispatch_enqueues_new_challenges_and_tops_up_a_short_queue(
    settings: Settings, sessions: sessionmaker[Session], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, ids = new_round(sessions)
    enqueued: list[int] = []
    monkeypatch.setattr(scheduling, "enqueue_matches", enqueued.extend)
    monkeypatch.setattr(scheduling, "queue_lengths", lambda app: {"matches": 0, "validate": 0})
    with sessions() as session:
        session.execute(update(Match).values(created_at=utc_now() - timedelta(minutes=1)))
        session.commit()
    summary = scheduling.dispatch()
    assert sorted(enqueued) == sorted(ids) == summary["matches"]
    with sessions() as session:
        rows = {row.name: row for row in heartbeats.heartbeats(session)}
    assert rows["dispatch"].info["queues"] == {"matches": 0, "validate": 0}


def test_dispatch_enqueues_a_new_upload_at_once(
    settings: Settings, sessions: sessionmaker[Session], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A fresh upload has no status reason (NULL): it must not be read as one waiting for
    the package index (in SQL, NOT (NULL AND true) is NULL), which held every upload back
    for `WAIT_SECONDS` (the deployment test's validation took 65 s instead of 5)."""
    with sessions() as session, write_transaction(session):
        owner = create_user(session, "owner-of-a-new-upload", None)
        version = add_version(
            session, create_bot(session, owner, "new"), bots.zipped({"bot.py": bots.FIRST_LEGAL})
        )
        assert version.status_reason is None
        version_id = version.id
    enqueued: list[int] = []
    monkeypatch.setattr(scheduling, "enqueue_validations", enqueued.extend)
    monkeypatch.setattr(scheduling, "enqueue_matches", lambda ids: None)
    # A long validate queue: only the fresh-upload query runs, not the top-up.
    monkeypatch.setattr(scheduling, "queue_lengths", lambda app: {"matches": 0, "validate": 99})
    assert scheduling.dispatch()["validations"] == [version_id] == enqueued
    with sessions() as session:
        assert pending_version_ids(session, limit=10) == [version_id]  # the top-up's query


def test_a_season_finished_by_the_beat_gets_its_luck_measured(
    settings: Settings, sessions: sessionmaker[Session], monkeypatch: pytest.MonkeyPatch
) -> None:
    season_id, ids = new_round(sessions)
    for match_id in ids:
        match_tasks.execute_match(match_id)
    monkeypatch.setattr(scheduling, "enqueue_matches", lambda ids: None)
    with sessions() as session:
        session.execute(
            update(Season)
            .where(Season.id == season_id)
            .values(
                starts_at=utc_now() - timedelta(hours=1), ends_at=utc_now() - timedelta(seconds=1)
            )
        )
        session.commit()
    summary = scheduling.advance_seasons()
    assert season_id in summary["finished"]
    with sessions() as session:
        season = session.get(Season, season_id)
        assert season is not None and season.final_report is not None
        assert season.final_report["tables"] == len(ids)
        evidence = season.final_report["evidence"]
        assert evidence["games"] == len(ids) and evidence["luck_reduction"] > 0


def test_house_seed_mixes_the_bot_and_the_match() -> None:
    assert match_tasks.house_seed(1, 5) != match_tasks.house_seed(2, 5)
    assert match_tasks.house_seed(1, 5) != match_tasks.house_seed(1, 6)


def test_arena_status_shows_queues_running_matches_and_heartbeats(
    settings: Settings, sessions: sessionmaker[Session]
) -> None:
    from click.testing import CliRunner

    from arena.commands.operations import status

    _, ids = new_round(sessions)
    with sessions() as session:
        start_match(session, ids[0])
        now = utc_now()
        heartbeats.beat(
            session,
            "worker:w1@host",
            role="worker",
            hostname="host",
            pid=42,
            started_at=now,
            info={"matches": [ids[0]]},
        )
    result = CliRunner().invoke(status, ["--json"])
    assert result.exit_code == 0, result.output
    import json

    snapshot = json.loads(result.output)
    assert snapshot["running"][0]["match_id"] == ids[0]
    assert snapshot["heartbeats"][0]["name"] == "worker:w1@host"
    assert snapshot["heartbeats"][0]["fresh"] is True
    assert snapshot["matches"]["running"] == 1
    assert set(snapshot["queues"]) == {"default", "matches", "validate", "analysis"}
    text = CliRunner().invoke(status, [])
    assert text.exit_code == 0 and "worker:w1@host" in text.output


def test_a_workers_environment_failing_before_play_is_retried_not_final(
    settings: Settings, sessions: sessionmaker[Session], monkeypatch: pytest.MonkeyPatch
) -> None:
    # issue 31, item 18: a full disk on the worker that set the match up failed it for good.
    _, ids = new_round(sessions)
    real = match_tasks.build_seats
    calls: list[MatchStatus] = []

    def disk_full_once(*args: Any) -> Any:
        with sessions() as session:
            calls.append(session.get(Match, ids[0]).status)  # type: ignore[union-attr]
        if len(calls) == 1:
            raise OSError(28, "No space left on device", "/data/versions/ab12")
        return real(*args)

    monkeypatch.setattr(match_tasks, "build_seats", disk_full_once)
    with pytest.raises(WorkerEnvironmentError, match="No space left on device"):
        match_tasks.execute_match(ids[0], environment_tries=0)
    with sessions() as session:
        assert session.get(Match, ids[0]).status is MatchStatus.QUEUED  # type: ignore[union-attr]
    # Through Celery (eagerly, the pause skipped): the retry plays and records it.
    calls.clear()
    result = match_tasks.run_match.apply(args=(ids[0],)).get()
    assert (result["action"], result["status"]) == ("recorded", "done")
    assert calls == [MatchStatus.RUNNING, MatchStatus.RUNNING]  # set up twice, played once


def test_an_environment_that_keeps_failing_fails_the_match_after_its_retries(
    settings: Settings, sessions: sessionmaker[Session], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, ids = new_round(sessions)
    tries = []

    def no_sandbox(*_: Any) -> None:
        tries.append(1)
        raise SandboxUnavailableError("bwrap is not installed (Debian package bubblewrap)")

    monkeypatch.setattr(match_tasks, "build_seats", no_sandbox)
    result = match_tasks.run_match.apply(args=(ids[0],)).get()
    assert result["action"] == "failed"
    assert len(tries) == ENVIRONMENT_RETRIES + 1
    with sessions() as session:
        match = session.get(Match, ids[0])
        assert match is not None and match.status is MatchStatus.FAILED
        assert match.status_reason == (
            "the sandbox failed on this worker: bwrap is not installed (Debian package "
            f"bubblewrap) (on each of {ENVIRONMENT_RETRIES + 1} tries)"
        )


def test_an_error_once_the_match_is_under_way_is_not_an_environment_retry(
    settings: Settings, sessions: sessionmaker[Session], monkeypatch: pytest.MonkeyPatch
) -> None:
    # An OSError once the match is under way is not the set-up's: failed once, as a bug.
    _, ids = new_round(sessions)

    def broken_play(*_: Any) -> None:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(match_tasks, "play", broken_play)
    result = match_tasks.run_match.apply(args=(ids[0],)).get()
    assert result["action"] == "failed"
    assert "Input/output error" in result["detail"]
