"""The platform writes its open data itself: beat's `publish_open_data` task writes the dump
of a finished season and of a running ladder's ended months into the folder the site
serves, once; a dump another run is writing is left to it (SQLite and PostgreSQL)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import func, select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session, sessionmaker

from arena.data.check import check_dump
from arena.data.played import play_season
from arena.store.models import DataExport, Match, MatchStatus
from tests.workers.processes import Processes, wait_until
from tests.workers.test_integration import env, private_redis, procs, wait_for_workers
from workers import opendata
from workers.app import OPEN_DATA, app, celery_config
from workers.config import Settings

__all__ = ["env", "private_redis", "procs"]  # the platform fixtures, used here too

STRENGTHS = (0.0, 0.4, 0.7, 1.0, 0.2)


def clock(start: datetime, step: timedelta) -> Callable[[], datetime]:
    times: Iterator[datetime] = (start + i * step for i in range(10**6))
    return lambda: next(times)


def test_beat_asks_for_open_data_on_the_default_queue(settings: Settings) -> None:
    config = celery_config(settings)
    assert any(entry["task"] == OPEN_DATA for entry in config["beat_schedule"].values())
    assert OPEN_DATA not in config["task_routes"]  # the default queue, not "matches"
    assert OPEN_DATA in app.tasks


def test_finished_seasons_and_ended_months_are_written_once(
    settings: Settings, session: Session
) -> None:
    finished = play_season(session, name="done", strengths=STRENGTHS, matches=4)
    ladder = play_season(
        session,
        name="ladder",
        strengths=STRENGTHS,
        matches=8,
        finish=False,
        now=clock(datetime(2026, 9, 30, 16, tzinfo=UTC), timedelta(hours=3)),
    )
    months: dict[str, int] = {}
    for finished_at in session.scalars(
        select(Match.finished_at).where(
            Match.season_id == ladder.season_id, Match.status == MatchStatus.DONE
        )
    ):
        assert finished_at is not None
        month = finished_at.astimezone(UTC).strftime("%Y-%m")
        months[month] = months.get(month, 0) + 1
    assert set(months) == {"2026-09", "2026-10"}
    session.rollback()

    summary = opendata.publish_open_data()

    expected = [f"season-{finished.season_id}"] + [
        f"season-{ladder.season_id}-{month}" for month in sorted(months)
    ]
    assert sorted(summary["written"]) == sorted(expected)
    root = settings.data_dir / "open-data"
    checked = check_dump(root / f"season-{finished.season_id}")
    assert checked.matches == finished.matches and checked.table_rows == finished.hands
    for month, count in months.items():
        assert check_dump(root / f"season-{ladder.season_id}-{month}").matches == count
    with session.begin():
        assert session.scalar(select(func.count()).select_from(DataExport)) == 3
        assert (
            session.scalar(
                select(DataExport.period).where(DataExport.season_id == ladder.season_id).limit(1)
            )
            in months
        )
    # the ladder's whole-season dump waits for its end; nothing is written twice
    again = opendata.publish_open_data()
    assert again == {"written": [], "busy": [], "failed": []}


def test_a_month_not_over_is_not_written(settings: Settings, session: Session) -> None:
    start = datetime(2026, 9, 30, 16, tzinfo=UTC)
    ladder = play_season(
        session,
        name="young",
        strengths=STRENGTHS,
        matches=8,
        finish=False,
        now=clock(start, timedelta(hours=3)),
    )
    session.rollback()
    due = opendata.due_dumps(session, now=datetime(2026, 10, 15, tzinfo=UTC))
    assert due == [opendata.Due(ladder.season_id, "2026-09")]


def test_a_dump_another_run_is_writing_is_left_to_it(settings: Settings, session: Session) -> None:
    finished = play_season(session, name="held", strengths=STRENGTHS, matches=4)
    session.rollback()
    root = settings.data_dir / "open-data"
    name = f"season-{finished.season_id}"
    with opendata.dump_lock(root, name) as held:
        assert held
        with opendata.dump_lock(root, name) as second:
            assert not second  # a second holder is refused, not made to wait
        summary = opendata.publish_open_data()
        assert summary == {"written": [], "busy": [name], "failed": []}
        assert not (root / name).exists()
    with session.begin():
        assert session.scalar(select(func.count()).select_from(DataExport)) == 0
    assert opendata.publish_open_data()["written"] == [name]


def test_on_postgresql_a_run_on_another_host_holds_the_dump_too(
    settings: Settings, session: Session, engine: Engine, tmp_path: Path
) -> None:
    if engine.dialect.name != "postgresql":
        pytest.skip("SQLite is one host's database: the folder's lock is the lock there")
    finished = play_season(session, name="elsewhere", strengths=STRENGTHS, matches=4)
    session.rollback()
    name = f"season-{finished.season_id}"
    other_host = tmp_path / "another-hosts-open-data"  # not this worker's folder
    with opendata.dump_lock(other_host, name, engine) as held:
        assert held
        assert opendata.publish_open_data()["busy"] == [name]
    assert opendata.publish_open_data()["written"] == [name]


def test_two_real_workers_asked_at_once_write_one_dump(
    env: dict[str, str], procs: Processes, sessions: sessionmaker[Session]
) -> None:
    with sessions() as session:
        finished = play_season(session, name="platform", strengths=STRENGTHS, matches=6)
    procs.worker("w1", env)
    procs.worker("w2", env)
    wait_for_workers(sessions, "w1", "w2")
    for _ in range(4):  # on the default queue, as beat sends it
        app.send_task(OPEN_DATA, queue="default")

    def dumps() -> list[tuple[str, int]]:
        with sessions() as session:
            return [
                (row.folder, row.matches)
                for row in session.scalars(
                    select(DataExport).where(DataExport.season_id == finished.season_id)
                )
            ]

    name = f"season-{finished.season_id}"
    assert wait_until(dumps, 120, "the dump's row") == [(name, finished.matches)]
    root = Path(env["ARENA_DATA_DIR"]) / "open-data"
    assert check_dump(root / name).matches == finished.matches
    runs = [
        entry
        for process in procs.started
        for entry in process.log_entries()
        if entry.get("msg") == "open data published"
    ]
    assert sum(name in entry.get("written", []) for entry in runs) == 1
    assert sorted(p.name for p in root.iterdir() if not p.name.startswith(".")) == [name]
