"""The open data on the site and in the API, on SQLite and PostgreSQL: the download page
lists a season's dump with its licence and checksums, every file downloads with the
SHA-256 it is listed with, names a dump does not list are 404, and only a bot's owner
opts its notes in."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from sqlalchemy.orm import Session

from arena.data.export import LICENCES, export_season
from arena.data.played import play_season
from arena.store import write_transaction
from arena.store.accounts import issue_token
from arena.store.models import Bot, Season, User
from tests.web.conftest import make_app
from tests.web.factories import row
from web.database import dispose


@pytest.fixture
def app(database: str, tmp_path: Path) -> Iterator[Flask]:
    """The site, its open-data folder in this test's temporary folder."""
    application = make_app(database, OPEN_DATA_DIR=str(tmp_path / "open-data"))
    yield application
    dispose(application)


@pytest.fixture
def published(app: Flask, db: Session) -> int:
    """A finished season of six entrants played and stored, licensed CC0, exported."""
    played = play_season(db, name="Autumn", strengths=(0.0, 0.3, 0.6, 1.0, 0.2, 0.8), matches=4)
    db.rollback()
    with write_transaction(db):
        row(db, Season, played.season_id).data_licence = "CC0-1.0"
    export_season(db, played.season_id, Path(app.config["OPEN_DATA_DIR"]))
    return played.season_id


def test_the_download_page_lists_the_dump_and_every_file_matches_its_checksum(
    client, published: int
) -> None:
    page = client.get("/data/").get_data(as_text=True)
    assert "Autumn" in page
    assert LICENCES["CC0-1.0"][0] in page
    listing = client.get("/api/v1/data").json
    assert listing["schema_version"] == 1
    (dump,) = listing["items"]
    assert dump["season"] == {"id": published, "name": "Autumn"}
    assert dump["licence"]["id"] == "CC0-1.0"
    assert dump["matches"] == 4
    names = {f["name"] for f in dump["files"]}
    assert {"matches.jsonl.gz", "hands.parquet", "SHA256SUMS", "schema.json"} <= names
    for entry in dump["files"]:
        assert entry["sha256"] in page
        response = client.get(entry["url"])
        assert response.status_code == 200, entry["name"]
        body = response.get_data()
        assert len(body) == entry["size"]
        assert hashlib.sha256(body).hexdigest() == entry["sha256"]
    sums = client.get(f"/data/{dump['id']}/SHA256SUMS").get_data(as_text=True)
    for entry in dump["files"]:
        if entry["name"] != "SHA256SUMS":
            assert f"{entry['sha256']}  {entry['name']}\n" in sums
    assert client.get(f"/api/v1/data/{dump['id']}").json == dump
    season = client.get(f"/api/v1/seasons/{published}/data").json
    assert season["season"]["data_licence"] == "CC0-1.0"
    assert season["items"] == [dump]


def test_names_a_dump_does_not_list_are_not_served(client, published: int) -> None:
    dump_id = client.get("/api/v1/data").json["items"][0]["id"]
    for path in (
        f"/data/{dump_id}/arena.db",
        f"/data/{dump_id}/..%2F..%2Farena.db",
        f"/data/{dump_id + 1}/SHA256SUMS",
        "/api/v1/data/999999",
        "/api/v1/seasons/999999/data",
    ):
        assert client.get(path).status_code == 404, path


def test_an_empty_list_says_how_to_publish(client) -> None:
    assert "arena data export SEASON" in client.get("/data/").get_data(as_text=True)
    assert client.get("/api/v1/data").json["items"] == []


def test_only_the_owner_opts_a_bots_notes_in(client, world, db: Session) -> None:
    with write_transaction(db):
        _row, text = issue_token(db, row(db, User, world.alice_id), "tests")
    bearer = {"Authorization": f"Bearer {text}"}
    url = f"/api/v1/bots/{world.alice_bot_id}/notes-public"
    assert client.put(url, json={"public": True}).status_code == 401
    assert client.put(url, json={"public": "yes"}, headers=bearer).status_code == 400
    answer = client.put(url, json={"public": True}, headers=bearer)
    assert answer.status_code == 200
    assert answer.json == {"bot": world.alice_bot_id, "notes_public": True}
    db.expire_all()
    assert row(db, Bot, world.alice_bot_id).notes_public is True
    theirs = f"/api/v1/bots/{world.bob_bot_id}/notes-public"
    assert client.put(theirs, json={"public": True}, headers=bearer).status_code == 403
    db.expire_all()
    assert row(db, Bot, world.bob_bot_id).notes_public is False
    assert client.put(url, json={"public": False}, headers=bearer).json["notes_public"] is False
