"""The dealer's call (003 'Simple variations': "The dealer chooses the passing rule"): a
direction, a split (one direction per passed card), or with `pass_call_counts` a count
too (004 'Passing cards': "The Dealer may choose how many cards and where to pass"). The
room asks the dealer, judges the call and gives it to the hand (`HandPort.call_pass`,
which deals the backend again with the pass called)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..decisions import CountedCall, Decision, DecisionKind
from ..rules import PassDirection, Rules
from .room import Phase, Room, Show, Stage, refused


class IllegalCallError(ValueError):
    """A dealer's call (003 'Simple variations') that may not be made: none is due, or
    the pass is not one of the rules' `pass_call_options`."""

    def __init__(self, message: str, *, direction: str) -> None:
        super().__init__(message)
        self.direction = direction


def _refused(message: str, answer: object, fault: str = "illegal") -> ValueError:
    return refused(IllegalCallError(message, direction=str(answer)), fault)


def _is_counted(value: Any) -> bool:
    """A call's JSON form with its count: [direction, count] (a split lists directions)."""
    return (
        isinstance(value, list)
        and len(value) == 2
        and isinstance(value[1], int)
        and not isinstance(value[1], bool)
    )


def _listed(options: Sequence[PassDirection]) -> str:
    return ", ".join(d.value for d in options)


class CallRoom(Room):
    """Asked of the dealer from the deal, in a hand whose pass is 'dealer_calls': one of
    the options; a split of one direction per passed card (each one of the rules'
    `split_directions`); or a `CountedCall` of an option and a count. The default is the
    first option."""

    kinds = (DecisionKind.CALL,)
    stage = Stage.DEAL
    phase = Phase.CALLING
    error = IllegalCallError

    @classmethod
    def selects(cls, rules: Rules) -> bool:
        return PassDirection.DEALER_CALLS in rules.pass_schedule

    @classmethod
    def encode(cls, kind: DecisionKind, value: Any) -> Any:
        if isinstance(value, CountedCall):
            return [str(value.direction), value.size]  # 004 'Passing cards': where, how many
        if isinstance(value, (tuple, list)):
            return [str(d) for d in value]
        return str(value)

    @classmethod
    def decode(cls, kind: DecisionKind, data: Any) -> Any:
        if _is_counted(data):
            return CountedCall(data[0], data[1])
        return tuple(data) if isinstance(data, list) else data

    @classmethod
    def words(
        cls, kind: DecisionKind, seat: int, data: Any, show: Show = str, *, you: bool = False
    ) -> str:
        if _is_counted(data):
            how = f"{data[0]}, {data[1]} card{'' if data[1] == 1 else 's'}"
        elif isinstance(data, list):  # 003 'Simple variations': each card its own way
            how = "a split: " + ", ".join(f"card {i + 1} {way}" for i, way in enumerate(data))
        else:
            how = str(data)
        return f"You call {how}" if you else f"the dealer calls {how}"

    @classmethod
    def judge(cls, hand: Any, kind: DecisionKind, seat: int, answer: object) -> Any:
        raise _refused("no pass is to be called now: these rules have no dealer's call", answer)

    def begin(self) -> None:
        """Only a hand dealt with the pass 'dealer_calls' asks for a call."""
        if self.hand.pass_direction is PassDirection.DEALER_CALLS:
            super().begin()

    @property
    def options(self) -> tuple[PassDirection, ...]:
        """The passes the dealer may call now; () when no call is due."""
        return self.hand.rules.pass_call_options if self.waiting else ()

    @property
    def counts(self) -> tuple[int, ...]:
        """The counts the dealer may call now: the rules' `pass_call_counts`, or
        (`pass_count`,) when they list none; () when no call is due."""
        if not self.waiting:
            return ()
        return self.hand.rules.pass_call_counts or (self.hand.rules.pass_count,)

    def pending(self) -> Decision | None:
        if not self.waiting:
            return None
        options = self.options
        return Decision(DecisionKind.CALL, self.hand.dealer, options, options[0])

    def check(self, kind: DecisionKind, seat: int, answer: object) -> Any:
        """The call in the form `apply` takes: a `PassDirection`, a tuple of them (a
        split) or a `CountedCall` of a `PassDirection` and a count."""
        if not self.waiting:
            raise _refused("no pass is to be called now", answer)
        dealer = self.hand.dealer
        if seat != dealer:
            raise _refused(f"seat {seat} is not the dealer ({dealer})", answer)
        if isinstance(answer, CountedCall):
            called = self._direction(answer.direction)
            counts = self.counts
            size = answer.size
            if not isinstance(size, int) or isinstance(size, bool) or size not in counts:
                allowed = ", ".join(str(c) for c in counts)
                raise _refused(
                    f"the dealer may call {allowed} cards, not {size!r} (004 'Passing cards')",
                    f"{called.value}:{size}",
                )
            return CountedCall(called, size)
        if isinstance(answer, (list, tuple)):
            return self._split(answer)
        return self._direction(answer)

    def _direction(self, answer: object) -> PassDirection:
        """A one-way call: one of the options."""
        try:
            called = PassDirection(str(answer))
        except ValueError:
            raise _refused(f"{answer!r} is not a pass direction", answer, "malformed") from None
        options = self.options
        if called not in options:
            raise _refused(
                f"the dealer may call {_listed(options)}, not {called.value} "
                "(003 'Simple variations')",
                called.value,
            )
        return called

    def _split(self, answer: Sequence[object]) -> tuple[PassDirection, ...]:
        """A split call: allowed, one direction per passed card (one of the counts, at
        least two), each one of the rules' `split_directions`."""
        text = "+".join(str(d) for d in answer)
        allowed = self.hand.rules.split_directions
        if not allowed:
            raise _refused("these rules let the dealer call one direction only, not a split", text)
        ways = _listed(allowed)
        split = []
        for way in answer:
            try:
                split.append(PassDirection(str(way)))
            except ValueError:
                raise _refused(
                    f"{str(way)!r} in a split is not a pass direction: each card of a split "
                    f"goes {ways}, not {str(way)!r}",
                    text,
                    "malformed",
                ) from None
        sizes = " or ".join(str(c) for c in self.counts if c >= 2)
        if len(split) < 2 or len(split) not in self.counts:
            raise _refused(
                f"a split of {len(split)} directions; {sizes} cards are passed (a split names "
                f"one direction per passed card ({sizes}), not {len(split)})",
                text,
            )
        for way in split:
            if way not in allowed:
                raise _refused(
                    f"a split card goes {way.value}; each card of a split goes {ways}, not "
                    f"{way.value!r} (003 'Simple variations')",
                    text,
                )
        return tuple(split)

    def apply(self, kind: DecisionKind, seat: int, value: Any) -> None:
        count = self.hand.rules.pass_count
        split: tuple[PassDirection, ...] = ()
        if isinstance(value, CountedCall):
            direction, count = PassDirection(value.direction), value.size
        elif isinstance(value, tuple):
            direction, split, count = PassDirection.SPLIT, value, len(value)
        else:
            direction = value
        self.waiting = False
        self.hand.call_pass(direction, split, count)

    def still_to(self) -> str:
        return (
            f"the dealer (seat {self.hand.dealer}) has not called the pass yet "
            "(003 'Simple variations')"
        )
