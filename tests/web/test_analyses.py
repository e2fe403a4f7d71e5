"""The analysis of a match on the site: who may ask, the quota, the progress, the result
on the match page, in its JSON and the API, and the summary on the bot page (issue 33).
The analysis is made by the real task, in this process, on the test's database."""

from __future__ import annotations

from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import update
from sqlalchemy.orm import Session

from arena.store import write_transaction
from arena.store.models import Season
from tests.web.analysed import analysis_worker, record_built_match, run_analysis
from tests.web.conftest import AuthActions, csrf_token
from tests.web.factories import World, make_user


def _ask(client: FlaskClient, match_id: int, signed_in: bool = True):
    token = csrf_token(client, "/" if signed_in else "/signin")
    return client.post(f"/matches/{match_id}/analysis", data={"csrf_token": token})


def test_the_owner_asks_sees_the_progress_then_the_blunder_on_the_match_and_bot_pages(
    app: Flask, client: FlaskClient, auth: AuthActions, world: World, database: str,
    tmp_path: Path,
) -> None:  # fmt: skip
    match_id, trick, card = record_built_match(app, world)
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert 'id="analysis-none"' in page and 'id="ask-analysis"' not in page  # signed out
    auth.login("alice")
    assert 'id="ask-analysis"' in client.get(f"/matches/{match_id}").get_data(as_text=True)
    response = _ask(client, match_id)
    assert response.status_code == 302 and response.location.endswith(
        f"/matches/{match_id}#analysis"
    )
    state = client.get(f"/matches/{match_id}/analysis.json").get_json()
    assert (state["status"], state["done"], state["analysis"]) == ("queued", 0, None)
    assert 'id="analysis-progress"' in client.get(f"/matches/{match_id}").get_data(as_text=True)
    with analysis_worker(database, tmp_path / "data"):
        assert run_analysis(state["id"]) == "done"
    state = client.get(f"/matches/{match_id}/analysis.json").get_json()
    assert state["status"] == "done" and state["done"] == state["total"] > 0
    worst = state["analysis"]["summary"]["2"]["worst"][0]
    assert (worst["trick"], worst["chosen"], worst["mark"]) == (trick, card, "blunder")
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert 'id="analysis-summary"' in page and 'class="mark-blunder"' in page
    assert 'id="analysis-data"' in page and "js/analysis.js" in page
    bot_page = client.get(f"/bots/{world.alice_bot_id}").get_data(as_text=True)
    assert 'id="bot-analysis-phases"' in bot_page and "1 blunder" in bot_page
    assert f"match #{match_id}, hand 1, trick {trick + 1}" in bot_page
    # Asked again: served from the store, nothing queued, no quota spent.
    assert _ask(client, match_id).status_code == 302
    assert client.get(f"/matches/{match_id}/analysis.json").get_json()["status"] == "done"


def test_only_owners_may_ask_unless_the_season_lets_anyone_and_the_quota_holds(
    app: Flask, client: FlaskClient, auth: AuthActions, world: World, db: Session
) -> None:
    built, _, _ = record_built_match(app, world)
    assert _ask(client, world.match_id, signed_in=False).status_code == 401
    with write_transaction(db):
        make_user(db, app, "carol")
    auth.login("carol")
    assert _ask(client, world.match_id).status_code == 403
    with write_transaction(db):
        db.execute(update(Season).where(Season.id == world.season_id).values(public_analyses=True))
    assert _ask(client, world.match_id).status_code == 302  # the season's match: anyone
    assert _ask(client, built).status_code == 403  # a challenge: its owners only
    auth.logout()
    second, _, _ = record_built_match(app, world)
    app.config["ANALYSES_PER_DAY"] = 1
    auth.login("alice")
    assert _ask(client, built).status_code == 302
    refused = _ask(client, second)
    assert refused.status_code == 429 and "quota is 1" in refused.get_data(as_text=True)
    assert _ask(client, built).status_code == 302  # asked already: served, not counted
    assert client.get(f"/matches/{second}/analysis.json").get_json()["status"] == "none"
