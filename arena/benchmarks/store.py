"""`arena bench store`: one matchmaking round and the top-100 ladder query at scale.

A scratch database (a temporary SQLite file, or a fresh PostgreSQL database created on
the given server and dropped afterwards) is migrated and filled with `versions` ready
bot versions entered in one running season and `matches` recorded matches: their seats,
their rating history (Elo computed with `arena.ratings.elo` in order) and the resulting
ratings, in rounds of one table per version. Then it times:

- `schedule_round` on that season, whole: the three loading queries, matchmaking for every
  version, inserting the round's matches and seats, commit (repeated `rounds` times;
  between repeats the scheduled round is marked done so everyone is eligible again);
- `ladder(season, limit=100)`, repeated `ladder_repeats` times.

The fill goes straight to bulk inserts (recording 100,000 matches one transaction at a
time would take minutes and measure something else).
"""

from __future__ import annotations

import contextlib
import dataclasses
import math
import random
import secrets
import statistics
import tempfile
import time
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Final

from sqlalchemy import Engine, select, text, update
from sqlalchemy.engine import URL
from sqlalchemy.orm import Session

from arena.engine import preset
from arena.ratings.elo import DEFAULT_SETTINGS, EloRating, rate_table
from arena.ratings.uncertainty import DEFAULT_SKILL
from arena.seasons import create_season, schedule_round, start_season
from arena.store import ladder, make_engine, make_sessionmaker, migrate
from arena.store.bulk import insert_rows
from arena.store.database import database_url
from arena.store.models import (
    Archive,
    Bot,
    BotVersion,
    Match,
    MatchSeat,
    MatchStatus,
    Rating,
    RatingChange,
    SeasonEntry,
    User,
    VersionStatus,
)

CHUNK: Final = 5_000
SEASON_NAME: Final = "bench"


@dataclasses.dataclass(frozen=True)
class StoreFigures:
    """What `bench_store` measured (seconds)."""

    backend: str
    versions: int
    matches: int
    fill_seconds: float
    round_seconds: tuple[float, ...]
    round_tables: int
    round_matches: int
    ladder_seconds: tuple[float, ...]

    @property
    def round_median(self) -> float:
        """Median seconds of one matchmaking round."""
        return statistics.median(self.round_seconds)

    @property
    def ladder_median(self) -> float:
        """Median seconds of one top-100 ladder query."""
        return statistics.median(self.ladder_seconds)

    @property
    def ladder_max(self) -> float:
        """Slowest top-100 ladder query (the first, cold, included)."""
        return max(self.ladder_seconds)


@contextlib.contextmanager
def scratch_database(url: str | URL | None) -> Iterator[URL]:
    """A new empty database for the length of the block, then removed.

    `url` None or SQLite: a temporary SQLite file. PostgreSQL: `url` names a server (and a
    database to connect to for administration); a database `arena_scratch_<random>` is
    created there and dropped afterwards.
    """
    chosen = database_url(url) if url is not None else None
    if chosen is None or chosen.get_backend_name() == "sqlite":
        with tempfile.TemporaryDirectory(prefix="arena-bench-") as folder:
            yield database_url(f"sqlite:///{Path(folder) / 'bench.db'}")
        return
    name = f"arena_scratch_{secrets.token_hex(4)}"
    admin = make_engine(chosen, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            connection.execute(text(f'CREATE DATABASE "{name}"'))
        yield chosen.set(database=name)
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def bench_store(
    url: str | URL | None = None,
    *,
    versions: int = 10_000,
    matches: int = 100_000,
    rounds: int = 3,
    ladder_repeats: int = 20,
    seed: int = 1,
) -> StoreFigures:
    """Fill a scratch database (see `scratch_database`) and time a round and the ladder."""
    with scratch_database(url) as scratch:
        migrate.upgrade(scratch)
        engine = make_engine(scratch)
        try:
            return _measure(
                engine,
                versions=versions,
                matches=matches,
                rounds=rounds,
                ladder_repeats=ladder_repeats,
                seed=seed,
            )
        finally:
            engine.dispose()


def _measure(
    engine: Engine,
    *,
    versions: int,
    matches: int,
    rounds: int,
    ladder_repeats: int,
    seed: int,
) -> StoreFigures:
    sessions = make_sessionmaker(engine)
    start = time.perf_counter()
    with sessions() as session:
        season_id = fill(session, versions=versions, matches=matches, seed=seed)
    fill_seconds = time.perf_counter() - start
    round_seconds, tables, scheduled = [], 0, 0
    for _ in range(rounds):
        with sessions() as session:
            start = time.perf_counter()
            report = schedule_round(session, season_id, lambda ids: None)
            round_seconds.append(time.perf_counter() - start)
            tables, scheduled = report.tables, len(report.match_ids)
            session.execute(
                update(Match)
                .where(Match.id.in_(report.match_ids))
                .values(status=MatchStatus.DONE)
                .execution_options(synchronize_session=False)
            )
            session.commit()
    ladder_seconds = []
    with sessions() as session:
        for _ in range(ladder_repeats):
            start = time.perf_counter()
            rows = ladder(session, season_id, limit=100)
            ladder_seconds.append(time.perf_counter() - start)
            assert len(rows) == min(100, versions)
    return StoreFigures(
        backend=engine.dialect.name,
        versions=versions,
        matches=matches,
        fill_seconds=fill_seconds,
        round_seconds=tuple(round_seconds),
        round_tables=tables,
        round_matches=scheduled,
        ladder_seconds=tuple(ladder_seconds),
    )


def _insert(session: Session, model: type[Any], rows: Sequence[dict[str, Any]]) -> None:
    table = model.__table__
    for begin in range(0, len(rows), CHUNK):
        insert_rows(session, table, rows[begin : begin + CHUNK])


def fill(session: Session, *, versions: int, matches: int, seed: int = 1) -> int:
    """Populate an empty, migrated database; returns the running season's id.

    `versions` bot versions (100 per owner), all entered; `matches` done matches of four
    seats in rounds of `versions // 4` tables, rated in order.
    """
    rng = random.Random(seed)
    now = datetime.now(UTC)
    rules = preset("standard")
    season = create_season(
        session,
        name=SEASON_NAME,
        rules=rules,
        starts_at=now - timedelta(days=30),
        ends_at=now + timedelta(days=30),
        cadence=timedelta(minutes=10),
    )
    season_id, ruleset_id = season.id, season.ruleset_id
    session.commit()
    start_season(session, season_id, now=now - timedelta(days=30))
    owners = math.ceil(versions / 100)
    base_user = session.scalar(select(User.id).order_by(User.id.desc())) or 0
    _insert(session, User, [{"username": f"bench{i}", "password_hash": "!"} for i in range(owners)])
    _insert(
        session,
        Archive,
        [{"sha256": f"{i:064x}", "size": 1, "content": b"x"} for i in range(versions)],
    )
    base_bot = session.scalar(select(Bot.id).order_by(Bot.id.desc())) or 0
    _insert(
        session,
        Bot,
        [{"owner_id": base_user + 1 + i // 100, "name": f"bot{i}"} for i in range(versions)],
    )
    base_version = session.scalar(select(BotVersion.id).order_by(BotVersion.id.desc())) or 0
    _insert(
        session,
        BotVersion,
        [
            {
                "bot_id": base_bot + 1 + i,
                "number": 1,
                "archive_sha256": f"{i:064x}",
                "status": VersionStatus.READY,
            }
            for i in range(versions)
        ],
    )
    ids = list(range(base_version + 1, base_version + 1 + versions))
    _insert(session, SeasonEntry, [{"season_id": season_id, "bot_version_id": v} for v in ids])
    _fill_matches(
        session, season_id=season_id, ruleset_id=ruleset_id, ids=ids, count=matches, rng=rng
    )
    session.commit()
    return season_id


def _fill_matches(
    session: Session,
    *,
    season_id: int,
    ruleset_id: int,
    ids: list[int],
    count: int,
    rng: random.Random,
) -> None:
    per_round = max(1, len(ids) // 4)
    elos = {v: EloRating() for v in ids}
    base_match = session.scalar(select(Match.id).order_by(Match.id.desc())) or 0
    match_rows: list[dict[str, Any]] = []
    seat_rows: list[dict[str, Any]] = []
    history_rows: list[dict[str, Any]] = []
    recorded = datetime.now(UTC)
    for number in range(count):
        match_id = base_match + 1 + number
        table = rng.sample(ids, 4)
        places = rng.sample(range(1, 5), 4)
        match_rows.append(
            {
                "season_id": season_id,
                "ruleset_id": ruleset_id,
                "round": 1 + number // per_round,
                "table_number": number % per_round,
                "seed": rng.getrandbits(63),
                "status": MatchStatus.DONE,
                "hands_played": 8,
                "rating_seq": number + 1,
                "recorded_at": recorded,
            }
        )
        after = rate_table([elos[v] for v in table], places, DEFAULT_SETTINGS)
        for seat, (version, place, rating) in enumerate(zip(table, places, after, strict=True)):
            seat_rows.append(
                {
                    "match_id": match_id,
                    "seat": seat,
                    "bot_version_id": version,
                    "score": 26 * place,
                    "rank": place,
                }
            )
            history_rows.append(
                {
                    "match_id": match_id,
                    "season_id": season_id,
                    "bot_version_id": version,
                    "elo_before": elos[version].elo,
                    "elo_after": rating.elo,
                    "mu_after": DEFAULT_SKILL.mu,
                    "sigma_after": DEFAULT_SKILL.sigma,
                    "games_after": rating.games,
                }
            )
            elos[version] = rating
    _insert(session, Match, match_rows)
    _insert(session, MatchSeat, seat_rows)
    _insert(session, RatingChange, history_rows)
    rounds = 1 + (count - 1) // per_round if count else 0
    _insert(
        session,
        Rating,
        [
            {
                "season_id": season_id,
                "bot_version_id": v,
                "elo": r.elo,
                "games": r.games,
                "provisional": r.is_provisional(),
                "mu": DEFAULT_SKILL.mu + (r.elo - 1500.0) / 30.0,
                "sigma": DEFAULT_SKILL.sigma / math.sqrt(1.0 + r.games / 4.0),
            }
            for v, r in elos.items()
        ],
    )
    session.execute(
        text("UPDATE seasons SET round_number = :rounds, rated_matches = :rated WHERE id = :id"),
        {"rounds": rounds, "rated": count, "id": season_id},
    )
    # Fresh planner statistics, as autovacuum would gather after a bulk load this size.
    session.execute(text("ANALYZE"))


def describe(figures: StoreFigures) -> str:
    """The figures as the lines `arena bench store` prints."""
    return "\n".join(
        [
            f"arena bench store — {figures.backend}: {figures.versions:,} bot versions, "
            f"{figures.matches:,} recorded matches (filled in {figures.fill_seconds:.1f} s)",
            f"  matchmaking round ({figures.round_tables:,} tables, {figures.round_matches:,} "
            "matches): median "
            f"{figures.round_median * 1000:.0f} ms, slowest "
            f"{max(figures.round_seconds) * 1000:.0f} ms over {len(figures.round_seconds)} rounds "
            "(limit 1000 ms)",
            f"  top-100 ladder query: median {figures.ladder_median * 1000:.1f} ms, slowest "
            f"{figures.ladder_max * 1000:.1f} ms over {len(figures.ladder_seconds)} queries "
            "(limit 50 ms)",
        ]
    )
