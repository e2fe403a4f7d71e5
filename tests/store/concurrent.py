"""Functions the concurrency tests run in separate processes (spawned, so importable here).

Each child opens its own engine, waits on a barrier so that both start together, and
reports its outcome and when its call began and ended. `slow_store` widens the race: the
child sleeps inside the recording transaction, after its locks are taken, so the other
process certainly arrives while the first still holds them.
"""

from __future__ import annotations

import time
from datetime import datetime
from typing import Any

from arena.seasons import schedule_round
from arena.store import make_engine, make_sessionmaker, record_match_result
from arena.store import results as results_module
from arena.store.results import MatchResult


def _slow_down_store(delay: float) -> None:
    original = results_module._store

    def slow(*args: Any, **kwargs: Any) -> None:
        time.sleep(delay)
        original(*args, **kwargs)

    results_module._store = slow


def record_in_child(
    url: str, match_id: int, result: MatchResult, delay: float, barrier: Any, queue: Any
) -> None:
    """Record `result` for `match_id` once the other process is ready too; report back."""
    _slow_down_store(delay)
    engine = make_engine(url)
    try:
        with make_sessionmaker(engine)() as session:
            barrier.wait(timeout=60)
            began = time.monotonic()
            outcome = record_match_result(session, match_id, result)
            queue.put(
                {
                    "match_id": match_id,
                    "recorded": outcome.recorded,
                    "rated": outcome.rated,
                    "rating_seq": outcome.rating_seq,
                    "began": began,
                    "ended": time.monotonic(),
                }
            )
    except BaseException as error:
        queue.put({"error": repr(error)})
        raise
    finally:
        engine.dispose()


def schedule_in_child(url: str, season_id: int, now: datetime, barrier: Any, queue: Any) -> None:
    """Schedule the season's round if due, once the other process is ready too; report back."""
    engine = make_engine(url)
    enqueued: list[int] = []
    try:
        with make_sessionmaker(engine)() as session:
            barrier.wait(timeout=60)
            report = schedule_round(session, season_id, enqueued.extend, now=now, only_if_due=True)
            queue.put({"round": report.round_number, "enqueued": enqueued})
    except BaseException as error:
        queue.put({"error": repr(error)})
        raise
    finally:
        engine.dispose()
