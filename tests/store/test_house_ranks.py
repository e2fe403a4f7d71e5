"""House bots fill seats but never take a rank, and the season's counts agree with its
ladder, on both backends (the page once said "Entries 17" beside a ladder of 8, and a
one-game house bot ranked above contestants with many games)."""

from __future__ import annotations

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from arena.seasons import finish_season
from arena.store import ladder, record_match_result
from arena.store.ladder import house_rows
from arena.store.models import Bot, BotVersion, SeasonEntry
from arena.store.stats import ladder_page, season_counts
from tests.store.factories import queued_match, result_for, running_season

pytestmark = pytest.mark.timeout(60)


def test_house_bots_are_rated_but_never_ranked(session: Session) -> None:
    season, mine = running_season(session, 3)
    house = list(
        session.scalars(
            select(BotVersion)
            .join(Bot, Bot.id == BotVersion.bot_id)
            .where(Bot.is_house.is_(True))
            .order_by(BotVersion.id)
            .limit(2)
        )
    )
    # A house bot wins the only table: by Elo it would top the ladder.
    match = queued_match(session, season, [house[0], mine[0], mine[1], house[1]])
    ids = [house[0].id, mine[0].id, mine[1].id, house[1].id]
    record_match_result(session, match.id, result_for(ids, [0, 5, 10, 26]))

    rows = ladder(session, season.id)
    assert [row.rank for row in rows] == [1, 2]
    assert {row.bot_version_id for row in rows} == {mine[0].id, mine[1].id}
    assert not any(row.is_house for row in rows)
    apart = house_rows(session, season.id)
    assert [row.bot_version_id for row in apart] == [house[0].id, house[1].id]
    assert all(row.rank == 0 for row in apart)

    counts = season_counts(session, season.id)
    for sort in ("rank", "games", "points", "bot"):
        page = ladder_page(session, season.id, sort=sort)
        assert page.total == counts["ranked"] == 2
        assert not any(line.is_house for line in page.lines)
    assert counts["waiting"] == 1  # entered, no rated game yet
    entered_house = session.scalars(
        select(SeasonEntry.id)
        .join(BotVersion, BotVersion.id == SeasonEntry.bot_version_id)
        .join(Bot, Bot.id == BotVersion.bot_id)
        .where(SeasonEntry.season_id == season.id, Bot.is_house.is_(True))
    ).all()
    assert counts["house"] == len(entered_house) > 0

    season_id = season.id
    session.rollback()
    assert finish_season(session, season_id)
    finals = dict(
        session.execute(
            select(SeasonEntry.bot_version_id, SeasonEntry.final_rank).where(
                SeasonEntry.season_id == season_id
            )
        ).all()
    )
    assert finals[mine[0].id] == 1 and finals[mine[1].id] == 2
    assert finals[house[0].id] is None and finals[house[1].id] is None
