"""`arena bench season` in rounds, on both local brokers: every match recorded, a round
latency per round and a pick-up delay per match, read from the matches' timestamps."""

from __future__ import annotations

import pytest

from tests.workers.conftest import sandbox_or_skip
from workers.bench import bench_season
from workers.embedded_broker import EmbeddedBrokerError, server_binary

pytestmark = pytest.mark.slow


@pytest.mark.timeout(900)
def test_rounds_on_the_sql_broker_and_the_embedded_server() -> None:
    sandbox_or_skip()
    try:
        server_binary()
    except EmbeddedBrokerError as error:
        pytest.skip(str(error))
    figures = bench_season((1,), 4, brokers=("sql", "embedded"), hands=1, round_size=2)
    assert [f.broker for f in figures] == ["sql", "embedded"]
    for run in figures:
        assert run.done == run.matches == 4
        assert len(run.round_seconds) == 2 and len(run.pickup_seconds) == 4
        assert min(run.pickup_seconds) > 0 and max(run.pickup_seconds) < max(run.round_seconds)
