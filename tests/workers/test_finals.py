"""Finals run by the workers' own code: eight demo players' versions frozen at the deadline,
a balanced round robin of duplicate sets played to the end, its standings and tied places,
and every pair of finalists met equally often at every relative seat.

The first test drives the beat's step and the match task in this process (the worker
share checked at every step); the second runs it on the local platform's processes: two
`arena worker`s and `arena beat` on a Redis of the test's own.
"""

from __future__ import annotations

import dataclasses
import itertools
from datetime import timedelta

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from arena.engine import preset
from arena.match import replay as replay_io
from arena.match.replay_v2 import ReplayV2, verify_v2
from arena.seasons.designs import balanced_design, relative_seats
from arena.seasons.finals import advance_final, create_final, entrants, progress, tables
from arena.store.bots import add_version, house_manifest, set_version_status
from arena.store.database import write_transaction
from arena.store.models import (
    IN_FLIGHT_MATCH_STATUSES,
    Bot,
    Final,
    FinalFormat,
    FinalStatus,
    FinalTable,
    Match,
    MatchFormat,
    MatchStatus,
    Replay,
    VersionStatus,
)
from arena.store.types import utc_now
from tests.workers.processes import Processes, wait_until
from tests.workers.test_integration import env, private_redis, procs, wait_for_workers
from web import create_app
from workers import matches as match_tasks
from workers.config import Settings
from workers.seed import ensure_demo_players

__all__ = ["env", "private_redis", "procs"]  # the platform fixtures, used here too

PLAYERS = (("heuristic", 4), ("random", 4))
SHORT = dataclasses.replace(preset("standard"), target_score=None, max_hands=1)
"""One hand per game: a duplicate set is four hands, so 28 tables stay quick."""


def make_final(sessions: sessionmaker[Session], *, share: int, name: str = "final") -> int:
    with sessions() as session, write_transaction(session):
        versions = ensure_demo_players(session, PLAYERS)
        bots = [v.bot_id for v in versions]
        final = create_final(
            session,
            name=name,
            rules=SHORT,
            bots=bots,
            freeze_at=utc_now() + timedelta(seconds=2),
            worker_share=share,
        )
        return final.id


def check_finished(sessions: sessionmaker[Session], final_id: int) -> None:
    """Every table done once, the versions the ones frozen, the balance exact, the
    standings' tie groups the places the report calls tied, every replay verified."""
    with sessions() as session:
        final = session.get(Final, final_id)
        assert final is not None and final.status is FinalStatus.FINISHED, final
        schedule = tables(session, final_id)
        design = balanced_design(8)
        assert len(schedule) == len(design.tables) * final.cycles
        frozen = {e.number: e.bot_version_id for e in entrants(session, final_id)}
        assert None not in frozen.values()
        for table in schedule:
            match = session.get(Match, table.match_id)
            assert match is not None and match.status is MatchStatus.DONE
            assert match.format is MatchFormat.DUPLICATE and match.season_id is None
            assert [s.bot_version_id for s in match.seats] == [frozen[n] for n in table.seats]
            content = session.scalar(select(Replay.content).where(Replay.match_id == match.id))
            assert content is not None
            verify_v2(ReplayV2.from_dict(replay_io.loads(content, (2,))))
        counts = relative_seats([t.seats for t in schedule])
        meetings = {
            counts[(a, b, d)] for a in range(8) for b in range(8) if a != b for d in (1, 2, 3)
        }
        assert meetings == {design.lam * final.cycles}  # every pair, every relative seat
        report = final.report
        assert report is not None
        assert report["balance"]["done_balanced"] and report["balance"]["counts"] == sorted(
            meetings
        )
        places = report["standings"]
        assert [p["place"] for p in places] == list(range(1, 9))
        assert {p["bot_version_id"] for p in places} == set(frozen.values())
        tied = [
            list(range(p["tie_first"], p["tie_last"] + 1))
            for p in places
            if p["tie_first"] != p["tie_last"]
        ]
        assert report["tied"] == sorted({tuple(g): g for g in tied}.values())
        for above, below in itertools.pairwise(places):
            separated = above["high"] < below["low"]
            assert separated == (above["tie_last"] < below["place"]), (above, below)
        print(
            "final standings:",
            [(p["place"], p["bot_version_id"], round(p["points"], 2)) for p in places],
            "tied:",
            report["tied"],
        )


def test_a_final_of_eight_frozen_entrants_runs_to_the_end_within_its_worker_share(
    settings: Settings, sessions: sessionmaker[Session]
) -> None:
    final_id = make_final(sessions, share=2)
    with sessions() as session:
        assert advance_final(session, final_id).released == ()  # not frozen yet
        late_bot = session.scalars(select(Bot).where(Bot.name == "demo-heuristic-1")).one()
    report = advance_final(sessions(), final_id, now=utc_now() + timedelta(seconds=3))
    assert len(report.released) == 2
    with sessions() as session, write_transaction(session):  # an upload after the deadline
        bot = session.get(Bot, late_bot.id)
        assert bot is not None
        late = add_version(session, bot, house_manifest("heuristic", 999))
        set_version_status(session, late, VersionStatus.VALIDATING)
        set_version_status(session, late, VersionStatus.READY, reason="after the deadline")
        late_id = late.id
    steps = 0
    while True:
        with sessions() as session:
            status = session.get(Final, final_id, populate_existing=True)
            assert status is not None
            if status.status is FinalStatus.FINISHED:
                break
            flying = session.scalar(
                select(func.count())
                .select_from(FinalTable)
                .join(Match, Match.id == FinalTable.match_id)
                .where(FinalTable.final_id == final_id, Match.status.in_(IN_FLIGHT_MATCH_STATUSES))
            )
            assert (flying or 0) <= 2  # never more than the worker share in flight
            queued = list(
                session.scalars(
                    select(Match.id)
                    .join(FinalTable, FinalTable.match_id == Match.id)
                    .where(FinalTable.final_id == final_id, Match.status == MatchStatus.QUEUED)
                )
            )
        for match_id in queued:
            assert match_tasks.execute_match(match_id).status == "done"
        advance_final(sessions(), final_id)
        steps += 1
        assert steps < 200
    check_finished(sessions, final_id)
    with sessions() as session:
        assert late_id not in {e.bot_version_id for e in entrants(session, final_id)}
        assert progress(session, final_id).done == len(balanced_design(8).tables)
        finished = session.get(Final, final_id)
        assert finished is not None
        stored = finished.report
    assert stored is not None
    # the site shows the same standings and tied places
    site = create_app({"DATABASE_URL": settings.database_url, "TESTING": True})
    client = site.test_client()
    data = client.get(f"/api/v1/finals/{final_id}").get_json()
    assert data["status"] == "finished" and data["tied"] == stored["tied"]
    assert [line["place"] for line in data["standings"]] == list(range(1, 9))
    assert data["balance"]["done_balanced"] and data["progress"]["waiting"] == 0
    page = client.get(f"/finals/{final_id}").get_data(as_text=True)
    for group in stored["tied"]:
        assert f"{group[0]}\u2013{group[-1]}" in page
    assert "the tables played so far are balanced" in page
    a_table = client.get(f"/matches/{tables(sessions(), final_id)[0].match_id}")
    assert "a final's table" in a_table.get_data(as_text=True)  # not "Challenge"


def test_a_knockout_of_eight_sends_the_top_two_of_each_table_to_the_last_table(
    settings: Settings, sessions: sessionmaker[Session]
) -> None:
    with sessions() as session, write_transaction(session):
        versions = ensure_demo_players(session, PLAYERS)
        final_id = create_final(
            session,
            name="exhibition",
            rules=SHORT,
            bots=[v.bot_id for v in versions],
            freeze_at=utc_now(),
            format=FinalFormat.KNOCKOUT,
            worker_share=2,
        ).id
    for _ in range(20):
        report = advance_final(sessions(), final_id)
        if report.finished:
            break
        for match_id in report.released:
            assert match_tasks.execute_match(match_id).status == "done"
    with sessions() as session:
        final = session.get(Final, final_id)
        assert final is not None and final.status is FinalStatus.FINISHED
        schedule = tables(session, final_id)
        assert [t.stage for t in schedule] == [0, 0, 1]
        first_round = {t.number: t for t in schedule if t.stage == 0}
        numbers = {e.bot_version_id: e.number for e in entrants(session, final_id)}
        going_on = set()
        for table in first_round.values():
            match = session.get(Match, table.match_id)
            assert match is not None and match.format is MatchFormat.DUPLICATE
            ranked = sorted(match.seats, key=lambda s: (s.score, numbers[s.bot_version_id]))
            going_on |= {numbers[s.bot_version_id] for s in ranked[:2]}
        (last,) = [t for t in schedule if t.stage == 1]
        assert set(last.seats) == going_on
        places = final.report["standings"]  # type: ignore[index]
        assert {p["entrant"] for p in places[:4]} == going_on
        assert len(places) == 8


@pytest.mark.timeout(600)
def test_a_final_runs_to_the_end_on_the_platforms_workers(
    env: dict[str, str], procs: Processes, sessions: sessionmaker[Session]
) -> None:
    final_id = make_final(sessions, share=2, name="platform final")
    procs.worker("w1", env)
    procs.worker("w2", env)
    wait_for_workers(sessions, "w1", "w2")
    procs.beat(env)

    def state() -> str:
        with sessions() as session:
            final = session.get(Final, final_id, populate_existing=True)
            assert final is not None
            return f"{final.status.value}: {progress(session, final_id)}"

    try:
        wait_until(lambda: state().startswith("finished"), 540, "the final to finish")
    except BaseException:
        print("final at the timeout:", state())
        for process in procs.started:
            print(process.name, [e.get("msg") for e in process.log_entries()][-15:])
        raise
    check_finished(sessions, final_id)
