"""The pages' layout on a desktop (1280x800) and a phone (390 px), in real Chromium (issue 31,
item 10): the replay's card table starts above the fold, the score sheet is shown once,
the toolbar's buttons are labelled, an unfinished trick's cards lie in front of their
seats; on a phone, no table hides a column out of reach (the account page's Revoke), a
title row keeps its distance from the text below, and the keyboard legend is not shown.
Screenshots: artifacts/screenshots/layout-*.png.
"""

from __future__ import annotations

from typing import Any

import pytest

from arena.store import write_transaction
from arena.store.accounts import issue_token
from arena.store.models import User
from tests.web.browser.conftest import SCREENSHOTS, screenshot
from tests.web.browser.test_viewer import _centre, _sign_in
from tests.web.factories import row
from web.database import sessions


@pytest.fixture
def desktop(browser: Any) -> Any:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.set_default_timeout(15_000)
    yield context.new_page()
    context.close()


@pytest.fixture
def phone(browser: Any) -> Any:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    context.set_default_timeout(15_000)
    yield context.new_page()
    context.close()


def test_the_replay_starts_above_the_fold_with_one_score_sheet_and_a_labelled_toolbar(
    site, desktop
):
    server, world = site
    desktop.goto(f"{server.url}/matches/{world.match_id}#g=1&h=1&t=2&c=4")
    desktop.wait_for_selector('#viewer[data-ready="true"]')
    felt = desktop.locator(".table-felt").bounding_box()
    caption = desktop.locator(".trick .caption").bounding_box()
    assert felt["y"] < 400, felt  # the table begins in the first half of the window
    assert caption["y"] + caption["height"] < 800, caption  # the trick is in view
    # The score sheet once: the page's own, not again in the viewer's side panel.
    assert desktop.locator("#score-sheet").count() == 1
    assert "Score sheet" not in desktop.locator("#viewer .side").inner_text()
    # Every toolbar button: a visible word beside its glyph, a name and a tooltip.
    buttons = desktop.locator("#viewer .controls button").all()
    assert len(buttons) == 9
    for button in buttons:
        word = button.locator(".word")
        assert word.is_visible() and word.inner_text().strip().isalpha(), button.inner_html()
        assert button.get_attribute("aria-label") and button.get_attribute("title")
    next_trick = desktop.locator('#viewer .controls button[aria-label="Next trick"] .word')
    assert next_trick.inner_text() == "Trick"
    screenshot(desktop, "layout-replay-1280")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)  # the window only: what is above the fold
    desktop.screenshot(path=str(SCREENSHOTS / "layout-replay-1280x800-window.png"))


@pytest.mark.parametrize("card", [1, 2, 3])
def test_an_unfinished_tricks_cards_lie_in_front_of_their_seats(site, desktop, card):
    server, world = site
    desktop.goto(f"{server.url}/matches/{world.match_id}#g=1&h=1&t=2&c={card}")
    desktop.wait_for_selector('#viewer[data-ready="true"]')
    plays = desktop.locator(".trick .play").all()
    assert len(plays) == card
    cx, cy = _centre(desktop.locator(".table-felt").bounding_box())
    for play in plays:
        x, y = _centre(play.bounding_box())
        position = play.get_attribute("data-position")
        # toward its seat from the middle of the table, by a card's width at least
        expected = {"l": cx - x, "r": x - cx, "t": cy - y, "b": y - cy}[position]
        assert expected > 30, (card, position, x, y, cx, cy)
    if card == 1:
        screenshot(desktop, "layout-unfinished-trick-1280")


def test_on_a_phone_no_button_is_out_of_reach_and_titles_keep_their_distance(site, phone, app):
    server, world = site
    with sessions(app)() as db, write_transaction(db):
        issue_token(db, row(db, User, world.alice_id), "my laptop")
    _sign_in(phone, server.url, "alice")
    phone.goto(f"{server.url}/account")
    revoke = phone.locator("main button", has_text="Revoke")
    box = revoke.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, box
    assert revoke.is_visible()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 392
    screenshot(phone, "layout-account-390")

    phone.goto(f"{server.url}/seasons/{world.season_id}/ladder")
    title = phone.locator(".title-row").bounding_box()
    lead = phone.locator(".title-row + .lead").bounding_box()
    assert lead["y"] - (title["y"] + title["height"]) >= 8, (title, lead)
    screenshot(phone, "layout-ladder-390")

    phone.goto(f"{server.url}/matches/{world.match_id}#g=1&h=1&t=1&c=4")
    phone.wait_for_selector('#viewer[data-ready="true"]')
    assert not phone.locator("#viewer .keys").is_visible()  # no keyboard on a phone
    screenshot(phone, "layout-replay-390")
