"""The luck-adjusted score: unbiased (its mean is raw points' mean), and what it removes."""

from __future__ import annotations

import random

import pytest

from arena.benchmarks.separation import LuckCache, play_match, table_result
from arena.engine import preset
from arena.ratings.luck import (
    PlayedGame,
    evaluate_deal,
    games_from_replay,
    luck_terms,
    measure_format,
    measure_luck,
)

RULES = preset("standard")
STRENGTHS = (0.0, 0.4, 0.7, 1.0)


def simulated_games(count: int, *, duplicate: bool = False, seed: int = 5) -> list[PlayedGame]:
    rng = random.Random(seed)
    games: list[PlayedGame] = []
    for _ in range(count):
        table = [0, 1, 2, 3]
        rng.shuffle(table)
        games.extend(play_match(RULES, STRENGTHS, table, rng.getrandbits(63), duplicate).games)
    return games


def test_a_deal_is_evaluated_the_same_way_every_time_and_luck_sums_to_zero() -> None:
    first = evaluate_deal(RULES, 12345, 0, "left")
    assert first == evaluate_deal(RULES, 12345, 0, "left")
    assert sum(first) in (26.0, 78.0) or 26.0 <= sum(first) <= 78.0
    assert sum(luck_terms(first)) == pytest.approx(0.0)


def test_the_adjusted_mean_equals_the_raw_mean_for_every_player() -> None:
    games = simulated_games(100)
    figures = measure_luck(RULES, games)
    assert figures.hands > 3000  # seat-hands
    for player in range(4):
        difference = figures.mean_raw[player] - figures.mean_adjusted[player]
        assert abs(difference) <= 3 * figures.standard_error[player], (player, difference)
    # the order of the players by points is the order of their strengths either way
    by_raw = sorted(range(4), key=figures.mean_raw.__getitem__)
    assert by_raw == sorted(range(4), key=figures.mean_adjusted.__getitem__) == [3, 2, 1, 0]
    assert 0.8 < figures.reduction < 1.5  # measured, not assumed: docs/ratings.md


def test_an_evaluation_that_sees_the_play_is_caught_as_biased() -> None:
    # the check above can fail: "evaluate" each deal by the points really taken, which
    # holds the players' skill, not luck: the strongest and weakest means move far
    games = simulated_games(40)
    seen = {(s, d, p): tuple(float(x) for x in pts) for g in games for s, d, p, pts in g.hands}
    figures = measure_luck(RULES, games, evaluations=seen)
    biased = [
        abs(figures.mean_raw[p] - figures.mean_adjusted[p]) > 3 * figures.standard_error[p]
        for p in (0, 3)
    ]
    assert all(biased)


def test_no_evaluation_no_adjustment() -> None:
    games = simulated_games(10)
    flat = {(s, d, p): (0.0, 0.0, 0.0, 0.0) for g in games for s, d, p, _ in g.hands}
    figures = measure_luck(RULES, games, evaluations=flat)
    assert figures.reduction == pytest.approx(1.0)
    assert figures.mean_raw == figures.mean_adjusted


def test_duplicate_sets_cancel_the_deal_and_measure_format_says_how_much() -> None:
    games = simulated_games(40, duplicate=True)
    figures = measure_format(games)
    assert figures.duplicate_sets == 40 and figures.single_games == 160
    assert figures.reduction is not None and figures.reduction > 1.0
    singles = measure_format(simulated_games(20))
    assert singles.reduction is None and singles.duplicate_sets == 0


def test_the_luck_terms_of_a_duplicate_set_nearly_cancel() -> None:
    luck = LuckCache(RULES)
    rng = random.Random(2)
    match = play_match(RULES, STRENGTHS, [0, 1, 2, 3], rng.getrandbits(63), True)
    raw = table_result(match, None)
    adjusted = table_result(match, luck)
    # hands every rotation reached cancel exactly; only the extra hands of longer games move
    moved = [abs(a - r) for a, r in zip(adjusted.points, raw.points, strict=True)]
    assert max(moved) < 0.2 * max(abs(p) for p in raw.points)


def test_a_replay_document_becomes_games() -> None:
    replay = {
        "games": [
            {
                "seating": [1, 0],
                "hands": [{"seed": 7, "dealer": 0, "pass_direction": "left", "points": [3, 23]}],
            }
        ]
    }
    (game,) = games_from_replay(9, replay, ["a", "b"])
    assert game.seating == ("b", "a") and game.hands == ((7, 0, "left", (3, 23)),)
    with pytest.raises(KeyError):
        games_from_replay(9, {"games": [{"seating": [0], "hands": [{}]}]}, ["a"])


@pytest.mark.parametrize("name", ["pledge", "dealer_counts", "dealer_calls"])
def test_a_deal_with_other_decisions_is_evaluated_with_their_defaults(name: str) -> None:
    # 004's pledge and the dealer's call (with its count) are answered by their defaults,
    # the same at every seat: the evaluation is the one of the pass the default calls.
    rules = preset(name)
    evaluation = evaluate_deal(rules, 12345, 0, rules.pass_direction(0), playouts=2)
    plain = preset("standard")
    assert evaluation == evaluate_deal(plain, 12345, 0, "left", playouts=2)
