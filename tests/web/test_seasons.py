"""Seasons: the list, rules in words, schedule, standings, admin actions, frozen results."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from arena.bots import HOUSE_BOTS
from arena.engine import preset
from arena.store.models import Match, MatchStatus, Season, SeasonStatus


def test_season_list_and_page(client, world):
    assert "Spring" in client.get("/seasons/").get_data(as_text=True)
    page = client.get(f"/seasons/{world.season_id}").get_data(as_text=True)
    assert "Hearts may not be led until a heart or the queen of spades has been played" in page
    assert "every 10 minutes" in page
    # Three of each house bot kind (ensure_house_bots' per_kind for four seats).
    fillers = 3 * len(HOUSE_BOTS)
    assert f"2 ranked; {fillers} house bots fill empty seats (never ranked)" in page
    assert "Standings" in page
    assert "shark" in page
    assert "Admin" not in page
    assert client.get("/seasons/999").status_code == 404


def admin(client, auth):
    auth.login("root")
    return auth.token()


def test_admin_creates_a_season(client, auth, world, db):
    token = admin(client, auth)
    form = {
        "name": "Summer",
        "preset": "omnibus",
        "players": "4",
        "starts_at": "2031-06-01T12:00",
        "ends_at": "2031-07-01T12:00",
        "cadence_minutes": "30",
        "house_bots": "y",
        "csrf_token": token,
    }
    response = client.post("/seasons/new", data=form)
    assert response.status_code == 302
    season = db.scalars(select(Season).where(Season.name == "Summer")).one()
    assert season.status is SeasonStatus.SCHEDULED
    assert season.cadence_seconds == 1800
    assert season.ruleset.data["name"] == "omnibus"
    page = client.get(f"/seasons/{season.id}").get_data(as_text=True)
    assert "the ten of diamonds -10 points" in page
    assert "Start now" in page
    again = client.post("/seasons/new", data=form)
    assert again.status_code == 400  # the name is taken
    backwards = client.post(
        "/seasons/new", data={**form, "name": "Autumn", "ends_at": "2030-01-01T00:00"}
    )
    assert backwards.status_code == 400
    bad_players = client.post("/seasons/new", data={**form, "name": "Winter", "players": "9"})
    assert bad_players.status_code == 400
    assert "players" in bad_players.get_data(as_text=True)
    assert client.get("/seasons/new").status_code == 200


def test_a_cancellation_season_seats_up_to_ten(client, auth, world, db):
    """000 'Cancellation Hearts': "Seven to ten people can play" (two packs)."""
    token = admin(client, auth)
    form = {
        "name": "Crowd",
        "preset": "cancellation",
        "players": "9",
        "starts_at": "2031-06-01T12:00",
        "ends_at": "2031-07-01T12:00",
        "cadence_minutes": "30",
        "csrf_token": token,
    }
    assert client.post("/seasons/new", data=form).status_code == 302
    season = db.scalars(select(Season).where(Season.name == "Crowd")).one()
    assert season.ruleset.data["players"] == 9 and season.ruleset.data["cancellation"]
    too_many = client.post("/seasons/new", data={**form, "name": "Mob", "players": "11"})
    assert too_many.status_code == 400


def test_a_two_player_season_needs_a_two_player_game(client, auth, world, db):
    # 000 'Number of Players': "Two players may play Domino Hearts"; since issue 23 also the
    # `two_player` and `enfle` presets (test_a_season_can_be_created_on_each_source_game),
    # but not the standard game, whose trims start at three.
    token = admin(client, auth)
    form = {
        "name": "Dominoes",
        "preset": "domino",
        "players": "2",
        "starts_at": "2031-06-01T12:00",
        "ends_at": "2031-07-01T12:00",
        "cadence_minutes": "30",
        "house_bots": "y",
        "csrf_token": token,
    }
    assert client.post("/seasons/new", data=form).status_code == 302
    season = db.scalars(select(Season).where(Season.name == "Dominoes")).one()
    assert season.ruleset.data["domino"] is True and season.ruleset.data["players"] == 2
    page = client.get(f"/seasons/{season.id}").get_data(as_text=True)
    assert "The 40 cards left over are the stock" in page
    refused = client.post("/seasons/new", data={**form, "name": "Pairs", "preset": "standard"})
    assert refused.status_code == 400


def test_admin_reschedules_starts_runs_a_round_and_finishes(client, auth, world, db):
    token = admin(client, auth)
    client.post(
        "/seasons/new",
        data={
            "name": "Later",
            "preset": "standard",
            "players": "4",
            "starts_at": "2031-06-01T12:00",
            "ends_at": "2031-07-01T12:00",
            "cadence_minutes": "10",
            "csrf_token": token,
        },
    )
    season_id = db.scalar(select(Season.id).where(Season.name == "Later"))
    moved = client.post(
        f"/seasons/{season_id}/schedule",
        data={
            "starts_at": "2030-01-01T00:00",
            "ends_at": "2032-01-01T00:00",
            "cadence_minutes": "5",
            "csrf_token": token,
        },
    )
    assert moved.status_code == 302
    db.rollback()
    assert db.get(Season, season_id).cadence_seconds == 300
    wrong = client.post(
        f"/seasons/{season_id}/schedule",
        data={
            "starts_at": "2033-01-01T00:00",
            "ends_at": "2032-01-01T00:00",
            "cadence_minutes": "5",
            "csrf_token": token,
        },
    )
    assert wrong.status_code == 400
    assert client.post(f"/seasons/{season_id}/start", data={"csrf_token": token}).status_code == 302
    db.rollback()
    assert db.get(Season, season_id).status is SeasonStatus.RUNNING
    late = client.post(
        f"/seasons/{season_id}/schedule",
        data={
            "starts_at": "2030-01-01T00:00",
            "ends_at": "2032-01-01T00:00",
            "cadence_minutes": "5",
            "csrf_token": token,
        },
    )
    assert late.status_code == 409

    response = client.post(f"/seasons/{world.season_id}/round", data={"csrf_token": token})
    assert response.status_code == 302
    db.rollback()
    queued = db.scalar(
        select(func.count()).where(
            Match.season_id == world.season_id, Match.status == MatchStatus.QUEUED
        )
    )
    assert queued >= 1  # left for the workers' dispatch

    assert (
        client.post(f"/seasons/{world.season_id}/finish", data={"csrf_token": token}).status_code
        == 302
    )
    page = client.get(f"/seasons/{world.season_id}").get_data(as_text=True)
    assert "Final results" in page
    assert 'id="final-results"' in page
    assert "shark" in page
    assert (
        client.post(f"/seasons/{world.season_id}/round", data={"csrf_token": token}).status_code
        == 409
    )
    assert client.post("/seasons/999/finish", data={"csrf_token": token}).status_code == 404
    assert client.post(f"/seasons/{world.season_id}/finish", data={}).status_code == 400


# Issue 23's games: "A season can be created on each."
SOURCE_GAMES = (
    "heartsette",
    "black_maria_purist",
    "slobberhannes",
    "four_jacks",
    "gong_zhu",
    "rickety_kate",
    "first_heart_kitty",
    "kitty_each_trick",
    "two_player",
    "enfle",
    "pledge",
    "dealer_counts",
    "extra_cards",
)


@pytest.mark.parametrize("name", SOURCE_GAMES)
def test_a_season_can_be_created_on_each_source_game(client, auth, world, db, name):
    token = admin(client, auth)
    players = preset(name).players
    form = {
        "name": f"Season of {name}",
        "preset": name,
        "players": str(players),
        "starts_at": "2031-06-01T12:00",
        "ends_at": "2031-07-01T12:00",
        "cadence_minutes": "30",
        "house_bots": "y",
        "csrf_token": token,
    }
    created = client.post("/seasons/new", data=form)
    assert created.status_code == 302, created.get_data(as_text=True)[:2000]
    season = db.scalars(select(Season).where(Season.name == f"Season of {name}")).one()
    assert season.ruleset.data["name"] == name and season.ruleset.data["players"] == players
    page = client.get(f"/seasons/{season.id}")
    assert page.status_code == 200
    assert "Players and deal" in page.get_data(as_text=True)
