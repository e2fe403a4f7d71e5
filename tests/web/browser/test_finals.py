"""A final's page in real Chromium: it follows the schedule live (the page fetches its
live part again every five seconds, no reload) while the worker's own task plays the
final's tables, and ends with the standings and the places that are tied; a knockout's
page draws its bracket, round by round, and names the winner."""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import select

from arena.engine import preset
from arena.seasons.finals import advance_final, create_final
from arena.store.database import write_transaction
from arena.store.models import Bot, Final, FinalFormat
from arena.store.types import utc_now
from tests.web.browser.conftest import screenshot
from web.database import sessions
from workers.config import Settings
from workers.seed import ensure_demo_players

pytestmark = pytest.mark.timeout(600)

SHORT = dataclasses.replace(preset("standard"), target_score=None, max_hands=1)


@pytest.fixture
def worker(app: Flask, tmp_path: Path) -> Iterator[Settings]:
    """This process configured as a worker on the site's database."""
    from workers.app import app as celery_app
    from workers.app import configure

    chosen = Settings(
        data_dir=tmp_path / "data",
        database_url=app.config["DATABASE_URL"],
        broker_url="memory://",
        result_backend=None,
    )
    configure(celery_app, chosen)
    yield chosen
    configure(celery_app, Settings.from_environ())


def step(app: Flask, final_id: int) -> tuple[int, ...]:
    """One beat tick for the final, and its released matches played by the worker's task
    (in a thread: Playwright's event loop holds this one); the matches played."""
    from workers.matches import execute_match

    with sessions(app)() as db:
        report = advance_final(db, final_id)
    outcome: list[Any] = []
    for match_id in report.released:
        thread = threading.Thread(target=lambda m=match_id: outcome.append(execute_match(m)))
        thread.start()
        thread.join(300)
    assert [o.status for o in outcome] == ["done"] * len(report.released)
    return report.released


def test_a_finals_page_follows_its_schedule_live_and_says_which_places_are_tied(
    site: Any, page: Any, app: Flask, worker: Settings
) -> None:
    server, _ = site
    with sessions(app)() as db, write_transaction(db):
        versions = ensure_demo_players(db, (("heuristic", 2), ("random", 2)))
        final_id = create_final(
            db,
            name="Four-way final",
            rules=SHORT,
            bots=[v.bot_id for v in versions],
            freeze_at=utc_now(),
            worker_share=1,
        ).id
    step(app, final_id)  # frozen, the first table released and played
    page.goto(f"{server.url}/finals/{final_id}")
    progress = page.locator("#final-progress")
    assert progress.get_attribute("data-tables") == "6"  # N = 4: the six seatings
    before = int(progress.get_attribute("data-done") or 0)
    step(app, final_id)
    step(app, final_id)
    page.wait_for_selector(
        f"#final-progress:not([data-done='{before}'])", timeout=20_000
    )  # no reload: the page fetched its live part again
    assert int(progress.get_attribute("data-done") or 0) > before
    screenshot(page, "final-running")
    for _ in range(10):
        step(app, final_id)
    page.wait_for_selector("#final-status:has-text('finished')", timeout=20_000)
    assert page.locator("#final-standings tbody tr").count() == 4
    text = page.inner_text("#final-live")
    assert "6 of 6 tables done" in text
    assert "the tables played so far are balanced" in text
    ties = page.inner_text("#final-ties")
    assert ties.startswith(("Places that cannot be told apart", "Every place is told apart"))
    screenshot(page, "final-finished")


def test_a_knockout_of_eight_shows_its_bracket_live_and_its_winner(
    site: Any, page: Any, app: Flask, worker: Settings
) -> None:
    """A knockout of eight (two semi-final tables of four, the top two of each to the
    Final): its bracket page follows the rounds without a reload and names the winner."""
    server, _ = site
    with sessions(app)() as db, write_transaction(db):
        versions = ensure_demo_players(db, (("heuristic", 4), ("random", 4)))
        bots = [v.bot_id for v in versions]
        names = dict(db.execute(select(Bot.id, Bot.name).where(Bot.id.in_(bots))).all())
        final_id = create_final(
            db,
            name="Knockout of eight",
            rules=SHORT,
            bots=bots,
            freeze_at=utc_now(),
            format=FinalFormat.KNOCKOUT,
            worker_share=2,
        ).id
    page.goto(f"{server.url}/finals/{final_id}")
    bracket = page.locator("#final-bracket")
    assert [bracket.locator("h3").nth(i).inner_text() for i in range(2)] == [
        "Semi-finals",
        "Final",
    ]
    assert "Seated once every table of Semi-finals is done" in bracket.inner_text()
    step(app, final_id)  # frozen: both semi-final tables released (share 2) and played
    semis = "#final-bracket .bracket-round[data-stage='0'] .ko-table"
    page.wait_for_selector(f"{semis}[data-state='done'] >> nth=1", timeout=20_000)  # no reload
    assert page.locator(semis).count() == 2
    going_on: set[str] = set()
    for i in range(2):
        table = page.locator(semis).nth(i)
        assert table.locator("tbody tr").count() == 4
        going_on |= {
            str(table.locator("tr.goes-on").nth(j).get_attribute("data-bot")) for j in range(2)
        }
        assert table.locator("tr.goes-on").count() == 2
        assert "goes on" in table.locator("tbody tr").nth(0).inner_text()
    screenshot(page, "final-knockout-semis")
    for _ in range(10):
        step(app, final_id)
    page.wait_for_selector("#final-winner", timeout=20_000)
    final_table = page.locator("#final-bracket .bracket-round[data-stage='1'] .ko-table")
    assert final_table.count() == 1
    seated = {
        str(final_table.locator("tbody tr").nth(i).get_attribute("data-bot")) for i in range(4)
    }
    assert seated == going_on  # the Final seats exactly the four who went on
    assert final_table.locator("tr.goes-on").count() == 0
    with sessions(app)() as db:
        final = db.get(Final, final_id)
        assert final is not None and final.report is not None
        first = final.report["standings"][0]
    assert first["place"] == 1
    winner = names[first["bot_id"]]
    assert page.inner_text("#final-winner").startswith(
        f"Winner: {winner}, first at the Final's table"
    )
    assert final_table.locator("tr.winner").get_attribute("data-bot") == winner
    assert page.locator("#final-status").text_content() == "finished"
    assert page.locator("#final-standings tbody tr").count() == 8
    screenshot(page, "final-knockout")
