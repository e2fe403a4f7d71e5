"""Bots, their immutable versions, content-addressed archives, and the house bots.

A version is the upload as it was: its archive is stored once under the SHA-256 of its
bytes (the same bytes uploaded twice are one archive) and a version never changes its
archive, number or bot; only its status moves, along `TRANSITIONS`:

    pending → validating → ready | rejected;   ready ⇄ disabled

House bots (arena.bots) are bots too, owned by the `house` user, each a version whose
"archive" is a small JSON manifest naming the house bot and its seed; seasons fill empty
seats with them. These functions flush but never commit.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from datetime import datetime
from typing import Final

from sqlalchemy import select
from sqlalchemy.orm import Session

from arena.bots import HOUSE_BOTS

from .accounts import create_user
from .models import Archive, Bot, BotVersion, User, VersionStatus
from .types import utc_now

HOUSE_USERNAME: Final = "house"
DEMO_USERNAME: Final = "demo"
"""The owner of the demo players (workers.seed): the platform's own bots entered as ranked
contestants, apart from the house bots, which only fill seats and never take a rank."""
HOUSE_MANIFEST_FORMAT: Final = "arena-house-bot/1"

TRANSITIONS: Final[Mapping[VersionStatus, frozenset[VersionStatus]]] = {
    VersionStatus.PENDING: frozenset({VersionStatus.VALIDATING, VersionStatus.DISABLED}),
    VersionStatus.VALIDATING: frozenset(
        {VersionStatus.READY, VersionStatus.REJECTED, VersionStatus.PENDING}
    ),
    VersionStatus.READY: frozenset({VersionStatus.DISABLED}),
    VersionStatus.REJECTED: frozenset(),
    VersionStatus.DISABLED: frozenset({VersionStatus.READY}),
}
"""Allowed status changes (validating → pending: a validation retried after our own error)."""


class BotError(ValueError):
    """A bad bot name, or a version status change that is not allowed."""


def sha256_hex(data: bytes) -> str:
    """The hex SHA-256 of `data` (the content address of archives and replays)."""
    return hashlib.sha256(data).hexdigest()


def store_archive(session: Session, content: bytes) -> Archive:
    """The archive holding `content`, stored once per distinct content."""
    digest = sha256_hex(content)
    archive = session.get(Archive, digest)
    if archive is None:
        archive = Archive(sha256=digest, size=len(content), content=content)
        session.add(archive)
        session.flush()
    return archive


def archive_content(session: Session, sha256: str) -> bytes:
    """The bytes of the archive `sha256`; LookupError when there is none."""
    content = session.scalar(select(Archive.content).where(Archive.sha256 == sha256))
    if content is None:
        raise LookupError(f"no archive {sha256}")
    return content


def create_bot(
    session: Session, owner: User, name: str, *, is_house: bool = False, trusted: bool = False
) -> Bot:
    """A new bot named `name` for `owner`; BotError if the name is bad or the owner has it.

    `trusted` only for the platform's own bots (`trusted_house_bot`)."""
    if not name or len(name) > 64 or not name.isprintable():
        raise BotError(f"bot name {name[:64]!r} must be 1-64 printable characters")
    taken = session.scalar(select(Bot.id).where(Bot.owner_id == owner.id, Bot.name == name))
    if taken is not None:
        raise BotError(f"{owner.username} already has a bot named {name!r}")
    bot = Bot(owner=owner, name=name, is_house=is_house, trusted=trusted)
    session.add(bot)
    session.flush()
    return bot


def add_version(session: Session, bot: Bot, content: bytes) -> BotVersion:
    """A new pending version of `bot` holding `content`.

    Uploading the bytes of the bot's latest version again returns that version.
    """
    archive = store_archive(session, content)
    latest = session.scalars(
        select(BotVersion).where(BotVersion.bot_id == bot.id).order_by(BotVersion.number.desc())
    ).first()
    if latest is not None and latest.archive_sha256 == archive.sha256:
        return latest
    version = BotVersion(
        bot=bot,
        number=1 if latest is None else latest.number + 1,
        archive_sha256=archive.sha256,
        status=VersionStatus.PENDING,
    )
    session.add(version)
    session.flush()
    return version


def set_version_status(
    session: Session,
    version: BotVersion,
    status: VersionStatus,
    *,
    reason: str | None = None,
    detail: str | None = None,
    now: datetime | None = None,
) -> BotVersion:
    """Move `version` to `status`, keeping the reason (and e.g. the bot's stderr as detail).

    Raises BotError when `TRANSITIONS` does not allow the change.
    """
    if status not in TRANSITIONS[version.status]:
        raise BotError(
            f"bot version {version.id} cannot go from {version.status.value} to {status.value}"
        )
    version.status = status
    version.status_reason = reason
    version.status_detail = detail
    version.status_changed_at = now or utc_now()
    session.flush()
    return version


def house_manifest(kind: str, seed: int) -> bytes:
    """The archive bytes of a house bot version: which house bot, with which seed."""
    document = {"format": HOUSE_MANIFEST_FORMAT, "house": kind, "seed": seed}
    return json.dumps(document, sort_keys=True).encode()


def read_house_manifest(content: bytes) -> tuple[str, int] | None:
    """(kind, seed) if `content` is a house bot manifest, else None."""
    try:
        document = json.loads(content)
    except (UnicodeDecodeError, json.JSONDecodeError):
        return None
    if not isinstance(document, dict) or document.get("format") != HOUSE_MANIFEST_FORMAT:
        return None
    return str(document["house"]), int(document["seed"])


def trusted_house_bot(bot: Bot, content: bytes) -> tuple[str, int] | None:
    """The trust rule, in one place: (kind, seed) when `bot` is the platform's own
    (`Bot.trusted`, set only by `ensure_house_bots` and the demo players' seeding) and its
    archive is a house manifest: such a bot runs in-process, unsandboxed. None for every
    other bot, whoever owns it or whatever it uploaded."""
    if not bot.trusted:
        return None
    return read_house_manifest(content)


def ensure_house_bots(session: Session, per_kind: int = 3) -> list[BotVersion]:
    """The ready house bot versions, creating any missing: `per_kind` of each house bot.

    Several of each kind (`heuristic-1`, `heuristic-2`, …, each its own seed) so that one
    table can hold more than one; each is rated on its own. Idempotent.
    """
    house = session.scalars(select(User).where(User.username == HOUSE_USERNAME)).one_or_none()
    if house is None:
        house = create_user(session, HOUSE_USERNAME, None)
    existing = {
        bot.name: bot for bot in session.scalars(select(Bot).where(Bot.owner_id == house.id))
    }
    versions = []
    for kind in sorted(HOUSE_BOTS):
        for seed in range(1, per_kind + 1):
            name = f"{kind}-{seed}"
            bot = existing.get(name) or create_bot(
                session, house, name, is_house=True, trusted=True
            )
            version = session.scalars(
                select(BotVersion).where(BotVersion.bot_id == bot.id, BotVersion.number == 1)
            ).one_or_none()
            if version is None:
                version = add_version(session, bot, house_manifest(kind, seed))
                set_version_status(session, version, VersionStatus.VALIDATING)
                set_version_status(session, version, VersionStatus.READY, reason="house bot")
            versions.append(version)
    return versions
