"""Running the site: a database outage is a 503 with a retry hint, the logs are JSON when
asked, and per-user quotas on uploads and challenges answer 429."""

from __future__ import annotations

import io
import json
import logging
from typing import Any

import pytest

from arena.store.accounts import issue_token
from arena.store.models import User
from tests.store.private_postgres import private_postgres
from tests.web.conftest import make_app
from tests.web.factories import BOT_SOURCE, row
from web.database import dispose

__all__ = ["private_postgres"]


@pytest.mark.timeout(180)
def test_a_database_outage_is_a_503_with_retry_after(private_postgres):
    app = make_app(private_postgres.url.render_as_string(hide_password=False))
    client = app.test_client()
    try:
        assert client.get("/api/v1/seasons").status_code == 200
        private_postgres.stop()
        for path, accept in (("/api/v1/seasons", "application/json"), ("/", "text/html")):
            response = client.get(path, headers={"Accept": accept})
            assert response.status_code == 503, path
            assert response.headers["Retry-After"] == "5"
        body = client.get("/api/v1/seasons").get_json()
        assert "unavailable" in body["error"]["message"]
        private_postgres.start()
        assert client.get("/api/v1/seasons").status_code == 200  # back by itself
    finally:
        dispose(app)


def test_the_site_logs_json_when_asked(database, world, monkeypatch):
    monkeypatch.setenv("ARENA_LOG_FORMAT", "json")
    app = make_app(database)
    stream = io.StringIO()
    handler: Any = logging.getLogger("web.access").handlers[0]
    monkeypatch.setattr(handler, "stream", stream)
    try:
        assert app.test_client().get("/api/v1/matches/999").status_code == 404
    finally:
        dispose(app)
        for name in ("web", "web.access"):  # as other tests' apps expect them
            logging.getLogger(name).handlers = []
            logging.getLogger(name).propagate = True
    entry = json.loads(stream.getvalue().splitlines()[-1])
    assert entry["logger"] == "web.access"
    assert entry["path"] == "/api/v1/matches/999"
    assert entry["status"] == 404
    assert {"ts", "level", "msg", "pid", "ms"} <= set(entry)


@pytest.fixture
def tight(database):
    app = make_app(database, UPLOADS_PER_DAY=3, CHALLENGES_QUEUED=1, CHALLENGES_PER_DAY=2)
    yield app
    dispose(app)


def test_quotas_on_uploads_and_challenges(tight, world, db):
    with db.begin():
        _row, token = issue_token(db, row(db, User, world.bob_id), "quota")
    client = tight.test_client()
    headers = {"Authorization": f"Bearer {token}"}

    def upload(number: int):
        data = {"file": (io.BytesIO(BOT_SOURCE + f"# {number}\n".encode()), "bot.py")}
        return client.post("/api/v1/bots/quota/versions", headers=headers, data=data)

    assert [upload(n).status_code for n in range(3)] == [201, 201, 429]
    assert "quota is 3" in upload(4).json["error"]["message"]  # bob's minnow counts too
    body = {
        "version": world.bob_version_id,
        "opponents": ["alice/shark", "house/random-1", "house/heuristic-1"],
        "hands": 1,
    }
    first = client.post("/api/v1/challenges", json=body, headers=headers)
    assert first.status_code == 201
    second = client.post("/api/v1/challenges", json=body, headers=headers)
    assert second.status_code == 429
    assert "waiting" in second.json["error"]["message"]
    assert int(second.headers["Retry-After"]) > 0
