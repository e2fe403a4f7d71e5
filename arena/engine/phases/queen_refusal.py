"""Rickety Kate's refusal of a passed QS (M. Kerwin, `Rules.queen_refusal`): "The receiving
player has the right to refuse the Queen of Spades, in which case another card must be
passed in its place". The hand holds the pass back and runs the exchange; these rooms
judge the receiver's refusal and the giver's replacement, and keep their codecs and words."""

from __future__ import annotations

from typing import Any

from ..cards import to_card
from ..decisions import DecisionKind
from .room import Room, Show, refused
from .tricks import asked, read_card


class IllegalQueenRefusalError(ValueError):
    """A refusal of the passed QS or its replacement (Rickety Kate, `Rules.queen_refusal`)
    that may not be made: none is due from the seat, a refusal that is not a bool, or a
    replacement that is the QS, a card already passed, a card the giver does not hold or
    one the rules forbid passing."""

    def __init__(self, message: str, *, seat: int) -> None:
        super().__init__(message)
        self.seat = seat


class RefuseQueenRoom(Room):
    """The receiver refuses the QS passed to it (True) or accepts it (False, the default)."""

    kinds = (DecisionKind.REFUSE_QUEEN,)

    @classmethod
    def words(cls, kind: DecisionKind, seat: int, data: Any, show: Show = str) -> str:
        return f"seat {seat} {'refuses' if data else 'accepts'} the {show('QS')} passed to it"

    @classmethod
    def judge(cls, hand: Any, kind: DecisionKind, seat: int, answer: object) -> Any:
        asked(hand, kind, seat)
        if isinstance(answer, bool):
            return answer
        raise refused(
            IllegalQueenRefusalError(f"{answer!r} is not a refusal (true or false)", seat=seat),
            "malformed",
        )


class ReplacePassRoom(Room):
    """After a refusal the giver names a card of its hand, outside its pass, passed in the
    QS's place (the default: its lowest by rank, then by suit)."""

    kinds = (DecisionKind.REPLACE_PASS,)

    @classmethod
    def decode(cls, kind: DecisionKind, data: Any) -> Any:
        return to_card(data)

    @classmethod
    def words(cls, kind: DecisionKind, seat: int, data: Any, show: Show = str) -> str:
        return f"seat {seat} passes {show(data)} in the refused {show('QS')}'s place"

    @classmethod
    def judge(cls, hand: Any, kind: DecisionKind, seat: int, answer: object) -> Any:
        legal = asked(hand, kind, seat).legal
        card = read_card(answer)
        if card not in legal:
            raise refused(
                IllegalQueenRefusalError(
                    f"seat {seat} cannot pass {card} in the refused QS's place: another card of "
                    "its hand, not already passed, goes instead",
                    seat=seat,
                ),
                "illegal",
            )
        return card
