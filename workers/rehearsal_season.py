"""The rehearsal's season and final, set up and driven as beat would: an account and
token per entrant, the default season they join, and the final of the season's top
entrants advanced until it finishes."""

from __future__ import annotations

import time
from collections.abc import Sequence
from datetime import timedelta
from pathlib import Path

from sqlalchemy.orm import Session, sessionmaker

from arena.benchmarks.rehearsal import EntrantPlan
from arena.engine import preset
from arena.seasons import MatchmakingSettings, create_season
from arena.store.accounts import create_user, issue_token
from arena.store.database import write_transaction
from arena.store.models import Season
from arena.store.types import utc_now

from .rehearsal_errors import RehearsalError


def play_final(
    sessions: sessionmaker[Session],
    season_id: int,
    count: int,
    workers: int,
    timeout: float,
    log: Path,
) -> int:
    """The final of the finished season's top `count` (its rules, one match in flight per
    worker), advanced as beat would until it finishes; its id."""
    from arena.seasons.finals import advance_final, create_final, season_finalists

    from .matches import enqueue_matches

    with sessions() as session, write_transaction(session):
        season = session.get(Season, season_id)
        assert season is not None
        bots = season_finalists(session, season_id, count)
        final = create_final(
            session,
            name=f"{season.name} final",
            rules=season.ruleset.rules,
            bots=bots,
            freeze_at=utc_now(),
            worker_share=workers,
            season_id=season_id,
        )
        final_id: int = final.id
    deadline = time.monotonic() + timeout
    while True:
        with sessions() as session:
            report = advance_final(session, final_id)
        if report.released:
            enqueue_matches(list(report.released))
        if final_id in report.finished:
            return final_id
        if time.monotonic() > deadline:
            raise RehearsalError(f"the final did not finish in {timeout:g} s (see {log})")
        time.sleep(0.25)


def accounts(sessions: sessionmaker[Session], plans: Sequence[EntrantPlan]) -> dict[str, str]:
    """One account and API token per entrant (one owner per bot: a table seats one
    version per owner)."""
    tokens = {}
    with sessions() as session, write_transaction(session):
        for plan in plans:
            user = create_user(session, f"owner-{plan.name}", None)
            tokens[plan.name] = issue_token(session, user, "rehearsal")[1]
    return tokens


def default_season(sessions: sessionmaker[Session], hands: int | None) -> int:
    """The season every entrant's first ready version joins: standard rules (to 100, or
    `hands` hands), no house bots, every entrant at a table each round."""
    rules = preset("standard")
    if hands is not None:
        rules = rules.replace(target_score=None, max_hands=hands, moon="old")
    with sessions() as session, write_transaction(session):
        season = create_season(
            session,
            name="rehearsal",
            rules=rules,
            starts_at=utc_now(),
            ends_at=utc_now() + timedelta(days=1),
            cadence=timedelta(seconds=1),
            matchmaking=MatchmakingSettings(fill_with_house=False),
            house_bots=False,
            is_default=True,
        )
        season_id: int = season.id
    return season_id
