"""000 'Auction Hearts': "players bid after the deal for the privilege of naming the suit
to be avoided"; then "The highest bidder puts up his chips and names the suit. He leads
first" (rules with scoring_suit_choice 'auction'; the bidding itself is
`arena.engine.auction`)."""

from __future__ import annotations

import copy
from typing import Any

from ..auction import Auction, IllegalBidError
from ..cards import Suit
from ..decisions import Decision, DecisionKind
from ..rules import Rules, ScoringSuitChoice
from .room import HandPort, Phase, Room, Show, Stage, refused


class AuctionRoom(Room):
    """The bids in turn from the dealer's left (chips, or None for a pass), then the
    declarer's naming of the suit to avoid (its letter); then `rules` becomes
    `base_rules.for_scoring_suit(suit)` and the declarer leads. A declarer carried over
    from a deal whose pot nobody won names the suit without bidding."""

    kinds = (DecisionKind.BID, DecisionKind.NAMING)
    stage = Stage.DEAL
    phase = Phase.BIDDING
    error = IllegalBidError

    @classmethod
    def selects(cls, rules: Rules) -> bool:
        return rules.scoring_suit_choice is ScoringSuitChoice.AUCTION

    @classmethod
    def words(
        cls, kind: DecisionKind, seat: int, data: Any, show: Show = str, *, you: bool = False
    ) -> str:
        if you:
            if kind is DecisionKind.NAMING:
                return f"You name {data} to avoid"
            return "You pass" if data is None else f"You bid {data} chips"
        if kind is DecisionKind.NAMING:
            return f"seat {seat} names {data} to avoid"
        return f"seat {seat} " + ("passes" if data is None else f"bids {data} chips")

    @classmethod
    def judge(cls, hand: Any, kind: DecisionKind, seat: int, answer: object) -> Any:
        what = "no bid is due now" if kind is DecisionKind.BID else "no suit is to be named now"
        raise refused(IllegalBidError(f"{what}: these rules have no auction", seat=seat), "illegal")

    def __init__(self, hand: HandPort) -> None:
        super().__init__(hand)
        n = hand.players
        self.auction = Auction(
            players=n,
            eldest=(hand.dealer + 1) % n,
            max_bid=hand.rules.max_bid,
            standing=hand.declarer_given,
        )
        self.suit: Suit | None = None

    def phase_now(self) -> Phase:
        return Phase.BIDDING if self.auction.to_bid is not None else Phase.NAMING

    def pending(self) -> Decision | None:
        if not self.waiting:
            return None
        auction = self.auction
        seat = auction.to_bid
        if seat is not None:
            return Decision(DecisionKind.BID, seat, (auction.lowest_bid, auction.max_bid), None)
        declarer = auction.declarer
        assert declarer is not None
        return Decision(DecisionKind.NAMING, declarer, tuple(s.letter for s in Suit), "C")

    def check(self, kind: DecisionKind, seat: int, answer: object) -> Any:
        if not self.waiting:
            what = "no bid is due now" if kind is DecisionKind.BID else "no suit is to be named now"
            raise refused(
                IllegalBidError(f"{what}: the hand is {self.hand.phase.value}", seat=seat),
                "illegal",
            )
        trial = copy.deepcopy(self.auction)  # the auction's own checks, on a copy
        try:
            if kind is DecisionKind.BID:
                trial.bid(seat, answer)  # type: ignore[arg-type]  # anything a bot sent
                return answer
            trial.name(seat, answer)  # type: ignore[arg-type]
        except IllegalBidError as error:
            malformed = (
                answer is not None and (not isinstance(answer, int) or isinstance(answer, bool))
                if kind is DecisionKind.BID
                else seat == self.auction.declarer and trial.suit is None
            )
            raise refused(error, "malformed" if malformed else "illegal") from None
        assert trial.suit is not None
        return trial.suit.letter

    def apply(self, kind: DecisionKind, seat: int, value: Any) -> None:
        auction, hand = self.auction, self.hand
        if kind is DecisionKind.BID:
            auction.bid(seat, value)
            return
        auction.name(seat, value)
        named, declarer = auction.suit, auction.declarer
        assert named is not None
        assert declarer is not None
        self.suit = named
        self.waiting = False
        # The backend's opening 'left_of_dealer' leads from the seat after the dealer it is
        # given, so the declarer's right-hand neighbour stands in as its dealer.
        hand.restart(hand.base_rules.for_scoring_suit(named), dealer=(declarer - 1) % hand.players)
        hand.resume()

    def still_to(self) -> str:
        seat = self.auction.to_bid
        if seat is not None:
            return f"seat {seat} has still to bid (000 'Auction Hearts')"
        return f"seat {self.auction.declarer} has still to name the suit to avoid"

    def view(self, seat: int) -> dict[str, Any]:
        return {"bids": tuple(self.auction.bids), "declarer": self.auction.declarer}
