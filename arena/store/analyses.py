"""The analyses of matches in the store (issue 33): asked, claimed by a worker, advanced,
finished or failed, and summed up per bot over its recent analysed matches.

A row (`MatchAnalysis`) is one match at one depth; it is the cache: asking again for the
same match and depth returns the row there is (a failed one is queued again). The site
writes rows, the dispatcher enqueues the queued ones on the "analysis" queue, a worker
claims one (queued → running, once) and writes its progress and result.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from .models import (
    AnalysisStatus,
    Bot,
    BotVersion,
    Match,
    MatchAnalysis,
    MatchSeat,
)
from .types import utc_now

RECENT_MATCHES = 20
"""The bot page's summary reads this many of the bot's latest analysed matches."""
TAGS = ("queen", "moon")
MARKS = ("blunder", "mistake", "inaccuracy")


def find(
    session: Session,
    match_id: int,
    samples: int,
    playouts: int,
    seed: int,
    hindsight: bool = False,
) -> MatchAnalysis | None:
    """The analysis of `match_id` at that depth (with the hindsight view or without: one
    without it is never the one with it), if asked before."""
    return session.scalar(
        select(MatchAnalysis).where(
            MatchAnalysis.match_id == match_id,
            MatchAnalysis.samples == samples,
            MatchAnalysis.playouts == playouts,
            MatchAnalysis.seed == seed,
            MatchAnalysis.hindsight == hindsight,
        )
    )


def latest(session: Session, match_id: int) -> MatchAnalysis | None:
    """The match's most recently asked analysis (any depth)."""
    return session.scalar(
        select(MatchAnalysis)
        .where(MatchAnalysis.match_id == match_id)
        .order_by(MatchAnalysis.created_at.desc(), MatchAnalysis.id.desc())
        .limit(1)
    )


def request(
    session: Session,
    match_id: int,
    user_id: int | None,
    *,
    samples: int,
    playouts: int,
    seed: int = 0,
    hindsight: bool = False,
    version: int | None = None,
) -> tuple[MatchAnalysis, bool]:
    """The analysis of `match_id` at that depth, and whether this call asked for it (a new
    row, a failed one queued again, or, given the analysis's current layout `version`, a
    done one of another version queued again: it judged less); the caller commits."""
    row = find(session, match_id, samples, playouts, seed, hindsight)
    if (
        row is not None
        and row.status is not AnalysisStatus.FAILED
        and not (version is not None and is_outdated(row, version))
    ):
        return row, False
    if row is None:
        row = MatchAnalysis(
            match_id=match_id,
            samples=samples,
            playouts=playouts,
            seed=seed,
            hindsight=hindsight,
            done=0,
            total=0,
        )
        session.add(row)
    row.status = AnalysisStatus.QUEUED
    row.requested_by = user_id
    row.error = None
    row.created_at = utc_now()
    session.flush()
    return row, True


def is_outdated(row: MatchAnalysis, version: int) -> bool:
    """Whether `row` is a finished analysis whose result has another layout version than
    `version` (`arena.analysis.review.ANALYSIS_VERSION`): made by an analysis that judged
    less (version 1 judged only the plays and passes of the one-pack games)."""
    if row.status is not AnalysisStatus.DONE or not isinstance(row.result, dict):
        return False
    return row.result.get("version") != version


def asked_since(session: Session, user_id: int, since: datetime) -> int:
    """How many analyses `user_id` asked for since `since` (the quota's count)."""
    count = session.scalar(
        select(func.count(MatchAnalysis.id)).where(
            MatchAnalysis.requested_by == user_id, MatchAnalysis.created_at > since
        )
    )
    return int(count or 0)


def queued_ids(session: Session, limit: int = 100) -> list[int]:
    """The oldest queued analyses (what the dispatcher enqueues)."""
    return list(
        session.scalars(
            select(MatchAnalysis.id)
            .where(MatchAnalysis.status == AnalysisStatus.QUEUED)
            .order_by(MatchAnalysis.created_at, MatchAnalysis.id)
            .limit(limit)
        )
    )


def claim(session: Session, analysis_id: int) -> bool:
    """Mark a queued analysis running; False when it is not queued (another worker has
    it, or it is done): an id enqueued twice runs once. The caller commits."""
    claimed = session.execute(
        update(MatchAnalysis)
        .where(MatchAnalysis.id == analysis_id, MatchAnalysis.status == AnalysisStatus.QUEUED)
        .values(status=AnalysisStatus.RUNNING, started_at=utc_now(), done=0)
    )
    return bool(claimed.rowcount)  # type: ignore[attr-defined]


def advance(session: Session, analysis_id: int, done: int, total: int) -> None:
    """Record a running analysis's progress (decisions judged of `total`)."""
    session.execute(
        update(MatchAnalysis).where(MatchAnalysis.id == analysis_id).values(done=done, total=total)
    )


def finish(session: Session, analysis_id: int, result: dict[str, Any]) -> None:
    """Store the result of a running analysis."""
    session.execute(
        update(MatchAnalysis)
        .where(MatchAnalysis.id == analysis_id)
        .values(
            status=AnalysisStatus.DONE,
            result=result,
            finished_at=utc_now(),
            done=MatchAnalysis.total,
        )
    )


def fail(session: Session, analysis_id: int, error: str) -> None:
    """Record why an analysis could not be made (asking again queues it again)."""
    session.execute(
        update(MatchAnalysis)
        .where(MatchAnalysis.id == analysis_id)
        .values(status=AnalysisStatus.FAILED, error=error[:2000], finished_at=utc_now())
    )


def requeue_stalled(session: Session, older_than: timedelta) -> int:
    """Running analyses started longer than `older_than` ago queued again (their worker
    is gone); how many."""
    result = session.execute(
        update(MatchAnalysis)
        .where(
            MatchAnalysis.status == AnalysisStatus.RUNNING,
            MatchAnalysis.started_at < utc_now() - older_than,
        )
        .values(status=AnalysisStatus.QUEUED)
    )
    return int(result.rowcount or 0)  # type: ignore[attr-defined]


def bot_summary(session: Session, bot_id: int, limit: int = RECENT_MATCHES) -> dict[str, Any]:
    """The bot's points lost per hand by phase over its `limit` latest analysed matches
    (each match's newest finished analysis; the bot's entrants in it, weighted by hands),
    with its marks and its worst decisions there. Empty figures when none is analysed.
    The phases are those the analyses name (`arena.analysis.review.PHASES` when they were
    made): a phase one match has and another lacks counts nothing in the other."""
    rows = session.execute(
        select(MatchAnalysis.match_id, MatchAnalysis.result, MatchSeat.seat)
        .join(MatchSeat, MatchSeat.match_id == MatchAnalysis.match_id)
        .join(BotVersion, BotVersion.id == MatchSeat.bot_version_id)
        .join(Match, Match.id == MatchAnalysis.match_id)
        .where(BotVersion.bot_id == bot_id, MatchAnalysis.status == AnalysisStatus.DONE)
        .order_by(Match.id.desc(), MatchAnalysis.finished_at.desc())
    ).all()
    seen: set[int] = set()
    hands = 0
    phases: dict[str, float] = {}
    tags = dict.fromkeys(TAGS, 0.0)
    marks = dict.fromkeys(MARKS, 0)
    worst: list[dict[str, Any]] = []
    total = 0.0
    for match_id, result, seat in rows:
        if match_id in seen or result is None:
            continue
        summary = (result.get("summary") or {}).get(str(seat))
        if summary is None:
            continue
        if len(seen) >= limit:
            break
        seen.add(match_id)
        played = int(summary["hands"])
        hands += played
        total += summary["loss_per_hand"] * played
        for phase, loss in summary["phases"].items():
            phases[phase] = phases.get(phase, 0.0) + loss * played
        for tag in TAGS:
            tags[tag] += summary["tags"].get(tag, 0.0) * played
        for name in MARKS:
            marks[name] += summary["marks"].get(name, 0)
        worst.extend({**w, "match_id": match_id} for w in summary["worst"])

    def per_hand(lost: dict[str, float]) -> dict[str, float]:
        return {k: round(v / hands, 3) if hands else 0.0 for k, v in lost.items()}

    return {
        "matches": len(seen),
        "hands": hands,
        "loss_per_hand": round(total / hands, 3) if hands else 0.0,
        "phases": per_hand(phases),
        "tags": per_hand(tags),
        "marks": marks,
        "worst": sorted(worst, key=lambda w: -w["loss"])[:5],
    }


def owner_ids(session: Session, match_id: int) -> set[int]:
    """The owners of the bots seated in the match."""
    return set(
        session.scalars(
            select(Bot.owner_id)
            .join(BotVersion, BotVersion.bot_id == Bot.id)
            .join(MatchSeat, MatchSeat.bot_version_id == BotVersion.id)
            .where(MatchSeat.match_id == match_id)
        )
    )
