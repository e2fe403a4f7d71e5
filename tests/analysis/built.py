"""A match built so that one decision is a known blunder: a seat that could duck the ♠Q
takes it.

`QueenTaker` plays as the heuristic bot, except once: last to play to a spade trick that
holds the ♠Q, with a spade below the trick's best to duck under and a spade above it, it
plays its highest spade and takes the queen (13 points it could have left with the
queen's owner). The seed below is one whose deal gives it that chance in the first hand;
`built_match` checks the blunder happened, so a change to the deal or to the heuristic
bot shows as a failed build, not as a test that proves nothing.
"""

from __future__ import annotations

from typing import Any

from arena.bots import HeuristicBot
from arena.engine import Card, SeatView, Suit, preset
from arena.match.runner import Entrant, MatchRunner
from arena.match.seats import InProcessSeat

QS = Card.from_str("QS")
BLUNDER_SEAT = 2
SEED = 137
"""Found by `find_seed`; the first seed whose first hand offers the blunder."""


class QueenTaker(HeuristicBot):
    """The heuristic bot, which takes the ♠Q once when it could duck it."""

    name = "queen-taker"

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.blundered: tuple[int, Card] | None = None
        """(trick number, card) of the blunder once made."""

    def play_card(self, view: SeatView) -> Card:
        trick = view.current_trick
        if self.blundered is None and len(trick) == view.rules.players - 1:
            led = trick[0][1].suit
            spades = [card for card in view.legal if card.suit is Suit.SPADES]
            if led is Suit.SPADES and any(card == QS for _, card in trick) and spades:
                best = max(card.rank for _, card in trick if card.suit is Suit.SPADES)
                below = [card for card in spades if card.rank < best]
                above = [card for card in spades if card.rank > best]
                if below and above:
                    card = max(above, key=lambda c: c.rank)
                    self.blundered = (len(view.tricks), card)
                    return card
        return super().play_card(view)


def play(seed: int, hands: int = 1) -> tuple[dict[str, Any], QueenTaker]:
    """A match of `hands` hands: heuristic bots, the queen taker in `BLUNDER_SEAT`."""
    rules = preset("standard").replace(target_score=None, max_hands=hands)
    taker = QueenTaker(seed)
    entrants = [
        Entrant(
            "queen-taker" if i == BLUNDER_SEAT else f"heuristic-{i}",
            InProcessSeat(taker if i == BLUNDER_SEAT else HeuristicBot(seed + i)),
        )
        for i in range(4)
    ]
    return MatchRunner(rules, entrants, seed=seed).run().v1, taker


def find_seed(start: int = 0, stop: int = 500) -> int:
    """The first seed from `start` whose first hand gives the queen taker its chance."""
    for seed in range(start, stop):
        _, taker = play(seed)
        if taker.blundered is not None:
            return seed
    raise LookupError("no seed offers the blunder")


def built_match(hands: int = 1) -> tuple[dict[str, Any], tuple[int, Card]]:
    """The built match's replay and its blunder (trick number, card); AssertionError when
    the seed no longer offers it."""
    replay, taker = play(SEED, hands)
    assert taker.blundered is not None, f"seed {SEED} no longer offers the blunder"
    return replay, taker.blundered
