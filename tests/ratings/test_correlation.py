"""Spearman's rho, the measure of a ladder finding the true order."""

from __future__ import annotations

import pytest

from arena.ratings.correlation import average_ranks, spearman


def test_perfect_and_reversed_orders() -> None:
    assert spearman([1, 2, 3], [5, 6, 100]) == 1.0
    assert spearman([1, 2, 3], [3, 2, 1]) == -1.0


def test_one_adjacent_swap_among_eight_is_above_0_9() -> None:
    assert spearman(range(8), [0, 1, 2, 4, 3, 5, 6, 7]) == pytest.approx(1 - 6 * 2 / (8 * 63))


def test_ties_take_the_mean_rank() -> None:
    assert average_ranks([3, 1, 3]) == [2.5, 1.0, 2.5]
    assert spearman([1, 1, 1], [1, 2, 3]) == 0.0


def test_bad_input() -> None:
    with pytest.raises(ValueError, match="against"):
        spearman([1, 2], [1])
    with pytest.raises(ValueError, match="at least two"):
        spearman([1], [1])
