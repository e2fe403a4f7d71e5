"""A package index that does not answer is the platform's trouble, not the bot's: real pip
runs against an index on 127.0.0.1 that refuses connections, and against one that answers
but has no such package (issue 31's walk: a version was rejected for good when the index
was down)."""

from __future__ import annotations

import http.server
import threading
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy.orm import Session, sessionmaker

from arena.ports import free_port
from arena.store.accounts import create_user
from arena.store.bots import add_version, create_bot
from arena.store.database import write_transaction
from arena.store.dispatch import WAIT_SECONDS, pending_version_ids
from arena.store.models import BotVersion, VersionStatus
from tests.workers import bots
from workers import validation
from workers.config import Settings
from workers.sandbox import EnvironmentBuildError, PackageIndexUnavailableError
from workers.sandbox.environment import build_environment

pytestmark = pytest.mark.timeout(240)

REQUIRES = b"hearts-arena-no-such-package-anywhere==1.0\n"


@pytest.fixture
def quick_pip(monkeypatch: pytest.MonkeyPatch) -> None:
    """pip's own retries and timeouts short (the worker passes PIP_* variables on)."""
    monkeypatch.setenv("PIP_RETRIES", "0")
    monkeypatch.setenv("PIP_TIMEOUT", "5")


@pytest.fixture
def index_down(monkeypatch: pytest.MonkeyPatch, quick_pip: None) -> None:
    monkeypatch.setenv("PIP_INDEX_URL", f"http://127.0.0.1:{free_port()}/simple/")


@pytest.fixture
def empty_index(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, quick_pip: None) -> Iterator[None]:
    """A PEP 503 index on 127.0.0.1 that answers, and holds no package at all."""
    root = tmp_path / "index"
    (root / "simple").mkdir(parents=True)
    (root / "simple" / "index.html").write_text("<!DOCTYPE html><html><body></body></html>")

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args: object, **kwargs: object) -> None:
            super().__init__(*args, directory=str(root), **kwargs)  # type: ignore[arg-type]

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Quiet)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    monkeypatch.setenv("PIP_INDEX_URL", f"http://127.0.0.1:{server.server_address[1]}/simple/")
    yield
    server.shutdown()
    server.server_close()


def unpacked(tmp_path: Path) -> Path:
    upload = tmp_path / "upload"
    upload.mkdir()
    (upload / "bot.py").write_bytes(bots.FIRST_LEGAL)
    (upload / "requirements.txt").write_bytes(REQUIRES)
    return upload


def test_an_index_that_refuses_connections_is_ours_to_wait_for(
    tmp_path: Path, index_down: None
) -> None:
    with pytest.raises(PackageIndexUnavailableError) as raised:
        build_environment(unpacked(tmp_path), tmp_path / "env", runtime_root=tmp_path / "rt")
    message = str(raised.value)
    assert message.startswith("the package index did not answer")
    assert "Connection refused" in message or "NewConnectionError" in message
    assert not (tmp_path / "env" / "environment.json").exists()  # built again next time


def test_a_package_the_index_does_not_have_is_the_bots_failure(
    tmp_path: Path, empty_index: None
) -> None:
    with pytest.raises(EnvironmentBuildError) as raised:
        build_environment(unpacked(tmp_path), tmp_path / "env", runtime_root=tmp_path / "rt")
    assert not isinstance(raised.value, PackageIndexUnavailableError)
    assert "hearts-arena-no-such-package-anywhere" in str(raised.value)


def upload(sessions: sessionmaker[Session]) -> int:
    archive = bots.zipped({"bot.py": bots.FIRST_LEGAL, "requirements.txt": REQUIRES})
    with sessions() as session, write_transaction(session):
        owner = create_user(session, "owner-of-needs-a-package", None)
        return add_version(session, create_bot(session, owner, "needs-a-package"), archive).id


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_while_the_index_is_down_a_version_waits_and_is_never_rejected_for_it(
    settings: Settings, sessions: sessionmaker[Session], index_down: None
) -> None:
    version_id = upload(sessions)
    for _attempt in range(3):  # our own failure twice would reject it (release_version)
        summary = validation.execute_validation(version_id)
        assert summary.status == "pending", summary
    with sessions() as session:
        waiting = session.get(BotVersion, version_id)
        assert waiting is not None and waiting.status is VersionStatus.PENDING
        reason = waiting.status_reason or ""
        changed = waiting.status_changed_at
    assert reason.startswith("waiting (validated again every 60 s): the package index")
    assert "requeued" not in reason
    with sessions() as session:
        assert version_id not in pending_version_ids(session, limit=10)  # backs off
        later = changed + timedelta(seconds=WAIT_SECONDS + 1)
        assert version_id in pending_version_ids(session, limit=10, now=later)
