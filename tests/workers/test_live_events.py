"""The match task writes its live events as it plays and deletes them once the match is
stored (its replay says it all). SQLite and PostgreSQL, as the other task tests."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from arena.store.live import LiveEventBatch, LiveWriter
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
    summary = match_tasks.execute_match(ids[0])
    assert summary.action == "recorded"
    kinds = [kind for batch in written for kind in batch]
    assert kinds[0] == "match"
    assert "play" in kinds
    assert kinds.count("hand_end") >= 1
    with sessions() as session:
        left: Any = session.scalar(select(func.count()).select_from(LiveEventBatch))
    assert left == 0
