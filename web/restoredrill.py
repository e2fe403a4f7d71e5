"""`arena bench restore-drill`: the PostgreSQL backup and restore of docs/operations.md
("Backups and restore"), timed at a season's scale.

A scratch database on the given server is filled as `arena bench web` fills it (10,000
bot versions and 100,000 rated matches by default: `arena.benchmarks.store.fill`), dumped
with ``pg_dump --format=custom``, restored with ``pg_restore`` into a second new database,
and checked: the migrations at head, every table's row count equal, and the season's
ladder page served from the restored database equal to the original's. Both databases are
dropped at the end. Prints the dump's size and each step's wall time.
"""

from __future__ import annotations

import dataclasses
import shutil
import subprocess
import time
from pathlib import Path
from tempfile import TemporaryDirectory

from sqlalchemy import func, inspect, select, table
from sqlalchemy.engine import URL

from arena.store import make_engine, make_sessionmaker, migrate
from arena.store.database import database_url


@dataclasses.dataclass(frozen=True)
class DrillFigures:
    versions: int
    matches: int
    rows: int
    tables: int
    dump_bytes: int
    fill_seconds: float
    dump_seconds: float
    restore_seconds: float
    check_seconds: float
    jobs: int


def _libpq(url: URL) -> str:
    return url.set(drivername="postgresql").render_as_string(hide_password=False)


def _counts(url: URL) -> dict[str, int]:
    engine = make_engine(url)
    try:
        with engine.connect() as connection:
            return {
                name: int(connection.scalar(select(func.count()).select_from(table(name))) or 0)
                for name in inspect(engine).get_table_names()
            }
    finally:
        engine.dispose()


def _ladder(url: URL, season_id: int) -> str:
    from . import create_app
    from .database import dispose

    app = create_app(
        {"DATABASE_URL": url.render_as_string(hide_password=False), "SECRET_KEY": "drill"}
    )
    try:
        answer = app.test_client().get(f"/seasons/{season_id}/ladder")
        if answer.status_code != 200:
            raise RuntimeError(f"the ladder answered {answer.status_code}")
        return answer.get_data(as_text=True)
    finally:
        dispose(app)


def tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise RuntimeError(f"{name} is not installed (Debian: apt-get install postgresql-client)")
    return found


def restore_drill(url: str, *, versions: int, matches: int, jobs: int = 1) -> DrillFigures:
    """The drill on the PostgreSQL server of `url` (see the module)."""
    from arena.benchmarks.store import fill, scratch_database

    server = database_url(url)
    if server.get_backend_name() != "postgresql":
        raise ValueError("the restore drill is PostgreSQL's: give a postgresql:// URL")
    pg_dump, pg_restore = tool("pg_dump"), tool("pg_restore")
    with (
        scratch_database(server) as source,
        scratch_database(server) as target,
        TemporaryDirectory(prefix="arena-drill-") as folder,
    ):
        started = time.perf_counter()
        migrate.upgrade(source)
        engine = make_engine(source)
        try:
            with make_sessionmaker(engine)() as session:
                season_id = fill(session, versions=versions, matches=matches)
        finally:
            engine.dispose()
        fill_seconds = time.perf_counter() - started
        counts = _counts(source)
        ladder = _ladder(source, season_id)

        dump = Path(folder) / "arena.dump"
        started = time.perf_counter()
        subprocess.run(
            [pg_dump, "--format=custom", "--no-owner", "--file", str(dump), _libpq(source)],
            check=True,
        )
        dump_seconds = time.perf_counter() - started
        started = time.perf_counter()
        restore = [pg_restore, "--no-owner", "--no-privileges", "--exit-on-error"]
        restore += ["--single-transaction"] if jobs == 1 else [f"--jobs={jobs}"]
        subprocess.run([*restore, "--dbname", _libpq(target), str(dump)], check=True)
        restore_seconds = time.perf_counter() - started

        started = time.perf_counter()
        if migrate.current(target) != migrate.head():
            raise RuntimeError("the restored database is not at the migrations' head")
        if _counts(target) != counts:
            raise RuntimeError("the restored tables' row counts differ")
        if _ladder(target, season_id) != ladder:
            raise RuntimeError("the restored site's ladder page differs")
        check_seconds = time.perf_counter() - started
        return DrillFigures(
            versions,
            matches,
            sum(counts.values()),
            len(counts),
            dump.stat().st_size,
            fill_seconds,
            dump_seconds,
            restore_seconds,
            check_seconds,
            jobs,
        )


def describe(figures: DrillFigures) -> str:
    return "\n".join(
        [
            f"restore drill: {figures.versions} versions, {figures.matches} matches "
            f"({figures.rows} rows in {figures.tables} tables; filled in "
            f"{figures.fill_seconds:.1f} s)",
            f"  pg_dump --format=custom   {figures.dump_seconds:6.1f} s  "
            f"({figures.dump_bytes / 1e6:.1f} MB)",
            f"  pg_restore (jobs {figures.jobs})      {figures.restore_seconds:6.1f} s",
            f"  checks                    {figures.check_seconds:6.1f} s  (migrations at head, "
            "row counts, the ladder page equal)",
        ]
    )
