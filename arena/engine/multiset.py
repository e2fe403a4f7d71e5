"""`CardMultiset`: up to two copies of each card, for the two-pack Cancellation Hearts.

000 'Cancellation Hearts': "Two standard packs of 52 cards are shuffled together", so a
hand, a trick or a pile may hold the same card twice. A multiset is two masks: `mask`,
the cards held at least once, and `twice`, those held twice (``twice`` is a subset of
``mask``), which is also how the C module (``_core/cancellation.c``) holds them.

It is a `CardSet` whose iteration, length and equality count copies, so code that reads a
hand by iterating it (views, renderers, starters) sees both copies; the set operators
(``| & -``) and `of_suit` act on the distinct cards and answer a plain `CardSet`.

>>> pile = CardMultiset.parse("QS 6C QS 2H")
>>> str(pile), len(pile), pile.count("QS"), str(pile.distinct())
('6C QS QS 2H', 4, 2, '6C QS 2H')
>>> pile.remove("QS").count("QS")
1
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from .cards import CARDS, Card, CardLike, CardParseError, CardSet, to_card


class CardMultiset(CardSet):
    """An immutable multiset of cards with at most two copies of each."""

    __slots__ = ("twice",)

    twice: int

    def __init__(self, cards: Iterable[CardLike] | str = ()) -> None:
        if isinstance(cards, str):
            cards = cards.split()
        once = twice = 0
        for card in cards:
            bit = to_card(card).mask
            if twice & bit:
                raise CardParseError(f"{to_card(card)} is given more than twice (two packs)")
            if once & bit:
                twice |= bit
            else:
                once |= bit
        object.__setattr__(self, "mask", once)
        object.__setattr__(self, "twice", twice)

    @classmethod
    def from_masks(cls, once: int, twice: int = 0) -> CardMultiset:
        """Wrap the masks (cards held at least once, cards held twice)."""
        if twice & ~once or once < 0 or once >> 55 or twice >> 52:
            raise CardParseError(f"bad multiset masks {once:#x}, {twice:#x}")
        result = object.__new__(cls)
        object.__setattr__(result, "mask", once)
        object.__setattr__(result, "twice", twice)
        return result

    @classmethod
    def parse(cls, text: str) -> CardMultiset:
        """Parse space-separated cards, a card given twice held twice."""
        return cls(text.split())

    def count(self, card: CardLike) -> int:
        """How many copies of `card` (0, 1 or 2)."""
        bit = to_card(card).mask
        return bool(self.mask & bit) + bool(self.twice & bit)

    def distinct(self) -> CardSet:
        """The cards held at least once, as a plain set."""
        return CardSet.from_mask(self.mask)

    def add(self, card: CardLike) -> CardMultiset:
        """A copy with one more copy of `card` (CardParseError past two)."""
        bit = to_card(card).mask
        if self.twice & bit:
            raise CardParseError(f"{to_card(card)} is held twice already (two packs)")
        if self.mask & bit:
            return CardMultiset.from_masks(self.mask, self.twice | bit)
        return CardMultiset.from_masks(self.mask | bit, self.twice)

    def remove(self, card: CardLike) -> CardMultiset:
        """A copy with one copy of `card` fewer (ValueError when it holds none)."""
        bit = to_card(card).mask
        if self.twice & bit:
            return CardMultiset.from_masks(self.mask, self.twice & ~bit)
        if self.mask & bit:
            return CardMultiset.from_masks(self.mask & ~bit, self.twice)
        raise ValueError(f"{to_card(card)} is not in the multiset")

    def __iter__(self) -> Iterator[Card]:
        once, twice = self.mask, self.twice
        while once:
            low = once & -once
            card = CARDS[low.bit_length() - 1]
            yield card
            if twice & low:
                yield card
            once ^= low

    def __len__(self) -> int:
        return self.mask.bit_count() + self.twice.bit_count()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, CardMultiset):
            return self.mask == other.mask and self.twice == other.twice
        if isinstance(other, CardSet):
            return not self.twice and self.mask == other.mask
        return super().__eq__(other)

    def __hash__(self) -> int:
        return hash((self.mask, self.twice))

    def __repr__(self) -> str:
        return f"CardMultiset.parse({str(self)!r})"
