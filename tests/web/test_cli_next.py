"""`arena bot upload` says what happens next and can keep a first bot out of the default
season, against the site served for real on 127.0.0.1."""

from __future__ import annotations

from click.testing import CliRunner
from sqlalchemy import select

from arena.commands.bot_upload import upload
from arena.store import write_transaction
from arena.store.accounts import create_user, issue_token
from arena.store.models import Bot, BotVersion, Season
from tests.web.factories import BOT_SOURCE, row
from tests.web.live import LiveServer
from web.database import sessions


def run(*args):
    return CliRunner().invoke(upload, list(args), env={}, catch_exceptions=False)


def test_upload_prints_what_happens_next_and_can_opt_out(app, world, tmp_path):
    with sessions(app)() as db, write_transaction(db):
        _row, token = issue_token(db, create_user(db, "carol", None), "cli")
        row(db, Season, world.season_id).is_default = True
    first, second = tmp_path / "first.py", tmp_path / "second.py"
    first.write_bytes(BOT_SOURCE)
    second.write_bytes(BOT_SOURCE + b"# another\n")
    with LiveServer(app) as server:
        joins = run(str(first), "--url", server.url, "--token", token)
        stays_out = run(str(second), "--no-enter", "--url", server.url, "--token", token)
    assert joins.exit_code == 0, joins.output
    assert "pending — waiting for a worker to validate it; once ready it joins Spring" in (
        joins.output
    )
    assert stays_out.exit_code == 0, stays_out.output
    assert "once ready, enter it in a season from its bot page (or arena bot enter second)" in (
        stays_out.output
    )
    with sessions(app)() as db:
        flags = dict(
            db.execute(
                select(Bot.name, BotVersion.join_default_season).join(
                    BotVersion, BotVersion.bot_id == Bot.id
                )
            ).all()
        )
    assert flags["first"] is True and flags["second"] is False
