"""The rehearsal's checks, read back from the database once the season and its final are
over: every scheduled match recorded exactly once (done, one replay, rated once), every
replay verifying through the engine with the seats' stored scores, the faults counted
by kind, and the standings' order against the truth (`arena.benchmarks.rehearsal`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from arena.benchmarks.rehearsal import EntrantPlan, agreement, true_order
from arena.match import replay as replay_io
from arena.match.replay_v2 import ReplayV2, verify_v2
from arena.match.verify import ReplayMismatchError
from arena.store.models import (
    Bot,
    BotVersion,
    Match,
    MatchSeat,
    MatchStatus,
    RatingChange,
    Replay,
    SeasonEntry,
    VersionStatus,
)

from .rehearsal_figures import FinalRow, RehearsalFigures


def collect(
    sessions: sessionmaker[Session],
    plans: Sequence[EntrantPlan],
    season_id: int,
    scheduled: list[int],
    final_id: int | None = None,
) -> RehearsalFigures:
    """The checks and figures read back from the database once the season (and its final)
    is finished. The final's matches are outside the season (unrated): every one of its
    tables must be done and verify too."""
    by_name = {plan.name: plan for plan in plans}
    final_matches: set[int] = set()
    final_rows: list[FinalRow] = []
    final_order: list[str] = []
    with sessions() as session:
        if final_id is not None:
            final_matches, final_rows = final_standings(session, final_id, by_name)
            final_order = [row.name for row in final_rows]
        matches = session.execute(
            select(Match.id, Match.status, Match.hands_played).where(Match.season_id == season_id)
        ).all()
        times = session.execute(
            select(Match.created_at, Match.started_at, Match.finished_at).where(
                Match.season_id == season_id, Match.status == MatchStatus.DONE
            )
        ).all()
        validations = session.execute(
            select(BotVersion.created_at, BotVersion.status_changed_at)
            .join(Bot, Bot.id == BotVersion.bot_id)
            .where(Bot.is_house.is_(False), BotVersion.status == VersionStatus.READY)
        ).all()
        seats = session.execute(
            select(MatchSeat.match_id, MatchSeat.seat, MatchSeat.score, Bot.name)
            .join(BotVersion, BotVersion.id == MatchSeat.bot_version_id)
            .join(Bot, Bot.id == BotVersion.bot_id)
            .join(Match, Match.id == MatchSeat.match_id)
            .where((Match.season_id == season_id) | Match.id.in_(final_matches))
        ).all()
        final_statuses = Counter(
            str(status.value)
            for status in session.scalars(select(Match.status).where(Match.id.in_(final_matches)))
        )
        changes = dict(
            session.execute(
                select(RatingChange.match_id, func.count())
                .where(RatingChange.season_id == season_id)
                .group_by(RatingChange.match_id)
            ).all()
        )
        replays = dict(
            session.execute(
                select(Replay.match_id, func.count())
                .join(Match)
                .where((Match.season_id == season_id) | Match.id.in_(final_matches))
                .group_by(Replay.match_id)
            ).all()
        )
        entries = session.execute(
            select(SeasonEntry, Bot.name, BotVersion.number)
            .join(BotVersion, BotVersion.id == SeasonEntry.bot_version_id)
            .join(Bot, Bot.id == BotVersion.bot_id)
            .where(SeasonEntry.season_id == season_id, SeasonEntry.active.is_(True))
        ).all()
        games = session.scalar(
            select(func.sum(SeasonEntry.final_games)).where(SeasonEntry.season_id == season_id)
        )
    statuses = Counter(str(status.value) for _, status, _ in matches)
    done = {match_id for match_id, status, _ in matches if status is MatchStatus.DONE}
    seat_names: dict[int, dict[int, str]] = {}
    seat_scores: dict[int, dict[int, int | None]] = {}
    for match_id, seat, score, name in seats:
        seat_names.setdefault(match_id, {})[seat] = name
        seat_scores.setdefault(match_id, {})[seat] = score
    duplicates = []
    if len(scheduled) != len(set(scheduled)) or set(scheduled) != {m for m, _, _ in matches}:
        duplicates.append("the season's matches are not the scheduled ones, once each")
    for match_id in sorted(done):
        if replays.get(match_id, 0) != 1:
            duplicates.append(f"match {match_id}: {replays.get(match_id, 0)} replays")
        if changes.get(match_id, 0) != len(seat_names.get(match_id, {})):
            duplicates.append(
                f"match {match_id}: rated {changes.get(match_id, 0)} times for its seats"
            )
    if games is not None and games != sum(len(seat_names.get(m, {})) for m in done):
        duplicates.append(f"the entries' games add up to {games}, not 4 per match")
    if final_id is not None and final_statuses != {"done": len(final_matches)}:
        duplicates.append(f"the final's tables' matches: {dict(final_statuses)}")
    for match_id in sorted(final_matches):
        if replays.get(match_id, 0) != 1:
            duplicates.append(f"final match {match_id}: {replays.get(match_id, 0)} replays")
    faults: Counter[str] = Counter()
    faulted: Counter[str] = Counter()
    by_entrant: Counter[str] = Counter()
    verified = 0
    failures = []
    for match_id in sorted(done | final_matches):
        with sessions() as session:
            content = session.scalar(select(Replay.content).where(Replay.match_id == match_id))
        if content is None:
            failures.append(f"match {match_id}: no replay")
            continue
        try:
            document = replay_io.loads(content, (2,))
            verify_v2(ReplayV2.from_dict(document))
        except (ReplayMismatchError, ValueError, KeyError) as error:
            failures.append(f"match {match_id}: {error}")
            continue
        results = document["result"]["entrants"]
        totals = {int(r["entrant"]): r["score"] for r in results}
        stored = seat_scores.get(match_id, {})
        if totals != stored:
            failures.append(f"match {match_id}: replay scores {totals}, stored {stored}")
            continue
        verified += 1
        kinds = Counter(str(fault.get("kind")) for fault in document.get("faults", ()))
        faults.update(kinds)
        faulted.update(kinds.keys())
        for fault in document.get("faults", ()):
            by_entrant[seat_names[match_id].get(int(fault.get("entrant", -1)), "?")] += 1
    final = []
    for entry, name, number in entries:
        final.append(
            FinalRow.of(
                by_name[name],
                version=number,
                rank=entry.final_rank,
                points=entry.final_points,
                low=entry.final_low,
                high=entry.final_high,
                games=entry.final_games or 0,
            )
        )
    final.sort(key=lambda row: (row.rank is None, row.rank or 0, row.name))
    sound = set(true_order(plans))
    ranked = [row for row in final if row.name in sound and row.low is not None]
    found = [row.name for row in ranked]
    truth = [name for name in true_order(plans) if name in set(found)]
    judged = (
        agreement(truth, found, {row.name: (row.low or 0.0, row.high or 0.0) for row in ranked})
        if len(truth) >= 2
        else None
    )
    hands = [h for m, _, h in matches if m in done and h]
    final_truth = [name for name in true_order(plans) if name in set(final_order)]
    final_judged = (
        agreement(
            final_truth,
            [name for name in final_order if name in set(final_truth)],
            {row.name: (row.low or 0.0, row.high or 0.0) for row in final_rows},
        )
        if len(final_truth) >= 2
        else None
    )
    return RehearsalFigures(
        entrants=len(plans),
        workers=0,
        broker="",
        database="",
        build_seconds={},
        validation_seconds=0.0,
        season_seconds=0.0,
        scheduled=len(scheduled),
        recorded=len(done),
        statuses=dict(statuses),
        duplicates=duplicates,
        replays_verified=verified,
        replay_failures=failures,
        cpu_per_match={},
        faults=dict(faults),
        faulted_matches=dict(faulted),
        faults_by_entrant=dict(by_entrant),
        round_seconds=[],
        round_matches=[],
        standings=final,
        agreement=judged,
        load=(0.0, 0.0),
        hands_per_match=sum(hands) / len(hands) if hands else 0.0,
        match_seconds=[(f - s).total_seconds() for _, s, f in times if s and f],
        wait_seconds=[(s - c).total_seconds() for c, s, _ in times if s],
        validation_seconds_each=[(d - c).total_seconds() for c, d in validations],
        final=final_rows,
        final_agreement=final_judged,
        final_matches=len(final_matches),
    )


def final_standings(
    session: Session, final_id: int, by_name: dict[str, EntrantPlan]
) -> tuple[set[int], list[FinalRow]]:
    """The final's tables' matches, and its frozen standings as rows (place first)."""
    from arena.store.models import Final, FinalTable

    final = session.get(Final, final_id)
    assert final is not None
    assert final.report is not None
    matches = set(
        session.scalars(
            select(FinalTable.match_id).where(
                FinalTable.final_id == final_id, FinalTable.match_id.is_not(None)
            )
        )
    )
    names = dict(session.execute(select(Bot.id, Bot.name)).all())
    numbers = dict(session.execute(select(BotVersion.id, BotVersion.number)).all())
    rows = []
    for standing in final.report["standings"]:
        rows.append(
            FinalRow.of(
                by_name[names[standing["bot_id"]]],
                version=numbers[standing["bot_version_id"]],
                rank=standing["place"],
                points=standing["points"],
                low=standing["low"],
                high=standing["high"],
                games=standing["tables"],
            )
        )
    rows.sort(key=lambda row: (row.rank or 0, row.name))
    return {m for m in matches if m is not None}, rows
