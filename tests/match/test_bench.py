"""`arena bench match` (arena.benchmarks.match) runs end to end; its figures are not judged
here (they depend on the machine), only that they are consistent."""

import pytest

from arena.benchmarks.match import measure

pytestmark = pytest.mark.timeout(120)


def test_the_match_benchmark_plays_real_games_and_reports_consistent_figures():
    figures = measure(games=1, calls=100)
    assert figures.games == 1
    assert figures.decisions > 300  # a game to 100 takes several hands of 52 plays
    assert 0 < figures.raw_round_trip < 0.1
    assert figures.decision * figures.decisions_per_second == pytest.approx(1.0)
    assert figures.ratio == pytest.approx(figures.decision / figures.raw_round_trip)
    # The transport alone costs something, and less than a decision through the runner
    # and a bot, which pay for it and then do their own work.
    assert 0 < figures.transport_alone < figures.decision
    assert figures.transport_ratio == pytest.approx(
        figures.transport_alone / figures.raw_round_trip
    )
    # Both sides do work for every decision (the bots parse, choose and answer).
    assert figures.runner_cpu > 0 and figures.bots_cpu > 0
