"""Browser tests: real Chromium (Debian's /usr/bin/chromium) driven by Playwright.

Playwright cannot download its own browser here, so it launches the system Chromium. The
tests are skipped, with the reason, when Chromium or Playwright is missing, unless `CI` is
set: then they fail. Screenshots go to artifacts/screenshots/ (kept by CI as artifacts).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from tests.web.factories import World
from tests.web.live import LiveServer

CHROMIUM = os.environ.get("ARENA_CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENSHOTS = Path(__file__).resolve().parents[3] / "artifacts" / "screenshots"


def _missing(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"{reason} (CI is set, so the browser tests must run)")
    pytest.skip(reason)


# Package scope, not session: Playwright's sync API keeps an event loop running in this
# thread while it is open, and later tests (the workers' tasks call asyncio.run) must
# not find one.
@pytest.fixture(scope="package")
def browser() -> Iterator[Any]:
    """One headless Chromium for the browser tests."""
    if not Path(CHROMIUM).exists() and shutil.which("chromium") is None:
        _missing(f"Chromium is not installed ({CHROMIUM}): apt-get install chromium")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("Playwright is not installed: pip install playwright")
    executable = CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=executable, args=ARGS, headless=True)
        yield chromium
        chromium.close()


@pytest.fixture
def database(migrated: Path, tmp_path: Path) -> str:
    """SQLite only: what a browser adds is the pages' scripts, not the queries, which the
    rest of tests/web runs on PostgreSQL as well."""
    path = tmp_path / "arena.db"
    shutil.copy(migrated, path)
    return f"sqlite:///{path}"


@pytest.fixture
def site(app: Flask, world: World) -> Iterator[tuple[LiveServer, World]]:
    """The site on 127.0.0.1 with the test world in its database."""
    with LiveServer(app) as server:
        yield server, world


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A fresh browser page (its own cookies), 1280×900."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(15_000)
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    yield tab
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def screenshot(page: Any, name: str) -> Path:
    """Save a full-page screenshot as artifacts/screenshots/NAME.png."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path
