"""A final's schedules: the balanced round robin of every supported size, counted pair by
pair and seat by seat, and the knockout's rounds."""

from __future__ import annotations

from itertools import combinations

import pytest

from arena.seasons.designs import (
    BASE_TABLES,
    SIZES,
    DesignError,
    _develop,
    _search,
    balanced_design,
    find_base_tables,
    is_balanced,
    knockout_tables,
    next_round,
    relative_seats,
)


@pytest.mark.parametrize("players", list(SIZES))
def test_every_pair_meets_equally_often_in_every_relative_seat(players: int) -> None:
    design = balanced_design(players)
    counts = relative_seats(design.tables)
    for a in range(players):
        for b in range(players):
            if a == b:
                continue
            for d in (1, 2, 3):
                assert counts[(a, b, d)] == design.lam, (a, b, d)
    assert sum(counts.values()) == 12 * len(design.tables)
    assert len(design.tables) == design.lam * players * (players - 1) // 4
    assert all(len(set(t)) == 4 and set(t) <= set(range(players)) for t in design.tables)
    # far fewer tables than every seating of every four
    assert len(design.tables) < 6 * len(list(combinations(range(players), 4))) or players == 4


def test_the_balance_check_fails_an_unbalanced_schedule() -> None:
    tables = list(balanced_design(8).tables)
    tables[0] = (tables[0][1], tables[0][0], tables[0][2], tables[0][3])  # two seats swapped
    assert not is_balanced(tables, 8)
    assert not is_balanced(balanced_design(8).tables[:-1], 8)


def test_the_stored_base_tables_are_what_the_search_finds_balanced() -> None:
    for players, (m, _, base) in BASE_TABLES.items():
        assert is_balanced(_develop(base, m), players)
    found = find_base_tables(7)
    assert found is not None
    m, lam, found_base = found
    assert (m, lam) == (7, 2) and is_balanced(_develop(found_base, m), 7)
    # the exhaustive search: no Z_7-and-inf design with every pair once per seat for 8
    assert _search(7, 1, 1, 1, nodes=10**7) is None


def test_sizes_outside_the_supported_range_are_refused() -> None:
    with pytest.raises(DesignError, match="4-16"):
        balanced_design(3)
    with pytest.raises(DesignError, match="4-16"):
        balanced_design(17)


def test_a_knockout_seats_seeds_in_snake_order_and_the_top_two_go_on() -> None:
    assert knockout_tables(list(range(1, 17))) == [
        (1, 8, 9, 16),
        (2, 7, 10, 15),
        (3, 6, 11, 14),
        (4, 5, 12, 13),
    ]
    results = [
        [(1, 30.0), (8, 10.0), (9, 50.0), (16, 20.0)],
        [(2, 5.0), (7, 5.0), (10, 1.0), (15, 9.0)],
    ]
    # fewest points first; equal points: the better seed
    assert next_round(results) == [8, 10, 16, 2]
    with pytest.raises(DesignError):
        knockout_tables(list(range(6)))
