"""Sign-in limits keep floods out without handing strangers a lock (`web.limits`): wrong
passwords for a name from one address no longer refuse its owner at theirs; failures
from many addresses slow the account for seconds (`Retry-After` says how long), never an
hour; a flood from one address is still refused."""

from __future__ import annotations

import time

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.web.conftest import AuthActions, make_app
from web import auth as auth_views
from web.database import dispose

OWNER_ADDRESS = "192.0.2.10"


def client_at(app: Flask, address: str) -> AuthActions:
    """Sign-in helpers for a browser at `address`."""
    client: FlaskClient = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return AuthActions(client)


def test_a_strangers_failures_from_elsewhere_do_not_refuse_the_owner(app, world):
    stranger = client_at(app, "198.51.100.66")
    answers = [stranger.login("alice", "wrong").status_code for _ in range(12)]
    assert answers[:3] == [400, 400, 400]
    assert set(answers[3:]) == {429}  # the stranger is refused
    owner = client_at(app, OWNER_ADDRESS).login("alice")
    assert owner.status_code == 302, owner.get_data(as_text=True)


@pytest.fixture
def small(database):
    """The site with a small free allowance and delay (the same code, smaller numbers)."""
    application = make_app(database, SIGNIN_ACCOUNT_FREE_FAILURES=2, SIGNIN_ACCOUNT_MAX_DELAY=4)
    yield application
    dispose(application)


def test_failures_from_many_addresses_slow_the_account_for_seconds_not_an_hour(small, world):
    answers = [
        client_at(small, f"198.51.100.{n}").login("alice", "wrong").status_code for n in range(1, 5)
    ]
    assert answers == [400, 400, 400, 429]  # after 3 failures (2 free): wait 2 s
    owner = client_at(small, OWNER_ADDRESS)
    refused = owner.login("alice")
    assert refused.status_code == 429
    wait = int(refused.headers["Retry-After"])
    assert 1 <= wait <= 2
    time.sleep(wait + 0.1)
    assert owner.login("alice").status_code == 302


def test_an_account_waiting_its_delay_hashes_no_password(small, world, monkeypatch):
    for n in range(1, 4):
        client_at(small, f"198.51.100.{n}").login("alice", "wrong")
    hashed: list[str] = []
    monkeypatch.setattr(auth_views, "check_password", lambda *a, **k: hashed.append("x"))
    assert client_at(small, "198.51.100.9").login("alice", "wrong").status_code == 429
    assert hashed == []


def test_the_delay_doubles_with_each_failure_after_the_free_ones(small, world):
    for n in range(1, 4):
        assert client_at(small, f"198.51.100.{n}").login("alice", "wrong").status_code == 400
    first = client_at(small, "198.51.100.4").login("alice", "wrong")
    assert (first.status_code, first.headers["Retry-After"]) == (429, "2")
    time.sleep(2.05)
    assert client_at(small, "198.51.100.4").login("alice", "wrong").status_code == 400
    second = client_at(small, "198.51.100.5").login("alice", "wrong")
    assert (second.status_code, second.headers["Retry-After"]) == (429, "4")


def test_a_flood_from_one_address_is_still_refused(app, world):
    flooder = client_at(app, "203.0.113.5")
    answers = [flooder.login(f"someone-{n}", "wrong").status_code for n in range(12)]
    assert answers == [400] * 10 + [429] * 2  # ten a minute from one address


def test_guessing_one_account_from_one_address_is_refused_even_the_right_password(app, world):
    guesser = client_at(app, "203.0.113.6")
    assert [guesser.login("alice", "wrong").status_code for _ in range(3)] == [400] * 3
    refused = guesser.login("alice")
    assert refused.status_code == 429
    assert 0 < int(refused.headers["Retry-After"]) <= 10
