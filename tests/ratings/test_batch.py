"""The batch fit behind a season's final order: estimates, interval coverage, tie groups."""

from __future__ import annotations

import random

import pytest

from arena.ratings.batch import TableResult, fit_points, fit_standings, t95, tie_groups


def simulated_season(
    seed: int, *, entrants: int = 8, tables: int = 60, hands: int = 10, gap: float = 0.6
) -> tuple[list[float], list[TableResult]]:
    """Tables of four drawn at random; each hand a player takes 6.5 points plus its true
    theta plus Hearts-like skewed luck (13 points a quarter of the time, and some spread)."""
    rng = random.Random(seed)
    theta = [(i - (entrants - 1) / 2) * gap for i in range(entrants)]
    out = []
    for _ in range(tables):
        players = rng.sample(range(entrants), 4)
        points = []
        for p in players:
            total = 0.0
            for _ in range(hands):
                queen = 13.0 * ((rng.random() < 0.25) - 0.25)
                total += 6.5 + theta[p] + queen + rng.gauss(0.0, 3.0)
            points.append(total)
        out.append(TableResult(tuple(players), tuple(points), hands))
    return theta, out


def test_the_fit_recovers_known_strengths_and_their_order() -> None:
    theta, tables = simulated_season(1, tables=400)
    fitted = fit_points(tables)
    assert set(fitted) == set(range(8))
    assert abs(sum(fitted.values())) < 1e-9  # measured against the field's average
    for player, value in fitted.items():
        assert value == pytest.approx(theta[int(str(player))], abs=0.5)
    standings = fit_standings(tables, bootstrap=50)
    assert [s.entrant for s in standings] == list(range(8))  # fewest points first
    assert all(s.low < s.points < s.high for s in standings)


def test_the_table_effect_cancels_a_lucky_table() -> None:
    # the same players, one table handing out far more points: the order does not move
    tables = [
        TableResult((1, 2, 3, 4), (10, 20, 30, 40), 10),
        TableResult((1, 2, 3, 4), (110, 120, 130, 140), 10),
    ]
    assert fit_points(tables) == pytest.approx({1: -1.5, 2: -0.5, 3: 0.5, 4: 1.5})


def test_the_95_percent_intervals_cover_the_truth_95_percent_of_the_time() -> None:
    hits = checks = 0
    for seed in range(150):
        theta, tables = simulated_season(seed)
        for standing in fit_standings(tables, bootstrap=200, seed=seed):
            checks += 1
            hits += standing.low <= theta[int(str(standing.entrant))] <= standing.high
    coverage = hits / checks
    assert 0.93 <= coverage <= 0.97, coverage


def test_tie_groups_are_runs_of_overlapping_neighbours() -> None:
    assert tie_groups([]) == []
    assert tie_groups([(0, 1)]) == [(1, 1)]
    assert tie_groups([(0, 1), (2, 3), (4, 5)]) == [(1, 1), (2, 2), (3, 3)]
    # 1 overlaps 2, 2 overlaps 3 (1 and 3 do not): one group, ranks 1-3
    assert tie_groups([(0, 2), (1.5, 3.5), (3, 4), (5, 6)]) == [(1, 3)] * 3 + [(4, 4)]


def test_standings_label_their_tie_groups() -> None:
    _, tables = simulated_season(3, entrants=6, tables=30, gap=0.05)
    standings = fit_standings(tables, bootstrap=100)
    assert {(s.tie_first, s.tie_last) for s in standings} == {(1, 6)}
    assert standings[0].tie_label == "1\u20136"
    _, tables = simulated_season(3, entrants=6, tables=300, gap=4.0)
    assert [s.tie_label for s in fit_standings(tables, bootstrap=100)] == [
        "1",
        "2",
        "3",
        "4",
        "5",
        "6",
    ]


def test_bad_tables_are_refused_and_an_unconnected_field_is_said_so() -> None:
    with pytest.raises(ValueError, match="two players"):
        TableResult((1,), (3.0,), 1)
    with pytest.raises(ValueError, match="sits twice"):
        TableResult((1, 1), (3.0, 4.0), 1)
    with pytest.raises(ValueError, match="one hand"):
        TableResult((1, 2), (3.0, 4.0), 0)
    apart = [TableResult((1, 2), (1.0, 2.0), 1), TableResult((3, 4), (1.0, 2.0), 1)]
    with pytest.raises(ValueError, match="connect"):
        fit_standings(apart, bootstrap=0)


def test_student_t_quantiles() -> None:
    assert t95(0) == float("inf")
    assert t95(10) == pytest.approx(2.228, abs=0.002)
    assert t95(100000) == pytest.approx(1.960, abs=0.001)


def test_conjugate_gradients_agree_with_the_direct_solve(monkeypatch: pytest.MonkeyPatch) -> None:
    # a large field is solved over the tables, never as a k x k matrix: same answer
    _, tables = simulated_season(4, entrants=12, tables=80)
    direct = fit_points(tables)
    monkeypatch.setattr("arena.ratings.batch.DENSE_LIMIT", 3)
    iterative = fit_points(tables)
    assert iterative == pytest.approx(direct, abs=1e-8)
