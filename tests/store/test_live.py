"""Live events in the store: a running match's events written in batches, throttled,
read in order after a batch id, and deleted once the match is stored; on demand, written
only while someone watches, a late watcher getting the whole match so far."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from arena.engine import PRESETS, Rules, RulesError, preset
from arena.match.runner import Entrant, MatchRunner
from arena.match.spec import house_seat, parse_bot_spec
from arena.store.live import (
    WATCH_FRESH_SECONDS,
    LiveEventBatch,
    LiveWatch,
    LiveWriter,
    clear_events,
    events_after,
    watch,
    watched,
)
from arena.store.types import utc_now
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


# -- written only while someone watches ----------------------------------------------------


def _played(rules: Rules, on_event: Callable[[dict[str, Any]], None]) -> None:
    """A match of house bots under `rules`, its events told to `on_event`."""
    entrants = [
        Entrant(f"house {seat}", house_seat(parse_bot_spec("house:random"), seat))
        for seat in range(rules.players)
    ]
    outcome = MatchRunner(rules, entrants, 11, on_event=on_event).run()
    assert not outcome.void, outcome.void_reason


def _stored(session: Session, match_id: int) -> list[dict[str, Any]]:
    session.rollback()
    return [event for _id, events in events_after(session, match_id) for event in events]


def test_a_match_no_one_watches_writes_no_live_events(
    sessions: sessionmaker[Session], session: Session
) -> None:
    match_id = _match(session)
    writer = LiveWriter(sessions, match_id, on_demand=True)
    told: list[str] = []

    def sink(event: dict[str, Any]) -> None:
        told.append(event["kind"])
        writer(event)

    _played(preset("standard"), sink)  # the standard game to 100
    writer.flush()
    assert told.count("hand_end") >= 2 and "play" in told
    assert session.scalar(select(func.count()).select_from(LiveEventBatch)) == 0
    assert writer.looks >= 1  # it did ask whether anyone watched


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_a_watcher_arriving_mid_match_gets_the_whole_match_so_far(
    name: str, sessions: sessionmaker[Session], session: Session
) -> None:
    """Every kind of hand: what an on-demand writer stores from a watcher's arrival on
    (the events it kept uncopied until then, and the rest) is what a writer that copied
    every event as it was told stores. It fails if the runner writes into an event after
    telling it (the writer keeps only a "hand" event's record as a copy)."""
    match_id = _match(session)
    try:
        rules = preset(name).replace(target_score=None, max_hands=2)
    except RulesError:  # chips and the like need a target: two hands of it
        rules = preset(name).replace(max_hands=2)
    told: list[dict[str, Any]] = []
    _played(rules, told.append)
    arrival = len(told) // 2  # mid-match (the same seed tells as many events again)
    writer = LiveWriter(sessions, match_id, on_demand=True, poll=0)
    copied: list[dict[str, Any]] = []  # each event as it was when told
    before: list[int] = []

    def sink(event: dict[str, Any]) -> None:
        copied.append(json.loads(json.dumps(event)))
        if len(copied) == arrival:
            before.append(len(_stored(session, match_id)))
            session.rollback()
            watch(session, match_id)
        writer(event)

    _played(rules, sink)
    writer.flush()
    assert before == [0]  # nothing written before anyone watched
    assert _stored(session, match_id) == copied


def test_the_writer_writes_while_watched_and_stops_when_the_watcher_leaves(
    sessions: sessionmaker[Session], session: Session
) -> None:
    match_id = _match(session)
    clock = Clock()
    writer = LiveWriter(sessions, match_id, interval=0, on_demand=True, poll=0.5, now=clock)
    writer({"kind": "match", "header": {}})
    writer(play(0, "2C"))
    assert _batches(session, match_id) == []
    session.rollback()
    watch(session, match_id)
    writer(play(0, "3C"))  # within the poll interval: not looked yet
    assert _batches(session, match_id) == []
    clock.now = 0.6
    writer(play(0, "4C"))  # looks, sees the watcher, writes the backlog, then goes on
    assert _batches(session, match_id) == [["match", "play", "play"], ["play"]]
    writer(play(0, "5C"))
    assert _batches(session, match_id)[2:] == [["play"]]
    stale = utc_now() - timedelta(seconds=WATCH_FRESH_SECONDS + 1)
    session.rollback()
    watch(session, match_id, now=stale)  # the watcher left: its row aged
    clock.now = 1.2
    writer(play(0, "6C"))
    writer(play(1, "7C"))
    assert _batches(session, match_id)[3:] == []
    assert watched(session, match_id) is False
    session.rollback()
    clear_events(session, match_id)  # a stored match forgets its watchers too
    assert session.scalar(select(func.count()).select_from(LiveWatch)) == 0
