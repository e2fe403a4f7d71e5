"""The live stream through waitress, the server `make run` uses: each message reaches the
watcher when it is written, not when the stream ends (a WSGI server that buffers the
body would hold it back, and a match being watched would show nothing)."""

from __future__ import annotations

import http.client
import threading
from typing import Any

import waitress.server
from sqlalchemy import update

from arena.store import write_transaction
from arena.store.live import append_events, clear_events
from arena.store.models import Match, MatchStatus
from tests.web.test_live import _recorded_events


def _read_until(response: http.client.HTTPResponse, prefix: str) -> list[str]:
    lines: list[str] = []
    while True:
        line = response.fp.readline().decode()
        assert line, f"the stream ended before a line starting {prefix!r}: {lines}"
        lines.append(line)
        if line.startswith(prefix):
            return lines


def test_waitress_sends_each_message_while_the_match_is_still_running(app, db, world):
    match_id, _events = _recorded_events(db, world)
    # A message of a few bytes: one a server holding back small writes would keep.
    clear_events(db, match_id)
    append_events(db, match_id, [{"kind": "game", "game": 0, "seating": [0, 1, 2, 3]}])
    app.config.update(LIVE_STREAM_SECONDS=600, LIVE_POLL_SECONDS=0.05)
    server = waitress.server.create_server(app, host="127.0.0.1", port=0, threads=2)
    assert isinstance(server, waitress.server.BaseWSGIServer)  # one socket, one port
    assert server.socket is not None
    port = server.socket.getsockname()[1]
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        # The guard against a hang only: a buffering server would never answer below,
        # because the stream cannot end while the match is still running.
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        connection.request("GET", f"/matches/{match_id}/live")
        response = connection.getresponse()
        assert response.status == 200
        assert response.getheader("Content-Type", "").startswith("text/event-stream")
        first = _read_until(response, "id: ")
        assert any(line.startswith("retry: ") for line in first)
        with write_transaction(db):  # only now, with a message read, may the match end
            db.execute(update(Match).where(Match.id == match_id).values(status=MatchStatus.DONE))
        _read_until(response, "event: end")
        connection.close()
    finally:
        _stop(server)
        thread.join(timeout=10)
        assert not thread.is_alive()


def _stop(server: waitress.server.BaseWSGIServer) -> None:
    """End `server.run()` from its own thread: closing the sockets from here while its
    loop waits in select() ends that thread on EBADF. The loop runs while its map holds
    a channel, so each is closed there, and then the task threads."""

    loop: Any = server  # waitress declares neither its channel map nor its trigger

    def close_every_channel() -> None:
        for channel in list(loop._map.values()):
            channel.handle_close()

    loop.trigger.pull_trigger(close_every_channel)
    server.task_dispatcher.shutdown()
