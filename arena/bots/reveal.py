"""Heartless (003): which card a house bot lays face down to steer the scoring suit.

The suit of the highest card shown scores this hand, a point a card, and that suit's
queen 13 (hearts: the QS, spades: the QD, diamonds: the QC, clubs: the QH). A bot wants
the suit whose cards it can most easily avoid winning: few high cards in it, and not
holding its queen. So it shows its highest card of that suit, which pulls the choice
there as hard as any card it holds can.
"""

from __future__ import annotations

from arena.engine import Card, SeatView, Suit
from arena.engine.rules import SCORING_QUEENS

HIGH_RANK_FLOOR = 7  # rank indices run 0 (the two) to 12 (the ace): the ten and above


def exposure(view: SeatView, suit: Suit) -> int:
    """How much this hand would suffer if `suit` scored: its high cards in the suit, and
    13 if it holds the suit's scoring queen."""
    held = [card for card in view.hand if card.suit is suit]
    danger = sum(max(0, card.rank - HIGH_RANK_FLOOR) for card in held)
    return danger + (13 if SCORING_QUEENS[suit] in view.hand else 0)


def steer_reveal(view: SeatView) -> Card:
    """The highest card of the held suit with the least exposure (ties: fewer cards held,
    then suit order, so the choice is deterministic)."""
    suits = {card.suit for card in view.hand if card.suit is not None}
    best = min(
        suits,
        key=lambda s: (exposure(view, s), sum(c.suit is s for c in view.hand), int(s)),
    )
    return max((card for card in view.hand if card.suit is best), key=lambda c: c.rank)
