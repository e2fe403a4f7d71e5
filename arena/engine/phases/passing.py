"""The pass: the cards a seat gives (in order). The hand runs it with its backend (the
exchange is the core's); this room judges a seat's answer, and keeps the codec and words."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .. import config as core_config
from ..cards import Card, CardParseError, to_card
from ..decisions import DecisionKind
from ..rules import PassDirection
from .room import Room, Show, cards_text, refused
from .tricks import asked


class IllegalPassError(ValueError):
    """A pass of the wrong size, of cards not held, twice, or when no pass is due."""

    def __init__(self, message: str, *, seat: int, code: int) -> None:
        super().__init__(message)
        self.seat = seat
        self.code = code


def _refused(message: str, seat: int, fault: str) -> ValueError:
    return refused(IllegalPassError(message, seat=seat, code=0), fault)


class PassRoom(Room):
    """`size` distinct cards held and passable (a card twice only when the seat holds both
    copies, Cancellation Hearts)."""

    kinds = (DecisionKind.PASS,)

    @classmethod
    def encode(cls, kind: DecisionKind, value: Any) -> Any:
        return [str(card) for card in value]

    @classmethod
    def decode(cls, kind: DecisionKind, data: Any) -> Any:
        return tuple(data)

    @classmethod
    def words(
        cls, kind: DecisionKind, seat: int, data: Any, show: Show = str, *, you: bool = False
    ) -> str:
        if you:
            return f"You pass {cards_text(data, show)}"
        return f"seat {seat} passes {cards_text(data, show)}"

    @classmethod
    def judge(cls, hand: Any, kind: DecisionKind, seat: int, answer: object) -> Any:
        decision = asked(hand, kind, seat)
        count, passable = decision.size, decision.legal
        if isinstance(answer, (str, bytes)) or not isinstance(answer, Sequence):
            raise _refused(
                f"a pass must be a list of cards, not {type(answer).__name__}", seat, "malformed"
            )
        try:
            cards = tuple(to_card(c) for c in answer)
        except CardParseError as error:
            raise _refused(str(error), seat, "malformed") from None
        if len(cards) != count:
            raise _refused(f"passed {len(cards)} cards; the pass is {count}", seat, "illegal")
        held = hand.hand_of(seat)
        twice = getattr(held, "twice", 0)
        if len(set(cards)) != count:
            # Cancellation Hearts (two packs): a card twice only when both copies are held.
            over = [c for c in set(cards) if cards.count(c) > (2 if twice & c.mask else 1)]
            if over or not twice:
                raise _refused("passed the same card twice", seat, "illegal")
        missing = [str(c) for c in cards if c not in held]
        if missing:
            raise _refused(f"passed {' '.join(missing)}, not held by seat {seat}", seat, "not_held")
        forbidden = [str(c) for c in cards if c not in passable]
        if forbidden:
            raise _refused(
                f"passed {' '.join(forbidden)}, which these rules forbid passing "
                "(004 'Passing cards')",
                seat,
                "illegal",
            )
        return cards


def pass_message(hand: Any, code: int, seat: int, cards: Sequence[Card]) -> str:
    """The message of the `IllegalPassError` the backend's ERR_* `code` makes of `seat`'s
    pass of `cards` (`hand`'s pass, its size and its dealer's call say why)."""
    text = " ".join(str(card) for card in cards) or "nothing"
    direction = hand.pass_direction
    reason = {
        core_config.ERR_NOT_PASSING: "no pass is due now"
        + (" (this is a hold hand)" if direction is PassDirection.HOLD else "")
        + (
            f" (the dealer, seat {hand.dealer}, calls the pass first)" if hand.calls_pending else ""
        ),
        core_config.ERR_BAD_SEAT: f"there is no seat {seat}",
        core_config.ERR_ALREADY_PASSED: f"seat {seat} has already passed",
        core_config.ERR_PASS_COUNT: f"a {direction.value} pass is {hand.pass_size} cards, "
        f"not {len(cards)}",
        core_config.ERR_PASS_DUPLICATE: "a card is given twice",
        core_config.ERR_PASS_NOT_IN_HAND: f"seat {seat} does not hold every card passed",
    }.get(code)
    if code == core_config.ERR_PASS_FORBIDDEN:
        named = " ".join(str(card) for card in cards if card in hand.rules.pass_forbidden)
        reason = (
            f"{named} may not be passed under these rules (004 'Passing cards': passing the "
            "Ace, King and/or Queen of Spades may be prohibited)"
        )
    return f"illegal pass by seat {seat} ({text}): {reason or f'error code {code}'}"
