"""Matchmaking rules, named after the rule they check (pure functions, no database)."""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

import pytest

from arena.seasons.matchmaking import (
    History,
    MatchmakingSettings,
    Player,
    make_tables,
    priority_order,
    rotations,
)

pytestmark = pytest.mark.timeout(60)
SETTINGS = MatchmakingSettings()


def field(count: int, spacing: float = 50.0, games: int = 10) -> list[Player]:
    return [Player(i, 1000.0 + spacing * i, games) for i in range(1, count + 1)]


def tables_of(
    players: list[Player],
    *,
    settings: MatchmakingSettings = SETTINGS,
    history: History | None = None,
    house: Sequence[Player] = (),
) -> list[tuple[int, ...]]:
    return make_tables(
        players, 4, settings, history or History(), house=house, rng=random.Random(3)
    )


def test_everyone_plays_once_when_the_field_fills_the_tables() -> None:
    tables = tables_of(field(12))
    seated = [p for table in tables for p in table]
    assert len(tables) == 3 and sorted(seated) == list(range(1, 13))


def test_house_bots_fill_the_empty_seats() -> None:
    house = [Player(100 + i, 1000.0 + 300 * i, 0) for i in range(4)]
    tables = tables_of(field(6), house=house)
    seated = [p for table in tables for p in table]
    assert sorted(p for p in seated if p < 100) == list(range(1, 7))
    assert len(tables) == 2 and all(len(t) == len(set(t)) == 4 for t in tables)
    assert sum(p >= 100 for p in seated) == 2


def test_house_fillers_are_the_nearest_in_rating() -> None:
    house = [Player(100, 0.0, 0), Player(101, 1060.0, 0), Player(102, 1040.0, 0)]
    (table,) = tables_of(field(2, spacing=10), house=house)
    assert sorted(table) == [1, 2, 101, 102]


def test_without_house_bots_the_leftovers_wait() -> None:
    tables = tables_of(field(6), settings=MatchmakingSettings(fill_with_house=False))
    assert len(tables) == 1


def test_least_played_first() -> None:
    players = field(12)
    players[7] = Player(8, players[7].elo, games=0)
    (table,) = tables_of(players, settings=MatchmakingSettings(tables_per_round=1))
    assert 8 in table


def test_newest_version_first_among_equals() -> None:
    assert [p.bot_version_id for p in priority_order(field(3))] == [3, 2, 1]


def test_opponents_near_in_rating() -> None:
    tables = tables_of(field(16, spacing=100))
    for table in tables:
        assert max(table) - min(table) == 3  # four neighbours on the Elo line


def test_opponents_on_both_sides_of_the_anchor() -> None:
    players = field(9, spacing=10)
    players[4] = Player(5, players[4].elo, games=0)  # the middle player is the anchor
    (table,) = tables_of(players, settings=MatchmakingSettings(tables_per_round=1))
    assert 5 in table and min(table) < 5 < max(table)


def test_the_same_table_not_repeated_too_often() -> None:
    players = field(8, spacing=10)
    first = tables_of(players)
    again = tables_of(players, history=History(first))
    assert {frozenset(t) for t in again}.isdisjoint({frozenset(t) for t in first})


def test_recent_opponents_are_avoided_when_others_are_near() -> None:
    players = field(8, spacing=1)
    history = History([(5, 6, 7, 8), (5, 6, 7, 8), (1, 2, 3, 4)])
    tables = tables_of(players, history=history)
    assert all(len(set(t) & {5, 6, 7, 8}) < 4 for t in tables)


def test_a_small_field_repeats_rather_than_idles() -> None:
    players = field(4)
    history = History([(1, 2, 3, 4)] * 3)
    assert [sorted(t) for t in tables_of(players, history=history)] == [[1, 2, 3, 4]]


def test_duplicate_set_rotations_seat_everyone_everywhere() -> None:
    sets = rotations((10, 20, 30, 40))
    assert len(sets) == 4
    for seat in range(4):
        assert sorted(s[seat] for s in sets) == [10, 20, 30, 40]


def test_deterministic_for_a_seed() -> None:
    players = field(40, spacing=7)
    assert tables_of(players) == tables_of(players)


def test_settings_round_trip_and_validate() -> None:
    settings = MatchmakingSettings(tables_per_round=5, duplicate_sets=True)
    assert MatchmakingSettings.from_dict(settings.to_dict()) == settings
    with pytest.raises(ValueError, match="unknown matchmaking setting"):
        MatchmakingSettings.from_dict({"teams": 2})
    with pytest.raises(ValueError, match="search_width"):
        MatchmakingSettings(search_width=0)


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError, match="listed twice"):
        tables_of([Player(1, 1.0, 0), Player(1, 2.0, 0)])
    with pytest.raises(ValueError, match="two seats"):
        make_tables(field(4), 1, SETTINGS, History(), rng=random.Random(1))


def test_ten_thousand_players_in_well_under_a_second() -> None:
    rng = random.Random(5)
    players = [Player(i, rng.gauss(1500, 200), rng.randint(30, 50)) for i in range(10_000)]
    history = History(rng.sample(range(10_000), 4) for _ in range(7_500))
    start = time.process_time()
    tables = make_tables(players, 4, SETTINGS, history, rng=random.Random(1))
    assert len(tables) == 2_500
    assert time.process_time() - start < 0.75
