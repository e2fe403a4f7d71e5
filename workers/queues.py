"""The broker's queues as the platform sees them: their lengths, and tidying the SQL broker.

Works on every broker kombu offers us here (Redis, and the SQLAlchemy transport of the
local platform), through a passive queue declaration.
"""

from __future__ import annotations

import logging
from typing import Any

from celery import Celery
from sqlalchemy import create_engine, text

from .app import QUEUES
from .config import Settings

log = logging.getLogger(__name__)


def queue_lengths(app: Celery, names: tuple[str, ...] = QUEUES) -> dict[str, int]:
    """Messages waiting in each queue (not those a worker holds); -1 when unreadable.

    Raises the broker's connection error when the broker is unreachable.
    """
    lengths: dict[str, int] = {}
    with app.connection_for_read() as connection:
        connection.ensure_connection(max_retries=1)
        channel: Any = connection.default_channel
        for name in names:
            try:
                _, count, _ = channel.queue_declare(queue=name, passive=True)
                lengths[name] = int(count)
            except Exception as error:  # a queue never declared yet holds nothing
                log.debug("queue %s: %s", name, error)
                lengths[name] = 0
    return lengths


def prune_sql_broker(settings: Settings) -> int:
    """Delete delivered messages the SQLAlchemy transport keeps for ever; how many.

    That transport marks a delivered message invisible and never deletes it, nor ever
    delivers it again (a message lost with its worker is recovered from the database by
    the dispatcher and the reaper, not by the broker), so its table only grows. Nothing
    to do on Redis.
    """
    if not settings.broker_is_sql:
        return 0
    url = settings.broker_url.split("+", 1)[1]
    engine = create_engine(url, connect_args={"timeout": 30} if url.startswith("sqlite") else {})
    try:
        with engine.begin() as connection:
            result = connection.execute(text("DELETE FROM kombu_message WHERE NOT visible"))
            return int(result.rowcount or 0)
    except Exception as error:  # the table does not exist yet, or the broker is busy
        log.debug("pruning the SQL broker: %s", error)
        return 0
    finally:
        engine.dispose()
