"""`arena bot enter`, `arena bot withdraw` and `arena bot upload --season`, against the site
served for real on 127.0.0.1 (issue 31: a contestant's second bot, a starter kit's say,
could be put in a season only from its web page)."""

from __future__ import annotations

import threading

import pytest
from click.testing import CliRunner
from sqlalchemy import select

from arena.commands.bot_entries import enter, withdraw
from arena.commands.bot_upload import upload
from arena.seasons import promote_version
from arena.store import write_transaction
from arena.store.accounts import issue_token
from arena.store.bots import set_version_status
from arena.store.models import Bot, BotVersion, Season, SeasonEntry, User, VersionStatus
from tests.web.factories import BOT_SOURCE, row
from tests.web.live import LiveServer
from web.database import sessions


@pytest.fixture(autouse=True)
def own_login_file(tmp_path, monkeypatch):
    """Never read or write the login of the user running the tests."""
    monkeypatch.setenv("ARENA_CONFIG", str(tmp_path / "config" / "login.json"))
    monkeypatch.delenv("ARENA_URL", raising=False)
    monkeypatch.delenv("ARENA_TOKEN", raising=False)


@pytest.fixture
def site(app, world):
    """The site, a token of alice's (her bot already plays in the world's season, so a new
    bot of hers does not join the default season by itself), and that season the default."""
    with sessions(app)() as db, write_transaction(db):
        _row, token = issue_token(db, row(db, User, world.alice_id), "cli")
        row(db, Season, world.season_id).is_default = True
    with LiveServer(app) as server:
        yield server.url, token


def invoke(command, *args):
    return CliRunner().invoke(command, list(args), env={}, catch_exceptions=False)


def validate(app, name: str) -> threading.Thread:
    """The workers' side: once `name`'s version is in, make it ready as the validation
    task does (the status, then `promote_version` in the same transaction)."""

    def work() -> None:
        with sessions(app)() as db:
            for _ in range(400):
                version = db.scalars(select(BotVersion).join(Bot).where(Bot.name == name)).first()
                if version is not None:
                    break
                db.rollback()
                threading.Event().wait(0.05)
            assert version is not None, f"{name} was never uploaded"
            version_id = version.id
            db.rollback()
            with write_transaction(db):
                set_version_status(db, row(db, BotVersion, version_id), VersionStatus.VALIDATING)
            with write_transaction(db):
                set_version_status(db, row(db, BotVersion, version_id), VersionStatus.READY)
                promote_version(db, version_id)

    worker = threading.Thread(target=work)
    worker.start()
    return worker


def active_seasons(app, name: str) -> list[int]:
    with sessions(app)() as db:
        return sorted(
            db.scalars(
                select(SeasonEntry.season_id)
                .join(BotVersion, BotVersion.id == SeasonEntry.bot_version_id)
                .join(Bot, Bot.id == BotVersion.bot_id)
                .where(Bot.name == name, SeasonEntry.active.is_(True))
            )
        )


def test_a_second_bot_is_told_how_to_enter_and_enters_from_the_shell(site, app, world, tmp_path):
    url, token = site
    path = tmp_path / "kit.py"
    path.write_bytes(BOT_SOURCE + b"# a second bot\n")
    worker = validate(app, "kit")
    uploaded = invoke(upload, str(path), "--wait", "--url", url, "--token", token)
    worker.join()
    assert uploaded.exit_code == 0, uploaded.output
    assert "it is in no season: enter it in one from its bot page (or arena bot enter kit)" in (
        uploaded.output
    )
    assert active_seasons(app, "kit") == []

    entered = invoke(enter, "kit", "--url", url, "--token", token)
    assert entered.exit_code == 0, entered.output
    assert "kit plays in Spring (v1, running)" in entered.output
    assert active_seasons(app, "kit") == [world.season_id]

    out = invoke(withdraw, "kit", str(world.season_id), "--url", url, "--token", token)
    assert out.exit_code == 0, out.output
    assert "kit withdrawn from Spring; it plays in no season" in out.output
    assert active_seasons(app, "kit") == []

    again = invoke(withdraw, "kit", "Spring", "--url", url, "--token", token)
    assert "kit was not playing in Spring" in again.output


def test_upload_with_season_enters_the_bot_once_it_is_ready(site, app, world, tmp_path):
    url, token = site
    path = tmp_path / "marlin.py"
    path.write_bytes(BOT_SOURCE + b"# marlin\n")
    worker = validate(app, "marlin")
    result = invoke(upload, str(path), "--season", "Spring", "--url", url, "--token", token)
    worker.join()
    assert result.exit_code == 0, result.output
    assert "marlin v1: ready" in result.output  # --season waits for the validation
    assert "marlin plays in Spring (v1, running)\nready — it plays in Spring" in result.output
    assert "it is in no season" not in result.output.split("marlin v1: ready")[1]
    assert active_seasons(app, "marlin") == [world.season_id]


def test_what_cannot_be_entered_is_said_and_changes_nothing(site, app, world, tmp_path):
    url, token = site
    nobody = invoke(enter, "no-such-bot", "--url", url, "--token", token)
    assert nobody.exit_code == 1
    assert "has no bot called 'no-such-bot'" in nobody.output
    assert "upload it first: arena bot upload PATH --name NAME" in nobody.output

    path = tmp_path / "pending.py"
    path.write_bytes(BOT_SOURCE + b"# pending\n")
    assert invoke(upload, str(path), "--url", url, "--token", token).exit_code == 0
    not_ready = invoke(enter, "pending", "--url", url, "--token", token)
    assert not_ready.exit_code == 1
    assert "pending was not entered: 409: pending has no ready version yet" in not_ready.output

    unknown = invoke(enter, "pending", "Autumn", "--url", url, "--token", token)
    assert unknown.exit_code == 1
    assert "no season 'Autumn'" in unknown.output and "'Spring' (running)" in unknown.output
    assert active_seasons(app, "pending") == []


def test_before_login_the_message_does_not_pass_a_default_off_as_the_users_site(tmp_path):
    path = tmp_path / "orca.py"
    path.write_bytes(BOT_SOURCE)
    guessed = invoke(upload, str(path))
    assert guessed.exit_code == 2
    assert "not signed in" in guessed.output
    assert "your account page on the site you upload to" in guessed.output
    assert "the platform `make run` serves on this machine: http://127.0.0.1:8000/account" in (
        " ".join(guessed.output.split())
    )
    named = invoke(enter, "orca", "--url", "https://hearts.example")
    assert named.exit_code == 2
    assert "your account page, https://hearts.example/account" in named.output
    assert "make run" not in named.output
