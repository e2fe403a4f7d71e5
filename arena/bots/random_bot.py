"""The random house bot: any legal card, any pass; the floor every ladder measures against."""

from __future__ import annotations

import random

from arena.engine import Card, CardSet, PassDirection, SeatView, Suit
from arena.engine.decisions import CountedCall


class RandomBot:
    """Uniformly random legal decisions from its own seeded generator (reproducible)."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)

    def pass_cards(self, view: SeatView, count: int) -> list[Card]:
        """Any `count` cards."""
        return self._rng.sample(list(view.hand - view.rules.pass_forbidden), count)

    def call_pass(self, view: SeatView) -> PassDirection | tuple[PassDirection, ...] | CountedCall:
        """As dealer: any pass the rules offer, or a third of the time, where the rules
        allow one, a split with each card any way a split's card may go; with counts to
        call (004 'Passing cards'), any of them."""
        ways = view.rules.split_directions
        if ways and self._rng.random() < 1 / 3:
            return tuple(self._rng.choice(ways) for _ in range(view.rules.pass_count))
        direction = self._rng.choice(view.rules.pass_call_options)
        if view.rules.pass_call_counts:
            return CountedCall(direction, self._rng.choice(view.rules.pass_call_counts))
        return direction

    def bid(self, view: SeatView) -> int | None:
        """A pass half the time, else any bid the auction allows."""
        low = 1 + max((chips for _, chips in view.bids if chips is not None), default=0)
        if low > view.rules.max_bid or self._rng.random() < 0.5:
            return None
        return self._rng.randint(low, view.rules.max_bid)

    def name_suit(self, view: SeatView) -> Suit:
        """Any suit."""
        return self._rng.choice(list(Suit))

    def choose_moon(self, view: SeatView, default: str) -> str:
        """Add or subtract, at random."""
        return self._rng.choice(("add", "subtract"))

    def pledge(self, view: SeatView) -> bool:
        """A pledge one time in four."""
        return self._rng.random() < 0.25

    def refuse_queen(self, view: SeatView) -> bool:
        """Rickety Kate: refuse the passed QS half the time."""
        return self._rng.random() < 0.5

    def replace_pass(self, view: SeatView, legal: CardSet) -> Card:
        """Rickety Kate: any card that may replace the refused QS."""
        return legal.nth(self._rng.randrange(len(legal)))

    def expose(self, view: SeatView, exposable: CardSet) -> tuple[Card, ...]:
        """Each exposable card (Gong Zhu) one time in four."""
        return tuple(card for card in exposable if self._rng.random() < 0.25)

    def reveal_card(self, view: SeatView) -> Card:
        """Any card held."""
        return view.hand.nth(self._rng.randrange(len(view.hand)))

    def play_card(self, view: SeatView) -> Card:
        """Any legal card."""
        return view.legal.nth(self._rng.randrange(len(view.legal)))

    def play_penny(self, view: SeatView) -> tuple[int, Card]:
        """003 'FOUR-PENNY HEARTS', during a multi-round: any legal (penny, card)."""
        return view.legal_moves[self._rng.randrange(len(view.legal_moves))]
