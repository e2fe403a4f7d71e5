"""`validate_bot_version` in this process: real archives, the real sandbox, the check match."""

from __future__ import annotations

import pytest
from sqlalchemy.orm import Session, sessionmaker

from arena.store.accounts import create_user
from arena.store.bots import add_version, create_bot
from arena.store.database import write_transaction
from arena.store.models import BotVersion, VersionStatus
from tests.workers import bots
from tests.workers.conftest import sandbox_or_skip
from workers import validation
from workers.config import Settings
from workers.sandbox import SandboxUnavailableError

pytestmark = pytest.mark.timeout(180)


def upload(sessions: sessionmaker[Session], content: bytes, name: str = "mybot") -> int:
    """A pending version of a new bot of a new user holding `content`."""
    with sessions() as session, write_transaction(session):
        owner = create_user(session, f"owner-of-{name}", None)
        return add_version(session, create_bot(session, owner, name), content).id


def version(sessions: sessionmaker[Session], version_id: int) -> BotVersion:
    with sessions() as session:
        found = session.get(BotVersion, version_id)
        assert found is not None
        return found


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_an_honest_upload_becomes_ready_and_a_second_delivery_does_nothing(
    settings: Settings, sessions: sessionmaker[Session]
) -> None:
    sandbox_or_skip()
    version_id = upload(sessions, bots.zipped({"bot.py": bots.FIRST_LEGAL}))
    result = validation.validate_bot_version.apply(args=(version_id,)).get()
    assert result["status"] == "ready", result
    checked = version(sessions, version_id)
    assert checked.status is VersionStatus.READY
    assert "passed" in (checked.status_reason or "")
    again = validation.validate_bot_version.apply(args=(version_id,)).get()
    assert again["status"] == "skipped"
    assert (settings.versions_dir / checked.archive_sha256 / "environment.json").exists()


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_a_bot_that_crashes_is_rejected_with_its_own_stderr_kept(
    settings: Settings, sessions: sessionmaker[Session]
) -> None:
    sandbox_or_skip()
    version_id = upload(sessions, bots.CRASH_AT_IMPORT)
    result = validation.execute_validation(version_id)
    assert result.status == "rejected"
    rejected = version(sessions, version_id)
    assert rejected.status is VersionStatus.REJECTED
    assert "broken on purpose" in (rejected.status_detail or "")


def test_a_bad_archive_is_rejected_without_starting_anything(
    settings: Settings, sessions: sessionmaker[Session]
) -> None:
    version_id = upload(sessions, bots.zipped({"../escape.py": b"x = 1\n", "bot.py": b""}))
    assert validation.execute_validation(version_id).status == "rejected"
    assert "climbs out of the archive" in (version(sessions, version_id).status_reason or "")


def test_without_a_sandbox_an_upload_is_refused_with_the_reason_never_run(
    settings: Settings, sessions: sessionmaker[Session], monkeypatch: pytest.MonkeyPatch
) -> None:
    def unavailable() -> None:
        raise SandboxUnavailableError("bwrap is not installed (Debian package bubblewrap)")

    started: list[object] = []
    monkeypatch.setattr(validation, "shared_sandbox", unavailable)
    monkeypatch.setattr(validation, "check_seat", lambda *a, **k: started.append(a))
    version_id = upload(sessions, bots.FIRST_LEGAL)
    assert validation.execute_validation(version_id).status == "rejected"
    reason = version(sessions, version_id).status_reason or ""
    assert "bwrap is not installed" in reason and "never runs them outside" in reason
    assert started == []


def test_our_own_failure_puts_the_version_back_once_then_rejects_it(
    settings: Settings, sessions: sessionmaker[Session], monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(candidate: object) -> None:
        raise RuntimeError("a bug of ours")

    monkeypatch.setattr(validation, "judge", broken)
    version_id = upload(sessions, bots.FIRST_LEGAL)
    assert validation.execute_validation(version_id).status == "pending"
    assert validation.execute_validation(version_id).status == "rejected"
    assert "twice" in (version(sessions, version_id).status_reason or "")


SHOWS_ITS_PATHS = b'''"""Prints where things are, then fails inside a library call: never ready."""

import json
import sys

import hearts_bot

print("python", sys.executable, "sdk", hearts_bot.__file__, "me", __file__, file=sys.stderr)
json.loads("{not json")


class NeverReached(hearts_bot.Bot):  # a bot by the upload's static check; import fails first
    pass
'''


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_the_log_shown_to_the_owner_names_the_sandbox_paths_not_the_hosts(
    settings: Settings, sessions: sessionmaker[Session]
) -> None:
    import os
    import sys

    sandbox_or_skip()
    version_id = upload(sessions, SHOWS_ITS_PATHS)
    assert validation.execute_validation(version_id).status == "rejected"
    rejected = version(sessions, version_id)
    shown = (rejected.status_detail or "") + (rejected.status_reason or "")
    assert "/bot/bot.py" in shown and "JSONDecodeError" in shown
    assert "python /venv/bin/python" in shown
    assert "sdk /runtime/" in shown
    host = [
        str(settings.data_dir.absolute()),
        str(settings.versions_dir),
        os.path.realpath(sys.base_prefix),
        os.path.realpath(settings.runtime_dir),
    ]
    for folder in host:
        assert folder not in shown, (folder, shown)
