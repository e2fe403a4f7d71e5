"""The analysis of a match in real Chromium (issue 33): the owner asks for it, watches the
progress bar, and, once the real task has judged the match, finds the built blunder (a
seat that could duck the ♠Q takes it) marked in the list and in the viewer beside the
decision, with every card's evaluation; the bot page sums it up. Screenshots:
artifacts/screenshots/analysis-*.png (copies in docs/images/ for docs/analysis.md)."""

from __future__ import annotations

import threading

from sqlalchemy import select

from arena.store.models import MatchAnalysis
from tests.web.analysed import analysis_worker, record_built_match, run_analysis
from tests.web.browser.conftest import screenshot
from tests.web.factories import PASSWORD
from web.database import sessions


def _sign_in(page, url: str, username: str) -> None:
    page.goto(f"{url}/signin")
    page.fill("#username", username)
    page.fill("#password", PASSWORD)
    page.click("#submit")
    page.wait_for_selector(".who >> text=Sign out")


def test_an_analysed_match_marks_the_built_blunder_in_the_viewer_and_on_the_bot_page(
    site, page, app, database, tmp_path
):
    server, world = site
    built: list[tuple[int, int, str]] = []
    # In a thread: the match runner's event loop may not run in Playwright's thread.
    maker = threading.Thread(target=lambda: built.append(record_built_match(app, world)))
    maker.start()
    maker.join(timeout=120)
    match_id, trick, card = built[0]
    _sign_in(page, server.url, "alice")
    page.goto(f"{server.url}/matches/{match_id}")
    page.wait_for_selector('#viewer[data-ready="true"]')
    page.click("#ask-analysis")
    page.wait_for_selector("#analysis-progress")
    assert page.locator("#analysis").get_attribute("data-status") == "queued"
    page.locator("#analysis").scroll_into_view_if_needed()
    page.locator("#analysis").screenshot(
        path=str(screenshot(page, "analysis-01-asked").with_name("analysis-progress.png"))
    )

    with sessions(app)() as db:
        analysis_id = db.scalar(select(MatchAnalysis.id).where(MatchAnalysis.match_id == match_id))
    assert analysis_id is not None
    outcome: list[str] = []
    with analysis_worker(database, tmp_path / "data"):
        worker = threading.Thread(target=lambda: outcome.append(run_analysis(analysis_id)))
        worker.start()
        worker.join(timeout=240)
    assert outcome == ["done"]

    # The page was polling: it reloads into the result by itself.
    blunder = page.locator("#analysis-marks li.mark-blunder").first
    blunder.wait_for(timeout=30_000)
    assert f"trick {trick + 1}" in blunder.inner_text()
    first = page.locator("#analysis-marks li").first
    assert first.get_attribute("class") == "mark-blunder"  # the worst of the hand, listed first
    summary = page.locator("#analysis-summary tbody tr").nth(2)
    assert summary.locator("td").nth(8).inner_text() == "1"  # queen-taker: one blunder
    blunder.locator("a").click()
    box = page.locator("#analysis-decision .analysis-one.mark-blunder")
    box.wait_for()
    assert page.locator("#viewer").get_attribute("data-step").startswith(f"1-1-{trick + 1}-")
    text = box.inner_text()
    assert f"played {card}" in text and "blunder" in text and "cost" in text
    rows = box.locator("tbody tr")
    assert rows.count() >= 2
    chosen = box.locator(f'tr.chosen[data-answer="{card}"]')
    assert chosen.count() == 1
    best = box.locator("tr.best").get_attribute("data-answer")
    assert best != card and best.endswith("S")  # a lower spade: the duck
    assert float(chosen.locator("td").nth(4).inner_text()) >= 8.0
    page.locator("#viewer").scroll_into_view_if_needed()
    screenshot(page, "analysis-02-viewer-blunder")
    page.locator("#analysis-decision").screenshot(
        path=str(screenshot(page, "analysis-02-viewer-blunder").with_name("analysis-decision.png"))
    )

    # Another step of the viewer: another decision (or none), never the blunder's box.
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("() => !document.querySelector('#analysis-decision .mark-blunder')")

    page.goto(f"{server.url}/bots/{world.alice_bot_id}")
    phases = page.locator("#bot-analysis-phases")
    phases.wait_for()
    assert "1 blunder" in page.locator("#bot-analysis").inner_text()
    worst = page.locator("#bot-analysis-worst li").first
    assert f"match #{match_id}, hand 1, trick {trick + 1}" in worst.inner_text()
    assert "blunder" in worst.inner_text()
    page.locator("#bot-analysis").scroll_into_view_if_needed()
    screenshot(page, "analysis-03-bot-page")
    page.locator("#bot-analysis").screenshot(
        path=str(screenshot(page, "analysis-03-bot-page").with_name("analysis-bot-summary.png"))
    )
