"""Refused sign-ins cost almost nothing (`web.limits.RefusedSignins`): once the address
limit refuses an address, its sign-ins are answered before Flask with the same refusal,
exactly until the limiter would try that address again; other addresses, the account
limit and every other request go through Flask as before."""

from __future__ import annotations

import time

import pytest
from flask import Flask

from tests.web.conftest import AuthActions, make_app
from web.database import dispose
from web.limits import RefusedSignins


@pytest.fixture
def limited(database):
    """The site with an address limit of two failures a second (small numbers, the
    same code), and a count of the requests that reach Flask."""
    application = make_app(database, SIGNIN_ADDRESS_LIMITS="2 per 1 second")
    application.config["reached_flask"] = 0

    @application.before_request
    def count() -> None:
        application.config["reached_flask"] += 1

    yield application
    dispose(application)


def middleware(app: Flask) -> RefusedSignins:
    found = app.wsgi_app
    assert isinstance(found, RefusedSignins)
    return found


def reached(app: Flask, action) -> int:
    before = app.config["reached_flask"]
    action()
    return int(app.config["reached_flask"] - before)


def test_a_refused_address_is_answered_before_flask_until_the_window_moves(limited, world):
    auth = AuthActions(limited.test_client())
    assert [auth.login(f"nobody-{n}", "wrong").status_code for n in range(2)] == [400, 400]
    first = auth.login("nobody-2", "wrong")  # the limiter refuses, through Flask
    assert first.status_code == 429
    ((until, *_),) = middleware(limited).refused.values()
    assert 0 < until - time.time() <= 1.0  # when the oldest failure leaves the window

    responses = []
    assert reached(limited, lambda: responses.append(auth.login("nobody-3", "wrong"))) == 1
    # (the one request that reached Flask is the GET for the form's CSRF token)
    again = responses[0]
    assert again.status_code == 429
    assert again.get_data() == first.get_data()
    assert again.headers["Retry-After"] == first.headers["Retry-After"]
    assert again.headers["Content-Security-Policy"] == first.headers["Content-Security-Policy"]
    assert "Set-Cookie" not in again.headers

    time.sleep(max(0.0, until - time.time()) + 0.05)  # the limiter admits one more now
    assert auth.login("nobody-4", "wrong").status_code == 400


def test_other_addresses_and_the_right_password_elsewhere_are_not_affected(limited, world):
    attacker = AuthActions(limited.test_client())
    for n in range(3):
        attacker.login(f"nobody-{n}", "wrong")
    assert attacker.login("alice").status_code == 429  # the address is refused, as before
    elsewhere = limited.test_client()
    elsewhere.environ_base["REMOTE_ADDR"] = "192.0.2.7"
    assert AuthActions(elsewhere).login("alice").status_code == 302


def test_account_limit_refusals_still_go_through_flask(database, world):
    application = make_app(database, SIGNIN_ACCOUNT_LIMITS="1 per hour")
    try:
        auth = AuthActions(application.test_client())
        assert [auth.login("alice", "wrong").status_code for _ in range(3)] == [400, 429, 429]
        assert middleware(application).refused == {}
    finally:
        dispose(application)


def test_it_forgets_expired_addresses_when_full(monkeypatch):
    monkeypatch.setattr(RefusedSignins, "MAX_ADDRESSES", 2)
    refusals = RefusedSignins(lambda environ, start_response: [b""])
    now = time.time()
    refusals._remember(("a", ""), (now - 1, "429", [], b""))
    refusals._remember(("b", ""), (now + 60, "429", [], b""))
    refusals._remember(("c", ""), (now + 60, "429", [], b""))  # "a" expired: room for "c"
    refusals._remember(("d", ""), (now + 60, "429", [], b""))  # full: "d" goes to Flask
    assert set(refusals.refused) == {("b", ""), ("c", "")}
