"""The no-hearts pledge (004 'Scoring variants'): "A player may declare before the first card
is played that he or she will not take any hearts" (rules with `no_hearts_pledge`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..cards import Suit
from ..decisions import Decision, DecisionKind
from ..rules import Rules
from .room import HandPort, Phase, Room, Show, Stage, first_unanswered, refused


class IllegalPledgeError(ValueError):
    """A no-hearts pledge (004 'Scoring variants') that may not be made: none is due, out
    of turn, or not a bool."""

    def __init__(self, message: str, *, seat: int) -> None:
        super().__init__(message)
        self.seat = seat


class PledgeRoom(Room):
    """After the pass, before the first card, each seat from the dealer's left pledges to
    take no hearts (True) or not (False, the default), seeing the earlier answers (our
    order: 004 says only "before the first card is played"; the turn is 000 'Auction
    Hearts'' for its bidding, "rotates to the left")."""

    kinds = (DecisionKind.PLEDGE,)
    stage = Stage.EXCHANGE
    phase = Phase.PLEDGING
    error = IllegalPledgeError

    @classmethod
    def selects(cls, rules: Rules) -> bool:
        return rules.no_hearts_pledge

    @classmethod
    def words(
        cls, kind: DecisionKind, seat: int, data: Any, show: Show = str, *, you: bool = False
    ) -> str:
        if you:
            return "You pledge to take no hearts" if data else "You make no pledge"
        return f"seat {seat} " + ("pledges to take no hearts" if data else "makes no pledge")

    @classmethod
    def judge(cls, hand: Any, kind: DecisionKind, seat: int, answer: object) -> Any:
        raise refused(
            IllegalPledgeError("no pledge is due now: these rules have no pledge", seat=seat),
            "illegal",
        )

    def __init__(self, hand: HandPort) -> None:
        super().__init__(hand)
        self.pledges: list[bool | None] = [None] * hand.players

    @property
    def due(self) -> tuple[int, ...]:
        """(seat,) for the seat whose pledge is due; () otherwise."""
        return first_unanswered(self.hand, self.pledges) if self.waiting else ()

    def pending(self) -> Decision | None:
        due = self.due
        return Decision(DecisionKind.PLEDGE, due[0], (False, True), False) if due else None

    def check(self, kind: DecisionKind, seat: int, answer: object) -> Any:
        due = self.due
        if not due:
            raise refused(
                IllegalPledgeError(
                    "no pledge is due now: the hand is " + self.hand.phase.value, seat=seat
                ),
                "illegal",
            )
        if seat != due[0]:
            raise refused(
                IllegalPledgeError(
                    f"seat {seat} cannot pledge: it is seat {due[0]}'s turn", seat=seat
                ),
                "illegal",
            )
        if not isinstance(answer, bool):
            raise refused(
                IllegalPledgeError(f"a pledge is true or false, not {answer!r}", seat=seat),
                "malformed",
            )
        return answer

    def apply(self, kind: DecisionKind, seat: int, value: Any) -> None:
        self.pledges[seat] = value
        if None not in self.pledges:
            self.finish()

    def still_to(self) -> str:
        return (
            f"seat {self.due[0]} has still to say whether it pledges to take no hearts "
            "(004 'Scoring variants')"
        )

    def view(self, seat: int) -> dict[str, Any]:
        return {"pledges": tuple(self.pledges)}

    def score(self, scores: tuple[int, ...], totals: Sequence[int]) -> tuple[int, ...]:
        """004: "If they succeed in their pledge, they may subtract 10 penalty points, but if
        they take any hearts they are assessed 10 additional penalty points": -pledge_points
        for a pledge kept, +pledge_points for one broken (on top of the moon: a pledger who
        shot the moon took hearts and broke it)."""
        worth = self.hand.rules.pledge_points
        hearts = Suit.HEARTS.mask
        return tuple(
            score + (0 if not pledged else worth if self.hand.taken(seat).mask & hearts else -worth)
            for seat, (score, pledged) in enumerate(zip(scores, self.pledges, strict=True))
        )
