"""`arena bench bots` (arena.benchmarks.bots): the duplicate harness and its statistics."""

from __future__ import annotations

import statistics

import pytest

from arena.benchmarks.bots import BotSpec, Timing, bench_pair, deal_seed, measure, strong_spec
from arena.engine import preset


def test_a_bot_against_copies_of_itself_measures_exactly_zero():
    # Identical deterministic bots in every seat play each rotation identically, so the
    # bot's points equal the field's on every deal.
    figures = bench_pair(BotSpec("heuristic"), BotSpec("heuristic"), deals=6, workers=1)
    assert figures.difference == pytest.approx(0, abs=1e-9)
    assert figures.half_width == pytest.approx(0, abs=1e-9)
    assert figures.hands == 24
    assert not figures.clear_of_zero


def test_heuristic_beats_random_on_a_short_run():
    figures = bench_pair(BotSpec("heuristic"), BotSpec("random"), deals=60, workers=1)
    assert figures.difference < 0
    assert figures.clear_of_zero
    low, high = figures.interval
    assert low < figures.difference < high
    assert figures.bot_time.decisions == 60 * 4 * (13 + 1) - 15 * 4  # a hold hand in four
    assert figures.bot_points - figures.field_points == pytest.approx(figures.difference)


def test_workers_give_the_same_figures_as_one_process():
    one = bench_pair(BotSpec("heuristic"), BotSpec("random"), deals=8, workers=1)
    two = bench_pair(BotSpec("heuristic"), BotSpec("random"), deals=8, workers=2, chunk=3)
    assert (one.difference, one.half_width) == (two.difference, two.half_width)


def test_the_strong_bot_runs_in_the_harness_with_its_budget():
    figures = bench_pair(strong_spec(0.1, 3), BotSpec("heuristic"), deals=2, workers=1)
    assert figures.bot == "strong (max_samples=3, time_per_move=0.1)"
    assert figures.bot_time.longest < 1.0


def test_deal_seeds_are_fixed_and_distinct():
    seeds = [deal_seed(1, i) for i in range(1000)]
    assert len(set(seeds)) == 1000
    assert deal_seed(1, 0) == seeds[0]
    assert all(0 <= s < 2**64 for s in seeds)


def test_timing_summarises_the_decisions():
    total = Timing([0.4, 0.1], [0.2, 0.1])
    total.extend(Timing([0.1], [0.05]))
    total.add(0.2, 0.1)
    assert (total.decisions, total.longest, total.cpu_longest) == (4, 0.4, 0.2)
    assert total.mean == pytest.approx(0.2)
    assert total.cpu_mean == pytest.approx(0.1125)
    assert total.percentile(0.5) == 0.1
    assert total.percentile(0.99) == 0.4
    assert total.over(0.15) == 2
    assert Timing().percentile(0.99) == 0.0


def test_too_few_deals_for_an_interval_are_refused():
    with pytest.raises(ValueError, match="at least 2 deals"):
        bench_pair(BotSpec("random"), BotSpec("random"), deals=1)


@pytest.mark.slow
def test_the_bench_shows_each_house_bot_beating_the_one_below(request):
    if "slow" not in (request.config.getoption("markexpr") or ""):
        pytest.skip("a short `arena bench bots` run: select it with -m slow")
    figures = measure(deals=150, strong_time=0.1, strong_samples=20, workers=2)
    for pair in figures:
        assert pair.difference < 0, pair
        assert pair.clear_of_zero, pair
        assert pair.bot_time.longest < 1.0
    assert statistics.fmean(f.deals for f in figures) == 150
    assert preset("standard").name == figures[0].rules
