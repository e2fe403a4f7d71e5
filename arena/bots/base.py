"""The interface every in-process house bot implements, on the engine's per-seat view."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol

from arena.engine import CARDS, Card, CardSet, PassDirection, SeatView, Suit
from arena.engine.decisions import CountedCall


def trick_size(view: SeatView) -> int:
    """How many cards the current trick will hold: one per seat (in Domino Hearts one per
    seat still in), and on the first trick one more per seat dealt an extra card (002
    'Alternatives to the "Kitty" in 3 or 5 player games': "allow the player with them to
    play an additional card on the first trick")."""
    if view.in_play:  # Domino Hearts: only the seats still in play the trick
        return sum(view.in_play)
    return view.rules.players + (0 if view.tricks else len(view.extra_card_seats))


QUEEN_GUARDS = 4
"""Spades below the QS a house bot wants beside it before it accepts a passed QS."""
_QUEEN_RANK = 10  # the QS's rank index (2 is 0 ... A is 12)


_BELOW_QUEEN = sum(
    1 << card.index for card in CARDS if card.suit is Suit.SPADES and card.rank < _QUEEN_RANK
)
"""The spades below the QS, as a mask of card indices."""


def guards_queen(kept: int) -> bool:
    """Whether a seat keeping the cards of mask `kept` (its hand less its own pass) holds
    `QUEEN_GUARDS` spades or more below the QS: the house bots' test for accepting a
    passed QS (`refuses_queen`), on masks for the pass search (`arena.bots.passing`)."""
    return (kept & _BELOW_QUEEN).bit_count() >= QUEEN_GUARDS


def refuses_queen(view: SeatView) -> bool:
    """Rickety Kate's refusal of a passed QS, the house bots' rule: refuse unless this seat
    keeps (after its own pass) `QUEEN_GUARDS` spades or more below the QS. With that many
    low spades it can follow every spade lead low until the AS and KS (10 points each) are
    gone and never has to play the QS (13 of the hand's 46) on a trick it wins; with fewer,
    a spade lead can force it out."""
    return not guards_queen((view.hand - CardSet(view.passed)).mask)


def plays_last(view: SeatView) -> bool:
    """Whether `view.seat` plays the current trick's last card (`trick_size`), when the
    trick's fate is its own to seal."""
    return len(view.current_trick) == trick_size(view) - 1


class HouseBot(Protocol):
    """Decides from a `SeatView` only, so a house bot knows exactly what a remote bot knows."""

    name: str

    def pass_cards(self, view: SeatView, count: int) -> list[Card]:
        """The cards to pass, in order (a scatter pass sends the i-th card i+1 seats left)."""
        ...

    def play_card(self, view: SeatView) -> Card:
        """One of `view.legal`."""
        ...

    def reveal_card(self, view: SeatView) -> Card:
        """Heartless (003): the card to lay face down, one of `view.hand`."""
        ...

    def call_pass(self, view: SeatView) -> PassDirection | Sequence[PassDirection] | CountedCall:
        """As dealer (003 'Simple variations'): one of `view.rules.pass_call_options`, or a
        split: a direction per passed card from `view.rules.split_directions`; or, with
        `view.rules.pass_call_counts` (004 'Passing cards'), a `CountedCall`."""
        ...

    def bid(self, view: SeatView) -> int | None:
        """Auction Hearts (000): chips to bid for naming the suit to avoid, or None to pass."""
        ...

    def name_suit(self, view: SeatView) -> Suit:
        """Auction Hearts (000), as declarer: the suit to avoid."""
        ...

    def choose_moon(self, view: SeatView, default: str) -> str:
        """004 'Shooting the moon', as the shooter where the rules let him choose: "add" or
        "subtract"; `default` is the engine's pick (what a fault gets)."""
        ...

    def pledge(self, view: SeatView) -> bool:
        """004 'Scoring variants', after the pass: True to pledge to take no hearts."""
        ...

    def refuse_queen(self, view: SeatView) -> bool:
        """Rickety Kate, as the seat the QS is passed to: True to refuse it."""
        ...

    def replace_pass(self, view: SeatView, legal: CardSet) -> Card:
        """Rickety Kate, as the giver of a refused QS: the card (one of `legal`) passed in
        its place."""
        ...

    def expose(self, view: SeatView, exposable: CardSet) -> Iterable[Card]:
        """Gong Zhu, before play: the cards of `exposable` (the AH, QS, JD and TC held) to
        expose, doubling their value; none is always allowed."""
        ...
