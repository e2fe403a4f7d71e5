"""The analysis task in this process (no broker, no worker): a played match analysed once,
its progress and result stored, a second delivery doing nothing; the dispatcher enqueues
queued analyses. On SQLite and on PostgreSQL (the store's `db_url` fixture)."""

from __future__ import annotations

import pytest
from sqlalchemy.orm import Session, sessionmaker

from arena.store import analyses
from arena.store.database import write_transaction
from arena.store.models import AnalysisStatus, MatchAnalysis
from workers import analysis as analysis_tasks
from workers import matches as match_tasks
from workers import scheduling
from workers.app import app
from workers.config import Settings
from workers.queues import queue_lengths

from .test_tasks import new_round

pytestmark = pytest.mark.timeout(300)


def test_a_played_match_is_analysed_once_with_its_progress_and_result_stored(
    settings: Settings, sessions: sessionmaker[Session]
) -> None:
    _season, ids = new_round(sessions)
    assert match_tasks.execute_match(ids[0]).status == "done"
    with sessions() as session, write_transaction(session):
        row, asked = analyses.request(session, ids[0], None, samples=8, playouts=1)
        again, asked_again = analyses.request(session, ids[0], None, samples=8, playouts=1)
        analysis_id = row.id
    assert asked and not asked_again and again.id == analysis_id
    with sessions() as session:
        assert analyses.queued_ids(session) == [analysis_id]
    first = analysis_tasks.analyse_match.apply(args=(analysis_id,)).get()
    second = analysis_tasks.analyse_match.apply(args=(analysis_id,)).get()
    assert first["status"] == "done" and second["status"] == "not queued"
    with sessions() as session:
        stored = session.get(MatchAnalysis, analysis_id)
        assert stored is not None and stored.status is AnalysisStatus.DONE
        assert stored.total > 0 and stored.done == stored.total
        result = stored.result
        assert result is not None and result["settings"]["samples"] == 8
        assert result["decisions"] and set(result["summary"]) == {"0", "1", "2", "3"}
        assert analyses.queued_ids(session) == []


def test_a_match_without_a_replay_fails_with_the_reason_and_can_be_asked_again(
    settings: Settings, sessions: sessionmaker[Session]
) -> None:
    _season, ids = new_round(sessions)
    with sessions() as session, write_transaction(session):
        analysis_id = analyses.request(session, ids[0], None, samples=4, playouts=1)[0].id
    assert analysis_tasks.analyse_match.apply(args=(analysis_id,)).get()["status"] == "failed"
    with sessions() as session, write_transaction(session):
        row = session.get(MatchAnalysis, analysis_id)
        assert row is not None and "no replay" in (row.error or "")
        again, asked = analyses.request(session, ids[0], None, samples=4, playouts=1)
        assert asked and again.id == analysis_id and again.status is AnalysisStatus.QUEUED


def test_the_dispatcher_enqueues_queued_analyses_on_their_own_queue(
    settings: Settings, sessions: sessionmaker[Session]
) -> None:
    _season, ids = new_round(sessions)
    with sessions() as session, write_transaction(session):
        analysis_id = analyses.request(session, ids[0], None, samples=4, playouts=1)[0].id
    with app.connection_for_write() as connection:  # the in-memory broker is the process's
        connection.default_channel.queue_purge("analysis")  # type: ignore[attr-defined]
    assert queue_lengths(app, ("analysis",)) == {"analysis": 0}
    scheduling.dispatch()
    assert queue_lengths(app, ("analysis",)) == {"analysis": 1}
    scheduling.dispatch()  # the queue holds it: not enqueued twice
    assert queue_lengths(app, ("analysis",)) == {"analysis": 1}
    with sessions() as session:
        assert analyses.queued_ids(session) == [analysis_id]


def test_the_task_adds_the_hindsight_when_its_row_asks_and_keeps_the_two_apart(
    settings: Settings, sessions: sessionmaker[Session]
) -> None:
    _season, ids = new_round(sessions)
    assert match_tasks.execute_match(ids[0]).status == "done"
    with sessions() as session, write_transaction(session):
        fair = analyses.request(session, ids[0], None, samples=8, playouts=1)[0].id
        full = analyses.request(session, ids[0], None, samples=8, playouts=1, hindsight=True)
        assert full[1] and full[0].id != fair  # another depth: another row
    for analysis_id in (fair, full[0].id):
        assert analysis_tasks.analyse_match.apply(args=(analysis_id,)).get()["status"] == "done"
    with sessions() as session:
        without = session.get(MatchAnalysis, fair)
        within = session.get(MatchAnalysis, full[0].id)
        assert without is not None and within is not None
        assert without.result is not None and within.result is not None
        assert not without.hindsight and within.hindsight
        assert not any(d["hindsight"] for d in without.result["decisions"])
        plays = [d for d in within.result["decisions"] if d["kind"] == "play"]
        assert plays and all(d["hindsight"]["best"] for d in plays)
        assert without.result["summary"] == within.result["summary"]  # the fair view alike
        found = analyses.find(session, ids[0], 8, 1, 0, hindsight=True)
        assert found is not None and found.id == full[0].id
