"""Where a bot plays, on the site and through the API: enter, withdraw, pin; every version
says what happens next; a rejected version reads as rejected."""

from __future__ import annotations

import io
import re

import pytest
from sqlalchemy import select

from arena.store import write_transaction
from arena.store.accounts import issue_token
from arena.store.bots import set_version_status
from arena.store.models import Bot, BotVersion, SeasonEntry, User, VersionStatus
from tests.web.conftest import csrf_token
from tests.web.factories import BOT_SOURCE, row


@pytest.fixture
def token(world, db):
    with write_transaction(db):
        _row, text = issue_token(db, row(db, User, world.alice_id), "tests")
    return text


def bearer(text):
    return {"Authorization": f"Bearer {text}"}


def settle(app, version_id, status, reason="", detail=None):
    """Move a version as the validation worker would (without its promotion)."""
    from web.database import sessions

    with sessions(app)() as db:
        with write_transaction(db):
            version = row(db, BotVersion, version_id)
            set_version_status(db, version, VersionStatus.VALIDATING)
        with write_transaction(db):
            version = row(db, BotVersion, version_id)
            set_version_status(db, version, status, reason=reason, detail=detail)


def active(db, season_id, bot_id):
    db.rollback()
    return db.scalars(
        select(BotVersion.number)
        .join(SeasonEntry, SeasonEntry.bot_version_id == BotVersion.id)
        .where(
            SeasonEntry.season_id == season_id,
            SeasonEntry.active.is_(True),
            BotVersion.bot_id == bot_id,
        )
    ).all()


def test_the_bot_page_says_where_it_plays_and_its_owner_can_pin(client, auth, world, db, app):
    page = client.get(f"/bots/{world.alice_bot_id}").get_data(as_text=True)
    assert 'id="entered-seasons"' in page and "Spring" in page
    assert "v2:</strong> pending — waiting for a worker to validate it; once ready it takes" in page
    assert 'id="pin-form"' not in page and "Withdraw" not in page  # visitors see, never act

    auth.login("alice")
    page = client.get(f"/bots/{world.alice_bot_id}").get_data(as_text=True)
    assert 'id="pin-form"' in page and 'value="2"' not in page.split('id="pin-form"')[1][:600]
    url = f"/bots/{world.alice_bot_id}/pin"
    assert client.post(url, data={"version": 1}).status_code == 400  # no CSRF token
    pinned = client.post(url, data={"version": 1, "csrf_token": auth.token()})
    assert pinned.status_code == 302
    assert row(db, Bot, world.alice_bot_id).pinned_number == 1
    not_ready = client.post(url, data={"version": 2, "csrf_token": auth.token()})
    assert not_ready.status_code == 400
    settle(app, world.alice_pending_id, VersionStatus.READY, "passed")
    assert active(db, world.season_id, world.alice_bot_id) == [1]  # pinned: v2 waits
    unpinned = client.post(url, data={"version": 0, "csrf_token": auth.token()})
    assert unpinned.status_code == 302
    assert active(db, world.season_id, world.alice_bot_id) == [2]
    page = client.get(f"/bots/{world.alice_bot_id}").get_data(as_text=True)
    assert "v2:</strong> ready — it plays in Spring from the next round" in page

    auth.logout()
    auth.login("bob")
    stranger = client.post(url, data={"version": 1, "csrf_token": auth.token()})
    assert stranger.status_code == 403
    withdraw = client.post(
        f"/bots/{world.alice_bot_id}/withdraw",
        data={"season": world.season_id, "csrf_token": auth.token()},
    )
    assert withdraw.status_code == 403


def test_a_rejected_version_reads_as_rejected(client, auth, world, app):
    settle(app, world.alice_pending_id, VersionStatus.REJECTED, "it crashed", "Traceback …")
    page = client.get(f"/versions/{world.alice_pending_id}").get_data(as_text=True)
    assert '<li data-step="ready" class="failed">rejected</li>' in page
    assert 'class="current"' not in page
    assert 'data-settled="true"' in page
    assert "rejected — see the log, fix the bot and upload a new version; v1 keeps playing" in page
    status = client.get(f"/versions/{world.alice_pending_id}/status").json
    assert status["status"] == "rejected" and status["settled"]
    assert status["next"].startswith("rejected — ")


def test_the_api_enters_withdraws_and_pins(client, world, token):
    base = f"/api/v1/bots/{world.alice_bot_id}"
    entries = client.get(f"{base}/entries").json
    assert entries["playing_version"] == 1 and entries["pinned_version"] is None
    assert [s["season"] for s in entries["seasons"]] == ["Spring"]
    assert entries["next"].startswith("pending — ")

    assert client.delete(f"{base}/entries/{world.season_id}").status_code == 401
    out = client.delete(f"{base}/entries/{world.season_id}", headers=bearer(token))
    assert out.status_code == 200 and out.json["withdrawn"] and out.json["seasons"] == []
    again = client.delete(f"{base}/entries/{world.season_id}", headers=bearer(token))
    assert again.status_code == 200 and not again.json["withdrawn"]
    assert client.delete(f"{base}/entries/999", headers=bearer(token)).status_code == 404

    bad_seasons: list[dict[str, object]] = [{}, {"season": "1"}, {"season": True}]
    for body in bad_seasons:
        assert client.post(f"{base}/entries", json=body, headers=bearer(token)).status_code == 400
    missing = client.post(f"{base}/entries", json={"season": 999}, headers=bearer(token))
    assert missing.status_code == 404
    back = client.post(f"{base}/entries", json={"season": world.season_id}, headers=bearer(token))
    assert back.status_code == 201 and back.json["seasons"][0]["version"] == 1

    bad_pins: list[dict[str, object]] = [{}, {"version": "2"}, {"version": 0}, {"version": False}]
    for body in bad_pins:
        assert client.put(f"{base}/pin", json=body, headers=bearer(token)).status_code == 400
    pending = client.put(f"{base}/pin", json={"version": 2}, headers=bearer(token))
    assert pending.status_code == 409 and "pending" in pending.json["error"]["message"]
    pinned = client.put(f"{base}/pin", json={"version": 1}, headers=bearer(token))
    assert pinned.status_code == 200 and pinned.json["pinned_version"] == 1
    assert (
        client.put(f"{base}/pin", json={"version": None}, headers=bearer(token)).json[
            "pinned_version"
        ]
        is None
    )

    theirs = f"/api/v1/bots/{world.bob_bot_id}"
    assert (
        client.put(f"{theirs}/pin", json={"version": 1}, headers=bearer(token)).status_code == 403
    )
    assert client.get(base).json["entries"]["playing_version"] == 1


def test_the_upload_answers_say_what_happens_next(client, auth, world, token, db):
    answer = client.post(
        "/api/v1/bots/orca/versions",
        data={"file": (io.BytesIO(BOT_SOURCE + b"# orca\n"), "orca.py"), "enter": "no"},
        headers=bearer(token),
        content_type="multipart/form-data",
    )
    assert answer.status_code == 201
    assert answer.json["next"] == (
        "pending — waiting for a worker to validate it; once ready, enter it in a season from "
        "its bot page (or arena bot enter orca)"
    )
    version = row(db, BotVersion, answer.json["id"])
    assert version.join_default_season is False
    bad = client.post(
        "/api/v1/bots/orca/versions",
        data={"file": (io.BytesIO(BOT_SOURCE), "orca.py"), "enter": "maybe"},
        headers=bearer(token),
        content_type="multipart/form-data",
    )
    assert bad.status_code == 400 and "'enter'" in bad.json["error"]["message"]

    auth.login("bob")
    page = client.post(
        "/upload",
        data={
            "name": "whale",
            "file": (io.BytesIO(BOT_SOURCE + b"# whale\n"), "whale.py"),
            "csrf_token": csrf_token(client, "/upload"),
        },  # the checkbox left unticked: opted out
        content_type="multipart/form-data",
        follow_redirects=True,
    ).get_data(as_text=True)
    assert "Uploaded whale version 1. Pending — waiting for a worker to validate it" in page
    db.rollback()
    whale = db.scalars(select(BotVersion).join(Bot).where(Bot.name == "whale")).one()
    assert whale.join_default_season is False
    form = client.get("/upload").get_data(as_text=True)
    tick = re.search(r'<input[^>]*name="enter"[^>]*>', form)
    assert tick is not None and "checked" in tick.group(0)  # joining is the default
