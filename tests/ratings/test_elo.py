"""Elo for free-for-all tables: pairwise results, K over the opponents, ties as draws."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from arena.ratings.elo import (
    EloRating,
    EloSettings,
    expected_score,
    pairwise_result,
    places_from_scores,
    rate_table,
)

SETTINGS = EloSettings(k=24, provisional_k=64, provisional_games=12)
ESTABLISHED = 50


def test_two_players_is_classic_elo() -> None:
    a, b = EloRating(1600, ESTABLISHED), EloRating(1400, ESTABLISHED)
    new_a, new_b = rate_table([a, b], [2, 1], SETTINGS)
    expected = expected_score(1600, 1400)
    assert new_a.elo == pytest.approx(1600 - 24 * expected)
    assert new_b.elo == pytest.approx(1400 + 24 * expected)
    assert (new_a.games, new_b.games) == (ESTABLISHED + 1, ESTABLISHED + 1)


def test_expectation_is_the_logistic_on_400_points() -> None:
    assert expected_score(1500, 1500) == 0.5
    assert expected_score(1900, 1500) == pytest.approx(10 / 11)
    assert expected_score(1500, 1700) + expected_score(1700, 1500) == pytest.approx(1)


def test_k_is_shared_among_the_opponents() -> None:
    weak = EloRating(1000, ESTABLISHED)
    strong = [EloRating(2500, ESTABLISHED)] * 3
    winner, *_ = rate_table([weak, *strong], [1, 2, 3, 4], SETTINGS)
    assert 23.9 < winner.elo - weak.elo <= 24  # at most K from one table, whatever its size


def test_ties_are_draws() -> None:
    assert pairwise_result(2, 2) == 0.5
    players = [EloRating(1500, ESTABLISHED)] * 4
    after = rate_table(players, [1, 1, 3, 3], SETTINGS)
    assert after[0].elo == after[1].elo > 1500 > after[2].elo == after[3].elo


def test_provisional_players_move_further() -> None:
    new, old = EloRating(1500, 0), EloRating(1500, ESTABLISHED)
    (moved_new, _), (moved_old, _) = (
        rate_table([new, EloRating(1500, ESTABLISHED)], [1, 2], SETTINGS),
        rate_table([old, EloRating(1500, ESTABLISHED)], [1, 2], SETTINGS),
    )
    assert moved_new.elo - 1500 == pytest.approx((64 / 24) * (moved_old.elo - 1500))
    assert new.is_provisional(SETTINGS) and not old.is_provisional(SETTINGS)
    assert not EloRating(1500, 12).is_provisional(SETTINGS)


def test_places_from_hearts_scores() -> None:
    assert places_from_scores([57, 70, 49, 110]) == (2, 3, 1, 4)
    assert places_from_scores([0, 0, 0]) == (1, 1, 1)


def test_bad_tables_are_refused() -> None:
    with pytest.raises(ValueError, match="at least two"):
        rate_table([EloRating()], [1])
    with pytest.raises(ValueError, match="places for"):
        rate_table([EloRating(), EloRating()], [1])
    with pytest.raises(ValueError, match="start at 1"):
        rate_table([EloRating(), EloRating()], [0, 1])
    with pytest.raises(ValueError, match="positive"):
        EloSettings(k=0)


tables = st.lists(st.tuples(st.floats(800, 2400), st.integers(0, 3)), min_size=2, max_size=7).map(
    lambda players: [(elo, place + 1) for elo, place in players]
)


@given(tables)
def test_equal_k_is_zero_sum(players: list[tuple[float, int]]) -> None:
    ratings = [EloRating(elo, ESTABLISHED) for elo, _ in players]
    after = rate_table(ratings, [place for _, place in players], SETTINGS)
    assert sum(r.elo for r in after) == pytest.approx(sum(r.elo for r in ratings), abs=1e-6)


@given(tables)
def test_seat_order_does_not_matter(players: list[tuple[float, int]]) -> None:
    ratings = [EloRating(elo, ESTABLISHED) for elo, _ in players]
    places = [place for _, place in players]
    base = rate_table(ratings, places, SETTINGS)
    for order in itertools.islice(itertools.permutations(range(len(players))), 6):
        shuffled = rate_table([ratings[i] for i in order], [places[i] for i in order], SETTINGS)
        for position, i in enumerate(order):
            assert shuffled[position].elo == pytest.approx(base[i].elo)


@given(tables)
def test_finishing_higher_never_gains_less(players: list[tuple[float, int]]) -> None:
    ratings = [EloRating(1500, ESTABLISHED) for _ in players]
    places = [place for _, place in players]
    after = rate_table(ratings, places, SETTINGS)
    for i, j in itertools.combinations(range(len(players)), 2):
        if places[i] < places[j]:
            assert after[i].elo > after[j].elo
