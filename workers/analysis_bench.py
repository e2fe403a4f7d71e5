"""`arena bench analysis --season`: a season's matches per minute alone, and with analyses
queued beside it (issue 33: "analysis never slows a season").

Each run is `workers.bench.run_season` (a fresh database and broker, sandboxed trivial
bots, one worker process on the ``matches`` queue). With analyses, before the clock
starts, `analyses` unrated matches of the heuristic house bot (`hands` hands each) are
played in-process and recorded, an analysis of each is asked at the site's depth, an
analysis worker is started as `arena platform` starts it (its own process on the
``analysis`` queue, under ``nice -n 10``) and the analyses are enqueued; the season then
runs beside them. Runs alone and with analyses alternate, so that the machine's other
load falls on both alike.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import os
import signal
import subprocess
import sys
import tempfile
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import func, select

from arena.analysis import Settings as Depth
from arena.bots import HeuristicBot
from arena.engine import preset
from arena.match.runner import Entrant, MatchOutcome, MatchRunner
from arena.match.seats import InProcessSeat
from arena.store import analyses
from arena.store.bots import ensure_house_bots
from arena.store.database import write_transaction
from arena.store.models import AnalysisStatus, Match, MatchAnalysis, MatchSeat, MatchStatus
from arena.store.results import outcome_result, record_match_result
from arena.store.rulesets import store_ruleset

from . import context
from .analysis import enqueue_analyses
from .app import app, configure
from .bench import SeasonFigures, run_season
from .config import Settings


@dataclasses.dataclass(frozen=True)
class BesideFigures:
    """One season run, alone or with analyses beside it."""

    season: SeasonFigures
    analyses_queued: int
    analyses_done: int
    analyses_asked: int = 0
    """The analyses the season's database holds (asked by the hook, whatever their state):
    `analyses_queued` when the hook wrote where the worker reads."""

    @property
    def per_minute(self) -> float:
        return self.season.done / self.season.seconds * 60 if self.season.seconds else 0.0


def _played(seed: int, hands: int) -> MatchOutcome:
    rules = preset("standard").replace(target_score=None, max_hands=hands)
    entrants = [Entrant(f"h{i}", InProcessSeat(HeuristicBot(seed + i))) for i in range(4)]
    runner = MatchRunner(rules, entrants, seed)
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return runner.run()
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(runner.run).result()


def queue_analyses(count: int, hands: int) -> Callable[[dict[str, str], Path], Callable[[], None]]:
    """The `run_season` hook: `count` recorded matches of `hands` hands, their analyses
    asked and enqueued, and an analysis worker started; what it returns stops the worker
    and keeps how many analyses were done in `done`."""

    def start(env: dict[str, str], root: Path) -> Callable[[], None]:
        sessions = context.sessions()
        rules = preset("standard").replace(target_score=None, max_hands=hands)
        ids = []
        with sessions() as session:
            with write_transaction(session):
                house = [v.id for v in ensure_house_bots(session)][:4]
                ruleset = store_ruleset(session, rules)
                for seed in range(count):
                    match = Match(ruleset=ruleset, seed=seed, status=MatchStatus.QUEUED)
                    match.seats = [MatchSeat(seat=i, bot_version_id=v) for i, v in enumerate(house)]
                    session.add(match)
                    session.flush()
                    ids.append(match.id)
            for seed, match_id in enumerate(ids):
                started = datetime.now(UTC)
                outcome = _played(seed, hands)
                finished = datetime.now(UTC)
                record_match_result(
                    session, match_id, outcome_result(outcome, house, started, finished)
                )
            depth = Depth(hindsight=True)  # as the site analyses (web/analyses.py)
            with write_transaction(session):
                asked = [
                    analyses.request(
                        session,
                        match_id,
                        None,
                        samples=depth.samples,
                        playouts=depth.playouts,
                        seed=depth.seed,
                        hindsight=depth.hindsight,
                    )[0].id
                    for match_id in ids
                ]
        enqueue_analyses(asked)
        log = (root / "analysis-worker.log").open("ab")
        worker = subprocess.Popen(
            [
                "nice",
                "-n",
                "10",
                sys.executable,
                "-m",
                "arena.commands.platform",
                "worker",
                "--name",
                "analysis@%h",
                "--queues",
                "analysis",
            ],
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )

        def stop() -> None:
            with contextlib.suppress(ProcessLookupError):
                worker.send_signal(signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                worker.wait(timeout=30)
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(worker.pid, signal.SIGKILL)
            worker.wait(timeout=10)
            log.close()

        return stop

    return start


def _analyses_counts() -> tuple[int, int]:
    """The season database's analyses: (asked, done)."""
    with context.sessions()() as session:
        asked = session.scalar(select(func.count(MatchAnalysis.id)))
        done = session.scalar(
            select(func.count(MatchAnalysis.id)).where(MatchAnalysis.status == AnalysisStatus.DONE)
        )
        return int(asked or 0), int(done or 0)


def bench_beside(
    matches: int,
    analyses_count: int,
    *,
    hands: int | None,
    analysis_hands: int = 13,
    repeats: int = 2,
    report: Callable[[BesideFigures], None] = lambda figures: None,
) -> list[BesideFigures]:
    """Seasons of `matches` matches with one match worker, alone and with
    `analyses_count` analyses of `analysis_hands`-hand matches queued beside them,
    alternated `repeats` times."""
    figures = []
    with tempfile.TemporaryDirectory(prefix="arena-bench-analysis-") as scratch:
        base = Path(scratch)
        runtime = base / "runtime"
        runtime.mkdir()
        for repeat in range(repeats):
            for count in (0, analyses_count):
                root = base / f"analyses-{count}-run-{repeat + 1}"
                hook = queue_analyses(count, analysis_hands) if count else None
                season = run_season(
                    1, matches, root=root, runtime=runtime, hands=hands, beside=hook
                )
                asked, done = _analyses_counts()
                result = BesideFigures(season, count, done, asked)
                report(result)
                figures.append(result)
    configure(app, Settings.from_environ())
    return figures
