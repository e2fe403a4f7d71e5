"""Entries follow the bot, on both backends: a newly ready version takes its bot's place
(rating inherited, provisional), once; pins, withdrawals, the default season, next steps."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from datetime import timedelta

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from arena.engine import preset
from arena.seasons import (
    EntryError,
    create_season,
    enter_bot,
    next_step,
    pin_version,
    promote_version,
    schedule_round,
    withdraw_bot,
)
from arena.store import recompute_ratings, record_match_result
from arena.store.bots import add_version, set_version_status
from arena.store.database import write_transaction
from arena.store.models import (
    Bot,
    BotVersion,
    Match,
    Rating,
    Season,
    SeasonEntry,
    SeasonStatus,
    VersionStatus,
)
from tests.store.factories import (
    NOW,
    owner,
    queued_match,
    ready_version,
    result_for,
    running_season,
)
from workers.validation import finish

pytestmark = pytest.mark.timeout(90)


def validating(session: Session, bot: Bot, code: bytes) -> BotVersion:
    """A new version of `bot`, claimed by a validation (committed; ids loaded)."""
    version = add_version(session, bot, code)
    set_version_status(session, version, VersionStatus.VALIDATING)
    session.commit()
    _ = version.id, version.bot_id, version.number
    session.rollback()
    return version


def settle(session: Session, version: BotVersion, status: VersionStatus, reason: str) -> bool:
    """What the validation worker does at the end (`workers.validation.finish`)."""
    version_id = version.id
    session.rollback()
    return finish(session, version_id, status, reason)


@contextlib.contextmanager
def writing(session: Session) -> Iterator[None]:
    """A write transaction begun on a session with nothing open."""
    session.rollback()
    with write_transaction(session):
        yield


def active_versions(session: Session, season_id: int, bot_id: int) -> list[int]:
    return list(
        session.scalars(
            select(SeasonEntry.bot_version_id)
            .join(BotVersion, BotVersion.id == SeasonEntry.bot_version_id)
            .where(
                SeasonEntry.season_id == season_id,
                SeasonEntry.active.is_(True),
                BotVersion.bot_id == bot_id,
            )
        )
    )


def rating(session: Session, season_id: int, version_id: int) -> Rating | None:
    return session.scalars(
        select(Rating)
        .where(Rating.season_id == season_id, Rating.bot_version_id == version_id)
        .execution_options(populate_existing=True)
    ).one_or_none()


def played_once(session: Session, season: Season, versions: list[BotVersion]) -> None:
    """One rated match of `versions` in which the first one comes first."""
    match = queued_match(session, season, versions)
    ids = [v.id for v in versions]
    record_match_result(session, match.id, result_for(ids, [0, 10, 20, 30][: len(ids)]))


def test_a_ready_version_takes_its_bots_place_and_the_next_round_seats_it(
    session: Session,
) -> None:
    season, versions = running_season(session, 4, house_bots=False)
    first = versions[0]
    played_once(session, season, versions)
    before = rating(session, season.id, first.id)
    assert before is not None and before.elo > 1500
    newer = validating(session, first.bot, b"v2")

    assert settle(session, newer, VersionStatus.READY, "passed")

    assert active_versions(session, season.id, first.bot_id) == [newer.id]
    inherited = rating(session, season.id, newer.id)
    assert inherited is not None
    assert inherited.elo == pytest.approx(before.elo) and inherited.start_elo == inherited.elo
    assert inherited.games == 0 and inherited.provisional
    assert inherited.inherited_from_id == first.id
    kept = rating(session, season.id, first.id)
    assert kept is not None and kept.games == 1  # the old version's record stays
    season_id = season.id
    session.rollback()
    report = schedule_round(session, season_id, lambda ids: None, now=NOW)
    seated = session.scalars(select(Match).where(Match.id.in_(report.match_ids))).all()
    ids = {seat.bot_version_id for match in seated for seat in match.seats}
    assert newer.id in ids and first.id not in ids
    session.rollback()
    played_once(session, season, [newer, *versions[1:]])
    replayed = recompute_ratings(session, season.id)
    stored = rating(session, season.id, newer.id)
    assert stored is not None
    assert replayed[newer.id].elo == pytest.approx(stored.elo)


def test_a_validation_delivered_twice_promotes_once(session: Session) -> None:
    season, versions = running_season(session, 2, house_bots=False)
    version = versions[0]
    played_once(session, season, versions)
    newer = validating(session, version.bot, b"v2")
    assert settle(session, newer, VersionStatus.READY, "passed")
    assert not settle(session, newer, VersionStatus.READY, "passed")
    with writing(session):
        assert promote_version(session, newer.id) == ()
    entries = session.scalar(
        select(func.count()).select_from(SeasonEntry).where(SeasonEntry.bot_version_id == newer.id)
    )
    ratings = session.scalar(
        select(func.count()).select_from(Rating).where(Rating.bot_version_id == newer.id)
    )
    assert (entries, ratings) == (1, 1)


def test_two_versions_ready_together_leave_the_newest_playing(
    sessions: sessionmaker[Session],
) -> None:
    with sessions() as session:
        season, (version,) = running_season(session, 1, house_bots=False)
        bot = session.get(Bot, version.bot_id)
        assert bot is not None
        second = validating(session, bot, b"v2")
        third = validating(session, bot, b"v3")
        ids = (season.id, bot.id, second.id, third.id)
    barrier = threading.Barrier(2)
    errors: list[BaseException] = []

    def ready(version_id: int) -> None:
        try:
            with sessions() as own:
                barrier.wait(timeout=30)
                finish(own, version_id, VersionStatus.READY, "passed")
        except BaseException as error:  # reported below
            errors.append(error)

    threads = [threading.Thread(target=ready, args=(i,)) for i in ids[2:]]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert errors == []
    with sessions() as session:
        assert active_versions(session, ids[0], ids[1]) == [ids[3]]


def test_a_pinned_version_keeps_playing_until_unpinned(session: Session) -> None:
    season, versions = running_season(session, 2, house_bots=False)
    version = versions[0]
    played_once(session, season, versions)
    second = validating(session, version.bot, b"v2")
    settle(session, second, VersionStatus.READY, "passed")
    with writing(session):
        pin_version(session, version.bot_id, 1)
    assert active_versions(session, season.id, version.bot_id) == [version.id]
    own = rating(session, season.id, version.id)
    assert own is not None and own.games == 1 and own.inherited_from_id is None
    third = validating(session, version.bot, b"v3")
    assert "v1 is pinned" in next_step(session, third)
    settle(session, third, VersionStatus.READY, "passed")
    assert active_versions(session, season.id, version.bot_id) == [version.id]
    assert next_step(session, third).startswith("ready — v1 is pinned and plays instead")
    with writing(session):
        placements = pin_version(session, version.bot_id, None)
    assert [p.replaced for p in placements] == [1]
    assert active_versions(session, season.id, version.bot_id) == [third.id]
    inherited = rating(session, season.id, third.id)
    assert inherited is not None and inherited.inherited_from_id == version.id
    rejected = validating(session, version.bot, b"v4")
    settle(session, rejected, VersionStatus.REJECTED, "no answer")
    with pytest.raises(EntryError, match="rejected"), writing(session):
        pin_version(session, version.bot_id, rejected.number)
    with pytest.raises(EntryError, match="no version 9"), writing(session):
        pin_version(session, version.bot_id, 9)


def test_a_withdrawn_bot_stays_out_when_a_new_version_is_ready(session: Session) -> None:
    season, versions = running_season(session, 2, house_bots=False)
    version = versions[0]
    played_once(session, season, versions)
    with writing(session):
        assert withdraw_bot(session, version.bot_id, season.id)
        assert not withdraw_bot(session, version.bot_id, season.id)
    newer = validating(session, version.bot, b"v2")
    hint = f"(or arena bot enter {version.bot.name})"
    assert next_step(session, newer).endswith(
        f"once ready, enter it in a season from its bot page {hint}"
    )
    settle(session, newer, VersionStatus.READY, "passed")
    assert active_versions(session, season.id, version.bot_id) == []
    assert (
        next_step(session, newer)
        == f"ready — it is in no season: enter it in one from its bot page {hint}"
    )
    with writing(session):
        placement = enter_bot(session, version.bot_id, season.id)
    assert placement.season == season.name and placement.replaced == 1
    assert active_versions(session, season.id, version.bot_id) == [newer.id]
    carried = rating(session, season.id, newer.id)  # back in: it carries on from v1
    assert carried is not None and carried.inherited_from_id == version.id


def default_season(session: Session, name: str = "Demo season 1") -> Season:
    season = create_season(
        session,
        name=name,
        rules=preset("standard"),
        starts_at=NOW - timedelta(hours=1),
        ends_at=NOW + timedelta(days=3650),
        cadence=timedelta(seconds=30),
        house_bots=False,
        is_default=True,
    )
    season.status = SeasonStatus.RUNNING
    session.commit()
    return season


def first_bot(session: Session, name: str, *, join: bool = True) -> BotVersion:
    from arena.store.bots import create_bot

    bot = create_bot(session, owner(session, name), f"{name}-bot")
    version = add_version(session, bot, name.encode())
    version.join_default_season = join
    set_version_status(session, version, VersionStatus.VALIDATING)
    session.commit()
    return version


def test_a_contestants_first_ready_bot_joins_the_default_season(session: Session) -> None:
    season = default_season(session)
    version = first_bot(session, "carol")
    assert next_step(session, version).endswith("once ready it joins Demo season 1")
    settle(session, version, VersionStatus.READY, "passed")
    assert active_versions(session, season.id, version.bot_id) == [version.id]
    assert next_step(session, version) == "ready — it plays in Demo season 1 from the next round"
    # Their second bot is not their first: it waits to be entered.
    from arena.store.bots import create_bot

    second = add_version(session, create_bot(session, version.bot.owner, "other"), b"x")
    set_version_status(session, second, VersionStatus.VALIDATING)
    session.commit()
    settle(session, second, VersionStatus.READY, "passed")
    assert active_versions(session, season.id, second.bot_id) == []


def test_an_upload_that_opted_out_joins_nothing(session: Session) -> None:
    season = default_season(session)
    version = first_bot(session, "dave", join=False)
    settle(session, version, VersionStatus.READY, "passed")
    assert active_versions(session, season.id, version.bot_id) == []


def test_a_finished_default_season_is_not_joined(session: Session) -> None:
    season = default_season(session)
    season.status = SeasonStatus.FINISHED
    session.commit()
    version = first_bot(session, "erin")
    settle(session, version, VersionStatus.READY, "passed")
    assert session.scalar(select(func.count()).select_from(SeasonEntry)) == 0


def test_a_rejected_version_says_the_old_one_keeps_playing(session: Session) -> None:
    season, (version, *_) = running_season(session, 2, house_bots=False)
    newer = validating(session, version.bot, b"v2")
    assert next_step(session, newer) == (
        f"validating — a worker is checking it in the sandbox; once ready it takes v1's place "
        f"in {season.name}"
    )
    settle(session, newer, VersionStatus.REJECTED, "it crashed")
    assert next_step(session, newer) == (
        "rejected — see the log, fix the bot and upload a new version; "
        f"v1 keeps playing in {season.name}"
    )
    assert active_versions(session, season.id, version.bot_id) == [version.id]


def test_house_bots_cannot_be_entered_or_pinned(session: Session) -> None:
    season, _ = running_season(session, 1)
    house = session.scalars(select(Bot).where(Bot.is_house.is_(True))).first()
    assert house is not None
    with pytest.raises(EntryError, match="house"), writing(session):
        enter_bot(session, house.id, season.id)
    with pytest.raises(EntryError, match="house"), writing(session):
        pin_version(session, house.id, 1)


def test_ready_versions_made_outside_validation_are_left_alone(session: Session) -> None:
    user = owner(session, "frank")
    version = ready_version(session, user, "plain")
    session.commit()
    with writing(session):
        assert promote_version(session, version.id) == ()


def test_a_season_that_finished_meanwhile_is_left_alone(
    session: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    from arena.seasons import entries, finish_season

    season, (version, *_) = running_season(session, 2, house_bots=False)
    stale = entries.entered_seasons(session, version.bot_id)  # read before the season ended
    newer = validating(session, version.bot, b"v2")
    season_id = season.id
    session.rollback()
    assert finish_season(session, season_id)
    monkeypatch.setattr(entries, "entered_seasons", lambda *_args: stale)
    assert settle(session, newer, VersionStatus.READY, "passed")  # no error: nothing to do
    assert active_versions(session, season_id, version.bot_id) == [version.id]


def test_a_ready_version_that_has_played_is_not_told_it_will(session: Session) -> None:
    # issue 31, item 9: "it plays in Demo season 1 from the next round" stayed in the
    # future tense after 22 rated matches.
    season = default_season(session)
    version = first_bot(session, "erin")
    settle(session, version, VersionStatus.READY, "passed")
    assert next_step(session, version) == "ready — it plays in Demo season 1 from the next round"
    others = [ready_version(session, owner(session, f"rival{i}"), f"rival{i}") for i in range(3)]
    session.commit()
    for other in others:
        enter_bot(session, other.bot_id, season.id)
    session.commit()
    played_once(session, season, [version, *others])
    assert next_step(session, version) == "ready — it plays in Demo season 1 (1 rated match so far)"
    played_once(session, season, [*others, version])
    assert (
        next_step(session, version) == "ready — it plays in Demo season 1 (2 rated matches so far)"
    )
    # In a second season it has not played in yet, both are said.
    spring, _ = running_season(session, 3, name="Spring")
    enter_bot(session, version.bot_id, spring.id)
    session.commit()
    assert next_step(session, version) == (
        "ready — it plays in Demo season 1 (2 rated matches so far) and in Spring from the "
        "next round"
    )
