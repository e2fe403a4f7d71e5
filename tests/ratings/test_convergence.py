"""The Elo ladder finds the true order of bots of known strength, with and without duplicates.

The bots are the heuristic house bot handicapped to strengths 0.0, 0.15, …, 1.0 (the share
of decisions it makes itself; the rest are random), so the true order is known. A season
of real games is rated as `record_match_result` rates it; the claim checked here is:
within 200 games Spearman's rho between Elo and strength reaches 0.9 and stays there.
"""

from __future__ import annotations

import pytest

from arena.benchmarks.ratings import (
    DEFAULT_STRENGTHS,
    HandicappedBot,
    bench_convergence,
    simulate_season,
)
from arena.engine import preset
from arena.match.house import play_game

GAMES = 240
STATED = 200  # games within which rho >= 0.9 for good


@pytest.mark.timeout(120)
@pytest.mark.parametrize("duplicate_sets", [False, True], ids=["single", "duplicate"])
def test_elo_reaches_the_true_order(duplicate_sets: bool) -> None:
    run = simulate_season(games=GAMES, duplicate_sets=duplicate_sets, seed=1)
    converged = run.games_to_converge()
    assert converged is not None and converged <= STATED, run.curve
    assert run.curve[-1][1] >= 0.9


def test_handicapped_bots_are_ordered_by_strength() -> None:
    rules = preset("standard")
    totals = {0.0: 0, 1.0: 0}
    for seed in range(20):
        bots = [HandicappedBot(s, seed * 10 + i) for i, s in enumerate((0.0, 1.0, 0.0, 1.0))]
        game = play_game(rules, bots, seed)
        totals[0.0] += game.totals[0] + game.totals[2]
        totals[1.0] += game.totals[1] + game.totals[3]
    assert totals[1.0] < totals[0.0]  # fewer points is better in Hearts
    with pytest.raises(ValueError, match="strength"):
        HandicappedBot(1.5)


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_every_season_converges_with_and_without_duplicate_sets() -> None:
    single, duplicate = bench_convergence(games=300, runs=5, strengths=DEFAULT_STRENGTHS)
    assert all(g is not None and g <= STATED for g in single.converge_games), single.converge_games
    assert all(g is not None and g <= STATED for g in duplicate.converge_games)
