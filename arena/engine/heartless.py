"""Heartless (003 'HEARTLESS'): which suit scores, from the cards the players turn over.

Why a module of its own: the choice is a pure function of the revealed cards and the
dealer, used by `Hand` when the last seat reveals, and by anyone (a bot, a replay viewer)
who wants to know what a set of reveals would choose. The rules it implements, quoted
from 003 'HEARTLESS':

1. "The suit containing the highest card (Two is low, Ace is high) is the scoring suit."
2. "If there is a tie, then the suit containing the most cards is the scoring suit."
   We read "cards" as the revealed cards: among the suits of the tied highest cards, the
   one with the most revealed cards in it.
3. "If there is still a tie, then look at the cards moving clockwise around the table
   beginning to the left of the dealer. The first high card determines the scoring
   suit." We read "high card" as one of the tied highest cards whose suit is still tied.

>>> def suit(text, dealer=0):  # reveals by seat, as text
...     return scoring_suit_of(text.split(), dealer).name
>>> suit("2C KD 9S 4H")  # rule 1: the king is the highest card
'DIAMONDS'
>>> suit("AC AH 5H 9D")  # rule 2: two aces; hearts has two cards revealed, clubs one
'HEARTS'
>>> suit("AC AH 5D 9S", dealer=0)  # rule 3: the first ace clockwise from seat 1 is the AH
'HEARTS'
>>> suit("AC AH 5D 9S", dealer=1)  # ... and from seat 2 it is the AC (seat 0)
'CLUBS'
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import Card, CardLike, Suit, to_card

__all__ = ["scoring_suit_of"]


def scoring_suit_of(reveals: Sequence[CardLike], dealer: int) -> Suit:
    """The scoring suit chosen by `reveals[seat]`, each seat's face-down card, for a hand
    dealt by `dealer` (003 'HEARTLESS'; the three rules are in the module docstring).

    Raises ValueError for no reveals, a card shown twice, or a dealer who is not a seat.
    """
    cards = [to_card(card) for card in reveals]
    if not cards:
        raise ValueError("scoring_suit_of needs at least one revealed card")
    if len(set(cards)) != len(cards):
        raise ValueError("a card cannot be revealed twice: the pack holds one of each")
    if not 0 <= dealer < len(cards):
        raise ValueError(f"dealer {dealer!r} is not a seat of {len(cards)} reveals")
    top = max(card.rank for card in cards)
    tied = _most_revealed(
        {card.suit for card in cards if card.rank == top and card.suit is not None}, cards
    )
    n = len(cards)
    for offset in range(1, n + 1):
        card = cards[(dealer + offset) % n]
        if card.rank == top and card.suit in tied:
            return card.suit
    raise AssertionError("unreachable: a highest card of a tied suit was revealed")


def _most_revealed(suits: set[Suit], cards: Sequence[Card]) -> set[Suit]:
    """The suits of `suits` with the most revealed cards (rule 2's tie-break)."""
    counts = {suit: sum(card.suit is suit for card in cards) for suit in suits}
    most = max(counts.values())
    return {suit for suit, count in counts.items() if count == most}
