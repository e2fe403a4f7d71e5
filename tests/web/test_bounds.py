"""Hostile input at the edge: ids beyond their column, deep or large JSON, long lists and
long texts are 4xx answers on both databases, and list pages cost a fixed number of
queries; a cold cache is computed once however many ask for it at the same moment."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests
from sqlalchemy import event

from arena.engine import preset
from arena.store import write_transaction
from arena.store.accounts import issue_token
from arena.store.models import Replay, User
from tests.web.factories import row
from tests.web.live import LiveServer
from web import ladder as ladder_module
from web.bench import add_match
from web.bounds import MAX_ID, json_depth
from web.database import sessions

HUGE = [MAX_ID + 1, 2**53, 2**63, 10**30]


@pytest.fixture
def token(world, db):
    with db.begin():
        _row, text = issue_token(db, row(db, User, world.alice_id), "bounds")
    return text


def bearer(text):
    return {"Authorization": f"Bearer {text}"}


@pytest.mark.parametrize("number", HUGE)
def test_ids_beyond_the_column_are_404(client, world, number):
    paths = [
        f"/api/v1/matches/{number}",
        f"/api/v1/matches/{number}/replay",
        f"/api/v1/bots/{number}",
        f"/api/v1/bots/{number}/matches",
        f"/api/v1/seasons/{number}",
        f"/api/v1/seasons/{number}/ladder",
        f"/api/v1/versions/{number}",
        f"/matches/{number}",
        f"/bots/{number}",
        f"/seasons/{number}",
        f"/seasons/{number}/ladder",
        f"/versions/{number}",
        f"/users/{number}",
        f"/ladder?season={number}",
    ]
    for path in paths:
        assert client.get(path).status_code == 404, path


@pytest.mark.parametrize("number", HUGE)
def test_writes_to_ids_beyond_the_column_are_404_not_405(client, world, token, number):
    """A refused id matches no route for any method (werkzeug checks methods first)."""
    writes = [
        ("post", f"/api/v1/bots/{number}/entries"),
        ("put", f"/api/v1/bots/{number}/pin"),
        ("delete", f"/api/v1/bots/{number}/entries/1"),
        ("delete", f"/api/v1/bots/1/entries/{number}"),
    ]
    for method, path in writes:
        answer = getattr(client, method)(path, headers=bearer(token), json={"season": 1})
        assert answer.status_code == 404, (method, path, answer.status_code)


@pytest.mark.parametrize("number", [MAX_ID + 1, 2**53])
def test_filters_beyond_the_column_find_nothing(client, world, number):
    for argument in ("season", "bot"):
        response = client.get(f"/api/v1/matches?{argument}={number}")
        assert response.status_code == 200, argument
        assert response.json["items"] == []
    assert client.get(f"/bots/{world.alice_bot_id}?season={number}").status_code == 200


def test_a_challenge_of_a_version_beyond_the_column_is_refused(client, world, token):
    body = {"version": MAX_ID + 1, "opponents": ["bob/minnow", "house/random-1", "b/c"]}
    response = client.post("/api/v1/challenges", json=body, headers=bearer(token))
    assert response.status_code == 422
    assert "no bot version" in response.json["error"]["message"]


def test_deep_and_large_json_is_400(client, world, token):
    deep = "[" * 20_000 + "]" * 20_000  # within the size bound: the depth refuses it
    large = '{"version": 1, "opponents": [' + ", ".join(['"a/b"'] * 20_000) + "]}"
    for text, words in ((deep, "nested deeper"), (large, "larger than")):
        response = client.post(
            "/api/v1/challenges",
            data=text,
            headers=bearer(token),
            content_type="application/json",
        )
        assert response.status_code == 400
        assert words in response.json["error"]["message"]


def test_json_depth_ignores_brackets_in_strings():
    assert json_depth(b'["[[[[", {"a": "\\"{{{"}]') == 2
    assert json_depth(b"1") == 0


def test_a_long_list_of_opponents_is_refused_before_any_lookup(app, client, world, token):
    opponents = ["a/b"] * 5_000  # within the size bound: the count refuses it
    body = {"version": world.alice_version_id, "opponents": opponents}
    queries: list[str] = []
    engine = sessions(app).kw["bind"]

    def counting(*args: object) -> None:
        queries.append(str(args[2]))

    event.listen(engine, "before_cursor_execute", counting)
    try:
        response = client.post("/api/v1/challenges", json=body, headers=bearer(token))
    finally:
        event.remove(engine, "before_cursor_execute", counting)
    assert response.status_code == 400
    assert "at most 9" in response.json["error"]["message"]
    assert not any("bots" in query for query in queries)


def test_messages_quote_input_briefly(client, world):
    long = "x" * 10_000
    for path in (
        f"/api/v1/seasons/{world.season_id}/ladder?sort={long}",
        f"/api/v1/matches?page={long}",
        f"/seasons/{world.season_id}/ladder?sort={long}",
    ):
        response = client.get(path, headers={"Accept": "application/json"})
        assert response.status_code in (400, 404), path
        assert len(response.json["error"]["message"]) < 200, path


def test_me_answers_to_a_token_only(client, auth, world, token):
    auth.login()
    assert client.get("/api/v1/me").status_code == 401  # the session cookie is not enough
    assert client.get("/api/v1/me", headers=bearer(token)).json["username"] == "alice"


def test_a_page_of_matches_costs_the_same_queries_however_many_it_lists(app, client, world, db):
    engine = sessions(app).kw["bind"]

    def queries_for_a_page() -> int:
        counted: list[str] = []

        def counting(*args: object) -> None:
            counted.append(str(args[2]))

        event.listen(engine, "before_cursor_execute", counting)
        try:
            assert client.get("/api/v1/matches?per_page=50").status_code == 200
        finally:
            event.remove(engine, "before_cursor_execute", counting)
        assert not any("replays.content" in query for query in counted)
        return len(counted)

    one = queries_for_a_page()
    with write_transaction(db):
        for seed in range(20):
            match_id = add_match(
                db,
                season_id=None,
                version_ids=[world.alice_version_id, world.bob_version_id],
                rules=preset("standard"),
                seed=seed,
            )
            db.add(Replay(match_id=match_id, sha256="0" * 64, encoding="gzip", size=0, content=b""))
    many = client.get("/api/v1/matches?per_page=50").json
    assert many["total"] == 21
    assert sum(1 for item in many["items"] if item["replay"]) == 21
    assert queries_for_a_page() == one


def test_a_cold_points_table_is_computed_once_for_concurrent_requests(app, world, monkeypatch):
    calls: list[int] = []
    original = ladder_module.season_play_table  # type: ignore[attr-defined]

    def slow(session, season_id):
        calls.append(season_id)
        time.sleep(0.5)  # widen the window: every racer arrives while the first computes
        return original(session, season_id)

    monkeypatch.setattr(ladder_module, "season_play_table", slow)
    racers = 8
    barrier = threading.Barrier(racers)
    with LiveServer(app) as server:
        url = f"{server.url}/api/v1/seasons/{world.season_id}/ladder?sort=points"

        def racer(_: int) -> int:
            barrier.wait(timeout=30)
            return requests.get(url, timeout=60).status_code

        with ThreadPoolExecutor(racers) as pool:
            statuses = list(pool.map(racer, range(racers)))
    assert statuses == [200] * racers
    assert calls == [world.season_id]


@pytest.mark.parametrize("number", HUGE)
def test_ids_beyond_the_column_in_a_json_body_are_refused(client, world, token, number):
    """Found by the schemathesis run: a season or version number no column can hold was
    handed to the database, which overflowed (a 500 on SQLite)."""
    entered = client.post(
        f"/api/v1/bots/{world.alice_bot_id}/entries", headers=bearer(token), json={"season": number}
    )
    assert entered.status_code == 404, entered.get_data(as_text=True)
    pinned = client.put(
        f"/api/v1/bots/{world.alice_bot_id}/pin", headers=bearer(token), json={"version": number}
    )
    assert pinned.status_code == 400, pinned.get_data(as_text=True)
