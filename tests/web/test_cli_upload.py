"""`arena bot upload` against the site served for real on 127.0.0.1 (its JSON API)."""

from __future__ import annotations

import threading
import zipfile
from io import BytesIO

import pytest
from click.testing import CliRunner
from sqlalchemy import select

from arena.commands.bot_upload import bot_name, pack_folder, upload
from arena.commands.login import DEFAULT_URL, login, logout
from arena.store import write_transaction
from arena.store.accounts import issue_token
from arena.store.bots import set_version_status
from arena.store.models import Bot, BotVersion, User, VersionStatus
from tests.web.factories import BOT_SOURCE, row
from tests.web.live import LiveServer
from web.database import sessions


@pytest.fixture(autouse=True)
def own_login_file(tmp_path, monkeypatch):
    """Never read or write the login of the user running the tests."""
    path = tmp_path / "config" / "login.json"
    monkeypatch.setenv("ARENA_CONFIG", str(path))
    monkeypatch.delenv("ARENA_URL", raising=False)
    monkeypatch.delenv("ARENA_TOKEN", raising=False)
    return path


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


def test_login_then_upload_needs_no_variables(site, tmp_path, own_login_file):
    """The tutorial's path: the account page's `arena login` line, then a bare upload."""
    url, token = site
    signed = CliRunner().invoke(login, [url + "/", "--token", token])
    assert signed.exit_code == 0, signed.output
    assert f"signed in to {url} as alice" in signed.output
    assert oct(own_login_file.stat().st_mode & 0o777) == "0o600"
    path = tmp_path / "orca.py"
    path.write_bytes(BOT_SOURCE)
    result = run(str(path))
    assert result.exit_code == 0, result.output
    assert "orca v1: uploaded" in result.output
    assert f"{url}/versions/" in result.output
    out = CliRunner().invoke(logout, [])
    assert "forgot the login" in out.output
    assert not own_login_file.exists()
    again = CliRunner().invoke(upload, [str(path), "--url", url])
    assert again.exit_code == 2
    assert "no API token" in again.output


def test_a_bad_token_is_not_stored(site, own_login_file):
    url, _token = site
    refused = CliRunner().invoke(login, [url, "--token", "ha_nope"])
    assert refused.exit_code == 1
    assert "401" in refused.output
    assert not own_login_file.exists()


def test_a_stored_token_goes_only_to_its_own_site(site, tmp_path, own_login_file):
    url, token = site
    assert CliRunner().invoke(login, [url, "--token", token]).exit_code == 0
    path = tmp_path / "orca.py"
    path.write_bytes(BOT_SOURCE)
    elsewhere = CliRunner().invoke(upload, [str(path), "--url", "http://127.0.0.1:9"])
    assert elsewhere.exit_code == 2
    assert "no API token for http://127.0.0.1:9" in elsewhere.output


def test_without_a_login_the_message_says_what_to_do(tmp_path):
    path = tmp_path / "orca.py"
    path.write_bytes(BOT_SOURCE)
    result = CliRunner().invoke(upload, [str(path)])
    assert result.exit_code == 2
    # The default is named as where `make run` serves, never as the user's own site.
    assert f"serves on this machine: {DEFAULT_URL}/account" in " ".join(result.output.split())
    assert "arena login SITE --token" in result.output
    from arena.commands.platform import platform as platform_command

    port = next(param.default for param in platform_command.params if param.name == "port")
    assert f"http://127.0.0.1:{port}" == DEFAULT_URL  # where `make run` serves the site


def test_a_login_file_others_can_read_is_refused(tmp_path, own_login_file):
    own_login_file.parent.mkdir(parents=True)
    own_login_file.write_text('{"url": "http://127.0.0.1:8000", "token": "ha_x"}')
    own_login_file.chmod(0o644)
    path = tmp_path / "orca.py"
    path.write_bytes(BOT_SOURCE)
    result = CliRunner().invoke(upload, [str(path)])
    assert result.exit_code == 1
    assert "open to other users" in result.output


def _settle_when_uploaded(app, name: str, status: VersionStatus, detail: str) -> threading.Thread:
    """The workers' side: once `name`'s version is in, validate it to `status` with the
    bot's output `detail` (through the database, as in the test above)."""

    def validate() -> None:
        with sessions(app)() as db:
            for _ in range(200):
                version = db.scalars(select(BotVersion).join(Bot).where(Bot.name == name)).first()
                if version is not None:
                    break
                db.rollback()
                threading.Event().wait(0.05)
            assert version is not None
            version_id = version.id
            db.rollback()
            with write_transaction(db):
                set_version_status(db, row(db, BotVersion, version_id), VersionStatus.VALIDATING)
            with write_transaction(db):
                set_version_status(
                    db, row(db, BotVersion, version_id), status, reason="passed", detail=detail
                )

    worker = threading.Thread(target=validate)
    worker.start()
    return worker


def test_the_validation_log_is_labelled_and_its_tail_printed(site, tmp_path, app):
    # issue 31, item 9: after a success the log came unlabelled, and whole (a Node bot's
    # every line of stderr).
    url, token = site
    path = tmp_path / "beluga.py"
    path.write_bytes(BOT_SOURCE)
    noisy = "".join(f"warning {i}: an npm module speaks\n" for i in range(1, 101))
    worker = _settle_when_uploaded(app, "beluga", VersionStatus.READY, noisy)
    result = run(str(path), "--wait", "--url", url, "--token", token)
    worker.join()
    assert result.exit_code == 0, result.output
    page = next(line for line in result.stdout.splitlines() if "/versions/" in line)
    label = f"--- the bot's output during its validation: its last 20 of 100 lines (all: {page})"
    assert label in result.stderr
    assert "warning 100:" in result.stderr and "warning 81:" in result.stderr
    assert "warning 80:" not in result.stderr
    assert sum(line.startswith("ready — ") for line in result.stdout.splitlines()) == 1


def test_a_reupload_of_validated_bytes_says_ready_once(site, tmp_path, app):
    url, token = site
    path = tmp_path / "beluga.py"
    path.write_bytes(BOT_SOURCE)
    worker = _settle_when_uploaded(app, "beluga", VersionStatus.READY, "started\n")
    first = run(str(path), "--wait", "--url", url, "--token", token)
    worker.join()
    assert first.exit_code == 0, first.output
    again = run(str(path), "--wait", "--url", url, "--token", token)
    assert again.exit_code == 0, again.output
    lines = again.stdout.splitlines()
    assert lines[0] == (
        "beluga v1: unchanged (the newest version has these bytes); status ready — passed"
    )
    assert sum(line.startswith("ready — ") for line in lines) == 1, again.stdout
    assert not any(line.startswith("beluga v1: ready") for line in lines), again.stdout
    assert "--- the bot's output during its validation ---\nstarted" in again.stderr
