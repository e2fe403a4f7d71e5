"""The replay document: a versioned JSON record of a match, complete and self-verifying.

Stored gzip-compressed (`.json.gz`; the database keeps the same bytes). Its JSON Schema is
`replay-v1.schema.json` beside this module; docs/replay.md explains every field.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any, Final

REPLAY_FORMAT: Final = "hearts-arena-replay"
REPLAY_VERSION: Final = 1
LOG_CAP_BYTES: Final = 16 * 1024


class ReplayError(ValueError):
    """A file that is not a readable replay of a version we know."""


def cap_log(text: str, cap: int = LOG_CAP_BYTES) -> str:
    """Keep the first and last part of a log within `cap` bytes, marking the cut."""
    data = text.encode("utf-8", "replace")
    if len(data) <= cap:
        return text
    half = cap // 2
    head = data[:half].decode("utf-8", "ignore")
    tail = data[-half:].decode("utf-8", "ignore")
    return f"{head}\n[… {len(data) - 2 * half} bytes cut …]\n{tail}"


def dumps(replay: dict[str, Any]) -> bytes:
    """Compressed canonical bytes (sorted keys; gzip with a fixed mtime, so reproducible)."""
    raw = json.dumps(replay, sort_keys=True, separators=(",", ":")).encode()
    return gzip.compress(raw, compresslevel=9, mtime=0)


def loads(data: bytes) -> dict[str, Any]:
    """Parse compressed or plain JSON bytes; ReplayError for anything else."""
    if data[:2] == b"\x1f\x8b":
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError) as error:
            raise ReplayError(f"corrupt gzip data: {error}") from error
    try:
        replay = json.loads(data)
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ReplayError(f"not JSON: {error}") from error
    if not isinstance(replay, dict) or replay.get("format") != REPLAY_FORMAT:
        raise ReplayError(f"not a Hearts Arena replay (format must be {REPLAY_FORMAT!r})")
    if replay.get("version") != REPLAY_VERSION:
        raise ReplayError(
            f"replay version {replay.get('version')!r} is not supported "
            f"(this build reads version {REPLAY_VERSION})"
        )
    return replay


def save(replay: dict[str, Any], path: Path) -> None:
    """Write compressed when the name ends in .gz, indented JSON otherwise."""
    if path.suffix == ".gz":
        path.write_bytes(dumps(replay))
    else:
        path.write_text(json.dumps(replay, indent=1, sort_keys=True) + "\n")


def load(path: Path) -> dict[str, Any]:
    """Read a replay file (compressed or not)."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise ReplayError(f"cannot read {path}: {error.strerror}") from error
    return loads(data)


def schema() -> dict[str, Any]:
    """The replay's JSON Schema (draft 2020-12)."""
    text = resources.files(__package__).joinpath("replay-v1.schema.json").read_text()
    loaded: dict[str, Any] = json.loads(text)
    return loaded


def strip_timings(replay: dict[str, Any]) -> dict[str, Any]:
    """The replay without wall-clock fields, for comparing two runs of the same match."""

    def walk(node: Any) -> Any:
        if isinstance(node, dict):
            return {
                k: walk(v)
                for k, v in node.items()
                if k not in ("ms", "elapsed_ms", "started_at", "finished_at", "match_id")
            }
        if isinstance(node, list):
            return [walk(v) for v in node]
        return node

    stripped: dict[str, Any] = walk(replay)
    return stripped


def decision_records(hand: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every decision record of a hand's record that may carry a note (a pass, the dealer's
    call, a bid, the naming, a face-down card, a play, a penny play), in the order the
    runner asked them; each has `seat`."""
    records: list[dict[str, Any]] = []
    if "call" in hand:
        records.append(hand["call"])
    records += hand.get("passes", [])
    auction = hand.get("auction")
    if auction is not None:
        records += auction.get("bids", [])
        records.append(auction["naming"])
    records += hand.get("reveals", [])
    for trick in hand.get("tricks", []):
        records += trick.get("plays", [])
    for multi in hand.get("multi_rounds", []):
        records += multi.get("plays", [])
    return records
