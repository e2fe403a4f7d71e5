"""The protocol benchmark runs end to end (tiny sizes; the figures are not asserted)."""

from __future__ import annotations

import pytest

from arena.benchmarks import protocol as bench


@pytest.mark.timeout(240)
def test_the_benchmark_measures_every_figure():
    results = bench.run(calls=30, hands=1, repeats=1, compare=True)
    names = [result.name for result in results]
    assert names == [
        "raw gRPC unary round trip",
        "raw gRPC stream round trip",
        "decision through the SDK",
        "match: 4 SDK bots, 4 processes",
        "match over raw unary (echo)",
        "match over raw stream (echo)",
    ]
    for result in results:
        assert result.median > 0
        assert result.format().startswith(result.name)
