"""A match's standings from its games: each entrant's score (and lives) over the games,
and its rank. Shared by the runner, which writes the result, and the verifier, which
checks it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def match_scores(games: Sequence[dict[str, Any]], players: int) -> tuple[list[int], list[int]]:
    """Per entrant, its totals summed over the games played, and (Danger Hearts) the lives
    it had left at their ends, summed likewise (0 for rules without lives)."""
    scores, lives = [0] * players, [0] * players
    for game in games:
        if "totals" not in game:
            continue
        for seat, total in enumerate(game["totals"]):
            scores[game["seating"][seat]] += total
        for seat, left in enumerate(game.get("lives", ())):
            lives[game["seating"][seat]] += left
    return scores, lives


def rank_entrants(
    scores: Sequence[int], disqualified: Sequence[bool], lives: Sequence[int] | None = None
) -> list[int]:
    """1 = best (lowest score; with `lives`, Danger Hearts: the most lives first); ties
    share a rank; disqualified entrants share the last rank.

    >>> rank_entrants([10, 5, 10, 0], [False, False, False, True])
    [2, 1, 2, 4]
    >>> rank_entrants([10, 5, 30, 0], [False] * 4, lives=[2, 0, 2, 1])
    [1, 4, 2, 3]
    """
    left = lives if lives is not None else [0] * len(scores)
    keys = [
        (dq, 0 if dq else -alive, 0 if dq else score)
        for score, dq, alive in zip(scores, disqualified, left, strict=True)
    ]
    return [1 + sum(other < key for other in keys) for key in keys]
