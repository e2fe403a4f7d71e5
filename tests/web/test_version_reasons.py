"""A rejected version's reason quotes the bot's own words (its exception, up to 4,000
characters, bidi controls and all): its owner (and admins) read them on every route that
shows the version; anyone else reads the kind of failure only (docs/api.md, Security)."""

from __future__ import annotations

import pytest

from arena.store import write_transaction
from arena.store.bots import add_version, set_version_status
from arena.store.models import Bot, VersionStatus
from tests.web.factories import BOT_SOURCE, row

MARK = "ValueError: my-secret-strategy \u202eexe.gnp"
REASON = "failed: error — the bot's code raised: Traceback (most recent call last):\n" + (
    MARK + " " + "x" * 3900
)


@pytest.fixture
def rejected(db, world) -> int:
    """A rejected version of alice's bot, as a worker leaves it."""
    with write_transaction(db):
        version = add_version(db, row(db, Bot, world.alice_bot_id), BOT_SOURCE + b"# v3\n")
        set_version_status(db, version, VersionStatus.VALIDATING)
        set_version_status(db, version, VersionStatus.REJECTED, reason=REASON, detail="stderr")
        return version.id


def _routes(world, version_id: int) -> list[tuple[str, bool]]:
    """Each route showing the version: (path, whether it answers JSON)."""
    return [
        (f"/api/v1/versions/{version_id}", True),
        (f"/versions/{version_id}/status", True),
        (f"/api/v1/bots/{world.alice_bot_id}", True),
        (f"/versions/{version_id}", False),
        (f"/bots/{world.alice_bot_id}", False),
    ]


def _reason(client, path: str, is_json: bool, version_id: int) -> str:
    response = client.get(path)
    assert response.status_code == 200, path
    if not is_json:
        return response.get_data(as_text=True)
    body = response.get_json()
    if "versions" in body:
        body = next(v for v in body["versions"] if v["id"] == version_id)
    return str(body["reason"])


@pytest.mark.parametrize("who", [None, "bob"])
def test_others_read_the_kind_of_failure_only(client, auth, world, rejected, who):
    if who:
        auth.login(who)
    for path, is_json in _routes(world, rejected):
        shown = _reason(client, path, is_json, rejected)
        assert "my-secret-strategy" not in shown, path
        assert "\u202e" not in shown, path
        assert "failed: error" in shown, path
        if is_json:
            assert shown == "failed: error", path


@pytest.mark.parametrize("who", ["alice", "root"])
def test_the_owner_and_admins_read_the_whole_reason(client, auth, world, rejected, who):
    auth.login(who)
    for path, is_json in _routes(world, rejected):
        shown = _reason(client, path, is_json, rejected)
        assert "my-secret-strategy" in shown, path
        if is_json:
            assert shown == REASON, path


def test_a_ready_versions_reason_stays_public(client, world):
    body = client.get(f"/api/v1/versions/{world.alice_version_id}").get_json()
    assert body["reason"] == "passed"
