"""Rickety Kate's refusal of a passed QS (M. Kerwin, `Rules.queen_refusal`): "The receiving
player has the right to refuse the Queen of Spades, in which case another card must be
passed in its place". The room holds back a pass holding the QS until every other seat has
passed, asks its receiver (`refuse_queen`) and after a refusal its giver (`replace_pass`),
then gives the pass to the hand's exchange."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import config as core_config
from ..cards import Card, CardParseError, CardSet, to_card
from ..decisions import Decision, DecisionKind
from ..rules import Rules
from .room import HandPort, Phase, Room, Show, Stage, refused

GivePass = Callable[[int, tuple[int, ...]], int]
"""A hand's pass entry point (`Hand.try_pass_indices`): seat, card indices -> 0 or ERR_*."""

_QS = Card.from_str("QS")


class IllegalQueenRefusalError(ValueError):
    """A refusal of the passed QS or its replacement (Rickety Kate, `Rules.queen_refusal`)
    that may not be made: none is due from the seat, a refusal that is not a bool, or a
    replacement that is the QS, a card already passed, a card the giver does not hold or
    one the rules forbid passing."""

    def __init__(self, message: str, *, seat: int) -> None:
        super().__init__(message)
        self.seat = seat


def _refused(message: str, seat: int, fault: str = "illegal") -> ValueError:
    return refused(IllegalQueenRefusalError(message, seat=seat), fault)


def _rank_then_suit(card: Card) -> tuple[int, int]:
    """Order by rank, then by suit (clubs, diamonds, spades, hearts): the replacement's
    default is the lowest card so ordered."""
    return card.rank, int(card.suit or 0)


class QueenRefusalRoom(Room):
    """During the pass: the receiver refuses the QS passed to it (True) or accepts it
    (False, the default); after a refusal the giver names a card of its hand, outside its
    pass, passed in the QS's place (the default: its lowest by rank, then by suit). A giver
    with no card to put in the QS's place is passed on at once: there is nothing to ask."""

    kinds = (DecisionKind.REFUSE_QUEEN, DecisionKind.REPLACE_PASS)
    stage = Stage.PASS
    phase = Phase.PASSING
    error = IllegalQueenRefusalError

    @classmethod
    def selects(cls, rules: Rules) -> bool:
        return rules.queen_refusal

    @classmethod
    def decode(cls, kind: DecisionKind, data: Any) -> Any:
        return to_card(data) if kind is DecisionKind.REPLACE_PASS else data

    @classmethod
    def words(
        cls, kind: DecisionKind, seat: int, data: Any, show: Show = str, *, you: bool = False
    ) -> str:
        queen = show("QS")
        if you:
            if kind is DecisionKind.REPLACE_PASS:
                return f"You pass {show(data)} in the refused {queen}'s place"
            return f"You {'refuse' if data else 'accept'} the {queen} passed to you"
        if kind is DecisionKind.REPLACE_PASS:
            return f"seat {seat} passes {show(data)} in the refused {queen}'s place"
        return f"seat {seat} {'refuses' if data else 'accepts'} the {queen} passed to it"

    @classmethod
    def judge(cls, hand: Any, kind: DecisionKind, seat: int, answer: object) -> Any:
        what = "refusal" if kind is DecisionKind.REFUSE_QUEEN else "replacement"
        raise _refused(f"no {what} of the QS is due now: these rules have no refusal", seat)

    def __init__(self, hand: HandPort) -> None:
        super().__init__(hand)
        self.held = None  # the pass holding the QS, until it is answered (`Room.held`)
        self.offer: tuple[int, int] | None = None
        """(giver, receiver) of the QS passed, from the giver's pass on."""
        self.refused: bool | None = None
        """The receiver's answer: True refused, False accepted, None not (yet) asked."""
        self._give: GivePass | None = None

    def watch_pass(self, give: GivePass) -> GivePass:
        self._give = give
        return self._take_pass

    def _take_pass(self, seat: int, cards: tuple[int, ...]) -> int:
        """A pass holding the QS is checked and held here, not given on, so the exchange
        waits for the receiver's answer; every other pass goes on."""
        give = self._give
        assert give is not None
        hand = self.hand
        held = self.held
        if held is not None and held[0] == seat:
            return core_config.ERR_ALREADY_PASSED
        if _QS.index not in cards or not 0 <= seat < hand.players:
            return give(seat, cards)
        code = self._check_pass(seat, cards)
        if code:
            return code
        if not self.replacements(seat, cards):
            return give(seat, cards)
        offset = hand.pass_direction.offset(hand.players)
        assert offset is not None, "queen_refusal passes go to one receiver"
        self.held = (seat, cards)
        self.offer = (seat, (seat + offset) % hand.players)
        return 0

    def _check_pass(self, seat: int, cards: tuple[int, ...]) -> int:
        """The backend's checks of a pass (same codes), without giving it."""
        hand = self.hand
        if hand.phase is not Phase.PASSING:
            return core_config.ERR_NOT_PASSING
        if seat not in hand.passes_pending:
            return core_config.ERR_ALREADY_PASSED
        if len(cards) != hand.pass_size:
            return core_config.ERR_PASS_COUNT
        if len(set(cards)) != len(cards):
            return core_config.ERR_PASS_DUPLICATE
        mask = 0
        for index in cards:
            if not 0 <= index < 52:
                return core_config.ERR_PASS_NOT_IN_HAND
            mask |= 1 << index
        if mask & ~hand.hand_of(seat).mask:
            return core_config.ERR_PASS_NOT_IN_HAND
        if mask & hand.rules.pass_forbidden.mask:
            return core_config.ERR_PASS_FORBIDDEN
        return 0

    def replacements(self, seat: int, cards: tuple[int, ...]) -> CardSet:
        """The cards the giver may pass in the refused QS's place: its hand but its pass
        (the QS included) and the rules' `pass_forbidden`."""
        passed = 0
        for index in cards:
            passed |= 1 << index
        forbidden = self.hand.rules.pass_forbidden.mask
        return CardSet.from_mask(self.hand.hand_of(seat).mask & ~passed & ~forbidden)

    def due(self) -> tuple[DecisionKind, int] | None:
        """(kind, seat) of the decision due now: the receiver's `REFUSE_QUEEN` once every
        other seat has passed, then after a refusal the giver's `REPLACE_PASS`."""
        offer = self.offer
        if self.held is None or offer is None or self.hand.passes_pending:
            return None
        if self.refused is None:
            return DecisionKind.REFUSE_QUEEN, offer[1]
        return DecisionKind.REPLACE_PASS, offer[0]

    def pending(self) -> Decision | None:
        due = self.due()
        if due is None:
            return None
        kind, seat = due
        if kind is DecisionKind.REFUSE_QUEEN:
            return Decision(kind, seat, (False, True), False)
        assert self.held is not None
        legal = self.replacements(seat, self.held[1])
        return Decision(kind, seat, legal, min(legal, key=_rank_then_suit), 1)

    def check(self, kind: DecisionKind, seat: int, answer: object) -> Any:
        due = self.due()
        if kind is DecisionKind.REFUSE_QUEEN:
            if due is None or due[0] is not kind:
                raise _refused("no refusal of the QS is due now", seat)
            if seat != due[1]:
                raise _refused(
                    f"seat {seat} cannot refuse the QS: it is passed to seat {due[1]}", seat
                )
            if not isinstance(answer, bool):
                raise _refused(f"{answer!r} is not a refusal (true or false)", seat, "malformed")
            return answer
        if due is None or due[0] is not kind:
            raise _refused("no replacement of the QS is due now", seat)
        if seat != due[1]:
            raise _refused(f"seat {seat} cannot replace the QS: seat {due[1]} passed it", seat)
        try:
            card = to_card(answer)  # type: ignore[arg-type]  # anything a bot sent
        except (CardParseError, TypeError, ValueError) as error:
            raise _refused(
                f"seat {seat} cannot pass {answer!r} in the QS's place: {error}", seat, "malformed"
            ) from None
        assert self.held is not None
        if card not in self.replacements(seat, self.held[1]):
            raise _refused(
                f"seat {seat} cannot pass {card} in the refused QS's place: another card of its "
                "hand, not already passed, goes instead (Rickety Kate)",
                seat,
            )
        return card

    def apply(self, kind: DecisionKind, seat: int, value: Any) -> None:
        held = self.held
        assert held is not None
        assert self._give is not None
        if kind is DecisionKind.REFUSE_QUEEN:
            self.refused = value
            if value:
                return  # the giver names the card passed in its place
            cards = held[1]
        else:
            cards = tuple(value.index if i == _QS.index else i for i in held[1])
        self.held = None  # the pass, as accepted or with its replacement, is exchanged
        code = self._give(held[0], cards)
        assert not code, f"the held pass was checked, yet the backend refused it ({code})"

    def still_to(self) -> str:
        due = self.due()
        if due is None:
            return super().still_to()
        if due[0] is DecisionKind.REFUSE_QUEEN:
            return f"seat {due[1]} has still to refuse or accept the QS passed to it"
        return f"seat {due[1]} has still to pass a card in the refused QS's place"

    def view(self, seat: int) -> dict[str, Any]:
        """The offered QS is known to its giver and, once asked, its receiver; the other
        seats know nothing of it (the pass is face down)."""
        offer = self.offer
        if offer is None or seat not in offer:
            return {}
        if seat == offer[1] and self.refused is None and self.due() is None:
            return {}
        return {"queen_offer": offer, "queen_refused": self.refused}
