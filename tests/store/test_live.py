"""Live events in the store: a running match's events written in batches, throttled,
read in order after a batch id, and deleted once the match is stored."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from arena.store.live import LiveEventBatch, LiveWriter, clear_events, events_after
from tests.store.factories import queued_match, running_season


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _match(session: Session) -> int:
    season, versions = running_season(session, 4)
    return queued_match(session, season, versions).id


def _batches(session: Session, match_id: int) -> list[list[str]]:
    session.rollback()
    return [[e["kind"] for e in events] for _id, events in events_after(session, match_id)]


def play(trick: int, card: str) -> dict[str, Any]:
    return {"kind": "play", "game": 0, "trick": trick, "play": {"seat": 0, "card": card}}


def test_events_are_written_at_most_once_an_interval_and_at_each_hands_end(
    sessions: sessionmaker[Session], session: Session
) -> None:
    match_id = _match(session)
    clock = Clock()
    writer = LiveWriter(sessions, match_id, interval=0.5, now=clock)
    writer({"kind": "match", "header": {"entrants": []}})
    writer({"kind": "game", "game": 0, "seating": [0, 1, 2, 3]})
    writer(play(0, "2C"))
    assert _batches(session, match_id) == []  # not yet half a second
    clock.now = 0.6
    writer(play(0, "3C"))
    assert _batches(session, match_id) == [["match", "game", "play", "play"]]
    writer(play(0, "4C"))
    writer({"kind": "hand_end", "game": 0, "hand": {}})  # a hand's end is written at once
    assert _batches(session, match_id)[1:] == [["play", "hand_end"]]
    writer(play(1, "5C"))
    writer.flush()
    writer.flush()  # nothing left: no empty batch
    assert _batches(session, match_id)[2:] == [["play"]]


def test_an_event_is_copied_when_told_as_the_runner_goes_on_writing_into_it(
    sessions: sessionmaker[Session], session: Session
) -> None:
    match_id = _match(session)
    writer = LiveWriter(sessions, match_id, interval=60)
    trick: dict[str, Any] = {"leader": 0, "plays": []}
    writer({"kind": "trick", "game": 0, "trick": 0, "record": trick})
    trick["plays"].append({"seat": 0, "card": "2C"})
    writer.flush()
    session.rollback()
    [(_id, events)] = events_after(session, match_id)
    assert events[0]["record"]["plays"] == []


def test_a_new_run_of_the_match_forgets_the_last_runs_events(
    sessions: sessionmaker[Session], session: Session
) -> None:
    match_id = _match(session)
    first = LiveWriter(sessions, match_id, interval=0)
    first({"kind": "match", "header": {}})
    first(play(0, "2C"))
    session.rollback()
    seen = max(batch_id for batch_id, _ in events_after(session, match_id))
    again = LiveWriter(sessions, match_id, interval=0)
    again({"kind": "match", "header": {"run": 2}})
    assert _batches(session, match_id) == [["match"]]
    # Ids are never reused: a watcher who saw the first run resumes after `seen` and
    # still gets the second run.
    [(new_id, events)] = events_after(session, match_id, after=seen)
    assert new_id > seen
    assert events[0]["header"] == {"run": 2}


def test_reading_after_an_id_and_clearing(
    sessions: sessionmaker[Session], session: Session
) -> None:
    match_id = _match(session)
    other = _match_other(session)
    writer = LiveWriter(sessions, match_id, interval=0)
    for card in ("2C", "3C", "4C"):
        writer(play(0, card))
    LiveWriter(sessions, other, interval=0)(play(0, "5C"))
    session.rollback()
    ids = [batch_id for batch_id, _ in events_after(session, match_id)]
    assert len(ids) == 3 and ids == sorted(ids)
    assert [i for i, _ in events_after(session, match_id, after=ids[0], limit=1)] == [ids[1]]
    session.rollback()
    assert clear_events(session, match_id) == 3
    remaining = session.scalar(select(func.count()).select_from(LiveEventBatch))
    assert remaining == 1  # the other match's


def _match_other(session: Session) -> int:
    season, versions = running_season(session, 4, name="autumn")
    return queued_match(session, season, versions).id
