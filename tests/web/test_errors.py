"""Errors are answered as JSON or as a page, by what the client accepts; never a traceback."""

from __future__ import annotations

import pytest

from tests.web.conftest import csrf_token, make_app


@pytest.mark.parametrize(
    ("accept", "json"),
    [
        ("application/json", True),
        ("text/html", False),
        ("text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", False),
        ("application/json, text/html;q=0.5", True),
        ("*/*", False),
    ],
)
def test_not_found_by_accept(client, accept, json):
    response = client.get("/no/such/page", headers={"Accept": accept})
    assert response.status_code == 404
    if json:
        assert response.json == {
            "error": {
                "status": 404,
                "code": "not_found",
                "message": response.json["error"]["message"],
            }
        }
    else:
        assert response.mimetype == "text/html"
        assert "<h1>" in response.get_data(as_text=True)


def test_the_api_always_answers_json(client):
    response = client.get("/api/v1/nothing", headers={"Accept": "text/html"})
    assert response.status_code == 404
    assert response.json["error"]["code"] == "not_found"


def test_method_not_allowed_keeps_its_allow_header(client):
    response = client.delete("/api/v1/seasons")
    assert response.status_code == 405
    assert "GET" in response.headers["Allow"]
    assert response.json["error"]["code"] == "method_not_allowed"


def test_an_unexpected_error_is_a_500_without_details(database):
    app = make_app(database, TESTING=False)

    @app.get("/boom")
    def boom() -> str:
        raise RuntimeError("secret internals")

    client = app.test_client()
    page = client.get("/boom")
    assert page.status_code == 500
    assert "secret internals" not in page.get_data(as_text=True)
    assert "Something went wrong" in page.get_data(as_text=True)
    data = client.get("/boom", headers={"Accept": "application/json"})
    assert data.json is not None
    assert data.json["error"]["code"] == "internal_server_error"
    assert "secret internals" not in data.get_data(as_text=True)


@pytest.mark.parametrize(
    ("method", "path", "options"),
    [
        ("get", "/api/v1/bots?owner=%00", {}),
        ("get", "/bots/%00", {}),
        ("post", "/signin", {"data": {"username": "al\x00ice", "password": "x", "csrf": 1}}),
        ("post", "/api/v1/challenges", {"json": {"version": "\x00"}}),
    ],
)
def test_a_nul_character_anywhere_is_a_clear_400(client, world, method, path, options):
    # PostgreSQL cannot hold or even compare text with a NUL in it: turned away at the door.
    options = {key: dict(value) for key, value in options.items()}  # shared by both backends
    if options.get("data", {}).pop("csrf", None):
        options["data"]["csrf_token"] = csrf_token(client)  # past the CSRF check, as a browser
    response = getattr(client, method)(path, **options)
    assert response.status_code == 400
    message = response.json["error"]["message"] if response.is_json else response.get_data(True)
    assert "NUL character" in message


def test_a_multipart_field_whose_name_cannot_be_read_is_a_400_not_a_500(client, world):
    # Found by schemathesis: a part whose name ends in a backslash (escaping its closing
    # quote) reaches Flask as a field named None.
    body = b'--B\r\nContent-Disposition: form-data; name="ab\\"\r\n\r\n-4\r\n--B--\r\n'
    response = client.post(
        "/api/v1/bots/fuzzed/versions?enter=1",
        data=body,
        headers={"Content-Type": "multipart/form-data; boundary=B", "Accept": "application/json"},
    )
    assert response.status_code == 400
    assert "cannot be read" in response.json["error"]["message"]
