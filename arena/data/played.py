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
import dataclasses
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta

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
from arena.store.results import outcome_result
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


def play_match(
    session: Session, match_id: int, strengths: dict[int, float], *, when: datetime | None = None
) -> tuple[int, float]:
    """Play queued match `match_id` in-process and record it (commits); returns the hands
    played and the runner's CPU seconds."""
    match = session.get(Match, match_id)
    if match is None:
        raise ValueError(f"no match {match_id}")
    rules, seed = match.ruleset.rules, match.seed
    duplicate = match.format is MatchFormat.DUPLICATE
    version_ids = list(
        session.scalars(
            select(MatchSeat.bot_version_id)
            .where(MatchSeat.match_id == match_id)
            .order_by(MatchSeat.seat)
        )
    )
    session.commit()
    entrants = [
        Entrant(
            f"v{v}",
            InProcessSeat(HandicappedBot(strengths[v], (seed ^ (v << 20)) & 0xFFFFFFFF)),
            version=str(v),
        )
        for v in version_ids
    ]
    started = when or utc_now()
    cpu = time.process_time()
    outcome = _run(MatchRunner(rules, entrants, seed, duplicate=duplicate, match_id=str(match_id)))
    cpu = time.process_time() - cpu
    result = outcome_result(outcome, version_ids, started, started + timedelta(seconds=1))
    record_match_result(session, match_id, result)
    hands = result.hands_played
    return hands, cpu


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
) -> PlayedSeason:
    """Create a season of one entrant per strength, play rounds until at least `matches`
    matches are recorded, and finish it (unless `finish` is false). `now` stamps the
    rounds and the matches (a test spreads them over months with it).

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
    while played.matches < matches:
        report = schedule_round(session, played.season_id, lambda ids: None, now=now())
        if not report.match_ids:
            raise ValueError(f"season {name!r}: a round made no tables")
        for match_id in report.match_ids:
            hands, cpu = play_match(session, match_id, played.strengths, when=now())
            played.matches += 1
            played.hands += hands
            played.play_seconds += cpu
        if progress is not None:
            progress(played.matches, matches)
    if finish:
        finish_season(session, played.season_id, now=now())
    return played
