"""The site's logs in JSON when asked (`ARENA_LOG_FORMAT=json`, as the workers read it).

One JSON object per line on stderr, with the keys the workers' logs use (`ts`, `level`,
`logger`, `msg`, `pid`; workers/logs.py) plus, inside a request, its `method`, `path` and
`remote`; and one access line per request (`status`, `ms`). The site cannot import the
workers (import-linter), so the few lines of the formatter live here too.

>>> import json, logging
>>> record = logging.LogRecord("web", logging.INFO, __file__, 1, "hello %s", ("you",), None)
>>> entry = json.loads(JsonFormatter().format(record))
>>> entry["msg"], entry["level"], entry["logger"]
('hello you', 'info', 'web')
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import os
import sys
import time
from typing import Any, Final

from flask import Flask, g, has_request_context, request
from werkzeug.wrappers import Response

_STANDARD: Final = frozenset(vars(logging.LogRecord("", 0, "", 0, "", (), None))) | {
    "message",
    "asctime",
}
ACCESS_LOGGER: Final = "web.access"


class JsonFormatter(logging.Formatter):
    """A log record as one line of JSON, with the request it belongs to."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "ts": dt.datetime.fromtimestamp(record.created, dt.UTC).isoformat(
                timespec="milliseconds"
            ),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
            "pid": record.process,
        }
        if has_request_context():
            entry.update(method=request.method, path=request.path, remote=request.remote_addr)
        for key, value in vars(record).items():
            if key not in _STANDARD and not key.startswith("_"):
                entry[key] = value
        if record.exc_info:
            entry["exc"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str)


def _started() -> None:
    g.log_started = time.perf_counter()


def _access(response: Response) -> Response:
    began = g.get("log_started")
    elapsed = None if began is None else round((time.perf_counter() - began) * 1000, 1)
    logging.getLogger(ACCESS_LOGGER).info(
        "%s %s %s", request.method, request.path, response.status_code,
        extra={"status": response.status_code, "ms": elapsed},
    )  # fmt: skip
    return response


def init_app(app: Flask) -> None:
    """With `LOG_FORMAT` json (default `$ARENA_LOG_FORMAT`), log JSON lines to stderr."""
    app.config.setdefault("LOG_FORMAT", os.environ.get("ARENA_LOG_FORMAT", "text"))
    if app.config["LOG_FORMAT"] != "json":
        return
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter())
    for name in (app.logger.name, ACCESS_LOGGER):
        logger = logging.getLogger(name)
        logger.handlers = [handler]
        logger.setLevel(logging.INFO)
        logger.propagate = False
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # the access line replaces its
    app.before_request(_started)
    app.after_request(_access)
