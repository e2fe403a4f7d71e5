"""`arena bench export` and `arena bench baseline`: what the open data's export costs in
memory, and what the baseline control removes per core-second, on seasons played by the
real match runner and stored by the store (`arena.data.played`).

`bench_export` plays a season of `matches` matches into a scratch database (a temporary
SQLite file, or a fresh PostgreSQL database on the given server), then runs the export in
a child process of its own and reads the child's peak resident memory from the kernel
(`os.wait4`'s rusage), beside its resident memory once its imports were done: the
difference is what the export itself held at its peak.

`bench_baseline` plays a season of duplicate sets (each set's games are also single
games), reads its matches back as recorded (`arena.seasons.evidence.season_games`), and
measures four estimators' per-hand variance against the table (less the fitted skills):
single games and duplicate sets, raw and baseline-adjusted. Their cost per hand played is
the runner's own CPU per hand (in-process house bots: the cheapest a match ever is) plus,
where adjusted, the reference's CPU per hand (one reference hand per distinct deal, which
a duplicate set's rotations share), and the same with the platform's measured cost of a
match of sandboxed bots instead (docs/benchmarks.md). Efficiency is 1 / (variance x cost):
hands' worth of certainty per core-second, relative to single games.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Final

from sqlalchemy.engine import URL

from arena.benchmarks.ratings import DEFAULT_STRENGTHS
from arena.benchmarks.store import scratch_database
from arena.ratings.baseline import REFERENCE, BaselineFigures, measure_baseline
from arena.seasons.evidence import season_games
from arena.store import make_engine, make_sessionmaker, migrate
from arena.store.models import Season

from .played import play_season

PLATFORM_MATCH_SECONDS: Final = 1.504
"""Core-seconds of one standard match of four sandboxed bots on the platform, measured by
`arena bench season --matches 40 --workers 1` (docs/benchmarks.md, "Re-measured after
warm starts"): the worker, the bots' starts and their play."""


@dataclasses.dataclass(frozen=True)
class ExportFigures:
    """What `bench_export` measured."""

    backend: str
    matches: int
    hands: int
    fill_seconds: float
    export_seconds: float
    export_cpu_seconds: float
    rss_after_imports_kib: int
    peak_rss_kib: int
    files: dict[str, int]


def _spread(entrants: int) -> list[float]:
    return [i / max(1, entrants - 1) for i in range(entrants)]


def bench_export(
    url: str | URL | None = None,
    *,
    matches: int = 10_000,
    entrants: int = 40,
    progress: Callable[[int, int], None] | None = None,
    processes: int = 1,
) -> ExportFigures:
    """Play and store `matches` matches (each round's tables played by `processes` child
    processes when above 1: `play_season`), export them in a child process; its peak
    memory."""
    with scratch_database(url) as database, tempfile.TemporaryDirectory() as folder:
        migrate.upgrade(database)
        engine = make_engine(database)
        try:
            start = time.perf_counter()
            with make_sessionmaker(engine)() as session:
                played = play_season(
                    session,
                    name="export-bench",
                    strengths=_spread(entrants),
                    matches=matches,
                    progress=progress,
                    processes=processes,
                )
            fill = time.perf_counter() - start
        finally:
            engine.dispose()
        return measure_export(database, played.season_id, Path(folder), fill_seconds=fill)


def measure_export(
    url: URL, season_id: int, folder: Path, *, fill_seconds: float = 0.0
) -> ExportFigures:
    """Export finished season `season_id` of the database at `url` into `folder` in a
    child process; its time and peak resident memory. Raises RuntimeError when the child
    fails (an unfinished season, say: its error is on stderr)."""
    rendered = url.render_as_string(hide_password=False)
    start = time.perf_counter()
    child = subprocess.Popen(
        [sys.executable, "-m", "arena.data.bench", rendered, str(season_id), str(folder)],
        stdout=subprocess.PIPE,
    )
    assert child.stdout is not None
    output = child.stdout.read()
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - start
    if status != 0:
        raise RuntimeError(f"the export's child process failed (status {status})")
    report = json.loads(output)
    return ExportFigures(
        backend=url.get_backend_name(),
        matches=report["matches"],
        hands=report["hands"],
        fill_seconds=fill_seconds,
        export_seconds=seconds,
        export_cpu_seconds=usage.ru_utime + usage.ru_stime,
        rss_after_imports_kib=report["rss_after_imports_kib"],
        peak_rss_kib=usage.ru_maxrss,
        files=report["files"],
    )


def _export_in_this_process(url: str, season_id: int, folder: str) -> None:
    """The child's side: import, note the resident memory, export, print JSON."""
    from arena.data.export import export_season

    after_imports = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    engine = make_engine(url)
    with make_sessionmaker(engine)() as session:
        dump = export_season(session, season_id, Path(folder))
        report = {
            "matches": dump.matches,
            "hands": dump.hands,
            "rss_after_imports_kib": after_imports,
            "files": {entry["name"]: entry["size"] for entry in dump.files},
        }
    engine.dispose()
    print(json.dumps(report))


@dataclasses.dataclass(frozen=True)
class Estimator:
    """One way to score a season: its per-hand variance, and its CPU per hand played."""

    name: str
    variance: float
    seconds_per_hand: float
    platform_seconds_per_hand: float


@dataclasses.dataclass(frozen=True)
class BaselineBench:
    """What `bench_baseline` measured, on `games` games of `sets` duplicate sets."""

    backend: str
    sets: int
    games: int
    hands: int
    deals: int
    match_seconds_per_hand: float
    reference_seconds_per_deal: float
    estimators: tuple[Estimator, ...]
    halves: tuple[tuple[float, ...], ...] = ()
    """Each estimator's variance reduction against single games on the odd and on the
    even matches alone: how far one half of the season moves the figure."""

    def efficiency(self, estimator: Estimator, *, platform: bool = False) -> float:
        """Certainty per core-second relative to single games (1 / (variance x cost))."""
        base = self.estimators[0]

        def cost(e: Estimator) -> float:
            return e.platform_seconds_per_hand if platform else e.seconds_per_hand

        return (base.variance * cost(base)) / (estimator.variance * cost(estimator))


def bench_baseline(
    url: str | URL | None = None,
    *,
    sets: int = 150,
    strengths: Sequence[float] = DEFAULT_STRENGTHS,
    reference: str = REFERENCE,
    platform_match_seconds: float = PLATFORM_MATCH_SECONDS,
    progress: Callable[[int, int], None] | None = None,
) -> BaselineBench:
    """Play `sets` duplicate sets as a stored season and measure the four estimators.

    Raises ValueError when the season recorded no hands."""
    with scratch_database(url) as database:
        migrate.upgrade(database)
        engine = make_engine(database)
        try:
            with make_sessionmaker(engine)() as session:
                played = play_season(
                    session,
                    name="baseline-bench",
                    strengths=strengths,
                    matches=sets,
                    duplicate_sets=True,
                    progress=progress,
                )
                rules = session.get_one(Season, played.season_id).ruleset.rules
                games = season_games(session, played.season_id, limit=played.matches + 1)
        finally:
            engine.dispose()
    figures = measure_baseline(rules, games, reference)
    hands = figures.hands  # game-hands: every seat of a hand played counted once
    match_per_hand = played.play_seconds / hands
    platform_per_hand = platform_match_seconds / (hands / len(games))
    reference_per_deal = figures.reference_seconds / figures.deals
    single_reference = reference_per_deal  # a single game's every hand is a deal of its own
    shared_reference = figures.reference_seconds / hands  # a set's rotations share deals
    duplicate = figures.raw.duplicate_variance
    adjusted_duplicate = figures.adjusted.duplicate_variance
    if duplicate is None or adjusted_duplicate is None:
        raise ValueError("the season recorded no duplicate sets")
    estimators = (
        Estimator("single games", figures.raw.single_variance, match_per_hand, platform_per_hand),
        Estimator(
            "single games + baseline",
            figures.adjusted.single_variance,
            match_per_hand + single_reference,
            platform_per_hand + single_reference,
        ),
        Estimator("duplicate sets", duplicate, match_per_hand, platform_per_hand),
        Estimator(
            "duplicate sets + baseline",
            adjusted_duplicate,
            match_per_hand + shared_reference,
            platform_per_hand + shared_reference,
        ),
    )
    halves = tuple(
        _reductions(
            measure_baseline(rules, [g for g in games if hash(g.table) % 2 == p], reference)
        )
        for p in (0, 1)
    )
    return BaselineBench(
        halves=halves,
        backend=database.get_backend_name(),
        sets=played.matches,
        games=len(games),
        hands=hands,
        deals=figures.deals,
        match_seconds_per_hand=match_per_hand,
        reference_seconds_per_deal=reference_per_deal,
        estimators=estimators,
    )


def _reductions(figures: BaselineFigures) -> tuple[float, ...]:
    """Single + baseline, duplicate, duplicate + baseline: variance reductions against
    single games."""
    single = figures.raw.single_variance
    return (
        single / figures.adjusted.single_variance,
        single / (figures.raw.duplicate_variance or math.inf),
        single / (figures.adjusted.duplicate_variance or math.inf),
    )


def describe_baseline(bench: BaselineBench) -> list[str]:
    """The lines `arena bench baseline` prints."""
    lines = [
        f"arena bench baseline: {bench.sets} duplicate sets ({bench.games} games, "
        f"{bench.hands} hands, {bench.deals} distinct deals) played by the runner, stored "
        f"({bench.backend}), read back as recorded",
        f"  runner CPU per hand {bench.match_seconds_per_hand * 1e3:.2f} ms (in-process bots); "
        f"reference CPU per deal {bench.reference_seconds_per_deal * 1e3:.2f} ms",
        f"  {'estimator':<27} {'variance/hand':>13} {'reduction':>9} "
        f"{'ms/hand':>8} {'per core-s':>10} {'platform ms/hand':>16} {'per core-s':>10}",
    ]
    base = bench.estimators[0]
    for e in bench.estimators:
        lines.append(
            f"  {e.name:<27} {e.variance:>13.2f} {base.variance / e.variance:>8.2f}x "
            f"{e.seconds_per_hand * 1e3:>8.2f} {bench.efficiency(e):>9.2f}x "
            f"{e.platform_seconds_per_hand * 1e3:>16.1f} "
            f"{bench.efficiency(e, platform=True):>9.2f}x"
        )
    for name, half in zip(("even", "odd"), bench.halves, strict=False):
        lines.append(
            f"  the {name} matches alone: reduction single + baseline {half[0]:.2f}x, "
            f"duplicate {half[1]:.2f}x, duplicate + baseline {half[2]:.2f}x"
        )
    return lines


def describe_export(figures: ExportFigures) -> list[str]:
    """The lines `arena bench export` prints."""
    mib = 1024.0
    return [
        f"arena bench export: {figures.matches} matches, {figures.hands} hands "
        f"({figures.backend}; played and stored in {figures.fill_seconds:.0f} s)",
        f"  export: {figures.export_seconds:.1f} s wall, {figures.export_cpu_seconds:.1f} "
        "core-s (the child process, imports included)",
        f"  peak resident memory {figures.peak_rss_kib / mib:.1f} MiB; after imports "
        f"{figures.rss_after_imports_kib / mib:.1f} MiB; the export's own peak "
        f"{(figures.peak_rss_kib - figures.rss_after_imports_kib) / mib:.1f} MiB",
        "  files: "
        + ", ".join(f"{name} {size / mib / mib:.2f} MiB" for name, size in figures.files.items()),
    ]


if __name__ == "__main__":
    _export_in_this_process(sys.argv[1], int(sys.argv[2]), sys.argv[3])
