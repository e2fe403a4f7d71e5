"""Auction Hearts: the bidding for the right to name the suit to be avoided.

000 'Auction Hearts': "players bid after the deal for the privilege of naming the suit to
be avoided. In bidding, a player names the number of chips he will put up as a pot, if
allowed to name the suit. Bidding begins with the first hand dealt and rotates to the left,
each player being allowed to bid only once. A player must either bid higher than the
preceding bid or pass. The highest bidder puts up his chips and names the suit. He leads
first". 004's 1911 text agrees ("The other players in succession have the privilege of
outbidding him, and whoever bids most declares the suit").

Why a module of its own: the auction is a small state machine of its own (whose turn,
what may be bid, who won), checked the same way whoever drives it: `Hand` during play,
`arena.match.verify` when a replay is re-applied, a bot asking what it may bid.

Choices the sources leave open (docs/rules.md "Auction Hearts"):

- A bid is a whole number of chips from one more than the highest bid so far up to
  `Rules.max_bid`; a pass is a bid of None.
- If every player passes, the first player to bid (the dealer's left) names the suit for
  nothing: every deal is played, as when "the successful bidder on the original deal names
  the suit to be avoided, without bidding" after a pot nobody won.

>>> from arena.engine.cards import Suit
>>> auction = Auction(players=4, eldest=1, max_bid=20)
>>> auction.to_bid, auction.lowest_bid
(1, 1)
>>> auction.bid(1, 2); auction.bid(2, None); auction.bid(3, 5); auction.bid(0, None)
>>> auction.declarer, auction.winning_bid, auction.to_bid
(3, 5, None)
>>> auction.name(3, Suit.DIAMONDS)
>>> auction.suit.name
'DIAMONDS'
"""

from __future__ import annotations

import dataclasses

from .cards import Suit


class IllegalBidError(ValueError):
    """A bid or a naming the auction does not allow (the message says why)."""

    def __init__(self, message: str, *, seat: object) -> None:
        super().__init__(message)
        self.seat = seat


@dataclasses.dataclass
class Auction:
    """One deal's auction: bids in turn from `eldest`, then the declarer names the suit.

    With `standing` set, there is no bidding: `standing` is the declarer carried over from
    a deal whose pot nobody won (000: "the successful bidder on the original deal names the
    suit to be avoided, without bidding").
    """

    players: int
    eldest: int
    max_bid: int
    standing: int | None = None
    bids: list[tuple[int, int | None]] = dataclasses.field(default_factory=list)
    suit: Suit | None = None

    @property
    def to_bid(self) -> int | None:
        """The seat whose bid is due, or None once bidding is over (or never held)."""
        if self.standing is not None or len(self.bids) == self.players:
            return None
        return (self.eldest + len(self.bids)) % self.players

    @property
    def highest(self) -> tuple[int, int] | None:
        """(seat, amount) of the highest bid so far, or None while nobody has bid."""
        best: tuple[int, int] | None = None
        for seat, amount in self.bids:
            if amount is not None and (best is None or amount > best[1]):
                best = (seat, amount)
        return best

    @property
    def lowest_bid(self) -> int:
        """The least the seat to bid may bid: one more than the highest bid so far."""
        best = self.highest
        return 1 if best is None else best[1] + 1

    @property
    def declarer(self) -> int | None:
        """Who names the suit: the standing declarer, or the highest bidder once bidding
        is over (the first to bid if everyone passed); None while bids are due."""
        if self.standing is not None:
            return self.standing
        if self.to_bid is not None:
            return None
        best = self.highest
        return self.eldest if best is None else best[0]

    @property
    def winning_bid(self) -> int:
        """The chips the declarer puts up: the highest bid, 0 when nobody bid or the
        declarer was carried over."""
        if self.standing is not None:
            return 0
        best = self.highest
        return 0 if best is None else best[1]

    def bid(self, seat: int, amount: int | None) -> None:
        """`seat` bids `amount` chips, or passes with None. Raises IllegalBidError when it
        is not the seat's turn or the amount is not a whole number in
        `lowest_bid`..`max_bid`."""
        due = self.to_bid
        if due is None:
            raise IllegalBidError("no bid is due now", seat=seat)
        if seat != due:
            raise IllegalBidError(f"it is seat {due}'s turn to bid, not seat {seat}'s", seat=seat)
        if amount is not None:
            if not isinstance(amount, int) or isinstance(amount, bool):
                raise IllegalBidError(
                    f"a bid is a whole number of chips, not {amount!r}", seat=seat
                )
            low = self.lowest_bid
            if not low <= amount <= self.max_bid:
                raise IllegalBidError(
                    f"seat {seat} must bid {low}..{self.max_bid} chips or pass, not {amount} "
                    "(000 'Auction Hearts': \"bid higher than the preceding bid or pass\")",
                    seat=seat,
                )
        self.bids.append((seat, amount))

    def name(self, seat: int, suit: Suit | str) -> None:
        """The declarer names the suit to be avoided. Raises IllegalBidError when bids are
        still due, the suit is named already, `seat` is not the declarer, or `suit` is not
        a suit."""
        declarer = self.declarer
        if declarer is None:
            raise IllegalBidError("the suit is named after the bidding", seat=seat)
        if self.suit is not None:
            raise IllegalBidError(f"the suit is named already: {self.suit.name.lower()}", seat=seat)
        if seat != declarer:
            raise IllegalBidError(f"seat {declarer} names the suit, not seat {seat}", seat=seat)
        self.suit = parse_suit(suit, seat)


def parse_suit(suit: Suit | str, seat: object) -> Suit:
    """A suit from a `Suit` or its letter or name ('D', 'diamonds'); IllegalBidError else."""
    if isinstance(suit, Suit):
        return suit
    if isinstance(suit, str):
        text = suit.strip().upper()
        for member in Suit:
            if text in (member.name, member.name[0]):
                return member
    raise IllegalBidError(f"{suit!r} is not a suit (C, D, S or H)", seat=seat)
