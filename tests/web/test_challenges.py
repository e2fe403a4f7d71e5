"""Challenges: an unrated, queued match against the opponents a player names."""

from __future__ import annotations

from arena.store.models import Match, MatchStatus
from tests.web.conftest import csrf_token


def challenge(client, **fields):
    data = {
        "version": "1",
        "opponents": "bob/minnow, house/heuristic-1, house/random-1",
        "preset": "standard",
        "csrf_token": csrf_token(client, "/challenge"),
    }
    data.update(fields)
    return client.post("/challenge", data=data)


def test_a_challenge_queues_an_unrated_match(client, auth, world, db):
    auth.login()
    page = client.get("/challenge").get_data(as_text=True)
    assert "shark v1" in page
    assert "house/heuristic-1" in page
    response = challenge(client, version=str(world.alice_version_id), hands="3")
    assert response.status_code == 302
    match_id = int(response.headers["Location"].rsplit("/", 1)[1])
    match = db.get(Match, match_id)
    assert match.season_id is None
    assert match.status is MatchStatus.QUEUED
    assert match.ruleset.data["max_hands"] == 3
    assert [seat.bot_version_id for seat in match.seats][:2] == [
        world.alice_version_id,
        world.bob_version_id,
    ]
    assert "Challenge" in client.get(response.headers["Location"]).get_data(as_text=True)


def test_bad_challenges_say_why(client, auth, world):
    auth.login()
    cases = {
        "nobody/nothing": "there is no bot nobody/nothing",
        "justaname": "name opponents as owner/bot",
        "bob/minnow": "for 2 players",
        "bob/minnow, bob/minnow, house/random-1": "only once",
        "alice/shark, bob/minnow, house/random-1": "only once",
    }
    for opponents, words in cases.items():
        response = challenge(client, version=str(world.alice_version_id), opponents=opponents)
        assert response.status_code == 400, opponents
        assert words in response.get_data(as_text=True), opponents
    not_mine = challenge(client, version=str(world.bob_version_id))
    assert not_mine.status_code == 400  # not one of the choices offered
    too_many = challenge(client, version=str(world.alice_version_id), hands="500")
    assert too_many.status_code == 400


def test_a_challenge_needs_a_ready_opponent(client, auth, world):
    auth.login("bob")
    response = challenge(
        client,
        version=str(world.bob_version_id),
        opponents="alice/shark, house/heuristic-1, house/random-1",
    )
    assert response.status_code == 302  # alice's newest ready version is v1 (v2 is pending)


def test_challenge_needs_sign_in(client, world):
    assert client.get("/challenge").status_code == 302
