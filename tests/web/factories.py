"""A small world for the site's tests, made through the same `arena` functions the site
and the workers use: accounts, bots and versions, a running season, a recorded match."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta
from typing import TypeVar

from flask import Flask
from sqlalchemy.orm import Session

from arena.engine import preset
from arena.seasons import create_season, enter_season, start_season
from arena.store import write_transaction
from arena.store.accounts import create_user
from arena.store.bots import add_version, create_bot, ensure_house_bots, set_version_status
from arena.store.models import BotVersion, User, VersionStatus
from web.bench import add_match, play_and_record
from web.passwords import hash_password

PASSWORD = "correct horse"
T = TypeVar("T")

BOT_SOURCE = b'''"""A test bot."""
from hearts_bot import Bot


class SharkBot(Bot):
    def pass_cards(self, view):
        return list(view.hand)[: view.count]

    def play_card(self, view):
        return view.legal[0]
'''


@dataclasses.dataclass(frozen=True)
class World:
    """The ids the tests need."""

    season_id: int
    match_id: int
    alice_id: int
    bob_id: int
    admin_id: int
    alice_bot_id: int
    alice_version_id: int
    alice_pending_id: int
    bob_bot_id: int
    bob_version_id: int


def make_user(db: Session, app: Flask, name: str, *, admin: bool = False) -> User:
    """A user whose password is `PASSWORD` (argon2, as the site writes it)."""
    user = create_user(db, name, None, is_admin=admin)
    with app.app_context():
        user.password_hash = hash_password(PASSWORD)
    return user


def ready_version(db: Session, owner: User, name: str, content: bytes, log: str) -> BotVersion:
    """A bot with one version that passed validation (as a worker leaves it)."""
    bot = create_bot(db, owner, name)
    version = add_version(db, bot, content)
    set_version_status(db, version, VersionStatus.VALIDATING)
    set_version_status(db, version, VersionStatus.READY, reason="passed", detail=log)
    return version


# The world's season and match rules: `standard` as it was when the figures the site tests
# read were taken (alice's 2 faults in 8 hands, two entrants told apart after 7 games).
# Since issue 23 `standard` breaks hearts by a discarded QS only (000 'The Play'), which
# plays seed 7 differently; the site's tests are about the site, so the world keeps the
# any-QS breaking (002's rule, `hearts_or_queen`) rather than chase new seeded figures.
WORLD_RULES = preset("standard").replace(broken_by="hearts_or_queen")


def build_world(db: Session, app: Flask) -> World:
    """Alice, Bob and an admin; a running season; one recorded match (alice's seat
    faults, and its log is hers alone)."""
    with write_transaction(db):
        alice = make_user(db, app, "alice")
        bob = make_user(db, app, "bob")
        admin = make_user(db, app, "root", admin=True)
        mine = ready_version(db, alice, "shark", BOT_SOURCE, "alice's validation log")
        pending = add_version(db, mine.bot, BOT_SOURCE + b"# v2\n")
        theirs = ready_version(db, bob, "minnow", BOT_SOURCE + b"# bob\n", "bob's validation log")
        now = datetime.now(UTC)
        season = create_season(
            db,
            name="Spring",
            rules=WORLD_RULES,
            starts_at=now - timedelta(days=1),
            ends_at=now + timedelta(days=30),
            cadence=timedelta(minutes=10),
        )
        enter_season(db, season, mine)
        enter_season(db, season, theirs)
        house = ensure_house_bots(db)
        ids = (
            alice.id,
            bob.id,
            admin.id,
            mine.bot_id,
            mine.id,
            pending.id,
            theirs.bot_id,
            theirs.id,
        )
        season_id = season.id
        match_id = add_match(
            db,
            season_id=season.id,
            version_ids=[mine.id, theirs.id, house[0].id, house[3].id],
            rules=WORLD_RULES,
            seed=7,
        )
    start_season(db, season_id, now=datetime.now(UTC) - timedelta(hours=1))
    play_and_record(db, match_id, faulty_seat=0)
    return World(season_id, match_id, *ids)


def row(db: Session, model: type[T], key: object) -> T:
    """The row of `model` with primary key `key` (which the test knows exists)."""
    found = db.get(model, key)
    assert found is not None, f"no {model.__name__} {key}"
    return found
