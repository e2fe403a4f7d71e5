"""`arena final`: an organiser creates a final of a season's top bots, freezes it, and
follows its progress and standings from the command line, on SQLite and PostgreSQL."""

from __future__ import annotations

import json
from typing import Any

from click.testing import CliRunner
from sqlalchemy import URL, select
from sqlalchemy.orm import Session, sessionmaker

from arena.cli import main
from arena.seasons.finals import advance_final
from arena.store import record_match_result
from arena.store.models import Bot, Final, FinalStatus, Match, MatchSeat
from tests.store.factories import result_for, running_season


def _run(url: str, *args: str) -> Any:
    return CliRunner().invoke(main, ["final", *args, "--url", url])


def _show(url: str, ref: str) -> dict[str, Any]:
    shown = _run(url, "show", ref, "--json")
    assert shown.exit_code == 0, shown.output
    body: dict[str, Any] = json.loads(shown.output)
    return body


def _play_released(sessions: sessionmaker[Session], final_id: int, rounds: int) -> int:
    """Advance the final as the beat does and record a result for each released match
    (the finalist seated first scores least: a clear order); the matches recorded."""
    recorded = 0
    for _ in range(rounds):
        with sessions() as session:
            released = advance_final(session, final_id).released
            if not released:
                return recorded
            for match_id in released:
                seats = session.scalars(
                    select(MatchSeat.bot_version_id)
                    .where(MatchSeat.match_id == match_id)
                    .order_by(MatchSeat.seat)
                ).all()
                scores = [5 * v for v in seats]  # lower version id: fewer points, better
                session.rollback()  # the result takes the write lock before its first read
                record_match_result(session, match_id, result_for(list(seats), scores))
                recorded += 1
    return recorded


def test_an_organiser_starts_a_round_robin_final_and_follows_it_to_its_standings(
    db_url: URL, sessions: sessionmaker[Session]
) -> None:
    with sessions() as session:
        season, versions = running_season(session, 5, house_bots=False)
        season_id = season.id
        best_first = [
            session.get(Bot, v.bot_id).name  # type: ignore[union-attr]
            for v in sorted(versions, key=lambda v: v.id)
        ]
    url = db_url.render_as_string(hide_password=False)

    needs_a_time = _run(url, "create", "crown", "--season", str(season_id))
    assert needs_a_time.exit_code == 2 and "--freeze-at" in needs_a_time.output
    made = _run(
        url, "create", "crown", "--season", str(season_id), "--top", "5", "--now",
        "--worker-share", "2",
    )  # fmt: skip
    assert made.exit_code == 0, made.output
    assert "5 finalists" in made.output and "running" in made.output
    again = _run(url, "create", "crown", "--season", str(season_id), "--now")
    assert again.exit_code == 1 and "exists" in again.output

    body = _show(url, "crown")
    assert body["status"] == "running" and body["worker_share"] == 2
    assert len(body["finalists"]) == 5 and body["standings"] == []
    tables = body["progress"]["tables"]
    assert tables > 0 and body["progress"]["waiting"] == tables
    assert body["balance"]["schedule_balanced"] is True

    with sessions() as session:
        final_id = session.scalar(select(Final.id).where(Final.name == "crown"))
        assert final_id is not None
        session.rollback()  # advance_final takes the write lock before its first read
        first = advance_final(session, final_id).released
        assert len(first) == 2  # the worker share: two in flight at most
    middle = _show(url, str(final_id))["progress"]
    assert middle["in_flight"] == 2 and middle["waiting"] == tables - 2
    text = _run(url, "show", "crown")
    assert text.exit_code == 0 and f"0/{tables} tables done, 2 in flight" in text.output

    with sessions() as session:  # the first two, then the rest as the beat releases them
        for match_id in first:
            seats = session.scalars(
                select(MatchSeat.bot_version_id)
                .where(MatchSeat.match_id == match_id)
                .order_by(MatchSeat.seat)
            ).all()
            session.rollback()
            record_match_result(session, match_id, result_for(list(seats), [5 * v for v in seats]))
    _play_released(sessions, final_id, rounds=4 * tables)
    with sessions() as session:
        advance_final(session, final_id)  # the last tick finds every table done
        final = session.get(Final, final_id)
        assert final is not None and final.status is FinalStatus.FINISHED

    done = _show(url, "crown")
    assert done["status"] == "finished" and done["progress"]["done"] == done["progress"]["tables"]
    assert [line["place"] for line in done["standings"]] == [1, 2, 3, 4, 5]
    assert [line["bot"] for line in done["standings"]] == best_first  # fewest points first
    assert len(done["balance"]["counts"]) == 1  # every pair met equally in every seat
    listed = _run(url, "list")
    assert listed.exit_code == 0 and "'crown' round_robin finished" in listed.output


def test_a_scheduled_knockout_is_frozen_on_demand_once(
    db_url: URL, sessions: sessionmaker[Session]
) -> None:
    with sessions() as session:
        season, versions = running_season(session, 4, house_bots=False)
        season_id = season.id
        bots = [str(v.bot_id) for v in versions]
    url = db_url.render_as_string(hide_password=False)
    args = ["create", "show-match", "--season", str(season_id), "--format", "knockout"]
    for bot in bots:
        args += ["--bot", bot]
    made = _run(url, *args, "--freeze-at", "2999-01-01T00:00")
    assert made.exit_code == 0, made.output
    assert "scheduled" in made.output
    body = _show(url, "show-match")
    assert body["status"] == "scheduled" and body["progress"]["tables"] == 0
    assert [f["bot_id"] for f in body["finalists"]] == [int(b) for b in bots]

    frozen = _run(url, "freeze", "show-match")
    assert frozen.exit_code == 0 and "frozen and running" in frozen.output
    body = _show(url, "show-match")
    assert body["status"] == "running" and body["progress"]["tables"] == 1
    twice = _run(url, "freeze", "show-match")
    assert twice.exit_code == 1 and "running already" in twice.output
    missing = _run(url, "show", "no-such-final")
    assert missing.exit_code == 1 and "there is no final" in missing.output
    with sessions() as session:
        assert session.scalar(select(Match.id).limit(1)) is None  # the beat releases, not us
