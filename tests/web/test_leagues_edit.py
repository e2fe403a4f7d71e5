"""An admin changes a running league season's bosses (web/leagues.py, `change_bosses` in
arena/seasons/leagues.py; docs/ratings.md, "Changing the leagues"), on SQLite and
PostgreSQL: every bot keeps its league, a new boss's house bot is entered, and the edits
the leagues refuse are refused with the reason (400), as are a finished season's (409),
a season without leagues (404), a missing CSRF token (400) and anyone but an admin."""

from __future__ import annotations

from datetime import timedelta

import pytest
from flask.testing import FlaskClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from arena.engine import preset
from arena.seasons import create_season, finish_season, start_season
from arena.seasons.leagues import boss_versions, current_places, set_leagues
from arena.seasons.lifecycle import enter_season
from arena.store.database import write_transaction
from arena.store.models import BotVersion, LeaguePlace, SeasonEntry, SeasonLeagues
from arena.store.types import utc_now
from tests.web.conftest import AuthActions, csrf_token
from tests.web.factories import PASSWORD, World


@pytest.fixture
def league_season(db: Session, world: World) -> int:
    """A running league season (bosses random, heuristic) with alice's bot in the top
    league (past both bosses) and bob's in Bronze (league 1)."""
    now = utc_now()
    with write_transaction(db):
        season = create_season(
            db,
            name="Leagues to change",
            rules=preset("standard"),
            starts_at=now - timedelta(minutes=1),
            ends_at=now + timedelta(days=1),
            cadence=timedelta(minutes=10),
        )
        set_leagues(db, season, bosses=["random", "heuristic"], min_games=3)
        for version_id in (world.alice_version_id, world.bob_version_id):
            version = db.get(BotVersion, version_id)
            assert version is not None
            enter_season(db, season, version)
        db.add(LeaguePlace(season_id=season.id, bot_id=world.alice_bot_id, league=2))
        db.add(LeaguePlace(season_id=season.id, bot_id=world.bob_bot_id, league=1))
    season_id = season.id
    start_season(db, season_id)
    return season_id


def post(client: FlaskClient, season_id: int, bosses: str, *, token: bool = True):
    data = {"bosses": bosses}
    if token:
        data["csrf_token"] = csrf_token(client, f"/seasons/{season_id}/leagues")
    return client.post(f"/seasons/{season_id}/leagues", data=data)


def leagues_of(db: Session, season_id: int) -> dict[int, int]:
    db.rollback()
    return {bot: place.league for bot, place in current_places(db, season_id).items()}


def test_an_admin_changes_the_bosses_and_every_bot_keeps_its_league(
    client: FlaskClient, auth: AuthActions, db: Session, world: World, league_season: int
) -> None:
    auth.login("root", PASSWORD)
    page = client.get(f"/seasons/{league_season}/leagues").get_data(as_text=True)
    assert 'id="bosses-form"' in page and 'value="random heuristic"' in page
    assert "Every bot keeps its league" in page or "every bot keeps its league" in page
    before = leagues_of(db, league_season)
    assert before == {world.alice_bot_id: 2, world.bob_bot_id: 1}

    # a boss added above: alice's top league now has one (strong), and strong-1 is entered
    response = post(client, league_season, "random, heuristic strong")
    assert response.status_code == 302, response.get_data(as_text=True)[:500]
    db.rollback()
    config = db.get(SeasonLeagues, league_season)
    assert config is not None and config.bosses == ["random", "heuristic", "strong"]
    assert config.min_games == 3  # the rule and its minimum are unchanged
    assert leagues_of(db, league_season) == before
    [strong] = boss_versions(db, ["strong"])
    entered = db.scalars(
        select(SeasonEntry.bot_version_id).where(SeasonEntry.season_id == league_season)
    ).all()
    assert strong in entered
    page = client.get(f"/seasons/{league_season}/leagues").get_data(as_text=True)
    silver = page.split('id="league-2"')[1].split("</section>")[0]
    assert 'boss: <span class="boss">strong</span>' in silver and "alice" in silver

    # a league's boss replaced in place: bob stays in Bronze, now against strong
    assert post(client, league_season, "random strong heuristic").status_code == 302
    assert leagues_of(db, league_season) == before
    page = client.get(f"/seasons/{league_season}/leagues").get_data(as_text=True)
    bronze = page.split('id="league-1"')[1].split("</section>")[0]
    assert 'boss: <span class="boss">strong</span>' in bronze and "bob" in bronze

    # back to two bosses: alice's league (2) becomes the top one; nobody moved
    assert post(client, league_season, "random heuristic").status_code == 302
    assert leagues_of(db, league_season) == before
    page = client.get(f"/seasons/{league_season}/leagues").get_data(as_text=True)
    top = page.split('id="league-2"')[1].split("</section>")[0]
    assert "the top league: no boss" in top and "alice" in top


@pytest.mark.parametrize(
    ("bosses", "reason"),
    [
        ("random", "keep at least 2 bosses"),  # alice has reached league 2
        ("random random heuristic", "random is named twice"),
        ("random nonsense", "not house bots: nonsense"),
        ("", "This field is required"),
    ],
)
def test_an_edit_the_leagues_refuse_is_refused_with_its_reason(
    client: FlaskClient,
    auth: AuthActions,
    db: Session,
    world: World,
    league_season: int,
    bosses: str,
    reason: str,
) -> None:
    auth.login("root", PASSWORD)
    response = post(client, league_season, bosses)
    assert response.status_code == 400
    assert reason in response.get_data(as_text=True)
    db.rollback()
    config = db.get(SeasonLeagues, league_season)
    assert config is not None and config.bosses == ["random", "heuristic"]
    assert leagues_of(db, league_season) == {world.alice_bot_id: 2, world.bob_bot_id: 1}


def test_only_an_admin_with_the_forms_token_changes_a_running_league_season(
    client: FlaskClient, auth: AuthActions, db: Session, world: World, league_season: int
) -> None:
    signed_out = post(client, league_season, "random heuristic strong", token=False)
    assert signed_out.status_code == 400  # the site's CSRF check comes before the sign-in
    auth.login("alice", PASSWORD)
    page = client.get(f"/seasons/{league_season}/leagues").get_data(as_text=True)
    assert 'id="bosses-form"' not in page
    assert post(client, league_season, "random heuristic strong").status_code == 403
    auth.logout()
    auth.login("root", PASSWORD)
    refused = post(client, league_season, "random heuristic strong", token=False)
    assert refused.status_code == 400 and "CSRF" in refused.get_data(as_text=True)
    # a season without leagues has none to change; a finished one's are frozen
    assert post(client, world.season_id, "random heuristic").status_code == 404
    db.rollback()
    finish_season(db, league_season)
    assert post(client, league_season, "random heuristic strong").status_code == 409
    page = client.get(f"/seasons/{league_season}/leagues").get_data(as_text=True)
    assert 'id="bosses-form"' not in page
    db.rollback()
    config = db.get(SeasonLeagues, league_season)
    assert config is not None and config.bosses == ["random", "heuristic"]
