"""A season's rated matches (or one month of them) written as open data, in bounded memory.

`export_season` streams the matches from the database in chunks of `CHUNK` (keyset pages
by id, plain rows, never ORM objects that the session would keep), writes each match's
JSON line to a gzip stream as it goes, and collects the per-hand rows only until a row
group of `ROW_GROUP` is full, which a `pyarrow.parquet.ParquetWriter` then writes. What
it holds at once is one chunk of replays, one row group and the entrants met so far
(`arena bench export` measures the peak: docs/benchmarks.md). The files go to a folder
named `.partial` first, which replaces the previous dump of the same season and period
only once complete; the `DataExport` row lists the files with their sizes and SHA-256.

The files (docs/open-data.md): `matches.jsonl.gz`, `hands.parquet`, `schema.json` (the
JSON Schema of a line), `hands.schema.txt` (the Parquet schema printed), `LICENSE.txt`,
`manifest.json` and `SHA256SUMS` (as `sha256sum -c` reads it).
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import shutil
from collections.abc import Callable, Iterator, Mapping, Sequence
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path
from typing import Any, Final

import pyarrow as pa
import pyarrow.parquet as pq
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from arena.match import replay as replay_io
from arena.match.replay_v2 import schema as replay_v2_schema
from arena.store import write_transaction
from arena.store.models import (
    Bot,
    BotVersion,
    DataExport,
    Match,
    MatchSeat,
    MatchStatus,
    Replay,
    Season,
    SeasonStatus,
    User,
)
from arena.store.types import utc_now

from .record import SCHEMA_VERSION, Entrant, MatchRow, match_line

CHUNK: Final = 100
"""Matches read from the database at once."""

ROW_GROUP: Final = 4_096
"""Hands per Parquet row group."""

MATCHES_FILE: Final = "matches.jsonl.gz"
HANDS_FILE: Final = "hands.parquet"
SCHEMA_FILE: Final = "schema.json"
HANDS_SCHEMA_FILE: Final = "hands.schema.txt"
LICENCE_FILE: Final = "LICENSE.txt"
MANIFEST_FILE: Final = "manifest.json"
SUMS_FILE: Final = "SHA256SUMS"

LICENCES: Final[dict[str, tuple[str, str]]] = {
    "CC-BY-4.0": (
        "Creative Commons Attribution 4.0 International",
        "https://creativecommons.org/licenses/by/4.0/",
    ),
    "CC-BY-SA-4.0": (
        "Creative Commons Attribution-ShareAlike 4.0 International",
        "https://creativecommons.org/licenses/by-sa/4.0/",
    ),
    "CC0-1.0": (
        "Creative Commons Zero v1.0 Universal (public domain dedication)",
        "https://creativecommons.org/publicdomain/zero/1.0/",
    ),
    "ODbL-1.0": (
        "Open Data Commons Open Database License v1.0",
        "https://opendatacommons.org/licenses/odbl/1-0/",
    ),
}
"""The licences an organiser may choose for a season's data (SPDX identifiers), CC BY 4.0
the default (`Season.data_licence`)."""

CARDS = pa.list_(pa.list_(pa.string()))
HANDS_SCHEMA: Final = pa.schema(
    [
        pa.field("season_id", pa.int32(), nullable=False),
        pa.field("match_id", pa.int64(), nullable=False),
        pa.field("round", pa.int32()),
        pa.field("format", pa.string(), nullable=False),
        pa.field("game", pa.int16(), nullable=False),
        pa.field("hand", pa.int16(), nullable=False),
        pa.field("hand_seed", pa.uint64(), nullable=False),
        pa.field("dealer", pa.int8(), nullable=False),
        pa.field("pass_direction", pa.string(), nullable=False),
        pa.field("players", pa.int8(), nullable=False),
        pa.field("bot_version_ids", pa.list_(pa.int64()), nullable=False),
        pa.field("bots", pa.list_(pa.string()), nullable=False),
        pa.field("points", pa.list_(pa.int32()), nullable=False),
        pa.field("totals", pa.list_(pa.int32()), nullable=False),
        pa.field("dealt", CARDS, nullable=False),
        pa.field("passed", CARDS, nullable=False),
        pa.field("received", CARDS, nullable=False),
        pa.field("moon", pa.int8()),
        pa.field("actions", pa.int32(), nullable=False),
        pa.field("faults", pa.int32(), nullable=False),
    ],
    metadata={"schema_version": str(SCHEMA_VERSION), "one_row_per": "hand played"},
)
"""The per-hand table: one row per hand played; list columns are by seat."""


class ExportError(ValueError):
    """A season or month that cannot be exported (not finished, not over, unknown)."""


Progress = Callable[[int, int], None]
"""Told (matches written, matches in all) after each chunk."""


def line_schema() -> dict[str, Any]:
    """The JSON Schema of a line of `matches.jsonl.gz`, replay v2's schema embedded."""
    text = resources.files("arena.data").joinpath("open-data-v1.schema.json").read_text()
    loaded: dict[str, Any] = json.loads(text)
    loaded["$defs"]["replay"] = replay_v2_schema()
    return loaded


def month_bounds(month: str) -> tuple[datetime, datetime]:
    """The first instant of `YYYY-MM` and of the next month, in UTC.

    Raises ExportError for a malformed month."""
    try:
        start = datetime.strptime(month, "%Y-%m").replace(tzinfo=UTC)
    except ValueError:
        raise ExportError(f"a month is YYYY-MM, not {month!r}") from None
    end = (
        start.replace(year=start.year + 1, month=1)
        if start.month == 12
        else start.replace(month=start.month + 1)
    )
    return start, end


def _rated(season_id: int, month: str | None) -> list[Any]:
    conditions: list[Any] = [
        Match.season_id == season_id,
        Match.status == MatchStatus.DONE,
        Match.rating_seq.is_not(None),
    ]
    if month is not None:
        start, end = month_bounds(month)
        conditions += [Match.finished_at >= start, Match.finished_at < end]
    return conditions


def _check_exportable(season: Season, month: str | None, now: datetime) -> None:
    if month is None:
        if season.status is not SeasonStatus.FINISHED:
            raise ExportError(
                f"season {season.name!r} is {season.status.value}: a whole season is "
                "exported once finished (a long ladder, month by month: --month YYYY-MM)"
            )
        return
    _, end = month_bounds(month)
    if now < end:
        raise ExportError(f"{month} is not over yet: a month is exported once it has ended")


def _chunks(session: Session, season_id: int, month: str | None) -> Iterator[list[MatchRow]]:
    last = 0
    conditions = _rated(season_id, month)
    while True:
        rows = session.execute(
            select(
                Match.id,
                Match.round,
                Match.table_number,
                Match.format,
                Match.seed,
                Match.rating_seq,
                Match.finished_at,
                Match.hands_played,
            )
            .where(*conditions, Match.id > last)
            .order_by(Match.id)
            .limit(CHUNK)
        ).all()
        if not rows:
            return
        last = rows[-1][0]
        yield [
            MatchRow(
                match_id=r[0],
                season_id=season_id,
                round=r[1],
                table=r[2],
                format=r[3].value,
                seed=r[4],
                rating_seq=r[5],
                finished_at=r[6].isoformat() if r[6] is not None else None,
                hands_played=r[7] or 0,
            )
            for r in rows
        ]


def _entrants(session: Session, ids: Sequence[int], known: dict[int, Entrant]) -> None:
    """Add the bot versions of `ids` not yet in `known`."""
    missing = [i for i in ids if i not in known]
    if not missing:
        return
    rows = session.execute(
        select(
            BotVersion.id,
            Bot.name,
            User.username,
            BotVersion.number,
            BotVersion.archive_sha256,
            Bot.is_house,
            Bot.notes_public,
        )
        .join(Bot, Bot.id == BotVersion.bot_id)
        .join(User, User.id == Bot.owner_id)
        .where(BotVersion.id.in_(missing))
    ).all()
    for r in rows:
        known[r[0]] = Entrant(r[0], r[1], r[2], r[3], r[4], bool(r[5]), bool(r[6]))


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as file:
        while block := file.read(1 << 20):
            digest.update(block)
    return digest.hexdigest()


def export_season(
    session: Session,
    season_id: int,
    root: Path,
    *,
    month: str | None = None,
    now: datetime | None = None,
    progress: Progress | None = None,
) -> DataExport:
    """Write season `season_id`'s rated matches (those finished in `month`, `YYYY-MM`, if
    given) under `root`, and record the dump (its own transaction; a dump of the same
    season and period is replaced). Returns the `DataExport` row.

    Raises ExportError for an unknown season, a whole season that is not finished, or a
    month that is not over; OSError when the files cannot be written.
    """
    when = now or utc_now()
    season = session.get(Season, season_id)
    if season is None:
        raise ExportError(f"no season {season_id}")
    _check_exportable(season, month, when)
    season_name, licence = season.name, season.data_licence
    rules = season.ruleset.data
    header = {
        "id": season.id,
        "name": season.name,
        "starts_at": season.starts_at.isoformat(),
        "ends_at": season.ends_at.isoformat(),
        "finished_at": season.finished_at.isoformat() if season.finished_at else None,
        "format": "duplicate" if season.matchmaking.get("duplicate_sets") else "single",
        "rules": rules,
    }
    total = session.scalar(select(func.count()).select_from(Match).where(*_rated(season_id, month)))
    name = f"season-{season_id}" + (f"-{month}" if month else "")
    final = root / name
    partial = root / f"{name}.partial"
    shutil.rmtree(partial, ignore_errors=True)
    partial.mkdir(parents=True)
    matches = hands = 0
    known: dict[int, Entrant] = {}
    buffer: list[dict[str, Any]] = []
    with (
        gzip.open(partial / MATCHES_FILE, "wb", compresslevel=6) as raw,
        io.TextIOWrapper(raw, encoding="utf-8", newline="\n") as lines,
        pq.ParquetWriter(partial / HANDS_FILE, HANDS_SCHEMA, compression="zstd") as table,
    ):
        for chunk in _chunks(session, season_id, month):
            ids = [row.match_id for row in chunk]
            seats: dict[int, list[int]] = {}
            for match_id, version_id in session.execute(
                select(MatchSeat.match_id, MatchSeat.bot_version_id)
                .where(MatchSeat.match_id.in_(ids))
                .order_by(MatchSeat.match_id, MatchSeat.seat)
            ):
                seats.setdefault(match_id, []).append(version_id)
            _entrants(session, [v for vs in seats.values() for v in vs], known)
            query = select(Replay.match_id, Replay.content).where(Replay.match_id.in_(ids))
            contents: dict[int, bytes] = {row[0]: row[1] for row in session.execute(query)}
            session.rollback()  # end the read: a long export holds no transaction open
            for row in chunk:
                content = contents.pop(row.match_id, None)
                if content is None:
                    continue  # a rated match always has its replay; nothing to publish
                replay = replay_io.loads(content)
                entrants = [known[v] for v in seats[row.match_id]]
                line, rows = match_line(row, season_name, entrants, replay)
                lines.write(json.dumps(line, separators=(",", ":"), sort_keys=True))
                lines.write("\n")
                buffer.extend(rows)
                matches += 1
                hands += len(rows)
                if len(buffer) >= ROW_GROUP:
                    table.write_table(pa.Table.from_pylist(buffer, HANDS_SCHEMA))
                    buffer.clear()
            if progress is not None:
                progress(matches, total or 0)
        if buffer:
            table.write_table(pa.Table.from_pylist(buffer, HANDS_SCHEMA))
            buffer.clear()
    _write_documents(partial, licence, header, month, matches, hands, when)
    files = _write_sums(partial)
    shutil.rmtree(final, ignore_errors=True)
    partial.rename(final)
    session.rollback()  # the write lock is taken before the first read (write_transaction)
    with write_transaction(session):
        dump = session.scalars(
            select(DataExport).where(
                DataExport.season_id == season_id, DataExport.period == (month or "")
            )
        ).one_or_none()
        if dump is None:
            dump = DataExport(season_id=season_id, period=month or "")
            session.add(dump)
        dump.schema_version = SCHEMA_VERSION
        dump.licence = licence
        dump.folder = name
        dump.matches = matches
        dump.hands = hands
        dump.files = files
        dump.created_at = when
    return dump


DESCRIPTIONS: Final = {
    MATCHES_FILE: "every rated match: one JSON object per line (schema.json), gzip",
    HANDS_FILE: "one row per hand played (hands.schema.txt), Parquet with zstd",
    SCHEMA_FILE: "the JSON Schema of a line of matches.jsonl.gz",
    HANDS_SCHEMA_FILE: "the Parquet table's schema, printed",
    LICENCE_FILE: "the licence the data is published under",
    MANIFEST_FILE: "what this dump is: season, period, schema version, licence, counts",
    SUMS_FILE: "SHA-256 of every other file (sha256sum -c SHA256SUMS)",
}


def _write_documents(
    folder: Path,
    licence: str,
    season: Mapping[str, Any],
    month: str | None,
    matches: int,
    hands: int,
    when: datetime,
) -> None:
    title, url = LICENCES.get(licence, (licence, ""))
    (folder / SCHEMA_FILE).write_text(json.dumps(line_schema(), indent=1) + "\n")
    (folder / HANDS_SCHEMA_FILE).write_text(
        f"# hands.parquet, open data schema version {SCHEMA_VERSION}\n{HANDS_SCHEMA}\n"
    )
    (folder / LICENCE_FILE).write_text(
        f"The games of the Hearts Arena season {season['name']!r}"
        + (f", {month}," if month else "")
        + f" are published under {title} ({licence}).\n"
        + (f"{url}\n" if url else "")
    )
    manifest = {
        "kind": "hearts-arena-open-data",
        "schema_version": SCHEMA_VERSION,
        "season": dict(season),
        "period": month or "season",
        "licence": {"id": licence, "name": title, "url": url},
        "matches": matches,
        "hands": hands,
        "created_at": when.isoformat(),
        "files": [
            {"name": name, "description": text}
            for name, text in DESCRIPTIONS.items()
            if name not in (MANIFEST_FILE, SUMS_FILE)
        ],
    }
    (folder / MANIFEST_FILE).write_text(json.dumps(manifest, indent=1) + "\n")


def _write_sums(folder: Path) -> list[dict[str, Any]]:
    """SHA256SUMS over every file but itself; the list of all files for the database."""
    files = []
    for name in DESCRIPTIONS:
        if name == SUMS_FILE:
            continue
        path = folder / name
        files.append({"name": name, "size": path.stat().st_size, "sha256": _sha256(path)})
    (folder / SUMS_FILE).write_text("".join(f"{f['sha256']}  {f['name']}\n" for f in files))
    sums = folder / SUMS_FILE
    files.append({"name": SUMS_FILE, "size": sums.stat().st_size, "sha256": _sha256(sums)})
    return files
