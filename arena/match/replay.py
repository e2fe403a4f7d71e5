"""The replay document: a versioned JSON record of a match, complete and self-verifying,
and the one way to read a stored one, whatever its version.

Stored gzip-compressed (`.json.gz`; the database keeps the same bytes). `loads` and `load`
read version 1 (every replay written before replay v2, the golden fixtures) and version 2
(what the runner writes, `replay_v2.py`) alike and return the document as stored; a reader
that needs more asks the views: `replay_view.document` for the v2 document (a v1 one
converted), `replay_view.readable` for v1's layout (re-played from a v2 one, which costs a
pass through the engine: the viewer and the text replay need it, a page of scores does
not). What both versions keep under the same keys is read here without the engine
(`hand_scores`). v1's JSON Schema is `replay-v1.schema.json` beside this module, v2's
`replay-v2.schema.json`; docs/replay.md explains every field.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any, Final, NamedTuple

REPLAY_FORMAT: Final = "hearts-arena-replay"
REPLAY_VERSION: Final = 1
VERSIONS: Final = (REPLAY_VERSION, 2)
"""The versions a stored replay may have: 1, and 2 (`replay_v2.REPLAY_V2`)."""
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


def loads(data: bytes, versions: tuple[int, ...] = VERSIONS) -> dict[str, Any]:
    """Parse compressed or plain JSON bytes of a replay of one of `versions` (any this
    build reads unless told), as stored; ReplayError for anything else."""
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
    if replay.get("version") not in versions:
        readable = " or ".join(str(v) for v in versions)
        raise ReplayError(
            f"replay version {replay.get('version')!r} is not supported "
            f"(this build reads version {readable} here)"
        )
    return replay


def save(replay: dict[str, Any], path: Path) -> None:
    """Write compressed when the name ends in .gz, indented JSON otherwise."""
    if path.suffix == ".gz":
        path.write_bytes(dumps(replay))
    else:
        path.write_text(json.dumps(replay, indent=1, sort_keys=True) + "\n")


def load(path: Path, versions: tuple[int, ...] = VERSIONS) -> dict[str, Any]:
    """Read a replay file (compressed or not) of one of `versions` (any this build reads
    unless told), as stored; ReplayError for anything else."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise ReplayError(f"cannot read {path}: {error.strerror}") from error
    return loads(data, versions)


def schema() -> dict[str, Any]:
    """Replay v1's JSON Schema (draft 2020-12; v2's: `replay_v2.schema`)."""
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


class DecisionRecord(NamedTuple):
    """One decision's record in a hand's record, with what it decided and where."""

    kind: str
    """What was asked: "call", "pass", "bid", "naming", "reveal" or "play" (or the kind of
    a decision filed under `decisions`, v1's place for the kinds it has no place for)."""
    place: str
    """Where in the hand, for people: "pass", "trick 3", "multi-round 1", … (from 1)."""
    record: dict[str, Any]
    """The record itself: `seat`, the answer, `ms`, and maybe `fault`, `auto`, `note`."""


def decision_records(hand: Mapping[str, Any]) -> list[DecisionRecord]:
    """Every decision of a hand's record (each with `ms`, and each may carry a `note`), in
    the order the runner asks them: the dealer's call, the passes, the bids and the
    naming, the face-down cards, the plays of the tricks, the plays of the multi-rounds."""
    records: list[DecisionRecord] = []
    if "call" in hand:
        records.append(DecisionRecord("call", "call", hand["call"]))
    records += [DecisionRecord("pass", "pass", given) for given in hand.get("passes", [])]
    auction = hand.get("auction")
    if auction is not None:
        records += [DecisionRecord("bid", "bid", bid) for bid in auction.get("bids", [])]
        records.append(DecisionRecord("naming", "naming", auction["naming"]))
    records += [DecisionRecord("reveal", "face down", shown) for shown in hand.get("reveals", [])]
    for number, trick in enumerate(hand.get("tricks", []), 1):
        records += [DecisionRecord("play", f"trick {number}", play) for play in trick["plays"]]
    for number, multi in enumerate(hand.get("multi_rounds", []), 1):
        records += [
            DecisionRecord("play", f"multi-round {number}", play) for play in multi["plays"]
        ]
    records += [DecisionRecord(d["kind"], d["kind"], d) for d in hand.get("decisions", [])]
    return records


class HandScore(NamedTuple):
    """One hand's scores as both versions record them, for a score sheet."""

    game: int
    """The game's `index`."""
    seating: tuple[int, ...]
    """The game's seating: `seating[seat]` is the entrant in that seat."""
    number: int
    pass_direction: str
    points: tuple[int, ...]
    """By seat, as `totals`."""
    totals: tuple[int, ...]


def hand_scores(replay: Mapping[str, Any]) -> list[HandScore]:
    """Every hand's points and running totals, in match order, from a replay of either
    version as loaded: both keep them under the same keys, so no engine is needed (who
    shot the moon is v1's alone: `replay_view.shooters`). Raises KeyError or TypeError
    where the document lacks them."""
    return [
        HandScore(
            game["index"],
            tuple(game["seating"]),
            hand["number"],
            hand["pass_direction"],
            tuple(hand["points"]),
            tuple(hand["totals"]),
        )
        for game in replay.get("games", [])
        for hand in game["hands"]
    ]
