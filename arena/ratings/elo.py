"""Elo for free-for-all tables of N players: a table's final ranking as pairwise games.

The formula. At a table of n players with ratings R_1..R_n and final places p_1..p_n
(1 = best; tied players share a place), every player i is taken to have played one game
against each other player j:

    S_ij = 1 if p_i < p_j,  1/2 if p_i == p_j,  0 if p_i > p_j      (the result)
    E_ij = 1 / (1 + 10 ** ((R_j - R_i) / 400))                       (the expectation)
    R_i' = R_i + K_i / (n - 1) * sum over j != i of (S_ij - E_ij)

Why pairwise: a Hearts table has one winner but a full order, and second place out of
four says more than "lost". Splitting the order into the n(n-1)/2 pairs keeps every bit of
it, makes 2-player Elo the special case n = 2, and keeps the meaning of a rating
difference: 200 points is a 76% chance of finishing above that opponent.

Why K / (n - 1): a table is one game, not n - 1 games. Without the division a player's
rating would move n - 1 times as far per table as in a two-player game and the ladder
would be as noisy as its opponents are many; with it, the most a player can gain from one
table is K, whatever the table size, so K means the same for every season.

Why ties are draws: Hearts ranks by total points, equal totals share a place, and
sharing a place is exactly a draw between those two players (S = 1/2).

Why a higher K while provisional: a new version starts at the default rating, which is
almost certainly wrong. A larger K for its first `provisional_games` tables moves it
quickly to roughly where it belongs; after that the normal K keeps the ladder stable.
Each player's own K applies to its own update, so an established player is moved by its
normal K even when it met a provisional one.

All updates at a table use the ratings from before the table (simultaneous updates), so
the result does not depend on the order of the seats. When every player has the same K
the ratings gained and lost add up to zero.

>>> a, b, c, d = (EloRating(1500.0) for _ in range(4))
>>> [round(r.elo, 2) for r in rate_table([a, b, c, d], [1, 2, 3, 4])]
[1532.0, 1510.67, 1489.33, 1468.0]
>>> round(expected_score(1700, 1500), 3)
0.76
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from typing import Final

DEFAULT_ELO: Final = 1500.0
"""Every bot version starts each season here."""

ELO_SCALE: Final = 400.0
"""Rating points per factor of ten in the odds (the conventional Elo scale)."""


@dataclasses.dataclass(frozen=True)
class EloSettings:
    """The constants of the update; a season could carry its own, the defaults are ours.

    `k` is the most an established player can move in one table; `provisional_k` the
    same while the player has fewer than `provisional_games` rated tables.
    """

    k: float = 24.0
    provisional_k: float = 64.0
    provisional_games: int = 12

    def __post_init__(self) -> None:
        if self.k <= 0 or self.provisional_k <= 0:
            raise ValueError(f"K factors must be positive, not {self.k} / {self.provisional_k}")
        if self.provisional_games < 0:
            raise ValueError(f"provisional_games must be >= 0, not {self.provisional_games}")

    def k_for(self, games: int) -> float:
        """The K that applies to a player with `games` rated tables behind it."""
        return self.provisional_k if games < self.provisional_games else self.k


DEFAULT_SETTINGS: Final = EloSettings()


@dataclasses.dataclass(frozen=True)
class EloRating:
    """A player's Elo and how many rated tables it rests on."""

    elo: float = DEFAULT_ELO
    games: int = 0

    def is_provisional(self, settings: EloSettings = DEFAULT_SETTINGS) -> bool:
        """Whether the provisional K still applies."""
        return self.games < settings.provisional_games


def expected_score(rating: float, opponent: float) -> float:
    """E: the expected share of a pairwise game (1 win, 1/2 draw) against `opponent`."""
    return 1.0 / (1.0 + math.pow(10.0, (opponent - rating) / ELO_SCALE))


def pairwise_result(place: int, other_place: int) -> float:
    """S: 1 for finishing above the other player, 1/2 for sharing a place, 0 for below."""
    if place < other_place:
        return 1.0
    if place == other_place:
        return 0.5
    return 0.0


def places_from_scores(scores: Sequence[int]) -> tuple[int, ...]:
    """Hearts places from final totals: lowest total is 1st, equal totals share a place.

    >>> places_from_scores([57, 70, 49, 110])
    (2, 3, 1, 4)
    >>> places_from_scores([20, 20, 60])
    (1, 1, 3)
    """
    return tuple(1 + sum(other < score for other in scores) for score in scores)


def rate_table(
    ratings: Sequence[EloRating],
    places: Sequence[int],
    settings: EloSettings = DEFAULT_SETTINGS,
) -> tuple[EloRating, ...]:
    """The players' ratings after one table, in the same order, each with one more game.

    Raises ValueError when there are fewer than two players, when `places` does not have
    one place per player, or when a place is below 1.
    """
    n = len(ratings)
    if n < 2:
        raise ValueError(f"a rated table needs at least two players, not {n}")
    if len(places) != n:
        raise ValueError(f"{len(places)} places for {n} players")
    if min(places) < 1:
        raise ValueError(f"places start at 1, got {list(places)}")
    updated = []
    for i, player in enumerate(ratings):
        surprise = sum(
            pairwise_result(places[i], places[j]) - expected_score(player.elo, other.elo)
            for j, other in enumerate(ratings)
            if j != i
        )
        step = settings.k_for(player.games) / (n - 1)
        updated.append(EloRating(player.elo + step * surprise, player.games + 1))
    return tuple(updated)
