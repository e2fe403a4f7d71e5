"""A human table in the worker's task (issue 34, item 1): an uploaded bot at the table runs
in the sandbox, validated and started exactly as in any match, beside house bots, while a
person answers through the store (the site's side of it, `answer_moment`, from a thread);
the match is recorded once, unrated, and its replay verifies. A person who lets the clock
run out is faulted with a timeout and the default is played, as a bot would be."""

from __future__ import annotations

import contextlib
import json
import threading
import time
from datetime import datetime
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from arena.engine import preset
from arena.match import replay as replay_io
from arena.match.faults import FaultPolicy
from arena.match.human import check_answer
from arena.match.replay_v2 import ReplayV2, verify_v2
from arena.store.accounts import create_user
from arena.store.bots import add_version, create_bot, ensure_house_bots
from arena.store.database import write_transaction
from arena.store.live import LiveWriter, events_after
from arena.store.models import BotVersion, Match, MatchStatus, Replay
from arena.store.people import (
    TableDesk,
    TableError,
    answer_moment,
    create_table,
    latest_moment,
)
from arena.store.types import utc_now
from tests.workers import bots
from tests.workers.conftest import sandbox_or_skip
from workers import matches as match_tasks
from workers import validation
from workers.config import Settings

pytestmark = pytest.mark.timeout(300)


def uploaded_ready_bot(sessions: sessionmaker[Session]) -> int:
    """A bot uploaded by someone, validated in the sandbox: its ready version's id."""
    with sessions() as session, write_transaction(session):
        owner = create_user(session, "carol", None)
        version_id = add_version(
            session,
            create_bot(session, owner, "firstlegal"),
            bots.zipped({"bot.py": bots.FIRST_LEGAL}),
        ).id
    result = validation.execute_validation(version_id)
    assert result.status == "ready", result
    return version_id


def make_table(sessions: sessionmaker[Session], bot_version_id: int | None, seconds: float) -> int:
    with sessions() as session, write_transaction(session):
        person = create_user(session, "dave", None)
        house = {v.bot.name: v for v in ensure_house_bots(session)}
        others = [house["heuristic-1"], house["random-1"]]
        third = session.get(BotVersion, bot_version_id) if bot_version_id else house["heuristic-2"]
        assert third is not None
        match = create_table(
            session,
            person,
            [third, *others],
            preset("standard").replace(max_hands=1),
            seat=1,
            per_decision=seconds,
        )
        return match.id


def answer_as_the_person(
    sessions: sessionmaker[Session], match_id: int, stop: threading.Event, kinds: list[str]
) -> None:
    """The site's side: answer each decision with the first thing it offers."""
    answered = 0
    while not stop.is_set():
        with sessions() as session:
            moment = latest_moment(session, match_id)
            number, ask = 0, None
            if moment is not None and moment.kind == "ask" and moment.answer is None:
                number, ask = moment.number, moment.payload["ask"]
            session.rollback()  # the write lock is taken before the write's first read
            if ask is not None and number > answered:
                low = ask["pick"][0] if "cards" in ask else 0
                chosen: dict[str, Any] = (
                    {"cards": ask["cards"][: max(low, 1) if low else 0]}
                    if "cards" in ask
                    else {"choice": 0}
                )
                with contextlib.suppress(TableError):
                    answer_moment(
                        session, match_id, number, check_answer(ask, chosen), now=utc_now()
                    )
                answered = number
                kinds.append(ask["kind"])
        time.sleep(0.02)


def played_with_the_person(
    sessions: sessionmaker[Session], match_id: int
) -> tuple[match_tasks.RunSummary, list[str]]:
    """The match task's run of the table while the person answers (`answer_as_the_person`,
    from a thread): its summary and the kinds of decision the person answered."""
    stop, kinds = threading.Event(), list[str]()
    person = threading.Thread(
        target=answer_as_the_person, args=(sessions, match_id, stop, kinds), daemon=True
    )
    person.start()
    try:
        summary = match_tasks.execute_match(match_id)
    finally:
        stop.set()
        person.join(timeout=10)
    return summary, kinds


def stored(sessions: sessionmaker[Session], match_id: int) -> tuple[Match, dict[str, Any]]:
    with sessions() as session:
        match = session.get(Match, match_id)
        assert match is not None
        content = session.scalar(select(Replay.content).where(Replay.match_id == match_id))
        assert content is not None
        session.expunge(match)
    return match, replay_io.loads(content, (2,))


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_a_person_plays_against_a_sandboxed_upload_and_the_match_is_recorded_unrated(
    settings: Settings, sessions: sessionmaker[Session]
) -> None:
    sandbox_or_skip()
    upload_id = uploaded_ready_bot(sessions)
    match_id = make_table(sessions, upload_id, seconds=30)
    summary, kinds = played_with_the_person(sessions, match_id)
    assert (summary.action, summary.status) == ("recorded", "done"), summary
    match, replay = stored(sessions, match_id)
    assert match.status is MatchStatus.DONE and match.rating_seq is None  # unrated
    checked = verify_v2(ReplayV2.from_dict(replay))
    assert checked.hands == 1
    labels = [e["label"] for e in replay["entrants"]]
    assert labels[1] == "dave (a person)" and labels[0].startswith("carol/firstlegal")
    assert replay["faults"] == []
    assert kinds[0] == "pass" and kinds.count("play") == 13


def test_a_person_who_lets_the_clock_run_out_is_faulted_and_the_default_played(
    settings: Settings, sessions: sessionmaker[Session], monkeypatch: pytest.MonkeyPatch
) -> None:
    from arena.store import people

    monkeypatch.setattr(people, "MIN_SECONDS", 0.01)
    match_id = make_table(sessions, None, seconds=0.05)
    summary = match_tasks.execute_match(match_id)  # no one answers
    assert (summary.action, summary.status) == ("recorded", "done"), summary
    _match, replay = stored(sessions, match_id)
    verify_v2(ReplayV2.from_dict(replay))
    faults = replay["faults"]
    assert faults and {f["kind"] for f in faults} == {"timeout"}
    assert {f["seat"] for f in faults} == {1}
    # out of the match after the fault policy's most faults, as a bot: never asked again
    assert len(faults) == FaultPolicy().max_faults
    with sessions() as session:  # the person is told they are out, after the last ask
        moment = latest_moment(session, match_id)
        assert moment is not None and moment.kind == "out"


def test_every_live_event_is_stored_before_the_person_is_asked(
    settings: Settings, sessions: sessionmaker[Session], monkeypatch: pytest.MonkeyPatch
) -> None:
    """No batching where a person plays (workers.matches.live_writer): at each decision
    the person is asked, every event the match told so far is in the live events already,
    a bot's card just played included, though no one streams the table (its page may open
    at any moment). Bot-only matches keep the batching (tests/workers/test_live_events.py)."""
    told: list[dict[str, Any]] = []
    at_asks: list[tuple[int, list[dict[str, Any]]]] = []  # (events told, events stored)

    class Told(LiveWriter):
        def __call__(self, event: dict[str, Any]) -> None:
            told.append(json.loads(json.dumps(event)))  # as it was told
            super().__call__(event)

    class Asked(TableDesk):
        def ask(self, payload: dict[str, Any], deadline: datetime) -> int:
            with self.sessions() as session:
                batches = events_after(session, self.match_id, 0, limit=100_000)
                session.rollback()
            at_asks.append((len(told), [event for _, events in batches for event in events]))
            return super().ask(payload, deadline)

    monkeypatch.setattr(match_tasks, "LiveWriter", Told)
    monkeypatch.setattr(match_tasks, "TableDesk", Asked)
    match_id = make_table(sessions, None, seconds=30)
    summary, kinds = played_with_the_person(sessions, match_id)
    assert (summary.action, summary.status) == ("recorded", "done"), summary
    assert len(at_asks) == len(kinds) == 14  # the pass and the thirteen plays

    def key(event: dict[str, Any]) -> tuple[str, str]:
        # a hand's record grows until the hand ends: the rest of an event is as told
        return event["kind"], "" if event["kind"] == "hand" else json.dumps(event, sort_keys=True)

    for count, stored in at_asks:
        assert [key(e) for e in stored] == [key(e) for e in told[:count]]
    bots_card_last = [
        stored[-1]["play"]["seat"]
        for _, stored in at_asks
        if stored and stored[-1]["kind"] == "play"
    ]
    assert bots_card_last and 1 not in bots_card_last  # the person sits at seat 1
