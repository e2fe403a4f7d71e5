"""Human tables on the wire (issue 34): what the person's page and state carry, and what the
site takes from them. The worker's own task plays the table in a thread on the site's
database (SQLite and PostgreSQL); the test answers as the person through the site's JSON
endpoints and keeps every response. None of them, nor the page, carries a card another seat
holds before it is played (only the seat's view is written: arena/match/human.py); the
match is recorded and verifies. Refusals: a card the decision does not offer, a second
answer, another person's table, a signed-out visitor."""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from arena.match.verify import verify
from arena.store.models import Match, MatchStatus
from arena.store.people import HumanTable, TableMoment
from tests.web.conftest import AuthActions, csrf_token
from tests.web.factories import PASSWORD, World
from web.database import sessions
from web.replays import replay_document
from workers.config import Settings

pytestmark = pytest.mark.timeout(300)

CARD = re.compile(r"^(?:[2-9TJQKA])[CDSH]$")
PUBLIC = ("current_trick", "tricks", "trick")
"""Where a view holds cards every seat has seen played."""


@pytest.fixture
def worker(app: Flask, tmp_path: Path) -> Iterator[Settings]:
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


def new_table(client: FlaskClient, preset: str = "standard", seconds: int = 60) -> int:
    response = client.post(
        "/tables/new",
        data={
            "preset": preset,
            "opponents": "house/heuristic-1, house/random-1, house/heuristic-2",
            "seat": "0",
            "seconds": str(seconds),
            "hands": "1",
            "csrf_token": csrf_token(client, "/tables/new"),
        },
    )
    assert response.status_code == 302, response.get_data(as_text=True)[:2000]
    return int(response.headers["Location"].rstrip("/").split("/")[-1])


def start_worker(match_id: int) -> tuple[threading.Thread, list[Any]]:
    from workers.matches import execute_match

    outcome: list[Any] = []

    def run() -> None:
        try:
            outcome.append(execute_match(match_id))
        except BaseException as error:  # reported by the test
            outcome.append(error)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, outcome


def first_offered(ask: dict[str, Any]) -> dict[str, Any]:
    if "cards" in ask:
        low = ask["pick"][0]
        return {"cards": ask["cards"][: max(low, 1) if low else 0]}
    return {"choice": 0}


def play_through(client: FlaskClient, match_id: int) -> list[str]:
    """Answer every decision with the first thing offered until the match ends; every
    response body the person's browser would have read."""
    bodies: list[str] = []
    token = csrf_token(client, f"/tables/{match_id}")
    after = 0
    for _ in range(20_000):
        response = client.get(f"/tables/{match_id}/state?after={after}")
        assert response.status_code == 200
        bodies.append(response.get_data(as_text=True))
        state = response.get_json()
        if state["status"] in ("done", "failed", "void"):
            return bodies
        moment = state.get("moment")
        if moment:
            after = moment["number"]
            if moment["kind"] == "ask" and not moment["answered"] and moment["remaining"] > 0:
                answer = {"number": moment["number"], **first_offered(moment["ask"])}
                sent = client.post(
                    f"/tables/{match_id}/answer", json=answer, headers={"X-CSRFToken": token}
                )
                assert sent.status_code == 200, sent.get_json()
                bodies.append(sent.get_data(as_text=True))
        threading.Event().wait(0.02)
    raise AssertionError("the table never ended")


def cards_outside_public(node: Any) -> set[str]:
    """Every card text in `node` but those inside the public plays."""
    found: set[str] = set()
    if isinstance(node, dict):
        for key, value in node.items():
            if key not in PUBLIC:
                found |= cards_outside_public(value)
    elif isinstance(node, list):
        for item in node:
            found |= cards_outside_public(item)
    elif isinstance(node, str) and CARD.match(node):
        found.add(node)
    return found


def test_the_persons_state_never_carries_another_seats_hidden_cards(
    app: Flask, client: FlaskClient, auth: AuthActions, world: World, worker: Settings
) -> None:
    auth.login("alice", PASSWORD)
    match_id = new_table(client)
    page = client.get(f"/tables/{match_id}").get_data(as_text=True)
    thread, outcome = start_worker(match_id)
    bodies = [page, *play_through(client, match_id)]
    thread.join(timeout=120)
    assert outcome and not isinstance(outcome[0], BaseException), outcome
    assert outcome[0].action == "recorded"
    with sessions(app)() as db:
        assert db.get(Match, match_id).status is MatchStatus.DONE  # type: ignore[union-attr]
        replay = replay_document(db, match_id)
    assert replay is not None
    verify(replay)
    [hand] = replay["games"][0]["hands"]
    received = set(hand["received"][0]) if hand.get("received") else set()
    hidden = {card for seat, deal in enumerate(hand["deal"]) if seat != 0 for card in deal}
    hidden -= received  # what the person was passed is theirs to see
    mine = set(hand["deal"][0]) | received
    seen: set[str] = set()
    for body in bodies:
        try:
            data = json.loads(body)
        except json.JSONDecodeError:  # the page: no card of anyone's is in its HTML
            assert not (set(re.findall(r"\b[2-9TJQKA][CDSH]\b", body)) & hidden)
            continue
        shown = cards_outside_public(data)
        assert not shown & hidden, sorted(shown & hidden)
        seen |= shown
    assert seen & mine  # the person did see their own cards: the check looked at cards
    # the person's page lists the table; the human ladder rates them, apart from the bots
    mine_page = client.get(f"/users/{world.alice_id}").get_data(as_text=True)
    assert f"#{match_id}</a>" in mine_page.split('id="tables"')[1]
    ladder = client.get("/tables/ladder").get_data(as_text=True)
    assert "Human ladder" in ladder and f'data-user="{world.alice_id}"' in ladder


def test_the_site_takes_only_an_answer_the_decision_offers_from_its_person(
    app: Flask, client: FlaskClient, auth: AuthActions, world: World, worker: Settings
) -> None:
    auth.login("alice", PASSWORD)
    match_id = new_table(client)
    token = csrf_token(client, f"/tables/{match_id}")
    thread, outcome = start_worker(match_id)
    moment: dict[str, Any] | None = None
    for _ in range(2000):
        state = client.get(f"/tables/{match_id}/state").get_json()
        moment = state.get("moment")
        if moment and moment["kind"] == "ask":
            break
        threading.Event().wait(0.05)
    assert moment is not None and moment["kind"] == "ask"
    ask, number = moment["ask"], moment["number"]
    offered = set(ask["cards"])
    with sessions(app)() as db:
        table = db.get(HumanTable, match_id)
        assert table is not None and table.user_id == world.alice_id
        seed = db.get(Match, match_id).seed  # type: ignore[union-attr]
    # the seed deals every hand: neither the match's page nor the API tells it in play
    assert f"seed {seed}" not in client.get(f"/matches/{match_id}").get_data(as_text=True)
    api = client.get(f"/api/v1/matches/{match_id}", headers={"Accept": "application/json"})
    assert api.status_code == 200 and api.get_json()["seed"] is None
    deck = [rank + suit for suit in "CDSH" for rank in "23456789TJQKA"]
    not_offered = [card for card in deck if card not in offered]
    low = max(ask["pick"][0], 1)
    refusals = [
        {"number": number, "cards": not_offered[:low]},  # cards it does not offer
        {"number": number, "cards": [*sorted(offered)[: low - 1], not_offered[0]]},
        {"number": number, "cards": sorted(offered)[: low + 1]},  # one card too many
        {"number": number, "choice": 0},
        {"number": number},
    ]
    for wrong in refusals:
        sent = client.post(f"/tables/{match_id}/answer", json=wrong, headers={"X-CSRFToken": token})
        assert sent.status_code == 400, (wrong, sent.get_json())
    right = {"number": number, **first_offered(ask)}
    assert (
        client.post(
            f"/tables/{match_id}/answer", json=right, headers={"X-CSRFToken": token}
        ).status_code
        == 200
    )
    again = client.post(f"/tables/{match_id}/answer", json=right, headers={"X-CSRFToken": token})
    assert again.status_code == 409
    with sessions(app)() as db:
        row = (
            db.query(TableMoment)
            .filter(TableMoment.match_id == match_id, TableMoment.number == number)
            .one()
        )
        assert row.answer == first_offered(ask)
    # another person: the match's page, never the seat's state; signed out: nothing
    auth.logout()
    auth.login("bob", PASSWORD)
    assert client.get(f"/tables/{match_id}/state").status_code == 403
    shown = client.get(f"/tables/{match_id}")
    assert shown.status_code == 302 and shown.headers["Location"].endswith(f"/matches/{match_id}")
    auth.logout()
    assert client.get(f"/tables/{match_id}/state").status_code == 401
    # the person again, to finish the table
    auth.login("alice", PASSWORD)
    play_through(client, match_id)
    thread.join(timeout=120)
    assert outcome and outcome[0].action == "recorded", outcome
