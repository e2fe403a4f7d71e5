"""The admins' status page: queues, running matches, backlog and worker heartbeats.

The web site never talks to the broker or the workers: everything here is read from the
database, where the workers' heartbeats and beat's dispatch (which records the queue
lengths it saw) write it. `arena status` prints the same from the command line.
"""

from __future__ import annotations

from flask import Blueprint, render_template

from arena.store.dispatch import match_counts, running_matches, version_counts
from arena.store.heartbeats import heartbeats

from . import database
from .auth import admin_required

bp = Blueprint("status", __name__, url_prefix="/admin")

STALE_SECONDS = 60
"""A heartbeat older than this is shown as stale (workers beat every few seconds)."""


@bp.get("/status")
@admin_required
def show() -> str:
    """Queues as beat's dispatch last saw them, running matches, backlog and heartbeats."""
    db = database.session()
    beats = heartbeats(db)
    dispatch = next((b for b in beats if b.role == "dispatch"), None)
    queues = dispatch.info.get("queues") if dispatch is not None else None
    return render_template(
        "status.html",
        queues=queues if isinstance(queues, dict) else None,
        dispatch=dispatch,
        running=running_matches(db),
        matches=match_counts(db),
        versions=version_counts(db),
        beats=beats,
        stale_seconds=STALE_SECONDS,
    )
