"""Owners whose bots do better seated together than their results elsewhere predict.

Two versions of one owner never share a rated table (`arena.seasons.matchmaking`), but two
owners could agree to help each other. The batch fit (`arena.ratings.batch`) predicts each
seat's points per hand at a table from the players' strengths; a seat's *residual* is what
it took minus that prediction (negative: better than predicted). For every pair of owners
whose bots met, the report averages the residuals of both owners' seats at the tables
they shared and compares the average with its standard error from the residuals of all
tables: a pair far below zero is doing better together than its results elsewhere say
(`flag_collusion`, z at most -3 by default, at least `min_tables` shared tables).

It is evidence for an admin to look into, not a verdict: with many owner pairs some will
cross any threshold by chance (about 1 in 740 at z = -3).

>>> from arena.ratings.batch import TableResult
>>> tables = [TableResult((1, 2, 3, 4), (10, 20, 30, 40), 10)] * 6
>>> collusion_report(tables, {1: "a", 2: "b", 3: "c", 4: "d"})[0].tables
6
"""

from __future__ import annotations

import dataclasses
import math
import statistics
from collections.abc import Hashable, Mapping, Sequence
from itertools import combinations
from typing import Any

from .batch import TableResult, fit_points


@dataclasses.dataclass(frozen=True)
class OwnerPair:
    """Two owners' shared tables: how much better (negative) their seats did there than
    predicted, in points per hand, and how unusual that is (z)."""

    owners: tuple[Hashable, Hashable]
    tables: int
    residual: float
    z: float


def collusion_report(
    tables: Sequence[TableResult], owners: Mapping[Any, Hashable]
) -> list[OwnerPair]:
    """Every pair of owners whose bots shared a table, most suspicious (lowest z) first.

    `owners` maps each entrant to its owner; entrants missing from it are nobody's pair.
    Raises ValueError when the tables do not connect the entrants.
    """
    theta = fit_points(tables)
    residuals: list[list[float]] = []  # per table, each seat's residual per hand
    for table in tables:
        per_hand = [p / table.hands for p in table.points]
        predicted = [theta[p] for p in table.players]
        shift = statistics.fmean(per_hand) - statistics.fmean(predicted)
        residuals.append([y - t - shift for y, t in zip(per_hand, predicted, strict=True)])
    spread = [r * math.sqrt(t.hands) for t, rs in zip(tables, residuals, strict=True) for r in rs]
    per_hand_sd = math.sqrt(statistics.fmean(v * v for v in spread)) if spread else 0.0
    shared: dict[tuple[Hashable, Hashable], list[tuple[float, int]]] = {}
    for table, rs in zip(tables, residuals, strict=True):
        seats: dict[Hashable, list[float]] = {}
        for player, r in zip(table.players, rs, strict=True):
            if player in owners:
                seats.setdefault(owners[player], []).append(r)
        for a, b in combinations(sorted(seats, key=str), 2):
            values = seats[a] + seats[b]
            shared.setdefault((a, b), []).append((statistics.fmean(values), table.hands))
    report = []
    for pair, rows in shared.items():
        hands = sum(h for _, h in rows)
        mean = sum(v * h for v, h in rows) / hands
        # the mean of two seats' residuals over `hands` hands: sd / sqrt(2 * hands)
        error = per_hand_sd / math.sqrt(2 * hands) if hands else math.inf
        z = mean / error if error > 0 else 0.0
        report.append(OwnerPair(pair, len(rows), mean, z))
    report.sort(key=lambda p: (p.z, str(p.owners)))
    return report


def flag_collusion(
    tables: Sequence[TableResult],
    owners: Mapping[Any, Hashable],
    *,
    z: float = -3.0,
    min_tables: int = 5,
) -> list[OwnerPair]:
    """The pairs of owners doing suspiciously well together (z at most `z`)."""
    return [p for p in collusion_report(tables, owners) if p.z <= z and p.tables >= min_tables]
