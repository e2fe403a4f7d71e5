"""The shooter's choice (004 'Shooting the moon'), judged exactly: it is made after the last
trick, with every card known, so nothing is sampled.

Counted as every other decision is, by the seat's points minus the mean of the others',
"add" and "subtract" are worth the same (26 to each other seat, or 26 off one's own: the
margins move alike), so the hand cannot decide it: the match does. A choice is worth its
hand score plus what it does to the game: one that ends the game (a total reaching the
target, or the last hand) with the shooter first (the lowest total, alone or tied) is
worth `stake` points less, one that ends it with the shooter behind `stake` points more,
and a game that goes on is worth its hand score alone (the hands to come are the same
whatever was chosen). `stake` is half the moon's points, so ending a game won rather than
lost is a whole moon's difference.
"""

from __future__ import annotations

from collections.abc import Sequence

from arena.engine import Hand, Rules
from arena.engine import config as core_config

from .evaluator import AnswerValue, Evaluation

_CODES = {"add": core_config.MOON_CHOICE_ADD, "subtract": core_config.MOON_CHOICE_SUBTRACT}


def game_ends(rules: Rules, totals: Sequence[int], hands_played: int) -> bool:
    """Whether a game with these `totals` after `hands_played` hands is over (a target
    reached, or the rules' number of hands played)."""
    if rules.target_score is not None and max(totals) >= rules.target_score:
        return True
    return rules.max_hands is not None and hands_played >= rules.max_hands


def evaluate_moon_choice(
    hand: Hand, seat: int, totals: Sequence[int], number: int, first: str
) -> Evaluation:
    """Both choices of the shooter `seat` of the finished `hand` (the game's `totals` before
    it; `number`: the hand's 0-based number in its game), best first. Only what every seat
    sees at the hand's end is read: the cards each took (the scores) and the totals.
    `first` (the choice made) is listed first, so it wins a tie."""
    rules = hand.base_rules
    n = rules.players
    picked = hand.core_points(totals)
    stake = sum(max(v, 0) for v in rules.card_values.values()) / 2
    adjust = dict(rules.exact_score_adjustments)
    values = []
    for choice, code in sorted(_CODES.items(), key=lambda item: item[0] != first):
        points = hand.core_points(totals, code)
        # The other rooms' scores (a pledge's ten) are the same whatever the choice.
        scores = [p + (s - q) for p, s, q in zip(points, hand.points(totals), picked, strict=True)]
        mine = scores[seat]
        margin = (mine * (n - 1) - (sum(scores) - mine)) / (n - 1)
        after = [adjust.get(t + s, t + s) for t, s in zip(totals, scores, strict=True)]
        if game_ends(rules, after, number + 1):
            margin += -stake if after[seat] == min(after) else stake
        values.append(AnswerValue(choice, round(margin, 3), float(mine), 1.0))
    return Evaluation(tuple(sorted(values, key=lambda v: v.score)), 1)
