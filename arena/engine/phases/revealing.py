"""The reveal (003 'HEARTLESS'): after the pass "each player lays one card face down on the
table"; the cards turned over choose the scoring suit (`heartless.scoring_suit_of`). Only
rules with scoring_suit_choice 'revealed' have it."""

from __future__ import annotations

from typing import Any

from ..cards import Card, CardParseError, Suit, to_card
from ..decisions import Decision, DecisionKind
from ..heartless import scoring_suit_of
from ..rules import Rules, ScoringSuitChoice
from .room import HandPort, Phase, Room, Show, Stage, refused


class IllegalRevealError(ValueError):
    """A reveal (003 'HEARTLESS') that may not be made: none is due, a bad seat, a seat
    that has revealed already, or a card the seat does not hold."""

    def __init__(self, message: str, *, seat: int, card: Card | None) -> None:
        super().__init__(message)
        self.seat = seat
        self.card = card


class RevealRoom(Room):
    """Seats reveal in any order (asked in seat order); the card stays in the seat's hand
    ("the players return the face-up card to their hand"). When the last one does, the
    scoring suit is chosen, `rules` becomes `base_rules.for_scoring_suit(suit)` and play
    begins, led by that suit's opening card. The default is the seat's lowest card."""

    kinds = (DecisionKind.REVEAL,)
    stage = Stage.EXCHANGE
    phase = Phase.REVEALING
    error = IllegalRevealError

    @classmethod
    def selects(cls, rules: Rules) -> bool:
        return rules.scoring_suit_choice is ScoringSuitChoice.REVEALED

    @classmethod
    def decode(cls, kind: DecisionKind, data: Any) -> Any:
        return to_card(data)

    @classmethod
    def words(
        cls, kind: DecisionKind, seat: int, data: Any, show: Show = str, *, you: bool = False
    ) -> str:
        who = "You lay" if you else f"seat {seat} lays"
        return f"{who} {show(data)} face down"

    @classmethod
    def judge(cls, hand: Any, kind: DecisionKind, seat: int, answer: object) -> Any:
        raise refused(
            IllegalRevealError(
                "no reveal is due now: these rules have a fixed scoring suit", seat=seat, card=None
            ),
            "illegal",
        )

    def __init__(self, hand: HandPort) -> None:
        super().__init__(hand)
        self.reveals: list[Card | None] = [None] * hand.players
        self.suit: Suit | None = None

    @property
    def due(self) -> tuple[int, ...]:
        """Seats that still have to reveal a card (empty outside the reveal phase)."""
        if not self.waiting:
            return ()
        return tuple(seat for seat, card in enumerate(self.reveals) if card is None)

    def pending(self) -> Decision | None:
        due = self.due
        if not due:
            return None
        held = self.hand.hand_of(due[0])
        return Decision(DecisionKind.REVEAL, due[0], held, held.first())

    def check(self, kind: DecisionKind, seat: int, answer: object) -> Any:
        hand = self.hand
        if not self.waiting:
            raise refused(
                IllegalRevealError(
                    "no reveal is due now: the hand is " + hand.phase.value, seat=seat, card=None
                ),
                "illegal",
            )
        if not isinstance(seat, int) or not 0 <= seat < hand.players:
            raise refused(
                IllegalRevealError(
                    f"there is no seat {seat!r} in a {hand.players}-player game",
                    seat=seat,
                    card=None,
                ),
                "illegal",
            )
        shown = self.reveals[seat]
        if shown is not None:
            raise refused(
                IllegalRevealError(
                    f"seat {seat} has already revealed {shown}", seat=seat, card=shown
                ),
                "illegal",
            )
        try:
            card = to_card(answer)  # type: ignore[arg-type]  # anything a bot sent
        except CardParseError as error:
            raise refused(
                IllegalRevealError(f"seat {seat} cannot reveal: {error}", seat=seat, card=None),
                "malformed",
            ) from None
        if card not in hand.hand_of(seat):
            raise refused(
                IllegalRevealError(
                    f"seat {seat} cannot reveal {card}: it does not hold it", seat=seat, card=card
                ),
                "not_held",
            )
        return card

    def apply(self, kind: DecisionKind, seat: int, value: Any) -> None:
        self.reveals[seat] = value
        if None in self.reveals:
            return
        hand = self.hand
        self.suit = scoring_suit_of(
            [card for card in self.reveals if card is not None], hand.dealer
        )
        self.waiting = False
        hand.restart(hand.base_rules.for_scoring_suit(self.suit))
        hand.resume()

    def still_to(self) -> str:
        pending = ", ".join(str(s) for s in self.due)
        return (
            f"the hand is still revealing: seats {pending} still have to reveal a card "
            "(003 'HEARTLESS')"
        )

    def view(self, seat: int) -> dict[str, Any]:
        """The cards lie face down until "The players then turn the cards over": a seat sees
        its own at once, the others' once every seat has revealed."""
        if self.suit is not None:
            return {"reveals": tuple(self.reveals)}
        return {"reveals": tuple(c if s == seat else None for s, c in enumerate(self.reveals))}
