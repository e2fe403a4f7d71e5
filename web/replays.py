"""A match's replay for the site: loaded from the store, cut to what the viewer may read,
and summed up as a score sheet.

The store holds replays of either version (`arena.match.replay` reads both). The match
page reads what both keep under the same keys (each hand's points and totals, the faults,
the result's moons) straight from the stored document; only the viewer's JSON needs v1's
layout, which a v2 document gives by a pass through the engine (`replay_view.readable`).

The replay as stored holds every bot's own output (`logs`), the text of each fault
(`faults[].detail`, which can quote a bot's exception) and the notes a bot attached to its
decisions (`note`, beside each decision). Those belong to the bot's owner and the admins:
`redact` blanks them for everyone else, and keeps the rest, which is the public record of
the game (the fault's kind, place and the card played instead; how many notes were kept).
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable, Collection
from typing import Any, Final

from sqlalchemy import select
from sqlalchemy.orm import Session

from arena.match import replay_view
from arena.match.replay import decision_records, hand_scores, loads
from arena.store.models import Bot, BotVersion, Match, MatchSeat, Replay, User

HIDDEN_DETAIL: Final = "(visible to the bot's owner)"


def stored_replay(session: Session, match_id: int) -> dict[str, Any] | None:
    """The match's replay as stored (either version), or None when it has none (yet):
    what the match page's score sheet and faults and a bot's log page read.

    Raises arena.match.replay.ReplayError when the stored bytes are not a readable replay.
    """
    content = session.scalar(select(Replay.content).where(Replay.match_id == match_id))
    return None if content is None else loads(content)


def replay_document(session: Session, match_id: int) -> dict[str, Any] | None:
    """The match's replay in v1's layout (what the viewer draws and the download gives),
    or None when it has none (yet): a v1 row as it is, a v2 one re-played into v1's
    layout (`arena.match.replay_view`).

    Raises arena.match.replay.ReplayError when the stored bytes are not a readable replay.
    """
    replay = stored_replay(session, match_id)
    return None if replay is None else replay_view.readable(replay)


def owned_entrants(session: Session, match: Match, user: User | None) -> frozenset[int]:
    """The entrants (seat numbers of the match) whose logs `user` may read."""
    if user is None:
        return frozenset()
    if user.is_admin:
        return frozenset(seat.seat for seat in match.seats)
    owners = dict(
        session.execute(
            select(MatchSeat.seat, Bot.owner_id)
            .join(BotVersion, BotVersion.id == MatchSeat.bot_version_id)
            .join(Bot, Bot.id == BotVersion.bot_id)
            .where(MatchSeat.match_id == match.id)
        ).all()
    )
    return frozenset(seat for seat, owner in owners.items() if owner == user.id)


def redact(replay: dict[str, Any], readable: Collection[int]) -> dict[str, Any]:
    """A copy of `replay` with the logs, fault texts and decision notes of other entrants
    blanked (a note is removed; `replay` itself is left as it was)."""
    result = dict(replay)
    result["games"] = [_without_notes(game, readable) for game in replay.get("games", [])]
    result["logs"] = [
        log if index in readable else "" for index, log in enumerate(replay.get("logs", []))
    ]
    result["faults"] = readable_faults(replay, readable)
    return result


def _without_notes(game: dict[str, Any], readable: Collection[int]) -> dict[str, Any]:
    """The game, its hands copied (only as deep as a decision record) where one holds a
    note of an entrant outside `readable`; the game itself when it holds none."""
    seating: list[int] = game.get("seating", [])

    def hidden(record: dict[str, Any]) -> bool:
        return "note" in record and seating[record["seat"]] not in readable

    if not any(
        hidden(decision.record)
        for hand in game.get("hands", [])
        for decision in decision_records(hand)
    ):
        return game
    return {**game, "hands": [_copy_without(hand, hidden) for hand in game["hands"]]}


def _copy_without(node: Any, hidden: Callable[[dict[str, Any]], bool]) -> Any:
    """A copy of a hand's record (dicts and lists) with `note` removed from the records
    `hidden` says to hide; cards and numbers shared, not copied."""
    if isinstance(node, dict):
        copied = {key: _copy_without(value, hidden) for key, value in node.items()}
        if "seat" in node and hidden(node):
            del copied["note"]
        return copied
    if isinstance(node, list):
        return [_copy_without(item, hidden) for item in node]
    return node


@dataclasses.dataclass(frozen=True)
class SheetRow:
    """One hand on the score sheet: points and running totals, by entrant."""

    game: int
    hand: int
    pass_direction: str
    points: tuple[int, ...]
    totals: tuple[int, ...]
    moon: int | None  # the entrant who shot the moon


def score_sheet(replay: dict[str, Any]) -> list[SheetRow]:
    """Every hand's points and totals, columns by entrant (seats mapped through seating),
    from a replay of either version as loaded (`replay.hand_scores`; who shot the moon:
    `replay_view.shooters`, which re-plays a v2 document only when its result counts a
    moon).

    Raises arena.match.replay.ReplayError for a v2 document that does not re-play."""
    moons = [moon for game in replay_view.shooters(replay) for moon in game]
    rows = []
    for score, moon in zip(hand_scores(replay), moons, strict=True):
        seating = score.seating
        entrant_seat = {entrant: seat for seat, entrant in enumerate(seating)}
        order = [entrant_seat[e] for e in range(len(seating))]
        rows.append(
            SheetRow(
                game=score.game,
                hand=score.number,
                pass_direction=score.pass_direction,
                points=tuple(score.points[seat] for seat in order),
                totals=tuple(score.totals[seat] for seat in order),
                moon=None if moon is None else seating[moon],
            )
        )
    return rows


def readable_faults(replay: dict[str, Any], readable: Collection[int]) -> list[dict[str, Any]]:
    """The faults in match order (copies: the template may add to them), the detail of
    each of an entrant outside `readable` blanked; from a replay of either version."""
    return [
        copy.deepcopy(fault)
        if fault.get("entrant") in readable
        else {**fault, "detail": HIDDEN_DETAIL}
        for fault in replay.get("faults", [])
    ]
