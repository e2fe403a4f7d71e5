"""Scale: 10,000 bot versions and 100,000 recorded matches, on each backend.

This checks that the workload works at that size (a full round of tables, a ladder);
how fast it runs is the benchmark's business, not a test's: the targets (a round under
1 s, the top 100 under 50 ms) are measured and printed by `arena bench store`
(`arena.benchmarks.store.bench_store`) and recorded in docs/benchmarks.md. Slow (it
fills a scratch database of each backend); `pytest -m slow tests/store/test_scale.py -s`
prints the figures too.
"""

from __future__ import annotations

import pytest

from arena.benchmarks.store import bench_store
from tests.store.databases import BACKENDS, POSTGRES_URL, require_postgres


@pytest.mark.slow
@pytest.mark.timeout(1200)
@pytest.mark.parametrize("backend", BACKENDS)
def test_a_round_and_the_ladder_at_scale(backend: str) -> None:
    if backend == "postgresql":
        require_postgres()
    figures = bench_store(
        POSTGRES_URL if backend == "postgresql" else None,
        versions=10_000,
        matches=100_000,
        rounds=3,
        ladder_repeats=20,
    )
    print(
        f"\n{figures.backend}: fill {figures.fill_seconds:.1f} s; round "
        f"{figures.round_median * 1000:.0f} ms ({figures.round_tables} tables); "
        f"top-100 ladder {figures.ladder_median * 1000:.1f} ms median"
    )
    assert figures.round_tables == 2_500
