"""Human tables in the store (arena/store/people.py), on SQLite and PostgreSQL: what makes a
table, the desk the worker asks through and the answer the site writes into it, a
person's tables, and the human ladder kept apart from the bots' ratings."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy.orm import Session, sessionmaker

from arena.engine import preset
from arena.store.accounts import create_user
from arena.store.bots import add_version, create_bot, ensure_house_bots
from arena.store.database import write_transaction
from arena.store.models import BotVersion, Match, MatchStatus
from arena.store.people import (
    TableDesk,
    TableError,
    answer_moment,
    create_table,
    human_ladder,
    moments_after,
    person_version,
    tables_of,
)
from arena.store.types import utc_now

RULES = preset("standard").replace(max_hands=1)


def house(session: Session) -> list[BotVersion]:
    versions = {v.bot.name: v for v in ensure_house_bots(session)}
    return [versions["heuristic-1"], versions["random-1"], versions["heuristic-2"]]


def test_a_table_is_an_unrated_queued_match_with_the_person_bot_at_the_persons_seat(
    sessions: sessionmaker[Session],
) -> None:
    with sessions() as session, write_transaction(session):
        person = create_user(session, "erin", None)
        bots = house(session)
        match = create_table(session, person, bots, RULES, seat=2, per_decision=30)
        seats = [seat.bot_version_id for seat in match.seats]
        assert match.season_id is None and match.status is MatchStatus.QUEUED
        assert seats == [bots[0].id, bots[1].id, person_version(session).id, bots[2].id]
        assert [line.match_id for line in tables_of(session, person.id)] == [match.id]
        with pytest.raises(TableError, match=f"at table {match.id} already"):
            create_table(session, person, bots, RULES)  # one table at a time


@pytest.mark.parametrize(
    ("change", "says"),
    [
        ({"opponents": 2}, "needs 3 bots"),
        ({"seat": 4}, "seat 4"),
        ({"per_decision": 1.0}, "clock"),
        ({"per_decision": 1000.0}, "clock"),
        ({"twice": True}, "only once"),
        ({"pending": True}, "not ready"),
        ({"person_bot": True}, "not a bot"),
    ],
)
def test_a_table_that_cannot_be_made_says_why(
    sessions: sessionmaker[Session], change: dict[str, object], says: str
) -> None:
    with sessions() as session, write_transaction(session):
        person = create_user(session, "frank", None)
        bots = house(session)
        if change.get("twice"):
            bots[2] = bots[1]
        if change.get("pending"):
            bots[2] = add_version(session, create_bot(session, person, "wip"), b"x")
        if change.get("person_bot"):
            bots[2] = person_version(session)
        opponents = bots[: int(change.get("opponents", 3))]  # type: ignore[call-overload]
        with pytest.raises(TableError, match=says):
            create_table(
                session,
                person,
                opponents,
                RULES,
                seat=int(change.get("seat", 0)),  # type: ignore[call-overload]
                per_decision=float(change.get("per_decision", 30.0)),  # type: ignore[arg-type]
            )


def test_the_desk_reads_the_answer_the_site_wrote_once_and_only_in_time(
    sessions: sessionmaker[Session],
) -> None:
    with sessions() as session, write_transaction(session):
        person = create_user(session, "gina", None)
        match_id = create_table(session, person, house(session), RULES).id
    desk = TableDesk(sessions, match_id)
    assert desk.tell("deal", {"view": {"hand": ["QS"]}}) == 1
    asked = desk.ask({"ask": {"kind": "play"}}, utc_now() + timedelta(seconds=30))
    assert desk.answer(asked) == (False, None)
    with sessions() as session:
        with pytest.raises(TableError, match="not a decision"):
            answer_moment(session, match_id, 1, {"cards": ["QS"]}, now=utc_now())
        answer_moment(session, match_id, asked, {"cards": ["QS"]}, now=utc_now())
        with pytest.raises(TableError, match="answered already"):
            answer_moment(session, match_id, asked, {"cards": ["QS"]}, now=utc_now())
    assert desk.answer(asked) == (True, {"cards": ["QS"]})
    late = desk.ask({"ask": {"kind": "play"}}, utc_now() - timedelta(seconds=1))
    with sessions() as session, pytest.raises(TableError, match="clock ran out"):
        answer_moment(session, match_id, late, {"cards": ["QS"]}, now=utc_now())
    desk.clear()  # the match starts again: its moments go, the new ones numbered after
    assert desk.tell("deal", {}) == late + 1
    with sessions() as session:
        assert [m.number for m in moments_after(session, match_id)] == [late + 1]


def test_the_human_ladder_rates_people_by_their_finished_tables_only(
    sessions: sessionmaker[Session],
) -> None:
    with sessions() as session, write_transaction(session):
        winner = create_user(session, "hana", None)
        loser = create_user(session, "ivan", None)
        bots = house(session)
        finished = []
        for person, place in ((winner, 1), (loser, 4), (winner, 1)):
            match = create_table(session, person, bots, RULES)
            match.status = MatchStatus.DONE
            match.finished_at = utc_now()
            others = iter(p for p in (1, 2, 3, 4) if p != place)
            for seat in match.seats:
                seat.rank = place if seat.seat == 0 else next(others)
            finished.append(match.id)
        create_table(session, loser, bots, RULES)  # queued: not on the ladder
        ids = (winner.id, loser.id)
    with sessions() as session:
        rows = human_ladder(session)
        assert [row.user_id for row in rows] == list(ids)
        assert [(row.games, row.wins) for row in rows] == [(2, 2), (1, 0)]
        assert rows[0].elo > 1500 > rows[1].elo
        # the bots' season ratings are not touched: no match of a table is rated
        assert all(session.get(Match, m).rating_seq is None for m in finished)  # type: ignore[union-attr]
