"""A final's matches are outside any season, as challenges are, but no one asked for them:
they never count against a finalist's owner's challenge quota."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from arena.engine import preset
from arena.seasons.finals import advance_final, create_final
from arena.store.accounts import issue_token
from arena.store.models import Bot, Match, MatchStatus, User
from arena.store.types import utc_now
from tests.web.conftest import make_app
from tests.web.factories import row
from web.database import dispose


@pytest.fixture
def tight(database):
    app = make_app(database, CHALLENGES_QUEUED=1, CHALLENGES_PER_DAY=2)
    yield app
    dispose(app)


def test_a_finals_queued_matches_leave_its_finalists_challenge_quota_alone(tight, world, db):
    with db.begin():
        house = dict(db.execute(select(Bot.name, Bot.id).where(Bot.is_house.is_(True))).all())
        _row, token = issue_token(db, row(db, User, world.bob_id), "quota")
        bot_ids = [world.alice_bot_id, house["random-1"], house["heuristic-1"], world.bob_bot_id]
        final = create_final(
            db,
            name="quota final",
            rules=preset("standard"),
            bots=bot_ids,
            freeze_at=utc_now(),
            worker_share=4,
        )
        final_id = final.id
    released = advance_final(db, final_id).released
    assert len(released) == 4  # queued, bob's minnow (finalist 3: the fixed point) at seat 0
    queued_for_bob = db.scalar(
        select(func.count())
        .select_from(Match)
        .where(Match.id.in_(released), Match.status == MatchStatus.QUEUED)
    )
    assert queued_for_bob == 4
    db.rollback()
    body = {
        "version": world.bob_version_id,
        "opponents": ["alice/shark", "house/random-1", "house/heuristic-1"],
        "hands": 1,
    }
    headers = {"Authorization": f"Bearer {token}"}
    client = tight.test_client()
    assert client.post("/api/v1/challenges", json=body, headers=headers).status_code == 201
    second = client.post("/api/v1/challenges", json=body, headers=headers)
    assert second.status_code == 429 and "waiting" in second.json["error"]["message"]
