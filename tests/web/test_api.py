"""The JSON API v1: every endpoint, token authentication, pagination, uploads, challenges,
and bad input answered with a clear JSON error, never a 500."""

from __future__ import annotations

import io
import itertools

import pytest

from arena.store import write_transaction
from arena.store.accounts import issue_token
from arena.store.models import User
from tests.web.factories import BOT_SOURCE, row
from tests.web.test_uploads import zip_of


@pytest.fixture
def token(world, db):
    with write_transaction(db):
        _row, text = issue_token(db, row(db, User, world.alice_id), "tests")
    return text


def bearer(text):
    return {"Authorization": f"Bearer {text}"}


def test_index_and_me(client, token):
    assert client.get("/api/v1/").json["version"] == 1
    assert client.get("/api/v1/me", headers=bearer(token)).json["username"] == "alice"
    anonymous = client.get("/api/v1/me")
    assert anonymous.status_code == 401
    assert anonymous.headers["WWW-Authenticate"].startswith("Bearer")


@pytest.mark.parametrize("header", ["Bearer ha_wrong", "Basic abc", "Bearer", "token"])
def test_bad_tokens_are_401(client, world, header):
    response = client.get("/api/v1/seasons", headers={"Authorization": header})
    assert response.status_code == 401
    assert response.json["error"]["status"] == 401


def test_seasons(client, world):
    listing = client.get("/api/v1/seasons").json
    assert listing["total"] == 1
    assert listing["items"][0]["name"] == "Spring"
    season = client.get(f"/api/v1/seasons/{world.season_id}").json
    assert season["rules"]["name"] == "standard"
    assert season["rules_text"][0]["topic"] == "Players and deal"
    assert client.get("/api/v1/seasons?status=running").json["total"] == 1
    assert client.get("/api/v1/seasons?status=finished").json["total"] == 0


def test_ladder_and_pagination(client, world):
    # Alice's and Bob's bots are ranked; the two house bots at their table are not.
    first = client.get(f"/api/v1/seasons/{world.season_id}/ladder?per_page=1").json
    assert [line["rank"] for line in first["items"]] == [1]
    assert first["total"] == 2
    assert first["pages"] == 2
    assert first["next"].endswith("page=2") or "page=2" in first["next"]
    second = client.get(first["next"]).json
    assert [line["rank"] for line in second["items"]] == [2]
    assert second["next"] is None
    assert {line["bot"] for line in first["items"] + second["items"]} == {"shark", "minnow"}
    assert len(first["house"]) == 2 and all(h["games"] == 1 for h in first["house"])
    season = client.get(f"/api/v1/seasons/{world.season_id}").json
    assert season["counts"]["ranked"] == first["total"]
    line = first["items"][0]
    for key in (
        "elo",
        "elo_error",
        "provisional",
        "games",
        "points_per_hand",
        "moons",
        "faults_per_100_hands",
    ):
        assert key in line
    by_games = client.get(f"/api/v1/seasons/{world.season_id}/ladder?sort=games&order=asc").json
    assert by_games["sort"] == "games"
    assert by_games["order"] == "asc"


def test_bots_versions_and_matches(client, world, token):
    bots = client.get("/api/v1/bots?owner=alice").json
    assert [b["name"] for b in bots["items"]] == ["shark"]
    assert client.get("/api/v1/bots").json["total"] >= 3
    bot = client.get(f"/api/v1/bots/{world.alice_bot_id}").json
    assert [v["number"] for v in bot["versions"]] == [2, 1]
    assert "log" not in bot["versions"][1]
    mine = client.get(f"/api/v1/bots/{world.alice_bot_id}", headers=bearer(token)).json
    assert mine["versions"][1]["log"] == "alice's validation log"
    version = client.get(f"/api/v1/versions/{world.alice_pending_id}").json
    assert version["status"] == "pending"
    played = client.get(f"/api/v1/bots/{world.alice_bot_id}/matches").json
    assert played["items"][0]["match_id"] == world.match_id
    matches = client.get(
        f"/api/v1/matches?season={world.season_id}&status=done&bot={world.bob_bot_id}"
    ).json
    assert [m["id"] for m in matches["items"]] == [world.match_id]
    match = client.get(f"/api/v1/matches/{world.match_id}").json
    assert [s["bot"] for s in match["seats"]][:2] == ["shark", "minnow"]
    assert match["rated"] is True
    replay = client.get(match["replay"]).json
    assert replay["logs"][0] == ""
    assert "owner eyes only" in client.get(match["replay"], headers=bearer(token)).json["logs"][0]


def post_bot(client, name, data, filename="bot.py", headers=None):
    return client.post(
        f"/api/v1/bots/{name}/versions",
        data={"file": (io.BytesIO(data), filename)},
        headers=headers or {},
        content_type="multipart/form-data",
    )


def test_upload(client, token):
    created = post_bot(client, "orca", BOT_SOURCE, headers=bearer(token))
    assert created.status_code == 201
    assert created.json["status"] == "pending"
    assert created.json["number"] == 1
    assert created.headers["Location"] == f"/api/v1/versions/{created.json['id']}"
    same = post_bot(client, "orca", BOT_SOURCE, headers=bearer(token))
    assert same.status_code == 200
    assert same.json["id"] == created.json["id"]
    newer = post_bot(
        client, "orca", zip_of({"bot.py": BOT_SOURCE + b"# 2\n"}), "orca.zip", bearer(token)
    )
    assert newer.json["number"] == 2


def test_upload_needs_a_token_even_with_a_session(client, auth, world):
    auth.login()
    response = post_bot(client, "orca", BOT_SOURCE)
    assert response.status_code == 401


@pytest.mark.parametrize(
    ("name", "data", "filename", "status", "reason"),
    [
        ("orca", zip_of({"../x.py": b"", "bot.py": BOT_SOURCE}), "x.zip", 422, "unsafe"),
        ("orca", zip_of({"bot.py": BOT_SOURCE}, links=("l",)), "x.zip", 422, "unsafe"),
        ("orca", b"hello", "x.txt", 422, "not_a_bot"),
        ("orca", b"#" * (1024 * 1024 + 5), "x.py", 413, "too_large"),
        ("bad name!", BOT_SOURCE, "x.py", 400, None),
    ],
)
def test_bad_uploads(client, token, name, data, filename, status, reason):
    response = post_bot(client, name, data, filename, bearer(token))
    assert response.status_code == status
    assert response.json["error"]["status"] == status
    if reason:
        assert response.json["error"]["reason"] == reason


def test_upload_without_a_file_or_too_large_a_request(client, token):
    missing = client.post("/api/v1/bots/orca/versions", headers=bearer(token), data={})
    assert missing.status_code == 400
    assert "file" in missing.json["error"]["message"]
    huge = post_bot(client, "orca", b"#" * (3 * 1024 * 1024), headers=bearer(token))
    assert huge.status_code == 413
    assert huge.json["error"]["code"] == "request_entity_too_large"


def test_challenge(client, world, token):
    body = {
        "version": world.alice_version_id,
        "opponents": ["bob/minnow", "house/heuristic-1", "house/random-1"],
        "rules": "standard",
        "hands": 2,
    }
    response = client.post("/api/v1/challenges", json=body, headers=bearer(token))
    assert response.status_code == 201
    assert response.json["status"] == "queued"
    assert response.json["season_id"] is None
    assert response.json["rated"] is False


@pytest.mark.parametrize(
    ("body", "status"),
    [
        (None, 400),
        ([], 400),
        ({"version": "one", "opponents": []}, 400),
        ({"version": True, "opponents": []}, 400),
        ({"version": 1, "opponents": "bob/minnow"}, 400),
        ({"version": 1, "opponents": [1, 2]}, 400),
        ({"version": 1, "opponents": [], "rules": 5}, 400),
        ({"version": 1, "opponents": ["bob/minnow"] * 3, "hands": 0}, 400),
        ({"version": 1, "opponents": ["bob/minnow"] * 3, "hands": "3"}, 400),
        ({"version": 999, "opponents": ["bob/minnow"]}, 422),
        ({"version": 1, "opponents": ["nobody/x", "b/c", "d/e"]}, 422),
        (
            {
                "version": 1,
                "opponents": ["bob/minnow", "house/random-1", "house/random-2"],
                "rules": "nope",
            },
            422,
        ),
        ({"version": 3, "opponents": ["bob/minnow", "house/random-1", "house/random-2"]}, 422),
    ],
)
def test_bad_challenges(client, world, token, body, status):
    if body is None:
        response = client.post(
            "/api/v1/challenges",
            data="{not json",
            headers=bearer(token),
            content_type="application/json",
        )
    else:
        response = client.post("/api/v1/challenges", json=body, headers=bearer(token))
    assert response.status_code == status
    assert response.json["error"]["message"]


def test_writes_need_a_token(client, world):
    assert client.post("/api/v1/challenges", json={}).status_code == 401


def test_bad_input_is_a_clear_json_error_never_a_500(client, world, token):
    """Every read endpoint, with bad values in every query argument it takes."""
    paths = [
        "/api/v1/seasons",
        f"/api/v1/seasons/{world.season_id}/ladder",
        "/api/v1/bots",
        f"/api/v1/bots/{world.alice_bot_id}/matches",
        "/api/v1/matches",
    ]
    arguments = ["page", "per_page", "sort", "order", "status", "season", "bot", "owner"]
    values = [
        "-1",
        "0",
        "abc",
        "1e9",
        "99999999999999999999",
        "",
        "%00",
        "' OR 1=1 --",
        "1.5",
        "201",
    ]
    for path, argument, value in itertools.product(paths, arguments, values):
        response = client.get(f"{path}?{argument}={value}", headers=bearer(token))
        assert response.status_code < 500, (path, argument, value)
        if response.status_code >= 400:
            assert response.json["error"]["message"], (path, argument, value)
    for path in (
        "/api/v1/seasons/0",
        "/api/v1/bots/99999",
        "/api/v1/matches/-1",
        "/api/v1/versions/abc",
    ):
        response = client.get(path)
        assert response.status_code == 404
        assert response.json["error"]["code"] == "not_found"


def test_per_page_is_capped(client, world):
    response = client.get("/api/v1/bots?per_page=500")
    assert response.status_code == 400
    assert "per_page must be between 1 and 200" in response.json["error"]["message"]
