"""Rank agreement: Spearman's rho between a ladder's order and the true order.

Used by the rating tests and `arena bench ratings` to say when a ladder has found the
order of bots whose strengths we know.

>>> spearman([1, 2, 3, 4], [10, 20, 30, 40])
1.0
>>> spearman([1, 2, 3, 4], [4, 3, 2, 1])
-1.0
"""

from __future__ import annotations

import math
from collections.abc import Sequence


def average_ranks(values: Sequence[float]) -> list[float]:
    """1-based ranks of `values` (smallest first), ties given the mean of their ranks.

    >>> average_ranks([10, 30, 20, 30])
    [1.0, 3.5, 2.0, 3.5]
    """
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        for position in range(start, end + 1):
            ranks[order[position]] = (start + end) / 2.0 + 1.0
        start = end + 1
    return ranks


def spearman(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Spearman's rank correlation: Pearson's r of the average ranks (ties handled).

    Raises ValueError for sequences of different lengths or shorter than two; a constant
    sequence (no order at all) gives 0.0.
    """
    if len(xs) != len(ys):
        raise ValueError(f"{len(xs)} values against {len(ys)}")
    if len(xs) < 2:
        raise ValueError("a rank correlation needs at least two values")
    rx, ry = average_ranks(xs), average_ranks(ys)
    mean = (len(xs) + 1) / 2.0
    cov = sum((a - mean) * (b - mean) for a, b in zip(rx, ry, strict=True))
    var_x = sum((a - mean) ** 2 for a in rx)
    var_y = sum((b - mean) ** 2 for b in ry)
    if var_x == 0.0 or var_y == 0.0:
        return 0.0
    return cov / math.sqrt(var_x * var_y)
