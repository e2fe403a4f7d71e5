"""Accounts: sign up, sign in and out, argon2 hashes, CSRF on every form, guards."""

from __future__ import annotations

from sqlalchemy import select

from arena.store import write_transaction
from arena.store.accounts import create_user
from arena.store.models import User
from tests.store.test_accounts import scrypt_hash
from tests.web.conftest import csrf_token


def test_sign_up_signs_in_and_keeps_an_argon2_hash(client, auth, db):
    response = auth.signup("carol", "a long password")
    assert response.status_code == 302
    assert client.get("/").get_data(as_text=True).count("carol") >= 1
    stored = db.scalars(select(User.password_hash).where(User.username == "carol")).one()
    assert stored.startswith("$argon2id$")
    assert "a long password" not in stored


def test_sign_up_refuses_a_taken_name_a_short_password_and_a_mismatch(client, auth, world):
    assert auth.signup("alice").status_code == 400
    assert "taken" in client.post(
        "/signup",
        data={
            "username": "alice",
            "password": "12345678",
            "confirm": "12345678",
            "csrf_token": csrf_token(client, "/signup"),
        },
    ).get_data(as_text=True)
    short = client.post(
        "/signup",
        data={
            "username": "dave",
            "password": "short",
            "confirm": "short",
            "csrf_token": csrf_token(client, "/signup"),
        },
    )
    assert short.status_code == 400
    mismatch = client.post(
        "/signup",
        data={
            "username": "dave",
            "password": "long enough",
            "confirm": "not the same",
            "csrf_token": csrf_token(client, "/signup"),
        },
    )
    assert "the passwords differ" in mismatch.get_data(as_text=True)
    bad_name = auth.signup("../etc", "long enough")
    assert bad_name.status_code == 400


def test_sign_in_and_out(client, auth, world):
    assert auth.login("alice", "wrong password").status_code == 400
    response = auth.login()
    assert response.status_code == 302
    assert response.headers["Location"] == "/"
    assert client.get("/account").status_code == 200
    assert auth.logout().status_code == 302
    assert client.get("/account").status_code == 302


def test_sign_in_goes_back_where_it_was_asked_but_never_off_site(client, auth, world):
    response = client.get("/upload")
    assert response.headers["Location"].startswith("/signin?next=/upload")
    token = csrf_token(client)
    for target, expected in (
        ("/upload", "/upload"),
        ("https://evil.example/", "/"),
        ("//evil", "/"),
        ("/\\evil.example", "/"),  # a browser reads "/\\" as "//"
        ("/\t/evil.example", "/"),  # and drops the tab
    ):
        client.post("/signout", data={"csrf_token": token})
        answer = client.post(
            "/signin",
            data={
                "username": "alice",
                "password": "correct horse",
                "next": target,
                "csrf_token": csrf_token(client),
            },
        )
        assert answer.headers["Location"] == expected


def test_sign_up_goes_back_to_the_page_it_came_from_but_never_off_site(client, world):
    """The nav's "Sign up" link carries the page being read; the form keeps it."""
    page = client.get("/ladder", follow_redirects=True).get_data(as_text=True)
    assert 'href="/signup?next=/seasons/' in page
    form = client.get("/signup?next=/seasons").get_data(as_text=True)
    assert 'name="next" type="hidden" value="/seasons"' in form
    assert 'href="/signin?next=/seasons"' in form  # "Have an account? Sign in" keeps it too
    for number, (target, expected) in enumerate(
        (("/seasons", "/seasons"), ("https://evil.example/", "/"), ("/\\evil.example", "/"))
    ):
        answer = client.post(
            "/signup",
            data={
                "username": f"newcomer{number}",
                "password": "a long password",
                "confirm": "a long password",
                "next": target,
                "csrf_token": csrf_token(client, "/signup"),
            },
        )
        assert answer.status_code == 302
        assert answer.headers["Location"] == expected


def test_an_scrypt_hash_made_outside_the_site_still_signs_in_and_becomes_argon2(client, auth, db):
    with write_transaction(db):
        user = create_user(db, "old", None)
        user.password_hash = scrypt_hash("old password")
    assert auth.login("old", "old password").status_code == 302
    db.rollback()
    stored = db.scalars(select(User.password_hash).where(User.username == "old")).one()
    assert stored.startswith("$argon2id$")


def test_every_form_needs_its_csrf_token(client, auth, world):
    """A POST without the token (as another site would send it) is refused with 400."""
    posts = {
        "/signup": {"username": "eve", "password": "long enough", "confirm": "long enough"},
        "/signin": {"username": "alice", "password": "correct horse"},
    }
    for path, data in posts.items():
        response = client.post(path, data=data)
        assert response.status_code == 400, path
        assert "CSRF" in response.get_data(as_text=True)
    auth.login()
    for path in (
        "/signout",
        "/account/tokens",
        "/upload",
        "/challenge",
        f"/bots/{world.alice_bot_id}/enter",
        "/account/tokens/1/revoke",
    ):
        response = client.post(path, data={"name": "x"})
        assert response.status_code == 400, path
    assert client.get("/account").status_code == 200  # still signed in: the sign-out was refused
    forged = client.post("/signout", data={"csrf_token": "forged"})
    assert forged.status_code == 400


def test_csrf_error_answers_json_to_a_json_client(client):
    response = client.post("/signin", data={}, headers={"Accept": "application/json"})
    assert response.status_code == 400
    assert response.json["error"]["code"] == "bad_request"
    assert "CSRF" in response.json["error"]["message"]


def test_admin_pages_refuse_others(client, auth, world):
    assert client.get("/seasons/new").status_code == 302  # signed out: to sign in
    auth.login("alice")
    assert client.get("/seasons/new").status_code == 403
    token = auth.token()
    for action in ("start", "round", "finish"):
        response = client.post(f"/seasons/{world.season_id}/{action}", data={"csrf_token": token})
        assert response.status_code == 403, action
    auth.logout()
    auth.login("root")
    assert client.get("/seasons/new").status_code == 200


def test_security_headers(client):
    response = client.get("/")
    assert "script-src 'self'" in response.headers["Content-Security-Policy"]
    assert response.headers["X-Frame-Options"] == "DENY"
    assert response.headers["X-Content-Type-Options"] == "nosniff"


def test_the_session_cookie_is_httponly_and_samesite(client, auth, world):
    response = auth.login()
    cookie = response.headers["Set-Cookie"]
    assert "HttpOnly" in cookie
    assert "SameSite=Lax" in cookie


def test_a_sign_up_whose_hashing_is_refused_gives_its_name_back(client, auth, db, monkeypatch):
    import web.auth
    from web.passwords import HashingBusyError

    def busy(password: str) -> str:
        raise HashingBusyError("Too many sign-ins at once; try again in a few seconds.")

    monkeypatch.setattr(web.auth, "hash_password", busy)
    refused = auth.signup("bob")
    assert refused.status_code == 503
    db.rollback()
    assert db.scalar(select(User).where(User.username == "bob")) is None  # not held
    monkeypatch.undo()
    assert auth.signup("bob").status_code == 302


def test_a_claim_left_by_a_dead_sign_up_lapses(client, auth, db):
    from datetime import timedelta

    from arena.store.types import utc_now
    from web.auth import CLAIM_SECONDS, CLAIMED_PASSWORD

    with write_transaction(db):
        fresh = create_user(db, "fresh", None)
        fresh.password_hash = CLAIMED_PASSWORD
        stale = create_user(db, "stale", None)
        stale.password_hash = CLAIMED_PASSWORD
        stale.created_at = utc_now() - timedelta(seconds=CLAIM_SECONDS + 1)
    assert auth.signup("fresh").status_code == 400  # a sign-up still hashing holds its name
    assert auth.signup("stale").status_code == 302  # a dead process's claim does not
    db.expire_all()
    user = db.scalar(select(User).where(User.username == "stale"))
    assert user is not None and user.password_hash.startswith("$argon2id$")
    auth.logout()
    assert auth.login("fresh", "correct horse").status_code == 400  # no password matches
