"""Watching a match as it is played: its live events as server-sent events.

`GET /matches/<id>/live` streams the batches a worker writes (arena/store/live.py), each
as one SSE message (`id:` the batch's id, `data:` a JSON list of events), then an `end`
event once the match is no longer queued or running; the viewer then loads the stored
replay. The stream polls the table (every `LIVE_POLL_SECONDS`) and lasts at most
`LIVE_STREAM_SECONDS`: the browser's EventSource reconnects by itself, sending the last id
it saw (`Last-Event-ID`), and the stream resumes after it. A bounded stream matters with
waitress: each open stream holds one of its threads, so at most `LIVE_MAX_STREAMS` are
open at once (others get 503 and a Retry-After), and none for long. Every request that
takes one of those places gives it back however it ends (`StreamSlot`).

The worker writes a match's events only while someone watches it (arena/store/live.py):
an open stream says so (`watch`) when it starts and every `WATCH_BEAT_SECONDS` while
the match is in flight, and the worker then writes everything the match told so far,
which reaches this stream at its next poll.

What a watcher sees is cut here, per watcher, as the replay is on the match page: no
card of another owner's seat before it is played (their hands, passes, what they were
passed, a kitty, the stock's draws: "XX"), no deal seed (it would give every hand away),
and no bot note but their own bots'. A human table set to show spectators every hand's
cards once it is over (`HumanTable.show_after_hand`, arena/store/people.py) shows them in
the hand's `hand_end` event, its complete record: every seat's deal, passes, what they were
passed, the kitty and the draws of the hand just ended (never its seed or a note); every
event before it, the person's seat included, is cut as any match's (`Cut.shows_hands`).

**Held by another server.** `arena live` (web/crowd.py) serves the same URL on one event
loop, for crowds: it asks this module who the watcher is (`HANDOFF`: the site's own
request handling runs, session cookie, API token and errors included, and `live_response`
hands back a `Watcher` instead of a stream) and cuts with the same `Cut`.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, Final

from flask import Blueprint, Flask, abort, current_app, request
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker
from werkzeug.wrappers import Response

from arena.store.live import WATCH_BEAT_SECONDS, events_after, watch
from arena.store.models import IN_FLIGHT_MATCH_STATUSES, Match, MatchStatus
from arena.store.people import human_table

from . import database
from .auth import current_user
from .loaders import load_match
from .replays import owned_entrants

bp = Blueprint("live", __name__, url_prefix="/matches")

HIDDEN: Final = "XX"
POLL_SECONDS: Final = 0.5
STREAM_SECONDS: Final = 30.0
KEEPALIVE_SECONDS: Final = 10.0
MAX_STREAMS: Final = 4
READ_LIMIT: Final = 100
"""Batches read at most at once (a match played under load may have more: the stream
reads on before it says the match ended)."""
_OPEN = "arena.live.open"
HANDOFF: Final = "arena.live.handoff"
"""A WSGI environ key (no header can set one: theirs are `HTTP_…`): set to True by the
live server before it runs the site's request, it makes `live_response` put the request's
`Watcher` there and answer 200 with no body instead of streaming."""


# -- what a watcher may see -------------------------------------------------------------


def _hide(cards: list[str]) -> list[str]:
    return [HIDDEN] * len(cards)


def redact_decision(
    decision: dict[str, Any], hidden: bool, *, shown: bool = False
) -> dict[str, Any]:
    """A decision record (a play, a pass, a bid…) without its note and draws when `hidden`
    (its draws kept when `shown`: a hand over at a table that shows its cards).

    >>> redact_decision({"seat": 1, "card": "QS", "note": "mine", "drew": ["2C"]}, True)
    {'seat': 1, 'card': 'QS', 'drew': ['XX']}
    >>> redact_decision({"seat": 1, "note": "mine", "drew": ["2C"]}, True, shown=True)
    {'seat': 1, 'drew': ['2C']}
    """
    if not hidden:
        return decision
    result = {key: value for key, value in decision.items() if key != "note"}
    if "drew" in result and not shown:
        result["drew"] = _hide(result["drew"])
    return result


def redact_hand(
    hand: dict[str, Any], hidden: Collection[int], *, shown: bool = False
) -> dict[str, Any]:
    """A hand's record with the cards of the `hidden` seats' hands shown as "XX".

    The cards they play stay (they are on the table); their passes, what they were
    passed, the kitty, the hand's seed and their notes go. When `shown` (the hand is over
    at a table that shows spectators its cards) every card stays; the seed and the hidden
    seats' notes still go.
    """
    cards: Collection[int] = () if shown else hidden
    result = {key: value for key, value in hand.items() if key != "seed"}
    if "deal" in hand:
        result["deal"] = [
            _hide(dealt) if seat in cards else dealt for seat, dealt in enumerate(hand["deal"])
        ]
    if hand.get("kitty") and not shown:
        result["kitty"] = _hide(hand["kitty"])
    if "passes" in hand:
        result["passes"] = _redact_passes(hand["passes"], hidden, shown)
    if "received" in hand:
        result["received"] = _redact_received(hand["received"], cards)
    for key in ("tricks", "multi_rounds"):
        if key in hand:
            result[key] = [_redact_trick(trick, hidden, shown) for trick in hand[key]]
    if "reveals" in hand:
        result["reveals"] = [
            redact_decision(r, r.get("seat") in hidden, shown=shown) for r in hand["reveals"]
        ]
    if hand.get("call"):
        result["call"] = redact_decision(hand["call"], hand.get("dealer") in hidden, shown=shown)
    if hand.get("auction"):
        auction = dict(hand["auction"])
        auction["bids"] = [
            redact_decision(b, b.get("seat") in hidden, shown=shown) for b in auction["bids"]
        ]
        auction["naming"] = redact_decision(
            auction["naming"], auction.get("declarer") in hidden, shown=shown
        )
        result["auction"] = auction
    if hand.get("decisions"):  # kinds v1 files in order (the pledges, the shooter's choice)
        result["decisions"] = [
            redact_decision(d, d.get("seat") in hidden, shown=shown) for d in hand["decisions"]
        ]
    kept = hand.get("kept")
    if kept and kept.get("seat") in cards:
        result["kept"] = {**kept, "cards": _hide(kept["cards"])}
    return result


def _redact_passes(
    passes: list[dict[str, Any]], hidden: Collection[int], shown: bool = False
) -> list[dict[str, Any]]:
    return [
        (
            redact_decision(entry, True, shown=True)
            if shown
            else {**redact_decision(entry, True), "cards": _hide(entry.get("cards") or [])}
        )
        if entry.get("seat") in hidden
        else entry
        for entry in passes
    ]


def _redact_received(received: list[list[str]], hidden: Collection[int]) -> list[list[str]]:
    return [_hide(cards) if seat in hidden else cards for seat, cards in enumerate(received)]


def _redact_trick(
    trick: dict[str, Any], hidden: Collection[int], shown: bool = False
) -> dict[str, Any]:
    plays = [
        redact_decision(play, play.get("seat") in hidden, shown=shown) for play in trick["plays"]
    ]
    return {**trick, "plays": plays}


def redact_event(
    event: dict[str, Any],
    seating: list[int] | None,
    readable: Collection[int],
    *,
    shows_hands: bool = False,
) -> dict[str, Any]:
    """One runner event as a watcher who may read the entrants `readable` may see it.

    `seating` is the game's (seating[seat] = entrant); unknown, every seat is hidden.
    `shows_hands`: the match is a human table that shows spectators every hand's cards
    once it is over; a `hand_end` event (the hand is over) then keeps them all.
    """
    kind = event.get("kind")
    if kind == "match":
        header = {key: value for key, value in event["header"].items() if key != "seed"}
        return {**event, "header": header}
    if seating is None:
        hidden: set[int] = set(range(64))
    else:
        hidden = {seat for seat, entrant in enumerate(seating) if entrant not in readable}
    if kind in ("hand", "hand_end"):
        shown = shows_hands and kind == "hand_end"
        return {**event, "hand": redact_hand(event["hand"], hidden, shown=shown)}
    if kind == "passes":
        return {
            **event,
            "passes": _redact_passes(event["passes"], hidden),
            "received": _redact_received(event["received"], hidden),
        }
    if kind == "play":
        play = event["play"]
        return {**event, "play": redact_decision(play, play.get("seat") in hidden)}
    if kind == "trick":
        return {**event, "record": _redact_trick(event["record"], hidden)}
    return event


# -- the cut of one watcher, batch by batch ---------------------------------------------


@dataclass(frozen=True)
class Watcher:
    """Who watches which match from where: what `live_response` found for a request."""

    match_id: int
    readable: frozenset[int]
    after: int
    shows_hands: bool = False
    """The match is a human table that shows spectators each hand's cards once it is over."""


@dataclass
class Cut:
    """What one watcher may see of each batch, in order: the games' seatings followed as
    the batches tell them (a hand's seats are hidden by their entrant's owner), and, at a
    human table that shows them (`shows_hands`, the same for every watcher of a match),
    every card of a hand once it is over (`redact_event`)."""

    readable: frozenset[int]
    seatings: dict[int, list[int]] = field(default_factory=dict)
    shows_hands: bool = False

    @classmethod
    def started(cls, watcher: Watcher) -> Cut:
        """The cut of a watcher who has no batch yet."""
        return cls(watcher.readable, shows_hands=watcher.shows_hands)

    @classmethod
    def resumed(cls, session: Session, watcher: Watcher) -> Cut:
        """The cut of a watcher who has the batches up to `watcher.after` already."""
        after = watcher.after
        seatings = _seatings(session, watcher.match_id, after) if after else {}
        return cls(watcher.readable, seatings, shows_hands=watcher.shows_hands)

    def follow(self, events: list[dict[str, Any]]) -> None:
        """Take note of the seatings a batch tells (its cut was made for another)."""
        for event in events:
            if event.get("kind") == "game":
                self.seatings[int(event["game"])] = list(event["seating"])

    def batch(self, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The batch's events as this watcher may see them."""
        shown = []
        for event in events:
            if event.get("kind") == "game":
                self.seatings[int(event["game"])] = list(event["seating"])
            game = event.get("game")
            seating = self.seatings.get(int(game)) if game is not None else None
            shown.append(redact_event(event, seating, self.readable, shows_hands=self.shows_hands))
        return shown


# -- the stream --------------------------------------------------------------------------


def _after() -> int:
    """The last batch id the watcher has: `Last-Event-ID` (a reconnection), else ?after=."""
    raw = request.headers.get("Last-Event-ID") or request.args.get("after") or "0"
    if not raw.isdigit() or len(raw) > 18:
        abort(400, f"'after' must be a batch id (a whole number), not {raw[:40]!r}.")
    return int(raw)


def message(data: Any, *, event: str | None = None, event_id: int | str | None = None) -> str:
    """One SSE message: its `event:` and `id:` lines when given, `data:` the JSON of `data`.

    >>> message({"status": "done"}, event="end")
    'event: end\\ndata: {"status":"done"}\\n\\n'
    """
    lines = []
    if event is not None:
        lines.append(f"event: {event}")
    if event_id is not None:
        lines.append(f"id: {event_id}")
    lines.append("data: " + json.dumps(data, separators=(",", ":")))
    return "\n".join(lines) + "\n\n"


def _seatings(session: Session, match_id: int, upto: int) -> dict[int, list[int]]:
    """The games' seatings told by the batches up to id `upto` (a watcher resuming)."""
    found: dict[int, list[int]] = {}
    after = 0
    while after < upto:
        batches = events_after(session, match_id, after, limit=500)
        if not batches:
            break
        for batch_id, events in batches:
            if batch_id > upto:
                return found
            for event in events:
                if event.get("kind") == "game":
                    found[int(event["game"])] = list(event["seating"])
            after = batch_id
    return found


@dataclass(frozen=True)
class Reading:
    """What one read of a stream found: the match's status, the SSE text of what is new
    (taken after the read's session is closed; a lazy iterator may move the stream's
    position on as it goes), and whether a read stopped at its limit (more are waiting)."""

    status: MatchStatus | None
    messages: Iterable[str]
    full: bool = False


def match_status(session: Session, match_id: int) -> MatchStatus | None:
    """The match's status, None for no such match (ends the read transaction)."""
    status = session.scalar(select(Match.status).where(Match.id == match_id))
    session.rollback()
    return status


def paced(
    sessions: sessionmaker[Session],
    match_id: int,
    read: Callable[[Session], Reading],
    *,
    poll: float,
    duration: float,
    keepalive: float,
) -> Iterator[str]:
    """The loop of a stream the site serves itself (a match's, `stream_events`, and a
    person's table's, web/table_live.py): `read` what is new every `poll` seconds and send
    it; say the match is watched while it is in flight (`watch`, every
    `WATCH_BEAT_SECONDS`); send every message before `end` (a full read reads again at
    once), `end` once the match is no longer in flight, a keep-alive comment after
    `keepalive` silent seconds, and stop after `duration` seconds (the browser
    reconnects). Pacing, keep-alives and stopping live here once."""
    yield "retry: 1000\n\n"
    started = last_sent = time.monotonic()
    beat_at: float | None = None
    while True:
        with sessions() as session:
            found = read(session)
            now = time.monotonic()
            in_flight = found.status is not None and found.status in IN_FLIGHT_MATCH_STATUSES
            if in_flight and (beat_at is None or now - beat_at >= WATCH_BEAT_SECONDS):
                watch(session, match_id)  # the worker writes the events while we watch
                beat_at = now
        for text in found.messages:
            yield text
            last_sent = time.monotonic()
        if found.full:
            continue  # more are waiting: send them before any end, at once
        if not in_flight:
            status = found.status
            yield message({"status": "missing" if status is None else status.value}, event="end")
            return
        now = time.monotonic()
        if now - started >= duration:
            return
        if now - last_sent >= keepalive:
            yield ": keep-alive\n\n"
            last_sent = now
        time.sleep(poll)


Batch = tuple[int, list[dict[str, Any]]]
"""A batch of live events as read: (its id, its events)."""


@dataclass
class MatchReads:
    """A match stream's reads (`paced`): its position (`after`, the last batch sent) and
    its watcher's cut, made at the first read (the seatings of the batches the watcher
    has already). A person's table reads the same and its moments (web/table_live.py)."""

    watcher: Watcher
    after: int
    cut: Cut | None = None

    def batches(self, session: Session) -> tuple[Cut, list[Batch]]:
        """The watcher's cut and the batches after the last one sent."""
        if self.cut is None:
            self.cut = Cut.resumed(session, self.watcher)
        return self.cut, events_after(session, self.watcher.match_id, self.after, READ_LIMIT)

    def read(self, session: Session) -> Reading:
        """The batches after the last one sent, and the match's status."""
        cut, batches = self.batches(session)
        status = match_status(session, self.watcher.match_id)
        return Reading(status, self.sent(cut, batches), len(batches) >= READ_LIMIT)

    def sent(self, cut: Cut, batches: list[Batch]) -> Iterator[str]:
        """Each batch's message, cut for the watcher, the position moved on as it goes."""
        for batch_id, events in batches:
            self.after = batch_id
            yield self.batch_message(cut, events)

    def batch_message(self, cut: Cut, events: list[dict[str, Any]]) -> str:
        """The message of the batch `self.after`: its id is the batch's."""
        return message(cut.batch(events), event_id=self.after)


def stream_events(
    sessions: sessionmaker[Session],
    match_id: int,
    readable: Collection[int],
    after: int,
    *,
    poll: float = POLL_SECONDS,
    duration: float = STREAM_SECONDS,
    keepalive: float = KEEPALIVE_SECONDS,
    shows_hands: bool = False,
) -> Iterator[str]:
    """The SSE text of match `match_id`'s events after batch `after`, then `end` once the
    match is over; it stops after `duration` seconds (the browser reconnects).
    `shows_hands`: a human table showing each hand's cards once it is over (`Cut`)."""
    reads = MatchReads(Watcher(match_id, frozenset(readable), after, shows_hands), after)
    yield from paced(
        sessions, match_id, reads.read, poll=poll, duration=duration, keepalive=keepalive
    )


class StreamSlot:
    """One of the `LIVE_MAX_STREAMS` places a stream holds, given back exactly once.

    Why a slot of its own and not a `finally` in the stream's generator: a generator that
    never starts never runs its `finally`. A HEAD request (the server sends no body), a
    watcher gone before the first byte, an error between taking the place and the first
    chunk: each left its place taken for good, and four anonymous HEADs shut every live
    stream of the site until a restart. The response gives the slot back when the server
    closes it (PEP 3333 `close()`, whatever the method or the end), the stream when it
    ends, and `live_response` when it fails before there is a response.
    """

    def __init__(self, app: Flask) -> None:
        self._app = app
        self._held = True

    @classmethod
    def take(cls, app: Flask, limit: int) -> StreamSlot | None:
        """A slot, or None when `limit` streams are open already."""
        with _lock(app):
            open_now = int(app.extensions.get(_OPEN, 0))
            if open_now >= limit:
                return None
            app.extensions[_OPEN] = open_now + 1
        return cls(app)

    def release(self) -> None:
        """Give the place back (once: later calls do nothing)."""
        with _lock(self._app):
            if self._held:
                self._held = False
                self._app.extensions[_OPEN] -= 1


def open_streams(app: Flask) -> int:
    """How many live streams hold a slot now."""
    with _lock(app):
        return int(app.extensions.get(_OPEN, 0))


def _counted(slot: StreamSlot, chunks: Iterator[str]) -> Iterator[str]:
    """`chunks`, holding `slot` until it ends or the watcher leaves."""
    try:
        yield from chunks
    finally:
        slot.release()


def _lock(app: Flask) -> threading.Lock:
    lock: threading.Lock = app.extensions.setdefault("arena.live.lock", threading.Lock())
    return lock


@bp.get("/<int:match_id>/live")
def stream(match_id: int) -> Response:
    """The match's live events as server-sent events (docs/api.md)."""
    return live_response(load_match(match_id))


def live_response(match: Match) -> Response:
    """The SSE stream of `match` for the current watcher (the page's and the API's)."""
    readable = owned_entrants(database.session(), match, current_user())
    after = _after()
    table = human_table(database.session(), match.id)
    shows_hands = table is not None and table.show_after_hand
    watcher = Watcher(match.id, readable, after, shows_hands)
    return held_stream(
        watcher,
        lambda sessions, poll, duration: stream_events(
            sessions,
            match.id,
            readable,
            after,
            poll=poll,
            duration=duration,
            shows_hands=shows_hands,
        ),
    )


Chunks = Callable[[sessionmaker[Session], float, float], Iterator[str]]
"""A stream's SSE text, given the sessions, the poll and the duration (the app's config)."""


def held_stream(watcher: Watcher, chunks_of: Chunks) -> Response:
    """The SSE response of `watcher`'s stream: handed to the live server when it runs this
    request (`HANDOFF`: the watcher is put in the environ, 200 with no body), else served
    here from `chunks_of`, holding one of the `LIVE_MAX_STREAMS` places (503 when none
    is free). The match's stream (`live_response`) and a person's table
    (web/table_live.py) both answer through it."""
    if request.environ.get(HANDOFF) is True:  # the live server streams it (module doc)
        request.environ[HANDOFF] = watcher
        return Response(status=200)
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    config = app.config
    slot = StreamSlot.take(app, int(config.get("LIVE_MAX_STREAMS", MAX_STREAMS)))
    if slot is None:
        response = Response(
            "Too many people are watching live right now; try again shortly.\n",
            status=503,
            mimetype="text/plain",
        )
        response.headers["Retry-After"] = "5"
        return response
    try:
        chunks = chunks_of(
            database.sessions(app),
            config.get("LIVE_POLL_SECONDS", POLL_SECONDS),
            config.get("LIVE_STREAM_SECONDS", STREAM_SECONDS),
        )
        response = Response(_counted(slot, chunks), mimetype="text/event-stream")
        response.call_on_close(slot.release)  # also when the body is never iterated
    except BaseException:
        slot.release()
        raise
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Accel-Buffering"] = "no"  # a proxy in front must not buffer it
    return response
