"""Danger Hearts (004 'Other Variations'): "10 rounds are played using standard scoring,
yet each player has three lives. If a player receives 15 hearts (and over) in a round,
they lose a life. Further rounds are played until an overall winner is decided."

The games are played with random legal cards; every fact the Game reports is checked
against a recount from the hands' own scores."""

import pytest

from arena.engine import Game, RulesError, preset
from arena.engine.game import DANGER_EXTRA_HANDS
from tests.engine.test_game import play_game


def _play(rules, seed):
    return play_game(Game(rules, seed), seed)


def _recount(rules, hand_scores):
    """Lives after each hand, recounted: a hand of danger_points or more costs one."""
    lives = [rules.lives] * rules.players
    after = []
    for scores in hand_scores:
        lives = [
            left - 1 if score >= rules.danger_points and left else left
            for left, score in zip(lives, scores, strict=True)
        ]
        after.append(tuple(lives))
    return after


def _decided(lives, totals):
    keys = [(-left, total) for left, total in zip(lives, totals, strict=True)]
    return keys.count(min(keys)) == 1


@pytest.mark.parametrize("seed", range(12))
def test_lives_and_the_end_follow_the_hands_scores(seed):
    rules = preset("danger")
    game = _play(rules, seed)
    after = _recount(rules, game.hand_scores)
    assert game.hand_lives == after
    assert game.lives == list(after[-1])
    totals = [0] * rules.players
    for number, (scores, lives) in enumerate(zip(game.hand_scores, after, strict=True), 1):
        totals = [t + s for t, s in zip(totals, scores, strict=True)]
        alive = sum(1 for left in lives if left)
        over = alive <= 1 or (
            number >= 10 and (_decided(lives, totals) or number >= 10 + DANGER_EXTRA_HANDS)
        )
        assert over == (number == len(game.hand_scores)), f"hand {number}"
    assert game.totals == totals


def test_a_hand_of_fifteen_points_costs_a_life_and_fourteen_does_not():
    rules = preset("danger")
    game = _play(rules, 3)
    for scores, before, after in zip(
        game.hand_scores, [(3,) * 4, *game.hand_lives], game.hand_lives, strict=False
    ):
        for seat in range(4):
            lost = before[seat] - after[seat]
            assert lost == (1 if scores[seat] >= 15 and before[seat] else 0)


def test_the_winner_has_the_most_lives_then_the_lowest_total():
    # With every point costing a life, lives run out quickly: the game ends as soon as
    # one player (or none) has a life left, and lives outrank points.
    rules = preset("danger").replace(danger_points=1)
    for seed in range(8):
        game = _play(rules, seed)
        assert sum(1 for left in game.lives if left) <= 1 or len(game.hand_scores) >= 10
        keys = [(-left, total) for left, total in zip(game.lives, game.totals, strict=True)]
        assert game.ranking() == tuple(1 + sum(o < k for o in keys) for k in keys)
        best = min(keys)
        assert game.winners() == tuple(s for s, k in enumerate(keys) if k == best)


def test_a_moon_costs_everyone_else_a_life():
    # Old moon: the shooter scores 0 and the others 26, over the 15 that cost a life.
    rules = preset("danger")
    for seed in range(400):
        game = _play(rules.replace(max_hands=1), seed)
        scores = game.hand_scores[0]
        if sorted(scores) == [0, 26, 26, 26]:
            assert sorted(game.lives) == [2, 2, 2, 3]
            return
    pytest.skip("no moon in 400 random hands")


def test_lives_need_rounds_and_the_points_sheet():
    with pytest.raises(RulesError, match="needs max_hands"):
        preset("standard").replace(lives=3, danger_points=15)
    with pytest.raises(RulesError, match="needs danger_points"):
        preset("danger").replace(danger_points=0)
    with pytest.raises(RulesError, match="no lives"):
        preset("standard").replace(danger_points=15)
