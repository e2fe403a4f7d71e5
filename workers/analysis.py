"""`analyse_match`: a thin shell that analyses one match once, on the "analysis" queue.

The site writes a `match_analyses` row; the dispatcher (`workers.scheduling.dispatch`)
puts queued ones here. The task claims the row (queued → running, once: an id enqueued
twice runs once), reads the match's replay, runs `arena.analysis.analyse` at the row's
depth (with the "all hands known" hindsight when the row asks for it) writing its progress
every few decisions (the page's progress bar), and stores the result. Analyses never run
on a match's worker: the "analysis" queue has a worker of its own (`arena platform` starts
one at a lower CPU priority; docs/analysis.md), so a queue of analyses never delays a
season's matches.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from typing import Any

from arena.analysis import AnalysisError, Settings, analyse
from arena.match.replay import ReplayError, loads
from arena.store import analyses
from arena.store.database import write_transaction
from arena.store.models import MatchAnalysis, Replay

from . import context
from .app import ANALYSE, ArenaTask, app

log = logging.getLogger(__name__)

PROGRESS_SECONDS = 1.0
"""A running analysis writes its progress at most this often."""


@app.task(name=ANALYSE, base=ArenaTask, ignore_result=True, soft_time_limit=1800, time_limit=1900)
def analyse_match(analysis_id: int) -> dict[str, Any]:
    """Analyse the match of analysis `analysis_id` (does nothing unless it is queued)."""
    make = context.sessions()
    with make() as session, write_transaction(session):
        if not analyses.claim(session, analysis_id):
            return {"analysis": analysis_id, "status": "not queued"}
        row = session.get(MatchAnalysis, analysis_id)
        assert row is not None
        match_id, samples, playouts, seed = row.match_id, row.samples, row.playouts, row.seed
        hindsight = row.hindsight
        content = session.query(Replay.content).filter(Replay.match_id == match_id).scalar()
    last = [0.0]

    def progress(done: int, total: int) -> None:
        now = time.monotonic()
        if now - last[0] < PROGRESS_SECONDS and done < total:
            return
        last[0] = now
        with make() as progress_session, write_transaction(progress_session):
            analyses.advance(progress_session, analysis_id, done, total)

    try:
        if content is None:
            raise AnalysisError(f"match {match_id} has no replay")
        result = analyse(
            loads(content),
            settings=Settings(samples=samples, playouts=playouts, seed=seed, hindsight=hindsight),
            progress=progress,
        ).to_dict()
    except (AnalysisError, ReplayError) as error:
        with make() as session, write_transaction(session):
            analyses.fail(session, analysis_id, str(error))
        log.warning("analysis %s of match %s failed: %s", analysis_id, match_id, error)
        return {"analysis": analysis_id, "status": "failed"}
    with make() as session, write_transaction(session):
        analyses.finish(session, analysis_id, result)
    log.info("analysed match %s (analysis %s)", match_id, analysis_id)
    return {"analysis": analysis_id, "status": "done"}


def enqueue_analyses(analysis_ids: Sequence[int]) -> None:
    """Put `analysis_ids` on the ``analysis`` queue (call after the commit that made them)."""
    if not analysis_ids:
        return
    with app.producer_or_acquire() as producer:
        for analysis_id in analysis_ids:
            analyse_match.apply_async((analysis_id,), producer=producer)
