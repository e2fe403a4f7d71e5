"""The Hearts Arena web site: `create_app()` builds the Flask application.

One blueprint per concern (accounts, ladder, seasons, bots, matches, submissions, the
JSON API), server-rendered pages, and a static JavaScript replay viewer that needs no
build step. The site meets the workers only in the database: an upload writes a pending
bot version, a challenge a queued match, and the workers pick them up from there.

    flask --app web run                  # development server
    waitress-serve --call web:create_app # production WSGI server
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

from flask import Flask

from . import (
    bounds,
    database,
    errors,
    headers,
    limits,
    logs,
    metrics,
    passwords,
    quotas,
    templating,
)
from .forms import CSRFProtect

UPLOAD_MAX_BYTES = 1024 * 1024
"""The largest upload accepted: a bot file or a compressed archive (docs/api.md)."""

csrf = CSRFProtect()


def _secret_key() -> str:
    """`$ARENA_SECRET_KEY`, else a key kept in var/web-secret-key (made on first use).

    A key kept in a file lets every worker process of a WSGI server, and the next start,
    read the same sessions.
    """
    key = os.environ.get("ARENA_SECRET_KEY")
    if key:
        return key
    path = Path(os.environ.get("ARENA_SECRET_KEY_FILE", "var/web-secret-key"))
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        path.parent.mkdir(parents=True, exist_ok=True)
        text = secrets.token_urlsafe(48)
        try:
            with path.open("x") as file:  # a racing process may have made it first
                file.write(text)
        except FileExistsError:
            return path.read_text().strip()
        path.chmod(0o600)
        return text


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """The application, configured from `test_config` when given, else the environment.

    Settings: `DATABASE_URL` (default `$ARENA_DATABASE_URL`, else the store's SQLite
    default), `SECRET_KEY` (default `$ARENA_SECRET_KEY` or a kept file), `SITE_URL` (default
    `$ARENA_SITE_URL`: the address people reach the site at, for the account page's login
    line), `UPLOAD_MAX_BYTES`, `METRICS_ALLOW` and `METRICS_TOKEN` (who may read
    ``/metrics``: `web.metrics`). Raises ValueError for a `SITE_URL` that is not http(s)
    or a malformed `METRICS_ALLOW`.
    """
    app = Flask(__name__)
    app.config.from_mapping(
        DATABASE_URL=os.environ.get("ARENA_DATABASE_URL"),
        SITE_URL=os.environ.get("ARENA_SITE_URL") or None,
        UPLOAD_MAX_BYTES=UPLOAD_MAX_BYTES,
        MAX_CONTENT_LENGTH=UPLOAD_MAX_BYTES + 64 * 1024,  # the file plus the form around it
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SECURE=os.environ.get("ARENA_SECURE_COOKIES") == "1",
        WTF_CSRF_TIME_LIMIT=None,  # tokens are bound to the session; no expiry mid-page
        LADDER_PAGE_SIZE=50,
        LADDER_STATS_SECONDS=60.0,
        API_PAGE_SIZE=50,
        API_MAX_PAGE_SIZE=200,
        PASSWORD_MIN_LENGTH=8,
        ARGON2_PROFILE="RFC_9106_LOW_MEMORY",
    )
    if test_config is not None:
        app.config.from_mapping(test_config)
    site = app.config.get("SITE_URL")
    if site and not str(site).startswith(("http://", "https://")):
        raise ValueError(
            f"ARENA_SITE_URL (SITE_URL) must start with http:// or https://, not {str(site)[:80]!r}"
        )
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _secret_key()

    app.json.sort_keys = False  # type: ignore[attr-defined]
    logs.init_app(app)
    database.init_app(app)
    metrics.init_app(app)  # first of the request hooks: every request is counted
    quotas.init_app(app)
    csrf.init_app(app)
    errors.init_app(app)
    bounds.init_app(app)  # before the blueprints: their `<int:…>` ids use its converter
    templating.init_app(app)
    headers.init_app(app)

    from . import (
        account,
        analyses,
        auth,
        bots,
        data,
        finals,
        home,
        ladder,
        leagues,
        live,
        matches,
        seasons,
        status,
        submissions,
        tables,
    )
    from .api import api

    for blueprint in (
        auth.bp,
        account.bp,
        home.bp,
        ladder.bp,
        seasons.bp,
        leagues.bp,
        finals.bp,
        bots.bp,
        matches.bp,
        analyses.bp,
        live.bp,
        submissions.bp,
        tables.bp,
        status.bp,
        data.bp,
        api,
    ):
        app.register_blueprint(blueprint)
    csrf.exempt(api)  # the API authenticates by bearer token, never by cookie
    limits.init_app(app)  # after the blueprints: it guards the sign-in view
    passwords.init_app(app)

    from .commands import users

    app.cli.add_command(users)
    return app
