"""The site's logs in JSON when asked (`ARENA_LOG_FORMAT=json`, as the workers read it).

One JSON object per line on stderr, with the keys the workers' logs use (`ts`, `level`,
`logger`, `msg`, `pid`; workers/logs.py) plus, inside a request, its `method`, `path` and
`remote`; and one access line per request (`status`, `ms`). The formatter itself is the
platform's one (`arena.logs`); this module adds the request.

>>> import json, logging
>>> record = logging.LogRecord("web", logging.INFO, __file__, 1, "hello %s", ("you",), None)
>>> entry = json.loads(RequestJsonFormatter().format(record))
>>> entry["msg"], entry["level"], entry["logger"]
('hello you', 'info', 'web')
"""

from __future__ import annotations

import logging
import os
import sys
import time
from typing import Any, Final

from flask import Flask, g, has_request_context, request
from werkzeug.wrappers import Response

from arena.logs import JsonFormatter

ACCESS_LOGGER: Final = "web.access"


class RequestJsonFormatter(JsonFormatter):
    """The platform's JSON lines, with the request a record belongs to."""

    def context(self) -> dict[str, Any]:
        if not has_request_context():
            return {}
        return {"method": request.method, "path": request.path, "remote": request.remote_addr}


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
    handler.setFormatter(RequestJsonFormatter())
    for name in (app.logger.name, ACCESS_LOGGER):
        logger = logging.getLogger(name)
        logger.handlers = [handler]
        logger.setLevel(logging.INFO)
        logger.propagate = False
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # the access line replaces its
    app.before_request(_started)
    app.after_request(_access)
