"""What a fresh platform starts with: the house bots, demo players, and a demo season.

The demo season is the platform's *default season*: a contestant's first ready bot joins
it unless they opt out at upload (`arena.seasons.entries`).

Idempotent: run again, it finds what it made and carries on (a demo season that has
ended is followed by the next, with the same players). The demo players are the
platform's own code (trusted house manifests, run in-process) owned by their own account,
`demo`, and play and rank as ordinary entrants; the `house` account's bots only fill empty
seats and never take a rank, so a season of house bots alone would never play. Two owners
keep the two words apart on every page and in the API (`is_house`, `is_demo`).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Final

from sqlalchemy import select
from sqlalchemy.orm import Session

from arena.engine import Rules, preset
from arena.seasons import MatchmakingSettings, create_next_season, create_season, enter_season
from arena.store.accounts import UNUSABLE_PASSWORD, create_user
from arena.store.bots import (
    DEMO_USERNAME,
    add_version,
    create_bot,
    ensure_house_bots,
    house_manifest,
    set_version_status,
)
from arena.store.database import write_transaction
from arena.store.models import Bot, BotVersion, Season, SeasonStatus, User, VersionStatus
from arena.store.types import utc_now

DEMO_SEASON: Final = "Demo season"
DEMO_PLAYERS: Final = (("heuristic", 3), ("random", 2), ("strong", 2), ("expert", 1))
"""(house bot, how many) of the demo season's players: eight, two tables a round; the
expert, the newest house bot (measured level with strong so far), plays ranked beside them."""


def ensure_demo_players(
    session: Session, players: Sequence[tuple[str, int]] = DEMO_PLAYERS
) -> list[BotVersion]:
    """The demo players' ready versions, made if missing (flushes; the caller commits).

    `players`: (house bot, how many) pairs.
    """
    ensure_house_bots(session)
    demo = demo_account(session)
    versions = []
    for kind, count in players:
        for index in range(1, count + 1):
            name = f"demo-{kind}-{index}"
            bot = session.scalars(
                select(Bot).where(Bot.owner_id == demo.id, Bot.name == name)
            ).one_or_none() or create_bot(session, demo, name, trusted=True)
            version = session.scalars(
                select(BotVersion).where(BotVersion.bot_id == bot.id, BotVersion.number == 1)
            ).one_or_none()
            if version is None:
                version = add_version(session, bot, house_manifest(kind, 100 + index))
                set_version_status(session, version, VersionStatus.VALIDATING)
                set_version_status(session, version, VersionStatus.READY, reason="demo player")
            versions.append(version)
    return versions


def demo_account(session: Session) -> User:
    """The `demo` account that owns the demo players, made if missing (no one can sign in
    to it). Raises RuntimeError when a person already holds the name: the platform's bots
    are not given to them."""
    demo = session.scalars(select(User).where(User.username == DEMO_USERNAME)).one_or_none()
    if demo is None:
        return create_user(session, DEMO_USERNAME, None)
    if demo.password_hash != UNUSABLE_PASSWORD:
        raise RuntimeError(
            f"the account {DEMO_USERNAME!r} belongs to a person (it has a password), so the"
            " demo players cannot be seeded under it; rename that account first"
        )
    return demo


def ensure_demo_season(
    session: Session,
    *,
    now: datetime | None = None,
    cadence: timedelta = timedelta(seconds=30),
    length: timedelta = timedelta(days=7),
    rules: Rules | None = None,
    players: Sequence[tuple[str, int]] = DEMO_PLAYERS,
    name: str = DEMO_SEASON,
) -> int:
    """The id of a demo season that is running or about to (its own transaction).

    Creates the house bots, the demo players and the first demo season if missing; after
    a demo season has ended, the next one, starting now.
    """
    when = now or utc_now()
    with write_transaction(session):
        versions = ensure_demo_players(session, players)
        latest = session.scalars(
            select(Season).where(Season.name.startswith(name)).order_by(Season.id.desc())
        ).first()
        if latest is None:
            season = create_season(
                session,
                name=f"{name} 1",
                rules=rules or preset("standard"),
                starts_at=when,
                ends_at=when + length,
                cadence=cadence,
                matchmaking=MatchmakingSettings(),
            )
        elif latest.status is SeasonStatus.FINISHED or latest.ends_at <= when:
            season = create_next_season(
                session,
                latest.id,
                name=f"{name} {_next_number(latest.name)}",
                starts_at=when,
                ends_at=when + length,
            )
        else:
            season = latest
        season.is_default = True
        for version in versions:
            enter_season(session, season, version, replace_previous=False)
        return season.id


def _next_number(name: str) -> int:
    """The number after the one ending `name`.

    >>> _next_number("Demo season 3"), _next_number("Demo season")
    (4, 2)
    """
    last = name.rsplit(" ", 1)[-1]
    return int(last) + 1 if last.isdigit() else 2
