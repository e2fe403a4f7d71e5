"""A season's life: scheduled → running → finished (results frozen), and the next one.

- `create_season` stores the full `Rules`, the window, the round cadence and the
  matchmaking settings, status *scheduled* (house bots entered unless asked not to).
- `enter_season` adds a ready bot version; a newer version of the same bot replaces the
  older one in matchmaking and on the ladder (the old rating stays in the history).
- `start_season` (at `starts_at`) makes it *running*: rounds are scheduled, results rated.
- `finish_season` (at `ends_at`) makes it *finished*: queued matches are voided, each
  entry's Elo and games are frozen, its final place, interval and tie group come from
  one batch fit over the season's games (`arena.store.standings`), and nothing is rated
  any more (a match still running then is stored, unrated).
- `create_next_season` copies a season as the template of the next: same rules, cadence,
  matchmaking, default flag and (by default) the entries still ready; ratings start afresh.

`advance_seasons` is what the beat schedule calls: it starts and finishes what is due and
schedules every due round (`arena.seasons.rounds`).

Functions that change a season's status run their own transaction and lock the season
row, so two beat ticks at once cannot start, finish or schedule it twice.
"""

from __future__ import annotations

import dataclasses
from datetime import datetime, timedelta

from sqlalchemy import ColumnElement, select, update
from sqlalchemy.orm import Session

from arena.engine import Rules
from arena.store.bots import ensure_house_bots
from arena.store.database import write_transaction
from arena.store.models import (
    Bot,
    BotVersion,
    Match,
    MatchStatus,
    Rating,
    Season,
    SeasonEntry,
    SeasonStatus,
    VersionStatus,
)
from arena.store.rulesets import store_ruleset
from arena.store.standings import freeze_standings
from arena.store.types import utc_now

from .errors import SeasonError
from .matchmaking import MatchmakingSettings
from .rounds import Enqueue, RoundReport, lock_season, schedule_round


def create_season(
    session: Session,
    *,
    name: str,
    rules: Rules,
    starts_at: datetime,
    ends_at: datetime,
    cadence: timedelta,
    matchmaking: MatchmakingSettings | None = None,
    template: Season | None = None,
    house_bots: bool = True,
    is_default: bool = False,
) -> Season:
    """A new scheduled season (flushes; the caller commits). `is_default`: the season a
    contestant's first ready bot joins (`arena.seasons.entries.default_season`).

    Raises SeasonError for a taken name, an empty window or a cadence under a second.
    """
    if ends_at <= starts_at:
        raise SeasonError(f"season {name!r} ends ({ends_at}) before it starts ({starts_at})")
    if cadence < timedelta(seconds=1):
        raise SeasonError(f"season {name!r}: cadence {cadence} is under a second")
    if session.scalar(select(Season.id).where(Season.name == name)) is not None:
        raise SeasonError(f"a season named {name!r} exists")
    season = Season(
        name=name,
        ruleset=store_ruleset(session, rules),
        players=rules.players,
        starts_at=starts_at,
        ends_at=ends_at,
        cadence_seconds=int(cadence.total_seconds()),
        matchmaking=(matchmaking or MatchmakingSettings()).to_dict(),
        status=SeasonStatus.SCHEDULED,
        template=template,
        is_default=is_default,
    )
    session.add(season)
    session.flush()
    if house_bots:
        for version in ensure_house_bots(session, per_kind=max(3, rules.players - 1)):
            enter_season(session, season, version, replace_previous=False)
    return season


def enter_season(
    session: Session, season: Season, version: BotVersion, *, replace_previous: bool = True
) -> SeasonEntry:
    """Enter a ready `version` (flushes); with `replace_previous` the bot's other versions
    leave matchmaking and the ladder. Entering again reactivates the entry.

    Raises SeasonError when the season is finished or the version is not ready.
    """
    if season.status is SeasonStatus.FINISHED:
        raise SeasonError(f"season {season.name!r} is finished")
    if version.status is not VersionStatus.READY:
        raise SeasonError(f"bot version {version.id} is {version.status.value}, not ready")
    if replace_previous:
        others = select(BotVersion.id).where(
            BotVersion.bot_id == version.bot_id, BotVersion.id != version.id
        )
        session.execute(
            update(SeasonEntry)
            .where(SeasonEntry.season_id == season.id, SeasonEntry.bot_version_id.in_(others))
            .values(active=False)
        )
    entry = session.scalars(
        select(SeasonEntry).where(
            SeasonEntry.season_id == season.id, SeasonEntry.bot_version_id == version.id
        )
    ).one_or_none()
    if entry is None:
        entry = SeasonEntry(season=season, bot_version=version, active=True)
        session.add(entry)
    entry.active = True
    session.flush()
    return entry


def withdraw(session: Session, season: Season, version: BotVersion) -> None:
    """Take `version` out of the season's matchmaking and ladder (flushes)."""
    session.execute(
        update(SeasonEntry)
        .where(SeasonEntry.season_id == season.id, SeasonEntry.bot_version_id == version.id)
        .values(active=False)
    )
    session.flush()


def start_season(session: Session, season_id: int, *, now: datetime | None = None) -> bool:
    """scheduled → running (own transaction); False if it was not scheduled."""
    with write_transaction(session):
        season = lock_season(session, season_id)
        if season.status is not SeasonStatus.SCHEDULED:
            return False
        season.status = SeasonStatus.RUNNING
        season.started_at = now or utc_now()
        return True


def finish_season(session: Session, season_id: int, *, now: datetime | None = None) -> bool:
    """running (or scheduled) → finished, freezing the results (own transaction).

    Queued matches become void; every entry gets its final Elo and games, and the active
    entries their final place (house bots, which only fill seats, get none). False if
    the season was already finished.
    """
    when = now or utc_now()
    with write_transaction(session):
        season = lock_season(session, season_id)
        if season.status is SeasonStatus.FINISHED:
            return False
        session.execute(
            update(Match)
            .where(Match.season_id == season_id, Match.status == MatchStatus.QUEUED)
            .values(status=MatchStatus.VOID, status_reason="the season finished first")
        )
        rows = session.execute(
            select(SeasonEntry, Rating.elo, Rating.games, Bot.is_house)
            .join(BotVersion, BotVersion.id == SeasonEntry.bot_version_id)
            .join(Bot, Bot.id == BotVersion.bot_id)
            .outerjoin(
                Rating,
                (Rating.season_id == SeasonEntry.season_id)
                & (Rating.bot_version_id == SeasonEntry.bot_version_id),
            )
            .where(SeasonEntry.season_id == season_id)
        ).all()
        ranked = sorted(
            (row for row in rows if row[0].active and row[1] is not None and not row[3]),
            key=lambda row: (-row[1], -row[0].bot_version_id),
        )
        for entry, elo, games, _house in rows:
            entry.final_elo = elo
            entry.final_games = games or 0
        # the final order: one batch fit over the season's games (docs/ratings.md)
        season.final_report = freeze_standings(
            session,
            season_id,
            [row[0] for row in rows],
            [row[0].bot_version_id for row in ranked],
        )
        season.status = SeasonStatus.FINISHED
        season.finished_at = when
        return True


def create_next_season(
    session: Session,
    template_id: int,
    *,
    name: str,
    starts_at: datetime,
    ends_at: datetime | None = None,
    rules: Rules | None = None,
    carry_entries: bool = True,
) -> Season:
    """A scheduled season copied from `template_id` (flushes; the caller commits).

    Same rules (unless `rules` is given), cadence and matchmaking; the same length unless
    `ends_at` is given; the template's active entries that are still ready, when
    `carry_entries`. Ratings are not carried: every version starts the season afresh.
    """
    template = session.get(Season, template_id)
    if template is None:
        raise SeasonError(f"no season {template_id}")
    season = create_season(
        session,
        name=name,
        rules=rules or template.ruleset.rules,
        starts_at=starts_at,
        ends_at=ends_at or starts_at + (template.ends_at - template.starts_at),
        cadence=timedelta(seconds=template.cadence_seconds),
        matchmaking=MatchmakingSettings.from_dict(template.matchmaking),
        template=template,
        is_default=template.is_default,
    )
    if carry_entries:
        versions = session.scalars(
            select(BotVersion)
            .join(SeasonEntry, SeasonEntry.bot_version_id == BotVersion.id)
            .join(Bot, Bot.id == BotVersion.bot_id)
            .where(
                SeasonEntry.season_id == template_id,
                SeasonEntry.active.is_(True),
                BotVersion.status == VersionStatus.READY,
                Bot.is_house.is_(False),
            )
            .order_by(BotVersion.id)
        )
        for version in versions:
            enter_season(session, season, version, replace_previous=False)
    return season


@dataclasses.dataclass(frozen=True)
class AdvanceReport:
    """What one `advance_seasons` call did."""

    started: tuple[int, ...]
    finished: tuple[int, ...]
    rounds: tuple[RoundReport, ...]


def advance_seasons(
    session: Session, enqueue: Enqueue, *, now: datetime | None = None
) -> AdvanceReport:
    """Start, finish and schedule whatever is due at `now` (what the beat schedule calls).

    Each step is its own transaction; `enqueue` gets each round's match ids after its
    commit. Pass a session with no transaction open.
    """
    when = now or utc_now()
    scheduled = _season_ids(
        session, Season.status == SeasonStatus.SCHEDULED, Season.starts_at <= when
    )
    started = [i for i in scheduled if start_season(session, i, now=when)]
    ending = _season_ids(session, Season.status == SeasonStatus.RUNNING, Season.ends_at <= when)
    finished = [i for i in ending if finish_season(session, i, now=when)]
    running = _season_ids(session, Season.status == SeasonStatus.RUNNING)
    rounds = []
    for season_id in running:
        report = schedule_round(session, season_id, enqueue, now=when, only_if_due=True)
        if report.match_ids:
            rounds.append(report)
    return AdvanceReport(tuple(started), tuple(finished), tuple(rounds))


def _season_ids(session: Session, *conditions: ColumnElement[bool]) -> list[int]:
    """Ids of the seasons meeting `conditions`, read in a transaction ended at once."""
    ids = list(session.scalars(select(Season.id).where(*conditions).order_by(Season.id)))
    session.rollback()
    return ids
