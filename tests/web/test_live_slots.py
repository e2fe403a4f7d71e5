"""The live stream's places (`LIVE_MAX_STREAMS`) are given back by every request that takes
one, whatever its method or its end: a HEAD (no body is sent), a watcher gone before the
first byte, an error before or during the stream. Four anonymous HEADs used to take
every place for good: every later watcher of every match got 503 until a restart."""

from __future__ import annotations

import http.client
import threading
import time

import pytest
import waitress.server
from werkzeug.test import EnvironBuilder

from tests.web.test_live import _recorded_events
from tests.web.test_live_waitress import _stop
from web import live
from web.live import open_streams


@pytest.fixture
def running(app, db, world) -> int:
    """A running match (its stream would last) with two slots on the site."""
    match_id, _events = _recorded_events(db, world)
    app.config.update(LIVE_MAX_STREAMS=2, LIVE_STREAM_SECONDS=0.0, LIVE_POLL_SECONDS=0.0)
    return match_id


def test_head_requests_give_their_slot_back(app, client, running):
    for _ in range(5):
        response = client.head(f"/matches/{running}/live")
        assert response.status_code == 200
        response.close()
    assert open_streams(app) == 0
    assert client.get(f"/matches/{running}/live").status_code == 200


def test_a_watcher_gone_before_the_first_byte_gives_its_slot_back(app, running):
    """A server that finds the watcher gone after the headers closes the body unread (the
    WSGI `close()`), never starting it: called here as such a server would."""
    started: list[str] = []
    for _ in range(3):
        environ = EnvironBuilder(path=f"/matches/{running}/live").get_environ()
        body = app(environ, lambda status, headers, *info: started.append(status))
        body.close()
    assert started == ["200 OK"] * 3
    assert open_streams(app) == 0


def test_a_stream_read_to_its_end_gives_its_slot_back_once(app, client, running):
    response = client.get(f"/matches/{running}/live", buffered=False)
    assert open_streams(app) == 1
    assert response.get_data(as_text=True).startswith("retry: ")
    response.close()  # the stream's end and the close both release: once counts
    assert open_streams(app) == 0


def test_an_error_before_the_stream_gives_its_slot_back(app, client, running, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("no stream today")

    monkeypatch.setattr(live, "stream_events", broken)
    app.config.update(PROPAGATE_EXCEPTIONS=False)
    for _ in range(3):
        assert client.get(f"/matches/{running}/live").status_code == 500
    assert open_streams(app) == 0


def test_an_error_during_the_stream_gives_its_slot_back(app, client, running, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("the table went away")

    monkeypatch.setattr(live, "events_after", broken)
    for _ in range(3):
        response = client.get(f"/matches/{running}/live", buffered=False)
        with pytest.raises(RuntimeError):
            response.get_data()
        response.close()
    assert open_streams(app) == 0


def test_heads_through_waitress_leave_every_slot_free(app, running):
    """The reported case, on the server `make run` uses: anonymous HEADs, then a GET."""
    server = waitress.server.create_server(app, host="127.0.0.1", port=0, threads=2)
    assert isinstance(server, waitress.server.BaseWSGIServer)
    assert server.socket is not None
    port = server.socket.getsockname()[1]
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        for _ in range(4):
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            connection.request("HEAD", f"/matches/{running}/live")
            assert connection.getresponse().status == 200
            connection.close()
        _wait_for_free_slots(app)  # waitress closes a response after sending it
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        connection.request("GET", f"/matches/{running}/live")
        response = connection.getresponse()
        assert response.status == 200
        assert response.read().startswith(b"retry: ")
        connection.close()
    finally:
        _stop(server)
        thread.join(timeout=10)
    assert open_streams(app) == 0


def _wait_for_free_slots(app, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while open_streams(app) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert open_streams(app) == 0
