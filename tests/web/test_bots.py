"""Bot and version pages; the logs, which only the owner and admins may read."""

from __future__ import annotations

from arena.store import write_transaction
from arena.store.models import BotVersion, SeasonEntry, VersionStatus
from tests.web.factories import BOT_SOURCE, row


def test_bot_page(client, world):
    page = client.get(f"/bots/{world.alice_bot_id}").get_data(as_text=True)
    for section in (
        'id="versions"',
        "<svg",
        'id="recent-matches"',
        'id="head-to-head"',
        'id="seat-stats"',
    ):
        assert section in page, section
    assert "bob/minnow" in page  # head to head
    assert "alice&#39;s validation log" not in page  # the log is not on the public page
    assert "Logs" not in page
    assert client.get(f"/bots/{world.alice_bot_id}?season=999").status_code == 200
    assert client.get("/bots/999").status_code == 404


def test_version_page_and_status_show_the_log_to_the_owner_only(client, auth, world):
    url = f"/versions/{world.alice_version_id}"
    assert "alice&#39;s validation log" not in client.get(url).get_data(as_text=True)
    status = client.get(f"{url}/status").json
    assert status["status"] == "ready"
    assert status["settled"] is True
    assert "log" not in status
    auth.login("bob")
    assert "log" not in client.get(f"{url}/status").json
    auth.logout()
    auth.login("alice")
    assert client.get(f"{url}/status").json["log"] == "alice's validation log"
    assert "alice&#39;s validation log" in client.get(url).get_data(as_text=True)
    pending = client.get(f"/versions/{world.alice_pending_id}/status").json
    assert pending["status"] == "pending"
    assert pending["settled"] is False
    assert client.get("/versions/999").status_code == 404
    assert client.get("/versions/999/status").status_code == 404


def test_logs_are_for_the_owner_and_admins(client, auth, world):
    paths = [
        f"/bots/{world.alice_bot_id}/logs",
        f"/bots/{world.alice_bot_id}/logs/{world.match_id}",
        f"/versions/{world.alice_version_id}/archive",
    ]
    for path in paths:
        assert client.get(path).status_code == 401, path
        assert (
            client.get(path, headers={"Accept": "application/json"}).json["error"]["status"] == 401
        )
    auth.login("bob")
    for path in paths:
        response = client.get(path)
        assert response.status_code == 403, path
        assert "owner" in response.get_data(as_text=True)
    auth.logout()
    for name in ("alice", "root"):
        auth.login(name)
        logs = client.get(paths[0]).get_data(as_text=True)
        assert "alice&#39;s validation log" in logs
        match_log = client.get(paths[1]).get_data(as_text=True)
        assert "owner eyes only" in match_log  # the bot's stderr in that match
        assert "bench fault at call" in match_log  # the fault's detail
        archive = client.get(paths[2])
        assert archive.data == BOT_SOURCE
        assert "shark-v1.py" in archive.headers["Content-Disposition"]
        auth.logout()


def test_match_log_of_a_match_the_bot_did_not_play(client, auth, world):
    auth.login("bob")
    assert client.get(f"/bots/{world.bob_bot_id}/logs/999").status_code == 404


def test_owner_enters_a_season(client, auth, world, db):
    auth.login("alice")
    page = client.get(f"/bots/{world.alice_bot_id}").get_data(as_text=True)
    assert "Withdraw" in page  # alice's bot is in Spring already: it can leave, then re-enter
    withdrawn = client.post(
        f"/bots/{world.alice_bot_id}/withdraw",
        data={"season": world.season_id, "csrf_token": auth.token()},
    )
    assert withdrawn.status_code == 302
    assert not db.query(SeasonEntry).filter_by(bot_version_id=world.alice_version_id).one().active
    db.rollback()
    page = client.get(f"/bots/{world.alice_bot_id}").get_data(as_text=True)
    assert 'id="enter-form"' in page and "Enter" in page
    response = client.post(
        f"/bots/{world.alice_bot_id}/enter",
        data={"season": world.season_id, "csrf_token": auth.token()},
    )
    assert response.status_code == 302
    assert db.query(SeasonEntry).filter_by(bot_version_id=world.alice_version_id).one().active
    bad = client.post(
        f"/bots/{world.alice_bot_id}/enter", data={"season": 999, "csrf_token": auth.token()}
    )
    assert bad.status_code == 400


def test_entering_needs_a_ready_version_and_the_owner(client, auth, world, app):
    from web.database import sessions

    with sessions(app)() as db, write_transaction(db):
        row(db, BotVersion, world.bob_version_id).status = VersionStatus.DISABLED
    auth.login("bob")
    response = client.post(
        f"/bots/{world.bob_bot_id}/enter",
        data={"season": world.season_id, "csrf_token": auth.token()},
    )
    assert response.status_code == 409
    auth.logout()
    assert client.post(f"/bots/{world.bob_bot_id}/enter", data={}).status_code == 400  # CSRF first
    auth.login("alice")
    response = client.post(
        f"/bots/{world.bob_bot_id}/enter",
        data={"season": world.season_id, "csrf_token": auth.token()},
    )
    assert response.status_code == 403
