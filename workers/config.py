"""The platform's configuration, read from the environment in one place.

Every process of the platform (web, workers, beat, the `arena` commands) takes its
settings from these variables; `ENVIRONMENT` lists them with their defaults, and
docs/operations.md explains each. Nothing else in `workers` reads `os.environ`.

>>> settings = Settings.from_environ({"ARENA_DATA_DIR": "/srv/arena"})
>>> settings.database_url, settings.broker_url
('sqlite:////srv/arena/arena.db', 'sqla+sqlite:////srv/arena/broker.sqlite')
>>> Settings.from_environ({"ARENA_BROKER_URL": "redis://cache:6379/0"}).result_backend
'redis://cache:6379/0'
>>> Settings.from_environ({"ARENA_BROKER_URL": "redis+socket:///srv/b/redis.sock"}).broker_is_redis
True
"""

from __future__ import annotations

import dataclasses
import os
import sqlite3
from collections.abc import Mapping
from pathlib import Path
from typing import Final

REDIS_SCHEMES: Final = ("redis://", "rediss://", "redis+socket://")
"""Broker URLs of a Redis(-compatible) server: TCP, TLS, and a unix socket."""


class ConfigError(ValueError):
    """A variable whose value we cannot use (the message names it and the value)."""


ENVIRONMENT: Final[dict[str, str]] = {
    "ARENA_DATA_DIR": "where the platform keeps its files (default ./var)",
    "ARENA_DATABASE_URL": "the database (default sqlite:///<data dir>/arena.db)",
    "ARENA_BROKER_URL": "the Celery broker (redis://… in production; `arena platform` "
    "starts its own embedded server, redis+socket://<data dir>/broker/redis.sock, or falls "
    "back to kombu's SQLAlchemy transport on <data dir>/broker.sqlite)",
    "ARENA_RESULT_BACKEND": "where Celery keeps task results (default: the broker when it "
    "is Redis, none otherwise)",
    "ARENA_SECRET_KEY": "the web site's secret key (read by web; required in production)",
    "ARENA_MATCH_SOFT_LIMIT": "seconds a match may run before it is asked to stop (1500)",
    "ARENA_MATCH_HARD_LIMIT": "seconds after which a match's worker process is killed (1800)",
    "ARENA_VALIDATION_HARD_LIMIT": "hard time limit of a validation, seconds (900)",
    "ARENA_VISIBILITY_TIMEOUT": "seconds before Redis redelivers an unacknowledged task "
    "(3600; must exceed every hard limit)",
    "ARENA_HEARTBEAT_SECONDS": "how often workers and beat write their heartbeat (10)",
    "ARENA_STALL_SECONDS": "a running match that no live worker holds for this long is "
    "stalled (45)",
    "ARENA_BEAT_SECONDS": "how often beat advances seasons and dispatches work (10)",
    "ARENA_REAPER_SECONDS": "how often beat runs the reaper (30)",
    "ARENA_DB_RETRY_SECONDS": "how long a task keeps retrying through a database outage (600)",
    "ARENA_BROKER_POLL_SECONDS": "poll interval of the SQLAlchemy broker transport (0.1)",
    "ARENA_LOG_FORMAT": "json (default) or text",
    "ARENA_LOG_LEVEL": "INFO (default), DEBUG, WARNING, …",
}
"""Every variable the platform's processes read (the web site reads `ARENA_DATABASE_URL`,
`ARENA_DATA_DIR` and `ARENA_SECRET_KEY` too)."""


def _seconds(environ: Mapping[str, str], name: str, default: float) -> float:
    text = environ.get(name)
    if text is None or not text.strip():
        return default
    try:
        value = float(text)
    except ValueError:
        raise ConfigError(f"{name}={text!r} is not a number of seconds") from None
    if value <= 0:
        raise ConfigError(f"{name}={text!r} must be positive")
    return value


@dataclasses.dataclass(frozen=True)
class Settings:
    """Everything a platform process needs to know; `from_environ` reads it."""

    data_dir: Path
    database_url: str
    broker_url: str
    result_backend: str | None
    secret_key: str | None = None
    match_soft_limit: float = 1500.0
    match_hard_limit: float = 1800.0
    validation_hard_limit: float = 900.0
    visibility_timeout: float = 3600.0
    heartbeat_seconds: float = 10.0
    stall_seconds: float = 45.0
    beat_seconds: float = 10.0
    reaper_seconds: float = 30.0
    db_retry_seconds: float = 600.0
    broker_poll_seconds: float = 0.1
    log_format: str = "json"
    log_level: str = "INFO"

    def __post_init__(self) -> None:
        if self.match_soft_limit >= self.match_hard_limit:
            raise ConfigError(
                f"ARENA_MATCH_SOFT_LIMIT ({self.match_soft_limit:g}) must be under "
                f"ARENA_MATCH_HARD_LIMIT ({self.match_hard_limit:g})"
            )
        longest = max(self.match_hard_limit, self.validation_hard_limit)
        if self.visibility_timeout <= longest:
            raise ConfigError(
                f"ARENA_VISIBILITY_TIMEOUT ({self.visibility_timeout:g} s) must exceed the "
                f"longest hard time limit ({longest:g} s), or Redis would hand a running "
                "task to a second worker"
            )
        if self.log_format not in ("json", "text"):
            raise ConfigError(f"ARENA_LOG_FORMAT={self.log_format!r}: use json or text")

    @classmethod
    def from_environ(cls, environ: Mapping[str, str] | None = None) -> Settings:
        """The settings from `environ` (default `os.environ`); ConfigError for bad values."""
        env = os.environ if environ is None else environ
        data_dir = Path(env.get("ARENA_DATA_DIR") or "var")
        broker = env.get("ARENA_BROKER_URL") or default_broker_url(data_dir)
        backend = env.get("ARENA_RESULT_BACKEND") or (
            broker if broker.startswith(REDIS_SCHEMES) else None
        )
        match_hard = _seconds(env, "ARENA_MATCH_HARD_LIMIT", 1800.0)
        return cls(
            data_dir=data_dir,
            database_url=env.get("ARENA_DATABASE_URL") or f"sqlite:///{data_dir / 'arena.db'}",
            broker_url=broker,
            result_backend=None if backend in ("", "none") else backend,
            secret_key=env.get("ARENA_SECRET_KEY") or None,
            match_soft_limit=_seconds(env, "ARENA_MATCH_SOFT_LIMIT", match_hard * 5 / 6),
            match_hard_limit=match_hard,
            validation_hard_limit=_seconds(env, "ARENA_VALIDATION_HARD_LIMIT", 900.0),
            visibility_timeout=_seconds(
                env, "ARENA_VISIBILITY_TIMEOUT", max(3600.0, 2 * match_hard)
            ),
            heartbeat_seconds=_seconds(env, "ARENA_HEARTBEAT_SECONDS", 10.0),
            stall_seconds=_seconds(env, "ARENA_STALL_SECONDS", 45.0),
            beat_seconds=_seconds(env, "ARENA_BEAT_SECONDS", 10.0),
            reaper_seconds=_seconds(env, "ARENA_REAPER_SECONDS", 30.0),
            db_retry_seconds=_seconds(env, "ARENA_DB_RETRY_SECONDS", 600.0),
            broker_poll_seconds=_seconds(env, "ARENA_BROKER_POLL_SECONDS", 0.1),
            log_format=(env.get("ARENA_LOG_FORMAT") or "json").lower(),
            log_level=(env.get("ARENA_LOG_LEVEL") or "INFO").upper(),
        )

    @property
    def broker_is_redis(self) -> bool:
        """Whether the broker is Redis (which supports broadcasts: `celery inspect`), on
        TCP or, as the local platform's embedded server, on a unix socket."""
        return self.broker_url.startswith(REDIS_SCHEMES)

    @property
    def broker_is_sql(self) -> bool:
        """Whether the broker is kombu's SQLAlchemy transport (the local default)."""
        return self.broker_url.startswith(("sqla+", "sqlalchemy+"))

    @property
    def versions_dir(self) -> Path:
        """Where validated bot versions' environments live (one folder per archive)."""
        return self.data_dir.absolute() / "versions"

    @property
    def runtime_dir(self) -> Path:
        """Where the bots' shared runtime is built."""
        return self.data_dir.absolute() / "sandbox"


def default_broker_url(data_dir: Path) -> str:
    """The serverless local broker: kombu's SQLAlchemy transport on a SQLite file (what
    a process reads when nothing is set; `arena platform` sets its embedded server's)."""
    return f"sqla+sqlite:///{data_dir / 'broker.sqlite'}"


def prepare_sql_broker(broker_url: str) -> None:
    """Put the SQLite broker file in WAL mode (readers never wait for the writer). Here,
    beside `default_broker_url`, so the workers' own code (their bench) never imports
    the command line."""
    path = broker_url.split(":///", 1)[1]
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    with sqlite3.connect(path, timeout=30) as connection:
        connection.execute("PRAGMA journal_mode=WAL")
