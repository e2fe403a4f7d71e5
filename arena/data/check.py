"""A dump read back: its checksums, its lines against its schema, every replay verified
through the engine, each seat's view against the replay, and the per-hand table's rows
against the hands played (`arena data verify`, and the tests).
"""

from __future__ import annotations

import dataclasses
import gzip
import hashlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq

from arena.match import replay_view
from arena.match.replay_v2 import ReplayV2, verify_v2

from .export import HANDS_FILE, HANDS_SCHEMA, MANIFEST_FILE, MATCHES_FILE, SUMS_FILE, line_schema
from .record import SCHEMA_VERSION, seat_views


class DumpError(ValueError):
    """A dump that does not hold what it says: the message names the file and the place."""


@dataclasses.dataclass(frozen=True)
class DumpCheck:
    """What `check_dump` confirmed."""

    files: int
    matches: int
    hands: int
    table_rows: int
    row_groups: int
    schema_checked: bool


def read_lines(folder: Path) -> Iterator[dict[str, Any]]:
    """The dump's match lines, one at a time."""
    with gzip.open(folder / MATCHES_FILE, "rt", encoding="utf-8") as lines:
        for line in lines:
            yield json.loads(line)


def check_sums(folder: Path) -> int:
    """Every file of SHA256SUMS has its checksum; returns how many. Raises DumpError."""
    sums = (folder / SUMS_FILE).read_text().splitlines()
    for entry in sums:
        expected, name = entry.split("  ", 1)
        digest = hashlib.sha256()
        with (folder / name).open("rb") as file:
            while block := file.read(1 << 20):
                digest.update(block)
        if digest.hexdigest() != expected:
            raise DumpError(f"{name}: SHA-256 {digest.hexdigest()}, SHA256SUMS says {expected}")
    return len(sums)


def check_dump(folder: Path, *, schema: bool = True) -> DumpCheck:
    """Read the dump in `folder` back and check all of it (the schema too when `schema`
    and jsonschema is installed). Raises DumpError naming the first problem;
    OSError for a missing file."""
    files = check_sums(folder)
    manifest = json.loads((folder / MANIFEST_FILE).read_text())
    if manifest.get("schema_version") != SCHEMA_VERSION:
        raise DumpError(f"manifest: schema version {manifest.get('schema_version')!r}")
    validator = _validator() if schema else None
    matches = hands = 0
    for number, line in enumerate(read_lines(folder), start=1):
        where = f"{MATCHES_FILE} line {number}"
        if validator is not None:
            error = next(iter(validator.iter_errors(line)), None)
            if error is not None:
                raise DumpError(f"{where}: {error.json_path}: {error.message}")
        replay = line["replay"]
        try:
            verify_v2(ReplayV2.from_dict(replay))
        except ValueError as error:  # ReplayMismatchError is one
            raise DumpError(f"{where}: the replay does not verify: {error}") from None
        if seat_views(replay_view.readable(replay)) != line["seat_views"]:
            raise DumpError(f"{where}: seat_views differ from the replay's hands")
        played = sum(len(game["hands"]) for game in replay["games"])
        if played != line["match"]["hands_played"]:
            recorded = line["match"]["hands_played"]
            raise DumpError(f"{where}: {played} hands in the replay, hands_played is {recorded}")
        matches += 1
        hands += played
    parquet = pq.ParquetFile(folder / HANDS_FILE)
    if not parquet.schema_arrow.equals(HANDS_SCHEMA, check_metadata=False):
        raise DumpError(f"{HANDS_FILE}: its schema is not schema version {SCHEMA_VERSION}'s")
    rows = parquet.metadata.num_rows
    if rows != hands:
        raise DumpError(f"{HANDS_FILE}: {rows} rows for {hands} hands played")
    if (manifest["matches"], manifest["hands"]) != (matches, hands):
        raise DumpError(
            f"manifest: {manifest['matches']} matches, {manifest['hands']} hands; "
            f"the dump holds {matches} and {hands}"
        )
    return DumpCheck(
        files, matches, hands, rows, parquet.metadata.num_row_groups, validator is not None
    )


def _validator() -> Any:
    try:
        import jsonschema
    except ModuleNotFoundError:  # a dev dependency: `arena data verify` checks the rest
        return None
    return jsonschema.Draft202012Validator(line_schema())
