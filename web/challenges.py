"""Challenges: an unrated match, outside any season, against opponents of the player's choice.

A challenge is a queued match row with no season and its seats; the workers run queued
matches from the database, and a match with no season is never rated. Opponents are
named `owner/bot` and play their newest ready version.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence

from sqlalchemy import select
from sqlalchemy.orm import Session

from arena.engine import Rules, RulesError, preset
from arena.store.models import (
    Bot,
    BotVersion,
    Match,
    MatchFormat,
    MatchSeat,
    MatchStatus,
    User,
    VersionStatus,
)
from arena.store.rulesets import store_ruleset

from .bounds import quoted

MAX_OPPONENTS = 9
"""The most opponents a challenge may name: the largest table of any variant is ten.
Checked before any name is looked up."""
MAX_REFERENCE = 129
"""The longest `owner/bot` name: two names of at most 64 characters and the slash."""


class ChallengeError(ValueError):
    """A challenge that cannot be made; the message says which part and why."""


def newest_ready_version(session: Session, bot_id: int) -> BotVersion | None:
    """The bot's newest ready version, if it has one."""
    return session.scalars(
        select(BotVersion)
        .where(BotVersion.bot_id == bot_id, BotVersion.status == VersionStatus.READY)
        .order_by(BotVersion.number.desc())
    ).first()


def find_opponent(session: Session, reference: str) -> BotVersion:
    """The newest ready version of the bot named `owner/bot`; ChallengeError otherwise."""
    owner, slash, name = reference.strip().partition("/")
    if not slash or not owner or not name:
        raise ChallengeError(f"name opponents as owner/bot, not {quoted(reference.strip())}")
    bot = session.scalars(
        select(Bot)
        .join(User, User.id == Bot.owner_id)
        .where(User.username == owner, Bot.name == name)
    ).one_or_none()
    if bot is None:
        raise ChallengeError(f"there is no bot {owner}/{name}")
    if bot.is_house and bot.name == "person":  # a person's seat at human tables, not a bot
        raise ChallengeError(f"{owner}/{name} is a person's seat, not a bot")
    version = newest_ready_version(session, bot.id)
    if version is None:
        raise ChallengeError(f"{owner}/{name} has no ready version")
    return version


def challenge_rules(preset_name: str, players: int, hands: int | None) -> Rules:
    """The rules of a challenge: a preset for `players`, optionally cut to `hands` hands."""
    try:
        rules = preset(preset_name, players)
        return rules if hands is None else rules.replace(max_hands=hands)
    except RulesError as error:
        name = quoted(preset_name)
        raise ChallengeError(f"rules {name} for {players} players: {error}") from None


def create_challenge(
    session: Session,
    challenger: BotVersion,
    opponents: Sequence[BotVersion],
    rules: Rules,
    *,
    seed: int | None = None,
) -> Match:
    """A queued, unrated match: the challenger at seat 0, the opponents after (flushes).

    Raises ChallengeError when the challenger is not ready, the table is the wrong size
    for the rules, or a version sits twice.
    """
    table = [challenger, *opponents]
    if challenger.status is not VersionStatus.READY:
        raise ChallengeError(f"your bot version is {challenger.status.value}, not ready")
    if len(table) != rules.players:
        raise ChallengeError(
            f"{rules.name} with {rules.players} players needs {rules.players - 1} opponents, "
            f"not {len(opponents)}"
        )
    if len({version.id for version in table}) != len(table):
        raise ChallengeError("a bot version can sit at the table only once")
    match = Match(
        season_id=None,
        ruleset=store_ruleset(session, rules),
        seed=secrets.randbits(63) if seed is None else seed,
        format=MatchFormat.SINGLE,
        status=MatchStatus.QUEUED,
        status_reason="challenge",
    )
    match.seats = [
        MatchSeat(seat=index, bot_version_id=version.id) for index, version in enumerate(table)
    ]
    session.add(match)
    session.flush()
    return match
