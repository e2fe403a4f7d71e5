"""Small builders for store and season tests: users, ready versions, seasons, matches, results."""

from __future__ import annotations

import gzip
import json
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

from sqlalchemy.orm import Session

from arena.engine import Rules, preset
from arena.ratings.elo import places_from_scores
from arena.seasons import MatchmakingSettings, create_season, enter_season
from arena.store.accounts import create_user
from arena.store.bots import add_version, create_bot, set_version_status
from arena.store.models import (
    BotVersion,
    Match,
    MatchSeat,
    Season,
    SeasonStatus,
    User,
    VersionStatus,
)
from arena.store.results import MatchResult, SeatResult

NOW = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)


def owner(session: Session, name: str = "alice") -> User:
    """A user (no password: tests never log in)."""
    return create_user(session, name, None)


def ready_version(session: Session, user: User, name: str, code: bytes | None = None) -> BotVersion:
    """A new bot with one version, validated and ready."""
    bot = create_bot(session, user, name)
    version = add_version(session, bot, code or f"print({name!r})".encode())
    set_version_status(session, version, VersionStatus.VALIDATING)
    return set_version_status(session, version, VersionStatus.READY)


def running_season(
    session: Session,
    entrants: int,
    *,
    name: str = "spring",
    rules: Rules | None = None,
    matchmaking: MatchmakingSettings | None = None,
    house_bots: bool = True,
) -> tuple[Season, list[BotVersion]]:
    """A running season (started an hour before NOW) with `entrants` ready versions, each
    of its own owner (two versions of one owner never share a rated table); commits."""
    season = create_season(
        session,
        name=name,
        rules=rules or preset("standard"),
        starts_at=NOW - timedelta(hours=1),
        ends_at=NOW + timedelta(days=7),
        cadence=timedelta(minutes=10),
        matchmaking=matchmaking,
        house_bots=house_bots,
    )
    versions = [
        ready_version(session, owner(session, f"{name}-owner{i}"), f"{name}-bot{i}")
        for i in range(entrants)
    ]
    for version in versions:
        enter_season(session, season, version)
    season.status = SeasonStatus.RUNNING
    season.started_at = NOW - timedelta(hours=1)
    session.commit()
    return season, versions


def queued_match(
    session: Session, season: Season, versions: Sequence[BotVersion], seed: int = 7
) -> Match:
    """A queued match of `season` with `versions` in seat order; commits."""
    match = Match(
        season_id=season.id,
        ruleset_id=season.ruleset_id,
        seed=seed,
        seats=[MatchSeat(seat=i, bot_version_id=v.id) for i, v in enumerate(versions)],
    )
    session.add(match)
    session.commit()
    return match


def replay_bytes(match_id: int) -> bytes:
    """A small gzip-compressed JSON document standing in for a replay."""
    return gzip.compress(json.dumps({"format": 1, "match": match_id}).encode())


def result_for(
    version_ids: Sequence[int],
    scores: Sequence[int],
    *,
    match_id: int = 0,
    void: bool = False,
    disqualified: Sequence[int] = (),
    faults: Sequence[int] = (),
) -> MatchResult:
    """A result with Hearts places from `scores` (lowest first) and a replay."""
    places = places_from_scores(scores)
    return MatchResult(
        seats=tuple(
            SeatResult(
                bot_version_id=version_id,
                score=score,
                rank=place,
                faults=faults[i] if faults else 0,
                disqualified=i in disqualified,
                hand_points=(score,),
            )
            for i, (version_id, score, place) in enumerate(
                zip(version_ids, scores, places, strict=True)
            )
        ),
        hands_played=1,
        replay=replay_bytes(match_id),
        started_at=NOW,
        finished_at=NOW + timedelta(minutes=2),
        void=void,
        reason="test void" if void else None,
    )
