"""Entries follow the bot: which version plays for a bot in its seasons, and what happens next.

A bot, not one of its versions, is entered in a season. Its *active* `SeasonEntry` names
the version playing for it; the bot's older entries stay, inactive, with their games and
rating history (docs/decisions/0003-entries-follow-the-bot.md).

- The version that plays for a bot (`playing_version`) is the one its owner pinned, else
  its newest ready version.
- `promote_version` is called in the transaction that makes a version ready: the version
  takes its bot's place in every season the bot is in (unless another version is pinned
  or newer), its rating there starting from the one it replaces (Elo and skill; no games,
  so provisional). A bot in no season whose owner has never entered a bot joins the
  default season, unless the upload opted out. Running it twice changes nothing more.
- `enter_bot`, `withdraw_bot` and `pin_version` are the owner's choices.
- `next_step` says in one sentence what happens next to a version (the site, the API and
  the CLI show the same words).

Each function locks the bot's row first (on PostgreSQL two promotions of one bot, or a
promotion and a pin, run one after the other), then each season's row in id order (so a
rating read here is not being changed by a match being rated). They flush, never commit.
"""

from __future__ import annotations

import dataclasses
import shlex
from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import exists, func, select, update
from sqlalchemy.orm import Session

from arena.ratings.uncertainty import DEFAULT_SKILL
from arena.store.models import (
    Bot,
    BotVersion,
    Match,
    MatchSeat,
    Rating,
    Season,
    SeasonEntry,
    SeasonStatus,
    VersionStatus,
)
from arena.store.types import utc_now

from .errors import SeasonError
from .lifecycle import enter_season
from .rounds import lock_season


class EntryError(SeasonError):
    """An entry, withdrawal or pin that cannot be made as asked (the message says why)."""


@dataclasses.dataclass(frozen=True)
class Placement:
    """A version now playing for its bot in one season."""

    season_id: int
    season: str
    replaced: int | None  # the version number whose place it took; None: a new entry


def lock_bot(session: Session, bot_id: int) -> Bot:
    """The bot's row, locked for this transaction; EntryError when there is none."""
    bot = session.scalars(
        select(Bot)
        .where(Bot.id == bot_id)
        .with_for_update()
        .execution_options(populate_existing=True)
    ).one_or_none()
    if bot is None:
        raise EntryError(f"no bot {bot_id}")
    return bot


def playing_version(session: Session, bot: Bot) -> BotVersion | None:
    """The version that plays for `bot`: the pinned one if ready, else the newest ready."""
    ready = select(BotVersion).where(
        BotVersion.bot_id == bot.id, BotVersion.status == VersionStatus.READY
    )
    if bot.pinned_number is not None:
        pinned = session.scalars(ready.where(BotVersion.number == bot.pinned_number)).first()
        if pinned is not None:
            return pinned
    return session.scalars(ready.order_by(BotVersion.number.desc())).first()


def entered_seasons(session: Session, bot_id: int) -> list[tuple[Season, BotVersion]]:
    """The seasons (not finished) the bot is in, each with the version playing there."""
    rows = session.execute(
        select(Season, BotVersion)
        .join(SeasonEntry, SeasonEntry.season_id == Season.id)
        .join(BotVersion, BotVersion.id == SeasonEntry.bot_version_id)
        .where(
            BotVersion.bot_id == bot_id,
            SeasonEntry.active.is_(True),
            Season.status != SeasonStatus.FINISHED,
        )
        .order_by(Season.id)
    ).all()
    return [(season, version) for season, version in rows]


def default_season(session: Session, *, now: datetime | None = None) -> Season | None:
    """The open default season: the newest season flagged default that has not ended."""
    return session.scalars(
        select(Season)
        .where(
            Season.is_default.is_(True),
            Season.status != SeasonStatus.FINISHED,
            Season.ends_at > (now or utc_now()),
        )
        .order_by(Season.starts_at.desc(), Season.id.desc())
    ).first()


def has_entered_before(session: Session, owner_id: int) -> bool:
    """Whether any bot of the owner was ever entered in a season (withdrawn ones count)."""
    entered = (
        select(SeasonEntry.id)
        .join(BotVersion, BotVersion.id == SeasonEntry.bot_version_id)
        .join(Bot, Bot.id == BotVersion.bot_id)
        .where(Bot.owner_id == owner_id)
    )
    return bool(session.scalar(select(exists(entered))))


def inherit_rating(
    session: Session, season_id: int, previous_id: int, version_id: int
) -> Rating | None:
    """`version_id`'s rating in the season, started from `previous_id`'s when it has none.

    The Elo and the skill's mean carry over; the games start at nought (so the rating is
    provisional and moves fast) and the skill's uncertainty starts afresh: new code may
    play quite differently. None when neither version has a rating there.
    """
    ratings = {
        rating.bot_version_id: rating
        for rating in session.scalars(
            select(Rating).where(
                Rating.season_id == season_id,
                Rating.bot_version_id.in_((previous_id, version_id)),
            )
        )
    }
    if version_id in ratings:
        return ratings[version_id]
    source = ratings.get(previous_id)
    if source is None:
        return None
    rating = Rating(
        season_id=season_id,
        bot_version_id=version_id,
        elo=source.elo,
        games=0,
        provisional=True,
        mu=source.mu,
        sigma=DEFAULT_SKILL.sigma,
        inherited_from_id=previous_id,
        start_elo=source.elo,
    )
    session.add(rating)
    session.flush()
    return rating


def place(
    session: Session, season: Season, version: BotVersion, previous: BotVersion | None
) -> Placement:
    """Make `version` the one playing for its bot in `season`, after `previous`."""
    enter_season(session, season, version)
    if previous is not None and previous.id != version.id:
        inherit_rating(session, season.id, previous.id, version.id)
    return Placement(season.id, season.name, None if previous is None else previous.number)


def promote_version(session: Session, version_id: int) -> tuple[Placement, ...]:
    """Let a version that just became ready take its bot's place (idempotent; flushes).

    Call it in the transaction that made the version ready. Nothing happens for a house
    bot, a version that is not ready, or one that does not play for its bot (another is
    pinned, or a newer one is ready already).
    """
    version = session.get(BotVersion, version_id, populate_existing=True)
    if version is None:
        raise EntryError(f"no bot version {version_id}")
    bot = lock_bot(session, version.bot_id)
    if bot.is_house or version.status is not VersionStatus.READY:
        return ()
    playing = playing_version(session, bot)
    if playing is None or playing.id != version.id:
        return ()
    entered = entered_seasons(session, bot.id)
    placements = _replace(session, version, entered)
    first = not entered and not has_entered_before(session, bot.owner_id)
    if first and version.join_default_season:
        season = default_season(session)
        if season is not None:
            placements += _replace(session, version, [(season, None)])
    return tuple(placements)


def _replace(
    session: Session, version: BotVersion, seasons: Sequence[tuple[Season, BotVersion | None]]
) -> list[Placement]:
    """`version` in its bot's place in each season, after the version playing there (the
    seasons locked in order; one that finished since it was read is left alone)."""
    placements = []
    for season, previous in seasons:
        if previous is not None and previous.id == version.id:
            continue
        locked = lock_season(session, season.id)
        if locked.status is SeasonStatus.FINISHED:
            continue
        placements.append(place(session, locked, version, previous))
    return placements


def enter_bot(session: Session, bot_id: int, season_id: int) -> Placement:
    """Enter the bot in a season: the version that plays for it takes its place there.

    Raises EntryError for a house bot or a bot with no ready version; SeasonError for a
    finished season.
    """
    bot = lock_bot(session, bot_id)
    if bot.is_house:
        raise EntryError("house bots are entered by the season itself")
    version = playing_version(session, bot)
    if version is None:
        raise EntryError(f"{bot.name} has no ready version yet")
    season = lock_season(session, season_id)
    previous = {s.id: v for s, v in entered_seasons(session, bot.id)}.get(season.id)
    return place(session, season, version, previous or _last_rated(session, season.id, version))


def _last_rated(session: Session, season_id: int, version: BotVersion) -> BotVersion | None:
    """The newest other version of the bot rated in the season (a bot entered again after
    a withdrawal carries on from there)."""
    return session.scalars(
        select(BotVersion)
        .join(Rating, Rating.bot_version_id == BotVersion.id)
        .where(
            Rating.season_id == season_id,
            BotVersion.bot_id == version.bot_id,
            BotVersion.id != version.id,
        )
        .order_by(BotVersion.number.desc())
    ).first()


def withdraw_bot(session: Session, bot_id: int, season_id: int) -> bool:
    """Take the bot out of a season (its entries stay, inactive); whether it was in."""
    lock_bot(session, bot_id)
    season = lock_season(session, season_id)
    if season.status is SeasonStatus.FINISHED:
        raise EntryError(f"season {season.name!r} is finished: its results are frozen")
    versions = select(BotVersion.id).where(BotVersion.bot_id == bot_id)
    result = session.execute(
        update(SeasonEntry)
        .where(
            SeasonEntry.season_id == season_id,
            SeasonEntry.bot_version_id.in_(versions),
            SeasonEntry.active.is_(True),
        )
        .values(active=False)
        .execution_options(synchronize_session=False)
    )
    session.flush()
    return bool(getattr(result, "rowcount", 0))


def pin_version(session: Session, bot_id: int, number: int | None) -> tuple[Placement, ...]:
    """Pin version `number` of the bot (None: unpin, the newest ready version plays), and
    put the version that now plays in the bot's place in every season it is in.

    Raises EntryError for a house bot or a version that does not exist or is not ready.
    """
    bot = lock_bot(session, bot_id)
    if bot.is_house:
        raise EntryError("house bots cannot be pinned")
    if number is not None:
        status = session.scalar(
            select(BotVersion.status).where(
                BotVersion.bot_id == bot.id, BotVersion.number == number
            )
        )
        if status is None:
            raise EntryError(f"{bot.name} has no version {number}")
        if status is not VersionStatus.READY:
            raise EntryError(f"{bot.name} v{number} is {status.value}: only a ready one plays")
    bot.pinned_number = number
    session.flush()
    playing = playing_version(session, bot)
    if playing is None:
        return ()
    return tuple(_replace(session, playing, entered_seasons(session, bot.id)))


# -- what happens next ---------------------------------------------------------------------


def _names(seasons: Sequence[Season]) -> str:
    """'A', 'A and B', 'A, B and C'."""
    names = [season.name for season in seasons]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _when(seasons: Sequence[Season]) -> str:
    if all(season.status is SeasonStatus.SCHEDULED for season in seasons):
        return "once the season starts" if len(seasons) == 1 else "once they start"
    return "from the next round"


def _rated_matches(session: Session, version_id: int, seasons: Sequence[Season]) -> dict[int, int]:
    """How many rated matches the version has played in each of `seasons` (by id)."""
    rows = session.execute(
        select(Match.season_id, func.count(func.distinct(Match.id)))
        .join(MatchSeat, MatchSeat.match_id == Match.id)
        .where(
            MatchSeat.bot_version_id == version_id,
            Match.season_id.in_([season.id for season in seasons]),
            Match.rating_seq.is_not(None),
        )
        .group_by(Match.season_id)
    ).all()
    return {season_id: count for season_id, count in rows if season_id is not None}


def _plays_in(session: Session, version: BotVersion, seasons: Sequence[Season]) -> str:
    """Where a ready version plays: "it plays in A (22 rated matches so far)" where it has
    played already, "... from the next round" (or once they start) where not yet."""
    rated = _rated_matches(session, version.id, seasons)
    played = [season for season in seasons if rated.get(season.id)]
    waiting = [season for season in seasons if not rated.get(season.id)]
    parts = []
    if played:
        total = sum(rated[season.id] for season in played)
        parts.append(f"{_names(played)} ({total} rated match{'' if total == 1 else 'es'} so far)")
    if waiting:
        parts.append(f"{_names(waiting)} {_when(waiting)}")
    return "it plays in " + " and in ".join(parts)


def next_step(session: Session, version: BotVersion) -> str:
    """One sentence: where the version stands and what happens next, e.g.
    "ready — it plays in Demo season 1 from the next round", and once it has played
    there "ready — it plays in Demo season 1 (22 rated matches so far)"."""
    bot = version.bot
    status = version.status.value
    if bot.is_house:
        return f"{status} — a house bot: it fills empty seats and is never ranked"
    entered = entered_seasons(session, bot.id)
    if version.status is VersionStatus.READY:
        mine = [season for season, playing in entered if playing.id == version.id]
        if mine:
            return f"ready — {_plays_in(session, version, mine)}"
        playing = playing_version(session, bot)
        if playing is not None and playing.id != version.id:
            if bot.pinned_number == playing.number:
                return (
                    f"ready — v{playing.number} is pinned and plays instead; "
                    f"unpin it to play v{version.number}"
                )
            return f"ready — v{playing.number}, a newer version, plays instead"
        return (
            "ready — it is in no season: enter it in one from its bot page"
            f" (or arena bot enter {shlex.quote(bot.name)})"
        )
    if version.status in (VersionStatus.PENDING, VersionStatus.VALIDATING):
        waiting = (
            "pending — waiting for a worker to validate it"
            if version.status is VersionStatus.PENDING
            else "validating — a worker is checking it in the sandbox"
        )
        return f"{waiting}; {_once_ready(session, version, entered)}"
    if version.status is VersionStatus.REJECTED:
        still = [season for season, _ in entered]
        tail = (
            f"; v{entered[0][1].number} keeps playing in {_names(still)}"
            if still and len({v.id for _, v in entered}) == 1
            else ""
        )
        return f"rejected — see the log, fix the bot and upload a new version{tail}"
    return "disabled — it plays in no season"


def _once_ready(
    session: Session, version: BotVersion, entered: Sequence[tuple[Season, BotVersion]]
) -> str:
    """What `promote_version` will do when this pending version becomes ready."""
    bot = version.bot
    if bot.pinned_number is not None and bot.pinned_number != version.number:
        return f"v{bot.pinned_number} is pinned, so it keeps playing"
    if entered:
        numbers = sorted({previous.number for _, previous in entered})
        replaced = " and ".join(f"v{n}" for n in numbers)
        seasons = [season for season, _ in entered]
        return f"once ready it takes {replaced}'s place in {_names(seasons)}"
    if version.join_default_season and not has_entered_before(session, bot.owner_id):
        season = default_season(session)
        if season is not None:
            return f"once ready it joins {season.name}"
    return (
        "once ready, enter it in a season from its bot page"
        f" (or arena bot enter {shlex.quote(bot.name)})"
    )
