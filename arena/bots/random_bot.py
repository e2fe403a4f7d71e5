"""The random house bot: any legal card, any pass; the floor every ladder measures against."""

from __future__ import annotations

import random

from arena.engine import Card, PassDirection, SeatView


class RandomBot:
    """Uniformly random legal decisions from its own seeded generator (reproducible)."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)

    def pass_cards(self, view: SeatView, count: int) -> list[Card]:
        """Any `count` cards."""
        return self._rng.sample(list(view.hand - view.rules.pass_forbidden), count)

    def call_pass(self, view: SeatView) -> PassDirection:
        """As dealer: any pass the rules offer."""
        return self._rng.choice(view.rules.pass_call_options)

    def reveal_card(self, view: SeatView) -> Card:
        """Any card held."""
        return view.hand.nth(self._rng.randrange(len(view.hand)))

    def play_card(self, view: SeatView) -> Card:
        """Any legal card."""
        return view.legal.nth(self._rng.randrange(len(view.legal)))
