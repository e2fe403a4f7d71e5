"""Cards and card sets, with the one canonical text form used everywhere outside the C core.

A card is rank then suit (``2C … TC JC QC KC AC``; suits ``C D S H``). Internally a card
is an index ``suit * 13 + rank`` and a set of cards is an int bitmask, which is also how
the C core sees them (docs/decisions/0001-engine-backend-contract.md). `Card` instances
are interned, so ``Card.from_str('QS') is QUEEN_OF_SPADES`` and comparisons are cheap.

Rules with jokers (004 'Joker Hearts') add up to three of them, ``JK1 JK2 JK3``, indices
52..54 above the pack; a joker has no suit (``card.suit is None``) and no rank (-1).

>>> Card.from_str('jk2'), Card.from_str('JK2').index, Card.from_str('JK2').pretty
(Card.from_str('JK2'), 53, '🃏2')

>>> Card.from_str('QS')
Card.from_str('QS')
>>> str(CardSet.parse('AH 2C QS'))
'2C QS AH'
>>> Card.from_str('QS') in CardSet.parse('QS KS')
True
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from enum import IntEnum
from typing import Final


class CardParseError(ValueError):
    """Raised for card text that is not a canonical card (the message names the input)."""


class Suit(IntEnum):
    """The four suits in index order; the order is part of the engine contract."""

    CLUBS = 0
    DIAMONDS = 1
    SPADES = 2
    HEARTS = 3

    @property
    def letter(self) -> str:
        """The one-letter text form (``C D S H``)."""
        return SUIT_LETTERS[self]

    @property
    def symbol(self) -> str:
        """The Unicode suit symbol, for people."""
        return "♣♦♠♥"[self]

    @property
    def mask(self) -> int:
        """Every card of the suit as a bitmask."""
        return 0x1FFF << (13 * self)


SUIT_LETTERS: Final = "CDSH"
RANK_LETTERS: Final = "23456789TJQKA"


class Card:
    """One playing card; immutable and interned (build it with `Card.from_str` or `CARDS`)."""

    __slots__ = ("index", "mask", "rank", "suit")

    index: int
    mask: int
    rank: int
    """0 (a two) .. 12 (an ace); -1 for a joker."""
    suit: Suit | None
    """The suit; None for a joker (what a joker counts as is the rules' `joker_kind`)."""

    def __new__(cls, index: int) -> Card:
        if not 0 <= index < 55:
            raise CardParseError(f"card index {index!r} is out of range 0..54")
        try:
            return CARDS[index]
        except NameError:  # while CARDS itself is being built
            return cls._make(index)

    @classmethod
    def _make(cls, index: int) -> Card:
        card = object.__new__(cls)
        object.__setattr__(card, "index", index)
        object.__setattr__(card, "mask", 1 << index)
        object.__setattr__(card, "rank", index % 13 if index < 52 else -1)
        object.__setattr__(card, "suit", Suit(index // 13) if index < 52 else None)
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (Card, (self.index,))

    @classmethod
    def from_str(cls, text: str) -> Card:
        """Parse ``'QS'``-style text (case-insensitive; ``10`` is accepted for ``T``).

        Raises CardParseError naming the text and the position of the bad character.
        """
        if not isinstance(text, str):
            raise CardParseError(f"card text must be a string, not {type(text).__name__}")
        cleaned = text.strip().upper()
        if cleaned in JOKER_TEXT:
            return CARDS[52 + JOKER_TEXT.index(cleaned)]
        if cleaned.startswith("10"):
            cleaned = "T" + cleaned[2:]
        if len(cleaned) != 2:
            raise CardParseError(
                f"unknown card {text!r}: expected rank then suit, like 'QS' or 'TC', or "
                "a joker 'JK1'..'JK3'"
            )
        rank = RANK_LETTERS.find(cleaned[0])
        if rank < 0:
            raise CardParseError(
                f"unknown card {text!r}: rank {cleaned[0]!r} at position 0 is not one of "
                f"{RANK_LETTERS}"
            )
        suit = SUIT_LETTERS.find(cleaned[1])
        if suit < 0:
            raise CardParseError(
                f"unknown card {text!r}: suit {cleaned[1]!r} at position 1 is not one of "
                f"{SUIT_LETTERS}"
            )
        return CARDS[suit * 13 + rank]

    @property
    def is_joker(self) -> bool:
        """Whether this is one of the jokers ``JK1 JK2 JK3`` (004 'Joker Hearts')."""
        return self.index >= 52

    @property
    def rank_letter(self) -> str:
        """The rank's letter (``2`` … ``9``, ``T J Q K A``; ``JK`` for a joker)."""
        return RANK_LETTERS[self.rank] if self.suit is not None else "JK"

    @property
    def pretty(self) -> str:
        """Rank and suit symbol for people, like ``Q♠`` (``🃏1`` for the joker JK1)."""
        if self.suit is None:
            return f"🃏{self.index - 51}"
        rank = "10" if self.rank_letter == "T" else self.rank_letter
        return rank + self.suit.symbol

    def __str__(self) -> str:
        if self.suit is None:
            return JOKER_TEXT[self.index - 52]
        return RANK_LETTERS[self.rank] + SUIT_LETTERS[self.suit]

    def __repr__(self) -> str:
        return f"Card.from_str({str(self)!r})"

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __le__(self, other: Card) -> bool:
        return self.index <= other.index

    def __hash__(self) -> int:
        return self.index


JOKER_TEXT: Final = ("JK1", "JK2", "JK3")
"""The jokers' text, for card indices 52, 53 and 54."""

CARDS: Final[tuple[Card, ...]] = tuple(Card._make(i) for i in range(55))
"""Every card by index: the pack's 52 (``CARDS[:52]``), then the jokers ``JK1 JK2 JK3``."""

CardLike = Card | str


def to_card(card: CardLike) -> Card:
    """A `Card` from a `Card` or its text (raises CardParseError)."""
    if isinstance(card, Card):
        return card
    return Card.from_str(card)


class CardSet:
    """An immutable set of cards backed by an int bitmask; iterates in index order."""

    __slots__ = ("mask",)

    mask: int
    twice: int = 0
    """The cards held twice: none in a set (a `CardMultiset`, two packs, may hold some)."""

    def __init__(self, cards: Iterable[CardLike] | str = ()) -> None:
        if isinstance(cards, str):
            cards = cards.split()
        mask = 0
        for card in cards:
            mask |= to_card(card).mask
        object.__setattr__(self, "mask", mask)

    @classmethod
    def from_mask(cls, mask: int) -> CardSet:
        """Wrap a bitmask (no copying; the engine's fast path)."""
        if mask < 0 or mask >> 55:
            raise CardParseError(
                f"card mask {mask:#x} has bits outside the 52 cards and the 3 jokers"
            )
        result = object.__new__(cls)
        object.__setattr__(result, "mask", mask)
        return result

    @classmethod
    def parse(cls, text: str) -> CardSet:
        """Parse space-separated cards: ``CardSet.parse('2C QS')``."""
        return cls(text.split())

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("CardSet is immutable")

    def __iter__(self) -> Iterator[Card]:
        mask = self.mask
        while mask:
            low = mask & -mask
            yield CARDS[low.bit_length() - 1]
            mask ^= low

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __bool__(self) -> bool:
        return self.mask != 0

    def __contains__(self, card: object) -> bool:
        if isinstance(card, Card):
            return bool(self.mask & card.mask)
        if isinstance(card, str):
            try:
                return bool(self.mask & Card.from_str(card).mask)
            except CardParseError:
                return False
        return False

    def __eq__(self, other: object) -> bool:
        if isinstance(other, CardSet):
            return self.mask == other.mask
        if isinstance(other, (set, frozenset)):
            return {str(card) for card in self} == {
                str(card) if isinstance(card, Card) else card for card in other
            }
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.mask)

    def __or__(self, other: CardSet) -> CardSet:
        return CardSet.from_mask(self.mask | other.mask)

    def __and__(self, other: CardSet) -> CardSet:
        return CardSet.from_mask(self.mask & other.mask)

    def __sub__(self, other: CardSet) -> CardSet:
        return CardSet.from_mask(self.mask & ~other.mask)

    def of_suit(self, suit: Suit) -> CardSet:
        """The cards of one suit."""
        return CardSet.from_mask(self.mask & suit.mask)

    def first(self) -> Card:
        """The lowest-index card (raises ValueError on an empty set)."""
        if not self.mask:
            raise ValueError("empty card set has no first card")
        return CARDS[(self.mask & -self.mask).bit_length() - 1]

    def nth(self, k: int) -> Card:
        """The `k`-th card in index order (0-based); IndexError when out of range."""
        if not 0 <= k < len(self):
            raise IndexError(f"card set of {len(self)} has no card {k}")
        mask = self.mask
        for _ in range(k):
            mask &= mask - 1
        return CARDS[(mask & -mask).bit_length() - 1]

    def __str__(self) -> str:
        return " ".join(str(card) for card in self)

    def __repr__(self) -> str:
        return f"CardSet.parse({str(self)!r})"


FULL_DECK: Final = CardSet.from_mask((1 << 52) - 1)
"""The pack of 52 (no jokers)."""
JOKERS: Final = CardSet.from_mask(0b111 << 52)
"""The three jokers a rule set may add (004 'Joker Hearts')."""
TWO_OF_CLUBS: Final = Card.from_str("2C")
QUEEN_OF_SPADES: Final = Card.from_str("QS")
