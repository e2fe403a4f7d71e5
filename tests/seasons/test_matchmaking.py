"""Matchmaking rules, named after the rule they check (pure functions, no database)."""

from __future__ import annotations

import random
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


def test_ten_thousand_players_make_a_full_round_each_seated_once() -> None:
    # How fast a round of this size is made is `arena bench store`'s figure, not a test's.
    rng = random.Random(5)
    players = [Player(i, rng.gauss(1500, 200), rng.randint(30, 50)) for i in range(10_000)]
    history = History(rng.sample(range(10_000), 4) for _ in range(7_500))
    tables = make_tables(players, 4, SETTINGS, history, rng=random.Random(1))
    assert len(tables) == 2_500
    seated = [player for table in tables for player in table]
    assert len(seated) == 10_000 and set(seated) == set(range(10_000))


def test_no_rated_table_seats_two_versions_of_one_owner_over_a_long_season() -> None:
    """200 rounds, 60 versions of 18 owners (most with several bots, one with eight),
    with moving Elos, in-flight limits via a random half of the field each round, and
    the repeat rules on: never two versions of one owner at a table."""
    rng = random.Random(11)
    owners = [i % 18 for i in range(60)]
    owners[:8] = [0] * 8
    elos = [1500.0 + rng.uniform(-300, 300) for _ in owners]
    games = [0] * len(owners)
    recent: list[list[tuple[int, ...]]] = []
    house = [Player(1000 + i, 1500.0, 0) for i in range(3)]
    seated = 0
    for _ in range(200):
        eligible = [i for i in range(len(owners)) if rng.random() < 0.8]
        players = [Player(i, elos[i], games[i], owner=owners[i]) for i in eligible]
        history = History(t for round_tables in recent[-3:] for t in round_tables)
        tables = make_tables(players, 4, MatchmakingSettings(), history, house=house, rng=rng)
        for table in tables:
            entrants = [p for p in table if p < 1000]
            assert len({owners[p] for p in entrants}) == len(entrants), table
            for p in entrants:
                games[p] += 1
                elos[p] += rng.gauss(0, 20)
            seated += len(entrants)
        recent.append(tables)
    assert seated > 200 * 40  # the rule did not simply leave players out
    assert min(games) > 100


def test_an_owner_with_many_bots_still_gets_tables_from_outside_the_window() -> None:
    # eight newest versions of one owner packed together in Elo (they anchor first), and
    # three others far away: the anchor's window holds only its siblings, so the search
    # widens and finds the outsiders; the siblings left over sit out rather than meet
    ours = [Player(100 + i, 1500.0 + i, 0, owner=7) for i in range(8)]
    others = [Player(1 + i, 2500.0 + i, 0, owner=1 + i) for i in range(3)]
    tables = make_tables(
        ours + others, 4, MatchmakingSettings(search_width=2), History(), rng=random.Random(1)
    )
    assert [sorted(t) for t in tables] == [[1, 2, 3, 107]]
    filled = make_tables(
        ours + others,
        4,
        MatchmakingSettings(search_width=2),
        History(),
        house=[Player(1000 + i, 1500.0, 0) for i in range(3)],
        rng=random.Random(1),
    )
    assert len(filled) == 8  # with house bots to fill, every sibling plays, each apart
    for table in filled:
        assert sum(1 for p in table if 100 <= p < 1000) == 1


def test_active_choice_seats_the_uncertain_together() -> None:
    # four veterans close in Elo but already told apart (narrow intervals), and four
    # newcomers above them whose wide intervals overlap everyone's: Elo seats the
    # veterans together, where nothing is left to learn; active choice mixes them in
    def player(i: int, centre: float, half: float) -> Player:
        return Player(i, centre, 5, interval=(centre - half, centre + half))

    players = [player(5 + i, 1500.0 + 10 * i, 2.0) for i in range(4)]
    players += [player(1 + i, 1600.0 + 100 * i, 500.0) for i in range(4)]
    plain = make_tables(players, 4, MatchmakingSettings(), History(), rng=random.Random(2))
    active = make_tables(
        players, 4, MatchmakingSettings(active_choice=True), History(), rng=random.Random(2)
    )
    by_id = {p.bot_version_id: p for p in players}

    def unresolved_pairs(tables: list[tuple[int, ...]]) -> int:
        """Seated pairs whose intervals overlap: the meetings that can still teach us."""
        count = 0
        for table in tables:
            for i, a in enumerate(table):
                for b in table[i + 1 :]:
                    separation = by_id[a].separation(by_id[b])
                    count += separation is not None and separation <= 1.0
        return count

    assert unresolved_pairs(active) > unresolved_pairs(plain)
    assert sorted(len(t) for t in active) == [4, 4]  # everyone still plays


def test_separation_is_in_interval_widths() -> None:
    a = Player(1, 0.0, 0, interval=(-1.0, 1.0))
    assert a.separation(Player(2, 0.0, 0, interval=(3.0, 5.0))) == pytest.approx(2.0)
    assert a.separation(Player(3, 0.0, 0)) is None
    with pytest.raises(ValueError, match="active_scale"):
        MatchmakingSettings(active_choice=True, active_scale=-1.0)
