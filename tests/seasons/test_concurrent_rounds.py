"""Two beat ticks scheduling the same season at once make one round, on both backends."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select
from sqlalchemy.engine import URL
from sqlalchemy.orm import Session, sessionmaker

from arena.store.models import Match
from tests.store.concurrent import schedule_in_child
from tests.store.factories import NOW, running_season
from tests.store.processes import run_together

pytestmark = pytest.mark.timeout(180)


def test_two_ticks_at_once_schedule_one_round(db_url: URL, sessions: sessionmaker[Session]) -> None:
    with sessions() as session:
        season, _ = running_season(session, 8, house_bots=False)
    url = db_url.render_as_string(hide_password=False)
    reports = run_together(schedule_in_child, [(url, season.id, NOW), (url, season.id, NOW)])
    rounds = sorted(r["round"] for r in reports if r["round"] is not None)
    assert rounds == [1]
    enqueued = [m for r in reports for m in r["enqueued"]]
    with sessions() as session:
        assert session.scalar(select(func.count()).select_from(Match)) == len(enqueued) == 2
