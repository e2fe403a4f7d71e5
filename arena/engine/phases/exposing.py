"""Gong Zhu's exposed cards (Pagat, https://www.pagat.com/reverse/gongzhu.html): "There are
four cards which may be exposed by their holders before the start of play" (rules with
`exposures`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .. import config as core_config
from ..cards import CardSet, to_card
from ..decisions import Decision, DecisionKind
from ..rules import EXPOSABLE, Rules
from .room import HandPort, Phase, Room, Show, Stage, cards_text, first_unanswered, refused

_NO_CARDS = CardSet()


class IllegalExposureError(ValueError):
    """An exposure (Gong Zhu) that may not be made: none is due, out of turn, or a card the
    seat may not expose (not one of the AH, QS, JD and TC, or not held)."""

    def __init__(self, message: str, *, seat: int) -> None:
        super().__init__(message)
        self.seat = seat


def exposed_config(rules: Rules, shown: CardSet) -> core_config.CoreConfig:
    """The core configuration of a hand whose seats exposed `shown` (Gong Zhu): the rules'
    (`Rules.for_exposures(shown)`, the values doubled, for `rules` as dealt) with the
    `exposed` mask (the play rule) and `doubler_exposed` (the TC quadruples)."""
    return rules.core_config()._replace(
        exposed=shown.mask, doubler_exposed=int(EXPOSABLE[3] in shown)
    )


class ExposeRoom(Room):
    """After the pass (Gong Zhu has none), each seat from the dealer's left exposes any of
    the AH, QS, JD and TC it holds (possibly none: the default), seeing the earlier
    exposures, which are face up (our order: Pagat says only "before the start of play";
    the turn is the play's own direction). When the last seat has answered, play starts
    under `Rules.for_exposures` and the play rule of exposed cards."""

    kinds = (DecisionKind.EXPOSE,)
    stage = Stage.EXCHANGE
    phase = Phase.EXPOSING
    error = IllegalExposureError

    @classmethod
    def selects(cls, rules: Rules) -> bool:
        return bool(rules.exposures)

    @classmethod
    def encode(cls, kind: DecisionKind, value: Any) -> Any:
        return [str(card) for card in value]

    @classmethod
    def decode(cls, kind: DecisionKind, data: Any) -> Any:
        return tuple(to_card(card) for card in data)

    @classmethod
    def words(
        cls, kind: DecisionKind, seat: int, data: Any, show: Show = str, *, you: bool = False
    ) -> str:
        if you:
            return "You expose " + cards_text(data, show) if data else "You expose nothing"
        return f"seat {seat} " + (
            "exposes " + cards_text(data, show) if data else "exposes nothing"
        )

    @classmethod
    def judge(cls, hand: Any, kind: DecisionKind, seat: int, answer: object) -> Any:
        raise refused(
            IllegalExposureError(
                "no exposure is due now: these rules have no exposures", seat=seat
            ),
            "illegal",
        )

    def __init__(self, hand: HandPort) -> None:
        super().__init__(hand)
        self.exposures: list[CardSet | None] = [None] * hand.players

    @property
    def due(self) -> tuple[int, ...]:
        """(seat,) for the seat whose exposure is due; () otherwise."""
        return first_unanswered(self.hand, self.exposures) if self.waiting else ()

    def exposable(self, seat: int) -> CardSet:
        """The cards `seat` may expose: those of Pagat's four it holds."""
        return self.hand.hand_of(seat) & CardSet(EXPOSABLE)

    @property
    def exposed(self) -> CardSet:
        """Every card exposed so far."""
        return CardSet(card for shown in self.exposures if shown for card in shown)

    def pending(self) -> Decision | None:
        due = self.due
        if not due:
            return None
        return Decision(DecisionKind.EXPOSE, due[0], self.exposable(due[0]), ())

    def check(self, kind: DecisionKind, seat: int, answer: object) -> Any:
        due = self.due
        if not due:
            raise refused(
                IllegalExposureError(
                    "no exposure is due now: the hand is " + self.hand.phase.value, seat=seat
                ),
                "illegal",
            )
        if seat != due[0]:
            raise refused(
                IllegalExposureError(
                    f"seat {seat} cannot expose: it is seat {due[0]}'s turn", seat=seat
                ),
                "illegal",
            )
        if isinstance(answer, str):
            answer = answer.split()
        if isinstance(answer, CardSet | set | frozenset):  # as Hand.apply_exposure always took
            answer = list(answer)
        if isinstance(answer, bytes) or not isinstance(answer, Sequence):
            raise refused(
                IllegalExposureError(
                    f"an exposure is a list of cards, not {type(answer).__name__}", seat=seat
                ),
                "malformed",
            )
        try:
            chosen = [to_card(card) for card in answer]
        except (TypeError, ValueError) as error:
            raise refused(
                IllegalExposureError(f"seat {seat} cannot expose: {error}", seat=seat), "malformed"
            ) from None
        shown = CardSet(chosen)
        if len(shown) != len(chosen):
            raise refused(
                IllegalExposureError(f"seat {seat} names a card twice", seat=seat), "illegal"
            )
        held = self.hand.hand_of(seat)
        if shown - held:
            raise refused(
                IllegalExposureError(
                    f"seat {seat} cannot expose {cards_text(list(shown - held))}: not held by "
                    f"seat {seat}",
                    seat=seat,
                ),
                "not_held",
            )
        wrong = shown - self.exposable(seat)
        if wrong:
            raise refused(
                IllegalExposureError(
                    f"seat {seat} cannot expose {cards_text(list(wrong))}: only the AH, QS, JD "
                    "and TC it holds may be exposed (Gong Zhu)",
                    seat=seat,
                ),
                "illegal",
            )
        return tuple(sorted(chosen))

    def apply(self, kind: DecisionKind, seat: int, value: Any) -> None:
        self.exposures[seat] = CardSet(value)
        if None not in self.exposures:
            shown = self.exposed
            self.waiting = False
            if shown:  # the play rule and the values of the exposed cards apply
                rules = self.hand.rules.for_exposures(shown)
                self.hand.restart(rules, config=exposed_config(rules, shown))
            self.hand.resume()

    def still_to(self) -> str:
        return (
            f"seat {self.due[0]} has still to say which cards it exposes "
            '(Gong Zhu: "before the start of play")'
        )

    def view(self, seat: int) -> dict[str, Any]:
        return {"exposed": tuple(self.exposures)}
