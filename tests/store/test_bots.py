"""Bots and versions: content-addressed archives, numbering, status changes, house bots."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from arena.bots import HOUSE_BOTS
from arena.store.accounts import create_user
from arena.store.bots import (
    DEMO_USERNAME,
    HOUSE_USERNAME,
    BotError,
    add_version,
    archive_content,
    create_bot,
    ensure_house_bots,
    house_manifest,
    read_house_manifest,
    set_version_status,
    sha256_hex,
    trusted_house_bot,
)
from arena.store.models import Archive, Bot, VersionStatus
from tests.store.factories import owner

pytestmark = pytest.mark.timeout(60)


def test_archives_are_content_addressed(session: Session) -> None:
    alice = owner(session)
    first = add_version(session, create_bot(session, alice, "a"), b"same bytes")
    second = add_version(session, create_bot(session, alice, "b"), b"same bytes")
    assert first.archive_sha256 == second.archive_sha256 == sha256_hex(b"same bytes")
    assert session.scalar(select(func.count()).select_from(Archive)) == 1
    assert archive_content(session, first.archive_sha256) == b"same bytes"


def test_versions_number_up_and_repeat_uploads_are_one_version(session: Session) -> None:
    bot = create_bot(session, owner(session), "ducker")
    v1 = add_version(session, bot, b"one")
    v2 = add_version(session, bot, b"two")
    again = add_version(session, bot, b"two")
    assert (v1.number, v2.number) == (1, 2)
    assert again.id == v2.id
    assert v1.status is VersionStatus.PENDING


def test_status_follows_the_allowed_transitions(session: Session) -> None:
    version = add_version(session, create_bot(session, owner(session), "x"), b"code")
    with pytest.raises(BotError, match="pending to ready"):
        set_version_status(session, version, VersionStatus.READY)
    set_version_status(session, version, VersionStatus.VALIDATING)
    set_version_status(
        session, version, VersionStatus.REJECTED, reason="crashed", detail="Traceback ..."
    )
    assert (version.status_reason, version.status_detail) == ("crashed", "Traceback ...")
    with pytest.raises(BotError, match="rejected to ready"):
        set_version_status(session, version, VersionStatus.READY)


def test_ready_versions_can_be_disabled_and_enabled(session: Session) -> None:
    version = add_version(session, create_bot(session, owner(session), "x"), b"code")
    set_version_status(session, version, VersionStatus.VALIDATING)
    set_version_status(session, version, VersionStatus.READY)
    set_version_status(session, version, VersionStatus.DISABLED, reason="owner asked")
    set_version_status(session, version, VersionStatus.READY)
    assert version.status is VersionStatus.READY


def test_house_bots_are_ready_versions_with_manifests(session: Session) -> None:
    versions = ensure_house_bots(session, per_kind=2)
    again = ensure_house_bots(session, per_kind=2)
    assert [v.id for v in versions] == [v.id for v in again]
    kinds = sorted(HOUSE_BOTS)
    assert len(versions) == 2 * len(kinds)
    assert all(v.status is VersionStatus.READY for v in versions)
    bots = session.scalars(select(Bot).where(Bot.is_house.is_(True))).all()
    assert sorted(b.name for b in bots) == [f"{kind}-{seed}" for kind in kinds for seed in (1, 2)]
    manifests = {read_house_manifest(archive_content(session, v.archive_sha256)) for v in versions}
    assert manifests == {(kind, seed) for kind in kinds for seed in (1, 2)}
    assert read_house_manifest(b"PK\x03\x04 not json") is None


def test_only_a_house_bot_is_trusted_whoever_owns_the_manifest(session: Session) -> None:
    """The trust rule is `Bot.trusted`, set by the seeding code only: a bot the house user
    owns but that the seeding did not make, or anyone's upload of a house manifest, runs
    sandboxed like any other."""
    version = ensure_house_bots(session, per_kind=1)[0]
    content = archive_content(session, version.archive_sha256)
    assert trusted_house_bot(version.bot, content) == read_house_manifest(content)
    house_user = version.bot.owner
    assert house_user.username == HOUSE_USERNAME
    imposter = create_bot(session, house_user, "not-a-house-bot")
    assert trusted_house_bot(imposter, content) is None
    upload = create_bot(session, owner(session), "copycat")
    assert trusted_house_bot(upload, house_manifest("heuristic", 1)) is None
    assert trusted_house_bot(version.bot, b"PK\x03\x04 not a manifest") is None


def test_the_demo_players_are_trusted_entrants_not_seat_fillers(session: Session) -> None:
    """Demo players are the platform's own code (in-process) that play and rank as
    entrants: trusted, but not `is_house`."""
    from workers.seed import ensure_demo_players

    versions = ensure_demo_players(session, players=(("heuristic", 1), ("random", 1)))
    for version in versions:
        content = archive_content(session, version.archive_sha256)
        assert version.bot.trusted and not version.bot.is_house
        assert trusted_house_bot(version.bot, content) == read_house_manifest(content)


def test_the_demo_players_have_their_own_owner_apart_from_the_house(session: Session) -> None:
    """ "House" means the seat-fillers only: the demo players belong to the `demo` account
    (no one signs in to it), and they are told apart by `is_demo`."""
    from workers.seed import ensure_demo_players

    versions = ensure_demo_players(session, players=(("heuristic", 1),))
    (player,) = (version.bot for version in versions)
    assert player.owner.username == DEMO_USERNAME
    assert player.owner.password_hash == "!"
    assert player.is_demo and not player.is_house
    house = session.scalars(select(Bot).where(Bot.is_house.is_(True))).first()
    assert house is not None and not house.is_demo and house.owner.username == HOUSE_USERNAME


def test_the_demo_players_are_never_given_to_a_person_named_demo(session: Session) -> None:
    from workers.seed import ensure_demo_players

    create_user(session, DEMO_USERNAME, "a password of theirs")
    with pytest.raises(RuntimeError, match="belongs to a person"):
        ensure_demo_players(session, players=(("heuristic", 1),))
