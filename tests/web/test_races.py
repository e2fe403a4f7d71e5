"""Racing writes on a real server: 16 threads send the same request at once, released by a
barrier, to the site served on a real port (tests/web/live.py), on SQLite and PostgreSQL.

Why a real server and threads: PostgreSQL lets concurrent transactions both pass a
check-then-insert and then fails one on the unique constraint; SQLite serialises writers
and hides it. Each race must end in successes and consistent refusals (409, or the form's
"taken"), never a 5xx, and nothing half-stored.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
import requests
from flask import Flask
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from arena.store.accounts import issue_token
from arena.store.models import Archive, Bot, BotVersion, Match, MatchSeat, Ruleset, User
from tests.web.conftest import CSRF
from tests.web.factories import BOT_SOURCE, World, row
from tests.web.live import LiveServer

pytestmark = pytest.mark.timeout(180)

RACERS = 16


@pytest.fixture
def live(app: Flask) -> Iterator[str]:
    """The site served on a free port (threaded: requests really overlap)."""
    with LiveServer(app) as server:
        yield server.url


@pytest.fixture
def token(world: World, db: Session) -> str:
    with db.begin():
        _row, text = issue_token(db, row(db, User, world.alice_id), "races")
    return text


def together(prepare: Callable[[int], Any], send: Callable[[Any], requests.Response]) -> list[int]:
    """`RACERS` threads each `prepare` (unhurried), then `send` at the same moment; the
    statuses answered."""
    barrier = threading.Barrier(RACERS)

    def racer(number: int) -> int:
        prepared = prepare(number)
        barrier.wait(timeout=60)
        return send(prepared).status_code

    with ThreadPoolExecutor(RACERS) as pool:
        return list(pool.map(racer, range(RACERS)))


def count(db: Session, statement: Any) -> int:
    db.rollback()  # a fresh snapshot: the server committed after our last read
    return int(db.scalar(select(func.count()).select_from(statement.subquery())) or 0)


def test_identical_uploads_store_one_version(live, token, db):
    def send(_: None) -> requests.Response:
        return requests.post(
            f"{live}/api/v1/bots/racer/versions",
            headers={"Authorization": f"Bearer {token}"},
            files={"file": ("bot.py", BOT_SOURCE + b"# racer\n")},
            timeout=60,
        )

    statuses = together(lambda _n: None, send)
    assert Counter(statuses) == {201: 1, 200: RACERS - 1}, statuses
    assert count(db, select(Bot).where(Bot.name == "racer")) == 1
    assert count(db, select(BotVersion).join(Bot).where(Bot.name == "racer")) == 1


def test_different_uploads_to_one_name_number_versions_without_gaps(live, token, db):
    def send(number: int) -> requests.Response:
        return requests.post(
            f"{live}/api/v1/bots/racer/versions",
            headers={"Authorization": f"Bearer {token}"},
            files={"file": ("bot.py", BOT_SOURCE + f"# racer {number}\n".encode())},
            timeout=60,
        )

    statuses = together(lambda number: number, send)
    print(f"\n16 different uploads to one name at once: {sorted(Counter(statuses).items())}")
    assert set(statuses) <= {201, 409}, statuses
    created = statuses.count(201)
    assert created >= 1
    numbers = sorted(
        db.scalars(select(BotVersion.number).join(Bot).where(Bot.name == "racer")).all()
    )
    assert numbers == list(range(1, created + 1))  # one row per 201, nothing half-stored
    versions = select(BotVersion.archive_sha256).join(Bot).where(Bot.name == "racer")
    assert count(db, select(Archive).where(Archive.sha256.in_(versions))) == created


def test_challenges_that_make_a_new_ruleset_store_it_once(live, token, world, db):
    body = {
        "version": world.alice_version_id,
        "opponents": ["bob/minnow", "house/random-1", "house/heuristic-1"],
        "hands": 37,  # a cut no ruleset row holds yet
    }

    def send(_: None) -> requests.Response:
        return requests.post(
            f"{live}/api/v1/challenges",
            json=body,
            headers={"Authorization": f"Bearer {token}"},
            timeout=60,
        )

    statuses = together(lambda _n: None, send)
    assert statuses == [201] * RACERS
    rulesets = db.scalars(select(Ruleset).where(Ruleset.data["max_hands"].as_integer() == 37))
    assert len(rulesets.all()) == 1
    challenges = select(Match).where(Match.status_reason == "challenge")
    assert count(db, challenges) == RACERS
    seats = select(MatchSeat).where(MatchSeat.match_id.in_(challenges.with_only_columns(Match.id)))
    assert count(db, seats) == 4 * RACERS


def test_sign_ups_of_one_name_make_one_account(live, db):
    def prepare(_: int) -> tuple[requests.Session, str]:
        browser = requests.Session()
        page = browser.get(f"{live}/signup", timeout=60).text
        found = CSRF.search(page)
        assert found
        return browser, found.group(1) or found.group(2)

    def send(prepared: tuple[requests.Session, str]) -> requests.Response:
        browser, csrf = prepared
        form = {
            "username": "racer",
            "password": "correct horse",
            "confirm": "correct horse",
            "csrf_token": csrf,
        }
        return browser.post(f"{live}/signup", data=form, allow_redirects=False, timeout=60)

    statuses = together(prepare, send)
    assert Counter(statuses) == {302: 1, 400: RACERS - 1}, statuses  # 400: "that name is taken"
    assert count(db, select(User).where(User.username == "racer")) == 1
