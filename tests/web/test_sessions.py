"""Sessions that end, and sign-ins that cannot be hammered: a copied cookie stops working
at sign-out, a new password or "sign out everywhere"; failed sign-ins are slowed, then
refused, per account and per address; unknown names cost what known ones cost."""

from __future__ import annotations

import time

import pytest
from flask.testing import FlaskClient

from tests.web.conftest import AuthActions, csrf_token, make_app
from web import passwords
from web.database import dispose


def copy_of(client: FlaskClient, app) -> FlaskClient:
    """Another browser holding a copy of `client`'s session cookie."""
    cookie = client.get_cookie("session")
    assert cookie is not None
    thief = app.test_client()
    thief.set_cookie("session", cookie.value)
    return thief


def signed_in(client: FlaskClient) -> bool:
    return client.get("/account").status_code == 200


def test_a_copied_cookie_is_refused_after_sign_out(app, client, auth, world):
    assert auth.login().status_code == 302
    thief = copy_of(client, app)
    assert signed_in(thief)  # the copy works while the session lasts
    assert auth.logout().status_code == 302
    assert not signed_in(client)
    assert not signed_in(thief)
    assert thief.get("/account").headers["Location"].startswith("/signin")


def test_a_new_password_ends_every_other_session(app, client, auth, world):
    auth.login()
    thief = copy_of(client, app)
    form = {
        "current": "correct horse",
        "password": "battery staple",
        "confirm": "battery staple",
        "csrf_token": csrf_token(client, "/account"),
    }
    wrong = client.post("/account/password", data={**form, "current": "nope"})
    assert wrong.status_code == 400
    assert signed_in(thief)
    assert client.post("/account/password", data=form).status_code == 302
    assert signed_in(client)  # this browser goes on
    assert not signed_in(thief)
    auth.logout()
    assert auth.login("alice", "correct horse").status_code == 400
    assert auth.login("alice", "battery staple").status_code == 302


def test_sign_out_everywhere(app, client, auth, world):
    auth.login()
    other = app.test_client()
    AuthActions(other).login()
    token = csrf_token(client, "/account")
    assert client.post("/account/signout-everywhere", data={"csrf_token": token}).status_code == 302
    assert not signed_in(client)
    assert not signed_in(other)


def test_an_admin_signs_a_user_out_everywhere(app, client, auth, world):
    auth.login("bob")
    result = app.test_cli_runner().invoke(args=["users", "signout", "bob"])
    assert result.exit_code == 0, result.output
    assert not signed_in(client)
    assert "no user" in app.test_cli_runner().invoke(args=["users", "signout", "x"]).output


@pytest.fixture
def strict(database):
    """The site with small sign-in limits (the same code, smaller numbers)."""
    application = make_app(
        database,
        SIGNIN_ACCOUNT_LIMITS="3 per 1 second; 5 per hour",
        SIGNIN_ADDRESS_LIMITS="8 per hour",
    )
    yield application
    dispose(application)


def test_a_burst_of_wrong_passwords_is_slowed_then_refused(strict, world):
    auth = AuthActions(strict.test_client())
    burst = [auth.login("alice", "wrong").status_code for _ in range(5)]
    assert burst == [400, 400, 400, 429, 429]  # slowed: three per second
    refused = auth.login("alice", "wrong")
    assert refused.status_code == 429
    assert int(refused.headers["Retry-After"]) >= 0
    time.sleep(1.1)
    assert [auth.login("alice", "wrong").status_code for _ in range(2)] == [400, 400]
    time.sleep(1.1)
    assert auth.login("alice", "correct horse").status_code == 429  # refused: 5 an hour
    assert AuthActions(strict.test_client()).login("bob").status_code == 302  # others go on


def test_failed_sign_ins_from_one_address_are_refused(strict, world):
    auth = AuthActions(strict.test_client())
    names = [f"someone-{number}" for number in range(10)]
    statuses = [auth.login(name, "wrong").status_code for name in names]
    assert statuses == [400] * 8 + [429] * 2


def test_unknown_and_known_names_do_the_same_work(app, client, auth, world, monkeypatch):
    checks: list[str] = []
    original = passwords.accounts.check_password  # type: ignore[attr-defined]

    def counting(stored, password, **kwargs):
        checks.append(stored[:9])
        return original(stored, password, **kwargs)

    monkeypatch.setattr(passwords.accounts, "check_password", counting)  # type: ignore[attr-defined]
    assert auth.login("alice", "wrong").status_code == 400
    assert auth.login("nobody-at-all", "wrong").status_code == 400
    assert checks == ["$argon2id", "$argon2id"]


def test_sign_ins_wait_for_a_hashing_slot_then_get_503(app, client, auth, world, monkeypatch):
    monkeypatch.setattr(passwords, "WAIT_SECONDS", 0.1)
    slots = app.extensions[passwords.EXTENSION]
    assert slots.acquire(timeout=1)  # another sign-in is hashing
    try:
        response = auth.login()
    finally:
        slots.release()
    assert response.status_code == 503
    assert int(response.headers["Retry-After"]) >= 5  # or the rate window's, if longer
    assert auth.login().status_code == 302


def test_sign_ins_past_the_hashing_queue_get_503_at_once(app, auth, world, monkeypatch):
    # Each waiting sign-in holds a web server thread: past the queue they are turned away
    # without waiting, even with the hashing slot free and a long wait allowed.
    monkeypatch.setattr(passwords, "WAIT_SECONDS", 60)
    admitted = app.extensions[passwords.ADMITTED]
    room = app.config["PASSWORD_HASHING_SLOTS"] + app.config["PASSWORD_HASHING_QUEUE"]
    for _ in range(room):  # others are hashing or waiting
        assert admitted.acquire(blocking=False)
    try:
        response = auth.login()
    finally:
        for _ in range(room):
            admitted.release()
    assert response.status_code == 503
    assert int(response.headers["Retry-After"]) >= 5
    assert auth.login().status_code == 302
