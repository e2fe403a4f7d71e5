"""Royal Hearts (004 'Royal Hearts'): what the cards a seat has taken are worth so far.

Why in Python as well as in the backends: the backends score a finished hand; a seat's
running points (`SeatView.points_taken`) are asked for at every decision, from the tricks
already played, and must follow the same rules as the hand's final score, the moon aside.

>>> from arena.engine import preset
>>> from arena.engine.cards import CardSet
>>> rules = preset("royal")
>>> royal_points(rules.card_values, CardSet.parse("2H 3H QH"))  # the QH doubles: (1+1+1)*2
6
>>> royal_points(rules.card_values, CardSet.parse("QS QC"))  # the QC cancels the QS
0
>>> royal_points(rules.card_values, CardSet.parse("QD 2H"))  # -10 + 1, floored at 0
0
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from .cards import Card, Suit

QUEEN_OF_HEARTS = Card.from_str("QH")
QUEEN_OF_CLUBS = Card.from_str("QC")
QUEEN_OF_SPADES = Card.from_str("QS")


def royal_points(values: Mapping[Card, int], taken: Iterable[Card]) -> int:
    """The hearts' values, doubled with the QH; the QS's unless the QC came too; every
    other card's value; never below 0 ("this cannot result in a negative score")."""
    cards = set(taken)
    hearts = sum(values.get(card, 0) for card in cards if card.suit is Suit.HEARTS)
    if QUEEN_OF_HEARTS in cards:
        hearts *= 2
    others = sum(
        values.get(card, 0)
        for card in cards
        if card.suit is not Suit.HEARTS and card is not QUEEN_OF_SPADES
    )
    if QUEEN_OF_SPADES in cards and QUEEN_OF_CLUBS not in cards:
        others += values.get(QUEEN_OF_SPADES, 0)
    return max(0, hearts + others)
