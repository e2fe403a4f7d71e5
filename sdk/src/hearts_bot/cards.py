"""Cards as canonical text ("QS", "TC"): parsing, ranks, suits and ordering.

A card is a plain ``str`` of two characters, rank then suit: ranks ``2 3 4 5 6 7 8 9 T J Q
K A``, suits ``C D S H``. This is the same text the arena and the protocol use. Rules with
jokers (`RulesView.jokers`) add up to three, ``"JK1" "JK2" "JK3"``: a joker has no suit
(`suit_of` is ``""``) and ranks below the two (`rank_of` is -1); what it does in play is
`RulesView.joker_kind`.

>>> parse_card("jk1"), is_joker("JK1"), suit_of("JK1"), rank_of("JK1"), pretty("JK1")
('JK1', True, '', -1, '🃏1')

>>> rank_of("QS"), suit_of("QS")
(10, 'S')
>>> sorted(["AH", "2C", "QS"], key=card_order)
['2C', 'QS', 'AH']
>>> highest(["3H", "JH", "9H"])
'JH'
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final, TypeAlias

Card: TypeAlias = str
"""A card's canonical text, such as ``"QS"``."""

RANKS: Final = "23456789TJQKA"
SUITS: Final = "CDSH"
CLUBS: Final = "C"
DIAMONDS: Final = "D"
SPADES: Final = "S"
HEARTS: Final = "H"
QUEEN_OF_SPADES: Final = "QS"

DECK: Final[tuple[Card, ...]] = tuple(rank + suit for suit in SUITS for rank in RANKS)
"""All 52 cards in card order (clubs, diamonds, spades, hearts; 2 up to A)."""
JOKERS: Final[tuple[Card, ...]] = ("JK1", "JK2", "JK3")
"""The jokers some rules add, in card order after the pack (indices 52, 53, 54)."""

_INDEX: Final[dict[str, int]] = {card: index for index, card in enumerate(DECK + JOKERS)}


class CardError(ValueError):
    """Text that is not a canonical card (the message names the text)."""


def is_card(text: object) -> bool:
    """Whether `text` is a canonical card such as ``"QS"``."""
    return isinstance(text, str) and text in _INDEX


def parse_card(text: str) -> Card:
    """The canonical form of `text`; lower case and ``10`` for ``T`` are accepted.

    Raises CardError for anything else.

    >>> parse_card("10h")
    'TH'
    """
    if text in _INDEX:
        return text
    cleaned = str(text).strip().upper()
    if cleaned.startswith("10"):
        cleaned = "T" + cleaned[2:]
    if cleaned not in _INDEX:
        raise CardError(
            f"unknown card {text!r}: expected rank then suit, like 'QS' or 'TC', or a joker "
            "'JK1'..'JK3'"
        )
    return cleaned


def is_joker(card: Card) -> bool:
    """Whether `card` is one of the jokers ``JK1 JK2 JK3``."""
    return card in JOKERS


def pretty(card: Card) -> str:
    """The card for people: ``Q♠``, ``10♥``, ``🃏1`` for a joker."""
    if card in JOKERS:
        return "🃏" + card[2]
    return ("10" if card[0] == "T" else card[0]) + "♣♦♠♥"[SUITS.index(card[1])]


def card_index(card: Card) -> int:
    """The card's position in `DECK`, 0..51 (``suit * 13 + rank``), or 52..54 for the jokers;
    raises CardError."""
    try:
        return _INDEX[card]
    except KeyError:
        raise CardError(f"unknown card {card!r}") from None


def rank_of(card: Card) -> int:
    """The card's rank, 0 for a two up to 12 for an ace; -1 for a joker."""
    if card in JOKERS:
        return -1
    return RANKS.index(card[0])


def suit_of(card: Card) -> str:
    """The card's suit letter, one of ``C D S H``; ``""`` for a joker."""
    if card in JOKERS:
        return ""
    return card[1]


def card_order(card: Card) -> int:
    """Sort key: card order, by suit then rank (the order of `DECK`)."""
    return _INDEX[card]


def by_rank(card: Card) -> tuple[int, int]:
    """Sort key: by rank first, then suit (jokers lowest)."""
    if card in JOKERS:
        return -1, JOKERS.index(card)
    return RANKS.index(card[0]), SUITS.index(card[1])


def of_suit(cards: Iterable[Card], suit: str) -> list[Card]:
    """The cards of one suit, in the order given (never a joker)."""
    return [card for card in cards if card not in JOKERS and card[1] == suit]


def highest(cards: Iterable[Card]) -> Card:
    """The card of highest rank (raises ValueError when there is none)."""
    return max(cards, key=by_rank)


def lowest(cards: Iterable[Card]) -> Card:
    """The card of lowest rank (raises ValueError when there is none)."""
    return min(cards, key=by_rank)
