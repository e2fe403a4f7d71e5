"""000 'Auction Hearts': "players bid after the deal for the privilege of naming the suit
to be avoided"; then "The highest bidder ... names the suit". The hand runs the auction
(`arena.engine.auction`); these rooms judge a seat's bid and naming, and keep their codecs
and words."""

from __future__ import annotations

from typing import Any

from ..auction import IllegalBidError, parse_suit
from ..decisions import DecisionKind
from .room import Room, Show, refused
from .tricks import asked


class BidRoom(Room):
    """A bid: whole chips in the range the auction allows now, or None for a pass ("A
    player must either bid higher than the preceding bid or pass")."""

    kinds = (DecisionKind.BID,)

    @classmethod
    def words(cls, kind: DecisionKind, seat: int, data: Any, show: Show = str) -> str:
        return f"seat {seat} " + ("passes" if data is None else f"bids {data} chips")

    @classmethod
    def judge(cls, hand: Any, kind: DecisionKind, seat: int, answer: object) -> Any:
        low, high = asked(hand, kind, seat).legal
        if answer is None:
            return None
        if not isinstance(answer, int) or isinstance(answer, bool):
            raise refused(
                IllegalBidError(f"{answer!r} is not a number of chips", seat=seat), "malformed"
            )
        if not low <= answer <= high:
            raise refused(
                IllegalBidError(
                    f"bid {answer} chips; a bid now is {low}..{high} chips, or a pass", seat=seat
                ),
                "illegal",
            )
        return answer


class NamingRoom(Room):
    """The declarer's suit to avoid: its letter."""

    kinds = (DecisionKind.NAMING,)

    @classmethod
    def words(cls, kind: DecisionKind, seat: int, data: Any, show: Show = str) -> str:
        return f"seat {seat} names {data} to avoid"

    @classmethod
    def judge(cls, hand: Any, kind: DecisionKind, seat: int, answer: object) -> Any:
        asked(hand, kind, seat)
        try:
            return parse_suit(answer, None).letter  # type: ignore[arg-type]  # from a bot
        except IllegalBidError:
            raise refused(
                IllegalBidError(f"{answer!r} is not a suit (C, D, S or H)", seat=seat), "malformed"
            ) from None
