"""One JSON log line per record, the same keys in every process of the platform.

The site (web/logs.py) and the workers (workers/logs.py) both log this way, so the logs
of a hundred processes can be searched with one query: `ts`, `level`, `logger`, `msg`,
`pid`, `process`, every `extra={...}` field as a key (``match_id``, ``version_id``, …),
and `exc` for a traceback. Each process adds what it alone knows (a request's path, a
task's id) through `context`, which is why this is a class with a hook and not a copy.

>>> import json
>>> record = logging.LogRecord("workers", logging.INFO, __file__, 1, "ran %s", (7,), None)
>>> record.match_id = 7
>>> entry = json.loads(JsonFormatter().format(record))
>>> entry["msg"], entry["match_id"], entry["level"], entry["logger"]
('ran 7', 7, 'info', 'workers')
"""

from __future__ import annotations

import datetime as dt
import json
import logging
from typing import Any, Final

# What every LogRecord carries: anything else on a record came from `extra=`.
_STANDARD: Final = frozenset(vars(logging.LogRecord("", 0, "", 0, "", (), None))) | {
    "message",
    "asctime",
}


class JsonFormatter(logging.Formatter):
    """A log record as one line of JSON; subclasses add their process's `context`."""

    def context(self) -> dict[str, Any]:
        """Keys this process knows about the record's moment (none here)."""
        return {}

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "ts": dt.datetime.fromtimestamp(record.created, dt.UTC).isoformat(
                timespec="milliseconds"
            ),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
            "pid": record.process,
            "process": record.processName,
        }
        entry.update(self.context())
        for key, value in vars(record).items():
            if key not in _STANDARD and not key.startswith("_"):
                entry[key] = value
        if record.exc_info:
            entry["exc"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str)
