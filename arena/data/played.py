"""A season played by the real match runner and stored by the store, without workers:
what the open data's tests and `arena bench export` / `arena bench baseline` read.

Each entrant is a bot version in the store (its own owner, an archive of its own) played
in-process by `HandicappedBot(strength)` (`arena.benchmarks.ratings`: the heuristic house
bot with probability `strength`, else a random legal move), so the field has a known true
order. Rounds are made by the season's own matchmaking (`schedule_round`); each match is
played by `MatchRunner` exactly as a worker plays one (the same replay v2, the same
duplicate rotations) and recorded with `record_match_result`, in its own transaction,
rated in order. The season is finished with `finish_season` when asked.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import multiprocessing
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from arena.benchmarks.ratings import HandicappedBot
from arena.engine import Rules, preset
from arena.match.runner import Entrant, MatchOutcome, MatchRunner
from arena.match.seats import InProcessSeat
from arena.seasons import (
    MatchmakingSettings,
    create_season,
    enter_season,
    finish_season,
    schedule_round,
    start_season,
)
from arena.store import record_match_result, write_transaction
from arena.store.accounts import create_user
from arena.store.bots import add_version, create_bot, set_version_status
from arena.store.models import Match, MatchFormat, MatchSeat, VersionStatus
from arena.store.results import MatchResult, outcome_result
from arena.store.types import utc_now


@dataclasses.dataclass
class PlayedSeason:
    """What `play_season` made: the season, its entrants' strengths by version, and the
    CPU seconds the runner took to play its matches (recording not counted)."""

    season_id: int
    strengths: dict[int, float]
    matches: int = 0
    hands: int = 0
    play_seconds: float = 0.0


def _run(runner: MatchRunner) -> MatchOutcome:
    """Run the match; in a thread of its own when this one already runs an event loop
    (as it does under Playwright's synchronous API)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return runner.run()
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(runner.run).result()


@dataclasses.dataclass(frozen=True)
class _Table:
    """What playing one queued match needs, read from the store, in plain values (its
    rules as `Rules.to_dict`) so that a child process can be sent it."""

    match_id: int
    rules: dict[str, Any]
    seed: int
    duplicate: bool
    version_ids: tuple[int, ...]
    strengths: tuple[float, ...]


def _read_table(session: Session, match_id: int, strengths: dict[int, float]) -> _Table:
    """Queued match `match_id`'s rules, seed, format and seats (ends the read
    transaction). Raises ValueError for no such match."""
    match = session.get(Match, match_id)
    if match is None:
        raise ValueError(f"no match {match_id}")
    version_ids = tuple(
        session.scalars(
            select(MatchSeat.bot_version_id)
            .where(MatchSeat.match_id == match_id)
            .order_by(MatchSeat.seat)
        )
    )
    table = _Table(
        match_id,
        match.ruleset.rules.to_dict(),
        match.seed,
        match.format is MatchFormat.DUPLICATE,
        version_ids,
        tuple(strengths[v] for v in version_ids),
    )
    session.commit()
    return table


def _play_table(table: _Table) -> tuple[MatchResult, float]:
    """Play `table` in this process (each seat `HandicappedBot(strength)`, seeded by the
    match's seed and its version): its result as the store records it (the replay
    compressed; its times are the recorder's to set) and the runner's CPU seconds."""
    entrants = [
        Entrant(
            f"v{v}",
            InProcessSeat(HandicappedBot(strength, (table.seed ^ (v << 20)) & 0xFFFFFFFF)),
            version=str(v),
        )
        for v, strength in zip(table.version_ids, table.strengths, strict=True)
    ]
    rules = Rules.from_dict(table.rules)
    cpu = time.process_time()
    runner = MatchRunner(
        rules, entrants, table.seed, duplicate=table.duplicate, match_id=str(table.match_id)
    )
    outcome = _run(runner)
    cpu = time.process_time() - cpu
    unset = datetime.min.replace(tzinfo=UTC)
    return outcome_result(outcome, table.version_ids, unset, unset), cpu


def _record(session: Session, table: _Table, result: MatchResult, started: datetime) -> int:
    """Record `result` as `table`'s, started at `started` and a second long (commits); the
    hands played."""
    finished = started + timedelta(seconds=1)
    timed = dataclasses.replace(result, started_at=started, finished_at=finished)
    record_match_result(session, table.match_id, timed)
    return result.hands_played


def play_match(
    session: Session, match_id: int, strengths: dict[int, float], *, when: datetime | None = None
) -> tuple[int, float]:
    """Play queued match `match_id` in-process and record it (commits); returns the hands
    played and the runner's CPU seconds."""
    table = _read_table(session, match_id, strengths)
    started = when or utc_now()
    result, cpu = _play_table(table)
    return _record(session, table, result, started), cpu


def play_season(
    session: Session,
    *,
    name: str,
    strengths: Sequence[float],
    matches: int,
    duplicate_sets: bool = False,
    rules: Rules | None = None,
    finish: bool = True,
    now: Callable[[], datetime] = utc_now,
    progress: Callable[[int, int], None] | None = None,
    processes: int = 1,
) -> PlayedSeason:
    """Create a season of one entrant per strength, play rounds until at least `matches`
    matches are recorded, and finish it (unless `finish` is false). `now` stamps the
    rounds and the matches (a test spreads them over months with it).

    With `processes` above 1, each round's tables are played by that many child
    processes while this one records them, in the round's order (a match is determined
    by its table: the same season either way). `play_seconds` is then the children's
    runner CPU, as it is this process's with one.

    Raises SeasonError for a taken name; ValueError for fewer strengths than seats.
    """
    rules = rules or preset("standard")
    if len(strengths) < rules.players:
        raise ValueError(f"{len(strengths)} entrants cannot fill a table of {rules.players}")
    start = now()
    with write_transaction(session):
        season = create_season(
            session,
            name=name,
            rules=rules,
            starts_at=start - timedelta(hours=1),
            ends_at=start + timedelta(days=3650),
            cadence=timedelta(seconds=1),
            matchmaking=MatchmakingSettings(duplicate_sets=duplicate_sets, fill_with_house=False),
            house_bots=False,
        )
        played = PlayedSeason(season.id, {})
        for i, strength in enumerate(strengths):
            user = create_user(session, f"{name}-owner{i}", None)
            bot = create_bot(session, user, f"skill-{round(strength * 100)}-{i}")
            source = f"# {name}: HandicappedBot({strength}), entrant {i}\n".encode()
            version = add_version(session, bot, source)
            set_version_status(session, version, VersionStatus.VALIDATING)
            set_version_status(session, version, VersionStatus.READY)
            enter_season(session, season, version)
            played.strengths[version.id] = strength
    start_season(session, played.season_id, now=start - timedelta(minutes=30))
    with contextlib.ExitStack() as stack:
        pool = None
        if processes > 1:
            context = multiprocessing.get_context("spawn")  # no fork of threads or engines
            pool = ProcessPoolExecutor(processes, mp_context=context)
            # Stopped (Ctrl-C, or SIGTERM made SystemExit): the round's unplayed tables are
            # dropped, not played out first, and the players end with the bench.
            stack.callback(pool.shutdown, wait=True, cancel_futures=True)
        while played.matches < matches:
            report = schedule_round(session, played.season_id, lambda ids: None, now=now())
            if not report.match_ids:
                raise ValueError(f"season {name!r}: a round made no tables")
            tables = [_read_table(session, i, played.strengths) for i in report.match_ids]
            outcomes = map(_play_table, tables) if pool is None else pool.map(_play_table, tables)
            for table, (result, cpu) in zip(tables, outcomes, strict=True):
                played.hands += _record(session, table, result, now())
                played.matches += 1
                played.play_seconds += cpu
            if progress is not None:
                progress(played.matches, matches)
    if finish:
        finish_season(session, played.season_id, now=now())
    return played
