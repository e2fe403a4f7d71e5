"""Open data: every season's published dumps, their files, checksums and licence, and
the downloads themselves (docs/open-data.md).

The files are written by `arena data export` into the open-data folder (`OPEN_DATA_DIR`,
default `$ARENA_DATA_DIR/open-data`, else `var/open-data`); the database lists them
(`DataExport`), so a file is served only when its dump lists it by name.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from flask import Blueprint, abort, current_app, render_template, send_from_directory, url_for
from sqlalchemy import select
from werkzeug.wrappers import Response

from arena.data.export import DESCRIPTIONS, LICENCES
from arena.data.record import SCHEMA_VERSION
from arena.store.models import DataExport, Season

from . import database

bp = Blueprint("data", __name__, url_prefix="/data")


def open_data_dir() -> Path:
    """The folder the dumps are in."""
    configured = current_app.config.get("OPEN_DATA_DIR")
    if configured:
        return Path(configured)
    return Path(os.environ.get("ARENA_DATA_DIR") or "var") / "open-data"


def dumps(season_id: int | None = None) -> list[tuple[DataExport, str]]:
    """Every dump (of one season, if given) with its season's name, newest season first,
    the whole season before its months."""
    statement = select(DataExport, Season.name).join(Season, Season.id == DataExport.season_id)
    if season_id is not None:
        statement = statement.where(DataExport.season_id == season_id)
    rows = database.session().execute(
        statement.order_by(Season.id.desc(), DataExport.period != "", DataExport.period.desc())
    )
    return [(row[0], row[1]) for row in rows]


def load_dump(dump_id: int) -> DataExport:
    """The dump, or 404."""
    dump = database.session().get(DataExport, dump_id)
    if dump is None:
        abort(404, f"No open-data dump {dump_id}.")
    return dump


def dump_json(dump: DataExport, season_name: str) -> dict[str, Any]:
    """A dump as the API and the page describe it, with each file's download address."""
    title, url = LICENCES.get(dump.licence, (dump.licence, ""))
    return {
        "id": dump.id,
        "season": {"id": dump.season_id, "name": season_name},
        "period": dump.period or "season",
        "schema_version": dump.schema_version,
        "licence": {"id": dump.licence, "name": title, "url": url},
        "matches": dump.matches,
        "hands": dump.hands,
        "created_at": dump.created_at.isoformat(),
        "files": [
            {
                "name": entry["name"],
                "size": entry["size"],
                "sha256": entry["sha256"],
                "description": DESCRIPTIONS.get(entry["name"], ""),
                "url": url_for("data.download", dump_id=dump.id, name=entry["name"]),
            }
            for entry in dump.files
        ],
    }


@bp.get("/")
def index() -> str:
    """The published dumps: what each holds, its licence, its files with their SHA-256."""
    listed = [dump_json(dump, name) for dump, name in dumps()]
    return render_template("data/index.html", dumps=listed, schema_version=SCHEMA_VERSION)


@bp.get("/<int:dump_id>/<name>")
def download(dump_id: int, name: str) -> Response:
    """One file of a dump (404 for a name the dump does not list, or a file gone)."""
    dump = load_dump(dump_id)
    if name not in {entry["name"] for entry in dump.files}:
        abort(404, f"Dump {dump_id} has no file {name[:80]!r}.")
    folder = open_data_dir() / dump.folder
    return send_from_directory(folder, name, as_attachment=True, max_age=3600)
