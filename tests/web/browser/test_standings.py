"""In a browser: the ladder's 95 % intervals and tie groups, and a finished season's final
order from the batch fit with its intervals. Screenshots: artifacts/screenshots/."""

from __future__ import annotations

from arena.seasons import finish_season
from tests.web.browser.conftest import screenshot
from tests.web.test_standings import play_some
from web.database import sessions


def test_intervals_and_tie_groups_on_the_ladder_and_the_final_results(site, page, app):
    server, world = site
    with sessions(app)() as db:
        play_some(db, world, 8)
    page.goto(f"{server.url}/seasons/{world.season_id}/ladder")
    page.wait_for_selector("#ladder")
    headers = page.locator("#ladder thead th").all_inner_texts()
    assert "95 % interval" in headers and "Tie group" in headers
    intervals = page.locator("#ladder td.interval").all_inner_texts()
    assert intervals and all("–" in text for text in intervals)
    groups = page.locator("#ladder td.tie-group").all_inner_texts()
    assert groups[0].startswith("ranks 1–") or groups[0].startswith("1")
    screenshot(page, "21-ladder-intervals-and-tie-groups")

    with sessions(app)() as db:
        assert finish_season(db, world.season_id)
    page.goto(f"{server.url}/seasons/{world.season_id}")
    page.wait_for_selector("#final-results")
    rows = page.locator("#final-results tbody tr")
    assert rows.count() == 2  # alice and bob; the house bots that filled seats take no place
    first = rows.nth(0).locator("td").all_inner_texts()
    assert first[0] == "1" and (first[1].startswith("places 1") or first[1] == "1")
    assert " to " in first[5]  # the 95 % interval of points per hand against the field
    screenshot(page, "22-final-results-intervals")
