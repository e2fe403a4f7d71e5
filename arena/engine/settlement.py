"""Settling a hand in chips: what each seat pays in net, and what stays in the pot.

Why chips are totals of *net payments*: every consumer of a game's totals (the runner,
the replay, ratings, the site) reads "lowest total wins" and "a total reaching the
target ends the game". A seat's net payments are exactly that: fewer is better, and
reaching the stake (`Rules.target_score`) means it has run out of chips.

Settlement is arithmetic on a finished hand's points, not trick play, so it lives here
in Python, shared by both engine backends.

>>> howell = settle(Settlement.HOWELL, points=(7, 0, 2, 4), clean=(False,) * 4, pot=0,
...                 penalty_total=13)
>>> howell.paid  # 000: seven hearts put in 21 chips and take out 6, so pay 15 net
(15, -13, -5, 3)
>>> settle(Settlement.POT_LOWEST, (9, 0, 0, 17), (False, True, True, False), 1, 26)
Settled(paid=(9, -13, -13, 17), pot=1, won=True)
>>> settle(Settlement.AUCTION, (0, 6, 7, 0), (True, False, False, True), 1, 13, bid=(3, 4))
Settled(paid=(-9, 6, 7, -5), pot=0, won=True)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from .rules import Settlement


@dataclasses.dataclass(frozen=True)
class Settled:
    """One hand's settlement: each seat's net payment and the pot carried forward."""

    paid: tuple[int, ...]
    pot: int
    won: bool = True
    """Whether somebody took the pot (always true for points and Howell, which have none)."""


def settle(
    settlement: Settlement,
    points: Sequence[int],
    clean: Sequence[bool],
    pot: int,
    penalty_total: int,
    *,
    bid: tuple[int, int] | None = None,
) -> Settled:
    """Settle one hand.

    `points` are the hand's scores (moon included), `clean[s]` says seat s took no
    penalty card, `pot` is what earlier hands left, `penalty_total` the points in play,
    and `bid` (Auction Hearts only) the declarer's seat and the chips it bid.
    """
    n = len(points)
    if settlement is Settlement.POINTS:
        return Settled(tuple(points), pot)
    if settlement is Settlement.HOWELL:
        # 000 'Hearts Without Black Lady': per heart, as many chips as there are other
        # players; out, one per heart not taken: (n - 1) * p - (T - p) = n * p - T.
        return Settled(tuple(n * p - penalty_total for p in points), pot)
    if settlement is Settlement.AUCTION:
        return _settle_auction(points, clean, pot, penalty_total, bid)
    if settlement is Settlement.POOL_CLEAN:
        # 004 'Scoring': one chip each; divided equally among those with no penalty card.
        stakes = [1] * n
        winners = [seat for seat in range(n) if clean[seat]]
    else:
        # 000 'Scoring Variations': a chip for each point.
        stakes = list(points)
        if settlement is Settlement.POT_LOWEST:
            low = min(points)
            winners = [seat for seat in range(n) if points[seat] == low]
        else:  # SWEEPSTAKES: only a score of zero wins
            winners = [seat for seat in range(n) if points[seat] == 0]
    pot += sum(stakes)
    share = pot // len(winners) if winners else 0
    paid = [stake - (share if seat in winners else 0) for seat, stake in enumerate(stakes)]
    # 000: "leaving any odd chips for the next deal"; with no winner, everything stays.
    return Settled(tuple(paid), pot - share * len(winners), bool(winners))


def _settle_auction(
    points: Sequence[int],
    clean: Sequence[bool],
    pot: int,
    penalty_total: int,
    bid: tuple[int, int] | None,
) -> Settled:
    """000 'Auction Hearts': "The highest bidder puts up his chips"; "each player adds one
    chip to the pot for each card he has taken of the forbidden suit. The player taking no
    cards of the forbidden suit wins the pot; if two players score no minus points, they
    divide the pot. If an odd chip remains, it is left for the next pot. If more than two
    players take no cards of the forbidden suit, or one player takes all 13, or each player
    takes at least one, no player wins". "All 13" is every card of the suit in play (12
    when the pack is trimmed)."""
    stakes = list(points)
    if bid is not None:
        stakes[bid[0]] += bid[1]
    pot += sum(stakes)
    winners = [seat for seat, none_taken in enumerate(clean) if none_taken]
    if len(winners) > 2 or max(points) >= penalty_total > 0:
        winners = []
    share = pot // len(winners) if winners else 0
    paid = [stake - (share if seat in winners else 0) for seat, stake in enumerate(stakes)]
    return Settled(tuple(paid), pot - share * len(winners), bool(winners))
