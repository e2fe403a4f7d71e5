"""Structured logs: one JSON object per line (or plain text), the same in every process.

Each record carries the time, level, logger, message, process and, inside a task, the
task's name and id; `extra={...}` fields (``match_id``, ``version_id``, ...) are kept as
keys, so the logs of a hundred workers can be searched by match.

>>> import json, logging
>>> record = logging.LogRecord("workers", logging.INFO, __file__, 1, "ran %s", (7,), None)
>>> record.match_id = 7
>>> entry = json.loads(TaskJsonFormatter().format(record))
>>> entry["msg"], entry["match_id"], entry["level"]
('ran 7', 7, 'info')
"""

from __future__ import annotations

import logging
import sys
from typing import Any

from arena.logs import JsonFormatter


def _current_task() -> tuple[str | None, str | None]:
    try:
        from celery import current_task
    except ImportError:  # pragma: no cover - Celery is a dependency of the workers
        return None, None
    task = current_task
    if task is None or not getattr(task, "request", None) or task.request.id is None:
        return None, None
    return task.name, task.request.id


class TaskJsonFormatter(JsonFormatter):
    """The platform's JSON lines (`arena.logs`), with the task a record belongs to."""

    def context(self) -> dict[str, Any]:
        task_name, task_id = _current_task()
        return {} if task_id is None else {"task": task_name, "task_id": task_id}


TEXT_FORMAT = "%(asctime)s %(levelname)-7s %(processName)s %(name)s: %(message)s"


def setup_logging(log_format: str = "json", level: str = "INFO") -> None:
    """Send every logger's records to stderr in `log_format` (json or text) at `level`."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(
        TaskJsonFormatter() if log_format == "json" else logging.Formatter(TEXT_FORMAT)
    )
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    for noisy in ("grpc", "asyncio", "kombu", "amqp"):
        logging.getLogger(noisy).setLevel(max(logging.WARNING, root.level))
