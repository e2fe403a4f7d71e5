"""The account page and API tokens: made, shown once, used, revoked."""

from __future__ import annotations

import re

import pytest

from tests.web.conftest import CSRF, AuthActions, csrf_token, make_app
from web.database import dispose


def make_token(client, auth, name="laptop"):
    auth.login()
    page = client.post(
        "/account/tokens", data={"name": name, "csrf_token": csrf_token(client, "/account")}
    ).get_data(as_text=True)
    found = re.search(r'id="new-token">(ha_[^<]+)<', page)
    assert found, page
    return found.group(1)


def test_a_token_is_shown_once_and_works(client, auth, world):
    token = make_token(client, auth)
    again = client.get("/account").get_data(as_text=True)
    assert token not in again
    assert token[:10] in again  # the prefix only
    me = client.get("/api/v1/me", headers={"Authorization": f"Bearer {token}"})
    assert me.json["username"] == "alice"


def test_the_new_token_comes_with_the_lines_that_use_it(client, auth, world):
    """The account page gives the site's own URL with the token: the CLI's login line."""
    token = make_token(client, auth)
    page = client.get("/account").get_data(as_text=True)
    assert "http://localhost" in page  # the site's URL, shown for every visit
    shown = client.post(
        "/account/tokens", data={"name": "ci", "csrf_token": csrf_token(client, "/account")}
    ).get_data(as_text=True)
    new = re.search(r'id="new-token">(ha_[^<]+)<', shown)
    assert new and new.group(1) != token
    assert f'id="login-command">arena login http://localhost --token {new.group(1)}<' in shown
    assert f"export ARENA_URL=http://localhost ARENA_TOKEN={new.group(1)}" in shown


def _login_line(client, **kwargs) -> str:
    """The login line shown with a new token, every request sent with `kwargs`."""
    form = CSRF.search(client.get("/account", **kwargs).get_data(as_text=True))
    assert form
    shown = client.post(
        "/account/tokens",
        data={"name": "ci", "csrf_token": form.group(1) or form.group(2)},
        **kwargs,
    ).get_data(as_text=True)
    found = re.search(r'id="login-command">([^<]+)<', shown)
    assert found, shown
    return found.group(1)


def _signed_in_at(client, host: str) -> dict[str, dict[str, str]]:
    """The client's session cookie sent to `host` too; the request options naming it."""
    for cookie in list(client._cookies.values()):
        client.set_cookie(cookie.key, cookie.value, domain=host)
    return {"headers": {"Host": host}}


def test_the_login_line_ignores_the_requests_host_header(client, auth, world):
    """A request naming another host (a proxy passing it on, a poisoned cache) must not
    make the page tell the owner to send their token there."""
    auth.login()
    forged = _signed_in_at(client, "evil.example")
    assert client.get("/account", **forged).status_code == 200
    line = _login_line(client, **forged)
    assert line.startswith("arena login http://localhost --token ha_")
    assert "evil" not in client.get("/account", **forged).get_data(as_text=True)


def test_the_login_line_uses_the_configured_site_url(database, world):
    application = make_app(database, SITE_URL="https://arena.example.org/")
    try:
        client = application.test_client()
        AuthActions(client).login()
        line = _login_line(client, **_signed_in_at(client, "evil.example"))
        assert line.startswith("arena login https://arena.example.org --token ha_")
    finally:
        dispose(application)


def test_a_site_url_that_is_not_http_is_refused_at_start(database):
    with pytest.raises(ValueError, match="must start with http"):
        make_app(database, SITE_URL="javascript:alert(1)")


def test_a_revoked_token_stops_working(client, auth, world, db):
    token = make_token(client, auth)
    from arena.store.models import ApiToken

    token_id = db.query(ApiToken.id).scalar()
    response = client.post(
        f"/account/tokens/{token_id}/revoke", data={"csrf_token": csrf_token(client, "/account")}
    )
    assert response.status_code == 302
    me = client.get("/api/v1/me", headers={"Authorization": f"Bearer {token}"})
    assert me.status_code == 401
    assert me.json["error"]["code"] == "unauthorized"


def test_another_users_token_cannot_be_revoked(client, auth, world):
    make_token(client, auth)
    auth.logout()
    auth.login("bob")
    response = client.post("/account/tokens/1/revoke", data={"csrf_token": auth.token()})
    assert response.status_code == 404


def test_token_name_is_required(client, auth, world):
    auth.login()
    response = client.post(
        "/account/tokens", data={"name": "", "csrf_token": csrf_token(client, "/account")}
    )
    assert response.status_code == 400


def test_user_page_lists_bots(client, world):
    page = client.get(f"/users/{world.alice_id}").get_data(as_text=True)
    assert "shark" in page
    assert client.get("/users/999").status_code == 404
