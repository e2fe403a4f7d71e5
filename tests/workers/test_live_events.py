"""The match task writes its live events as it plays while someone watches, none when no
one does, and deletes them once the match is stored (its replay says it all). SQLite and
PostgreSQL, as the other task tests."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from arena.store import live as match_tasks_live
from arena.store.live import DEFAULT_INTERVAL, LiveEventBatch, LiveWriter, watch
from tests.workers.test_tasks import new_round
from workers import matches as match_tasks
from workers.config import Settings

pytestmark = pytest.mark.timeout(120)


def test_a_match_writes_its_events_while_played_and_deletes_them_when_stored(
    settings: Settings, sessions: sessionmaker[Session], monkeypatch: pytest.MonkeyPatch
) -> None:
    _season_id, ids = new_round(sessions)
    written: list[list[str]] = []

    class Watched(LiveWriter):
        def flush(self) -> None:
            if self._pending:
                written.append([e["kind"] for e in self._pending])
            super().flush()
            with self.sessions() as session:  # the batch is in the table while it plays
                count = session.scalar(
                    select(func.count())
                    .select_from(LiveEventBatch)
                    .where(LiveEventBatch.match_id == self.match_id)
                )
            assert count is not None and count >= 1

    monkeypatch.setattr(match_tasks, "LiveWriter", Watched)
    with sessions() as session:
        watch(session, ids[0])  # someone has the match's page open
    summary = match_tasks.execute_match(ids[0])
    assert summary.action == "recorded"
    kinds = [kind for batch in written for kind in batch]
    assert kinds[0] == "match"
    assert "play" in kinds
    assert kinds.count("hand_end") >= 1
    with sessions() as session:
        left: Any = session.scalar(select(func.count()).select_from(LiveEventBatch))
    assert left == 0


def test_a_match_no_one_watches_writes_no_live_events(
    settings: Settings, sessions: sessionmaker[Session], monkeypatch: pytest.MonkeyPatch
) -> None:
    _season_id, ids = new_round(sessions)
    writers: list[LiveWriter] = []
    appended: list[int] = []

    class Counted(LiveWriter):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            writers.append(self)

    real_append = match_tasks_live.append_events

    def append(*args: Any, **kwargs: Any) -> int:
        appended.append(1)
        return real_append(*args, **kwargs)

    monkeypatch.setattr(match_tasks, "LiveWriter", Counted)
    monkeypatch.setattr(match_tasks_live, "append_events", append)
    summary = match_tasks.execute_match(ids[0])
    assert summary.action == "recorded"
    [writer] = writers
    assert writer.on_demand and writer.looks >= 1
    assert writer.interval == DEFAULT_INTERVAL  # bots alone: batched (a person's table is not)
    assert appended == []  # not one batch written
