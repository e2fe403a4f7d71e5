"""The site served for real on 127.0.0.1 (a werkzeug server in a thread), for the browser
tests and the `arena bot upload` test: real HTTP, real sockets, a real port."""

from __future__ import annotations

import threading
from types import TracebackType

from flask import Flask
from werkzeug.serving import BaseWSGIServer, make_server


class LiveServer:
    """Serves `app` on a free port of 127.0.0.1 until `stop()` (or the `with` block ends)."""

    def __init__(self, app: Flask) -> None:
        self.server: BaseWSGIServer = make_server("127.0.0.1", 0, app, threaded=True)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        # A stop waits for the serving loop to look at its flag: every 0.05 s, not the
        # default 0.5 s (half a second off every test that starts a site).
        self.thread = threading.Thread(
            target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    def start(self) -> LiveServer:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.thread.join(timeout=10)
        self.server.server_close()

    def __enter__(self) -> LiveServer:
        return self.start()

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.stop()
