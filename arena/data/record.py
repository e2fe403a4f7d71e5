"""One rated match as the open data publishes it: a JSON line and its per-hand rows.

The line holds the replay v2 document as stored (it verifies as it is: `verify_v2`), what
each seat saw of each hand (the cards dealt, passed and received, so that a reader needs
no engine to know a seat's information), and who played: each entrant's bot, owner and
version, with the archive's SHA-256. What belongs to a bot's owner is taken out
(docs/open-data.md, "What is left out"): every log, the text of every fault (its kind,
place and substitute stay: they are part of the game), and the notes of every bot whose
owner has not opted in (`Bot.notes_public`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Mapping, Sequence
from typing import Any, Final

from arena.match import replay_view
from arena.match.replay_v2 import REPLAY_V2

SCHEMA_VERSION: Final = 1
"""The open data's schema version (docs/open-data.md): a line's fields and the Parquet
columns. A reader refuses a version it does not know; a new field bumps it."""

LINE_KIND: Final = "hearts-arena-open-data/match"
HIDDEN_DETAIL: Final = "(not published: the bot's owner's)"


@dataclasses.dataclass(frozen=True)
class Entrant:
    """Who played as one entrant of a match (entrant i sat at seat i of the first game)."""

    bot_version_id: int
    bot: str
    owner: str
    version: int
    archive_sha256: str
    house: bool
    notes_public: bool

    def to_dict(self, index: int) -> dict[str, Any]:
        return {
            "entrant": index,
            "bot_version_id": self.bot_version_id,
            "bot": self.bot,
            "owner": self.owner,
            "version": self.version,
            "archive_sha256": self.archive_sha256,
            "house": self.house,
            "notes_published": self.notes_public,
        }


@dataclasses.dataclass(frozen=True)
class MatchRow:
    """A stored rated match's own columns."""

    match_id: int
    season_id: int
    round: int | None
    table: int | None
    format: str
    seed: int
    rating_seq: int | None
    finished_at: str | None
    hands_played: int


def public_replay(replay: Mapping[str, Any], notes_from: Collection[int]) -> dict[str, Any]:
    """A copy of a v2 replay with the logs and the fault texts blanked and every note
    removed but those of the entrants in `notes_from` (the stored one is left as it was).

    Raises ValueError for a replay that is not version 2 (the runner writes v2 only).
    """
    if replay.get("version") != REPLAY_V2:
        raise ValueError(f"replay version {replay.get('version')!r}: the open data holds v2")
    result = dict(replay)
    result["logs"] = ["" for _ in replay.get("logs", [])]
    result["faults"] = [
        {**fault, "detail": HIDDEN_DETAIL} if "detail" in fault else dict(fault)
        for fault in replay.get("faults", [])
    ]
    games = []
    for game in replay["games"]:
        seating: list[int] = game["seating"]
        hands = []
        for hand in game["hands"]:
            actions = []
            for action in hand["actions"]:
                hidden = "note" in action and seating[action["seat"]] not in notes_from
                actions.append(
                    {k: v for k, v in action.items() if k != "note"} if hidden else action
                )
            hands.append({**hand, "actions": actions})
        games.append({**game, "hands": hands})
    result["games"] = games
    return result


def seat_views(readable: Mapping[str, Any]) -> list[list[list[dict[str, Any]]]]:
    """Per game, per hand, per seat: the cards it was dealt, passed (in the order given)
    and received, from a replay in v1's layout. A hand without a pass (a hold hand, a
    family with none) has empty `passed` and `received` equal to nothing."""
    games = []
    for game in readable["games"]:
        hands = []
        for hand in game["hands"]:
            deal: Sequence[Sequence[str]] = hand.get("deal", [])
            passed: dict[int, list[str]] = {
                p["seat"]: list(p["cards"]) for p in hand.get("passes", [])
            }
            received: Sequence[Sequence[str]] = hand.get("received") or [[] for _ in deal]
            hands.append(
                [
                    {
                        "seat": seat,
                        "dealt": list(cards),
                        "passed": passed.get(seat, []),
                        "received": list(received[seat]) if seat < len(received) else [],
                    }
                    for seat, cards in enumerate(deal)
                ]
            )
        games.append(hands)
    return games


def match_line(
    row: MatchRow,
    season_name: str,
    entrants: Sequence[Entrant],
    replay: Mapping[str, Any],
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The match's JSON line and its per-hand rows (one per hand played, in order).

    Raises ValueError for a replay that is not v2, replay.ReplayError for one that does
    not re-play (each seat's view comes from re-playing it).
    """
    notes_from = {i for i, entrant in enumerate(entrants) if entrant.notes_public}
    published = public_replay(replay, notes_from)
    readable = replay_view.readable(replay)
    views = seat_views(readable)
    line = {
        "kind": LINE_KIND,
        "schema_version": SCHEMA_VERSION,
        "season": {"id": row.season_id, "name": season_name},
        "match": {
            "id": row.match_id,
            "round": row.round,
            "table": row.table,
            "format": row.format,
            "seed": row.seed,
            "rating_seq": row.rating_seq,
            "finished_at": row.finished_at,
            "hands_played": row.hands_played,
        },
        "entrants": [entrant.to_dict(i) for i, entrant in enumerate(entrants)],
        "seat_views": views,
        "replay": published,
    }
    return line, hand_rows(row, entrants, replay, readable, views)


def hand_rows(
    row: MatchRow,
    entrants: Sequence[Entrant],
    replay: Mapping[str, Any],
    readable: Mapping[str, Any],
    views: Sequence[Sequence[Sequence[Mapping[str, Any]]]],
) -> list[dict[str, Any]]:
    """One row per hand played: the columns of `export.HANDS_SCHEMA`."""
    rows = []
    for g, game in enumerate(replay["games"]):
        seating: list[int] = game["seating"]
        for h, hand in enumerate(game["hands"]):
            laid_out = readable["games"][g]["hands"][h]
            faults = sum(1 for a in hand["actions"] if a.get("fault"))
            rows.append(
                {
                    "season_id": row.season_id,
                    "match_id": row.match_id,
                    "round": row.round,
                    "format": row.format,
                    "game": g,
                    "hand": int(hand["number"]),
                    "hand_seed": int(hand["seed"]),
                    "dealer": int(hand["dealer"]),
                    "pass_direction": str(hand["pass_direction"]),
                    "players": len(seating),
                    "bot_version_ids": [entrants[e].bot_version_id for e in seating],
                    "bots": [_label(entrants[e]) for e in seating],
                    "points": [int(p) for p in hand["points"]],
                    "totals": [int(t) for t in hand["totals"]],
                    "dealt": [list(v["dealt"]) for v in views[g][h]],
                    "passed": [list(v["passed"]) for v in views[g][h]],
                    "received": [list(v["received"]) for v in views[g][h]],
                    "moon": laid_out.get("moon"),
                    "actions": len(hand["actions"]),
                    "faults": faults,
                }
            )
    return rows


def _label(entrant: Entrant) -> str:
    return f"{entrant.owner}/{entrant.bot} v{entrant.version}"
