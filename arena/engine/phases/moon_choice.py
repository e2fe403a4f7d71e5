"""The shooter's choice (004 'Shooting the moon'): after the last trick, the shooter "add"s
the moon to the others or "subtract"s it from himself, where the moon rule lets him."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .. import config as core_config
from ..decisions import Decision, DecisionKind
from ..rules import MoonRule, Rules
from .room import HandPort, Phase, Room, Show, Stage, refused

CHOOSING_MOONS = frozenset(
    {MoonRule.SHOOTERS_CHOICE, MoonRule.ADD_UNLESS_LOSING, MoonRule.SUBTRACT_AFTER_SCORE}
)
"""The moon rules under which the shooter may have a choice to make."""
MOON_CHOICES = ("add", "subtract")
_CODES = {"add": core_config.MOON_CHOICE_ADD, "subtract": core_config.MOON_CHOICE_SUBTRACT}


class IllegalMoonChoiceError(ValueError):
    """A shooter's choice (004 'Shooting the moon') that may not be made: none is due, a
    seat that did not shoot, or neither 'add' nor 'subtract'."""

    def __init__(self, message: str, *, seat: int) -> None:
        super().__init__(message)
        self.seat = seat


class MoonChoiceRoom(Room):
    """The shooter's choice; its default is the engine's pick (what the hand scored before
    the shooter was asked, so a replay written without it scores the same)."""

    kinds = (DecisionKind.MOON_CHOICE,)
    stage = Stage.END
    phase = Phase.OVER
    error = IllegalMoonChoiceError

    @classmethod
    def selects(cls, rules: Rules) -> bool:
        return rules.moon in CHOOSING_MOONS

    @classmethod
    def words(
        cls, kind: DecisionKind, seat: int, data: Any, show: Show = str, *, you: bool = False
    ) -> str:
        if you:
            said = "add it to the others" if data == "add" else "subtract it from your own score"
            return f"You shot the moon: you {said}"
        said = "adds it to the others" if data == "add" else "subtracts it from his own score"
        return f"seat {seat} shot the moon: {said}"

    @classmethod
    def judge(cls, hand: Any, kind: DecisionKind, seat: int, answer: object) -> Any:
        raise refused(
            IllegalMoonChoiceError(
                "no shooter's choice is due now (004 'Shooting the moon')", seat=seat
            ),
            "illegal",
        )

    def __init__(self, hand: HandPort) -> None:
        super().__init__(hand)
        self.choice: str | None = None

    def offered(self, totals: Sequence[int] | None = None) -> tuple[int, str] | None:
        """(shooter, the engine's pick) when a seat shot the moon and the choice changes the
        scores with these game `totals` (default the hand's `game_totals`); None otherwise.
        The core says whether it does (the shooter's choice, add unless losing where
        subtracting is allowed, subtract after a score once some total reached it)."""
        hand = self.hand
        if not hand.is_over:
            return None
        shooter = hand.shooter()
        if shooter < 0:
            return None
        played = tuple(hand.game_totals if totals is None else totals)
        add = hand.core_points(played, core_config.MOON_CHOICE_ADD)
        subtract = hand.core_points(played, core_config.MOON_CHOICE_SUBTRACT)
        if add == subtract:
            return None
        engine = hand.core_points(played, core_config.MOON_CHOICE_ENGINE)
        return shooter, "subtract" if engine == subtract else "add"

    def pending(self) -> Decision | None:
        offered = self.offered() if self.choice is None else None
        if offered is None:
            return None
        shooter, pick = offered
        return Decision(DecisionKind.MOON_CHOICE, shooter, MOON_CHOICES, pick)

    def check(self, kind: DecisionKind, seat: int, answer: object) -> Any:
        offered = self.offered() if self.choice is None else None
        if offered is None:
            raise type(self).judge(self.hand, kind, seat, answer)
        if seat != offered[0]:
            raise refused(
                IllegalMoonChoiceError(
                    f"seat {seat} did not shoot the moon (seat {offered[0]} did)", seat=seat
                ),
                "illegal",
            )
        if answer not in MOON_CHOICES:
            raise refused(
                IllegalMoonChoiceError(
                    f"the shooter chooses 'add' or 'subtract', not {answer!r}", seat=seat
                ),
                "malformed",
            )
        return str(answer)

    def apply(self, kind: DecisionKind, seat: int, value: Any) -> None:
        self.choice = value

    def view(self, seat: int) -> dict[str, Any]:
        return {"moon_choice": self.choice}

    def score(self, scores: tuple[int, ...], totals: Sequence[int]) -> tuple[int, ...]:
        """The choice's scores in place of the engine's pick, once made."""
        if self.choice is None:
            return scores
        hand = self.hand
        chosen = hand.core_points(totals, _CODES[self.choice])
        picked = hand.core_points(totals)
        return tuple(s + c - p for s, c, p in zip(scores, chosen, picked, strict=True))
