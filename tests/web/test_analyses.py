"""The analysis of a match on the site: who may ask, the quota, the progress, the result
on the match page, in its JSON and the API, and the summary on the bot page (issue 33).
The analysis is made by the real task, in this process, on the test's database."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import update
from sqlalchemy.orm import Session

from arena.store import write_transaction
from arena.store.accounts import issue_token
from arena.store.models import Season, User
from tests.analysis.built import BLUNDER_SEAT
from tests.web.analysed import BUILT_RULES, analysis_worker, record_built_match, run_analysis
from tests.web.conftest import AuthActions, csrf_token
from tests.web.factories import World, make_user, row


def body(response: Any) -> Any:
    """The response's JSON (a test fails on a response without one)."""
    found = response.get_json()
    assert found is not None, response.get_data(as_text=True)
    return found


def _openapi_schema(name: str) -> dict[str, Any]:
    """A schema of the API's published OpenAPI document (docs/openapi.yaml)."""
    document = yaml.safe_load((Path(__file__).parents[2] / "docs" / "openapi.yaml").read_text())
    schema: dict[str, Any] = document["components"]["schemas"][name]
    return schema


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


def test_the_api_asks_for_an_analysis_serves_it_and_a_bots_summary(
    app: Flask, client: FlaskClient, world: World, db: Session, database: str, tmp_path: Path
) -> None:
    match_id, trick, card = record_built_match(app, world)
    with write_transaction(db):
        _row, text = issue_token(db, row(db, User, world.alice_id), "tests")
        _row, bobs = issue_token(db, row(db, User, world.bob_id), "tests")
    headers = {"Authorization": f"Bearer {text}"}
    assert body(client.get(f"/api/v1/matches/{match_id}/analysis"))["status"] == "none"
    assert client.post(f"/api/v1/matches/{match_id}/analysis").status_code == 401
    asked = client.post(f"/api/v1/matches/{match_id}/analysis", headers=headers)
    assert asked.status_code == 202 and body(asked)["status"] == "queued"
    assert asked.headers["Location"].endswith(f"/api/v1/matches/{match_id}/analysis")
    again = client.post(
        f"/api/v1/matches/{match_id}/analysis", headers={"Authorization": f"Bearer {bobs}"}
    )
    assert again.status_code == 200  # bob's bot sits there too: served, not asked twice
    with analysis_worker(database, tmp_path / "data"):
        assert run_analysis(body(asked)["id"]) == "done"
    done = body(client.get(f"/api/v1/matches/{match_id}/analysis"))
    blunder = next(
        d
        for d in done["analysis"]["decisions"]
        if d["seat"] == BLUNDER_SEAT and d["trick"] == trick
    )
    assert (blunder["chosen"], blunder["mark"]) == (card, "blunder")
    assert {a["answer"] for a in blunder["answers"]} >= {card, blunder["best"]}
    summary = body(client.get(f"/api/v1/bots/{world.alice_bot_id}/analysis"))
    assert summary["matches"] == 1 and summary["marks"]["blunder"] == 1
    assert summary["worst"][0]["match_id"] == match_id
    refused = client.post(f"/api/v1/matches/{world.match_id}/analysis", headers=headers)
    assert refused.status_code == 202  # alice's bot played the world's match too
    with write_transaction(db):
        dave = make_user(db, app, "dave")
        _row, daves = issue_token(db, dave, "tests")
    stranger = client.post(
        f"/api/v1/matches/{match_id}/analysis", headers={"Authorization": f"Bearer {daves}"}
    )
    assert stranger.status_code == 403 and body(stranger)["error"]["status"] == 403


def test_an_admin_opens_the_seasons_analyses_to_anyone_on_its_page(
    app: Flask, client: FlaskClient, auth: AuthActions, world: World, db: Session
) -> None:
    url = f"/seasons/{world.season_id}/analyses"
    page = client.get(f"/seasons/{world.season_id}").get_data(as_text=True)
    assert "asked by its bots' owners" in page and 'id="analyses-form"' not in page
    with write_transaction(db):
        make_user(db, app, "carol")
    auth.login("carol")  # neither an admin nor an owner of the season's match
    assert client.post(url, data={"public": "y", "csrf_token": auth.token()}).status_code == 403
    assert _ask(client, world.match_id).status_code == 403
    auth.logout()

    auth.login("root")
    assert 'id="analyses-form"' in client.get(f"/seasons/{world.season_id}").get_data(as_text=True)
    assert client.post(url, data={"public": "y"}).status_code == 400  # no CSRF token
    token = csrf_token(client, f"/seasons/{world.season_id}")
    assert client.post(url, data={"public": "y", "csrf_token": token}).status_code == 302
    db.rollback()
    assert row(db, Season, world.season_id).public_analyses is True
    page = client.get(f"/seasons/{world.season_id}").get_data(as_text=True)
    assert "anyone signed in may ask for a match's analysis" in page
    auth.logout()

    auth.login("carol")
    assert _ask(client, world.match_id).status_code == 302  # now anyone signed in may
    auth.logout()
    auth.login("root")
    token = csrf_token(client, f"/seasons/{world.season_id}")
    assert client.post(url, data={"csrf_token": token}).status_code == 302  # unticked
    db.rollback()
    assert row(db, Season, world.season_id).public_analyses is False


def _analysed_with_and_without_hindsight(
    app: Flask, world: World, db: Session, database: str, data: Path
) -> tuple[int, int, str, dict[str, Any]]:
    """The built match analysed by the real task at the site's depth (with hindsight) and
    at the same depth without it: the match, the blunder's trick and card, and the result
    without hindsight."""
    from arena.store import analyses
    from web.analyses import DEFAULT

    match_id, trick, card = record_built_match(app, world)
    depth = {"samples": DEFAULT.samples, "playouts": DEFAULT.playouts, "seed": DEFAULT.seed}
    with write_transaction(db):
        fair_id = analyses.request(db, match_id, None, **depth, hindsight=False)[0].id
        full_id = analyses.request(db, match_id, world.alice_id, **depth, hindsight=True)[0].id
    with analysis_worker(database, data):
        assert run_analysis(fair_id) == run_analysis(full_id) == "done"
    db.rollback()
    fair = analyses.find(db, match_id, **depth, hindsight=False)
    assert fair is not None and fair.result is not None
    result = fair.result
    db.rollback()  # the read's transaction ends: the test may write again
    return match_id, trick, card, result


def test_the_api_serves_the_hindsight_under_its_own_key_and_the_fair_view_unchanged(
    app: Flask, client: FlaskClient, world: World, db: Session, database: str, tmp_path: Path
) -> None:
    match_id, trick, card, fair_only = _analysed_with_and_without_hindsight(
        app, world, db, database, tmp_path / "data"
    )
    served = body(client.get(f"/api/v1/matches/{match_id}/analysis"))
    assert served["status"] == "done" and served["with_hindsight"] is True
    jsonschema.validate(served, _openapi_schema("MatchAnalysisState"))  # as published
    # The fair view holds no hindsight, and is the analysis made without it, mark for mark.
    assert all("hindsight" not in d for d in served["analysis"]["decisions"])
    assert served["analysis"]["decisions"] == [
        {k: v for k, v in d.items() if k != "hindsight"} for d in fair_only["decisions"]
    ]
    assert served["analysis"]["summary"] == fair_only["summary"]
    known = served["hindsight"]
    assert "no seat could know" in known["about"] and "not a judgement" in known["about"]
    # Every judged decision of the one-pack match has its hindsight: the plays and, from
    # ANALYSIS_VERSION 3, the passes (each judged pass exchanged on the real deal).
    judged = [(d["game"], d["hand"], d["action"]) for d in served["analysis"]["decisions"]]
    assert [(d["game"], d["hand"], d["action"]) for d in known["decisions"]] == judged
    passes = [d for d in known["decisions"] if d["kind"] == "pass"]
    assert passes and all(d["playouts"] == 64 and d["phase"] == "pass" for d in passes)
    for d in passes:
        fair = next(
            f
            for f in served["analysis"]["decisions"]
            if f["action"] == d["action"]
            and (f["game"], f["hand"], f["seat"]) == (d["game"], d["hand"], d["seat"])
        )
        assert {a["answer"] for a in d["answers"]} == {a["answer"] for a in fair["answers"]}
    blunder = next(
        d for d in known["decisions"] if d["seat"] == BLUNDER_SEAT and d["trick"] == trick
    )
    assert blunder["chosen"] == card and blunder["kind"] == "play"
    assert {a["answer"] for a in blunder["answers"]} >= {card, blunder["best"]}
    assert blunder["loss"] == round(
        next(a["score"] for a in blunder["answers"] if a["answer"] == card)
        - blunder["answers"][0]["score"],
        3,
    )
    assert "mark" not in blunder  # hindsight is no judgement
    # The page hands the viewer both, apart: the fair data and the hindsight's own.
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert 'id="analysis-data"' in page and 'id="analysis-hindsight"' in page
    assert 'id="analysis-no-hindsight"' not in page


def test_an_analysis_made_without_hindsight_is_never_served_as_one_with_it(
    app: Flask,
    client: FlaskClient,
    auth: AuthActions,
    world: World,
    db: Session,
    database: str,
    tmp_path: Path,
) -> None:
    from arena.store import analyses
    from arena.store.models import MatchAnalysis

    match_id, _, _ = record_built_match(app, world)
    with write_transaction(db):
        fair_id = analyses.request(db, match_id, None, samples=8, playouts=1)[0].id
    with analysis_worker(database, tmp_path / "data"):
        assert run_analysis(fair_id) == "done"
    # Made at another depth: not the site's analysis.
    assert body(client.get(f"/api/v1/matches/{match_id}/analysis"))["status"] == "none"
    from web.analyses import DEFAULT

    with write_transaction(db):
        db.execute(
            update(MatchAnalysis)
            .where(MatchAnalysis.id == fair_id)
            .values(samples=DEFAULT.samples, playouts=DEFAULT.playouts, seed=DEFAULT.seed)
        )
    # At the site's depth but without hindsight (made before the site asked for it): its
    # fair view is served, without hindsight, and its owners may ask for the full one.
    served = body(client.get(f"/api/v1/matches/{match_id}/analysis"))
    assert (served["status"], served["id"], served["with_hindsight"]) == ("done", fair_id, False)
    assert served["hindsight"] is None and served["analysis"]["decisions"]
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert 'id="analysis-no-hindsight"' in page and 'id="analysis-hindsight"' not in page
    assert 'id="ask-hindsight"' not in page  # signed out: may not ask
    auth.login("alice")
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert 'id="ask-hindsight"' in page
    assert _ask(client, match_id).status_code == 302
    asked = body(client.get(f"/matches/{match_id}/analysis.json"))
    assert asked["status"] == "queued" and asked["id"] != fair_id and asked["with_hindsight"]
    db.rollback()
    assert db.get(MatchAnalysis, asked["id"]).hindsight is True  # type: ignore[union-attr]


def test_an_analysis_of_an_earlier_version_is_served_as_outdated_and_asked_again(
    app: Flask,
    client: FlaskClient,
    auth: AuthActions,
    world: World,
    db: Session,
    database: str,
    tmp_path: Path,
) -> None:
    from arena.analysis.review import ANALYSIS_VERSION
    from arena.store import analyses
    from arena.store.models import MatchAnalysis
    from web.analyses import DEFAULT

    match_id, _, _ = record_built_match(app, world)
    with write_transaction(db):
        old_id = analyses.request(
            db, match_id, None, samples=8, playouts=1, hindsight=DEFAULT.hindsight
        )[0].id
    with analysis_worker(database, tmp_path / "data"):
        assert run_analysis(old_id) == "done"
    served = db.get(MatchAnalysis, old_id)
    assert served is not None and served.result is not None
    result = dict(served.result)
    assert result["version"] == ANALYSIS_VERSION
    db.rollback()
    # As if stored by the version before: at the site's depth, its result's layout older.
    with write_transaction(db):
        db.execute(
            update(MatchAnalysis)
            .where(MatchAnalysis.id == old_id)
            .values(
                samples=DEFAULT.samples,
                playouts=DEFAULT.playouts,
                seed=DEFAULT.seed,
                result={**result, "version": ANALYSIS_VERSION - 1},
            )
        )
    current = body(client.get(f"/api/v1/matches/{match_id}/analysis"))
    assert (current["status"], current["id"]) == ("done", old_id)
    assert current["outdated"] is True and current["version"] == ANALYSIS_VERSION - 1
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert 'id="analysis-outdated"' in page and 'id="ask-again"' not in page  # signed out
    auth.login("alice")
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert 'id="ask-again"' in page and 'id="ask-hindsight"' not in page
    assert _ask(client, match_id).status_code == 302
    asked = body(client.get(f"/matches/{match_id}/analysis.json"))
    assert (asked["status"], asked["id"]) == ("queued", old_id)  # the same row, queued again
    db.rollback()
    with analysis_worker(database, tmp_path / "data"):
        assert run_analysis(old_id) == "done"
    again = body(client.get(f"/api/v1/matches/{match_id}/analysis"))
    assert again["outdated"] is False and again["version"] == ANALYSIS_VERSION
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert 'id="analysis-outdated"' not in page
    # A current analysis asked again is the same row, not queued again.
    assert _ask(client, match_id).status_code == 302
    assert body(client.get(f"/matches/{match_id}/analysis.json"))["status"] == "done"


def test_no_hindsight_for_a_match_not_finished(
    app: Flask, client: FlaskClient, world: World, db: Session, database: str, tmp_path: Path
) -> None:
    from arena.store.bots import ensure_house_bots
    from arena.store.models import Match, MatchStatus
    from web.bench import add_match

    with write_transaction(db):
        house = ensure_house_bots(db)
        running = add_match(
            db,
            season_id=None,
            version_ids=[world.alice_version_id, world.bob_version_id, house[0].id, house[1].id],
            rules=BUILT_RULES,
            seed=5,
        )
        db.execute(update(Match).where(Match.id == running).values(status=MatchStatus.RUNNING))
        _row, text = issue_token(db, row(db, User, world.alice_id), "tests")
    served = body(client.get(f"/api/v1/matches/{running}/analysis"))
    assert (served["status"], served["hindsight"], served["may_request"]) == ("none", None, False)
    asked = client.post(
        f"/api/v1/matches/{running}/analysis", headers={"Authorization": f"Bearer {text}"}
    )
    assert asked.status_code == 403
    # No analysis of a match not finished is ever made (asking is refused); should a row
    # exist beside such a match, its hindsight (every hand) is still held back.
    match_id, _, _, _ = _analysed_with_and_without_hindsight(
        app, world, db, database, tmp_path / "data"
    )
    assert body(client.get(f"/api/v1/matches/{match_id}/analysis"))["hindsight"] is not None
    with write_transaction(db):
        db.execute(update(Match).where(Match.id == match_id).values(status=MatchStatus.RUNNING))
    served = body(client.get(f"/api/v1/matches/{match_id}/analysis"))
    assert served["analysis"] is not None and served["hindsight"] is None


@pytest.mark.parametrize("name", ["four_penny", "five_penny_advanced"])
def test_a_penny_round_card_is_shown_at_its_own_step_of_the_round(name: str) -> None:
    """The viewer's steps (web/static/js/replay.js): a hand's multi-round r is trick
    `tricks + r + 1`, its i-th card played is card `i + 1`. Every judged penny-round card
    is keyed to its own step there (by the analysis' `order`), and an analysis older than
    `order` still finds it at every step of its round."""
    from arena.analysis import Settings, analyse
    from arena.bots import HeuristicBot
    from arena.engine import preset
    from arena.match.runner import Entrant, MatchRunner
    from arena.match.seats import InProcessSeat
    from web import analysis_labels as labels

    rules = preset(name).replace(target_score=None, max_hands=1)
    entrants = [Entrant(f"h{i}", InProcessSeat(HeuristicBot(i))) for i in range(rules.players)]
    replay = MatchRunner(rules, entrants, seed=3).run().v1
    hand = replay["games"][0]["hands"][0]
    steps = {
        play["card"]: (len(hand["tricks"]) + r + 1, i + 1)
        for r, round_ in enumerate(hand["multi_rounds"])
        for i, play in enumerate(round_["plays"])
    }
    pennies = [
        d.to_dict()
        for d in analyse(replay, settings=Settings(8, 1)).decisions
        if d.kind == "penny_play"
    ]
    assert len({labels.key(d, rules) for d in pennies}) == len(pennies) > rules.players
    for d in pennies:
        trick, card = steps[d["chosen"].split()[1]]
        assert labels.step(d, rules) == (trick, card)
        assert labels.key(d, rules) == f"1-1-{trick}-{card}"
        assert labels.jump(d, rules) == f"#g=1&h=1&t={trick}&c={card}"
        assert labels.place(d, rules).endswith(f", card {card}")
        older = {k: v for k, v in d.items() if k != "order"}  # ANALYSIS_VERSION 2
        assert labels.key(older, rules) == f"1-1-{trick}-*"
