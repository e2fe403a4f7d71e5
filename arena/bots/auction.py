"""Auction Hearts (000): how a house bot bids for, and names, the suit to avoid.

Each card of the named suit taken costs a chip, and the one or two players who take
none share the pot, so the bidder wants the suit it can most surely duck: few high
cards in it (a low card can be played under others), and few cards at all (once void,
it can throw the suit's cards away). It bids only when that suit looks safe, and only
as high as that safety justifies: the bid is lost unless it takes none.
"""

from __future__ import annotations

from arena.engine import SeatView, Suit

HIGH_RANK_FLOOR = 6  # rank indices run 0 (the two) to 12 (the ace): the nine and above
SAFE_BID = 3  # chips worth risking on a suit with no high card held
FAIR_BID = 1  # chips worth risking on a suit with one middling high card


def danger(view: SeatView, suit: Suit) -> int:
    """How likely this hand is to take cards of `suit`: the height of its high cards in
    the suit, plus one per card held beyond three (long suits are hard to get rid of)."""
    held = [card for card in view.hand if card.suit is suit]
    return sum(max(0, card.rank - HIGH_RANK_FLOOR) for card in held) + max(0, len(held) - 3)


def safest_suit(view: SeatView) -> Suit:
    """The suit with the least danger (ties: fewer cards held, then suit order)."""
    return min(Suit, key=lambda s: (danger(view, s), sum(c.suit is s for c in view.hand), int(s)))


def auction_bid(view: SeatView) -> int | None:
    """The least bid that outbids the table, if the safest suit is worth that much; else
    a pass."""
    risk = danger(view, safest_suit(view))
    worth = SAFE_BID if risk == 0 else FAIR_BID if risk <= 2 else 0
    best = max((chips for _, chips in view.bids if chips is not None), default=0)
    bid = best + 1
    return bid if bid <= min(worth, view.rules.max_bid) else None
