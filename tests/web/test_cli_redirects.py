"""The CLI's token goes only to the site it was made for, and an answer that is not the
API's is a message and exit status 1, never a traceback (`arena.commands.client`).

Real HTTP servers on 127.0.0.1: two ports are two origins. The first answers what each
test says (a redirect to the second, an HTML error page, a cut connection…); the second
records every request it gets, so the tests can say it never saw the token.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from click.testing import CliRunner, Result

from arena.commands.bot_upload import upload
from arena.commands.login import login

TOKEN = "ha_test-token-for-one-site"
Answer = Callable[[BaseHTTPRequestHandler], None]


class Site:
    """A server on a free port of 127.0.0.1 that answers with `answer` and records the
    method, path and Authorization header of every request."""

    def __init__(self) -> None:
        self.answer: Answer = lambda handler: json_answer(handler, 200, {"username": "x"})
        self.seen: list[tuple[str, str, str | None]] = []
        site = self

        class Handler(BaseHTTPRequestHandler):
            def _any(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                self.rfile.read(length)
                site.seen.append((self.command, self.path, self.headers.get("Authorization")))
                site.answer(self)

            def do_GET(self) -> None:
                self._any()

            def do_POST(self) -> None:
                self._any()

            def log_message(self, format: str, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=10)


def json_answer(handler: BaseHTTPRequestHandler, status: int, body: object) -> None:
    data = json.dumps(body).encode()
    handler.send_response(status)
    handler.send_header("Content-Type", "application/json")
    handler.send_header("Content-Length", str(len(data)))
    handler.end_headers()
    handler.wfile.write(data)


def text_answer(handler: BaseHTTPRequestHandler, status: int, kind: str, text: str) -> None:
    data = text.encode()
    handler.send_response(status)
    handler.send_header("Content-Type", kind)
    handler.send_header("Content-Length", str(len(data)))
    handler.end_headers()
    handler.wfile.write(data)


def redirect(status: int, location: str) -> Answer:
    def answer(handler: BaseHTTPRequestHandler) -> None:
        handler.send_response(status)
        handler.send_header("Location", location)
        handler.send_header("Content-Length", "0")
        handler.end_headers()

    return answer


@pytest.fixture
def sites() -> Iterator[tuple[Site, Site]]:
    first, other = Site(), Site()
    yield first, other
    first.stop()
    other.stop()


@pytest.fixture(autouse=True)
def own_login_file(tmp_path, monkeypatch):
    """Never read or write the login of the user running the tests."""
    monkeypatch.setenv("ARENA_CONFIG", str(tmp_path / "config" / "login.json"))
    monkeypatch.delenv("ARENA_URL", raising=False)
    monkeypatch.delenv("ARENA_TOKEN", raising=False)
    return tmp_path / "config" / "login.json"


def run_login(url: str) -> Result:
    return CliRunner().invoke(login, [url, "--token", TOKEN], catch_exceptions=False)


def run_upload(tmp_path, url: str) -> Result:
    path = tmp_path / "orca.py"
    path.write_text("from hearts_bot import Bot\nclass Orca(Bot):\n    pass\n")
    return CliRunner().invoke(
        upload, [str(path), "--url", url, "--token", TOKEN], catch_exceptions=False
    )


@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
def test_login_refuses_a_redirect_to_another_site(sites, own_login_file, status):
    first, other = sites
    first.answer = redirect(status, f"{other.url}/api/v1/me")
    result = run_login(first.url)
    assert result.exit_code == 1, result.output
    assert "another site" in result.output
    assert f"arena login {other.url}" in result.output
    assert other.seen == []  # the other server never heard of the token
    assert not own_login_file.exists()


@pytest.mark.parametrize("status", [301, 302, 307, 308])
def test_upload_refuses_a_redirect_to_another_site(sites, tmp_path, status):
    first, other = sites
    first.answer = redirect(status, f"{other.url}/api/v1/bots/orca/versions")
    result = run_upload(tmp_path, first.url)
    assert result.exit_code == 1, result.output
    assert "another site" in result.output
    assert other.seen == []
    assert [(method, auth) for method, _path, auth in first.seen] == [("POST", f"Bearer {TOKEN}")]


def test_an_upload_is_not_redirected_even_within_the_site(sites, tmp_path):
    first, _other = sites
    first.answer = redirect(302, "/elsewhere")
    result = run_upload(tmp_path, first.url)
    assert result.exit_code == 1, result.output
    assert "an upload is not redirected" in result.output
    assert [method for method, _path, _auth in first.seen] == ["POST"]


def test_a_redirect_within_the_site_is_followed_for_a_read(sites, own_login_file):
    first, _other = sites

    def answer(handler: BaseHTTPRequestHandler) -> None:
        if handler.path == "/api/v1/me":
            json_answer(handler, 200, {"username": "alice"})
        else:
            redirect(301, f"{first.url}/api/v1/me")(handler)

    first.answer = answer
    result = run_login(f"{first.url}/old")
    assert result.exit_code == 0, result.output
    assert "as alice" in result.output
    assert first.seen == [
        ("GET", "/old/api/v1/me", f"Bearer {TOKEN}"),
        ("GET", "/api/v1/me", f"Bearer {TOKEN}"),
    ]


def _cut(handler: BaseHTTPRequestHandler) -> None:
    handler.close_connection = True
    handler.wfile.write(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{")
    handler.wfile.flush()
    handler.connection.shutdown(2)


HTML = "<!doctype html><html><body><h1>502 Bad Gateway</h1>nginx</body></html>"


@pytest.mark.parametrize(
    ("answer", "words"),
    [
        (lambda h: text_answer(h, 502, "text/html", HTML), "502: Bad Gateway (not the API's"),
        (lambda h: text_answer(h, 200, "text/html", HTML), "200 with text/html"),
        (lambda h: text_answer(h, 500, "text/plain", ""), "500: Internal Server Error"),
        (lambda h: json_answer(h, 201, ["not", "an", "object"]), "not the API's JSON"),
        (lambda h: json_answer(h, 201, {"id": 3}), "without number, status"),
        (_cut, "no complete answer"),
    ],
    ids=["502-html", "200-html", "500-empty", "json-list", "missing-fields", "cut"],
)
def test_an_unexpected_answer_is_a_message_not_a_traceback(sites, tmp_path, answer, words):
    first, _other = sites
    first.answer = answer
    result = run_upload(tmp_path, first.url)  # catch_exceptions=False: a traceback fails
    assert result.exit_code == 1, result.output
    assert "Error: " in result.output
    assert words in result.output
    assert "Traceback" not in result.output
