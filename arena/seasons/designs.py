"""A final's schedules: balanced round robins of tables of four, and knockouts.

**The balance asked of a round robin.** At a table of four, b sits at relative seat d of a
(d = 1, 2, 3: on a's left, opposite, on a's right) when b's seat is a's seat + d mod 4.
Who sits on whose left matters in Hearts (passes go left, the play goes clockwise), so a
fair final has every ordered pair (a, b) of finalists at every relative seat the same
number of times, `lam`. Counting the ordered pairs at one offset over the tables,
4 T = lam N (N - 1), so T = lam N (N - 1) / 4 tables: lam = 1 for N = 0 or 1 mod 4 and
lam = 2 for N = 2 or 3 mod 4 at the least (all C(N, 4) tables, in every seating, would be
far more: 1,820 tables for N = 16 against 60 here).

**How the tables are found: a cyclic difference family, by search.** Finalists are the
elements of Z_m (m = N), or of Z_m and one fixed point "inf" (m = N - 1). A few *base
tables* are developed: base table (x0, x1, x2, x3) gives the m tables (x0 + i, ..., x3 + i)
for i in Z_m (inf + i = inf). For two finite elements, the developed tables put b at
offset d from a exactly as many times as base-table seats s hold x_{s+d} - x_s = b - a, so
the design is balanced when, for each d, the differences x_{s+d} - x_s over the base
tables cover every non-zero element of Z_m exactly `lam` times; inf meets every element at
every offset once per base table holding it, so `lam` base tables hold inf. Counting the
differences gives the number of base tables (`_plans`). A depth-first search with the
difference counts as its bound, restarted with shuffled orders (`find_base_tables`),
found the base tables kept in `BASE_TABLES` (seconds to minutes per size on a loaded
2-core machine, so they are kept as data and a missing size is searched for on demand).

Supported: N = 4 to 16 finalists (`SIZES`); `tests/seasons/test_designs.py` checks the
balance of every size by counting every pair at every relative seat.

**Knockout (exhibitions).** Tables of four, each a duplicate set; the top two of each
table go on, until one table is left: N = 4, 8, 16, 32 or 64 finalists (`knockout_sizes`).
The first round seats the seeds in snake order (seeds 1, 8, 9, 16 at one table of 16) so
that the strongest do not meet early; a later round seats a table's winners apart.

>>> design = balanced_design(8)
>>> len(design.tables), design.lam, is_balanced(design.tables, 8)
(28, 2, True)
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import random
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Final

TABLE: Final = 4
"""Seats at a final's table (the designs here are for four-player Hearts)."""

SIZES: Final = range(4, 17)
"""Numbers of finalists a balanced round robin is made for."""

_SEARCH_NODES: Final = 2_000_000
"""A bound on one search's nodes (far above what any size here needs)."""


class DesignError(ValueError):
    """No schedule of the kind asked for this many finalists."""


@dataclasses.dataclass(frozen=True)
class Design:
    """A balanced round robin: its tables (finalists 0..n-1 in seat order) and `lam`, how
    often each ordered pair meets at each relative seat in one pass of the tables."""

    players: int
    lam: int
    modulus: int
    base: tuple[tuple[int | None, ...], ...]  # base tables; None is the fixed point "inf"
    tables: tuple[tuple[int, ...], ...]


def relative_seats(tables: Sequence[Sequence[int]]) -> Counter[tuple[int, int, int]]:
    """How often each (a, b, d) occurs: b at relative seat d (1, 2, 3) of a."""
    counts: Counter[tuple[int, int, int]] = Counter()
    for table in tables:
        size = len(table)
        for s, a in enumerate(table):
            for d in range(1, size):
                counts[(a, table[(s + d) % size], d)] += 1
    return counts


def is_balanced(tables: Sequence[Sequence[int]], players: int) -> bool:
    """Whether every ordered pair of the `players` meets equally often at every relative
    seat (and at least once)."""
    counts = relative_seats(tables)
    wanted = {
        (a, b, d) for a in range(players) for b in range(players) if a != b for d in range(1, 4)
    }
    values = {counts.get(key, 0) for key in wanted}
    return set(counts) == wanted and len(values) == 1 and 0 not in values


def _differences(block: Sequence[int | None], m: int) -> list[tuple[int, int]]:
    """(offset, difference) of every finite ordered pair of seats of a base table."""
    found = []
    for s in range(TABLE):
        for d in range(1, TABLE):
            a, b = block[s], block[(s + d) % TABLE]
            if a is not None and b is not None:
                found.append((d, (b - a) % m))
    return found


def _plans(players: int) -> Iterator[tuple[int, int, int, int]]:
    """(modulus, lam, base tables holding inf, base tables without) that the counting
    allows, fewest tables first."""
    options = []
    for lam in (1, 2, 4):
        m = players  # Z_N: 4 B differences per offset cover N - 1 elements lam times
        if (lam * (m - 1)) % TABLE == 0:
            options.append((m * lam * (m - 1) // TABLE, m, lam, 0, lam * (m - 1) // TABLE))
        m = players - 1  # Z_(N-1) and inf: lam tables with inf (2 differences each)
        if m >= 3 and (lam * (m - 3)) % TABLE == 0:
            rest = lam * (m - 3) // TABLE
            options.append((m * (lam + rest), m, lam, lam, rest))
    for _, m, lam, with_inf, without in sorted(options):
        yield m, lam, with_inf, without


def _search(
    m: int, lam: int, with_inf: int, without: int, *, seed: int | None = None, nodes: int = 0
) -> list[tuple[int | None, ...]] | None:
    """Base tables meeting the difference condition, or None.

    Exact-cover style, depth first and bounded (`nodes`, default `_SEARCH_NODES`): at
    each step the first difference (offset 1 or 2: offset 3's are offset 1's negated)
    still short of `lam` is taken, and only base tables that supply it are tried, in a
    shuffled order when `seed` is given (restarts with other seeds find what one long
    search misses).
    """
    blocks: list[tuple[tuple[int | None, ...], bool, list[tuple[int, int]]]] = []
    if with_inf:
        for x2, x3 in itertools.permutations(range(1, m), 2):  # inf at seat 0, x1 = 0
            block: tuple[int | None, ...] = (None, 0, x2, x3)
            blocks.append((block, True, _differences(block, m)))
    if without:
        for rest in itertools.permutations(range(1, m), 3):  # translated so x0 = 0
            block = (0, *rest)
            blocks.append((block, False, _differences(block, m)))
    supplies: dict[tuple[int, int], list[int]] = {}
    for index, (_, _, diffs) in enumerate(blocks):
        for key in set(diffs):
            supplies.setdefault(key, []).append(index)
    if seed is not None:
        shuffler = random.Random(seed)
        for candidates in supplies.values():
            shuffler.shuffle(candidates)
    bound = nodes or _SEARCH_NODES
    counts = [[0] * m for _ in range(TABLE)]
    left = {True: with_inf, False: without}
    chosen: list[tuple[int | None, ...]] = []
    nodes = 0

    tallies = [tuple(Counter(diffs).items()) for _, _, diffs in blocks]

    def fits(index: int) -> bool:
        return all(counts[d][x] + c <= lam for (d, x), c in tallies[index])

    def place() -> bool:
        nonlocal nodes
        nodes += 1
        if nodes > bound:
            raise _SearchExhaustedError
        target = next(((d, x) for d in (1, 2) for x in range(1, m) if counts[d][x] < lam), None)
        if target is None:
            return left[True] == 0 and left[False] == 0
        for index in supplies.get(target, ()):
            block, has_inf, diffs = blocks[index]
            if left[has_inf] == 0 or not fits(index):
                continue
            for d, x in diffs:
                counts[d][x] += 1
            left[has_inf] -= 1
            chosen.append(block)
            if place():
                return True
            chosen.pop()
            left[has_inf] += 1
            for d, x in diffs:
                counts[d][x] -= 1
        return False

    try:
        return list(chosen) if place() else None
    except _SearchExhaustedError:
        return None


class _SearchExhaustedError(Exception):
    """The search went past its bound."""


def _develop(base: Sequence[tuple[int | None, ...]], m: int) -> tuple[tuple[int, ...], ...]:
    """Every translate of every base table, inf numbered m."""
    return tuple(
        tuple(m if x is None else (x + i) % m for x in block) for block in base for i in range(m)
    )


BASE_TABLES: Final[dict[int, tuple[int, int, tuple[tuple[int | None, ...], ...]]]] = {
    # players: (modulus, lam, base tables), as `find_base_tables` found them (restarts of
    # 5,000 nodes, seeds from 0; `python -m arena.seasons.designs N` searches again).
    # Fewer tables were looked for first: none exists of the cyclic forms here for
    # 6 (lam 2) and 8 (lam 1) (exhaustive searches); none was found for 9, 12 and 16 at
    # lam 1 within the bound (16's lam-2 tables: 8 base tables, seed 5 of 3,000 nodes).
    4: (3, 2, ((None, 0, 1, 2), (None, 0, 2, 1))),
    5: (5, 1, ((0, 1, 3, 2),)),
    6: (
        5,
        4,
        (
            (None, 0, 1, 3),
            (None, 0, 1, 3),
            (0, 2, 3, 1),
            (0, 3, 4, 2),
            (None, 0, 4, 1),
            (None, 0, 4, 3),
        ),
    ),
    7: (7, 2, ((0, 1, 3, 2), (0, 1, 4, 3), (0, 2, 5, 3))),
    8: (7, 2, ((0, 3, 4, 5), (None, 0, 4, 6), (None, 0, 3, 1), (0, 4, 3, 2))),
    9: (9, 2, ((0, 3, 4, 1), (0, 7, 5, 8), (0, 6, 2, 7), (0, 4, 3, 7))),
    10: (9, 2, ((0, 1, 4, 5), (0, 6, 8, 5), (None, 0, 2, 7), (None, 0, 8, 2), (0, 8, 6, 2))),
    11: (11, 2, ((0, 1, 2, 4), (0, 2, 1, 6), (0, 3, 2, 8), (0, 4, 1, 7), (0, 7, 4, 2))),
    12: (
        11,
        2,
        (
            (0, 9, 5, 10),
            (0, 1, 3, 8),
            (0, 10, 1, 7),
            (None, 0, 3, 9),
            (None, 0, 9, 2),
            (0, 10, 7, 4),
        ),
    ),
    13: (13, 1, ((0, 5, 6, 1), (0, 2, 12, 10), (0, 6, 2, 9))),
    14: (
        13,
        2,
        (
            (0, 5, 2, 12),
            (0, 8, 9, 1),
            (0, 7, 5, 11),
            (0, 2, 11, 5),
            (None, 0, 3, 12),
            (None, 0, 3, 1),
            (0, 6, 10, 1),
        ),
    ),
    15: (
        15,
        2,
        (
            (0, 6, 7, 9),
            (0, 12, 13, 8),
            (0, 3, 14, 13),
            (0, 11, 14, 6),
            (0, 8, 6, 11),
            (0, 8, 6, 10),
            (0, 12, 11, 5),
        ),
    ),
    16: (
        15,
        2,
        (
            (0, 6, 1, 2),
            (0, 6, 1, 2),
            (0, 2, 9, 11),
            (0, 4, 3, 6),
            (0, 7, 3, 12),
            (0, 5, 13, 10),
            (None, 0, 8, 7),
            (None, 0, 12, 8),
        ),
    ),
}


def find_base_tables(
    players: int, *, restarts: int = 20, nodes: int = 5_000
) -> tuple[int, int, list[tuple[int | None, ...]]] | None:
    """Search afresh: (modulus, lam, base tables) of the first plan (fewest tables first)
    that a bounded search finds, or None."""
    for m, lam, with_inf, without in _plans(players):
        for seed in range(restarts):
            base = _search(m, lam, with_inf, without, seed=seed, nodes=nodes)
            if base is not None:
                return m, lam, base
    return None


@functools.cache
def balanced_design(players: int) -> Design:
    """The balanced round robin for `players`, from `BASE_TABLES` (searched for when a
    size is missing there).

    Raises DesignError outside `SIZES` or when no plan's search succeeds.
    """
    if players not in SIZES:
        raise DesignError(
            f"balanced round robins are made for {SIZES.start}-{SIZES.stop - 1} finalists, "
            f"not {players}"
        )
    if players in BASE_TABLES:
        m, lam, stored = BASE_TABLES[players]
        tables = _develop(stored, m)
        if is_balanced(tables, players):
            return Design(players, lam, m, stored, tables)
    for m, lam, with_inf, without in _plans(players):
        base = _search(m, lam, with_inf, without)
        if base is None:
            continue
        tables = _develop(base, m)
        if is_balanced(tables, players):
            return Design(players, lam, m, tuple(base), tables)
    raise DesignError(f"no balanced design found for {players} finalists")


def knockout_sizes() -> tuple[int, ...]:
    """Numbers of finalists a knockout of tables of four takes (top two go on)."""
    return (4, 8, 16, 32, 64)


def knockout_tables(ranked: Sequence[int]) -> list[tuple[int, ...]]:
    """One knockout round's tables from its players listed best seed first: seeds dealt
    to the tables in snake order (1..k, then k..1, ...). Raises DesignError unless the
    count is four times a power of two."""
    count = len(ranked)
    if count not in knockout_sizes():
        raise DesignError(f"a knockout takes {', '.join(map(str, knockout_sizes()))} players")
    k = count // TABLE
    tables: list[list[int]] = [[] for _ in range(k)]
    for i, player in enumerate(ranked):
        lap, place = divmod(i, k)
        tables[place if lap % 2 == 0 else k - 1 - place].append(player)
    return [tuple(t) for t in tables]


def next_round(results: Sequence[Sequence[tuple[int, float]]]) -> list[int]:
    """The players going on from one knockout round, seeded for the next: each table's
    (player, points) best (fewest points) first; the winners of all tables first, then the
    runners-up, each group in table order. A tie on points is broken by the lower player
    number (the better seed)."""
    winners, seconds = [], []
    for table in results:
        ordered = sorted(table, key=lambda pp: (pp[1], pp[0]))
        winners.append(ordered[0][0])
        seconds.append(ordered[1][0])
    return winners + seconds


if __name__ == "__main__":  # python -m arena.seasons.designs N: search for N's base tables
    import sys

    print(find_base_tables(int(sys.argv[1])))
