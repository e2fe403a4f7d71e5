"""`arena bot upload` against the site served for real on 127.0.0.1 (its JSON API)."""

from __future__ import annotations

import threading
import zipfile
from io import BytesIO

import pytest
from click.testing import CliRunner
from sqlalchemy import select

from arena.commands.bot_upload import bot_name, pack_folder, upload
from arena.store import write_transaction
from arena.store.accounts import issue_token
from arena.store.bots import set_version_status
from arena.store.models import Bot, BotVersion, User, VersionStatus
from tests.web.factories import BOT_SOURCE, row
from tests.web.live import LiveServer
from web.database import sessions


@pytest.fixture
def site(app, world):
    with sessions(app)() as db, write_transaction(db):
        _row, token = issue_token(db, row(db, User, world.alice_id), "cli")
    with LiveServer(app) as server:
        yield server.url, token


def run(*args, env=None):
    return CliRunner().invoke(upload, list(args), env=env or {}, catch_exceptions=False)


def test_upload_a_file(site, tmp_path, app):
    url, token = site
    path = tmp_path / "orca.py"
    path.write_bytes(BOT_SOURCE)
    result = run(str(path), env={"ARENA_URL": url, "ARENA_TOKEN": token})
    assert result.exit_code == 0, result.output
    assert "orca v1: uploaded; status pending" in result.output
    again = run(str(path), "--url", url, "--token", token)
    assert "unchanged" in again.output
    with sessions(app)() as db:
        assert db.scalar(select(Bot.name).where(Bot.name == "orca")) == "orca"


def test_upload_a_folder_and_wait_for_validation(site, tmp_path, app):
    url, token = site
    folder = tmp_path / "narwhal"
    (folder / "__pycache__").mkdir(parents=True)
    (folder / "bot.py").write_bytes(BOT_SOURCE)
    (folder / "requirements.txt").write_text("numpy>=1\n")
    (folder / "__pycache__" / "bot.cpython-311.pyc").write_bytes(b"junk")

    def validate() -> None:  # the workers' side, through the database (see the browser test)
        with sessions(app)() as db:
            for _ in range(100):
                version = db.scalars(
                    select(BotVersion).join(Bot).where(Bot.name == "narwhal")
                ).first()
                if version is not None:
                    break
                db.rollback()
                threading.Event().wait(0.05)
            assert version is not None
            version_id = version.id
            db.rollback()
            with write_transaction(db):
                version = row(db, BotVersion, version_id)
                set_version_status(db, version, VersionStatus.VALIDATING)
            with write_transaction(db):
                version = row(db, BotVersion, version_id)
                set_version_status(
                    db, version, VersionStatus.REJECTED, reason="it crashed", detail="Traceback…"
                )

    worker = threading.Thread(target=validate)
    worker.start()
    result = run(str(folder), "--wait", "--url", url, "--token", token)
    worker.join()
    assert result.exit_code == 1
    assert "narwhal v1: rejected — it crashed" in result.output


def test_errors_are_the_sites_words(site, tmp_path):
    url, token = site
    bad = tmp_path / "notes.txt"
    bad.write_text("hello")
    result = CliRunner().invoke(upload, [str(bad), "--url", url, "--token", token])
    assert result.exit_code == 1
    assert "422: upload a Python file" in result.output
    wrong = CliRunner().invoke(upload, [str(bad), "--url", url, "--token", "ha_nope"])
    assert "401" in wrong.output
    nowhere = CliRunner().invoke(
        upload, [str(bad), "--url", "http://127.0.0.1:9", "--token", token]
    )
    assert "cannot reach" in nowhere.output
    no_token = CliRunner().invoke(upload, [str(bad), "--url", url], env={"ARENA_TOKEN": ""})
    assert no_token.exit_code == 2


def test_names_and_packing(tmp_path):
    assert bot_name(tmp_path / "shark.tar.gz") == "shark"
    assert bot_name(tmp_path / "shark.py") == "shark"
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "bot.py").write_text("x")
    (tmp_path / "b" / ".secret").write_text("x")
    names = zipfile.ZipFile(BytesIO(pack_folder(tmp_path / "b"))).namelist()
    assert names == ["bot.py"]
