"""`arena bench web`: server time of the ladder page with 10,000 bots and of a match page.

A scratch database (`arena.benchmarks.store.scratch_database`: a temporary SQLite file,
or a fresh PostgreSQL database) is filled by `arena.benchmarks.store.fill` with
`versions` ready bot versions in one running season and `matches` recorded matches, plus
one realistic match: a full game to 100 played by the house bots through the real match
runner (one seat faulting now and then), recorded with its replay. Then the site is
built with `create_app` on that database and each page is requested `repeats` times
through Flask's test client: the time is the server's whole work for the request (routing,
queries, rendering), without a network. The first request of each page is a warm-up and
not counted. Medians are printed; docs/benchmarks.md records them.

    python -m web.bench [--versions N] [--matches N] [--repeats N] [--url URL]
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import statistics
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from typing import Final

from sqlalchemy import select
from sqlalchemy.engine import URL
from sqlalchemy.orm import Session

from arena.bots import HOUSE_BOTS
from arena.engine import Rules, SeatView, preset
from arena.match.faults import FaultKind, SeatFault
from arena.match.runner import Entrant, EventSink, MatchOutcome, MatchRunner
from arena.match.seats import DecisionContext, InProcessSeat
from arena.store import (
    make_engine,
    make_sessionmaker,
    migrate,
    record_match_result,
)
from arena.store.models import Bot, BotVersion, Match, MatchSeat, MatchStatus, Rating
from arena.store.results import outcome_result
from arena.store.rulesets import store_ruleset


class FaultySeat(InProcessSeat):
    """A house bot that raises on every `every`-th play (a bot's error, recorded as a fault)
    and writes to its log: a stand-in for an uploaded bot that misbehaves now and then."""

    def __init__(self, seed: int, every: int = 40) -> None:
        super().__init__(HOUSE_BOTS["random"](seed), label="bench:faulty")
        self.every = every
        self.calls = 0

    async def choose_play(self, view: SeatView, context: DecisionContext, timeout: float) -> str:
        """Answer like the house bot, except every `every`-th call, which fails."""
        self.calls += 1
        if self.calls % self.every == 0:
            raise SeatFault(FaultKind.ERROR, f"ValueError: bench fault at call {self.calls}")
        return str(await super().choose_play(view, context, timeout))

    def log_excerpt(self) -> str:
        """What the bot wrote to stderr."""
        return f"thinking… ({self.calls} decisions)\nbench fault log: owner eyes only\n"


def add_match(
    session: Session, *, season_id: int | None, version_ids: Sequence[int], rules: Rules, seed: int
) -> int:
    """A queued match of these versions (seat order), in the season or unrated (flushes)."""
    match = Match(
        season_id=season_id,
        ruleset=store_ruleset(session, rules),
        seed=seed,
        status=MatchStatus.QUEUED,
    )
    match.seats = [MatchSeat(seat=i, bot_version_id=v) for i, v in enumerate(version_ids)]
    session.add(match)
    session.flush()
    return match.id


def play_and_record(
    session: Session,
    match_id: int,
    *,
    faulty_seat: int | None = None,
    on_event: EventSink | None = None,
) -> None:
    """Play a queued match in-process, house bots standing in for every seat, and record it.

    What a worker does with real bots in sandboxes; here the seats are in-process house
    bots (seat `faulty_seat`, if any, faults now and then); `on_event` hears the runner's
    live events. Commits.
    """
    match = session.get(Match, match_id)
    if match is None or match.status is not MatchStatus.QUEUED:
        raise ValueError(f"match {match_id} is not a queued match")
    rules, seed = match.ruleset.rules, match.seed
    labels = dict(
        session.execute(
            select(MatchSeat.seat, Bot.name)
            .join(BotVersion, BotVersion.id == MatchSeat.bot_version_id)
            .join(Bot, Bot.id == BotVersion.bot_id)
            .where(MatchSeat.match_id == match_id)
        ).all()
    )
    version_ids = [seat.bot_version_id for seat in match.seats]
    session.commit()
    kinds = ("heuristic", "random")
    entrants = [
        Entrant(
            name=labels[i],
            seat=FaultySeat(seed + i)
            if i == faulty_seat
            else InProcessSeat(HOUSE_BOTS[kinds[i % 2]](seed + i)),
            version=str(version_ids[i]),
        )
        for i in range(len(version_ids))
    ]
    started = datetime.now(UTC)
    outcome = _run(MatchRunner(rules, entrants, seed, match_id=str(match_id), on_event=on_event))
    record_match_result(
        session, match_id, outcome_result(outcome, version_ids, started, datetime.now(UTC))
    )


def _run(runner: MatchRunner) -> MatchOutcome:
    """Run the match; in a thread of its own when this one already runs an event loop
    (as it does under Playwright's synchronous API)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return runner.run()
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(runner.run).result()


@dataclasses.dataclass(frozen=True)
class WebFigures:
    """What `bench_web` measured (seconds per request)."""

    backend: str
    versions: int
    matches: int
    fill_seconds: float
    timings: dict[str, tuple[float, ...]]

    def median_ms(self, name: str) -> float:
        """The median of one page's requests, in milliseconds."""
        return statistics.median(self.timings[name]) * 1000


PAGES: Final = {
    "ladder page (top 50, Elo order)": "/seasons/{season}/ladder",
    "ladder page in the middle (page 100 of 200)": "/seasons/{season}/ladder?page={middle}",
    "match page (full game, replay parsed)": "/matches/{match}",
    "match replay JSON (viewer's fetch)": "/matches/{match}/replay.json",
    "ladder sorted by games": "/seasons/{season}/ladder?sort=games",
    "ladder sorted by points per hand": "/seasons/{season}/ladder?sort=points",
    "API ladder (top 50)": "/api/v1/seasons/{season}/ladder",
    "metrics scrape (queues and seasons read from the database)": "/metrics",
}


def bench_web(
    url: str | URL | None = None,
    *,
    versions: int = 10_000,
    matches: int = 100_000,
    repeats: int = 30,
) -> WebFigures:
    """Fill a scratch database and time each page of `PAGES` `repeats` times."""
    from arena.benchmarks.store import fill, scratch_database

    from . import create_app
    from .database import dispose

    with scratch_database(url) as scratch:
        migrate.upgrade(scratch)
        engine = make_engine(scratch)
        try:
            start = time.perf_counter()
            with make_sessionmaker(engine)() as session:
                season_id = fill(session, versions=versions, matches=matches)
                top = session.scalars(
                    select(Rating.bot_version_id)
                    .where(Rating.season_id == season_id)
                    .order_by(Rating.elo.desc())
                    .limit(4)
                ).all()
                match_id = add_match(
                    session, season_id=season_id, version_ids=top, rules=preset("standard"), seed=7
                )
                session.commit()
                play_and_record(session, match_id, faulty_seat=3)
            fill_seconds = time.perf_counter() - start
            backend = engine.dialect.name
        finally:
            engine.dispose()
        app = create_app(
            {"DATABASE_URL": scratch.render_as_string(hide_password=False), "SECRET_KEY": "bench"}
        )
        client = app.test_client()
        timings: dict[str, tuple[float, ...]] = {}
        for name, template in PAGES.items():
            middle = max(1, versions // 100)  # the middle page of 50 lines
            path = template.format(season=season_id, match=match_id, middle=middle)
            warm = client.get(path)
            if warm.status_code != 200:
                raise RuntimeError(f"{path} answered {warm.status_code}")
            samples = []
            for _ in range(repeats):
                begin = time.perf_counter()
                response = client.get(path)
                samples.append(time.perf_counter() - begin)
                assert response.status_code == 200
            timings[name] = tuple(samples)
        dispose(app)
    return WebFigures(backend, versions, matches, fill_seconds, timings)


def describe(figures: WebFigures) -> str:
    """The lines `arena bench web` prints."""
    lines = [
        f"arena bench web — {figures.backend}: {figures.versions:,} bot versions, "
        f"{figures.matches:,} recorded matches (filled in {figures.fill_seconds:.1f} s); "
        f"server time per request through the test client, "
        f"{len(next(iter(figures.timings.values())))} requests each"
    ]
    width = max(len(name) for name in figures.timings)
    for name, samples in figures.timings.items():
        lines.append(
            f"  {name:<{width}}  median {statistics.median(samples) * 1000:7.1f} ms   "
            f"min {min(samples) * 1000:7.1f} ms   max {max(samples) * 1000:7.1f} ms"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    """`python -m web.bench`: run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--url", default=None, help="PostgreSQL server URL (default: SQLite)")
    parser.add_argument("--versions", type=int, default=10_000)
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=30)
    args = parser.parse_args(argv)
    figures = bench_web(
        args.url, versions=args.versions, matches=args.matches, repeats=args.repeats
    )
    print(describe(figures))


if __name__ == "__main__":
    main()
