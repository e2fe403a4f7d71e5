"""The sentence of each decision in a replay, written once, on the server: each kind's room
says it (`arena.engine.phases`, `Room.words`); the text replay prints it, the viewer draws
it (`words` beside each decision of v1's layout), `arena replay ask` quotes it.

>>> sentence("pledge", 2, True)
'seat 2 pledges to take no hearts'
>>> sentence("wager", 1, [3, "QS"])
'seat 1 wager: 3 QS'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from arena.engine import Card
from arena.engine.decisions import DecisionKind
from arena.engine.phases import Show, room_of


def pretty(text: str) -> str:
    """A card's text with its suit's symbol (``Q♠``), as the viewer draws cards."""
    return Card.from_str(text).pretty


def sentence(kind: str, seat: int, value: Any, show: Show = str) -> str:
    """What `seat` did, answering `value` (the replay's JSON form) to a decision of `kind`:
    its room's words; a kind the engine has no room for (a replay from a newer platform)
    as its name and value."""
    try:
        known = DecisionKind(kind)
        room = room_of(known)
    except (ValueError, KeyError):
        shown = " ".join(map(str, value)) if isinstance(value, list) else value
        return f"seat {seat} {kind}: {'none' if shown is None else shown}"
    return room.words(known, seat, value, show)


def call_value(call: Mapping[str, Any]) -> Any:
    """A v1 `call` record's answer in the replay's JSON form."""
    if "count" in call:  # 004 'Passing cards': the dealer called the count too
        return [call["direction"], call["count"]]
    return list(call["split"]) if "split" in call else call["direction"]


def with_words(replay: dict[str, Any], show: Show = pretty) -> dict[str, Any]:
    """`replay` (v1's layout) with each decision's sentence as `words`: the dealer's call,
    the passes, the face-down cards, the bids and the naming, and every decision filed under
    a hand's `decisions`. The games are copied where words are added (the caller's replay
    is left as it was); a card text the sentence cannot draw is left to the viewer."""
    games = []
    for game in replay.get("games", []):
        try:
            hands = [_hand_with_words(hand, show) for hand in game.get("hands", [])]
        except (KeyError, TypeError, AttributeError):  # not v1's layout: left to its reader
            games.append(game)
            continue
        games.append({**game, "hands": hands})
    return {**replay, "games": games} if "games" in replay else replay


def _said(entry: Mapping[str, Any], kind: str, seat: int, value: Any, show: Show) -> dict[str, Any]:
    try:
        return {**entry, "words": sentence(kind, seat, value, show)}
    except (ValueError, KeyError, TypeError, IndexError):  # a value the words cannot read
        return dict(entry)


def _hand_with_words(hand: Mapping[str, Any], show: Show) -> dict[str, Any]:
    done = dict(hand)
    if "call" in hand:
        done["call"] = _said(
            hand["call"], "call", hand.get("dealer", 0), call_value(hand["call"]), show
        )
    if "passes" in hand:
        done["passes"] = [_said(p, "pass", p["seat"], p["cards"], show) for p in hand["passes"]]
    if "reveals" in hand:
        done["reveals"] = [_said(r, "reveal", r["seat"], r["card"], show) for r in hand["reveals"]]
    if "auction" in hand:
        auction = dict(hand["auction"])
        auction["bids"] = [_said(b, "bid", b["seat"], b["bid"], show) for b in auction["bids"]]
        naming = auction["naming"]
        auction["naming"] = _said(naming, "naming", auction["declarer"], naming["suit"], show)
        done["auction"] = auction
    if "decisions" in hand:
        done["decisions"] = [
            _said(d, d["kind"], d["seat"], d.get("value"), show) for d in hand["decisions"]
        ]
    return done


def without_words(node: Any) -> Any:
    """`node` (a replay in v1's layout, or any part of it) without the `words` that
    `with_words` added: what the runner writes, for comparing with it."""
    if isinstance(node, dict):
        return {key: without_words(value) for key, value in node.items() if key != "words"}
    if isinstance(node, list):
        return [without_words(item) for item in node]
    return node
