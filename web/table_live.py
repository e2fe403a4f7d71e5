"""A person's table as a stream: the seat's moments and the match's live events, cut for
that seat, as server-sent events (`GET /tables/<id>/live`, web/tables.py).

Why a stream and not only the state's short requests: a card a bot plays is in the match's
live events (arena/store/live.py) as it is played, while the person's moments (a deal, a
decision, a finished trick: arena/store/people.py) say it only at the seat's next moment;
polling `/tables/<id>/state` showed it up to a poll late, and the polls cost a request each.

One stream carries both, in order, each SSE message's `id:` being the position
`"<batch>:<moment>"` (the last live batch id and the last moment number sent), so a
dropped connection resumes after both (`Last-Event-ID`, or `?after=` on the first
connection):

* a message without an event name: a batch of the match's live events, cut by web/live.py's
  `Cut` as for a watcher who may read only the person's own seat (their own deal and
  passes; another seat's card only once it is played, never its hand);
* `event: moment`: a moment of the table as `/tables/<id>/state` answers it (the same
  body: status, seat, number, moment), which holds only that seat's view (the worker never
  writes more);
* `event: end` once the match is over (the page then asks the state for its replay).

`arena live` (web/crowd.py) holds these streams on its event loop when it stands in front
of the site (the site says who may watch through `HANDOFF`, with a `TableWatcher`);
without it the site streams it itself (`stream_table`, one waitress thread per stream,
within `LIVE_MAX_STREAMS`), and the page falls back to polling the state when a stream is
refused.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Final

from flask import abort, request
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from arena.store.models import MatchStatus
from arena.store.people import HumanTable, TableMoment

from .live import (
    KEEPALIVE_SECONDS,
    POLL_SECONDS,
    READ_LIMIT,
    STREAM_SECONDS,
    Batch,
    Cut,
    MatchReads,
    Reading,
    Watcher,
    match_status,
    message,
    paced,
)

MOMENT_LIMIT: Final = 50
"""Moments read at most at once (a reconnection after a long gap reads on)."""


@dataclass(frozen=True)
class TableWatcher(Watcher):
    """The person at their own table: a watcher of the match who may read their seat's
    entrant only, with the last moment of the table they have."""

    moments: int = 0


def position(batch: int, moment: int) -> str:
    """A table stream's SSE id: the last live batch and the last moment sent.

    >>> position(12, 3)
    '12:3'
    """
    return f"{batch}:{moment}"


def read_position(raw: str) -> tuple[int, int]:
    """(batch, moment) of a table stream's id (`position`); a lone number is a batch
    (a stream resumed from a plain live stream's id). Raises ValueError for anything else.

    >>> read_position("12:3"), read_position("7")
    ((12, 3), (7, 0))
    """
    batch, _, moment = raw.partition(":")
    for part in (batch, moment or "0"):
        if not part.isdigit() or len(part) > 18:
            raise ValueError(f"a table stream's position is batch:moment, not {raw[:40]!r}")
    return int(batch), int(moment or "0")


def requested_position() -> tuple[int, int]:
    """The position the person's page has: `Last-Event-ID` (a reconnection), else
    `?after=`; 400 for one that is not batch:moment."""
    raw = request.headers.get("Last-Event-ID") or request.args.get("after") or "0:0"
    try:
        return read_position(raw)
    except ValueError as error:
        abort(400, str(error))


def moment_state(moment: TableMoment | None, now: datetime) -> dict[str, Any] | None:
    """A moment as the person's page reads it: its kind and number, the seat's view, the
    scores, the decision asked (if still waiting for an answer) and its seconds left."""
    if moment is None:
        return None
    payload = moment.payload
    state: dict[str, Any] = {**payload, "number": moment.number, "kind": moment.kind}
    if moment.kind == "ask":
        state["answered"] = moment.answer is not None
        left = (moment.deadline - now).total_seconds() if moment.deadline else None
        state["remaining"] = None if left is None else max(0.0, round(left, 2))
    return state


def moment_body(
    status: MatchStatus | None, seat: int, moment: TableMoment, now: datetime
) -> dict[str, Any]:
    """An `event: moment` message's data: the state endpoint's body for that moment."""
    return {
        "status": None if status is None else status.value,
        "seat": seat,
        "number": moment.number,
        "moment": moment_state(moment, now),
    }


def read_moments(
    session: Session, match_id: int, after: int, limit: int = MOMENT_LIMIT
) -> tuple[int | None, list[TableMoment]]:
    """The person's seat and the table's moments after number `after`, oldest first (the
    seat is None when the match is no human table). Ends the read transaction it opens."""
    seat = session.scalar(select(HumanTable.seat).where(HumanTable.match_id == match_id))
    moments = list(
        session.scalars(
            select(TableMoment)
            .where(TableMoment.match_id == match_id, TableMoment.number > after)
            .order_by(TableMoment.number)
            .limit(limit)
        )
    )
    for moment in moments:  # loaded before the transaction ends (expire on rollback)
        session.expunge(moment)
    session.rollback()
    return seat, moments


def moment_messages(
    status: MatchStatus | None,
    seat: int | None,
    moments: list[TableMoment],
    batch: int,
    now: datetime,
) -> list[tuple[int, str]]:
    """Each moment's SSE message with its position after it: (moment number, text)."""
    if seat is None:
        return []
    return [
        (
            moment.number,
            message(
                moment_body(status, seat, moment, now),
                event="moment",
                event_id=position(batch, moment.number),
            ),
        )
        for moment in moments
    ]


def batch_message(cut: Cut, events: list[dict[str, Any]], batch: int, moment: int) -> str:
    """A batch of live events cut for the person, with its position."""
    return message(cut.batch(events), event_id=position(batch, moment))


@dataclass
class TableReads(MatchReads):
    """A table stream's reads: the match's batches (`MatchReads`, cut for the person's
    seat) and the table's moments after the last one sent (`moment`)."""

    moment: int = 0

    def read(self, session: Session) -> Reading:
        """The batches and moments after the last ones sent, and the match's status."""
        cut, batches = self.batches(session)
        match_id = self.watcher.match_id
        status = match_status(session, match_id)
        seat, moments = read_moments(session, match_id, self.moment)
        full = len(batches) >= READ_LIMIT or len(moments) >= MOMENT_LIMIT
        return Reading(status, self._messages(cut, batches, status, seat, moments), full)

    def batch_message(self, cut: Cut, events: list[dict[str, Any]]) -> str:
        """The batch's message, its id the position after it (`position`)."""
        return batch_message(cut, events, self.after, self.moment)

    def _messages(
        self,
        cut: Cut,
        batches: list[Batch],
        status: MatchStatus | None,
        seat: int | None,
        moments: list[TableMoment],
    ) -> Iterator[str]:
        yield from self.sent(cut, batches)
        now = datetime.now(UTC)
        for number, text in moment_messages(status, seat, moments, self.after, now):
            self.moment = number
            yield text


def stream_table(
    sessions: sessionmaker[Session],
    watcher: TableWatcher,
    *,
    poll: float = POLL_SECONDS,
    duration: float = STREAM_SECONDS,
    keepalive: float = KEEPALIVE_SECONDS,
) -> Iterator[str]:
    """The SSE text of the person's table after `watcher`'s position, then `end` once the
    match is over; it stops after `duration` seconds (the browser reconnects). The site's
    own stream, when no live server stands in front (web/crowd.py serves the same); its
    loop is web/live.py's `paced`, as a match's stream."""
    reads = TableReads(watcher, watcher.after, moment=watcher.moments)
    yield from paced(
        sessions, watcher.match_id, reads.read, poll=poll, duration=duration, keepalive=keepalive
    )
