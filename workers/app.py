"""The Celery app: configured from the environment (`workers.config`), queues by workload.

Queues: ``matches`` (`run_match`), ``validate`` (`validate_bot_version`), ``analysis``
(`analyse_match`, consumed by a worker of its own: docs/analysis.md) and ``default``
(beat's periodic tasks: seasons, dispatch, the reaper). Reliability settings, and why:

* late acknowledgement, a prefetch of one, and a task whose worker process dies is
  rejected back to the queue: a task is never lost with a worker;
* a broker visibility timeout longer than any hard time limit: Redis redelivers a task
  only when its worker is really gone, never while it still runs;
* soft and hard time limits on every task;
* results are kept only where they say something (a match's or a validation's summary);
* the broker connection is retried for ever, and running tasks are not cancelled when it
  drops (a Redis restart): a match finishes and records into the database, which does
  not depend on the broker.

Start a worker with ``arena worker`` (or ``celery -A workers.app worker``), beat with
``arena beat``.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from celery import Celery, Task, signals
from kombu import Queue, pools

from . import context
from .config import Settings
from .logs import setup_logging
from .transient import TRANSIENT_ERRORS

QUEUES = ("default", "matches", "validate", "analysis")
TASK_MODULES = (
    "workers.matches",
    "workers.validation",
    "workers.scheduling",
    "workers.heartbeats",
    "workers.analysis",
    "workers.opendata",
)

RUN_MATCH = "workers.matches.run_match"
VALIDATE = "workers.validation.validate_bot_version"
ANALYSE = "workers.analysis.analyse_match"
ADVANCE = "workers.scheduling.advance_seasons"
DISPATCH = "workers.scheduling.dispatch"
REAP = "workers.scheduling.reap"
OPEN_DATA = "workers.opendata.publish_open_data"
OPEN_DATA_SECONDS = 600
"""How often beat asks for the open-data dumps that are due (workers/opendata.py)."""


def celery_config(settings: Settings) -> dict[str, Any]:
    """The Celery settings for `settings` (a plain dict, checked by the tests)."""
    transport_options: dict[str, Any] = {}
    if settings.broker_is_redis:
        transport_options = {
            "visibility_timeout": settings.visibility_timeout,
            "health_check_interval": 10,
            "socket_keepalive": True,
        }
    elif settings.broker_is_sql:
        # create_engine() arguments: wait for SQLite's lock rather than fail at once.
        transport_options = {"connect_args": {"timeout": 30}}
    beat = settings.beat_seconds
    return {
        "broker_url": settings.broker_url,
        "result_backend": settings.result_backend,
        "broker_transport_options": transport_options,
        "result_backend_transport_options": {"visibility_timeout": settings.visibility_timeout},
        "broker_connection_retry_on_startup": True,
        "broker_connection_max_retries": None,
        "broker_channel_error_retry": True,
        "worker_cancel_long_running_tasks_on_connection_loss": False,
        "task_serializer": "json",
        "result_serializer": "json",
        "accept_content": ["json"],
        "task_acks_late": True,
        "task_acks_on_failure_or_timeout": True,
        "task_reject_on_worker_lost": True,
        "worker_prefetch_multiplier": 1,
        "task_ignore_result": True,
        "result_expires": timedelta(days=1),
        "task_soft_time_limit": 120,
        "task_time_limit": 150,
        "task_default_queue": "default",
        "task_queues": tuple(Queue(name) for name in QUEUES),
        "task_routes": {
            RUN_MATCH: {"queue": "matches"},
            VALIDATE: {"queue": "validate"},
            ANALYSE: {"queue": "analysis"},
        },
        "task_create_missing_queues": True,
        "worker_hijack_root_logger": False,
        "worker_redirect_stdouts": False,
        "worker_max_tasks_per_child": 500,
        "worker_send_task_events": False,
        "beat_schedule_filename": str(settings.data_dir / "celerybeat-schedule"),
        "beat_schedule": {
            "advance-seasons": {"task": ADVANCE, "schedule": beat, "options": {"expires": beat}},
            "dispatch": {"task": DISPATCH, "schedule": beat, "options": {"expires": beat}},
            "reap": {
                "task": REAP,
                "schedule": settings.reaper_seconds,
                "options": {"expires": settings.reaper_seconds},
            },
            "open-data": {  # the default queue: a long export never holds a match slot
                "task": OPEN_DATA,
                "schedule": OPEN_DATA_SECONDS,
                "options": {"expires": OPEN_DATA_SECONDS},
            },
        },
        "timezone": "UTC",
        "enable_utc": True,
    }


def configure(celery: Celery, settings: Settings) -> Celery:
    """Apply `settings` to `celery` and make them this process's settings.

    Connections made for earlier settings are closed (the tests reconfigure the app).
    """
    if getattr(celery, "_pool", None) is not None:
        pools.reset()  # kombu keeps pools by URL: close and forget them all
    celery._pool = None  # type: ignore[attr-defined]
    amqp = celery.__dict__.get("amqp")
    if amqp is not None:
        amqp._producer_pool = None
    celery.conf.update(celery_config(settings))
    # Celery builds the result backend once and keeps it (per thread when it is not thread
    # safe): forget it, so results are read through the backend configured now and not
    # through one built for earlier settings (a process that ran under `result_backend=None`
    # would otherwise keep Celery's DisabledBackend for good).
    celery._backend_cache = None  # type: ignore[attr-defined]
    celery._local.__dict__.pop("backend", None)  # type: ignore[attr-defined]
    if settings.broker_is_sql:
        # The SQLAlchemy transport takes its poll interval from the class (as a transport
        # option it would reach create_engine(), which refuses it).
        from kombu.transport import sqlalchemy as sql_transport

        sql_transport.Transport.polling_interval = settings.broker_poll_seconds
    context.use_settings(settings)
    return celery


app = Celery("hearts_arena", include=list(TASK_MODULES))
configure(app, Settings.from_environ())


@signals.setup_logging.connect
def _setup_logging(**_: Any) -> None:
    """Our structured logs instead of Celery's (connecting here stops Celery's own set-up)."""
    settings = context.settings()
    setup_logging(settings.log_format, settings.log_level)


class ArenaTask(Task):  # type: ignore[type-arg]
    """Our tasks' base: transient infrastructure faults are retried with backoff.

    Up to 20 tries, waiting 1, 2, 4, … up to 60 s between them (with jitter): a database
    or broker outage of a quarter of an hour loses nothing. Nothing else is retried.
    """

    autoretry_for = TRANSIENT_ERRORS
    retry_backoff = True
    retry_backoff_max = 60
    retry_jitter = True
    max_retries = 20
