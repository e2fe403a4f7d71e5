"""Where a bot plays, in real Chromium: a first bot joins the default season once ready
and its pages say so as it happens; its owner pins a version and withdraws it; a
rejected version reads as rejected. Screenshots: artifacts/screenshots/."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from arena.store import write_transaction
from arena.store.bots import add_version, set_version_status
from arena.store.models import Bot, BotVersion, Season, VersionStatus
from tests.web.browser.conftest import screenshot
from tests.web.factories import BOT_SOURCE, PASSWORD, row
from web.database import sessions
from workers.validation import finish

pytestmark = pytest.mark.timeout(120)


def _validate(app, version_id: int, status: VersionStatus, reason: str) -> None:
    """What the validation worker does: claim the version, then settle it (promoting it)."""
    with sessions(app)() as db:
        with write_transaction(db):
            set_version_status(db, row(db, BotVersion, version_id), VersionStatus.VALIDATING)
        finish(db, version_id, status, reason, "wren: ok\n")


def test_a_first_bot_joins_the_default_season_and_its_owner_steers_it(site, page, app):
    server, world = site
    with sessions(app)() as db, write_transaction(db):
        row(db, Season, world.season_id).is_default = True

    page.goto(f"{server.url}/signup")
    page.fill("#username", "dora")
    page.fill("#password", PASSWORD)
    page.fill("#confirm", PASSWORD)
    page.click("#submit")
    page.wait_for_selector("text=Welcome, dora.")
    page.goto(f"{server.url}/upload")
    assert page.locator("#enter").is_checked()
    page.fill("#name", "wren")
    page.set_input_files(
        "#file", files=[{"name": "wren.py", "mimeType": "text/x-python", "buffer": BOT_SOURCE}]
    )
    page.click("#submit")
    page.wait_for_selector("text=Once ready it joins Spring")
    next_step = page.locator("#version-next")
    assert next_step.inner_text().endswith("once ready it joins Spring")

    with sessions(app)() as db:
        first = db.scalar(select(BotVersion.id).join(Bot).where(Bot.name == "wren"))
    assert first is not None
    _validate(app, first, VersionStatus.READY, "passed")
    page.wait_for_selector("#version-next >> text=ready — it plays in Spring from the next round")
    assert "done" in (page.locator('.progress li[data-step="ready"]').get_attribute("class") or "")
    screenshot(page, "10-first-bot-ready-and-entered")

    with sessions(app)() as db, write_transaction(db):
        bot = db.scalars(select(Bot).where(Bot.name == "wren")).one()
        second = add_version(db, bot, BOT_SOURCE + b"# v2\n").id
        bot_id = bot.id
    page.goto(f"{server.url}/versions/{second}")
    page.wait_for_selector("#version-next >> text=once ready it takes v1's place in Spring")
    _validate(app, second, VersionStatus.REJECTED, "it crashed")
    page.wait_for_selector('.progress li.failed[data-step="ready"] >> text=rejected')
    assert page.locator(".progress li.current").count() == 0
    assert "v1 keeps playing in Spring" in next_step.inner_text()
    screenshot(page, "11-rejected-version")

    page.goto(f"{server.url}/bots/{bot_id}")
    rows = page.locator("#entered-seasons tbody tr")
    assert rows.count() == 1 and "Spring" in rows.first.inner_text()
    assert "v1" in rows.first.inner_text()
    page.select_option("#pin-form select", "1")
    page.click("#pin-form >> text=Save")
    page.wait_for_selector("text=v1 is pinned")
    screenshot(page, "12-bot-page-where-it-plays")
    page.click("#entered-seasons >> text=Withdraw")
    page.wait_for_selector("text=wren is out of Spring")
    assert "In no season" in page.locator("#entered-seasons").inner_text()
    assert page.locator("#enter-form").is_visible()
    with sessions(app)() as db:
        assert row(db, Bot, bot_id).pinned_number == 1
