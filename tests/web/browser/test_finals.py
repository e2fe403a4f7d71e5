"""A final's page in real Chromium: it follows the schedule live (the page fetches its
live part again every five seconds, no reload) while the worker's own task plays the
final's tables, and ends with the standings and the places that are tied; a knockout's
page draws its bracket, round by round, and names the winner."""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import subprocess
import sys
import threading
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import select

from arena.engine import preset
from arena.seasons.finals import advance_final, create_final
from arena.store.database import make_engine, make_sessionmaker, write_transaction
from arena.store.models import Bot, Final, FinalFormat, Season
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
    # A knockout's standings name the round reached, not a one-table "interval".
    reached = page.locator("#final-standings tbody td.reached").all_inner_texts()
    assert sorted(reached) == ["Final"] * 4 + ["Semi-finals"] * 4
    assert page.locator("#final-standings td.interval").count() == 0
    screenshot(page, "final-knockout")


@pytest.fixture
def platform(tmp_path: Path) -> Iterator[tuple[str, str]]:
    """`arena platform` (the site behind the live server, two Celery workers with the
    sandbox, beat) in a folder of its own, with no demo round after its first; its URL
    and its database's."""
    from arena.ports import free_port
    from tests.web.browser.test_contestant_loop import _answers
    from tests.workers.processes import wait_until
    from tests.workers.test_platform import ctrl_c, start_platform

    if shutil.which("bwrap") is None or os.geteuid() != 0:
        pytest.skip("the sandbox needs root and bubblewrap (apt-get install bubblewrap)")
    port = free_port()
    log = tmp_path / "platform.log"
    process = start_platform(tmp_path, port, log, "--cadence", "3600")
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until(lambda: _answers(url), 120, "the site to answer")
        yield url, f"sqlite:///{tmp_path / 'var' / 'arena.db'}"
    finally:
        ctrl_c(process)
        print(log.read_text(errors="replace")[-4000:])


@pytest.mark.slow
def test_a_knockout_made_with_the_command_runs_on_the_platforms_workers_to_its_winner(
    platform: tuple[str, str], browser: Any, tmp_path: Path
) -> None:
    """The same knockout of eight on the real platform: made by `arena final create`,
    released by its beat, played by its two workers, followed in Chromium to the winner."""
    url, database = platform
    engine = make_engine(database)
    with make_sessionmaker(engine)() as db:
        season_id = db.scalar(select(Season.id).where(Season.name.startswith("Demo")))
        rows = db.execute(
            select(Bot.id, Bot.name).where(
                Bot.name.in_(
                    [f"demo-heuristic-{i}" for i in (1, 2, 3)]
                    + [f"demo-random-{i}" for i in (1, 2)]
                    + [f"random-{i}" for i in (1, 2, 3)]
                )
            )
        ).all()
    engine.dispose()
    assert season_id is not None and len(rows) == 8, rows
    names = dict(rows)
    made = subprocess.run(
        [
            str(Path(sys.executable).with_name("arena")),
            *("final", "create", "Platform knockout", "--season", str(season_id)),
            *(arg for bot_id, _ in rows for arg in ("--bot", str(bot_id))),
            *("--format", "knockout", "--worker-share", "2", "--now", "--url", database),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert made.returncode == 0, made.stdout + made.stderr
    final_id = int(made.stdout.split()[1])
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{url}/finals/{final_id}")
    semis = "#final-bracket .bracket-round[data-stage='0'] .ko-table"
    assert page.locator(semis).count() == 2
    page.wait_for_selector(f"{semis}[data-state='done'] >> nth=1", timeout=600_000)
    page.wait_for_selector("#final-winner", timeout=600_000)  # the page followed, no reload
    request = urllib.request.Request(
        f"{url}/api/v1/finals/{final_id}", headers={"Accept": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=30) as reply:
        view = json.loads(reply.read())
    assert view["status"] == "finished"
    winner = view["bracket"]["winner"]
    assert winner["bot"] == names[view["standings"][0]["bot_id"]]
    assert page.inner_text("#final-winner").startswith(f"Winner: {winner['bot']}")
    screenshot(page, "final-knockout-platform")
    context.close()
    assert not errors, errors
