"""A league season in real Chromium (issue 35, item 1): an admin makes the season on the
settings page with two bosses and a small promotion threshold; a new bot starts in the
lowest league (Wood, boss random); rounds are made by the season's own scheduling and
played by the worker's own task (`workers.matches.execute_match`, in this process, on the
site's database) until the bot has beaten its boss with confidence and stands in Bronze.
Screenshots: the settings form, the bot in Wood, and the bot promoted.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import select

from arena.seasons import schedule_round
from arena.seasons.lifecycle import enter_season
from arena.store.database import write_transaction
from arena.store.models import LeaguePlace, Season
from tests.web.browser.conftest import screenshot
from tests.web.factories import PASSWORD
from web.database import sessions
from workers.config import Settings
from workers.seed import ensure_demo_players

pytestmark = pytest.mark.timeout(900)


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


def played(execute: Any, match_id: int) -> str:
    """The worker's task for `match_id`, run in a thread of its own; its status."""
    outcome: list[Any] = []
    thread = threading.Thread(target=lambda: outcome.append(execute(match_id)), daemon=True)
    thread.start()
    thread.join(300)
    assert outcome, f"match {match_id} did not finish"
    return str(outcome[0].status)


def league_of(app: Flask, season_id: int, bot_id: int) -> int | None:
    with sessions(app)() as db:
        return db.scalar(
            select(LeaguePlace.league)
            .where(LeaguePlace.season_id == season_id, LeaguePlace.bot_id == bot_id)
            .order_by(LeaguePlace.league.desc())
            .limit(1)
        )


def test_a_new_bot_starts_in_the_lowest_league_and_is_promoted_after_beating_its_boss(
    site: Any, page: Any, app: Flask, worker: Settings
) -> None:
    from workers.matches import execute_match

    server, _world = site
    url = server.url
    page.goto(f"{url}/signin")
    page.fill("#username", "root")
    page.fill("#password", PASSWORD)
    page.click("#submit")
    page.wait_for_selector(".who >> text=Sign out")

    page.goto(f"{url}/seasons/new")
    page.fill("#name", "League season")
    page.fill("#cadence_minutes", "1")
    page.check("#leagues")
    page.fill("#league_bosses", "random heuristic")
    page.fill("#league_min_games", "3")
    screenshot(page, "leagues-settings")
    page.click("#submit")
    page.wait_for_selector("#season-leagues")
    assert "random, heuristic" in page.inner_text("#season-leagues")
    with sessions(app)() as db:
        season_id = db.scalar(select(Season.id).where(Season.name == "League season"))
        assert season_id is not None
        db.rollback()
        with write_transaction(db):
            season = db.get(Season, season_id)
            assert season is not None
            (newcomer,) = ensure_demo_players(db, (("heuristic", 1),))
            enter_season(db, season, newcomer)
            bot_id = newcomer.bot_id
    page.click("button:has-text('Start now')")
    page.wait_for_selector(".status-running")

    page.goto(f"{url}/seasons/{season_id}/leagues")
    wood = page.locator("#league-0")
    assert "boss: random" in wood.inner_text()
    assert "demo-heuristic-1" in wood.inner_text()
    assert "no games against random yet" in wood.inner_text()
    assert "demo-heuristic-1" not in page.inner_text("#league-1")
    screenshot(page, "leagues-newcomer-in-wood")

    rounds = 0
    seen_progress: set[str] = set()
    while league_of(app, season_id, bot_id) in (None, 0):
        rounds += 1
        assert rounds <= 40, "never promoted past random"
        ids: list[int] = []
        with sessions(app)() as db:
            report = schedule_round(db, season_id, ids.extend)
        assert report.tables >= 1
        for match_id in ids:  # in a thread: Playwright's event loop holds this one
            assert played(execute_match, match_id) == "done"
        page.goto(f"{url}/seasons/{season_id}/leagues")
        row = page.locator("#league-0 tr[data-bot='demo-heuristic-1'] .promotion")
        if row.count():
            seen_progress.add(row.inner_text())
        if rounds == 2:
            screenshot(page, "leagues-progress")
    # a round after the promotion: the bot now sits with Bronze's boss
    assert league_of(app, season_id, bot_id) == 1
    page.goto(f"{url}/seasons/{season_id}/leagues")
    bronze = page.locator("#league-1")
    assert "boss: heuristic" in bronze.inner_text()
    assert "demo-heuristic-1" in bronze.inner_text()
    assert "promoted" in bronze.locator("tr[data-bot='demo-heuristic-1']").inner_text()
    assert "demo-heuristic-1" not in page.inner_text("#league-0")
    screenshot(page, "leagues-promoted-to-bronze")
    print("rounds:", rounds, "progress shown:", sorted(seen_progress))
    assert any(text.startswith("needs about") for text in seen_progress), seen_progress
    data = page.request.get(f"{url}/api/v1/seasons/{season_id}/leagues").json()
    bronze_rows = [
        e for league in data["leagues"] if league["number"] == 1 for e in league["entrants"]
    ]
    assert [e["bot"] for e in bronze_rows] == ["demo-heuristic-1"]
    assert bronze_rows[0]["promoted_from"] == [0]
    with sessions(app)() as db:
        place = db.scalars(
            select(LeaguePlace).where(
                LeaguePlace.season_id == season_id,
                LeaguePlace.bot_id == bot_id,
                LeaguePlace.league == 0,
            )
        ).one()
        evidence = place.evidence
        assert evidence is not None and evidence["promoted"] and evidence["games"] >= 3
        assert evidence["high"] < 0  # the interval of (bot - boss) points per hand below zero

    # The admin changes the running season's bosses on the leagues page: a boss named
    # twice is refused with the reason, then Bronze's boss is replaced (heuristic by
    # strong) and a boss added above; the bot keeps its league (Bronze), and plays its
    # next round against the new boss.
    page.goto(f"{url}/seasons/{season_id}/leagues")
    assert page.input_value("#bosses") == "random heuristic"
    assert "nothing sends a bot down" in page.inner_text("#change-leagues")
    page.fill("#bosses", "random random")
    page.click("#bosses-form [type=submit]")
    page.wait_for_selector("#bosses-form .error")
    assert "random is named twice" in page.inner_text("#bosses-form .error")
    page.fill("#bosses", "random strong heuristic")
    screenshot(page, "leagues-change-bosses")
    page.click("#bosses-form [type=submit]")
    page.wait_for_selector("text=Every bot keeps its league")
    assert page.inner_text("#league-1 .boss") == "strong"
    assert page.inner_text("#league-2 .boss") == "heuristic"
    assert "demo-heuristic-1" in page.inner_text("#league-1")
    assert "no games against strong yet" in page.inner_text(
        "#league-1 tr[data-bot='demo-heuristic-1'] .promotion"
    )
    assert league_of(app, season_id, bot_id) == 1
    ids = []
    with sessions(app)() as db:
        schedule_round(db, season_id, ids.extend)
    for match_id in ids:
        assert played(execute_match, match_id) == "done"
    assert league_of(app, season_id, bot_id) == 1  # nothing moved it by the edit
    page.goto(f"{url}/seasons/{season_id}/leagues")
    row = page.inner_text("#league-1 tr[data-bot='demo-heuristic-1']")
    assert "no games against strong yet" not in row, row
    screenshot(page, "leagues-after-change")
