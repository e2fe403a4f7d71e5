"""The open data page in Chromium: reached from the navigation, a season's dump listed
with its licence, a file downloaded by clicking it with the SHA-256 the page shows, and
no sideways scrolling on a phone (screenshots in artifacts/screenshots/)."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from arena.data.export import export_season
from arena.data.played import play_season
from tests.web.browser.conftest import screenshot
from tests.web.conftest import make_app
from tests.web.live import LiveServer
from web.database import dispose, sessions


@pytest.fixture
def app(database: str, tmp_path: Path) -> Iterator[Flask]:
    application = make_app(database, OPEN_DATA_DIR=str(tmp_path / "open-data"))
    yield application
    dispose(application)


@pytest.fixture
def server(app: Flask) -> Iterator[LiveServer]:
    with sessions(app)() as db:
        played = play_season(db, name="Winter", strengths=(0.0, 0.4, 0.7, 1.0), matches=3)
        export_season(db, played.season_id, Path(app.config["OPEN_DATA_DIR"]))
    with LiveServer(app) as live:
        yield live


def test_a_visitor_finds_the_dump_and_downloads_a_file_with_its_checksum(
    server: LiveServer, page: Any, browser: Any
) -> None:
    page.goto(f"{server.url}/")
    page.click("nav >> text=Open data")
    page.wait_for_url("**/data/")
    assert page.locator("h2", has_text="Winter").count() == 1
    assert page.locator("a[rel=license]").inner_text() == (
        "Creative Commons Attribution 4.0 International"
    )
    row = page.locator("tr", has=page.locator("a", has_text="matches.jsonl.gz"))
    listed = row.locator("code.sha").inner_text()
    with page.expect_download() as info:
        row.locator("a").click()
    body = Path(info.value.path()).read_bytes()
    assert hashlib.sha256(body).hexdigest() == listed
    screenshot(page, "open-data-page")

    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    try:
        tab = phone.new_page()
        tab.goto(f"{server.url}/data/")
        assert tab.evaluate("document.documentElement.scrollWidth") <= 392
        screenshot(tab, "open-data-page-phone")
    finally:
        phone.close()
