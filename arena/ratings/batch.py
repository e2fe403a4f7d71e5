"""A season's final order: one batch fit of points per hand against the field, with
bootstrap intervals and tie groups.

The model. Every table t (a single game, or a duplicate set counted as one table) has
players P_t, each with its total points over the table and the hands it played. Entrant
i's points per hand at t is taken to be

    y_it = alpha_t + theta_i + noise,        sum over entrants of theta_i = 0

where alpha_t absorbs everything the table's players share (how many points the deals
handed out, moons) and theta_i is the entrant's points per hand *against the field*:
how many points per hand it takes more (positive, worse) or fewer (negative, better)
than the average entrant would in its place. Weighted least squares (weight: hands
played) over the table-centred points gives theta; with duplicate sets the centred total
already has the luck of the deal cancelled, so the same fit serves both formats.

Why points and not places (Plackett-Luce / Bradley-Terry over the table order): the
platform's questions are asked in points per hand ("1 point per hand apart"), a place
throws away the margin (a 1-point and a 60-point win count the same), and a linear
estimator makes the bootstrap cheap and the luck adjustment (`arena.ratings.luck`) a
plain subtraction in the same unit.

Intervals: the tables are resampled with replacement (`bootstrap` replicates, seeded),
the fit repeated, and each entrant's interval is theta +- t bootstrap standard errors
(Student's t with the entrant's tables - 1 degrees of freedom, the error scaled by
sqrt(T / (T - 1)) for the bootstrap's known shrinkage). The estimate is an average over
many tables and close to normal, and an interval from a standard error is steadier than
percentiles of 200 replicates
(`tests/ratings/test_batch.py` checks that the nominal 95 % covers 93-97 % of simulated
seasons).

Tie groups: in rank order, neighbours whose intervals overlap cannot be told apart and
share a group; a group is the longest run of such neighbours ("ranks 3-5").

>>> tables = [TableResult((1, 2, 3, 4), (20, 40, 60, 80), 10)] * 3
>>> [(r.entrant, r.rank, round(r.points, 2)) for r in fit_standings(tables, bootstrap=0)]
[(1, 1, -3.0), (2, 2, -1.0), (3, 3, 1.0), (4, 4, 3.0)]
>>> tie_groups([(0.0, 2.0), (1.0, 3.0), (4.0, 5.0)])
[(1, 2), (1, 2), (3, 3)]
"""

from __future__ import annotations

import dataclasses
import math
import random
import statistics
from collections.abc import Hashable, Iterable, Sequence
from typing import Final

Z95: Final = 1.959963984540054
"""The normal quantile of a two-sided 95 % interval."""

DEFAULT_BOOTSTRAP: Final = 200
"""Replicates per fit: the interval's half-width is then known to about 5 %."""

DENSE_LIMIT: Final = 250
"""Up to this many entrants the normal equations are solved directly; beyond, by
conjugate gradients over the tables (no k x k matrix)."""


@dataclasses.dataclass(frozen=True)
class TableResult:
    """One table: its players, each one's points over the table, and the hands each
    played (a duplicate set: totals over the rotations, hands over all of them)."""

    players: tuple[Hashable, ...]
    points: tuple[float, ...]
    hands: int

    def __post_init__(self) -> None:
        if len(self.players) < 2:
            raise ValueError(f"a table needs at least two players, not {len(self.players)}")
        if len(self.points) != len(self.players):
            raise ValueError(f"{len(self.points)} scores for {len(self.players)} players")
        if len(set(self.players)) != len(self.players):
            raise ValueError(f"a player sits twice at one table: {self.players}")
        if self.hands < 1:
            raise ValueError(f"a table needs at least one hand, not {self.hands}")


@dataclasses.dataclass(frozen=True)
class Standing:
    """An entrant's place in the batch fit: points per hand against the field (lower is
    better), its 95 % interval, and the ranks of its tie group."""

    entrant: Hashable
    rank: int
    points: float
    low: float
    high: float
    tables: int
    tie_first: int
    tie_last: int

    @property
    def tie_label(self) -> str:
        """ "3" or "3-5": the ranks this entrant cannot be told apart from."""
        if self.tie_first == self.tie_last:
            return str(self.tie_first)
        return f"{self.tie_first}\u2013{self.tie_last}"


class _Design:
    """The tables as index lists and centred points per hand, ready for repeated fits."""

    def __init__(self, tables: Sequence[TableResult]) -> None:
        order: dict[Hashable, int] = {}
        for table in tables:
            for player in table.players:
                order.setdefault(player, len(order))
        self.entrants = list(order)
        self.rows: list[tuple[tuple[int, ...], float, tuple[float, ...]]] = []
        for table in tables:
            per_hand = [p / table.hands for p in table.points]
            mean = statistics.fmean(per_hand)
            self.rows.append(
                (
                    tuple(order[p] for p in table.players),
                    float(table.hands),
                    tuple(y - mean for y in per_hand),
                )
            )

    def fit(self, counts: Sequence[int] | None = None) -> list[float | None]:
        """theta per entrant from the tables weighted by `counts` (None: each once);
        None for an entrant with no table in the sample."""
        k = len(self.entrants)
        b = [0.0] * k
        present = [False] * k
        used = []
        for index, (idx, w, centred) in enumerate(self.rows):
            c = 1 if counts is None else counts[index]
            if c == 0:
                continue
            weight = c * w
            used.append((idx, weight))
            for i, d in zip(idx, centred, strict=True):
                b[i] += weight * d
                present[i] = True
        keep = [i for i in range(k) if present[i]]
        if not keep:
            return [None] * k
        solve = _solve_dense if len(keep) <= DENSE_LIMIT else _solve_cg
        x = solve(used, b, keep, k)
        result: list[float | None] = [None] * k
        for i in keep:
            result[i] = x[i]
        return result


def _solve_dense(
    used: Sequence[tuple[tuple[int, ...], float]], b: Sequence[float], keep: Sequence[int], k: int
) -> list[float]:
    """The sum-zero least-squares solution by Gaussian elimination on M + s 11^T.

    M (the tables' centring matrices, weighted) has the all-ones vector in its null space
    and b is orthogonal to it, so adding s 11^T makes the system regular and forces
    sum(theta) = 0 without changing the fit.
    """
    where = {i: pos for pos, i in enumerate(keep)}
    m = len(keep)
    matrix = [[0.0] * m for _ in range(m)]
    for idx, weight in used:
        share = weight / len(idx)
        rows = [where[i] for i in idx]
        for a in rows:
            line = matrix[a]
            line[a] += weight
            for c in rows:
                line[c] -= share
    scale = max(matrix[a][a] for a in range(m)) / m or 1.0
    for a in range(m):
        line = matrix[a]
        for c in range(m):
            line[c] += scale
    rhs = [b[i] for i in keep]
    for col in range(m):
        pivot = max(range(col, m), key=lambda r: abs(matrix[r][col]))
        if abs(matrix[pivot][col]) < 1e-12:
            raise ValueError("the tables do not connect every entrant to the others")
        if pivot != col:
            matrix[col], matrix[pivot] = matrix[pivot], matrix[col]
            rhs[col], rhs[pivot] = rhs[pivot], rhs[col]
        head = matrix[col]
        inverse = 1.0 / head[col]
        for r in range(col + 1, m):
            line = matrix[r]
            factor = line[col] * inverse
            if factor != 0.0:
                for c in range(col, m):
                    line[c] -= factor * head[c]
                rhs[r] -= factor * rhs[col]
    x = [0.0] * m
    for r in range(m - 1, -1, -1):
        line = matrix[r]
        x[r] = (rhs[r] - sum(line[c] * x[c] for c in range(r + 1, m))) / line[r]
    out = [0.0] * k
    for pos, i in enumerate(keep):
        out[i] = x[pos]
    return out


def _solve_cg(
    used: Sequence[tuple[tuple[int, ...], float]], b: Sequence[float], keep: Sequence[int], k: int
) -> list[float]:
    """The minimum-norm solution by conjugate gradients, one pass over the tables per step
    (starting from zero with b orthogonal to the ones vector keeps every component's sum
    at zero)."""

    def apply(v: Sequence[float]) -> list[float]:
        out = [0.0] * k
        for idx, weight in used:
            mean = sum(v[i] for i in idx) / len(idx)
            for i in idx:
                out[i] += weight * (v[i] - mean)
        return out

    x = [0.0] * k
    r = list(b)
    p = list(r)
    rs = sum(v * v for v in r)
    tolerance = 1e-20 * (1.0 + rs)
    for _ in range(10 * len(keep) + 100):
        if rs <= tolerance:
            break
        ap = apply(p)
        alpha = rs / sum(u * v for u, v in zip(p, ap, strict=True))
        x = [u + alpha * v for u, v in zip(x, p, strict=True)]
        r = [u - alpha * v for u, v in zip(r, ap, strict=True)]
        new = sum(v * v for v in r)
        p = [u + (new / rs) * v for u, v in zip(r, p, strict=True)]
        rs = new
    return x


def t95(df: int) -> float:
    """Student's t quantile of a two-sided 95 % interval (Cornish-Fisher, within 0.1 %
    from 3 degrees of freedom); infinite below one degree of freedom (one table says
    nothing of its own spread).

    >>> round(t95(29), 3), round(t95(1000), 3)
    (2.045, 1.962)
    """
    if df < 1:
        return math.inf
    z = Z95
    return (
        z
        + (z**3 + z) / (4 * df)
        + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)
        + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * df**3)
    )


def tie_groups(intervals: Sequence[tuple[float, float]]) -> list[tuple[int, int]]:
    """For intervals listed in rank order, each one's tie group as (first rank, last rank):
    runs of neighbours whose intervals overlap."""
    groups: list[tuple[int, int]] = []
    start = 0
    for i in range(1, len(intervals) + 1):
        if i == len(intervals) or not _overlap(intervals[i - 1], intervals[i]):
            groups.extend([(start + 1, i)] * (i - start))
            start = i
    return groups


def _overlap(a: tuple[float, float], b: tuple[float, float]) -> bool:
    return a[0] <= b[1] and b[0] <= a[1]


def elo_interval(elo: float, elo_error: float) -> tuple[float, float]:
    """A 95 % interval for a live Elo from its one-standard-deviation uncertainty."""
    return (elo - Z95 * elo_error, elo + Z95 * elo_error)


def fit_points(tables: Sequence[TableResult]) -> dict[Hashable, float]:
    """theta (points per hand against the field, lower is better) per entrant."""
    design = _Design(tables)
    thetas = design.fit()
    return {e: t for e, t in zip(design.entrants, thetas, strict=True) if t is not None}


def bootstrap_errors(
    tables: Sequence[TableResult], *, replicates: int = DEFAULT_BOOTSTRAP, seed: int = 0
) -> dict[Hashable, float]:
    """Each entrant's bootstrap standard error of theta (tables resampled, seeded).

    A resample that leaves the field unconnected is dropped (in a small season some
    will); an entrant with fewer than two usable replicates gets an infinite error.
    """
    design = _Design(tables)
    rng = random.Random(seed)
    samples: list[list[float]] = [[] for _ in design.entrants]
    size = len(design.rows)
    for _ in range(replicates):
        counts = [0] * size
        for _ in range(size):
            counts[rng.randrange(size)] += 1
        try:
            thetas = design.fit(counts)
        except ValueError:  # this resample happened to split the field: it says nothing
            continue
        for i, theta in enumerate(thetas):
            if theta is not None:
                samples[i].append(theta)
    return {
        e: statistics.stdev(s) if len(s) >= 2 else math.inf
        for e, s in zip(design.entrants, samples, strict=True)
    }


def fit_standings(
    tables: Sequence[TableResult],
    *,
    bootstrap: int = DEFAULT_BOOTSTRAP,
    seed: int = 0,
    tiebreak: Iterable[Hashable] = (),
) -> list[Standing]:
    """The batch fit's order, best (fewest points per hand) first, with 95 % intervals and
    tie groups. `bootstrap=0` skips the intervals (each is then just the point).

    `tiebreak` lists entrants best first, to order equal estimates (the live Elo order,
    say); otherwise equal estimates keep first-seen order. Raises ValueError when the
    tables do not connect the entrants.
    """
    design = _Design(tables)
    thetas = design.fit()
    errors = bootstrap_errors(tables, replicates=bootstrap, seed=seed) if bootstrap else {}
    played: dict[Hashable, int] = {}
    for table in tables:
        for player in table.players:
            played[player] = played.get(player, 0) + 1
    preference = {e: i for i, e in enumerate(tiebreak)}
    fitted = [(e, t) for e, t in zip(design.entrants, thetas, strict=True) if t is not None]
    fitted.sort(key=lambda et: (round(et[1], 9), preference.get(et[0], len(preference))))
    intervals = []
    correction = math.sqrt(len(tables) / (len(tables) - 1)) if len(tables) > 1 else 1.0
    for entrant, theta in fitted:
        half = t95(played[entrant] - 1) * correction * errors[entrant] if errors else 0.0
        intervals.append((theta - half, theta + half))
    groups = tie_groups(intervals)
    return [
        Standing(
            entrant=entrant,
            rank=rank,
            points=theta,
            low=interval[0],
            high=interval[1],
            tables=played[entrant],
            tie_first=group[0],
            tie_last=group[1],
        )
        for rank, ((entrant, theta), interval, group) in enumerate(
            zip(fitted, intervals, groups, strict=True), start=1
        )
    ]
